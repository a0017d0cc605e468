package gomoku

import (
	"fmt"
	"strings"
)

// Rule is a rule variant: which lines win and which moves are forbidden.
type Rule int

const (
	// Freestyle: a line of five or more stones wins, for both colours.
	Freestyle Rule = iota
	// Standard: only a line of exactly five wins; an overline (six or more)
	// is legal but does not win. Also called "exactly five".
	Standard
	// Renju: Black wins only with exactly five and may not make a double
	// three, a double four or an overline; White wins with five or more.
	Renju
)

// ParseRule parses "freestyle", "standard" (also "exactly-five") or
// "renju", case-insensitively.
func ParseRule(s string) (Rule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "freestyle":
		return Freestyle, nil
	case "standard", "exactly-five":
		return Standard, nil
	case "renju":
		return Renju, nil
	}
	return 0, fmt.Errorf("gomoku: unknown rule %q (want freestyle, standard or renju)", s)
}

// String returns "freestyle", "standard" or "renju".
func (r Rule) String() string {
	switch r {
	case Freestyle:
		return "freestyle"
	case Standard:
		return "standard"
	case Renju:
		return "renju"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// exactFive reports whether colour c wins only with exactly five under r.
func (r Rule) exactFive(c Color) bool {
	return r == Standard || (r == Renju && c == Black)
}

// Color is the colour of a stone or of a player.
type Color int8

const (
	// Black moves first.
	Black Color = iota
	// White moves second.
	White
)

// Other returns the opponent's colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int(c))
}

package gomoku

import (
	"fmt"
	"strings"
)

// Point is a board intersection, 0-based. X is the column (a = 0) and Y the
// row index, so that the row number in the notation is Y+1: "a1" is {0, 0}
// and "h8" is {7, 7}, the centre of the 15x15 board. These are also the
// Gomocup protocol's x,y.
type Point struct{ X, Y int }

// MinSize and MaxSize bound the board sizes NewBoard accepts (15, 19 and
// 20); the notation has letters up to "t" for 20x20.
const (
	MinSize = 15 // the standard board
	MaxSize = 20 // the Gomocup freestyle league's board (engine gomocup)
)

// String returns the point in the usual notation, e.g. "h8". Columns run
// a, b, c, ... without skipping i (gomoku and renju notation, unlike go's).
func (p Point) String() string {
	if p.X < 0 || p.X >= 26 || p.Y < 0 {
		return fmt.Sprintf("(%d,%d)", p.X, p.Y)
	}
	return fmt.Sprintf("%c%d", 'a'+p.X, p.Y+1)
}

// in reports whether p lies on a board of the given size.
func (p Point) in(size int) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size
}

// ParsePoint parses a point such as "h8" (case-insensitive) and checks that
// it lies on a board of the given size.
func ParsePoint(s string, size int) (Point, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	p, n, err := scanPoint(t)
	if err != nil {
		return Point{}, fmt.Errorf("gomoku: point %q: %w", s, err)
	}
	if n != len(t) {
		return Point{}, fmt.Errorf("gomoku: point %q: trailing characters", s)
	}
	if !p.in(size) {
		return Point{}, fmt.Errorf("gomoku: point %q is off the %dx%d board", s, size, size)
	}
	return p, nil
}

// scanPoint reads one lower-case point from the front of s and returns it
// with the number of bytes used. Rows are at most two digits.
func scanPoint(s string) (Point, int, error) {
	if len(s) == 0 {
		return Point{}, 0, fmt.Errorf("empty")
	}
	c := s[0]
	if c < 'a' || c > 'z' {
		return Point{}, 0, fmt.Errorf("column %q is not a letter", c)
	}
	i, row := 1, 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		row = row*10 + int(s[i]-'0')
		i++
	}
	if i == 1 {
		return Point{}, 0, fmt.Errorf("missing row number")
	}
	if row == 0 || s[1] == '0' {
		return Point{}, 0, fmt.Errorf("bad row number")
	}
	return Point{X: int(c - 'a'), Y: row - 1}, i, nil
}

// ParseRecord parses a game record: points either run together ("h8i9j10")
// or separated by spaces or commas ("h8 i9 j10"). Each point must lie on a
// board of the given size; it does not check that the moves are legal (play
// them on a Board for that). Every point starts with a letter, so run-together
// records are unambiguous: "a11b2" is a11, b2.
func ParseRecord(s string, size int) ([]Point, error) {
	t := strings.ToLower(s)
	var moves []Point
	for i := 0; i < len(t); {
		c := t[i]
		if c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		p, n, err := scanPoint(t[i:])
		if err != nil {
			return nil, fmt.Errorf("gomoku: record at byte %d: %w", i, err)
		}
		if !p.in(size) {
			return nil, fmt.Errorf("gomoku: record at byte %d: %s is off the %dx%d board", i, p, size, size)
		}
		moves = append(moves, p)
		i += n
	}
	return moves, nil
}

// FormatRecord prints moves run together, e.g. "h8i9j10"; ParseRecord reads
// it back.
func FormatRecord(moves []Point) string {
	var sb strings.Builder
	for _, m := range moves {
		sb.WriteString(m.String())
	}
	return sb.String()
}

package reversi

import (
	"fmt"
	"strings"
)

// ParseTranscript reads a game transcript such as "f5d6c3d3c4": squares of
// two characters, either case, written one after another. A pass is "pa" (or
// "pass"). Spaces, commas and hyphens between moves are allowed and ignored.
// It checks only the notation; Replay checks the moves against the rules.
func ParseTranscript(s string) ([]Square, error) {
	var moves []Square
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r', ',', '-':
			i++
			continue
		}
		if i+4 <= len(s) && strings.EqualFold(s[i:i+4], "pass") {
			moves = append(moves, Pass)
			i += 4
			continue
		}
		if i+2 > len(s) {
			return nil, fmt.Errorf("reversi: transcript: dangling %q at offset %d", s[i:], i)
		}
		sq, err := ParseSquare(s[i : i+2])
		if err != nil {
			return nil, fmt.Errorf("reversi: transcript: move %d at offset %d: bad square %q", len(moves)+1, i, s[i:i+2])
		}
		moves = append(moves, sq)
		i += 2
	}
	return moves, nil
}

// FormatTranscript writes moves in the compact form "f5d6c3", with "pa" for a
// pass, so that ParseTranscript reads it back.
func FormatTranscript(moves []Square) string {
	b := make([]byte, 0, 2*len(moves))
	for _, m := range moves {
		if m == Pass {
			b = append(b, "pa"...)
			continue
		}
		b = append(b, m.String()...)
	}
	return string(b)
}

// Replay plays moves from p and returns the final position. Passes may be
// written ("pa") or left out: when the side to move must pass and the next
// move is a square, the pass is made implicitly (many published transcripts
// omit passes). An illegal move is an error naming its number.
func Replay(p Position, moves []Square) (Position, error) {
	for i, m := range moves {
		if m != Pass && p.MustPass() {
			p, _ = p.PlayPass()
		}
		next, err := p.Play(m)
		if err != nil {
			return p, fmt.Errorf("reversi: move %d (%s): %w", i+1, m, err)
		}
		p = next
	}
	return p, nil
}

package nboard

import (
	"fmt"
	"strings"

	"github.com/boardhall/boardhall/engine/reversi"
)

// parseGGF reads a GGF game record as NBoard sends it with "set game" and
// returns the position at the END of the record: the BO[] start position
// with every B[] and W[] move applied in order. Other tags are ignored. A
// move may carry "/eval/time" after its square; "PA" is a pass.
func parseGGF(s string) (reversi.Position, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(;") || !strings.HasSuffix(s, ";)") {
		return reversi.Position{}, fmt.Errorf("nboard: game record must look like (;...;), got %q", clip(s))
	}
	body := s[2 : len(s)-2]
	var (
		pos     reversi.Position
		haveBO  bool
		moveNum int
	)
	for len(body) > 0 {
		body = strings.TrimLeft(body, " \t\r\n")
		if body == "" {
			break
		}
		open := strings.IndexByte(body, '[')
		if open < 0 {
			return reversi.Position{}, fmt.Errorf("nboard: game record: text without a tag value: %q", clip(body))
		}
		closing := strings.IndexByte(body[open:], ']')
		if closing < 0 {
			return reversi.Position{}, fmt.Errorf("nboard: game record: unclosed tag %q", clip(body))
		}
		tag, val := strings.TrimSpace(body[:open]), body[open+1:open+closing]
		body = body[open+closing+1:]
		switch tag {
		case "GM":
			if !strings.EqualFold(val, "Othello") {
				return reversi.Position{}, fmt.Errorf("nboard: game record: game %q is not Othello", val)
			}
		case "TY":
			if strings.TrimSpace(val) != "8" {
				return reversi.Position{}, fmt.Errorf("nboard: game record: board type %q, only 8 (8x8) is supported", val)
			}
		case "BO":
			p, err := parseBO(val)
			if err != nil {
				return reversi.Position{}, err
			}
			pos, haveBO = p, true
		case "B", "W":
			if !haveBO {
				return reversi.Position{}, fmt.Errorf("nboard: game record: move %s[%s] before the board BO[]", tag, val)
			}
			moveNum++
			want := reversi.Black
			if tag == "W" {
				want = reversi.White
			}
			if pos.ToMove() != want {
				return reversi.Position{}, fmt.Errorf("nboard: game record: move %d %s[%s] is out of turn", moveNum, tag, val)
			}
			sq, err := parseMoveText(val)
			if err != nil {
				return reversi.Position{}, fmt.Errorf("nboard: game record: move %d: %w", moveNum, err)
			}
			next, err := pos.Play(sq)
			if err != nil {
				return reversi.Position{}, fmt.Errorf("nboard: game record: move %d %s[%s]: %w", moveNum, tag, val, err)
			}
			pos = next
		}
	}
	if !haveBO {
		return reversi.Position{}, fmt.Errorf("nboard: game record has no board BO[]")
	}
	return pos, nil
}

// parseBO reads "8 <64 squares> <side>", squares '-' empty, '*' black,
// 'O' white, side '*' or 'O'.
func parseBO(val string) (reversi.Position, error) {
	fs := strings.Fields(val)
	if len(fs) != 3 || fs[0] != "8" {
		return reversi.Position{}, fmt.Errorf("nboard: game record: board BO[%s] is not \"8 <64 squares> <side>\"", clip(val))
	}
	side := reversi.Black
	switch fs[2] {
	case "*", "X", "x":
	case "O", "o":
		side = reversi.White
	default:
		return reversi.Position{}, fmt.Errorf("nboard: game record: side to move %q, want * or O", fs[2])
	}
	board := fs[1]
	if len(board) != 64 || strings.ContainsAny(board, "Xx.") {
		// Only the GGF alphabet: '*' black, 'O' white, '-' empty.
		return reversi.Position{}, fmt.Errorf("nboard: game record: board %q is not 64 of '-', '*', 'O'", clip(board))
	}
	p, err := reversi.ParsePosition(board, side)
	if err != nil {
		return reversi.Position{}, fmt.Errorf("nboard: game record: %w", err)
	}
	return p, nil
}

// parseMoveText reads a move as NBoard writes it: a square or PA,
// optionally followed by "/eval" and "/time".
func parseMoveText(s string) (reversi.Square, error) {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "pass") {
		return 0, fmt.Errorf("bad move %q (a pass is PA)", s)
	}
	sq, err := reversi.ParseSquare(s)
	if err != nil {
		return 0, fmt.Errorf("bad move %q", s)
	}
	return sq, nil
}

// clip shortens s for error messages.
func clip(s string) string {
	const max = 80
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

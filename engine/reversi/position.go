package reversi

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Color is a side: Black moves first.
type Color int8

const (
	// Black is the first player (X in the 64-character board form).
	Black Color = iota
	// White is the second player (O in the 64-character board form).
	White
)

// Other returns the opponent's colour.
func (c Color) Other() Color { return 1 - c }

// String returns "black" or "white".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return fmt.Sprintf("Color(%d)", int8(c))
}

// Square is a board square, 0..63: a1 = 0, h1 = 7, a8 = 56, h8 = 63
// (row*8+col, row 1 at the top as in every Othello program).
type Square int8

// Pass stands for a forced pass in move lists and transcripts.
const Pass Square = -1

// NoSquare is the zero-information move: used in results when a position has
// no move at all (the game is over).
const NoSquare Square = -2

// ParseSquare reads "a1".."h8" (case-insensitive). "pa" and "pass" (any case)
// give Pass.
func ParseSquare(s string) (Square, error) {
	ls := strings.ToLower(s)
	if ls == "pa" || ls == "pass" {
		return Pass, nil
	}
	if len(ls) != 2 || ls[0] < 'a' || ls[0] > 'h' || ls[1] < '1' || ls[1] > '8' {
		return 0, fmt.Errorf("reversi: bad square %q", s)
	}
	return Square(int(ls[1]-'1')*8 + int(ls[0]-'a')), nil
}

// String returns the square's name, such as "f5", "pass" for Pass and
// "none" for NoSquare.
func (s Square) String() string {
	switch {
	case s == Pass:
		return "pass"
	case s >= 0 && s < 64:
		return string([]byte{'a' + byte(s%8), '1' + byte(s/8)})
	}
	return "none"
}

// Row returns the square's row, 0 for row 1 (top) to 7.
func (s Square) Row() int { return int(s) / 8 }

// Col returns the square's column, 0 for column a to 7.
func (s Square) Col() int { return int(s) % 8 }

// Position is a board and the side to move. It is a small value: copying it is
// the exact, cheap undo (keep the previous Position, as seed 000 keeps the
// pre-move board). The zero Position is an empty board with Black to move,
// which is game over; use Start or ParsePosition.
type Position struct {
	me, opp uint64 // discs of the side to move and of its opponent
	turn    Color  // the side to move
}

// Start returns the standard start position: d4 and e5 white, d5 and e4
// black, Black to move.
func Start() Position {
	const (
		white = 1<<27 | 1<<36 // d4, e5
		black = 1<<28 | 1<<35 // e4, d5
	)
	return Position{me: black, opp: white, turn: Black}
}

// NewPosition builds a position from the black and white discs and the side to
// move. It fails if a square holds both colours.
func NewPosition(black, white uint64, toMove Color) (Position, error) {
	if black&white != 0 {
		return Position{}, errors.New("reversi: a square holds both colours")
	}
	if toMove != Black && toMove != White {
		return Position{}, fmt.Errorf("reversi: bad colour %d", toMove)
	}
	if toMove == Black {
		return Position{me: black, opp: white, turn: Black}, nil
	}
	return Position{me: white, opp: black, turn: White}, nil
}

// ParsePosition reads the 64-character board form (rows a1..h1, a2..h2, ...,
// 'X' black, 'O' white, '-' empty; 'x', 'o', '*' for black and '.' for empty
// are accepted too) with the side to move.
func ParsePosition(board string, toMove Color) (Position, error) {
	if len(board) != 64 {
		return Position{}, fmt.Errorf("reversi: board has %d characters, want 64", len(board))
	}
	var black, white uint64
	for i := 0; i < 64; i++ {
		switch board[i] {
		case 'X', 'x', '*':
			black |= 1 << uint(i)
		case 'O', 'o':
			white |= 1 << uint(i)
		case '-', '.':
		default:
			return Position{}, fmt.Errorf("reversi: bad board character %q at %s", board[i], Square(i))
		}
	}
	return NewPosition(black, white, toMove)
}

// String returns the 64-character board form (X black, O white, - empty).
func (p Position) String() string {
	var b [64]byte
	black, white := p.Black(), p.White()
	for i := 0; i < 64; i++ {
		switch {
		case black&(1<<uint(i)) != 0:
			b[i] = 'X'
		case white&(1<<uint(i)) != 0:
			b[i] = 'O'
		default:
			b[i] = '-'
		}
	}
	return string(b[:])
}

// Diagram returns the board as 8 labelled rows, for people and test failures.
func (p Position) Diagram() string {
	var sb strings.Builder
	s := p.String()
	sb.WriteString("  a b c d e f g h\n")
	for r := 0; r < 8; r++ {
		sb.WriteByte('1' + byte(r))
		for c := 0; c < 8; c++ {
			sb.WriteByte(' ')
			sb.WriteByte(s[r*8+c])
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "%s to move\n", p.turn)
	return sb.String()
}

// ToMove returns the side to move.
func (p Position) ToMove() Color { return p.turn }

// Black returns the black discs as a bitboard (bit i = Square i).
func (p Position) Black() uint64 {
	if p.turn == Black {
		return p.me
	}
	return p.opp
}

// White returns the white discs as a bitboard.
func (p Position) White() uint64 {
	if p.turn == White {
		return p.me
	}
	return p.opp
}

// At returns the colour on sq and whether the square is occupied.
func (p Position) At(sq Square) (Color, bool) {
	if sq < 0 || sq > 63 {
		return 0, false
	}
	bit := uint64(1) << uint(sq)
	switch {
	case p.Black()&bit != 0:
		return Black, true
	case p.White()&bit != 0:
		return White, true
	}
	return 0, false
}

// Empties returns the number of empty squares.
func (p Position) Empties() int { return 64 - bits.OnesCount64(p.me|p.opp) }

// Moves returns the legal moves of the side to move as a bitboard.
func (p Position) Moves() uint64 { return legalMoves(p.me, p.opp) }

// LegalMoves returns the legal moves of the side to move in square order. It
// is empty when the side to move must pass or the game is over.
func (p Position) LegalMoves() []Square {
	m := legalMoves(p.me, p.opp)
	out := make([]Square, 0, bits.OnesCount64(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, Square(bits.TrailingZeros64(m)))
	}
	return out
}

// IsLegal reports whether the side to move may play on sq.
func (p Position) IsLegal(sq Square) bool {
	return sq >= 0 && sq < 64 && legalMoves(p.me, p.opp)&(1<<uint(sq)) != 0
}

// Flipped returns the discs (as a bitboard, bit i = Square i) that the side to
// move would turn over by playing on sq; zero if the move is illegal.
func (p Position) Flipped(sq Square) uint64 {
	if sq < 0 || sq > 63 || (p.me|p.opp)&(1<<uint(sq)) != 0 {
		return 0
	}
	return flips(p.me, p.opp, int(sq))
}

// Play returns the position after the side to move plays sq. Passing sq ==
// Pass is the same as PlayPass. p itself is not changed.
func (p Position) Play(sq Square) (Position, error) {
	if sq == Pass {
		return p.PlayPass()
	}
	if sq < 0 || sq > 63 {
		return p, fmt.Errorf("reversi: bad square %d", sq)
	}
	bit := uint64(1) << uint(sq)
	if (p.me|p.opp)&bit != 0 {
		return p, fmt.Errorf("reversi: illegal move %s: square is occupied", sq)
	}
	f := flips(p.me, p.opp, int(sq))
	if f == 0 {
		return p, fmt.Errorf("reversi: illegal move %s: flips nothing", sq)
	}
	return Position{me: p.opp &^ f, opp: p.me | f | bit, turn: p.turn.Other()}, nil
}

// play applies a move known to be legal (no checks).
func (p Position) play(sq int) Position {
	f := flips(p.me, p.opp, sq)
	return Position{me: p.opp &^ f, opp: p.me | f | 1<<uint(sq), turn: p.turn.Other()}
}

// MustPass reports whether the side to move has no legal move while the
// opponent has one: the only legal action is then to pass.
func (p Position) MustPass() bool {
	return legalMoves(p.me, p.opp) == 0 && legalMoves(p.opp, p.me) != 0
}

// PlayPass returns the position with the turn handed to the opponent. It fails
// unless MustPass: in Othello a pass is only allowed when forced.
func (p Position) PlayPass() (Position, error) {
	if !p.MustPass() {
		if p.GameOver() {
			return p, errors.New("reversi: cannot pass: the game is over")
		}
		return p, errors.New("reversi: cannot pass: a move is available")
	}
	return Position{me: p.opp, opp: p.me, turn: p.turn.Other()}, nil
}

// GameOver reports whether neither side can move.
func (p Position) GameOver() bool {
	return legalMoves(p.me, p.opp) == 0 && legalMoves(p.opp, p.me) == 0
}

// Count returns the number of black and white discs.
func (p Position) Count() (black, white int) {
	return bits.OnesCount64(p.Black()), bits.OnesCount64(p.White())
}

// FinalScore returns black's discs minus white's with the empty squares given
// to the winner, as in tournament scoring. It is meaningful when GameOver.
func (p Position) FinalScore() int {
	s := finalScore(p.me, p.opp)
	if p.turn == White {
		return -s
	}
	return s
}

// finalScore is the tournament score of a finished game from me's side.
func finalScore(me, opp uint64) int {
	m, o := bits.OnesCount64(me), bits.OnesCount64(opp)
	d := m - o
	switch {
	case d > 0:
		return d + (64 - m - o)
	case d < 0:
		return d - (64 - m - o)
	}
	return 0
}

// Winner returns the colour ahead on discs and false for a draw.
func (p Position) Winner() (Color, bool) {
	b, w := p.Count()
	switch {
	case b > w:
		return Black, true
	case w > b:
		return White, true
	}
	return 0, false
}

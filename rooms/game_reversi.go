package rooms

import (
	"math/bits"

	"github.com/boardhall/boardhall/engine/reversi"
)

// reversiMaxLevel is the top bot level offered for Reversi. It is the engine's own scale
// once the engine publishes one (see bot_reversi.go).
func init() {
	gameKinds["reversi"] = gameKind{
		info: GameInfo{Game: "reversi", Sizes: []int{8}, Rules: []string{}, MaxLevel: reversiMaxLevel},
		normalize: func(m *Meta) error {
			if m.Size != 0 && m.Size != 8 {
				return errorf(CodeBadRequest, "reversi is played on 8x8, not %dx%d", m.Size, m.Size)
			}
			if m.Rule != "" {
				return errorf(CodeBadRequest, "reversi has no rule variants (got %q)", m.Rule)
			}
			m.Size = 8
			return nil
		},
		start: func(Meta) (Game, error) { return &reversiGame{pos: reversi.Start()}, nil },
	}
}

// reversiGame adapts engine/reversi's Position to Game.
type reversiGame struct {
	pos reversi.Position
}

func sideOfReversi(c reversi.Color) Side {
	if c == reversi.White {
		return White
	}
	return Black
}

func (g *reversiGame) ToMove() Side { return sideOfReversi(g.pos.ToMove()) }

func (g *reversiGame) Play(move string) ([]string, error) {
	sq, err := reversi.ParseSquare(move)
	if err != nil {
		return nil, errorf(CodeBadRequest, "%v", err)
	}
	if sq == reversi.Pass {
		return nil, errorf(CodeIllegalMove, "a pass is never played by hand: the server passes for you when you have no move")
	}
	if g.pos.GameOver() {
		return nil, errorf(CodeGameOver, "the game is over")
	}
	flips := g.pos.Flipped(sq)
	next, err := g.pos.Play(sq)
	if err != nil {
		return nil, illegal(move, err)
	}
	g.pos = next
	return squaresOf(flips), nil
}

func (g *reversiGame) MustPass() bool { return g.pos.MustPass() }

func (g *reversiGame) Pass() error {
	next, err := g.pos.PlayPass()
	if err != nil {
		return illegal("pass", err)
	}
	g.pos = next
	return nil
}

func (g *reversiGame) Over() bool { return g.pos.GameOver() }

func (g *reversiGame) Result() *Result {
	if !g.pos.GameOver() {
		return nil
	}
	b, w := g.pos.Count()
	score := g.pos.FinalScore()
	r := &Result{Reason: "no_moves", Black: b, White: w}
	switch {
	case score > 0:
		r.Winner, r.Margin = Black, score
	case score < 0:
		r.Winner, r.Margin = White, -score
	}
	return r
}

func (g *reversiGame) Board() string { return g.pos.String() }

func (g *reversiGame) Counts() Counts {
	b, w := g.pos.Count()
	return Counts{Black: b, White: w}
}

func (g *reversiGame) Legal() []string {
	moves := g.pos.LegalMoves()
	out := make([]string, len(moves))
	for i, sq := range moves {
		out[i] = sq.String()
	}
	return out
}

func (g *reversiGame) Forbidden() []string { return nil }
func (g *reversiGame) WinLine() []string   { return nil }
func (g *reversiGame) Clone() Game         { c := *g; return &c }

// squaresOf names the squares of a bitboard in index order (a1 first).
func squaresOf(set uint64) []string {
	out := make([]string, 0, bits.OnesCount64(set))
	for set != 0 {
		sq := bits.TrailingZeros64(set)
		out = append(out, reversi.Square(sq).String())
		set &= set - 1
	}
	return out
}

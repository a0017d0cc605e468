package rooms

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"github.com/boardhall/boardhall/engine/reversi"
)

// reversiKind is Reversi as the hall offers it: 8x8, no variants, the engine's strength
// scale as the bot levels.
var reversiKind = &gameKind{
	info: GameInfo{Game: "reversi", Sizes: []int{8}, Rules: []string{}, MaxLevel: reversi.MaxLevel},
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
	start: func(Meta) (position, error) { return &reversiPosition{pos: reversi.Start()}, nil },
	// Level 4 is the lowest that plays without randomness.
	analysisLevel: 4,
}

// reversiEngines are the idle Reversi engines, shared by every bot worker and the
// analyser.
var reversiEngines = enginePool[*reversi.Engine]{fresh: reversi.NewEngine}

// reversiPosition adapts engine/reversi's Position to position.
type reversiPosition struct {
	pos reversi.Position
}

func sideOfReversi(c reversi.Color) Side {
	if c == reversi.White {
		return White
	}
	return Black
}

func (g *reversiPosition) toMove() Side { return sideOfReversi(g.pos.ToMove()) }

func (g *reversiPosition) play(move string) ([]string, error) {
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

func (g *reversiPosition) mustPass() bool { return g.pos.MustPass() }

func (g *reversiPosition) pass() error {
	next, err := g.pos.PlayPass()
	if err != nil {
		return illegal("pass", err)
	}
	g.pos = next
	return nil
}

func (g *reversiPosition) over() bool { return g.pos.GameOver() }

func (g *reversiPosition) result() *Result {
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

func (g *reversiPosition) board() string { return g.pos.String() }

func (g *reversiPosition) counts() Counts {
	b, w := g.pos.Count()
	return Counts{Black: b, White: w}
}

func (g *reversiPosition) legal() []string {
	moves := g.pos.LegalMoves()
	out := make([]string, len(moves))
	for i, sq := range moves {
		out[i] = sq.String()
	}
	return out
}

func (g *reversiPosition) forbidden() []string { return nil }
func (g *reversiPosition) winLine() []string   { return nil }
func (g *reversiPosition) clone() position     { c := *g; return &c }

func (g *reversiPosition) search(ctx context.Context, level int, report func(progress)) (progress, error) {
	engine := reversiEngines.get()
	defer reversiEngines.put(engine)
	lim := reversi.Limits{Level: level, Seed: rand.Int64N(1<<62) + 1}
	if report != nil {
		lim.Progress = func(i reversi.Info) { report(reversiProgress(i)) }
	}
	res, err := engine.Search(ctx, g.pos, lim)
	if err != nil {
		return progress{}, err
	}
	return reversiProgress(res), nil
}

// reversiQuickDepth is the depth of a Reversi quick move: a few thousand nodes at most.
// Only a position with this many empty squares or fewer is solved exactly.
const reversiQuickDepth = 4

func (g *reversiPosition) quickMove(level int) (progress, error) {
	engine := reversiEngines.get()
	defer reversiEngines.put(engine)
	lim := reversi.Limits{Level: level, Depth: reversiQuickDepth, EndgameEmpties: reversiQuickDepth}
	res, err := engine.Search(context.Background(), g.pos, lim)
	if err != nil {
		return progress{}, err
	}
	p := reversiProgress(res)
	p.Quick = true
	return p, nil
}

func reversiProgress(i reversi.Info) progress {
	pv := make([]string, len(i.PV))
	for k, sq := range i.PV {
		pv[k] = sq.String()
	}
	return progress{Depth: i.Depth, Best: i.Best.String(), Score: i.Score, Nodes: i.Nodes,
		NPS: i.NPS, PV: pv, Exact: i.Exact}
}

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

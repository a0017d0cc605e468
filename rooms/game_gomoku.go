package rooms

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// gomokuForcedWin is the analysis score of a proven win (docs/protocol.md): evaluations
// are clamped below it, so the graph can tell a proof from a strong position.
const gomokuForcedWin = 10000

// gomokuKind is Gomoku as the hall offers it: 15x15, 19x19 or 20x20 (the Gomocup's
// freestyle board), freestyle, exactly five
// ("standard") or renju, the engine's strength scale as the bot levels.
var gomokuKind = &gameKind{
	info: GameInfo{Game: "gomoku", Sizes: []int{15, 19, 20},
		Rules: []string{"freestyle", "standard", "renju"}, MaxLevel: gomoku.MaxLevel,
		// Renju is defined on the 15x15 board only.
		SizesByRule: map[string][]int{"renju": {15}},
		WinScore:    gomokuForcedWin},
	normalize: func(m *Meta) error {
		switch m.Size {
		case 0:
			m.Size = 15
		case 15, 19, 20:
		default:
			return errorf(CodeBadRequest, "gomoku is played on 15x15, 19x19 or 20x20, not %dx%d", m.Size, m.Size)
		}
		if m.Rule == "" {
			m.Rule = "freestyle"
		}
		r, err := gomoku.ParseRule(m.Rule)
		if err != nil {
			return errorf(CodeBadRequest, "%v", err)
		}
		m.Rule = r.String()
		if _, err := gomoku.NewBoard(m.Size, r); err != nil {
			return errorf(CodeBadRequest, "%v", err)
		}
		return nil
	},
	start: func(m Meta) (position, error) {
		r, err := gomoku.ParseRule(m.Rule)
		if err != nil {
			return nil, errorf(CodeBadRequest, "%v", err)
		}
		b, err := gomoku.NewBoard(m.Size, r)
		if err != nil {
			return nil, errorf(CodeBadRequest, "%v", err)
		}
		return &gomokuPosition{pos: b}, nil
	},
	// Level 5 is the lowest that plays without randomness.
	analysisLevel: 5,
	// Having the move is worth hundreds of units (a three to extend, a four to block).
	tempo: true,
}

// gomokuEngines are the idle Gomoku engines, shared by every bot worker and the analyser.
var gomokuEngines = enginePool[*gomoku.Engine]{fresh: gomoku.NewEngine}

// gomokuPosition adapts engine/gomoku's Board to position.
type gomokuPosition struct {
	pos *gomoku.Board
}

func sideOfGomoku(c gomoku.Color) Side {
	if c == gomoku.White {
		return White
	}
	return Black
}

func (g *gomokuPosition) toMove() Side { return sideOfGomoku(g.pos.ToMove()) }

func (g *gomokuPosition) play(move string) ([]string, error) {
	p, err := gomoku.ParsePoint(move, g.pos.Size())
	if err != nil {
		return nil, errorf(CodeBadRequest, "%v", err)
	}
	if err := g.pos.Play(p); err != nil {
		switch {
		case errors.Is(err, gomoku.ErrGameOver):
			return nil, errorf(CodeGameOver, "the game is over")
		case errors.Is(err, gomoku.ErrForbidden):
			return nil, errorf(CodeIllegalMove, "%s is forbidden to black under renju: it would make %s",
				move, foulWords(g.pos.FoulAt(p)))
		case errors.Is(err, gomoku.ErrOccupied):
			return nil, errorf(CodeIllegalMove, "%s is taken", move)
		}
		return nil, illegal(move, err)
	}
	return nil, nil
}

// foulWords names a renju foul with its article, for a sentence.
func foulWords(f gomoku.Foul) string {
	switch f {
	case gomoku.Overline:
		return "an overline (six or more in a row)"
	case gomoku.DoubleFour:
		return "a double four (two fours at once)"
	case gomoku.DoubleThree:
		return "a double three (two open threes at once)"
	}
	return "a forbidden shape"
}

func (g *gomokuPosition) mustPass() bool { return false }
func (g *gomokuPosition) pass() error {
	return errorf(CodeIllegalMove, "there is no pass in gomoku")
}
func (g *gomokuPosition) over() bool { return g.pos.Over() }

func (g *gomokuPosition) result() *Result {
	c, over := g.pos.Winner()
	if !over {
		return nil
	}
	n := g.counts()
	r := &Result{Black: n.Black, White: n.White}
	if g.pos.Draw() {
		r.Reason = "board_full"
		return r
	}
	r.Reason, r.Winner = "five", sideOfGomoku(c)
	return r
}

func (g *gomokuPosition) board() string {
	n := g.pos.Size()
	out := make([]byte, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			ch := byte('-')
			if c, ok := g.pos.At(gomoku.Point{X: x, Y: y}); ok {
				ch = 'X'
				if c == gomoku.White {
					ch = 'O'
				}
			}
			out[(n-1-y)*n+x] = ch // the top row of the picture is row n
		}
	}
	return string(out)
}

func (g *gomokuPosition) counts() Counts {
	moves := g.pos.MoveCount()
	return Counts{Black: (moves + 1) / 2, White: moves / 2}
}

func (g *gomokuPosition) legal() []string { return nil }

func (g *gomokuPosition) forbidden() []string {
	if g.pos.Rule() != gomoku.Renju || g.pos.ToMove() != gomoku.Black || g.pos.Over() {
		return nil
	}
	var out []string
	n := g.pos.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := gomoku.Point{X: x, Y: y}
			if errors.Is(g.pos.IsLegal(p), gomoku.ErrForbidden) {
				out = append(out, p.String())
			}
		}
	}
	return out
}

func (g *gomokuPosition) winLine() []string {
	line := g.pos.WinningLine()
	if line == nil {
		return nil
	}
	out := make([]string, len(line))
	for i, p := range line {
		out[i] = p.String()
	}
	return out
}

func (g *gomokuPosition) clone() position { return &gomokuPosition{pos: g.pos.Clone()} }

func (g *gomokuPosition) search(ctx context.Context, level int, report func(progress)) (progress, error) {
	engine := gomokuEngines.get()
	defer gomokuEngines.put(engine)
	lim := gomoku.Limits{Level: level, Seed: rand.Int64N(1<<62) + 1}
	if report != nil {
		lim.Progress = func(i gomoku.Info) { report(gomokuProgress(i)) }
	}
	res, err := engine.Search(ctx, g.pos, lim)
	if err != nil {
		return progress{}, err
	}
	return gomokuProgress(res), nil
}

// gomokuQuickNodes is the node budget of a Gomoku quick move: milliseconds, and still
// enough to see a five, a four to block and a short forced win.
const gomokuQuickNodes = 5000

func (g *gomokuPosition) quickMove(level int) (progress, error) {
	engine := gomokuEngines.get()
	defer gomokuEngines.put(engine)
	res, err := engine.Search(context.Background(), g.pos, gomoku.Limits{Level: level, Nodes: gomokuQuickNodes})
	if err != nil {
		return progress{}, err
	}
	p := gomokuProgress(res)
	p.Quick = true
	return p, nil
}

func gomokuProgress(i gomoku.Info) progress {
	pv := make([]string, len(i.PV))
	for k, p := range i.PV {
		pv[k] = p.String()
	}
	return progress{Depth: i.Depth, Best: i.Best.String(), Score: i.Score, Nodes: i.Nodes,
		NPS: i.NPS, PV: pv, Exact: i.Score >= gomoku.WinThreshold || i.Score <= -gomoku.WinThreshold}
}

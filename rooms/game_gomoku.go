package rooms

import (
	"errors"

	"github.com/boardhall/boardhall/engine/gomoku"
)

func init() {
	gameKinds["gomoku"] = gameKind{
		info: GameInfo{Game: "gomoku", Sizes: []int{15, 19},
			Rules: []string{"freestyle", "standard", "renju"}, MaxLevel: gomokuMaxLevel,
			// Renju is defined on the 15x15 board only.
			SizesByRule: map[string][]int{"renju": {15}}},
		normalize: func(m *Meta) error {
			switch m.Size {
			case 0:
				m.Size = 15
			case 15, 19:
			default:
				return errorf(CodeBadRequest, "gomoku is played on 15x15 or 19x19, not %dx%d", m.Size, m.Size)
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
		start: func(m Meta) (Game, error) {
			r, err := gomoku.ParseRule(m.Rule)
			if err != nil {
				return nil, errorf(CodeBadRequest, "%v", err)
			}
			b, err := gomoku.NewBoard(m.Size, r)
			if err != nil {
				return nil, errorf(CodeBadRequest, "%v", err)
			}
			return &gomokuGame{board: b}, nil
		},
	}
}

// gomokuGame adapts engine/gomoku's Board to Game.
type gomokuGame struct {
	board *gomoku.Board
}

func sideOfGomoku(c gomoku.Color) Side {
	if c == gomoku.White {
		return White
	}
	return Black
}

func (g *gomokuGame) ToMove() Side { return sideOfGomoku(g.board.ToMove()) }

func (g *gomokuGame) Play(move string) ([]string, error) {
	p, err := gomoku.ParsePoint(move, g.board.Size())
	if err != nil {
		return nil, errorf(CodeBadRequest, "%v", err)
	}
	if err := g.board.Play(p); err != nil {
		if errors.Is(err, gomoku.ErrGameOver) {
			return nil, errorf(CodeGameOver, "the game is over")
		}
		return nil, illegal(move, err)
	}
	return nil, nil
}

func (g *gomokuGame) MustPass() bool { return false }
func (g *gomokuGame) Pass() error {
	return errorf(CodeIllegalMove, "there is no pass in gomoku")
}
func (g *gomokuGame) Over() bool { return g.board.Over() }

func (g *gomokuGame) Result() *Result {
	c, over := g.board.Winner()
	if !over {
		return nil
	}
	n := g.Counts()
	r := &Result{Black: n.Black, White: n.White}
	if g.board.Draw() {
		r.Reason = "board_full"
		return r
	}
	r.Reason, r.Winner = "five", sideOfGomoku(c)
	return r
}

func (g *gomokuGame) Board() string {
	n := g.board.Size()
	out := make([]byte, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			ch := byte('-')
			if c, ok := g.board.At(gomoku.Point{X: x, Y: y}); ok {
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

func (g *gomokuGame) Counts() Counts {
	moves := g.board.MoveCount()
	return Counts{Black: (moves + 1) / 2, White: moves / 2}
}

func (g *gomokuGame) Legal() []string { return nil }

func (g *gomokuGame) Forbidden() []string {
	if g.board.Rule() != gomoku.Renju || g.board.ToMove() != gomoku.Black || g.board.Over() {
		return nil
	}
	var out []string
	n := g.board.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := gomoku.Point{X: x, Y: y}
			if errors.Is(g.board.IsLegal(p), gomoku.ErrForbidden) {
				out = append(out, p.String())
			}
		}
	}
	return out
}

func (g *gomokuGame) WinLine() []string {
	line := g.board.WinningLine()
	if line == nil {
		return nil
	}
	out := make([]string, len(line))
	for i, p := range line {
		out[i] = p.String()
	}
	return out
}

func (g *gomokuGame) Clone() Game { return &gomokuGame{board: g.board.Clone()} }

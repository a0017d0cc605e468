package match

import (
	"context"
	"errors"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// Seed001 re-implements the method of the seed article 001 (a Qt/C++
// gomoku AI) as the baseline: a whole-board pattern score, candidates
// within three steps of a stone in the eight directions, the ten best
// candidates by that score at every node, alpha-beta to a fixed depth
// (4 in the article), and at the leaves the score of the best next move.
// No threat search, no transposition table.
//
// The score of a position is computed incrementally here (only the four
// lines through a new stone change), which gives exactly the numbers a
// full rescan would and keeps long matches affordable.
type Seed001 struct {
	Depth int // plies; the article uses 4
}

// Name implements Player.
func (s Seed001) Name() string { return "seed001" }

// seedWidth is the article's number of candidates per node.
const seedWidth = 10

// seedWin is the score of a five, far above any pattern total.
const seedWin = 10_000_000

// shapeScore is the classic pattern table: a run of n stones with zero,
// one or two open ends (index: n, open ends).
var shapeScore = [6][3]int{
	1: {0, 1, 10},
	2: {0, 10, 100},
	3: {0, 100, 1000},
	4: {0, 1000, 10000},
	5: {100000, 100000, 100000},
}

// seedSearch is the state of one baseline search.
type seedSearch struct {
	b    *gomoku.Board
	n    int
	grid []int8 // 0 empty, 1 black, 2 white
}

// Move implements Player.
func (s Seed001) Move(ctx context.Context, b *gomoku.Board) (gomoku.Point, error) {
	if b.Over() {
		return gomoku.Point{}, errors.New("seed001: game over")
	}
	depth := s.Depth
	if depth <= 0 {
		depth = 4
	}
	ss := &seedSearch{b: b.Clone(), n: b.Size()}
	ss.grid = make([]int8, ss.n*ss.n)
	for y := 0; y < ss.n; y++ {
		for x := 0; x < ss.n; x++ {
			if c, ok := b.At(gomoku.Point{X: x, Y: y}); ok {
				ss.grid[y*ss.n+x] = int8(c) + 1
			}
		}
	}
	if b.MoveCount() == 0 {
		return gomoku.Point{X: ss.n / 2, Y: ss.n / 2}, nil
	}
	cands := ss.seekPoints()
	if len(cands) == 0 {
		return gomoku.Point{}, errors.New("seed001: no move")
	}
	best, alpha := cands[0].p, -seedWin*2
	for _, c := range cands {
		ss.play(c.p)
		v := -ss.search(depth-1, -seedWin*2, -alpha)
		ss.undo(c.p)
		if v > alpha {
			alpha, best = v, c.p
		}
		if ctx.Err() != nil {
			break
		}
	}
	return best, nil
}

func (ss *seedSearch) play(p gomoku.Point) {
	ss.grid[p.Y*ss.n+p.X] = int8(ss.b.ToMove()) + 1
	if err := ss.b.Play(p); err != nil {
		panic(err) // candidates are legal by construction
	}
}

func (ss *seedSearch) undo(p gomoku.Point) {
	ss.grid[p.Y*ss.n+p.X] = 0
	ss.b.Undo()
}

// search is negamax alpha-beta over the ten best candidates.
func (ss *seedSearch) search(depth, alpha, beta int) int {
	if _, over := ss.b.Winner(); over {
		if ss.b.Draw() {
			return 0
		}
		return -seedWin // the side that just moved won
	}
	cands := ss.seekPoints()
	if len(cands) == 0 {
		return 0
	}
	if depth == 0 {
		return cands[0].score
	}
	for _, c := range cands {
		ss.play(c.p)
		v := -ss.search(depth-1, -beta, -alpha)
		ss.undo(c.p)
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return alpha
}

type seedCand struct {
	p     gomoku.Point
	score int
}

// seekPoints scores every empty point within three steps (eight
// directions) of a stone by the position's score after the side to move
// plays there, and returns the ten best.
func (ss *seedSearch) seekPoints() []seedCand {
	n := ss.n
	mark := make([]bool, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if ss.grid[y*n+x] == 0 {
				continue
			}
			for k := -3; k <= 3; k++ {
				for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					xx, yy := x+k*d[0], y+k*d[1]
					if xx >= 0 && yy >= 0 && xx < n && yy < n {
						mark[yy*n+xx] = true
					}
				}
			}
		}
	}
	me := int8(ss.b.ToMove()) + 1
	base := ss.total(me)
	var top []seedCand
	for i, m := range mark {
		if !m || ss.grid[i] != 0 {
			continue
		}
		p := gomoku.Point{X: i % n, Y: i / n}
		if ss.b.IsLegal(p) != nil {
			continue // renju: forbidden to black
		}
		before := ss.linesThrough(p, me)
		ss.grid[i] = me
		after := ss.linesThrough(p, me)
		ss.grid[i] = 0
		c := seedCand{p, base - before + after}
		// Insert into the sorted top ten.
		k := len(top)
		if k < seedWidth {
			top = append(top, c)
		} else if c.score <= top[k-1].score {
			continue
		} else {
			k--
			top[k] = c
		}
		for k > 0 && top[k].score > top[k-1].score {
			top[k], top[k-1] = top[k-1], top[k]
			k--
		}
	}
	return top
}

// total is the whole-board score from me's view: my shapes minus the
// opponent's.
func (ss *seedSearch) total(me int8) int {
	n := ss.n
	s := 0
	for i := 0; i < n; i++ {
		s += ss.line(0, i, 1, 0, me)  // rows
		s += ss.line(i, 0, 0, 1, me)  // columns
		s += ss.line(i, 0, 1, 1, me)  // diagonals from the bottom edge
		s += ss.line(i, 0, -1, 1, me) // anti-diagonals from the bottom edge
		if i > 0 {
			s += ss.line(0, i, 1, 1, me)    // diagonals from the left edge
			s += ss.line(n-1, i, -1, 1, me) // anti-diagonals from the right edge
		}
	}
	return s
}

// linesThrough is the score of the four whole lines through p.
func (ss *seedSearch) linesThrough(p gomoku.Point, me int8) int {
	s := 0
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
		x, y := p.X, p.Y
		for x-d[0] >= 0 && x-d[0] < ss.n && y-d[1] >= 0 {
			x, y = x-d[0], y-d[1]
		}
		s += ss.line(x, y, d[0], d[1], me)
	}
	return s
}

// line scores one whole line from (x, y) in direction (dx, dy): every
// maximal run by its length and open ends, mine positive, theirs negative.
func (ss *seedSearch) line(x, y, dx, dy int, me int8) int {
	n := ss.n
	s := 0
	prev := int8(-1) // -1: the edge
	for x >= 0 && y >= 0 && x < n && y < n {
		c := ss.grid[y*n+x]
		if c == 0 {
			prev = 0
			x, y = x+dx, y+dy
			continue
		}
		run := 0
		for x >= 0 && y >= 0 && x < n && y < n && ss.grid[y*n+x] == c {
			run++
			x, y = x+dx, y+dy
		}
		open := 0
		if prev == 0 {
			open++
		}
		if x >= 0 && y >= 0 && x < n && y < n && ss.grid[y*n+x] == 0 {
			open++
		}
		v := shapeScore[min(run, 5)][open]
		if c == me {
			s += v
		} else {
			s -= v
		}
		prev = c
	}
	return s
}

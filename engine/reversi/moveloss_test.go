package reversi

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/internal/stats"
)

// moveLossSet is testdata/movevalues-ntest.txt: midgame positions from
// games against NTest, with NTest's value of every legal move (train
// movevalues; the file's header says how it was made).
const moveLossSet = "testdata/movevalues-ntest.txt"

// valuedPosition is a position of the move-loss set with the judge's value
// of every legal move, in discs from the mover's view.
type valuedPosition struct {
	pos    Position
	values map[Square]float64
	best   float64 // the highest value
}

// key is the position's board and side to move, as the set writes them.
func (v valuedPosition) key() string {
	side := "X"
	if v.pos.ToMove() == White {
		side = "O"
	}
	return v.pos.String() + " " + side
}

// loss is what move m gives away by the judge's account, in discs.
func (v valuedPosition) loss(m Square) float64 { return v.best - v.values[m] }

// resultLoss is what move m gives away in the game's result by the judge's
// account, in points (a win 1, a draw 1/2, a loss 0): 0 when m keeps the
// best move's result, 1/2 or 1 when it turns a win into a draw or a loss or
// a draw into a loss. A value within half a disc of 0 is a draw.
func (v valuedPosition) resultLoss(m Square) float64 {
	return resultPoints(v.best) - resultPoints(v.values[m])
}

// resultPoints is the points of a game whose final margin is value discs.
func resultPoints(value float64) float64 {
	switch {
	case value > 0.5:
		return 1
	case value < -0.5:
		return 0
	}
	return 0.5
}

// readMoveValues reads a move-loss set: one position a line, the board, the
// side to move (X or O) and every legal move with its value ("f5:+1.25").
func readMoveValues(tb testing.TB, name string) []valuedPosition {
	tb.Helper()
	var out []valuedPosition
	for _, fs := range dataLines(tb, name) {
		line := strings.Join(fs, " ")
		if len(fs) < 4 || (fs[1] != "X" && fs[1] != "O") {
			tb.Fatalf("%q: want a board, X or O to move, and two moves or more with values", line)
		}
		side := Black
		if fs[1] == "O" {
			side = White
		}
		p, err := ParsePosition(fs[0], side)
		if err != nil {
			tb.Fatal(err)
		}
		v := valuedPosition{pos: p, values: map[Square]float64{}, best: math.Inf(-1)}
		for _, s := range fs[2:] {
			m, val, ok := strings.Cut(s, ":")
			sq, err := ParseSquare(m)
			x, xerr := strconv.ParseFloat(val, 64)
			if !ok || err != nil || xerr != nil || !p.IsLegal(sq) {
				tb.Fatalf("%q: %q is not a legal move with its value", line, s)
			}
			v.values[sq] = x
			v.best = max(v.best, x)
		}
		if len(v.values) != len(p.LegalMoves()) {
			tb.Fatalf("%q: %d values for %d legal moves", line, len(v.values), len(p.LegalMoves()))
		}
		out = append(out, v)
	}
	return out
}

// lateMoveLossSet is testdata/movevalues-ntest-24-29.txt: positions at 24
// to 29 empties valued the same way, where the move is chosen between the
// solve's selective passes and the midgame search (its header says how it
// was made). TestMoveLoss reads it with REVERSI_MOVE_LOSS_SET.
const lateMoveLossSet = "testdata/movevalues-ntest-24-29.txt"

// TestResultLoss checks the points a move gives away against the best.
func TestResultLoss(t *testing.T) {
	a1, b1, c1, d1 := Square(0), Square(1), Square(2), Square(3)
	v := valuedPosition{values: map[Square]float64{a1: 4, b1: 0.25, c1: -0.25, d1: -2}, best: 4}
	for _, c := range []struct {
		move Square
		want float64
	}{{a1, 0}, {b1, 0.5}, {c1, 0.5}, {d1, 1}} {
		if got := v.resultLoss(c.move); got != c.want {
			t.Errorf("a win at best: %s gives away %v points, want %v", c.move, got, c.want)
		}
	}
	v.best = 0
	if got := v.resultLoss(d1); got != 0.5 {
		t.Errorf("a draw at best: d1 gives away %v points, want 0.5", got)
	}
}

// TestMoveValuesFile checks the move-loss sets in the ordinary suite:
// positions in the set's range of empties, each with two moves or more,
// every one valued, no position twice.
func TestMoveValuesFile(t *testing.T) {
	for _, c := range []struct {
		name    string
		lo, hi  int
		atLeast int
	}{
		{moveLossSet, 30, 50, 200},
		{lateMoveLossSet, 24, 29, 400},
	} {
		vs := readMoveValues(t, c.name)
		if len(vs) < c.atLeast {
			t.Fatalf("%s: %d positions, want at least %d", c.name, len(vs), c.atLeast)
		}
		seen := map[string]bool{}
		for _, v := range vs {
			if n := v.pos.Empties(); n < c.lo || n > c.hi || len(v.values) < 2 || seen[v.key()] {
				t.Errorf("%s: %s: %d empties, %d moves, seen before %v", c.name, v.key(), n, len(v.values), seen[v.key()])
			}
			seen[v.key()] = true
		}
	}
}

// TestMoveLoss is a measurement of the move choice, run with
// REVERSI_MOVE_LOSS set to a list of move times ("300ms,1s") or depths
// ("14,16"): it searches every position of the move-loss set with a fresh
// engine at level 10 for each time or to each depth and logs the mean loss
// of the chosen move in discs (the judge's best value minus the chosen
// move's) with its standard error, the positions where it chose a best
// move and where it lost more than 2 discs, the moves that gave away a
// result (resultLoss: a win or a draw by the judge turned worse) with the
// points they cost, the mean depth and the nodes.
// REVERSI_MOVE_LOSS_SET names another set; REVERSI_MOVE_LOSS_OUT=prefix
// writes each run's choices to prefix-<item>.txt; REVERSI_MOVE_LOSS_BASE
// names such a file of an earlier run (of another build, say) and adds the
// paired difference of the losses, position by position, with its
// standard error: far smaller than the difference of two means, since
// most positions are easy for both.
func TestMoveLoss(t *testing.T) {
	spec := os.Getenv("REVERSI_MOVE_LOSS")
	if spec == "" {
		t.Skip("set REVERSI_MOVE_LOSS=300ms,1s (times) or 14,16 (depths) to measure")
	}
	set := os.Getenv("REVERSI_MOVE_LOSS_SET")
	if set == "" {
		set = moveLossSet
	}
	vs := readMoveValues(t, set)
	var base map[string]Square
	if name := os.Getenv("REVERSI_MOVE_LOSS_BASE"); name != "" {
		base = readChoices(t, name)
	}
	for _, s := range strings.Split(spec, ",") {
		search := measureSearch(t, "REVERSI_MOVE_LOSS", s)
		var losses, diffs []float64
		var nodes uint64
		best, big, depths, better, worse, results := 0, 0, 0, 0, 0, 0
		points := 0.0
		var choices strings.Builder
		for _, v := range vs {
			r, err := search(v.pos)
			if err != nil {
				t.Fatal(err)
			}
			l := v.loss(r.Best)
			losses = append(losses, l)
			nodes += r.Nodes
			depths += r.Depth
			if l <= 0 {
				best++
			}
			if l > 2 {
				big++
			}
			if rl := v.resultLoss(r.Best); rl > 0 {
				results++
				points += rl
			}
			fmt.Fprintf(&choices, "%s %s\n", v.key(), r.Best)
			if m, ok := base[v.key()]; ok {
				d := l - v.loss(m)
				diffs = append(diffs, d)
				if d < 0 {
					better++
				} else if d > 0 {
					worse++
				}
			}
		}
		mean, se := stats.MeanSE(losses)
		n := len(vs)
		t.Logf("%s: %d positions, mean loss %.3f ± %.3f discs (1 SE), best move %d/%d, loss > 2 discs %d, a result given away %d (%.1f points), mean depth %.2f, %d nodes",
			s, n, mean, se, best, n, big, results, points, float64(depths)/float64(n), nodes)
		if base != nil {
			dm, dse := stats.MeanSE(diffs)
			t.Logf("%s against the base: %d positions paired, loss %+.3f ± %.3f discs (1 SE), less in %d, more in %d",
				s, len(diffs), dm, dse, better, worse)
		}
		if prefix := os.Getenv("REVERSI_MOVE_LOSS_OUT"); prefix != "" {
			if err := os.WriteFile(prefix+"-"+s+".txt", []byte(choices.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// readChoices reads a file of moves TestMoveLoss wrote: the board, the side
// to move and the chosen move, one position a line.
func readChoices(tb testing.TB, name string) map[string]Square {
	tb.Helper()
	out := map[string]Square{}
	for _, fs := range dataLines(tb, name) {
		if len(fs) != 3 {
			tb.Fatalf("%s: %q: want a board, the side to move and a move", name, strings.Join(fs, " "))
		}
		sq, err := ParseSquare(fs[2])
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out[fs[0]+" "+fs[1]] = sq
	}
	return out
}

package reversi

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gamePosition is a midgame position from a game against NTest, with the
// move a deeper search of the engine chose there (NoSquare if none given).
type gamePosition struct {
	pos Position
	ref Square
}

// readGamePositions reads testdata/midgame-ntest.txt: one position a line,
// the 64-character board, the side to move (X or O) and optionally a
// reference move.
func readGamePositions(tb testing.TB) []gamePosition {
	tb.Helper()
	var out []gamePosition
	for _, fs := range dataLines(tb, "testdata/midgame-ntest.txt") {
		line := strings.Join(fs, " ")
		if len(fs) < 2 || len(fs) > 3 || (fs[1] != "X" && fs[1] != "O") {
			tb.Fatalf("%q: want a board, X or O to move, and an optional move", line)
		}
		side := Black
		if fs[1] == "O" {
			side = White
		}
		p, err := ParsePosition(fs[0], side)
		if err != nil {
			tb.Fatal(err)
		}
		g := gamePosition{pos: p, ref: NoSquare}
		if len(fs) > 2 {
			if g.ref, err = ParseSquare(fs[2]); err != nil || !p.IsLegal(g.ref) {
				tb.Fatalf("%q: bad reference move", line)
			}
		}
		out = append(out, g)
	}
	return out
}

// TestGamePositionsLegal checks the midgame set: positions with moves to
// play, 30 to 50 empties, reference moves legal (readGamePositions).
func TestGamePositionsLegal(t *testing.T) {
	gs := readGamePositions(t)
	if len(gs) < 40 {
		t.Fatalf("%d positions, want at least 40", len(gs))
	}
	for _, g := range gs {
		if n := g.pos.Empties(); n < 30 || n > 50 || g.pos.MustPass() {
			t.Errorf("%s: %d empties, must pass %v", g.pos, n, g.pos.MustPass())
		}
	}
}

// TestMidgameSet is a measurement of the midgame search, run with
// REVERSI_MIDGAME_SET set to a list of depths ("12,14") or of move times
// ("300ms,1s"): it searches every position of testdata/midgame-ntest.txt
// with a fresh engine at level 10 (Multi-ProbCut on) to each depth, or for
// each time, and logs the total nodes and time, the share of moves equal
// to the reference move, and for times the mean depth completed.
// REVERSI_TABLE_MB sizes the engines' tables (benchEngine).
func TestMidgameSet(t *testing.T) {
	spec := os.Getenv("REVERSI_MIDGAME_SET")
	if spec == "" {
		t.Skip("set REVERSI_MIDGAME_SET=12,14 (depths) or 300ms,1s (times) to measure")
	}
	gs := readGamePositions(t)
	for _, s := range strings.Split(spec, ",") {
		search := measureSearch(t, "REVERSI_MIDGAME_SET", s)
		var nodes uint64
		var elapsed time.Duration
		same, refs, depths := 0, 0, 0
		var moves []string
		for _, g := range gs {
			r, err := search(g.pos)
			if err != nil {
				t.Fatal(err)
			}
			nodes += r.Nodes
			elapsed += r.Elapsed
			depths += r.Depth
			moves = append(moves, r.Best.String())
			if g.ref != NoSquare {
				refs++
				if r.Best == g.ref {
					same++
				}
			}
		}
		n := float64(len(gs))
		t.Logf("%s: %d positions, %d nodes, %.2f s, mean depth %.2f, %d/%d moves as the reference",
			s, len(gs), nodes, elapsed.Seconds(), float64(depths)/n, same, refs)
		t.Logf("%s moves: %s", s, strings.Join(moves, " "))
	}
}

// measureSearch reads one item of a measurement's list (env names the
// variable, for the error): a depth ("14") or a move time ("300ms"). It
// returns a search of a position at level 10 with a fresh engine, to that
// depth or for that time. The engine is benchEngine's, so REVERSI_TABLE_MB
// sizes its tables.
func measureSearch(t *testing.T, env, item string) func(Position) (Result, error) {
	if depth, err := strconv.Atoi(item); err == nil {
		return func(p Position) (Result, error) {
			return benchEngine().Search(context.Background(), p, Limits{Depth: depth})
		}
	}
	if d, err := time.ParseDuration(item); err == nil {
		return func(p Position) (Result, error) { return searchFor(p, d) }
	}
	t.Fatalf("bad %s item %q: want a depth or a move time", env, item)
	return nil
}

// searchFor searches p at level 10 with a fresh engine (benchEngine's) for
// the given time. The engine is made before the clock starts.
func searchFor(p Position, d time.Duration) (Result, error) {
	e := benchEngine()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return e.Search(ctx, p, Limits{})
}

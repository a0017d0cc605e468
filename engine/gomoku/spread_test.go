package gomoku

import (
	"context"
	"os"
	"slices"
	"testing"
)

// TestEvalSpread measures how far a search of depth d moves the score away
// from the static evaluation of the same position (search minus static,
// from the side to move's view), over positions of level-2 self-play games
// (seeded, so the same on every run). The selective search's static
// futility and razoring margins (selective.go) are read from these
// percentiles. Run only with GOMOKU_SPREAD=1 (a few minutes):
//
//	GOMOKU_SPREAD=1 go test -run TestEvalSpread -v ./engine/gomoku
func TestEvalSpread(t *testing.T) {
	if os.Getenv("GOMOKU_SPREAD") == "" {
		t.Skip("set GOMOKU_SPREAD=1 to measure the evaluation's spread")
	}
	const maxDepth = 6
	var diffs [maxDepth + 1][]int
	e := NewEngine()
	for g := 0; g < 16; g++ {
		b, _ := NewBoard(15, Freestyle)
		for ply := 0; ply < 40 && !b.Over(); ply++ {
			r, err := e.Search(context.Background(), b, Limits{Level: 2, Seed: int64(g*100 + ply)})
			if err != nil {
				break
			}
			if ply >= 6 && ply%3 == 0 {
				static := e.eval(b)
				for d := 1; d <= maxDepth; d++ {
					s, err := NewEngine().Search(context.Background(), b, Limits{Level: MaxLevel, Depth: d})
					// Proven and near-proven results say nothing of the
					// evaluation's spread.
					if err != nil || s.Score > evalUnprovenLoss/2 || s.Score < -evalUnprovenLoss/2 {
						break
					}
					diffs[d] = append(diffs[d], s.Score-static)
				}
			}
			if err := b.Play(r.Best); err != nil {
				t.Fatal(err)
			}
		}
	}
	for d := 1; d <= maxDepth; d++ {
		x := diffs[d]
		if len(x) == 0 {
			continue
		}
		slices.Sort(x)
		p := func(q float64) int { return x[int(q*float64(len(x)-1))] }
		t.Logf("depth %d: %d positions; percentiles 5: %d, 10: %d, 25: %d, 50: %d, 75: %d, 90: %d, 95: %d",
			d, len(x), p(.05), p(.10), p(.25), p(.5), p(.75), p(.9), p(.95))
	}
}

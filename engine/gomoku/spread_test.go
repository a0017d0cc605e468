package gomoku

import (
	"context"
	"math/rand"
	"os"
	"slices"
	"testing"
)

// TestEvalSpread measures how far a search of depth d moves the score away
// from the static evaluation of the same position (search minus static,
// from the side to move's view). The selective search's static futility
// and razoring margins (selective.go) are read from these percentiles.
// Run only with GOMOKU_SPREAD set (a minute or two):
//
//	GOMOKU_SPREAD=1 go test -run TestEvalSpread -v ./engine/gomoku
//
// With GOMOKU_SPREAD=1 the positions come from seeded level-2 self-play
// (the same on every run for a given table). With GOMOKU_SPREAD=games they
// are sampled from the logged games of GOMOKU_SPREAD_GAMES (match-log
// lines, gzipped or not; by default the games against Rapfi in testdata):
// one position from every fifth game, drawn with a fixed seed, kept only
// when the opponent of the side to move has no open three, as at the
// nodes where the margins apply. Those positions do not depend on the
// table, so two tables are measured on the same ones.
func TestEvalSpread(t *testing.T) {
	var positions []*Board
	switch mode := os.Getenv("GOMOKU_SPREAD"); mode {
	case "":
		t.Skip("set GOMOKU_SPREAD=1 (self-play) or GOMOKU_SPREAD=games to measure the evaluation's spread")
	case "games":
		files := os.Getenv("GOMOKU_SPREAD_GAMES")
		if files == "" {
			files = "testdata/rapfi-games-37-39.txt.gz"
		}
		positions = spreadGamePositions(t, files)
	case "1":
		positions = spreadSelfPlayPositions(t)
	default:
		t.Fatalf("GOMOKU_SPREAD=%q: want 1 or games", mode)
	}
	const maxDepth = 6
	var diffs [maxDepth + 1][]int
	statics := make([]int, 0, len(positions))
	ev := NewEngine()
	for _, b := range positions {
		static := ev.eval(b)
		statics = append(statics, static)
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
	if len(statics) == 0 {
		t.Fatal("no positions")
	}
	p := func(x []int, q float64) int { return x[int(q*float64(len(x)-1))] }
	slices.Sort(statics)
	t.Logf("%d positions; static evaluation percentiles 5: %d, 25: %d, 50: %d, 75: %d, 95: %d",
		len(statics), p(statics, .05), p(statics, .25), p(statics, .5), p(statics, .75), p(statics, .95))
	for d := 1; d <= maxDepth; d++ {
		x := diffs[d]
		if len(x) == 0 {
			continue
		}
		slices.Sort(x)
		t.Logf("depth %d: %d positions; percentiles 5: %d, 10: %d, 25: %d, 50: %d, 75: %d, 90: %d, 95: %d",
			d, len(x), p(x, .05), p(x, .10), p(x, .25), p(x, .5), p(x, .75), p(x, .9), p(x, .95))
	}
}

// spreadSelfPlayPositions plays 16 seeded level-2 games of up to 40 moves
// and keeps every third position from the sixth move on.
func spreadSelfPlayPositions(t *testing.T) []*Board {
	var out []*Board
	e := NewEngine()
	for g := 0; g < 16; g++ {
		b, _ := NewBoard(15, Freestyle)
		for ply := 0; ply < 40 && !b.Over(); ply++ {
			r, err := e.Search(context.Background(), b, Limits{Level: 2, Seed: int64(g*100 + ply)})
			if err != nil {
				break
			}
			if ply >= 6 && ply%3 == 0 {
				out = append(out, b.Clone())
			}
			if err := b.Play(r.Best); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// spreadGamePositions samples one position from every fifth logged game
// (seeded), where neither side has a five to play and the opponent of the
// side to move has no open three.
func spreadGamePositions(t *testing.T, files string) []*Board {
	var out []*Board
	rng := rand.New(rand.NewSource(41))
	for g, game := range readLoggedGames(t, files) {
		if g%5 != 0 {
			continue
		}
		moves, err := ParseRecord(game.record, 15)
		if err != nil || len(moves) < 8 {
			continue
		}
		b := samplePosition(moves, rng, 0)
		if b == nil || !labelable(b) || b.classCount[b.ToMove().Other()][tFlex4] != 0 {
			continue
		}
		out = append(out, b)
	}
	return out
}

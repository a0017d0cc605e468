package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// weakGames plays two short games between weak players (level 1, with
// seed, against seed 000's depth-1 method, one opening with both colours)
// and returns their records.
func weakGames(t *testing.T, seed int64) []match.Record {
	t.Helper()
	a := match.EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 1, Seed: seed}, Label: "level 1"}
	b := &match.Seed000{Depth: 1}
	var recs []match.Record
	if _, err := match.Play(context.Background(), a, b, match.Openings(4, 1), func(_ match.Stats, r match.Record) {
		recs = append(recs, r)
	}); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestJudge judges two short games between weak players with exact
// judgements over their last 12 empties: there every loss is the exact
// difference between the best move and the move played, so a move's score
// is the next position's best score turned round, and the last move's is
// the final result.
func TestJudge(t *testing.T) {
	recs := weakGames(t, 3)
	path := filepath.Join(t.TempDir(), "records.txt")
	var buf bytes.Buffer
	for _, r := range recs {
		buf.WriteString(r.String() + "\n")
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := match.ReadRecords(path)
	if err != nil || len(recs) != 2 {
		t.Fatalf("read %d records: %v", len(recs), err)
	}
	js, err := judge(context.Background(), judgeConfig{depth: 2, exact: 12, ours: "level", workers: 2, hi: 60}, recs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	lost, ours := 0.0, 0
	for i, j := range js {
		if j.loss() < 0 {
			t.Errorf("game %d ply %d: loss %.2f", j.game, j.ply, j.loss())
		}
		if j.ours {
			ours++
		}
		if !j.exact {
			continue
		}
		lost += j.loss()
		last := i+1 == len(js) || js[i+1].game != j.game
		if last {
			r := recs[j.game]
			want := r.Score
			if ps, _ := r.Positions(); ps[j.ply-len(r.Opening)].ToMove() == reversi.White {
				want = -want
			}
			if j.score != 100*want {
				t.Errorf("game %d: the last move scored %d, the game ended %+d for its player", j.game, j.score, want)
			}
			continue
		}
		next := js[i+1]
		if next.ply == j.ply+1 && j.score != -next.bestScore {
			t.Errorf("game %d ply %d: the move scored %d, the next position's best is %d", j.game, j.ply, j.score, next.bestScore)
		}
	}
	if ours == 0 || ours == len(js) {
		t.Errorf("%d of %d moves are ours", ours, len(js))
	}
	if lost == 0 {
		t.Error("weak players lost nothing in their last 12 empties: the judge sees no mistakes")
	}
	var sum strings.Builder
	summarise(&sum, js, len(recs))
	if !strings.Contains(sum.String(), "endgame 0-14\tus") {
		t.Errorf("summary without the endgame row:\n%s", sum.String())
	}
}

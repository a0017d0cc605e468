package match

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// TestAnalyseLosses finds, in each lost game of a match log, the move that
// lost it (GOMOKU_MATCH=analyse GOMOKU_LOG=<file of "go test -v" output of
// TestMatchSeed>). Walking back from the end, it asks the full engine
// (GOMOKU_MOVETIME ms per position, default 2000) about the positions
// where our side was to move; the last one it does not prove lost is where
// the losing move was played. It prints that position, the move played
// and the full engine's choice with its score.
func TestAnalyseLosses(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "analyse" {
		t.Skip("set GOMOKU_MATCH=analyse and GOMOKU_LOG to analyse the lost games of a match log")
	}
	moveTime := time.Duration(envInt("GOMOKU_MOVETIME", 2000)) * time.Millisecond
	for _, g := range readLosses(t, os.Getenv("GOMOKU_LOG")) {
		analyseLoss(t, g.name, colourName(g.ours), g.moves, g.ours, moveTime)
	}
}

func analyseLoss(t *testing.T, name, colour string, moves []gomoku.Point, ours gomoku.Color, moveTime time.Duration) {
	e := gomoku.NewEngine()
	for n := len(moves) - 1; n >= 0; n-- {
		b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
		for _, m := range moves[:n] {
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if b.ToMove() != ours {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), moveTime)
		r, err := e.Search(ctx, b, gomoku.Limits{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if r.Score <= -gomoku.WinThreshold || (r.Depth == 1 && len(r.PV) == 1 && r.Score < gomoku.WinThreshold) {
			// Proven lost, or a forced block (answered without a search,
			// so it says nothing): the losing choice came earlier.
			continue
		}
		d4, _ := gomoku.NewEngine().Search(context.Background(), b, gomoku.Limits{Level: 5, Depth: 4})
		t.Logf("%s as %s: lost at move %d: %s | played %v (level 5: score %d pv %v) | full engine %v score %d depth %d pv %v",
			name, colour, n+1, gomoku.FormatRecord(moves[:n]), moves[n], d4.Score, d4.PV, r.Best, r.Score, r.Depth, r.PV)
		return
	}
	t.Logf("%s as %s: lost from the opening", name, colour)
}

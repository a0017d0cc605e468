package match

import (
	"bufio"
	"context"
	"os"
	"strings"
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
	f, err := os.Open(os.Getenv("GOMOKU_LOG"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	moveTime := time.Duration(envInt("GOMOKU_MOVETIME", 2000)) * time.Millisecond
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		// "... piskvork/28 level5-d4 as black: loss h8g8..."
		line := sc.Text()
		i := strings.Index(line, ": loss ")
		if i < 0 {
			continue
		}
		head := strings.Fields(line[:i])
		colour := head[len(head)-1]
		name := head[len(head)-4]
		record := strings.TrimSpace(line[i+len(": loss "):])
		moves, err := gomoku.ParseRecord(record, 15)
		if err != nil {
			t.Fatal(err)
		}
		ours := gomoku.White
		if colour == "black" {
			ours = gomoku.Black
		}
		analyseLoss(t, name, colour, moves, ours, moveTime)
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

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
)

// TestTruth makes a truth set from two short games between weak players,
// solved at 12 empties: each game is the start position and then its
// positions from 20 empties down to one exact position, all labelled with
// that position's exact value (checked by a solve of its own), turned round
// for the side to move.
func TestTruth(t *testing.T) {
	recs := weakGames(t, 5)
	var buf bytes.Buffer
	if err := truth(context.Background(), recs, 12, 20, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "truth.bin")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := readSamples(path)
	if err != nil {
		t.Fatal(err)
	}
	games, exact := 0, 0
	var black int // the current game's value from black's view
	for i, s := range all {
		if isStart(s) {
			games++
			if i > 0 && !all[i-1].exact {
				t.Errorf("game %d does not end with its exact position", games-1)
			}
			continue
		}
		v := int(s.score)
		if s.toMove == reversi.White {
			v = -v
		}
		if isStart(all[i-1]) {
			black = v
		} else if v != black {
			t.Errorf("game %d, %d empties: label %+d from black's view, the game's is %+d", games-1, empties(s), v, black)
		}
		switch e := empties(s); {
		case s.exact:
			exact++
			if e > 12 {
				t.Errorf("exact label at %d empties", e)
			}
			r, err := reversi.NewEngine().Search(context.Background(), s.position(), reversi.Limits{Depth: 60})
			if err != nil || r.Score != int(s.score) {
				t.Errorf("game %d: label %d, a solve gives %d (%v)", games-1, s.score, r.Score, err)
			}
		case e < 20:
			t.Errorf("a position at %d empties was kept", e)
		}
	}
	if games != 2 || exact != 2 {
		t.Fatalf("%d games, %d exact positions; want 2 and 2", games, exact)
	}
}

// TestMeasure checks the errors on a hand-made set: two labels the
// evaluation gets right in sign, one wrong and a draw that does not count.
func TestMeasure(t *testing.T) {
	labels := []int8{4, -2, 6, 0}
	evals := []float64{3, -1, -2, 1}
	var ss []sample
	for _, y := range labels {
		ss = append(ss, sample{score: y})
	}
	k := 0
	got := measureBy(ss, func(sample) float64 { k++; return evals[k-1] })
	// Errors -1, +1, -8, +1: squares 67, sum -7.
	want := evalErrors{rmse: 4.0927, bias: -1.75, sign: 2.0 / 3}
	if d := got.rmse - want.rmse; d > 1e-3 || d < -1e-3 || got.bias != want.bias || got.sign != want.sign {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

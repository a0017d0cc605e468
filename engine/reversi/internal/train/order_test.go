package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// TestOrderSet makes a move-choice set from short endings and checks each
// line against every move solved on its own: the value is the best move's
// and the moves listed are exactly those that reach it. It then measures
// the shipped tables on the set.
func TestOrderSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.bin")
	if err := os.WriteFile(path, smallGen(t, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	samples, err := readSamples(path)
	if err != nil {
		t.Fatal(err)
	}
	var positions []reversi.Position
	for _, s := range samples {
		if n := empties(s); n >= 9 && n <= 11 && len(s.position().LegalMoves()) >= 2 {
			positions = append(positions, s.position())
		}
	}
	if len(positions) < 10 {
		t.Fatalf("%d positions", len(positions))
	}
	var buf bytes.Buffer
	if err := makeOrderSet(context.Background(), positions, time.Minute, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	setPath := filepath.Join(t.TempDir(), "set.txt")
	if err := os.WriteFile(setPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	items, err := readOrderSet(setPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(positions) {
		t.Fatalf("%d lines, want %d", len(items), len(positions))
	}
	e := reversi.NewEngine()
	ties := 0
	for i, it := range items {
		if it.pos != positions[i] {
			t.Fatalf("line %d: position %v, want %v", i, it.pos, positions[i])
		}
		best := -65
		values := map[reversi.Square]int{}
		for _, sq := range it.pos.LegalMoves() {
			v, err := moveValue(e, it.pos, sq)
			if err != nil {
				t.Fatal(err)
			}
			values[sq] = v
			best = max(best, v)
		}
		if it.value != best {
			t.Errorf("line %d: value %d, want %d", i, it.value, best)
		}
		for sq, v := range values {
			if it.best[sq] != (v == best) {
				t.Errorf("line %d: %s (value %d) listed %v, best %d", i, sq, v, it.best[sq], best)
			}
		}
		if len(it.best) > 1 {
			ties++
		}
	}
	t.Logf("%d positions, %d with more than one best move", len(items), ties)
	data, err := os.ReadFile("../../patterns.bin")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.UsePatternTables(data, 60); err != nil {
		t.Fatal(err)
	}
	got := measureOrder(e, items, reversi.OrderMobilityWeight, 0)
	if !strings.HasPrefix(got, fmt.Sprintf("all %d: first ", len(items))) {
		t.Errorf("measure: %q", got)
	}
	t.Log(got)
}

// moveValue returns the exact value of playing sq in p, from p's side to
// move, by solving the position after it.
func moveValue(e *reversi.Engine, p reversi.Position, sq reversi.Square) (int, error) {
	c, err := p.Play(sq)
	if err != nil {
		return 0, err
	}
	sign := -1
	switch {
	case c.GameOver():
		if p.ToMove() == reversi.White {
			return -c.FinalScore(), nil
		}
		return c.FinalScore(), nil
	case c.MustPass():
		c, _ = c.PlayPass()
		sign = 1
	}
	r, err := e.Search(context.Background(), c, reversi.Limits{Depth: 60})
	return sign * r.Score, err
}

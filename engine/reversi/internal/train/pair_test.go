package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// TestReadOutcomesAndPair writes two short weak games (one opening, both
// colours) as records, one game a file, reads them back as one set joined
// by a comma, and pairs the set with itself (no difference) and with the
// games of another seed.
func TestReadOutcomesAndPair(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, recs []match.Record) string {
		var b strings.Builder
		for _, r := range recs {
			b.WriteString(r.String() + "\n")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := weakGames(t, 3)
	spec := write("a1.txt", a[:1]) + "," + write("a2.txt", a[1:])
	got, err := readOutcomes(spec, "level")
	if err != nil || len(got) != 2 {
		t.Fatalf("read %d games: %v", len(got), err)
	}
	same, err := match.Pair(got, got)
	if err != nil || same.Games != 2 || same.Changed != 0 || same.Points != 0 || same.Discs != 0 {
		t.Errorf("a set against itself: %+v, %v", same, err)
	}
	other, err := readOutcomes(write("b.txt", weakGames(t, 4)), "level")
	if err != nil {
		t.Fatal(err)
	}
	p, err := match.Pair(got, other)
	if err != nil || p.Games != 2 {
		t.Fatalf("pair: %+v, %v", p, err)
	}
	var want float64
	for k, o := range other {
		want += (o.Points - got[k].Points) / 2
	}
	if p.Points != want {
		t.Errorf("paired points %.3f, want %.3f", p.Points, want)
	}
	if _, err := readOutcomes(spec, "edax"); err == nil {
		t.Error("no player named edax: want an error")
	}
	if _, err := readOutcomes(filepath.Join(dir, "missing.txt"), "level"); err == nil {
		t.Error("a missing file: want an error")
	}
}

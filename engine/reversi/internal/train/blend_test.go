package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// TestBlend checks blend: inside the empties range every entry is the
// weighted mean of the two files' entries, outside it the first file's.
func TestBlend(t *testing.T) {
	dir := t.TempDir()
	a := make([][]int16, pattern.NumStages)
	b := make([][]int16, pattern.NumStages)
	for s := range a {
		a[s] = make([]int16, pattern.StageSize)
		b[s] = make([]int16, pattern.StageSize)
		for i := range a[s] {
			a[s][i] = int16(100 + s)
			b[s][i] = int16(-200 + i%7)
		}
	}
	pa, pb, out := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin"), filepath.Join(dir, "c.bin")
	if err := writeTables(pa, a); err != nil {
		t.Fatal(err)
	}
	if err := writeTables(pb, b); err != nil {
		t.Fatal(err)
	}
	if err := runBlend([]string{"-a", pa, "-b", pb, "-weight", "0.25", "-min-empties", "17", "-max-empties", "28", "-out", out}); err != nil {
		t.Fatal(err)
	}
	c, err := readTables(out)
	if err != nil {
		t.Fatal(err)
	}
	for s := range c {
		lo, hi := stageEmpties(s)
		in := lo >= 17 && hi <= 28
		for i := range c[s] {
			want := a[s][i]
			if in {
				want = int16(math.Round(0.75*float64(a[s][i]) + 0.25*float64(b[s][i])))
			}
			if c[s][i] != want {
				t.Fatalf("stage %d (empties %d-%d) entry %d: %d, want %d", s, lo, hi, i, c[s][i], want)
			}
		}
	}
}

package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// smallGen is a quick data set: shallow play, short exact endings.
func smallGen(t *testing.T, workers int) []byte {
	t.Helper()
	var buf bytes.Buffer
	cfg := genConfig{games: 6, seed: 7, minRandom: 2, maxRandom: 10, playDepth: 2, solveEmpties: 10, workers: workers, linear: true}
	if err := gen(context.Background(), cfg, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGenIsReproducible(t *testing.T) {
	a, b := smallGen(t, 1), smallGen(t, 2)
	if !bytes.Equal(a, b) {
		t.Fatalf("one worker wrote %d bytes, two workers %d, or different ones", len(a), len(b))
	}
	if len(a)%sampleBytes != 0 || len(a) == 0 {
		t.Fatalf("%d bytes", len(a))
	}
}

// smallGenFile writes smallGen's games (one worker) to a file and returns
// its bytes, its path and its samples read back.
func smallGenFile(t *testing.T) (data []byte, path string, all []sample) {
	t.Helper()
	data = smallGen(t, 1)
	path = filepath.Join(t.TempDir(), "games.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := readSamples(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, path, all
}

func TestSamples(t *testing.T) {
	data, path, all := smallGenFile(t)
	games := 0
	for _, s := range all {
		if isStart(s) {
			games++
		}
		if s.exact && empties(s) > 10 {
			t.Errorf("exact label at %d empties, solving starts at 10", empties(s))
		}
		if p := s.position(); p.GameOver() {
			t.Errorf("a finished position was sampled")
		}
	}
	if games != 6 {
		t.Fatalf("%d games found, want 6", games)
	}
	for _, c := range []struct{ n, want int }{{0, 0}, {1, 1}, {3, 3}, {6, 6}, {9, 6}} {
		got := 0
		for _, s := range firstGames(all, c.n) {
			if isStart(s) {
				got++
			}
		}
		if c.n == 0 {
			continue // 0 keeps everything in runFit; firstGames(0) is empty
		}
		if got != c.want {
			t.Errorf("firstGames(%d) has %d games, want %d", c.n, got, c.want)
		}
	}
	train, valid := split(all)
	if len(train)+len(valid) != len(all) || len(train) == 0 {
		t.Errorf("split %d + %d of %d", len(train), len(valid), len(all))
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	// Truncated files are refused.
	if err := os.WriteFile(path, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSamples(path); err == nil {
		t.Error("a truncated file was read")
	}
}

func TestFitLearnsALabel(t *testing.T) {
	// Every position labelled +10 whatever it is: the fit must get close
	// (the mobility tables and patterns can carry a constant).
	ss := labelledAlike(t, 10)
	w := fitStage(ss, fitConfig{ridge: 0.01, iterations: 100}, nil)
	q := make([]int16, pattern.StageSize)
	for i := range q {
		q[i] = int16(w[pattern.Canonical(i)] * 100)
	}
	if e := rmse(q, ss); e > 0.5 {
		t.Errorf("RMSE %.2f discs on a constant label", e)
	}
}

// labelledAlike returns the positions of one small generated game file,
// every one labelled score.
func labelledAlike(t *testing.T, score int8) []sample {
	t.Helper()
	data := smallGen(t, 1)
	var ss []sample
	for i := 0; i < len(data); i += sampleBytes {
		s := decodeSample(data[i:])
		s.score = score
		ss = append(ss, s)
	}
	return ss
}

// TestFitPrior checks -prior: a fit that starts from tables which already
// give every label keeps them, and a weight no position uses keeps its
// prior value instead of falling to zero.
func TestFitPrior(t *testing.T) {
	ss := labelledAlike(t, 10)
	// Ten discs from my mobility table alone, whatever the position.
	w0 := make([]float64, pattern.StageSize)
	for j := 0; j < pattern.MobilityEntries; j++ {
		w0[pattern.MyMobilityOffset+j] = 10
	}
	used := map[int32]bool{}
	var ix [pattern.PerPosition]int32
	for _, s := range ss {
		row(s, &ix)
		for _, j := range ix {
			used[j] = true
		}
	}
	unused := int32(0)
	for used[unused] || pattern.Canonical(int(unused)) != int(unused) {
		unused++
	}
	w0[unused] = 3
	w := fitStage(ss, fitConfig{ridge: 1, iterations: 50, hybrid: true}, w0)
	for j := range w {
		if math.Abs(w[j]-w0[j]) > 1e-6 {
			t.Fatalf("weight %d moved from %.3f to %.3f though the prior gives every label", j, w0[j], w[j])
		}
	}
	if w := fitStage(ss, fitConfig{ridge: 1, iterations: 50}, nil); w[unused] != 0 {
		t.Errorf("without a prior an unused weight is %.3f, want 0", w[unused])
	}
}

// labelInputs is what the label tests start from: the samples of two small
// generated games and the shipped pattern tables.
func labelInputs(t *testing.T) ([]sample, []byte) {
	t.Helper()
	data := smallGen(t, 2)
	var in []sample
	for i := 0; i < len(data); i += sampleBytes {
		in = append(in, decodeSample(data[i:]))
	}
	tables, err := os.ReadFile("../../patterns.bin")
	if err != nil {
		t.Fatal(err)
	}
	return in, tables
}

// labelled runs label on in with cfg and returns what it wrote.
func labelled(t *testing.T, cfg labelConfig, in []sample) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := label(context.Background(), cfg, in, &buf, io.Discard); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLabel(t *testing.T) {
	in, tables := labelInputs(t)
	cfg := labelConfig{minEmpties: 30, maxEmpties: 40, depth: 2, selective: true, patterns: tables, patternEmpties: 28}
	run := func(workers int) []byte {
		c := cfg
		c.workers = workers
		return labelled(t, c, in)
	}
	a, b := run(1), run(2)
	if !bytes.Equal(a, b) {
		t.Fatal("one worker and two wrote different labels")
	}
	if len(a) != len(in)*sampleBytes {
		t.Fatalf("%d bytes out, %d samples in: every sample must be copied", len(a), len(in))
	}
	changed := 0
	for i, s := range in {
		got := decodeSample(a[i*sampleBytes:])
		if got.black != s.black || got.white != s.white || got.toMove != s.toMove {
			t.Fatalf("sample %d: the position changed", i)
		}
		e := empties(s)
		inRange := e >= cfg.minEmpties && e <= cfg.maxEmpties && !s.position().MustPass()
		if !inRange && got != s {
			t.Errorf("sample %d at %d empties was relabelled outside the range", i, e)
		}
		if inRange {
			// The label is the depth-2 search's score, rounded to discs.
			eng := reversi.NewEngineSize(labelTableBytes)
			if err := eng.UsePatternTables(tables, 28); err != nil {
				t.Fatal(err)
			}
			r, _ := eng.Search(context.Background(), s.position(), reversi.Limits{Depth: 2, EndgameEmpties: 1})
			if want := int8(math.Round(float64(r.Centi) / 100)); got.score != want || got.exact {
				t.Errorf("sample %d: label %d (exact %v), want the search's %d", i, got.score, got.exact, want)
			}
			if got.score != s.score {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("no label in the range changed")
	}
}

// TestLabelOutcomeWeight checks label -outcome-weight: each new label is
// the rounded blend of the input's label and the plain search label, and
// only positions in the range change.
func TestLabelOutcomeWeight(t *testing.T) {
	in, tables := labelInputs(t)
	cfg := labelConfig{minEmpties: 30, maxEmpties: 40, depth: 2, selective: true, patterns: tables, patternEmpties: 28, workers: 2}
	run := func(w float64) []byte {
		c := cfg
		c.outcomeWeight = w
		return labelled(t, c, in)
	}
	plain, half, whole := run(0), run(0.5), run(1)
	blended := 0
	for i, s := range in {
		p := decodeSample(plain[i*sampleBytes:])
		h := decodeSample(half[i*sampleBytes:])
		if w := decodeSample(whole[i*sampleBytes:]); w != s {
			t.Fatalf("sample %d: weight 1 changed the label %d to %d", i, s.score, w.score)
		}
		want := int8(math.Round(0.5*float64(s.score) + 0.5*float64(p.score)))
		if h.score != want || h.black != s.black || h.white != s.white || h.toMove != s.toMove {
			t.Fatalf("sample %d: blended label %d, want round((%d + %d)/2) = %d", i, h.score, s.score, p.score, want)
		}
		if h.score != s.score && h.score != p.score {
			blended++
		}
	}
	if blended == 0 {
		t.Error("no label lies strictly between the outcome and the search")
	}
}

func TestLabelRefusesBadWeights(t *testing.T) {
	for _, args := range [][]string{
		{"-outcome-weight", "-0.1"},
		{"-outcome-weight", "1.5"},
		{"-outcome-weight", "NaN"},
		{"-outcome-weight", "0.5", "-exact"},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out.bin")
		err := runLabel(append([]string{"-in", filepath.Join(dir, "missing.bin"), "-out", out}, args...))
		if err == nil || !strings.Contains(err.Error(), "outcome-weight") {
			t.Errorf("label %v: error %v, want one about -outcome-weight", args, err)
		}
		if _, statErr := os.Stat(out); statErr == nil {
			t.Errorf("label %v wrote its output despite the error", args)
		}
	}
}

// TestLabelExact checks label -exact: every position in the range gets its
// exact score, marked exact; at 8 empties and fewer the score is checked
// against a plain minimax, and where the game's own perfect play had
// labelled a position the two agree.
func TestLabelExact(t *testing.T) {
	in, tables := labelInputs(t)
	cfg := labelConfig{minEmpties: 4, maxEmpties: 14, depth: 2, exact: true, patterns: tables, patternEmpties: 44, workers: 2}
	out := labelled(t, cfg, in)
	checked, agreed := 0, 0
	for i, s := range in {
		got := decodeSample(out[i*sampleBytes:])
		e := empties(s)
		if e < cfg.minEmpties || e > cfg.maxEmpties || s.position().MustPass() {
			if got != s {
				t.Errorf("sample %d at %d empties was relabelled outside the range", i, e)
			}
			continue
		}
		if !got.exact {
			t.Errorf("sample %d at %d empties: not marked exact", i, e)
		}
		if s.exact {
			agreed++
			if got.score != s.score {
				t.Errorf("sample %d at %d empties: label %d, the game's perfect play %d", i, e, got.score, s.score)
			}
		}
		if e <= 8 {
			checked++
			if want := minimax(s.position()); int(got.score) != want {
				t.Errorf("sample %d at %d empties: label %d, minimax %d", i, e, got.score, want)
			}
		}
	}
	if checked == 0 || agreed == 0 {
		t.Fatalf("%d positions checked by minimax, %d against the games' labels", checked, agreed)
	}
}

// minimax is the exact final disc difference from the side to move's view,
// by searching every line (for a handful of empties).
func minimax(p reversi.Position) int {
	if p.GameOver() {
		s := p.FinalScore()
		if p.ToMove() == reversi.White {
			s = -s
		}
		return s
	}
	if p.MustPass() {
		q, _ := p.PlayPass()
		return -minimax(q)
	}
	best := -65
	for _, m := range p.LegalMoves() {
		q, _ := p.Play(m)
		if v := -minimax(q); v > best {
			best = v
		}
	}
	return best
}

// TestDebias checks that debias removes a stage's mean error: tables that
// say 7 discs everywhere, on positions all labelled 10, come out saying 10.
func TestDebias(t *testing.T) {
	ss := labelledAlike(t, 10)
	stages := make([][]int16, pattern.NumStages)
	for s := range stages {
		stages[s] = make([]int16, pattern.StageSize)
		for j := 0; j < pattern.MobilityEntries; j++ {
			stages[s][pattern.MyMobilityOffset+j] = 700
		}
	}
	debias(stages, ss, 1, 60, io.Discard)
	for s := range stages {
		lo := s*pattern.StageWidth + 1
		in := inRange(ss, lo, lo+pattern.StageWidth-1)
		if len(in) == 0 {
			continue
		}
		if b := measure(stages[s], in).bias; math.Abs(b) > 0.01 {
			t.Errorf("stage %d: bias %+.2f discs after debias", s, b)
		}
	}
}

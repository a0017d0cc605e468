package reversi

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"strconv"
	"testing"
)

// TestFitProbCut measures how far a deep search's score lies from the
// shallow search ProbCut would use in its place, and fits mpcSigmaCoeffs
// (a measurement, run by hand; it prints the coefficients to paste):
//
//	REVERSI_PROBCUT_FIT=1 nice -n 10 go test -run TestFitProbCut -v -timeout 60m ./engine/reversi
//
// The positions come from seeded self-play (8-20 random opening plies, then
// depth 6), every third ply with 20-50 empties; each is searched full-width
// at every depth from 1 to REVERSI_PROBCUT_DEPTH (default 11).
func TestFitProbCut(t *testing.T) {
	if os.Getenv("REVERSI_PROBCUT_FIT") == "" {
		t.Skip("set REVERSI_PROBCUT_FIT=1 to fit the ProbCut spreads (a long measurement)")
	}
	maxDepth := 11
	if v, err := strconv.Atoi(os.Getenv("REVERSI_PROBCUT_DEPTH")); err == nil && v > 3 {
		maxDepth = v
	}
	games := 40
	if v, err := strconv.Atoi(os.Getenv("REVERSI_PROBCUT_GAMES")); err == nil && v > 0 {
		games = v
	}
	rng := rand.New(rand.NewSource(1))
	e := NewEngine()
	var positions []Position
	for g := 0; g < games; g++ {
		p := Start()
		random := 8 + rng.Intn(13)
		for ply := 0; !p.GameOver(); ply++ {
			if p.MustPass() {
				p, _ = p.PlayPass()
				continue
			}
			if em := p.Empties(); ply >= random && ply%3 == g%3 && em >= 20 && em <= 50 {
				positions = append(positions, p)
			}
			var m Square
			if ply < random {
				ms := p.LegalMoves()
				m = ms[rng.Intn(len(ms))]
			} else {
				r, err := e.Search(context.Background(), p, Limits{Depth: 6, EndgameEmpties: 1, NoSelective: true})
				if err != nil {
					t.Fatal(err)
				}
				m = r.Best
			}
			p = p.play(int(m))
		}
	}
	t.Logf("%d positions from %d games", len(positions), games)
	// diffs[d][s] holds (empties, v_d - v_s) pairs, for every shallow
	// depth s of d's parity from 1 to d-2: the spread is fitted over all
	// of them, so that the model holds for any choice of mpcShallowDepth.
	type pair struct{ empties, diff int }
	diffs := make([][][]pair, maxDepth+1)
	for d := range diffs {
		diffs[d] = make([][]pair, d+1)
	}
	e.done = nil
	for _, p := range positions {
		e.Clear()
		e.selective, e.aborted = false, false
		v := make([]int, maxDepth+1)
		v[0] = e.params.evaluate(p.me, p.opp)
		for d := 1; d <= maxDepth; d++ {
			v[d] = e.pvs(p.me, p.opp, -infinity, infinity, d)
		}
		for d := mpcMinDepth; d <= maxDepth; d++ {
			for s := 2 - d&1; s <= d-2; s += 2 {
				diffs[d][s] = append(diffs[d][s], pair{p.Empties(), v[d] - v[s]})
			}
		}
	}
	// sigma per pair of depths and band of empties, then a weighted
	// least-squares fit of sigma = c0 + c1*empties + c2*d + c3*shallow.
	var ata [4][4]float64
	var atb [4]float64
	for d := mpcMinDepth; d <= maxDepth; d++ {
		for s := 2 - d&1; s <= d-2; s += 2 {
			for lo := 20; lo <= 50; lo += 10 {
				var n, sum, sq float64
				for _, x := range diffs[d][s] {
					if x.empties >= lo && x.empties < lo+10 {
						n++
						sum += float64(x.diff)
						sq += float64(x.diff) * float64(x.diff)
					}
				}
				if n < 10 {
					continue
				}
				// The spread about zero, not about the mean: ProbCut takes
				// the shallow score as the estimate, so a bias counts as
				// error.
				mean := sum / n
				sigma := math.Sqrt(sq / n)
				model := mpcSigma(lo+5, d, s)
				t.Logf("depth %2d, shallow %d, empties %d-%d: %4.0f positions, mean %+6.1f, sigma %6.1f, model %4d (centidiscs)", d, s, lo, lo+9, n, mean, sigma, model)
				row := [4]float64{1, float64(lo) + 4.5, float64(d), float64(s)}
				for i := 0; i < 4; i++ {
					for j := 0; j < 4; j++ {
						ata[i][j] += n * row[i] * row[j]
					}
					atb[i] += n * row[i] * sigma
				}
			}
		}
	}
	c := solve4(ata, atb)
	t.Logf("mpcSigmaCoeffs = [4]float64{%.1f, %.2f, %.2f, %.2f}", c[0], c[1], c[2], c[3])
}

// solve4 solves a 4x4 linear system by Gaussian elimination.
func solve4(a [4][4]float64, b [4]float64) [4]float64 {
	for c := 0; c < 4; c++ {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := 0; r < 4; r++ {
			if r == c || a[c][c] == 0 {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 4; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [4]float64
	for i := range x {
		if a[i][i] != 0 {
			x[i] = b[i] / a[i][i]
		}
	}
	return x
}

// TestFitEndgameProbCut measures how far a position's exact score lies from
// a shallow midgame search of it, which the solver's selective passes use
// in its place (endgame ProbCut, endcut.go), and fits endCutSigmaCoeffs (a
// measurement, run by hand; it prints the coefficients to paste):
//
//	REVERSI_ENDCUT_FIT=/tmp/reversi-games.bin nice -n 10 go test -run TestFitEndgameProbCut -v -timeout 60m ./engine/reversi
//
// The file is one written by internal/train gen, or the corpus unpacked
// into that format by train unpack (the corpus's games are exactly labelled
// from 16 empties down). Only its held-out games (every tenth, which the
// pattern tables were not fitted on) are used: their exactly labelled
// positions at 12-18 empties are taken as they are, and
// REVERSI_ENDCUT_SOLVE (default 60) positions each at 20, 22 and 24
// empties are solved here.
func TestFitEndgameProbCut(t *testing.T) {
	path := os.Getenv("REVERSI_ENDCUT_FIT")
	if path == "" {
		t.Skip("set REVERSI_ENDCUT_FIT to a gen file to fit the endgame ProbCut spreads (a long measurement)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	solveN := 60
	if v, err := strconv.Atoi(os.Getenv("REVERSI_ENDCUT_SOLVE")); err == nil && v >= 0 {
		solveN = v
	}
	const rec = 19 // internal/train's sample: black, white, side to move, score, exact
	type labelled struct {
		p     Position
		score int
	}
	byEmpties := map[int][]labelled{}
	start := Start()
	game := -1
	for i := 0; i+rec <= len(data); i += rec {
		b := data[i:]
		black, white := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		p, err := NewPosition(black, white, Color(b[16]))
		if err != nil {
			t.Fatal(err)
		}
		if p.me|p.opp == start.me|start.opp && p.me == start.me {
			game++
		}
		if game%10 != 9 {
			continue
		}
		em := p.Empties()
		switch {
		case b[18] == 1 && em >= 12 && em <= 18:
			byEmpties[em] = append(byEmpties[em], labelled{p, int(int8(b[17]))})
		case em == 20 || em == 22 || em == 24:
			if len(byEmpties[em]) < solveN && !p.GameOver() && !p.MustPass() {
				byEmpties[em] = append(byEmpties[em], labelled{p, 0})
			}
		}
	}
	e := NewEngine()
	for _, em := range []int{20, 22, 24} {
		for i, x := range byEmpties[em] {
			e.Clear()
			r, err := e.Search(context.Background(), x.p, Limits{Depth: 60})
			if err != nil || !r.Exact {
				t.Fatalf("solve at %d empties: %+v %v", em, r, err)
			}
			byEmpties[em][i].score = r.Score
		}
	}
	const maxShallow = 6
	var ata [4][4]float64
	var atb [4]float64
	for em := 12; em <= 24; em++ {
		xs := byEmpties[em]
		if len(xs) > 2000 {
			xs = xs[:2000]
		}
		if len(xs) < 20 {
			continue
		}
		var sq [maxShallow + 1]float64
		var sum [maxShallow + 1]float64
		for _, x := range xs {
			e.Clear()
			e.selective, e.aborted, e.done = false, false, nil
			for d := 0; d <= maxShallow; d++ {
				v := e.params.evaluate(x.p.me, x.p.opp)
				if d > 0 {
					v = e.pvs(x.p.me, x.p.opp, -infinity, infinity, d)
				}
				diff := float64(x.score*evalScale - v)
				sq[d] += diff * diff
				sum[d] += diff
			}
		}
		n := float64(len(xs))
		for d := 0; d <= maxShallow; d++ {
			sigma := math.Sqrt(sq[d] / n)
			t.Logf("empties %2d, shallow depth %d: %4.0f positions, mean %+6.1f, sigma %6.1f (centidiscs)", em, d, n, sum[d]/n, sigma)
			row := [4]float64{1, float64(em), float64(d), 0}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					ata[i][j] += n * row[i] * row[j]
				}
				atb[i] += n * row[i] * sigma
			}
		}
	}
	ata[3][3] = 1
	c := solve4(ata, atb)
	t.Logf("endCutSigmaCoeffs = [3]float64{%.1f, %.2f, %.2f}", c[0], c[1], c[2])
}

package reversi

import (
	"context"
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
	// diffs[d] holds (empties, v_d - v_shallow(d)) pairs.
	type pair struct{ empties, diff int }
	diffs := make([][]pair, maxDepth+1)
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
			diffs[d] = append(diffs[d], pair{p.Empties(), v[d] - v[mpcShallowDepth(d)]})
		}
	}
	// sigma per depth and band of empties, then a weighted least-squares
	// fit of sigma = c0 + c1*empties + c2*d + c3*shallow.
	var ata [4][4]float64
	var atb [4]float64
	for d := mpcMinDepth; d <= maxDepth; d++ {
		for lo := 20; lo <= 50; lo += 10 {
			var n, sum, sq float64
			for _, x := range diffs[d] {
				if x.empties >= lo && x.empties < lo+10 {
					n++
					sum += float64(x.diff)
					sq += float64(x.diff) * float64(x.diff)
				}
			}
			if n < 10 {
				continue
			}
			// The spread about zero, not about the mean: ProbCut takes the
			// shallow score as the estimate, so a bias counts as error.
			mean := sum / n
			sigma := math.Sqrt(sq / n)
			t.Logf("depth %2d (shallow %d), empties %d-%d: %4.0f positions, mean %+6.1f, sigma %6.1f (centidiscs)", d, mpcShallowDepth(d), lo, lo+9, n, mean, sigma)
			row := [4]float64{1, float64(lo) + 4.5, float64(d), float64(mpcShallowDepth(d))}
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					ata[i][j] += n * row[i] * row[j]
				}
				atb[i] += n * row[i] * sigma
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

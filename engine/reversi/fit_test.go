package reversi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"
)

// The evaluation weights are fitted by this test, run by hand (it is a
// measurement and writes weights.json; docs/reversi-engine.md explains it):
//
//	REVERSI_FIT=1 REVERSI_FIT_SECONDS=480 nice -n 10 go test -run TestFitWeights -v -timeout 30m ./engine/reversi
//
// and the result is checked in games against the previous weights with
//
//	REVERSI_FIT_COMPARE=1 nice -n 10 go test -run TestCompareWeights -v -timeout 30m ./engine/reversi

// fitSample is one labelled position: the final disc difference of the
// game from the side to move's view, with both sides searching to the end of
// the game exactly from fitSolveEmpties empties.
type fitSample struct {
	me, opp uint64
	label   int // evalScale units
}

const (
	// fitLevel is the engine level that plays the games: depth 6 with an
	// exact finish, so labels near the end are proven values and earlier
	// ones the outcome of sound play.
	fitLevel = 6
	// fitRandomPlies bounds the random opening plies that make the games
	// differ: between 6 and 6+fitRandomSpread.
	fitRandomPlies  = 6
	fitRandomSpread = 10
	// fitRidge is the ridge penalty on the scalar weights and fitEdgeRidge
	// the shrinkage of edge values towards zero (in observations): both keep
	// rare configurations from taking extreme values.
	fitRidge     = 1.0
	fitEdgeRidge = 30.0
	// fitRounds is the number of alternating scalar/edge passes.
	fitRounds = 8
)

func generateSamples(t *testing.T, seconds int, seed int64) (train, valid []fitSample, games int) {
	rng := rand.New(rand.NewSource(seed))
	e := NewEngine()
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	for time.Now().Before(deadline) {
		p := Start()
		random := fitRandomPlies + rng.Intn(fitRandomSpread+1)
		var hist []Position
		for ply := 0; !p.GameOver(); ply++ {
			if p.MustPass() {
				p, _ = p.PlayPass()
				continue
			}
			if ply < random {
				ms := p.LegalMoves()
				p = p.play(int(ms[rng.Intn(len(ms))]))
				continue
			}
			hist = append(hist, p)
			r, err := e.Search(context.Background(), p, Limits{Level: fitLevel})
			if err != nil {
				t.Fatal(err)
			}
			p = p.play(int(r.Best))
		}
		final := p.FinalScore()
		games++
		for _, h := range hist {
			l := final
			if h.ToMove() == White {
				l = -l
			}
			s := fitSample{me: h.me, opp: h.opp, label: l * evalScale}
			if games%10 == 0 {
				valid = append(valid, s) // every tenth game is held out
			} else {
				train = append(train, s)
			}
		}
	}
	return train, valid, games
}

// edgeCanon maps an edge configuration to the one read from the other
// corner, so that both readings share a value (the board is symmetric).
var edgeReverse = func() [numEdgeConfigs]int {
	var r [numEdgeConfigs]int
	for i := range r {
		v, x := 0, i
		for k := 0; k < 8; k++ {
			v = v*3 + x%3
			x /= 3
		}
		r[i] = v
	}
	return r
}()

// fitPhase fits one phase's weights by alternating ridge regression on the
// scalar features with shrunken averaging of the residual per edge
// configuration.
func fitPhase(samples []fitSample) ([numFeatures]int, []int16) {
	n := len(samples)
	feats := make([][numFeatures]int, n)
	edges := make([][4]int, n)
	for i, s := range samples {
		feats[i] = features(s.me, s.opp)
		edges[i] = edgeIndexes(s.me, s.opp)
		for k, idx := range edges[i] {
			if r := edgeReverse[idx]; r < idx {
				edges[i][k] = r
			}
		}
	}
	var w [numFeatures]float64
	edge := make([]float64, numEdgeConfigs)
	resid := make([]float64, n)
	for round := 0; round < fitRounds; round++ {
		// Scalar weights: (F'F + ridge I) w = F'(y - edges).
		var a [numFeatures][numFeatures + 1]float64
		for i := range samples {
			y := float64(samples[i].label)
			for _, idx := range edges[i] {
				y -= edge[idx]
			}
			for r := 0; r < numFeatures; r++ {
				fr := float64(feats[i][r])
				for c := 0; c < numFeatures; c++ {
					a[r][c] += fr * float64(feats[i][c])
				}
				a[r][numFeatures] += fr * y
			}
		}
		for r := 0; r < numFeatures; r++ {
			a[r][r] += fitRidge
		}
		w = solveLinear(a)
		// Edge values: average residual per configuration, shrunk.
		for i := range samples {
			pred := 0.0
			for k := 0; k < numFeatures; k++ {
				pred += w[k] * float64(feats[i][k])
			}
			for _, idx := range edges[i] {
				pred += edge[idx]
			}
			resid[i] = float64(samples[i].label) - pred
		}
		sum := make([]float64, numEdgeConfigs)
		cnt := make([]float64, numEdgeConfigs)
		for i := range samples {
			for _, idx := range edges[i] {
				sum[idx] += resid[i] + edge[idx]
				cnt[idx]++
			}
		}
		for c := range edge {
			edge[c] = sum[c] / (cnt[c] + fitEdgeRidge)
		}
	}
	var wi [numFeatures]int
	for k := range w {
		wi[k] = int(math.Round(w[k]))
	}
	e16 := make([]int16, numEdgeConfigs)
	for c := range e16 {
		v := edge[c]
		if r := edgeReverse[c]; r < c {
			v = edge[r]
		}
		e16[c] = int16(math.Max(-30000, math.Min(30000, math.Round(v))))
	}
	return wi, e16
}

// solveLinear solves the augmented system by Gaussian elimination with
// partial pivoting.
func solveLinear(a [numFeatures][numFeatures + 1]float64) [numFeatures]float64 {
	const n = numFeatures
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := 0; r < n; r++ {
			if r == c || a[c][c] == 0 {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var x [n]float64
	for r := 0; r < n; r++ {
		if a[r][r] != 0 {
			x[r] = a[r][n] / a[r][r]
		}
	}
	return x
}

// rmse is the root-mean-square error of params on samples, in discs.
func rmse(p *evalParams, samples []fitSample) float64 {
	if len(samples) == 0 {
		return 0
	}
	var s float64
	for _, x := range samples {
		d := float64(p.evaluateRaw(x.me, x.opp)-x.label) / evalScale
		s += d * d
	}
	return math.Sqrt(s / float64(len(samples)))
}

// evaluateRaw is evaluate without the clamp, for measuring fit.
func (p *evalParams) evaluateRaw(me, opp uint64) int {
	ph := phaseOf(64 - popcount(me|opp))
	f := features(me, opp)
	s := 0
	for i, v := range f {
		s += p.scalar[ph][i] * v
	}
	for _, idx := range edgeIndexes(me, opp) {
		s += int(p.edge[ph][idx])
	}
	return s
}

func TestFitWeights(t *testing.T) {
	if os.Getenv("REVERSI_FIT") == "" {
		t.Skip("set REVERSI_FIT=1 to fit weights.json (a long measurement)")
	}
	seconds := 480
	if v, err := strconv.Atoi(os.Getenv("REVERSI_FIT_SECONDS")); err == nil && v > 0 {
		seconds = v
	}
	train, valid, games := generateSamples(t, seconds, 1)
	t.Logf("%d games, %d training and %d held-out positions", games, len(train), len(valid))
	byPhase := func(s []fitSample) [numPhases][]fitSample {
		var out [numPhases][]fitSample
		for _, x := range s {
			ph := phaseOf(64 - popcount(x.me|x.opp))
			out[ph] = append(out[ph], x)
		}
		return out
	}
	tr, va := byPhase(train), byPhase(valid)
	w := weights{Version: defaultVersion() + 1, Features: featureNames, Edge: make([][]int16, numPhases)}
	w.Source = fmt.Sprintf("fitted by TestFitWeights: %d self-play games (6-16 random opening plies, then depth 6 with exact play from 12 empties; level %d when fitted), "+
		"%d positions labelled with the final disc difference; ridge least squares per phase, edge tables by shrunken residual averaging",
		games, fitLevel, len(train))
	old := linearParams
	for ph := 0; ph < numPhases; ph++ {
		if len(tr[ph]) < 200 {
			// Too few positions (the random opening plies): keep the
			// previous weights for this phase.
			w.Scalar[ph] = old.scalar[ph]
			w.Edge[ph] = append([]int16(nil), old.edge[ph][:]...)
			continue
		}
		w.Scalar[ph], w.Edge[ph] = fitPhase(tr[ph])
	}
	np := w.params()
	for ph := 0; ph < numPhases; ph++ {
		t.Logf("phase %d (empties %2d-%2d): %6d train, held-out RMSE %.2f discs before, %.2f after; scalar %v",
			ph, ph*phaseWidth+1, ph*phaseWidth+phaseWidth, len(tr[ph]), rmse(old, va[ph]), rmse(np, va[ph]), w.Scalar[ph])
	}
	data, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("weights.json", data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// defaultVersion is the version of the embedded weights.
func defaultVersion() int {
	w, err := parseWeights(weightsJSON)
	if err != nil {
		return 0
	}
	return w.Version
}

// TestCompareWeights plays the embedded weights against the hand-set ones
// (testdata/weights-hand-v1.json, or the file named by REVERSI_FIT_BASELINE)
// at two levels, each opening both ways.
func TestCompareWeights(t *testing.T) {
	if os.Getenv("REVERSI_FIT_COMPARE") == "" {
		t.Skip("set REVERSI_FIT_COMPARE=1 to play the weight sets against each other")
	}
	baseline := "testdata/weights-hand-v1.json"
	if b := os.Getenv("REVERSI_FIT_BASELINE"); b != "" {
		baseline = b
	}
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	hw, err := parseWeights(data)
	if err != nil {
		t.Fatal(err)
	}
	hand := hw.params()
	openings := fourPlyLines()
	for _, lv := range []int{4, 6} {
		wins, losses, draws, discs := 0, 0, 0, 0
		for i := 0; i < len(openings); i += len(openings) / 30 {
			for _, newBlack := range []bool{true, false} {
				a, b := NewEngine(), NewEngine()
				if os.Getenv("REVERSI_FIT_PATTERNS") != "" {
					a.UsePatternEvaluation() // the pattern tables against the baseline
				}
				b.params = hand
				p, _ := Replay(Start(), openings[i])
				for !p.GameOver() {
					if p.MustPass() {
						p, _ = p.PlayPass()
						continue
					}
					e := a
					if (p.ToMove() == Black) != newBlack {
						e = b
					}
					r, err := e.Search(context.Background(), p, Limits{Level: lv})
					if err != nil {
						t.Fatal(err)
					}
					p = p.play(int(r.Best))
				}
				s := p.FinalScore()
				if !newBlack {
					s = -s
				}
				discs += s
				switch {
				case s > 0:
					wins++
				case s < 0:
					losses++
				default:
					draws++
				}
			}
		}
		n := wins + losses + draws
		t.Logf("level %d, embedded weights vs "+baseline+": %d games, wins %d losses %d draws %d (%.1f%%), discs %+.1f per game",
			lv, n, wins, losses, draws, 100*(float64(wins)+float64(draws)/2)/float64(n), float64(discs)/float64(n))
	}
}

// fourPlyLines lists every 4-ply opening line.
func fourPlyLines() [][]Square {
	var out [][]Square
	var walk func(p Position, line []Square)
	walk = func(p Position, line []Square) {
		if len(line) == 4 {
			out = append(out, append([]Square(nil), line...))
			return
		}
		for _, m := range p.LegalMoves() {
			walk(p.play(int(m)), append(line, m))
		}
	}
	walk(Start(), nil)
	return out
}

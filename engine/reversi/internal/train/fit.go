package main

import (
	"flag"
	"fmt"
	"math"
	"math/bits"
	"os"
	"sync"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// fitConfig says how the tables are fitted.
type fitConfig struct {
	ridge      float64 // penalty on the squared weights, in squared discs: keeps rare configurations near zero
	iterations int     // conjugate-gradient steps per stage
	spread     int     // a stage also trains on positions this many empties outside its range, to smooth across stages
	hybrid     bool    // fit the patterns as corrections to the linear evaluation
	// prior, when true, shrinks each stage towards the -base file's
	// table for it instead of towards zero: configurations the new
	// labels barely see keep the values the earlier data gave them.
	prior bool
}

func runFit(args []string) error {
	fs := flag.NewFlagSet("fit", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen")
	out := fs.String("out", "", "weights file to write (engine/reversi/patterns.bin)")
	cfg := fitConfig{}
	fs.Float64Var(&cfg.ridge, "ridge", 8, "ridge penalty")
	fs.IntVar(&cfg.iterations, "iterations", 200, "conjugate-gradient iterations per stage")
	fs.IntVar(&cfg.spread, "spread", 2, "extra empties on each side of a stage's range")
	fs.BoolVar(&cfg.hybrid, "hybrid", true, "fit the patterns as corrections to the linear evaluation (weights.json)")
	fs.BoolVar(&cfg.prior, "prior", false, "shrink each fitted stage towards -base's table instead of towards zero")
	games := fs.Int("games", 0, "use only the first games of the file (0: all; a file cut short by stopping gen ends in a partial game)")
	stagesFlag := fs.Int("stage", -1, "fit only this stage and write nothing (for trying settings)")
	maxEmpties := fs.Int("max-empties", 28, "fit the stages up to this many empties; the stages above are copied from -base, or zero without it")
	minEmpties := fs.Int("min-empties", 1, "fit the stages from this many empties; the stages below are copied from -base")
	base := fs.String("base", "", "patterns file whose stages outside -min-empties..-max-empties are kept (needed with -min-empties above 1)")
	fs.Parse(args)
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	var baseStages [][]int16
	if *minEmpties > 1 || *base != "" || cfg.prior {
		data, err := os.ReadFile(*base)
		if err != nil {
			return fmt.Errorf("fit: -base (needed with -min-empties above 1 and with -prior): %w", err)
		}
		if baseStages, err = pattern.Decode(data); err != nil {
			return err
		}
	}
	train, valid := split(samples)
	fmt.Fprintf(os.Stderr, "%d samples: %d training, %d held out\n", len(samples), len(train), len(valid))
	stages := make([][]int16, pattern.NumStages)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for s := 0; s < pattern.NumStages; s++ {
		if *stagesFlag >= 0 && s != *stagesFlag || s*pattern.StageWidth+1 > *maxEmpties {
			if baseStages != nil {
				stages[s] = baseStages[s]
			} else {
				stages[s] = make([]int16, pattern.StageSize)
			}
			continue
		}
		if s*pattern.StageWidth+1 < *minEmpties {
			stages[s] = baseStages[s]
			continue
		}
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			lo, hi := stageEmpties(s)
			tr := inRange(train, lo-cfg.spread, hi+cfg.spread)
			va := inRange(valid, lo, hi)
			var w0 []float64
			if cfg.prior {
				w0 = stageWeights(baseStages[s])
			}
			q := stageTable(fitStage(tr, cfg, w0))
			stages[s] = q
			fmt.Fprintf(os.Stderr, "stage %2d (empties %2d-%2d): %7d training positions, held-out RMSE %.2f discs (%d positions; linear evaluation: %.2f), training %.2f; %v\n",
				s, lo, hi, len(tr), rmse(q, va), len(va), rmseEngine(va), rmse(q, inRange(train, lo, hi)), time.Since(start).Round(time.Second))
		}(s)
	}
	wg.Wait()
	if *stagesFlag >= 0 || *out == "" {
		return nil
	}
	return writeTables(*out, stages)
}

// split holds out every tenth game (a game starts at the start position):
// positions of one game share most of their patterns and the same final
// score, so a held-out position must come from a game the fit never saw.
func split(all []sample) (train, valid []sample) {
	game := -1
	for _, s := range all {
		if isStart(s) {
			game++
		}
		if game%10 == 9 {
			valid = append(valid, s)
		} else {
			train = append(train, s)
		}
	}
	return train, valid
}

// isStart reports whether a sample is the start position: each game's
// first sample.
func isStart(s sample) bool {
	start := reversi.Start()
	return s.black == start.Black() && s.white == start.White() && s.toMove == reversi.Black
}

// firstGames returns the samples of the first n games.
func firstGames(all []sample, n int) []sample {
	games := 0
	for i, s := range all {
		if isStart(s) {
			if games == n {
				return all[:i]
			}
			games++
		}
	}
	return all
}

func empties(s sample) int { return 64 - bits.OnesCount64(s.black|s.white) }

func inRange(all []sample, lo, hi int) []sample {
	var out []sample
	for _, s := range all {
		if e := empties(s); e >= lo && e <= hi {
			out = append(out, s)
		}
	}
	return out
}

// row returns the weight indices of a sample's position and its label.
func row(s sample, dst *[pattern.PerPosition]int32) float64 {
	p := s.position()
	me, opp := p.Black(), p.White()
	if p.ToMove() == reversi.White {
		me, opp = opp, me
	}
	pattern.Indices(me, opp, bits.OnesCount64(p.Moves()), bits.OnesCount64(moves(opp, me)), dst)
	for k, j := range dst {
		dst[k] = int32(pattern.Canonical(int(j)))
	}
	return float64(s.score)
}

// moves returns the legal moves of the side with discs me.
func moves(me, opp uint64) uint64 {
	p, err := reversi.NewPosition(me, opp, reversi.Black)
	if err != nil {
		panic(err)
	}
	return p.Moves()
}

// stageTable turns a stage's fitted weights into its table as the file
// stores it: hundredths of a disc (clamped to the int16 range), the linear
// evaluation's weight in thousandths, and mirror configurations taking
// their canonical entry's value. stageWeights is its inverse.
func stageTable(w []float64) []int16 {
	q := make([]int16, pattern.StageSize)
	for i := range q {
		v := w[pattern.Canonical(i)]
		q[i] = int16(math.Round(math.Max(-30000, math.Min(30000, v*100))))
	}
	q[pattern.LinearOffset] = int16(math.Round(w[pattern.LinearOffset] * 1000))
	return q
}

// stageWeights turns a stage's table as the file stores it (hundredths of
// a disc, the linear weight in thousandths) into the fit's weights.
func stageWeights(q []int16) []float64 {
	w := make([]float64, len(q))
	for j, v := range q {
		w[j] = float64(v) / 100
	}
	w[pattern.LinearOffset] = float64(q[pattern.LinearOffset]) / 1000
	return w
}

// fitStage solves the ridge least-squares problem min |Aw - y|^2 + ridge |w - w0|^2
// by conjugate gradients on the normal equations, where each row of A has a
// one for each pattern weight the position's evaluation adds, and the
// linear evaluation's value (in discs) in the column of its weight. With
// hybrid false that column is left out (pure patterns). A nil w0 is zero.
func fitStage(samples []sample, cfg fitConfig, w0 []float64) []float64 {
	n := len(samples)
	idx := make([][pattern.PerPosition]int32, n)
	y := make([]float64, n)
	lin := make([]float64, n)
	le := linearEngine()
	for i, s := range samples {
		y[i] = row(s, &idx[i])
		if cfg.hybrid {
			lin[i] = le.Evaluate(s.position())
		}
	}
	m := pattern.StageSize
	lo := pattern.LinearOffset
	mulA := func(w []float64, out []float64) { // out = A w
		for i := range idx {
			s := lin[i] * w[lo]
			for _, j := range idx[i] {
				s += w[j]
			}
			out[i] = s
		}
	}
	mulAT := func(v []float64, out []float64) { // out = A^T v
		clear(out)
		for i := range idx {
			for _, j := range idx[i] {
				out[j] += v[i]
			}
			out[lo] += lin[i] * v[i]
		}
	}
	if w0 != nil {
		// Fit the change from w0: its labels are what w0 leaves over.
		base := make([]float64, n)
		mulA(w0, base)
		for i := range y {
			y[i] -= base[i]
		}
	}
	w := make([]float64, m)
	r := make([]float64, m) // residual of the normal equations: A^T y - (A^T A + ridge) w
	mulAT(y, r)
	p := append([]float64(nil), r...)
	ap := make([]float64, n)
	q := make([]float64, m)
	rr := dot(r, r)
	for it := 0; it < cfg.iterations && rr > 1e-9; it++ {
		mulA(p, ap)
		mulAT(ap, q)
		for j := range q {
			q[j] += cfg.ridge * p[j]
		}
		alpha := rr / dot(p, q)
		for j := range w {
			w[j] += alpha * p[j]
			r[j] -= alpha * q[j]
		}
		rr2 := dot(r, r)
		beta := rr2 / rr
		rr = rr2
		for j := range p {
			p[j] = r[j] + beta*p[j]
		}
	}
	for j := range w0 {
		w[j] += w0[j]
	}
	return w
}

// linearEngine returns an engine evaluating with the linear features.
func linearEngine() *reversi.Engine {
	e := reversi.NewEngineSize(0)
	e.UseLinearEvaluation()
	return e
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// rmse is the root-mean-square error in discs of the quantised weights q on
// samples (the evaluation as the engine computes it, before its clamp).
func rmse(q []int16, samples []sample) float64 {
	return measure(q, samples).rmse
}

// evalErrors sums up an evaluation's errors on a set of labelled samples.
type evalErrors struct {
	rmse float64 // root-mean-square error, in discs
	bias float64 // mean of evaluation minus label, in discs
	// sign is the share of the samples with a non-zero label whose
	// evaluation has the label's sign: how often it tells the winner.
	sign float64
}

// measure gives the errors of the quantised weights q on samples.
func measure(q []int16, samples []sample) evalErrors {
	return measureBy(samples, tableEval(q))
}

// tableEval returns the evaluation in discs by one stage's quantised weights
// q, as the engine computes it before its clamp. It is not safe for
// concurrent use.
func tableEval(q []int16) func(sample) float64 {
	le := linearEngine()
	var ix [pattern.PerPosition]int32
	return func(s sample) float64 {
		row(s, &ix)
		var v int
		for _, j := range ix {
			v += int(q[j])
		}
		if k := q[pattern.LinearOffset]; k != 0 {
			v += int(k) * int(math.Round(le.Evaluate(s.position())*100)) / 1000
		}
		return float64(v) / 100
	}
}

// measureBy gives the errors on samples of the evaluation eval, in discs.
func measureBy(samples []sample, eval func(sample) float64) evalErrors {
	var r evalErrors
	if len(samples) == 0 {
		return r
	}
	var sum, dev float64
	right, decided := 0, 0
	for _, s := range samples {
		v := eval(s)
		d := v - float64(s.score)
		sum += d * d
		dev += d
		if s.score != 0 {
			decided++
			if v != 0 && (v > 0) == (s.score > 0) {
				right++
			}
		}
	}
	r.rmse = math.Sqrt(sum / float64(len(samples)))
	r.bias = dev / float64(len(samples))
	if decided > 0 {
		r.sign = float64(right) / float64(decided)
	}
	return r
}

// rmseEngine is the root-mean-square error in discs of the engine's linear
// evaluation (weights.json) on samples: the baseline the fit must beat.
func rmseEngine(samples []sample) float64 {
	return measureEngine(samples).rmse
}

// measureEngine gives the errors of the linear evaluation on samples.
func measureEngine(samples []sample) evalErrors {
	e := linearEngine()
	return measureBy(samples, func(s sample) float64 { return e.Evaluate(s.position()) })
}

// writeTables writes stages to the tables file at path.
func writeTables(path string, stages [][]int16) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pattern.Encode(f, stages); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readTables reads the tables file at path.
func readTables(path string) ([][]int16, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return pattern.Decode(data)
}

// stageEmpties returns the fewest and most empties of stage s.
func stageEmpties(s int) (lo, hi int) {
	return s*pattern.StageWidth + 1, s*pattern.StageWidth + pattern.StageWidth
}

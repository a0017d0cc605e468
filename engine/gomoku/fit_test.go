package gomoku

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Fitting the evaluation's pattern values on our own games.
//
//	GOMOKU_FIT=<match log>[,<match log>...] go test -run TestFitEval -v ./engine/gomoku
//
// reads the games of match logs (the -v output of the match tests, one
// line per game with the outcome and the full record: TestMatchSelfPlay
// plays the fitting games), takes every position after the opening in
// which neither side has a five to play (those are tactics, not
// evaluation), and fits by logistic regression the probability that the
// side to move wins the game from the features the evaluation is linear
// in: per line pattern the count of (empty point, direction) pairs where
// a stone would make it, mover's minus opponent's; the same for the
// combination classes (double three, four-three, open four); and the
// side-to-move terms of eval. The weights come out in logits and are
// turned into evaluation units by the scale of the current evaluation
// (the K of P(win) = 1/(1+exp(-eval/K)) fitted on the same positions), so
// that WinThreshold, the futility margins and the quiescence keep their
// meaning. It prints the values to paste into eval.go.

// fitFeatures are the evaluation's terms, in the order of fitNames.
var fitNames = []string{
	"pB1", "pB2", "pF2", "pB3", "pF3", "pB4", "pF4",
	"bonusThree2", "bonusFourThree", "bonusFlex4",
	"moverFourThree", "moverThree2", "oppOpenThree", "oppFourThree", "oppThree2", "tempo",
}

// features returns the evaluation terms of b from the side to move's view.
func fitFeatures(b *Board) []float64 {
	me := b.ToMove()
	opp := me.Other()
	f := make([]float64, len(fitNames))
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] != cellEmpty {
			continue
		}
		for d := 0; d < 4; d++ {
			if p := pattern(b.pats[me][d][i] & patternMask); p >= pB1 && p <= pF4 {
				f[p-pB1]++
			}
			if p := pattern(b.pats[opp][d][i] & patternMask); p >= pB1 && p <= pF4 {
				f[p-pB1]--
			}
		}
	}
	cm, co := &b.classCount[me], &b.classCount[opp]
	f[7] = float64(cm[tThree2] - co[tThree2])
	f[8] = float64(cm[tFourThree] - co[tFourThree])
	f[9] = float64(cm[tFlex4] - co[tFlex4])
	renjuBlack := b.rule == Renju && me == Black
	if co[tFour]+co[tFourThree]+co[tFlex4] == 0 {
		switch {
		case cm[tFourThree] > 0:
			f[10] = 1
		case cm[tThree2] > 0 && !renjuBlack:
			f[11] = 1
		}
	}
	if co[tFlex4] > 0 {
		f[12] = -1
	}
	if cm[tFour]+cm[tFourThree]+cm[tFlex4] == 0 {
		if co[tFourThree] > 0 {
			f[13] = -1
		}
		if co[tThree2] > 0 && !(b.rule == Renju && opp == Black) {
			f[14] = -1
		}
	}
	f[15] = 1
	return f
}

// currentWeights are the evaluation's values today, in fitNames order.
func currentWeights() []float64 {
	return []float64{
		float64(evalPatternValue[pB1]), float64(evalPatternValue[pB2]), float64(evalPatternValue[pF2]),
		float64(evalPatternValue[pB3]), float64(evalPatternValue[pF3]), float64(evalPatternValue[pB4]), float64(evalPatternValue[pF4]),
		float64(evalThreatBonus[tThree2]), float64(evalThreatBonus[tFourThree]), float64(evalThreatBonus[tFlex4]),
		evalMoverFourThree, evalMoverThree2, evalOppOpenThree, evalOppFourThree, evalOppThree2, evalTempo,
	}
}

var gameLine = regexp.MustCompile(`as (black|white): (win|loss|draw) ([a-t0-9]+)\s*$`)

type fitSample struct {
	f    []float64
	y    float64 // 1: the side to move won, 0: lost, 0.5: draw
	held bool    // held out: every fifth game, to measure the fit on games it did not see
}

func TestFitEval(t *testing.T) {
	files := os.Getenv("GOMOKU_FIT")
	if files == "" {
		t.Skip("set GOMOKU_FIT to match logs to fit the evaluation on")
	}
	rule := Freestyle
	if v := os.Getenv("GOMOKU_RULE"); v != "" {
		var err error
		if rule, err = ParseRule(v); err != nil {
			t.Fatal(err)
		}
	}
	var samples []fitSample
	games := 0
	for _, name := range strings.Split(files, ",") {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			m := gameLine.FindStringSubmatch(sc.Text())
			if m == nil || m[2] == "draw" {
				continue
			}
			moves, err := ParseRecord(m[3], 15)
			if err != nil {
				continue
			}
			// The outcome is A's; A played the colour named.
			blackWon := (m[1] == "black") == (m[2] == "win")
			b, _ := NewBoard(15, rule)
			games++
			for k, p := range moves {
				if b.Play(p) != nil {
					break
				}
				if k < 6 || b.Over() {
					continue
				}
				me := b.ToMove()
				if b.classCount[me][tFive] > 0 || b.classCount[me.Other()][tFive] > 0 {
					continue
				}
				y := 0.0
				if (me == Black) == blackWon {
					y = 1
				}
				samples = append(samples, fitSample{fitFeatures(b), y, games%5 == 0})
			}
		}
		fh.Close()
	}
	t.Logf("%d games, %d positions", games, len(samples))
	if len(samples) < 100 {
		t.Fatal("too few positions to fit")
	}
	// The scale of today's evaluation: fit K in P = sigmoid(eval/K).
	cur := currentWeights()
	evals := make([]float64, len(samples))
	for k, s := range samples {
		for j, v := range s.f {
			evals[k] += v * cur[j]
		}
	}
	bestK, bestLoss := 0.0, math.Inf(1)
	for K := 100.0; K <= 20000; K *= 1.05 {
		loss := 0.0
		for k, s := range samples {
			if !s.held {
				loss += logLoss(evals[k]/K, s.y)
			}
		}
		if loss < bestLoss {
			bestK, bestLoss = K, loss
		}
	}
	heldLoss := func(z func(k int) float64) float64 {
		loss, n := 0.0, 0
		for k, s := range samples {
			if s.held {
				loss += logLoss(z(k), s.y)
				n++
			}
		}
		return loss / float64(max(n, 1))
	}
	t.Logf("today's evaluation: K = %.0f; log loss on held-out games %.4f", bestK, heldLoss(func(k int) float64 { return evals[k] / bestK }))

	// Logistic regression from today's weights (in logits), plain
	// gradient descent with per-feature step sizes from the feature scale.
	w := make([]float64, len(cur))
	for j := range w {
		w[j] = cur[j] / bestK
	}
	scale := make([]float64, len(w))
	for _, s := range samples {
		for j, v := range s.f {
			scale[j] += v * v
		}
	}
	for j := range scale {
		scale[j] = math.Sqrt(scale[j]/float64(len(samples))) + 1e-9
	}
	// The games are few and each game's positions share one result, so
	// the fit is regularised towards today's weights (an L2 penalty on
	// the change, in units of each feature's spread): GOMOKU_FIT_L2.
	l2 := 0.01
	if v, err := strconv.ParseFloat(os.Getenv("GOMOKU_FIT_L2"), 64); err == nil {
		l2 = v
	}
	prior := append([]float64(nil), w...)
	var loss float64
	for it := 0; it < 3000; it++ {
		grad := make([]float64, len(w))
		loss = 0
		for _, s := range samples {
			if s.held {
				continue
			}
			z := 0.0
			for j, v := range s.f {
				z += v * w[j]
			}
			p := 1 / (1 + math.Exp(-z))
			loss += logLoss(z, s.y)
			for j, v := range s.f {
				grad[j] += (p - s.y) * v
			}
		}
		for j := range w {
			g := grad[j]/float64(len(samples)) + l2*(w[j]-prior[j])*scale[j]*scale[j]
			w[j] -= 0.5 * g / (scale[j] * scale[j])
		}
	}
	t.Logf("fitted: log loss %.4f on the training games, %.4f on held-out games", loss/float64(len(samples)), heldLoss(func(k int) float64 {
		z := 0.0
		for j, v := range samples[k].f {
			z += v * w[j]
		}
		return z
	}))
	for j, name := range fitNames {
		t.Logf("%-15s today %6.0f  fitted %8.1f", name, cur[j], w[j]*bestK)
	}
	fmt.Println()
}

// logLoss is the cross-entropy of a logit z against the outcome y.
func logLoss(z, y float64) float64 {
	// log(1+exp(-z)) for y=1, log(1+exp(z)) for y=0, stably.
	l1 := math.Log1p(math.Exp(-math.Abs(z))) + math.Max(-z, 0)
	l0 := math.Log1p(math.Exp(-math.Abs(z))) + math.Max(z, 0)
	return y*l1 + (1-y)*l0
}

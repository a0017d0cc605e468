package main

import (
	"flag"
	"fmt"
	"math"
)

// runCheck is the "check" command: the held-out root-mean-square error, per
// stage, of a tables file and of the linear evaluation on a data set's
// labels, their mean error (bias) and how often their sign is the label's.
// Tables fitted to one kind of label (searches, say) are measured on another
// (the games' outcomes, or truth's exact values with -all) this way. With
// -base it also prints, per stage, the difference of the two files' errors
// on the same positions with its standard error (pairedRMSE), which is how
// two fits on the same data are told apart.
func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen or label")
	pat := fs.String("patterns", "engine/reversi/patterns.bin", "tables to measure")
	games := fs.Int("games", 0, "use only the first games of the file (0: all)")
	lo := fs.Int("min-empties", 1, "first stage's fewest empties")
	hi := fs.Int("max-empties", 60, "last stage's most empties")
	all := fs.Bool("all", false, "measure on every position, not only the held-out games (for a set no table was fitted on, such as truth's)")
	basePath := fs.String("base", "", "tables to compare with, position by position (optional)")
	fs.Parse(args)
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	stages, err := readTables(*pat)
	if err != nil {
		return err
	}
	var base [][]int16
	if *basePath != "" {
		if base, err = readTables(*basePath); err != nil {
			return err
		}
		if len(base) != len(stages) {
			return fmt.Errorf("check: -base has %d stages, -patterns %d", len(base), len(stages))
		}
	}
	_, valid := split(samples)
	which := "held-out"
	if *all {
		valid, which = samples, "all"
	}
	for s := range stages {
		a, b := stageEmpties(s)
		if a < *lo || b > *hi {
			continue
		}
		va := inRange(valid, a, b)
		t, l := measure(stages[s], va), measureEngine(va)
		fmt.Printf("empties %2d-%2d: %6d %s positions, tables RMSE %.2f discs, bias %+.2f, sign right %.1f%%; linear %.2f, %+.2f, %.1f%%\n",
			a, b, len(va), which, t.rmse, t.bias, 100*t.sign, l.rmse, l.bias, 100*l.sign)
		if base != nil && len(va) > 1 {
			rb, rt, se := pairedRMSE(va, tableEval(base[s]), tableEval(stages[s]))
			fmt.Printf("empties %2d-%2d: base RMSE %.3f, tables %.3f, tables minus base %+.3f ± %.3f (1 SE, paired)\n",
				a, b, rb, rt, rt-rb, se)
		}
	}
	return nil
}

// pairedRMSE gives the root-mean-square errors of the evaluations a and b on
// the same samples (at least two) and the standard error of their difference
// (b's minus a's): the standard error of the mean difference of squared
// errors, carried to the difference of square roots by the delta method
// (d(rb - ra) = d(rb^2 - ra^2) / (ra + rb)). Paired, it is far smaller than
// either RMSE's own spread, since both err on the same hard positions.
func pairedRMSE(samples []sample, a, b func(sample) float64) (ra, rb, se float64) {
	var sa, sb, sd, sdd float64
	for _, s := range samples {
		ea, eb := a(s)-float64(s.score), b(s)-float64(s.score)
		sa += ea * ea
		sb += eb * eb
		d := eb*eb - ea*ea
		sd += d
		sdd += d * d
	}
	n := float64(len(samples))
	ra, rb = math.Sqrt(sa/n), math.Sqrt(sb/n)
	mean := sd / n
	if ra+rb > 0 {
		se = math.Sqrt(math.Max(sdd/n-mean*mean, 0)/(n-1)) / (ra + rb)
	}
	return ra, rb, se
}

package main

import (
	"flag"
	"fmt"
)

// runCheck is the "check" command: the held-out root-mean-square error, per
// stage, of a tables file and of the linear evaluation on a data set's
// labels, their mean error (bias) and how often their sign is the label's.
// Tables fitted to one kind of label (searches, say) are measured on another
// (the games' outcomes, or truth's exact values with -all) this way.
func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen or label")
	pat := fs.String("patterns", "engine/reversi/patterns.bin", "tables to measure")
	games := fs.Int("games", 0, "use only the first games of the file (0: all)")
	lo := fs.Int("min-empties", 1, "first stage's fewest empties")
	hi := fs.Int("max-empties", 60, "last stage's most empties")
	all := fs.Bool("all", false, "measure on every position, not only the held-out games (for a set no table was fitted on, such as truth's)")
	fs.Parse(args)
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	stages, err := readTables(*pat)
	if err != nil {
		return err
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
	}
	return nil
}

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// runDebias is the "debias" command: it shifts each stage of a tables file
// in an empties range by minus its mean error (bias) on the training games
// of a data set (the held-out tenth is left to check), so that stages
// fitted on different kinds of label (the games' outcomes below 29
// empties, searches above) agree on average: a search that compares scores
// whose leaves lie in two stages (Multi-ProbCut's shallow and deep
// searches) is then not skewed by the step between them. With -by it
// shifts the stages by a given amount instead (stages fitted on searches
// into a stage that was shifted take its shift).
func runDebias(args []string) error {
	fs := flag.NewFlagSet("debias", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen or label (their training games measure the bias)")
	pat := fs.String("patterns", "engine/reversi/patterns.bin", "tables to shift")
	out := fs.String("out", "", "tables file to write")
	lo := fs.Int("min-empties", 29, "first stage's fewest empties")
	hi := fs.Int("max-empties", 44, "last stage's most empties")
	by := fs.Float64("by", 0, "shift every stage in the range by this many discs instead of measuring (no -in)")
	fs.Parse(args)
	if *in == "" && *by == 0 || *out == "" {
		return fmt.Errorf("debias: -out and -in or -by are required")
	}
	var samples []sample
	if *by == 0 {
		var err error
		if samples, err = readGames(*in, 0); err != nil {
			return err
		}
	}
	stages, err := readTables(*pat)
	if err != nil {
		return err
	}
	if *by != 0 {
		for s := range stages {
			if a, b := stageEmpties(s); a >= *lo && b <= *hi {
				shift(stages[s], *by)
				fmt.Fprintf(os.Stderr, "empties %2d-%2d: shifted by %+.2f\n", a, b, *by)
			}
		}
	} else {
		train, _ := split(samples)
		debias(stages, train, *lo, *hi, os.Stderr)
	}
	return writeTables(*out, stages)
}

// debias shifts each stage within lo..hi empties by minus its bias on
// samples: the same number of hundredths of a disc is added to every entry
// of the stage's table of my mobility, which every evaluation reads once.
func debias(stages [][]int16, samples []sample, lo, hi int, log io.Writer) {
	for s := range stages {
		a, b := stageEmpties(s)
		if a < lo || b > hi {
			continue
		}
		in := inRange(samples, a, b)
		if len(in) == 0 {
			continue
		}
		bias := measure(stages[s], in).bias
		shift(stages[s], -bias)
		fmt.Fprintf(log, "empties %2d-%2d: %d positions, bias %+.2f discs, shifted by %+.2f\n", a, b, len(in), bias, -bias)
	}
}

// shift adds discs (rounded to hundredths) to every evaluation of a stage's
// table q, through its table of my mobility.
func shift(q []int16, discs float64) {
	d := int(math.Round(discs * 100))
	for j := 0; j < pattern.MobilityEntries; j++ {
		k := pattern.MyMobilityOffset + j
		q[k] = int16(max(-30000, min(30000, int(q[k])+d)))
	}
}

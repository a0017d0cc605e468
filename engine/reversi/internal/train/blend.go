package main

import (
	"flag"
	"fmt"
	"math"
	"os"
)

// runBlend is the "blend" command: the stages of a tables file in an
// empties range become a weighted mean of two files' tables, entry by entry
// ((1-w)*a + w*b), and the stages outside the range are a's. Two fits of
// the same stages on independent data sets, averaged with weights in
// proportion to their data, are close to one fit on both sets (least
// squares is linear in its labels), so a new data set can be added to a
// fit whose data are no longer at hand.
func runBlend(args []string) error {
	fs := flag.NewFlagSet("blend", flag.ExitOnError)
	a := fs.String("a", "engine/reversi/patterns.bin", "first tables file (kept outside the range)")
	b := fs.String("b", "", "second tables file")
	w := fs.Float64("weight", 0.5, "weight of -b's tables")
	out := fs.String("out", "", "tables file to write")
	lo := fs.Int("min-empties", 17, "first stage's fewest empties")
	hi := fs.Int("max-empties", 28, "last stage's most empties")
	fs.Parse(args)
	if *b == "" || *out == "" || *w < 0 || *w > 1 {
		return fmt.Errorf("blend: -b and -out are required, and -weight within 0..1")
	}
	sa, err := readTables(*a)
	if err != nil {
		return err
	}
	sb, err := readTables(*b)
	if err != nil {
		return err
	}
	if len(sa) != len(sb) {
		return fmt.Errorf("blend: %d stages against %d", len(sa), len(sb))
	}
	for s := range sa {
		first, last := stageEmpties(s)
		if first < *lo || last > *hi {
			continue
		}
		if len(sa[s]) != len(sb[s]) {
			return fmt.Errorf("blend: stage %d has %d entries against %d", s, len(sa[s]), len(sb[s]))
		}
		for i := range sa[s] {
			v := math.Round((1-*w)*float64(sa[s][i]) + *w*float64(sb[s][i]))
			sa[s][i] = int16(max(math.MinInt16, min(math.MaxInt16, v)))
		}
		fmt.Fprintf(os.Stderr, "empties %2d-%2d: blended, weight %.3f\n", first, last, *w)
	}
	return writeTables(*out, sa)
}

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// runCompare is the "compare" command: how far labels lie from exact values.
// -ref is a data set whose positions marked exact (label -exact) are the
// truth; every other argument, NAME=FILE, holds the same positions in the same
// order labelled another way (label -depth D, or the games' own outcomes: the
// file label started from). Per number of empties it prints, for each, the
// label's root-mean-square distance from the exact value and its mean error,
// in discs (docs/benchmarks.md, Reversi's twentieth session).
func runCompare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	refPath := fs.String("ref", "", "samples whose exact labels are the truth (written by label -exact)")
	lo := fs.Int("min-empties", 1, "fewest empties of a compared position")
	hi := fs.Int("max-empties", 60, "most empties of a compared position")
	fs.Parse(args)
	ref, err := readSamples(*refPath)
	if err != nil {
		return err
	}
	var others []labelSet
	for _, arg := range fs.Args() {
		name, path, ok := strings.Cut(arg, "=")
		if !ok || name == "" || path == "" {
			return fmt.Errorf("compare: %q: want NAME=FILE", arg)
		}
		s, err := readSamples(path)
		if err != nil {
			return err
		}
		others = append(others, labelSet{name, s})
	}
	return compareLabels(ref, others, *lo, *hi, os.Stdout)
}

// labelSet is one way of labelling the reference's positions.
type labelSet struct {
	name    string
	samples []sample
}

// compareLabels writes, per number of empties from lo to hi, each set's
// root-mean-square distance from the reference's exact labels and its mean
// error (label minus exact value). Only the reference's exact samples count;
// every set must hold the reference's positions, no more, in its order.
func compareLabels(ref []sample, sets []labelSet, lo, hi int, w io.Writer) error {
	if len(sets) == 0 {
		return fmt.Errorf("compare: no labels to compare with the reference")
	}
	for _, set := range sets {
		if len(set.samples) != len(ref) {
			return fmt.Errorf("compare: %s has %d samples, the reference %d", set.name, len(set.samples), len(ref))
		}
	}
	type tally struct{ n, sum, squares int }
	byEmpties := map[int][]tally{}
	for i, r := range ref {
		e := empties(r)
		if !r.exact || e < lo || e > hi {
			continue
		}
		if byEmpties[e] == nil {
			byEmpties[e] = make([]tally, len(sets))
		}
		for k, set := range sets {
			s := set.samples[i]
			if s.black != r.black || s.white != r.white || s.toMove != r.toMove {
				return fmt.Errorf("compare: %s: sample %d is not the reference's position", set.name, i)
			}
			d := int(s.score) - int(r.score)
			byEmpties[e][k].n++
			byEmpties[e][k].sum += d
			byEmpties[e][k].squares += d * d
		}
	}
	if len(byEmpties) == 0 {
		return fmt.Errorf("compare: the reference has no exact labels at %d-%d empties", lo, hi)
	}
	counts := make([]int, 0, len(byEmpties))
	for e := range byEmpties {
		counts = append(counts, e)
	}
	slices.Sort(counts)
	for _, e := range counts {
		fmt.Fprintf(w, "%2d empties:", e)
		for k, set := range sets {
			st := byEmpties[e][k]
			fmt.Fprintf(w, "  %s n=%d rmse %.2f mean %+.2f", set.name, st.n,
				math.Sqrt(float64(st.squares)/float64(st.n)), float64(st.sum)/float64(st.n))
		}
		fmt.Fprintln(w)
	}
	return nil
}

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// runPair reads the match records of two builds played over the same
// openings (TestMatchNBoard's REVERSI_MATCH_RECORDS; several files of one
// build joined by commas) and compares them game by game.
func runPair(args []string) error {
	fs := flag.NewFlagSet("pair", flag.ExitOnError)
	side := fs.String("side", "level", "the measured side: the player whose name starts with this")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: train pair [-side NAME] A.txt[,A2.txt...] [B.txt[,B2.txt...]]")
		fs.PrintDefaults()
	}
	fs.Parse(args)
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return fmt.Errorf("pair: want one or two sets of records, got %d", fs.NArg())
	}
	var sets []map[match.GameKey]match.Outcome
	for _, spec := range fs.Args() {
		o, err := readOutcomes(spec, *side)
		if err != nil {
			return err
		}
		sets = append(sets, o)
		summariseGames(os.Stdout, spec, o)
	}
	if len(sets) == 2 {
		p, err := match.Pair(sets[0], sets[1])
		if err != nil {
			return err
		}
		fmt.Printf("B - A: %v\n", p)
	}
	return nil
}

// readOutcomes reads the records of the comma-separated files of spec.
func readOutcomes(spec, side string) (map[match.GameKey]match.Outcome, error) {
	var recs []match.Record
	for _, path := range strings.Split(spec, ",") {
		r, err := match.ReadRecords(path)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r...)
	}
	o, err := match.Outcomes(recs, side)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	if len(o) == 0 {
		return nil, fmt.Errorf("%s: no games", spec)
	}
	return o, nil
}

// summariseGames writes a set's games, wins, losses and draws, its score with
// its standard error, and the mean disc difference.
func summariseGames(w io.Writer, name string, games map[match.GameKey]match.Outcome) {
	var wins, losses, discs int
	var points float64
	for _, o := range games {
		points += o.Points
		discs += o.Discs
		switch o.Points {
		case 1:
			wins++
		case 0:
			losses++
		}
	}
	n := float64(len(games))
	s := points / n
	fmt.Fprintf(w, "%s: %d games, %d-%d-%d, %.1f%% ± %.1f%%, %+.2f discs a game\n",
		name, len(games), wins, losses, len(games)-wins-losses, 100*s, 100*math.Sqrt(s*(1-s)/n), float64(discs)/n)
}

// Command train makes the engine's pattern evaluation (engine/reversi's
// patterns.bin): it plays and solves games to make labelled positions, and
// fits the pattern tables to them by least squares; label relabels positions
// by searches into tables already fitted, and check measures a table file's
// error; judge scores the moves of match records by deeper searches, and
// truth labels positions of match records by exact solves, a set to measure
// tables by (check -all); debias shifts stages by their mean error; order
// makes a set of positions with their exactly best moves and measures how
// well tables order the solver's moves on it; movevalues has NTest value
// every legal move of positions from match records, a set to measure our
// move choices by; blend averages two tables files stage by stage (to add
// a fit on new data to one whose data are gone); children writes the
// positions after every legal move of sampled game positions, the siblings
// a search compares, for label to label; pair compares two builds' games
// against the same opponent over the same openings, game by game; pack and unpack
// turn gen's files into the corpus's compact games (corpus/, kept in the
// repository so that the data set grows across sessions) and back. Every step is seeded and
// deterministic. The shipped weights are built in several
// rounds (gen, then fit; then label and fit again for the stages of 29-44
// empties, then debias); docs/reversi-engine.md gives the exact commands in
// order, the data set and how long each step takes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: train gen|label|fit|check|compare|judge|truth|debias|order|movevalues|blend|children|pair|pack|unpack [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = runGen(os.Args[2:])
	case "fit":
		err = runFit(os.Args[2:])
	case "label":
		err = runLabel(os.Args[2:])
	case "check":
		err = runCheck(os.Args[2:])
	case "compare":
		err = runCompare(os.Args[2:])
	case "judge":
		err = runJudge(os.Args[2:])
	case "truth":
		err = runTruth(os.Args[2:])
	case "debias":
		err = runDebias(os.Args[2:])
	case "order":
		err = runOrder(os.Args[2:])
	case "movevalues":
		err = runMoveValues(os.Args[2:])
	case "blend":
		err = runBlend(os.Args[2:])
	case "children":
		err = runChildren(os.Args[2:])
	case "pair":
		err = runPair(os.Args[2:])
	case "pack":
		err = runPack(os.Args[2:])
	case "unpack":
		err = runUnpack(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (want gen, label, fit, check, compare, judge, truth, debias, order, movevalues, blend, children, pair, pack or unpack)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	cfg := genConfig{}
	fs.IntVar(&cfg.games, "games", 6000, "games to play")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed: game g uses seed+g")
	fs.IntVar(&cfg.minRandom, "min-random", 2, "fewest random opening plies")
	fs.IntVar(&cfg.maxRandom, "max-random", 20, "most random opening plies")
	fs.IntVar(&cfg.playDepth, "depth", 6, "midgame search depth of both players")
	fs.IntVar(&cfg.solveEmpties, "solve", 18, "play perfectly and label exactly from this many empties")
	fs.IntVar(&cfg.workers, "workers", 2, "games played at once")
	fs.BoolVar(&cfg.linear, "linear", true, "play with the linear evaluation of weights.json (as the shipped data set was made)")
	out := fs.String("out", "", "output file (samples, 19 bytes each)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen: -out is required")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := gen(context.Background(), cfg, f, os.Stderr); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

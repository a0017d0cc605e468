package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// runCheck is the "check" command: the held-out root-mean-square error, per
// stage, of a tables file and of the linear evaluation on a data set's
// labels. Tables fitted to one kind of label (searches, say) are measured
// on another (the games' outcomes) this way.
func runCheck(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen or label")
	pat := fs.String("patterns", "engine/reversi/patterns.bin", "tables to measure")
	games := fs.Int("games", 0, "use only the first games of the file (0: all)")
	lo := fs.Int("min-empties", 1, "first stage's fewest empties")
	hi := fs.Int("max-empties", 60, "last stage's most empties")
	fs.Parse(args)
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(*pat)
	if err != nil {
		return err
	}
	stages, err := pattern.Decode(data)
	if err != nil {
		return err
	}
	_, valid := split(samples)
	for s := range stages {
		a, b := s*pattern.StageWidth+1, s*pattern.StageWidth+pattern.StageWidth
		if a < *lo || b > *hi {
			continue
		}
		va := inRange(valid, a, b)
		fmt.Printf("empties %2d-%2d: %6d held-out positions, RMSE tables %.2f discs, linear %.2f\n", a, b, len(va), rmse(stages[s], va), rmseEngine(va))
	}
	return nil
}

package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// runTruth is the "truth" command: a set of positions from real games
// (match records) labelled by exact solves, to measure evaluations by what
// decides the games rather than by agreement with our own searches. Each
// game is solved once, at its first position with -exact empties or fewer;
// that position and every earlier one from -min-empties up is labelled with
// the exact value, from its side to move's view. Above the solved position
// a label is thus the value the game still had a few moves later: the
// evaluation's error plus what the moves in between gave away, the same
// for any two tables measured on the set.
func runTruth(args []string) error {
	fs := flag.NewFlagSet("truth", flag.ExitOnError)
	exact := fs.Int("exact", 22, "solve each game at its first position with this many empties or fewer")
	lo := fs.Int("min-empties", 23, "keep the positions above the solved one from this many empties")
	out := fs.String("out", "", "samples to write (as gen writes them; each game starts with the start position, labelled 0)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("truth: -out is required")
	}
	recs, err := readRecordFiles("truth", fs.Args())
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := truth(context.Background(), recs, *exact, *lo, f, os.Stderr); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// truth writes the labelled positions of every record to w, a record at a
// time, solving each at its first position with exact empties or fewer
// (from a cleared table, so the set depends on the records alone).
func truth(ctx context.Context, recs []match.Record, exact, lo int, w io.Writer, log io.Writer) error {
	e := reversi.NewEngine()
	bw := bufio.NewWriter(w)
	buf := make([]byte, sampleBytes)
	start := time.Now()
	total := 0
	for g, r := range recs {
		ps, err := r.Positions()
		if err != nil {
			return fmt.Errorf("truth: game %d: %w", g, err)
		}
		var kept []reversi.Position
		value, solved := 0, false // the exact value, from black's view
		for _, p := range ps {
			if solved {
				break
			}
			if p.MustPass() {
				continue
			}
			if p.Empties() > exact {
				if p.Empties() >= lo {
					kept = append(kept, p)
				}
				continue
			}
			e.Clear()
			res, err := e.Search(ctx, p, reversi.Limits{Depth: 60})
			if err != nil {
				return fmt.Errorf("truth: game %d: %w", g, err)
			}
			if !res.Exact {
				return fmt.Errorf("truth: game %d: the solve at %d empties is not exact", g, p.Empties())
			}
			kept = append(kept, p)
			value, solved = res.Score, true
			if p.ToMove() == reversi.White {
				value = -value
			}
		}
		if !solved {
			continue // the game ended above exact empties
		}
		s := reversi.Start()
		sample{black: s.Black(), white: s.White(), toMove: s.ToMove()}.encode(buf)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		for _, p := range kept {
			v := value
			if p.ToMove() == reversi.White {
				v = -v
			}
			sp := sample{black: p.Black(), white: p.White(), toMove: p.ToMove(), score: int8(v), exact: p.Empties() <= exact}
			sp.encode(buf)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		total += len(kept)
		fmt.Fprintf(log, "truth: game %d, %d positions, value %+d (black), %v\n", g, len(kept), value, time.Since(start).Round(time.Second))
	}
	fmt.Fprintf(log, "truth: %d games, %d positions in %v\n", len(recs), total, time.Since(start).Round(time.Second))
	return bw.Flush()
}

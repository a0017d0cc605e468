package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// valuedPosition is a position with an outside judge's value of every
// legal move, in discs from the mover's view, highest first.
type valuedPosition struct {
	pos    reversi.Position
	values []match.MoveValue
}

// moveValuesConfig says which positions of the records are taken.
type moveValuesConfig struct {
	lo, hi int // empties of the positions taken
	max    int // positions in all (0: one from every game that has one)
	// exclude holds positions (positionKey) never to take: those of a set
	// made before, so that a second set is disjoint from it.
	exclude map[string]bool
}

// runMoveValues is the "movevalues" command: it takes one position from
// each game of match records (at lo..hi empties, with two legal moves or
// more, never the same position twice) and has an NBoard engine (NTest)
// value every legal move there at a fixed depth, a set to measure our move
// choices by (the loss of a chosen move is the best value minus its own:
// engine/reversi's TestMoveLoss). With -set it instead judges the first
// -max positions of a set again (say at a greater depth) and reports how
// far the two judgements differ.
func runMoveValues(args []string) error {
	fs := flag.NewFlagSet("movevalues", flag.ExitOnError)
	cfg := moveValuesConfig{}
	fs.IntVar(&cfg.lo, "min-empties", 30, "fewest empties of a position")
	fs.IntVar(&cfg.hi, "max-empties", 50, "most empties of a position")
	fs.IntVar(&cfg.max, "max", 0, "positions in all (0: one from every game)")
	nboard := fs.String("nboard", "", "the NBoard engine that values the moves (required)")
	depth := fs.Int("nboard-depth", 18, "its depth")
	set := fs.String("set", "", "judge this set's positions again instead of taking positions from records")
	out := fs.String("out", "", "output file (required)")
	exclude := fs.String("exclude", "", "a set whose positions are not taken again")
	fs.Parse(args)
	if *nboard == "" || *out == "" {
		return fmt.Errorf("movevalues: -nboard and -out are required")
	}
	var ps []reversi.Position
	var old []valuedPosition
	if *exclude != "" {
		xs, err := readMoveValues(*exclude)
		if err != nil {
			return err
		}
		cfg.exclude = map[string]bool{}
		for _, x := range xs {
			cfg.exclude[positionKey(x.pos)] = true
		}
	}
	if *set != "" {
		var err error
		if old, err = readMoveValues(*set); err != nil {
			return err
		}
		if cfg.max > 0 && cfg.max < len(old) {
			old = old[:cfg.max]
		}
		for _, v := range old {
			ps = append(ps, v.pos)
		}
	} else {
		recs, err := readRecordFiles("movevalues", fs.Args())
		if err != nil {
			return err
		}
		if ps, err = pickPositions(cfg, recs); err != nil {
			return err
		}
	}
	nb := &match.NBoardPlayer{Path: *nboard, Dir: filepath.Dir(*nboard), Depth: *depth}
	defer nb.Close()
	vs, err := valueMoves(context.Background(), nb, ps, os.Stderr)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "# %d positions, every legal move valued by %s at depth %d (train movevalues)\n", len(vs), filepath.Base(*nboard), *depth)
	writeMoveValues(f, vs)
	if err := f.Close(); err != nil {
		return err
	}
	if old != nil {
		compareMoveValues(os.Stdout, old, vs)
	}
	return nil
}

// pickPositions takes at most one position from each record, in order: the
// one whose empties are closest to a target that moves through lo..hi from
// game to game (by the golden ratio's fraction of the range each game, so
// that any run of games spreads its targets over the range), among those
// with two legal moves or more, not taken before and not excluded.
func pickPositions(cfg moveValuesConfig, recs []match.Record) ([]reversi.Position, error) {
	span := cfg.hi - cfg.lo + 1
	if span < 1 {
		return nil, fmt.Errorf("movevalues: empty range %d..%d", cfg.lo, cfg.hi)
	}
	seen := map[string]bool{}
	for k := range cfg.exclude {
		seen[k] = true
	}
	var out []reversi.Position
	for g, r := range recs {
		if cfg.max > 0 && len(out) == cfg.max {
			break
		}
		ps, err := r.Positions()
		if err != nil {
			return nil, fmt.Errorf("movevalues: game %d: %w", g, err)
		}
		_, frac := math.Modf(float64(g) * goldenFraction)
		target := cfg.hi - int(frac*float64(span))
		pick := -1
		for i, p := range ps {
			n := p.Empties()
			if n < cfg.lo || n > cfg.hi || len(p.LegalMoves()) < 2 || seen[positionKey(p)] {
				continue
			}
			if pick < 0 || abs(n-target) < abs(ps[pick].Empties()-target) {
				pick = i
			}
		}
		if pick >= 0 {
			seen[positionKey(ps[pick])] = true
			out = append(out, ps[pick])
		}
	}
	return out, nil
}

// positionKey is a position's board and side to move.
func positionKey(p reversi.Position) string {
	return p.String() + " " + sideLetter(p)
}

func sideLetter(p reversi.Position) string {
	if p.ToMove() == reversi.White {
		return "O"
	}
	return "X"
}

// goldenFraction is the golden ratio's fractional part: its multiples
// modulo 1 fill the unit interval evenly.
const goldenFraction = 0.6180339887498949

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// valueMoves has nb value every legal move of each position; a position
// where the engine leaves a move without a value is an error.
func valueMoves(ctx context.Context, nb *match.NBoardPlayer, ps []reversi.Position, log io.Writer) ([]valuedPosition, error) {
	var out []valuedPosition
	for i, p := range ps {
		start := time.Now()
		vs, err := nb.Hint(ctx, p, len(p.LegalMoves()))
		if err != nil {
			return nil, err
		}
		if len(vs) != len(p.LegalMoves()) {
			return nil, fmt.Errorf("movevalues: %s: %d of %d moves valued", positionKey(p), len(vs), len(p.LegalMoves()))
		}
		out = append(out, valuedPosition{p, vs})
		if log != nil {
			fmt.Fprintf(log, "movevalues: %d/%d, %d empties, %d moves, best %s %+.2f, %.1f s\n", i+1, len(ps), p.Empties(),
				len(vs), vs[0].Move, vs[0].Value, time.Since(start).Seconds())
		}
	}
	return out, nil
}

// writeMoveValues writes one position a line: the board (a1..h8, X black,
// O white), the side to move, then every legal move with its value,
// "f5:+1.25", highest first.
func writeMoveValues(w io.Writer, vs []valuedPosition) {
	for _, v := range vs {
		fmt.Fprintf(w, "%s %s", v.pos, sideLetter(v.pos))
		for _, mv := range v.values {
			fmt.Fprintf(w, " %s:%+.2f", mv.Move, mv.Value)
		}
		fmt.Fprintln(w)
	}
}

// readMoveValues reads a file writeMoveValues wrote (blank lines and lines
// starting with '#' skipped), checking that every legal move has a value.
func readMoveValues(path string) ([]valuedPosition, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []valuedPosition
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		v, err := parseValuedPosition(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// parseValuedPosition reads one line of a move-values file.
func parseValuedPosition(line string) (valuedPosition, error) {
	f := strings.Fields(line)
	if len(f) < 3 || (f[1] != "X" && f[1] != "O") {
		return valuedPosition{}, fmt.Errorf("want a board, X or O to move and moves with values")
	}
	side := reversi.Black
	if f[1] == "O" {
		side = reversi.White
	}
	p, err := reversi.ParsePosition(f[0], side)
	if err != nil {
		return valuedPosition{}, err
	}
	v := valuedPosition{pos: p}
	for _, s := range f[2:] {
		m, val, ok := strings.Cut(s, ":")
		sq, err := reversi.ParseSquare(m)
		if !ok || err != nil || !p.IsLegal(sq) {
			return valuedPosition{}, fmt.Errorf("%q: want a legal move and its value", s)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return valuedPosition{}, fmt.Errorf("%q: want a move and a number of discs", s)
		}
		if !math.IsNaN(v.valueOf(sq)) {
			return valuedPosition{}, fmt.Errorf("%q: %s valued twice", s, sq)
		}
		v.values = append(v.values, match.MoveValue{Move: sq, Value: x})
	}
	if len(v.values) != len(p.LegalMoves()) {
		return valuedPosition{}, fmt.Errorf("%d values for %d legal moves", len(v.values), len(p.LegalMoves()))
	}
	match.SortMoveValues(v.values)
	return v, nil
}

// valueOf is the value of move m in v (NaN if it has none).
func (v valuedPosition) valueOf(m reversi.Square) float64 {
	for _, mv := range v.values {
		if mv.Move == m {
			return mv.Value
		}
	}
	return math.NaN()
}

// compareMoveValues reports how two judgements of the same positions
// differ: per position the best move of each and the loss, by the second
// judgement, of the first one's best move; then the mean absolute change of
// a move's value and the share of positions with the same best move.
func compareMoveValues(w io.Writer, a, b []valuedPosition) {
	same, moves := 0, 0
	change, lost := 0.0, 0.0
	for i := range a {
		bestA := a[i].values[0].Move
		loss := b[i].values[0].Value - b[i].valueOf(bestA)
		lost += loss
		if bestA == b[i].values[0].Move || loss == 0 {
			same++
		}
		for _, mv := range a[i].values {
			change += math.Abs(mv.Value - b[i].valueOf(mv.Move))
			moves++
		}
		fmt.Fprintf(w, "%d\t%d empties\t%s %+.2f\t%s %+.2f\tloss %.2f\n", i, a[i].pos.Empties(), bestA, a[i].values[0].Value,
			b[i].values[0].Move, b[i].values[0].Value, loss)
	}
	n := float64(max(len(a), 1))
	fmt.Fprintf(w, "%d positions: same best move (or one as good) in %d, mean loss of the first best move %.2f discs, mean |change| of a move's value %.2f discs\n",
		len(a), same, lost/n, change/float64(max(moves, 1)))
}

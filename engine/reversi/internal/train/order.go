package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// runOrder is the "order" command: a set of positions with their exactly
// best moves (a move-choice set), and how well tables order the
// solver's moves on it. With -in and -out it makes the set from held-out
// games of a gen file (every tenth game, as fit holds out); with -set and
// -patterns it measures each tables file (and each -mobility weight) by
// how often the solver's ordering key puts an exactly best move first and
// the mean rank of the first best move. An error per position does not
// measure this: the solver sorts siblings, and a table may be closer to
// the exact values yet rank siblings worse.
func runOrder(args []string) error {
	fs := flag.NewFlagSet("order", flag.ExitOnError)
	in := fs.String("in", "", "gen file to take positions from (held-out games only)")
	out := fs.String("out", "", "move-choice set to write (one position a line)")
	lo := fs.Int("min-empties", 17, "fewest empties of a position")
	hi := fs.Int("max-empties", 22, "most empties of a position")
	per := fs.Int("per", 100, "positions per number of empties")
	budget := fs.Duration("time", 10*time.Minute, "stop making the set after this long")
	set := fs.String("set", "", "move-choice set to measure on")
	var tables stringList
	fs.Var(&tables, "patterns", "tables file to measure (repeatable)")
	mob := fs.String("mobility", "150", "ordering penalties per reply to measure, comma-separated (hundredths of a disc)")
	depth := fs.Int("depth", 0, "ordering search depth (0: the solver's at each position's empties)")
	fs.Parse(args)
	switch {
	case *in != "" && *out != "":
		samples, err := readSamples(*in)
		if err != nil {
			return err
		}
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		if err := makeOrderSet(context.Background(), heldOutPositions(samples, *lo, *hi, *per), *budget, f, os.Stderr); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	case *set != "" && len(tables) > 0:
		items, err := readOrderSet(*set)
		if err != nil {
			return err
		}
		var weights []int
		for _, w := range strings.Split(*mob, ",") {
			n, err := strconv.Atoi(w)
			if err != nil {
				return fmt.Errorf("order: -mobility: %v", err)
			}
			weights = append(weights, n)
		}
		for _, path := range tables {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			e := reversi.NewEngineSize(1 << 20)
			if err := e.UsePatternTables(data, 60); err != nil {
				return err
			}
			for _, w := range weights {
				fmt.Printf("%s mobility %d: %s\n", path, w, measureOrder(e, items, w, *depth))
			}
		}
		return nil
	}
	return fmt.Errorf("order: give -in and -out (make a set) or -set and -patterns (measure)")
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// heldOutPositions returns up to per positions for each number of empties
// from lo to hi, from the held-out games (game%10 == 9), one position per
// game (the k-th held-out game gives its position with lo + k%(hi-lo+1)
// empties, so positions of one number of empties come from different
// games and neighbouring numbers from different games too), in
// round-robin order of the empties (so a set cut short by its time budget
// still covers every number of empties).
func heldOutPositions(samples []sample, lo, hi, per int) []reversi.Position {
	byEmpties := make([][]reversi.Position, hi+1)
	game, heldOut := -1, -1
	for _, s := range samples {
		if isStart(s) {
			game++
			if game%10 == 9 {
				heldOut++
			}
		}
		n := empties(s)
		if game%10 != 9 || n != lo+heldOut%(hi-lo+1) || len(byEmpties[n]) >= per {
			continue
		}
		p := s.position()
		if len(p.LegalMoves()) < 2 {
			continue // nothing to order
		}
		byEmpties[n] = append(byEmpties[n], p)
	}
	var out []reversi.Position
	for i := 0; i < per; i++ {
		for n := lo; n <= hi; n++ {
			if i < len(byEmpties[n]) {
				out = append(out, byEmpties[n][i])
			}
		}
	}
	return out
}

// An orderItem is a position of the move-choice set with its exact value,
// from its side to move's view, and the moves that reach it.
type orderItem struct {
	pos   reversi.Position
	value int
	best  map[reversi.Square]bool
}

// makeOrderSet solves each position exactly, then again without the best
// moves found so far until the value drops, and writes a line per
// position: black, white (hexadecimal), the side to move, the exact value,
// then every move that reaches it. (Solving the position again without its
// best moves costs less than solving every move.) It stops after budget.
func makeOrderSet(ctx context.Context, positions []reversi.Position, budget time.Duration, w io.Writer, log io.Writer) error {
	e := reversi.NewEngine()
	bw := bufio.NewWriter(w)
	start := time.Now()
	for i, p := range positions {
		if time.Since(start) > budget {
			fmt.Fprintf(log, "order: time is up after %d of %d positions\n", i, len(positions))
			break
		}
		e.Clear()
		var best []reversi.Square
		value := 0
		for len(best) < len(p.LegalMoves()) {
			r, err := e.Search(ctx, p, reversi.Limits{Depth: 60, Exclude: best})
			if err != nil {
				return err
			}
			if !r.Exact {
				return fmt.Errorf("order: %v not solved", p)
			}
			if len(best) > 0 && r.Score < value {
				break
			}
			value = r.Score
			best = append(best, r.Best)
		}
		fmt.Fprintf(bw, "%016x %016x %d %d", p.Black(), p.White(), p.ToMove(), value)
		for _, sq := range best {
			fmt.Fprintf(bw, " %s", sq)
		}
		fmt.Fprintln(bw)
		if err := bw.Flush(); err != nil {
			return err
		}
		if (i+1)%50 == 0 {
			fmt.Fprintf(log, "order: %d positions, %v\n", i+1, time.Since(start).Round(time.Second))
		}
	}
	return bw.Flush()
}

// readOrderSet reads a file written by makeOrderSet.
func readOrderSet(path string) ([]orderItem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var items []orderItem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			return nil, fmt.Errorf("order: %s: short line %q", path, sc.Text())
		}
		b, err1 := strconv.ParseUint(fields[0], 16, 64)
		wh, err2 := strconv.ParseUint(fields[1], 16, 64)
		c, err3 := strconv.Atoi(fields[2])
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("order: %s: bad line %q", path, sc.Text())
		}
		p, err := reversi.NewPosition(b, wh, reversi.Color(c))
		if err != nil {
			return nil, err
		}
		it := orderItem{pos: p, best: map[reversi.Square]bool{}}
		if it.value, err = strconv.Atoi(fields[3]); err != nil {
			return nil, fmt.Errorf("order: %s: bad value in %q", path, sc.Text())
		}
		for _, mv := range fields[4:] {
			sq, err := reversi.ParseSquare(mv)
			if err != nil {
				return nil, fmt.Errorf("order: %s: bad move %q", path, mv)
			}
			it.best[sq] = true
		}
		items = append(items, it)
	}
	return items, sc.Err()
}

// measureOrder orders each item's moves by the solver's key (the engine's
// ordering search and mob hundredths of a disc per reply) and returns, per
// group of empties and over all, how often an exactly best move comes
// first and the mean rank of the first best move (0 when first).
func measureOrder(e *reversi.Engine, items []orderItem, mob, depth int) string {
	type acc struct{ n, first, rank int }
	groups := map[int]*acc{}
	var all acc
	for _, it := range items {
		moves, scores, replies := e.OrderTerms(it.pos, depth)
		idx := make([]int, len(moves))
		for i := range idx {
			idx[i] = i
		}
		key := func(i int) int { return scores[i] - mob*replies[i] }
		sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) > key(idx[b]) })
		rank := 0
		for rank < len(idx) && !it.best[moves[idx[rank]]] {
			rank++
		}
		g := it.pos.Empties()
		if groups[g] == nil {
			groups[g] = &acc{}
		}
		for _, a := range []*acc{groups[g], &all} {
			a.n++
			a.rank += rank
			if rank == 0 {
				a.first++
			}
		}
	}
	f := func(a *acc) string {
		return fmt.Sprintf("%d: first %.1f%% rank %.2f", a.n, 100*float64(a.first)/float64(a.n), float64(a.rank)/float64(a.n))
	}
	var keys []int
	for g := range groups {
		keys = append(keys, g)
	}
	sort.Ints(keys)
	s := "all " + f(&all)
	for _, g := range keys {
		s += fmt.Sprintf(" | %d %s", g, f(groups[g]))
	}
	return s
}

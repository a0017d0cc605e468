package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// labelConfig says which positions of a data set are relabelled and how.
type labelConfig struct {
	minEmpties, maxEmpties int    // relabel the positions with this many empties (inclusive)
	depth                  int    // midgame search depth of each label
	exact                  bool   // solve each position exactly instead (depth is then ignored)
	selective              bool   // Multi-ProbCut in the labelling searches, as the engine plays
	patterns               []byte // pattern tables the searches evaluate with (a patterns.bin file)
	patternEmpties         int    // ... at up to this many empties; the linear evaluation above
	workers                int
	// outcomeWeight, from 0 to 1, keeps that share of each input label
	// in the new one: round(w*input + (1-w)*search), the search's score
	// taken in whole discs first. The corpus's inputs at 17-28 empties
	// are the games' outcomes; a blend of the two is closer to the exact
	// values than either (docs/reversi-engine.md, forty-fourth session).
	outcomeWeight float64
}

// labelTableBytes is the table size of the labelling engines: each search
// starts from a cleared table (so a label depends on its position alone),
// and a depth-6 to depth-8 midgame search needs no more.
const labelTableBytes = 4 << 20

// runLabel is the "label" command: it copies a data set, replacing the
// labels of the positions in an empties range by the scores of searches
// whose leaves lie in stages that are already fitted. This is how the
// stages above 28 empties get labels better than the results of the
// depth-6 games the positions come from (docs/reversi-engine.md).
func runLabel(args []string) error {
	fs := flag.NewFlagSet("label", flag.ExitOnError)
	in := fs.String("in", "", "samples written by gen (or by an earlier label)")
	out := fs.String("out", "", "samples to write: the same positions, relabelled in the range")
	pat := fs.String("patterns", "engine/reversi/patterns.bin", "pattern tables the searches evaluate with")
	cfg := labelConfig{}
	fs.IntVar(&cfg.minEmpties, "min", 27, "fewest empties of a relabelled position")
	fs.IntVar(&cfg.maxEmpties, "max", 38, "most empties of a relabelled position")
	fs.IntVar(&cfg.depth, "depth", 6, "search depth of each label")
	fs.BoolVar(&cfg.exact, "exact", false, "label by exact solves (perfect play to the end) instead of depth-limited searches")
	fs.BoolVar(&cfg.selective, "selective", true, "Multi-ProbCut in the labelling searches")
	fs.IntVar(&cfg.patternEmpties, "patterns-upto", 28, "use the pattern tables at up to this many empties")
	fs.IntVar(&cfg.workers, "workers", 2, "searches run at once")
	fs.Float64Var(&cfg.outcomeWeight, "outcome-weight", 0, "share of the input's label (the game's outcome) kept in each new label, 0 to 1")
	games := fs.Int("games", 0, "use only the first games of the file (0: all)")
	fs.Parse(args)
	if *in == "" || *out == "" {
		return fmt.Errorf("label: -in and -out are required")
	}
	if !(cfg.outcomeWeight >= 0 && cfg.outcomeWeight <= 1) { // NaN too
		return fmt.Errorf("label: -outcome-weight %v: want a share from 0 to 1", cfg.outcomeWeight)
	}
	if cfg.exact && cfg.outcomeWeight != 0 {
		return fmt.Errorf("label: -outcome-weight blends depth-limited labels; an exact solve needs no outcome")
	}
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	if cfg.patterns, err = os.ReadFile(*pat); err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := label(context.Background(), cfg, samples, f, os.Stderr); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// label writes samples to w, with the positions in cfg's range relabelled
// by a search. A label depends only on its position (every search starts
// from a cleared table), so the output is the same with any number of
// workers; it keeps the input's order, game starts included, so the fit
// holds out the same games.
func label(ctx context.Context, cfg labelConfig, samples []sample, w io.Writer, log io.Writer) error {
	var todo []int
	for i, s := range samples {
		if e := empties(s); e >= cfg.minEmpties && e <= cfg.maxEmpties && !s.position().MustPass() {
			todo = append(todo, i)
		}
	}
	how := fmt.Sprintf("depth %d", cfg.depth)
	if cfg.outcomeWeight != 0 {
		how += fmt.Sprintf(", %.2f of the input's label kept", cfg.outcomeWeight)
	}
	lim := reversi.Limits{Depth: cfg.depth, EndgameEmpties: 1, NoSelective: !cfg.selective}
	if cfg.exact {
		// A depth beyond the empties asks Search for a solve: midgame
		// iterations to order the root, selective passes, then the
		// proof, as gen solves its last empties. (A depth at least the
		// empties with EndgameEmpties 1 would instead run the selective
		// midgame search to the end, which is not a proof.)
		how = "exact"
		lim = reversi.Limits{Depth: 60}
	}
	fmt.Fprintf(log, "label: %d of %d positions at %d-%d empties, %s\n", len(todo), len(samples), cfg.minEmpties, cfg.maxEmpties, how)
	out := append([]sample(nil), samples...)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	start := time.Now()
	for k := 0; k < cfg.workers; k++ {
		e := reversi.NewEngineSize(labelTableBytes)
		if err := e.UsePatternTables(cfg.patterns, cfg.patternEmpties); err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				e.Clear()
				r, err := e.Search(ctx, samples[i].position(), lim)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("label: position %d: %w", i, err)
				}
				// Scores are in hundredths of a disc; labels are whole discs.
				searched := math.Max(-64, math.Min(64, math.Round(float64(r.Centi)/100)))
				out[i].score = int8(math.Round(cfg.outcomeWeight*float64(samples[i].score) + (1-cfg.outcomeWeight)*searched))
				out[i].exact = cfg.exact && r.Exact
				if cfg.exact && !r.Exact && err == nil && firstErr == nil {
					firstErr = fmt.Errorf("label: position %d: the solve gave no exact score", i)
				}
				done++
				if done%20000 == 0 {
					fmt.Fprintf(log, "label: %d/%d, %v\n", done, len(todo), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	fmt.Fprintf(log, "label: %d positions in %v\n", len(todo), time.Since(start).Round(time.Second))
	bw := bufio.NewWriter(w)
	buf := make([]byte, sampleBytes)
	for _, s := range out {
		s.encode(buf)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

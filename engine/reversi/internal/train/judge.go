package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// judgeConfig says how the judge searches.
type judgeConfig struct {
	depth  int  // midgame depth of the judge's searches (selective, as level 10)
	exact  int  // solve exactly at this many empties or fewer
	lo, hi int  // judge only the moves made at lo..hi empties
	once   bool // only the first position in range of each game, and only its best move
	// nboard, if not "", is an NBoard engine that judges the positions
	// above exact empties instead of our own search, at nboardDepth.
	nboard      string
	nboardDepth int
	ours        string // a player whose name starts with this is "us"
	workers     int
}

// judgement is one move of a game seen by the judge: the best move's score
// and the played move's, from the mover's view, in hundredths of a disc.
type judgement struct {
	game, ply, empties int
	ours               bool
	played, best       reversi.Square
	bestScore, score   int
	exact              bool
	note               string // the record's note on the move
}

// loss is what the move gave away by the judge's account, in discs.
func (j judgement) loss() float64 { return float64(j.bestScore-j.score) / 100 }

// runJudge is the "judge" command: for every move of the games in match
// records (match.Record, as TestMatchNBoard writes with
// REVERSI_MATCH_RECORDS), it searches the position before the move much
// deeper than the game did and scores both the best move and the move
// played, so that the difference is the discs the move lost. It prints one
// line per move and the losses summed by phase and side.
func runJudge(args []string) error {
	fs := flag.NewFlagSet("judge", flag.ExitOnError)
	cfg := judgeConfig{}
	fs.IntVar(&cfg.depth, "depth", 20, "midgame depth of the judge (selective)")
	fs.IntVar(&cfg.exact, "exact", 22, "solve exactly at this many empties or fewer")
	fs.StringVar(&cfg.ours, "ours", "level", "the player whose name starts with this is ours")
	fs.IntVar(&cfg.workers, "workers", 1, "games judged at once")
	fs.IntVar(&cfg.lo, "min-empties", 0, "judge only moves made at this many empties or more")
	fs.IntVar(&cfg.hi, "max-empties", 60, "judge only moves made at this many empties or fewer")
	fs.BoolVar(&cfg.once, "once", false, "judge only the first position in range of each game, and score only its best move (the game's value there)")
	fs.StringVar(&cfg.nboard, "nboard", "", "an NBoard engine (e.g. NTest) to judge the positions above -exact empties instead of our search: a measurement from outside")
	fs.IntVar(&cfg.nboardDepth, "nboard-depth", 20, "the NBoard engine's depth")
	out := fs.String("out", "", "file for one line per move (default: none)")
	fs.Parse(args)
	recs, err := readRecordFiles("judge", fs.Args())
	if err != nil {
		return err
	}
	js, err := judge(context.Background(), cfg, recs, os.Stderr)
	if err != nil {
		return err
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		writeJudgements(f, js)
		if err := f.Close(); err != nil {
			return err
		}
	}
	summarise(os.Stdout, js, len(recs))
	return nil
}

// readRecordFiles reads the match records of every file in paths, for the
// command cmd; no records at all is an error.
func readRecordFiles(cmd string, paths []string) ([]match.Record, error) {
	var recs []match.Record
	for _, path := range paths {
		rs, err := match.ReadRecords(path)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rs...)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no records (give the files as arguments)", cmd)
	}
	return recs, nil
}

// judge judges every move of the records. Each game is judged by one
// engine whose table is cleared at the game's start and whose positions
// are taken in order, so the result depends on the records alone.
func judge(ctx context.Context, cfg judgeConfig, recs []match.Record, log io.Writer) ([]judgement, error) {
	out := make([][]judgement, len(recs))
	errs := make([]error, len(recs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(cfg.workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := reversi.NewEngine()
			var nb *match.NBoardPlayer
			if cfg.nboard != "" {
				nb = &match.NBoardPlayer{Path: cfg.nboard, Dir: filepath.Dir(cfg.nboard), Depth: cfg.nboardDepth}
				defer nb.Close()
			}
			for g := range next {
				e.Clear()
				out[g], errs[g] = judgeGame(ctx, e, nb, cfg, g, recs[g])
				if log != nil {
					fmt.Fprintf(log, "judge: game %d done\n", g)
				}
			}
		}()
	}
	for g := range recs {
		next <- g
	}
	close(next)
	wg.Wait()
	var all []judgement
	for g := range recs {
		if errs[g] != nil {
			return nil, fmt.Errorf("judge: game %d: %w", g, errs[g])
		}
		all = append(all, out[g]...)
	}
	return all, nil
}

// judgeGame judges the moves of one game (passes are skipped).
func judgeGame(ctx context.Context, e *reversi.Engine, nb *match.NBoardPlayer, cfg judgeConfig, g int, r match.Record) ([]judgement, error) {
	ps, err := r.Positions()
	if err != nil {
		return nil, err
	}
	var js []judgement
	for i, m := range r.Moves {
		p := ps[i]
		if m == reversi.Pass || p.Empties() < cfg.lo || p.Empties() > cfg.hi {
			continue
		}
		mover := r.White
		if p.ToMove() == reversi.Black {
			mover = r.Black
		}
		ours := strings.HasPrefix(mover, cfg.ours)
		if nb != nil && p.Empties() > cfg.exact {
			j, ok, err := judgeOutside(ctx, nb, p, m, cfg.once)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue // no evaluation to judge by
			}
			j.game, j.ply, j.ours, j.note = g, len(r.Opening)+i, ours, r.Notes[i]
			js = append(js, j)
			if cfg.once {
				return js, nil
			}
			continue
		}
		lim := reversi.Limits{Level: reversi.MaxLevel, Depth: cfg.depth, EndgameEmpties: cfg.exact}
		best, err := e.Search(ctx, p, lim)
		if err != nil {
			return nil, err
		}
		j := judgement{game: g, ply: len(r.Opening) + i, empties: p.Empties(), ours: ours,
			played: m, best: best.Best, bestScore: centi(best), score: centi(best), exact: best.Exact, note: r.Notes[i]}
		if cfg.once {
			return append(js, j), nil
		}
		if m != best.Best {
			// The played move alone: every other move excluded.
			for _, x := range p.LegalMoves() {
				if x != m {
					lim.Exclude = append(lim.Exclude, x)
				}
			}
			got, err := e.Search(ctx, p, lim)
			if err != nil {
				return nil, err
			}
			j.score = centi(got)
			if j.score > j.bestScore {
				// The restricted search saw further: the played move
				// was no worse than the best one.
				j.bestScore = j.score
			}
		}
		js = append(js, j)
	}
	return js, nil
}

// judgeOutside judges the move m of p by an NBoard engine: its move and
// evaluation of p, and unless m is that move (or once is set), its
// evaluation of the position after m turned round (after m and a forced
// pass, as it is; the final score if m ends the game). The played move is
// then searched one ply deeper than the best: a small bias against moves
// the engine would not play, the same for both sides.
func judgeOutside(ctx context.Context, nb *match.NBoardPlayer, p reversi.Position, m reversi.Square, once bool) (judgement, bool, error) {
	best, eval, err := nb.Analyse(ctx, p)
	if err != nil {
		return judgement{}, false, err
	}
	j := judgement{empties: p.Empties(), played: m, best: best}
	if !math.IsNaN(eval) {
		j.bestScore = int(math.Round(100 * eval))
		j.score = j.bestScore
		if once || m == best {
			return j, true, nil
		}
	} else {
		// No evaluation (NTest's book moves): the best move's own child
		// is evaluated like the played move's.
		if m == best {
			return j, true, nil
		}
		if j.bestScore, err = afterMove(ctx, nb, p, best); err != nil || j.bestScore == noScore {
			return j, false, err
		}
	}
	if j.score, err = afterMove(ctx, nb, p, m); err != nil || j.score == noScore {
		return j, false, err
	}
	j.bestScore = max(j.bestScore, j.score)
	return j, true, nil
}

// noScore marks a position the NBoard engine gave no evaluation of.
const noScore = math.MinInt32

// afterMove is the NBoard engine's evaluation of the position after m,
// from the view of the side that played it, in hundredths of a disc.
func afterMove(ctx context.Context, nb *match.NBoardPlayer, p reversi.Position, m reversi.Square) (int, error) {
	q, err := p.Play(m)
	if err != nil {
		return 0, err
	}
	sign := -1
	switch {
	case q.GameOver():
		if p.ToMove() == reversi.White {
			return -100 * q.FinalScore(), nil
		}
		return 100 * q.FinalScore(), nil
	case q.MustPass():
		q, _ = q.PlayPass()
		sign = 1
	}
	_, v, err := nb.Analyse(ctx, q)
	if err != nil || math.IsNaN(v) {
		return noScore, err
	}
	return sign * int(math.Round(100*v)), nil
}

// centi is a result's score in hundredths of a disc.
func centi(r reversi.Result) int {
	if r.Exact {
		return 100 * r.Score
	}
	return r.Centi
}

// writeJudgements writes one tab-separated line per move: game, ply,
// empties, side (us or them), move played, the judge's best move, their
// scores in discs, the loss, "x" for an exact judgement, the record's note.
func writeJudgements(w io.Writer, js []judgement) {
	fmt.Fprintln(w, "game\tply\tempties\tside\tplayed\tbest\tbest_score\tscore\tloss\texact\tnote")
	for _, j := range js {
		side, ex, note := "them", "-", j.note
		if j.ours {
			side = "us"
		}
		if j.exact {
			ex = "x"
		}
		if note == "" {
			note = "-"
		}
		fmt.Fprintf(w, "%d\t%d\t%d\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%s\t%s\n", j.game, j.ply, j.empties, side, j.played, j.best,
			float64(j.bestScore)/100, float64(j.score)/100, j.loss(), ex, note)
	}
}

// phases are the parts of a game the losses are summed over, by empties.
var phases = []struct {
	name   string
	lo, hi int
}{
	{"opening 45-54", 45, 60},
	{"midgame 27-44", 27, 44},
	{"late midgame 15-26", 15, 26},
	{"endgame 0-14", 0, 14},
}

// summarise prints, per phase and side, the moves judged, the discs lost in
// all and per game, the share of moves that lost nothing and the moves that
// lost 2 discs or more, and 6 or more.
func summarise(w io.Writer, js []judgement, games int) {
	fmt.Fprintf(w, "%d games, %d moves judged\n", games, len(js))
	fmt.Fprintln(w, "phase\tside\tmoves\tlost\tper game\tbest%\t>=2\t>=6")
	for _, ph := range phases {
		for _, ours := range []bool{true, false} {
			var n, best, big, huge int
			lost := 0.0
			for _, j := range js {
				if j.ours != ours || j.empties < ph.lo || j.empties > ph.hi {
					continue
				}
				n++
				l := j.loss()
				lost += l
				switch {
				case l <= 0:
					best++
				case l >= 6:
					huge++
					big++
				case l >= 2:
					big++
				}
			}
			side := "them"
			if ours {
				side = "us"
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%.1f\t%.2f\t%.0f%%\t%d\t%d\n", ph.name, side, n, lost, lost/float64(max(games, 1)),
				100*float64(best)/float64(max(n, 1)), big, huge)
		}
	}
	// The largest losses of ours, with what the game's search thought.
	var ours []judgement
	for _, j := range js {
		if j.ours {
			ours = append(ours, j)
		}
	}
	sort.SliceStable(ours, func(a, b int) bool { return ours[a].loss() > ours[b].loss() })
	fmt.Fprintln(w, "our largest losses: game ply empties played (note) best loss")
	for _, j := range ours[:min(len(ours), 20)] {
		fmt.Fprintf(w, "%d\t%d\t%d\t%s (%s)\t%s %+.2f\t%.2f\n", j.game, j.ply, j.empties, j.played, j.note, j.best,
			float64(j.bestScore)/100, j.loss())
	}
}

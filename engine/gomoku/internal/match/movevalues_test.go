package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
	"github.com/boardhall/boardhall/engine/internal/stats"
)

// TestMoveValuesSet builds (or extends) a move-value set from the games of
// match logs, judged by Rapfi (GOMOKU_MATCH=movevalues; docs/benchmarks.md,
// "Twenty-second session", has the command):
//
//	GOMOKU_LOG         match logs of TestMatchGomocup, comma-separated
//	GOMOKU_OPPONENT    the judge (Rapfi), GOMOKU_OPPONENT_INIT and
//	                   GOMOKU_OPPONENT_PAUSE as for TestMatchGomocup
//	GOMOKU_SET         the set file: read if it exists, rewritten after
//	                   every position (so a job can stop and resume)
//	GOMOKU_SET_NODES   the judge's node budget per search (500000)
//	GOMOKU_SET_NBEST   moves the judge proposes per position (3)
//	GOMOKU_SET_ROOT    positions whose |root score| is beyond it are
//	                   decided, left unjudged (600)
//	GOMOKU_SET_MAX     stop at this many judged positions (280)
//	GOMOKU_SET_MINUTES stop after this many minutes (0: no limit)
//	GOMOKU_SET_REJUDGE another set: value its judged moves again with this
//	                   budget, in the positions where the choice files of
//	                   GOMOKU_SET_DIFFER (comma-separated) do not all
//	                   agree (all positions without it), up to
//	                   GOMOKU_SET_MAX positions: a stronger judge on a
//	                   subset
//	GOMOKU_SET_MULTIPV another set: value its judged moves again by one
//	                   multi-PV root search a position (all other moves
//	                   blocked, YXNBEST with one line a move, the node
//	                   budget per line), into a set marked judge=multipv;
//	                   TestMoveLoss then values a new move by searching
//	                   its position again with the move among the lines
//	                   (GOMOKU_SET_DIFFER and GOMOKU_SET_MAX as for
//	                   GOMOKU_SET_REJUDGE)
//
//	GOMOKU_SET_SHIFT   shift the target move numbers by this fraction of
//	                   their range, wrapping around (0; 0.5 picks a second
//	                   position a game, at another move number, when the
//	                   set is a copy of one built with 0)
//
// One position a game, at the move number closest at or after a target
// that moves over 6-40 from game to game by the golden ratio (both sides
// to move), skipping positions with a four on the board and positions
// already in the set; games are taken round-robin over the logs. The judge
// (YXNBEST, with the node budget) proposes its best moves; each is then
// valued by a search of the position after it, with the same budget from
// a cleared hash (deterministic with one thread).
func TestMoveValuesSet(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "movevalues" {
		t.Skip("set GOMOKU_MATCH=movevalues, GOMOKU_LOG, GOMOKU_OPPONENT and GOMOKU_SET to build a move-value set")
	}
	path := os.Getenv("GOMOKU_SET")
	if path == "" {
		t.Fatal("GOMOKU_SET: the set file")
	}
	nodes := envInt("GOMOKU_SET_NODES", 500000)
	set := &MoveValues{Nodes: nodes}
	if s, err := ReadMoveValuesFile(path); err == nil {
		set = s
		if set.Nodes != nodes || set.MultiPV != (os.Getenv("GOMOKU_SET_MULTIPV") != "") {
			t.Fatalf("%s was judged with %d nodes a search, not %d", path, set.Nodes, nodes)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err) // a set that does not parse is never overwritten
	}
	j := newRapfiJudge(t, nodes)
	defer j.g.Close()
	if from := os.Getenv("GOMOKU_SET_REJUDGE"); from != "" {
		rejudge(t, j, set, path, from)
		return
	}
	if from := os.Getenv("GOMOKU_SET_MULTIPV"); from != "" {
		set.MultiPV = true
		multiPVSet(t, j, set, path, from)
		return
	}
	var logs [][]loggedGame
	for _, p := range strings.Split(os.Getenv("GOMOKU_LOG"), ",") {
		logs = append(logs, readGames(t, p))
	}
	nbest := envInt("GOMOKU_SET_NBEST", 3)
	rootMax := Value(envInt("GOMOKU_SET_ROOT", 600))
	maxN := envInt("GOMOKU_SET_MAX", 280)
	var deadline time.Time
	if m := envInt("GOMOKU_SET_MINUTES", 0); m > 0 {
		deadline = time.Now().Add(time.Duration(m) * time.Minute)
	}
	shift := 0.0
	if v := os.Getenv("GOMOKU_SET_SHIFT"); v != "" {
		var err error
		if shift, err = strconv.ParseFloat(v, 64); err != nil || shift < 0 || shift >= 1 {
			t.Fatalf("GOMOKU_SET_SHIFT=%q: want a fraction in [0, 1)", v)
		}
	}
	judged := 0
	for _, p := range set.Positions {
		if !p.Decided() {
			judged++
		}
	}
	start := time.Now()
	for k, g := range roundRobin(logs) {
		if judged >= maxN || (!deadline.IsZero() && time.Now().After(deadline)) {
			break
		}
		b, ok := pickPosition(g, k, shift, set)
		if !ok {
			continue
		}
		p := &ValuedPosition{Moves: b.Moves(), Source: g.source, Values: map[gomoku.Point]Value{}}
		best, cands, root, err := j.nbest(b, nbest)
		if err != nil {
			t.Fatal(err)
		}
		p.Root = root
		// A decided position (|root| beyond rootMax) is kept unjudged,
		// so that it is not searched again.
		if decided := root > rootMax || root < -rootMax; !decided {
			p.Best = best
			for _, m := range cands {
				v, err := j.value(b, m)
				if err != nil {
					t.Fatal(err)
				}
				p.Values[m] = v
			}
			judged++
		}
		if err := set.Add(p); err != nil {
			t.Fatal(err)
		}
		if err := writeSet(path, set); err != nil {
			t.Fatal(err)
		}
		t.Logf("set %d %s move %d root=%v best=%v values=%v", judged, p.Source, len(p.Moves)+1, root, best, p.Values)
	}
	t.Logf("set: %d positions judged (%d in the file), %v this run, judge retries %d", judged, len(set.Positions), time.Since(start).Round(time.Second), j.g.Retries)
}

// writeSet writes the set to path through a temporary file.
func writeSet(path string, s *MoveValues) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := s.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TestMoveLoss scores a build's move choice on a move-value set
// (GOMOKU_MATCH=moveloss):
//
//	GOMOKU_SET          the set (default testdata/gomoku-movevalues.txt)
//	GOMOKU_LOSS_PLAYER  level:N (our engine in-process at level N, 6 the
//	                    full engine; default level:6), judge (the judge's
//	                    own root choice, best= in the set) or prog:<command>
//	                    (a Gomocup program, e.g. "prog:/tmp/x/engine
//	                    gomocup", a fresh process a position;
//	                    GOMOKU_LOSS_INIT and GOMOKU_LOSS_PAUSE as the
//	                    opponent's INIT and PAUSE)
//	GOMOKU_MOVETIME     ms a position (1000; 0: none)
//	GOMOKU_LOSS_NODES   in-process node budget (0: none): deterministic
//	GOMOKU_LOSS_OUT     write the choices to this file
//	GOMOKU_LOSS_CHOICES score these choice files (comma-separated) instead
//	                    of searching
//	GOMOKU_LOSS_BASE    choice files to pair against (comma-separated;
//	                    "a+b" pairs against a's and b's losses averaged)
//	GOMOKU_LOSS_MAX     the first N positions only
//	GOMOKU_LOSS_SCORING "nomate": leave out the positions with a mate
//	                    among their values; "clamp:N": clamp every value
//	                    to ±N first; "spread:X": only the positions whose
//	                    best judged move beats the median one by X win
//	                    probability or more (default: none of these)
//	GOMOKU_OPPONENT     the judge for moves not yet in the set (Rapfi, as
//	                    for TestMoveValuesSet; the set file is rewritten
//	                    with them); without it such moves are counted as
//	                    unjudged and left out
//
// It logs the mean loss in win probability (Rapfi's scale, see WinScale)
// with its standard error, the mean loss in Rapfi's units (values clamped
// to ±UnitsCap), the best moves chosen, the losses of LargeLoss or more,
// and per base file the paired difference (this run minus the base) over
// the positions both scored. All scoring uses the set as it is after the
// run, so earlier choice files are rescored by the same values.
func TestMoveLoss(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "moveloss" {
		t.Skip("set GOMOKU_MATCH=moveloss (and GOMOKU_OPPONENT to judge new moves) to score a build's moves on the move-value set")
	}
	path := os.Getenv("GOMOKU_SET")
	if path == "" {
		path = "testdata/gomoku-movevalues.txt"
	}
	set, err := ReadMoveValuesFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var runs []labelled
	if files := os.Getenv("GOMOKU_LOSS_CHOICES"); files != "" {
		for _, p := range strings.Split(files, ",") {
			runs = append(runs, readChoiceFile(t, p))
		}
	} else {
		runs = append(runs, playSet(t, set))
	}
	var j *rapfiJudge
	if os.Getenv("GOMOKU_OPPONENT") != "" {
		j = newRapfiJudge(t, set.Nodes)
		defer j.g.Close()
	}
	if j != nil && set.MultiPV {
		judgeNewMultiPV(t, j, set, path, runs)
	} else if j != nil {
		added := 0
		for _, c := range unvalued(set, runs) {
			p := set.FindKey(c.Key)
			b, err := p.Board()
			if err != nil {
				t.Fatal(err)
			}
			if p.Values[c.Move], err = j.value(b, c.Move); err != nil {
				t.Fatal(err)
			}
			added++
		}
		if added > 0 {
			if err := writeSet(path, set); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("judged %d new moves", added)
	}
	// A base is a choice file, or several joined by "+": their losses
	// averaged per position (over the positions all of them scored).
	var bases [][]labelled
	if files := os.Getenv("GOMOKU_LOSS_BASE"); files != "" {
		for _, group := range strings.Split(files, ",") {
			var g []labelled
			for _, p := range strings.Split(group, "+") {
				g = append(g, readChoiceFile(t, p))
			}
			bases = append(bases, g)
		}
	}
	scoring := set
	switch v := os.Getenv("GOMOKU_LOSS_SCORING"); {
	case v == "":
	case v == "nomate":
		scoring = set.WithoutMates()
	case strings.HasPrefix(v, "clamp:"):
		c, err := strconv.Atoi(strings.TrimPrefix(v, "clamp:"))
		if err != nil || c <= 0 {
			t.Fatalf("GOMOKU_LOSS_SCORING=%q: want clamp:N with N > 0", v)
		}
		scoring = set.Clamped(c)
	case strings.HasPrefix(v, "spread:"):
		x, err := strconv.ParseFloat(strings.TrimPrefix(v, "spread:"), 64)
		if err != nil || x < 0 || x > 1 {
			t.Fatalf("GOMOKU_LOSS_SCORING=%q: want spread:X with X in [0, 1]", v)
		}
		scoring = set.Spread(x)
	default:
		t.Fatalf("GOMOKU_LOSS_SCORING=%q: want nomate, clamp:N or spread:X", v)
	}
	scored := make([]scoredBase, len(bases))
	for i, g := range bases {
		scored[i] = scoreBase(scoring, g)
	}
	for _, r := range runs {
		s := scoring.Score(r.choices)
		t.Logf("moveloss %s: %d positions, loss %.4f ± %.4f win prob., %.1f ± %.1f units (cap %d); best move %d, judge's choice %d, losses >= %.1f: %d; mean depth %.2f; unjudged %d",
			r.label, s.N, s.MeanWP, s.SEWP, s.MeanUnits, s.SEUnits, UnitsCap, s.Best, s.JudgeBest, LargeLoss, s.Large, s.MeanDepth, s.Unjudged)
		for _, b := range scored {
			var same []string
			for _, moves := range b.moves {
				n := 0
				for _, c := range r.choices {
					_, scored := s.PerPos[c.Key]
					if m, ok := moves[c.Key]; ok && m == c.Move && scored {
						n++
					}
				}
				same = append(same, strconv.Itoa(n))
			}
			m, se, n := Paired(s.PerPos, b.wp)
			mu, seu, _ := Paired(s.UnitsByPos, b.units)
			t.Logf("paired %s - %s: %+.4f ± %.4f win prob., %+.1f ± %.1f units, %d positions, %s same moves (base loss %.4f)",
				r.label, b.label, m, se, mu, seu, n, strings.Join(same, "/"), b.meanWP)
		}
	}
}

// scoredBase is a base of TestMoveLoss scored on the set: its runs' losses
// averaged per position, and each run's moves.
type scoredBase struct {
	label     string // the runs' labels joined by "+"
	wp, units map[string]float64
	meanWP    float64
	moves     []map[string]gomoku.Point
}

// scoreBase scores the runs of a base once, for every run paired with it.
func scoreBase(set *MoveValues, runs []labelled) scoredBase {
	var labels []string
	var wps, units []map[string]float64
	var b scoredBase
	for _, r := range runs {
		s := set.Score(r.choices)
		labels = append(labels, r.label)
		wps, units = append(wps, s.PerPos), append(units, s.UnitsByPos)
		moves := map[string]gomoku.Point{}
		for _, c := range r.choices {
			moves[c.Key] = c.Move
		}
		b.moves = append(b.moves, moves)
	}
	b.label = strings.Join(labels, "+")
	b.wp, b.units = meanMaps(wps), meanMaps(units)
	b.meanWP, _ = stats.MeanSE(values(b.wp))
	return b
}

// meanMaps averages maps over the keys all of them have.
func meanMaps(ms []map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k := range ms[0] {
		s, all := 0.0, true
		for _, m := range ms {
			v, ok := m[k]
			all = all && ok
			s += v
		}
		if all {
			out[k] = s / float64(len(ms))
		}
	}
	return out
}

func values(m map[string]float64) []float64 {
	var out []float64
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// labelled is a run's choices with its label.
type labelled struct {
	label   string
	choices []Choice
}

func readChoiceFile(t *testing.T, path string) labelled {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	label, cs, err := ParseChoices(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return labelled{label, cs}
}

// playSet lets the build named by GOMOKU_LOSS_PLAYER choose a move in every
// judged position of the set.
func playSet(t *testing.T, set *MoveValues) labelled {
	player := os.Getenv("GOMOKU_LOSS_PLAYER")
	if player == "" {
		player = "level:6"
	}
	moveTime := time.Duration(envInt("GOMOKU_MOVETIME", 1000)) * time.Millisecond
	nodes := uint64(envInt("GOMOKU_LOSS_NODES", 0))
	maxN := envInt("GOMOKU_LOSS_MAX", 0)
	label := player
	if f := strings.Fields(strings.TrimPrefix(player, "prog:")); len(f) > 0 {
		label = filepath.Base(f[0])
	}
	if player == "judge" {
		var out []Choice
		for _, p := range set.Positions {
			if !p.Decided() && (maxN == 0 || len(out) < maxN) {
				out = append(out, Choice{Key: p.Key(), Move: p.Best})
			}
		}
		return labelled{"judge", out}
	}
	label = fmt.Sprintf("%s-%dms-%dn", label, moveTime.Milliseconds(), nodes)
	var prog *Gomocup
	level := 0
	var depth int
	switch {
	case strings.HasPrefix(player, "level:"):
		var err error
		if level, err = strconv.Atoi(strings.TrimPrefix(player, "level:")); err != nil || level < 1 || level > gomoku.MaxLevel {
			t.Fatalf("GOMOKU_LOSS_PLAYER %q: bad level", player)
		}
	case strings.HasPrefix(player, "prog:"):
		f := strings.Fields(strings.TrimPrefix(player, "prog:"))
		if len(f) == 0 {
			t.Fatal("GOMOKU_LOSS_PLAYER prog: names no program")
		}
		prog = &Gomocup{Path: f[0], Args: f[1:], MoveTime: moveTime,
			Pause: time.Duration(envInt("GOMOKU_LOSS_PAUSE", 0)) * time.Millisecond,
			Messages: func(l string) {
				// our engine's "MESSAGE depth 7 | ..."
				if _, rest, ok := strings.Cut(l, "MESSAGE depth "); ok {
					depth, _ = strconv.Atoi(strings.Fields(rest)[0])
				}
			}}
		if v := os.Getenv("GOMOKU_LOSS_INIT"); v != "" {
			prog.Init = strings.Split(v, ";")
		}
		defer prog.Close()
	default:
		t.Fatalf("GOMOKU_LOSS_PLAYER %q: want level:N or prog:<command>", player)
	}
	if v := os.Getenv("GOMOKU_LOSS_LABEL"); v != "" {
		label = v
	}
	var out []Choice
	start := time.Now()
	for _, p := range set.Positions {
		if p.Decided() {
			continue
		}
		if maxN > 0 && len(out) == maxN {
			break
		}
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		c := Choice{Key: p.Key()}
		if prog != nil {
			depth = 0
			prog.kill() // a fresh process: no state from the last position
			if c.Move, err = prog.Move(context.Background(), b); err != nil {
				t.Fatal(err)
			}
			if err := b.IsLegal(c.Move); err != nil {
				t.Fatalf("%s: %v", p.Key(), err)
			}
			c.Depth = depth
		} else {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if moveTime > 0 {
				ctx, cancel = context.WithTimeout(ctx, moveTime)
			}
			r, err := gomoku.NewEngine().Search(ctx, b, gomoku.Limits{Level: level, Nodes: nodes})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			c.Move, c.Depth = r.Best, r.Depth
		}
		out = append(out, c)
	}
	t.Logf("%s: %d positions in %v", label, len(out), time.Since(start).Round(time.Second))
	if o := os.Getenv("GOMOKU_LOSS_OUT"); o != "" {
		f, err := os.Create(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteChoices(f, label, out); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return labelled{label, out}
}

// rapfiJudge values moves with Rapfi at a fixed node budget.
type rapfiJudge struct {
	g      *Gomocup
	msg    *rapfiMessages
	report *MultiPVReport // the multi-PV lines of the current search
}

// newRapfiJudge starts the judge named by GOMOKU_OPPONENT: one thread
// (GOMOKU_OPPONENT_INIT), a 64 MB hash cleared before every search, the
// node budget, its multi-PV lines shown (YXSHOWINFO), and a move time so
// long that the node budget ends every search.
func newRapfiJudge(t *testing.T, nodes int) *rapfiJudge {
	prog := strings.Fields(os.Getenv("GOMOKU_OPPONENT"))
	if len(prog) == 0 {
		t.Fatal("GOMOKU_OPPONENT: the judge, Rapfi")
	}
	j := &rapfiJudge{msg: &rapfiMessages{}, report: &MultiPVReport{}}
	g := &Gomocup{
		Path: prog[0], Args: prog[1:], MoveTime: 300 * time.Second,
		Pause: time.Duration(envInt("GOMOKU_OPPONENT_PAUSE", 0)) * time.Millisecond,
		Messages: func(l string) {
			j.msg.add(l)
			j.report.Add(l)
		},
	}
	if v := os.Getenv("GOMOKU_OPPONENT_INIT"); v != "" {
		g.Init = strings.Split(v, ";")
	}
	g.Init = append(g.Init, "INFO HASH_SIZE 65536", fmt.Sprintf("INFO MAX_NODE %d", nodes), "YXSHOWINFO")
	j.g = g
	return j
}

// multiPV values the moves cands of b by one multi-PV root search: every
// other empty point blocked, YXNBEST len(cands), nodes per line (the
// budget is nodes x len(cands); set back to nodes afterwards). It returns
// the values of the candidates the search reported at its deepest complete
// depth, the best of them and that depth; a candidate Rapfi's root move
// generator leaves out (a move that ignores a threat, or the symmetric
// twin of another) is missing from vals.
func (j *rapfiJudge) multiPV(b *gomoku.Board, cands []gomoku.Point, nodes int) (gomoku.Point, map[gomoku.Point]Value, int, error) {
	in := map[gomoku.Point]bool{}
	for _, m := range cands {
		in[m] = true
	}
	before := []string{"YXHASHCLEAR", "YXBLOCKRESET", "YXBLOCK"}
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			m := gomoku.Point{X: x, Y: y}
			if _, taken := b.At(m); !taken && !in[m] {
				before = append(before, fmt.Sprintf("%d,%d", x, y))
			}
		}
	}
	before = append(before, "DONE", fmt.Sprintf("INFO MAX_NODE %d", nodes*len(cands)))
	*j.msg, *j.report = rapfiMessages{}, MultiPVReport{}
	_, err := j.g.Query(context.Background(), b, before, fmt.Sprintf("YXNBEST %d", len(cands)))
	j.g.send(fmt.Sprintf("INFO MAX_NODE %d", nodes))
	j.g.send("YXBLOCKRESET")
	if err != nil {
		return gomoku.Point{}, nil, 0, err
	}
	if len(cands) == 1 { // one line: Rapfi prints no multi-PV lines
		v, err := ParseValue(j.msg.eval)
		if err != nil {
			return cands[0], nil, 0, fmt.Errorf("judge's score: %w", err)
		}
		return cands[0], map[gomoku.Point]Value{cands[0]: v}, 0, nil
	}
	d, best, vals, err := j.report.Values()
	if err != nil {
		return best, nil, 0, err
	}
	for m := range vals {
		if !in[m] {
			return best, nil, 0, fmt.Errorf("multi-PV line for %v, a blocked move", m)
		}
	}
	return best, vals, d, nil
}

// differing reads the choice files GOMOKU_SET_DIFFER (comma-separated;
// none: an empty map) into the moves chosen per position: a position
// where they do not all agree has two or more.
func differing(t *testing.T) map[string]map[gomoku.Point]bool {
	moves := map[string]map[gomoku.Point]bool{}
	if files := os.Getenv("GOMOKU_SET_DIFFER"); files != "" {
		for _, p := range strings.Split(files, ",") {
			for _, c := range readChoiceFile(t, p).choices {
				if moves[c.Key] == nil {
					moves[c.Key] = map[gomoku.Point]bool{}
				}
				moves[c.Key][c.Move] = true
			}
		}
	}
	return moves
}

// unvalued returns the runs' choices whose move the set has no value for,
// in a position it holds and has not decided: each (position, move) once,
// in the order the runs first chose it.
func unvalued(set *MoveValues, runs []labelled) []Choice {
	seen := map[Choice]bool{}
	var out []Choice
	for _, r := range runs {
		for _, c := range r.choices {
			p := set.FindKey(c.Key)
			if p == nil || p.Decided() {
				continue
			}
			if _, ok := p.Values[c.Move]; ok {
				continue
			}
			k := Choice{Key: c.Key, Move: c.Move}
			if !seen[k] {
				seen[k] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// judgeNewMultiPV searches again, with the multi-PV judge, every position
// where a run chose a move not yet valued, with the new moves among the
// candidates, and replaces the position's values by the new search's (a
// move it does not report: an old one shifted as in multiPVSet, a new one
// minus a search of the position after it).
func judgeNewMultiPV(t *testing.T, j *rapfiJudge, set *MoveValues, path string, runs []labelled) {
	newMoves := map[string]map[gomoku.Point]bool{}
	var keys []string
	for _, c := range unvalued(set, runs) {
		if newMoves[c.Key] == nil {
			newMoves[c.Key] = map[gomoku.Point]bool{}
			keys = append(keys, c.Key)
		}
		newMoves[c.Key][c.Move] = true
	}
	added, child := 0, 0
	for _, k := range keys {
		p := set.FindKey(k)
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		var cands []gomoku.Point
		for m := range p.Values {
			cands = append(cands, m)
		}
		for m := range newMoves[k] {
			cands = append(cands, m)
		}
		sort.Slice(cands, func(a, c int) bool { return cands[a].String() < cands[c].String() })
		best, vals, _, err := j.multiPV(b, cands, set.Nodes)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for m := range newMoves[k] {
			if _, ok := vals[m]; ok {
				continue
			}
			if v, ok := Twin(b, m, vals); ok {
				vals[m] = v
			} else {
				if vals[m], err = j.value(b, m); err != nil {
					t.Fatal(err)
				}
				child++
			}
		}
		fillMissing(b, vals, p.Values)
		p.Values, p.Best, p.Root = vals, best, vals[best]
		added += len(newMoves[k])
		if err := writeSet(path, set); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("judged %d new moves in %d positions searched again (multi-PV; %d valued by a search after the move)", added, len(keys), child)
}

// multiPVSet values, by one multi-PV root search a position (nodes a
// line), the judged moves of the set in file from, into set (written to
// path); with GOMOKU_SET_DIFFER only the positions where those choice
// files do not all agree. A move the search does not report keeps its value in from,
// shifted by the median difference (multi-PV minus from) of the moves
// it does report.
func multiPVSet(t *testing.T, j *rapfiJudge, set *MoveValues, path, from string) {
	start := time.Now()
	n, twins, missing := 0, 0, 0
	for _, p := range toRevalue(t, set, from) {
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		var cands []gomoku.Point
		for m := range p.Values {
			cands = append(cands, m)
		}
		sort.Slice(cands, func(a, c int) bool { return cands[a].String() < cands[c].String() })
		best, vals, d, err := j.multiPV(b, cands, set.Nodes)
		if err != nil {
			t.Fatalf("%s: %v", p.Key(), err)
		}
		q := &ValuedPosition{Moves: p.Moves, Source: p.Source, Root: vals[best], Best: best, Values: vals}
		tw, sh := fillMissing(b, q.Values, p.Values)
		twins, missing = twins+tw, missing+sh
		if err := set.Add(q); err != nil {
			t.Fatal(err)
		}
		if err := writeSet(path, set); err != nil {
			t.Fatal(err)
		}
		n++
		t.Logf("multipv %d %s depth %d best %v: %v (child values %v) twins %d shifted %d", n, p.Key(), d, best, q.Values, p.Values, tw, sh)
	}
	t.Logf("multi-PV: %d positions in %v, moves not reported: %d symmetric twins, %d shifted child values", n, time.Since(start).Round(time.Second), twins, missing)
}

// fillMissing gives each move of old missing from vals the value of its
// symmetric twin in vals (Twin) if it has one, else its old value plus
// the median of (vals - old) over the moves in both (mates left out of
// the median; a mate keeps its value); it returns how many it added by
// each way.
func fillMissing(b *gomoku.Board, vals, old map[gomoku.Point]Value) (twins, shifted int) {
	var diffs []int
	for m, v := range vals {
		if o, ok := old[m]; ok && !isMate(v) && !isMate(o) {
			diffs = append(diffs, int(v)-int(o))
		}
	}
	sort.Ints(diffs)
	shift := 0
	if len(diffs) > 0 {
		shift = diffs[len(diffs)/2]
	}
	add := map[gomoku.Point]Value{}
	for m, o := range old {
		if _, ok := vals[m]; ok {
			continue
		}
		if v, ok := Twin(b, m, vals); ok {
			add[m] = v
			twins++
			continue
		}
		v := o
		if !isMate(o) {
			v = Value(min(max(int(o)+shift, -MateBound+1), MateBound-1))
		}
		add[m] = v
		shifted++
	}
	for m, v := range add {
		vals[m] = v
	}
	return twins, shifted
}

// isMate reports whether v is a mate value.
func isMate(v Value) bool { return v >= MateBound || v <= -MateBound }

// nbest asks the judge for its k best moves in b: its choice, the moves
// its multi-PV lines start with (the choice first), and its score.
func (j *rapfiJudge) nbest(b *gomoku.Board, k int) (gomoku.Point, []gomoku.Point, Value, error) {
	*j.msg = rapfiMessages{}
	best, err := j.g.Query(context.Background(), b, []string{"YXHASHCLEAR"}, fmt.Sprintf("YXNBEST %d", k))
	if err != nil {
		return best, nil, 0, err
	}
	if err := b.IsLegal(best); err != nil {
		return best, nil, 0, fmt.Errorf("judge's choice %v: %w", best, err)
	}
	root, err := ParseValue(j.msg.eval)
	if err != nil {
		return best, nil, 0, fmt.Errorf("judge's score: %w", err)
	}
	cands := []gomoku.Point{best}
	for i := 1; i <= k; i++ {
		m, ok := j.msg.pv[i]
		if !ok || b.IsLegal(m) != nil {
			continue
		}
		dup := false
		for _, c := range cands {
			dup = dup || c == m
		}
		if !dup {
			cands = append(cands, m)
		}
	}
	return best, cands, root, nil
}

// value is minus the judge's score of b after m.
func (j *rapfiJudge) value(b *gomoku.Board, m gomoku.Point) (Value, error) {
	c := b.Clone()
	if err := c.Play(m); err != nil {
		return 0, err
	}
	*j.msg = rapfiMessages{}
	if _, err := j.g.Query(context.Background(), c, []string{"YXHASHCLEAR"}, ""); err != nil {
		return 0, err
	}
	v, err := ParseValue(j.msg.eval)
	if err != nil {
		return 0, fmt.Errorf("judge's score after %v: %w", m, err)
	}
	return v.Neg(), nil
}

// rapfiMessages keeps what Rapfi's MESSAGE lines say: the last "| Eval v"
// and the first move of each multi-PV line "(k) v | d-sd | PV...".
type rapfiMessages struct {
	eval string
	pv   map[int]gomoku.Point
}

func (m *rapfiMessages) add(l string) {
	l = strings.TrimSpace(strings.TrimPrefix(l, "MESSAGE"))
	if _, rest, ok := strings.Cut(l, "| Eval "); ok {
		m.eval = strings.TrimSpace(strings.Split(rest, "|")[0])
		return
	}
	if !strings.HasPrefix(l, "(") {
		return
	}
	ks, rest, ok := strings.Cut(l[1:], ")")
	k, err := strconv.Atoi(ks)
	parts := strings.Split(rest, "|")
	if !ok || err != nil || len(parts) < 3 {
		return
	}
	pv := strings.Fields(parts[2])
	if len(pv) == 0 {
		return
	}
	p, err := gomoku.ParsePoint(pv[0], setSize)
	if err != nil {
		return
	}
	if m.pv == nil {
		m.pv = map[int]gomoku.Point{}
	}
	m.pv[k] = p
}

// loggedGame is a game of a match log.
type loggedGame struct {
	source string // log:opening:our colour
	moves  []gomoku.Point
}

// readGames returns every game of a match log (the lines "... piskvork/3
// name as white: loss h8i9...", any result).
func readGames(t *testing.T, path string) []loggedGame {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gs, err := parseGames(f, filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return gs
}

// parseGames reads the game lines of a match log; name prefixes sources.
func parseGames(r io.Reader, name string) ([]loggedGame, error) {
	var out []loggedGame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var i int
		var res string
		for _, r := range []string{": win ", ": loss ", ": draw "} {
			if i = strings.Index(line, r); i >= 0 {
				res = r
				break
			}
		}
		if i < 0 {
			continue
		}
		head := strings.Fields(line[:i])
		if len(head) < 4 || head[len(head)-2] != "as" || (head[len(head)-1] != "black" && head[len(head)-1] != "white") {
			return nil, fmt.Errorf("%q: want \"<opening> <player> as <colour>: <result> <record>\"", line)
		}
		moves, err := gomoku.ParseRecord(strings.TrimSpace(line[i+len(res):]), setSize)
		if err != nil {
			return nil, err
		}
		out = append(out, loggedGame{
			source: fmt.Sprintf("%s:%s:%s", name, head[len(head)-4], head[len(head)-1]),
			moves:  moves,
		})
	}
	return out, sc.Err()
}

// roundRobin takes the logs' games in turn: the first of each, the second
// of each, ...
func roundRobin(logs [][]loggedGame) []loggedGame {
	var out []loggedGame
	for i := 0; ; i++ {
		any := false
		for _, l := range logs {
			if i < len(l) {
				out = append(out, l[i])
				any = true
			}
		}
		if !any {
			return out
		}
	}
}

// Move numbers of the chosen positions: the target moves over
// [minMoveNo, maxMoveNo] by the golden ratio from game to game.
const (
	minMoveNo = 6
	maxMoveNo = 40
)

// targetMove is the k-th game's target move number, shifted by the
// fraction shift of the range (wrapping around).
func targetMove(k int, shift float64) int {
	_, frac := math.Modf(float64(k)*(math.Sqrt(5)-1)/2 + shift)
	return minMoveNo + int(frac*float64(maxMoveNo-minMoveNo+1))
}

// pickPosition returns the position of game g (the k-th) before the move
// numbered at or after the target (shifted by shift), up to maxMoveNo, that has no four on
// the board, is not the game's last and is not in set.
func pickPosition(g loggedGame, k int, shift float64, set *MoveValues) (*gomoku.Board, bool) {
	for n := targetMove(k, shift); n <= maxMoveNo && n < len(g.moves); n++ {
		// before move n: n-1 moves played
		if set.Find(g.moves[:n-1]) != nil {
			continue
		}
		b, err := (&ValuedPosition{Moves: g.moves[:n-1]}).Board()
		if err != nil || b.Over() || Forced(b) {
			continue
		}
		return b, true
	}
	return nil, false
}

// toRevalue returns the positions of the set in file from that rejudge
// and multiPVSet value again: judged, not yet in set, and (with
// GOMOKU_SET_DIFFER) chosen differently by those choice files; at most
// GOMOKU_SET_MAX (280) of them, in the file's order.
func toRevalue(t *testing.T, set *MoveValues, from string) []*ValuedPosition {
	src, err := ReadMoveValuesFile(from)
	if err != nil {
		t.Fatal(err)
	}
	moves := differing(t)
	maxN := envInt("GOMOKU_SET_MAX", 280)
	var out []*ValuedPosition
	for _, p := range src.Positions {
		if len(out) >= maxN {
			break
		}
		if p.Decided() || set.Find(p.Moves) != nil || (len(moves) > 0 && len(moves[p.Key()]) < 2) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// rejudge values again, with j's budget, the judged moves of the set in
// file from, in the positions where the choice files GOMOKU_SET_DIFFER
// disagree, adding them to set (written to path).
func rejudge(t *testing.T, j *rapfiJudge, set *MoveValues, path, from string) {
	start := time.Now()
	n := 0
	for _, p := range toRevalue(t, set, from) {
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		q := &ValuedPosition{Moves: p.Moves, Source: p.Source, Root: p.Root, Best: p.Best, Values: map[gomoku.Point]Value{}}
		for m := range p.Values {
			if q.Values[m], err = j.value(b, m); err != nil {
				t.Fatal(err)
			}
		}
		if err := set.Add(q); err != nil {
			t.Fatal(err)
		}
		if err := writeSet(path, set); err != nil {
			t.Fatal(err)
		}
		n++
		t.Logf("rejudged %d %s: %v (was %v)", n, p.Key(), q.Values, p.Values)
	}
	t.Logf("rejudged %d positions in %v", n, time.Since(start).Round(time.Second))
}

package match

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

func loadOpenings(t testing.TB, size int) []Opening {
	t.Helper()
	f, err := os.Open("testdata/gomoku-openings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, err := ParseOpenings(f, size)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestParseOpenings(t *testing.T) {
	o15 := loadOpenings(t, 15)
	o20 := loadOpenings(t, 20)
	// 41 Piskvork openings (one does not fit 15x15), 6 GomocupJudge edge
	// openings (20x20 only), 26 renju shapes.
	if len(o15) != 40+26 || len(o20) != 41+6+26 {
		t.Fatalf("got %d openings on 15x15, %d on 20x20", len(o15), len(o20))
	}
	if got := gomoku.FormatRecord(o15[0].Moves); got != "h8i8i11" {
		t.Fatalf("first opening %s = %s, want h8i8i11", o15[0].Name, got)
	}
	for _, bad := range []string{"a|b", "x|0|two|1|1|0,0", "x|0|2|1|1|0,0", "x|0|1|1|1|0;0"} {
		if _, err := ParseOpenings(strings.NewReader(bad), 15); err == nil {
			t.Errorf("ParseOpenings(%q): want an error", bad)
		}
	}
}

func TestResultScore(t *testing.T) {
	tests := []struct {
		name          string
		r             Result
		score, margin float64
	}{
		{"all wins", Result{Wins: 10}, 1, 0},
		{"even", Result{Wins: 50, Losses: 50}, 0.5, 0.098},
		{"draws", Result{Draws: 4}, 0.5, 0},
		{"empty", Result{}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := tc.r.Score()
			if d := s - tc.score; d > 0.001 || d < -0.001 {
				t.Fatalf("score %v, want %v", s, tc.score)
			}
			if d := m - tc.margin; d > 0.001 || d < -0.001 {
				t.Fatalf("margin %v, want %v", m, tc.margin)
			}
		})
	}
}

// TestMatchShort is the always-on version of the match: a few real,
// depth-limited (so reproducible) games between our engine and the seed
// baseline, and between two levels. Every move is checked by the board.
func TestMatchShort(t *testing.T) {
	open := loadOpenings(t, 15)
	ctx := context.Background()
	// Depth 3 on both sides: at depth 2 the harness's first white game
	// reaches a position where every legal white move loses to a short
	// VCT (piskvork/0 after h8i8i11h9g10i7h10i5i6h7i10j10i12i9h11); the
	// seed sometimes misses it, so a depth-2 result there says more about
	// the seed's luck than about our engine.
	res, err := Run(ctx, Config{
		A: &Engine{Level: 5, Depth: 3}, B: Seed001{Depth: 3},
		Size: 15, Rule: gomoku.Freestyle, Openings: open[:2],
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games() != 4 {
		t.Fatalf("%v: want 4 games", res)
	}
	if res.Wins < 3 {
		t.Errorf("%v: our depth-3 engine should beat the seed's depth-3 search", res)
	}
	t.Log(res)
	for _, r := range []gomoku.Rule{gomoku.Standard, gomoku.Renju} {
		res, err := Run(ctx, Config{
			A: &Engine{Level: 4}, B: &Engine{Level: 1},
			Size: 15, Rule: r, Openings: open[64:65],
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(r, res)
		if res.Games() != 2 {
			t.Fatalf("%v: want 2 games", res)
		}
	}
}

// selectOpenings applies GOMOKU_FROM and GOMOKU_TO (a slice of the
// list, so that a long run can be split across jobs) and GOMOKU_OPENINGS
// (a comma-separated list of opening names such as "piskvork/2").
func selectOpenings(t *testing.T, open []Opening) []Opening {
	t.Helper()
	open = open[min(envInt("GOMOKU_FROM", 0), len(open)):min(envInt("GOMOKU_TO", len(open)), len(open))]
	names := os.Getenv("GOMOKU_OPENINGS")
	if names == "" {
		return open
	}
	var out []Opening
	for _, name := range strings.Split(names, ",") {
		found := false
		for _, o := range open {
			if o.Name == strings.TrimSpace(name) {
				out = append(out, o)
				found = true
			}
		}
		if !found {
			t.Fatalf("GOMOKU_OPENINGS: no opening %q", name)
		}
	}
	return out
}

// envInt reads an integer setting for the long match runs.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestMatchSeed is the full match against the seed baseline, run only
// with GOMOKU_MATCH=seed (see docs/benchmarks.md for the command and the
// figures): our depth-4 engine against seed 001's depth-4 search from
// every 15x15 opening, both colours. GOMOKU_FROM and GOMOKU_TO select a
// slice of the openings so that a run fits the machine's job limit;
// GOMOKU_RULE picks the rule (default freestyle), GOMOKU_LEVEL and
// GOMOKU_DEPTH our level (5) and depth (4; 0 is the level's own), and
// GOMOKU_MOVETIME a time per move in milliseconds (default none).
func TestMatchSeed(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "seed" {
		t.Skip("set GOMOKU_MATCH=seed to run the full match")
	}
	open := selectOpenings(t, loadOpenings(t, 15))
	rule := gomoku.Freestyle
	if v := os.Getenv("GOMOKU_RULE"); v != "" {
		var err error
		if rule, err = gomoku.ParseRule(v); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), Config{
		A: &Engine{Level: envInt("GOMOKU_LEVEL", 5), Depth: envInt("GOMOKU_DEPTH", 4), MoveTime: time.Duration(envInt("GOMOKU_MOVETIME", 0)) * time.Millisecond}, B: Seed001{Depth: 4},
		Size: 15, Rule: rule, Openings: open,
		Log: func(s string) { t.Log(s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	if s, _ := res.Score(); s < 0.9 {
		t.Errorf("%v: want at least 90%%", res)
	}
}

// TestMatchLadder plays each level of the strength scale against the level
// below (GOMOKU_MATCH=ladder). GOMOKU_LEVELS limits the steps ("2-6": level
// 2 against 1 up to 6 against 5); GOMOKU_RULE picks the rule (default
// renju, see docs/benchmarks.md for why); GOMOKU_FROM, GOMOKU_TO and
// GOMOKU_OPENINGS select openings as for TestMatchSeed. The levels below
// MaxLevel are limited by depth, not by the clock, so they play
// without a deadline (reproducibly); MaxLevel, which the service limits
// by its deadline, gets GOMOKU_MOVETIME milliseconds per move (default
// 1000, a fifth of the service's five seconds), or GOMOKU_NODES nodes
// per move instead: a budget that does not shrink when the machine is
// loaded (the levels below are depth-limited, so a timed level 6 alone
// would pay for the load).
func TestMatchLadder(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "ladder" {
		t.Skip("set GOMOKU_MATCH=ladder to run the strength ladder")
	}
	open := selectOpenings(t, loadOpenings(t, 15))
	lo, hi := 2, gomoku.MaxLevel
	if v := os.Getenv("GOMOKU_LEVELS"); v != "" {
		a, b, _ := strings.Cut(v, "-")
		var err1, err2 error
		lo, err1 = strconv.Atoi(a)
		hi, err2 = strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo < 2 || hi > gomoku.MaxLevel || lo > hi {
			t.Fatalf("GOMOKU_LEVELS=%q: want \"lo-hi\" within 2-%d", v, gomoku.MaxLevel)
		}
	}
	rule := gomoku.Renju
	if v := os.Getenv("GOMOKU_RULE"); v != "" {
		var err error
		if rule, err = gomoku.ParseRule(v); err != nil {
			t.Fatal(err)
		}
	}
	player := func(level int) *Engine {
		p := &Engine{Level: level, Label: "level" + strconv.Itoa(level)}
		if level == gomoku.MaxLevel {
			p.MoveTime = time.Duration(envInt("GOMOKU_MOVETIME", 1000)) * time.Millisecond
			if n := envInt("GOMOKU_NODES", 0); n > 0 {
				p.MoveTime, p.Nodes = 0, uint64(n)
			}
		}
		return p
	}
	for lvl := lo; lvl <= hi; lvl++ {
		res, err := Run(context.Background(), Config{
			A: player(lvl), B: player(lvl - 1),
			Size: 15, Rule: rule, Openings: open,
			Log: func(s string) { t.Log(s) },
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(rule, res)
		if s, m := res.Score(); s-m <= 0.5 {
			t.Errorf("%v: level %d does not clearly beat level %d", res, lvl, lvl-1)
		}
	}
}

// TestMatchGomocup plays our engine against any Gomocup program
// (GOMOKU_MATCH=gomocup), each Piskvork opening with both colours, the
// match's Board refereeing every move under the rule (renju included).
// Settings:
//
//	GOMOKU_OPPONENT        the program and its arguments (required)
//	GOMOKU_OPPONENT_INIT   lines sent after the INFO lines, ";"-separated
//	                       (Rapfi: "INFO THREAD_NUM 1")
//	GOMOKU_OPPONENT_PAUSE  ms to wait after each of its answers (Rapfi: 20)
//	GOMOKU_OPPONENT_MOVETIME  its timeout_turn in ms (default: ours)
//	GOMOKU_OURS            our engine as a Gomocup program (e.g. "engine
//	                       gomocup", a built binary); empty: in process,
//	                       level 6 with GOMOKU_MOVETIME as its deadline
//	GOMOKU_MOVETIME        our time per move in ms (default 1000)
//	GOMOKU_RULE            freestyle (default), standard or renju
//	GOMOKU_FROM, GOMOKU_TO, GOMOKU_OPENINGS  as for TestMatchSeed, within
//	                       the 40 Piskvork openings that fit 15x15
//	GOMOKU_NODES           ours searches each move to this many nodes with
//	                       no clock (INFO MAX_NODE, or Limits.Nodes in
//	                       process); GOMOKU_MOVETIME is then ignored
//	GOMOKU_OPPONENT_NODES  the same for the program (INFO MAX_NODE with
//	                       timeout_turn 0: Rapfi then searches to the node
//	                       count only)
//	GOMOKU_SYMMETRIES      play each selected opening in its first n of 8
//	                       symmetric images (Images; default 1): 40 x 8 x 2
//	                       = 640 games, named opening/sk
//	GOMOKU_SYMMETRIES_FROM play only images k >= this of those (default
//	                       0): with GOMOKU_SYMMETRIES=4 and 2, images s2
//	                       and s3, games new beside a run of the first two
//
// With both node counts set no clock decides anything and the same builds
// play the same games (fresh processes per game), so two builds of ours
// pair game by game (docs/benchmarks.md, twenty-fourth session).
//
// It asserts nothing about the score: it is the measurement behind
// docs/benchmarks.md, and the project's tests never need the program.
func TestMatchGomocup(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "gomocup" {
		t.Skip("set GOMOKU_MATCH=gomocup and GOMOKU_OPPONENT to play a Gomocup program")
	}
	opp := strings.Fields(os.Getenv("GOMOKU_OPPONENT"))
	if len(opp) == 0 {
		t.Fatal("GOMOKU_OPPONENT: the Gomocup program to play against")
	}
	var piskvork []Opening
	for _, o := range loadOpenings(t, 15) {
		if strings.HasPrefix(o.Name, "piskvork/") {
			piskvork = append(piskvork, o)
		}
	}
	var open []Opening
	symmetries, from := envInt("GOMOKU_SYMMETRIES", 1), max(envInt("GOMOKU_SYMMETRIES_FROM", 0), 0)
	for _, o := range selectOpenings(t, piskvork) {
		images := Images(o, 15, symmetries)
		open = append(open, images[min(from, len(images)):]...)
	}
	rule := gomoku.Freestyle
	if v := os.Getenv("GOMOKU_RULE"); v != "" {
		var err error
		if rule, err = gomoku.ParseRule(v); err != nil {
			t.Fatal(err)
		}
	}
	oursNodes := uint64(max(envInt("GOMOKU_NODES", 0), 0))
	theirNodes := uint64(max(envInt("GOMOKU_OPPONENT_NODES", 0), 0))
	ours := time.Duration(envInt("GOMOKU_MOVETIME", 1000)) * time.Millisecond
	theirs := time.Duration(envInt("GOMOKU_OPPONENT_MOVETIME", int(ours.Milliseconds()))) * time.Millisecond
	var oursDepth, theirDepth depthStats
	b := &Gomocup{
		Path: opp[0], Args: opp[1:], MoveTime: theirs, Nodes: theirNodes,
		Pause:    time.Duration(envInt("GOMOKU_OPPONENT_PAUSE", 0)) * time.Millisecond,
		Messages: theirDepth.add,
	}
	b.Label = b.Name() + "-" + budgetText(theirs, theirNodes)
	if v := os.Getenv("GOMOKU_OPPONENT_INIT"); v != "" {
		b.Init = strings.Split(v, ";")
	}
	defer b.Close()
	inProcess := &Engine{Level: gomoku.MaxLevel, MoveTime: ours, Label: "level6-" + budgetText(ours, oursNodes)}
	if oursNodes > 0 {
		inProcess.MoveTime, inProcess.Nodes = 0, oursNodes
	}
	var a Player = inProcess
	var aProg *Gomocup
	if f := strings.Fields(os.Getenv("GOMOKU_OURS")); len(f) > 0 {
		aProg = &Gomocup{Path: f[0], Args: f[1:], MoveTime: ours, Nodes: oursNodes, Messages: oursDepth.add}
		aProg.Label = aProg.Name() + "-" + budgetText(ours, oursNodes)
		defer aProg.Close()
		a = aProg
	}
	res, err := Run(context.Background(), Config{
		A: a, B: b, Size: 15, Rule: rule, Openings: open,
		Log: func(s string) { t.Log(s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rule, res)
	tb := b.Timing()
	t.Logf("%s: %d moves, mean %v, max %v per move; %s; %d moves asked twice", b.Name(), tb.Moves, tb.Mean().Round(time.Millisecond), tb.Max.Round(time.Millisecond), theirDepth, b.Retries)
	if aProg != nil {
		ta := aProg.Timing()
		t.Logf("%s: %d moves, mean %v, max %v per move; %s; %d moves asked twice", aProg.Name(), ta.Moves, ta.Mean().Round(time.Millisecond), ta.Max.Round(time.Millisecond), oursDepth, aProg.Retries)
	}
}

// budgetText names a player's budget: its node count if set, else its
// time per move.
func budgetText(d time.Duration, nodes uint64) string {
	if nodes > 0 {
		return fmt.Sprintf("%dnodes", nodes)
	}
	return d.String()
}

// TestImages checks the symmetric images of the 40 Piskvork openings on
// 15x15: image 0 is the opening, every image is a legal start (no stone
// off the board or on another, no game over), image k applied to an
// asymmetric shape gives 8 different positions, and the images of each
// opening are as many different positions as its own symmetry allows
// (8 divided by the size of its symmetry group: 1, 2, 4 or 8).
func TestImages(t *testing.T) {
	total, distinct := 0, 0
	for _, o := range loadOpenings(t, 15) {
		if !strings.HasPrefix(o.Name, "piskvork/") {
			continue
		}
		imgs := Images(o, 15, 8)
		if len(imgs) != 8 || imgs[0].Name != o.Name || !slices.Equal(imgs[0].Moves, o.Moves) || imgs[5].Name != o.Name+"/s5" {
			t.Fatalf("%s: images %v", o.Name, imgs)
		}
		for _, img := range imgs {
			b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
			for _, m := range img.Moves {
				if err := b.Play(m); err != nil {
					t.Fatalf("%s: %v: %v", img.Name, m, err)
				}
			}
			if b.Over() {
				t.Fatalf("%s: the game is over", img.Name)
			}
		}
		d := Distinct(imgs)
		if 8%d != 0 {
			t.Fatalf("%s: %d distinct images, not a divisor of 8", o.Name, d)
		}
		total += 8
		distinct += d
	}
	if total != 320 {
		t.Fatalf("%d images of the Piskvork openings, want 320", total)
	}
	t.Logf("%d images, %d distinct positions", total, distinct)
	// An L-shaped three-stone opening has no symmetry: 8 distinct images.
	l := Opening{Name: "L", Moves: []gomoku.Point{{X: 7, Y: 7}, {X: 8, Y: 7}, {X: 7, Y: 9}}}
	if d := Distinct(Images(l, 15, 8)); d != 8 {
		t.Fatalf("L shape: %d distinct images, want 8", d)
	}
	// A diagonal pair from the centre keeps only the mirror in its own
	// diagonal: 4 distinct images.
	diag := Opening{Name: "diag", Moves: []gomoku.Point{{X: 7, Y: 7}, {X: 8, Y: 8}}}
	if d := Distinct(Images(diag, 15, 8)); d != 4 {
		t.Fatalf("diagonal pair: %d distinct images, want 4", d)
	}
}

// TestMatchSelfPlay plays the engine at one fixed depth against itself at
// another (GOMOKU_MATCH=selfplay, GOMOKU_DEPTHS="3-4"; GOMOKU_LEVEL picks
// the level's other settings, default 5, whose depth-4 moves take tens of
// milliseconds), from
// every opening with both colours, and logs every game: the games the
// evaluation's pattern values are fitted on (GOMOKU_FIT in engine/gomoku
// reads the log). Fixed depths make the games reproducible; two different
// depths make the two colour-swapped games of an opening differ.
func TestMatchSelfPlay(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "selfplay" {
		t.Skip("set GOMOKU_MATCH=selfplay to play the fitting games")
	}
	a, b, _ := strings.Cut(os.Getenv("GOMOKU_DEPTHS"), "-")
	da, err1 := strconv.Atoi(a)
	db, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || da < 1 || db < 1 {
		t.Fatalf("GOMOKU_DEPTHS=%q: want two depths, e.g. 3-4", os.Getenv("GOMOKU_DEPTHS"))
	}
	rule := gomoku.Freestyle
	if v := os.Getenv("GOMOKU_RULE"); v != "" {
		var err error
		if rule, err = gomoku.ParseRule(v); err != nil {
			t.Fatal(err)
		}
	}
	level := envInt("GOMOKU_LEVEL", 5)
	res, err := Run(context.Background(), Config{
		A: &Engine{Level: level, Depth: da}, B: &Engine{Level: level, Depth: db},
		Size: 15, Rule: rule, Openings: selectOpenings(t, loadOpenings(t, 15)),
		Log: func(s string) { t.Log(s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rule, res)
}

// depthStats averages the depth Gomocup programs report in their MESSAGE
// lines ("depth 9 |" for ours, "Depth 19-31 |" for Rapfi).
type depthStats struct {
	n, sum, max int
}

func (d *depthStats) add(msg string) {
	low := strings.ToLower(msg)
	i := strings.Index(low, "depth ")
	if i < 0 {
		return
	}
	rest := low[i+len("depth "):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	v, err := strconv.Atoi(rest[:j])
	if err != nil {
		return
	}
	d.n++
	d.sum += v
	d.max = max(d.max, v)
}

func (d depthStats) String() string {
	if d.n == 0 {
		return "no depth reported"
	}
	return fmt.Sprintf("depth mean %.1f, max %d over %d reports", float64(d.sum)/float64(d.n), d.max, d.n)
}

func FuzzParseOpenings(f *testing.F) {
	f.Add("piskvork|0|3|1|1|0,0 1,0 1,3\n")
	f.Add("# comment\nx|1|1|1|1|-7,-7  # tag\n")
	f.Add("a|b|c")
	f.Fuzz(func(t *testing.T, s string) {
		open, err := ParseOpenings(strings.NewReader(s), 15)
		if err != nil {
			return
		}
		for _, o := range open {
			for _, m := range o.Moves {
				if m.X < 0 || m.Y < 0 || m.X >= 15 || m.Y >= 15 {
					t.Fatalf("%s: %v off the board", o.Name, m)
				}
			}
		}
	})
}

package match

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// fakeEngineEnv makes the test binary act as a minimal NBoard engine (see
// TestMain): it answers "go" with the first legal move, so the harness is
// tested against a real child process without any outside program.
const fakeEngineEnv = "MATCH_FAKE_NBOARD_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEngineEnv) != "" {
		fakeEngine()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough NBoard: set game (a BO[] board without
// moves, as GGF writes it), go (answered as NTest does, "=== move/eval/time"),
// ping, quit.
func fakeEngine() {
	sc := bufio.NewScanner(os.Stdin)
	var pos reversi.Position
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0:
		case f[0] == "ping":
			fmt.Println("pong", f[1])
		case f[0] == "set" && len(f) > 1 && f[1] == "depth":
			fmt.Println("set myname Fake" + f[2])
		case f[0] == "set" && len(f) > 1 && f[1] == "game":
			line := sc.Text()
			i := strings.Index(line, "BO[8 ")
			board := strings.ReplaceAll(line[i+5:i+5+64], "*", "X")
			side := reversi.Black
			if line[i+5+65] == 'O' {
				side = reversi.White
			}
			pos, _ = reversi.ParsePosition(board, side)
		case f[0] == "go":
			// The evaluation is the number of legal moves plus a half, so
			// that a test can check it was read; none when that number is
			// even, as NTest answers with a book move.
			if n := len(pos.LegalMoves()); n%2 == 0 {
				fmt.Printf("=== %s//0.0\n", pos.LegalMoves()[0])
			} else {
				fmt.Printf("=== %s/%.2f/0.0\n", pos.LegalMoves()[0], float64(n)+0.5)
			}
		case f[0] == "hint":
			// Every legal move, the i-th valued i-1 at depth 1 and i at
			// depth 2, then a win/loss/draw line that must not count, and
			// "status" to end; a bare "status" before any value does
			// not end the answer.
			fmt.Println("status")
			fmt.Println("status Analyzing")
			for d := 1; d <= 2; d++ {
				for i, m := range pos.LegalMoves() {
					fmt.Printf("search %s %+.2f 0 %d\n", strings.ToUpper(m.String()), float64(i+d-2), d)
				}
			}
			fmt.Printf("search %s +1.00 0 100%%W\n", pos.LegalMoves()[0])
			fmt.Println("status")
		case f[0] == "quit":
			return
		}
	}
}

func TestNBoardPlayer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(fakeEngineEnv, "1")
	clocks := 0 // records sent with a clock
	fake := &NBoardPlayer{Label: "fake", Path: exe, Depth: 3, Clock: func(empties, moves int, thinking time.Duration) int {
		if moves != clocks {
			t.Errorf("clock asked with %d moves played, want %d", moves, clocks)
		}
		clocks++
		return 5
	}}
	defer func() {
		if err := fake.Close(); err != nil {
			t.Error(err)
		}
	}()
	ours := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 2, Seed: 1}}
	st, err := Play(context.Background(), ours, fake, UniqueOpenings(4, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 2 {
		t.Fatalf("stats %+v", st)
	}
	if n, _ := fake.Thinking(); n < 20 || n != clocks {
		t.Errorf("the fake engine answered %d moves (%d records with a clock), want a whole game's worth, each with a clock", n, clocks)
	}
	start := reversi.Start()
	if sq, eval, err := fake.Analyse(context.Background(), start); err != nil || sq != start.LegalMoves()[0] || !math.IsNaN(eval) {
		t.Errorf("Analyse(start) = %v, %v, %v; want %v without an evaluation", sq, eval, err, start.LegalMoves()[0])
	}
	p, _ := start.Play(start.LegalMoves()[0]) // three replies
	if sq, eval, err := fake.Analyse(context.Background(), p); err != nil || sq != p.LegalMoves()[0] || eval != 3.5 {
		t.Errorf("Analyse = %v, %v, %v; want %v, 3.5", sq, eval, err, p.LegalMoves()[0])
	}
}

// TestNBoardHint asks the fake engine for the values of every move: each
// move's last value, highest first, the win/loss/draw line left out.
func TestNBoardHint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(fakeEngineEnv, "1")
	fake := &NBoardPlayer{Label: "fake", Path: exe, Depth: 3}
	defer fake.Close()
	p, _ := reversi.Replay(reversi.Start(), []reversi.Square{37, 43}) // f5 d6
	legal := p.LegalMoves()
	for range 2 { // twice, so that the second answer is not mixed with the first
		got, err := fake.Hint(context.Background(), p, 60)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(legal) {
			t.Fatalf("Hint = %v, want %d moves", got, len(legal))
		}
		for k, mv := range got {
			i := len(legal) - 1 - k
			if mv.Move != legal[i] || mv.Value != float64(i) {
				t.Errorf("Hint()[%d] = %v, want %v valued %d", k, mv, legal[i], i)
			}
		}
	}
}

func TestParseHintLine(t *testing.T) {
	tests := []struct {
		line string
		sq   string
		v    float64
		ok   bool
		bad  bool
	}{
		{"search F1       -21.91 0   1", "f1", -21.91, true, false},
		{"search b5 +3.00 0 18", "b5", 3, true, false},
		{"book c4 +0.50 120 20", "c4", 0.5, true, false},
		{"search A5 +1.00 0 100%W", "", 0, false, false},
		{"search A5 -2.00 0  97% ", "a5", -2, true, false},
		{"search PA-F1 +2.00 0 12", "", 0, false, false},
		{"status Analyzing", "", 0, false, false},
		{"search z9 +1.00 0 3", "", 0, false, true},
		{"search f5 x 0 3", "", 0, false, true},
		{"search f5 NaN 0 3", "", 0, false, true},
		{"book f5 +Inf 0 3", "", 0, false, true},
	}
	for _, tc := range tests {
		sq, v, ok, err := parseHintLine(tc.line)
		if (err != nil) != tc.bad || ok != tc.ok || (ok && (sq.String() != tc.sq || v != tc.v)) {
			t.Errorf("parseHintLine(%q) = %v, %v, %v, %v", tc.line, sq, v, ok, err)
		}
	}
}

// FuzzParseHintLine checks that any line is read without a panic, and that
// a value read, written back as a search line, reads the same.
func FuzzParseHintLine(f *testing.F) {
	for _, l := range []string{"search F1 -21.91 0 1", "book c4 +0.50 120 20", "search A5 +1.00 0 100%W",
		"search PA-F1 +2.00 0 12", "status Analyzing", "search z9 +1.00 0 3", "search f5 NaN 0 3", ""} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		sq, v, ok, err := parseHintLine(l)
		if err != nil && ok {
			t.Fatalf("%q: ok with an error %v", l, err)
		}
		if !ok {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || sq == reversi.NoSquare {
			t.Fatalf("%q: read %v %v", l, sq, v)
		}
		back := fmt.Sprintf("search %s %s 0 18", sq, strconv.FormatFloat(v, 'g', -1, 64))
		if sq2, v2, ok2, err2 := parseHintLine(back); !ok2 || err2 != nil || sq2 != sq || v2 != v {
			t.Fatalf("%q read %v %v; %q reads %v %v %v %v", l, sq, v, back, sq2, v2, ok2, err2)
		}
	})
}

func TestGGF(t *testing.T) {
	p, _ := reversi.Replay(reversi.Start(), []reversi.Square{37})
	want := "(;GM[Othello]PC[match]BO[8 ---------------------------O*------***-------------------------- O];)"
	if got := GGF(p); got != want {
		t.Errorf("GGF = %s, want %s", got, want)
	}
}

func TestUniqueOpenings(t *testing.T) {
	for _, c := range []struct{ plies, want int }{
		{1, 1}, // the four first moves are one up to symmetry
		{2, 3}, // perpendicular, parallel and diagonal openings
	} {
		if got := len(UniqueOpenings(c.plies, 1000)); got != c.want {
			t.Errorf("%d plies: %d unique lines, want %d", c.plies, got, c.want)
		}
	}
	if got := len(UniqueOpenings(6, 40)); got != 40 {
		t.Errorf("got %d six-ply lines, want 40", got)
	}
}

func TestPickOpenings(t *testing.T) {
	forty, eighty := UniqueOpenings(6, 40), UniqueOpenings(6, 80)
	even, err := pickOpenings(eighty, "0:80:2")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(even) != fmt.Sprint(forty) {
		t.Errorf("every other one of 80 openings is not the 40")
	}
	odd, err := pickOpenings(eighty, "1:80:2")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range forty {
		seen[fmt.Sprint(o)] = true
	}
	for _, o := range odd {
		if seen[fmt.Sprint(o)] {
			t.Errorf("opening %v is in both halves", o)
		}
	}
	if got, err := pickOpenings(forty, "20:40"); err != nil || len(got) != 20 || fmt.Sprint(got[0]) != fmt.Sprint(forty[20]) {
		t.Errorf("20:40 gives %d openings (%v)", len(got), err)
	}
	for _, bad := range []string{"", "5", "10:5", "0:41", "0:10:0"} {
		if _, err := pickOpenings(forty, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestMatchNBoard plays the engine at a fixed time per move against any
// NBoard engine at a fixed depth, from symmetry-unique openings, both
// colours; it runs only when REVERSI_NBOARD names the program:
//
//	REVERSI_NBOARD=/tmp/ntest/build/ntest REVERSI_NBOARD_DEPTH=20 REVERSI_MATCH_MOVETIME=300ms \
//	REVERSI_MATCH_GAMES=20 nice -n 10 go test -run TestMatchNBoard -v -timeout 120m ./engine/reversi/internal/match
//
// REVERSI_MATCH_GAMES is the number of openings (each played twice),
// REVERSI_MATCH_PLIES their length (6). REVERSI_MATCH_OPENINGS=from:to
// plays only openings from..to-1 of those (counting from 0), so that a long
// match can run as chunks: REVERSI_MATCH_GAMES=20 with 0:5, 5:10, 10:15 and
// 15:20 plays the same 40 games as one run; from:to:step plays every
// step-th. The openings of REVERSI_MATCH_GAMES=n are every other one of
// 2n's, so REVERSI_MATCH_GAMES=80 with 1:80:2 plays 40 openings that
// REVERSI_MATCH_GAMES=40 does not. The program runs in its own
// directory (NTest reads its evaluation files from there). The report gives
// both sides' average time per move, and our average nodes per move.
// REVERSI_MATCH_RECORDS=PATH appends each game's record to PATH, one line a
// game (Record.String; our moves' notes give the depth and score of the
// search that chose them).
//
// REVERSI_MATCH_DEPTH=d plays ours at a fixed depth d (level 10, its
// selective search and exact endgame as in play) with no deadline, against
// NTest at REVERSI_NBOARD_DEPTH: no clock decides a move, so the same
// build over the same openings plays the same games, two builds' games
// differ only where their choices do, and hundreds of games take minutes.
// REVERSI_MATCH_NODES=n does the same with a node budget a move instead of
// a depth (Limits.Nodes: the search is cut after about n nodes, as a
// deadline would cut it, but at the same point every time): it compares
// builds whose searches differ, at equal work, without the machine's load
// deciding anything.
//
// REVERSI_NBOARD_EQUAL=1 plays at equal time instead of NTest's fixed depth:
// NTest is started in its match-time mode (`ntest x m`) and each record
// carries a clock (NTestClock) that makes it aim at our average time per
// move so far, corrected by the difference of the two totals (EqualTime),
// so that both sides' time per move comes out about the same.
// REVERSI_NBOARD_SHARE=x (with REVERSI_NBOARD_EQUAL=1) plays at time odds
// instead: NTest aims at x times our time (0.5: half of ours; 2: twice), to
// measure what time is worth to either side.
func TestMatchNBoard(t *testing.T) {
	path := os.Getenv("REVERSI_NBOARD")
	if path == "" {
		t.Skip("set REVERSI_NBOARD to an NBoard engine to play it")
	}
	depth := 12
	if d, err := strconv.Atoi(os.Getenv("REVERSI_NBOARD_DEPTH")); err == nil {
		depth = d
	}
	moveTime := 300 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("REVERSI_MATCH_MOVETIME")); err == nil && d > 0 {
		moveTime = d
	}
	plies := 6
	if n, err := strconv.Atoi(os.Getenv("REVERSI_MATCH_PLIES")); err == nil && n > 0 {
		plies = n
	}
	n := 20
	if v, err := strconv.Atoi(os.Getenv("REVERSI_MATCH_GAMES")); err == nil && v > 0 {
		n = v
	}
	openings := UniqueOpenings(plies, n)
	if r := os.Getenv("REVERSI_MATCH_OPENINGS"); r != "" {
		var err error
		if openings, err = pickOpenings(openings, r); err != nil {
			t.Fatal(err)
		}
	}
	dir := path[:strings.LastIndexByte(path, '/')+1]
	them := &NBoardPlayer{Path: path, Dir: dir, Depth: depth}
	defer them.Close()
	limits := reversi.Limits{Level: reversi.MaxLevel}
	control := moveTime.String() + " a move"
	if v := os.Getenv("REVERSI_MATCH_DEPTH"); v != "" {
		d, err := strconv.Atoi(v)
		if err != nil || d < 1 || d > 60 {
			t.Fatalf("REVERSI_MATCH_DEPTH=%q: want a depth from 1 to 60", v)
		}
		limits.Depth, moveTime, control = d, 0, fmt.Sprintf("depth %d", d)
	}
	if v := os.Getenv("REVERSI_MATCH_NODES"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n < 1000 {
			t.Fatalf("REVERSI_MATCH_NODES=%q: want a node budget of at least 1000", v)
		}
		limits.Nodes, moveTime = n, 0
		if limits.Depth > 0 {
			control += fmt.Sprintf(", at most %d nodes", n)
		} else {
			control = fmt.Sprintf("%d nodes", n)
		}
	}
	if moveTime == 0 && os.Getenv("REVERSI_NBOARD_EQUAL") == "1" {
		t.Fatal("REVERSI_MATCH_DEPTH and REVERSI_MATCH_NODES play ours without a clock against NTest at a fixed depth: leave REVERSI_NBOARD_EQUAL unset")
	}
	ours := &clocked{Player: EnginePlayer{Engine: reversi.NewEngine(), Limits: limits, Last: new(reversi.Result)}, moveTime: moveTime}
	share := 1.0
	if v := os.Getenv("REVERSI_NBOARD_SHARE"); v != "" {
		var err error
		if share, err = strconv.ParseFloat(v, 64); err != nil || share <= 0 || share > 100 {
			t.Fatalf("REVERSI_NBOARD_SHARE=%q: want a number above 0 and at most 100 (NTest's time as a multiple of ours)", v)
		}
	}
	if os.Getenv("REVERSI_NBOARD_EQUAL") == "1" {
		them.Args = []string{"x", "m"}
		them.Label = path + " at equal time"
		if share != 1 {
			them.Label = fmt.Sprintf("%s at %g times our time", path, share)
		}
		them.Clock = func(empties, moves int, thinking time.Duration) int {
			total := time.Duration(float64(ours.total) * share)
			return NTestClock(empties, EqualTime(ours.moves, total, moves, thinking, time.Duration(float64(moveTime*2/3)*share)))
		}
	}
	records := recordsFile(t)
	start := time.Now()
	st, err := Play(context.Background(), ours, them, openings, func(st Stats, r Record) {
		m, d := them.Thinking()
		t.Logf("game %d: %v; ours %.3f s and %.0f nodes a move, theirs %.3f s", st.Games, st, ours.average(), ours.averageNodes(), d.Seconds()/float64(max(m, 1)))
		records(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	m, d := them.Thinking()
	se := 1.96 * math.Sqrt(st.Score()*(1-st.Score())/float64(st.Games))
	t.Logf("ours (%s) vs %s: %v (±%.1f%%); ours %.3f s and %.0f nodes a move, theirs %.3f s; %v",
		control, them.Name(), st, 100*se, ours.average(), ours.averageNodes(), d.Seconds()/float64(max(m, 1)), time.Since(start).Round(time.Second))
}

// pickOpenings returns the openings from..to-1 named by spec, "from:to",
// or every step-th of them with "from:to:step".
func pickOpenings(openings [][]reversi.Square, spec string) ([][]reversi.Square, error) {
	var from, to, step int
	n, _ := fmt.Sscanf(spec, "%d:%d:%d", &from, &to, &step)
	if n == 2 {
		step = 1
	}
	if n < 2 || from < 0 || to > len(openings) || from >= to || step < 1 {
		return nil, fmt.Errorf("REVERSI_MATCH_OPENINGS=%q: want from:to or from:to:step within 0:%d", spec, len(openings))
	}
	var out [][]reversi.Square
	for i := from; i < to; i += step {
		out = append(out, openings[i])
	}
	return out, nil
}

// recordsFile returns a function that appends each game's record as a line
// to the file named by REVERSI_MATCH_RECORDS, or does nothing when it is
// not set.
func recordsFile(t *testing.T) func(Record) {
	path := os.Getenv("REVERSI_MATCH_RECORDS")
	if path == "" {
		return func(Record) {}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return func(r Record) {
		if _, err := fmt.Fprintln(f, r); err != nil {
			t.Error(err)
		}
	}
}

// clocked gives each move of a player a fixed time and keeps the total.
type clocked struct {
	Player
	moveTime time.Duration
	moves    int
	total    time.Duration
	nodes    uint64 // searched, when the player is an EnginePlayer with Last
}

func (c *clocked) Move(ctx context.Context, p reversi.Position) (reversi.Square, error) {
	if c.moveTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.moveTime)
		defer cancel()
	}
	start := time.Now()
	m, err := c.Player.Move(ctx, p)
	c.moves++
	c.total += time.Since(start)
	if e, ok := c.Player.(EnginePlayer); ok && e.Last != nil {
		c.nodes += e.Last.Nodes
	}
	return m, err
}

// averageNodes is the mean number of nodes searched a move (0 when the
// player does not report them).
func (c *clocked) averageNodes() float64 {
	if c.moves == 0 {
		return 0
	}
	return float64(c.nodes) / float64(c.moves)
}

// Note passes on the player's note about its last move.
func (c *clocked) Note() string {
	if n, ok := c.Player.(Noter); ok {
		return n.Note()
	}
	return ""
}

func (c *clocked) average() float64 {
	if c.moves == 0 {
		return 0
	}
	return c.total.Seconds() / float64(c.moves)
}

func TestGGFClock(t *testing.T) {
	want := "(;GM[Othello]PC[match]TI[7]BO[8 ---------------------------O*------*O--------------------------- *];)"
	if got := GGFClock(reversi.Start(), 7); got != want {
		t.Errorf("GGFClock = %s, want %s", got, want)
	}
}

func TestNTestClock(t *testing.T) {
	// NTest plans t = 2(R - 0.087 n)/(n - 20) from 24 empties, (R - 0.087 n)/2
	// below: the clock must plan close to the wanted time where whole
	// seconds allow, and never fall to the reserve (NTest then takes 2 s).
	for _, c := range []struct {
		empties int
		want    time.Duration
		clock   int
	}{
		{60, 300 * time.Millisecond, 11}, // 5.22 + 6 = 11.22
		{44, 300 * time.Millisecond, 7},  // 3.83 + 3.6 = 7.43
		{24, 300 * time.Millisecond, 3},  // 2.09 + 0.6 = 2.69
		{24, 0, 3},                       // the reserve, 2.09, plus a second
		{12, 3 * time.Second, 7},         // 1.04 + 6
	} {
		if got := NTestClock(c.empties, c.want); got != c.clock {
			t.Errorf("NTestClock(%d, %v) = %d, want %d", c.empties, c.want, got, c.clock)
		}
	}
}

func TestEqualTime(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name              string
		firstMoves        int
		firstTotal        time.Duration
		secondMoves       int
		secondTotal, want time.Duration
	}{
		{"no moves yet", 0, 0, 0, 0, 200 * ms},
		{"even", 10, 3000 * ms, 10, 3000 * ms, 300 * ms},
		{"behind: catch up", 10, 3000 * ms, 10, 2500 * ms, 800 * ms},
		{"far ahead: a quarter", 10, 3000 * ms, 10, 6000 * ms, 75 * ms},
		{"far behind: four times", 10, 3000 * ms, 10, 0, 1200 * ms},
	} {
		if got := EqualTime(c.firstMoves, c.firstTotal, c.secondMoves, c.secondTotal, 200*ms); got != c.want {
			t.Errorf("%s: EqualTime = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseMoveAnswer(t *testing.T) {
	for _, c := range []struct {
		line string
		sq   reversi.Square
		eval float64 // NaN: none
		bad  bool
	}{
		{line: "=== f5/-1.25/0.30", sq: 37, eval: -1.25},
		{line: "=== F5 2.5 0.1", sq: 37, eval: 2.5},
		{line: "=== d3//0.30", sq: 19, eval: math.NaN()},
		{line: "=== a1", sq: 0, eval: math.NaN()},
		{line: "=== PA/0/0", sq: reversi.Pass, eval: 0},
		{line: "===", bad: true},
		{line: "=== i9/0/0", bad: true},
		{line: "=== f5/x/0", bad: true},
	} {
		sq, eval, err := parseMoveAnswer(c.line)
		switch {
		case c.bad && err == nil:
			t.Errorf("%q: accepted as %v %v", c.line, sq, eval)
		case !c.bad && err != nil:
			t.Errorf("%q: %v", c.line, err)
		case !c.bad && (sq != c.sq || math.IsNaN(eval) != math.IsNaN(c.eval) || !math.IsNaN(c.eval) && eval != c.eval):
			t.Errorf("%q: %v %v, want %v %v", c.line, sq, eval, c.sq, c.eval)
		}
	}
}

// FuzzParseMoveAnswer: an answer is read as a square on the board or a
// pass, or refused with an error; never a panic.
func FuzzParseMoveAnswer(f *testing.F) {
	for _, s := range []string{"=== f5/-1.25/0.30", "=== f5 -1.25 0.30", "=== d3//0.30", "===", "=== pa", "=== f5/1e999/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		sq, _, err := parseMoveAnswer(line)
		if err == nil && sq != reversi.Pass && (sq < 0 || sq > 63) {
			t.Fatalf("%q: square %d", line, sq)
		}
	})
}

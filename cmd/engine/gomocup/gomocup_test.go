package gomocup

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// driver plays the manager: it sends a command and reads the answer,
// waiting on the engine's output (never on the clock).
type driver struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newDriver(t *testing.T) *driver {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	d := &driver{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		err := Run(context.Background(), inR, outW)
		outW.Close()
		d.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		// Drain so the engine never blocks on a write, then collect Run's result.
		go io.Copy(io.Discard, outR)
		<-d.done
	})
	return d
}

func (d *driver) send(lines ...string) {
	d.t.Helper()
	for _, l := range lines {
		if _, err := fmt.Fprintf(d.in, "%s\r\n", l); err != nil {
			d.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// answer returns the next line that is not a MESSAGE or DEBUG line, and
// the MESSAGE lines before it.
func (d *driver) answer() (string, []string) {
	d.t.Helper()
	var msgs []string
	for d.out.Scan() {
		l := d.out.Text()
		if strings.HasPrefix(l, "MESSAGE") || strings.HasPrefix(l, "DEBUG") {
			msgs = append(msgs, l)
			continue
		}
		return l, msgs
	}
	d.t.Fatalf("engine output ended: %v", d.out.Err())
	return "", nil
}

func (d *driver) expect(want string) {
	d.t.Helper()
	if got, _ := d.answer(); got != want {
		d.t.Fatalf("got %q, want %q", got, want)
	}
}

func (d *driver) expectPrefix(prefix string) string {
	d.t.Helper()
	got, _ := d.answer()
	if !strings.HasPrefix(got, prefix) {
		d.t.Fatalf("got %q, want %s...", got, prefix)
	}
	return got
}

// move reads a move answer and checks it is on the board.
func (d *driver) move(size int) (int, int) {
	d.t.Helper()
	got, _ := d.answer()
	xs, ys, ok := strings.Cut(got, ",")
	x, err1 := strconv.Atoi(xs)
	y, err2 := strconv.Atoi(ys)
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 || x >= size || y >= size {
		d.t.Fatalf("answer %q is not a move on %dx%d", got, size, size)
	}
	return x, y
}

func TestSessionBasics(t *testing.T) {
	d := newDriver(t)
	d.send("ABOUT")
	if got := d.expectPrefix(`name="boardhall"`); !strings.Contains(got, "version=") {
		t.Fatalf("ABOUT: %q", got)
	}
	d.send("BEGIN")
	d.expectPrefix("ERROR") // no board yet
	d.send("START 21")
	d.expectPrefix("ERROR")
	d.send("START 20") // the Gomocup freestyle league's board
	d.expect("OK")
	d.send("INFO timeout_turn 100", "BOARD", "19,19,1", "19,18,2", "DONE")
	d.move(20)
	d.send("START 15")
	d.expect("OK")
	d.send("INFO timeout_turn 300", "INFO timeout_match 0", "INFO max_memory 0", "INFO rule 0", "INFO game_type 1", "INFO folder /tmp")
	d.send("BEGIN")
	if x, y := d.move(15); x != 7 || y != 7 {
		t.Fatalf("BEGIN answered %d,%d, want the centre 7,7", x, y)
	}
	d.send("TURN 8,8")
	x, y := d.move(15)
	if (x == 7 && y == 7) || (x == 8 && y == 8) {
		t.Fatalf("answered an occupied point %d,%d", x, y)
	}
	d.send(fmt.Sprintf("TAKEBACK %d,%d", x, y))
	d.expect("OK")
	d.send("TAKEBACK 1,1")
	d.expectPrefix("ERROR")
	d.send("TURN 8,8") // occupied: our take-back removed only our stone
	d.expectPrefix("ERROR")
	d.send("TURN 99,1")
	d.expectPrefix("ERROR")
	d.send("TURN x")
	d.expectPrefix("ERROR")
	d.send("FOOBAR 1")
	d.expectPrefix("UNKNOWN")
	d.send("", "RESTART")
	d.expect("OK")
	d.send("RECTSTART 15,15")
	d.expect("OK")
	d.send("RECTSTART 15,20")
	d.expectPrefix("ERROR")
	d.send("END")
	if err := <-d.done; err != nil {
		t.Fatalf("Run after END: %v", err)
	}
	d.done <- nil // for the cleanup
}

func TestSessionBoard(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		lines []string
		want  string // exact answer, or "" for any move
		err   bool
	}{
		// We are black (equal counts) with four in a row: take the five.
		{"win now", "0", []string{"3,7,1", "4,7,1", "5,7,1", "6,7,1", "3,8,2", "4,8,2", "5,8,2", "10,10,2"}, "", false},
		// We are white (one stone fewer): block the opponent's four.
		{"block", "1", []string{"3,7,2", "4,7,2", "5,7,2", "6,7,2", "0,0,1", "14,14,1", "0,14,1"}, "", false},
		{"counts", "0", []string{"3,7,1", "4,7,1", "5,7,1"}, "", true},
		{"bad field", "0", []string{"3,7,4"}, "", true},
		{"continuous field", "0", []string{"3,7,3"}, "", true},
		{"off board", "0", []string{"15,7,1", "1,1,2"}, "", true},
		{"twice", "0", []string{"3,7,1", "3,7,2"}, "", true},
		// Renju: black's first listed stones in order; h8 is not forbidden.
		{"renju", "4", []string{"7,7,1", "8,8,2", "6,6,1", "9,9,2"}, "", false},
		// Exactly five: our six in a row (an overline, no win) listed end
		// to end; replayed as listed, the first five stones would end the
		// game. Any order the protocol allows must be placed.
		{"six listed in line order", "1", []string{"2,7,1", "3,7,1", "4,7,1", "5,7,1", "6,7,1", "7,7,1",
			"2,9,2", "3,9,2", "4,9,2", "6,9,2", "7,9,2", "9,12,2", "0,0,2"}, "", false},
		{"six listed opponent first", "1", []string{"2,11,2", "9,9,2", "3,11,2", "4,11,2", "5,11,2", "6,11,2", "7,11,2",
			"0,0,1", "0,2,1", "0,4,1", "0,6,1", "0,8,1", "0,10,1"}, "", false},
		// Two fives of one colour: no legal order ends the game only at
		// the last stone.
		{"two fives", "0", []string{"0,0,1", "1,0,1", "2,0,1", "3,0,1", "4,0,1", "0,5,1", "1,5,1", "2,5,1", "3,5,1", "4,5,1",
			"0,9,2", "2,9,2", "4,9,2", "6,9,2", "8,9,2", "10,9,2", "12,9,2", "14,9,2", "0,12,2", "2,12,2"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t)
			d.send("START 15", "INFO timeout_turn 200", "INFO rule "+tc.rule)
			d.expect("OK")
			d.send("BOARD")
			d.send(tc.lines...)
			d.send("DONE")
			if tc.err {
				d.expectPrefix("ERROR")
				return
			}
			x, y := d.move(15)
			switch tc.name {
			case "win now":
				if !(y == 7 && (x == 2 || x == 7)) {
					t.Fatalf("did not take the five: %d,%d", x, y)
				}
			case "block":
				if !(y == 7 && (x == 2 || x == 7)) {
					t.Fatalf("did not block the four: %d,%d", x, y)
				}
			}
		})
	}
}

func TestSessionInfoProblems(t *testing.T) {
	d := newDriver(t)
	d.send("INFO rule 8", "INFO max_memory 1000", "INFO timeout_turn abc")
	d.send("START 15")
	got, msgs := d.answer()
	if got != "OK" || len(msgs) != 3 {
		t.Fatalf("got %q after %q; want three MESSAGE lines then OK", got, msgs)
	}
	// timeout_turn 0: play at once (a one-ply search).
	d.send("INFO timeout_turn 0", "INFO rule 1", "BEGIN")
	d.move(15)
	d.send("TURN 0,0")
	d.move(15)
}

// TestSessionGame plays a whole game against a scripted opponent that
// always answers on the first free point of a fixed walk, checking every
// answer is legal, until the engine wins.
func TestSessionGame(t *testing.T) {
	d := newDriver(t)
	d.send("START 15", "INFO timeout_turn 100", "INFO time_left 100000", "INFO timeout_match 200000", "INFO rule 1")
	d.expect("OK")
	used := map[[2]int]bool{}
	d.send("BEGIN")
	x, y := d.move(15)
	used[[2]int{x, y}] = true
	for turn := 0; turn < 60; turn++ {
		// The opponent plays along the bottom edge: harmless.
		var ox, oy int
		for ox, oy = 0, 0; used[[2]int{ox, oy}]; {
			ox++
			if ox == 15 {
				ox, oy = 0, oy+1
			}
		}
		used[[2]int{ox, oy}] = true
		d.send(fmt.Sprintf("TURN %d,%d", ox, oy))
		got, _ := d.answer()
		if strings.HasPrefix(got, "ERROR") {
			t.Fatalf("turn %d: %s", turn, got)
		}
		xs, ys, _ := strings.Cut(got, ",")
		x, _ = strconv.Atoi(xs)
		y, _ = strconv.Atoi(ys)
		if used[[2]int{x, y}] {
			t.Fatalf("turn %d: engine played the occupied %d,%d", turn, x, y)
		}
		used[[2]int{x, y}] = true
		if won(used, x, y) {
			return
		}
	}
	t.Fatal("the engine did not beat an opponent filling the edge")
}

// won is a crude check that the engine's stone at x,y is part of five of
// its stones; the opponent's stones lie on rows 0 and 1 only.
func won(used map[[2]int]bool, x, y int) bool {
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, s := range []int{1, -1} {
			for k := 1; ; k++ {
				p := [2]int{x + s*k*d[0], y + s*k*d[1]}
				if !used[p] || p[1] <= 1 {
					break
				}
				n++
			}
		}
		if n >= 5 {
			return true
		}
	}
	return false
}

// TestSessionLongLine sends a line over the 1 MiB limit: the engine
// answers ERROR for it and goes on with the next command.
func TestSessionLongLine(t *testing.T) {
	d := newDriver(t)
	d.send("START 15")
	d.expect("OK")
	d.send(strings.Repeat("x", maxLine+4096))
	d.expectPrefix("ERROR line longer")
	d.send("ABOUT")
	d.expectPrefix(`name="boardhall"`)
	d.send("BOARD", "7,7,2", strings.Repeat("7", 3*maxLine/2), "DONE")
	d.expectPrefix("ERROR BOARD")
	d.send("INFO timeout_turn 50", "BEGIN")
	d.move(15)
}

// TestBudget checks the time per move: the margin scales with short turn
// times and is capped for long ones; the match clock's share applies.
func TestBudget(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name                  string
		turn, match, timeLeft time.Duration
		want                  time.Duration
	}{
		{"50 ms turn keeps a fifth", 50 * ms, 0, -1, 40 * ms},
		{"100 ms turn", 100 * ms, 0, -1, 80 * ms},
		{"1 s turn keeps 40 ms", 1000 * ms, 0, -1, 960 * ms},
		{"5 s turn", 5000 * ms, 0, -1, 4960 * ms},
		{"as fast as possible", 0, 0, -1, fastMove},
		{"match clock share", 5000 * ms, 100_000 * ms, 25_000 * ms, 960 * ms},
		{"unlimited match", 1000 * ms, 0, 25_000 * ms, 960 * ms},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &session{turn: tc.turn, match: tc.match, timeLeft: tc.timeLeft}
			if got := s.budget(); got != tc.want {
				t.Fatalf("budget = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPlaceStones checks the BOARD placement against the listed order.
func TestPlaceStones(t *testing.T) {
	pts := func(s string) []gomoku.Point {
		ps, err := gomoku.ParseRecord(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	tests := []struct {
		name         string
		rule         gomoku.Rule
		black, white string
		ok           bool
	}{
		{"move order", gomoku.Freestyle, "h8 i9", "h9 a1", true},
		{"standard six, ends listed first", gomoku.Standard, "c8 h8 d8 e8 f8 g8", "c10 d10 e10 g10 h10 o15", true},
		{"standard six, white", gomoku.Standard, "a1 a3 a5 a7 a9 a11", "c8 d8 e8 f8 g8 h8", true},
		{"freestyle five is the last stone", gomoku.Freestyle, "c8 d8 e8 f8 g8", "a1 a3 a5 a7", true},
		{"freestyle six, inner stone last", gomoku.Freestyle, "c8 d8 e8 f8 g8 h8", "a1 a3 a5 a7 a9", true},
		{"two fives cannot be placed", gomoku.Freestyle, "c8 d8 e8 f8 g8 c4 d4 e4 f4 g4", "a1 a3 a5 a7 a9 a11 a13 o1 o3 o5", false},
		{"renju forbidden only in listed order", gomoku.Renju, "h8 j8 i9 i10", "a1 a3 a5 o15", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := gomoku.NewBoard(15, tc.rule)
			err := placeStones(b, pts(tc.black), pts(tc.white))
			if (err == nil) != tc.ok {
				t.Fatalf("placeStones: %v, want ok %v", err, tc.ok)
			}
			if err == nil && b.MoveCount() != len(pts(tc.black))+len(pts(tc.white)) {
				t.Fatalf("%d stones placed", b.MoveCount())
			}
		})
	}
}

func FuzzPlaceStones(f *testing.F) {
	f.Add("c8h8d8e8f8g8", "c10d10e10g10h10o15", uint8(1))
	f.Add("h8i9", "h9a1", uint8(0))
	f.Add("h8j8i9i10", "a1a3a5o15", uint8(2))
	f.Fuzz(func(t *testing.T, black, white string, rule uint8) {
		bs, err1 := gomoku.ParseRecord(black, 15)
		ws, err2 := gomoku.ParseRecord(white, 15)
		if err1 != nil || err2 != nil || len(bs)+len(ws) > 40 || (len(bs) != len(ws) && len(bs) != len(ws)+1) {
			return
		}
		b, _ := gomoku.NewBoard(15, gomoku.Rule(rule%3))
		if err := placeStones(b, bs, ws); err != nil {
			return
		}
		// Placed: every listed stone is there with its colour, and only
		// the last stone may have ended the game.
		for c, set := range [][]gomoku.Point{bs, ws} {
			for _, p := range set {
				if got, ok := b.At(p); !ok || got != gomoku.Color(c) {
					t.Fatalf("%v: want colour %d", p, c)
				}
			}
		}
		if b.MoveCount() != len(bs)+len(ws) {
			t.Fatalf("%d stones placed of %d", b.MoveCount(), len(bs)+len(ws))
		}
	})
}

func TestScoreText(t *testing.T) {
	for _, tc := range []struct {
		in   int
		want string
	}{{42, "42"}, {-7, "-7"}, {1_000_000 - 5, "+W5"}, {-(1_000_000 - 4), "-L4"}} {
		if got := scoreText(tc.in); got != tc.want {
			t.Errorf("scoreText(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSession(f *testing.F) {
	f.Add("START 15\nBEGIN\nTURN 1,1\n")
	f.Add("BOARD\n1,1,1\nDONE\nTAKEBACK 1,1\n")
	f.Add("START 19\nINFO rule 4\nRECTSTART 3,3\nABOUT\nPLAY 0,0\n")
	f.Add("START 15\nINFO timeout_turn 0\nBOARD\n7,7,2\nDONE\nSWAP2BOARD\nDONE\n")
	f.Add("START 20\nINFO rule 1\nBOARD\n2,7,1\n3,7,1\n4,7,1\n5,7,1\n6,7,1\n7,7,1\n2,9,2\n3,9,2\n4,9,2\n6,9,2\n7,9,2\n9,12,2\n0,0,2\nDONE\n")
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 2000 {
			return
		}
		// Keep searches short: every session gets a tiny move time first.
		in := strings.NewReader("INFO timeout_turn 0\n" + strings.ReplaceAll(script, "timeout_turn", "x"))
		var out strings.Builder
		if err := Run(context.Background(), in, &out); err != nil {
			t.Fatalf("Run: %v", err)
		}
	})
}

// searchLine sends a middle-game position with BOARD and returns the
// move and the MESSAGE line before it with its machine-dependent fields
// (speed, time) cut out, and the node count it reports.
func (d *driver) searchLine() (string, string, uint64) {
	d.t.Helper()
	d.send("BOARD", "7,7,1", "8,8,2", "8,7,1", "6,7,2", "7,9,1", "9,9,2", "DONE")
	got, msgs := d.answer()
	if len(msgs) == 0 {
		d.t.Fatalf("no MESSAGE before the move %q", got)
	}
	msg := msgs[len(msgs)-1]
	var keep []string
	var nodes uint64
	for _, f := range strings.Split(msg, " | ") {
		if strings.HasPrefix(f, "speed ") || strings.HasPrefix(f, "time ") {
			continue
		}
		if v, ok := strings.CutPrefix(f, "nodes "); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				d.t.Fatalf("nodes in %q: %v", msg, err)
			}
			nodes = n
		}
		keep = append(keep, f)
	}
	return got, strings.Join(keep, " | "), nodes
}

// TestSessionMaxNode checks INFO MAX_NODE: good values set the node limit,
// bad ones answer one ERROR line and keep the limit set before (nothing
// else in the session is lost: the next command is answered as usual).
func TestSessionMaxNode(t *testing.T) {
	const before = 30000
	tests := []struct {
		val       string
		err       bool
		wantLimit uint64 // the limit in force afterwards (0: none)
	}{
		{"50000", false, 50000},
		{"0", false, 0},
		{"18446744073709551615", false, 0}, // Rapfi's "no limit" too
		{"abc", true, before},
		{"-5", true, before},
		{"1.5", true, before},
		{"", true, before},
		{"18446744073709551616", true, before}, // beyond uint64
	}
	for _, tc := range tests {
		t.Run(tc.val, func(t *testing.T) {
			d := newDriver(t)
			d.send("START 15", "INFO timeout_turn 60000", fmt.Sprintf("INFO MAX_NODE %d", before))
			d.expect("OK")
			d.send("INFO max_node " + tc.val) // keys are case-insensitive
			if tc.err {
				got := d.expectPrefix("ERROR INFO max_node")
				if !strings.Contains(got, "want a whole number") || !strings.Contains(got, fmt.Sprint(before)) {
					t.Fatalf("unclear error %q", got)
				}
			}
			if tc.wantLimit == 0 {
				// No node limit: the clock rules; a short turn keeps it quick.
				d.send("INFO timeout_turn 100")
			}
			_, _, nodes := d.searchLine()
			if tc.wantLimit > 0 && (nodes == 0 || nodes > tc.wantLimit+tc.wantLimit/50) {
				t.Fatalf("%d nodes searched under a limit of %d", nodes, tc.wantLimit)
			}
			d.send("ABOUT")
			d.expectPrefix(`name="boardhall"`)
		})
	}
}

// TestSessionMaxNodeReplacesTime checks that a node limit replaces every
// time setting: with MAX_NODE set, a 1 ms turn, a 60 s turn, "as fast as
// possible" (0) and a nearly spent match clock search the same tree (same
// depth, score, nodes, variation and move), so a match at node budgets is
// reproducible; without MAX_NODE, timeout_turn 0 searches at most one ply.
func TestSessionMaxNodeReplacesTime(t *testing.T) {
	const limit = 40000
	settings := [][]string{
		{"INFO timeout_turn 60000"},
		{"INFO timeout_turn 1"},
		{"INFO timeout_turn 0"},
		{"INFO timeout_turn 5000", "INFO timeout_match 10000", "INFO time_left 1"},
	}
	var first, firstMove string
	for k, set := range settings {
		d := newDriver(t)
		d.send("START 15")
		d.expect("OK")
		d.send(set...)
		d.send(fmt.Sprintf("INFO MAX_NODE %d", limit))
		move, msg, nodes := d.searchLine()
		if nodes == 0 || nodes > limit+limit/50 {
			t.Fatalf("%v: %d nodes for a limit of %d", set, nodes, limit)
		}
		if k == 0 {
			first, firstMove = msg, move
			if strings.HasPrefix(msg, "MESSAGE depth 1 |") {
				t.Fatalf("%v: a one-ply search under a node limit: %q", set, msg)
			}
			continue
		}
		if msg != first || move != firstMove {
			t.Fatalf("%v: %q then %s, want %q then %s as with a 60 s turn", set, msg, move, first, firstMove)
		}
	}
	d := newDriver(t)
	d.send("START 15")
	d.expect("OK")
	d.send("INFO timeout_turn 0", "INFO MAX_NODE 0")
	// The clock rules again: a one-ply search in 20 ms, which a loaded
	// machine (the race detector in CI) may cut before its one ply ends.
	_, msg, _ := d.searchLine()
	var depth int
	if _, err := fmt.Sscanf(msg, "MESSAGE depth %d |", &depth); err != nil || depth > 1 {
		t.Fatalf("timeout_turn 0 without a node limit: %q, want at most a one-ply search", msg)
	}
}

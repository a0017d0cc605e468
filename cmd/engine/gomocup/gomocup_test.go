package gomocup

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
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
	d.send("START 20")
	d.expectPrefix("ERROR")
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

package nboard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// session drives Run through a pipe and records every line it writes.
type testSession struct {
	t     *testing.T
	in    *io.PipeWriter
	mu    sync.Mutex
	cond  *sync.Cond
	lines []string
	next  int // first line not yet consumed by expect
	done  chan error
}

func startSession(t *testing.T) *testSession {
	t.Helper()
	pr, pw := io.Pipe()
	s := &testSession{t: t, in: pw, done: make(chan error, 1)}
	s.cond = sync.NewCond(&s.mu)
	outR, outW := io.Pipe()
	go func() {
		err := Run(context.Background(), pr, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		buf := make([]byte, 0, 4096)
		tmp := make([]byte, 4096)
		for {
			n, err := outR.Read(tmp)
			buf = append(buf, tmp[:n]...)
			for {
				i := strings.IndexByte(string(buf), '\n')
				if i < 0 {
					break
				}
				s.mu.Lock()
				s.lines = append(s.lines, string(buf[:i]))
				s.cond.Broadcast()
				s.mu.Unlock()
				buf = buf[i+1:]
			}
			if err != nil {
				s.mu.Lock()
				s.lines = append(s.lines, "<EOF>")
				s.cond.Broadcast()
				s.mu.Unlock()
				return
			}
		}
	}()
	t.Cleanup(func() { pw.Close() })
	return s
}

func (s *testSession) send(format string, args ...any) {
	s.t.Helper()
	if _, err := fmt.Fprintf(s.in, format+"\n", args...); err != nil {
		s.t.Fatalf("send: %v", err)
	}
}

// expect waits for the next line starting with prefix and returns it, with
// the lines skipped on the way. It fails on end of output.
func (s *testSession) expect(prefix string) (string, []string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var skipped []string
	for {
		for s.next < len(s.lines) {
			l := s.lines[s.next]
			s.next++
			if strings.HasPrefix(l, prefix) {
				return l, skipped
			}
			if l == "<EOF>" {
				s.t.Fatalf("output ended waiting for %q; got %q", prefix, skipped)
			}
			skipped = append(skipped, l)
		}
		s.cond.Wait()
	}
}

// quit ends the session and checks that Run returned nil.
func (s *testSession) quit() {
	s.t.Helper()
	s.send("quit")
	if err := <-s.done; err != nil {
		s.t.Fatalf("Run: %v", err)
	}
}

// ggf writes a GGF record of the start position and moves.
func ggf(moves string) string {
	ms, _ := reversi.ParseTranscript(moves)
	var sb strings.Builder
	sb.WriteString("(;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]")
	p := reversi.Start()
	for _, m := range ms {
		if p.MustPass() && m != reversi.Pass {
			fmt.Fprintf(&sb, "%s[PA]", colourTag(p))
			p, _ = p.PlayPass()
		}
		fmt.Fprintf(&sb, "%s[%s/0.5/1.2]", colourTag(p), strings.ToUpper(moveText(m)))
		p, _ = p.Play(m)
	}
	sb.WriteString(";)")
	return sb.String()
}

func colourTag(p reversi.Position) string {
	if p.ToMove() == reversi.Black {
		return "B"
	}
	return "W"
}

func TestSetGameThenGo(t *testing.T) {
	s := startSession(t)
	s.send("nboard 2")
	s.send("set depth 6")
	if l, _ := s.expect("set myname"); l != "set myname Boardhall6" {
		t.Errorf("got %q", l)
	}
	s.send("set game %s", ggf("f5f6d3c5e6f7e7f4"))
	s.send("ping 1")
	s.expect("pong 1")
	s.send("go")
	l, skipped := s.expect("=== ")
	fs := strings.Fields(l)
	if len(fs) != 4 {
		t.Fatalf("answer %q is not '=== move eval time'", l)
	}
	p, _ := reversi.Replay(reversi.Start(), mustMoves(t, "f5f6d3c5e6f7e7f4"))
	sq, err := reversi.ParseSquare(fs[1])
	if err != nil || !p.IsLegal(sq) {
		t.Errorf("move %q is not legal", fs[1])
	}
	if _, err := strconv.ParseFloat(fs[2], 64); err != nil {
		t.Errorf("eval %q", fs[2])
	}
	sawStats := false
	for _, k := range skipped {
		sawStats = sawStats || strings.HasPrefix(k, "nodestats ")
	}
	if !sawStats {
		t.Errorf("no nodestats before the answer: %q", skipped)
	}
	s.expect("status Boardhall is waiting")
	// go does not play the move: the same position answers the same.
	s.send("go")
	if l2, _ := s.expect("=== "); strings.Fields(l2)[1] != fs[1] {
		t.Errorf("second go: %q, first %q", l2, l)
	}
	s.quit()
}

func mustMoves(t *testing.T, s string) []reversi.Square {
	m, err := reversi.ParseTranscript(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPingInterruptsSearch(t *testing.T) {
	s := startSession(t)
	s.send("nboard 1")
	s.send("set depth 60") // from the start position: a search without end
	s.send("go")
	s.expect("nodestats") // the search is running
	s.send("ping 7")
	_, skipped := s.expect("pong 7")
	for _, l := range skipped {
		if strings.HasPrefix(l, "===") {
			// Allowed (output before pong belongs to the old position),
			// but it must be well-formed.
			if len(strings.Fields(l)) != 4 {
				t.Errorf("bad answer %q", l)
			}
		}
	}
	// The engine is idle and answers at once again.
	s.send("set depth 4")
	s.send("go")
	s.expect("=== ")
	s.quit()
}

func TestForcedPassAndFinishedGame(t *testing.T) {
	// A game where white must pass: board from the rules tests.
	pass := "(;GM[Othello]TY[8]BO[8 *O" + strings.Repeat("-", 1) + strings.Repeat("*", 61) + " O];)"
	over := "(;GM[Othello]TY[8]BO[8 " + strings.Repeat("*", 64) + " *];)"
	tests := []struct {
		name string
		game string
		want string
	}{
		{"pass", pass, "=== pa -64.00"}, // black takes c1 and every disc
		{"finished game", over, "status error: the game is over"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t)
			s.send("nboard 2")
			s.send("set depth 4")
			s.send("set game %s", tc.game)
			s.send("go")
			if l, _ := s.expect(tc.want); !strings.HasPrefix(l, tc.want) {
				t.Errorf("got %q", l)
			}
			s.quit()
		})
	}
}

func TestPassMoveAndHint(t *testing.T) {
	s := startSession(t)
	pass := "(;GM[Othello]TY[8]BO[8 *O-" + strings.Repeat("*", 61) + " O];)"
	s.send("set depth 4")
	s.send("set game %s", pass)
	s.send("move PA")
	s.send("hint 1")
	l, _ := s.expect("search ")
	if !strings.HasPrefix(l, "search c1 ") {
		t.Errorf("after the pass black's only move is c1: %q", l)
	}
	s.send("set game %s", ggf("f5"))
	s.send("hint 3")
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		l, _ := s.expect("search ")
		fs := strings.Fields(l)
		if len(fs) < 5 {
			t.Fatalf("bad search line %q", l)
		}
		first := strings.ToLower(fs[1][:2])
		if seen[first] {
			t.Errorf("hint repeated move %s", first)
		}
		seen[first] = true
	}
	for _, m := range []string{"f4", "d6", "f6"} {
		if !seen[m] {
			t.Errorf("hint 3 after f5 missed %s: %v", m, seen)
		}
	}
	s.quit()
}

func TestExactScoreAtDepth60(t *testing.T) {
	// A position with 14 empties reached by the engine playing itself at
	// level 1; "set depth 60" must give the proven score, the same as the
	// engine's own exact solve.
	e := reversi.NewEngine()
	var (
		p     reversi.Position
		moves []reversi.Square
	)
	for seed := int64(1); ; seed++ {
		p, moves = reversi.Start(), nil
		for p.Empties() > 14 && !p.GameOver() {
			if p.MustPass() {
				p, _ = p.PlayPass()
				moves = append(moves, reversi.Pass)
				continue
			}
			r, err := e.Search(context.Background(), p, reversi.Limits{Level: 1, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, r.Best)
			p, _ = p.Play(r.Best)
		}
		if !p.MustPass() && !p.GameOver() {
			break
		}
	}
	want, err := reversi.NewEngine().Search(context.Background(), p, reversi.Limits{Depth: 60})
	if err != nil || !want.Exact {
		t.Fatalf("engine: %+v %v", want, err)
	}
	s := startSession(t)
	s.send("set depth 60")
	s.send("set game %s", ggf(reversi.FormatTranscript(moves)))
	s.send("go")
	l, skipped := s.expect("=== ")
	for _, k := range skipped {
		if strings.HasPrefix(k, "status error") {
			t.Fatalf("session: %s", k)
		}
	}
	if got := strings.Fields(l)[2]; got != fmt.Sprintf("%.2f", float64(want.Score)) {
		t.Errorf("eval %s, want the exact %d (%d empties)", got, want.Score, p.Empties())
	}
	s.quit()
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		line string
		want string
	}{
		{"bad depth", "set depth 0", "status error: depth"},
		{"depth not a number", "set depth x", "status error: depth"},
		{"bad game", "set game (;GM[Othello]BO[8 xx *];)", "status error: nboard: game record"},
		{"not a game", "set game hello", "status error: nboard: game record"},
		{"illegal move", "move a1", "status error: reversi: illegal move a1"},
		{"bad square", "move z9", "status error: bad move"},
		{"bad hint", "hint -1", "status error: usage: hint"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t)
			s.send("frobnicate 3") // unknown: ignored
			s.send(tc.line)
			s.send("ping 1")
			l, skipped := s.expect("pong 1")
			_ = l
			if len(skipped) != 1 || !strings.HasPrefix(skipped[0], tc.want) {
				t.Errorf("got %q, want one line starting %q", skipped, tc.want)
			}
			s.quit()
		})
	}
}

func TestEndOfInputFinishesSearch(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader("set depth 3\ngo\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // hang guard only
	defer cancel()
	if err := Run(ctx, in, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\n=== ") {
		t.Errorf("no answer to go before the end of input:\n%s", out.String())
	}
}

func TestParseGGF(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		board  string
		toMove reversi.Color
		ok     bool
	}{
		{"protocol page example", "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)",
			"-------------------X-------XXO----OOXO------XO------XO----------", reversi.Black, true},
		{"start", "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)",
			"---------------------------OX------XO---------------------------", reversi.Black, true},
		{"white to move board", "(;BO[8 ---------------------------O*------*O--------------------------- O]W[D6/1.0];)",
			"---------------------------OX------OO------O--------------------", reversi.Black, true},
		{"out of turn", "(;BO[8 ---------------------------O*------*O--------------------------- *]W[F5];)", "", 0, false},
		{"illegal", "(;BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)", "", 0, false},
		{"no board", "(;GM[Othello]B[F5];)", "", 0, false},
		{"not othello", "(;GM[Chess]BO[8 ---------------------------O*------*O--------------------------- *];)", "", 0, false},
		{"10x10", "(;TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)", "", 0, false},
		{"unclosed", "(;BO[8 ---;)", "", 0, false},
		{"no parens", "GM[Othello]", "", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseGGF(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v", err)
			}
			if tc.ok && (p.String() != tc.board || p.ToMove() != tc.toMove) {
				t.Errorf("got %s %s, want %s %s", p, p.ToMove(), tc.board, tc.toMove)
			}
		})
	}
}

func FuzzParseGGF(f *testing.F) {
	f.Add("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)")
	f.Add("(;BO[8 " + strings.Repeat("*", 64) + " O]W[PA];)")
	f.Add("(;;)")
	f.Add("(;B[;)")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseGGF(s)
		if err != nil {
			return
		}
		_ = p.LegalMoves()
	})
}

func FuzzSession(f *testing.F) {
	f.Add("set depth 2\ngo\nmove f5\nhint 2\nping 3\n")
	f.Add("move pa\nmove\nset\nset game (;;)\nhint 999999999999\n")
	f.Fuzz(func(t *testing.T, script string) {
		var out strings.Builder
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // hang guard only
		defer cancel()
		// Keep searches shallow whatever the script says.
		script = strings.ReplaceAll(script, "depth", "depth 2 #")
		if err := Run(ctx, strings.NewReader("set depth 2\n"+script), &out); err != nil {
			t.Fatal(err)
		}
	})
}

func TestForcedPassExactScore(t *testing.T) {
	// A forced pass with empties left, found by the engine playing itself
	// at level 1: at "set depth 60" the pass's eval is the proven score of
	// the position, not 0.
	e := reversi.NewEngine()
	var (
		p     reversi.Position
		moves []reversi.Square
	)
	for seed := int64(1); seed < 500; seed++ {
		p, moves = reversi.Start(), nil
		for !p.GameOver() && !(p.MustPass() && p.Empties() >= 4) {
			if p.MustPass() {
				p, _ = p.PlayPass()
				moves = append(moves, reversi.Pass)
				continue
			}
			r, err := e.Search(context.Background(), p, reversi.Limits{Level: 1, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, r.Best)
			p, _ = p.Play(r.Best)
		}
		if !p.GameOver() {
			break
		}
	}
	if !p.MustPass() || p.GameOver() {
		t.Fatal("no forced pass found")
	}
	passed, _ := p.PlayPass()
	reply, err := reversi.NewEngine().Search(context.Background(), passed, reversi.Limits{Depth: 60})
	if err != nil || !reply.Exact {
		t.Fatalf("engine: %+v %v", reply, err)
	}
	want := fmt.Sprintf("=== pa %.2f", float64(-reply.Score))
	s := startSession(t)
	s.send("set depth 60")
	s.send("set game %s", ggf(reversi.FormatTranscript(moves)))
	s.send("go")
	if l, _ := s.expect("=== "); !strings.HasPrefix(l, want) {
		t.Errorf("got %q, want %q (%d empties)", l, want, p.Empties())
	}
	s.send("hint 1")
	if l, _ := s.expect("search "); !strings.HasPrefix(strings.ToLower(l), "search pa") || !strings.Contains(l, fmt.Sprintf(" %.2f 0 60", float64(-reply.Score))) {
		t.Errorf("hint: got %q, want the pass first and the exact eval %d", l, -reply.Score)
	}
	s.quit()
}

func TestLongLineSkipped(t *testing.T) {
	tests := []struct {
		name string
		line string
	}{
		{"just over the limit", strings.Repeat("x", maxLineBytes+1)},
		{"a megabyte", "set game " + strings.Repeat("(;", 1<<19)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t)
			s.send("%s", tc.line)
			s.send("ping 1")
			l, skipped := s.expect("pong 1")
			if l != "pong 1" || len(skipped) != 1 || !strings.HasPrefix(skipped[0], "status error: a line of more than") {
				t.Errorf("got %q then %q, want one error then pong 1", skipped, l)
			}
			// The session goes on: a normal command still works.
			s.send("set depth 2")
			s.expect("set myname Boardhall2")
			s.quit()
		})
	}
}

func TestReadLine(t *testing.T) {
	const max = 8
	tests := []struct {
		name string
		in   string
		want []inputLine
	}{
		{"short lines", "ab\ncd\r\n", []inputLine{{text: "ab"}, {text: "cd"}}},
		{"exactly max", "12345678\nx\n", []inputLine{{text: "12345678"}, {text: "x"}}},
		{"over max", "123456789\nx\n", []inputLine{{tooLong: true}, {text: "x"}}},
		{"no final newline", "ab", []inputLine{{text: "ab"}}},
		{"long without newline", "123456789012", []inputLine{{tooLong: true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
			var got []inputLine
			for {
				l, err := readLine(br, max)
				if err != nil {
					break
				}
				got = append(got, l)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/match"
)

// fakeJudgeEnv makes the test binary act as a minimal NBoard engine that
// answers "hint" (see TestMain), so that movevalues is tested against a
// real child process without NTest.
const fakeJudgeEnv = "TRAIN_FAKE_NBOARD_JUDGE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeJudgeEnv) != "" {
		fakeJudge()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeValue is the fake judge's value of move m in p: the discs m flips,
// minus a quarter, so that a test can compute every value on its own.
func fakeValue(p reversi.Position, m reversi.Square) float64 {
	return float64(bits.OnesCount64(p.Flipped(m))) - 0.25
}

// fakeJudge speaks the NBoard a move-values run needs: set game (a BO[]
// board without moves, as match.GGF writes it), hint (every legal move
// valued by fakeValue, NTest's way: "status Analyzing", search lines, a
// bare "status"), ping, quit.
func fakeJudge() {
	sc := bufio.NewScanner(os.Stdin)
	var pos reversi.Position
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0:
		case f[0] == "ping":
			fmt.Println("pong", f[1])
		case f[0] == "set" && len(f) > 1 && f[1] == "game":
			line := sc.Text()
			i := strings.Index(line, "BO[8 ")
			board := strings.ReplaceAll(line[i+5:i+5+64], "*", "X")
			side := reversi.Black
			if line[i+5+65] == 'O' {
				side = reversi.White
			}
			pos, _ = reversi.ParsePosition(board, side)
		case f[0] == "hint":
			fmt.Println("status Analyzing")
			for _, m := range pos.LegalMoves() {
				fmt.Printf("search %s %+.2f 0 1\n", strings.ToUpper(m.String()), fakeValue(pos, m))
			}
			fmt.Println("status")
		case f[0] == "quit":
			return
		}
	}
}

// TestMoveValues takes positions from two weak games, has the fake judge
// value their moves, writes the set and reads it back: every position in
// range, taken once, with two moves or more, every legal move with the
// judge's value, highest first; judged again, the set agrees with itself.
func TestMoveValues(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(fakeJudgeEnv, "1")
	recs := append(weakGames(t, 3), weakGames(t, 4)...)
	recs = append(recs, recs...) // the same games twice: no position may be taken twice
	cfg := moveValuesConfig{lo: 30, hi: 50}
	ps, err := pickPositions(cfg, recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < len(recs)/2 {
		t.Fatalf("%d positions from %d games", len(ps), len(recs))
	}
	seen, stages := map[string]bool{}, map[int]bool{}
	for _, p := range ps {
		if n := p.Empties(); n < cfg.lo || n > cfg.hi || len(p.LegalMoves()) < 2 || seen[positionKey(p)] {
			t.Errorf("%s: %d empties, %d moves, taken before %v", positionKey(p), n, len(p.LegalMoves()), seen[positionKey(p)])
		}
		seen[positionKey(p)] = true
		stages[p.Empties()] = true
	}
	if len(stages) < 3 {
		t.Errorf("positions at %d numbers of empties, want them spread", len(stages))
	}
	if got, _ := pickPositions(moveValuesConfig{lo: 30, hi: 50, max: 2}, recs); len(got) != 2 {
		t.Errorf("max 2 took %d positions", len(got))
	}
	again, err := pickPositions(moveValuesConfig{lo: 30, hi: 50, exclude: seen}, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range again {
		if seen[positionKey(p)] {
			t.Errorf("%s taken again though excluded", positionKey(p))
		}
	}
	if len(again) == 0 {
		t.Error("no second position from any game")
	}

	nb := &match.NBoardPlayer{Path: exe, Depth: 1}
	defer nb.Close()
	vs, err := valueMoves(context.Background(), nb, ps, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "values.txt")
	var buf bytes.Buffer
	buf.WriteString("# a comment\n\n")
	writeMoveValues(&buf, vs)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := readMoveValues(path)
	if err != nil || len(back) != len(ps) {
		t.Fatalf("read %d positions of %d: %v", len(back), len(ps), err)
	}
	for i, v := range back {
		if positionKey(v.pos) != positionKey(ps[i]) {
			t.Fatalf("position %d read back as %s, want %s", i, positionKey(v.pos), positionKey(ps[i]))
		}
		for k, mv := range v.values {
			if mv.Value != fakeValue(v.pos, mv.Move) {
				t.Errorf("%s: %s valued %.2f, the judge said %.2f", positionKey(v.pos), mv.Move, mv.Value, fakeValue(v.pos, mv.Move))
			}
			if k > 0 && mv.Value > v.values[k-1].Value {
				t.Errorf("%s: values not highest first: %v", positionKey(v.pos), v.values)
			}
		}
	}
	var report strings.Builder
	compareMoveValues(&report, back, vs)
	want := fmt.Sprintf("%d positions: same best move (or one as good) in %d, mean loss of the first best move 0.00 discs, mean |change| of a move's value 0.00 discs", len(vs), len(vs))
	if !strings.Contains(report.String(), want) {
		t.Errorf("the set compared with itself:\n%s\nwant %q", report.String(), want)
	}
}

// TestParseValuedPosition rejects lines a set must not hold.
func TestParseValuedPosition(t *testing.T) {
	p, _ := reversi.Replay(reversi.Start(), []reversi.Square{37}) // f5: d6, f4, f6 to reply
	board := p.String()
	tests := []struct {
		line string
		ok   bool
	}{
		{board + " O d6:+1.00 f4:-0.50 f6:+2.00", true},
		{board + " O d6:+1.00 f4:-0.50", false},          // a move without a value
		{board + " O d6:+1.00 f4:-0.50 a1:+2.00", false}, // an illegal move
		{board + " O d6:+1.00 f4:-0.50 f6:x", false},     // no number
		{board + " X d6:+1.00 f4:-0.50 f6:+2.00", false}, // the wrong side to move
		{board + " O d6 +1.00 f4:-0.50 f6:+2.00", false}, // no colon
		{board + " O d6:+1.00 d6:-0.50 f6:+2.00", false}, // d6 twice, f4 missing
		{board + " O d6:+1.00 f4:NaN f6:+2.00", false},   // not a number of discs
	}
	for _, tc := range tests {
		v, err := parseValuedPosition(tc.line)
		if (err == nil) != tc.ok {
			t.Errorf("parseValuedPosition(%q): %v", tc.line, err)
		}
		if err == nil && (v.values[0].Move.String() != "f6" || v.valueOf(reversi.Square(29)) != -0.5) {
			t.Errorf("parseValuedPosition(%q) = %v, want f6 first and f4 at -0.50", tc.line, v.values)
		}
	}
}

// FuzzParseValuedPosition checks that any line is read without a panic,
// and that a position read, written back by writeMoveValues, reads the
// same.
func FuzzParseValuedPosition(f *testing.F) {
	p, _ := reversi.Replay(reversi.Start(), []reversi.Square{37})
	for _, l := range []string{p.String() + " O d6:+1.00 f4:-0.50 f6:+2.00", p.String() + " O d6:+1.00 d6:-0.50 f6:+2.00",
		p.String() + " X d6:+1.00", "", "x O a1:+1"} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		v, err := parseValuedPosition(line)
		if err != nil {
			return
		}
		var b strings.Builder
		writeMoveValues(&b, []valuedPosition{v})
		w, err := parseValuedPosition(strings.TrimSpace(b.String()))
		if err != nil {
			t.Fatalf("%q read, written back as %q: %v", line, b.String(), err)
		}
		for _, mv := range v.values {
			if d := math.Abs(w.valueOf(mv.Move) - mv.Value); !(d <= 0.005+1e-9*math.Abs(mv.Value)) {
				t.Fatalf("%q: %s was %v, written back %v", line, mv.Move, mv.Value, w.valueOf(mv.Move))
			}
		}
	})
}

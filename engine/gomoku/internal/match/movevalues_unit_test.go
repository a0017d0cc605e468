package match

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/gomoku"
	"github.com/boardhall/boardhall/engine/internal/stats"
)

func TestParseValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Value
		wp   float64
	}{
		{"0", 0, 0.5},
		{"200", 200, 1 / (1 + math.Exp(-1))},
		{"-600", -600, 1 / (1 + math.Exp(3))},
		{"+M13", mateBase - 13, 1},
		{"-M12", -mateBase + 12, 0},
		{"+M0", mateBase, 1},
	} {
		v, err := ParseValue(c.in)
		if err != nil || v != c.want {
			t.Errorf("ParseValue(%q) = %d, %v; want %d", c.in, v, err, c.want)
			continue
		}
		if v.String() != c.in {
			t.Errorf("%q prints as %q", c.in, v.String())
		}
		if math.Abs(v.WinProb()-c.wp) > 1e-12 {
			t.Errorf("%q: win prob %v, want %v", c.in, v.WinProb(), c.wp)
		}
	}
	if mustValue("+M13").Neg().String() != "-M13" {
		t.Error("a mate's negation")
	}
	for _, bad := range []string{"", "+12", "1.5", "20000", "-20000", "M3", "+M", "+M-1", "+M1000", "+M013", "- 3", "12a", "-M x"} {
		if v, err := ParseValue(bad); err == nil {
			t.Errorf("ParseValue(%q) = %d, want an error", bad, v)
		}
	}
}

func mustValue(s string) Value {
	v, err := ParseValue(s)
	if err != nil {
		panic(err)
	}
	return v
}

const goodSet = `# a hand-made set
gomoku-movevalues nodes=1000

pos h8i9j10i10 logA:piskvork/1:white root=-85 best=h11 h11=-90 g11=-120 i11=+M9
pos h8i9j10 logA:piskvork/1:black root=+M5 best=-
pos h8i8 logB:x:black root=10 best=h9 h9=10
`

func TestParseMoveValues(t *testing.T) {
	s, err := ParseMoveValues(strings.NewReader(goodSet))
	if err != nil {
		t.Fatal(err)
	}
	if s.Nodes != 1000 || len(s.Positions) != 3 {
		t.Fatalf("nodes %d, %d positions", s.Nodes, len(s.Positions))
	}
	p := s.Positions[0]
	if p.Key() != "h8i9j10i10" || p.Source != "logA:piskvork/1:white" || p.Root != -85 || p.Best != (gomoku.Point{X: 7, Y: 10}) || len(p.Values) != 3 {
		t.Fatalf("first position %+v", p)
	}
	if p.BestValue() != mustValue("+M9") {
		t.Errorf("best value %v", p.BestValue())
	}
	if !s.Positions[1].Decided() || s.Positions[0].Decided() {
		t.Error("decided")
	}
	if s.Find(p.Moves) != p || s.Find(p.Moves[:1]) != nil {
		t.Error("Find")
	}
	// Written and read back: the same text as written, values best first.
	var buf bytes.Buffer
	if n, err := s.WriteTo(&buf); err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n, err, buf.Len())
	}
	want := "gomoku-movevalues nodes=1000\n" +
		"pos h8i9j10i10 logA:piskvork/1:white root=-85 best=h11 i11=+M9 h11=-90 g11=-120\n" +
		"pos h8i9j10 logA:piskvork/1:black root=+M5 best=-\n" +
		"pos h8i8 logB:x:black root=10 best=h9 h9=10\n"
	if buf.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", buf.String(), want)
	}
	s2, err := ParseMoveValues(&buf)
	if err != nil || len(s2.Positions) != 3 || s2.Positions[0].Values[gomoku.Point{X: 8, Y: 10}] != mustValue("+M9") {
		t.Errorf("read back: %v", err)
	}
}

func TestParseMoveValuesErrors(t *testing.T) {
	const h = "gomoku-movevalues nodes=1000\n"
	for _, c := range []struct{ name, in, msg string }{
		{"empty", "", "no header"},
		{"comments only", "# x\n\n", "no header"},
		{"bad header", "gomoku-movevalues\n", "line 1"},
		{"bad nodes", "gomoku-movevalues nodes=0\n", "node budget"},
		{"other header", "gomoku-choices x\n", "header"},
		{"short line", h + "pos h8i9 src root=1\n", "line 2"},
		{"not pos", h + "xpos h8i9 src root=1 best=h9 h9=1\n", "line 2"},
		{"bad record", h + "pos h8z99 src root=1 best=h9 h9=1\n", "bad record"},
		{"upper-case record", h + "pos H8I9 src root=1 best=h9 h9=1\n", "bad record"},
		{"comma record", h + "pos h8,i9 src root=1 best=h9 h9=1\n", "bad record"},
		{"illegal record", h + "pos h8h8 src root=1 best=h9 h9=1\n", "record"},
		{"game over", h + "pos a1b1a2b2a3b3a4b4a5 src root=1 best=h9 h9=1\n", "over"},
		{"no root", h + "pos h8i9 src rot=1 best=h9 h9=1\n", "root="},
		{"bad root", h + "pos h8i9 src root=x best=h9 h9=1\n", "value"},
		{"no best", h + "pos h8i9 src root=1 bst=h9 h9=1\n", "best="},
		{"best taken", h + "pos h8i9 src root=1 best=h8 h8=1\n", "best"},
		{"best off board", h + "pos h8i9 src root=1 best=z9 h9=1\n", "best"},
		{"best upper", h + "pos h8i9 src root=1 best=H9 h9=1\n", "best"},
		{"no =", h + "pos h8i9 src root=1 best=h9 h9\n", "move=value"},
		{"move taken", h + "pos h8i9 src root=1 best=h9 h9=1 i9=3\n", "i9"},
		{"move twice", h + "pos h8i9 src root=1 best=h9 h9=1 h9=2\n", "twice"},
		{"bad value", h + "pos h8i9 src root=1 best=h9 h9=1.5\n", "value"},
		{"best not judged", h + "pos h8i9 src root=1 best=h9 h10=1\n", "choice"},
		{"decided with best", h + "pos h8i9 src root=1 best=h9\n", "decided"},
		{"judged without best", h + "pos h8i9 src root=1 best=- h9=1\n", "choice"},
		{"position twice", h + "pos h8i9 src root=1 best=h9 h9=1\npos h8i9 s2 root=2 best=-\n", "twice"},
		{"header twice", h + h, "line 2"},
		{"other judge", "gomoku-movevalues nodes=1000 judge=child\n", "header"},
		{"header extra field", "gomoku-movevalues nodes=1000 judge=multipv x\n", "header"},
		{"judge before nodes", "gomoku-movevalues judge=multipv nodes=1000\n", "header"},
	} {
		_, err := ParseMoveValues(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.msg)
		}
	}
}

func FuzzParseMoveValues(f *testing.F) {
	f.Add(goodSet)
	f.Add("gomoku-movevalues nodes=5\npos h8 s root=+M1 best=-\n")
	f.Add("gomoku-movevalues nodes=5\npos h8i9 s root=-19999 best=a1 a1=-M0 o15=19999\n")
	f.Add("gomoku-movevalues nodes=7 judge=multipv\npos h8i9 s root=3 best=h9 h9=3 a1=-M2\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseMoveValues(strings.NewReader(in))
		if err != nil {
			return
		}
		// What parses writes back to text that parses to the same set.
		var buf bytes.Buffer
		if _, err := s.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		s2, err := ParseMoveValues(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("written set does not parse: %v\n%s", err, buf.String())
		}
		var buf2 bytes.Buffer
		s2.WriteTo(&buf2)
		if buf.String() != buf2.String() {
			t.Fatalf("not stable:\n%s\n%s", buf.String(), buf2.String())
		}
	})
}

func TestChoicesAndScore(t *testing.T) {
	s, err := ParseMoveValues(strings.NewReader(goodSet))
	if err != nil {
		t.Fatal(err)
	}
	in := "gomoku-choices run-a\n" +
		"h8i9j10i10 h11 7\n" + // loss: +M9 (1) against -90
		"h8i9j10 a1 5\n" + // decided: left out
		"h8i8 h9 3\n" // the best: no loss
	label, cs, err := ParseChoices(strings.NewReader(in))
	if err != nil || label != "run-a" || len(cs) != 3 {
		t.Fatalf("ParseChoices: %q %v %v", label, cs, err)
	}
	var buf bytes.Buffer
	if err := WriteChoices(&buf, label, cs); err != nil || buf.String() != in[:len("gomoku-choices run-a\n")]+"h8i9j10i10 h11 7\nh8i9j10 a1 5\nh8i8 h9 3\n" {
		t.Errorf("WriteChoices: %q %v", buf.String(), err)
	}
	sum := s.Score(cs)
	wp := 1 - mustValue("-90").WinProb()
	if sum.N != 2 || sum.Unjudged != 0 || sum.Best != 1 || sum.JudgeBest != 2 || sum.Large != 1 {
		t.Fatalf("summary %+v", sum)
	}
	if math.Abs(sum.MeanWP-wp/2) > 1e-12 || math.Abs(sum.MeanUnits-(1000+90)/2.0) > 1e-9 || sum.MeanDepth != 5 {
		t.Errorf("means %v %v %v, want %v %v 5", sum.MeanWP, sum.MeanUnits, sum.MeanDepth, wp/2, 545.0)
	}
	// the standard error of {wp, 0}: |wp|/2
	if math.Abs(sum.SEWP-wp/2) > 1e-12 {
		t.Errorf("SE %v, want %v", sum.SEWP, wp/2)
	}
	// Another run: the mate (i11) in the first position, an unjudged move in
	// the last.
	_, cs2, err := ParseChoices(strings.NewReader("gomoku-choices run-b\nh8i9j10i10 i11 9\nh8i8 g9 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum2 := s.Score(cs2)
	if sum2.N != 1 || sum2.Unjudged != 1 || sum2.MeanWP != 0 || sum2.Best != 1 {
		t.Fatalf("summary %+v", sum2)
	}
	m, se, n := Paired(sum2.PerPos, sum.PerPos)
	if n != 1 || math.Abs(m+wp) > 1e-12 || se != 0 {
		t.Errorf("paired %v ± %v over %d, want %v over 1", m, se, n, -wp)
	}
	for _, bad := range []string{
		"",
		"h8i8 h9 3\n",
		"gomoku-choices\n",
		"gomoku-choices a\nh8i8 h9\n",
		"gomoku-choices a\nh8i8 h8 3\n",
		"gomoku-choices a\nh8i8 h9 -1\n",
		"gomoku-choices a\nh8h8 h9 1\n",
		"gomoku-choices a\nh8i8 h9 1\nh8i8 h10 1\n",
	} {
		if _, _, err := ParseChoices(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseChoices(%q): no error", bad)
		}
	}
}

func TestPairedSE(t *testing.T) {
	a := map[string]float64{"x": 1, "y": 2, "z": 3, "only-a": 9}
	b := map[string]float64{"x": 0, "y": 0, "z": 0, "only-b": 9}
	m, se, n := Paired(a, b)
	// differences 1, 2, 3: mean 2, sd 1, se 1/sqrt(3)
	if n != 3 || math.Abs(m-2) > 1e-12 || math.Abs(se-1/math.Sqrt(3)) > 1e-12 {
		t.Errorf("Paired = %v ± %v over %d", m, se, n)
	}
}

func TestForced(t *testing.T) {
	board := func(rec string) *gomoku.Board {
		t.Helper()
		moves, err := gomoku.ParseRecord(rec, 15)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
		for _, m := range moves {
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	cases := []struct {
		rec  string
		want bool
	}{
		{"h8i9", false},
		{"h8a1h9a2h10a3", false},            // white to move, black has an open three only
		{"h8a1h9a2h10a3h11", true},          // white to move, black's four h8-h11
		{"h8a1h9a2h10a3h11a5", true},        // black to move with a four: wins
		{"h8a1h9a2h10a3h12", true},          // white to move, black's broken four (h11)
		{"h8o1h9o2h10o3g8o5", true},         // black to move, white's broken four o1-o5 (o4)
		{"h8o1h9o2h10o3g8n5", false},        // black to move, white's o1-o3 n5 is nothing
		{"a1o15a2o14a3o13b5o11b6n11", true}, // black to move, white's broken four o11-o15 (o12)
	}
	for _, c := range cases {
		if got := Forced(board(c.rec)); got != c.want {
			t.Errorf("Forced(%s) = %v, want %v", c.rec, got, c.want)
		}
	}
}

func TestParseGamesAndPick(t *testing.T) {
	log := `=== RUN   TestMatchGomocup
    match_test.go:304: piskvork/20 main-engine-1s as black: win h8i8j10i9i7g9j8h9j9j7g10k9f9h11f7j11f6f8e7g7g5h4h6f4g6e6d9e8d8c9d10d11e10k6l5h10i6j6d7d6b7c7c8f11a6
    match_test.go:304: piskvork/20 main-engine-1s as white: loss h8i8j10i9i7g9h9h7j9j8g11i11j11i10i12j12h10g6f11h11f12g7g8e4f5f13g12h13e12h12d13g10d12c12d14e13d11d10d15
    match_test.go:310: main-engine-1s +1 -1 =0
    match_test.go:304: piskvork/21 x as white: draw h8i9
`
	gs, err := parseGames(strings.NewReader(log), "g/a.log")
	if err != nil || len(gs) != 3 {
		t.Fatalf("parseGames: %d games, %v", len(gs), err)
	}
	if gs[0].source != "g/a.log:piskvork/20:black" || len(gs[0].moves) != 45 || gs[2].source != "g/a.log:piskvork/21:white" {
		t.Errorf("games %+v", gs)
	}
	if _, err := parseGames(strings.NewReader("piskvork/1 as: win h8\n"), "x"); err == nil {
		t.Error("a malformed game line parsed")
	}
	if _, err := parseGames(strings.NewReader("piskvork/1 p as black: win h8z0\n"), "x"); err == nil {
		t.Error("a bad record parsed")
	}
	rr := roundRobin([][]loggedGame{{{source: "a1"}, {source: "a2"}}, {{source: "b1"}}})
	if len(rr) != 3 || rr[0].source != "a1" || rr[1].source != "b1" || rr[2].source != "a2" {
		t.Errorf("roundRobin %v", rr)
	}
	seen := map[int]bool{}
	for k := 0; k < 200; k++ {
		n := targetMove(k, 0)
		if n < minMoveNo || n > maxMoveNo {
			t.Fatalf("target %d", n)
		}
		seen[n] = true
	}
	if len(seen) != maxMoveNo-minMoveNo+1 {
		t.Errorf("targets cover %d move numbers", len(seen))
	}
	set := &MoveValues{Nodes: 1}
	for k := 0; k < 40; k++ {
		b, ok := pickPosition(gs[1], k, 0, set)
		if !ok {
			continue
		}
		if Forced(b) || b.MoveCount()+1 < targetMove(k, 0) || b.MoveCount() >= len(gs[1].moves) {
			t.Fatalf("k=%d: picked move %d (target %d)", k, b.MoveCount()+1, targetMove(k, 0))
		}
		if err := set.Add(&ValuedPosition{Moves: b.Moves()}); err != nil {
			t.Fatal(err)
		}
	}
	if len(set.Positions) < 10 {
		t.Errorf("only %d positions picked from a 40-move game", len(set.Positions))
	}

	// GOMOKU_SET_SHIFT=0.5 on a set holding the first picks: a second
	// position a game, at a target half the range away, never one already
	// in the set, with both sides to move.
	for k := 0; k < 200; k++ {
		n0, n1 := targetMove(k, 0), targetMove(k, 0.5)
		if n1 < minMoveNo || n1 > maxMoveNo || n1 == n0 {
			t.Fatalf("k=%d: shifted target %d (unshifted %d)", k, n1, n0)
		}
		if d := n1 - n0; d != 17 && d != 18 && d != -17 && d != -18 {
			t.Fatalf("k=%d: shifted target %d, unshifted %d: not half the range apart", k, n1, n0)
		}
	}
	sides := map[int]int{}
	seconds := 0
	for k := 0; k < 40; k++ {
		set := &MoveValues{Nodes: 1} // the game's first pick, as in the set copied
		b0, ok0 := pickPosition(gs[1], k, 0, set)
		if ok0 {
			if err := set.Add(&ValuedPosition{Moves: b0.Moves()}); err != nil {
				t.Fatal(err)
			}
		}
		b1, ok1 := pickPosition(gs[1], k, 0.5, set)
		if !ok1 {
			continue
		}
		if ok0 && b1.MoveCount() == b0.MoveCount() {
			t.Fatalf("k=%d: second pick is the first (move %d)", k, b1.MoveCount()+1)
		}
		if set.Find(b1.Moves()) != nil || Forced(b1) || b1.MoveCount()+1 < targetMove(k, 0.5) || b1.MoveCount() >= len(gs[1].moves) {
			t.Fatalf("k=%d: second pick at move %d (target %d) is in the set or forced", k, b1.MoveCount()+1, targetMove(k, 0.5))
		}
		if err := set.Add(&ValuedPosition{Moves: b1.Moves()}); err != nil {
			t.Fatal(err)
		}
		// with it in the set, the same position is never picked again
		if b2, ok := pickPosition(gs[1], k, 0.5, set); ok && b2.MoveCount() == b1.MoveCount() {
			t.Fatalf("k=%d: move %d picked twice", k, b1.MoveCount()+1)
		}
		sides[b1.MoveCount()%2]++
		seconds++
	}
	if seconds < 10 || sides[0] == 0 || sides[1] == 0 {
		t.Errorf("second picks: %d, sides to move %v", seconds, sides)
	}
}

func TestRapfiMessages(t *testing.T) {
	var m rapfiMessages
	for _, l := range []string{
		"MESSAGE Transposition table cleared.",
		"MESSAGE (1) 134 | 2-3 | I7 H7",
		"MESSAGE (2) 30 | 2-3 | I6 I11",
		"MESSAGE Depth 2-3 | Eval 134 | Time 1ms | I7 H7",
		"MESSAGE (1) 162 | 17-33 | H7 H7",
		"MESSAGE (3) -M4 | 17-39 | O15",
		"MESSAGE (x) 1 | 1-1 | A1",
		"MESSAGE (4) 1 | 1-1 | Z99",
		"MESSAGE Speed 673K | Depth 17-35 | Eval -M12 | Node 500K | Time 743ms",
		"MESSAGE Bestline I6 H5",
	} {
		m.add(l)
	}
	want := map[int]gomoku.Point{1: {X: 7, Y: 6}, 2: {X: 8, Y: 5}, 3: {X: 14, Y: 14}}
	if m.eval != "-M12" || len(m.pv) != 3 || m.pv[1] != want[1] || m.pv[2] != want[2] || m.pv[3] != want[3] {
		t.Errorf("got %q %v", m.eval, m.pv)
	}
}

func TestMeanMaps(t *testing.T) {
	got := meanMaps([]map[string]float64{{"a": 1, "b": 2, "c": 5}, {"a": 3, "b": 2}})
	if len(got) != 2 || got["a"] != 2 || got["b"] != 2 {
		t.Errorf("meanMaps = %v", got)
	}
	if m, _ := stats.MeanSE(values(got)); m != 2 {
		t.Errorf("mean %v", m)
	}
}

// TestMoveValuesFile checks the committed set: it parses, its judged
// positions have no four on the board and move numbers 6-40, and every
// judged position has the judge's choice and, but for a few (YXNBEST
// gave one line: 2 of the 480), at least one more move; no position twice
// (the parser's check) across the two positions a game.
func TestMoveValuesFile(t *testing.T) {
	s, err := ReadMoveValuesFile("testdata/gomoku-movevalues.txt")
	if err != nil {
		t.Fatal(err)
	}
	judged, single := 0, 0
	for _, p := range s.Positions {
		b, err := p.Board()
		if err != nil {
			t.Fatal(err)
		}
		if n := len(p.Moves) + 1; n < minMoveNo || n > maxMoveNo || Forced(b) {
			t.Errorf("%s: move %d, forced %v", p.Key(), n, Forced(b))
		}
		if p.Decided() {
			continue
		}
		judged++
		if len(p.Values) < 2 {
			single++
		}
		if _, ok := p.Values[p.Best]; !ok || p.Root > 600 || p.Root < -600 {
			t.Errorf("%s: %d values, best %v, root %v", p.Key(), len(p.Values), p.Best, p.Root)
		}
	}
	if judged < 450 || single > judged/100 || s.Nodes != 500000 {
		t.Errorf("%d judged positions (%d with one value), %d nodes a search", judged, single, s.Nodes)
	}
}

// TestScoringVariants checks the sets GOMOKU_LOSS_SCORING scores with:
// without the positions that have a mate among their values, and with
// every value clamped.
func TestScoringVariants(t *testing.T) {
	s, err := ParseMoveValues(strings.NewReader(goodSet))
	if err != nil {
		t.Fatal(err)
	}
	first := s.Positions[0].Key() // judged, with a mate (i11=+M9)
	nm := s.WithoutMates()
	if len(nm.Positions) != 2 || nm.FindKey(first) != nil || nm.FindKey("h8i8") == nil || nm.FindKey("h8i9j10") == nil {
		t.Errorf("WithoutMates kept %d positions, want the two without a mate value", len(nm.Positions))
	}
	c := s.Clamped(100)
	p := c.FindKey(first)
	want := map[string]Value{"h11": -90, "g11": -100, "i11": 100}
	for m, v := range p.Values {
		if want[m.String()] != v {
			t.Errorf("Clamped(100): %v=%v, want %v", m, v, want[m.String()])
		}
	}
	if s.Positions[0].Values[gomoku.Point{X: 8, Y: 10}] != mustValue("+M9") {
		t.Error("Clamped changed the set it was made from")
	}
	// h11 loses 190 units against i11 clamped to 100: -90 - 100.
	if _, u, ok := p.MoveLoss(gomoku.Point{X: 7, Y: 10}, UnitsCap); !ok || u != 190 {
		t.Errorf("loss of h11 on the clamped set: %v units, want 190", u)
	}
}

func TestMultiPVHeader(t *testing.T) {
	in := "gomoku-movevalues nodes=500 judge=multipv\npos h8i8 s root=10 best=h9 h9=10 h7=-M3\n"
	s, err := ParseMoveValues(strings.NewReader(in))
	if err != nil || !s.MultiPV || s.Nodes != 500 {
		t.Fatalf("%+v, %v", s, err)
	}
	var buf bytes.Buffer
	s.WriteTo(&buf)
	if buf.String() != in {
		t.Errorf("written %q, want %q", buf.String(), in)
	}
	if !s.WithoutMates().MultiPV || !s.Clamped(5).MultiPV {
		t.Error("a derived set lost judge=multipv")
	}
	s2, err := ParseMoveValues(strings.NewReader(goodSet))
	if err != nil || s2.MultiPV {
		t.Errorf("a set without judge= reads as multi-PV (%v)", err)
	}
}

func TestMultiPVReport(t *testing.T) {
	var r MultiPVReport
	for _, l := range []string{
		"MESSAGE Transposition table cleared.",
		"MESSAGE (1) 134 | 2-3 | I7 H7",
		"MESSAGE (2) 30 | 2-3 | I6 I11",
		"MESSAGE (3) -12 | 2-4 | G7",
		"MESSAGE Depth 2-4 | Eval 134 | Time 1ms | I7 H7",
		"MESSAGE (1) 90 | 3-5 | I6 H7",
		"MESSAGE (2) 120 | 3-5 | I7",    // a later line above the first: the best
		"MESSAGE (3) -M4 | 3-6 | G7 H7", // depth 3 complete
		"MESSAGE (1) 99 | 4-5 | I7",     // depth 4 stopped after one line
		"MESSAGE (x) 1 | 1-1 | A1",
		"MESSAGE (4) 1 | z-1 | A1",
		"MESSAGE (4) 1 | 1-1 | Z99",
		"MESSAGE (0) 1 | 1-1 | A1",
		"(2) 7 | 4-5", // no PV
		"MESSAGE Speed 673K | Depth 3-6 | Eval 120 | Node 500K | Time 743ms",
	} {
		r.Add(l)
	}
	d, best, vals, err := r.Values()
	i6, i7, g7 := gomoku.Point{X: 8, Y: 5}, gomoku.Point{X: 8, Y: 6}, gomoku.Point{X: 6, Y: 6}
	if err != nil || d != 3 || best != i7 || len(vals) != 3 || vals[i6] != 90 || vals[i7] != 120 || vals[g7] != mustValue("-M4") {
		t.Errorf("depth %d best %v values %v, %v", d, best, vals, err)
	}
	var none MultiPVReport
	if _, _, _, err := none.Values(); err == nil {
		t.Error("no lines: want an error")
	}
	var dup MultiPVReport
	dup.Add("MESSAGE (1) 5 | 2-2 | H7")
	dup.Add("MESSAGE (2) 4 | 2-2 | H7")
	if _, _, _, err := dup.Values(); err == nil || !strings.Contains(err.Error(), "two lines") {
		t.Errorf("a move in two lines: %v", err)
	}
	var part MultiPVReport // line 2 only at depth 1: no complete depth
	part.Add("MESSAGE (1) 5 | 1-2 | H7")
	part.Add("MESSAGE (2) 4 | 2-2 | H9")
	if _, _, _, err := part.Values(); err == nil {
		t.Error("no complete depth: want an error")
	}
}

func TestFillMissing(t *testing.T) {
	// h8 i9 on an empty board: symmetric about the diagonal through them
	// (x <-> y), so g9 and i7 are twins; nothing else is.
	b, err := (&ValuedPosition{Moves: []gomoku.Point{{X: 7, Y: 7}, {X: 8, Y: 8}}}).Board()
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) gomoku.Point {
		p, err := gomoku.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := map[gomoku.Point]Value{pt("g9"): 100, pt("i7"): 90, pt("h9"): 50, pt("j9"): 0, pt("h7"): -30, pt("a1"): mustValue("-M5")}
	vals := map[gomoku.Point]Value{pt("g9"): 80, pt("h9"): 40, pt("j9"): mustValue("+M9")}
	// i7 is g9's twin: 80. The others: old + the median of (vals - old)
	// over g9 and h9 (j9 is a mate): -20, -10, the upper middle -10.
	if tw, sh := fillMissing(b, vals, old); tw != 1 || sh != 2 {
		t.Errorf("added %d twins and %d shifted, want 1 and 2", tw, sh)
	}
	want := map[string]string{"g9": "80", "i7": "80", "h9": "40", "j9": "+M9", "h7": "-40", "a1": "-M5"}
	for m, w := range want {
		if vals[pt(m)].String() != w {
			t.Errorf("%s = %v, want %s", m, vals[pt(m)], w)
		}
	}
	none := map[gomoku.Point]Value{}
	if tw, sh := fillMissing(b, none, map[gomoku.Point]Value{pt("a1"): 7}); tw != 0 || sh != 1 || none[pt("a1")] != 7 {
		t.Errorf("no common moves: no shift, got %v", none)
	}
}

func TestTwin(t *testing.T) {
	pt := func(s string) gomoku.Point {
		p, err := gomoku.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	board := func(rec string) *gomoku.Board {
		ms, err := gomoku.ParseRecord(rec, 15)
		if err != nil {
			t.Fatal(err)
		}
		b, err := (&ValuedPosition{Moves: ms}).Board()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	vals := map[gomoku.Point]Value{pt("g9"): 5, pt("h9"): 7}
	for _, c := range []struct {
		rec, move string
		want      Value
		ok        bool
	}{
		{"h8", "i7", 5, true},      // the centre alone: every symmetry; i7 -> g9 by a half turn
		{"h8", "h7", 7, true},      // h7 -> h9 by a flip
		{"h8", "a1", 0, false},     // no twin among the valued moves
		{"h8i9", "i7", 5, true},    // the diagonal x <-> y maps i7 onto g9
		{"h8i9", "h7", 0, false},   // its twin g8 is not valued
		{"h8i9j7", "i7", 0, false}, // no symmetry left
		{"h8h9", "g9", 0, false},   // g9 itself is valued, not missing: still no other twin but i9 (not valued)
	} {
		v, ok := Twin(board(c.rec), pt(c.move), vals)
		if ok != c.ok || v != c.want {
			t.Errorf("%s, %s: %v %v, want %v %v", c.rec, c.move, v, ok, c.want, c.ok)
		}
	}
}

func TestSpread(t *testing.T) {
	const in = "gomoku-movevalues nodes=9\n" +
		"pos h8 a root=0 best=h9 h9=0 h7=-10 g7=-20\n" + // spread 0.5 - wp(-10): 0.0125
		"pos h8i9 b root=200 best=h9 h9=200 h7=0 g7=-M3\n" + // 0.731 - 0.5: 0.231
		"pos h8i8 c root=5 best=h9 h9=5 h7=-400\n" + // two: lower middle -400: 0.51
		"pos h8i9j10 d root=+M5 best=-\n" // decided: kept
	s, err := ParseMoveValues(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    float64
		keys string
	}{
		{0, "h8 h8i9 h8i8 h8i9j10"},
		{0.01, "h8 h8i9 h8i8 h8i9j10"},
		{0.02, "h8i9 h8i8 h8i9j10"},
		{0.3, "h8i8 h8i9j10"},
		{0.6, "h8i9j10"},
	} {
		var got []string
		for _, p := range s.Spread(c.x).Positions {
			got = append(got, p.Key())
		}
		if strings.Join(got, " ") != c.keys {
			t.Errorf("Spread(%v) = %v, want %s", c.x, got, c.keys)
		}
	}
}

// TestMoveValuesMultiPVFile checks the committed multi-PV set: the same
// judged positions as the child-search set, each valued by one multi-PV
// search, so the judge's choice is the best value and the root score is
// its value.
func TestMoveValuesMultiPVFile(t *testing.T) {
	s, err := ReadMoveValuesFile("testdata/gomoku-movevalues-multipv.txt")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadMoveValuesFile("testdata/gomoku-movevalues.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !s.MultiPV || s.Nodes != 500000 {
		t.Errorf("multi-PV %v, %d nodes a line", s.MultiPV, s.Nodes)
	}
	judged := 0
	for _, p := range c.Positions {
		if !p.Decided() {
			judged++
		}
	}
	if len(s.Positions) != judged {
		t.Errorf("%d positions, the child-search set judged %d", len(s.Positions), judged)
	}
	for _, p := range s.Positions {
		q := c.FindKey(p.Key())
		if q == nil || q.Decided() {
			t.Errorf("%s: not a judged position of the child-search set", p.Key())
			continue
		}
		if p.Decided() || len(p.Values) < 2 || p.Values[p.Best] != p.BestValue() || p.Root != p.BestValue() {
			t.Errorf("%s: %d values, best %v root %v, best value %v", p.Key(), len(p.Values), p.Best, p.Root, p.BestValue())
		}
		for m := range q.Values {
			if _, ok := p.Values[m]; !ok {
				t.Errorf("%s: %v valued by the child searches, not here", p.Key(), m)
			}
		}
	}
}

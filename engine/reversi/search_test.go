package reversi

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// ffoFile holds FFO endgame positions #40-#44 with their exact scores and
// best moves (FForum problem set; source and checks cited inside the file).
const ffoFile = "testdata/ffo-40-44.txt"

type ffoPosition struct {
	id    int
	pos   Position
	best  []Square
	score int
}

// readFFO reads FFO #40-#44.
func readFFO(tb testing.TB) []ffoPosition { return readFFOFile(tb, ffoFile) }

// readFFOFile reads a file in the ffo-40-44.txt format: one position a line
// (id, board, side to move, best moves, score), '#' starts a comment.
func readFFOFile(tb testing.TB, name string) []ffoPosition {
	var out []ffoPosition
	for _, fs := range dataLines(tb, name) {
		if len(fs) != 5 {
			tb.Fatalf("%s: bad FFO line %q", name, strings.Join(fs, " "))
		}
		out = append(out, parseFFOLine(tb, fs))
	}
	return out
}

func parseFFOLine(t testing.TB, fs []string) ffoPosition {
	id, _ := strconv.Atoi(fs[0])
	side := Black
	if fs[2] == "O" {
		side = White
	}
	p, err := ParsePosition(fs[1], side)
	if err != nil {
		t.Fatalf("FFO #%d: %v", id, err)
	}
	var best []Square
	for _, s := range strings.Split(fs[3], ",") {
		sq, err := ParseSquare(s)
		if err != nil {
			t.Fatalf("FFO #%d: %v", id, err)
		}
		best = append(best, sq)
	}
	score, err := strconv.Atoi(fs[4])
	if err != nil {
		t.Fatalf("FFO #%d: %v", id, err)
	}
	return ffoPosition{id: id, pos: p, best: best, score: score}
}

// TestFFO40 solves FFO #40 (20 empties) exactly: a2, +38 for black.
func TestFFO40(t *testing.T) {
	for _, fp := range readFFO(t) {
		if fp.id != 40 {
			continue
		}
		e := NewEngine()
		res, err := e.Search(context.Background(), fp.pos, Limits{Depth: 60})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Score != fp.score {
			t.Errorf("FFO #40: score %d exact=%v, want %d", res.Score, res.Exact, fp.score)
		}
		ok := false
		for _, b := range fp.best {
			ok = ok || b == res.Best
		}
		if !ok {
			t.Errorf("FFO #40: best %s, want one of %v", res.Best, fp.best)
		}
		t.Logf("FFO #40: %s %+d, %d nodes in %v", res.Best, res.Score, res.Nodes, res.Elapsed)
		return
	}
	t.Fatal("FFO #40 not in the data file")
}

// minimax is the oracle for the solver: plain negamax over the rules API,
// no pruning, no tables.
func minimax(p Position) int {
	if p.GameOver() {
		s := p.FinalScore()
		if p.ToMove() == White {
			s = -s
		}
		return s
	}
	if p.MustPass() {
		q, _ := p.PlayPass()
		return -minimax(q)
	}
	best := -65
	for _, m := range p.LegalMoves() {
		q, _ := p.Play(m)
		if v := -minimax(q); v > best {
			best = v
		}
	}
	return best
}

// endgamePositions plays random games and keeps the positions at the given
// number of empties.
func endgamePositions(rng *rand.Rand, n, empties int) []Position {
	var out []Position
	for len(out) < n {
		p := Start()
		for !p.GameOver() && p.Empties() > empties {
			if p.MustPass() {
				p, _ = p.PlayPass()
				continue
			}
			ms := p.LegalMoves()
			p, _ = p.Play(ms[rng.Intn(len(ms))])
		}
		if p.Empties() == empties && !p.GameOver() {
			out = append(out, p)
		}
	}
	return out
}

func TestSolverAgainstMinimax(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	e := NewEngineSize(1 << 20)
	for _, empties := range []int{1, 2, 3, 4, 5, 6, 7, 9} {
		for _, p := range endgamePositions(rng, 25, empties) {
			want := minimax(p)
			// Whole window, and windows around and away from the score:
			// a fail-soft solver must get the side of the window right.
			if got := e.solve(p.me, p.opp, -65, 65, empties); got != want {
				t.Fatalf("solve(%d empties)\n%s= %d, want %d", empties, p.Diagram(), got, want)
			}
			for _, w := range [][2]int{{want - 1, want + 1}, {want, want + 2}, {want - 2, want}, {-65, want - 3}, {want + 3, 65}} {
				got := e.solve(p.me, p.opp, w[0], w[1], empties)
				switch {
				case got <= w[0] && want > w[0],
					got >= w[1] && want < w[1],
					got > w[0] && got < w[1] && got != want:
					t.Fatalf("solve window %v of\n%s= %d, true %d", w, p.Diagram(), got, want)
				}
			}
			if p.MustPass() {
				continue
			}
			res, err := e.Search(context.Background(), p, Limits{Depth: 60})
			if err != nil || !res.Exact || res.Score != want {
				t.Fatalf("Search(%d empties)\n%s= %+v %v, want %d", empties, p.Diagram(), res, err, want)
			}
			q := p.play(int(res.Best))
			if -minimax(q) != want {
				t.Fatalf("Search best %s does not reach %d", res.Best, want)
			}
		}
	}
}

func TestSearchProgressAndPV(t *testing.T) {
	e := NewEngine()
	var infos []Info
	p := Start()
	res, err := e.Search(context.Background(), p, Limits{Depth: 6, Progress: func(i Info) { infos = append(infos, i) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 6 {
		t.Fatalf("got %d progress reports, want one per depth (6)", len(infos))
	}
	for i, inf := range infos {
		if inf.Depth != i+1 || len(inf.PV) == 0 || inf.PV[0] != inf.Best || !p.IsLegal(inf.Best) {
			t.Errorf("report %d: %+v", i, inf)
		}
	}
	if res.Depth != 6 || res.Nodes == 0 || res.Exact {
		t.Errorf("result %+v", res)
	}
	// The PV is a legal line.
	if _, err := Replay(p, res.PV); err != nil {
		t.Errorf("PV %v: %v", res.PV, err)
	}
}

func TestSearchSpecialPositions(t *testing.T) {
	mustPass, _ := ParsePosition("XO-"+strings.Repeat("X", 61), White)
	over, _ := ParsePosition(strings.Repeat("X", 64), Black)
	tests := []struct {
		name    string
		p       Position
		want    Square
		wantErr error
	}{
		{"forced pass", mustPass, Pass, nil},
		{"game over", over, NoSquare, ErrGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := NewEngine().Search(context.Background(), tc.p, Limits{})
			if err != tc.wantErr || res.Best != tc.want {
				t.Errorf("got %v %v, want %v %v", res.Best, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestSearchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewEngine().Search(ctx, Start(), Limits{}); err == nil {
		t.Error("search with a cancelled context succeeded")
	}
	// Cancel from the progress callback after depth 2: the search must
	// return the depth-2 move at once, without error.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	p, _ := Replay(Start(), mustTranscript(t, "f5d6c3d3c4f4f6f3e6e7"))
	res, err := NewEngine().Search(ctx, p, Limits{Depth: 30, Progress: func(i Info) {
		if i.Depth == 2 {
			cancel()
		}
	}})
	if err != nil || res.Depth < 2 || !p.IsLegal(res.Best) {
		t.Errorf("got %+v %v", res, err)
	}
	// A deadline in the past still yields a result when cancelled mid-way.
	ctx2, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	defer cancel2()
	if _, err := NewEngine().Search(ctx2, p, Limits{Depth: 3}); err != nil {
		t.Error(err)
	}
}

// TestSearchNodeBudget checks Limits.Nodes: the search stops within a
// poll of the budget, the same budget gives the same move, depth and node
// count every time, a larger budget searches deeper, and with a budget
// the top level is not capped at noDeadlineDepth.
func TestSearchNodeBudget(t *testing.T) {
	p, _ := Replay(Start(), mustTranscript(t, "f5d6c3d3c4f4f6f3e6e7"))
	search := func(nodes uint64) Result {
		t.Helper()
		r, err := NewEngine().Search(context.Background(), p, Limits{Nodes: nodes})
		if err != nil || !p.IsLegal(r.Best) {
			t.Fatalf("%d nodes: %+v %v", nodes, r, err)
		}
		return r
	}
	small := search(40_000)
	if small.Nodes < 40_000 || small.Nodes > 40_000+2*pollInterval {
		t.Errorf("budget 40,000: stopped after %d nodes", small.Nodes)
	}
	again := search(40_000)
	if again.Best != small.Best || again.Depth != small.Depth || again.Nodes != small.Nodes || again.Centi != small.Centi {
		t.Errorf("the same budget twice: %v d%d %d nodes %+d, then %v d%d %d nodes %+d",
			small.Best, small.Depth, small.Nodes, small.Centi, again.Best, again.Depth, again.Nodes, again.Centi)
	}
	large := search(4_000_000)
	if large.Depth <= small.Depth {
		t.Errorf("depth %d with 4,000,000 nodes, %d with 40,000", large.Depth, small.Depth)
	}
	if large.Depth <= noDeadlineDepth {
		t.Errorf("depth %d with 4,000,000 nodes: capped as a search without limits", large.Depth)
	}
}

func mustTranscript(t testing.TB, s string) []Square {
	m, err := ParseTranscript(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestExcludeMoves(t *testing.T) {
	e := NewEngine()
	p := Start()
	first, err := e.Search(context.Background(), p, Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.Search(context.Background(), p, Limits{Depth: 3, Exclude: []Square{first.Best}})
	if err != nil || second.Best == first.Best {
		t.Errorf("exclusion ignored: %v %v", second.Best, err)
	}
	if _, err := e.Search(context.Background(), p, Limits{Exclude: p.LegalMoves()}); err == nil {
		t.Error("excluding every move is not an error")
	}
}

func TestLevelsDeterministic(t *testing.T) {
	p, _ := Replay(Start(), mustTranscript(t, "f5d6c3d3c4f4"))
	for lv := 1; lv <= 4; lv++ {
		a, err1 := NewEngine().Search(context.Background(), p, Limits{Level: lv, Seed: 42})
		b, err2 := NewEngine().Search(context.Background(), p, Limits{Level: lv, Seed: 42})
		if err1 != nil || err2 != nil || a.Best != b.Best || !p.IsLegal(a.Best) {
			t.Errorf("level %d: %v %v / %v %v", lv, a.Best, err1, b.Best, err2)
		}
	}
	// Level 1 makes real mistakes: over many seeds it plays several moves.
	seen := map[Square]bool{}
	for seed := int64(1); seed <= 30; seed++ {
		r, _ := NewEngine().Search(context.Background(), p, Limits{Level: 1, Seed: seed})
		seen[r.Best] = true
	}
	if len(seen) < 2 {
		t.Errorf("level 1 always plays %v", seen)
	}
}

// TestSearchForgetsEarlierSearches: the midgame table forgets at each
// search, so an engine that has played through a game searches a position
// exactly as a fresh engine does (the same nodes, score, move and line),
// where before it took bounds from the earlier searches' entries and
// reached less depth in the same time (issue 16's forty-fifth session).
// The depths keep the searches in the midgame: the endgame table, which
// does keep its entries, is not touched.
func TestSearchForgetsEarlierSearches(t *testing.T) {
	p, err := Replay(Start(), mustTranscript(t, "f5d6c3d3c4f4"))
	if err != nil {
		t.Fatal(err)
	}
	const tableBytes = 4 << 20
	warm := NewEngineSize(tableBytes)
	for i := range 10 {
		lim := Limits{Depth: 7 + i%3, Level: MaxLevel}
		got, err := warm.Search(context.Background(), p, lim)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewEngineSize(tableBytes).Search(context.Background(), p, lim)
		if err != nil {
			t.Fatal(err)
		}
		if got.Nodes != want.Nodes || got.Centi != want.Centi || got.Best != want.Best || !slices.Equal(got.PV, want.PV) {
			t.Errorf("search %d, depth %d: after the earlier searches %v %+d %v in %d nodes, fresh %v %+d %v in %d nodes",
				i+1, lim.Depth, got.Best, got.Centi, got.PV, got.Nodes, want.Best, want.Centi, want.PV, want.Nodes)
		}
		if p, err = Replay(p, []Square{want.Best}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEvaluateSymmetric(t *testing.T) {
	// The evaluation sees the same position mirrored or rotated the same
	// way: the features are symmetric, and so are the pattern tables.
	if patternParams == nil {
		t.Fatal("the embedded patterns.bin does not decode")
	}
	rng := rand.New(rand.NewSource(3))
	for _, c := range []struct {
		name   string
		params *evalParams
	}{{"default", defaultParams}, {"linear", linearParams}, {"pattern", patternParams}} {
		for _, p := range randomPositions(rng, 20)[:300] {
			v := c.params.evaluate(p.me, p.opp)
			for _, tr := range []func(uint64) uint64{flipVertical, pattern.Mirror, pattern.Transpose} {
				if w := c.params.evaluate(tr(p.me), tr(p.opp)); w != v {
					t.Fatalf("%s: eval %d, transformed %d\n%s", c.name, v, w, p.Diagram())
				}
			}
		}
	}
}

func ExampleEngine_Search() {
	// FFO endgame position #40: black to move wins by 38 discs with a2.
	p, _ := ParsePosition("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", Black)
	e := NewEngine()
	res, err := e.Search(context.Background(), p, Limits{Depth: 60})
	fmt.Println(res.Best, res.Score, res.Exact, err)
	// Output: a2 38 true <nil>
}

func ExampleEngine_Search_level() {
	e := NewEngine()
	res, _ := e.Search(context.Background(), Start(), Limits{Level: 1, Seed: 7})
	fmt.Println(Start().IsLegal(res.Best))
	// Output: true
}

func TestEmbeddedWeights(t *testing.T) {
	w, err := parseWeights(weightsJSON)
	if err != nil {
		t.Fatal(err)
	}
	if w.Version < 2 || len(w.Edge) != numPhases || w.Source == "" {
		t.Errorf("embedded weights: version %d, %d edge phases, source %q", w.Version, len(w.Edge), w.Source)
	}
	// Every edge configuration and its mirror share a value (symmetry).
	for ph := range w.Edge {
		for c := range w.Edge[ph] {
			if w.Edge[ph][c] != w.Edge[ph][edgeReverse[c]] {
				t.Fatalf("phase %d: edge %d and its mirror differ", ph, c)
			}
		}
	}
}

func FuzzParseWeights(f *testing.F) {
	f.Add(string(weightsJSON))
	f.Add(`{"version":1,"features":[]}`)
	f.Add(`{"edge":[[1,2]]}`)
	f.Fuzz(func(t *testing.T, s string) {
		w, err := parseWeights([]byte(s))
		if err != nil {
			return
		}
		p := w.params()
		_ = p.evaluate(Start().me, Start().opp)
	})
}

func TestEndgameEmptiesOverride(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	p := endgamePositions(rng, 1, 10)[0]
	if p.MustPass() {
		t.Skip("position must pass")
	}
	e := NewEngine()
	tests := []struct {
		name  string
		lim   Limits
		exact bool
	}{
		{"level 4 solves from 8 empties: not yet", Limits{Level: 4}, false},
		{"override to 10 empties", Limits{Level: 4, EndgameEmpties: 10}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := e.Search(context.Background(), p, tc.lim)
			if err != nil || r.Exact != tc.exact {
				t.Errorf("got exact=%v %v, want %v", r.Exact, err, tc.exact)
			}
			if tc.exact && r.Score != minimax(p) {
				t.Errorf("score %d, minimax %d", r.Score, minimax(p))
			}
		})
	}
}

// TestCutIterationKeepsBetterMove cuts a root iteration at every poll, as a
// deadline would, with the best move searched second: once that move has
// been searched completely, the cut iteration must report it (Search then
// plays it instead of the last completed iteration's move); before, the
// first move or nothing.
func TestCutIterationKeepsBetterMove(t *testing.T) {
	const depth = 9 // deep enough for a root iteration to span many polls
	rng := rand.New(rand.NewSource(11))
	checked := 0
	for _, p := range randomPositions(rng, 34)[:20] {
		// setUp returns an engine that has searched depths 1..depth-1,
		// and root ordered with the depth-(depth) best move second.
		setUp := func() (*Engine, []rootMove) {
			e := NewEngine()
			var root []rootMove
			for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
				root = append(root, rootMove{sq: bits.TrailingZeros64(m)})
			}
			for d := 1; d < depth; d++ {
				e.searchRoot(p.me, p.opp, root, d, d > 1)
			}
			return e, root
		}
		e, root := setUp()
		if len(root) < 3 {
			continue
		}
		_, best := e.searchRoot(p.me, p.opp, append([]rootMove(nil), root...), depth, true)
		if best == root[0].sq {
			continue // the first move stays best: nothing to switch to
		}
		e, root = setUp()
		for i := range root {
			if root[i].sq == best {
				root[1], root[i] = root[i], root[1]
			}
		}
		total := e.nodes
		_, _ = e.searchRoot(p.me, p.opp, append([]rootMove(nil), root...), depth, true)
		total = e.nodes - total
		sawFirst, sawBest := false, false
		for stop := uint64(pollInterval); stop < total; stop += pollInterval {
			e, root = setUp()
			for i := range root {
				if root[i].sq == best {
					root[1], root[i] = root[i], root[1]
				}
			}
			e.stopAtNodes = e.nodes + stop
			_, got := e.searchRoot(p.me, p.opp, root, depth, true)
			if !e.aborted {
				break
			}
			switch {
			case got == best:
				sawBest = true
			case got == root[0].sq && !sawBest:
				sawFirst = true
			case got == -1 && !sawFirst && !sawBest:
			default:
				t.Fatalf("cut after %d nodes: move %d; first %d, best %d", stop, got, root[0].sq, best)
			}
		}
		if sawBest {
			checked++
			break // one position shows it; more only cost time
		}
	}
	if checked == 0 {
		t.Fatal("no position had a cut after the better move was proved")
	}
}

// TestLeafFromFrames checks that a child evaluated from its parent's
// pattern frame (the search's leaves and move ordering) scores exactly as
// the child evaluated from its board, with the engine's tables and with
// the linear evaluation (which has no frames: evaluateFrame ignores them).
func TestLeafFromFrames(t *testing.T) {
	for _, params := range []*evalParams{patternParams, linearParams} {
		e := NewEngineSize(1 << 16)
		e.params = params
		for _, p := range randomPositions(rand.New(rand.NewSource(7)), 200) {
			var theirs pattern.Frame
			theirs.Read(p.opp, p.me)
			for m := p.Moves(); m != 0; m &= m - 1 {
				sq := bits.TrailingZeros64(m)
				f := flips(p.me, p.opp, sq)
				cme, copp := p.opp&^f, p.me|f|1<<uint(sq)
				if got, want := e.leaf(cme, copp, &theirs, sq, f), params.evaluate(cme, copp); got != want {
					t.Fatalf("%v, move %v: from the frame %d, from the board %d", p, Square(sq), got, want)
				}
			}
		}
	}
}

// TestSquareClasses checks that the classes of the move order one ply
// above the leaves cover every square once, best key first.
func TestSquareClasses(t *testing.T) {
	var all uint64
	last := 1 << 30
	for i, class := range squareClasses {
		if all&class != 0 {
			t.Fatalf("class %d overlaps an earlier one", i)
		}
		all |= class
		k := squareKey[bits.TrailingZeros64(class)]
		for m := class; m != 0; m &= m - 1 {
			if squareKey[bits.TrailingZeros64(m)] != k {
				t.Fatalf("class %d mixes keys", i)
			}
		}
		if k >= last {
			t.Fatalf("class %d (key %d) after key %d", i, k, last)
		}
		last = k
	}
	if all != ^uint64(0) {
		t.Fatalf("classes cover %#x, not the board", all)
	}
}

// checkOrderKeys compares orderKeys with orderKeysGo and orderKey on one
// board (checkKeys).
func checkOrderKeys(t *testing.T, me, opp uint64) {
	t.Helper()
	moves := legalMoves(me, opp)
	checkKeys(t, "orderKeys", me, opp,
		func(l *moveList) int { return orderKeys(me, opp, moves, l) },
		func(l *moveList) int { return orderKeysGo(me, opp, moves, l) },
		orderKey)
}

// TestOrderKeys checks the midgame's children and keys two plies above the
// leaves on random boards and the perft walk's first plies.
func TestOrderKeys(t *testing.T) {
	onTestBoards(11, 20000, 4, func(me, opp uint64) { checkOrderKeys(t, me, opp) })
}

// FuzzOrderKeys checks the midgame's children and keys on any pair of disc
// sets (the overlap of the two is given to me).
func FuzzOrderKeys(f *testing.F) {
	addDiscSeeds(f)
	f.Fuzz(func(t *testing.T, me, opp uint64) {
		checkOrderKeys(t, me, opp&^me)
	})
}

// TestSolveInTime checks the rule that decides whether the solve is started
// after the midgame iterations: only when the time left is at least
// solveTimeFactor times the time already spent, and always without a
// deadline. The margins are wide (the time left is at least twice what the
// factor asks or at most half of it) and in minutes, so neither the
// machine's speed nor a test process starved of the processor for seconds
// can change the answers (with a 2 s deadline one starved for 1.2 s did).
func TestSolveInTime(t *testing.T) {
	now := time.Now()
	withDeadline, cancel := context.WithDeadline(context.Background(), now.Add(2*time.Hour))
	defer cancel()
	for _, c := range []struct {
		name  string
		ctx   context.Context
		spent time.Duration
		want  bool
	}{
		{"no deadline, long spent", context.Background(), time.Hour, true},
		{"2 h left, 6 min spent", withDeadline, 6 * time.Minute, true},
		{"2 h left, 30 min spent", withDeadline, 30 * time.Minute, false},
		{"2 h left, 1 h spent", withDeadline, time.Hour, false},
		{"2 h left, 3 h spent", withDeadline, 3 * time.Hour, false},
	} {
		if got := solveInTime(c.ctx, now.Add(-c.spent)); got != c.want {
			t.Errorf("%s: solveInTime = %v, want %v", c.name, got, c.want)
		}
	}
}

package reversi

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Measurement commands (docs/benchmarks.md has the figures):
//
//	go test -run '^$' -bench 'Perft' -benchtime 1x ./engine/reversi
//	go test -run '^$' -bench 'Midgame' -benchtime 1x ./engine/reversi
//	go test -run '^$' -bench 'FFO' -benchtime 1x ./engine/reversi
//	REVERSI_FFO_ALL=1 go test -run TestFFOAll -v ./engine/reversi   (#40-#49, checks scores)
//	REVERSI_MIDGAME_SET=14,16,300ms,1s go test -run TestMidgameSet -v ./engine/reversi   (80 game positions)

func BenchmarkPerft(b *testing.B) {
	for _, d := range []int{9, 10, 11} {
		b.Run(fmt.Sprintf("depth=%d", d), func(b *testing.B) {
			b.ReportAllocs()
			var n uint64
			for i := 0; i < b.N; i++ {
				n = Perft(Start(), d)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}

// midgamePositions is the fixed midgame set: four opening lines continued
// by the engine at depth 2 to 20 and 30 discs on the board.
func midgamePositions(tb testing.TB) []Position {
	lines := []string{"f5d6c3d3c4", "f5f6e6f4e3", "f5d6c5f4e3", "f5f4e3f6d3"}
	var out []Position
	e := NewEngine()
	for _, l := range lines {
		p, err := Replay(Start(), mustTranscript(tb, l))
		if err != nil {
			tb.Fatal(err)
		}
		for p.Empties() > 34 {
			if p.MustPass() {
				p, _ = p.PlayPass()
				continue
			}
			r, err := e.Search(context.Background(), p, Limits{Depth: 2})
			if err != nil {
				tb.Fatal(err)
			}
			p = p.play(int(r.Best))
			if p.Empties() == 44 {
				out = append(out, p)
			}
		}
		out = append(out, p)
	}
	return out
}

func BenchmarkMidgame(b *testing.B) {
	pos := midgamePositions(b)
	for _, d := range []int{10, 12, 14} {
		b.Run(fmt.Sprintf("depth=%d", d), func(b *testing.B) {
			b.ReportAllocs()
			searchPositions(b, pos, nil, Limits{Depth: d})
		})
	}
}

func allFFO(tb testing.TB) []ffoPosition {
	return append(readFFO(tb), readFFOFile(tb, "testdata/ffo-45-49.txt")...)
}

func BenchmarkFFO(b *testing.B) {
	for _, fp := range allFFO(b) {
		b.Run(fmt.Sprintf("ffo%d", fp.id), func(b *testing.B) {
			b.ReportAllocs()
			var nodes uint64
			for i := 0; i < b.N; i++ {
				e := benchEngine()
				r, err := e.Search(context.Background(), fp.pos, Limits{Depth: 60})
				if err != nil || r.Score != fp.score {
					b.Fatalf("#%d: %+v %v, want %d", fp.id, r, err, fp.score)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// TestFFOAll solves #40-#49 and checks every score and best move; it is a
// measurement (tens of seconds), run with REVERSI_FFO_ALL=1, or with a
// comma-separated list of numbers to solve only those (REVERSI_FFO_ALL=40,41).
func TestFFOAll(t *testing.T) {
	if os.Getenv("REVERSI_FFO_ALL") == "" {
		t.Skip("set REVERSI_FFO_ALL=1 to solve FFO #40-#49")
	}
	var total time.Duration
	var nodes uint64
	for _, fp := range allFFO(t) {
		if !ffoSelected(os.Getenv("REVERSI_FFO_ALL"), fp.id) {
			continue
		}
		e := NewEngine()
		r, err := e.Search(context.Background(), fp.pos, Limits{Depth: 60})
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for _, m := range fp.best {
			ok = ok || m == r.Best
		}
		if r.Score != fp.score || !r.Exact || !ok {
			t.Errorf("#%d: %s %+d, want %v %+d", fp.id, r.Best, r.Score, fp.best, fp.score)
		}
		total += r.Elapsed
		nodes += r.Nodes
		t.Logf("#%d (%d empties): %s %+d  %10d nodes  %8.2fs  %5.1f Mn/s", fp.id, fp.pos.Empties(), r.Best, r.Score, r.Nodes, r.Elapsed.Seconds(), float64(r.Nodes)/r.Elapsed.Seconds()/1e6)
	}
	t.Logf("total: %d nodes in %.2fs (%.1f Mn/s)", nodes, total.Seconds(), float64(nodes)/total.Seconds()/1e6)
}

// ffoSelected reports whether REVERSI_FFO_ALL's value sel asks for
// position id: "1" asks for all of them, a comma-separated list for those
// it names.
func ffoSelected(sel string, id int) bool {
	if sel == "1" {
		return true
	}
	for _, f := range strings.Split(sel, ",") {
		if strings.TrimSpace(f) == strconv.Itoa(id) {
			return true
		}
	}
	return false
}

func TestFFOFilesLegal(t *testing.T) {
	for _, fp := range allFFO(t) {
		if len(fp.pos.LegalMoves()) == 0 {
			t.Errorf("#%d: side to move has no move", fp.id)
		}
		for _, m := range fp.best {
			if !fp.pos.IsLegal(m) {
				t.Errorf("#%d: best move %s is illegal", fp.id, m)
			}
		}
	}
}

// BenchmarkSolve solves 100 random positions at 12 and at 14 empties with
// the whole window: the bottom of the solver, where most endgame time goes,
// measured on many small trees rather than one big one.
func BenchmarkSolve(b *testing.B) {
	for _, empties := range []int{12, 14} {
		pos := endgamePositions(rand.New(rand.NewSource(int64(empties))), 100, empties)
		b.Run(fmt.Sprintf("empties=%d", empties), func(b *testing.B) {
			e := NewEngineSize(1 << 20) // small: it is cleared for every position
			var nodes uint64
			for i := 0; i < b.N; i++ {
				for _, p := range pos {
					e.Clear()
					e.nodes = 0
					e.solve(p.me, p.opp, -65, 65, empties)
					nodes += e.nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N)/float64(len(pos)), "nodes/pos")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkSolveGames solves twelve positions from self-play (level 3 against
// itself, seeded, so the positions are fixed) at 20 and at 22 empties, the
// way the service and FFO runs do (Search with Depth 60: midgame iterations,
// then the solver). It checks solver changes on positions other than the ten
// FFO ones.
func BenchmarkSolveGames(b *testing.B) {
	for _, empties := range []int{20, 22} {
		pos := selfPlayPositions(b, 12, empties)
		b.Run(fmt.Sprintf("empties=%d", empties), func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				for _, p := range pos {
					r, err := NewEngine().Search(context.Background(), p, Limits{Depth: 60})
					if err != nil || !r.Exact {
						b.Fatalf("%v: %+v %v", p, r, err)
					}
					nodes += r.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// selfPlayPositions plays level 3 against itself with a seed per game and
// returns the first n positions that reach the given number of empties with
// the game still on.
func selfPlayPositions(tb testing.TB, n, empties int) []Position {
	tb.Helper()
	var out []Position
	for seed := int64(1); len(out) < n; seed++ {
		p := Start()
		e := NewEngineSize(1 << 20)
		for !p.GameOver() && p.Empties() > empties {
			if p.MustPass() {
				p, _ = p.PlayPass()
				continue
			}
			r, err := e.Search(context.Background(), p, Limits{Level: 3, Seed: seed*131 + int64(p.Empties())})
			if err != nil {
				tb.Fatal(err)
			}
			if p, err = p.Play(r.Best); err != nil {
				tb.Fatal(err)
			}
		}
		if p.Empties() == empties && !p.GameOver() {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkEvaluate times one static evaluation, with the pattern tables
// (the engine's) and with the linear features of weights.json (the
// baseline), on positions from the midgame benchmark's games.
func BenchmarkEvaluate(b *testing.B) {
	var ps []Position
	p := Start()
	for i := 0; i < 40 && !p.GameOver(); i++ {
		if p.MustPass() {
			p, _ = p.PlayPass()
			continue
		}
		ms := p.LegalMoves()
		p = p.play(int(ms[i%len(ms)]))
		ps = append(ps, p)
	}
	for _, c := range []struct {
		name   string
		params *evalParams
	}{{"pattern", patternParams}, {"linear", linearParams}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for i := 0; i < b.N; i++ {
				q := ps[i%len(ps)]
				s += c.params.evaluate(q.me, q.opp)
			}
			sink = s
		})
	}
}

var sink int

// BenchmarkMidgameEval compares the evaluations in the midgame search at a
// fixed depth (full width, so the trees differ only by ordering and
// leaves): nodes per position and time.
func BenchmarkMidgameEval(b *testing.B) {
	pos := midgamePositions(b)
	for _, c := range []struct {
		name string
		use  func(*Engine)
	}{{"linear", (*Engine).UseLinearEvaluation}, {"pattern", (*Engine).UsePatternEvaluation}} {
		b.Run(c.name, func(b *testing.B) {
			searchPositions(b, pos, c.use, Limits{Depth: 10, NoSelective: true})
		})
	}
}

// BenchmarkDepthInOneSecond reports the midgame depth the full engine
// completes in one second (a context deadline, as the service gives it) on
// the midgame benchmark's positions, with and without Multi-ProbCut.
func BenchmarkDepthInOneSecond(b *testing.B) {
	pos := midgamePositions(b)
	for _, c := range []struct {
		name        string
		noSelective bool
	}{{"selective", false}, {"full-width", true}} {
		b.Run(c.name, func(b *testing.B) {
			depths := 0
			for i := 0; i < b.N; i++ {
				for _, p := range pos {
					e := NewEngine()
					ctx, cancel := context.WithTimeout(context.Background(), time.Second)
					r, err := e.Search(ctx, p, Limits{NoSelective: c.noSelective})
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					depths += r.Depth
				}
			}
			b.ReportMetric(float64(depths)/float64(b.N)/float64(len(pos)), "depth")
		})
	}
}

// benchEngine returns a new engine with the evaluation REVERSI_EVAL names
// ("linear" or "pattern"; default the engine's own), so that benchmarks
// can compare them.
//
// REVERSI_TABLE_MB, if set, sizes its tables instead of DefaultTableBytes.
func benchEngine() *Engine {
	e := NewEngine()
	if mb, err := strconv.Atoi(os.Getenv("REVERSI_TABLE_MB")); err == nil && mb > 0 {
		e = NewEngineSize(mb << 20)
	}
	switch os.Getenv("REVERSI_EVAL") {
	case "linear":
		e.UseLinearEvaluation()
	case "pattern":
		e.UsePatternEvaluation()
	}
	return e
}

// searchPositions searches every position of pos with a fresh engine (set up by setup,
// if any) b.N times, and reports nodes and milliseconds per position and nodes per second.
func searchPositions(b *testing.B, pos []Position, setup func(*Engine), limits Limits) {
	var nodes uint64
	for i := 0; i < b.N; i++ {
		for _, p := range pos {
			e := NewEngine()
			if setup != nil {
				setup(e)
			}
			r, err := e.Search(context.Background(), p, limits)
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N)/float64(len(pos)), "nodes/pos")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(len(pos))*1000, "ms/pos")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkFlips times one flips call, on the legal moves of positions from
// random games and random fillings of the board.
func BenchmarkFlips(b *testing.B) {
	type move struct {
		me, opp uint64
		sq      int
	}
	var ms []move
	for _, p := range randomPositions(rand.New(rand.NewSource(1)), 30) {
		for m := p.Moves(); m != 0; m &= m - 1 {
			ms = append(ms, move{p.me, p.opp, bits.TrailingZeros64(m)})
		}
	}
	ms = ms[:4096]
	b.Run("direct", func(b *testing.B) {
		var s uint64
		for i := 0; i < b.N; i++ {
			m := &ms[i&4095]
			s += flips(m.me, m.opp, m.sq)
		}
		sink = int(s)
	})
	// The versions through a function value: slower by the indirect
	// call, but comparable with one another. In a chain each call's board
	// depends on the last result, as in a search, where the next move
	// waits for this one's flips: its time is the latency of a call.
	for _, v := range flipsVersions {
		b.Run(v.name, func(b *testing.B) {
			var s uint64
			for i := 0; i < b.N; i++ {
				m := &ms[i&4095]
				s += v.flips(m.me, m.opp, m.sq)
			}
			sink = int(s)
		})
		b.Run(v.name+"/chain", func(b *testing.B) {
			var s uint64
			for i := 0; i < b.N; i++ {
				m := &ms[i&4095]
				s = v.flips(m.me^s&1, m.opp, m.sq)
			}
			sink = int(s)
		})
	}
}

// BenchmarkKeys times the loops that make a node's children with their
// ordering keys, the solver's (solveKeys) and the midgame's (orderKeys),
// against their Go versions, over the moves of 1,024 random positions. On
// amd64 with AVX-512 solveKeys and orderKeys are the assembly loops; a
// legacy SSE instruction in them once made them 13-20 times slower than
// their Go loops on an Intel Xeon (TestNoLegacySSEInAssembly).
func BenchmarkKeys(b *testing.B) {
	ps := randomPositions(rand.New(rand.NewSource(1)), 1024)
	for _, v := range []struct {
		name string
		keys func(p Position, l *moveList) int
	}{
		{"solveKeys", func(p Position, l *moveList) int {
			return solveKeys(p.me, p.opp, p.Moves(), oddRegions(^(p.me | p.opp)), l)
		}},
		{"solveKeysGo", func(p Position, l *moveList) int {
			return solveKeysGo(p.me, p.opp, p.Moves(), oddRegions(^(p.me | p.opp)), l)
		}},
		{"orderKeys", func(p Position, l *moveList) int { return orderKeys(p.me, p.opp, p.Moves(), l) }},
		{"orderKeysGo", func(p Position, l *moveList) int { return orderKeysGo(p.me, p.opp, p.Moves(), l) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			var l moveList
			s := 0
			for i := 0; i < b.N; i++ {
				s += v.keys(ps[i&1023], &l)
			}
			sink = s
		})
	}
}

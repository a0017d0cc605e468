package gomoku

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// Labels from games' results rather than from our own searches (issue
// 15's eighteenth session), both steps skipped in the normal suite.
//
// Games: level 6 against itself at a fixed node budget a move, from
// seeded random openings (the centre and then GOMOKU_SELFPLAY_OPEN moves
// at most, each drawn from the eight best points by the move order's
// value), or with GOMOKU_SELFPLAY_PISKVORK set from a Piskvork opening
// (one of the 40 that fit 15x15, turned by one of the board's eight
// symmetries) and then up to GOMOKU_SELFPLAY_OPEN such moves, written as
// match-log lines that readLoggedGames reads:
//
//	GOMOKU_SELFPLAY_OUT=games.txt [GOMOKU_SELFPLAY_GAMES=100] \
//	  [GOMOKU_SELFPLAY_NODES=30000] [GOMOKU_SELFPLAY_SEED=1] [GOMOKU_SELFPLAY_OPEN=5] \
//	  [GOMOKU_SELFPLAY_PISKVORK=1] go test -run TestSelfPlayGames -v -timeout 0 ./engine/gomoku
//
// Result labels: every position of every distinct game from move
// GOMOKU_RLABEL_FROM to GOMOKU_RLABEL_TO (stones on the board), only the
// quiet ones (quietPosition) unless GOMOKU_RLABEL_ALL is set, written in
// TestLabelEval's format with the score of a search of
// GOMOKU_RLABEL_NODES nodes (0, the default: no search, score 0):
//
//	GOMOKU_RLABEL=<match logs or games files> GOMOKU_RLABEL_OUT=rlabels.txt \
//	  [GOMOKU_RLABEL_FROM=10] [GOMOKU_RLABEL_TO=45] [GOMOKU_RLABEL_NODES=0] \
//	  go test -run TestLabelResults -v -timeout 0 ./engine/gomoku
//
// TestFitEval reads such files with GOMOKU_FIT_RESULTS: their target is
// the game's result, not the score.

// TestSelfPlayGames plays the self-play games.
func TestSelfPlayGames(t *testing.T) {
	name := os.Getenv("GOMOKU_SELFPLAY_OUT")
	if name == "" {
		t.Skip("set GOMOKU_SELFPLAY_OUT to a file to write self-play games to")
	}
	out, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	games := int(envUint(t, "GOMOKU_SELFPLAY_GAMES", 100))
	nodes := envUint(t, "GOMOKU_SELFPLAY_NODES", 30000)
	open := int(envUint(t, "GOMOKU_SELFPLAY_OPEN", 5))
	seed := int64(envUint(t, "GOMOKU_SELFPLAY_SEED", 1))
	rng := rand.New(rand.NewSource(seed))
	var openings [][]Point
	if os.Getenv("GOMOKU_SELFPLAY_PISKVORK") != "" {
		openings, _ = piskvorkOpenings(t)
	}
	start := time.Now()
	var black [3]int
	for g := range games {
		var b *Board
		if openings != nil {
			b = randomOpening(rng, openings[rng.Intn(len(openings))], rng.Intn(8), rng.Intn(open+1))
		} else {
			b = randomOpening(rng, []Point{{X: 7, Y: 7}}, 0, 2+rng.Intn(open))
		}
		e := NewEngine()
		for !b.Over() && b.MoveCount() < 225 {
			r, err := e.Search(context.Background(), b, Limits{Nodes: nodes})
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Play(r.Best); err != nil {
				t.Fatal(err)
			}
		}
		res := "draw"
		if w, over := b.Winner(); over && !b.Draw() {
			res = "loss"
			if w == Black {
				res = "win"
			}
		}
		black[map[string]int{"win": 0, "loss": 1, "draw": 2}[res]]++
		fmt.Fprintf(out, "selfplay seed %d game %d nodes %d as black: %s %s\n", seed, g, nodes, res, FormatRecord(b.Moves()))
		if g%20 == 19 {
			t.Logf("%d games, %v", g+1, time.Since(start).Round(time.Second))
		}
	}
	t.Logf("%d games at %d nodes a move in %v: black +%d -%d =%d", games, nodes, time.Since(start).Round(time.Second), black[0], black[1], black[2])
}

// piskvorkOpenings reads the Piskvork openings that fit 15x15 from the
// match harness's list (offsets from the centre; internal/match's
// ParseOpenings reads the same file), and their names ("piskvork/3").
func piskvorkOpenings(t *testing.T) ([][]Point, []string) {
	data, err := os.ReadFile("internal/match/testdata/gomoku-openings.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]Point
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) != 6 || f[0] != "piskvork" {
			continue
		}
		var moves []Point
		fits := true
		for _, pair := range strings.Fields(f[5]) {
			var dx, dy int
			if _, err := fmt.Sscanf(pair, "%d,%d", &dx, &dy); err != nil {
				t.Fatalf("opening %q: %v", line, err)
			}
			p := Point{X: 7 + dx, Y: 7 + dy}
			fits = fits && p.X >= 0 && p.Y >= 0 && p.X < 15 && p.Y < 15
			moves = append(moves, p)
		}
		if fits {
			out = append(out, moves)
			names = append(names, f[0]+"/"+f[1])
		}
	}
	if len(out) != 40 {
		t.Fatalf("%d Piskvork openings fit 15x15, want 40", len(out))
	}
	return out, names
}

// randomOpening plays the opening turned by the symmetry sym (0-7) and
// then up to n moves of playDetours.
func randomOpening(rng *rand.Rand, opening []Point, sym, n int) *Board {
	b, _ := NewBoard(15, Freestyle)
	for _, p := range turnOpening(opening, sym) {
		if b.Play(p) != nil {
			return nil
		}
	}
	playDetours(rng, b, n)
	return b
}

// turnOpening returns the opening's points on the 15x15 board turned by
// the symmetry sym (0-7: bit 1 mirrors x, bit 2 mirrors y, bit 4 swaps
// them).
func turnOpening(opening []Point, sym int) []Point {
	out := make([]Point, len(opening))
	for i, p := range opening {
		x, y := p.X, p.Y
		if sym&1 != 0 {
			x = 14 - x
		}
		if sym&2 != 0 {
			y = 14 - y
		}
		if sym&4 != 0 {
			x, y = y, x
		}
		out[i] = Point{X: x, Y: y}
	}
	return out
}

// quietPosition reports whether neither side has a point that would make
// two open threes or better: no open three or four on the board, no
// double threat to answer.
func quietPosition(b *Board) bool {
	for c := range 2 {
		n := &b.classCount[c]
		if n[tThree2]+n[tFourThree]+n[tFlex4]+n[tFive] > 0 {
			return false
		}
	}
	return true
}

// TestLabelResults writes result labels.
func TestLabelResults(t *testing.T) {
	files, out := labelFiles(t, "GOMOKU_RLABEL", "positions by their games' results")
	from := int(envUint(t, "GOMOKU_RLABEL_FROM", 10))
	to := int(envUint(t, "GOMOKU_RLABEL_TO", 45))
	nodes := envUint(t, "GOMOKU_RLABEL_NODES", 0)
	all := os.Getenv("GOMOKU_RLABEL_ALL") != ""
	skip := openingRange(t, "GOMOKU_RLABEL_SKIP")
	keep := openingRange(t, "GOMOKU_RLABEL_KEEP")
	openings, _ := piskvorkOpenings(t)
	w := bufio.NewWriter(out)
	defer w.Flush()
	seen := map[uint64]bool{}
	n, quiet, skipped := 0, 0, 0
	games := readLoggedGames(t, files)
	for _, game := range games {
		moves, err := ParseRecord(game.record, 15)
		if err != nil {
			continue
		}
		if skip != nil || keep != nil {
			from := startsWith(moves, openings)
			if (skip != nil && slices.ContainsFunc(from, skip)) || (keep != nil && !slices.ContainsFunc(from, keep)) {
				skipped++
				continue
			}
		}
		h := fnv.New32a()
		h.Write([]byte(game.record))
		b, _ := NewBoard(15, Freestyle)
		for i, p := range moves {
			if b.Play(p) != nil {
				break
			}
			if i+1 < from || i+1 > to || !labelable(b) || seen[b.Hash()] {
				continue
			}
			if !quietPosition(b) {
				if !all {
					continue
				}
			} else {
				quiet++
			}
			seen[b.Hash()] = true
			score := 0
			if nodes > 0 {
				r, err := NewEngine().Search(context.Background(), b, Limits{Nodes: nodes})
				if err != nil {
					t.Fatal(err)
				}
				score = r.Score
			}
			res := game.black
			if b.ToMove() == White {
				res = 1 - res
			}
			fmt.Fprintf(w, "%s %d %g %08x\n", FormatRecord(b.Moves()), score, res, h.Sum32())
			n++
		}
	}
	t.Logf("%d games (%d skipped by opening), %d positions (%d quiet) at %d-%d stones", len(games), skipped, n, quiet, from, to)
}

// openingRange reads a range of Piskvork openings ("20-39") from the
// variable name: a test of an opening's index, nil when unset. Result
// labels can so leave out (GOMOKU_RLABEL_SKIP) or keep only
// (GOMOKU_RLABEL_KEEP) the games that start from the openings a match
// is measured on.
func openingRange(t *testing.T, name string) func(int) bool {
	v := os.Getenv(name)
	if v == "" {
		return nil
	}
	var lo, hi int
	if _, err := fmt.Sscanf(v, "%d-%d", &lo, &hi); err != nil || lo > hi {
		t.Fatalf("%s=%q: want a range such as 20-39", name, v)
	}
	return func(i int) bool { return i >= lo && i <= hi }
}

// startsWith returns the indices of the openings that the moves start
// with, in any of the board's eight symmetries (the moves in order).
func startsWith(moves []Point, openings [][]Point) []int {
	var out []int
	for i, o := range openings {
		if len(moves) < len(o) {
			continue
		}
		for sym := range 8 {
			if slices.Equal(turnOpening(o, sym), moves[:len(o)]) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// TestPiskvorkOpenings checks the openings the self-play games start
// from: the 40 that fit 15x15, the first as the match harness has it,
// and its eight symmetries distinct.
func TestPiskvorkOpenings(t *testing.T) {
	open, names := piskvorkOpenings(t)
	if names[0] != "piskvork/0" || FormatRecord(open[0]) != "h8i8i11" {
		t.Fatalf("first opening %s %s, want piskvork/0 h8i8i11", names[0], FormatRecord(open[0]))
	}
	seen := map[string]bool{}
	for sym := range 8 {
		b := randomOpening(nil, open[0], sym, 0)
		seen[FormatRecord(b.Moves())] = true
	}
	if len(seen) != 8 {
		t.Fatalf("%d distinct symmetries of piskvork/0, want 8: %v", len(seen), seen)
	}
}

// TestResultTarget checks that a result label's target is its game's
// result and a search label's the score's probability.
func TestResultTarget(t *testing.T) {
	r := fitSample{score: 1204, result: 0, fromResult: true}
	s := fitSample{score: 1204, result: 0}
	if r.target(1204) != 0 || math.Abs(s.target(1204)-sigmoid(1)) > 1e-12 {
		t.Fatalf("targets %v and %v, want 0 and %v", r.target(1204), s.target(1204), sigmoid(1))
	}
	if sampleWeight(&r, 3) != 3 || sampleWeight(&s, 3) != 1 {
		t.Fatal("a result label must weigh rw, a search label 1")
	}
}

// TestStartsWith checks that a game is traced to its Piskvork opening in
// any symmetry, and to no other opening of the 40.
func TestStartsWith(t *testing.T) {
	open, _ := piskvorkOpenings(t)
	for _, c := range []struct{ opening, sym int }{{0, 0}, {20, 5}, {39, 3}, {25, 7}} {
		b := randomOpening(nil, open[c.opening], c.sym, 0)
		moves := append(b.Moves(), Point{X: 0, Y: 0})
		if got := startsWith(moves, open); !slices.Equal(got, []int{c.opening}) {
			t.Errorf("opening %d, symmetry %d: traced to %v", c.opening, c.sym, got)
		}
	}
	if got := startsWith([]Point{{X: 7, Y: 7}}, open); got != nil {
		t.Errorf("one stone traced to %v", got)
	}
	frozen := quietParams(tTwo, sitFourAndThree, false)
	if !frozen[fitTerms+5] || !frozen[fitTerms] || !frozen[fitPatterns] || frozen[fitSituations] || !frozen[fitParams-1] {
		t.Error("quietParams: the tempo, a tactical term, a pattern value or a tactical situation moving, or the quiet situation frozen")
	}
	for c := range numCombos {
		if frozen[c] != (comboClass[c] > tTwo) || frozen[numCombos+c] != frozen[c] {
			t.Fatalf("quietParams: combination %d (class %d) frozen %v", c, comboClass[c], frozen[c])
		}
	}
	if quietParams(tTwo, sitFourAndThree, true)[fitTerms+5] {
		t.Error("quietParams: the tempo frozen with tempo")
	}
}

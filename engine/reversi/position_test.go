package reversi

import (
	"fmt"
	"math/bits"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// perftFile is the project's reference perft table (sources cited inside:
// an independent bitboard perft and Edax 4.6 `-count games`).
const perftFile = "testdata/othello-perft.txt"

// readPerft returns the "depth count" lines of perftFile.
func readPerft(t testing.TB) map[int]uint64 {
	want := map[int]uint64{}
	for _, fs := range dataLines(t, perftFile) {
		if len(fs) != 2 {
			t.Fatalf("bad perft line %q", strings.Join(fs, " "))
		}
		d, err1 := strconv.Atoi(fs[0])
		n, err2 := strconv.ParseUint(fs[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad perft line %q", strings.Join(fs, " "))
		}
		want[d] = n
	}
	return want
}

func TestPerftStart(t *testing.T) {
	want := readPerft(t)
	// Depth 9 is 3 million leaves: quick even under -race. Deeper depths
	// are in BenchmarkPerft.
	for d := 1; d <= 9; d++ {
		if got := Perft(Start(), d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
}

// perftSmallTable: the first depths, written out so the test reads without
// the data file (same numbers as ../shared/data/othello-perft.txt).
func TestPerftSmall(t *testing.T) {
	tests := []struct {
		name  string
		depth int
		want  uint64
	}{
		{"depth 1: f5 d3 c4 e6", 1, 4},
		{"depth 2", 2, 12},
		{"depth 3", 3, 56},
		{"depth 4", 4, 244},
		{"depth 5", 5, 1396},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Perft(Start(), tc.depth); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// naiveBoard is the obvious 8x8 array model used as the oracle: walk each of
// the eight directions square by square.
type naiveBoard [64]int8 // 0 empty, 1 side to move, 2 opponent

func toNaive(me, opp uint64) naiveBoard {
	var b naiveBoard
	for i := 0; i < 64; i++ {
		switch {
		case me&(1<<uint(i)) != 0:
			b[i] = 1
		case opp&(1<<uint(i)) != 0:
			b[i] = 2
		}
	}
	return b
}

func (b *naiveBoard) flips(sq int) uint64 {
	if b[sq] != 0 {
		return 0
	}
	var all uint64
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if dr == 0 && dc == 0 {
				continue
			}
			var line uint64
			r, c := sq/8+dr, sq%8+dc
			for r >= 0 && r < 8 && c >= 0 && c < 8 && b[r*8+c] == 2 {
				line |= 1 << uint(r*8+c)
				r, c = r+dr, c+dc
			}
			if line != 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r*8+c] == 1 {
				all |= line
			}
		}
	}
	return all
}

func (b *naiveBoard) moves() uint64 {
	var m uint64
	for sq := 0; sq < 64; sq++ {
		if b.flips(sq) != 0 {
			m |= 1 << uint(sq)
		}
	}
	return m
}

// randomPositions returns positions from random games (every ply) and random
// fillings of the board, which reach shapes no game does.
func randomPositions(rng *rand.Rand, games int) []Position {
	var out []Position
	for g := 0; g < games; g++ {
		p := Start()
		for !p.GameOver() {
			out = append(out, p)
			ms := p.LegalMoves()
			if len(ms) == 0 {
				p, _ = p.PlayPass()
				continue
			}
			p, _ = p.Play(ms[rng.Intn(len(ms))])
		}
		out = append(out, p)
	}
	for i := 0; i < games*20; i++ {
		var black, white uint64
		density := rng.Intn(100)
		for sq := 0; sq < 64; sq++ {
			if rng.Intn(100) < density {
				if rng.Intn(2) == 0 {
					black |= 1 << uint(sq)
				} else {
					white |= 1 << uint(sq)
				}
			}
		}
		p, _ := NewPosition(black, white, Color(rng.Intn(2)))
		out = append(out, p)
	}
	return out
}

func TestMovesAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, p := range randomPositions(rng, 200) {
		nb := toNaive(p.me, p.opp)
		if got, want := p.Moves(), nb.moves(); got != want {
			t.Fatalf("moves of\n%s got %x want %x", p.Diagram(), got, want)
		}
		for sq := 0; sq < 64; sq++ {
			if got, want := p.Flipped(Square(sq)), nb.flips(sq); got != want {
				t.Fatalf("flips at %s of\n%s got %x want %x", Square(sq), p.Diagram(), got, want)
			}
		}
		if got, want := potentialMoves(p.me, p.opp), naivePotential(nb); got != want {
			t.Fatalf("potential moves of\n%s got %x want %x", p.Diagram(), got, want)
		}
		if got, want := frontierDiff(p.me, p.opp), naiveFrontier(nb); got != want {
			t.Fatalf("frontier of\n%s got %d want %d", p.Diagram(), got, want)
		}
		checkStable(t, p)
	}
}

func naivePotential(b naiveBoard) uint64 {
	var m uint64
	for sq := 0; sq < 64; sq++ {
		if b[sq] != 0 {
			continue
		}
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				r, c := sq/8+dr, sq%8+dc
				if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r*8+c] == 2 {
					m |= 1 << uint(sq)
				}
			}
		}
	}
	return m
}

// naiveFrontier counts the discs next to an empty square, the side to
// move's minus the opponent's.
func naiveFrontier(b naiveBoard) int {
	nextToEmpty := func(sq int) bool {
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				r, c := sq/8+dr, sq%8+dc
				if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r*8+c] == 0 {
					return true
				}
			}
		}
		return false
	}
	n := 0
	for sq := 0; sq < 64; sq++ {
		switch {
		case b[sq] == 1 && nextToEmpty(sq):
			n++
		case b[sq] == 2 && nextToEmpty(sq):
			n--
		}
	}
	return n
}

// checkStable verifies that the discs stableDiscs calls stable are never
// flipped by any move of the opponent, to a small depth of random play: a
// necessary condition that catches wrong masks.
func checkStable(t *testing.T, p Position) {
	t.Helper()
	for _, side := range []Color{Black, White} {
		var mine uint64
		if side == Black {
			mine = p.Black()
		} else {
			mine = p.White()
		}
		st := stableDiscs(mine, p.me|p.opp)
		if st&^mine != 0 {
			t.Fatalf("stable discs %x not all of the side's discs %x", st, mine)
		}
		// Every legal move of either side keeps the stable discs.
		for _, q := range []Position{p, {me: p.opp, opp: p.me, turn: p.turn.Other()}} {
			for m := q.Moves(); m != 0; m &= m - 1 {
				sq := bits.TrailingZeros64(m)
				if flips(q.me, q.opp, sq)&st != 0 {
					t.Fatalf("move %s flips a 'stable' disc in\n%s stable=%x", Square(sq), p.Diagram(), st)
				}
			}
		}
	}
}

func TestPlayAndCounts(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		board      string
		toMove     Color
		black      int
		white      int
	}{
		{"start", "", "---------------------------OX------XO---------------------------", Black, 2, 2},
		{"f5", "f5", "---------------------------OX------XXX--------------------------", White, 4, 1},
		{"f5d6", "f5d6", "---------------------------OX------OXX-----O--------------------", Black, 3, 3},
		{"f5d6c3", "f5d6c3", "------------------X--------XX------OXX-----O--------------------", White, 5, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moves, err := ParseTranscript(tc.transcript)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Replay(Start(), moves)
			if err != nil {
				t.Fatal(err)
			}
			if p.String() != tc.board || p.ToMove() != tc.toMove {
				t.Errorf("got %s %s, want %s %s", p, p.ToMove(), tc.board, tc.toMove)
			}
			if b, w := p.Count(); b != tc.black || w != tc.white {
				t.Errorf("count %d-%d, want %d-%d", b, w, tc.black, tc.white)
			}
		})
	}
}

func TestIllegalMoves(t *testing.T) {
	tests := []struct {
		name string
		sq   Square
	}{
		{"occupied d4", 27},
		{"flips nothing a1", 0},
		{"not adjacent", 18 + 40},
		{"off the board", 64},
		{"negative", -5},
		{"pass with moves", Pass},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Start()
			q, err := p.Play(tc.sq)
			if err == nil {
				t.Fatalf("Play(%s) succeeded", tc.sq)
			}
			if !strings.HasPrefix(err.Error(), "reversi: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if q != p {
				t.Errorf("failed Play changed the position")
			}
		})
	}
}

func TestPassAndGameOver(t *testing.T) {
	tests := []struct {
		name     string
		board    string
		toMove   Color
		mustPass bool
		over     bool
		final    int // black minus white, empties to the winner
	}{
		// White to move, white has no disc next to an empty square it could
		// use; black can still play h8? No: build positions by hand.
		{"empty board", strings.Repeat("-", 64), White, false, true, 0},
		{"full board 40-24", strings.Repeat("X", 40) + strings.Repeat("O", 24), Black, false, true, 16},
		{"one empty nobody can take", "-" + strings.Repeat("X", 63), White, false, true, 64},
		{"white must pass", "XO-" + strings.Repeat("X", 61), White, true, false, 0},
		{"draw 32-32", strings.Repeat("XO", 32), Black, false, true, 0},
		{"white ahead with empties", "OOOO" + strings.Repeat("-", 60), Black, false, true, -64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePosition(tc.board, tc.toMove)
			if err != nil {
				t.Fatal(err)
			}
			if p.MustPass() != tc.mustPass || p.GameOver() != tc.over {
				t.Fatalf("MustPass=%v GameOver=%v, want %v %v\n%s", p.MustPass(), p.GameOver(), tc.mustPass, tc.over, p.Diagram())
			}
			if tc.over {
				if got := p.FinalScore(); got != tc.final {
					t.Errorf("FinalScore = %d, want %d", got, tc.final)
				}
				if _, err := p.PlayPass(); err == nil {
					t.Error("PlayPass in a finished game succeeded")
				}
			}
			if tc.mustPass {
				q, err := p.PlayPass()
				if err != nil || q.ToMove() != tc.toMove.Other() || q.String() != p.String() {
					t.Errorf("PlayPass = %v %v", q, err)
				}
				if len(p.LegalMoves()) != 0 {
					t.Error("LegalMoves not empty when the side must pass")
				}
			}
		})
	}
}

func TestSquareNames(t *testing.T) {
	tests := []struct {
		in   string
		want Square
		ok   bool
	}{
		{"a1", 0, true}, {"h1", 7, true}, {"a8", 56, true}, {"H8", 63, true},
		{"F5", 37, true}, {"pa", Pass, true}, {"PASS", Pass, true},
		{"i1", 0, false}, {"a9", 0, false}, {"a0", 0, false}, {"", 0, false}, {"a10", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSquare(tc.in)
			if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
				t.Fatalf("ParseSquare(%q) = %v, %v", tc.in, got, err)
			}
			if tc.ok && tc.want != Pass {
				if s := got.String(); !strings.EqualFold(s, tc.in) {
					t.Errorf("String() = %q", s)
				}
			}
		})
	}
}

func TestParsePositionErrors(t *testing.T) {
	tests := []struct {
		name  string
		board string
	}{
		{"short", strings.Repeat("-", 63)},
		{"long", strings.Repeat("-", 65)},
		{"bad char", strings.Repeat("-", 63) + "Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParsePosition(tc.board, Black); err == nil || !strings.HasPrefix(err.Error(), "reversi: ") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestTranscriptErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"dangling", "f5d"},
		{"bad square", "f5z9"},
		{"bad column", "f5i3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseTranscript(tc.in); err == nil {
				t.Error("no error")
			}
		})
	}
	// Syntactically fine but illegal: Replay names the move.
	moves, _ := ParseTranscript("f5f5")
	if _, err := Replay(Start(), moves); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("Replay error = %v", err)
	}
}

func TestUndoIsCopy(t *testing.T) {
	p := Start()
	before := p
	q, _ := p.Play(37)
	if p != before {
		t.Fatal("Play mutated its receiver")
	}
	if q == p {
		t.Fatal("Play returned the same position")
	}
}

func ExampleParseTranscript() {
	moves, _ := ParseTranscript("f5d6c3d3c4")
	p, _ := Replay(Start(), moves)
	b, w := p.Count()
	fmt.Println(FormatTranscript(moves), p.ToMove(), b, w)
	// Output: f5d6c3d3c4 white 6 3
}

func ExamplePosition_Play() {
	p := Start()
	prev := p // undo is keeping the previous value
	p, err := p.Play(Square(37))
	fmt.Println(err, p.ToMove(), p.LegalMoves())
	p = prev
	fmt.Println(p.ToMove())
	// Output:
	// <nil> white [f4 d6 f6]
	// black
}

func FuzzReplay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3})
	f.Add([]byte("f5d6c3d3c4f4f6f3e6e7"))
	f.Add(make([]byte, 70))
	f.Fuzz(func(t *testing.T, choices []byte) {
		p := Start()
		var moves []Square
		for _, c := range choices {
			if p.GameOver() {
				break
			}
			ms := p.LegalMoves()
			var m Square
			if len(ms) == 0 {
				m = Pass
			} else {
				m = ms[int(c)%len(ms)]
			}
			b0, w0 := p.Count()
			q, err := p.Play(m)
			if err != nil {
				t.Fatalf("legal move %s refused: %v", m, err)
			}
			b1, w1 := q.Count()
			if m != Pass && b1+w1 != b0+w0+1 {
				t.Fatalf("disc count %d+%d -> %d+%d", b0, w0, b1, w1)
			}
			p = q
			moves = append(moves, m)
		}
		back, err := ParseTranscript(FormatTranscript(moves))
		if err != nil {
			t.Fatal(err)
		}
		q, err := Replay(Start(), back)
		if err != nil || q != p {
			t.Fatalf("replay of %s: %v", FormatTranscript(moves), err)
		}
		if p.GameOver() {
			b, w := p.Count()
			s := p.FinalScore()
			if (b > w && s <= 0) || (b < w && s >= 0) || (b == w && s != 0) {
				t.Fatalf("final score %d for %d-%d", s, b, w)
			}
		}
	})
}

func FuzzParseTranscript(f *testing.F) {
	f.Add("f5d6c3d3c4")
	f.Add("F5 D6 pa c3")
	f.Add("pass")
	f.Add("z")
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParseTranscript(s)
		if err != nil {
			return
		}
		again, err := ParseTranscript(FormatTranscript(moves))
		if err != nil || len(again) != len(moves) {
			t.Fatalf("round trip of %q: %v %v", s, again, err)
		}
		for i := range moves {
			if moves[i] != again[i] {
				t.Fatalf("round trip of %q differs at %d", s, i)
			}
		}
		_, _ = Replay(Start(), moves) // must not panic
	})
}

func FuzzParsePosition(f *testing.F) {
	f.Add(Start().String(), false)
	f.Add(strings.Repeat("X", 64), true)
	f.Add("xo", false)
	f.Fuzz(func(t *testing.T, board string, white bool) {
		side := Black
		if white {
			side = White
		}
		p, err := ParsePosition(board, side)
		if err != nil {
			return
		}
		q, err := ParsePosition(p.String(), side)
		if err != nil || q != p {
			t.Fatalf("round trip of %q", board)
		}
		_ = p.LegalMoves()
		_ = p.GameOver()
		_ = p.FinalScore()
	})
}

// stableFromNothing is stableWith's iteration started from the discs on
// four full lines alone: the definition, one ring of squares per round.
func stableFromNothing(mine uint64, full [4]uint64) uint64 {
	return stableFrom(mine&full[0]&full[1]&full[2]&full[3], mine, full)
}

// checkStableAll compares stableAll (on AVX2 where the processor has it)
// with the iteration from nothing over fullLinesSlow, for both sides.
func checkStableAll(t *testing.T, me, opp uint64) {
	t.Helper()
	full := fullLinesSlow(me | opp)
	for _, mine := range [2]uint64{me, opp} {
		if got, want := stableAll(mine, me|opp), stableFromNothing(mine, full); got != want {
			t.Fatalf("stableAll(%#x, %#x) = %#x, want %#x", mine, me|opp, got, want)
		}
	}
}

// TestStableAll checks stableAll on random fillings and game positions.
func TestStableAll(t *testing.T) {
	onTestBoards(13, 20000, 5, func(me, opp uint64) { checkStableAll(t, me, opp) })
	rng := rand.New(rand.NewSource(14))
	for _, p := range randomPositions(rng, 2000) {
		checkStableAll(t, p.me, p.opp)
	}
}

// FuzzStableAll checks stableAll on any pair of disc sets.
func FuzzStableAll(f *testing.F) {
	addDiscSeeds(f)
	f.Fuzz(func(t *testing.T, me, opp uint64) {
		checkStableAll(t, me, opp&^me)
	})
}

// TestStableEdgeStart checks that starting the iteration from the edge
// discs (edgeStable) finds the same stable discs as starting from nothing,
// for both sides of game positions and random fillings.
func TestStableEdgeStart(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, p := range randomPositions(rng, 300) {
		full := fullLines(p.me | p.opp)
		for _, mine := range [2]uint64{p.me, p.opp} {
			if got, want := stableWith(mine, full), stableFromNothing(mine, full); got != want {
				t.Fatalf("stable discs of %x in\n%s: %x, want %x", mine, p.Diagram(), got, want)
			}
		}
	}
}

package reversi

import (
	"context"
	"math/bits"
	"math/rand"
	"testing"
)

// TestCountLastFlips checks the line-table flip count against flips() on
// full boards with one empty square, for every square.
func TestCountLastFlips(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		sq := rng.Intn(64)
		me := rng.Uint64() &^ (1 << uint(sq))
		opp := ^me &^ (1 << uint(sq))
		for _, side := range [2][2]uint64{{me, opp}, {opp, me}} {
			want := popcount(flips(side[0], side[1], sq))
			if got := countLastFlips(side[0], sq); got != want {
				t.Fatalf("countLastFlips(%#x, %s) = %d, want %d", side[0], Square(sq), got, want)
			}
		}
	}
}

// TestSolveRootAspiration checks that the root solve finds the exact score
// and a move that reaches it whatever the midgame guess it starts from:
// right, a little off, far off, or out of range.
func TestSolveRootAspiration(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	e := NewEngineSize(1 << 20)
	for _, p := range endgamePositions(rng, 12, 12) {
		if p.MustPass() {
			continue
		}
		want := e.solve(p.me, p.opp, -65, 65, 12)
		for _, guess := range []int{want, want - 2, want + 4, -64, 64, 0, 33, -1000, 1000} {
			var root []rootMove
			for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
				root = append(root, rootMove{sq: bits.TrailingZeros64(m)})
			}
			e.Clear() // no exact results left in the table from earlier solves
			best, score := e.solveRoot(p.me, p.opp, root, guess, nil)
			if score != want {
				t.Fatalf("guess %d: solveRoot score %d, want %d\n%s", guess, score, want, p.Diagram())
			}
			if got := -e.solve(p.opp&^flips(p.me, p.opp, best), p.me|flips(p.me, p.opp, best)|1<<uint(best), -65, 65, 11); got != want {
				t.Fatalf("guess %d: best move %s scores %d, want %d", guess, Square(best), got, want)
			}
			if root[0].sq != best {
				t.Fatalf("guess %d: root not reordered: first %s, best %s", guess, Square(root[0].sq), Square(best))
			}
		}
	}
}

// fullLinesSlow is the obvious fullLines: test every line's mask.
func fullLinesSlow(occupied uint64) [4]uint64 {
	var full [4]uint64
	for k := range lineMasks {
		for _, m := range lineMasks[k] {
			if occupied&m == m {
				full[k] |= m
			}
		}
	}
	return full
}

// TestFullLines checks the shift-based full-line finder against the obvious
// one on random boards of every density, and on the full and empty boards.
func TestFullLines(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	boards := []uint64{0, ^uint64(0)}
	for i := 0; i < 20000; i++ {
		b := ^uint64(0)
		for k := rng.Intn(12); k > 0; k-- {
			b &^= 1 << uint(rng.Intn(64))
		}
		boards = append(boards, b, rng.Uint64(), rng.Uint64()|rng.Uint64())
	}
	for _, b := range boards {
		if got, want := fullLines(b), fullLinesSlow(b); got != want {
			t.Fatalf("fullLines(%#x) = %x, want %x", b, got, want)
		}
	}
}

// quadrants are the four 4x4 corners of the board, the regions of the
// solver's parity ordering.
var quadrants = [4]uint64{0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000}

// TestOddRegions checks the folded parity against counting the empties of
// each quadrant, on random boards and on the corner cases of empty and full.
func TestOddRegions(t *testing.T) {
	slow := func(empty uint64) uint64 {
		var odd uint64
		for _, q := range quadrants {
			if popcount(empty&q)%2 == 1 {
				odd |= empty & q
			}
		}
		return odd
	}
	rng := rand.New(rand.NewSource(5))
	boards := []uint64{0, ^uint64(0), 1, 1 << 63, quadrants[0], quadrants[3] | 1}
	for i := 0; i < 20000; i++ {
		// Sparse boards too, as in the endgame.
		boards = append(boards, rng.Uint64(), rng.Uint64()&rng.Uint64()&rng.Uint64())
	}
	for _, empty := range boards {
		if got, want := oddRegions(empty), slow(empty); got != want {
			t.Fatalf("oddRegions(%#016x) = %#016x, want %#016x", empty, got, want)
		}
	}
}

// TestPreferredSquares checks the solver's static preference at five and six
// empties: corners, else anything but X-squares, else the X-squares.
func TestPreferredSquares(t *testing.T) {
	const a1, b2, c3, h8, g7, d1 = 1 << 0, 1 << 9, 1 << 18, 1 << 63, 1 << 54, 1 << 3
	for _, tc := range []struct {
		name     string
		set, who uint64
	}{
		{"empty", 0, 0},
		{"a corner among others", a1 | b2 | c3, a1},
		{"two corners", a1 | h8 | d1 | g7, a1 | h8},
		{"no corner: not the X-squares", b2 | c3 | d1 | g7, c3 | d1},
		{"X-squares only", b2 | g7, b2 | g7},
		{"one square", c3, c3},
	} {
		if got := preferredSquares(tc.set); got != tc.who {
			t.Errorf("%s: preferredSquares(%#x) = %#x, want %#x", tc.name, tc.set, got, tc.who)
		}
	}
}

// TestQuadrantOf checks that each square's quadrant holds it and is one of
// the four quadrants.
func TestQuadrantOf(t *testing.T) {
	for sq := 0; sq < 64; sq++ {
		q := quadrantOf[sq]
		if q&(1<<uint(sq)) == 0 || (q != quadrants[0] && q != quadrants[1] && q != quadrants[2] && q != quadrants[3]) {
			t.Fatalf("quadrantOf[%s] = %#016x", Square(sq), q)
		}
	}
}

// TestSolverTableRegion checks the small region of the solver's table
// (endgame_table.go): positions near the end are kept in the first
// localTableEntries slots (or the whole table, when it is smaller), the
// others in the whole table, and solves with a table larger than the
// region and one smaller than it agree with each other and with the
// scores of the whole window.
func TestSolverTableRegion(t *testing.T) {
	big, small := NewEngineSize(64*localTableEntries*ttEntryBytes), NewEngineSize(0)
	for _, tc := range []struct {
		e       *Engine
		empties int
		want    int
	}{
		{big, localTableMaxEmpties, localTableEntries},
		{big, localTableMaxEmpties + 1, len(big.end.entries)},
		{small, ttMinEmpties, len(small.end.entries)},
	} {
		tab := tc.e.solverTable(tc.empties)
		if len(tab.entries) != tc.want || tab.mask != uint64(tc.want-2) || &tab.entries[0] != &tc.e.end.entries[0] {
			t.Errorf("%d empties in a table of %d: region of %d entries, mask %#x; want %d from the table's start",
				tc.empties, len(tc.e.end.entries), len(tab.entries), tab.mask, tc.want)
		}
	}
	rng := rand.New(rand.NewSource(13))
	for _, p := range endgamePositions(rng, 20, 13) {
		want := big.solve(p.me, p.opp, -65, 65, 13)
		if got := small.solve(p.me, p.opp, -65, 65, 13); got != want {
			t.Fatalf("small table: %d, large table %d\n%s", got, want, p.Diagram())
		}
		for _, e := range []*Engine{big, small} {
			if got := e.solve(p.me, p.opp, want-1, want+1, 13); got != want {
				t.Fatalf("window around %d: %d\n%s", want, got, p.Diagram())
			}
		}
	}
}

// TestOrderSearchCache checks the solver's cached ordering searches
// (endorder.go): the score is shallowSearch's whether it is computed or
// read back, and a cached score is never found as the entry of a real
// position, in either the position's or the key's colours.
func TestOrderSearchCache(t *testing.T) {
	e := NewEngineSize(1 << 20)
	rng := rand.New(rand.NewSource(16))
	for _, p := range endgamePositions(rng, 40, 16) {
		for depth := 0; depth <= 2; depth++ {
			want := e.shallowSearch(p.me, p.opp, -infinity, infinity, depth)
			for pass := 0; pass < 2; pass++ { // computed, then from the table
				if got := e.orderSearch(p.me, p.opp, depth); got != want {
					t.Fatalf("depth %d, call %d: %d, want %d\n%s", depth, pass+1, got, want, p.Diagram())
				}
			}
		}
		for _, pos := range [][2]uint64{{p.me, p.opp}, {p.opp, p.me}} {
			if ent, ok := e.mid.probe(pos[0], pos[1]); ok {
				t.Fatalf("the real position has an entry %+v after ordering searches\n%s", ent, p.Diagram())
			}
		}
	}
	// A side without discs is searched, not stored: its key would be a
	// real position's.
	me, opp := uint64(0), uint64(0xFFFF)
	if got, want := e.orderSearch(me, opp, 1), e.shallowSearch(me, opp, -infinity, infinity, 1); got != want {
		t.Errorf("no discs to move: %d, want %d", got, want)
	}
	if _, ok := e.mid.probe(me, opp|me); ok {
		t.Error("a side without discs stored an ordering score")
	}
}

// TestOrderTerms checks the solver's ordering terms as OrderTerms reports
// them: every legal move, the reply's shallow search at the solver's
// depth for the position's empties (turned to the mover's view), and the
// replies left to the opponent.
func TestOrderTerms(t *testing.T) {
	e := NewEngineSize(1 << 20)
	rng := rand.New(rand.NewSource(17))
	for empties, depth := range map[int]int{16: 1, 18: 1, 19: 2, 22: 3} {
		for _, p := range endgamePositions(rng, 5, empties) {
			moves, scores, replies := e.OrderTerms(p, 0)
			legal := p.LegalMoves()
			if len(moves) != len(legal) || len(scores) != len(legal) || len(replies) != len(legal) {
				t.Fatalf("%d moves, %d scores, %d replies, want %d each\n%s", len(moves), len(scores), len(replies), len(legal), p.Diagram())
			}
			for i, sq := range moves {
				c := p.play(int(sq))
				if sq != legal[i] {
					t.Fatalf("move %d is %s, want %s", i, sq, legal[i])
				}
				if want := -e.shallowSearch(c.me, c.opp, -infinity, infinity, depth); scores[i] != want {
					t.Errorf("%d empties, %s: score %d, want %d (depth %d)", empties, sq, scores[i], want, depth)
				}
				if want := len(c.LegalMoves()); replies[i] != want {
					t.Errorf("%d empties, %s: %d replies, want %d", empties, sq, replies[i], want)
				}
			}
		}
	}
}

// TestSolveAspirationEnds solves a position whose selective pass, with the
// best move excluded (as "hint" asks), once failed low and high in turn
// for ever: the root's aspiration windows (-9, -3), (-15, -8), (-9, -2),
// (-15, -8), ... each contradicted the last, since a selective pass's
// bounds need not agree from one window to the next. The solve must end,
// exactly, within a node budget far above what it needs.
func TestSolveAspirationEnds(t *testing.T) {
	const board = "---XO-----XXXO---XXXOXOO-XXOXXOO-XOXOOXOOOXXOXX---OOXO---OOO-X--"
	var black, white uint64
	for i, c := range board {
		switch c {
		case 'X':
			black |= 1 << uint(i)
		case 'O':
			white |= 1 << uint(i)
		}
	}
	p, err := NewPosition(black, white, Black)
	if err != nil {
		t.Fatal(err)
	}
	f1, err := ParseSquare("f1")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine()
	first, err := e.Search(context.Background(), p, Limits{Depth: 60})
	if err != nil || !first.Exact || first.Best != f1 || first.Score != -6 {
		t.Fatalf("first solve: %s %+d exact %v (%v), want f1 -6 exact", first.Best, first.Score, first.Exact, err)
	}
	r, err := e.Search(context.Background(), p, Limits{Depth: 60, Exclude: []Square{first.Best}, Nodes: 200_000_000})
	if err != nil || !r.Exact {
		t.Fatalf("without f1: %s %+d exact %v after %d nodes (%v)", r.Best, r.Score, r.Exact, r.Nodes, err)
	}
	c := p.play(int(r.Best))
	child, err := NewEngine().Search(context.Background(), c, Limits{Depth: 60})
	if err != nil || r.Best == first.Best || r.Score > first.Score || -child.Score != r.Score {
		t.Errorf("without f1: %s %+d, the move's own solve %+d (%v); want a move other than f1, at most -6", r.Best, r.Score, -child.Score, err)
	}
}

// checkKeys compares a way of making a node's children and keys (made,
// in assembly on amd64 with AVX-512) with its Go version (made in Go) and
// with the key function itself on one board: the same children, in the
// same order, with the same keys.
func checkKeys(t *testing.T, name string, me, opp uint64, made, madeInGo func(*moveList) int, key func(cme, copp uint64, sq int) int) {
	t.Helper()
	moves := legalMoves(me, opp)
	var got, want moveList
	n, wantN := made(&got), madeInGo(&want)
	if n != wantN || n != bits.OnesCount64(moves) {
		t.Fatalf("%s(%#x, %#x): %d children, in Go %d, moves %d", name, me, opp, n, wantN, bits.OnesCount64(moves))
	}
	for i := range n {
		sq := int(want.sq[i])
		f := flips(me, opp, sq)
		if k := key(opp&^f, me|f|1<<uint(sq), sq); int(want.key[i]) != k {
			t.Fatalf("%s in Go (%#x, %#x)[%d]: key %d, want %d", name, me, opp, i, want.key[i], k)
		}
		if got.sq[i] != want.sq[i] || got.key[i] != want.key[i] || got.me[i] != want.me[i] || got.opp[i] != want.opp[i] {
			t.Fatalf("%s(%#x, %#x)[%d] = %d %d %#x %#x, want %d %d %#x %#x", name, me, opp, i,
				got.sq[i], got.key[i], got.me[i], got.opp[i], want.sq[i], want.key[i], want.me[i], want.opp[i])
		}
	}
}

// checkSolveKeys compares solveKeys with solveKeysGo and solveKey on one
// board.
func checkSolveKeys(t *testing.T, me, opp uint64) {
	t.Helper()
	moves, odd := legalMoves(me, opp), oddRegions(^(me | opp))
	checkKeys(t, "solveKeys", me, opp,
		func(l *moveList) int { return solveKeys(me, opp, moves, odd, l) },
		func(l *moveList) int { return solveKeysGo(me, opp, moves, odd, l) },
		func(cme, copp uint64, sq int) int { return solveKey(cme, copp, sq, odd) })
}

// TestSolveKeys checks the solver's children and keys on random boards and
// the perft walk's first plies.
func TestSolveKeys(t *testing.T) {
	t.Logf("AVX-512: %v", useAVX512)
	onTestBoards(9, 20000, 4, func(me, opp uint64) { checkSolveKeys(t, me, opp) })
}

// FuzzSolveKeys checks the solver's children and keys on any pair of disc
// sets (the overlap of the two is given to me).
func FuzzSolveKeys(f *testing.F) {
	addDiscSeeds(f)
	f.Fuzz(func(t *testing.T, me, opp uint64) {
		checkSolveKeys(t, me, opp&^me)
	})
}

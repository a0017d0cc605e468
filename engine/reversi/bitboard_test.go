package reversi

import (
	"math/bits"
	"math/rand"
	"testing"
)

// randomDiscs returns two disjoint random disc sets, dense or sparse.
func randomDiscs(rng *rand.Rand) (me, opp uint64) {
	occupied := rng.Uint64()
	if rng.Intn(2) == 0 {
		occupied |= rng.Uint64() // mostly full, as late in a game
	} else {
		occupied &= rng.Uint64() // sparse, as early
	}
	me = occupied & rng.Uint64()
	return me, occupied &^ me
}

// movesVersion is one implementation of move generation for both sides,
// named for test messages.
type movesVersion struct {
	name  string
	moves func(me, opp uint64) (mine, theirs uint64)
}

// movesVersions are the implementations of move generation the tests
// compare: legalMoves and legalMovesPair (whichever the processor runs),
// legalMovesGo, and the processor's others that it can run
// (platformMovesVersions).
var movesVersions = append([]movesVersion{
	{"legalMoves", func(me, opp uint64) (uint64, uint64) { return legalMoves(me, opp), legalMoves(opp, me) }},
	{"legalMovesPair", legalMovesPair},
	{"legalMovesGo", func(me, opp uint64) (uint64, uint64) { return legalMovesGo(me, opp), legalMovesGo(opp, me) }},
}, platformMovesVersions...)

// checkLegalMoves compares every version of move generation with the
// oracle (naiveBoard) on one board.
func checkLegalMoves(t *testing.T, me, opp uint64) {
	t.Helper()
	forMe, forOpp := toNaive(me, opp), toNaive(opp, me)
	want, wantTheirs := forMe.moves(), forOpp.moves()
	for _, v := range movesVersions {
		if mine, theirs := v.moves(me, opp); mine != want || theirs != wantTheirs {
			t.Fatalf("%s(%#x, %#x) = %#x, %#x, want %#x, %#x", v.name, me, opp, mine, theirs, want, wantTheirs)
		}
	}
}

// TestLegalMoves checks every version of move generation against the
// square-by-square oracle (naiveBoard) on random boards and on the
// positions of the perft walk's first plies.
func TestLegalMoves(t *testing.T) {
	for _, v := range movesVersions {
		t.Logf("testing %s", v.name)
	}
	onTestBoards(7, 20000, 5, func(me, opp uint64) { checkLegalMoves(t, me, opp) })
}

// onTestBoards calls check on n random boards (randomDiscs from seed), then
// on every position of the perft walk's first plies.
func onTestBoards(seed int64, n, plies int, check func(me, opp uint64)) {
	rng := rand.New(rand.NewSource(seed))
	for range n {
		check(randomDiscs(rng))
	}
	walkGame(Start(), plies, func(p Position) { check(p.me, p.opp) })
}

// walkGame calls visit on p and every position reached from it in up to
// depth moves (passes not followed), as perft walks them.
func walkGame(p Position, depth int, visit func(Position)) {
	visit(p)
	if depth == 0 {
		return
	}
	nb := toNaive(p.me, p.opp)
	for m := nb.moves(); m != 0; m &= m - 1 {
		walkGame(p.play(bits.TrailingZeros64(m)), depth-1, visit)
	}
}

// addDiscSeeds gives a fuzz target over (me, opp) disc sets its seed
// corpus: the start, the corners against everything inside, a long diagonal.
func addDiscSeeds(f *testing.F) {
	f.Add(uint64(0x0000000810000000), uint64(0x0000001008000000))
	f.Add(uint64(0x8100000000000081), uint64(0x7E7E7E7E7E7E7E7E))
	f.Add(uint64(0x0000000000000001), uint64(0x0040201008040200))
}

// FuzzLegalMoves checks move generation on any pair of disc sets (the
// overlap of the two is given to me).
func FuzzLegalMoves(f *testing.F) {
	addDiscSeeds(f)
	f.Fuzz(func(t *testing.T, me, opp uint64) {
		checkLegalMoves(t, me, opp&^me)
	})
}

// BenchmarkLegalMoves times one side's move generation as legalMoves runs
// here, and both sides' (the evaluation's mobility) in every version. A
// version's chain makes each board depend on the last result, as in a
// search: its time is the latency of a call.
func BenchmarkLegalMoves(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var boards [256][2]uint64
	for i := range boards {
		boards[i][0], boards[i][1] = randomDiscs(rng)
	}
	var sink uint64
	b.Run("direct", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			x := &boards[i&255]
			sink ^= legalMoves(x[0], x[1])
		}
	})
	for _, v := range movesVersions {
		b.Run(v.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				x := &boards[i&255]
				m, o := v.moves(x[0], x[1])
				sink ^= m ^ o
			}
		})
		b.Run(v.name+"/chain", func(b *testing.B) {
			var m uint64
			for i := 0; i < b.N; i++ {
				x := &boards[i&255]
				m, _ = v.moves(x[0]&^(m&1), x[1])
			}
			sink ^= m
		})
	}
	_ = sink
}

// flipsVersion is one implementation of flips, named for test messages.
type flipsVersion struct {
	name  string
	flips func(me, opp uint64, sq int) uint64
}

// flipsVersions are the implementations of flips the tests compare: flips
// (whichever the processor runs), flipsGo, and the processor's others
// (platformFlipsVersions).
var flipsVersions = append([]flipsVersion{{"flips", flips}, {"flipsGo", flipsGo}}, platformFlipsVersions...)

// checkFlips compares every version of flips with the oracle (naiveBoard)
// on one board, at every empty square (a move there legal or not).
func checkFlips(t *testing.T, me, opp uint64) {
	t.Helper()
	nb := toNaive(me, opp)
	for m := ^(me | opp); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		want := nb.flips(sq)
		for _, v := range flipsVersions {
			if got := v.flips(me, opp, sq); got != want {
				t.Fatalf("%s(%#x, %#x, %d) = %#x, want %#x", v.name, me, opp, sq, got, want)
			}
		}
	}
}

// TestFlips checks flips against the oracle (naiveBoard) on random boards
// and the perft walk's first plies.
func TestFlips(t *testing.T) {
	onTestBoards(8, 5000, 4, func(me, opp uint64) { checkFlips(t, me, opp) })
}

// FuzzFlips checks flips on any pair of disc sets at every empty square.
func FuzzFlips(f *testing.F) {
	addDiscSeeds(f)
	f.Fuzz(func(t *testing.T, me, opp uint64) {
		checkFlips(t, me, opp&^me)
	})
}

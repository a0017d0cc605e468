package reversi

import "golang.org/x/sys/cpu"

// Move generation was a fifth of the search's instructions (both sides'
// moves at every leaf, for the evaluation's mobility, and the side to
// move's at every node), so on amd64 it runs on AVX2 when the processor
// has it: the eight directions of legalMovesGo, four to a register
// (bitboard_amd64.s). TestLegalMoves checks the two against each other and
// a square-by-square reference.
//
// The discs a move turns over (flips) are flipsGo's table lookups written
// in assembly, with no vectors: the compiler's code for them spilled five
// values to the stack, and flips was a quarter of an endgame solve's time.
// (The same four lanes on AVX2, filling each run from the move's square,
// took 6.9 ns against flipsGo's 7.3 in a throughput benchmark, with a
// longer chain of dependent steps where the search waits on the result.)

// useAVX2 says whether the processor runs the vector move generation.
var useAVX2 = cpu.X86.HasAVX2

// legalMovesAVX2 is legalMovesGo on AVX2.
//
//go:noescape
func legalMovesAVX2(me, opp uint64) uint64

// legalMovesPairAVX2 is legalMovesGo for both sides at once on AVX2.
//
//go:noescape
func legalMovesPairAVX2(me, opp uint64) (mine, theirs uint64)

// flips returns the opponent discs that a move by me on sq turns over
// (flipsGo, bitboard_amd64.s).
//
//go:noescape
func flips(me, opp uint64, sq int) uint64

// legalMoves returns the squares where the side owning me may move.
func legalMoves(me, opp uint64) uint64 {
	if useAVX2 {
		return legalMovesAVX2(me, opp)
	}
	return legalMovesGo(me, opp)
}

// legalMovesPair returns both sides' legal moves: those of me
// (legalMoves(me, opp)) and those of opp (legalMoves(opp, me)).
func legalMovesPair(me, opp uint64) (mine, theirs uint64) {
	if useAVX2 {
		return legalMovesPairAVX2(me, opp)
	}
	return legalMovesGo(me, opp), legalMovesGo(opp, me)
}

//go:build !amd64

package reversi

import "unsafe"

// useAVX2 and useAVX512 are false: the vector code is for amd64 only.
const (
	useAVX2   = false
	useAVX512 = false
)

// legalMoves returns the squares where the side owning me may move.
func legalMoves(me, opp uint64) uint64 { return legalMovesGo(me, opp) }

// legalMovesPair returns both sides' legal moves: those of me
// (legalMoves(me, opp)) and those of opp (legalMoves(opp, me)).
func legalMovesPair(me, opp uint64) (mine, theirs uint64) {
	return legalMovesGo(me, opp), legalMovesGo(opp, me)
}

// flips returns the opponent discs that a move by me on sq turns over
// (flipsGo).
func flips(me, opp uint64, sq int) uint64 { return flipsGo(me, opp, sq) }

// solveKeys is solveKeysGo.
func solveKeys(me, opp, moves, odd uint64, l *moveList) int {
	return solveKeysGo(me, opp, moves, odd, l)
}

// orderKeys is orderKeysGo.
func orderKeys(me, opp, moves uint64, l *moveList) int { return orderKeysGo(me, opp, moves, l) }

// prefetch does nothing: the hint is written for amd64 only.
func prefetch(p unsafe.Pointer) {}

// stableAll is stableWith(mine, fullLines(occupied)).
func stableAll(mine, occupied uint64) uint64 { return stableWith(mine, fullLines(occupied)) }

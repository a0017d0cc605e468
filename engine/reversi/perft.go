package reversi

import "math/bits"

// Perft counts the leaves of the game tree from p cut at depth plies, in the
// published convention: a forced pass is a ply of its own, and a finished
// game reached before depth counts as one leaf. It is the standard check of a
// move generator (see the perft table in the tests).
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(p.me, p.opp, depth, false)
}

func perft(me, opp uint64, depth int, passed bool) uint64 {
	moves := legalMoves(me, opp)
	if moves == 0 {
		if passed {
			return 1 // neither side can move: a finished game is one leaf
		}
		if depth == 1 {
			// The pass is the single child; but if the opponent cannot move
			// either, this node is itself a finished game: still one leaf.
			return 1
		}
		return perft(opp, me, depth-1, true)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(me, opp, sq)
		n += perft(opp&^f, me|f|1<<uint(sq), depth-1, false)
	}
	return n
}

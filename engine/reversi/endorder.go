package reversi

import "math/bits"

// The solver's ordering searches (shallowSearch of every child from
// shallowOrderEmpties up) are pure functions of the child and the depth:
// a full-window alpha-beta over the evaluation, with no table. The same
// children are ordered again and again: in each selective pass, in the
// exact pass, and in each aspiration re-search, so the solver keeps their
// scores in the midgame table, which the solve otherwise only reads (for
// its first moves) and which the selective passes' 2-ply searches share.
//
// An ordering score is stored under the key (me, me|opp) instead of the
// position (me, opp): no position has a disc on both sides, so no search
// of a real position ever finds, overwrites or trusts it (the one
// exception, me == 0, is not stored). The entry's depth is the ordering
// search's, and both its bounds are the score.

// orderSearch returns shallowSearch(me, opp, -infinity, infinity, depth),
// from the midgame table when an earlier call stored it.
func (e *Engine) orderSearch(me, opp uint64, depth int) int {
	if me == 0 {
		return e.shallowSearch(me, opp, -infinity, infinity, depth)
	}
	kme, kopp := me, me|opp // the key no real position has
	h := hashPosition(kme, kopp)
	if ent, ok := e.mid.probeHash(h, kme, kopp); ok && int(ent.depth) == depth && ent.lower == ent.upper {
		return int(ent.lower)
	}
	v := e.shallowSearch(me, opp, -infinity, infinity, depth)
	e.mid.storeHash(h, kme, kopp, depth, provenExact, v-1, v+1, v, -1)
	return v
}

// OrderTerms returns, for each legal move of p, the two terms of the key by
// which the solver orders the move at p's number of empties (from
// shallowOrderEmpties up): the shallow search's score of the reply, from
// p's side to move, in hundredths of a disc, and the number of replies the
// move leaves the opponent. The solver's key is score -
// orderMobilityWeight*replies (the table's move aside). A depth of 0 means
// the solver's depth at p's empties. It measures how well an evaluation
// orders the solver's moves (internal/train's order command).
func (e *Engine) OrderTerms(p Position, depth int) (moves []Square, scores, replies []int) {
	if depth <= 0 {
		depth = max(1, orderDepth(p.Empties()))
	}
	for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p.me, p.opp, sq)
		cme, copp := p.opp&^f, p.me|f|1<<uint(sq)
		moves = append(moves, Square(sq))
		scores = append(scores, -e.shallowSearch(cme, copp, -infinity, infinity, depth))
		replies = append(replies, popcount(legalMoves(cme, copp)))
	}
	return moves, scores, replies
}

// OrderMobilityWeight is the solver's ordering penalty per reply left to
// the opponent, in hundredths of a disc (see OrderTerms).
const OrderMobilityWeight = orderMobilityWeight

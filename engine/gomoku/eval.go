package gomoku

// The static evaluation: the difference of the two sides' totals of their
// points' values over the empty points, and terms for the threats of the
// side to move and of the side that just moved.
//
// A point's value is read per combination of its four line patterns and
// per role (side to move, side that just moved) from the embedded table
// (evaltable.go), apart from the values that order the moves
// (patternValue, threatBonus in threat.go), so that the evaluation can be
// fitted without touching the move order. The fit (TestFitEval in
// fit_test.go) keeps the units of the hand-set values it starts from, so
// that WinThreshold, the futility margins and the quiescence keep their
// meaning.

// eval is the static evaluation from the side to move's view: the side to
// move's total in its role minus the other side's in its role, plus the
// threat terms. A four-three or a double three of the side to move wins
// unless the opponent can interpose fours; the same shapes of the
// opponent cost the side to move its move. The tempo is the move in hand:
// without it the totals favour the side that just moved (its stone is on
// the board, the mover's is not yet), and the hand-set scores swung by
// about 1,000 between odd and even depths; with it lines that end at
// different parities (the quiescence search adds one ply) compare fairly.
func (e *Engine) eval(b *Board) int {
	me := b.ToMove()
	opp := me.Other()
	w := evalW
	s := int(b.evalTotal[me][roleToMove]) - int(b.evalTotal[opp][roleMoved]) + w.tempo
	cm, co := &b.classCount[me], &b.classCount[opp]
	renjuBlack := b.rule == Renju && me == Black
	if co[tFour]+co[tFourThree]+co[tFlex4] == 0 {
		switch {
		case cm[tFourThree] > 0:
			s += w.moverFourThree
		case cm[tThree2] > 0 && !renjuBlack:
			s += w.moverThree2
		}
	}
	if co[tFlex4] > 0 {
		s -= w.oppOpenThree
	}
	if cm[tFour]+cm[tFourThree]+cm[tFlex4] == 0 {
		if co[tFourThree] > 0 {
			s -= w.oppFourThree
		}
		if co[tThree2] > 0 && !(b.rule == Renju && opp == Black) {
			s -= w.oppThree2
		}
	}
	return s + int(w.situation[situationOf(cm, renjuBlack)][situationOf(co, b.rule == Renju && opp == Black)])
}

// Situations: what one side has among its empty points, from nothing to
// an open four; the evaluation adds a fitted value per pair of the two
// sides' situations (evalWeights.situation), on top of the threat terms.
const (
	sitNone         = iota // no three or four point
	sitThree               // one open-three point
	sitThrees              // two or more
	sitFour                // four points, no open-three point
	sitFourAndThree        // four points and open-three points (not on one point)
	sitThree2              // a double-three point, no four point
	sitThree2Four          // a double-three point and four points
	sitFourThree           // a four-three point
	sitFlex4               // an open-four (or double-four) point
	numSituations
)

// situationOf is a side's situation from its class counts; a double
// three does not count for renju's black (it is forbidden).
func situationOf(n *[numThreats]int16, renjuBlack bool) int {
	four := n[tFour] > 0
	switch {
	case n[tFlex4] > 0:
		return sitFlex4
	case n[tFourThree] > 0:
		return sitFourThree
	case n[tThree2] > 0 && !renjuBlack:
		if four {
			return sitThree2Four
		}
		return sitThree2
	case four && n[tThree] > 0:
		return sitFourAndThree
	case four:
		return sitFour
	case n[tThree] > 1:
		return sitThrees
	case n[tThree] == 1:
		return sitThree
	}
	return sitNone
}

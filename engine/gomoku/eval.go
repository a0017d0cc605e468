package gomoku

// The static evaluation: the difference of the two sides' totals of
// evalValue over the empty points (per point, the values of the line
// patterns a stone there would make plus a bonus for its combination
// class), and terms for the threats of the side to move and of the side
// that just moved.
//
// The values were fitted (TestFitEval in fit_test.go): a logistic
// regression of the game's result on these terms, over the positions of
// our own fixed-depth self-play games (TestMatchSelfPlay), scaled to the
// units of the hand-set evaluation they replaced (the K of
// P(win) = 1/(1+exp(-eval/K)) fitted on the same positions), so that
// WinThreshold, the futility margins and the quiescence keep their
// meaning. The hand-set values (patternValue, threatBonus in threat.go)
// still order the moves.

// evalPatternValue is the evaluation's value of a line pattern at an
// empty point (see patternValue for the hand-set ordering values).
var evalPatternValue = [numPatterns]int32{
	pNone: 0,
	pB1:   0,
	pB2:   2,
	pF2:   6,
	pB3:   8,
	pF3:   24,
	pB4:   28,
	pF4:   120,
	pF5:   600,
}

// evalThreatBonus adds the value of a point's combination class.
var evalThreatBonus = [numThreats]int32{
	tThree2:    60,
	tFourThree: 120,
	tFlex4:     200,
	tFive:      1000,
}

// Evaluation terms for the threats of the side to move ("mover") and of
// the side that just moved, on top of the pattern totals. A four-three or
// a double three of the mover wins unless the opponent can interpose
// fours; the same shapes of the opponent cost the mover its move.
const (
	evalMoverFourThree = 4000
	evalMoverThree2    = 2000
	evalOppOpenThree   = 200
	evalOppFourThree   = 800
	evalOppThree2      = 400
	// evalTempo is the move in hand. Without it the pattern totals favour
	// the side that just moved (its stone is on the board, the mover's is
	// not yet), and scores swung by about 1,000 between odd and even
	// depths; 500 a side takes the swing out, so lines that end at
	// different parities (the quiescence search adds one ply) compare
	// fairly.
	evalTempo = 500
)

// eval is the static evaluation from the side to move's view: the
// difference of the two sides' pattern totals, plus the threat terms
// above. (Weighting the side to move's total up by 20-50% measured no
// better against the seed baseline.)
func (e *Engine) eval(b *Board) int {
	me := b.ToMove()
	opp := me.Other()
	s := int(b.evalTotal[me]) - int(b.evalTotal[opp]) + evalTempo
	cm, co := &b.classCount[me], &b.classCount[opp]
	renjuBlack := b.rule == Renju && me == Black
	if co[tFour]+co[tFourThree]+co[tFlex4] == 0 {
		switch {
		case cm[tFourThree] > 0:
			s += evalMoverFourThree
		case cm[tThree2] > 0 && !renjuBlack:
			s += evalMoverThree2
		}
	}
	if co[tFlex4] > 0 {
		s -= evalOppOpenThree
	}
	if cm[tFour]+cm[tFourThree]+cm[tFlex4] == 0 {
		if co[tFourThree] > 0 {
			s -= evalOppFourThree
		}
		if co[tThree2] > 0 && !(b.rule == Renju && opp == Black) {
			s -= evalOppThree2
		}
	}
	return s
}

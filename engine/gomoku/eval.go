package gomoku

// The static evaluation: the difference of the two sides' totals of
// evalValue over the empty points (per point, the values of the line
// patterns a stone there would make plus a bonus for its combination
// class), and terms for the threats of the side to move and of the side
// that just moved.
//
// The evaluation keeps its own per-point tables, apart from the values that
// order the moves (patternValue, threatBonus in threat.go), so that they
// can be fitted without touching the move order: TestFitEval in
// fit_test.go fits them by logistic regression of the game's result over
// our own self-play games, in the units of the hand-set values (so that
// WinThreshold, the futility margins and the quiescence keep their
// meaning). No fit has beaten the hand-set values yet
// (docs/gomoku-engine.md), so the tables start as copies of them.

// evalPatternValue is the evaluation's value of a line pattern at an
// empty point; evalThreatBonus adds the value of its combination class.
var (
	evalPatternValue = patternValue
	evalThreatBonus  = threatBonus
)

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

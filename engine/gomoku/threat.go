package gomoku

// threat is the class of a point for one colour: what a stone there would
// make on all four lines together, ordered from harmless to winning.
type threat uint8

const (
	tNone      threat = iota // nothing better than a dead two
	tTwo                     // an open two or a dead three
	tThree                   // one open three
	tFour                    // one four (forcing: the opponent must block)
	tThree2                  // two open threes (wins unless answered by fours)
	tFourThree               // a four and an open three (wins unless the block is a four)
	tFlex4                   // an open four or two fours (wins next move)
	tFive                    // five (wins now)
	numThreats
)

// classifyThreat combines the counts of the four lines' patterns.
func classifyThreat(n *[numPatterns]uint8) threat {
	switch {
	case n[pF5] > 0:
		return tFive
	case n[pF4] > 0 || n[pB4] >= 2:
		return tFlex4
	case n[pB4] == 1 && n[pF3] > 0:
		return tFourThree
	case n[pF3] >= 2:
		return tThree2
	case n[pB4] == 1:
		return tFour
	case n[pF3] == 1:
		return tThree
	case n[pF2] > 0 || n[pB3] > 0:
		return tTwo
	}
	return tNone
}

// patternValue scores one line's pattern at a point. The evaluation sums
// these over every empty point, so a shape is worth more the more points
// can extend it. The ratios follow the classic threat ladder: each step up
// (two, three, four) is worth a few times the step below, a three about as
// much as a dead four (both force an answer), an open four is decisive.
var patternValue = [numPatterns]int32{
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

// threatBonus adds the value of combinations on top of the line values:
// a double three or a four-three is worth more than its parts because the
// opponent cannot block both.
var threatBonus = [numThreats]int32{
	tThree2:    60,
	tFourThree: 120,
	tFlex4:     200,
	tFive:      1000,
}

package reversi

import (
	"math"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// Folding the linear evaluation into the pattern tables.
//
// A stage of the pattern tables is fitted as a correction to k/1000 of the
// linear evaluation (k is the stage's pattern.LinearOffset weight), and
// computing that evaluation's features and edge table took a quarter of an
// evaluation's time. Most of it depends on one pattern instance alone, so
// it is added into the tables' entries when they are loaded:
//
//   - the edge table: each edge is an instance of the edge+2X pattern;
//   - corners, and X- and C-squares next to an empty corner: each corner's
//     squares are an instance of the 3x3 corner pattern;
//   - discs: the four 3x3 corners, the two middle squares of each edge and
//     of lines 2 and 3 (read from the four sides), and those of line 4
//     (which holds each of d4, e4, d5, e5 twice, so half each) cover every
//     square once;
//   - mobility: the mobility tables.
//
// The features no pattern holds (potential mobility, frontier, stable
// discs, corner access and parity) are still computed (restOf). Entries
// are rounded to hundredths of a disc one by one, and the linear part is no
// longer clamped to 63 discs before it is scaled, so a position's score can
// differ from the unfolded sum by a few hundredths (TestFoldedEvaluation).

// patternStage is one stage of the pattern evaluation in the form the search
// uses.
type patternStage struct {
	// table is the stage's weights (pattern.StageSize entries, hundredths
	// of a disc) with the linear evaluation's foldable terms added in.
	table []int16
	// linear says whether the stage corrects the linear evaluation; the
	// others are then k times the linear weights of the features no
	// pattern holds (thousandths of evalScale units).
	linear                                            bool
	potential, frontier, stable, cornerAccess, parity int
}

// foldStages returns the stages of tables (as pattern.Decode gives them)
// with the linear evaluation lin folded in; tables is changed in place. A
// stage (four numbers of empties) lies within one phase of lin (eight).
func foldStages(tables [][]int16, lin *evalParams) []patternStage {
	out := make([]patternStage, len(tables))
	for s, w := range tables {
		out[s] = foldStage(w, lin, phaseOf(s*pattern.StageWidth+1))
	}
	return out
}

// foldStage folds phase ph of lin into one stage's table w (changed in
// place).
func foldStage(w []int16, lin *evalParams, ph int) patternStage {
	k := int(w[pattern.LinearOffset])
	w[pattern.LinearOffset] = 0
	st := patternStage{table: w}
	if k == 0 {
		return st
	}
	sc := &lin.scalar[ph]
	add := func(j int, v float64) { // v in hundredths of a disc, before k
		x := math.Round(float64(w[j]) + float64(k)*v/1000)
		w[j] = int16(math.Max(math.MinInt16, math.Min(math.MaxInt16, x)))
	}
	// sign[d] is a base-3 digit's disc count, mine minus theirs.
	sign := [3]float64{0, 1, -1}
	digits := func(idx int) (d [10]int) {
		for i := range d {
			d[i] = idx % 3
			idx /= 3
		}
		return d
	}
	discs := float64(sc[fDiscs])
	for idx := 0; idx < pattern.Sizes[0]; idx++ { // edge+2X: a1-h1, b2, g2
		d := digits(idx)
		add(pattern.Offsets[0]+idx, float64(lin.edge[ph][idx%numEdgeConfigs])+discs*(sign[d[3]]+sign[d[4]]))
	}
	for idx := 0; idx < pattern.Sizes[2]; idx++ { // 3x3: a1-c1, a2-c2, a3-c3
		d := digits(idx)
		v := float64(sc[fCorners]) * sign[d[0]]
		if d[0] == 0 {
			v += float64(sc[fXSquares])*sign[d[4]] + float64(sc[fCSquares])*(sign[d[1]]+sign[d[3]])
		}
		for _, x := range d[:9] {
			v += discs * sign[x]
		}
		add(pattern.Offsets[2]+idx, v)
	}
	for _, line := range []struct {
		pattern int
		share   float64
	}{{3, 1}, {4, 1}, {5, 0.5}} { // lines 2, 3 and 4: their d and e squares
		for idx := 0; idx < pattern.Sizes[line.pattern]; idx++ {
			d := digits(idx)
			add(pattern.Offsets[line.pattern]+idx, line.share*discs*(sign[d[3]]+sign[d[4]]))
		}
	}
	for n := 0; n < pattern.MobilityEntries; n++ {
		add(pattern.MyMobilityOffset+n, float64(sc[fMobility]*n))
		add(pattern.OppMobilityOffset+n, -float64(sc[fMobility]*n))
	}
	st.linear = true
	st.potential, st.frontier, st.stable = k*sc[fPotential], k*sc[fFrontier], k*sc[fStable]
	st.cornerAccess, st.parity = k*sc[fCornerAccess], k*sc[fParity]
	return st
}

// restOf returns the part of the stage's score that the tables do not
// hold: its share of the linear features no pattern holds.
func (st *patternStage) restOf(me, opp, myMoves, oppMoves uint64, empties int) int {
	v := st.potential * (popcount(potentialMoves(me, opp)) - popcount(potentialMoves(opp, me)))
	v += st.frontier * frontierDiff(me, opp)
	v += st.stable * stableDiff(me, opp)
	v += st.cornerAccess * (popcount(myMoves&cornerMask) - popcount(oppMoves&cornerMask))
	v += st.parity * (empties & 1)
	return v / 1000
}

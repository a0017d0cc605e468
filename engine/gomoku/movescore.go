package gomoku

import "math/bits"

// The move score (level 6's move order, and which open threes the
// selective search reduces): how likely a move is to be the one a deeper
// search plays, read from what the board already keeps. Its features are
// the threat classes of the move's point for the side to move and for the
// opponent (attack and defence as a pair, so that a three that also
// blocks scores apart from a bare three), the best line pattern of each
// side there, each side's pattern value there (by its binary logarithm)
// and the distance to the last two stones. Its values are fitted
// (TestFitMoveScore, movescore_fit_test.go) by a conditional logit to the
// moves level 6 chose with 50,000 and 100,000 nodes in 2,779 positions
// sampled from testdata/fitgames.txt.gz (proven wins and losses left
// out). On the 543 positions of the held-out games the chosen move is the
// score's first in 41.8% and among its first six in 83.2%, against 36.8%
// and 79.2% for the pattern values (docs/benchmarks.md, thirteenth
// session).

// Feature layout: class pairs, each side's best pattern, the distances to
// the last and the second-to-last stone, each side's pattern value.
const (
	featClassPair   = 0
	featMinePattern = featClassPair + int(numThreats)*int(numThreats)
	featOppPattern  = featMinePattern + int(numPatterns)
	featDistLast    = featOppPattern + int(numPatterns)
	featDistPrev    = featDistLast + numDistances
	featMineValue   = featDistPrev + numDistances
	featOppValue    = featMineValue + numValueBuckets
	numMoveFeatures = featOppValue + numValueBuckets
)

// numValueBuckets buckets a point's pattern value (the move order's, the
// sum of its four lines' values) by its binary logarithm.
const numValueBuckets = 12

// valueBucket returns the bucket of a pattern value.
func valueBucket(v int32) int {
	return min(bits.Len32(uint32(max(v, 0))), numValueBuckets-1)
}

// numDistances buckets the Chebyshev distance to a stone: 1, 2, 3, 4,
// farther (or no such stone).
const numDistances = 5

// moveFeatures appends the indices of the features of the move at the
// empty cell i for the side to move.
func moveFeatures(b *Board, i int, out []int) []int {
	me := b.ToMove()
	opp := me.Other()
	out = append(out,
		featClassPair+int(b.threat[me][i])*int(numThreats)+int(b.threat[opp][i]),
		featMinePattern+int(b.maxPattern(me, i)),
		featOppPattern+int(b.maxPattern(opp, i)),
		featDistLast+b.distanceBucket(i, 1),
		featDistPrev+b.distanceBucket(i, 2),
		featMineValue+valueBucket(b.valueAt(me, i)),
		featOppValue+valueBucket(b.valueAt(opp, i)))
	return out
}

// distanceBucket returns the bucket of the Chebyshev distance from cell i
// to the back-th last stone played (numDistances-1 when far or absent).
func (b *Board) distanceBucket(i, back int) int {
	if len(b.history) < back {
		return numDistances - 1
	}
	p, q := b.point(i), b.point(b.history[len(b.history)-back])
	d := max(abs(p.X-q.X), abs(p.Y-q.Y))
	return min(d, numDistances) - 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// moveScoreTable holds the fitted value of each feature, in hundredths
// of a logit. The class pairs where the side to move makes a four-three
// or better are set to 800 by hand: they win, so the fit's data (without
// proofs) never had them chosen, and they must come first.
var moveScoreTable = [numMoveFeatures]int32{
	-183, -156, -16, -41, 51, 124, 146, 0,
	-64, -21, 28, -13, 52, 64, 52, 0,
	11, 45, -6, -53, 22, -5, -21, 0,
	23, 14, -17, -23, -33, -22, 64, 0,
	-3, 38, 30, -5, 0, 0, 0, 0,
	800, 800, 800, 800, 800, 800, 800, 800,
	800, 800, 800, 800, 800, 800, 800, 800,
	800, 800, 800, 800, 800, 800, 800, 800,
	-38, -92, -15, 43, 41, 53, 6, 0,
	0, -116, -45, -105, -86, -27, 84, 152,
	99, 0, 20, 11, 0, -5, -24, 39,
	4, -7, -10, -29, -112, 0, -159, -150,
	-56, 123, 240, 61, -2, 0, 0, 0,
	-140, 0, -74, -86, -97, -85, 15, 92,
	161, 180, 0, 0,
}

// moveTerms[0][k] is the sum of the values of the side to move's best
// pattern and pattern-value bucket (featMinePattern, featMineValue) at a
// point whose four patterns have pointTable index k; moveTerms[1][k] the
// same for the opponent (featOppPattern, featOppValue). Summing them once
// here saved the move score its eight pattern reads and two bucket
// computations per move (docs/benchmarks.md, twenty-eighth session). They
// are computed from moveScoreTable at start-up, so a change of that table
// at run time would not reach them; nothing changes it.
var moveTerms = buildMoveTerms()

func buildMoveTerms() (t [2][]int16) {
	const n = int(numPatterns)
	for r, f := range [2][2]int{{featMinePattern, featMineValue}, {featOppPattern, featOppValue}} {
		t[r] = make([]int16, len(pointTable))
		for k := range pointTable {
			best := pNone
			for d, q := 0, k; d < 4; d, q = d+1, q/n {
				best = max(best, pattern(q%n))
			}
			v := moveScoreTable[f[0]+int(best)] + moveScoreTable[f[1]+valueBucket(pointTable[k].value)]
			if int32(int16(v)) != v {
				panic("gomoku: move score term out of int16 range")
			}
			t[r][k] = int16(v)
		}
	}
	return t
}

// moveScorer scores the moves of one position: it holds what the
// features read that does not depend on the move.
type moveScorer struct {
	b       *Board
	me, opp Color
	// Both colours' rows of the board's classes and pointTable indices,
	// addressed once here rather than by colour at every move.
	threatMe, threatOpp *[maxCells]threat
	idxMe, idxOpp       *[maxCells]uint16
	// last[k] is the cell of the (k+1)-th last stone, and dist[k] the
	// table of distance buckets to read for it (distanceBuckets), or
	// farBuckets when there is no such stone.
	last [2]int
	dist [2]*[distanceSpan]uint8
}

// newMoveScorer prepares the scoring of b's moves for the side to move.
func newMoveScorer(b *Board) moveScorer {
	s := moveScorer{b: b, me: b.ToMove(), opp: b.ToMove().Other()}
	s.threatMe, s.threatOpp = &b.threat[s.me], &b.threat[s.opp]
	s.idxMe, s.idxOpp = &b.pointIdx[s.me], &b.pointIdx[s.opp]
	for k := range s.last {
		s.dist[k] = &farBuckets
		if n := len(b.history) - 1 - k; n >= 0 {
			s.last[k], s.dist[k] = b.history[n], distanceBuckets[b.size-minSize]
		}
	}
	return s
}

// Distance buckets by cell difference. On a board of stride s (its size
// plus the wall, pad), two on-board cells i and j whose Chebyshev distance
// is at most four differ by dy*s+dx with |dx|, |dy| <= 4, and no other pair
// of on-board cells differs by that: another dx would be at least s-4 =
// size+1 away from it, off the board. So the bucket of the distance
// (distanceBucket: 0-3 for 1-4 steps, 4 farther) is a function of i-j,
// read from a table instead of computed from the coordinates (a division
// each and the arithmetic of the Chebyshev distance: the table took 1.5%
// fewer instructions and about 5% less time at level 6;
// docs/benchmarks.md, thirty-sixth session).
// i-j is below distanceSpan/2 in size on every board, so the index
// (i-j+distanceSpan/2) modulo distanceSpan needs no bounds check.
const distanceSpan = 1024

// minSize is the smallest board size; distanceBuckets is indexed by the
// size minus it.
const minSize = 15

// distanceBuckets[size-minSize] is the table of the boards of that size
// (nil for sizes that are not played).
var distanceBuckets = func() (t [MaxSize - minSize + 1]*[distanceSpan]uint8) {
	for _, size := range []int{15, 19, 20} {
		stride := size + pad
		tab := &[distanceSpan]uint8{}
		for k := range tab {
			tab[k] = numDistances - 1
		}
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				// The distance 0 (the stone's own cell) is never asked:
				// a move's cell is empty.
				d := max(abs(dx), abs(dy), 1)
				tab[(dy*stride+dx+distanceSpan/2)%distanceSpan] = uint8(d - 1)
			}
		}
		t[size-minSize] = tab
	}
	return t
}()

// farBuckets answers "far" for every difference: the bucket when there is
// no such stone.
var farBuckets = func() (t [distanceSpan]uint8) {
	for k := range t {
		t[k] = numDistances - 1
	}
	return t
}()

// score returns the fitted score of the move at the empty cell i, in
// hundredths of a logit: the sum of its features' values (moveFeatures).
// The features of one side's point alone (best pattern, pattern value)
// come summed from moveTerms.
func (s *moveScorer) score(i int) int32 {
	v := moveScoreTable[featClassPair+int(s.threatMe[i])*int(numThreats)+int(s.threatOpp[i])] +
		int32(moveTerms[0][s.idxMe[i]]) + int32(moveTerms[1][s.idxOpp[i]])
	v += moveScoreTable[featDistLast+int(s.dist[0][uint(i-s.last[0]+distanceSpan/2)%distanceSpan])]
	v += moveScoreTable[featDistPrev+int(s.dist[1][uint(i-s.last[1]+distanceSpan/2)%distanceSpan])]
	return v
}

// moveScore returns the fitted score of the move at the empty cell i for
// the side to move (one move; genMoves scores a node's moves with a
// moveScorer and keeps the score in scored.fit). It panics on a filled
// cell: scoring a move after playing it reads the other side's view and
// a distance of 0 to the last stone, outside the distance features (the
// weak-three reduction once did so, issue 15's thirteenth session).
func moveScore(b *Board, i int) int32 {
	if b.cells[i] != cellEmpty {
		panic("gomoku: moveScore of a filled cell")
	}
	s := newMoveScorer(b)
	return s.score(i)
}

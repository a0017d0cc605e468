package reversi

// Multi-ProbCut (Buro): a deep search's score is close to a shallow
// search's, with an error whose spread sigma is measured. At a null-window
// node of depth d, if a search of depth mpcShallowDepth(d) proves the score
// at least beta + t*sigma, the deep search would almost surely fail high
// too, so the node returns beta without it (and likewise below alpha). The
// search then spends its time on the moves that matter and reaches several
// plies deeper in the same time, at the price of rare errors.
//
// sigma is fitted by TestFitProbCut (REVERSI_PROBCUT_FIT=1), from pairs of
// shallow and deep searches of positions from seeded self-play games, as a
// linear function of the number of empties and the two depths.

// mpcMinDepth is the least depth at which ProbCut is tried: below it the
// shallow search costs as much as the little tree it could save.
const mpcMinDepth = 3

// mpcShallowDepth is the depth of the shallow search for a node of depth d:
// about half, with the same parity as d (Reversi scores swing with whose
// move it is at the leaves, so a search of the same parity predicts best).
func mpcShallowDepth(d int) int { return 2*(d/4) + d&1 }

// mpcSigmaCoeffs: sigma = c[0] + c[1]*empties + c[2]*d + c[3]*shallow, in
// evalScale units, fitted by TestFitProbCut (40 games, 365 positions,
// depths 3-10, with the pattern evaluation): sigma runs from about 2 to 6
// discs, smaller far from the end and when the shallow search is deeper.
var mpcSigmaCoeffs = [4]float64{533.2, -6.31, 36.87, -59.85}

// mpcT is the cut threshold in sigmas, in hundredths: the larger, the
// fewer and safer the cuts. 1.0 against 1.5: 42-33-5 at 100 ms a move and
// 42-34-4 at 300 ms (80 games each); 0.7 lost 35-39-6 to 1.0 and 2.2 lost
// 31-47-2 to 1.5 at 100 ms (docs/benchmarks.md, sixth session).
const mpcT = 100

// mpcSigma is the spread of (depth-d score - shallow score) for a position
// with the given empties, in evalScale units.
func mpcSigma(empties, d, shallow int) int {
	c := &mpcSigmaCoeffs
	s := c[0] + c[1]*float64(empties) + c[2]*float64(d) + c[3]*float64(shallow)
	if s < 50 {
		s = 50
	}
	return int(s)
}

// mpcLimit bounds the ProbCut windows inside the range of estimated scores:
// beyond it only proven results lie, which a shallow search cannot predict.
const mpcLimit = 63 * evalScale

// probCut tries to decide a null-window node (beta = alpha+1) of the given
// depth by a shallow search; it returns the bound and true when it can.
func (e *Engine) probCut(me, opp uint64, alpha, beta, depth, empties int) (int, bool) {
	sd := mpcShallowDepth(depth)
	margin := mpcT * mpcSigma(empties, depth, sd) / 100
	if hi := beta + margin; hi < mpcLimit {
		if v := e.pvs(me, opp, hi-1, hi, sd); v >= hi || e.aborted {
			return beta, true
		}
	}
	if lo := alpha - margin; lo > -mpcLimit {
		if v := e.pvs(me, opp, lo, lo+1, sd); v <= lo || e.aborted {
			return alpha, true
		}
	}
	return 0, false
}

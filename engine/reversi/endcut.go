package reversi

// Selective endgame passes (endgame ProbCut). Before the exact solve of a
// position with many empties, the solver runs passes in which a null-window
// node far enough from the end may be decided by a shallow midgame search
// instead of an exact one: if the shallow score lies at least t*sigma above
// beta (in discs), the node is taken to fail high, and likewise below alpha.
// Each pass is cheap compared with the proof, and leaves behind what the
// proof needs most: a best move at every node it searched (in the solver's
// table, marked with the pass's t so that no later pass trusts its bounds)
// and a near-certain score for the root's aspiration window. The final pass
// is the exact one, and only its result is returned: the selective passes
// change how fast the exact answer is found, never the answer.
//
// sigma, the spread of (exact score - shallow score), is a linear function
// of the empties and the shallow depth, fitted by TestFitEndgameProbCut
// from held-out self-play positions with exact scores.

// endCutSigmaCoeffs: sigma = c[0] + c[1]*empties + c[2]*shallow, in
// evalScale units, refitted with the tables of stages 1-20 that the
// forty-third session fitted on the corpus (REVERSI_ENDCUT_FIT on the
// corpus's held-out games: 2,000 positions per number of empties from 12 to
// 16 and 60 solved at each of 20, 22 and 24, shallow depths 0-6): about 6
// discs at depth 2 and 5 at depth 6. The earlier tables' model was 521.7 +
// 17.61*empties - 39.82*shallow, 7-9 discs at depth 2.
var endCutSigmaCoeffs = [3]float64{636.5, 0.64, -26.01}

// endCutSigma is the spread of (exact score - depth-shallow score) for a
// position with the given empties, in evalScale units.
func endCutSigma(empties, shallow int) int {
	c := &endCutSigmaCoeffs
	return int(c[0] + c[1]*float64(empties) + c[2]*float64(shallow))
}

// endCutDepth is the depth of the shallow search deciding a node: two
// plies. Even, because at odd depths the shallow score is biased by 1.5-3
// discs towards the side to move (TestFitEndgameProbCut); and shallow,
// because the cut's value is mostly the ordering the pass leaves behind:
// four plies from 18 empties up took FFO #40-#49 to 1.18 G nodes, two plies
// everywhere to 1.10 G, the static evaluation to 1.28 G.
const endCutDepth = 2

// endCutProbeDepth is the depth of the shallow search deciding a node with
// the given empties: endCutDepth, except in a result pass (endresult.go,
// under a deadline) from resultCutMinEmpties up, where a cut decides which
// move the game is played with rather than how the proof is ordered, and
// resultCutDepth plies are worth their price. The spread of (exact score -
// depth-d search) on held-out self-play positions narrows slowly with d
// (at 20-23 empties about 5.0-5.5 discs at depth 2, 4.6-5.0 at depth 6,
// 4.2-4.6 at depth 8) while a probe's nodes grow 25-fold from depth 2 to
// 6. On the positions of 24-29 empties with NTest's values (parts A and B
// at 1 s and 0.3 s a move, part C at 1 s) the results given away went from
// 12.5 points to 11.5 (and at 3 s on parts A and B from 3.0 to 2.0, NTest
// 1.5), and against NTest at 0.3 s a move 80 games came out +2.5 ± 3.3
// points paired: small gains, within their noise, and none of the measures
// went the other way (docs/benchmarks.md, forty-second session). In the
// solve's own passes (solveRoot: no deadline, the FFO benchmark) depth 6
// cost 6% more nodes, so they keep endCutDepth.
func endCutProbeDepth(empties int, resultPass bool) int {
	if resultPass && empties >= resultCutMinEmpties {
		return resultCutDepth
	}
	return endCutDepth
}

// resultCutDepth is the probe depth of a result pass's cuts from
// resultCutMinEmpties up (endCutProbeDepth).
const resultCutDepth = 6

var (
	// resultCutMinEmpties is the fewest empties at which a result pass
	// probes resultCutDepth plies deep (a variable so that tests reach it
	// on small positions).
	resultCutMinEmpties = 20
	// endCutMinEmpties is the fewest empties at which a selective pass
	// tries a cut: below it the subtree is too small to be worth a shallow
	// search (from 14: 1.32 G nodes on FFO #40-#49; from 10: 1.16-1.45 G).
	endCutMinEmpties = 12
	// endCutRootEmpties is the fewest empties at which the solver runs
	// selective passes before the exact one.
	endCutRootEmpties = 18
)

// endCutPasses are the cut thresholds of the selective passes, in
// hundredths of a sigma (each below provenExact), run in this order
// before the exact pass.
// Tried on FFO #40-#49 (exact node counts, which vary a lot with small
// changes): one pass at 1.5 sigma 1.12-1.17 G, passes at 1.0, 1.6 and 2.4
// sigma 1.18 G, 1.0 and 2.0 sigma 1.10 G (without passes 1.59 G).
var endCutPasses = []uint8{100, 200}

// endProbCut tries to decide a null-window solver node (beta = alpha+1, in
// discs) by a shallow search, during a selective pass; it returns the bound
// and true when it can.
func (e *Engine) endProbCut(me, opp uint64, alpha, beta, empties int) (int, bool) {
	sd := endCutProbeDepth(empties, e.resultPass)
	margin := int(e.endConf) * endCutSigma(empties, sd) / 100
	if hi := beta*evalScale + margin; hi < mpcLimit {
		if v := e.pvs(me, opp, hi-1, hi, sd); v >= hi || e.aborted {
			return beta, true
		}
	}
	if lo := alpha*evalScale - margin; lo > -mpcLimit {
		if v := e.pvs(me, opp, lo, lo+1, sd); v <= lo || e.aborted {
			return alpha, true
		}
	}
	return 0, false
}

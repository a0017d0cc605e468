package gomoku

import "math"

// Selective search (the full engine, level 6): late-move reductions and
// the pruning of quiet moves, so that the search reaches deeper in the
// same time. Which moves qualify is read from the threat classes of the
// move's point for both colours (the four line patterns the board keeps):
//
//   - reducible: the move makes no open three or better for the side to
//     move and does not take a point where the opponent would make a
//     double threat (two threes, a four-three, an open four);
//   - prunable: stricter, it does not even take a point where the
//     opponent would make a four.
//
// Fours and the blocks of the opponent's strongest points are always
// searched to full depth, and so are the open threes, except the weak
// ones: a three whose move score (movescore.go) is below weakThree is
// reduced one ply less than a quiet move would be. When first built, the
// selective search took the depth reached in one second on the undecided
// bench positions from 20 to 23 plies summed over three positions
// (docs/benchmarks.md has the match results).

// weakThree is the move score (hundredths of a logit) below which an open
// three is reduced, read before the move is played (scored.fit): one
// logit. In the labelled positions of the fit (TestMoveScoreThrees) 4,291
// of the 6,106 threes score below it and level 6 at 50,000-100,000 nodes
// chose 322 of them (7.5%), about as often as the best sixteenth of the
// quiet moves, which are reduced in full; above it, 405 of 1,815 (22%).
// Reducing every three (issue 15's twelfth session) went 0.6 ply deeper
// but lost games to Rapfi. Of the thresholds tried with the score read
// on the right board (issue 15's fourteenth session; 800,000 nodes on
// BenchmarkDepthRapfiPositions, safe choices of BenchmarkSafeChoice),
// 100 reached 10.75 plies with 18 safe (17 strict), 50 reached 10.65
// with 19 (17), and 2 (the lowest quarter) 10.55 with 16 (15); all three
// scored 52.5-57.5% in self-play at 300 ms against the build that read
// the score after the move (docs/benchmarks.md).
const weakThree = 100

// reducible reports whether a move whose point has threat class mine for
// the side to move and theirs for the opponent may be reduced.
func reducible(mine, theirs threat) bool { return mine < tThree && theirs < tThree2 }

// prunable reports whether such a move may be pruned near the leaves.
func prunable(mine, theirs threat) bool { return mine < tThree && theirs < tFour }

// reductionTable[d][k] is the reduction of the k-th move (0-based) at a
// node with d plies left: lmrBase + ln(d)*ln(k)/lmrDivisor, the usual
// logarithmic shape (late moves at deep nodes lose the most).
var reductionTable = func() (t [MaxDepth + 1][maxMoves]int8) {
	for d := 1; d <= MaxDepth; d++ {
		for k := 1; k < maxMoves; k++ {
			t[d][k] = int8(lmrBase + math.Log(float64(d))*math.Log(float64(k))/lmrDivisor)
		}
	}
	return t
}()

// lmrBase and lmrDivisor shape the reductions: with 0.5 and 1.2, the third
// move at 4 plies left is reduced by 1, the tenth move at 8 plies by 4.
// A divisor of 1.8 (a third less reduction) reached a ply less in the
// depth-per-second test.
const (
	lmrBase    = 0.5
	lmrDivisor = 1.2
)

// reduction returns the plies a reducible move is reduced by, one less at
// a principal-variation node, never below zero and never to below one
// ply left.
func reduction(depth, k int, pvNode bool) int {
	if depth < 2 || k < 2 {
		return 0
	}
	r := int(reductionTable[min(depth, MaxDepth)][min(k, maxMoves-1)])
	if pvNode {
		r--
	}
	return max(0, min(r, depth-2))
}

// Pruning of prunable moves near the leaves, off the principal variation
// and only once a move has been found that does not lose:
//
//   - late-move pruning: with d plies left only the first lmpCount[d] moves
//     are searched (the ordering puts threats and the points with the
//     highest pattern values first);
//   - futility: when the static evaluation plus futilityMargin[d] is at or
//     below alpha, a quiet move is not expected to lift the score above it
//     within d plies. The margins are a few times the evaluation's tempo
//     (500), the size of a quiet move's effect on the pattern totals.
var (
	lmpCount       = [...]int{0, 6, 9, 14}
	futilityMargin = [...]int{0, 400, 900, 1600}
)

// prune reports whether the prunable k-th move at a node with depth plies
// left and static evaluation eval is skipped.
func prune(depth, k, eval, alpha int) bool {
	if depth >= len(lmpCount) {
		return false
	}
	if depth >= 1 && k >= lmpCount[depth] {
		return true
	}
	return eval+futilityMargin[depth] <= alpha
}

// Static futility pruning ("reverse futility") and razoring, at non-PV
// nodes with a few plies left when the opponent has no open three (with
// one the side to move is not free to do as it likes):
//
//   - when the static evaluation is above beta by more than
//     staticFutilityMargin(depth), the node returns the evaluation: a
//     shallow search is not expected to lose that much;
//   - when it is below alpha by more than razorMargin(depth), the node
//     drops into what a leaf runs (the short VCF and the quiescence of
//     open threes): only a forcing line could lift it.
//
// The margins come from the evaluation's own spread (TestEvalSpread: how
// far a search of depth d moves the score from the static evaluation of
// the same position, over 75-87 positions of seeded level-2 self-play; at
// 31fcfca, before these prunings). Its 5th percentile lay at -750 to -950
// for depths 1 to 6, its 95th at +1,170 to +1,530: a node whose evaluation
// is more than the static margin above beta falls to beta in fewer than
// one case in twenty, and one more than the razor margin below alpha
// climbs to it as rarely.
//
// On positions of the games against Rapfi (GOMOKU_SPREAD=games, issue 15's
// forty-first session) the spread is skewed: the search lowers the side to
// move's score by 400-730 at the median (depths 1-6), its 10th percentile
// lies at -1,150 to -2,400 and its 95th at +500 to +1,160, so these static
// margins are passed by the search's fall in 15-25% of those nodes and the
// razor margins are wide. Margins re-centred on that spread (static
// 1,150-1,950, razor 550 and 850), and all margins at 0.7 times these,
// played level with these in the fixed-node gauntlet (docs/benchmarks.md).
const (
	futilityDepth = 4
	razorDepth    = 2
)

var (
	staticFutilityTable = [futilityDepth + 1]int{0, 800, 900, 1000, 1100}
	razorTable          = [razorDepth + 1]int{0, 1200, 1300}
)

func staticFutilityMargin(depth int) int { return staticFutilityTable[depth] }
func razorMargin(depth int) int          { return razorTable[depth] }

// Fail-high reduction: at a node off the principal variation whose static
// evaluation is above beta by more than failHighMargin(depth), and where
// the opponent has no open three, the moves that make no four are
// searched a ply shallower: such nodes nearly always fail high, and a
// shallower search shows it. The margin, 380-460 at depths 2-4, lies
// between the 75th and 90th percentiles of the search's score minus the
// static evaluation (TestEvalSpread with the fitted table) and below half
// the static futility margins, so it reduces where static futility does
// not prune. On BenchmarkDepthRapfiPositions it took the depth in
// 800,000 nodes from 7.90 to 8.45 (docs/benchmarks.md, ninth session).
const (
	failHighBase = 300
	failHighStep = 40
)

// failHighMargin is the fail-high reduction's margin above beta at a node
// with depth plies left.
func failHighMargin(depth int) int { return failHighBase + failHighStep*depth }

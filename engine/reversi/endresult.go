package reversi

// Result passes: under a deadline, the top level settles the game's result
// (win, draw or loss) before its margin. A game is won by one disc as well
// as by forty, and a search whose window is the single score 0 cuts far more
// of the tree than one that must find the exact score: on a position of 25
// empties the selective pass at 2 sigma found the drawing move in 1.7 s
// where the exact-score passes of solveRoot were still on a losing one at 3 s
// (docs/benchmarks.md, thirty-fifth session). NTest, the strongest engine we
// measure against, searches the same way (its "91%W" passes). On 400
// positions of 24-29 empties with NTest's depth-20 values, the moves that
// gave away a result at 3 s a move went from 11 to 6 (at 1 s 12 to 11, at
// 0.3 s level; NTest 2 of 250 at 1 s and 3 s). The price is margin: any
// winning move will do, so the mean loss in discs at 3 s rose (0.34 to 0.39
// a move on the set's parts A and B, 0.46 to 0.80 on part C). The start of
// the solve (solveTimeFactor) was tuned for the exact-score passes and is
// unchanged. Without a deadline (analysis to a depth, the FFO benchmark,
// node budgets) the exact-score passes of solveRoot are unchanged.

// resultPasses are the confidences of the result passes, in hundredths of a
// sigma of the endgame ProbCut (endcut.go), run in this order; the last is
// the proof. The cheap low ones order the table for the next. Below
// endCutRootEmpties only the proof runs, as in solveRoot.
var resultPasses = []uint8{0, 50, 100, 150, 200, provenExact}

// Outcomes of a result pass, from the side to move's view.
const (
	outcomeLoss = -1
	outcomeDraw = 0
	outcomeWin  = 1
)

// solveResult searches the root for the best outcome at each confidence of
// resultPasses in turn, trying the moves in the order of root. After each
// completed pass it calls found with the pass's confidence, its outcome and
// the move that reaches it (when the outcome is a loss, the move is only the
// one whose bound was highest: the caller keeps its own choice). It returns
// when the proof is done or the search is aborted, with the root's best
// move first.
func (e *Engine) solveResult(me, opp uint64, root []rootMove, found func(conf uint8, best, outcome int)) {
	e.resultPass = true
	defer func() { e.endConf, e.resultPass = provenExact, false }()
	passes := resultPasses
	if 64-popcount(me|opp) < endCutRootEmpties {
		passes = passes[len(passes)-1:] // small enough to prove at once
	}
	for _, t := range passes {
		e.endConf = t
		// Final scores are even (the empties go to the winner), so the
		// window (-1, 1) holds only the draw: the result fails high on a
		// win and low on a loss.
		best, v := e.solveRootWindow(me, opp, root, -1, 1)
		if e.aborted {
			return
		}
		outcome := outcomeDraw
		switch {
		case v >= 1:
			outcome = outcomeWin
		case v <= -1:
			outcome = outcomeLoss
		}
		found(t, best, outcome)
	}
}

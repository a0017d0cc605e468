package gomoku

import (
	"sort"
	"time"
)

// Screens: the opponent's threat search after our root moves, which a
// fixed-depth main search cannot replace (a VCF or VCT may be far longer
// than the remaining depth).

// rootMove is a move at the root with its score from the last iteration.
type rootMove struct {
	move  int16
	order int32
	score int
	// screened says the opponent's threat search has been run after the
	// move; losing marks a move after which it found a proven win. A
	// losing move is searched only if every move loses.
	screened, losing bool
}

// screenRoot runs the opponent's threat search after each of the best root
// moves and marks those that allow a forced win. This is what a
// fixed-depth search cannot see: the opponent's VCF or VCT may be far
// longer than the remaining depth. Moves left unscreened here are screened
// when the main search chooses one (screenBest).
func (e *Engine) screenRoot(b *Board) {
	if e.opt.screenVCF == 0 {
		return
	}
	safe := 0
	for k := range e.rootMoves {
		// Past the best screenMoves, screening goes on only while no safe
		// move has been found.
		if (k >= e.opt.screenMoves && safe > 0) || e.stopped || e.threatOut {
			safe += len(e.rootMoves) - k // unscreened moves count as safe
			break
		}
		if !e.screenMove(b, k) {
			safe++
		}
	}
	if safe == 0 {
		e.unmarkLosing()
		return
	}
	sort.SliceStable(e.rootMoves, func(i, j int) bool { return !e.rootMoves[i].losing && e.rootMoves[j].losing })
}

// screenMove runs the opponent's VCF and VCT after root move k, records the
// result in the move and reports whether the opponent wins.
func (e *Engine) screenMove(b *Board, k int) bool {
	b.play(int(e.rootMoves[k].move))
	lost := e.threatWin(b, 1, e.opt.screenVCF, e.opt.screenVCT, max(e.opt.screenDepth, 4))
	b.undo()
	if e.stopped || e.threatOut {
		return false // an interrupted screen proves nothing; leave it unscreened
	}
	e.rootMoves[k].screened = true
	e.rootMoves[k].losing = lost
	return lost
}

// Deep screen (level 6, under a deadline). The screen before the main
// search gives each of the best 20 moves 5,000 + 10,000 nodes; in the
// games lost to Rapfi at 1 s per move, the opponent's winning threat
// sequence after our move took VCTs of 2 to 10 attacker moves and 2,000 to
// 400,000 nodes to find, and in most of those games other moves were safe
// (TestAnalyseThreatWins on the match log). So the main search stops at
// deepScreenStart of the time, and the rest is spent on the opponent's
// threat search after the move the main search chose, with a budget far
// beyond the first screen; if the opponent wins, the next moves in the
// main search's order are tried until one is safe or the time is gone.
const (
	// deepScreenStart is the share of the time the main search gets. It
	// was 0.8: with 0.7 the deep screen proves more of the opponent's
	// longer wins (BenchmarkSafeChoice: strict safe choices 12 -> 15 of
	// 21; 0.75 14, 0.65 15, 0.6 14).
	deepScreenStart = 0.7
	// deepScreenCandidates bounds the moves tried after a losing choice.
	// It was 6: when the opponent's win after the choice is short, it is
	// often short after the next moves in order too, and a safe move lies
	// further down (BenchmarkSafeChoice 15 -> 16 of 21 with 20; 12 gave
	// 15). The deadline bounds the time as before.
	deepScreenCandidates = 20
	// deepScreenDepth is the opponent's VCT depth in attacker moves.
	deepScreenDepth = 10
)

// screenVerdict is what the deep screen found.
type screenVerdict uint8

const (
	screenKept     screenVerdict = iota // the choice stands: not proven safe, or every candidate lost
	screenSafe                          // the choice is safe: the opponent's threat search ended without a win
	screenReplaced                      // the choice lost; another move is played instead
)

// deepScreen runs the opponent's VCF and VCT after the chosen move (cell
// best) and, if they prove a win, after the next moves in order, until
// one is safe or the deadline. It returns the move to play instead (with
// screenReplaced), or says whether best stands safe (screenSafe) or
// unproven (screenKept: its screen was cut, or every candidate lost). A
// candidate whose screen the deadline cut is taken: not proven lost is
// better than proven lost.
func (e *Engine) deepScreen(b *Board, best int, deadline time.Time, hasDeadline bool) (int, screenVerdict) {
	e.deepScreenUntil(deadline, hasDeadline)
	defer func() { e.threatUntil, e.threatOut = time.Time{}, false }()
	cands := []int{best}
	for _, rm := range e.rootMoves {
		if len(cands) >= deepScreenCandidates {
			break
		}
		if int(rm.move) != best && !rm.losing {
			cands = append(cands, int(rm.move))
		}
	}
	for k, m := range cands {
		lost, cut := e.deepLost(b, m)
		switch {
		case k > 0 && (!lost || cut):
			// Safe, or not proven lost when time ran out: better than a
			// move proven lost.
			return m, screenReplaced
		case k == 0 && cut:
			return best, screenKept
		case k == 0 && !lost:
			return best, screenSafe
		}
	}
	return best, screenKept
}

// deepSafe reports whether the opponent's deep-screen threat search after
// m ends, within the deadline, without a win.
func (e *Engine) deepSafe(b *Board, m int, deadline time.Time, hasDeadline bool) bool {
	e.deepScreenUntil(deadline, hasDeadline)
	defer func() { e.threatUntil, e.threatOut = time.Time{}, false }()
	lost, cut := e.deepLost(b, m)
	return !lost && !cut
}

// deepScreenUntil ends the deep screen's threat search a few milliseconds
// before the deadline, kept for returning.
func (e *Engine) deepScreenUntil(deadline time.Time, hasDeadline bool) {
	e.threatOut = false
	if hasDeadline {
		e.threatUntil = deadline.Add(-time.Until(deadline) / 50)
	}
}

// deepLost runs the deep screen's threat search after m: whether the
// opponent wins, and whether the deadline (or the node budget) cut the
// search.
func (e *Engine) deepLost(b *Board, m int) (lost, cut bool) {
	b.play(m)
	lost = e.threatWin(b, 1, e.opt.deepScreenNodes, e.opt.deepScreenNodes, deepScreenDepth)
	b.undo()
	return lost, e.stopped || e.threatOut
}

// rootScore returns the last score the main search gave a root move.
func (e *Engine) rootScore(m int) int {
	for _, rm := range e.rootMoves {
		if int(rm.move) == m {
			return rm.score
		}
	}
	return 0
}

// unmarkLosing clears every losing mark: when every move loses, the main
// search chooses among all of them.
func (e *Engine) unmarkLosing() {
	for k := range e.rootMoves {
		e.rootMoves[k].losing = false
	}
}

// screenBest screens the main search's choice if screenRoot left it
// unscreened (it was not among the best-ordered moves). If the opponent
// wins after it, the move is marked losing and screenBest reports true:
// the iteration must be searched again without it. Without this check the
// search could prefer an unscreened move to every screened safe one and
// walk into a threat sequence the screen would have seen.
func (e *Engine) screenBest(b *Board) bool {
	if e.opt.screenVCF == 0 || e.rootMoves[0].screened || e.rootMoves[0].losing {
		return false
	}
	if !e.screenMove(b, 0) {
		return false
	}
	for _, m := range e.rootMoves {
		if !m.losing {
			return true
		}
	}
	e.unmarkLosing() // every move loses: keep the search's choice
	return false
}

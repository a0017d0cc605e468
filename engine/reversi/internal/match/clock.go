package match

import (
	"math"
	"time"
)

// ntestStalePerEmpty is the time NTest's match-time manager holds back per
// empty square (its tSetStale: the time to mark its hash table stale,
// 2^21 buckets at 1e-7 s each over the 2.4 GHz of its parameters.txt).
// Measured: with TI[5] at 60 empties it took 2.4 s (the 5 s clock is below
// the reserve, so it falls back to 2 s a move), with TI[10] 0.21 s and
// TI[20] 1.28 s, as the formula in NTestClock predicts.
const ntestStalePerEmpty = 0.087

// NTestClock returns the clock, in whole seconds, to send NTest in its
// match-time mode (started as `ntest x m`) so that it plans to spend about
// want on a move with the given empties. NTest reads the mover's clock R
// from the game record and plans a typical time t = 2(R - n*stale)/(n - 20)
// from 24 empties and (R - n*stale)/2 below (its CCalcParamsMatchTime,
// read for the idea only); it starts no new iteration after t/2 and
// aborts at 2t. GGF clocks are whole seconds, so the planned time is
// coarse near the end; the clock never falls to the reserve, where NTest
// would fall back to 2 s a move.
func NTestClock(empties int, want time.Duration) int {
	reserve := float64(empties) * ntestStalePerEmpty
	var r float64
	if empties >= 24 {
		r = reserve + want.Seconds()*float64(empties-20)/2
	} else {
		r = reserve + 2*want.Seconds()
	}
	s := int(math.Round(r))
	if min := int(reserve) + 1; s < min {
		s = min
	}
	return s
}

// EqualTime returns the time the second player should aim at for its next
// move so that its total thinking time keeps up with the first player's:
// the first player's average so far, plus or minus the difference between
// what it has spent and what the second has (spent over its moves so far),
// kept within a quarter and four times the average. With no move of the
// first player yet it is fallback.
func EqualTime(firstMoves int, firstTotal time.Duration, secondMoves int, secondTotal time.Duration, fallback time.Duration) time.Duration {
	if firstMoves == 0 {
		return fallback
	}
	avg := firstTotal / time.Duration(firstMoves)
	want := avg*time.Duration(secondMoves+1) - secondTotal
	return max(avg/4, min(4*avg, want))
}

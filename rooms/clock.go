package rooms

import (
	"fmt"
	"time"
)

// TimeControl is a room's time control, fixed when the room is created (docs/protocol.md,
// Clocks). The zero value is untimed.
type TimeControl struct {
	Kind      ClockKind `json:"kind"`
	Base      int       `json:"base,omitempty"`      // Fischer: seconds on each clock at the start
	Increment int       `json:"increment,omitempty"` // Fischer: seconds added after each move
	Days      int       `json:"days,omitempty"`      // correspondence: days for each move
}

// ClockKind names a kind of time control.
type ClockKind string

// The kinds of time control.
const (
	ClockUntimed        ClockKind = "untimed"        // no clocks
	ClockFischer        ClockKind = "fischer"        // base time plus an increment per move
	ClockCorrespondence ClockKind = "correspondence" // a fixed number of days per move
)

// Bounds of a Fischer clock: from a quarter-minute bullet game to three hours a side, with
// at most three minutes' increment, the range players know from the big sites.
const (
	minBaseSeconds   = 15
	maxBaseSeconds   = 3 * 60 * 60
	maxIncrementSecs = 180
)

// correspondenceDays are the periods a correspondence game may give each move.
var correspondenceDays = []int{1, 3, 7}

// ClockPresets are the Fischer controls a client offers first (minutes+seconds: 1+0, 3+2,
// 5+3, 10+5, 15+10, 30+20).
var ClockPresets = []TimeControl{
	{Kind: ClockFischer, Base: 60}, {Kind: ClockFischer, Base: 180, Increment: 2},
	{Kind: ClockFischer, Base: 300, Increment: 3}, {Kind: ClockFischer, Base: 600, Increment: 5},
	{Kind: ClockFischer, Base: 900, Increment: 10}, {Kind: ClockFischer, Base: 1800, Increment: 20},
}

// ClockBounds describe the custom time controls allowed, for GET /api/games.
type ClockBounds struct {
	BaseMin      int   `json:"baseMin"`
	BaseMax      int   `json:"baseMax"`
	IncrementMax int   `json:"incrementMax"`
	Days         []int `json:"days"`
}

// Bounds are the limits normalize enforces.
var Bounds = ClockBounds{BaseMin: minBaseSeconds, BaseMax: maxBaseSeconds,
	IncrementMax: maxIncrementSecs, Days: correspondenceDays}

// firstMoveLimit is how long a side has for its first move of a Fischer game: long enough
// to sit down and look, short enough that a game nobody plays is aborted soon (lichess
// gives about as much).
const firstMoveLimit = 30 * time.Second

// normalize checks a time control from a client and fills in the untimed default.
func (tc *TimeControl) normalize() error {
	switch tc.Kind {
	case "", ClockUntimed:
		if tc.Base != 0 || tc.Increment != 0 || tc.Days != 0 {
			return errorf(CodeBadRequest, "an untimed clock has no base, increment or days")
		}
		*tc = TimeControl{Kind: ClockUntimed}
	case ClockFischer:
		if tc.Base < minBaseSeconds || tc.Base > maxBaseSeconds {
			return errorf(CodeBadRequest, "clock base must be %d..%d seconds, not %d", minBaseSeconds, maxBaseSeconds, tc.Base)
		}
		if tc.Increment < 0 || tc.Increment > maxIncrementSecs {
			return errorf(CodeBadRequest, "clock increment must be 0..%d seconds, not %d", maxIncrementSecs, tc.Increment)
		}
		if tc.Days != 0 {
			return errorf(CodeBadRequest, "a fischer clock has no days")
		}
	case ClockCorrespondence:
		ok := false
		for _, d := range correspondenceDays {
			ok = ok || tc.Days == d
		}
		if !ok {
			return errorf(CodeBadRequest, "correspondence days must be one of %v, not %d", correspondenceDays, tc.Days)
		}
		if tc.Base != 0 || tc.Increment != 0 {
			return errorf(CodeBadRequest, "a correspondence clock has days, not base or increment")
		}
	default:
		return errorf(CodeBadRequest, "clock kind must be untimed, fischer or correspondence, not %q", tc.Kind)
	}
	return nil
}

// timed reports whether the control has clocks.
func (tc TimeControl) timed() bool { return tc.Kind == ClockFischer || tc.Kind == ClockCorrespondence }

// base is each side's time at the start of a game (a correspondence move's period).
func (tc TimeControl) base() time.Duration {
	if tc.Kind == ClockCorrespondence {
		return time.Duration(tc.Days) * 24 * time.Hour
	}
	return time.Duration(tc.Base) * time.Second
}

// increment is the time a side gains after each move (Fischer).
func (tc TimeControl) increment() time.Duration {
	return time.Duration(tc.Increment) * time.Second
}

// firstMove is the limit on a side's first move of a game.
func (tc TimeControl) firstMove() time.Duration {
	if tc.Kind == ClockCorrespondence {
		return tc.base()
	}
	return firstMoveLimit
}

// String is the control as players write it: 3+2, 3 days, untimed.
func (tc TimeControl) String() string {
	switch tc.Kind {
	case ClockFischer:
		if tc.Base%60 == 0 {
			return fmt.Sprintf("%d+%d", tc.Base/60, tc.Increment)
		}
		return fmt.Sprintf("%ds+%d", tc.Base, tc.Increment)
	case ClockCorrespondence:
		return fmt.Sprintf("%d days", tc.Days)
	}
	return "untimed"
}

// clocks are a game's clocks as its events have charged them. A side's remaining time is
// what it had when its last turn ended; the side to move runs from turnStart. Everything
// here follows from the stored events' times, never from a ticking timer.
type clocks struct {
	remaining [2]time.Duration
	moved     [2]bool   // the side has made a move this game (its clock runs from the next)
	started   bool      // both seats have been taken: the game's time runs
	turnStart time.Time // when the side to move's turn began
}

// newClocks are the clocks at the start of a game under tc.
func newClocks(tc TimeControl) clocks {
	return clocks{remaining: [2]time.Duration{tc.base(), tc.base()}}
}

// deadline is when the side to move's time runs out, and whether it is a first move (whose
// end aborts the game rather than losing it); ok is false when no clock runs.
func (c clocks) deadline(tc TimeControl, toMove Side) (at time.Time, firstMove bool, ok bool) {
	if !tc.timed() || !c.started {
		return time.Time{}, false, false
	}
	i := toMove.Index()
	if !c.moved[i] {
		return c.turnStart.Add(tc.firstMove()), true, true
	}
	if tc.Kind == ClockCorrespondence {
		return c.turnStart.Add(tc.base()), false, true
	}
	return c.turnStart.Add(c.remaining[i]), false, true
}

// moved charges side for a move made at t and starts the opponent's turn.
func (c *clocks) chargeMove(tc TimeControl, side Side, t time.Time) {
	i := side.Index()
	switch {
	case !c.moved[i]:
		c.moved[i] = true // a first move costs nothing
	case tc.Kind == ClockCorrespondence:
		c.remaining[i] = tc.base()
	default:
		c.remaining[i] -= t.Sub(c.turnStart)
		if c.remaining[i] < 0 {
			c.remaining[i] = 0
		}
		c.remaining[i] += tc.increment()
	}
	c.turnStart = t
}

// left is side's remaining time at now, when it is to move (else its stored time).
func (c clocks) left(tc TimeControl, side, toMove Side, now time.Time, running bool) time.Duration {
	i := side.Index()
	if tc.Kind == ClockCorrespondence {
		if running && side == toMove {
			return max(0, tc.base()-now.Sub(c.turnStart))
		}
		return tc.base()
	}
	if running && side == toMove && c.moved[i] {
		return max(0, c.remaining[i]-now.Sub(c.turnStart))
	}
	return c.remaining[i]
}

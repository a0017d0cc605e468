package rooms

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTimeControlBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   TimeControl
		ok   bool
	}{
		{"untimed by default", TimeControl{}, true},
		{"untimed", TimeControl{Kind: ClockUntimed}, true},
		{"bullet 1+0", TimeControl{Kind: ClockFischer, Base: 60}, true},
		{"30+20", TimeControl{Kind: ClockFischer, Base: 1800, Increment: 20}, true},
		{"shortest", TimeControl{Kind: ClockFischer, Base: 15}, true},
		{"too short", TimeControl{Kind: ClockFischer, Base: 14}, false},
		{"too long", TimeControl{Kind: ClockFischer, Base: 3*3600 + 1}, false},
		{"negative increment", TimeControl{Kind: ClockFischer, Base: 60, Increment: -1}, false},
		{"increment too big", TimeControl{Kind: ClockFischer, Base: 60, Increment: 181}, false},
		{"fischer with days", TimeControl{Kind: ClockFischer, Base: 60, Days: 1}, false},
		{"3 days", TimeControl{Kind: ClockCorrespondence, Days: 3}, true},
		{"2 days", TimeControl{Kind: ClockCorrespondence, Days: 2}, false},
		{"days with base", TimeControl{Kind: ClockCorrespondence, Days: 1, Base: 60}, false},
		{"untimed with base", TimeControl{Kind: ClockUntimed, Base: 60}, false},
		{"unknown kind", TimeControl{Kind: "hourglass"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.in.normalize()
			if tc.ok {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, CodeBadRequest, CodeOf(err))
		})
	}
	for _, p := range ClockPresets {
		require.NoError(t, p.normalize(), p.String())
	}
}

// timedTable is a Reversi room of two people under tc, both seated at t0.
func timedTable(t *testing.T, tc TimeControl) *table {
	tb := newTable(t, Meta{ID: "tc", Game: "reversi", Clock: tc, CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	return tb
}

func clockOf(tb *table) ClockView { return *tb.st.clockView(tb.now()) }

func TestFischerClock(t *testing.T) {
	tb := timedTable(t, TimeControl{Kind: ClockFischer, Base: 60, Increment: 2})
	c := clockOf(tb)
	require.Equal(t, Black, *c.Running)
	require.True(t, c.FirstMove)
	require.Equal(t, t0.Add(firstMoveLimit), *c.Deadline)

	tb.wait(10 * time.Second)
	tb.move(Black, "f5") // a first move costs nothing and earns nothing
	tb.wait(20 * time.Second)
	tb.move(White, "f6")
	c = clockOf(tb)
	require.Equal(t, int64(60_000), c.Black)
	require.Equal(t, int64(60_000), c.White)
	require.False(t, c.FirstMove)
	require.Equal(t, tb.now().Add(time.Minute), *c.Deadline)

	tb.wait(5 * time.Second)
	require.Equal(t, int64(55_000), clockOf(tb).Black, "the running side counts down")
	tb.move(Black, "e6")
	c = clockOf(tb)
	require.Equal(t, int64(57_000), c.Black, "60 - 5 + 2")
	require.Equal(t, White, *c.Running)

	tb.wait(1500 * time.Millisecond)
	tb.move(White, "f4")
	require.Equal(t, int64(60_500), clockOf(tb).White, "60 - 1.5 + 2")

	// Undo gives no time back; the side to move runs from the undo.
	tb.wait(3 * time.Second)
	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[Black]})
	tb.must(Command{Kind: CmdUndoReply, Token: tb.tokens[White], Accept: true})
	c = clockOf(tb)
	require.Equal(t, int64(57_000), c.Black)
	require.Equal(t, int64(60_500), c.White)
	require.Equal(t, Black, *c.Running)
	tb.replayed()
}

func TestFlag(t *testing.T) {
	tb := timedTable(t, TimeControl{Kind: ClockFischer, Base: 15})
	tb.move(Black, "f5")
	tb.move(White, "f6")
	tb.wait(14 * time.Second)
	tb.fails(Command{Kind: cmdTime}, CodeTooEarly)
	tb.wait(time.Second)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "e6"}, CodeTimeOut)
	evs := tb.must(Command{Kind: cmdTime})
	require.Equal(t, []EventType{EvFlag}, typesOf(evs))
	v := tb.st.view(0)
	require.Equal(t, White, v.Result.Winner)
	require.Equal(t, "timeout", v.Result.Reason)
	require.Equal(t, int64(0), v.Clock.Black)
	require.Nil(t, v.Clock.Running)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "e6"}, CodeGameOver)
	tb.fails(Command{Kind: cmdTime}, CodeGameOver)
	tb.replayed()
}

func TestFirstMoveLimitAborts(t *testing.T) {
	for _, mover := range []Side{Black, White} {
		t.Run(string(mover)+" never moves", func(t *testing.T) {
			tb := timedTable(t, TimeControl{Kind: ClockFischer, Base: 600, Increment: 5})
			if mover == White {
				tb.move(Black, "f5")
			}
			tb.wait(firstMoveLimit - time.Millisecond)
			tb.fails(Command{Kind: cmdTime}, CodeTooEarly)
			tb.wait(time.Millisecond)
			evs := tb.must(Command{Kind: cmdTime})
			require.Equal(t, EvAbort, evs[0].Type)
			require.Equal(t, mover, evs[0].Seat)
			r := tb.st.view(0).Result
			require.Equal(t, Side(""), r.Winner)
			require.Equal(t, "aborted", r.Reason)
			tb.replayed()
		})
	}
}

func TestNoClockWhileASeatIsOpen(t *testing.T) {
	tb := newTable(t, Meta{ID: "open", Game: "gomoku", Clock: TimeControl{Kind: ClockFischer, Base: 60}, CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.wait(time.Hour)
	require.Nil(t, clockOf(tb).Running, "nobody to play: no clock runs")
	tb.fails(Command{Kind: cmdTime}, CodeTooEarly)
	tb.sit(White, "Bob")
	require.Equal(t, tb.now().Add(firstMoveLimit), *clockOf(tb).Deadline, "the first move's limit starts when the seats fill")
}

func TestCorrespondenceDays(t *testing.T) {
	tb := timedTable(t, TimeControl{Kind: ClockCorrespondence, Days: 3})
	day := 24 * time.Hour
	require.Equal(t, tb.now().Add(3*day), *clockOf(tb).Deadline, "the first move has the move's period")
	tb.wait(2 * day)
	tb.move(Black, "f5")
	tb.wait(2 * day)
	tb.move(White, "f6")
	tb.wait(47 * time.Hour)
	c := clockOf(tb)
	require.Equal(t, (25 * time.Hour).Milliseconds(), c.Black)
	require.Equal(t, (3 * day).Milliseconds(), c.White)
	tb.move(Black, "e6")
	require.Equal(t, (3 * day).Milliseconds(), clockOf(tb).Black, "every move gets the whole period again")
	tb.wait(3 * day)
	evs := tb.must(Command{Kind: cmdTime})
	require.Equal(t, EvFlag, evs[0].Type)
	require.Equal(t, White, evs[0].Seat)
	tb.replayed()
}

func TestDrawOffers(t *testing.T) {
	tb := timedTable(t, TimeControl{})
	tb.fails(Command{Kind: CmdDrawReply, Token: tb.tokens[White], Accept: true}, CodeNoRequest)
	tb.must(Command{Kind: CmdDraw, Token: tb.tokens[Black]})
	require.Equal(t, &offerView{By: Black}, tb.st.view(0).DrawOffer)
	tb.fails(Command{Kind: CmdDraw, Token: tb.tokens[Black]}, CodeBadRequest)
	tb.fails(Command{Kind: CmdDrawReply, Token: tb.tokens[Black], Accept: true}, CodeNoRequest)
	tb.move(Black, "f5")
	require.NotNil(t, tb.st.view(0).DrawOffer, "the offerer's own move keeps the offer")
	evs := tb.move(White, "f6")
	require.Equal(t, []EventType{EvDrawDecline, EvMove}, typesOf(evs), "the opponent's move declines it")
	require.Nil(t, tb.st.view(0).DrawOffer)
	tb.must(Command{Kind: CmdDraw, Token: tb.tokens[White]})
	tb.must(Command{Kind: CmdDrawReply, Token: tb.tokens[Black], Accept: false})
	require.Nil(t, tb.st.view(0).DrawOffer)
	tb.must(Command{Kind: CmdDraw, Token: tb.tokens[White]})
	evs = tb.must(Command{Kind: CmdDraw, Token: tb.tokens[Black]}) // offering back accepts
	require.Equal(t, EvDraw, evs[0].Type)
	r := tb.st.view(0).Result
	require.Equal(t, "agreement", r.Reason)
	require.Equal(t, Side(""), r.Winner)
	tb.fails(Command{Kind: CmdDraw, Token: tb.tokens[Black]}, CodeGameOver)
	tb.replayed()

	bot := newTable(t, Meta{ID: "db", Game: "reversi", CreatedAt: t0})
	bot.sit(Black, "Ann")
	bot.must(Command{Kind: CmdSetSeat, Token: bot.tokens[Black], Seat: White, Occupant: SeatBot, Level: 1})
	bot.fails(Command{Kind: CmdDraw, Token: bot.tokens[Black]}, CodeForbidden)
}

func TestAbortBeforeBothMoved(t *testing.T) {
	tb := timedTable(t, TimeControl{Kind: ClockFischer, Base: 180, Increment: 2})
	tb.move(Black, "f5")
	tb.must(Command{Kind: CmdAbort, Token: tb.tokens[White]})
	require.Equal(t, "aborted", tb.st.view(0).Result.Reason)

	tb = timedTable(t, TimeControl{})
	tb.move(Black, "f5")
	tb.move(White, "f6")
	tb.fails(Command{Kind: CmdAbort, Token: tb.tokens[Black]}, CodeTooEarly)
}

func TestClaims(t *testing.T) {
	grace := 30 * time.Second
	claim := func(tb *table, kind string, gone time.Duration) Command {
		return Command{Kind: CmdClaim, Token: tb.tokens[Black], Claim: kind, goneFor: gone, grace: grace}
	}
	tb := timedTable(t, TimeControl{})
	tb.fails(claim(tb, ClaimWin, 0), CodeForbidden)
	tb.fails(claim(tb, ClaimWin, grace-time.Second), CodeTooEarly)
	tb.fails(claim(tb, "lose", grace), CodeBadRequest)
	tb.must(claim(tb, ClaimAbort, grace))
	require.Equal(t, "aborted", tb.st.view(0).Result.Reason)

	tb = timedTable(t, TimeControl{})
	for _, m := range []string{"f5", "f6", "e6", "f4"} {
		tb.move(tb.st.game.toMove(), m)
	}
	tb.fails(claim(tb, ClaimAbort, grace), CodeTooEarly)
	tb.must(claim(tb, ClaimWin, grace))
	r := tb.st.view(0).Result
	require.Equal(t, Black, r.Winner)
	require.Equal(t, "abandoned", r.Reason)
	tb.replayed()

	// Or the seat of the one who left goes to a bot, after the grace period only.
	tb = timedTable(t, TimeControl{})
	setBot := Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 3, grace: grace}
	tb.fails(setBot, CodeForbidden)
	setBot.goneFor = grace
	tb.must(setBot)
	require.Equal(t, SeatBot, tb.st.view(0).Seats[White].Kind)
}

func typesOf(evs []Event) []EventType {
	out := make([]EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func TestUntimedGameEndsWhenAbandoned(t *testing.T) {
	tb := timedTable(t, TimeControl{})
	tb.move(Black, "f5")
	tb.wait(untimedAbandon - time.Second)
	tb.fails(Command{Kind: cmdTime}, CodeTooEarly)
	tb.move(White, "f6") // any event keeps it alive
	tb.wait(untimedAbandon - time.Second)
	tb.fails(Command{Kind: cmdTime}, CodeTooEarly)
	tb.wait(time.Second)
	evs := tb.must(Command{Kind: cmdTime})
	require.Equal(t, EvAbort, evs[0].Type)
	require.Equal(t, "aborted", tb.st.view(0).Result.Reason)
	require.Nil(t, tb.st.view(0).Clock, "an untimed game shows no clock")
	tb.replayed()

	waiting := newTable(t, Meta{ID: "w", Game: "reversi", CreatedAt: t0})
	waiting.sit(Black, "Ann")
	_, ok := waiting.st.deadline()
	require.False(t, ok, "a room waiting for its second player has no deadline")
}

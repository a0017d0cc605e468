package rooms

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// table is a room state driven the way a room drives it: decide, store, take the
// decision's state.
type table struct {
	t      *testing.T
	clock  time.Time // the fake clock decisions are made at (t0 unless a test moves it)
	st     *roomState
	tokens map[Side]string
	log    []Event
}

func newTable(t *testing.T, meta Meta) *table {
	t.Helper()
	require.NoError(t, normalizeMeta(&meta))
	st, err := newRoomState(meta)
	require.NoError(t, err)
	return &table{t: t, st: st, tokens: map[Side]string{}}
}

// now is the table's fake clock: t0, or where a test set it.
func (tb *table) now() time.Time {
	if tb.clock.IsZero() {
		return t0
	}
	return tb.clock
}

// wait moves the fake clock on by d.
func (tb *table) wait(d time.Duration) { tb.clock = tb.now().Add(d) }

// do decides and applies cmd; it returns the events or the error.
func (tb *table) do(cmd Command) ([]Event, error) {
	tb.t.Helper()
	if cmd.Token != "" {
		cmd.actor = tb.st.sideOfToken(cmd.Token)
	}
	var token string
	switch cmd.Kind {
	case CmdSit:
		token, cmd.tokenHash = newToken()
	case CmdRematch, CmdRematchReply:
		cmd.nextRoom = tb.st.meta.ID + "n"
	}
	d, err := tb.st.decide(cmd, tb.now())
	if err != nil {
		return nil, err
	}
	if cmd.Kind == CmdSit {
		tb.tokens[cmd.Seat] = token
	}
	// The decision's state is what applying its events gives, event by event, and the
	// public events and views it carries are those of each step.
	applied := tb.st.clone()
	require.Len(tb.t, d.public, len(d.events))

	for i, e := range d.events {
		pub, err := applied.apply(e)
		require.NoError(tb.t, err)
		require.Equal(tb.t, pub, d.public[i])
		require.Empty(tb.t, pub.TokenHash, "a public event never carries the token hash")
		require.Equal(tb.t, applied.view(0), d.viewAfter(i, 0))
		tb.log = append(tb.log, e)
	}
	require.Equal(tb.t, applied.view(0), d.next.view(0))
	tb.st = d.next
	return d.events, nil
}

func (tb *table) must(cmd Command) []Event {
	tb.t.Helper()
	evs, err := tb.do(cmd)
	require.NoError(tb.t, err)
	return evs
}

// fails checks that cmd is refused with code and leaves the state as it was.
func (tb *table) fails(cmd Command, code Code) {
	tb.t.Helper()
	before := tb.st.view(0)
	_, err := tb.do(cmd)
	require.Error(tb.t, err)
	require.Equal(tb.t, code, CodeOf(err), "error: %v", err)
	require.Equal(tb.t, before, tb.st.view(0), "a refused command changes nothing")
}

func (tb *table) sit(side Side, name string) {
	tb.t.Helper()
	tb.must(Command{Kind: CmdSit, Seat: side, Name: name})
}

func (tb *table) move(side Side, move string) []Event {
	tb.t.Helper()
	return tb.must(Command{Kind: CmdMove, Token: tb.tokens[side], Move: move})
}

// botMove plays a move as the room's bot runner does.
func (tb *table) botMove(side Side, move string) {
	tb.t.Helper()
	v := tb.st.version
	_, err := tb.do(Command{Kind: CmdMove, Move: move, At: &v, actor: side, bot: true})
	require.NoError(tb.t, err)
}

// replayed checks that replaying the log from scratch gives the same state.
func (tb *table) replayed() {
	tb.t.Helper()
	again, _, err := replayLog(tb.st.meta, tb.log)
	require.NoError(tb.t, err)
	require.Equal(tb.t, tb.st.view(0), again.view(0))
}

func TestReversiGameFlow(t *testing.T) {
	tb := newTable(t, Meta{ID: "r1", Game: "reversi", CreatedAt: t0})
	require.Equal(t, StatusWaiting, tb.st.status())
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")

	tb.fails(Command{Kind: CmdMove, Move: "f5"}, CodeNotSeated)
	tb.fails(Command{Kind: CmdMove, Token: "forged", Move: "f5"}, CodeNotSeated)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[White], Move: "f5"}, CodeNotYourTurn)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "a1"}, CodeIllegalMove)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "d4"}, CodeIllegalMove) // occupied
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "z9"}, CodeBadRequest)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "pass"}, CodeIllegalMove)
	stale := tb.st.version - 1
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "f5", At: &stale}, CodeStale)

	evs := tb.move(Black, "f5")
	require.Len(t, evs, 1)
	v := tb.st.view(3)
	require.Equal(t, StatusPlaying, v.Status)
	require.Equal(t, []string{"e5"}, v.Flipped)
	require.Equal(t, Counts{Black: 4, White: 1}, v.Counts)
	require.Equal(t, White, *v.ToMove)
	require.ElementsMatch(t, []string{"f4", "d6", "f6"}, v.Legal)
	require.Equal(t, 3, v.Viewers)
	tb.replayed()
}

// TestReversiForcedPass plays d3 c3 b3 b2 f5 a3 a1 c1, after which white has no move:
// the server stores the pass with the move that forces it.
func TestReversiForcedPass(t *testing.T) {
	tb := newTable(t, Meta{ID: "r2", Game: "reversi", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	moves := []string{"d3", "c3", "b3", "b2", "f5", "a3", "a1"}
	for i, m := range moves {
		tb.move([]Side{Black, White}[i%2], m)
	}
	evs := tb.move(White, "c1")
	require.Len(t, evs, 2)
	require.Equal(t, EvPass, evs[1].Type)
	require.Equal(t, Black, evs[1].Seat)
	v := tb.st.view(0)
	require.Equal(t, White, *v.ToMove, "after black's pass white moves again")
	require.Equal(t, "pass", *v.LastMove)
	require.Equal(t, append(moves, "c1", "pass"), v.Moves)
	tb.replayed()

	// Undo by white takes back its move and the pass it forced.
	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[White]})
	evs = tb.must(Command{Kind: CmdUndoReply, Token: tb.tokens[Black], Accept: true})
	require.Equal(t, 2, evs[0].Plies)
	require.Equal(t, moves, tb.st.view(0).Moves)
	tb.replayed()
}

func TestUndoAgainstBot(t *testing.T) {
	tb := newTable(t, Meta{ID: "r3", Game: "reversi", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.must(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 3})
	start := tb.st.view(0).Board
	tb.fails(Command{Kind: CmdUndo, Token: tb.tokens[Black]}, CodeNothingToUndo)

	tb.move(Black, "f5")
	side, level, ok := tb.st.botToMove()
	require.True(t, ok)
	require.Equal(t, White, side)
	require.Equal(t, 3, level)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "f6"}, CodeNotYourTurn)
	tb.botMove(White, "f6")
	afterFirst := tb.st.view(0).Board
	tb.move(Black, "e6")
	tb.botMove(White, "f4")

	evs := tb.must(Command{Kind: CmdUndo, Token: tb.tokens[Black]})
	require.Equal(t, EvUndo, evs[0].Type)
	require.Equal(t, 2, evs[0].Plies, "the bot's reply and the player's move")
	require.Equal(t, afterFirst, tb.st.view(0).Board)

	// While the bot thinks, undo takes back just the player's move.
	tb.move(Black, "e6")
	evs = tb.must(Command{Kind: CmdUndo, Token: tb.tokens[Black]})
	require.Equal(t, 1, evs[0].Plies)
	require.Equal(t, afterFirst, tb.st.view(0).Board)

	// Back to the start.
	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[Black]})
	require.Equal(t, start, tb.st.view(0).Board)
	require.Empty(t, tb.st.view(0).Moves)
	tb.fails(Command{Kind: CmdUndo, Token: tb.tokens[Black]}, CodeNothingToUndo)
	tb.replayed()
}

func TestUndoBetweenPeople(t *testing.T) {
	tb := newTable(t, Meta{ID: "r4", Game: "reversi", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	tb.move(Black, "f5")
	tb.move(White, "f6")

	tb.fails(Command{Kind: CmdUndoReply, Token: tb.tokens[White], Accept: true}, CodeNoRequest)
	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[White]})
	require.Equal(t, White, tb.st.view(0).UndoRequest.By)
	tb.fails(Command{Kind: CmdUndo, Token: tb.tokens[White]}, CodeBadRequest)
	tb.fails(Command{Kind: CmdUndoReply, Token: tb.tokens[White], Accept: true}, CodeNoRequest)

	tb.must(Command{Kind: CmdUndoReply, Token: tb.tokens[Black], Accept: false})
	require.Nil(t, tb.st.view(0).UndoRequest)
	require.Len(t, tb.st.view(0).Moves, 2)

	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[White]})
	evs := tb.must(Command{Kind: CmdUndoReply, Token: tb.tokens[Black], Accept: true})
	require.Equal(t, EvUndo, evs[0].Type)
	require.Equal(t, White, evs[0].By)
	require.Equal(t, []string{"f5"}, tb.st.view(0).Moves)
	require.Equal(t, White, *tb.st.view(0).ToMove)

	// A move declines a waiting request, and both players see it.
	tb.move(White, "f6")
	tb.must(Command{Kind: CmdUndo, Token: tb.tokens[White]})
	evs = tb.move(Black, "e6")
	require.Equal(t, []EventType{EvUndoDecline, EvMove}, typesOf(evs))
	require.Equal(t, Black, evs[0].Seat)
	require.Nil(t, tb.st.view(0).UndoRequest)
	tb.replayed()
}

func TestResignAndRematch(t *testing.T) {
	tb := newTable(t, Meta{ID: "r5", Game: "reversi", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	tb.fails(Command{Kind: CmdRematch, Token: tb.tokens[Black]}, CodeGameNotOver)
	tb.move(Black, "f5")
	tb.must(Command{Kind: CmdResign, Token: tb.tokens[White]})
	v := tb.st.view(0)
	require.Equal(t, StatusFinished, v.Status)
	require.Equal(t, Black, v.Result.Winner)
	require.Equal(t, "resign", v.Result.Reason)
	require.Nil(t, v.ToMove)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[White], Move: "f6"}, CodeGameOver)
	tb.fails(Command{Kind: CmdResign, Token: tb.tokens[Black]}, CodeGameOver)
	tb.fails(Command{Kind: CmdUndo, Token: tb.tokens[Black]}, CodeGameOver)

	// Between people a rematch is an offer the other accepts; the next game is a new room
	// with the colours swapped and the same tokens.
	tb.fails(Command{Kind: CmdRematchReply, Token: tb.tokens[Black], Accept: true}, CodeNoRequest)
	tb.must(Command{Kind: CmdRematch, Token: tb.tokens[White]})
	require.Equal(t, &offerView{By: White}, tb.st.view(0).Rematch)
	tb.fails(Command{Kind: CmdRematch, Token: tb.tokens[White]}, CodeBadRequest)
	tb.must(Command{Kind: CmdRematchReply, Token: tb.tokens[Black], Accept: false})
	require.Nil(t, tb.st.view(0).Rematch)
	tb.must(Command{Kind: CmdRematch, Token: tb.tokens[White]})
	evs := tb.must(Command{Kind: CmdRematch, Token: tb.tokens[Black]}) // accepting by asking too
	require.Equal(t, EvRematch, evs[0].Type)
	require.Equal(t, "r5n", evs[0].Next)
	v = tb.st.view(0)
	require.Equal(t, "r5n", *v.Next)
	require.Equal(t, "resign", v.Result.Reason, "the finished game stays as it ended")
	tb.fails(Command{Kind: CmdRematch, Token: tb.tokens[Black]}, CodeGameOver)

	meta, seats := tb.st.rematchRoom("r5n", t0)
	require.Equal(t, "r5", meta.Prev)
	require.Equal(t, 2, meta.GameNo)
	next, _, err := replayLog(meta, seats)
	require.NoError(t, err)
	require.Equal(t, White, next.sideOfToken(tb.tokens[Black]), "Ann plays white in the next game")
	require.Equal(t, Black, next.sideOfToken(tb.tokens[White]))
	nv := next.view(0)
	require.Equal(t, 2, nv.GameNo)
	require.Equal(t, "Bob", nv.Seats[Black].Name)
	require.Equal(t, "r5", *nv.Prev)
	tb.replayed()
}

// An old room's log may hold a rematch without a next room: a new game in the same room.
func TestOldRematchReplays(t *testing.T) {
	meta := Meta{ID: "old", Game: "reversi", Size: 8, CreatedAt: t0}
	log := []Event{
		{Seq: 1, Type: EvSeat, Time: t0, Seat: Black, Kind: SeatHuman, Name: "A", TokenHash: "a"},
		{Seq: 2, Type: EvSeat, Time: t0, Seat: White, Kind: SeatHuman, Name: "B", TokenHash: "b"},
		{Seq: 3, Type: EvMove, Time: t0, Seat: Black, Move: "f5"},
		{Seq: 4, Type: EvResign, Time: t0, Seat: White},
		{Seq: 5, Type: EvRematch, Time: t0, By: Black},
	}
	st, pubs, err := replayLog(meta, log)
	require.NoError(t, err)
	require.Len(t, pubs, 5)
	v := st.view(0)
	require.Equal(t, 2, v.GameNo)
	require.Nil(t, v.Result)
	require.Empty(t, v.Moves)
	require.Nil(t, v.Next)
}

func TestRematchAgainstBotStartsAtOnce(t *testing.T) {
	tb := newTable(t, Meta{ID: "rb", Game: "gomoku", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.must(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 2})
	tb.must(Command{Kind: CmdResign, Token: tb.tokens[Black]})
	evs := tb.must(Command{Kind: CmdRematch, Token: tb.tokens[Black]})
	require.Equal(t, EvRematch, evs[0].Type)
	meta, seats := tb.st.rematchRoom(evs[0].Next, t0)
	next, _, err := replayLog(meta, seats)
	require.NoError(t, err)
	require.Equal(t, SeatView{Kind: SeatBot, Level: 2}, next.view(0).Seats[Black])
	require.Equal(t, White, next.sideOfToken(tb.tokens[Black]))
}

func TestSeats(t *testing.T) {
	tb := newTable(t, Meta{ID: "r6", Game: "reversi", CreatedAt: t0})
	tb.fails(Command{Kind: CmdSit, Seat: "red", Name: "Ann"}, CodeBadRequest)
	tb.fails(Command{Kind: CmdSit, Seat: Black, Name: "  "}, CodeBadRequest)
	tb.fails(Command{Kind: CmdSit, Seat: Black, Name: "a\x00b"}, CodeBadRequest)
	tb.fails(Command{Kind: CmdSit, Seat: Black, Name: "ThisNameIsFarTooLongForASeat"}, CodeBadRequest)
	tb.sit(Black, "  Ann  ")
	require.Equal(t, "Ann", tb.st.view(0).Seats[Black].Name)
	tb.fails(Command{Kind: CmdSit, Seat: Black, Name: "Eve"}, CodeSeatTaken)
	tb.fails(Command{Kind: CmdSit, Token: tb.tokens[Black], Seat: White, Name: "Ann"}, CodeAlreadySeated)
	tb.fails(Command{Kind: CmdSetSeat, Seat: White, Occupant: SeatBot, Level: 2}, CodeNotSeated)
	tb.fails(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 99}, CodeBadRequest)
	tb.fails(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatHuman}, CodeBadRequest)
	tb.sit(White, "Bob")
	tb.fails(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 2}, CodeForbidden)
	tb.fails(Command{Kind: CmdSwitch, Token: tb.tokens[Black]}, CodeForbidden)

	// Bob leaves; Ann puts a bot in, changes its level, then switches sides with it.
	tb.must(Command{Kind: CmdStand, Token: tb.tokens[White]})
	require.Equal(t, SeatOpen, tb.st.view(0).Seats[White].Kind)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[White], Move: "f5"}, CodeNotSeated)
	tb.must(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 2})
	tb.must(Command{Kind: CmdSetSeat, Token: tb.tokens[Black], Seat: White, Occupant: SeatBot, Level: 7})
	require.Equal(t, SeatView{Kind: SeatBot, Level: 7}, tb.st.view(0).Seats[White])
	tb.move(Black, "f5")
	tb.must(Command{Kind: CmdSwitch, Token: tb.tokens[Black]})
	v := tb.st.view(0)
	require.Equal(t, SeatView{Kind: SeatBot, Level: 7}, v.Seats[Black])
	require.Equal(t, "Ann", v.Seats[White].Name)
	require.Equal(t, White, tb.st.sideOfToken(tb.tokens[Black]), "the token follows its holder")
	// Now Ann plays white, who is to move.
	tb.must(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "f6"})
	tb.replayed()
}

func TestGomokuFiveWins(t *testing.T) {
	for _, rule := range []string{"freestyle", "standard", "renju"} {
		t.Run(rule, func(t *testing.T) {
			tb := newTable(t, Meta{ID: "g1", Game: "gomoku", Size: 15, Rule: rule, CreatedAt: t0})
			tb.sit(Black, "Ann")
			tb.sit(White, "Bob")
			tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "p1"}, CodeBadRequest)
			for i, m := range []string{"h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"} {
				tb.move([]Side{Black, White}[i%2], m)
			}
			tb.fails(Command{Kind: CmdMove, Token: tb.tokens[White], Move: "h8"}, CodeNotYourTurn)
			tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "a1"}, CodeIllegalMove)
			tb.move(Black, "l8")
			v := tb.st.view(0)
			require.Equal(t, StatusFinished, v.Status)
			require.Equal(t, &Result{Winner: Black, Reason: "five", Black: 5, White: 4}, v.Result)
			require.ElementsMatch(t, []string{"h8", "i8", "j8", "k8", "l8"}, v.WinLine)
			// The board string has row 15 first: h8 is row 8 from the bottom.
			require.Equal(t, byte('X'), v.Board[(15-8)*15+7])
			require.Equal(t, byte('O'), v.Board[(15-1)*15+0], "a1 is the bottom-left point")
			tb.fails(Command{Kind: CmdMove, Token: tb.tokens[White], Move: "b1"}, CodeGameOver)
			// Undo after the rules ended the game (asked and granted) reopens it.
			tb.must(Command{Kind: CmdUndo, Token: tb.tokens[Black]})
			tb.must(Command{Kind: CmdUndoReply, Token: tb.tokens[White], Accept: true})
			require.Nil(t, tb.st.view(0).Result)
			tb.replayed()
		})
	}
}

func TestRenjuForbiddenPoint(t *testing.T) {
	tb := newTable(t, Meta{ID: "g2", Game: "gomoku", Size: 15, Rule: "renju", CreatedAt: t0})
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	// Black builds two open twos crossing at h8's neighbour; i9 would make a double three
	// (f8 g8 - i8? no: a cross of g9/h9 and i7/i8 lines). Use the classic cross:
	// black g8 h8 (row) and i10 i11 (column): i8... simpler: horizontal f8 g8, vertical
	// h6 h7; h8 then makes two open threes.
	for i, m := range []string{"f8", "a1", "g8", "a15", "h6", "o1", "h7", "o15"} {
		tb.move([]Side{Black, White}[i%2], m)
	}
	require.Contains(t, tb.st.view(0).Forbidden, "h8")
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "h8"}, CodeIllegalMove)
	_, err := tb.st.decide(Command{Kind: CmdMove, Move: "h8", actor: Black}, t0)
	require.EqualError(t, err, "rooms: illegal_move: h8 is forbidden to black under renju: it would make a double three (two open threes at once)",
		"the refusal says why in the player's words")
	_, err = tb.st.decide(Command{Kind: CmdMove, Move: "f8", actor: Black}, t0)
	require.EqualError(t, err, "rooms: illegal_move: f8 is taken")
}

func TestCleanName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"Ann", "Ann", true},
		{"  Zoë  ", "Zoë", true},
		{"<b>bold</b>", "<b>bold</b>", true}, // kept as text: the client never renders it as HTML
		{"", "", false},
		{"tab\there", "", false},
		{"\xff", "", false},
		{"abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx", true},
		{"abcdefghijklmnopqrstuvwxy", "", false},
	} {
		got, err := CleanName(tc.in)
		if !tc.ok {
			require.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got)
	}
}

// FuzzRoomCommands drives a room with arbitrary commands: none may panic, a refused
// command changes nothing, and the log always replays to the same state.
func FuzzRoomCommands(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, false)
	f.Add([]byte("f5d6c3d3c4f4f6f3e6e7"), false)
	f.Add([]byte("h8i9j10k11"), true)
	f.Add([]byte{9, 9, 9, 1, 1, 1, 200, 201, 202}, true)
	f.Fuzz(func(t *testing.T, script []byte, gomoku bool) {
		meta := Meta{ID: "fz", Game: "reversi", CreatedAt: t0}
		if gomoku {
			meta = Meta{ID: "fz", Game: "gomoku", Size: 15, Rule: "renju", CreatedAt: t0}
		}
		tb := newTable(t, meta)
		tb.sit(Black, "A")
		tb.sit(White, "B")
		kinds := []CommandKind{CmdMove, CmdMove, CmdMove, CmdMove, CmdUndo, CmdUndoReply, CmdResign,
			CmdRematch, CmdSetSeat, CmdSwitch, CmdStand, CmdSit, CmdDraw, CmdDrawReply, CmdRematchReply,
			CmdAbort, CmdClaim, cmdTime}
		if gomoku {
			meta.Clock = TimeControl{Kind: ClockFischer, Base: 15, Increment: 1}
		}
		for i := 0; i+1 < len(script); i += 2 {
			op, arg := script[i], script[i+1]
			side := []Side{Black, White}[op&1]
			cmd := Command{Kind: kinds[int(op>>1)%len(kinds)], Token: tb.tokens[side], Seat: side,
				Name: "P", Accept: arg&1 == 0, Occupant: []SeatKind{SeatBot, SeatOpen}[arg&1], Level: 1 + int(arg)%3,
				Claim: []string{ClaimWin, ClaimDraw, ClaimAbort}[int(arg)%3], goneFor: time.Duration(arg) * time.Second,
				grace: 100 * time.Second}
			tb.wait(time.Duration(arg%32) * time.Second)
			if cmd.Kind == CmdMove {
				n := meta.Size
				if n == 0 {
					n = 8
				}
				if legal := tb.st.view(0).Legal; len(legal) > 0 && arg&0x80 == 0 {
					cmd.Move = legal[int(arg)%len(legal)]
				} else {
					cmd.Move = string(rune('a'+int(arg)%n)) + strconv.Itoa(1+int(arg/16)%n)
				}
			}
			before := tb.st.view(0)
			if _, err := tb.do(cmd); err != nil {
				require.Equal(t, before, tb.st.view(0))
				require.NotEqual(t, CodeInternal, CodeOf(err), "%v", err)
			}
		}
		tb.replayed()
	})
}

func TestParseCommandKind(t *testing.T) {
	for _, k := range commandKinds {
		got, ok := ParseCommandKind(string(k))
		require.True(t, ok, k)
		require.Equal(t, k, got)
	}
	for _, notCommand := range []string{"", "join", "leave", "ping", "MOVE", "move ", "pass"} {
		_, ok := ParseCommandKind(notCommand)
		require.False(t, ok, "%q is not a room command", notCommand)
	}
}

// The Gomocup's freestyle board, 20x20, is a room size: its far corner is t20.
func TestGomoku20(t *testing.T) {
	tb := newTable(t, Meta{ID: "g20", Game: "gomoku", Size: 20, CreatedAt: t0})
	require.Equal(t, 20, tb.st.meta.Size)
	tb.sit(Black, "Ann")
	tb.sit(White, "Bob")
	tb.move(Black, "t20")
	tb.move(White, "a1")
	require.Len(t, tb.st.view(0).Board, 400)
	tb.fails(Command{Kind: CmdMove, Token: tb.tokens[Black], Move: "u1"}, CodeBadRequest)
	bad := Meta{ID: "r20", Game: "gomoku", Size: 20, Rule: "renju"}
	require.Error(t, normalizeMeta(&bad), "renju is played on 15x15 only")
	tb.replayed()
}

package main

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// parseTime reads an RFC 3339 time from a message field.
func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err, "time %q", s)
	return at
}

// TestFlagFallsOnAnotherNode plays a 15+0 game on two server processes on one Redis,
// kills the node the black player is on, and shows the other node flags black on time
// with nobody sending anything.
func TestFlagFallsOnAnotherNode(t *testing.T) {
	t.Parallel()
	rdb := redistest.Client(t)
	url := fmt.Sprintf("%s/%d", redistest.URL(t), rdb.Options().DB)
	bin := buildServer(t)
	addrA, addrB := freeAddr(t), freeAddr(t)
	env := []string{"REDIS_URL=" + url}
	procA := startProcess(t, bin, addrA, env...)
	startProcess(t, bin, addrB, env...)

	room := createRoom(t, addrA, `{"game":"reversi","clock":{"kind":"fischer","base":15,"increment":0}}`)
	ann, bob := dial(t, addrA), dial(t, addrB)
	ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	first := ann.ok(msg{"type": "move", "room": room, "move": "f5"})
	bob.event(first.num("seq")) // node B has the move
	a := bob.ok(msg{"type": "move", "room": room, "move": "f6"})
	state := bob.event(a.num("seq")).obj("state")
	clock := state.obj("clock")
	require.Equal(t, "black", clock.str("running"))
	require.Equal(t, int64(15000), clock.num("black"))
	deadline := parseTime(t, clock.str("deadline"))

	require.NoError(t, procA.Process.Signal(syscall.SIGKILL))
	procA.Wait()

	flag := bob.waitFor("the flag", func(m msg) bool {
		return m.str("type") == "event" && m.obj("event").str("type") == "flag"
	})
	require.Equal(t, "black", flag.obj("event").str("seat"))
	result := flag.obj("state").obj("result")
	require.Equal(t, "white", result.str("winner"))
	require.Equal(t, "timeout", result.str("reason"))
	late := parseTime(t, flag.obj("event").str("time")).Sub(deadline)
	require.GreaterOrEqual(t, late, time.Duration(0), "never before the deadline")
	require.Less(t, late, 5*time.Second, "the surviving node flags on time, not at its next sweep")
	bob.fails(msg{"type": "move", "room": room, "move": "e6"}, "game_over")
}

// TestPresenceAndClaim: players on two nodes; when Ann's tab closes, Bob and a spectator
// are told she left, Bob cannot claim before the grace period, then claims the win; and
// a seat's second tab is one person, not a spectator.
func TestPresenceAndClaim(t *testing.T) {
	t.Parallel()
	url := redistest.URL(t)
	rdb := redistest.Client(t)
	url = fmt.Sprintf("%s/%d", url, rdb.Options().DB)
	cfgA, cfgB := testConfig(t), testConfig(t)
	cfgA.RedisURL, cfgB.RedisURL = url, url
	cfgA.Node, cfgB.Node = "A", "B"
	cfgA.ClaimGrace, cfgB.ClaimGrace = time.Second, time.Second
	a, b := startServer(t, cfgA), startServer(t, cfgB)

	room := createRoom(t, a, `{"game":"gomoku"}`)
	ann, bob, eve := dial(t, a), dial(t, b), dial(t, b)
	annToken := ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	ann2 := dial(t, b)
	ann2.ok(msg{"type": "join", "room": room, "token": annToken})
	eve.ok(msg{"type": "join", "room": room})
	eve.waitFor("3 people, 1 spectator", func(m msg) bool {
		return m.str("type") == "viewers" && m.num("count") == 3 && m.num("spectators") == 1
	})
	for i, mv := range []string{"h8", "h9", "i8", "i9"} {
		c := []*client{ann, bob}[i%2]
		a := c.ok(msg{"type": "move", "room": room, "move": mv})
		[]*client{ann, bob}[1-i%2].event(a.num("seq")) // the other node has it
	}

	ann.ws.Close() // Ann still has a tab on B: she has not left
	ann2.ws.Close()
	for _, w := range []*client{bob, eve} {
		left := w.waitFor("Ann left", func(m msg) bool {
			return m.str("type") == "presence" && m.str("seat") == "black" && m["present"] == false
		})
		require.NotEmpty(t, left.str("claimAt"))
	}
	// She comes back, and the others are told; then she leaves again.
	ann3 := dial(t, a)
	ann3.ok(msg{"type": "join", "room": room, "token": annToken})
	bob.waitFor("Ann back", func(m msg) bool {
		return m.str("type") == "presence" && m.str("seat") == "black" && m["present"] == true
	})
	bob.fails(msg{"type": "claim", "room": room, "kind": "win"}, "forbidden") // she is here
	ann3.ws.Close()
	bob.waitFor("Ann left again", func(m msg) bool {
		return m.str("type") == "presence" && m.str("seat") == "black" && m["present"] == false
	})
	bob.fails(msg{"type": "claim", "room": room, "kind": "win"}, "too_early")
	eve.fails(msg{"type": "claim", "room": room, "kind": "win"}, "not_seated")
	require.Eventually(t, func() bool {
		id := bob.send(msg{"type": "claim", "room": room, "kind": "win"})
		return bob.answer(id).str("type") == "ack"
	}, 10*time.Second, 200*time.Millisecond)
	claim := eve.waitFor("the claim", func(m msg) bool {
		return m.str("type") == "event" && m.obj("event").str("type") == "claim"
	})
	result := claim.obj("state").obj("result")
	require.Equal(t, "white", result.str("winner"))
	require.Equal(t, "abandoned", result.str("reason"))
}

// TestRematchAndDrawOverTheProtocol: a draw by agreement has a null winner; a rematch is
// an offer the other accepts, the next game is a new room with the colours swapped and
// the same seat tokens, and the finished game stays readable at its own address.
func TestRematchAndDrawOverTheProtocol(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	room := createRoom(t, addr, `{"game":"reversi","clock":{"kind":"fischer","base":180,"increment":2}}`)
	ann, bob := dial(t, addr), dial(t, addr)
	annToken := ann.seat(room, "black", "Ann")
	bobToken := bob.seat(room, "white", "Bob")
	ann.ok(msg{"type": "move", "room": room, "move": "f5"})
	bob.ok(msg{"type": "draw", "room": room})
	ann.fails(msg{"type": "draw_reply", "room": room}, "bad_request") // accept is required
	a := ann.ok(msg{"type": "draw_reply", "room": room, "accept": true})
	ev := bob.event(a.num("seq"))
	require.Equal(t, "draw", ev.obj("event").str("type"))
	result := ev.obj("state").obj("result")
	require.Contains(t, result, "winner")
	require.Nil(t, result["winner"], "no winner is null, not an empty string")
	require.Equal(t, "agreement", result.str("reason"))

	bob.ok(msg{"type": "rematch", "room": room})
	ann.fails(msg{"type": "rematch_reply", "room": room}, "bad_request") // accept is required
	a = ann.ok(msg{"type": "rematch_reply", "room": room, "accept": true})
	ev = bob.event(a.num("seq"))
	next := ev.obj("event").str("next")
	require.NotEmpty(t, next)
	require.Equal(t, next, ev.obj("state").str("next"))

	j := ann.ok(msg{"type": "join", "room": next, "token": annToken})
	require.Equal(t, "white", j.str("seat"), "Ann plays white in the rematch")
	require.Equal(t, room, j.obj("state").str("prev"))
	require.Equal(t, int64(2), j.obj("state").num("gameNo"))
	require.Equal(t, "fischer", j.obj("state").obj("clock").str("kind"))
	j = bob.ok(msg{"type": "join", "room": next, "token": bobToken})
	require.Equal(t, "black", j.str("seat"))
	bob.ok(msg{"type": "move", "room": next, "move": "f5"})

	status, old := getJSON(t, addr, "/api/rooms/"+room)
	require.Equal(t, 200, status)
	require.Equal(t, "finished", old.obj("state").str("status"))
	require.Equal(t, []string{"f5"}, toStrings(old.obj("state")["moves"]))
	_, lobby := getJSON(t, addr, "/api/rooms")
	ids := map[string]string{}
	for _, r := range lobby["rooms"].([]any) {
		ids[msg(r.(map[string]any)).str("id")] = msg(r.(map[string]any)).str("status")
	}
	require.Equal(t, "finished", ids[room], "the first game is listed as finished")
	require.Equal(t, "playing", ids[next])
}

// TestTimedBotsNeverFlag: two bots at their strongest play a whole 15+0 game; neither
// loses on time.
func TestTimedBotsNeverFlag(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.BotMoveTime = 5 * time.Second
	addr := startServer(t, cfg)
	room := createRoom(t, addr, `{"game":"reversi","clock":{"kind":"fischer","base":15,"increment":0},
		"black":{"kind":"bot","level":10},"white":{"kind":"bot","level":10}}`)
	eve := dial(t, addr)
	eve.ok(msg{"type": "join", "room": room})
	var end msg
	for end == nil {
		m := eve.waitFor("the next move", func(m msg) bool { return m.str("type") == "event" })
		if m.obj("state").str("status") == "finished" {
			end = m
		}
	}
	result := end.obj("state").obj("result")
	require.Equal(t, "no_moves", result.str("reason"), "the game was played out: %v", result)
}

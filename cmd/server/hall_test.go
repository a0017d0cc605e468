package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// identity is a browser identity key as the client makes one: 43 base64url characters.
func identity(seed string) string {
	return (seed + strings.Repeat("x", 43))[:43]
}

// twoNodes starts two server nodes on one fresh Redis database.
func twoNodes(t *testing.T) (string, string) {
	t.Helper()
	rdb := redistest.Client(t)
	url := fmt.Sprintf("%s/%d", redistest.URL(t), rdb.Options().DB)
	cfgA, cfgB := testConfig(t), testConfig(t)
	cfgA.RedisURL, cfgB.RedisURL = url, url
	cfgA.Node, cfgB.Node = "A", "B"
	return startServer(t, cfgA), startServer(t, cfgB)
}

// TestChat: players and a spectator on two nodes chat; lines are stored and replayed to a
// late joiner, limited in length and rate, kept as text, and carry who said them.
func TestChat(t *testing.T) {
	t.Parallel()
	a, b := twoNodes(t)
	room := createRoom(t, a, `{"game":"gomoku"}`)
	ann, eve := dial(t, a), dial(t, b)
	ann.seat(room, "black", "Ann")
	eve.ok(msg{"type": "join", "room": room})

	ann.ok(msg{"type": "chat", "room": room, "text": "Good luck!"})
	line := eve.waitFor("Ann's line", func(m msg) bool { return m.str("type") == "chat" }).obj("line")
	require.Equal(t, "Ann", line.str("name"))
	require.Equal(t, "black", line.str("seat"))
	require.Equal(t, "Good luck!", line.str("text"))
	require.NotEmpty(t, line.str("author"))

	eve.fails(msg{"type": "chat", "room": room, "text": "hi"}, "bad_request") // a spectator needs a name
	eve.ok(msg{"type": "chat", "room": room, "text": "<b>nice</b> opening", "name": "Eve"})
	line = ann.waitFor("Eve's line", func(m msg) bool { return m.str("type") == "chat" && m.obj("line").str("name") == "Eve" }).obj("line")
	require.Nil(t, line["seat"], "a spectator's line has no seat")
	require.Equal(t, "<b>nice</b> opening", line.str("text"), "markup is kept as text; the client shows it as text")

	zed := dial(t, b) // a fresh connection, with its chat allowance whole
	zed.ok(msg{"type": "join", "room": room})
	zed.fails(msg{"type": "chat", "room": room, "name": "Zed", "text": strings.Repeat("a", 141)}, "bad_request")
	zed.fails(msg{"type": "chat", "room": room, "name": "Zed", "text": "   "}, "bad_request")
	zed.fails(msg{"type": "chat", "room": room, "name": "Zed", "text": "two\nlines"}, "bad_request")
	refused := false
	for i := 0; i < 6 && !refused; i++ {
		a := ann.answer(ann.send(msg{"type": "chat", "room": room, "text": fmt.Sprint("spam ", i)}))
		refused = a.str("code") == "rate_limited"
	}
	require.True(t, refused, "a chat flood is refused")

	// A spectator who sends the browser's identity keeps one author id across visits.
	var authors []string
	for range 2 {
		v := dial(t, b)
		v.ok(msg{"type": "join", "room": room, "identity": identity("eve")})
		v.ok(msg{"type": "chat", "room": room, "name": "Eve", "text": "again"})
		l := ann.waitFor("Eve again", func(m msg) bool { return m.str("type") == "chat" && m.obj("line").str("text") == "again" }).obj("line")
		authors = append(authors, l.str("author"))
		v.ws.Close()
	}
	require.Equal(t, authors[0], authors[1])

	late := dial(t, b)
	j := late.ok(msg{"type": "join", "room": room})
	chat := j["chat"].([]any)
	require.GreaterOrEqual(t, len(chat), 2)
	require.Equal(t, "Good luck!", msg(chat[0].(map[string]any)).str("text"), "a late joiner sees the recent lines, oldest first")
	for _, l := range chat {
		require.NotContains(t, msg(l.(map[string]any)).str("text"), "a"+strings.Repeat("a", 140))
	}
}

// TestLobbyPush: a subscribed connection is sent the lobby's lists at once and again when
// a room appears; unsubscribing stops it.
func TestLobbyPush(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	viewer := dial(t, addr)
	first := viewer.ok(msg{"type": "lobby_subscribe"})
	require.Equal(t, "lobby", first.str("type"), "the answer to the subscription carries its id")
	require.NotNil(t, first["open"])
	room := createRoom(t, addr, `{"game":"reversi"}`)
	pushed := viewer.waitFor("the new room", func(m msg) bool {
		if m.str("type") != "lobby" {
			return false
		}
		for _, r := range m["open"].([]any) {
			if msg(r.(map[string]any)).str("id") == room {
				return true
			}
		}
		return false
	})
	require.Empty(t, pushed["live"])
	viewer.ok(msg{"type": "lobby_unsubscribe"})
	second := dial(t, addr) // the node has the lists already: still answered with the id
	require.Equal(t, "lobby", second.ok(msg{"type": "lobby_subscribe"}).str("type"))
}

// TestCreationLimit: an address creating rooms too fast gets 429 with Retry-After, and an
// identity keeps at most five rooms waiting.
func TestCreationLimit(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RoomsPerMinute = 3
	addr := startServer(t, cfg)
	for range 3 {
		createRoom(t, addr, `{"game":"reversi"}`)
	}
	resp, err := http.Post("http://"+addr+"/api/rooms", "application/json", strings.NewReader(`{"game":"reversi"}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.NotEmpty(t, resp.Header.Get("Retry-After"))

	addr = startServer(t, testConfig(t))
	me := identity("waiting")
	c := dial(t, addr)
	for i := range 5 {
		room := createRoom(t, addr, `{"game":"reversi","identity":"`+me+`"}`)
		c.ok(msg{"type": "join", "room": room})
		c.ok(msg{"type": "sit", "room": room, "seat": "black", "name": fmt.Sprint("A", i), "identity": me})
	}
	status, m := postJSON(t, addr, "/api/rooms", `{"game":"reversi","identity":"`+me+`"}`)
	require.Equal(t, http.StatusTooManyRequests, status, "%v", m)
	require.Equal(t, "too_many_requests", m.obj("error").str("code"))
}

// TestMyGames: the rooms an identity sat in are listed, finished and running, with the
// seat it took, after any number of connections.
func TestMyGames(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	me := identity("mygames")
	room := createRoom(t, addr, `{"game":"reversi","white":{"kind":"bot","level":1}}`)
	c := dial(t, addr)
	c.ok(msg{"type": "join", "room": room})
	c.ok(msg{"type": "sit", "room": room, "seat": "black", "name": "Ann", "identity": me})
	c.ok(msg{"type": "resign", "room": room})
	other := createRoom(t, addr, `{"game":"gomoku"}`)
	c.ok(msg{"type": "join", "room": other})
	c.ok(msg{"type": "sit", "room": other, "seat": "white", "name": "Ann", "identity": me})

	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/api/my-games", nil)
	require.NoError(t, err)
	req.Header.Set("X-Identity", me)
	var games []msg
	require.Eventually(t, func() bool {
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var body struct{ Games []msg }
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		games = body.Games
		return len(games) == 2
	}, 5*time.Second, 50*time.Millisecond)
	byID := map[string]msg{}
	for _, g := range games {
		byID[g.str("id")] = g
	}
	require.Equal(t, "finished", byID[room].str("status"))
	require.Equal(t, "black", byID[room].str("mySeat"))
	require.Equal(t, "resign", byID[room].obj("result").str("reason"))
	require.Equal(t, "white", byID[other].str("mySeat"))

	status, _ := getJSON(t, addr, "/api/my-games")
	require.Equal(t, http.StatusBadRequest, status, "no identity, no list")
}

// TestQuickPairing: two people asking for the same game on two nodes are seated together
// in one room, in opposite colours, with working seat tokens; another game's queue is
// apart, and unpair leaves the queue.
func TestQuickPairing(t *testing.T) {
	t.Parallel()
	a, b := twoNodes(t)
	ann, bob := dial(t, a), dial(t, b)
	ask := func(c *client, name string) int64 {
		return c.send(msg{"type": "pair", "game": "reversi", "clock": msg{"kind": "fischer", "base": 180, "increment": 2},
			"name": name, "identity": identity(name)})
	}
	idA := ask(ann, "Ann")
	require.Equal(t, "ack", ann.answer(idA).str("type"))
	idB := ask(bob, "Bob")
	pa := ann.waitFor("Ann paired", func(m msg) bool { return m.str("type") == "paired" })
	pb := bob.waitFor("Bob paired", func(m msg) bool { return m.str("type") == "paired" })
	require.Equal(t, pa.str("room"), pb.str("room"))
	require.NotEqual(t, pa.str("seat"), pb.str("seat"))
	require.Equal(t, idB, pb.num("id"))
	j := bob.ok(msg{"type": "join", "room": pb.str("room"), "token": pb.str("token")})
	require.Equal(t, pb.str("seat"), j.str("seat"), "the pairing's token holds the seat")
	require.Equal(t, "fischer", j.obj("state").obj("clock").str("kind"))
	require.Equal(t, map[string]any{"kind": "human", "name": "Ann"}, j.obj("state").obj("seats")[pa.str("seat")])

	// Asking for another game queues separately; unpair leaves the queue.
	eve := dial(t, a)
	eve.ok(msg{"type": "pair", "game": "gomoku", "name": "Eve"})
	eve.ok(msg{"type": "unpair"})
	eve.fails(msg{"type": "pair", "game": "chess", "name": "Eve"}, "bad_request")
}

// TestQuickPairingAlone: a person nobody joins within -pair-wait is offered a bot of the
// game's middle level, and has left the queue: the next person asking waits in turn
// rather than being seated with them.
func TestQuickPairingAlone(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.PairWait = 300 * time.Millisecond
	addr := startServer(t, cfg)
	ask := func(c *client, name string) msg {
		id := c.send(msg{"type": "pair", "game": "gomoku", "name": name})
		require.Equal(t, "ack", c.answer(id).str("type"))
		return c.waitFor(name+"'s answer", func(m msg) bool { return m.num("id") == id && m.str("type") != "ack" })
	}
	for _, name := range []string{"Lea", "Max"} {
		m := ask(dial(t, addr), name)
		require.Equal(t, "pair_expired", m.str("type"), "%s: %v", name, m)
		require.Equal(t, float64(3), m["botLevel"], "the middle of Gomoku's six levels")
	}
}

// A clock outside its bounds is refused with 400 and no room is made.
func TestClockBoundsOverHTTP(t *testing.T) {
	t.Parallel()
	addr := startServer(t, testConfig(t))
	for _, body := range []string{
		`{"game":"reversi","clock":{"kind":"fischer","base":5,"increment":0}}`,
		`{"game":"reversi","clock":{"kind":"fischer","base":60,"increment":600}}`,
		`{"game":"reversi","clock":{"kind":"correspondence","days":2}}`,
		`{"game":"reversi","clock":{"kind":"sundial"}}`,
		`{"game":"reversi","clock":{"kind":"fischer","base":"60"}}`,
	} {
		status, m := postJSON(t, addr, "/api/rooms", body)
		require.Equal(t, http.StatusBadRequest, status, "%s: %v", body, m)
		require.Equal(t, "bad_request", m.obj("error").str("code"))
	}
	_, lobby := getJSON(t, addr, "/api/rooms")
	require.Empty(t, lobby["rooms"], "nothing was created")
	status, m := postJSON(t, addr, "/api/rooms", `{"game":"gomoku","clock":{"kind":"correspondence","days":3}}`)
	require.Equal(t, http.StatusCreated, status, "%v", m)
	require.Equal(t, "correspondence", m.obj("state").obj("clock").str("kind"))
}

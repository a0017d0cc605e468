package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// testConfig is the default configuration on a free loopback port, with bots that play
// at once.
func testConfig(t testing.TB) Config {
	t.Helper()
	cfg, err := loadConfig(nil, func(string) string { return "" })
	require.NoError(t, err)
	cfg.Addr = "127.0.0.1:0"
	cfg.BotPace = 0
	cfg.BotMoveTime = 2 * time.Second
	cfg.BotWorkers = 2
	cfg.ShutdownGrace = 5 * time.Second
	cfg.RoomsPerMinute = 0 // tests create rooms as fast as they like; TestCreationLimit sets it
	return cfg
}

// startServer runs a server in this process until the test ends; it returns its
// address.
func startServer(t testing.TB, cfg Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(&testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	go func() { done <- run(ctx, cfg, log, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return addr
}

type testWriter struct{ t testing.TB }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// msg is a decoded server message.
type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) int64  { f, _ := m[k].(float64); return int64(f) }
func (m msg) obj(k string) msg    { o, _ := m[k].(map[string]any); return o }

// client is a test WebSocket client: a reader goroutine feeds msgs.
type client struct {
	t       testing.TB
	pending []msg // read but not yet asked for
	ws      *websocket.Conn
	msgs    chan msg
	next    atomic.Int64
	gone    chan struct{}
	err     error // why the reader stopped; read after gone is closed
}

func dial(t testing.TB, addr string) *client {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
	require.NoError(t, err)
	resp.Body.Close()
	c := &client{t: t, ws: ws, msgs: make(chan msg, 1024), gone: make(chan struct{})}
	go func() {
		defer close(c.gone)
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				c.err = err
				return
			}
			var m msg
			if json.Unmarshal(data, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	t.Cleanup(func() { ws.Close() })
	return c
}

// send sends a message with a fresh id and returns the id.
func (c *client) send(m msg) int64 {
	c.t.Helper()
	id := c.next.Add(1)
	m["id"] = id
	require.NoError(c.t, c.ws.WriteJSON(m))
	return id
}

// waitFor returns the first message, read or still to come, that satisfies ok; the
// others stay for later calls.
func (c *client) waitFor(what string, ok func(msg) bool) msg {
	c.t.Helper()
	for i, m := range c.pending {
		if ok(m) {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return m
		}
	}
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m := <-c.msgs:
			if ok(m) {
				return m
			}
			c.pending = append(c.pending, m)
		case <-c.gone:
			// The reader has stopped; what it read before is still in msgs.
			for {
				select {
				case m := <-c.msgs:
					if ok(m) {
						return m
					}
					c.pending = append(c.pending, m)
					continue
				default:
				}
				break
			}
			c.t.Fatalf("connection closed while waiting for %s", what)
		case <-timeout:
			last := c.pending[max(0, len(c.pending)-3):]
			c.t.Fatalf("timed out waiting for %s; last unclaimed messages: %v", what, last)
		}
	}
}

// answer waits for the answer to request id: its reply or an error.
func (c *client) answer(id int64) msg {
	c.t.Helper()
	return c.waitFor(fmt.Sprintf("answer to %d", id), func(m msg) bool {
		return m.num("id") == id && m.str("type") != "event"
	})
}

// ok sends m and requires a non-error answer.
func (c *client) ok(m msg) msg {
	c.t.Helper()
	a := c.answer(c.send(m))
	require.NotEqual(c.t, "error", a.str("type"), "answer to %v: %v", m, a)
	return a
}

// fails sends m and requires an error with code.
func (c *client) fails(m msg, code string) {
	c.t.Helper()
	a := c.answer(c.send(m))
	require.Equal(c.t, "error", a.str("type"), "answer to %v: %v", m, a)
	require.Equal(c.t, code, a.str("code"), "answer to %v: %v", m, a)
}

// event waits for the event with seq.
func (c *client) event(seq int64) msg {
	c.t.Helper()
	return c.waitFor(fmt.Sprintf("event %d", seq), func(m msg) bool {
		return m.str("type") == "event" && m.obj("event").num("seq") == seq
	})
}

func postJSON(t testing.TB, addr, path, body string) (int, msg) {
	t.Helper()
	resp, err := http.Post("http://"+addr+path, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var m msg
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func getJSON(t testing.TB, addr, path string) (int, msg) {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	var m msg
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func createRoom(t testing.TB, addr, body string) string {
	t.Helper()
	status, m := postJSON(t, addr, "/api/rooms", body)
	require.Equal(t, http.StatusCreated, status, "%v", m)
	return m.str("id")
}

// seat joins room and sits in side, returning the token.
func (c *client) seat(room, side, name string) string {
	c.t.Helper()
	c.ok(msg{"type": "join", "room": room})
	a := c.ok(msg{"type": "sit", "room": room, "seat": side, "name": name})
	require.Equal(c.t, "seated", a.str("type"))
	require.Len(c.t, a.str("token"), 22, "128 random bits in base64url")
	return a.str("token")
}

func TestHTTPAPI(t *testing.T) {
	addr := startServer(t, testConfig(t))
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"reversi", `{"game":"reversi"}`, 201, ""},
		{"gomoku standard 19", `{"game":"gomoku","size":19,"rule":"standard","white":{"kind":"bot","level":2}}`, 201, ""},
		{"renju is 15x15", `{"game":"gomoku","size":19,"rule":"renju"}`, 400, "bad_request"},
		{"exactly-five alias", `{"game":"gomoku","rule":"exactly-five"}`, 201, ""},
		{"unknown game", `{"game":"chess"}`, 400, "bad_request"},
		{"bad size", `{"game":"gomoku","size":13}`, 400, "bad_request"},
		{"bad rule", `{"game":"gomoku","rule":"caro"}`, 400, "bad_request"},
		{"reversi size", `{"game":"reversi","size":10}`, 400, "bad_request"},
		{"bad level", `{"game":"reversi","black":{"kind":"bot","level":0}}`, 400, "bad_request"},
		{"human seat", `{"game":"reversi","black":{"kind":"human"}}`, 400, "bad_request"},
		{"malformed", `{"game":`, 400, "bad_request"},
		{"unknown field", `{"game":"reversi","colour":"red"}`, 400, "bad_request"},
		{"too large", `{"game":"reversi","x":"` + strings.Repeat("a", 20000) + `"}`, 413, "too_large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, m := postJSON(t, addr, "/api/rooms", tc.body)
			require.Equal(t, tc.status, status, "%v", m)
			if tc.code != "" {
				require.Equal(t, tc.code, m.obj("error").str("code"))
				return
			}
			require.NotEmpty(t, m.str("id"))
			require.Equal(t, "/r/"+m.str("id"), m.str("url"))
		})
	}
	status, m := getJSON(t, addr, "/api/rooms")
	require.Equal(t, 200, status)
	require.Len(t, m["rooms"], 3)
	status, m = getJSON(t, addr, "/api/rooms/nosuchroom")
	require.Equal(t, 404, status)
	require.Equal(t, "room_not_found", m.obj("error").str("code"))
	status, _ = getJSON(t, addr, "/api/games")
	require.Equal(t, 200, status)
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/"} {
		resp, err := http.Get("http://" + addr + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode, path)
	}
}

// TestPlayersAndSpectator plays a Reversi opening between two people while a
// spectator watches; then a player reconnects and gets exactly what it missed.
func TestPlayersAndSpectator(t *testing.T) {
	addr := startServer(t, testConfig(t))
	room := createRoom(t, addr, `{"game":"reversi"}`)
	ann, bob, eve := dial(t, addr), dial(t, addr), dial(t, addr)
	annToken := ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	joined := eve.ok(msg{"type": "join", "room": room})
	require.Equal(t, "joined", joined.str("type"))
	require.Nil(t, joined["seat"], "no token: a spectator")
	require.Equal(t, int64(2), joined.obj("state").num("version"))
	eve.waitFor("viewers 3", func(m msg) bool { return m.str("type") == "viewers" && m.num("count") == 3 })

	// The spectator cannot play; nobody can play out of turn or illegally.
	eve.fails(msg{"type": "move", "room": room, "move": "f5"}, "not_seated")
	bob.fails(msg{"type": "move", "room": room, "move": "f5"}, "not_your_turn")
	ann.fails(msg{"type": "move", "room": room, "move": "a1"}, "illegal_move")
	ann.fails(msg{"type": "move", "room": room, "move": "f5", "at": 1}, "stale")

	moves := []struct {
		c    *client
		move string
	}{{ann, "f5"}, {bob, "d6"}, {ann, "c3"}}
	for i, mv := range moves {
		seq := int64(3 + i)
		a := mv.c.ok(msg{"type": "move", "room": room, "move": mv.move, "at": seq - 1})
		require.Equal(t, "ack", a.str("type"))
		require.Equal(t, seq, a.num("seq"))
		for _, c := range []*client{ann, bob, eve} {
			ev := c.event(seq)
			require.Equal(t, mv.move, ev.obj("event").str("move"))
			require.Equal(t, seq, ev.obj("state").num("version"))
		}
	}

	// Ann drops; Bob moves; Ann comes back with her token and last seq.
	ann.ws.Close()
	bob.ok(msg{"type": "move", "room": room, "move": "d3", "at": 5})
	eve.waitFor("viewers 2", func(m msg) bool { return m.str("type") == "viewers" && m.num("count") == 2 })
	ann2 := dial(t, addr)
	j := ann2.ok(msg{"type": "join", "room": room, "token": annToken, "since": 5})
	require.Equal(t, "black", j.str("seat"))
	require.Equal(t, false, j["full"])
	events := j["events"].([]any)
	require.Len(t, events, 1, "exactly the missed event")
	require.Equal(t, "d3", msg(events[0].(map[string]any)).str("move"))
	require.Equal(t, int64(6), j.obj("state").num("version"))
	ann2.ok(msg{"type": "move", "room": room, "move": "c4", "at": 6})
	eve.event(7)

	// A forged token gets nothing; the whole record is on the API.
	mallory := dial(t, addr)
	mallory.fails(msg{"type": "join", "room": room, "token": "AAAAAAAAAAAAAAAAAAAAAA"}, "bad_token")
	mallory.fails(msg{"type": "move", "room": room, "move": "f4"}, "not_joined")
	status, rec := getJSON(t, addr, "/api/rooms/"+room)
	require.Equal(t, 200, status)
	require.Len(t, rec["events"], 7)
	require.Equal(t, "f5d6c3d3c4", strings.Join(toStrings(rec.obj("state")["moves"]), ""))
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestBotGame plays against a bot: it answers with progress and a move, and one undo
// takes back both moves.
func TestBotGame(t *testing.T) {
	addr := startServer(t, testConfig(t))
	room := createRoom(t, addr, `{"game":"reversi","white":{"kind":"bot","level":4}}`)
	ann := dial(t, addr)
	ann.seat(room, "black", "Ann")
	ann.ok(msg{"type": "move", "room": room, "move": "f5"})
	think := ann.waitFor("thinking", func(m msg) bool { return m.str("type") == "thinking" })
	require.Equal(t, "white", think.str("seat"))
	require.Greater(t, think.num("depth"), int64(0))
	bot := ann.event(4) // seat 1 (bot at creation), sit 2, f5 3, bot 4
	require.Equal(t, "white", bot.obj("event").str("seat"))
	require.NotNil(t, bot.obj("event")["eval"], "a bot move carries its evaluation")
	ann.ok(msg{"type": "undo", "room": room})
	undo := ann.event(5)
	require.Equal(t, int64(2), undo.obj("event").num("plies"))
	require.Empty(t, undo.obj("state")["moves"])

	// The bot's level can change mid-game, and the bot can take the other side.
	ann.ok(msg{"type": "set_seat", "room": room, "seat": "white", "kind": "bot", "level": 1})
	ann.ok(msg{"type": "switch", "room": room})
	// Now the bot is black and to move: it plays by itself.
	ev := ann.waitFor("bot opening", func(m msg) bool {
		return m.str("type") == "event" && m.obj("event").str("type") == "move"
	})
	require.Equal(t, "black", ev.obj("event").str("seat"))
}

// TestBotVersusBot lets two bots play a whole game by themselves.
func TestBotVersusBot(t *testing.T) {
	addr := startServer(t, testConfig(t))
	for _, game := range []string{
		`{"game":"reversi","black":{"kind":"bot","level":1},"white":{"kind":"bot","level":2}}`,
		`{"game":"gomoku","black":{"kind":"bot","level":2},"white":{"kind":"bot","level":1}}`,
	} {
		room := createRoom(t, addr, game)
		eve := dial(t, addr)
		eve.ok(msg{"type": "join", "room": room})
		end := eve.waitFor("the end of the game", func(m msg) bool {
			return m.str("type") == "event" && m.obj("state").str("status") == "finished"
		})
		require.NotNil(t, end.obj("state")["result"])
	}
}

func TestHostileInput(t *testing.T) {
	cfg := testConfig(t)
	cfg.MessagesPerSecond, cfg.MessageBurst = 5, 10
	addr := startServer(t, cfg)
	room := createRoom(t, addr, `{"game":"reversi"}`)
	c := dial(t, addr)
	for _, tc := range []struct {
		frame, code string
	}{
		{`{"type":"join"`, "bad_request"},
		{`[1,2]`, "bad_request"},
		{`{"type":"fly","room":"x"}`, "unknown_type"},
		{`{"room":"x"}`, "bad_request"},
		{`{"type":"move"}`, "bad_request"},
		{`{"type":"join","room":"nosuchroom"}`, "room_not_found"},
	} {
		require.NoError(t, c.ws.WriteMessage(websocket.TextMessage, []byte(tc.frame)))
		m := c.waitFor("error for "+tc.frame, func(m msg) bool { return m.str("type") == "error" })
		require.Equal(t, tc.code, m.str("code"), tc.frame)
	}
	// A flood is rate-limited: the messages over the limit are refused, the first with a
	// rate_limited error that carries its id, the rest of that second unanswered.
	for i := range 30 {
		c.ws.WriteJSON(msg{"type": "ping", "id": 1000 + i})
	}
	limited := c.waitFor("rate_limited", func(m msg) bool { return m.str("code") == "rate_limited" })
	require.GreaterOrEqual(t, limited.num("id"), int64(1000))
	// Ask again until the limit lets a ping through: by its pong every earlier answer has
	// arrived, and far fewer than 30 of them.
	answered := 1 + len(c.pending)
	retry := time.NewTicker(300 * time.Millisecond)
	defer retry.Stop()
	for done := false; !done; {
		select {
		case m := <-c.msgs:
			if m.num("id") == 2000 && m.str("type") == "pong" {
				done = true
			} else if m.num("id") >= 1000 && m.num("id") < 1030 {
				answered++
			}
		case <-retry.C:
			require.NoError(t, c.ws.WriteJSON(msg{"type": "ping", "id": 2000}))
		case <-time.After(20 * time.Second):
			t.Fatal("no ping got through after the flood")
		}
	}
	require.Less(t, answered, 30, "refused messages beyond the first are not answered one by one")

	// An oversized frame closes the connection.
	big := dial(t, addr)
	big.ws.WriteMessage(websocket.TextMessage, bytes.Repeat([]byte("a"), 8000))
	select {
	case <-big.gone:
	case <-time.After(10 * time.Second):
		t.Fatal("oversized frame did not close the connection")
	}

	// A foreign Origin cannot open a socket; the server's own can.
	h := http.Header{"Origin": {"https://evil.example"}}
	_, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", h)
	require.Error(t, err)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	h = http.Header{"Origin": {"http://" + addr}}
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", h)
	require.NoError(t, err)
	ws.Close()
	_ = room
}

// TestTwoNodes serves one room from two server nodes on one Redis: players on
// different nodes and a spectator see every move, and a race for one turn stores one.
func TestTwoNodes(t *testing.T) {
	url := redistest.URL(t)
	rdb := redistest.Client(t) // a fresh database for this test
	url = fmt.Sprintf("%s/%d", url, rdb.Options().DB)
	cfgA, cfgB := testConfig(t), testConfig(t)
	cfgA.RedisURL, cfgB.RedisURL = url, url
	cfgA.Node, cfgB.Node = "A", "B"
	a, b := startServer(t, cfgA), startServer(t, cfgB)

	room := createRoom(t, a, `{"game":"gomoku"}`)
	ann, bob, eve := dial(t, a), dial(t, b), dial(t, b)
	annToken := ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	eve.ok(msg{"type": "join", "room": room})
	eve.waitFor("viewers 3", func(m msg) bool { return m.str("type") == "viewers" && m.num("count") == 3 })

	for i, mv := range []string{"h8", "h9", "i8", "i9"} {
		c := []*client{ann, bob}[i%2]
		c.ok(msg{"type": "move", "room": room, "move": mv, "at": int64(2 + i)})
		for _, w := range []*client{ann, bob, eve} {
			require.Equal(t, mv, w.event(int64(3+i)).obj("event").str("move"))
		}
	}

	// Ann has a second tab on node B: both tabs play the same turn at once.
	ann2 := dial(t, b)
	ann2.ok(msg{"type": "join", "room": room, "token": annToken, "since": 6})
	id1 := ann.send(msg{"type": "move", "room": room, "move": "j8", "at": 6})
	id2 := ann2.send(msg{"type": "move", "room": room, "move": "k8", "at": 6})
	r1, r2 := ann.answer(id1), ann2.answer(id2)
	types := []string{r1.str("type"), r2.str("type")}
	require.ElementsMatch(t, []string{"ack", "error"}, types, "%v %v", r1, r2)
	for _, r := range []msg{r1, r2} {
		if r.str("type") == "error" {
			require.Equal(t, "stale", r.str("code"))
		}
	}
	_, rec := getJSON(t, a, "/api/rooms/"+room)
	require.Len(t, rec["events"], 7)
}

// TestSlowClientDropped: a client that stops reading is disconnected once its send queue
// fills, and the others in its room go on as before.
func TestSlowClientDropped(t *testing.T) {
	cfg := testConfig(t)
	cfg.SendQueue = 8
	cfg.MessagesPerSecond, cfg.MessageBurst = 1e6, 1e6
	addr := startServer(t, cfg)
	room := createRoom(t, addr, `{"game":"reversi"}`)
	ann, bob := dial(t, addr), dial(t, addr)
	ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	// A game's worth of moves, so that each `joined` answer is long.
	state := msg{"version": float64(2), "toMove": "black", "legal": []any{"f5", "d6", "c3", "e6"}}
	for i := 0; i < 40 && len(toStrings(state["legal"])) > 0; i++ {
		c := ann
		if state.str("toMove") == "white" {
			c = bob
		}
		id := c.send(msg{"type": "move", "room": room, "move": toStrings(state["legal"])[0]})
		last := c.answer(id).num("seq")
		state = ann.event(last).obj("state")
		bob.event(last)
	}

	// The slow client: a tiny receive buffer, and it never reads.
	dialer := websocket.Dialer{NetDial: func(network, a string) (net.Conn, error) {
		conn, err := net.Dial(network, a)
		if err == nil {
			conn.(*net.TCPConn).SetReadBuffer(4096)
		}
		return conn, err
	}}
	slow, _, err := dialer.Dial("ws://"+addr+"/ws", nil)
	require.NoError(t, err)
	defer slow.Close()
	join, _ := json.Marshal(msg{"type": "join", "room": room})
	for range 500 {
		if slow.WriteMessage(websocket.TextMessage, join) != nil {
			break // the server has already closed it
		}
	}
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), "hall_ws_slow_clients_dropped_total 1")
	}, 20*time.Second, 50*time.Millisecond, "the slow client was not dropped")

	// The players never noticed.
	if len(toStrings(state["legal"])) > 0 {
		c := ann
		if state.str("toMove") == "white" {
			c = bob
		}
		v := state.num("version") + 1
		c.ok(msg{"type": "move", "room": room, "move": toStrings(state["legal"])[0]})
		ann.event(v)
		bob.event(v)
	}
}

// TestUndoCancelsBotSearch: an undo while the bot thinks stops its search at once (the
// only bot worker is free again for the next move), and no stale bot move is stored.
func TestUndoCancelsBotSearch(t *testing.T) {
	cfg := testConfig(t)
	cfg.BotWorkers = 1
	cfg.BotMoveTime = 10 * time.Minute // the full engine would think that long
	addr := startServer(t, cfg)
	room := createRoom(t, addr, `{"game":"reversi","white":{"kind":"bot","level":10}}`)
	ann := dial(t, addr)
	ann.seat(room, "black", "Ann")
	ann.ok(msg{"type": "move", "room": room, "move": "f5"})
	ann.waitFor("the bot thinking", func(m msg) bool { return m.str("type") == "thinking" })
	undo := ann.ok(msg{"type": "undo", "room": room})
	ann.ok(msg{"type": "set_seat", "room": room, "seat": "white", "kind": "bot", "level": 1})
	ann.ok(msg{"type": "move", "room": room, "move": "f5"})
	reply := ann.waitFor("the level-1 bot's reply", func(m msg) bool {
		return m.str("type") == "event" && m.obj("event").str("type") == "move" && m.obj("event").str("seat") == "white"
	})
	require.Greater(t, reply.obj("event").num("seq"), undo.num("seq"))
	_, rec := getJSON(t, addr, "/api/rooms/"+room)
	require.Len(t, toStrings(rec.obj("state")["moves"]), 2, "f5 and the level-1 reply, nothing from the cancelled search")
}

// TestAnalysis: every position of the current game gets an engine score (black's view),
// recomputed as the game goes on and after an undo.
func TestAnalysis(t *testing.T) {
	addr := startServer(t, testConfig(t))
	room := createRoom(t, addr, `{"game":"reversi"}`)
	ann, bob := dial(t, addr), dial(t, addr)
	ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	for i, mv := range []string{"f5", "d6", "c3"} {
		[]*client{ann, bob}[i%2].ok(msg{"type": "move", "room": room, "move": mv})
	}
	status, an := getJSON(t, addr, "/api/rooms/"+room+"/analysis")
	require.Equal(t, 200, status, "%v", an)
	require.Len(t, an["evals"], 4, "the start and the position after each ply")
	require.Equal(t, int64(5), an.num("version"))

	bob.ok(msg{"type": "undo", "room": room})
	ann.ok(msg{"type": "undo_reply", "room": room, "accept": true})
	bob.ok(msg{"type": "move", "room": room, "move": "f6"}) // f5 f6 now, instead of f5 d6 c3
	_, an2 := getJSON(t, addr, "/api/rooms/"+room+"/analysis")
	require.Len(t, an2["evals"], 3)
	require.Equal(t, an["evals"].([]any)[:2], an2["evals"].([]any)[:2], "the common opening is judged the same")

	status, _ = getJSON(t, addr, "/api/rooms/nosuchroom/analysis")
	require.Equal(t, 404, status)
}

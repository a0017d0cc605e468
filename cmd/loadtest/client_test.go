package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// eventFrame is an event frame as the server writes it.
const eventFrame = `{"type":"event","room":"q7dk2m9xta","event":{"seq":16,"type":"move","time":"2026-11-22T18:00:09Z","seat":"white","move":"c4","board":"---"},"state":{"id":"q7dk2m9xta","version":16,"toMove":"black","legal":["c3"],"moves":["f5"]}}`

func TestQuickEventSeq(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		seq   int64
		ok    bool
	}{
		{"event", eventFrame, 16, true},
		{"last field", `{"type":"event","room":"r","event":{"seq":7}}`, 7, true},
		{"joined", `{"type":"joined","room":"r","seq":3}`, 0, false},
		{"ack", `{"type":"ack","id":3,"room":"r","seq":16}`, 0, false},
		{"other field order", `{"room":"r","type":"event","event":{"seq":7}}`, 0, false},
		{"escaped room", `{"type":"event","room":"a\"","event":{"seq":7}}`, 0, false},
		{"no digits", `{"type":"event","room":"r","event":{"seq":,}}`, 0, false},
		{"negative", `{"type":"event","room":"r","event":{"seq":-1,}}`, 0, false},
		{"cut off", `{"type":"event","room":"r","event":{"seq":12`, 0, false},
		{"too long", `{"type":"event","room":"r","event":{"seq":99999999999999999999,}}`, 0, false},
		{"not a number", `{"type":"event","room":"r","event":{"seq":1e3,}}`, 0, false},
		{"empty", ``, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, ok := quickEventSeq([]byte(tc.frame))
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.seq, seq)
		})
	}
}

// FuzzQuickEventSeq: on frames encoded the way the server encodes them, the quick read
// agrees with the full decoder; on any bytes, it does not panic and reads only digits.
func FuzzQuickEventSeq(f *testing.F) {
	f.Add("q7dk2m9xta", int64(16), "move", []byte(eventFrame))
	f.Add("", int64(0), "", []byte(`{"type":"event","room":"","event":{"seq":0}}`))
	f.Add("a\"b", int64(1)<<62, "rematch", []byte{})
	f.Fuzz(func(t *testing.T, room string, seq int64, typ string, raw []byte) {
		quickEventSeq(raw)
		frame, err := json.Marshal(struct {
			Type  string    `json:"type"`
			Room  string    `json:"room"`
			Event eventView `json:"event"`
		}{"event", room, eventView{Seq: seq, Type: typ}})
		require.NoError(t, err)
		m, err := decodeServerMsg(frame)
		require.NoError(t, err)
		if got, ok := quickEventSeq(frame); ok {
			require.Equal(t, m.Event.Seq, got, "%s", frame)
		} else {
			quoted, _ := json.Marshal(room)
			require.True(t, seq < 0 || bytes.IndexByte(quoted, '\\') >= 0,
				"an event frame without escapes was not read quickly: %s", frame)
		}
	})
}

func TestDecodeServerMsg(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  serverMsg
		err   string
	}{
		{"ack", `{"type":"ack","id":3,"room":"r","seq":16}`, serverMsg{Type: "ack", ID: 3, Room: "r", Seq: 16}, ""},
		{"error", `{"type":"error","id":4,"room":"r","code":"stale","message":"m"}`,
			serverMsg{Type: "error", ID: 4, Room: "r", Code: "stale", Message: "m"}, ""},
		{"joined as spectator", `{"type":"joined","id":1,"room":"r","seat":null,"full":true,"state":{"version":2,"toMove":null},"events":[{"seq":1},{"seq":2}]}`,
			serverMsg{Type: "joined", ID: 1, Room: "r", Full: true, State: &stateView{Version: 2}, Events: []eventView{{Seq: 1}, {Seq: 2}}}, ""},
		{"seated", `{"type":"seated","id":2,"room":"r","seat":"white","token":"tok"}`,
			serverMsg{Type: "seated", ID: 2, Room: "r", Seat: "white", Token: "tok"}, ""},
		{"no type", `{"id":1}`, serverMsg{}, "without a type"},
		{"event without event", `{"type":"event","room":"r"}`, serverMsg{}, "without an event"},
		{"not json", `{"type":`, serverMsg{}, "bad server frame"},
		{"array", `[1]`, serverMsg{}, "bad server frame"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeServerMsg([]byte(tc.frame))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// FuzzDecodeServerMsg: any bytes give a message with a type or an error, never a panic,
// and an event message always has its event.
func FuzzDecodeServerMsg(f *testing.F) {
	f.Add([]byte(eventFrame))
	f.Add([]byte(`{"type":"joined","events":[{"seq":1}]}`))
	f.Add([]byte(`{"type":"event","event":null}`))
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := decodeServerMsg(frame)
		if err != nil {
			return
		}
		require.NotEmpty(t, m.Type)
		if m.Type == "event" {
			require.NotNil(t, m.Event)
		}
	})
}

// TestRoomTracking: the latency of a move is the time until the last spectator saw it;
// older events and repeats do not count.
func TestRoomTracking(t *testing.T) {
	r := &roomRun{id: "r", changed: make(chan struct{}), spectators: make([]*peer, 3)}
	done := r.track(5)
	t0 := r.trackStart
	r.observe(0, 4, t0.Add(time.Millisecond)) // an older event
	r.observe(0, 5, t0.Add(2*time.Millisecond))
	r.observe(0, 5, t0.Add(9*time.Millisecond)) // a repeat
	r.observe(2, 6, t0.Add(3*time.Millisecond)) // a later one: it has seen 5 too
	select {
	case <-done:
		t.Fatal("done before every spectator saw the move")
	default:
	}
	r.observe(1, 5, t0.Add(4*time.Millisecond))
	<-done
	require.Equal(t, 4*time.Millisecond, r.trackLast.Sub(r.trackStart))

	none := &roomRun{id: "n", changed: make(chan struct{})}
	<-none.track(1) // no spectators: done at once
}

// TestRoomState: newer states replace older ones and wake waiters; a bot's move is
// counted.
func TestRoomState(t *testing.T) {
	r := &roomRun{id: "r", changed: make(chan struct{}), plan: roomPlan{botLevel: [2]int{0, 5}}}
	r.setState(stateView{ID: "r", Version: 3, GameNo: 1, Status: "playing", ToMove: "white", Moves: []string{"f5"}})
	_, changed := r.current()
	r.setState(stateView{ID: "r", Version: 2, GameNo: 1}) // older: ignored
	st, _ := r.current()
	require.Equal(t, int64(3), st.Version)
	select {
	case <-changed:
		t.Fatal("an older state woke the waiters")
	default:
	}
	r.setState(stateView{ID: "r", Version: 4, GameNo: 1, Status: "playing", ToMove: "black", Moves: []string{"f5", "d6"}})
	<-changed
	require.Equal(t, 1, r.botMoves, "white is the bot and played")
	r.setState(stateView{ID: "r", Version: 5, GameNo: 1, Status: "playing", ToMove: "white", Moves: []string{"f5", "d6", "c3"}})
	require.Equal(t, 1, r.botMoves, "black is a person")
	require.NoError(t, r.waitVersion(t.Context(), 5, time.Second))
}

func TestRoomPlanBody(t *testing.T) {
	require.JSONEq(t, `{"game":"reversi"}`, string(roomPlan{}.createBody()))
	require.JSONEq(t, `{"game":"reversi","white":{"kind":"bot","level":4}}`, string(roomPlan{botLevel: [2]int{0, 4}}.createBody()))
	require.Equal(t, 1, nodeFor(0, 1, 2))
	require.Equal(t, 0, nodeFor(1, 1, 2))
	require.Equal(t, 0, nodeFor(5, 7, 1))
}

func TestErrorCode(t *testing.T) {
	require.Equal(t, "stale", errorCode(&protoError{"stale", "x"}))
	require.Equal(t, "disconnected", errorCode(errDisconnected))
	require.Equal(t, "other", errorCode(bytes.ErrTooLarge))
}

package main

import (
	"net/http"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// TestNobodyActsForAnotherSeat: spectators, players of another room and holders of a
// forged or old token can neither play nor change anything.
func TestNobodyActsForAnotherSeat(t *testing.T) {
	addr := startServer(t, testConfig(t))
	room := createRoom(t, addr, `{"game":"reversi"}`)
	other := createRoom(t, addr, `{"game":"reversi"}`)
	ann, bob := dial(t, addr), dial(t, addr)
	ann.seat(room, "black", "Ann")
	bobToken := bob.seat(room, "white", "Bob")
	ann.ok(msg{"type": "move", "room": room, "move": "f5"})

	zoe := dial(t, addr)
	zoeToken := zoe.seat(other, "black", "Zoe")

	spectator := dial(t, addr)
	spectator.ok(msg{"type": "join", "room": room})
	actions := []msg{
		{"type": "move", "room": room, "move": "f6"},
		{"type": "undo", "room": room},
		{"type": "undo_reply", "room": room, "accept": true},
		{"type": "resign", "room": room},
		{"type": "rematch", "room": room},
		{"type": "stand", "room": room},
		{"type": "switch", "room": room},
		{"type": "set_seat", "room": room, "seat": "white", "kind": "bot", "level": 1},
		{"type": "set_seat", "room": room, "seat": "black", "kind": "open"},
	}
	for _, a := range actions {
		spectator.fails(a, "not_seated")
	}

	// Zoe's token is for another room: joining with it is refused, and she is not in.
	zoe.fails(msg{"type": "join", "room": room, "token": zoeToken}, "bad_token")
	zoe.fails(msg{"type": "move", "room": room, "move": "f6"}, "not_joined")

	// A forged token.
	mallory := dial(t, addr)
	mallory.fails(msg{"type": "join", "room": room, "token": "forgedforgedforgedforg"}, "bad_token")

	// An old token: Bob leaves his seat; his token no longer acts for white, on this
	// connection or a new one.
	bob.ok(msg{"type": "stand", "room": room})
	bob.fails(msg{"type": "move", "room": room, "move": "f6"}, "not_seated")
	dial(t, addr).fails(msg{"type": "join", "room": room, "token": bobToken}, "bad_token")
	_, rec := getJSON(t, addr, "/api/rooms/"+room)
	require.Equal(t, "open", rec.obj("state").obj("seats").obj("white").str("kind"))

	// Nothing above changed the game.
	require.Equal(t, []string{"f5"}, toStrings(rec.obj("state")["moves"]))
}

// TestConnectionFloodPerAddress: one address cannot open more sockets than allowed.
func TestConnectionFloodPerAddress(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxConnsPerIP = 3
	addr := startServer(t, cfg)
	for range 3 {
		dial(t, addr)
	}
	_, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
	require.Error(t, err)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
}

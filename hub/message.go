package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/boardhall/boardhall/rooms"
)

// ClientMessage is any message a client sends (docs/protocol.md): one flat shape, since
// every type uses a subset of the same fields.
type ClientMessage struct {
	Type   string `json:"type"`
	ID     *int64 `json:"id,omitempty"`
	Room   string `json:"room,omitempty"`
	Token  string `json:"token,omitempty"`
	Since  *int64 `json:"since,omitempty"`
	Seat   string `json:"seat,omitempty"`
	Name   string `json:"name,omitempty"`
	Move   string `json:"move,omitempty"`
	At     *int64 `json:"at,omitempty"`
	Accept *bool  `json:"accept,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Level  int    `json:"level,omitempty"`
}

// maxFieldLen bounds every string field: room ids, tokens, moves and names are all far
// shorter, so anything longer is garbage and refused before it reaches a room.
const maxFieldLen = 128

// The message types the hub answers itself; every other type a client may send is a
// room command (rooms.ParseCommandKind).
const (
	typeJoin  = "join"
	typeLeave = "leave"
	typePing  = "ping"
)

// knownType reports whether a client may send a message of type t.
func knownType(t string) bool {
	if t == typeJoin || t == typeLeave || t == typePing {
		return true
	}
	_, ok := rooms.ParseCommandKind(t)
	return ok
}

// errUnknownType marks a well-formed message of a type the server does not know.
var errUnknownType = errors.New("unknown message type")

// DecodeMessage parses one client frame. It fails on anything but a single JSON object
// with a known type, string fields within bounds, and a room for every type but ping.
// The id, when present, is returned even on error so the answer can carry it.
func DecodeMessage(data []byte) (ClientMessage, error) {
	var m ClientMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return ClientMessage{}, fmt.Errorf("malformed JSON: %v", err)
	}
	if dec.More() {
		return ClientMessage{ID: m.ID}, errors.New("one JSON object per frame")
	}
	for _, f := range []string{m.Type, m.Room, m.Token, m.Seat, m.Name, m.Move, m.Kind} {
		if len(f) > maxFieldLen {
			return ClientMessage{ID: m.ID}, fmt.Errorf("a field is longer than %d bytes", maxFieldLen)
		}
	}
	if m.Type == "" {
		return ClientMessage{ID: m.ID}, errors.New("missing type")
	}
	if !knownType(m.Type) {
		return ClientMessage{ID: m.ID, Room: m.Room}, fmt.Errorf("%w %q", errUnknownType, m.Type)
	}
	if m.Type != typePing && m.Room == "" {
		return ClientMessage{ID: m.ID}, fmt.Errorf("%s needs a room", m.Type)
	}
	switch rooms.CommandKind(m.Type) {
	case rooms.CmdUndoReply, rooms.CmdDrawReply, rooms.CmdRematchReply:
		if m.Accept == nil {
			return ClientMessage{ID: m.ID, Room: m.Room}, fmt.Errorf("%s needs accept: true or false", m.Type)
		}
	}
	return m, nil
}

// Server-to-client messages that the hub itself sends (the rooms send the others).

type ackMsg struct {
	Type string `json:"type"`
	ID   *int64 `json:"id,omitempty"`
	Room string `json:"room,omitempty"`
	Seq  int64  `json:"seq"`
}

type seatedMsg struct {
	Type  string `json:"type"`
	ID    *int64 `json:"id,omitempty"`
	Room  string `json:"room"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
}

type pongMsg struct {
	Type string `json:"type"`
	ID   *int64 `json:"id,omitempty"`
}

type errorMsg struct {
	Type    string `json:"type"`
	ID      *int64 `json:"id,omitempty"`
	Room    string `json:"room,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

type reconnectMsg struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	RetryMs int    `json:"retryMs"`
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("hub: encoding a message: " + err.Error())
	}
	return b
}

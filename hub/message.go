package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

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
	// Text is a chat line; Identity the browser's identity key (sit, pair).
	Text     string `json:"text,omitempty"`
	Identity string `json:"identity,omitempty"`
	// Game, Size, Rule and Clock say what a pair asks to play.
	Game  string             `json:"game,omitempty"`
	Size  int                `json:"size,omitempty"`
	Rule  string             `json:"rule,omitempty"`
	Clock *rooms.TimeControl `json:"clock,omitempty"`
}

// maxFieldLen bounds every string field but a chat line's text: room ids, tokens, moves
// and names are all far shorter, so anything longer is garbage and refused before it
// reaches a room. maxTextLen bounds the text: 140 characters of up to four bytes each.
const (
	maxFieldLen = 128
	maxTextLen  = 4 * 140
)

// The message types the hub answers itself; every other type a client may send is a
// room command (rooms.ParseCommandKind).
const (
	typeJoin             = "join"
	typeLeave            = "leave"
	typePing             = "ping"
	typeChat             = "chat"
	typeLobbySubscribe   = "lobby_subscribe"
	typeLobbyUnsubscribe = "lobby_unsubscribe"
	typePair             = "pair"
	typeUnpair           = "unpair"
)

// roomless are the types that name no room.
var roomless = map[string]bool{typePing: true, typeLobbySubscribe: true, typeLobbyUnsubscribe: true,
	typePair: true, typeUnpair: true}

// knownType reports whether a client may send a message of type t.
func knownType(t string) bool {
	switch t {
	case typeJoin, typeLeave, typePing, typeChat, typeLobbySubscribe, typeLobbyUnsubscribe, typePair, typeUnpair:
		return true
	}
	_, ok := rooms.ParseCommandKind(t)
	return ok
}

// errUnknownType marks a well-formed message of a type the server does not know.
var errUnknownType = errors.New("unknown message type")

// DecodeMessage parses one client frame. It fails on anything but a single JSON object
// with a known type, fields of the right kinds, string fields within bounds, and a room for
// every type but ping. The id and room, when they can be read, are returned even on error
// so the answer can carry them.
func DecodeMessage(data []byte) (ClientMessage, error) {
	var m ClientMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		// A field of the wrong kind still leaves the others decoded: keep id and room
		// (unless they are the wrong field).
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return ClientMessage{ID: m.ID, Room: m.Room}, errors.New(DescribeJSONError(err))
		}
		return ClientMessage{}, errors.New(DescribeJSONError(err))
	}
	if dec.More() {
		return ClientMessage{ID: m.ID, Room: m.Room}, errors.New("one JSON object per frame")
	}
	for _, f := range []string{m.Type, m.Room, m.Token, m.Seat, m.Name, m.Move, m.Kind, m.Identity, m.Game, m.Rule} {
		if len(f) > maxFieldLen {
			return ClientMessage{ID: m.ID}, fmt.Errorf("a field is longer than %d bytes", maxFieldLen)
		}
	}
	if len(m.Text) > maxTextLen {
		return ClientMessage{ID: m.ID, Room: m.Room}, fmt.Errorf("a chat line is at most 140 characters")
	}
	if m.Type == "" {
		return ClientMessage{ID: m.ID, Room: m.Room}, errors.New("missing type")
	}
	if !knownType(m.Type) {
		return ClientMessage{ID: m.ID, Room: m.Room}, fmt.Errorf("%w %q", errUnknownType, m.Type)
	}
	if !roomless[m.Type] && m.Room == "" {
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

// DescribeJSONError says what is wrong with a JSON message in the protocol's words (field
// names and JSON kinds, never Go's types). The HTTP API uses it too.
func DescribeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return "the message must be a JSON object, not " + jsonKind(typeErr.Value)
		}
		return fmt.Sprintf("%s must be %s, not %s", field, wantedKind(typeErr.Type), jsonKind(typeErr.Value))
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the message ends too soon"
	}
	if strings.HasPrefix(err.Error(), "json: unknown field ") {
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	}
	return "malformed JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

// wantedKind names the JSON kind a Go field takes.
func wantedKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// jsonKind names the kind of JSON value encoding/json reports ("number 1e400" is a number).
func jsonKind(value string) string {
	kind, _, _ := strings.Cut(value, " ")
	switch kind {
	case "string", "number", "object":
		return "a " + kind
	case "array":
		return "a list"
	case "bool":
		return "true or false"
	}
	return kind
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

type lobbyMsg struct {
	Type string `json:"type"`
	ID   *int64 `json:"id,omitempty"`
	rooms.Lobby
}

type pairedMsg struct {
	Type  string `json:"type"`
	ID    *int64 `json:"id,omitempty"`
	Room  string `json:"room"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
}

type pairExpiredMsg struct {
	Type     string `json:"type"`
	ID       *int64 `json:"id,omitempty"`
	BotLevel int    `json:"botLevel"`
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

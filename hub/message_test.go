package hub

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeMessage(t *testing.T) {
	for _, tc := range []struct {
		name, frame string
		wantErr     string // substring; "" for success
		unknown     bool
	}{
		{"join", `{"type":"join","id":1,"room":"abc","token":"t","since":4}`, "", false},
		{"move", `{"type":"move","room":"abc","move":"f5","at":7}`, "", false},
		{"ping without room", `{"type":"ping","id":9}`, "", false},
		{"undo reply", `{"type":"undo_reply","room":"abc","accept":false}`, "", false},
		{"unknown fields are ignored", `{"type":"resign","room":"abc","colour":"red"}`, "", false},
		{"not JSON", `hello`, "malformed JSON", false},
		{"truncated", `{"type":"join"`, "malformed JSON", false},
		{"array", `[1]`, "must be a JSON object, not a list", false},
		{"two objects", `{"type":"ping"}{"type":"ping"}`, "one JSON object", false},
		{"missing type", `{"room":"abc"}`, "missing type", false},
		{"unknown type", `{"type":"teleport","room":"abc"}`, "unknown message type", true},
		{"no room", `{"type":"move","move":"f5"}`, "needs a room", false},
		{"reply without accept", `{"type":"undo_reply","room":"abc"}`, "accept", false},
		{"long field", `{"type":"sit","room":"abc","name":"` + strings.Repeat("x", 200) + `"}`, "longer than", false},
		{"wrong field type", `{"type":"move","room":"abc","at":"seven"}`, "at must be a whole number, not a string", false},
		{"move as a number", `{"type":"move","id":78,"room":"r","move":-1}`, "move must be a string, not a number", false},
		{"type as a number", `{"type":5}`, "type must be a string, not a number", false},
		{"room as a number", `{"type":"join","room":123}`, "room must be a string, not a number", false},
		{"accept as a string", `{"type":"draw_reply","room":"r","accept":"yes"}`, "accept must be true or false, not a string", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(tc.frame))
			if tc.wantErr == "" {
				require.NoError(t, err)
				require.NotEmpty(t, m.Type)
				return
			}
			require.ErrorContains(t, err, tc.wantErr)
			require.Equal(t, tc.unknown, errors.Is(err, errUnknownType))
		})
	}
}

func TestDecodeKeepsID(t *testing.T) {
	m, err := DecodeMessage([]byte(`{"type":"teleport","id":42,"room":"r"}`))
	require.Error(t, err)
	require.Equal(t, int64(42), *m.ID, "the error answer can name the request")

	// A field of the wrong kind: the answer still carries the id and the room, and the
	// words are the protocol's, not Go's.
	for _, frame := range []string{
		`{"type":"move","id":78,"room":"r","move":-1}`,
		`{"type":"move","id":78,"room":"r","at":"x"}`,
		`{"type":5,"id":78,"room":"r"}`,
	} {
		m, err := DecodeMessage([]byte(frame))
		require.Error(t, err, frame)
		require.NotNil(t, m.ID, frame)
		require.Equal(t, int64(78), *m.ID, frame)
		require.Equal(t, "r", m.Room, frame)
		require.NotContains(t, err.Error(), "Go struct", frame)
		require.NotContains(t, err.Error(), "ClientMessage", frame)
	}
	m, err = DecodeMessage([]byte(`{"type":"join","id":7,"room":123}`))
	require.ErrorContains(t, err, "room must be a string")
	require.Equal(t, int64(7), *m.ID)
}

// FuzzDecodeMessage checks that no frame panics the decoder, and that whatever it
// accepts has a known type, bounded fields, and survives a round trip.
func FuzzDecodeMessage(f *testing.F) {
	for _, seed := range []string{
		`{"type":"join","id":1,"room":"abc","token":"t","since":4}`,
		`{"type":"move","room":"abc","move":"f5","at":7}`,
		`{"type":"undo_reply","room":"abc","accept":true}`,
		`{"type":"set_seat","room":"r","seat":"white","kind":"bot","level":5}`,
		`{"type":"ping"}`, `{}`, `[]`, `null`, `{"type":"join","room":null}`, `{"id":1e400}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := DecodeMessage(frame)
		if err != nil {
			return
		}
		if !knownType(m.Type) {
			t.Fatalf("accepted unknown type %q", m.Type)
		}
		if !roomless[m.Type] && m.Room == "" {
			t.Fatal("accepted a message without a room")
		}
		for _, s := range []string{m.Room, m.Token, m.Seat, m.Name, m.Move, m.Kind} {
			if len(s) > maxFieldLen {
				t.Fatal("accepted an overlong field")
			}
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := DecodeMessage(again)
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		require.Equal(t, m, m2)
	})
}

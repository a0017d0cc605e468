package rooms

import (
	"fmt"
	"time"
)

// Side is a seat and the colour it plays: black moves first in both games.
type Side string

// The two sides.
const (
	Black Side = "black"
	White Side = "white"
)

// ParseSide checks a side name from a client.
func ParseSide(s string) (Side, error) {
	switch Side(s) {
	case Black, White:
		return Side(s), nil
	}
	return "", errorf(CodeBadRequest, "seat must be black or white, not %q", s)
}

// Index is 0 for black and 1 for white, the index into per-side arrays.
func (s Side) Index() int {
	if s == White {
		return 1
	}
	return 0
}

// Other is the opponent's side.
func (s Side) Other() Side {
	if s == White {
		return Black
	}
	return White
}

// sides lists both sides in index order.
var sides = [2]Side{Black, White}

// SeatKind says who sits in a seat.
type SeatKind string

// The kinds of seat occupant.
const (
	SeatOpen  SeatKind = "open"  // nobody: a person may sit down
	SeatHuman SeatKind = "human" // a person holding the seat's token
	SeatBot   SeatKind = "bot"   // the engine at a level
)

// EventType names what an event records.
type EventType string

// The event types of a room's log; docs/protocol.md describes each.
const (
	EvSeat        EventType = "seat"         // a seat changed occupant or bot level
	EvSwitch      EventType = "switch"       // the seats swapped sides
	EvMove        EventType = "move"         // a stone or disc was played
	EvPass        EventType = "pass"         // Reversi: a forced pass
	EvUndoRequest EventType = "undo_request" // a player asked to take back
	EvUndoDecline EventType = "undo_decline" // the opponent refused
	EvUndo        EventType = "undo"         // plies were taken back
	EvResign      EventType = "resign"       // a side resigned
	EvRematch     EventType = "rematch"      // a new game in the same room
)

// Event is one entry of a room's append-only log. Fields other than Seq, Type and Time
// are set only for the types that use them (see docs/protocol.md). The Store keeps events
// as they are; clients see them as PublicEvent, without TokenHash.
type Event struct {
	Seq       int64     `json:"seq"`
	Type      EventType `json:"type"`
	Time      time.Time `json:"time"`
	Seat      Side      `json:"seat,omitempty"`
	By        Side      `json:"by,omitempty"`
	Kind      SeatKind  `json:"kind,omitempty"`
	Name      string    `json:"name,omitempty"`
	Level     int       `json:"level,omitempty"`
	TokenHash string    `json:"tokenHash,omitempty"` // stored, never sent to clients
	Move      string    `json:"move,omitempty"`
	Plies     int       `json:"plies,omitempty"`
	Eval      *int      `json:"eval,omitempty"`
}

// PublicEvent is an event as clients see it: the stored event with its token hash
// blanked, plus the board after it (move, pass, undo, rematch) and the discs a move
// turned.
type PublicEvent struct {
	Event
	Board   string   `json:"board,omitempty"`
	Flipped []string `json:"flipped,omitempty"`
}

// publicOf starts the public form of e: its fields, never its token hash.
func publicOf(e Event) PublicEvent {
	e.TokenHash = ""
	return PublicEvent{Event: e}
}

// Meta is what a room is, fixed at creation: the game and its options.
type Meta struct {
	ID        string    `json:"id"`
	Game      string    `json:"game"`
	Size      int       `json:"size"`
	Rule      string    `json:"rule"`
	CreatedAt time.Time `json:"createdAt"`
}

// Status is where a room's current game stands.
type Status string

// The statuses of a room.
const (
	StatusWaiting  Status = "waiting"  // a seat is open and no move has been played
	StatusPlaying  Status = "playing"  // the game is on
	StatusFinished Status = "finished" // the game has a result
)

// SeatView is a seat as clients see it.
type SeatView struct {
	Kind  SeatKind `json:"kind"`
	Name  string   `json:"name,omitempty"`
	Level int      `json:"level,omitempty"`
}

// Counts are the discs or stones of each colour on the board.
type Counts struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// Summary is a room's line in the lobby, stored with every append.
type Summary struct {
	ID        string            `json:"id"`
	Game      string            `json:"game"`
	Size      int               `json:"size"`
	Rule      string            `json:"rule"`
	Status    Status            `json:"status"`
	Seats     map[Side]SeatView `json:"seats"`
	Counts    Counts            `json:"counts"`
	Plies     int               `json:"plies"`
	Viewers   int               `json:"viewers"`
	BotToMove bool              `json:"botToMove,omitempty"`
	CreatedAt time.Time         `json:"createdAt"`
	UpdatedAt time.Time         `json:"updatedAt"`
	Result    *Result           `json:"result,omitempty"`
}

// Result is how a finished game ended.
type Result struct {
	Winner Side   `json:"winner"` // "" for a draw
	Reason string `json:"reason"` // no_moves, five, board_full, resign
	Black  int    `json:"black"`  // final discs or stones of black
	White  int    `json:"white"`  // and of white
	Margin int    `json:"margin"` // Reversi tournament score of the winner; 0 for Gomoku
}

// String describes the result in words, for logs.
func (r Result) String() string {
	if r.Winner == "" {
		return fmt.Sprintf("draw (%s) %d-%d", r.Reason, r.Black, r.White)
	}
	return fmt.Sprintf("%s wins (%s) %d-%d", r.Winner, r.Reason, r.Black, r.White)
}

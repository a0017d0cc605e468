package rooms

import (
	"encoding/json"
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
	EvRematch     EventType = "rematch"      // the next game (room Next; in old logs, a new game in this room)

	EvRematchOffer   EventType = "rematch_offer"   // a player offers a rematch
	EvRematchDecline EventType = "rematch_decline" // the offer was declined
	EvDrawOffer      EventType = "draw_offer"      // a player offers a draw
	EvDrawDecline    EventType = "draw_decline"    // the opponent declined
	EvDraw           EventType = "draw"            // the draw was agreed
	EvFlag           EventType = "flag"            // a side's time ran out: it loses
	EvAbort          EventType = "abort"           // the game ends with no result
	EvClaim          EventType = "claim"           // the player who stayed claimed the game
)

// Claims the player who stayed may make once the opponent has been gone the grace period.
const (
	ClaimWin   = "win"   // the game is won
	ClaimDraw  = "draw"  // the game is drawn
	ClaimAbort = "abort" // the game ends with no result (too few moves were played)
)

// Event is one entry of a room's append-only log. Fields other than Seq, Type and Time
// are set only for the types that use them (see docs/protocol.md). The Store keeps events
// as they are; clients see them as PublicEvent, without TokenHash and IdentityHash.
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
	// IdentityHash is the hash of the seated browser's identity key, if it sent one:
	// stored, never sent to clients.
	IdentityHash string `json:"identityHash,omitempty"`
	Move         string `json:"move,omitempty"`
	Plies        int    `json:"plies,omitempty"`
	Eval         *int   `json:"eval,omitempty"`
	Next         string `json:"next,omitempty"`  // rematch: the next game's room
	Claim        string `json:"claim,omitempty"` // claim: win, draw or abort
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
	e.TokenHash, e.IdentityHash = "", ""
	return PublicEvent{Event: e}
}

// Meta is what a room is, fixed at creation: the game and its options.
type Meta struct {
	ID        string      `json:"id"`
	Game      string      `json:"game"`
	Size      int         `json:"size"`
	Rule      string      `json:"rule"`
	Clock     TimeControl `json:"clock,omitzero"`
	CreatedAt time.Time   `json:"createdAt"`
	// Prev is the room of the game before, when this room is a rematch.
	Prev string `json:"prev,omitempty"`
	// GameNo is the number of this room's first game in its series of rematches (0: 1).
	GameNo int `json:"gameNo,omitempty"`
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
	ID      string            `json:"id"`
	Game    string            `json:"game"`
	Size    int               `json:"size"`
	Rule    string            `json:"rule"`
	Status  Status            `json:"status"`
	Seats   map[Side]SeatView `json:"seats"`
	Counts  Counts            `json:"counts"`
	Plies   int               `json:"plies"`
	Viewers int               `json:"viewers"` // people watching, each connected seat once
	// Spectators and Present are who is in the room: the spectators, and the seats whose
	// player is connected (filled in when listed, never stored).
	Spectators int         `json:"spectators"`
	Present    []Side      `json:"present,omitempty"`
	BotToMove  bool        `json:"botToMove,omitempty"`
	Clock      TimeControl `json:"clock,omitzero"`
	// Deadline is when the running clock's time runs out, if a clock runs: a node must
	// then act for the room even if nobody watches it.
	Deadline  *time.Time `json:"deadline,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
	Result    *Result    `json:"result,omitempty"`
}

// Result is how a finished game ended.
type Result struct {
	Winner Side   `json:"winner"` // "" for a draw
	Reason string `json:"reason"` // no_moves, five, board_full, resign, timeout, agreement, abandoned, aborted
	Black  int    `json:"black"`  // final discs or stones of black
	White  int    `json:"white"`  // and of white
	Margin int    `json:"margin"` // Reversi tournament score of the winner; 0 for Gomoku
}

// MarshalJSON writes the result with "winner": null for a draw or an aborted game, as
// docs/protocol.md says.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	var winner *Side
	if r.Winner != "" {
		winner = &r.Winner
	}
	return json.Marshal(struct {
		plain
		Winner *Side `json:"winner"`
	}{plain(r), winner})
}

// String describes the result in words, for logs.
func (r Result) String() string {
	if r.Winner == "" {
		return fmt.Sprintf("draw (%s) %d-%d", r.Reason, r.Black, r.White)
	}
	return fmt.Sprintf("%s wins (%s) %d-%d", r.Winner, r.Reason, r.Black, r.White)
}

// NeedsNode reports whether the room needs a server node to act without any client: a
// bot is to move or a clock runs (its flag must fall on time). Store.BotRooms lists such
// rooms.
func (s Summary) NeedsNode() bool { return s.BotToMove || s.Deadline != nil }

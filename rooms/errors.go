package rooms

import (
	"errors"
	"fmt"
)

// Code is a stable error code sent to clients; docs/protocol.md lists them all.
type Code string

// The error codes a room operation can fail with. Their strings are part of the wire
// protocol and never change.
const (
	CodeBadRequest    Code = "bad_request"       // malformed or invalid input
	CodeRoomNotFound  Code = "room_not_found"    // no such room, or it expired
	CodeNotSeated     Code = "not_seated"        // a player action without a seat
	CodeBadToken      Code = "bad_token"         // a seat token that matches no seat
	CodeSeatTaken     Code = "seat_taken"        // sit on a seat that is not open
	CodeAlreadySeated Code = "already_seated"    // sit while holding the other seat
	CodeNotYourTurn   Code = "not_your_turn"     // a move out of turn
	CodeIllegalMove   Code = "illegal_move"      // a move the rules forbid
	CodeGameOver      Code = "game_over"         // a game action after the end
	CodeGameNotOver   Code = "game_not_over"     // rematch while the game goes on
	CodeNothingToUndo Code = "nothing_to_undo"   // no move of the requester's to take back
	CodeNoRequest     Code = "no_request"        // undo_reply with nothing to answer
	CodeForbidden     Code = "forbidden"         // not this player's action to take
	CodeStale         Code = "stale"             // the room moved on since the client looked
	CodeTimeOut       Code = "time_out"          // a move after the mover's time ran out
	CodeTooEarly      Code = "too_early"         // a claim before the grace period, an abort after both moved
	CodeTooMany       Code = "too_many_requests" // too many rooms created (per address, per identity)
	CodeBusy          Code = "busy"              // the room's command queue is full
	CodeUnavailable   Code = "unavailable"       // the store cannot be reached
	CodeInternal      Code = "internal"          // a bug; nothing was changed
)

// Error is a room error with a stable code for the client and a message for people.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return "rooms: " + string(e.Code) + ": " + e.Msg }

// errorf builds an *Error with a formatted message.
func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err: its own if it is (or wraps) an *Error, CodeUnavailable if
// it wraps ErrUnavailable, CodeInternal otherwise.
func CodeOf(err error) Code {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, ErrUnavailable):
		return CodeUnavailable
	case errors.Is(err, ErrNotFound):
		return CodeRoomNotFound
	case errors.Is(err, ErrStale):
		return CodeStale
	}
	return CodeInternal
}

// Errors returned by Store and Broker implementations.
var (
	// ErrNotFound means the room does not exist (or has expired).
	ErrNotFound = errors.New("rooms: room not found")
	// ErrExists means Create found a room with the same id.
	ErrExists = errors.New("rooms: room already exists")
	// ErrStale means Append's expected version was not the room's version: another
	// event was stored first. Nothing was written.
	ErrStale = errors.New("rooms: stale version")
	// ErrUnavailable wraps failures to reach the backing service (Redis down).
	ErrUnavailable = errors.New("rooms: store unavailable")
)

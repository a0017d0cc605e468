package rooms

import (
	"context"
	"time"
)

// Store keeps rooms: each room's metadata, its append-only event log and its lobby
// summary. It is the only place a room's truth lives; every server node reads and writes
// the same Store.
//
// Implementations must be safe for concurrent use. Errors are ErrNotFound, ErrExists,
// ErrStale, or wrap ErrUnavailable when the backing service cannot be reached; after
// an error nothing has been written.
type Store interface {
	// Create stores a new room with its first events (seq 1..n) and its summary. It
	// fails with ErrExists if the id is taken.
	Create(ctx context.Context, meta Meta, events []Event, sum Summary) error

	// Load returns a room's metadata and its whole log, in seq order.
	Load(ctx context.Context, id string) (Meta, []Event, error)

	// EventsSince returns the events with seq > after, in order (empty if none).
	EventsSince(ctx context.Context, id string, after int64) ([]Event, error)

	// Append stores events, whose seqs must run head.Version+1, head.Version+2, ..., if
	// and only if the room's log still ends at head: a compare-and-set, atomic across all
	// nodes. If another append got there first (or the log ends with another event) it
	// returns ErrStale and stores nothing. sum replaces the room's summary in the same
	// step. The room's time to live restarts: FinishedTTL when sum.Status is finished,
	// IdleTTL otherwise.
	Append(ctx context.Context, id string, head Head, events []Event, sum Summary) error

	// List returns up to limit room summaries, most recently updated first.
	List(ctx context.Context, limit int) ([]Summary, error)

	// BotRooms returns the ids of rooms whose summary says a bot is to move, so that
	// a node can pick up bot games that nobody is watching (after a restart, say).
	BotRooms(ctx context.Context) ([]string, error)

	// AppendChat adds a line to a room's chat, keeping the last ChatKept lines. Lines are
	// not part of the log: they have no seq and no compare-and-set, and live as long as
	// the room. ErrNotFound if the room does not exist.
	AppendChat(ctx context.Context, room string, line ChatLine) error

	// Chat returns a room's kept chat lines, oldest first.
	Chat(ctx context.Context, room string) ([]ChatLine, error)

	// RecordPlayer notes that the identity (a hash) took a seat in room at the given time,
	// for its "my games" list, which keeps the PlayerRoomsKept most recent rooms for
	// PlayerTTL after the last one.
	RecordPlayer(ctx context.Context, identity, room string, seat Side, at time.Time) error

	// PlayerRooms returns the summaries of the rooms an identity played, most recent
	// first, at most limit, each with the seat it took last. Rooms that expired are
	// left out.
	PlayerRooms(ctx context.Context, identity string, limit int) ([]PlayerRoom, error)

	// Pair is quick pairing's queue: in the queue named queue, it takes the oldest ticket
	// that is not ticket and has not expired, and returns it; if there is none it puts
	// ticket in the queue (or renews it) until ttl from now, and returns "". It is atomic
	// across nodes: two tickets are never both given to a third.
	Pair(ctx context.Context, queue, ticket string, ttl time.Duration) (string, error)

	// Unpair takes ticket out of queue (no error if it is not there).
	Unpair(ctx context.Context, queue, ticket string) error

	// Ping checks that the Store can be reached.
	Ping(ctx context.Context) error

	// Close releases the Store's resources.
	Close() error
}

// Head is where a writer believes a room's log ends: its number of events and the time
// of the last. The version alone would let a node whose copy of the log went another way
// store on top of a log it has not seen: after a Redis failover that lost events the node
// had applied, the game can go on elsewhere to the same version with other moves. The
// last event's time tells the two logs apart (two events stored under one seq by
// different writers differ in time).
type Head struct {
	Version int64
	// Time is the last event's time; zero compares the version alone (a room with no
	// event, or a writer that does not know it).
	Time time.Time
}

// TTLs say how long rooms live without activity. A room's clock restarts at each append.
type TTLs struct {
	// Finished is how long a room whose game has ended stays (for a rematch, replay and
	// export).
	Finished time.Duration
	// Idle is how long a room whose game has not ended stays without any event
	// (abandoned games).
	Idle time.Duration
	// Waiting is how long a room waiting for a player, with no move yet, stays without
	// any event (0: Idle). Rooms made and never used go soon.
	Waiting time.Duration
}

// DefaultTTLs keep a finished game for a day, an abandoned one for a week (long enough
// to come back to, short enough that the store does not grow without bound) and a room
// nobody started for an hour.
var DefaultTTLs = TTLs{Finished: 24 * time.Hour, Idle: 7 * 24 * time.Hour, Waiting: time.Hour}

func (t TTLs) of(sum Summary) time.Duration {
	switch {
	case sum.Status == StatusFinished:
		return t.Finished
	case sum.Status == StatusWaiting && t.Waiting > 0:
		return t.Waiting
	}
	return t.Idle
}

// What the Store keeps beside the rooms.
const (
	// ChatKept is how many chat lines a room keeps: enough for a late viewer to catch
	// the conversation, bounded so that a chatty room costs a few tens of kilobytes.
	ChatKept = 200
	// PlayerRoomsKept is how many rooms an identity's "my games" keeps.
	PlayerRoomsKept = 200
	// PlayerTTL is how long an identity's list lives after its last game.
	PlayerTTL = 30 * 24 * time.Hour
)

// ChatLine is one line of a room's chat (docs/protocol.md, Chat).
type ChatLine struct {
	ID     string    `json:"id"`
	Time   time.Time `json:"time"`
	Seat   *Side     `json:"seat"` // the speaker's seat, nil for a spectator
	Name   string    `json:"name"`
	Author string    `json:"author"` // an opaque id of the sender, for muting
	Text   string    `json:"text"`
}

// PlayerRoom is a room in an identity's "my games": its lobby line and the seat the
// identity took last there.
type PlayerRoom struct {
	Summary
	MySeat Side `json:"mySeat"`
}

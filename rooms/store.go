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

	// Append stores events, whose seqs must run version+1, version+2, ..., if and only
	// if the room's version is still version: a compare-and-set, atomic across all
	// nodes. If another append got there first it returns ErrStale and stores nothing.
	// sum replaces the room's summary in the same step. The room's time to live
	// restarts: FinishedTTL when sum.Status is finished, IdleTTL otherwise.
	Append(ctx context.Context, id string, version int64, events []Event, sum Summary) error

	// List returns up to limit room summaries, most recently updated first.
	List(ctx context.Context, limit int) ([]Summary, error)

	// BotRooms returns the ids of rooms whose summary says a bot is to move, so that
	// a node can pick up bot games that nobody is watching (after a restart, say).
	BotRooms(ctx context.Context) ([]string, error)

	// Ping checks that the Store can be reached.
	Ping(ctx context.Context) error

	// Close releases the Store's resources.
	Close() error
}

// TTLs say how long rooms live without activity. A room's clock restarts at each append.
type TTLs struct {
	// Finished is how long a room whose game has ended stays (for a rematch, replay and
	// export).
	Finished time.Duration
	// Idle is how long a room whose game has not ended stays without any event
	// (abandoned games).
	Idle time.Duration
}

// DefaultTTLs keep a finished game for a day and an abandoned one for a week: long enough
// to come back to, short enough that the store does not grow without bound.
var DefaultTTLs = TTLs{Finished: 24 * time.Hour, Idle: 7 * 24 * time.Hour}

func (t TTLs) of(sum Summary) time.Duration {
	if sum.Status == StatusFinished {
		return t.Finished
	}
	return t.Idle
}

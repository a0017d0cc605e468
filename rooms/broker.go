package rooms

import (
	"context"
	"time"
)

// Broker connects the server nodes that serve the same rooms: it carries messages about a
// room to every node subscribed to it, counts who is watching each room over all nodes,
// and hands out leases so that exactly one node runs each bot search.
//
// Implementations must be safe for concurrent use. Errors wrap ErrUnavailable when the
// backing service cannot be reached.
type Broker interface {
	// Publish sends msg to every subscriber of room on every node, this node included.
	// Delivery is at most once; a subscriber that misses a stored event notices the gap
	// in seq numbers and reads the Store.
	Publish(ctx context.Context, room string, msg []byte) error

	// Subscribe calls deliver with every message published to room from now on, until
	// the returned cancel is called. deliver runs on the broker's goroutine and must not
	// block. A node subscribes at most once per room.
	Subscribe(room string, deliver func(msg []byte)) (cancel func(), err error)

	// SetPresence records that node has count watchers of room; count 0 removes the
	// node's entry. Entries not refreshed within PresenceTTL no longer count (a node that
	// died stops counting by itself).
	SetPresence(ctx context.Context, room, node string, count int) error

	// Presence returns the number of watchers of each room over all nodes.
	Presence(ctx context.Context, rooms []string) (map[string]int, error)

	// Claim takes the lease key for owner for ttl, if nobody holds it. It reports
	// whether owner now holds it (true also when owner already held it; the lease is
	// then extended).
	Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)

	// Release gives the lease key up if owner holds it.
	Release(ctx context.Context, key, owner string) error

	// Close stops delivery and releases the Broker's resources.
	Close() error
}

// PresenceTTL is how long a node's watcher count stands without a refresh. Live rooms
// refresh theirs at a third of it.
const PresenceTTL = 90 * time.Second

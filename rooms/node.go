package rooms

import (
	"context"
	"log/slog"
	"time"
)

// backendTimeout bounds one Store or Broker call from a room, so that a Redis outage
// turns into an `unavailable` error within seconds instead of a hung room.
const backendTimeout = 2 * time.Second

// backendContext bounds one Store or Broker call made on behalf of parent.
func backendContext(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, backendTimeout)
}

// node is what a live room uses of the server node it runs on, and all it uses: the
// shared Store and Broker, the bot pool, the settings, logs and metrics, the node's
// lifetime, and a way to leave the node's list of live rooms.
type node struct {
	name    string
	store   Store
	broker  Broker
	bots    *BotPool
	cfg     Config
	log     *slog.Logger
	metrics *Metrics
	// ctx is the node's lifetime: cancelled when the service shuts down.
	ctx context.Context
	// unlist removes a room from the node's live rooms (if it is still the one listed).
	unlist func(*liveRoom)
	// wake loads a room on this node (so that its bot starts).
	wake func(id string)
}

// publish sends a broker message about room to every node.
func (n *node) publish(ctx context.Context, room string, m brokerMsg) error {
	m.Node = n.name
	return n.broker.Publish(ctx, room, mustJSON(m))
}

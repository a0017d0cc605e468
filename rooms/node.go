package rooms

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
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
	// storeDown is set while the Store cannot be reached (Service.watchStore).
	storeDown atomic.Bool
	// noticeOutage wakes the store watcher when a room's call finds the Store down.
	noticeOutage chan struct{}
	warnings     warnLimiter
}

// backendFailed notes a Store or Broker error: an unreachable backend makes the node
// look at once whether the Store is down, so that clients are told.
func (n *node) backendFailed(err error) {
	if errors.Is(err, ErrUnavailable) && !n.storeDown.Load() {
		select {
		case n.noticeOutage <- struct{}{}:
		default:
		}
	}
}

// warn logs a warning, at most once per warnEvery for the same message: during an outage
// every room fails at every tick, and one line says it as well as thousands.
func (n *node) warn(msg string, args ...any) {
	if suppressed, ok := n.warnings.allow(msg); ok {
		if suppressed > 0 {
			args = append(args, "suppressed", suppressed)
		}
		n.log.Warn(msg, args...)
	}
}

// warnEvery spaces warnings with the same message.
const warnEvery = 10 * time.Second

// warnLimiter remembers when each warning message was last logged and how many were
// held back since.
type warnLimiter struct {
	mu   sync.Mutex
	last map[string]time.Time
	held map[string]int
}

// allow reports whether msg may be logged now, and how many were held back before it.
func (l *warnLimiter) allow(msg string) (int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last, l.held = map[string]time.Time{}, map[string]int{}
	}
	now := time.Now()
	if now.Sub(l.last[msg]) < warnEvery {
		l.held[msg]++
		return 0, false
	}
	held := l.held[msg]
	l.last[msg], l.held[msg] = now, 0
	return held, true
}

// publish sends a broker message about room to every node.
func (n *node) publish(ctx context.Context, room string, m brokerMsg) error {
	m.Node = n.name
	return n.broker.Publish(ctx, room, mustJSON(m))
}

package rooms

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisBroker is a Broker on Redis: pub/sub for messages (one channel per room, all on
// one connection per node), a hash per room for presence, and SET NX leases.
//
//	room:{id}:ch        pub/sub channel of the room
//	room:{id}:viewers   hash: node -> "count:expiry unix ms"
//	lease:{key}         string: the owner, with a TTL
type RedisBroker struct {
	rdb redis.UniversalClient
	ps  *redis.PubSub
	log *slog.Logger

	mu   sync.Mutex
	subs map[string]func([]byte) // channel -> deliver

	done chan struct{}
}

var _ Broker = (*RedisBroker)(nil)

// NewRedisBroker returns a Broker on rdb. It starts one goroutine that reads the node's
// pub/sub connection until Close; go-redis reconnects it and resubscribes after an
// outage (messages published meanwhile are lost, which the seq check covers).
func NewRedisBroker(rdb redis.UniversalClient, log *slog.Logger) *RedisBroker {
	b := &RedisBroker{rdb: rdb, ps: rdb.Subscribe(context.Background()), log: log,
		subs: map[string]func([]byte){}, done: make(chan struct{})}
	go b.run()
	return b
}

func channelOf(room string) string  { return "room:{" + room + "}:ch" }
func viewersKey(room string) string { return "room:{" + room + "}:viewers" }
func leaseKey(key string) string    { return "lease:{" + key + "}" }

func (b *RedisBroker) run() {
	defer close(b.done)
	// A large channel buffer rides out bursts; go-redis drops messages rather than
	// block its reader when the buffer is full for longer than the send timeout.
	for msg := range b.ps.Channel(redis.WithChannelSize(4096)) {
		b.mu.Lock()
		deliver := b.subs[msg.Channel]
		b.mu.Unlock()
		if deliver != nil {
			deliver([]byte(msg.Payload))
		}
	}
}

// Publish implements Broker.
func (b *RedisBroker) Publish(ctx context.Context, room string, msg []byte) error {
	if err := b.rdb.Publish(ctx, channelOf(room), msg).Err(); err != nil {
		return unavailable("publish", err)
	}
	return nil
}

// Subscribe implements Broker.
func (b *RedisBroker) Subscribe(room string, deliver func([]byte)) (func(), error) {
	ch := channelOf(room)
	b.mu.Lock()
	b.subs[ch] = deliver
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
	defer cancel()
	if err := b.ps.Subscribe(ctx, ch); err != nil {
		// go-redis remembers the channel and subscribes again when it reconnects, so
		// the subscription stands; report the outage all the same.
		b.log.Warn("redis subscribe failed; will resubscribe on reconnect", "room", room, "err", err)
	}
	return func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
		defer cancel()
		b.ps.Unsubscribe(ctx, ch)
	}, nil
}

// SetPresence implements Broker.
func (b *RedisBroker) SetPresence(ctx context.Context, room, node string, count int) error {
	key := viewersKey(room)
	var err error
	if count <= 0 {
		err = b.rdb.HDel(ctx, key, node).Err()
	} else {
		val := strconv.Itoa(count) + ":" + strconv.FormatInt(time.Now().Add(PresenceTTL).UnixMilli(), 10)
		pipe := b.rdb.TxPipeline()
		pipe.HSet(ctx, key, node, val)
		pipe.PExpire(ctx, key, 2*PresenceTTL)
		_, err = pipe.Exec(ctx)
	}
	if err != nil {
		return unavailable("presence", err)
	}
	return nil
}

// Presence implements Broker.
func (b *RedisBroker) Presence(ctx context.Context, rooms []string) (map[string]int, error) {
	pipe := b.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(rooms))
	for i, room := range rooms {
		cmds[i] = pipe.HGetAll(ctx, viewersKey(room))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, unavailable("presence", err)
	}
	now := time.Now().UnixMilli()
	out := make(map[string]int, len(rooms))
	for i, cmd := range cmds {
		for _, v := range cmd.Val() {
			countStr, expStr, ok := strings.Cut(v, ":")
			count, err1 := strconv.Atoi(countStr)
			exp, err2 := strconv.ParseInt(expStr, 10, 64)
			if ok && err1 == nil && err2 == nil && exp > now {
				out[rooms[i]] += count
			}
		}
	}
	return out, nil
}

// claimScript takes or extends a lease. KEYS: lease. ARGV: owner, ttl ms.
var claimScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`)

// releaseScript deletes a lease only if owner holds it. KEYS: lease. ARGV: owner.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

// Claim implements Broker.
func (b *RedisBroker) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	n, err := claimScript.Run(ctx, b.rdb, []string{leaseKey(key)}, owner, ttl.Milliseconds()).Int()
	if err != nil {
		return false, unavailable("claim", err)
	}
	return n == 1, nil
}

// Release implements Broker.
func (b *RedisBroker) Release(ctx context.Context, key, owner string) error {
	if err := releaseScript.Run(ctx, b.rdb, []string{leaseKey(key)}, owner).Err(); err != nil {
		return unavailable("release", err)
	}
	return nil
}

// Close implements Broker.
func (b *RedisBroker) Close() error {
	err := b.ps.Close()
	<-b.done
	return err
}

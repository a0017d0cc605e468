package rooms

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisBroker is a Broker on Redis: pub/sub for messages (one channel per room), a hash
// per room for presence, and SET NX leases.
//
//	room:{id}:ch        pub/sub channel of the room
//	room:{id}:viewers   hash: node -> "count:expiry unix ms"
//	lease:bot:{id}      string: the owner of the room's bot search, with a TTL
//
// On one Redis (or Sentinel's master) every room's channel rides one connection per node
// (SUBSCRIBE, PUBLISH). On a Cluster plain pub/sub would copy every message to every
// shard, so rooms use sharded pub/sub (SSUBSCRIBE, SPUBLISH): a room's message goes to
// the master of the room's slot and its replica only. A node holds one pub/sub connection
// per master that serves a slot with a loaded room, and subscribes again by itself after
// a failover or a slot migration (shardSubs).
type RedisBroker struct {
	rdb     redis.UniversalClient
	cluster *redis.ClusterClient // rdb, when it is a Cluster client
	ps      *redis.PubSub        // one Redis: every room's channel
	shards  *shardSubs           // Cluster: the sharded subscriptions
	log     *slog.Logger

	mu   sync.Mutex
	subs map[string]func([]byte) // channel -> deliver

	done chan struct{} // one Redis: closed when the reader of ps ends
}

var _ Broker = (*RedisBroker)(nil)

// NewRedisBroker returns a Broker on rdb. On one Redis it starts one goroutine that reads
// the node's pub/sub connection until Close; go-redis reconnects it and resubscribes after
// an outage (messages published meanwhile are lost, which the seq check covers). On a
// Cluster it starts shardSubs, which does the same per master.
func NewRedisBroker(rdb redis.UniversalClient, log *slog.Logger) *RedisBroker {
	b := &RedisBroker{rdb: rdb, log: log, subs: map[string]func([]byte){}, done: make(chan struct{})}
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		b.cluster = cc
		b.shards = newShardSubs(cc, b.dispatch)
		close(b.done)
		return b
	}
	b.ps = rdb.Subscribe(context.Background())
	go func() {
		defer close(b.done)
		b.run(b.ps)
	}()
	return b
}

func channelOf(room string) string  { return "room:{" + room + "}:ch" }
func viewersKey(room string) string { return "room:{" + room + "}:viewers" }

// leaseKey names a lease in Redis. A key "kind:room" (the bot lease is "bot:<room>") is
// tagged with the room, so that it lives in the room's Cluster slot with the room's
// other keys; other keys are tagged whole.
func leaseKey(key string) string {
	if kind, room, ok := strings.Cut(key, ":"); ok && room != "" {
		return "lease:" + kind + ":{" + room + "}"
	}
	return "lease:{" + key + "}"
}

// run delivers the messages of one pub/sub connection until it is closed.
func (b *RedisBroker) run(ps *redis.PubSub) {
	// A large channel buffer rides out bursts; go-redis drops messages rather than
	// block its reader when the buffer is full for longer than the send timeout.
	for msg := range ps.Channel(redis.WithChannelSize(4096)) {
		b.dispatch(msg.Channel, []byte(msg.Payload))
	}
}

// dispatch hands msg to the subscriber of channel, if it still has one.
func (b *RedisBroker) dispatch(channel string, msg []byte) {
	b.mu.Lock()
	deliver := b.subs[channel]
	b.mu.Unlock()
	if deliver != nil {
		deliver(msg)
	}
}

// Publish implements Broker.
func (b *RedisBroker) Publish(ctx context.Context, room string, msg []byte) error {
	var err error
	if b.cluster != nil {
		err = b.cluster.SPublish(ctx, channelOf(room), msg).Err()
		var answer redis.Error
		if err != nil && !errors.As(err, &answer) {
			// A Cluster client learns a new slot map from MOVED answers, or once its map
			// is a minute old (ClusterStateReloadInterval); a master that died answers
			// nothing, so without this every publish to its slots would go on dialing
			// the dead address for up to that minute. ReloadState loads the map in the
			// background, at most once per 200 ms however often it is called.
			b.cluster.ReloadState(ctx)
		}
	} else {
		err = b.rdb.Publish(ctx, channelOf(room), msg).Err()
	}
	if err != nil {
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
	if b.cluster != nil {
		b.shards.subscribe(ch)
		return func() {
			b.mu.Lock()
			delete(b.subs, ch)
			b.mu.Unlock()
			b.shards.unsubscribe(ch)
		}, nil
	}
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
	if b.shards != nil {
		b.shards.close()
		return nil
	}
	err := b.ps.Close()
	<-b.done
	return err
}

// redisSlot is the Cluster hash slot of a key: CRC16 of its hash tag (the part between
// the first { and the next }, when not empty) or of the whole key, modulo 16,384.
func redisSlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for k := 0; k < len(key); k++ {
		crc ^= uint16(key[k]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % clusterSlots
}

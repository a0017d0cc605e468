package rooms

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// The Cluster broker's own tests: one pub/sub connection per master however many slots
// the rooms span, subscriptions that follow a failover by themselves, and connections
// closed with their master's last room. The Broker contract itself is checked by
// TestBrokerConformance.

// shardWait bounds a wait for a Cluster to deliver or to settle (a failover takes a few
// seconds here; a loaded 2-core machine several times that).
const shardWait = 60 * time.Second

func TestShardedPubSub(t *testing.T) {
	cl := redistest.StartCluster(t)
	t.Run("ManyRooms", func(t *testing.T) { testShardedManyRooms(t, cl) })
	t.Run("LastRoomOfMaster", func(t *testing.T) { testShardedLastRoom(t, cl) })
	// Last: it turns a master into a replica.
	t.Run("ManualFailover", func(t *testing.T) { testShardedFailover(t, cl, false) })
}

// TestShardedPubSubMasterKilled kills a master mid-stream (SIGKILL), on a Cluster of its
// own.
func TestShardedPubSubMasterKilled(t *testing.T) {
	testShardedFailover(t, redistest.StartCluster(t), true)
}

// shardNode is one node's Broker on the Cluster, with a client name of its own that
// tells its connections apart in CLIENT LIST, and what its rooms received.
type shardNode struct {
	name   string
	cc     *redis.ClusterClient
	broker *RedisBroker

	mu     sync.Mutex
	got    map[string][]string // room -> messages in order
	notify chan struct{}       // a message arrived (buffer 1)
}

func newShardNode(t *testing.T, cl *redistest.Cluster) *shardNode {
	n := &shardNode{name: fmt.Sprintf("shardtest-%d", time.Now().UnixNano()), got: map[string][]string{},
		notify: make(chan struct{}, 1)}
	n.cc = redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs(), ClientName: n.name})
	n.broker = NewRedisBroker(n.cc, slog.Default())
	t.Cleanup(func() { n.broker.Close(); n.cc.Close() })
	return n
}

// subscribe subscribes room, recording its messages.
func (n *shardNode) subscribe(t *testing.T, room string) func() {
	cancel, err := n.broker.Subscribe(room, func(msg []byte) {
		n.mu.Lock()
		n.got[room] = append(n.got[room], string(msg))
		n.mu.Unlock()
		select {
		case n.notify <- struct{}{}:
		default:
		}
	})
	require.NoError(t, err)
	return cancel
}

// missing lists the rooms that have not received a message starting with prefix.
func (n *shardNode) missing(rooms []string, prefix string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, r := range rooms {
		if !hasPrefixed(n.got[r], prefix) {
			out = append(out, r)
		}
	}
	return out
}

func hasPrefixed(msgs []string, prefix string) bool {
	for _, m := range msgs {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

// awaitAll publishes prefix+"-<round>" through pub to every room that has not received
// a message with prefix yet, round after round (a subscription takes effect
// asynchronously, and a failover drops what is published before it is over), until
// every room has one.
func (n *shardNode) awaitAll(t *testing.T, pub Broker, rooms []string, prefix string) {
	t.Helper()
	ctx := context.Background()
	deadline := time.After(shardWait)
	tick := time.NewTicker(200 * time.Millisecond) // a round of publishing: the pace, not a wait for an event
	defer tick.Stop()
	for round := 0; ; round++ {
		left := n.missing(rooms, prefix)
		if len(left) == 0 {
			return
		}
		// At once: a publish to a slot without a master waits for go-redis's retries.
		var wg sync.WaitGroup
		for _, r := range left {
			wg.Go(func() { pub.Publish(ctx, r, []byte(prefix+"-"+strconv.Itoa(round))) })
		}
		wg.Wait()
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%d of %d rooms received nothing starting with %q, e.g. %v; %s", len(left), len(rooms), prefix, left[:min(len(left), 5)], n.describe())
		}
	}
}

// publisher is another node's Broker on cl, which publishes.
func publisher(t *testing.T, cl *redistest.Cluster) Broker {
	b := NewRedisBroker(cl.Client(t), slog.Default())
	t.Cleanup(func() { b.Close() })
	return b
}

// describe says where n's pub/sub connections are, for a failure's message.
func (n *shardNode) describe() string {
	var b strings.Builder
	slots, err := n.cc.ClusterSlots(context.Background()).Result()
	fmt.Fprintf(&b, "slot map %v (err %v); pub/sub connections:", slots, err)
	for _, node := range n.cc.Options().Addrs {
		use, err := readPubsub(node, n.name)
		fmt.Fprintf(&b, " %s %+v (err %v)", node, use, err)
	}
	return b.String()
}

// spreadRooms names n rooms, which hash to slots all over the Cluster.
func spreadRooms(prefix string, n int) []string {
	rooms := make([]string, n)
	for i := range rooms {
		rooms[i] = prefix + strconv.Itoa(i)
	}
	return rooms
}

// pubsubUse is what one master's CLIENT LIST shows of a node's pub/sub connections.
type pubsubUse struct {
	conns    int // connections in pub/sub mode
	channels int // shard channels subscribed over them
}

// masters returns the address of each master that serves slots now.
func masters(t *testing.T, cc *redis.ClusterClient) []string {
	t.Helper()
	slots, err := cc.ClusterSlots(context.Background()).Result()
	require.NoError(t, err)
	return slotMasters(slots)
}

func slotMasters(slots []redis.ClusterSlot) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range slots {
		if a := s.Nodes[0].Addr; !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// pubsubOf reads CLIENT LIST on the server at addr: the pub/sub connections named name.
func pubsubOf(t *testing.T, addr, name string) pubsubUse {
	t.Helper()
	use, err := readPubsub(addr, name)
	require.NoError(t, err)
	return use
}

func readPubsub(addr, name string) (pubsubUse, error) {
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	list, err := c.ClientList(context.Background()).Result()
	var use pubsubUse
	for line := range strings.Lines(list) {
		f := map[string]string{}
		for kv := range strings.FieldsSeq(line) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		if f["name"] != name || !strings.Contains(f["flags"], "P") {
			continue
		}
		use.conns++
		ssub, _ := strconv.Atoi(f["ssub"])
		use.channels += ssub
	}
	return use, err
}

// expectedUse counts rooms' channels per master address in the slot map slots.
func expectedUse(slots []redis.ClusterSlot, rooms []string) map[string]int {
	out := map[string]int{}
	for _, r := range rooms {
		slot := redisSlot(channelOf(r))
		for _, s := range slots {
			if slot >= int(s.Start) && slot <= int(s.End) {
				out[s.Nodes[0].Addr]++
			}
		}
	}
	return out
}

// awaitUse waits until every master shows one pub/sub connection of n carrying its share
// of rooms (none where it has no share), and fails with what it saw last.
func (n *shardNode) awaitUse(t *testing.T, rooms []string) {
	t.Helper()
	var last string
	settled := assert.Eventually(t, func() bool {
		// Errors (a dead node asked during a failover) count as not yet.
		slots, err := n.cc.ClusterSlots(context.Background()).Result()
		if err != nil {
			last = err.Error()
			return false
		}
		want := expectedUse(slots, rooms)
		var b strings.Builder
		ok := true
		for _, m := range slotMasters(slots) {
			use, err := readPubsub(m, n.name)
			if err != nil {
				last = err.Error()
				return false
			}
			conns := 0
			if want[m] > 0 {
				conns = 1
			}
			fmt.Fprintf(&b, "%s: %d connections, %d channels (want %d, %d); ", m, use.conns, use.channels, conns, want[m])
			ok = ok && use.conns == conns && use.channels == want[m]
		}
		last = b.String()
		return ok
	}, shardWait, 50*time.Millisecond)
	if !settled {
		t.Fatalf("pub/sub connections per master: %s", last)
	}
	t.Log(last)
}

// testShardedManyRooms: 2,000 rooms over ~1,900 slots ride three connections, one per
// master, and every room gets its messages.
func testShardedManyRooms(t *testing.T, cl *redistest.Cluster) {
	n := newShardNode(t, cl)
	rooms := spreadRooms("many-", 2000)
	for _, r := range rooms {
		defer n.subscribe(t, r)()
	}
	n.awaitUse(t, rooms)
	n.awaitAll(t, publisher(t, cl), rooms, "hello")

	// A second node's Broker: the same rooms, its own connections, the same messages.
	m := newShardNode(t, cl)
	for _, r := range rooms[:300] {
		defer m.subscribe(t, r)()
	}
	m.awaitUse(t, rooms[:300])
	m.awaitAll(t, publisher(t, cl), rooms[:300], "both")
	n.awaitAll(t, publisher(t, cl), rooms[:300], "both")
}

// roomsOn returns k room names whose slots the master at addr serves.
func roomsOn(t *testing.T, cc *redis.ClusterClient, addr, prefix string, k int) []string {
	t.Helper()
	var out []string
	for i := 0; len(out) < k; i++ {
		require.Less(t, i, 10000, "no room hashes to %s", addr)
		r := prefix + strconv.Itoa(i)
		m, err := cc.MasterForKey(context.Background(), channelOf(r))
		require.NoError(t, err)
		if m.Options().Addr == addr {
			out = append(out, r)
		}
	}
	return out
}

// testShardedLastRoom: a master's last room closes that master's connection only; the
// rooms of other masters go on, and a later room on the first master works.
func testShardedLastRoom(t *testing.T, cl *redistest.Cluster) {
	n := newShardNode(t, cl)
	ms := masters(t, n.cc)
	first, second := roomsOn(t, n.cc, ms[0], "last-", 3), roomsOn(t, n.cc, ms[1], "other-", 2)
	var cancels []func()
	for _, r := range first {
		cancels = append(cancels, n.subscribe(t, r))
	}
	for _, r := range second {
		defer n.subscribe(t, r)()
	}
	n.awaitUse(t, append(append([]string{}, first...), second...))
	n.awaitAll(t, publisher(t, cl), append(append([]string{}, first...), second...), "before")

	cancels[0]()
	cancels[1]()
	n.awaitUse(t, append(append([]string{}, first[2:]...), second...))
	cancels[2]()
	n.awaitUse(t, second)
	require.Equal(t, 0, pubsubOf(t, ms[0], n.name).conns, "the master's last room closes its connection")
	n.awaitAll(t, publisher(t, cl), second, "after")
	n.mu.Lock()
	for _, r := range first {
		require.False(t, hasPrefixed(n.got[r], "after"), "room %s got a message after its cancel", r)
	}
	n.mu.Unlock()

	again := roomsOn(t, n.cc, ms[0], "again-", 1)
	defer n.subscribe(t, again[0])()
	n.awaitUse(t, append(again, second...))
	n.awaitAll(t, publisher(t, cl), append(again, second...), "again")
}

// testShardedFailover moves the slots of one master to its replica, by SIGKILL (kill)
// or by CLUSTER FAILOVER on the replica (the old master lives on as a replica and
// pushes sunsubscribe), while messages flow; the rooms of those slots then receive
// again without any new Subscribe.
func testShardedFailover(t *testing.T, cl *redistest.Cluster, kill bool) {
	ctx := context.Background()
	n := newShardNode(t, cl)
	pub := publisher(t, cl)
	rooms := spreadRooms("failover-", 300)
	for _, r := range rooms {
		defer n.subscribe(t, r)()
	}
	n.awaitUse(t, rooms)
	n.awaitAll(t, pub, rooms, "before")

	old, err := cl.MasterOf(ctx, channelOf(rooms[0]))
	require.NoError(t, err)
	start := time.Now()
	if kill {
		old.Stop()
	} else {
		replica := replicaOf(t, cl, old.Addr())
		c := redis.NewClient(&redis.Options{Addr: replica})
		require.NoError(t, c.Do(ctx, "cluster", "failover").Err())
		c.Close()
	}
	n.awaitAll(t, pub, rooms, "after")
	t.Logf("every room received again %.1f s after the failover began", time.Since(start).Seconds())
	require.Eventually(t, func() bool {
		m, err := cl.MasterOf(ctx, channelOf(rooms[0]))
		return err == nil && m != old
	}, shardWait, 50*time.Millisecond, "the replica took the slots over")
	n.awaitUse(t, rooms)
	if !kill {
		require.Equal(t, 0, pubsubOf(t, old.Addr(), n.name).conns, "no connection stays on the demoted master")
	}
}

// replicaOf returns the address of the replica of the master at addr.
func replicaOf(t *testing.T, cl *redistest.Cluster, addr string) string {
	t.Helper()
	for _, a := range cl.Addrs() {
		c := redis.NewClient(&redis.Options{Addr: a})
		info, err := c.Info(context.Background(), "replication").Result()
		c.Close()
		require.NoError(t, err)
		_, port, _ := strings.Cut(addr, ":")
		if strings.Contains(info, "role:slave") && strings.Contains(info, "master_port:"+port+"\r\n") {
			return a
		}
	}
	t.Fatalf("no replica of %s", addr)
	return ""
}

// BenchmarkShardedDelivery measures one node's receipt of messages for 2,000 rooms spread
// over the Cluster (all of a master's rooms share one connection and one reader): each
// op is one message published to the next room and delivered to it. Every run starts a
// Cluster; run it once with a fixed count:
//
//	go test -run '^$' -bench ShardedDelivery -benchtime 20000x ./rooms/
func BenchmarkShardedDelivery(b *testing.B) {
	cl := redistest.StartCluster(b)
	ctx := context.Background()
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cl.Addrs()})
	defer cc.Close()
	sub := NewRedisBroker(cc, slog.Default())
	defer sub.Close()
	pub := cl.Client(b)

	rooms := spreadRooms("bench-", 2000)
	var mu sync.Mutex
	warm := map[string]bool{} // rooms that delivered a warm-up message
	moves := 0                // "move" messages delivered
	delivered := make(chan struct{})
	for _, r := range rooms {
		cancel, err := sub.Subscribe(r, func(msg []byte) {
			mu.Lock()
			defer mu.Unlock()
			if string(msg) != "move" {
				warm[r] = true
				return
			}
			if moves++; moves == b.N {
				close(delivered)
			}
		})
		require.NoError(b, err)
		defer cancel()
	}
	// Every room delivers once before the clock starts (a subscription takes effect
	// asynchronously): rounds of warm-up messages to the rooms still silent.
	tick := time.NewTicker(200 * time.Millisecond) // the pace of the rounds
	defer tick.Stop()
	for {
		mu.Lock()
		var silent []string
		for _, r := range rooms {
			if !warm[r] {
				silent = append(silent, r)
			}
		}
		mu.Unlock()
		if len(silent) == 0 {
			break
		}
		pipe := pub.Pipeline()
		for _, r := range silent {
			pipe.SPublish(ctx, channelOf(r), "warm-up")
		}
		_, err := pipe.Exec(ctx)
		require.NoError(b, err)
		<-tick.C
	}

	b.ResetTimer()
	const batch = 256 // messages per pipeline, like many rooms publishing at once
	for i := 0; i < b.N; i += batch {
		pipe := pub.Pipeline()
		for j := i; j < min(i+batch, b.N); j++ {
			pipe.SPublish(ctx, channelOf(rooms[j%len(rooms)]), "move")
		}
		_, err := pipe.Exec(ctx)
		require.NoError(b, err)
	}
	select {
	case <-delivered:
	case <-time.After(shardWait):
		mu.Lock()
		defer mu.Unlock()
		b.Fatalf("%d of %d messages delivered", moves, b.N)
	}
}

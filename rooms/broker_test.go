package rooms

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// brokerFactories are set up once per suite (a topology starts with the suite's t) and
// then make, for each test, two Brokers that share one backend (two nodes).
var brokerFactories = map[string]func(suite *testing.T) func(t *testing.T) (Broker, Broker){
	"memory": func(*testing.T) func(*testing.T) (Broker, Broker) {
		return func(t *testing.T) (Broker, Broker) { b := NewMemoryBroker(); return b, b }
	},
	"redis": func(*testing.T) func(*testing.T) (Broker, Broker) {
		return func(t *testing.T) (Broker, Broker) { rdb := redistest.Client(t); return redisBrokers(t, rdb, rdb) }
	},
	"sentinel": func(suite *testing.T) func(*testing.T) (Broker, Broker) {
		sen := redistest.StartSentinel(suite)
		return func(t *testing.T) (Broker, Broker) {
			sen.Flush(t)
			return redisBrokers(t, sen.Client(t), sen.Client(t))
		}
	},
	"cluster": func(suite *testing.T) func(*testing.T) (Broker, Broker) {
		cl := redistest.StartCluster(suite)
		return func(t *testing.T) (Broker, Broker) {
			cl.Flush(t)
			return redisBrokers(t, cl.Client(t), cl.Client(t))
		}
	},
}

// redisBrokers are two nodes' Brokers, each on its own client.
func redisBrokers(t *testing.T, rdbA, rdbB redis.UniversalClient) (Broker, Broker) {
	a, b := NewRedisBroker(rdbA, slog.Default()), NewRedisBroker(rdbB, slog.Default())
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func TestBrokerConformance(t *testing.T) {
	for name, setup := range brokerFactories {
		t.Run(name, func(t *testing.T) {
			newBrokers := setup(t)
			t.Run("PublishSubscribe", func(t *testing.T) { testBrokerPubSub(t, newBrokers) })
			t.Run("Presence", func(t *testing.T) { testBrokerPresence(t, newBrokers) })
			t.Run("Claim", func(t *testing.T) { testBrokerClaim(t, newBrokers) })
		})
	}
}

func receive(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message delivered")
		return ""
	}
}

func testBrokerPubSub(t *testing.T, newBrokers func(*testing.T) (Broker, Broker)) {
	ctx := context.Background()
	a, b := newBrokers(t)
	got := make(chan string, 10)
	other := make(chan string, 10)
	cancel, err := b.Subscribe("room1", func(msg []byte) { got <- string(msg) })
	require.NoError(t, err)
	cancelOther, err := b.Subscribe("room2", func(msg []byte) { other <- string(msg) })
	require.NoError(t, err)
	defer cancelOther()

	// Subscriptions on Redis take effect asynchronously: publish until one arrives.
	require.Eventually(t, func() bool {
		require.NoError(t, a.Publish(ctx, "room1", []byte("hello")))
		select {
		case m := <-got:
			return m == "hello"
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}, 10*time.Second, time.Millisecond)
	for len(got) > 0 {
		<-got
	}
	require.NoError(t, a.Publish(ctx, "room1", []byte("second")))
	require.Equal(t, "second", receive(t, got))
	require.Empty(t, other, "a room's messages go to its subscribers only")

	cancel()
	require.NoError(t, a.Publish(ctx, "room2", []byte("marker")))
	require.Equal(t, "marker", receive(t, other))
	require.NoError(t, a.Publish(ctx, "room1", []byte("after cancel")))
	require.NoError(t, a.Publish(ctx, "room2", []byte("marker2")))
	require.Equal(t, "marker2", receive(t, other))
	require.Empty(t, got, "nothing is delivered after cancel")
}

func testBrokerPresence(t *testing.T, newBrokers func(*testing.T) (Broker, Broker)) {
	ctx := context.Background()
	a, b := newBrokers(t)
	require.NoError(t, a.SetPresence(ctx, "room1", "nodeA", 3))
	require.NoError(t, b.SetPresence(ctx, "room1", "nodeB", 2))
	require.NoError(t, b.SetPresence(ctx, "room2", "nodeB", 1))
	counts, err := a.Presence(ctx, []string{"room1", "room2", "room3"})
	require.NoError(t, err)
	require.Equal(t, map[string]int{"room1": 5, "room2": 1}, counts)

	require.NoError(t, a.SetPresence(ctx, "room1", "nodeA", 0))
	counts, err = b.Presence(ctx, []string{"room1"})
	require.NoError(t, err)
	require.Equal(t, 2, counts["room1"])
}

func testBrokerClaim(t *testing.T, newBrokers func(*testing.T) (Broker, Broker)) {
	ctx := context.Background()
	a, b := newBrokers(t)
	ok, err := a.Claim(ctx, "bot:r", "nodeA", time.Minute)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = b.Claim(ctx, "bot:r", "nodeB", time.Minute)
	require.NoError(t, err)
	require.False(t, ok, "a held lease is exclusive")
	ok, err = a.Claim(ctx, "bot:r", "nodeA", time.Minute)
	require.NoError(t, err)
	require.True(t, ok, "the holder extends its lease")

	require.NoError(t, b.Release(ctx, "bot:r", "nodeB"))
	ok, _ = b.Claim(ctx, "bot:r", "nodeB", time.Minute)
	require.False(t, ok, "release by another owner does nothing")
	require.NoError(t, a.Release(ctx, "bot:r", "nodeA"))
	ok, _ = b.Claim(ctx, "bot:r", "nodeB", 100*time.Millisecond)
	require.True(t, ok)

	// A lease nobody renews lapses (a node that died): waiting on the clock is the point.
	require.Eventually(t, func() bool {
		ok, err := a.Claim(ctx, "bot:r", "nodeA", time.Minute)
		return err == nil && ok
	}, 10*time.Second, 20*time.Millisecond)
}

// TestRedisSlot checks the Cluster slot function against values Redis gives
// (CLUSTER KEYSLOT) and the hash tag rules of the Cluster specification.
func TestRedisSlot(t *testing.T) {
	for _, tc := range []struct {
		key  string
		slot int
	}{
		{"123456789", 12739}, // CRC16/XMODEM's check value 0x31C3
		{"foo", 12182},
		{"bar", 5061},
		{"{foo}:anything", 12182},  // the tag alone is hashed
		{"room:{foo}:ch", 12182},   // a room's channel shares the room's slot
		{"foo{}{bar}", -1},         // an empty first tag: the whole key
		{"foo{{bar}}zap", -2},      // the tag is "{bar"
		{"lease:bot:{foo}", 12182}, // the bot lease shares the room's slot
	} {
		t.Run(tc.key, func(t *testing.T) {
			switch tc.slot {
			case -1:
				require.NotEqual(t, redisSlot("bar"), redisSlot(tc.key))
			case -2:
				require.Equal(t, redisSlot("{bar"), redisSlot(tc.key))
			default:
				require.Equal(t, tc.slot, redisSlot(tc.key))
			}
		})
	}
	require.Equal(t, "lease:bot:{r1}", leaseKey(botLeaseKey("r1")))
}

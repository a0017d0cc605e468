package rooms

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// brokerFactories make two Brokers that share one backend (two nodes).
var brokerFactories = map[string]func(t *testing.T) (Broker, Broker){
	"memory": func(t *testing.T) (Broker, Broker) { b := NewMemoryBroker(); return b, b },
	"redis": func(t *testing.T) (Broker, Broker) {
		rdb := redistest.Client(t)
		a, b := NewRedisBroker(rdb, slog.Default()), NewRedisBroker(rdb, slog.Default())
		t.Cleanup(func() { a.Close(); b.Close() })
		return a, b
	},
}

func TestBrokerConformance(t *testing.T) {
	for name, newBrokers := range brokerFactories {
		t.Run(name, func(t *testing.T) {
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

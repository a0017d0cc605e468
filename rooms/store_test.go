package rooms

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// storeFactories are the Stores the conformance suite runs against. Each is set up once
// for the suite (a topology is started with the suite's t and stops with it) and then
// makes an empty Store for each test.
var storeFactories = map[string]func(suite *testing.T) func(t *testing.T, ttls TTLs) Store{
	"memory": func(*testing.T) func(*testing.T, TTLs) Store {
		return func(t *testing.T, ttls TTLs) Store { return NewMemoryStore(ttls) }
	},
	"redis": func(*testing.T) func(*testing.T, TTLs) Store {
		return func(t *testing.T, ttls TTLs) Store { return NewRedisStore(redistest.Client(t), ttls) }
	},
	"sentinel": func(suite *testing.T) func(*testing.T, TTLs) Store {
		// Every write confirmed by the master's replica (WAIT 1), as REDIS_WAIT_REPLICAS=1.
		sen := redistest.StartSentinel(suite)
		return func(t *testing.T, ttls TTLs) Store {
			sen.Flush(t)
			return NewRedisStore(sen.Client(t), ttls, WaitForReplicas(1, 500*time.Millisecond))
		}
	},
	"cluster": func(suite *testing.T) func(*testing.T, TTLs) Store {
		cl := redistest.StartCluster(suite)
		return func(t *testing.T, ttls TTLs) Store {
			cl.Flush(t)
			return NewRedisStore(cl.Client(t), ttls, WaitForReplicas(1, 500*time.Millisecond))
		}
	},
}

func TestStoreConformance(t *testing.T) {
	for name, setup := range storeFactories {
		t.Run(name, func(t *testing.T) {
			newStore := setup(t)
			t.Run("CreateLoad", func(t *testing.T) { testStoreCreateLoad(t, newStore(t, DefaultTTLs)) })
			t.Run("Append", func(t *testing.T) { testStoreAppend(t, newStore(t, DefaultTTLs)) })
			t.Run("ConcurrentAppend", func(t *testing.T) { testStoreConcurrentAppend(t, newStore(t, DefaultTTLs), newStore) })
			t.Run("List", func(t *testing.T) { testStoreList(t, newStore(t, DefaultTTLs)) })
			t.Run("Expiry", func(t *testing.T) {
				testStoreExpiry(t, newStore(t, TTLs{Finished: 200 * time.Millisecond, Idle: time.Hour}))
			})
			t.Run("Chat", func(t *testing.T) { testStoreChat(t, newStore(t, DefaultTTLs)) })
			t.Run("Players", func(t *testing.T) { testStorePlayers(t, newStore(t, DefaultTTLs)) })
			t.Run("Pair", func(t *testing.T) { testStorePair(t, newStore(t, DefaultTTLs)) })
			t.Run("PairRace", func(t *testing.T) { testStorePairRace(t, newStore(t, DefaultTTLs)) })
			t.Run("WaitingTTL", func(t *testing.T) {
				testStoreWaitingTTL(t, newStore(t, TTLs{Finished: time.Hour, Idle: time.Hour, Waiting: 200 * time.Millisecond}))
			})
		})
	}
}

var t0 = time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)

func testMeta(id string) Meta {
	return Meta{ID: id, Game: "reversi", Size: 8, CreatedAt: t0}
}

func seatEvent(seq int64, side Side) Event {
	return Event{Seq: seq, Type: EvSeat, Time: t0, Seat: side, Kind: SeatBot, Level: 3}
}

func moveEvent(seq int64, side Side, move string) Event {
	return Event{Seq: seq, Type: EvMove, Time: t0.Add(time.Duration(seq) * time.Second), Seat: side, Move: move}
}

func testStoreCreateLoad(t *testing.T, s Store) {
	ctx := context.Background()
	meta := testMeta("room1")
	events := []Event{seatEvent(1, White)}
	require.NoError(t, s.Create(ctx, meta, events, Summary{ID: "room1", Status: StatusWaiting}))
	require.ErrorIs(t, s.Create(ctx, meta, nil, Summary{ID: "room1"}), ErrExists)

	gotMeta, gotEvents, err := s.Load(ctx, "room1")
	require.NoError(t, err)
	require.Equal(t, meta, gotMeta)
	require.Equal(t, events, gotEvents)

	_, _, err = s.Load(ctx, "nosuchroom")
	require.ErrorIs(t, err, ErrNotFound)
	_, err = s.EventsSince(ctx, "nosuchroom", 0)
	require.ErrorIs(t, err, ErrNotFound)
	require.ErrorIs(t, s.Append(ctx, "nosuchroom", Head{}, []Event{seatEvent(1, Black)}, Summary{}), ErrNotFound)

	// A room with no events at all.
	require.NoError(t, s.Create(ctx, testMeta("empty"), nil, Summary{ID: "empty"}))
	_, gotEvents, err = s.Load(ctx, "empty")
	require.NoError(t, err)
	require.Empty(t, gotEvents)
	require.NoError(t, s.Ping(ctx))
}

func testStoreAppend(t *testing.T, s Store) {
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, testMeta("r"), nil, Summary{ID: "r"}))
	require.NoError(t, s.Append(ctx, "r", Head{}, []Event{moveEvent(1, Black, "f5")}, Summary{ID: "r"}))
	// Two events in one append (a move and the forced pass it causes).
	require.NoError(t, s.Append(ctx, "r", Head{Version: 1}, []Event{moveEvent(2, White, "d6"), {Seq: 3, Type: EvPass, Time: t0, Seat: Black}}, Summary{ID: "r"}))

	// A stale version stores nothing.
	require.ErrorIs(t, s.Append(ctx, "r", Head{Version: 1}, []Event{moveEvent(2, White, "f4")}, Summary{ID: "r"}), ErrStale)
	// Seqs that do not continue the version are refused.
	require.Error(t, s.Append(ctx, "r", Head{Version: 3}, []Event{moveEvent(5, White, "f4")}, Summary{ID: "r"}))

	_, events, err := s.Load(ctx, "r")
	require.NoError(t, err)
	require.Len(t, events, 3)
	require.Equal(t, "d6", events[1].Move)

	since, err := s.EventsSince(ctx, "r", 1)
	require.NoError(t, err)
	require.Equal(t, events[1:], since)
	since, err = s.EventsSince(ctx, "r", 3)
	require.NoError(t, err)
	require.Empty(t, since)
	since, err = s.EventsSince(ctx, "r", 99)
	require.NoError(t, err)
	require.Empty(t, since)

	// The head names the last event too: a writer whose log ends with another event at
	// this version (a failover lost events it had, and the game went on) is stale. The
	// time as loaded, and as first written, both match.
	other := Head{Version: 3, Time: events[2].Time.Add(time.Millisecond)}
	require.ErrorIs(t, s.Append(ctx, "r", other, []Event{moveEvent(4, White, "f4")}, Summary{ID: "r"}), ErrStale)
	require.NoError(t, s.Append(ctx, "r", Head{Version: 3, Time: events[2].Time}, []Event{moveEvent(4, White, "f4")}, Summary{ID: "r"}))
	require.NoError(t, s.Append(ctx, "r", Head{Version: 4, Time: moveEvent(4, White, "f4").Time}, []Event{moveEvent(5, Black, "e3")}, Summary{ID: "r"}))
	_, events, err = s.Load(ctx, "r")
	require.NoError(t, err)
	require.Len(t, events, 5)
}

// testStoreConcurrentAppend races many appends for one turn, through separate Store
// values (separate connections, as separate nodes have): exactly one wins.
func testStoreConcurrentAppend(t *testing.T, s Store, newStore func(*testing.T, TTLs) Store) {
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, testMeta("race"), nil, Summary{ID: "race"}))
	stores := []Store{s}
	if _, isRedis := s.(*RedisStore); isRedis {
		// Another client on the same database: a second node.
		stores = append(stores, NewRedisStore(s.(*RedisStore).rdb, DefaultTTLs))
	}
	const racers = 16
	var wg sync.WaitGroup
	results := make(chan error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := stores[i%len(stores)]
			results <- st.Append(ctx, "race", Head{}, []Event{moveEvent(1, Black, fmt.Sprintf("m%d", i))}, Summary{ID: "race"})
		}()
	}
	wg.Wait()
	close(results)
	wins, stale := 0, 0
	for err := range results {
		switch {
		case err == nil:
			wins++
		case errors.Is(err, ErrStale):
			stale++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	require.Equal(t, 1, wins)
	require.Equal(t, racers-1, stale)
	_, events, err := s.Load(ctx, "race")
	require.NoError(t, err)
	require.Len(t, events, 1)
}

func testStoreList(t *testing.T, s Store) {
	ctx := context.Background()
	for i, id := range []string{"a", "b", "c"} {
		sum := Summary{ID: id, Game: "reversi", Status: StatusWaiting, UpdatedAt: t0.Add(time.Duration(i) * time.Minute),
			BotToMove: id == "b"}
		require.NoError(t, s.Create(ctx, testMeta(id), nil, sum))
	}
	// Updating a makes it the most recent.
	require.NoError(t, s.Append(ctx, "a", Head{}, []Event{moveEvent(1, Black, "f5")},
		Summary{ID: "a", Game: "reversi", Status: StatusPlaying, UpdatedAt: t0.Add(time.Hour), Plies: 1}))

	list, err := s.List(ctx, 10)
	require.NoError(t, err)
	var ids []string
	for _, sum := range list {
		ids = append(ids, sum.ID)
	}
	require.Equal(t, []string{"a", "c", "b"}, ids)
	require.Equal(t, StatusPlaying, list[0].Status)
	require.Equal(t, 1, list[0].Plies)

	list, err = s.List(ctx, 2)
	require.NoError(t, err)
	require.Len(t, list, 2)

	bots, err := s.BotRooms(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"b"}, bots)
}

func testStoreExpiry(t *testing.T, s Store) {
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, testMeta("fin"), nil, Summary{ID: "fin", Status: StatusWaiting}))
	require.NoError(t, s.Create(ctx, testMeta("live"), nil, Summary{ID: "live", Status: StatusWaiting}))
	require.NoError(t, s.Append(ctx, "fin", Head{}, []Event{moveEvent(1, Black, "f5")}, Summary{ID: "fin", Status: StatusFinished}))
	// The finished room expires after its 200 ms TTL; waiting on the clock is the point.
	require.Eventually(t, func() bool {
		_, _, err := s.Load(ctx, "fin")
		return errors.Is(err, ErrNotFound)
	}, 10*time.Second, 50*time.Millisecond)
	_, _, err := s.Load(ctx, "live")
	require.NoError(t, err, "an unfinished room lives for the idle TTL")
	list, err := s.List(ctx, 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "live", list[0].ID)
}

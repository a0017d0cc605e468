package rooms

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The conformance suite's tests of what a Store keeps beside the rooms: chat, players'
// games, the pairing queue, and the short life of rooms nobody started.

func testStoreChat(t *testing.T, s Store) {
	ctx := context.Background()
	require.ErrorIs(t, s.AppendChat(ctx, "nosuch", ChatLine{Text: "hi"}), ErrNotFound)
	_, err := s.Chat(ctx, "nosuch")
	require.ErrorIs(t, err, ErrNotFound)
	require.NoError(t, s.Create(ctx, testMeta("c"), nil, Summary{ID: "c", Status: StatusWaiting}))
	lines, err := s.Chat(ctx, "c")
	require.NoError(t, err)
	require.Empty(t, lines)
	black := Black
	for i := range ChatKept + 5 {
		line := ChatLine{ID: fmt.Sprint(i), Time: t0.Add(time.Duration(i) * time.Second), Name: "Ann", Text: fmt.Sprint("line ", i)}
		if i%2 == 0 {
			line.Seat = &black
		}
		require.NoError(t, s.AppendChat(ctx, "c", line))
	}
	lines, err = s.Chat(ctx, "c")
	require.NoError(t, err)
	require.Len(t, lines, ChatKept, "only the last lines are kept")
	require.Equal(t, "5", lines[0].ID)
	require.Equal(t, fmt.Sprint("line ", ChatKept+4), lines[len(lines)-1].Text)
	require.Nil(t, lines[0].Seat)
	require.Equal(t, Black, *lines[1].Seat)
}

func testStorePlayers(t *testing.T, s Store) {
	ctx := context.Background()
	rooms, err := s.PlayerRooms(ctx, "nobody", 10)
	require.NoError(t, err)
	require.Empty(t, rooms)
	for i, id := range []string{"p1", "p2", "p3"} {
		sum := Summary{ID: id, Status: StatusPlaying, UpdatedAt: t0.Add(time.Duration(i) * time.Minute)}
		require.NoError(t, s.Create(ctx, testMeta(id), nil, sum))
	}
	require.NoError(t, s.RecordPlayer(ctx, "ann", "p1", Black, t0))
	require.NoError(t, s.RecordPlayer(ctx, "ann", "p3", White, t0.Add(time.Minute)))
	require.NoError(t, s.RecordPlayer(ctx, "ann", "gone", White, t0.Add(2*time.Minute)))
	require.NoError(t, s.RecordPlayer(ctx, "bob", "p2", White, t0))
	require.NoError(t, s.Append(ctx, "p1", Head{}, []Event{moveEvent(1, Black, "f5")},
		Summary{ID: "p1", Status: StatusFinished, UpdatedAt: t0.Add(time.Hour)}))

	rooms, err = s.PlayerRooms(ctx, "ann", 10)
	require.NoError(t, err)
	require.Len(t, rooms, 2, "a room that does not exist is left out")
	require.Equal(t, "p1", rooms[0].ID, "most recently active first")
	require.Equal(t, StatusFinished, rooms[0].Status)
	require.Equal(t, Black, rooms[0].MySeat)
	require.Equal(t, "p3", rooms[1].ID)
	require.Equal(t, White, rooms[1].MySeat)
	rooms, err = s.PlayerRooms(ctx, "ann", 1)
	require.NoError(t, err)
	require.Len(t, rooms, 1)
}

func testStorePair(t *testing.T, s Store) {
	ctx := context.Background()
	q := "reversi/8//3+2"
	partner, err := s.Pair(ctx, q, "a", time.Minute)
	require.NoError(t, err)
	require.Empty(t, partner, "nobody waits: a queues")
	partner, err = s.Pair(ctx, q, "a", time.Minute)
	require.NoError(t, err)
	require.Empty(t, partner, "a asking again is never paired with itself")
	partner, err = s.Pair(ctx, "gomoku/15/freestyle/", "b", time.Minute)
	require.NoError(t, err)
	require.Empty(t, partner, "another queue")
	partner, err = s.Pair(ctx, q, "c", time.Minute)
	require.NoError(t, err)
	require.Equal(t, "a", partner)
	partner, err = s.Pair(ctx, q, "d", time.Minute)
	require.NoError(t, err)
	require.Empty(t, partner, "a was taken once")

	require.NoError(t, s.Unpair(ctx, q, "d"))
	require.NoError(t, s.Unpair(ctx, q, "never"))
	partner, err = s.Pair(ctx, q, "e", 200*time.Millisecond)
	require.NoError(t, err)
	require.Empty(t, partner, "d left the queue")
	// e's ticket lapses after its 200 ms; waiting on the clock is the point.
	require.Eventually(t, func() bool {
		p, err := s.Pair(ctx, q, "f", time.Minute)
		require.NoError(t, err)
		if p != "" {
			require.NoError(t, s.Unpair(ctx, q, "f"))
			return false
		}
		return true
	}, 10*time.Second, 100*time.Millisecond)
}

// Pairs from many at once: every ticket is given to at most one other.
func testStorePairRace(t *testing.T, s Store) {
	ctx := context.Background()
	results := make(chan [2]string, 40)
	for i := range 40 {
		go func() {
			me := fmt.Sprint("t", i)
			p, err := s.Pair(ctx, "race", me, time.Minute)
			require.NoError(t, err)
			results <- [2]string{me, p}
		}()
	}
	taken := map[string]string{}
	for range 40 {
		r := <-results
		if r[1] == "" {
			continue
		}
		_, twice := taken[r[1]]
		require.False(t, twice, "%s was given to %s and %s", r[1], taken[r[1]], r[0])
		taken[r[1]] = r[0]
	}
	require.Len(t, taken, 20, "forty askers make twenty pairs")
}

func testStoreWaitingTTL(t *testing.T, s Store) {
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, testMeta("empty"), nil, Summary{ID: "empty", Status: StatusWaiting}))
	require.NoError(t, s.Create(ctx, testMeta("started"), nil, Summary{ID: "started", Status: StatusWaiting}))
	require.NoError(t, s.Append(ctx, "started", Head{}, []Event{moveEvent(1, Black, "f5")},
		Summary{ID: "started", Status: StatusPlaying}))
	// The waiting room lapses after its 200 ms; waiting on the clock is the point.
	require.Eventually(t, func() bool {
		_, _, err := s.Load(ctx, "empty")
		return errors.Is(err, ErrNotFound)
	}, 10*time.Second, 50*time.Millisecond)
	_, _, err := s.Load(ctx, "started")
	require.NoError(t, err, "a game under way lives for the idle TTL")
}

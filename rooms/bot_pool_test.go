package rooms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// quickMove answers at once, with a legal move marked Quick, in both games, at every
// level: what a timed bot plays when its search has no move by its deadline.
func TestQuickMove(t *testing.T) {
	openings := map[string][]string{
		"reversi": {"f5", "d6", "c3", "d3", "c4"},
		"gomoku":  {"h8", "h9", "i9", "g7", "j10"},
	}
	for game, moves := range openings {
		meta := Meta{Game: game}
		require.NoError(t, normalizeMeta(&meta))
		pos, err := newPosition(meta)
		require.NoError(t, err)
		for _, m := range moves {
			_, err := pos.play(m)
			require.NoError(t, err)
		}
		kind, err := kindOf(game)
		require.NoError(t, err)
		for level := 1; level <= kind.info.MaxLevel; level++ {
			p, err := pos.quickMove(level)
			require.NoError(t, err, "%s level %d", game, level)
			require.True(t, p.Quick)
			_, err = pos.clone().play(p.Best)
			require.NoError(t, err, "%s level %d: the quick move %q is legal", game, level, p.Best)
		}
	}
}

// stuckPosition is a position whose search holds its worker until release is closed: the
// bot pool busy with another room's search.
type stuckPosition struct {
	position
	release chan struct{}
}

func (p stuckPosition) search(context.Context, int, func(progress)) (progress, error) {
	<-p.release
	return progress{}, context.Canceled
}

// stuckBotService is a service whose only bot worker is held by another room's search
// until the test ends, so its rooms' searches wait in the queue; its bots have moveTime.
func stuckBotService(t *testing.T, moveTime time.Duration) (*Service, *MemoryStore, *Metrics) {
	t.Helper()
	bots := NewBotPool(1, 4)
	t.Cleanup(bots.Close)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the pool closes: cleanups run last first
	require.True(t, bots.submit(botJob{ctx: context.Background(), pos: stuckPosition{release: release},
		done: func(progress, time.Duration, error) {}}))

	metrics := NewMetrics(nil)
	store := NewMemoryStore(DefaultTTLs)
	svc := NewService(store, NewMemoryBroker(), bots, Config{Node: "A", Metrics: metrics,
		BotMoveTime: moveTime, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	return svc, store, metrics
}

// hasMove reports whether room id's log holds a move.
func hasMove(t *testing.T, store *MemoryStore, id string) bool {
	_, events, err := store.Load(context.Background(), id)
	require.NoError(t, err)
	for _, e := range events {
		if e.Type == EvMove {
			return true
		}
	}
	return false
}

// A bot on a live clock whose search has no move by its deadline (here: queued behind
// another room's search that holds the only worker) moves anyway, by its quick move, while
// the worker is still busy; the move is counted once.
func TestTimedBotMovesWhenItsSearchRanOutOfTime(t *testing.T) {
	svc, store, metrics := stuckBotService(t, 50*time.Millisecond)
	v, err := svc.Create(context.Background(), CreateRequest{Game: "reversi", Clock: TimeControl{Kind: ClockFischer, Base: 60},
		Black: SeatSpec{Kind: SeatBot, Level: 10}})
	require.NoError(t, err)

	require.Eventually(t, func() bool { return hasMove(t, store, v.ID) },
		5*time.Second, 10*time.Millisecond, "the bot played while the worker was busy")
	var quick dto.Metric
	require.NoError(t, metrics.botQuickMoves.Write(&quick))
	require.Equal(t, 1.0, quick.GetCounter().GetValue(), "counted as a quick move")
}

// A timed bot whose search and quick move are both under way waits for the second answer
// when the first one fails (a starved search, or a quick move that failed): that answer
// may still bring a move, which beats a retry a second later. Only when both have failed
// does the room retry. The answers are handed to the room directly, on its goroutine; the
// room's real search stays queued behind the busy worker.
func TestTimedBotFailureWaitsForTheOtherAnswer(t *testing.T) {
	failed := errors.New("starved")
	for _, secondIsMove := range []bool{true, false} {
		t.Run(fmt.Sprintf("second answer a move: %v", secondIsMove), func(t *testing.T) {
			svc, store, _ := stuckBotService(t, 10*time.Second) // the quick timer never fires here
			ctx := context.Background()
			v, err := svc.Create(ctx, CreateRequest{Game: "reversi", Clock: TimeControl{Kind: ClockFischer, Base: 60},
				Black: SeatSpec{Kind: SeatBot, Level: 3}})
			require.NoError(t, err)
			onRoom := func(fn func(r *liveRoom)) { require.NoError(t, svc.call(ctx, v.ID, fn)) }
			var run *botRun
			require.Eventually(t, func() bool {
				onRoom(func(r *liveRoom) { run = r.bot })
				return run != nil
			}, 5*time.Second, 10*time.Millisecond, "the bot's search is queued")

			// The checks run on the room's goroutine and report here, where require may stop the test.
			var waiting, retrying bool
			onRoom(func(r *liveRoom) {
				run.quick, run.pending = true, run.pending+1 // as playQuick does, its answer held back
				r.botAnswer(run, progress{}, failed)
				waiting, retrying = r.bot == run, r.botRetry != nil
			})
			require.True(t, waiting, "after one failed answer the run waits for the other")
			require.False(t, retrying, "no retry while an answer may still bring a move")

			var second progress
			var secondErr error = failed
			if secondIsMove {
				onRoom(func(r *liveRoom) { second, secondErr = r.state.game.clone().quickMove(run.level) })
				require.NoError(t, secondErr)
			}
			onRoom(func(r *liveRoom) {
				r.botAnswer(run, second, secondErr)
				waiting, retrying = r.bot == run, r.botRetry != nil
			})
			require.False(t, waiting, "the second answer ends the run")
			require.Equal(t, secondIsMove, hasMove(t, store, v.ID), "a move is played if the second answer brought one")
			require.Equal(t, !secondIsMove, retrying, "the room retries if both failed")
		})
	}
}

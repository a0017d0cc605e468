package rooms

import (
	"context"
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

// A bot on a live clock whose search has no move by its deadline (here: queued behind
// another room's search that holds the only worker) moves anyway, by its quick move, while
// the worker is still busy; the move is counted once.
func TestTimedBotMovesWhenItsSearchRanOutOfTime(t *testing.T) {
	bots := NewBotPool(1, 4)
	t.Cleanup(bots.Close)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the pool closes: cleanups run last first
	require.True(t, bots.submit(botJob{ctx: context.Background(), pos: stuckPosition{release: release},
		done: func(progress, time.Duration, error) {}}))

	metrics := NewMetrics(nil)
	store := NewMemoryStore(DefaultTTLs)
	svc := NewService(store, NewMemoryBroker(), bots, Config{Node: "A", Metrics: metrics,
		BotMoveTime: 50 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	ctx := context.Background()
	v, err := svc.Create(ctx, CreateRequest{Game: "reversi", Clock: TimeControl{Kind: ClockFischer, Base: 60},
		Black: SeatSpec{Kind: SeatBot, Level: 10}})
	require.NoError(t, err)

	require.Eventually(t, func() bool {
		_, events, err := store.Load(ctx, v.ID)
		require.NoError(t, err)
		for _, e := range events {
			if e.Type == EvMove {
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "the bot played while the worker was busy")
	var quick dto.Metric
	require.NoError(t, metrics.botQuickMoves.Write(&quick))
	require.Equal(t, 1.0, quick.GetCounter().GetValue(), "counted as a quick move")
}

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

// A search whose deadline passes before it has a move (the job waited past it in the
// queue, or the kernel starved the worker) answers with the position's quick move when
// the job asks for one, and with the error otherwise; a cancelled search (made moot)
// never answers with a move.
func TestBotPoolQuickMove(t *testing.T) {
	pool := NewBotPool(1, 4)
	t.Cleanup(pool.Close)
	expired, cancelExpired := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelExpired()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	openings := map[string][]string{
		"reversi": {"f5", "d6", "c3", "d3", "c4"},
		"gomoku":  {"h8", "h9", "i9", "g7", "j10"},
	}
	cases := []struct {
		name    string
		ctx     context.Context
		quick   bool
		wantErr error
	}{
		{"deadline passed, quick", expired, true, nil},
		{"deadline passed, not quick", expired, false, context.DeadlineExceeded},
		{"cancelled, quick", cancelled, true, context.Canceled},
	}
	for game, moves := range openings {
		meta := Meta{Game: game}
		require.NoError(t, normalizeMeta(&meta))
		pos, err := newPosition(meta)
		require.NoError(t, err)
		kind, err := kindOf(game)
		require.NoError(t, err)
		for _, m := range moves {
			_, err := pos.play(m)
			require.NoError(t, err)
		}
		for _, tc := range cases {
			t.Run(game+"/"+tc.name, func(t *testing.T) {
				type answer struct {
					p   progress
					err error
				}
				got := make(chan answer, 1)
				require.True(t, pool.submit(botJob{ctx: tc.ctx, pos: pos.clone(), level: kind.info.MaxLevel, quick: tc.quick,
					done: func(p progress, _ time.Duration, err error) { got <- answer{p, err} }}))
				a := <-got
				if tc.wantErr != nil {
					require.ErrorIs(t, a.err, tc.wantErr)
					require.Empty(t, a.p.Best)
					return
				}
				require.NoError(t, a.err)
				require.True(t, a.p.Quick)
				_, err := pos.clone().play(a.p.Best)
				require.NoError(t, err, "the quick move %q is legal", a.p.Best)
			})
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

// A bot on a live clock whose search waited in the queue past its whole budget still
// moves at once (its quick move) when the worker comes free, instead of failing and
// trying again a second later while its clock runs.
func TestTimedBotMovesWhenItsSearchRanOutOfTime(t *testing.T) {
	bots := NewBotPool(1, 4)
	t.Cleanup(bots.Close)
	release := make(chan struct{})
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

	// The room's search is queued behind the stuck one; its 50 ms pass before it starts.
	require.Eventually(t, func() bool { return len(bots.jobs) == 1 }, 5*time.Second, time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	close(release)

	require.Eventually(t, func() bool {
		_, events, err := store.Load(ctx, v.ID)
		require.NoError(t, err)
		for _, e := range events {
			if e.Type == EvMove {
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "the bot played")
	var quick dto.Metric
	require.NoError(t, metrics.botQuickMoves.Write(&quick))
	require.Equal(t, 1.0, quick.GetCounter().GetValue(), "counted as a quick move")
}

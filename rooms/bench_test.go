package rooms

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/rooms/redistest"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// BenchmarkDecideMove measures what a room does per move before and after the store:
// decide a legal Reversi move (played once, on a copy, with the view after it) and take
// the next state, starting a new game whenever one ends (from the seated start).
func BenchmarkDecideMove(b *testing.B) {
	meta := Meta{ID: "bench", Game: "reversi", Size: 8, CreatedAt: t0}
	st, err := newRoomState(meta)
	if err != nil {
		b.Fatal(err)
	}
	take := func(cmd Command) {
		d, err := st.decide(cmd, t0.Add(time.Duration(st.version)*time.Second))
		if err != nil {
			b.Fatal(err)
		}
		_ = d.next.summary() // stored with the events
		for i := range d.public {
			_ = d.viewAfter(i, 0) // sent with each event
		}
		st = d.next
	}
	take(Command{Kind: CmdSit, Seat: Black, Name: "A", tokenHash: "a"})
	take(Command{Kind: CmdSit, Seat: White, Name: "B", tokenHash: "b"})
	start := st
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st.result != nil {
			st = start // a new game (a rematch is a new room now)
			continue
		}
		legal := st.game.legal()
		take(Command{Kind: CmdMove, Move: legal[i%len(legal)], actor: st.game.toMove()})
	}
}

// BenchmarkRedisAppend is one move's append on Redis, comparing the version alone and the
// whole head (the version and the last event's time, which the script reads back from the
// log): the price of refusing a write on a log the writer has not seen. Besides the round
// trip it reports Redis's own time per append script (INFO commandstats), which the
// machine's load disturbs far less.
func BenchmarkRedisAppend(b *testing.B) {
	ctx := context.Background()
	rdb := redistest.Client(b)
	s := NewRedisStore(rdb, DefaultTTLs)
	for _, byTime := range []bool{false, true} {
		name := "version"
		if byTime {
			name = "head"
		}
		b.Run(name, func(b *testing.B) {
			id := fmt.Sprintf("bench-append-%s-%d", name, time.Now().UnixNano())
			require.NoError(b, s.Create(ctx, testMeta(id), nil, Summary{ID: id}))
			var head Head
			require.NoError(b, rdb.ConfigResetStat(ctx).Err())
			for b.Loop() {
				e := moveEvent(head.Version+1, Black, "f5")
				e.Time = time.Now().UTC().Truncate(time.Millisecond)
				if err := s.Append(ctx, id, head, []Event{e}, Summary{ID: id}); err != nil {
					b.Fatal(err)
				}
				head.Version++
				if byTime {
					head.Time = e.Time
				}
			}
			b.ReportMetric(scriptMicros(b, rdb), "redis-µs/op")
		})
	}
}

// scriptMicros reads Redis's mean time per script call (eval or evalsha, whichever the
// Store sent) since the last CONFIG RESETSTAT.
func scriptMicros(b *testing.B, rdb *redis.Client) float64 {
	info, err := rdb.Info(context.Background(), "commandstats").Result()
	require.NoError(b, err)
	for line := range strings.Lines(info) {
		_, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if name := strings.TrimSuffix(strings.TrimSpace(line), ":"+rest); ok && (name == "cmdstat_eval" || name == "cmdstat_evalsha") {
			for field := range strings.SplitSeq(rest, ",") {
				if v, ok := strings.CutPrefix(field, "usec_per_call="); ok {
					f, err := strconv.ParseFloat(v, 64)
					require.NoError(b, err)
					return f
				}
			}
		}
	}
	b.Fatal("no eval or evalsha in INFO commandstats")
	return 0
}

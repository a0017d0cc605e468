package rooms

import (
	"testing"
	"time"
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

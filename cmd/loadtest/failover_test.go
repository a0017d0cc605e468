package main

import (
	"context"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// Failover test shape: 50 games, a few of them against a bot whose searches run on the
// node that is killed.
const (
	failoverHumanRooms = 46
	failoverBotRooms   = 4
	// failoverBotLevel is Reversi's strongest: its searches run to the nodes'
	// -bot-move-time cap, so a bot is thinking most of the time and A dies mid-search.
	failoverBotLevel = 10
	// failoverPace is the time between one room's moves: 230 moves a second over both
	// nodes, enough to have moves in flight at the kill without loading the machine.
	failoverPace = 200 * time.Millisecond
	// failoverMoves is how many acknowledged moves every human game makes before the
	// kill, and again after it.
	failoverMoves = 3
)

// TestFailover: two server processes on one Redis, 50 games in progress with the
// players of each game on both nodes (and four games against a bot, every client of
// which is on node A, so their bot searches run there). Node A is killed with SIGKILL.
// Its clients reconnect to node B by themselves and join again with their seat tokens
// and last seqs; every game goes on; every acknowledged move is in the room's record
// exactly once; and B picks up the bot games whose search died with A once A's leases
// lapse.
func TestFailover(t *testing.T) {
	rdb := redistest.Client(t)
	url := fmt.Sprintf("%s/%d", redistest.URL(t), rdb.Options().DB)
	flags := []string{"-redis-url", url, "-bot-pace", "0", "-bot-lease", "3s", "-bot-move-time", "1s", "-bot-workers", "2"}
	a := startNode(t, append(flags, "-node", "A")...)
	b := startNode(t, append(flags, "-node", "B")...)
	l, cfg := testLoad(t, "moves", []string{"-reconnect", "true", "-spectators", "1"}, a.addr, b.addr)
	require.True(t, cfg.reconnect)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	plans := l.humanPlans(failoverHumanRooms, 0) // black on node i%2, white on the other
	for range failoverBotRooms {
		plans = append(plans, roomPlan{botLevel: [2]int{0, failoverBotLevel}, spectators: 1, nodes: []int{0, 0, 0}})
	}
	rec := newRecorder()
	runs, err := l.setup(ctx, plans, rec, ctx)
	require.NoError(t, err)
	defer closeAll(runs)
	humans, bots := runs[:failoverHumanRooms], runs[failoverHumanRooms:]

	stopPlay := driveAll(ctx, runs, failoverPace)
	defer stopPlay()

	// Before the kill: every game has moves, and A's bots have played.
	for _, r := range humans {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return len(r.acked) >= failoverMoves }), "room %s before the kill", r.id)
	}
	for _, r := range bots {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return r.botMoves >= 1 }), "bot room %s before the kill", r.id)
	}
	require.Positive(t, metric(t, a.addr, metricBotSearches), "node A ran the bot searches")
	// Kill A while every bot game waits for its bot: searching on A, or queued there.
	require.NoError(t, waitAll(ctx, bots, func(r *roomRun) bool {
		return r.state.Status == "playing" && r.state.ToMove == "white"
	}), "every bot to move at once")

	// What each game had at the kill. A bot move that A stored in the last moment is
	// counted here or arrives with the rejoin; either way the bot move awaited below is
	// one that only B can make.
	marks := make([]struct{ acked, botMoves int }, len(runs))
	snapshot := func(i int, r *roomRun) {
		r.mu.Lock()
		marks[i].acked, marks[i].botMoves = len(r.acked), r.botMoves
		r.mu.Unlock()
	}
	for i, r := range bots {
		snapshot(failoverHumanRooms+i, r)
	}
	require.NoError(t, a.cmd.Process.Signal(syscall.SIGKILL))
	killed := time.Now()
	for i, r := range humans {
		snapshot(i, r)
	}

	// After the kill: every game goes on, the bot games included.
	for i, r := range humans {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return len(r.acked) >= marks[i].acked+failoverMoves }),
			"room %s after the kill", r.id)
	}
	for i, r := range bots {
		i += failoverHumanRooms
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return r.botMoves > marks[i].botMoves }),
			"bot room %s after the kill", r.id)
	}
	t.Logf("all %d games went on %.1fs after the kill, the %d bot games whose bot was to move on A included",
		len(runs), time.Since(killed).Seconds(), len(bots))
	stopPlay()

	// Every client of A is now on B, having come back by itself; B's never left.
	for _, r := range runs {
		for _, p := range r.peers() {
			if up, ch := p.isUp(); !up {
				select { // a spectator (whose game does not wait for it) may still be on its way
				case <-ch:
				case <-ctx.Done():
					t.Fatalf("room %s: a client did not come back", r.id)
				}
			}
			if p.firstNode == 0 && p.reconnects.Load() == 0 {
				t.Errorf("room %s: a client is still on the killed node", r.id)
			}
			require.Equal(t, int64(1), p.curNode.Load(), "room %s: every client ends on B", r.id)
		}
	}
	require.Positive(t, metric(t, b.addr, metricBotSearches), "node B took over bot searches")

	// Not one acknowledged move lost or doubled: each is in the room's record at its
	// seq, and no square is played twice in one game.
	for _, r := range runs {
		rec, err := l.api.room(ctx, b.addr, r.id)
		require.NoError(t, err)
		bySeq := map[int64]eventView{}
		for i, e := range rec.Events {
			require.Equal(t, int64(i+1), e.Seq, "room %s: the log has no gaps", r.id)
			bySeq[e.Seq] = e
		}
		r.mu.Lock()
		acked := append([]ackedMove(nil), r.acked...)
		r.mu.Unlock()
		for _, m := range acked {
			e, ok := bySeq[m.seq]
			require.True(t, ok, "room %s: acknowledged move %s at %d is lost", r.id, m.move, m.seq)
			require.Equal(t, ackedMove{m.seq, e.Seat, e.Move}, m, "room %s: event %d", r.id, m.seq)
		}
		played := map[string]bool{}
		for _, e := range rec.Events {
			switch e.Type {
			case "rematch", "undo": // a new game, or squares taken back
				clear(played)
			case "move":
				require.False(t, played[e.Move], "room %s: %s stored twice in one game", r.id, e.Move)
				played[e.Move] = true
			}
		}
	}
	require.Zero(t, rec.errors["bad_frame"])
}

// waitAll waits until cond holds for every room at once.
func waitAll(ctx context.Context, runs []*roomRun, cond func(r *roomRun) bool) error {
	for {
		var waitOn *roomRun
		for _, r := range runs {
			r.mu.Lock()
			ok := cond(r)
			r.mu.Unlock()
			if !ok {
				waitOn = r
				break
			}
		}
		if waitOn == nil {
			return nil
		}
		// The condition needs this room to change first; then look at them all again.
		waitOn.mu.Lock()
		ok, changed := cond(waitOn), waitOn.changed
		waitOn.mu.Unlock()
		if ok {
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// metric reads one metric of a node.
func metric(t *testing.T, addr, name string) float64 {
	t.Helper()
	m, err := scrape(context.Background(), http.DefaultClient, addr)
	require.NoError(t, err)
	return m[name]
}

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms"
	"github.com/boardhall/boardhall/rooms/redistest"
)

// Partition test shape: a few games, each making moves through the partition.
const (
	partitionRooms = 8
	// partitionPace is the time between one room's moves: 40 moves a second in all.
	partitionPace = 200 * time.Millisecond
	// partitionMoves is how many moves every game has acknowledged before the cut, has
	// acknowledged (without WAIT) or been refused (with WAIT) during it, and acknowledges
	// after the failover.
	partitionMoves = 2
)

// TestRedisPartition is the failover that loses acknowledged moves, as it happens in
// production: the replica is cut off from the master by a network partition (a proxy on
// the replication connection stops carrying bytes, while the Sentinels still reach both),
// the servers go on playing on the master, and then the master's process is killed with
// SIGKILL. The Sentinels promote the replica, which never received the partition's moves.
//
// Without WAIT the moves acknowledged during the partition are gone: the test requires
// that some were lost and reports how many, and that the players see their room's log go
// back (a full join whose state is older than what they had seen) and play on from there
// by themselves. With REDIS_WAIT_REPLICAS=1 the partition's moves are not acknowledged:
// the players are answered with an error (the master stored them, the replica did not
// confirm), and not one acknowledged move is lost; the moves the master stored anyway
// and showed are lost as well, so the players may see the log go back too.
func TestRedisPartition(t *testing.T) {
	for _, wait := range []bool{false, true} {
		name := "no-wait"
		if wait {
			name = "wait"
		}
		t.Run(name, func(t *testing.T) { testRedisPartition(t, wait) })
	}
}

func testRedisPartition(t *testing.T, wait bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	sen := redistest.StartPartitionableSentinel(t, "--appendonly", "yes")
	flags := []string{"-bot-pace", "0", "-redis-sentinel-addrs", strings.Join(sen.Addrs(), ","), "-redis-sentinel-master", sen.Master}
	if wait {
		flags = append(flags, "-redis-wait-replicas", "1")
	}
	a := startNode(t, append(flags, "-node", "A")...)
	b := startNode(t, append(flags, "-node", "B")...)
	// Black on one node, white on the other; no spectators: the players' own views are
	// what this test follows.
	l, _ := testLoad(t, "moves", []string{"-reconnect", "true", "-spectators", "0"}, a.addr, b.addr)
	plans := l.humanPlans(partitionRooms, 0)
	rec := newRecorder()
	runs, err := l.setup(ctx, plans, rec, ctx)
	require.NoError(t, err)
	defer closeAll(runs)

	play := func() (stop func()) { return driveAll(ctx, runs, partitionPace) }
	type mark struct{ acked, failures int }
	marks := func() []mark {
		m := make([]mark, len(runs))
		for i, r := range runs {
			r.mu.Lock()
			m[i] = mark{len(r.acked), r.failures}
			r.mu.Unlock()
		}
		return m
	}

	stop := play()
	for _, r := range runs {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return len(r.acked) >= partitionMoves }), "room %s before the cut", r.id)
	}

	// The partition. Every game goes on: without WAIT its moves are acknowledged by the
	// master alone; with WAIT they are answered with an error once the replica does not
	// confirm them.
	sen.Link.Cut()
	cut := marks()
	for i, r := range runs {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool {
			if wait {
				return r.failures >= cut[i].failures+partitionMoves
			}
			return len(r.acked) >= cut[i].acked+partitionMoves
		}), "room %s during the partition", r.id)
	}
	stop()
	atKill := marks()
	ackedInPartition := 0
	seen := make([]int64, len(runs)) // the version each room's players saw last
	for i, r := range runs {
		ackedInPartition += atKill[i].acked - cut[i].acked
		st, _ := r.current()
		seen[i] = st.Version
	}

	// The master dies; the Sentinels promote the replica, still cut off.
	old := sen.Data[0]
	old.Stop()
	killed := time.Now()
	var promoted *redistest.Server
	require.NoError(t, poll(ctx, func() error {
		m, err := sen.CurrentMaster(ctx)
		if err == nil && m == old {
			err = fmt.Errorf("the sentinels still name the killed master")
		}
		promoted = m
		return err
	}), "the replica is promoted")
	promotedAfter := time.Since(killed)
	// A node follows the Sentinel it subscribed to, which may learn of the promotion up to
	// 2 s after the first one, and until then writes to the old master's address. Started
	// again in that window, the old master would take those moves as a master until the
	// Sentinels make it a replica, and they would be lost (docs/operations.md: a restart
	// during a failover). A supervisor that restarts it at once races the Sentinels; here
	// it comes back once they all name the new master.
	require.NoError(t, poll(ctx, func() error { return sen.AllName(ctx, promoted) }), "every Sentinel names the promoted replica")

	// What the promoted master has of every acknowledged move, before anyone plays again.
	promotedClient := redis.NewClient(&redis.Options{Addr: promoted.Addr()})
	defer promotedClient.Close()
	store := rooms.NewRedisStore(promotedClient, rooms.DefaultTTLs)
	lost, lostPerRoom, _ := lostMoves(ctx, t, store, runs, nil)
	// Events the players had seen (moves, and passes the server stored with them) that the
	// promoted master does not have.
	vanished := 0
	for i, r := range runs {
		_, events, err := store.Load(ctx, r.id)
		require.NoError(t, err)
		vanished += int(seen[i]) - len(events)
	}
	sen.Link.Heal()
	// The killed master comes back, as a supervisor would start it, and joins as a replica
	// (with WAIT, play waits for it).
	require.NoError(t, old.Restart())

	// Every game goes on by itself: a player whose move is refused as stale (the room is
	// behind what the client saw) joins again and takes the room's state.
	resume := marks()
	stop = play()
	defer stop()
	for i, r := range runs {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return len(r.acked) >= resume[i].acked+partitionMoves }),
			"room %s after the failover", r.id)
	}
	resumedAfter := time.Since(killed)
	stop()

	// Nothing acknowledged after the failover is lost, with or without WAIT.
	since := make([]int, len(runs))
	wentBack := 0
	for i, r := range runs {
		since[i] = resume[i].acked
		r.mu.Lock()
		wentBack += r.wentBack
		r.mu.Unlock()
	}
	final := rooms.NewRedisStore(sen.Client(t), rooms.DefaultTTLs)
	lostAfter, _, _ := lostMoves(ctx, t, final, runs, since)
	// Every player still hears its room: each has seen its last event (given a moment for
	// events in flight). A room that reloads after the loss tells its watchers to join
	// again (resync); one that forgot them would leave the players who were never refused
	// deaf to their game.
	lasts := make([]int64, len(runs))
	for i, r := range runs {
		_, events, err := final.Load(ctx, r.id)
		require.NoError(t, err)
		lasts[i] = int64(len(events))
	}
	countBehind := func() (n int) {
		for i, r := range runs {
			for _, p := range r.peers() {
				if p.lastSeq.Load() < lasts[i] {
					n++
				}
			}
		}
		return n
	}
	waitCtx, cancelWait := context.WithTimeout(ctx, 3*time.Second)
	poll(waitCtx, func() error {
		if countBehind() > 0 {
			return fmt.Errorf("players behind")
		}
		return nil
	})
	cancelWait()
	behind := countBehind()
	_, _, errs := rec.take()
	t.Logf("WAIT %v: %d moves acknowledged before the cut, %d during the partition; promoted %.1fs after the kill; "+
		"%d acknowledged moves lost (per room %v), %d events the players had seen gone; %d times a room's log went back for a player; "+
		"every game moving again %.1fs after the kill; %d of %d players no longer hear their room; errors %v",
		wait, sum(cut, func(m mark) int { return m.acked }), ackedInPartition, promotedAfter.Seconds(),
		lost, lostPerRoom, vanished, wentBack, resumedAfter.Seconds(), behind, 2*len(runs), errs)
	require.Zero(t, lostAfter, "moves acknowledged after the failover are kept")
	require.Zero(t, behind, "every player still hears its room")
	if wait {
		// The partition's moves were refused, but the master had stored them and its
		// servers showed them to the players as events (a retry finds the stored move and
		// shows it): those vanish at the failover too, so a room's log may still go back
		// for a player. What WAIT promises is that nothing acknowledged does.
		require.Zero(t, lost, "with WAIT no acknowledged move is lost")
		require.Zero(t, ackedInPartition, "with WAIT no move is acknowledged during the partition")
		return
	}
	// Without WAIT, the moves acknowledged during the partition (2 or more a game) are
	// lost, save perhaps one a game that reached the replica before the cut.
	require.GreaterOrEqual(t, lost, ackedInPartition-len(runs), "without WAIT the partition's moves are lost")
	require.Positive(t, lost)
	require.Positive(t, wentBack, "the players saw the log go back")
}

// lostMoves counts the acknowledged moves (of each room, from index since[i] of its
// acknowledged list; all with since nil) that store does not have at their seq.
func lostMoves(ctx context.Context, t *testing.T, store rooms.Store, runs []*roomRun, since []int) (lost int, perRoom []int, which []string) {
	t.Helper()
	perRoom = make([]int, len(runs))
	for i, r := range runs {
		_, events, err := store.Load(ctx, r.id)
		require.NoError(t, err)
		bySeq := map[int64]rooms.Event{}
		for _, e := range events {
			bySeq[e.Seq] = e
		}
		r.mu.Lock()
		acked := append([]ackedMove(nil), r.acked...)
		r.mu.Unlock()
		if since != nil {
			acked = acked[since[i]:]
		}
		for _, m := range acked {
			if e, ok := bySeq[m.seq]; !ok || e.Move != m.move || string(e.Seat) != m.seat {
				perRoom[i]++
				which = append(which, fmt.Sprintf("%s #%d %s %s", r.id, m.seq, m.seat, m.move))
			}
		}
		lost += perRoom[i]
	}
	return lost, perRoom, which
}

// sum adds f over xs.
func sum[T any](xs []T, f func(T) int) int {
	n := 0
	for _, x := range xs {
		n += f(x)
	}
	return n
}

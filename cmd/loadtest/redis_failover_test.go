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

// Redis failover test shape: a few games on two nodes, enough moves in flight at the kill.
const (
	redisFailoverRooms = 16
	// redisFailoverPace is the time between one room's moves: 80 moves a second in all.
	redisFailoverPace = 200 * time.Millisecond
	// redisFailoverMoves is how many acknowledged moves every game makes before the kill,
	// and again after it.
	redisFailoverMoves = 3
)

// TestRedisFailover: two server nodes on a Sentinel set or a Redis Cluster (appendonly
// yes), games in progress, and the Redis master (for the Cluster, the master of the first
// room's slot) is killed with SIGKILL. The Sentinels or the Cluster promote its replica; the nodes
// find the new master by themselves and every game goes on (moves meanwhile are answered
// unavailable and retried by the players). The killed server is then started again, as a
// supervisor would (for Sentinel, once every Sentinel names the new master), and comes
// back as a replica. With REDIS_WAIT_REPLICAS=1 not one
// acknowledged move may be lost; without it the test logs what was lost (replication is
// asynchronous: an acknowledged move the replica had not copied is gone).
func TestRedisFailover(t *testing.T) {
	for _, tc := range []struct {
		topology string
		wait     bool
	}{
		{"sentinel", true},
		{"sentinel", false},
		{"cluster", true},
		{"cluster", false},
	} {
		name := tc.topology + "/wait"
		if !tc.wait {
			name = tc.topology + "/no-wait"
		}
		t.Run(name, func(t *testing.T) { testRedisFailover(t, tc.topology, tc.wait) })
	}
}

func testRedisFailover(t *testing.T, topology string, wait bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	flags := []string{"-bot-pace", "0"}
	if wait {
		flags = append(flags, "-redis-wait-replicas", "1")
	}
	// killMaster kills the master and returns a function that waits for the promotion
	// and starts the killed server again.
	var killMaster func(roomID string) (promoted func() error)
	var store rooms.Store // the truth: what Redis holds
	var rdb redis.UniversalClient
	switch topology {
	case "sentinel":
		sen := redistest.StartSentinel(t, "--appendonly", "yes")
		rdb = sen.Client(t)
		store = rooms.NewRedisStore(rdb, rooms.DefaultTTLs)
		flags = append(flags, "-redis-sentinel-addrs", strings.Join(sen.Addrs(), ","), "-redis-sentinel-master", sen.Master)
		killMaster = func(string) func() error {
			m, err := sen.CurrentMaster(ctx)
			require.NoError(t, err)
			m.Stop()
			return func() error {
				// The old master comes back only once every Sentinel names the new
				// one: nodes that follow a Sentinel still naming the old address would
				// write to it as a master, and lose those moves when it is made a
				// replica (TestRedisPartition; docs/operations.md, a restart during a
				// failover). The test measures the failover, not that race.
				if err := poll(ctx, func() error {
					now, err := sen.CurrentMaster(ctx)
					if err == nil && now == m {
						err = fmt.Errorf("sentinels still name %s", m.Addr())
					}
					if err == nil {
						err = sen.AllName(ctx, now)
					}
					return err
				}); err != nil {
					return err
				}
				return m.Restart()
			}
		}
	case "cluster":
		cl := redistest.StartCluster(t, "--appendonly", "yes")
		rdb = cl.Client(t)
		store = rooms.NewRedisStore(rdb, rooms.DefaultTTLs)
		flags = append(flags, "-redis-cluster-addrs", strings.Join(cl.Addrs(), ","))
		killMaster = func(roomID string) func() error {
			key := "room:{" + roomID + "}"
			m, err := cl.MasterOf(ctx, key)
			require.NoError(t, err)
			m.Stop()
			return func() error {
				if err := poll(ctx, func() error {
					now, err := cl.MasterOf(ctx, key)
					if err == nil && now == m {
						err = fmt.Errorf("the cluster still names %s", m.Addr())
					}
					return err
				}); err != nil {
					return err
				}
				return m.Restart()
			}
		}
	}
	a := startNode(t, append(flags, "-node", "A")...)
	b := startNode(t, append(flags, "-node", "B")...)
	l, _ := testLoad(t, "moves", []string{"-reconnect", "true", "-spectators", "1"}, a.addr, b.addr)

	// Black on one node, white and the spectator on the other: a move stored but
	// answered unavailable (the connection lost mid-command, or WAIT unconfirmed) is found
	// again by the node that retries, and the other node catches up by itself.
	plans := l.humanPlans(redisFailoverRooms, 0)
	rec := newRecorder()
	runs, err := l.setup(ctx, plans, rec, ctx)
	require.NoError(t, err)
	defer closeAll(runs)
	stopPlay := driveAll(ctx, runs, redisFailoverPace)
	defer stopPlay()
	for _, r := range runs {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return len(r.acked) >= redisFailoverMoves }), "room %s before the kill", r.id)
	}

	promoted := killMaster(runs[0].id)
	killed := time.Now()
	marks := make([]int, len(runs))
	for i, r := range runs {
		r.mu.Lock()
		marks[i] = len(r.acked)
		r.mu.Unlock()
	}
	require.NoError(t, promoted(), "the replica is promoted and the old master comes back")
	promotedAfter := time.Since(killed)

	// Every game goes on by itself. Without WAIT a game whose last acknowledged move
	// was lost may be stuck (its nodes hold a version the store no longer has): those
	// are counted, not awaited.
	resumeCtx, cancelResume := context.WithTimeout(ctx, 30*time.Second)
	defer cancelResume()
	stuck := 0
	for i, r := range runs {
		err := r.waitUntil(resumeCtx, func(r *roomRun) bool { return len(r.acked) >= marks[i]+redisFailoverMoves })
		if err != nil {
			stuck++
			st, _ := r.current()
			var versions []string
			for _, n := range []*node{a, b} {
				if got, err := l.api.room(ctx, n.addr, r.id); err == nil {
					versions = append(versions, fmt.Sprintf("node %s shows %d events", n.addr, len(got.Events)))
				}
			}
			if _, events, err := store.Load(ctx, r.id); err == nil {
				v, _ := rdb.HGet(ctx, "room:{"+r.id+"}", "version").Result()
				versions = append(versions, fmt.Sprintf("Redis holds %d at version %s", len(events), v))
			} else {
				versions = append(versions, fmt.Sprintf("Redis: %v", err))
			}
			t.Logf("room %s stuck: its clients see version %d (%s to move, %s); %v", r.id, st.Version, st.ToMove, st.Status, versions)
		}
	}
	resumed := time.Since(killed)
	stopPlay()

	// Every acknowledged move is in Redis at its seq.
	lost, _, lostList := lostMoves(ctx, t, store, runs, nil)
	_, _, errs := rec.take()
	acked := 0
	for _, r := range runs {
		r.mu.Lock()
		acked += len(r.acked)
		r.mu.Unlock()
	}
	t.Logf("%s, WAIT %v: master killed; promoted and restarted after %.1fs; every game moving again after %.1fs; "+
		"%d moves acknowledged, %d lost %v, %d games stuck; errors %v",
		topology, wait, promotedAfter.Seconds(), resumed.Seconds(), acked, lost, lostList, stuck, errs)
	if wait {
		require.Zero(t, lost, "with WAIT no acknowledged move is lost: %v", lostList)
		require.Zero(t, stuck, "with WAIT every game goes on")
	}
}

// poll calls f until it returns nil or ctx ends (then with f's last error).
func poll(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond): // polling processes we do not control
		}
	}
}

package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/boardhall/boardhall/rooms"
)

// appendPool is the Redis connection pool of the append mode: the server's own
// (cmd/server's defaultRedisPool), so that as many appends share Redis's fsyncs.
const appendPool = 128

// AppendResult is the latency of the Store's compare-and-set append alone, at a fixed
// rate over many rooms, without the server, its sockets or the clients: the Redis share
// of a move's latency.
type AppendResult struct {
	Target     string           `json:"target"`
	Rooms      int              `json:"rooms"`
	Wait       int              `json:"waitReplicas"`
	Seconds    float64          `json:"seconds"`
	TargetRate float64          `json:"targetAppendsPerSecond"`
	Rate       float64          `json:"appendsPerSecond"`
	Latency    Latency          `json:"latency"`
	Errors     map[string]int64 `json:"errors"`
}

func (r AppendResult) writeText(w io.Writer) {
	l := r.Latency
	fmt.Fprintf(w, "append: %s, %d rooms, WAIT %d: %.0f appends/s (target %.0f) over %.0fs\n",
		r.Target, r.Rooms, r.Wait, r.Rate, r.TargetRate, r.Seconds)
	fmt.Fprintf(w, "  latency  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms\n", l.P50, l.P90, l.P99, l.Max)
	if len(r.Errors) > 0 {
		fmt.Fprintf(w, "  errors   %v\n", r.Errors)
	}
}

// appendLatency creates cfg.rooms rooms in the Redis of cfg.redis (a URL, or host:port
// list of a Cluster after "cluster:") and appends one move event to each in turn, at
// cfg.rate appends per second in all (each room one append in flight), for the warm-up
// and then cfg.duration, timing each Store.Append.
func appendLatency(ctx context.Context, cfg config, log io.Writer) (AppendResult, error) {
	res := AppendResult{Target: cfg.redis, Rooms: cfg.rooms, Wait: cfg.waitReplicas, TargetRate: cfg.rate, Errors: map[string]int64{}}
	var rdb redis.UniversalClient
	if addrs, ok := strings.CutPrefix(cfg.redis, "cluster:"); ok {
		rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(addrs, ","), PoolSize: appendPool})
	} else {
		opt, err := redis.ParseURL(cfg.redis)
		if err != nil {
			return res, fmt.Errorf("loadtest: -redis %q: %v", cfg.redis, err)
		}
		opt.PoolSize = appendPool
		rdb = redis.NewClient(opt)
	}
	defer rdb.Close()
	var opts []rooms.RedisOption
	if cfg.waitReplicas > 0 {
		opts = append(opts, rooms.WaitForReplicas(cfg.waitReplicas, 500*time.Millisecond))
	}
	store := rooms.NewRedisStore(rdb, rooms.DefaultTTLs, opts...)
	now := time.Now().UTC()
	prefix := "loadtest-" + strconv.FormatInt(now.UnixNano(), 36) + "-"
	ids := make([]string, cfg.rooms)
	for i := range ids {
		ids[i] = prefix + strconv.Itoa(i)
		sum := rooms.Summary{ID: ids[i], Game: "reversi", Status: rooms.StatusPlaying, UpdatedAt: now}
		if err := store.Create(ctx, rooms.Meta{ID: ids[i], Game: "reversi", Size: 8, CreatedAt: now}, nil, sum); err != nil {
			return res, fmt.Errorf("loadtest: create: %v", err)
		}
	}
	fmt.Fprintf(log, "loadtest: append: %d rooms created in %s\n", cfg.rooms, cfg.redis)

	var mu sync.Mutex
	var lat []time.Duration
	measureFrom := time.Now().Add(cfg.warmup)
	end := measureFrom.Add(cfg.duration)
	every := time.Duration(float64(cfg.rooms) / cfg.rate * float64(time.Second))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := time.Now().Add(every * time.Duration(i) / time.Duration(len(ids)))
			var version int64
			for {
				time.Sleep(time.Until(next))
				if ctx.Err() != nil || time.Now().After(end) {
					return
				}
				seat := rooms.Black
				if version%2 == 1 {
					seat = rooms.White
				}
				t := time.Now()
				ev := rooms.Event{Seq: version + 1, Type: rooms.EvMove, Time: t.UTC(), Seat: seat, Move: "f5"}
				err := store.Append(ctx, id, rooms.Head{Version: version}, []rooms.Event{ev},
					rooms.Summary{ID: id, Game: "reversi", Status: rooms.StatusPlaying, UpdatedAt: t.UTC(), Plies: int(version + 1)})
				d := time.Since(t)
				mu.Lock()
				switch {
				case err != nil && t.After(measureFrom):
					res.Errors[errorCode(err)]++
				case err == nil && t.After(measureFrom):
					lat = append(lat, d)
				}
				mu.Unlock()
				if err == nil {
					version++
				}
				next = next.Add(every)
				if now := time.Now(); next.Before(now) {
					next = now // behind: go on at once, but do not burst to catch up
				}
			}
		}()
	}
	wg.Wait()
	res.Seconds = cfg.duration.Seconds()
	res.Latency = summarize(lat)
	res.Rate = float64(len(lat)) / res.Seconds
	return res, nil
}

// loopbackRedis refuses a -redis that is not on this machine's loopback, as -addr does.
func loopbackRedis(target string) error {
	var addrs []string
	if list, ok := strings.CutPrefix(target, "cluster:"); ok {
		addrs = strings.Split(list, ",")
	} else {
		opt, err := redis.ParseURL(target)
		if err != nil {
			return fmt.Errorf("loadtest: -redis %q: %v", target, err)
		}
		addrs = []string{opt.Addr}
	}
	for _, a := range addrs {
		if _, err := checkLoopback(strings.TrimSpace(a)); err != nil {
			return err
		}
	}
	return nil
}

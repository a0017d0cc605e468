package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/boardhall/boardhall/rooms"
)

// Redis client timeouts: fail fast during an outage, so that rooms answer `unavailable`
// within a couple of seconds instead of hanging, and go-redis reconnects by itself.
const (
	redisDialTimeout = time.Second
	redisIOTimeout   = time.Second
	// redisStartCheck bounds the check at start that Redis answers.
	redisStartCheck = 5 * time.Second
)

// badBackend is a Redis setting that cannot be used: main prints it as one line.
type badBackend struct{ err error }

func (b badBackend) Error() string { return b.err.Error() }
func (b badBackend) Unwrap() error { return b.err }

// openBackend returns the Store and Broker the configuration asks for. A Redis setting
// that cannot be parsed, or a Redis that does not answer at start, is an error that
// names the setting.
func openBackend(cfg Config, log *slog.Logger) (rooms.Store, rooms.Broker, func(), error) {
	ttls := rooms.TTLs{Finished: cfg.FinishedTTL, Idle: cfg.IdleTTL, Waiting: cfg.WaitingTTL}
	if !cfg.usesRedis() {
		return rooms.NewMemoryStore(ttls), rooms.NewMemoryBroker(), func() {}, nil
	}
	rdb, setting, err := newRedisClient(cfg)
	if err != nil {
		return nil, nil, nil, badBackend{err}
	}
	// Quiet while checking at start: a failed check is reported in one line below, not
	// also as the client's retry warnings.
	redis.SetLogger(discardLogger{})
	var opts []rooms.RedisOption
	if cfg.Redis.WaitReplicas > 0 {
		opts = append(opts, rooms.WaitForReplicas(cfg.Redis.WaitReplicas, cfg.Redis.WaitTimeout))
	}
	store := rooms.NewRedisStore(rdb, ttls, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), redisStartCheck)
	defer cancel()
	if err := store.Ping(ctx); err != nil {
		rdb.Close()
		reason := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "rooms: redis ping: "), rooms.ErrUnavailable.Error()+": ")
		return nil, nil, nil, badBackend{fmt.Errorf("%s: Redis not ready: %s", setting, reason)}
	}
	redis.SetLogger(redisLogger{log})
	broker := rooms.NewRedisBroker(rdb, log)
	return store, broker, func() { broker.Close(); rdb.Close() }, nil
}

// newRedisClient builds the client for REDIS_URL, REDIS_SENTINEL_ADDRS or
// REDIS_CLUSTER_ADDRS, and names the setting it used (for error messages).
func newRedisClient(cfg Config) (redis.UniversalClient, string, error) {
	r := cfg.Redis
	switch {
	case len(r.SentinelAddrs) > 0:
		setting := "REDIS_SENTINEL_ADDRS=" + strings.Join(r.SentinelAddrs, ",") + " REDIS_SENTINEL_MASTER=" + r.SentinelMaster
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: r.SentinelMaster, SentinelAddrs: r.SentinelAddrs, Password: r.Password,
			PoolSize: r.PoolSize, MaxRetries: 1,
			DialTimeout: redisDialTimeout, ReadTimeout: redisIOTimeout, WriteTimeout: redisIOTimeout,
		}), setting, nil
	case len(r.ClusterAddrs) > 0:
		setting := "REDIS_CLUSTER_ADDRS=" + strings.Join(r.ClusterAddrs, ",")
		return redis.NewClusterClient(&redis.ClusterOptions{
			Addrs: r.ClusterAddrs, Password: r.Password,
			PoolSize: r.PoolSize, MaxRetries: 1,
			DialTimeout: redisDialTimeout, ReadTimeout: redisIOTimeout, WriteTimeout: redisIOTimeout,
		}), setting, nil
	}
	setting := "REDIS_URL=" + cfg.RedisURL
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, setting, fmt.Errorf("%s: %v", setting, err)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = redisDialTimeout, redisIOTimeout, redisIOTimeout
	opt.MaxRetries = 1
	if !strings.Contains(cfg.RedisURL, "pool_size=") {
		// Commands from many rooms at once: with appendfsync always Redis fsyncs once
		// per event-loop turn for all the writes that arrived together, so more
		// connections mean more moves per fsync (docs/benchmarks.md, Scale); go-redis's
		// default (10 per CPU) starves a busy node on a durable Redis.
		opt.PoolSize = r.PoolSize
	}
	return redis.NewClient(opt), setting, nil
}

// discardLogger drops go-redis's own messages.
type discardLogger struct{}

func (discardLogger) Printf(context.Context, string, ...any) {}

// redisLogger sends go-redis's own messages (reconnection attempts during an outage) to
// the server's structured log instead of the standard logger.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.Warn("redis client", "detail", fmt.Sprintf(format, v...))
}

package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/rooms"
)

// Config is the server's configuration: each setting is a flag, and an environment
// variable when the flag is not given. docs/operations.md lists them.
type Config struct {
	Addr              string
	RedisURL          string
	Redis             RedisConfig
	Node              string
	AllowedOrigins    []string
	MaxMessageBytes   int64
	MessagesPerSecond float64
	MessageBurst      int
	MaxConnsPerIP     int
	SendQueue         int
	BotWorkers        int
	BotQueue          int
	BotMoveTime       time.Duration
	BotPace           time.Duration
	BotLease          time.Duration
	ClaimGrace        time.Duration
	PairWait          time.Duration
	FinishedTTL       time.Duration
	IdleTTL           time.Duration
	WaitingTTL        time.Duration
	RoomsPerMinute    int
	ShutdownGrace     time.Duration
	LogLevel          slog.Level
}

// RedisConfig is how to reach Redis besides REDIS_URL: through Sentinel or as a Cluster,
// and how many replicas must have a move before it is acknowledged.
type RedisConfig struct {
	// SentinelAddrs are the Sentinels' host:port; with SentinelMaster they make the node
	// use a failover client that follows the master Sentinel names.
	SentinelAddrs  []string
	SentinelMaster string
	// ClusterAddrs are some of a Redis Cluster's nodes (host:port); the client learns the
	// rest from them.
	ClusterAddrs []string
	// Password authenticates to the Redis servers of Sentinel and Cluster set-ups (REDIS_URL
	// carries its own).
	Password string
	// WaitReplicas is how many replicas must confirm a stored move (Redis WAIT) before it
	// is acknowledged; 0 acknowledges once the master has it.
	WaitReplicas int
	// WaitTimeout bounds that wait; a move not confirmed in time is answered unavailable.
	WaitTimeout time.Duration
	// PoolSize is the node's Redis connections per server (per master on a Cluster),
	// unless REDIS_URL sets pool_size. Each is a file descriptor beside the sockets.
	PoolSize int
}

func (c Config) storeName() string {
	switch {
	case len(c.Redis.SentinelAddrs) > 0:
		return "redis-sentinel"
	case len(c.Redis.ClusterAddrs) > 0:
		return "redis-cluster"
	case c.RedisURL != "":
		return "redis"
	}
	return "memory"
}

// usesRedis reports whether any Redis setting was given.
func (c Config) usesRedis() bool { return c.storeName() != "memory" }

// maxWaitTimeout keeps the replica wait, which rides in the append's pipeline, inside the
// Redis client's 1 s read timeout, with room for the append itself.
const maxWaitTimeout = 800 * time.Millisecond

// defaultBotWorkers leaves a core for the sockets on a small machine: bots must never
// starve people.
func defaultBotWorkers() int { return max(1, runtime.NumCPU()-1) }

// stderr receives the flag package's usage text (tests silence it).
var stderr io.Writer = os.Stderr

// loadConfig reads flags from args, falling back to the environment through getenv.
func loadConfig(args []string, getenv func(string) string) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: server [flags]\n\nEvery flag may also be set by the environment variable named after it.")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nSettings, Redis (single, Sentinel, Cluster), several nodes and sizing: docs/operations.md")
	}
	var origins, logLevel, sentinels, cluster string
	fs.StringVar(&c.Addr, "addr", env("ADDR", ":8080"), "listen address (ADDR); 127.0.0.1:8080 for this machine only")
	fs.StringVar(&c.RedisURL, "redis-url", env("REDIS_URL", ""), "Redis URL, e.g. redis://localhost:6379/0; empty: rooms in memory (REDIS_URL)")
	fs.StringVar(&sentinels, "redis-sentinel-addrs", env("REDIS_SENTINEL_ADDRS", ""), "comma-separated Redis Sentinels, host:port (REDIS_SENTINEL_ADDRS)")
	fs.StringVar(&c.Redis.SentinelMaster, "redis-sentinel-master", env("REDIS_SENTINEL_MASTER", ""), "the master's name at the Sentinels (REDIS_SENTINEL_MASTER)")
	fs.StringVar(&cluster, "redis-cluster-addrs", env("REDIS_CLUSTER_ADDRS", ""), "comma-separated Redis Cluster nodes, host:port (REDIS_CLUSTER_ADDRS)")
	fs.StringVar(&c.Redis.Password, "redis-password", env("REDIS_PASSWORD", ""), "password of the Sentinel's or Cluster's Redis servers (REDIS_PASSWORD)")
	fs.StringVar(&c.Node, "node", env("NODE_ID", ""), "this node's name among several (NODE_ID; random when empty)")
	fs.StringVar(&origins, "allowed-origins", env("ALLOWED_ORIGINS", ""), "comma-separated extra origins allowed to open WebSockets (ALLOWED_ORIGINS)")
	fs.StringVar(&logLevel, "log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (LOG_LEVEL)")

	// The numeric flags take their environment variable after registration (below), so
	// that a bad value is reported like a bad flag.
	type envFlag struct{ env, flag string }
	var envFlags []envFlag
	intVar := func(p *int, name, envName string, def int, usage string) {
		fs.IntVar(p, name, def, usage+" ("+envName+")")
		envFlags = append(envFlags, envFlag{envName, name})
	}
	durVar := func(p *time.Duration, name, envName string, def time.Duration, usage string) {
		fs.DurationVar(p, name, def, usage+" ("+envName+")")
		envFlags = append(envFlags, envFlag{envName, name})
	}
	var maxMsg int
	intVar(&maxMsg, "max-message-bytes", "MAX_MESSAGE_BYTES", 4096, "largest WebSocket frame a client may send")
	fs.Float64Var(&c.MessagesPerSecond, "messages-per-second", 20, "messages per second one connection may send (MESSAGES_PER_SECOND)")
	envFlags = append(envFlags, envFlag{"MESSAGES_PER_SECOND", "messages-per-second"})
	intVar(&c.MessageBurst, "message-burst", "MESSAGE_BURST", 40, "burst of messages above the rate")
	intVar(&c.MaxConnsPerIP, "max-conns-per-ip", "MAX_CONNS_PER_IP", 256, "open WebSockets allowed per client address (negative: no limit)")
	intVar(&c.SendQueue, "send-queue", "SEND_QUEUE", 128, "messages queued for a slow client before it is dropped")
	intVar(&c.BotWorkers, "bot-workers", "BOT_WORKERS", defaultBotWorkers(), "bot searches run at once")
	intVar(&c.BotQueue, "bot-queue", "BOT_QUEUE", 1024, "bot searches waiting for a worker before more are refused")
	durVar(&c.BotMoveTime, "bot-move-time", "BOT_MOVE_TIME", 5*time.Second, "time cap of one bot move")
	durVar(&c.BotPace, "bot-pace", "BOT_PACE", 600*time.Millisecond, "least time per move in bot-vs-bot games")
	durVar(&c.BotLease, "bot-lease", "BOT_LEASE", 15*time.Second, "how long a node's claim on a bot search lasts unrenewed")
	durVar(&c.ClaimGrace, "claim-grace", "CLAIM_GRACE", 0, "how long a player may be gone before the opponent may claim the game (0: 15 s to 60 s by the time control)")
	durVar(&c.PairWait, "pair-wait", "PAIR_WAIT", 30*time.Second, "how long quick pairing looks for an opponent before it offers a bot")
	durVar(&c.FinishedTTL, "finished-ttl", "FINISHED_TTL", rooms.DefaultTTLs.Finished, "how long a finished room is kept")
	durVar(&c.IdleTTL, "idle-ttl", "IDLE_TTL", rooms.DefaultTTLs.Idle, "how long an unfinished room is kept without activity")
	durVar(&c.WaitingTTL, "waiting-ttl", "WAITING_TTL", rooms.DefaultTTLs.Waiting, "how long a room waiting for a player, with no move, is kept without activity")
	intVar(&c.RoomsPerMinute, "rooms-per-minute", "ROOMS_PER_MINUTE", 10, "rooms one client address may create a minute (HTTP 429 beyond)")
	durVar(&c.ShutdownGrace, "shutdown-grace", "SHUTDOWN_GRACE", 10*time.Second, "time to finish up on SIGTERM")
	intVar(&c.Redis.WaitReplicas, "redis-wait-replicas", "REDIS_WAIT_REPLICAS", 0, "replicas that must have a move before it is acknowledged (Redis WAIT; 0: the master alone)")
	intVar(&c.Redis.PoolSize, "redis-pool-size", "REDIS_POOL_SIZE", 128, "Redis connections per server (per master on a Cluster), unless REDIS_URL sets pool_size")
	durVar(&c.Redis.WaitTimeout, "redis-wait-timeout", "REDIS_WAIT_TIMEOUT", 500*time.Millisecond, "how long a move waits for those replicas before it is answered unavailable")

	// Environment values for the flags registered with defaults above.
	for _, f := range envFlags {
		if v := getenv(f.env); v != "" {
			if err := fs.Set(f.flag, v); err != nil {
				return c, fmt.Errorf("%s=%q: %v", f.env, v, err)
			}
		}
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	c.MaxMessageBytes = int64(maxMsg)
	if origins != "" {
		for _, o := range strings.Split(origins, ",") {
			if o = strings.TrimSpace(o); o != "" {
				c.AllowedOrigins = append(c.AllowedOrigins, o)
			}
		}
	}
	if err := c.Redis.parse(sentinels, cluster); err != nil {
		return c, err
	}
	if err := c.checkRedis(); err != nil {
		return c, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(logLevel)); err != nil {
		return c, fmt.Errorf("log level %q: %v", logLevel, err)
	}
	switch {
	case c.MaxMessageBytes < 512:
		return c, fmt.Errorf("max-message-bytes %d is too small for the protocol (at least 512)", c.MaxMessageBytes)
	case c.BotWorkers < 1:
		return c, fmt.Errorf("bot-workers must be at least 1, not %d", c.BotWorkers)
	case c.MessagesPerSecond <= 0 || c.MessageBurst < 1:
		return c, fmt.Errorf("messages-per-second and message-burst must be positive")
	case c.FinishedTTL <= 0 || c.IdleTTL <= 0 || c.WaitingTTL <= 0:
		return c, fmt.Errorf("TTLs must be positive")
	case c.PairWait <= 0:
		return c, fmt.Errorf("pair-wait must be positive, not %v", c.PairWait)
	}
	return c, nil
}

// parse reads the comma-separated address lists.
func (r *RedisConfig) parse(sentinels, cluster string) error {
	var err error
	if r.SentinelAddrs, err = parseAddrs("REDIS_SENTINEL_ADDRS", sentinels); err != nil {
		return err
	}
	r.ClusterAddrs, err = parseAddrs("REDIS_CLUSTER_ADDRS", cluster)
	return err
}

// checkRedis refuses Redis settings that contradict each other, each with one line
// that names the setting.
func (c Config) checkRedis() error {
	r := c.Redis
	given := 0
	for _, set := range []bool{c.RedisURL != "", len(r.SentinelAddrs) > 0, len(r.ClusterAddrs) > 0} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return fmt.Errorf("REDIS_URL, REDIS_SENTINEL_ADDRS and REDIS_CLUSTER_ADDRS: set only one of them")
	case len(r.SentinelAddrs) > 0 && r.SentinelMaster == "":
		return fmt.Errorf("REDIS_SENTINEL_ADDRS is set but REDIS_SENTINEL_MASTER (the master's name at the Sentinels) is not")
	case r.SentinelMaster != "" && len(r.SentinelAddrs) == 0:
		return fmt.Errorf("REDIS_SENTINEL_MASTER is set but REDIS_SENTINEL_ADDRS is not")
	case r.WaitReplicas < 0:
		return fmt.Errorf("REDIS_WAIT_REPLICAS=%d: want 0 or more", r.WaitReplicas)
	case r.WaitReplicas > 0 && given == 0:
		return fmt.Errorf("REDIS_WAIT_REPLICAS=%d needs Redis (REDIS_URL, REDIS_SENTINEL_ADDRS or REDIS_CLUSTER_ADDRS)", r.WaitReplicas)
	case r.WaitTimeout <= 0 || r.WaitTimeout > maxWaitTimeout:
		return fmt.Errorf("REDIS_WAIT_TIMEOUT=%v: want more than 0 and at most %v", r.WaitTimeout, maxWaitTimeout)
	case r.PoolSize < 1:
		return fmt.Errorf("REDIS_POOL_SIZE=%d: want at least 1", r.PoolSize)
	}
	return nil
}

// parseAddrs splits a comma-separated list of host:port, refusing anything else.
func parseAddrs(name, list string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if n, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%s=%q: %q is not host:port", name, list, a)
		}
		out = append(out, a)
	}
	if list != "" && len(out) == 0 {
		return nil, fmt.Errorf("%s=%q: no host:port in it", name, list)
	}
	return out, nil
}

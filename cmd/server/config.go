package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/boardhall/boardhall/rooms"
)

// Config is the server's configuration: each setting is a flag, and an environment
// variable when the flag is not given. docs/operations.md lists them.
type Config struct {
	Addr              string
	RedisURL          string
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
	FinishedTTL       time.Duration
	IdleTTL           time.Duration
	ShutdownGrace     time.Duration
	LogLevel          slog.Level
}

func (c Config) storeName() string {
	if c.RedisURL == "" {
		return "memory"
	}
	return "redis"
}

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
	var origins, logLevel string
	fs.StringVar(&c.Addr, "addr", env("ADDR", ":8080"), "listen address (ADDR)")
	fs.StringVar(&c.RedisURL, "redis-url", env("REDIS_URL", ""), "Redis URL, e.g. redis://localhost:6379/0; empty: rooms in memory (REDIS_URL)")
	fs.StringVar(&c.Node, "node", env("NODE_ID", ""), "this node's name among several (NODE_ID; random when empty)")
	fs.StringVar(&origins, "allowed-origins", env("ALLOWED_ORIGINS", ""), "comma-separated extra origins allowed to open WebSockets (ALLOWED_ORIGINS)")
	fs.StringVar(&logLevel, "log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (LOG_LEVEL)")

	intVar := func(p *int, name, envName string, def int, usage string) {
		fs.IntVar(p, name, def, usage+" ("+envName+")")
	}
	durVar := func(p *time.Duration, name, envName string, def time.Duration, usage string) {
		fs.DurationVar(p, name, def, usage+" ("+envName+")")
	}
	var maxMsg int
	intVar(&maxMsg, "max-message-bytes", "MAX_MESSAGE_BYTES", 4096, "largest WebSocket frame a client may send")
	fs.Float64Var(&c.MessagesPerSecond, "messages-per-second", 20, "messages per second one connection may send (MESSAGES_PER_SECOND)")
	intVar(&c.MessageBurst, "message-burst", "MESSAGE_BURST", 40, "burst of messages above the rate")
	intVar(&c.MaxConnsPerIP, "max-conns-per-ip", "MAX_CONNS_PER_IP", 256, "open WebSockets allowed per client address (negative: no limit)")
	intVar(&c.SendQueue, "send-queue", "SEND_QUEUE", 128, "messages queued for a slow client before it is dropped")
	intVar(&c.BotWorkers, "bot-workers", "BOT_WORKERS", defaultBotWorkers(), "bot searches run at once")
	intVar(&c.BotQueue, "bot-queue", "BOT_QUEUE", 1024, "bot searches waiting for a worker before more are refused")
	durVar(&c.BotMoveTime, "bot-move-time", "BOT_MOVE_TIME", 5*time.Second, "time cap of one bot move")
	durVar(&c.BotPace, "bot-pace", "BOT_PACE", 600*time.Millisecond, "least time per move in bot-vs-bot games")
	durVar(&c.BotLease, "bot-lease", "BOT_LEASE", 15*time.Second, "how long a node's claim on a bot search lasts unrenewed")
	durVar(&c.FinishedTTL, "finished-ttl", "FINISHED_TTL", rooms.DefaultTTLs.Finished, "how long a finished room is kept")
	durVar(&c.IdleTTL, "idle-ttl", "IDLE_TTL", rooms.DefaultTTLs.Idle, "how long an unfinished room is kept without activity")
	durVar(&c.ShutdownGrace, "shutdown-grace", "SHUTDOWN_GRACE", 10*time.Second, "time to finish up on SIGTERM")

	// Environment values for the flags registered with defaults above.
	for _, name := range []string{"MAX_MESSAGE_BYTES", "MESSAGES_PER_SECOND", "MESSAGE_BURST", "MAX_CONNS_PER_IP",
		"SEND_QUEUE", "BOT_WORKERS", "BOT_QUEUE", "BOT_MOVE_TIME", "BOT_PACE", "BOT_LEASE", "FINISHED_TTL",
		"IDLE_TTL", "SHUTDOWN_GRACE"} {
		if v := getenv(name); v != "" {
			flagName := strings.ReplaceAll(strings.ToLower(name), "_", "-")
			if err := fs.Set(flagName, v); err != nil {
				return c, fmt.Errorf("%s=%q: %v", name, v, err)
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
	case c.FinishedTTL <= 0 || c.IdleTTL <= 0:
		return c, fmt.Errorf("TTLs must be positive")
	}
	return c, nil
}

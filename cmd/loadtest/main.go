// Command loadtest drives simulated players and spectators against Board Hall servers on
// this machine, over real WebSockets with the real protocol (docs/protocol.md), and
// prints what it measured: move latency, throughput, errors, and the server's memory and
// CPU read from its /metrics.
//
// It is bounded: it refuses any server address that is not loopback, more than 100,000
// connections, or a -duration over 30 minutes, and always stops by itself: each
// measurement ends after -warmup and -duration (growth makes one per step). It spreads its sockets over several 127.0.0.x source addresses (one address
// has about 28k ephemeral ports) and raises its own open-file limit (the server needs a
// limit as high: start it from a shell with `ulimit -n` raised).
//
// Usage:
//
//	loadtest [flags] idle|moves|bots|growth|fsync|append
//
// Modes:
//
//	idle    open -conns connections (2 players and -spectators spectators per Reversi
//	        room, all joined), hold them for -duration, and print the server's RSS per
//	        idle connection (RSS after minus RSS before, divided by the connections).
//	moves   -rooms Reversi rooms play at once, 2 players and -spectators spectators
//	        each, at -rate moves per second in total (players pick a random legal move;
//	        the end of a finished game is taken back (undo) and play goes on in the room). Latency is the time from a
//	        player's send to the last spectator's receipt of that move's event. Prints
//	        p50/p90/p99/max, throughput, errors by code, and the server's RSS and CPU.
//	bots    moves without bots, then again with -bot-rooms rooms where the tool plays a
//	        bot of -bot-level, answering each bot move at once and taking the end of each
//	        game back, so that more searches wait than the server has bot
//	        workers; prints both runs (the human-vs-human rooms only) and the ratio of
//	        their p99s.
//	growth  moves at each multiple in -steps of -rooms (default 1,2,4,8), each with
//	        fresh connections and the same move rate per room; prints a table of
//	        latency and memory, and the knee: the first step whose p99 is more than
//	        twice the first step's, or that falls 5% short of its move rate.
//	fsync   no server: writes 200-byte records to a file in -fsync-dir, each followed by
//	        fsync, one at a time for -duration, and prints the fsync latency: the floor
//	        under a Redis write with appendfsync always on this disk.
//
// With several comma-separated -addr nodes, clients are spread over them, and a client
// whose node goes away connects to the next one in the list with backoff (100 ms
// doubling to 2 s, with jitter), joins again with its seat token and the last seq it
// saw, and goes on (-reconnect, on by default with more than one node).
//
// Examples:
//
//	ulimit -n 20000; go run ./cmd/server -addr 127.0.0.1:8080 -max-conns-per-ip -1 \
//	    -messages-per-second 1000 -message-burst 1000 -rooms-per-minute 0 &
//	go run ./cmd/loadtest -addr 127.0.0.1:8080 -conns 19000 idle
//	go run ./cmd/loadtest -addr 127.0.0.1:8080 -rooms 2000 -rate 2000 -duration 60s moves
//	go run ./cmd/loadtest -addr 127.0.0.1:8080 -json moves > run.json
//	go run ./cmd/loadtest -addr 127.0.0.1:8080 -rooms 200 -steps 1,2,4,8 growth
//
// The exit status is 0 after a run, 1 when the run could not be done (bad flags, a
// server that is not there, too few open files), whatever latencies were measured.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bounds that make every run stop by itself and stay on this machine's scale.
const (
	// maxConns: beyond this the tool would be a danger to the machine it runs on (each
	// connection is a file descriptor on both sides).
	maxConns = 100_000
	// maxDuration bounds one measurement; growth runs one per step.
	maxDuration = 30 * time.Minute
)

// config is the parsed command line.
type config struct {
	mode         string
	addrs        []string
	sources      int // 0: as many as the connections need
	conns        int
	rooms        int
	spectators   int
	rate         float64
	duration     time.Duration
	warmup       time.Duration
	botRooms     int
	botLevel     int
	steps        []int
	reconnect    bool
	jsonOut      bool
	concurrency  int
	fsyncDir     string
	redis        string
	waitReplicas int
}

// parseArgs reads the command line (without the program name).
func parseArgs(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: loadtest [flags] idle|moves|bots|growth|fsync|append")
		fs.PrintDefaults()
	}
	addrs := fs.String("addr", "127.0.0.1:8080", "server node(s), comma-separated host:port on loopback")
	fs.IntVar(&c.sources, "sources", 0, "127.0.0.x source addresses to spread sockets over (0: as many as needed)")
	fs.IntVar(&c.conns, "conns", 50_000, "idle: connections to open")
	fs.IntVar(&c.rooms, "rooms", 2000, "moves, bots: rooms playing at once; growth: rooms at step 1")
	fs.IntVar(&c.spectators, "spectators", 8, "spectators per room")
	fs.Float64Var(&c.rate, "rate", 2000, "moves, bots: moves per second in total (growth: per -rooms rooms)")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "how long each measurement runs (idle: how long connections are held)")
	fs.DurationVar(&c.warmup, "warmup", 3*time.Second, "play before measuring, not counted")
	fs.IntVar(&c.botRooms, "bot-rooms", 16, "bots: bot-vs-bot rooms to add")
	fs.IntVar(&c.botLevel, "bot-level", 10, "bots: level of the bots (Reversi 1..10; 10 is the full engine, which thinks until -bot-move-time)")
	steps := fs.String("steps", "1,2,4,8", "growth: multiples of -rooms")
	reconnect := fs.String("reconnect", "auto", "reconnect to the next node when a socket drops: true, false, auto (true with several nodes)")
	fs.BoolVar(&c.jsonOut, "json", false, "print the results as JSON")
	fs.IntVar(&c.concurrency, "setup-concurrency", 32, "rooms set up at once")
	fs.StringVar(&c.fsyncDir, "fsync-dir", os.TempDir(), "fsync: the directory to write in (put it on Redis's disk)")
	fs.StringVar(&c.redis, "redis", "redis://127.0.0.1:6379/0", "append: the Redis, a URL or cluster:host:port,host:port (loopback only)")
	fs.IntVar(&c.waitReplicas, "redis-wait-replicas", 0, "append: replicas that must confirm each append (Redis WAIT)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return c, errors.New("loadtest: want exactly one mode: idle, moves, bots, growth, fsync or append")
	}
	c.mode = fs.Arg(0)
	var err error
	if c.addrs, err = parseTargets(*addrs); err != nil {
		return c, err
	}
	if c.steps, err = parseSteps(*steps); err != nil {
		return c, err
	}
	switch *reconnect {
	case "auto":
		c.reconnect = len(c.addrs) > 1
	case "true", "false":
		c.reconnect = *reconnect == "true"
	default:
		return c, fmt.Errorf("loadtest: -reconnect %q: want true, false or auto", *reconnect)
	}
	return c, c.check()
}

// check refuses settings that make no sense or break the tool's bounds.
func (c config) check() error {
	perRoom := 2 + c.spectators
	switch {
	case c.mode != "idle" && c.mode != "moves" && c.mode != "bots" && c.mode != "growth" && c.mode != "fsync" && c.mode != "append":
		return fmt.Errorf("loadtest: unknown mode %q: want idle, moves, bots, growth, fsync or append", c.mode)
	case c.spectators < 0 || c.spectators > 1000:
		return fmt.Errorf("loadtest: -spectators %d: want 0..1000", c.spectators)
	case c.sources < 0 || c.sources > maxSources:
		return fmt.Errorf("loadtest: -sources %d: want 0..%d", c.sources, maxSources)
	case c.duration <= 0 || c.duration > maxDuration:
		return fmt.Errorf("loadtest: -duration %v: want more than 0 and at most %v", c.duration, maxDuration)
	case c.warmup < 0 || c.warmup > maxDuration:
		return fmt.Errorf("loadtest: -warmup %v: want 0..%v", c.warmup, maxDuration)
	case c.concurrency < 1 || c.concurrency > 1024:
		return fmt.Errorf("loadtest: -setup-concurrency %d: want 1..1024", c.concurrency)
	}
	switch c.mode {
	case "fsync":
	case "append":
		if c.rooms < 1 || !(c.rate > 0) || c.rate > 1e6 {
			return fmt.Errorf("loadtest: append: -rooms %d -rate %v: want at least one room and a rate up to 1e6", c.rooms, c.rate)
		}
		if err := loopbackRedis(c.redis); err != nil {
			return err
		}
	case "idle":
		if c.conns < perRoom || c.conns > maxConns {
			return fmt.Errorf("loadtest: -conns %d: want %d..%d", c.conns, perRoom, maxConns)
		}
	default:
		if c.rooms < 1 {
			return fmt.Errorf("loadtest: -rooms %d: want at least 1", c.rooms)
		}
		if !(c.rate > 0) || c.rate > 1e6 {
			return fmt.Errorf("loadtest: -rate %v: want more than 0 and at most 1e6", c.rate)
		}
		if n := c.maxConnections(); n > maxConns {
			return fmt.Errorf("loadtest: %d connections at the largest step: at most %d", n, maxConns)
		}
		if c.mode == "bots" && (c.botRooms < 1 || c.botLevel < 1) {
			return fmt.Errorf("loadtest: -bot-rooms %d -bot-level %d: want at least 1 each", c.botRooms, c.botLevel)
		}
	}
	return nil
}

// maxConnections is the most connections open at once in the run.
func (c config) maxConnections() int {
	switch c.mode {
	case "idle":
		return c.conns
	case "growth":
		return c.rooms * (2 + c.spectators) * c.steps[len(c.steps)-1]
	case "bots":
		return c.rooms*(2+c.spectators) + c.botRooms
	}
	return c.rooms * (2 + c.spectators)
}

// parseSteps parses "1,2,4,8": positive and increasing.
func parseSteps(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1000 {
			return nil, fmt.Errorf("loadtest: -steps %q: want increasing whole numbers from 1 to 1000", s)
		}
		if len(out) > 0 && n <= out[len(out)-1] {
			return nil, fmt.Errorf("loadtest: -steps %q: want increasing numbers", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func main() {
	cfg, err := parseArgs(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run carries out one mode and prints its results to out (progress goes to log).
func run(ctx context.Context, cfg config, out, log io.Writer) error {
	if cfg.mode == "append" {
		res, err := appendLatency(ctx, cfg, log)
		if err != nil {
			return err
		}
		return printResult(out, cfg.jsonOut, res)
	}
	if cfg.mode == "fsync" {
		res, err := fsyncLatency(ctx, cfg.fsyncDir, cfg.duration)
		if err != nil {
			return err
		}
		return printResult(out, cfg.jsonOut, res)
	}
	limit, err := raiseFileLimit(cfg.maxConnections())
	if err != nil {
		return err
	}
	nsrc := cfg.sources
	if nsrc == 0 {
		nsrc = min(maxSources, sourcesNeeded(cfg.maxConnections(), ephemeralPorts()))
	}
	sources, err := sourceAddrs(cfg.addrs[0], nsrc)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "loadtest: %s against %s, %d source addresses, open-file limit %d\n",
		cfg.mode, strings.Join(cfg.addrs, ","), len(sources), limit)
	l := newLoad(cfg, newDialer(cfg.addrs, sources), log)
	var result any
	switch cfg.mode {
	case "idle":
		result, err = l.idle(ctx)
	case "moves":
		result, err = l.moves(ctx, "moves", cfg.rooms, cfg.rate, 0)
	case "bots":
		result, err = l.bots(ctx)
	case "growth":
		result, err = l.growth(ctx)
	}
	if err != nil {
		return err
	}
	return printResult(out, cfg.jsonOut, result)
}

// printResult prints a mode's result as text or JSON.
func printResult(out io.Writer, jsonOut bool, result any) error {
	if jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(result)
	}
	result.(interface{ writeText(io.Writer) }).writeText(out)
	return nil
}

// Command server runs the game hall: the web client at /, the HTTP API at /api/, the
// WebSocket at /ws, and /healthz, /readyz and /metrics. With no configuration it keeps
// rooms in memory; with REDIS_URL it keeps them in Redis and can run as one of several
// nodes. docs/operations.md lists every setting.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/boardhall/boardhall/hub"
	"github.com/boardhall/boardhall/rooms"
)

func main() {
	cfg, err := loadConfig(os.Args[1:], os.Getenv)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0) // -h asked for the usage, which was printed
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, log, nil); err != nil {
		var bad badBackend
		if errors.As(err, &bad) {
			fmt.Fprintln(os.Stderr, "server:", err) // one line that names the setting
			os.Exit(1)
		}
		log.Error("server stopped", "err", err)
		os.Exit(1)
	}
}

// run serves until ctx ends, then shuts down gracefully. If ready is not nil it receives
// the listening address once the server accepts connections (for tests).
func run(ctx context.Context, cfg Config, log *slog.Logger, ready chan<- string) error {
	if os.Getenv("GOMAXPROCS") == "" {
		// One P per CPU for the sockets, plus one per bot worker: bot workers run on
		// threads of the lowest priority (rooms.BotPool), so the Go scheduler must never
		// run out of Ps while they search, and the kernel gives people the CPUs first.
		runtime.GOMAXPROCS(runtime.NumCPU() + cfg.BotWorkers)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	store, broker, closeBackend, err := openBackend(cfg, log)
	if err != nil {
		return err
	}
	defer closeBackend()

	bots := rooms.NewBotPool(cfg.BotWorkers, cfg.BotQueue)
	svc := rooms.NewService(store, broker, bots, rooms.Config{
		Node: cfg.Node, BotMoveTime: cfg.BotMoveTime, BotPace: cfg.BotPace, BotLease: cfg.BotLease, ClaimGrace: cfg.ClaimGrace, PairWait: cfg.PairWait,
		Logger: log, Metrics: rooms.NewMetrics(reg),
	})
	h := hub.New(svc, hub.Config{
		AllowedOrigins: cfg.AllowedOrigins, MaxMessageBytes: cfg.MaxMessageBytes,
		MessagesPerSecond: cfg.MessagesPerSecond, Burst: cfg.MessageBurst,
		MaxConnsPerIP: cfg.MaxConnsPerIP, SendQueue: cfg.SendQueue, Logger: log,
	}, reg)

	srv := &http.Server{
		Handler:           newMux(svc, h, reg, log, cfg.RoomsPerMinute),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	log.Info("serving", "addr", ln.Addr().String(), "store", cfg.storeName(), "node", svc.Node(),
		"bot_workers", cfg.BotWorkers)
	if ready != nil {
		ready <- ln.Addr().String()
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: telling clients to reconnect")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	// Stop accepting and answer in-flight HTTP requests; hijacked WebSockets are the
	// hub's: it tells each client to reconnect, then closes it.
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Shutdown(shutdownCtx) }()
	if err := h.Shutdown(shutdownCtx); err != nil {
		log.Warn("clients still connected at shutdown", "count", h.Conns())
	}
	// Stop the rooms: bot searches are cancelled and their leases given back, so another
	// node picks them up at once.
	if err := svc.Shutdown(shutdownCtx); err != nil {
		log.Warn("rooms did not stop in time", "err", err)
	}
	bots.Close()
	if err := <-srvDone; err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", "err", err)
	}
	log.Info("stopped")
	return nil
}

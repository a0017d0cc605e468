package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/hub"
	"github.com/boardhall/boardhall/rooms"
)

// detached serves WebSockets the way the hub would if its ServeHTTP returned right after
// the upgrade and left the connection to a goroutine of its own: it hijacks the
// connection first and runs next on a fresh goroutine, so that net/http's per-connection
// state (its 4 KiB bufio.Reader and Writer, the request, the response, the deep serving
// stack) is released. It exists to measure what that change to hub.ServeHTTP would save
// before anyone makes it.
func detached(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		if brw.Reader.Buffered() > 0 {
			conn.Close() // a client that sent data before the handshake answer: refuse
			return
		}
		r = r.Clone(context.Background())
		go next.ServeHTTP(&hijacked{conn: conn, header: http.Header{}}, r)
	})
}

// hijacked is a ResponseWriter over a connection already taken from net/http.
type hijacked struct {
	conn   net.Conn
	header http.Header
	status int
}

func (h *hijacked) Header() http.Header { return h.header }

func (h *hijacked) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
		fmt.Fprintf(h.conn, "HTTP/1.1 %d %s\r\nConnection: close\r\n\r\n", status, http.StatusText(status))
	}
}

func (h *hijacked) Write(p []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	n, err := h.conn.Write(p)
	h.conn.Close()
	return n, err
}

func (h *hijacked) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return h.conn, bufio.NewReadWriter(bufio.NewReaderSize(h.conn, 16), bufio.NewWriterSize(h.conn, 16)), nil
}

// TestProfileServer is not a test: it is a measurement tool. With LOADTEST_PROFILE_ADDR
// set it serves the hall (the hub and rooms wired as cmd/server wires them, memory
// store, cmd/server's defaults) on that loopback address with /debug/pprof added, until
// SIGINT/SIGTERM or LOADTEST_PROFILE_FOR (default 10m) is over, so that the loadtest can
// load it while `go tool pprof` reads heap and goroutine profiles of the server alone:
//
//	LOADTEST_PROFILE_ADDR=127.0.0.1:18081 go test -run ProfileServer -timeout 0 ./cmd/loadtest &
//	go run ./cmd/loadtest -addr 127.0.0.1:18081 -conns 19000 -duration 60s idle &
//	go tool pprof -sample_index=inuse_space -top http://127.0.0.1:18081/debug/pprof/heap
//
// With LOADTEST_PROFILE_DETACH=1 the WebSockets are served as by detached (below).
//
// It serves only /ws, POST /api/rooms and /metrics: what the loadtest uses.
func TestProfileServer(t *testing.T) {
	addr := os.Getenv("LOADTEST_PROFILE_ADDR")
	if addr == "" {
		t.Skip("a measurement tool: set LOADTEST_PROFILE_ADDR=127.0.0.1:port to run it")
	}
	addr, err := checkLoopback(addr)
	require.NoError(t, err)
	limit := 10 * time.Minute
	if v := os.Getenv("LOADTEST_PROFILE_FOR"); v != "" {
		limit, err = time.ParseDuration(v)
		require.NoError(t, err)
	}
	_, err = raiseFileLimit(0)
	require.NoError(t, err)

	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	bots := rooms.NewBotPool(1, 1024, log)
	defer bots.Close()
	svc := rooms.NewService(rooms.NewMemoryStore(rooms.DefaultTTLs), rooms.NewMemoryBroker(), bots, rooms.Config{
		Node: "profile", BotMoveTime: 5 * time.Second, BotLease: 15 * time.Second, Logger: log, Metrics: rooms.NewMetrics(reg),
	})
	h := hub.New(svc, hub.Config{MaxMessageBytes: 4096, MessagesPerSecond: 1000, Burst: 1000, MaxConnsPerIP: -1,
		SendQueue: 256, Logger: log}, reg)
	mux := http.NewServeMux()
	if os.Getenv("LOADTEST_PROFILE_DETACH") != "" {
		mux.Handle("GET /ws", detached(h))
	} else {
		mux.Handle("GET /ws", h)
	}
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("POST /api/rooms", func(w http.ResponseWriter, r *http.Request) {
		var req rooms.CreateRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, 16<<10)).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		st, err := svc.Create(r.Context(), req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": st.ID})
	})
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	ln, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(limit):
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	h.Shutdown(shutdown)
	svc.Shutdown(shutdown)
}

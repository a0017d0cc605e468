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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
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

// bareWebSocket is gorilla/websocket with the hub's buffer settings and nothing else:
// one reader goroutine per connection that answers join with joined and sit with
// seated (all the idle mode asks for). It measures the floor of what a connection
// costs with this library. With handoff, each frame is handled on a short-lived
// goroutine while the reader waits, so that the long-lived reader's stack never grows
// past what the read itself needs.
func bareWebSocket(handoff bool) http.Handler {
	up := websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024, WriteBufferPool: &sync.Pool{}}
	answer := func(ws *websocket.Conn, frame []byte) {
		var m struct {
			Type string `json:"type"`
			ID   int64  `json:"id"`
			Room string `json:"room"`
		}
		if json.Unmarshal(frame, &m) != nil {
			return
		}
		reply := map[string]any{"type": "joined", "id": m.ID, "room": m.Room}
		if m.Type == "sit" {
			reply = map[string]any{"type": "seated", "id": m.ID, "room": m.Room, "token": "t"}
		}
		ws.WriteJSON(reply)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			_, frame, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if !handoff {
				answer(ws, frame)
				continue
			}
			done := make(chan struct{})
			go func() { answer(ws, frame); close(done) }()
			<-done
		}
	})
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
// With LOADTEST_PROFILE_DETACH=1 the WebSockets are served as by detached (below); with
// LOADTEST_PROFILE_BARE=inline or =handoff by bareWebSocket, without the hub.
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
	bots := rooms.NewBotPool(1, 1024)
	defer bots.Close()
	svc := rooms.NewService(rooms.NewMemoryStore(rooms.DefaultTTLs), rooms.NewMemoryBroker(), bots, rooms.Config{
		Node: "profile", BotMoveTime: 5 * time.Second, BotLease: 15 * time.Second, Logger: log, Metrics: rooms.NewMetrics(reg),
	})
	h := hub.New(svc, hub.Config{MaxMessageBytes: 4096, MessagesPerSecond: 1000, Burst: 1000, MaxConnsPerIP: -1,
		SendQueue: 256, Logger: log}, reg)
	mux := http.NewServeMux()
	switch bare := os.Getenv("LOADTEST_PROFILE_BARE"); {
	case bare != "":
		mux.Handle("GET /ws", detached(bareWebSocket(bare == "handoff")))
	case os.Getenv("LOADTEST_PROFILE_DETACH") != "":
		mux.Handle("GET /ws", detached(h))
	default:
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

// Package hub is the server's WebSocket edge: one connection per browser tab at /ws,
// with ping/pong deadlines, a bounded send queue (a client too slow to keep up is
// dropped, never waited for), a frame size limit, a per-connection message rate limit, a
// per-address connection limit and an Origin check. It turns client messages into
// rooms.Service calls and knows nothing of the games' rules.
//
// A connection costs one goroutine while idle: its reader. Each frame is handled on a
// short-lived goroutine the reader waits for (so the reader's stack stays small), and a
// writer goroutine runs only while messages wait to be written (conn.go says why: memory
// per idle connection is what bounds how many sockets a node holds).
package hub

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/boardhall/boardhall/rooms"
)

// Config tunes the hub. Zero fields take the defaults in parentheses.
type Config struct {
	// AllowedOrigins are the browser origins (scheme://host[:port]) allowed besides the
	// server's own host. "*" allows any origin (only for development).
	AllowedOrigins []string
	// MaxMessageBytes is the largest frame a client may send (4096); a bigger one
	// closes the connection.
	MaxMessageBytes int64
	// SendQueue is how many messages may wait for a slow client (128) before it is
	// disconnected: at most ~128 KiB of a node's memory per stalled client.
	SendQueue int
	// MessagesPerSecond and Burst limit what one connection may send (20, 40).
	MessagesPerSecond float64
	Burst             int
	// MaxConnsPerIP bounds the open connections from one address (256; negative: no
	// limit).
	MaxConnsPerIP int
	// CommandTimeout bounds one command's wait for its room (5 s).
	CommandTimeout time.Duration
	// Logger receives the hub's logs (slog.Default()).
	Logger *slog.Logger
}

func (c *Config) fill() {
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = 4096
	}
	if c.SendQueue <= 0 {
		c.SendQueue = 128
	}
	if c.MessagesPerSecond <= 0 {
		c.MessagesPerSecond = 20
	}
	if c.Burst <= 0 {
		c.Burst = 40
	}
	if c.MaxConnsPerIP == 0 {
		c.MaxConnsPerIP = 256
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 5 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Connection timing.
const (
	// writeWait is how long one write to a client may take before the client counts as
	// stalled and is dropped.
	writeWait = 10 * time.Second
	// pongWait is how long a client may be silent (no message, no pong) before it is
	// dropped.
	pongWait = 60 * time.Second
	// pingPeriod sends pings often enough that a live client always answers within
	// pongWait.
	pingPeriod = pongWait * 9 / 10
	// maxRoomsPerConn bounds the rooms one tab may watch at once.
	maxRoomsPerConn = 16
	// floodLimit is how many rate-limited messages within floodWindow close the
	// connection: a client that ignores rate_limited errors is not a real client, and a
	// real one that bursts over the limit now and then never comes near it.
	floodLimit  = 50
	floodWindow = 10 * time.Second
)

// Hub accepts WebSocket connections and serves the protocol on them.
type Hub struct {
	svc      *rooms.Service
	cfg      Config
	log      *slog.Logger
	upgrader websocket.Upgrader
	metrics  *metrics

	mu       sync.Mutex
	conns    map[*conn]struct{}
	perIP    map[string]int
	draining bool

	lobby lobbyPush // the connections watching the lobby
}

// New returns a Hub serving svc's rooms; its metrics are registered with reg (nil: not
// registered).
func New(svc *rooms.Service, cfg Config, reg prometheus.Registerer) *Hub {
	cfg.fill()
	h := &Hub{svc: svc, cfg: cfg, log: cfg.Logger, metrics: newMetrics(reg),
		conns: map[*conn]struct{}{}, perIP: map[string]int{}}
	h.lobby.hub = h
	h.upgrader = websocket.Upgrader{
		// Small buffers: client frames are a few dozen bytes (a move is ~60), and a
		// bigger one just takes more reads; every idle connection keeps its read buffer.
		// The write buffers are pooled: an idle connection holds none.
		ReadBufferSize:  256,
		WriteBufferSize: 1024,
		WriteBufferPool: &sync.Pool{},
		CheckOrigin:     h.checkOrigin,
	}
	return h
}

// checkOrigin accepts requests without an Origin (not from a browser), from the
// server's own host, and from the allowed origins.
func (h *Hub) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, allowed := range h.cfg.AllowedOrigins {
		if allowed == "*" || strings.EqualFold(strings.TrimRight(allowed, "/"), origin) {
			return true
		}
	}
	h.log.Info("refused websocket from foreign origin", "origin", origin, "host", r.Host)
	return false
}

// ServeHTTP upgrades the request to a WebSocket and serves it until it closes.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ip := clientIP(r)
	if !h.admit(ip) {
		h.metrics.refused.WithLabelValues("per_ip_limit").Inc()
		http.Error(w, "too many connections from your address", http.StatusTooManyRequests)
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		h.release(ip)
		h.metrics.refused.WithLabelValues("upgrade").Inc()
		return // the upgrader has answered (403 for a foreign origin, 400 otherwise)
	}
	c := newConn(h, ws, ip)
	h.mu.Lock()
	draining := h.draining
	if !draining {
		h.conns[c] = struct{}{}
	}
	h.mu.Unlock()
	if draining {
		c.Deliver(encode(reconnectMsg{Type: "reconnect", Reason: "shutdown", RetryMs: 500}))
		c.closeAfterFlush()
	}
	h.metrics.conns.Inc()
	// Return to net/http at once: until the handler returns, net/http keeps the
	// connection's request, headers and 4 KiB read and write buffers alive (about 9 KB
	// that the hijacked socket never uses again), and the serving goroutine's stack.
	go c.readPump()
}

// admit counts a new connection from ip; false if ip is at its limit or the hub is
// shutting down.
func (h *Hub) admit(ip string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cfg.MaxConnsPerIP > 0 && h.perIP[ip] >= h.cfg.MaxConnsPerIP {
		return false
	}
	h.perIP[ip]++
	return true
}

func (h *Hub) release(ip string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.perIP[ip]--; h.perIP[ip] <= 0 {
		delete(h.perIP, ip)
	}
}

func (h *Hub) forget(c *conn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	h.release(c.ip)
	h.metrics.conns.Dec()
}

// clientIP is the peer address of the request (proxies are not trusted: behind a load
// balancer, limit per address there).
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Conns is the number of open connections.
func (h *Hub) Conns() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// Shutdown tells every client to reconnect (to another node, or to this one once it is
// back), closes the connections, and waits for them to finish or ctx to end. New
// connections are told the same at once.
func (h *Hub) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.draining = true
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	msg := encode(reconnectMsg{Type: "reconnect", Reason: "shutdown", RetryMs: 500})
	for _, c := range conns {
		c.Deliver(msg)
		c.closeAfterFlush()
	}
	for {
		if h.Conns() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

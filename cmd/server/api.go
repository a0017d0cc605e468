package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"mime"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/boardhall/boardhall/hub"
	"github.com/boardhall/boardhall/rooms"
	"github.com/boardhall/boardhall/web"
)

// maxBodyBytes bounds an API request body; a room's options are a few dozen bytes.
const maxBodyBytes = 16 << 10

// newMux routes the server's endpoints.
func newMux(svc *rooms.Service, h *hub.Hub, reg *prometheus.Registry, log *slog.Logger, roomsPerMinute int) http.Handler {
	api := &api{svc: svc, log: log, creations: newAddrLimiter(roomsPerMinute, time.Minute)}
	mux := http.NewServeMux()
	mux.Handle("GET /ws", h)
	mux.HandleFunc("POST /api/rooms", api.createRoom)
	mux.HandleFunc("GET /api/rooms", api.listRooms)
	mux.HandleFunc("GET /api/rooms/{id}", api.getRoom)
	mux.HandleFunc("GET /api/rooms/{id}/analysis", api.analysis)
	mux.HandleFunc("GET /api/games", api.games)
	mux.HandleFunc("GET /api/my-games", api.myGames)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API endpoint: "+r.URL.Path)
	})
	// A path the API serves, asked with another method: 405 with the methods it takes.
	for path, allow := range map[string]string{
		"/api/rooms": "GET, HEAD, POST", "/api/rooms/{id}": "GET, HEAD",
		"/api/rooms/{id}/analysis": "GET, HEAD", "/api/games": "GET, HEAD", "/api/my-games": "GET, HEAD",
	} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed here; use "+allow)
		})
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", api.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.Handle("/", web.Handler())
	return mux
}

type api struct {
	svc       *rooms.Service
	log       *slog.Logger
	creations *addrLimiter // rooms created per client address
}

type apiError struct {
	Code    rooms.Code `json:"code"`
	Message string     `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code rooms.Code, msg string) {
	writeJSON(w, status, map[string]apiError{"error": {Code: code, Message: msg}})
}

// writeRoomsError answers with the status that fits a rooms error.
func (a *api) writeRoomsError(w http.ResponseWriter, err error) {
	code := rooms.CodeOf(err)
	status := http.StatusInternalServerError
	msg := "something went wrong on the server"
	var re *rooms.Error
	if errors.As(err, &re) {
		msg = re.Msg
	}
	switch code {
	case rooms.CodeBadRequest:
		status = http.StatusBadRequest
	case rooms.CodeTooMany:
		status = http.StatusTooManyRequests
	case rooms.CodeRoomNotFound:
		status, msg = http.StatusNotFound, "no such room (it may have expired)"
	case rooms.CodeUnavailable:
		status, msg = http.StatusServiceUnavailable, "the game store cannot be reached; try again"
	case rooms.CodeBusy:
		status = http.StatusServiceUnavailable
	default:
		a.log.Error("api", "err", err)
	}
	writeError(w, status, code, msg)
}

func (a *api) createRoom(w http.ResponseWriter, r *http.Request) {
	if wait := a.creations.take(clientAddr(r)); wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		writeError(w, http.StatusTooManyRequests, rooms.CodeTooMany, "too many rooms created from your address; try again in a minute")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type", "send the room's options as Content-Type: application/json")
		return
	}
	var req rooms.CreateRequest
	body := http.MaxBytesReader(w, r.Body, maxBodyBytes)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err == nil && dec.More() {
		err = errors.New("one JSON object per request")
	} else if err == nil {
		// Anything but white space after the object is an error too.
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("one JSON object per request")
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", "the request body is over 16 KiB")
			return
		}
		writeError(w, http.StatusBadRequest, rooms.CodeBadRequest, hub.DescribeJSONError(err))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	state, err := a.svc.Create(ctx, req)
	if err != nil {
		a.writeRoomsError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": state.ID, "url": "/r/" + state.ID, "state": state})
}

func (a *api) listRooms(w http.ResponseWriter, r *http.Request) {
	limit := 100
	if s := r.URL.Query().Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, rooms.CodeBadRequest, "limit must be 1..100")
			return
		}
		limit = n
	}
	sums, err := a.svc.List(r.Context(), limit)
	if err != nil {
		a.writeRoomsError(w, err)
		return
	}
	if sums == nil {
		sums = []rooms.Summary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"rooms": sums})
}

func (a *api) getRoom(w http.ResponseWriter, r *http.Request) {
	state, events, err := a.svc.Record(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeRoomsError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"state": state, "events": events})
}

func (a *api) analysis(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	an, err := a.svc.Analyze(ctx, r.PathValue("id"))
	if err != nil {
		a.writeRoomsError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, an)
}

func (a *api) games(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"games": rooms.Games(),
		"clockPresets": rooms.ClockPresets, "clockBounds": rooms.Bounds})
}

func (a *api) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := a.svc.Ping(ctx); err != nil {
		// The reason (Redis down, a Cluster with slots nobody serves) is for operators.
		writeError(w, http.StatusServiceUnavailable, rooms.CodeUnavailable, "the store is not ready: "+err.Error())
		return
	}
	w.Write([]byte("ready\n"))
}

// myGames lists the rooms of the identity in the X-Identity header.
func (a *api) myGames(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("X-Identity")
	if key == "" {
		writeError(w, http.StatusBadRequest, rooms.CodeBadRequest, "send your identity key in the X-Identity header")
		return
	}
	games, err := a.svc.MyGames(r.Context(), key)
	if err != nil {
		a.writeRoomsError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

// clientAddr is the request's peer address without the port (proxies are not trusted, as
// in the hub: behind a load balancer, limit there too).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// addrLimiter allows each client address n actions per period (a token bucket each).
type addrLimiter struct {
	n      int
	period time.Duration

	mu   sync.Mutex
	byIP map[string]*rate.Limiter
}

// addrLimiterMax bounds the addresses remembered: beyond it the table starts afresh,
// which forgives everyone rather than letting the table grow without bound.
const addrLimiterMax = 100_000

func newAddrLimiter(n int, period time.Duration) *addrLimiter {
	return &addrLimiter{n: n, period: period, byIP: map[string]*rate.Limiter{}}
}

// take uses one action for addr and returns 0, or how long to wait if it has none left
// (the action is then not used). A limiter with n <= 0 allows everything.
func (l *addrLimiter) take(addr string) time.Duration {
	if l.n <= 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.byIP[addr]
	if lim == nil {
		if len(l.byIP) >= addrLimiterMax {
			l.byIP = map[string]*rate.Limiter{}
		}
		lim = rate.NewLimiter(rate.Every(l.period/time.Duration(l.n)), l.n)
		l.byIP[addr] = lim
	}
	res := lim.Reserve()
	if d := res.Delay(); d > 0 {
		res.Cancel()
		return d
	}
	return 0
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Client buffer sizes: the tool holds as many sockets as the server, so it keeps its own
// side small too. Server frames (a room's whole state) are 1-2 KiB; a bigger one takes
// two reads. Client frames are under 200 bytes.
const (
	clientReadBuffer  = 2048
	clientWriteBuffer = 512
)

// Reconnection backoff (docs/protocol.md, "Reconnecting"): start short, double, cap, with
// jitter so that the clients of a dead node do not all arrive at once.
const (
	backoffFirst = 100 * time.Millisecond
	backoffMax   = 2 * time.Second
)

// requestTimeout bounds the wait for the answer to one request; the server answers in
// well under a millisecond unless it is overloaded or gone.
const requestTimeout = 10 * time.Second

// errDisconnected is the answer to a request whose socket dropped before the answer came.
var errDisconnected = errors.New("disconnected")

// dialer opens client WebSockets to a list of server nodes from a spread of source
// addresses.
type dialer struct {
	addrs   []string
	sources []netip.Addr
	next    atomic.Uint64 // round-robin over sources
	pool    websocket.BufferPool
}

func newDialer(addrs []string, sources []netip.Addr) *dialer {
	return &dialer{addrs: addrs, sources: sources, pool: &sync.Pool{}}
}

// dial opens a WebSocket to node i of the list from the next source address.
func (d *dialer) dial(ctx context.Context, node int) (*websocket.Conn, error) {
	src := d.sources[int(d.next.Add(1)-1)%len(d.sources)]
	nd := &net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: src.AsSlice()}}
	if src.Is4() {
		nd.Control = bindNoPort
	}
	wd := websocket.Dialer{
		NetDialContext:   nd.DialContext,
		HandshakeTimeout: 10 * time.Second,
		ReadBufferSize:   clientReadBuffer,
		WriteBufferSize:  clientWriteBuffer,
		WriteBufferPool:  d.pool,
	}
	ws, resp, err := wd.DialContext(ctx, "ws://"+d.addrs[node]+"/ws", nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("dial %s from %s: %w", d.addrs[node], src, err)
	}
	return ws, nil
}

// serverMsg is a server message, with only the fields the tool uses.
type serverMsg struct {
	Type    string      `json:"type"`
	ID      int64       `json:"id"`
	Room    string      `json:"room"`
	Seq     int64       `json:"seq"`
	Code    string      `json:"code"`
	Message string      `json:"message"`
	Token   string      `json:"token"`
	Seat    string      `json:"seat"`
	Full    bool        `json:"full"`
	Event   *eventView  `json:"event"`
	Events  []eventView `json:"events"`
	State   *stateView  `json:"state"`
}

type eventView struct {
	Seq  int64  `json:"seq"`
	Type string `json:"type"`
	Seat string `json:"seat"`
	Move string `json:"move"`
}

type stateView struct {
	ID      string            `json:"id"`
	Version int64             `json:"version"`
	GameNo  int               `json:"gameNo"`
	Status  string            `json:"status"`
	ToMove  string            `json:"toMove"`
	Legal   []string          `json:"legal"`
	Moves   []string          `json:"moves"`
	Seats   map[string]seatVw `json:"seats"`
}

type seatVw struct {
	Kind string `json:"kind"`
}

// decodeServerMsg parses one server frame.
func decodeServerMsg(data []byte) (serverMsg, error) {
	var m serverMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return serverMsg{}, fmt.Errorf("loadtest: bad server frame: %v", err)
	}
	if m.Type == "" {
		return serverMsg{}, errors.New("loadtest: server frame without a type")
	}
	if m.Type == "event" && m.Event == nil {
		return serverMsg{}, errors.New("loadtest: event frame without an event")
	}
	return m, nil
}

// Spectators only need an event's seq, and most frames a spectator reads are events:
// quickEventSeq reads it from the front of the frame as the server writes it
// ({"type":"event","room":"<id>","event":{"seq":N,...) without decoding the state, and
// says false for anything else (which is then decoded in full).
var (
	eventPrefix = []byte(`{"type":"event","room":"`)
	seqPrefix   = []byte(`","event":{"seq":`)
)

func quickEventSeq(data []byte) (int64, bool) {
	if !bytes.HasPrefix(data, eventPrefix) {
		return 0, false
	}
	rest := data[len(eventPrefix):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return 0, false
	}
	rest = rest[end:]
	if !bytes.HasPrefix(rest, seqPrefix) {
		return 0, false
	}
	rest = rest[len(seqPrefix):]
	n := 0
	for n < len(rest) && n < 19 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n == len(rest) || (rest[n] != ',' && rest[n] != '}') {
		return 0, false
	}
	seq, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	return seq, err == nil
}

// peer is one simulated client in one room: a player (seat "black" or "white") or a
// spectator (seat ""). Its reader goroutine reads every frame; when the socket drops and
// reconnection is on, the same goroutine connects to the next node in the list with
// backoff and joins again with the seat token and the last seq it saw.
type peer struct {
	d         *dialer
	room      *roomRun
	seat      string
	spectator int // index among the room's spectators, -1 for a player
	reconnect bool

	firstNode int          // the node it connected to first
	node      int          // index of the node in d.addrs; the reader's own
	lastSeq   atomic.Int64 // the last event seq seen
	// toResync is set by a resync message (the server unloaded the room: the Store lost
	// events); the reader then joins again, from another goroutine, since it must read
	// the answer itself.
	toResync   atomic.Bool
	nextID     atomic.Int64
	reconnects atomic.Int64
	curNode    atomic.Int64 // node, readable by others

	mu      sync.Mutex
	ws      *websocket.Conn // nil while down
	stopped bool            // closed on purpose: do not reconnect
	token   string
	pending map[int64]chan serverMsg
	up      chan struct{} // closed while connected
	done    chan struct{} // closed when the reader has stopped for good
}

func newPeer(d *dialer, room *roomRun, seat string, spectator, node int, reconnect bool) *peer {
	node %= len(d.addrs)
	p := &peer{d: d, room: room, seat: seat, spectator: spectator, node: node, firstNode: node,
		reconnect: reconnect, pending: map[int64]chan serverMsg{}, up: make(chan struct{}), done: make(chan struct{})}
	p.curNode.Store(int64(p.node))
	return p
}

// connect dials the peer's node, starts its reader and, for a player, sits; for a
// spectator, joins.
func (p *peer) connect(ctx context.Context, name string) error {
	ws, err := p.d.dial(ctx, p.node)
	if err != nil {
		return err
	}
	p.setConn(ws)
	go p.read(ctx)
	if _, err := p.ask(ctx, map[string]any{"type": "join", "room": p.room.id}, "joined"); err != nil {
		return err
	}
	if p.seat == "" {
		return nil
	}
	a, err := p.ask(ctx, map[string]any{"type": "sit", "room": p.room.id, "seat": p.seat, "name": name}, "seated")
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.token = a.Token
	p.mu.Unlock()
	return nil
}

func (p *peer) setConn(ws *websocket.Conn) {
	p.mu.Lock()
	p.ws = ws
	close(p.up)
	p.mu.Unlock()
}

// isUp returns whether the peer is connected, and a channel closed when it is.
func (p *peer) isUp() (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ws != nil, p.up
}

// protoError is an error answer from the server.
type protoError struct{ code, message string }

func (e *protoError) Error() string { return e.code + ": " + e.message }

// errorCode names err for the error counts.
func errorCode(err error) string {
	var pe *protoError
	switch {
	case errors.As(err, &pe):
		return pe.code
	case errors.Is(err, errDisconnected):
		return "disconnected"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "other"
}

// ask sends m with a fresh id and waits for its answer, which must be of type want.
func (p *peer) ask(ctx context.Context, m map[string]any, want string) (serverMsg, error) {
	a, err := p.request(ctx, m)
	if err != nil {
		return a, err
	}
	if a.Type != want {
		return a, fmt.Errorf("loadtest: %v answered with %s", m["type"], a.Type)
	}
	return a, nil
}

// request sends m with a fresh id and waits for the answer: an error answer becomes a
// *protoError.
func (p *peer) request(ctx context.Context, m map[string]any) (serverMsg, error) {
	id := p.nextID.Add(1)
	m["id"] = id
	ch := make(chan serverMsg, 1)
	p.mu.Lock()
	if p.ws == nil {
		p.mu.Unlock()
		return serverMsg{}, errDisconnected
	}
	p.pending[id] = ch
	err := p.writeLocked(m)
	p.mu.Unlock()
	if err != nil {
		p.forget(id)
		return serverMsg{}, errDisconnected
	}
	t := time.NewTimer(requestTimeout)
	defer t.Stop()
	select {
	case a, ok := <-ch:
		if !ok {
			return serverMsg{}, errDisconnected
		}
		if a.Type == "error" {
			return a, &protoError{a.Code, a.Message}
		}
		return a, nil
	case <-t.C:
		p.forget(id)
		return serverMsg{}, context.DeadlineExceeded
	case <-ctx.Done():
		p.forget(id)
		return serverMsg{}, ctx.Err()
	}
}

func (p *peer) forget(id int64) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// writeLocked writes m; p.mu is held (one writer at a time).
func (p *peer) writeLocked(m map[string]any) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p.ws.SetWriteDeadline(time.Now().Add(requestTimeout))
	return p.ws.WriteMessage(websocket.TextMessage, data)
}

// close closes the socket; the reader then stops (it does not reconnect once ctx is
// done).
func (p *peer) close() {
	p.mu.Lock()
	p.stopped = true
	if p.ws != nil {
		p.ws.Close()
	}
	p.mu.Unlock()
}

// read is the reader goroutine.
func (p *peer) read(ctx context.Context) {
	defer close(p.done)
	for {
		p.mu.Lock()
		ws := p.ws
		p.mu.Unlock()
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				break
			}
			if p.handle(data) {
				ws.Close() // the server is going away: go elsewhere
			}
			if p.toResync.Swap(false) {
				go p.resync(ctx)
			}
		}
		ws.Close()
		p.mu.Lock()
		p.ws = nil
		p.up = make(chan struct{})
		for id, ch := range p.pending {
			close(ch)
			delete(p.pending, id)
		}
		stopped := p.stopped
		p.mu.Unlock()
		if stopped || !p.reconnect || ctx.Err() != nil {
			return
		}
		if !p.rejoin(ctx) {
			return
		}
	}
}

// rejoin connects to the next node with backoff until it has joined the room again with
// the peer's seat token and last seq; false when ctx ends first.
func (p *peer) rejoin(ctx context.Context) bool {
	wait := backoffFirst
	for {
		p.mu.Lock()
		stopped := p.stopped
		p.mu.Unlock()
		if stopped {
			return false
		}
		p.node = (p.node + 1) % len(p.d.addrs)
		jitter := time.Duration(rand.Int64N(int64(wait)))
		t := time.NewTimer(wait/2 + jitter)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(2*wait, backoffMax)
		ws, err := p.d.dial(ctx, p.node)
		if err != nil {
			continue
		}
		p.mu.Lock()
		token := p.token
		p.mu.Unlock()
		join := map[string]any{"type": "join", "room": p.room.id, "id": int64(0), "since": p.lastSeq.Load()}
		if token != "" {
			join["token"] = token
		}
		data, _ := json.Marshal(join)
		ws.SetWriteDeadline(time.Now().Add(requestTimeout))
		if err := ws.WriteMessage(websocket.TextMessage, data); err != nil {
			ws.Close()
			continue
		}
		// Read up to the answer: nothing else comes before it on a new socket.
		ws.SetReadDeadline(time.Now().Add(requestTimeout))
		_, data, err = ws.ReadMessage()
		ws.SetReadDeadline(time.Time{})
		if err != nil {
			ws.Close()
			continue
		}
		m, err := decodeServerMsg(data)
		if err != nil || m.Type != "joined" {
			p.room.rec.fail("rejoin_" + m.Code)
			ws.Close()
			continue
		}
		p.handleMsg(m, time.Now())
		p.curNode.Store(int64(p.node))
		p.reconnects.Add(1)
		p.mu.Lock()
		stopped = p.stopped
		p.mu.Unlock()
		if stopped {
			ws.Close()
			return false
		}
		p.setConn(ws)
		return true
	}
}

// resync joins the room again on the open socket with the peer's seat token and last
// seq: the answer's state replaces the room's (see handleMsg).
func (p *peer) resync(ctx context.Context) {
	p.mu.Lock()
	token := p.token
	p.mu.Unlock()
	join := map[string]any{"type": "join", "room": p.room.id, "since": p.lastSeq.Load()}
	if token != "" {
		join["token"] = token
	}
	if _, err := p.ask(ctx, join, "joined"); err != nil && ctx.Err() == nil {
		p.room.rec.fail("resync_" + errorCode(err))
	}
}

// handle processes one frame; it returns true if the server asked the client to go
// elsewhere.
func (p *peer) handle(data []byte) bool {
	now := time.Now()
	if p.spectator >= 0 {
		if seq, ok := quickEventSeq(data); ok {
			p.sawEvent(seq, now)
			return false
		}
	}
	m, err := decodeServerMsg(data)
	if err != nil {
		p.room.rec.fail("bad_frame")
		return false
	}
	return p.handleMsg(m, now)
}

func (p *peer) handleMsg(m serverMsg, now time.Time) bool {
	switch m.Type {
	case "event":
		p.sawEvent(m.Event.Seq, now)
		if m.State != nil {
			p.room.setState(*m.State)
		}
	case "joined":
		for _, e := range m.Events {
			p.sawEvent(e.Seq, now)
		}
		switch {
		case m.State != nil && m.Full && m.State.Version < p.lastSeq.Load():
			// The whole log, and it ends before events this client saw: the store lost
			// them, and the room's log went back.
			p.lastSeq.Store(m.State.Version)
			p.room.replaceState(*m.State)
		case m.State != nil:
			p.room.setState(*m.State)
		}
	case "resync":
		p.toResync.Store(true)
	case "reconnect":
		return true
	case "thinking", "viewers":
		return false
	}
	if m.ID != 0 {
		p.mu.Lock()
		ch := p.pending[m.ID]
		delete(p.pending, m.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
	return false
}

func (p *peer) sawEvent(seq int64, now time.Time) {
	if seq > p.lastSeq.Load() {
		p.lastSeq.Store(seq)
	}
	if p.spectator >= 0 {
		p.room.observe(p.spectator, seq, now)
	}
}

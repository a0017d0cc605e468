package hub

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"

	"github.com/boardhall/boardhall/rooms"
)

// conn is one client connection. Its reader goroutine (readPump) owns rooms, the limiter
// and the flood count. Outgoing messages wait in queue, guarded by mu; a writer goroutine
// runs only while there is something to write and exits when the queue is empty, so an
// idle connection costs one goroutine, not two (memory per idle connection is what limits
// how many sockets a node holds).
type conn struct {
	hub *Hub
	ws  *websocket.Conn
	ip  string

	mu         sync.Mutex
	queue      [][]byte // messages waiting to be written
	writing    bool     // a writer goroutine is running
	closed     bool
	flushClose bool        // close once the queue is written (shutdown)
	pinger     *time.Timer // sends the next ping

	rooms   memberships // the rooms joined, with the seat token used in each
	limiter *rate.Limiter
	// flooded counts the messages refused for the rate since floodSince; refusedAt is when
	// the last rate_limited error was written (one a second at most).
	flooded    int
	floodSince time.Time
	refusedAt  time.Time
	// extras holds what only some connections use (chat, pairing, the lobby), allocated
	// on first use: an idle connection pays one pointer for them.
	extras *connExtras
}

func newConn(h *Hub, ws *websocket.Conn, ip string) *conn {
	c := &conn{hub: h, ws: ws, ip: ip,
		limiter: rate.NewLimiter(rate.Limit(h.cfg.MessagesPerSecond), h.cfg.Burst)}
	c.pinger = time.AfterFunc(pingPeriod, c.ping)
	return c
}

// Deliver implements rooms.Subscriber: it queues msg without blocking. A client whose
// queue is full is too slow to keep up: it is disconnected (it will reconnect and catch
// up from its last seq), so that it never holds anyone else back and its memory stays
// bounded.
func (c *conn) Deliver(msg []byte) bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	if len(c.queue) >= c.hub.cfg.SendQueue {
		c.mu.Unlock()
		c.hub.metrics.slowDropped.Inc()
		c.close()
		return false
	}
	c.queue = append(c.queue, msg)
	start := !c.writing
	c.writing = true
	c.mu.Unlock()
	if start {
		go c.writeQueued()
	}
	return true
}

// writeQueued writes queued messages until the queue is empty.
func (c *conn) writeQueued() {
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue = nil
		if len(batch) == 0 || c.closed {
			c.writing = false
			closeNow := c.flushClose && !c.closed
			c.mu.Unlock()
			if closeNow {
				c.ws.WriteControl(websocket.CloseMessage,
					websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
					time.Now().Add(time.Second))
				c.close()
			}
			return
		}
		c.mu.Unlock()
		for _, msg := range batch {
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
				c.close()
				c.mu.Lock()
				c.writing = false
				c.mu.Unlock()
				return
			}
			c.hub.metrics.messagesOut.Inc()
		}
	}
}

// ping sends a ping (control frames may be written alongside the writer) and arms the
// next one.
func (c *conn) ping() {
	if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
		c.close()
		return
	}
	c.mu.Lock()
	if !c.closed {
		c.pinger.Reset(pingPeriod)
	}
	c.mu.Unlock()
}

// close drops the connection: the reader's next read fails and it cleans up.
func (c *conn) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.queue = nil
	c.pinger.Stop()
	c.mu.Unlock()
	c.ws.Close()
}

// closeAfterFlush makes the connection close once what is queued has been written.
func (c *conn) closeAfterFlush() {
	c.mu.Lock()
	c.flushClose = true
	start := !c.writing && !c.closed
	c.writing = c.writing || start
	c.mu.Unlock()
	if start {
		go c.writeQueued()
	}
}

// readPump reads and handles client messages until the connection fails, then leaves
// every room.
func (c *conn) readPump() {
	defer func() {
		c.close()
		c.dropExtras()
		for _, m := range c.rooms {
			ctx, cancel := context.WithTimeout(context.Background(), c.hub.cfg.CommandTimeout)
			c.hub.svc.Leave(ctx, m.room, c)
			cancel()
		}
		c.hub.forget(c)
	}()
	c.ws.SetReadLimit(c.hub.cfg.MaxMessageBytes)
	c.ws.SetReadDeadline(time.Now().Add(pongWait))
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		typ, data, err := c.ws.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				c.hub.metrics.refused.WithLabelValues("too_large").Inc()
			}
			return
		}
		c.ws.SetReadDeadline(time.Now().Add(pongWait))
		c.hub.metrics.messagesIn.Inc()
		if typ != websocket.TextMessage {
			c.fail(nil, "", rooms.CodeBadRequest, "send JSON text frames")
			continue
		}
		if !c.limiter.Allow() {
			c.hub.metrics.rateLimited.Inc()
			now := time.Now()
			if now.Sub(c.floodSince) > floodWindow {
				c.floodSince, c.flooded = now, 0
			}
			if c.flooded++; c.flooded >= floodLimit {
				c.closeWith(websocket.ClosePolicyViolation, "message flood")
				return
			}
			// One error a second tells the client to slow down; one per refused message
			// would make the flood's answer as big as the flood.
			if now.Sub(c.refusedAt) >= time.Second {
				c.refusedAt = now
				m, _ := DecodeMessage(data)
				c.fail(m.ID, m.Room, "rate_limited", "too many messages; slow down (further messages are dropped unanswered until you do)")
			}
			continue
		}
		c.handleOffReader(data)
	}
}

// handleOffReader handles a frame on a short-lived goroutine and waits for it, which
// keeps the order of a connection's messages. Handling (decoding, a room's answer) grows
// a stack, and a goroutine keeps a stack it grew: this way the reader, parked between
// frames for most of its life, keeps the smallest one. That is about 4 KiB per idle
// connection (docs/benchmarks.md, Scale).
func (c *conn) handleOffReader(data []byte) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.handle(data)
	}()
	<-done
}

// closeWith sends a close frame with code and reason, then drops the connection.
func (c *conn) closeWith(code int, reason string) {
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.close()
}

// reply queues an answer to the client; a full queue drops the client as Deliver does.
func (c *conn) reply(v any) { c.Deliver(encode(v)) }

func (c *conn) fail(id *int64, room string, code rooms.Code, msg string) {
	c.hub.metrics.errors.WithLabelValues(string(code)).Inc()
	c.reply(errorMsg{Type: "error", ID: id, Room: room, Code: string(code), Message: msg})
}

func (c *conn) failErr(id *int64, room string, err error) {
	var re *rooms.Error
	msg := "something went wrong on the server; nothing was changed"
	if errors.As(err, &re) {
		msg = re.Msg
	} else if code := rooms.CodeOf(err); code == rooms.CodeUnavailable {
		msg = "the game store cannot be reached; nothing was changed, try again"
	} else if code == rooms.CodeInternal {
		c.hub.log.Error("command failed", "room", room, "err", err)
	}
	c.fail(id, room, rooms.CodeOf(err), msg)
}

// handle carries out one client message.
func (c *conn) handle(data []byte) {
	m, err := DecodeMessage(data)
	if err != nil {
		code := rooms.CodeBadRequest
		if errors.Is(err, errUnknownType) {
			code = "unknown_type"
		}
		c.fail(m.ID, m.Room, code, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.hub.cfg.CommandTimeout)
	defer cancel()
	switch m.Type {
	case typePing:
		c.reply(pongMsg{Type: "pong", ID: m.ID})
	case typeJoin:
		c.join(ctx, m)
	case typeLeave:
		if _, ok := c.rooms.token(m.Room); ok {
			c.hub.svc.Leave(ctx, m.Room, c)
			c.rooms.remove(m.Room)
		}
		c.reply(ackMsg{Type: "ack", ID: m.ID, Room: m.Room})
	case typeChat:
		c.chat(ctx, m)
	case typeLobbySubscribe:
		c.hub.lobby.subscribe(c, m.ID)
	case typeLobbyUnsubscribe:
		c.hub.lobby.unsubscribe(c)
		c.reply(ackMsg{Type: "ack", ID: m.ID})
	case typePair:
		c.pair(m)
	case typeUnpair:
		c.unpair()
		c.reply(ackMsg{Type: "ack", ID: m.ID})
	default:
		c.command(ctx, m)
	}
}

func (c *conn) join(ctx context.Context, m ClientMessage) {
	if m.Identity != "" {
		if _, err := rooms.HashIdentity(m.Identity); err != nil {
			c.failErr(m.ID, m.Room, err)
			return
		}
		c.setAuthor(m.Identity) // a spectator's chat lines keep one author across visits
	}
	if _, ok := c.rooms.token(m.Room); !ok && len(c.rooms) >= maxRoomsPerConn {
		c.fail(m.ID, m.Room, rooms.CodeBadRequest, "too many rooms open in one tab")
		return
	}
	_, err := c.hub.svc.Join(ctx, c, rooms.JoinRequest{Room: m.Room, Token: m.Token, Since: m.Since, ReqID: m.ID})
	if err != nil {
		c.failErr(m.ID, m.Room, err)
		return
	}
	c.rooms.set(m.Room, m.Token)
}

// command carries out a room command (a type DecodeMessage has checked).
func (c *conn) command(ctx context.Context, m ClientMessage) {
	token, joined := c.rooms.token(m.Room)
	if !joined {
		c.fail(m.ID, m.Room, "not_joined", "join the room first")
		return
	}
	kind, _ := rooms.ParseCommandKind(m.Type)
	cmd := rooms.Command{Kind: kind, Token: token, Move: m.Move, At: m.At, Seat: rooms.Side(m.Seat),
		Name: m.Name, Occupant: rooms.SeatKind(m.Kind), Level: m.Level, Claim: m.Kind, Watcher: c,
		Identity: m.Identity}
	if m.Identity != "" {
		c.setAuthor(m.Identity)
	}
	if m.Accept != nil {
		cmd.Accept = *m.Accept
	}
	rep, err := c.hub.svc.Do(ctx, m.Room, cmd)
	if err != nil {
		c.failErr(m.ID, m.Room, err)
		return
	}
	switch kind {
	case rooms.CmdSit:
		c.rooms.set(m.Room, rep.Token)
		c.reply(seatedMsg{Type: "seated", ID: m.ID, Room: m.Room, Seat: string(rep.Seat), Token: rep.Token})
		return
	case rooms.CmdStand:
		c.rooms.set(m.Room, "")
	}
	c.reply(ackMsg{Type: "ack", ID: m.ID, Room: m.Room, Seq: rep.Seq})
}

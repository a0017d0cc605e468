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

// conn is one client connection. readPump owns rooms and the limiter; writePump owns
// the socket's write side; send, closing and the once are shared.
type conn struct {
	hub  *Hub
	ws   *websocket.Conn
	ip   string
	send chan []byte

	closeOnce sync.Once
	closing   chan struct{} // closed to stop the writer (and so the connection)
	flushing  chan struct{} // closed to make the writer drain send, then close

	rooms   map[string]string // room -> seat token ("" for a spectator)
	limiter *rate.Limiter
	flooded int
}

func newConn(h *Hub, ws *websocket.Conn, ip string) *conn {
	return &conn{hub: h, ws: ws, ip: ip, send: make(chan []byte, h.cfg.SendQueue),
		closing: make(chan struct{}), flushing: make(chan struct{}), rooms: map[string]string{},
		limiter: rate.NewLimiter(rate.Limit(h.cfg.MessagesPerSecond), h.cfg.Burst)}
}

// Deliver implements rooms.Subscriber: it queues msg without blocking. A client whose
// queue is full is too slow to keep up: it is disconnected (it will reconnect and catch
// up from its last seq), so that it never holds anyone else back.
func (c *conn) Deliver(msg []byte) bool {
	select {
	case <-c.closing:
		return false
	default:
	}
	select {
	case c.send <- msg:
		return true
	default:
		c.hub.metrics.slowDropped.Inc()
		c.close()
		return false
	}
}

func (c *conn) close() {
	c.closeOnce.Do(func() { close(c.closing) })
}

// closeAfterFlush makes the writer send what is queued, then close.
func (c *conn) closeAfterFlush() {
	select {
	case <-c.flushing:
	default:
		close(c.flushing)
	}
}

// readPump reads and handles client messages until the connection fails, then leaves
// every room.
func (c *conn) readPump() {
	defer func() {
		c.close()
		for room := range c.rooms {
			ctx, cancel := context.WithTimeout(context.Background(), c.hub.cfg.CommandTimeout)
			c.hub.svc.Leave(ctx, room, c)
			cancel()
		}
		c.ws.Close()
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
			if c.flooded++; c.flooded >= floodLimit {
				c.closeWith(websocket.ClosePolicyViolation, "message flood")
				return
			}
			m, _ := DecodeMessage(data)
			c.fail(m.ID, m.Room, "rate_limited", "too many messages; slow down")
			continue
		}
		c.flooded = 0
		c.handle(data)
	}
}

// closeWith sends a close frame with code and reason, then drops the connection.
func (c *conn) closeWith(code int, reason string) {
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.close()
}

// writePump writes queued messages and pings until the connection closes.
func (c *conn) writePump() {
	ping := time.NewTicker(pingPeriod)
	defer func() {
		ping.Stop()
		c.ws.Close() // unblocks the reader
	}()
	for {
		select {
		case msg := <-c.send:
			if !c.write(msg) {
				return
			}
		case <-ping.C:
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.PingMessage, nil); err != nil {
				c.close()
				return
			}
		case <-c.flushing:
			for {
				select {
				case msg := <-c.send:
					if !c.write(msg) {
						return
					}
				default:
					c.ws.WriteControl(websocket.CloseMessage,
						websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
						time.Now().Add(time.Second))
					c.close()
					return
				}
			}
		case <-c.closing:
			return
		}
	}
}

func (c *conn) write(msg []byte) bool {
	c.ws.SetWriteDeadline(time.Now().Add(writeWait))
	if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
		c.close()
		return false
	}
	c.hub.metrics.messagesOut.Inc()
	return true
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
	case "ping":
		c.reply(pongMsg{Type: "pong", ID: m.ID})
	case "join":
		c.join(ctx, m)
	case "leave":
		if _, ok := c.rooms[m.Room]; ok {
			c.hub.svc.Leave(ctx, m.Room, c)
			delete(c.rooms, m.Room)
		}
		c.reply(ackMsg{Type: "ack", ID: m.ID, Room: m.Room})
	default:
		c.command(ctx, m)
	}
}

func (c *conn) join(ctx context.Context, m ClientMessage) {
	if _, ok := c.rooms[m.Room]; !ok && len(c.rooms) >= maxRoomsPerConn {
		c.fail(m.ID, m.Room, rooms.CodeBadRequest, "too many rooms open in one tab")
		return
	}
	_, err := c.hub.svc.Join(ctx, c, rooms.JoinRequest{Room: m.Room, Token: m.Token, Since: m.Since, ReqID: m.ID})
	if err != nil {
		c.failErr(m.ID, m.Room, err)
		return
	}
	c.rooms[m.Room] = m.Token
}

// commands maps the protocol's command types to the rooms' commands.
var commands = map[string]rooms.CommandKind{
	"sit": rooms.CmdSit, "stand": rooms.CmdStand, "move": rooms.CmdMove, "undo": rooms.CmdUndo,
	"undo_reply": rooms.CmdUndoReply, "resign": rooms.CmdResign, "rematch": rooms.CmdRematch,
	"set_seat": rooms.CmdSetSeat, "switch": rooms.CmdSwitch,
}

func (c *conn) command(ctx context.Context, m ClientMessage) {
	token, joined := c.rooms[m.Room]
	if !joined {
		c.fail(m.ID, m.Room, "not_joined", "join the room first")
		return
	}
	cmd := rooms.Command{Kind: commands[m.Type], Token: token, Move: m.Move, At: m.At,
		Seat: rooms.Side(m.Seat), Name: m.Name, Seat2: rooms.SeatKind(m.Kind), Level: m.Level}
	if m.Accept != nil {
		cmd.Accept = *m.Accept
	}
	rep, err := c.hub.svc.Do(ctx, m.Room, cmd)
	if err != nil {
		c.failErr(m.ID, m.Room, err)
		return
	}
	switch m.Type {
	case "sit":
		c.rooms[m.Room] = rep.Token
		c.reply(seatedMsg{Type: "seated", ID: m.ID, Room: m.Room, Seat: string(rep.Seat), Token: rep.Token})
		return
	case "stand":
		c.rooms[m.Room] = ""
	}
	c.reply(ackMsg{Type: "ack", ID: m.ID, Room: m.Room, Seq: rep.Seq})
}

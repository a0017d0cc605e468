package hub

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/boardhall/boardhall/rooms"
)

// connExtras is what a connection keeps once it chats, pairs or watches the lobby.
type connExtras struct {
	mu          sync.Mutex
	chatLimiter *rate.Limiter
	author      string             // the opaque id its chat lines carry
	pairCancel  context.CancelFunc // stops the pairing it waits in, if any
}

// Chat limits per connection: a line a second with bursts of three is a fast talker; a
// flood of lines is refused without a word reaching the room.
const (
	chatPerSecond = 1
	chatBurst     = 3
)

func (c *conn) extra() *connExtras {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.extras == nil {
		c.extras = &connExtras{}
	}
	return c.extras
}

// setAuthor makes the connection's chat author id follow its browser identity, so that a
// mute holds across its tabs and visits.
func (c *conn) setAuthor(identity string) {
	sum := sha256.Sum256([]byte("author:" + identity))
	e := c.extra()
	e.mu.Lock()
	e.author = hex.EncodeToString(sum[:6])
	e.mu.Unlock()
}

// chatAuthor is the connection's author id: from its identity, or else its own.
func (e *connExtras) chatAuthor() string {
	if e.author == "" {
		b := make([]byte, 6)
		rand.Read(b)
		e.author = hex.EncodeToString(b)
	}
	return e.author
}

func (c *conn) chat(ctx context.Context, m ClientMessage) {
	token, joined := c.rooms.token(m.Room)
	if !joined {
		c.fail(m.ID, m.Room, "not_joined", "join the room first")
		return
	}
	e := c.extra()
	e.mu.Lock()
	if e.chatLimiter == nil {
		e.chatLimiter = rate.NewLimiter(chatPerSecond, chatBurst)
	}
	allowed, author := e.chatLimiter.Allow(), e.chatAuthor()
	e.mu.Unlock()
	if !allowed {
		c.fail(m.ID, m.Room, "rate_limited", "one chat line a second, please")
		return
	}
	err := c.hub.svc.Chat(ctx, m.Room, rooms.ChatRequest{Token: token, Name: m.Name, Text: m.Text, Author: author})
	if err != nil {
		c.failErr(m.ID, m.Room, err)
		return
	}
	c.reply(ackMsg{Type: "ack", ID: m.ID, Room: m.Room})
}

// pair puts the connection in quick pairing's queue; the answer comes when someone is
// found (paired) or nobody came (pair_expired). A second pair replaces the first.
func (c *conn) pair(m ClientMessage) {
	c.unpair()
	if m.Identity != "" {
		c.setAuthor(m.Identity)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := c.extra()
	e.mu.Lock()
	e.pairCancel = cancel
	e.mu.Unlock()
	req := rooms.PairRequest{Game: m.Game, Size: m.Size, Rule: m.Rule, Name: m.Name, Identity: m.Identity}
	if m.Clock != nil {
		req.Clock = *m.Clock
	}
	if err := req.Check(); err != nil {
		cancel()
		c.failErr(m.ID, "", err)
		return
	}
	c.reply(ackMsg{Type: "ack", ID: m.ID})
	go func() {
		defer cancel()
		p, err := c.hub.svc.Pair(ctx, req)
		switch {
		case ctx.Err() != nil:
			return // the client left the queue (or the connection)
		case err != nil:
			c.failErr(m.ID, "", err)
		case p.Room == "":
			c.reply(pairExpiredMsg{Type: "pair_expired", ID: m.ID, BotLevel: p.BotLevel})
		default:
			c.reply(pairedMsg{Type: "paired", ID: m.ID, Room: p.Room, Seat: string(p.Seat), Token: p.Token})
		}
	}()
}

// unpair takes the connection out of the pairing queue, if it is in it.
func (c *conn) unpair() {
	c.mu.Lock()
	e := c.extras
	c.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	cancel := e.pairCancel
	e.pairCancel = nil
	e.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// dropExtras ends what a closed connection was doing beyond its rooms.
func (c *conn) dropExtras() {
	c.unpair()
	c.hub.lobby.unsubscribe(c)
}

// lobbyPush keeps the connections that watch the lobby and sends them its lists: read
// every lobbyEvery while anyone watches, sent only when they changed.
type lobbyPush struct {
	hub *Hub

	mu       sync.Mutex
	watchers map[*conn]struct{}
	last     []byte       // the lists as last sent
	lists    *rooms.Lobby // the same, for answering a new subscriber with its id
	running  bool
}

// lobbyEvery is how often the lobby's lists are read while someone watches: fresh enough
// to feel live, one Store read per node however many watch.
const lobbyEvery = 2 * time.Second

func (l *lobbyPush) subscribe(c *conn, id *int64) {
	l.mu.Lock()
	if l.watchers == nil {
		l.watchers = map[*conn]struct{}{}
	}
	l.watchers[c] = struct{}{}
	start := !l.running
	l.running = true
	lists := l.lists
	l.mu.Unlock()
	if start {
		go l.run()
	}
	// The answer carries the request's id; later pushes carry none.
	if lists != nil {
		c.reply(lobbyMsg{Type: "lobby", ID: id, Lobby: *lists})
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), l.hub.cfg.CommandTimeout)
		defer cancel()
		lobby, err := l.hub.svc.Lobby(ctx)
		if err != nil {
			c.failErr(id, "", err)
			return
		}
		c.reply(lobbyMsg{Type: "lobby", ID: id, Lobby: lobby})
	}
}

func (l *lobbyPush) unsubscribe(c *conn) {
	l.mu.Lock()
	delete(l.watchers, c)
	l.mu.Unlock()
}

// run reads and sends the lists until nobody watches.
func (l *lobbyPush) run() {
	t := time.NewTicker(lobbyEvery)
	defer t.Stop()
	for range t.C {
		l.mu.Lock()
		if len(l.watchers) == 0 {
			l.running, l.last, l.lists = false, nil, nil
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), l.hub.cfg.CommandTimeout)
		lobby, err := l.hub.svc.Lobby(ctx)
		cancel()
		if err != nil {
			continue // the store is down: watchers keep the last lists (and get status)
		}
		msg := encode(lobbyMsg{Type: "lobby", Lobby: lobby})
		l.mu.Lock()
		if string(msg) == string(l.last) {
			l.mu.Unlock()
			continue
		}
		l.last, l.lists = msg, &lobby
		watchers := make([]*conn, 0, len(l.watchers))
		for w := range l.watchers {
			watchers = append(watchers, w)
		}
		l.mu.Unlock()
		for _, w := range watchers {
			w.Deliver(msg)
		}
	}
}

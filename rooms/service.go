package rooms

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Subscriber is a client watching a room: the hub's connection. The room hands it whole
// protocol messages, encoded once and shared by all watchers (never modify them).
type Subscriber interface {
	// Deliver queues msg for the client and must never block. It returns false when
	// the client is gone or too slow to keep up; the room then forgets it.
	Deliver(msg []byte) bool
}

// Config tunes a Service. Zero fields take the defaults below.
type Config struct {
	// Node names this server process among all nodes (random when empty).
	Node string
	// BotMoveTime caps one bot search (default 5 s): the engines stop at their depth or
	// at this time, whichever comes first.
	BotMoveTime time.Duration
	// BotPace is the least time a bot takes per move when both seats are bots (default
	// 600 ms), so that a bot-vs-bot demo can be watched.
	BotPace time.Duration
	// BotLease is how long a node's claim on a bot search stands without renewal
	// (default 15 s): how soon another node takes over the search of a node that died.
	BotLease time.Duration
	// IdleRoom is how long a room nobody watches stays loaded (default 1 min). A room
	// whose clock runs stays loaded until the clock stops.
	IdleRoom time.Duration
	// ClaimGrace is how long a seated player may be disconnected before the opponent may
	// claim the game (default 0: by the time control, 15 s to 60 s; docs/protocol.md).
	ClaimGrace time.Duration
	// PairWait is how long quick pairing looks for an opponent before it offers a bot
	// instead (default 30 s).
	PairWait time.Duration
	// Inbox is the length of each live room's command queue (default 256). When it is
	// full, commands fail with `busy`.
	Inbox int
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
	// Metrics receives the service's measurements (may be nil).
	Metrics *Metrics
}

func (c *Config) fill() {
	if c.Node == "" {
		b := make([]byte, 4)
		rand.Read(b)
		c.Node = hex.EncodeToString(b)
	}
	if c.BotMoveTime <= 0 {
		c.BotMoveTime = 5 * time.Second
	}
	if c.BotPace < 0 {
		c.BotPace = 0
	}
	if c.BotLease <= 0 {
		c.BotLease = 15 * time.Second
	}
	if c.IdleRoom <= 0 {
		c.IdleRoom = time.Minute
	}
	if c.Inbox <= 0 {
		c.Inbox = 256
	}
	if c.PairWait <= 0 {
		c.PairWait = 30 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
}

// Service is the rooms of one server node: it creates rooms, loads the ones its clients
// watch (one goroutine each, which alone owns the room's state), applies commands
// through the Store's compare-and-set, fans events out to local watchers and, through the
// Broker, to other nodes, and runs bot moves on the BotPool.
type Service struct {
	cfg      Config
	store    Store
	broker   Broker
	analyzer *analyzer
	log      *slog.Logger
	node     *node // what the live rooms share

	ctx    context.Context // the service's lifetime; cancelled by Shutdown
	cancel context.CancelFunc
	wg     sync.WaitGroup // live rooms and the sweeper

	mu   sync.Mutex
	live map[string]*liveRoom
}

// NewService returns a Service on store, broker and bots and starts its bot sweeper.
func NewService(store Store, broker Broker, bots *BotPool, cfg Config) *Service {
	cfg.fill()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{cfg: cfg, store: store, broker: broker, analyzer: newAnalyzer(), log: cfg.Logger,
		ctx: ctx, cancel: cancel, live: map[string]*liveRoom{}}
	s.node = &node{name: cfg.Node, store: store, broker: broker, bots: bots, cfg: cfg,
		log: cfg.Logger, metrics: cfg.Metrics, ctx: ctx, unlist: s.unlist, wake: s.wake,
		noticeOutage: make(chan struct{}, 1)}
	s.wg.Add(2)
	go s.sweep()
	go s.watchStore()
	return s
}

// Store watching: a node pings its Store every storeCheckEvery (every second while it is
// down, and at once when a room's call finds it down), and tells every watcher of its
// live rooms when it goes down and when it is back.
const (
	storeCheckEvery   = 5 * time.Second
	storeRecheckEvery = time.Second
)

func (s *Service) watchStore() {
	defer s.wg.Done()
	t := time.NewTimer(storeCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		case <-s.node.noticeOutage:
		}
		ctx, cancel := backendContext(s.ctx)
		err := s.store.Ping(ctx)
		cancel()
		if s.ctx.Err() != nil {
			return
		}
		down := err != nil
		if down != s.node.storeDown.Load() {
			s.node.storeDown.Store(down)
			if down {
				s.log.Warn("the store cannot be reached: moves are paused", "err", err)
			} else {
				s.log.Info("the store is back")
			}
			s.tellEveryone(storageMsg(!down))
		}
		next := storeCheckEvery
		if down {
			next = storeRecheckEvery
		}
		t.Reset(next)
	}
}

// tellEveryone sends msg to every watcher of every live room of this node.
func (s *Service) tellEveryone(msg []byte) {
	s.mu.Lock()
	live := make([]*liveRoom, 0, len(s.live))
	for _, r := range s.live {
		live = append(live, r)
	}
	s.mu.Unlock()
	for _, r := range live {
		r.post(func() { r.broadcast(msg) })
	}
}

// Node is this node's name.
func (s *Service) Node() string { return s.cfg.Node }

// SeatSpec is a seat as a new room asks for it.
type SeatSpec struct {
	Kind  SeatKind `json:"kind"`
	Level int      `json:"level,omitempty"`
}

// CreateRequest is a new room's options (the body of POST /api/rooms).
type CreateRequest struct {
	Game  string      `json:"game"`
	Size  int         `json:"size,omitempty"`
	Rule  string      `json:"rule,omitempty"`
	Clock TimeControl `json:"clock,omitzero"`
	Black SeatSpec    `json:"black"`
	White SeatSpec    `json:"white"`
	// Identity is the creating browser's identity key (optional), for the limit on the
	// rooms one person keeps waiting.
	Identity string `json:"identity,omitempty"`
}

// maxWaitingPerIdentity is how many rooms one identity may have waiting for a player at
// once: a few invitations out, not a lobby full of them.
const maxWaitingPerIdentity = 5

// Create makes a new room and returns its state.
func (s *Service) Create(ctx context.Context, req CreateRequest) (StateView, error) {
	meta := Meta{ID: newRoomID(), Game: req.Game, Size: req.Size, Rule: req.Rule, Clock: req.Clock,
		CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	if err := normalizeMeta(&meta); err != nil {
		return StateView{}, err
	}
	if err := meta.Clock.normalize(); err != nil {
		return StateView{}, err
	}
	if req.Identity != "" {
		hash, err := HashIdentity(req.Identity)
		if err != nil {
			return StateView{}, err
		}
		mine, err := s.store.PlayerRooms(ctx, hash, PlayerRoomsKept)
		if err != nil {
			return StateView{}, err
		}
		waiting := 0
		for _, r := range mine {
			if r.Status == StatusWaiting {
				waiting++
			}
		}
		if waiting >= maxWaitingPerIdentity {
			return StateView{}, errorf(CodeTooMany, "you have %d rooms waiting for a player: start, leave or let one expire first", waiting)
		}
	}
	st, err := newRoomState(meta)
	if err != nil {
		return StateView{}, err
	}
	var events []Event
	for i, spec := range [2]SeatSpec{req.Black, req.White} {
		switch spec.Kind {
		case "", SeatOpen:
		case SeatBot:
			if err := checkLevel(meta.Game, spec.Level); err != nil {
				return StateView{}, err
			}
			events = append(events, Event{Seq: int64(len(events) + 1), Type: EvSeat, Time: meta.CreatedAt,
				Seat: sides[i], Kind: SeatBot, Level: spec.Level})
		default:
			return StateView{}, errorf(CodeBadRequest, "a new seat is open or bot, not %q (people sit down over the socket)", spec.Kind)
		}
	}
	for _, e := range events {
		if _, err := st.apply(e); err != nil {
			return StateView{}, err
		}
	}
	if err := s.store.Create(ctx, meta, events, st.summary()); err != nil {
		return StateView{}, err
	}
	s.cfg.Metrics.roomsCreated.Inc()
	if st.summary().NeedsNode() {
		s.wake(meta.ID) // a bot opens the game, or two bots' clocks run: load the room
	}
	return st.view(0), nil
}

// Record returns a room's state and whole log as clients see them, from the Store.
func (s *Service) Record(ctx context.Context, id string) (StateView, []PublicEvent, error) {
	meta, events, err := s.store.Load(ctx, id)
	if err != nil {
		return StateView{}, nil, err
	}
	st, pubs, err := replayLog(meta, events)
	if err != nil {
		return StateView{}, nil, err
	}
	v := st.view(0)
	v.Clock = st.clockView(time.Now())
	sums := []Summary{{ID: id}}
	s.addPresence(ctx, sums)
	v.Viewers, v.Spectators = sums[0].Viewers, sums[0].Spectators
	for _, side := range sums[0].Present {
		v.Presence[side] = true
	}
	return v, pubs, nil
}

// List returns the lobby: up to limit rooms, most recently active first, with their
// viewer counts.
func (s *Service) List(ctx context.Context, limit int) ([]Summary, error) {
	sums, err := s.store.List(ctx, limit)
	if err != nil {
		return nil, err
	}
	s.addPresence(ctx, sums)
	return sums, nil
}

// addPresence fills in who is in each room over all nodes: its spectators, whether each
// seat's player is connected, and the people watching (each connected seat once).
func (s *Service) addPresence(ctx context.Context, sums []Summary) {
	keys := make([]string, 0, 3*len(sums))
	for _, sum := range sums {
		keys = append(keys, sum.ID, seatKey(sum.ID, Black), seatKey(sum.ID, White))
	}
	counts, err := s.broker.Presence(ctx, keys)
	if err != nil {
		return
	}
	for i := range sums {
		id := sums[i].ID
		sums[i].Spectators = counts[id]
		sums[i].Viewers = counts[id]
		for _, side := range sides {
			if counts[seatKey(id, side)] > 0 {
				sums[i].Present = append(sums[i].Present, side)
				sums[i].Viewers++
			}
		}
	}
}

// Ping checks the Store.
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// JoinRequest is a client's request to watch a room.
type JoinRequest struct {
	Room  string
	Token string // the seat token to act for a seat again, or ""
	Since *int64 // the last seq the client saw, or nil for the whole log
	ReqID *int64 // the client's message id, echoed in the joined message
}

// Join adds sub to the room's watchers and delivers the `joined` message to it (the
// events it missed and the state) before any later event. It returns the seat the token
// holds ("" for a spectator).
func (s *Service) Join(ctx context.Context, sub Subscriber, req JoinRequest) (Side, error) {
	var side Side
	var err error
	callErr := s.call(ctx, req.Room, func(r *liveRoom) { side, err = r.join(sub, req) })
	if callErr != nil {
		return "", callErr
	}
	return side, err
}

// Leave removes sub from the room's watchers.
func (s *Service) Leave(ctx context.Context, id string, sub Subscriber) error {
	return s.call(ctx, id, func(r *liveRoom) { r.leave(sub) })
}

// Chat says a line in a room (docs/protocol.md, Chat): stored with the room, then sent to
// every watcher on every node. Errors are *Error.
func (s *Service) Chat(ctx context.Context, id string, req ChatRequest) error {
	var err error
	if callErr := s.call(ctx, id, func(r *liveRoom) { err = r.say(ctx, req) }); callErr != nil {
		return callErr
	}
	return err
}

// MyGames lists the rooms an identity played (docs/protocol.md, GET /api/my-games).
func (s *Service) MyGames(ctx context.Context, identity string) ([]PlayerRoom, error) {
	hash, err := HashIdentity(identity)
	if err != nil {
		return nil, err
	}
	return s.store.PlayerRooms(ctx, hash, 100)
}

// Reply is what a stored command gives back.
type Reply struct {
	Seq   int64 // the seq of the last event stored
	Seat  Side  // CmdSit: the seat taken
	Token string
}

// Do carries out a client's command in a room: decided against the room's state, stored
// with the Store's compare-and-set, then sent to every watcher. Errors are *Error.
func (s *Service) Do(ctx context.Context, id string, cmd Command) (Reply, error) {
	start := time.Now()
	var rep Reply
	var err error
	if callErr := s.call(ctx, id, func(r *liveRoom) { rep, err = r.execute(ctx, cmd) }); callErr != nil {
		err = callErr
	}
	s.cfg.Metrics.observeCommand(cmd.Kind, time.Since(start), err)
	return rep, err
}

// call runs fn on the room's goroutine (loading the room first if need be) and waits
// for it. A room that unloaded before running fn is looked up again.
func (s *Service) call(ctx context.Context, id string, fn func(r *liveRoom)) error {
	for range 3 {
		r, err := s.room(id)
		if err != nil {
			return err
		}
		gone, err := r.call(ctx, func() { fn(r) })
		if !gone {
			return err
		}
	}
	return errorf(CodeBusy, "the room is being reloaded; try again")
}

// room returns the live room, loading it if this node has not got it.
func (s *Service) room(id string) (*liveRoom, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return nil, errorf(CodeUnavailable, "the server is shutting down")
	}
	if r := s.live[id]; r != nil {
		return r, nil
	}
	if !validRoomID(id) {
		return nil, errorf(CodeRoomNotFound, "no room %q", id)
	}
	r := newLiveRoom(s.node, id)
	s.live[id] = r
	s.cfg.Metrics.liveRooms.Inc()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		r.run()
	}()
	return r, nil
}

// validRoomID rejects ids that newRoomID cannot have made, before they reach the Store.
func validRoomID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// unlist removes r from the live rooms, if it is still the room listed under its id.
func (s *Service) unlist(r *liveRoom) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live[r.id] == r {
		delete(s.live, r.id)
		s.cfg.Metrics.liveRooms.Dec()
	}
}

// wake loads a room so that its bot starts (no-op if it is live).
func (s *Service) wake(id string) {
	if _, err := s.room(id); err != nil {
		s.log.Debug("wake room", "room", id, "err", err)
	}
}

// sweepEvery is how often a node looks for bot games that no node is running (after a
// restart, or when the node that ran one died with nobody watching).
const sweepEvery = 10 * time.Second

func (s *Service) sweep() {
	defer s.wg.Done()
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		ctx, cancel := backendContext(s.ctx)
		ids, err := s.store.BotRooms(ctx)
		cancel()
		if err == nil {
			for _, id := range ids {
				s.wake(id)
			}
		} else if !errors.Is(err, context.Canceled) {
			s.node.backendFailed(err)
			s.node.warn("bot sweep", "err", err)
		}
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Shutdown stops every live room: bot searches are cancelled and their leases given
// back so another node takes them over at once. Clients are the hub's to tell.
func (s *Service) Shutdown(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

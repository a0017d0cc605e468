package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"
)

// liveRoom is a room loaded on this node. Its goroutine (run) alone owns the fields
// below inbox; everyone else sends it a task through inbox.
type liveRoom struct {
	id    string
	svc   *Service
	inbox chan func()
	done  chan struct{} // closed when the goroutine has stopped taking tasks

	// resync is set by the broker callback when it had to drop a message: the room
	// reads the Store at its next tick.
	resync atomic.Bool

	loadErr   error
	state     *State
	log       []Event // the events applied to state, in order
	subs      map[Subscriber]struct{}
	viewers   int // over all nodes
	idleSince time.Time

	bot      *botRun     // the search this node runs for the current version, if any
	botRetry *time.Timer // a pending retry to claim or start a bot search
	unsub    func()
}

// botRun is a bot search in progress on this node.
type botRun struct {
	version int64
	side    Side
	cancel  context.CancelFunc
	started time.Time
}

// brokerMsg is what nodes tell each other about a room.
type brokerMsg struct {
	Node     string          `json:"node"`
	Kind     string          `json:"kind"` // events, thinking, presence
	Events   []Event         `json:"events,omitempty"`
	Thinking json.RawMessage `json:"thinking,omitempty"`
}

// tickEvery paces a live room's housekeeping: refreshing its presence entry and bot
// lease, retrying a bot claim, unloading when idle. A third of the lease, so that a
// lease is renewed twice before it could lapse.
func (r *liveRoom) tickEvery() time.Duration { return r.svc.cfg.BotLease / 3 }

func newLiveRoom(s *Service, id string) *liveRoom {
	return &liveRoom{id: id, svc: s, inbox: make(chan func(), s.cfg.Inbox),
		done: make(chan struct{}), subs: map[Subscriber]struct{}{}, idleSince: time.Now()}
}

func (r *liveRoom) run() {
	defer r.svc.wg.Done()
	r.load()
	tick := time.NewTicker(r.tickEvery())
	defer tick.Stop()
	for {
		select {
		case task := <-r.inbox:
			task()
		case <-tick.C:
			if r.housekeep() {
				return
			}
		case <-r.svc.ctx.Done():
			r.stop()
			return
		}
		if r.loadErr != nil && r.svc.retire(r) {
			r.stop()
			return
		}
	}
}

// load subscribes to the room's broker channel, then reads the room from the Store, so
// that no event stored meanwhile is missed.
func (r *liveRoom) load() {
	unsub, err := r.svc.broker.Subscribe(r.id, r.fromBroker)
	if err != nil {
		r.loadErr = err
		return
	}
	r.unsub = unsub
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	meta, events, err := r.svc.store.Load(ctx, r.id)
	if err == nil {
		r.state, err = Replay(meta, events)
		r.log = events
	}
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			err = errorf(CodeRoomNotFound, "no room %q (it may have expired)", r.id)
		}
		r.loadErr = err
		return
	}
	r.checkBot()
}

// stop ends the room on this node: its search is cancelled and its lease, presence and
// subscription given up. Tasks still queued are answered by call's retry.
func (r *liveRoom) stop() {
	r.svc.retire(r)
	close(r.done)
	if r.botRetry != nil {
		r.botRetry.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
	defer cancel()
	if r.bot != nil {
		r.bot.cancel()
		r.svc.broker.Release(ctx, botLeaseKey(r.id), r.svc.cfg.Node)
		r.bot = nil
	}
	if len(r.subs) > 0 {
		r.svc.broker.SetPresence(ctx, r.id, r.svc.cfg.Node, 0)
	}
	if r.unsub != nil {
		r.unsub()
	}
}

// housekeep runs at every tick; it reports whether the room has unloaded itself.
func (r *liveRoom) housekeep() bool {
	if r.loadErr != nil {
		return false
	}
	if r.resync.Swap(false) {
		r.catchUp()
	}
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	if len(r.subs) > 0 {
		r.svc.broker.SetPresence(ctx, r.id, r.svc.cfg.Node, len(r.subs))
	}
	if r.bot != nil {
		if ok, err := r.svc.broker.Claim(ctx, botLeaseKey(r.id), r.svc.cfg.Node, r.svc.cfg.BotLease); err == nil && !ok {
			// Another node took the lease (ours lapsed during an outage): let it search.
			r.bot.cancel()
			r.bot = nil
		}
	}
	_, _, botToMove := r.state.BotToMove()
	if len(r.subs) == 0 && !botToMove && r.bot == nil && time.Since(r.idleSince) > r.svc.cfg.IdleRoom {
		if r.svc.retire(r) {
			r.stop()
			return true
		}
	}
	if botToMove && r.bot == nil {
		r.checkBot() // also recovers a retry whose timer could not reach a full queue
	}
	return false
}

// post queues a task from another goroutine without blocking; false if the room is
// gone or its queue is full.
func (r *liveRoom) post(task func()) bool {
	select {
	case <-r.done:
		return false
	default:
	}
	select {
	case r.inbox <- task:
		return true
	default:
		return false
	}
}

// fromBroker receives a message from any node (this one included) on the broker's
// goroutine.
func (r *liveRoom) fromBroker(raw []byte) {
	var m brokerMsg
	if err := json.Unmarshal(raw, &m); err != nil {
		r.svc.log.Warn("bad broker message", "room", r.id, "err", err)
		return
	}
	if m.Node == r.svc.cfg.Node && m.Kind != "presence" {
		return // this node applied its own events and sent its own progress already
	}
	var task func()
	switch m.Kind {
	case "events":
		task = func() { r.onEvents(m.Events) }
	case "thinking":
		task = func() { r.broadcast(m.Thinking) }
	case "presence":
		task = r.refreshViewers
	default:
		return
	}
	if !r.post(task) && m.Kind == "events" {
		r.resync.Store(true)
	}
}

// onEvents applies events stored by another node.
func (r *liveRoom) onEvents(events []Event) {
	if r.state == nil {
		return
	}
	for _, e := range events {
		switch {
		case e.Seq <= r.state.Version:
			continue
		case e.Seq > r.state.Version+1:
			r.catchUp()
			return
		}
		if !r.applyAndBroadcast(e) {
			return
		}
	}
	r.checkBot()
}

// catchUp reads the events this node has missed from the Store.
func (r *liveRoom) catchUp() {
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	events, err := r.svc.store.EventsSince(ctx, r.id, r.state.Version)
	if err != nil {
		r.svc.log.Warn("catch up", "room", r.id, "err", err)
		r.resync.Store(true)
		return
	}
	for _, e := range events {
		if !r.applyAndBroadcast(e) {
			return
		}
	}
	r.checkBot()
}

// applyAndBroadcast applies a stored event and sends it to the watchers. A log the
// rules cannot follow is a bug: the room reloads from the Store.
func (r *liveRoom) applyAndBroadcast(e Event) bool {
	pub, err := r.state.Apply(e)
	if err != nil {
		r.svc.log.Error("apply stored event", "room", r.id, "seq", e.Seq, "err", err)
		r.loadErr = errorf(CodeInternal, "room %s needs reloading", r.id)
		return false
	}
	r.log = append(r.log, e)
	r.broadcast(mustJSON(eventMsg{Type: "event", Room: r.id, Event: pub, State: r.state.View(r.viewers)}))
	return true
}

// broadcast hands msg to every local watcher, forgetting those that cannot keep up.
func (r *liveRoom) broadcast(msg []byte) {
	dropped := false
	for sub := range r.subs {
		if !sub.Deliver(msg) {
			delete(r.subs, sub)
			dropped = true
		}
	}
	if dropped {
		r.presenceChanged()
	}
}

// join adds a watcher and sends it the joined message.
func (r *liveRoom) join(sub Subscriber, req JoinRequest) (Side, error) {
	var side Side
	if req.Token != "" {
		if side = r.state.sideOfToken(req.Token); side == "" {
			return "", errorf(CodeBadToken, "that seat token is not valid in this room (the seat may have changed hands)")
		}
	}
	pubs, full, err := r.eventsFor(req.Since)
	if err != nil {
		return "", err
	}
	_, had := r.subs[sub]
	r.subs[sub] = struct{}{}
	r.idleSince = time.Now()
	if !had {
		r.presenceChanged()
	}
	msg := joinedMsg{Type: "joined", ID: req.ReqID, Room: r.id, Full: full,
		State: r.state.View(r.viewers), Events: pubs}
	if side != "" {
		msg.Seat = &side
	}
	if !sub.Deliver(mustJSON(msg)) {
		delete(r.subs, sub)
		r.presenceChanged()
	}
	return side, nil
}

// eventsFor returns the public events after since (all of them when since is nil or
// does not fit the log) and whether that is the whole log.
func (r *liveRoom) eventsFor(since *int64) ([]PublicEvent, bool, error) {
	_, pubs, err := replayPublic(r.state.Meta, r.log)
	if err != nil {
		return nil, false, err
	}
	if since == nil || *since < 0 || *since > r.state.Version {
		return pubs, true, nil
	}
	return pubs[*since:], false, nil
}

func (r *liveRoom) leave(sub Subscriber) {
	if _, ok := r.subs[sub]; !ok {
		return
	}
	delete(r.subs, sub)
	r.idleSince = time.Now()
	r.presenceChanged()
}

// presenceChanged records this node's watcher count and tells the other nodes.
func (r *liveRoom) presenceChanged() {
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	if err := r.svc.broker.SetPresence(ctx, r.id, r.svc.cfg.Node, len(r.subs)); err != nil {
		r.svc.log.Warn("presence", "room", r.id, "err", err)
		return
	}
	r.svc.broker.Publish(ctx, r.id, mustJSON(brokerMsg{Node: r.svc.cfg.Node, Kind: "presence"}))
}

// refreshViewers reads the viewer count over all nodes and tells watchers if it changed.
func (r *liveRoom) refreshViewers() {
	if r.state == nil {
		return
	}
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	counts, err := r.svc.broker.Presence(ctx, []string{r.id})
	if err != nil || counts[r.id] == r.viewers {
		return
	}
	r.viewers = counts[r.id]
	r.broadcast(mustJSON(viewersMsg{Type: "viewers", Room: r.id, Count: r.viewers}))
}

// execute carries out a command: decide, store with compare-and-set, apply, broadcast.
func (r *liveRoom) execute(ctx context.Context, cmd Command) (Reply, error) {
	var rep Reply
	if !cmd.bot {
		cmd.actor = ""
		if cmd.Token != "" {
			if cmd.actor = r.state.sideOfToken(cmd.Token); cmd.actor == "" {
				return rep, errorf(CodeBadToken, "that seat token is not valid in this room")
			}
		}
	}
	if cmd.Kind == CmdSit {
		rep.Token, cmd.tokenHash = newToken()
		rep.Seat = cmd.Seat
	}
	for attempt := 0; attempt < 2; attempt++ {
		events, err := r.state.Decide(cmd, time.Now().UTC().Truncate(time.Millisecond))
		if err != nil {
			return Reply{}, err
		}
		err = r.store(ctx, events)
		if errors.Is(err, ErrStale) {
			r.svc.cfg.Metrics.staleAppends.Inc()
			r.catchUp() // another node stored first: look again at the new state
			continue
		}
		if err != nil {
			return Reply{}, err
		}
		rep.Seq = events[len(events)-1].Seq
		r.idleSince = time.Now()
		r.checkBot()
		return rep, nil
	}
	return Reply{}, errorf(CodeStale, "another move was stored first; look at the new position")
}

// store appends events with compare-and-set, then applies them, tells local watchers
// and publishes them to the other nodes.
func (r *liveRoom) store(ctx context.Context, events []Event) error {
	next := r.state.clone()
	for _, e := range events {
		if _, err := next.Apply(e); err != nil {
			return errorf(CodeInternal, "%v", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, backendTimeout)
	defer cancel()
	if err := r.svc.store.Append(ctx, r.id, r.state.Version, events, next.Summary()); err != nil {
		if errors.Is(err, ErrNotFound) {
			return errorf(CodeRoomNotFound, "the room has expired")
		}
		return err
	}
	for _, e := range events {
		r.applyAndBroadcast(e)
		r.svc.cfg.Metrics.events.WithLabelValues(string(e.Type)).Inc()
	}
	if err := r.svc.broker.Publish(ctx, r.id, mustJSON(brokerMsg{Node: r.svc.cfg.Node, Kind: "events", Events: events})); err != nil {
		r.svc.log.Warn("publish events", "room", r.id, "err", err)
	}
	return nil
}

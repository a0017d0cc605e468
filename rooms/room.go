package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"
)

// liveRoom is a room loaded on this node. Its goroutine (run) alone owns the fields
// below inbox; everyone else hands it a task through call or post.
type liveRoom struct {
	id    string
	node  *node
	inbox chan func()
	done  chan struct{} // closed when the goroutine has stopped taking tasks

	// resync is set by the broker callback when it had to drop a message: the room
	// reads the Store at its next tick.
	resync atomic.Bool

	loadErr   error
	state     *roomState
	public    []PublicEvent       // the log as clients see it, one entry per applied event
	chat      []ChatLine          // the room's last ChatKept chat lines
	subs      map[Subscriber]Side // local watchers and the seat each acts for ("" spectating)
	seen      seen                // who watches over all nodes, as last read
	published [2]int              // the seat presence this node last recorded (0 or 1)
	clock     *time.Timer         // fires at the running clock's deadline
	quiet     *time.Timer         // fires when the room has been quiet a moment after a change
	verified  time.Time           // when the room last confirmed its version with the Store
	// refusalRead is when a refused command last made the room read the Store.
	refusalRead time.Time
	idleSince   time.Time

	bot      *botRun     // the search this node runs for the current version, if any
	botRetry *time.Timer // a pending retry to claim or start a bot search
	unsub    func()
}

// brokerMsg is what nodes tell each other about a room.
type brokerMsg struct {
	Node     string          `json:"node"`
	Kind     string          `json:"kind"` // events, thinking, presence, chat
	Events   []Event         `json:"events,omitempty"`
	Thinking json.RawMessage `json:"thinking,omitempty"`
	Chat     *ChatLine       `json:"chat,omitempty"`
}

func newLiveRoom(n *node, id string) *liveRoom {
	return &liveRoom{id: id, node: n, inbox: make(chan func(), n.cfg.Inbox),
		done: make(chan struct{}), subs: map[Subscriber]Side{}, idleSince: time.Now(),
		published: [2]int{-1, -1}}
}

// tickEvery paces a live room's housekeeping: refreshing its presence entry and bot
// lease, retrying a bot claim, unloading when idle. A third of the lease, so that a
// lease is renewed twice before it could lapse.
func (r *liveRoom) tickEvery() time.Duration { return r.node.cfg.BotLease / 3 }

// The task handshake. Tasks reach the goroutine through inbox; call waits for its task,
// post does not. A room unloads itself (retire) only with nothing queued, then closes
// done: a caller whose task was never run sees done and looks the room up again.

// call runs fn on the room's goroutine and waits for it, or for ctx. gone reports that
// the room stopped before running fn (the caller loads it again). A room that failed to
// load answers with its load error instead of running fn.
func (r *liveRoom) call(ctx context.Context, fn func()) (gone bool, err error) {
	ran := make(chan struct{})
	task := func() {
		if r.loadErr != nil {
			err = r.loadErr
		} else {
			fn()
		}
		close(ran)
	}
	select {
	case r.inbox <- task:
	case <-r.done:
		return true, nil
	case <-ctx.Done():
		return false, errorf(CodeBusy, "the room did not answer in time (%v); try again", ctx.Err())
	default:
		return false, errorf(CodeBusy, "the room has too many requests waiting; try again")
	}
	select {
	case <-ran:
		return false, err
	case <-r.done:
		select {
		case <-ran: // it ran just before the room unloaded
			return false, err
		default:
			return true, nil
		}
	case <-ctx.Done():
		return false, errorf(CodeBusy, "the room did not answer in time (%v); try again", ctx.Err())
	}
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

// postAfter queues a task that must not be lost after d, waiting for room in the queue
// if it is full then (a bot's paced move: dropping it would leave the bot set and silent).
func (r *liveRoom) postAfter(d time.Duration, task func()) {
	time.AfterFunc(d, func() { r.postWait(task) })
}

// postWait queues a task that must not be lost to a full queue; it waits for room in
// the queue unless the room stops.
func (r *liveRoom) postWait(task func()) {
	select {
	case r.inbox <- task:
	case <-r.done:
	}
}

// retire takes the room off the node's list unless tasks wait for it (a room that
// failed to load goes regardless: its tasks are answered by call's retry); it reports
// whether it did. Called on the room's goroutine, which then stops.
func (r *liveRoom) retire() bool {
	if len(r.inbox) > 0 && r.loadErr == nil {
		return false
	}
	r.node.unlist(r)
	return true
}

func (r *liveRoom) run() {
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
		case <-r.node.ctx.Done():
			r.stop()
			return
		}
		if r.loadErr != nil && r.retire() {
			r.stop()
			return
		}
	}
}

// load subscribes to the room's broker channel, then reads the room from the Store, so
// that no event stored meanwhile is missed.
func (r *liveRoom) load() {
	unsub, err := r.node.broker.Subscribe(r.id, r.fromBroker)
	if err != nil {
		r.loadErr = err
		return
	}
	r.unsub = unsub
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	meta, events, err := r.node.store.Load(ctx, r.id)
	if err == nil {
		r.state, r.public, err = replayLog(meta, events)
	}
	if err == nil {
		r.chat, err = r.node.store.Chat(ctx, r.id)
	}
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			err = errorf(CodeRoomNotFound, "no room %q (it may have expired)", r.id)
		}
		r.loadErr = err
		return
	}
	r.verified = time.Now()
	r.refreshViewers()
	r.settle()
}

// settle makes what runs for the room match its state: the bot's search, the clock's
// timer, and the check that no event was missed. Called on the room goroutine after every
// change.
func (r *liveRoom) settle() {
	r.checkBot()
	r.armClock()
	r.checkWhenQuiet()
}

// A node learns of other nodes' events from the Broker, at most once: a node that stores
// an event and dies before publishing it, or a pub/sub connection that drops, leaves the
// others on an old version. A room therefore reads the Store's log after it (when it has
// not since): a moment after each change, once it has gone quiet (the last event is the
// one that can be missed without a later one showing the gap); every verifyEvery while it
// was active in the last activeWindow and someone watches; before refusing a client's
// command; and when a client joins knowing a later version. Busy rooms, whose changes come
// faster than quietAfter, cost nothing extra; a quiet room costs one read per change.
const (
	quietAfter   = 1500 * time.Millisecond
	verifyEvery  = 30 * time.Second
	activeWindow = 10 * time.Minute
	// refusalCheck is the least time between the Store reads that client refusals cause,
	// so that a client sending refused commands cannot make a room read the Store at will.
	refusalCheck = 250 * time.Millisecond
)

// checkWhenQuiet (re)arms the check that follows a change.
func (r *liveRoom) checkWhenQuiet() {
	if r.quiet != nil {
		r.quiet.Reset(quietAfter) // one timer for the room's life: no allocation per move
		return
	}
	r.quiet = time.AfterFunc(quietAfter, func() {
		r.post(func() {
			if time.Since(r.verified) >= quietAfter {
				r.verify()
			}
		})
	})
}

// verify reads the events this node may have missed; it reports whether there were any.
func (r *liveRoom) verify() bool {
	if r.state == nil || r.loadErr != nil {
		return false
	}
	before := r.state.version
	r.catchUp()
	return r.state != nil && r.state.version != before
}

// stop ends the room on this node: its search is cancelled and its lease, presence and
// subscription given up. Tasks still queued are answered by call's retry.
func (r *liveRoom) stop() {
	r.node.unlist(r)
	close(r.done)
	if r.botRetry != nil {
		r.botRetry.Stop()
	}
	if r.clock != nil {
		r.clock.Stop()
	}
	if r.quiet != nil {
		r.quiet.Stop()
	}
	// The node's own context may be cancelled (shutdown): these calls outlive it.
	ctx, cancel := backendContext(context.Background())
	defer cancel()
	if r.bot != nil {
		r.bot.cancel()
		r.node.broker.Release(ctx, botLeaseKey(r.id), r.node.name)
		r.bot = nil
	}
	if len(r.subs) > 0 {
		if r.loadErr != nil {
			// The room unloads because its copy here went wrong: rather than leave its
			// watchers hearing nothing, tell them to join again, which loads it afresh.
			msg := mustJSON(resyncMsg{Type: "resync", Room: r.id,
				Message: "the stored game changed after a server failure (the last moves shown may be gone): showing it as stored"})
			for sub := range r.subs {
				sub.Deliver(msg)
			}
		}
		r.subs = map[Subscriber]Side{}
		r.recordPresence(ctx)
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
	if r.resync.Swap(false) || len(r.subs) > 0 && time.Since(r.verified) > verifyEvery &&
		time.Since(r.state.updated) < activeWindow {
		r.catchUp()
	}
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	if len(r.subs) > 0 {
		r.published = [2]int{-1, -1} // refresh every entry before it lapses
		r.recordPresence(ctx)
	}
	if r.bot != nil {
		if ok, err := r.node.broker.Claim(ctx, botLeaseKey(r.id), r.node.name, r.node.cfg.BotLease); err == nil && !ok {
			// Another node took the lease (ours lapsed during an outage): let it search.
			r.bot.cancel()
			r.bot = nil
		}
	}
	_, _, botToMove := r.state.botToMove()
	_, clockRuns := r.state.deadline()
	if len(r.subs) == 0 && !botToMove && !clockRuns && r.bot == nil && time.Since(r.idleSince) > r.node.cfg.IdleRoom {
		if r.retire() {
			r.stop()
			return true
		}
	}
	if botToMove && r.bot == nil {
		r.checkBot() // also recovers a retry whose timer could not reach a full queue
	}
	if clockRuns {
		r.armClock() // the deadline as the log says (a safety net: every change re-arms it too)
	}
	return false
}

// fromBroker receives a message from any node (this one included) on the broker's
// goroutine.
func (r *liveRoom) fromBroker(raw []byte) {
	var m brokerMsg
	if err := json.Unmarshal(raw, &m); err != nil {
		r.node.warn("bad broker message", "room", r.id, "err", err)
		return
	}
	if m.Node == r.node.name && m.Kind != "presence" {
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
	case "chat":
		if m.Chat == nil {
			return
		}
		task = func() { r.said(*m.Chat) }
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
		case e.Seq <= r.state.version:
			if e.Seq > 0 && !sameEvent(e, r.public[e.Seq-1].Event) {
				// Another node stored a different event under a seq this node has: the
				// Store lost events this node applied (a failover without WAIT) and the
				// game went on without them. catchUp finds it and reloads the room.
				r.catchUp()
				return
			}
			continue
		case e.Seq > r.state.version+1:
			r.catchUp()
			return
		}
		if !r.applyAndBroadcast(e) {
			return
		}
	}
	r.settle()
}

// catchUp reads the events this node has missed from the Store.
//
// It reads from the last event this node has, not after it: if the Store no longer has
// that event, or has another in its place (a Redis failover without WAIT lost a write
// this node had applied, and the game may have gone on without it), the room is ahead of
// the Store and reloads from it, telling its watchers (resync), rather than refuse every
// command as stale for good or decide moves on a position the Store does not have.
func (r *liveRoom) catchUp() {
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	have := r.state.version
	events, err := r.node.store.EventsSince(ctx, r.id, max(0, have-1))
	if err != nil {
		r.node.backendFailed(err)
		r.node.warn("catch up", "room", r.id, "err", err)
		r.resync.Store(true)
		return
	}
	if have > 0 {
		if len(events) == 0 || events[0].Seq != have || !sameEvent(events[0], r.public[have-1].Event) {
			r.node.log.Error("the store lost events this node applied; reloading the room", "room", r.id, "version", have)
			r.loadErr = errorf(CodeUnavailable, "room %s is being reloaded; try again", r.id)
			return
		}
		events = events[1:]
	}
	r.verified = time.Now()
	for _, e := range events {
		if !r.applyAndBroadcast(e) {
			return
		}
	}
	r.settle()
}

// sameEvent reports whether a and b are the same stored event: the same seq and what
// happened, at the same instant (two nodes' events at one seq differ at least in time).
func sameEvent(a, b Event) bool {
	return a.Seq == b.Seq && a.Type == b.Type && a.Time.Equal(b.Time) && a.Seat == b.Seat && a.By == b.By &&
		a.Kind == b.Kind && a.Name == b.Name && a.Level == b.Level && a.Move == b.Move && a.Plies == b.Plies &&
		a.Next == b.Next && a.Claim == b.Claim
}

// applyAndBroadcast applies an event another node stored and sends it to the watchers.
// A log the rules cannot follow is a bug: the room reloads from the Store.
func (r *liveRoom) applyAndBroadcast(e Event) bool {
	pub, err := r.state.apply(e)
	if err != nil {
		r.node.log.Error("apply stored event", "room", r.id, "seq", e.Seq, "err", err)
		r.loadErr = errorf(CodeInternal, "room %s needs reloading", r.id)
		return false
	}
	r.public = append(r.public, pub)
	r.followSeats(e, nil)
	r.broadcast(mustJSON(eventMsg{Type: "event", Room: r.id, Event: pub, State: r.decorate(r.state.view(0))}))
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
	if req.Since != nil && *req.Since > r.state.version {
		r.verify() // the client has seen a later version than this node
	}
	pubs, full := r.eventsAfter(req.Since)
	was, had := r.subs[sub]
	r.subs[sub] = side
	r.idleSince = time.Now()
	if !had || was != side {
		r.presenceChanged()
	}
	state := r.decorate(r.state.view(0))
	state.Clock = r.state.clockView(time.Now())
	msg := joinedMsg{Type: "joined", ID: req.ReqID, Room: r.id, Full: full, State: state, Events: pubs,
		Chat: r.chat}
	if msg.Chat == nil {
		msg.Chat = []ChatLine{}
	}
	if side != "" {
		msg.Seat = &side
	}
	if !sub.Deliver(mustJSON(msg)) {
		delete(r.subs, sub)
		r.presenceChanged()
	} else if r.node.storeDown.Load() {
		sub.Deliver(storageMsg(false))
	}
	return side, nil
}

// eventsAfter returns the public events after since (all of them when since is nil or
// does not fit the log) and whether that is the whole log.
func (r *liveRoom) eventsAfter(since *int64) ([]PublicEvent, bool) {
	if since == nil || *since < 0 || *since > r.state.version {
		return r.public, true
	}
	return r.public[*since:], false
}

func (r *liveRoom) leave(sub Subscriber) {
	if _, ok := r.subs[sub]; !ok {
		return
	}
	delete(r.subs, sub)
	r.idleSince = time.Now()
	r.presenceChanged()
}

// seen is who watches a room over all nodes: each seat's player (connected or not, and
// since when this node has seen them gone) and the spectators.
type seen struct {
	present    [2]bool
	goneSince  [2]time.Time
	told       [2]bool // watchers were told the seat's player left
	spectators int
}

// viewers counts people: each connected seat once, and every spectator.
func (w seen) viewers() int {
	n := w.spectators
	for _, p := range w.present {
		if p {
			n++
		}
	}
	return n
}

// seatKey names the presence entry of a room's seat: an entry of its own beside the
// room's spectator count, so that the Broker's presence counts each seat over all nodes.
func seatKey(room string, side Side) string { return room + "#" + string(side) }

// presenceChanged records this node's watchers and tells the other nodes.
func (r *liveRoom) presenceChanged() {
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	if err := r.recordPresence(ctx); err != nil {
		r.node.backendFailed(err)
		r.node.warn("presence", "room", r.id, "err", err)
		return
	}
	r.node.publish(ctx, r.id, brokerMsg{Kind: "presence"})
}

// recordPresence stores this node's spectator count and, where it changed, whether each
// seat's player has a connection here.
func (r *liveRoom) recordPresence(ctx context.Context) error {
	spectators, seats := 0, [2]int{}
	for _, side := range r.subs {
		if side == "" {
			spectators++
		} else {
			seats[side.Index()] = 1
		}
	}
	if err := r.node.broker.SetPresence(ctx, r.id, r.node.name, spectators); err != nil {
		return err
	}
	for i, n := range seats {
		if n == r.published[i] {
			continue
		}
		if err := r.node.broker.SetPresence(ctx, seatKey(r.id, sides[i]), r.node.name, n); err != nil {
			return err
		}
		r.published[i] = n
	}
	return nil
}

// refreshViewers reads who watches over all nodes and tells watchers what changed: the
// count, and a seated player who left or came back.
func (r *liveRoom) refreshViewers() {
	if r.state == nil {
		return
	}
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	keys := []string{r.id, seatKey(r.id, Black), seatKey(r.id, White)}
	counts, err := r.node.broker.Presence(ctx, keys)
	if err != nil {
		return
	}
	before := r.seen
	r.seen.spectators = counts[r.id]
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i, side := range sides {
		present := counts[keys[1+i]] > 0
		r.seen.present[i] = present
		switch {
		case present || r.state.seats[i].Kind != SeatHuman:
			r.seen.goneSince[i] = time.Time{} // only a person who sat can be gone
		case r.seen.goneSince[i].IsZero():
			r.seen.goneSince[i] = now
		}
		// Tell of a departure this node saw happen, and of the return after it; a player
		// who was simply not there yet arrives without a "back".
		left := before.present[i] && !present && r.state.seats[i].Kind == SeatHuman && r.state.result == nil
		back := present && r.seen.told[i]
		if !left && !back {
			continue
		}
		r.seen.told[i] = left
		msg := presenceMsg{Type: "presence", Room: r.id, Seat: side, Present: present}
		if left {
			since, claimAt := r.seen.goneSince[i], r.seen.goneSince[i].Add(r.grace())
			msg.Since, msg.ClaimAt = &since, &claimAt
		}
		r.broadcast(mustJSON(msg))
	}
	if r.seen.viewers() != before.viewers() || r.seen.spectators != before.spectators {
		r.broadcast(mustJSON(viewersMsg{Type: "viewers", Room: r.id, Count: r.seen.viewers(), Spectators: r.seen.spectators}))
	}
}

// grace is how long a player who left keeps the game before the one who stayed may claim
// it: Config.ClaimGrace, else shorter in faster games (docs/protocol.md).
func (r *liveRoom) grace() time.Duration {
	if g := r.node.cfg.ClaimGrace; g > 0 {
		return g
	}
	tc := r.state.meta.Clock
	switch {
	case tc.Kind == ClockFischer && tc.Base <= 3*60:
		return 15 * time.Second
	case tc.Kind == ClockFischer && tc.Base <= 15*60:
		return 30 * time.Second
	}
	return time.Minute
}

// goneFor is how long side's player (a person) has been disconnected, 0 if connected.
func (r *liveRoom) goneFor(side Side, now time.Time) time.Duration {
	i := side.Index()
	if r.state.seats[i].Kind != SeatHuman || r.seen.present[i] || r.seen.goneSince[i].IsZero() {
		return 0
	}
	return max(time.Millisecond, now.Sub(r.seen.goneSince[i]))
}

// decorate adds to a view what the room knows beyond the log: who is connected, who is
// gone and since when, when a claim is allowed, how many watch.
func (r *liveRoom) decorate(v StateView) StateView {
	v.Viewers, v.Spectators = r.seen.viewers(), r.seen.spectators
	// The view's own map (each view makes a fresh one): filled in, not made again.
	v.Presence[Black], v.Presence[White] = r.seen.present[0], r.seen.present[1]
	for i, side := range sides {
		if r.state.seats[i].Kind != SeatHuman || r.seen.present[i] || r.seen.goneSince[i].IsZero() {
			continue
		}
		if v.Gone == nil {
			v.Gone = map[Side]time.Time{}
		}
		v.Gone[side] = r.seen.goneSince[i]
		if r.state.result == nil && r.state.seats[1-i].Kind == SeatHuman {
			at := r.seen.goneSince[i].Add(r.grace())
			v.ClaimAt = &at
		}
	}
	return v
}

// followSeats keeps each local watcher's seat in step with an event: a switch swaps
// them, a seat that changed hands is no longer its old holder's, and a sit done through
// watcher gives it the seat.
func (r *liveRoom) followSeats(e Event, watcher Subscriber) {
	changed := false
	switch e.Type {
	case EvSwitch:
		w := &r.seen
		w.present[0], w.present[1] = w.present[1], w.present[0]
		w.goneSince[0], w.goneSince[1] = w.goneSince[1], w.goneSince[0]
		w.told[0], w.told[1] = w.told[1], w.told[0]
		for sub, side := range r.subs {
			if side != "" {
				r.subs[sub] = side.Other()
				changed = true
			}
		}
	case EvSeat:
		// A new occupant: whoever sat there before is neither here nor gone.
		i := e.Seat.Index()
		r.seen.goneSince[i], r.seen.told[i] = time.Time{}, false
		for sub, side := range r.subs {
			if side == e.Seat {
				r.subs[sub] = ""
				changed = true
			}
		}
		if _, ok := r.subs[watcher]; ok && watcher != nil && e.Kind == SeatHuman {
			r.subs[watcher] = e.Seat
			changed = true
		}
	}
	if changed {
		r.presenceChanged()
	}
}

// armClock sets the timer for the running clock's deadline (or stops it).
func (r *liveRoom) armClock() {
	due, ok := r.state.deadline()
	if !ok || r.node.ctx.Err() != nil {
		if r.clock != nil {
			r.clock.Stop()
		}
		return
	}
	wait := time.Until(due) + time.Millisecond
	if r.clock != nil {
		r.clock.Reset(wait) // one timer for the room's life: no allocation per move
		return
	}
	r.clock = time.AfterFunc(wait, func() { r.postWait(r.timeUp) })
}

// timeUp stores the flag (or the abort) of a clock that has run out.
func (r *liveRoom) timeUp() {
	if r.loadErr != nil {
		return
	}
	due, ok := r.state.deadline()
	if !ok {
		return
	}
	rep, err := r.execute(r.node.ctx, Command{Kind: cmdTime})
	switch {
	case err == nil:
		if n := len(r.public); n > 0 && r.public[n-1].Seq == rep.Seq {
			r.node.metrics.flagLateness.Observe(r.public[n-1].Time.Sub(due).Seconds())
		}
	case CodeOf(err) == CodeTooEarly || CodeOf(err) == CodeGameOver:
		r.armClock() // the clock moved on meanwhile
	default:
		r.node.warn("clock", "room", r.id, "err", err)
		time.AfterFunc(time.Second, func() { r.post(r.timeUp) })
	}
}

// execute carries out a command: decide, store with compare-and-set, then take the new
// state, tell the watchers and the other nodes.
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
	switch cmd.Kind {
	case CmdSit:
		if cmd.Identity != "" {
			hash, err := HashIdentity(cmd.Identity)
			if err != nil {
				return rep, err
			}
			cmd.identityHash = hash
		}
		rep.Token, cmd.tokenHash = newToken()
		rep.Seat = cmd.Seat
	case CmdRematch, CmdRematchReply:
		cmd.nextRoom = newRoomID()
	}
	for attempt := 0; attempt < 2; attempt++ {
		now := time.Now().UTC().Truncate(time.Millisecond)
		if cmd.actor != "" {
			cmd.goneFor, cmd.grace = r.goneFor(cmd.actor.Other(), now), r.grace()
		}
		d, err := r.state.decide(cmd, now)
		if err != nil && !cmd.bot && cmd.Kind != cmdTime && time.Since(r.refusalRead) >= refusalCheck {
			r.refusalRead = time.Now()
			if r.verify() {
				continue // this node was behind: decide again on the events it missed
			}
		}
		if err != nil {
			if CodeOf(err) == CodeTimeOut {
				r.post(r.timeUp) // the flag is due: store it now
			}
			return Reply{}, err
		}
		if err := r.startRematch(ctx, d, now); err != nil {
			return Reply{}, err
		}
		err = r.store(ctx, d, cmd.Watcher)
		if errors.Is(err, ErrStale) {
			r.node.metrics.staleAppends.Inc()
			r.catchUp() // another node stored first: look again at the new state
			continue
		}
		if err != nil {
			return Reply{}, err
		}
		rep.Seq = d.next.version
		r.idleSince = time.Now()
		if cmd.identityHash != "" {
			r.recordPlayer(ctx, cmd.identityHash, r.id, cmd.Seat, now)
		}
		r.settle()
		return rep, nil
	}
	return Reply{}, errorf(CodeStale, "another move was stored first; look at the new position")
}

// head is where this node's copy of the room's log ends.
func (r *liveRoom) head() Head {
	h := Head{Version: r.state.version}
	if n := len(r.public); n > 0 {
		h.Time = r.public[n-1].Time
	}
	return h
}

// store appends a decision's events with compare-and-set; once they are stored the room
// takes the decision's state, tells local watchers and publishes the events to the other
// nodes.
func (r *liveRoom) store(ctx context.Context, d decision, watcher Subscriber) error {
	ctx, cancel := backendContext(ctx)
	defer cancel()
	if err := r.node.store.Append(ctx, r.id, r.head(), d.events, d.next.summary()); err != nil {
		r.node.backendFailed(err)
		if errors.Is(err, ErrNotFound) {
			return errorf(CodeRoomNotFound, "the room has expired")
		}
		return err
	}
	r.state = d.next
	r.verified = time.Now()
	r.public = append(r.public, d.public...)
	for i, pub := range d.public {
		r.followSeats(d.events[i], watcher)
		r.broadcast(mustJSON(eventMsg{Type: "event", Room: r.id, Event: pub, State: r.decorate(d.viewAfter(i, 0))}))
		r.node.metrics.events.WithLabelValues(string(pub.Type)).Inc()
	}
	if err := r.node.publish(ctx, r.id, brokerMsg{Kind: "events", Events: d.events}); err != nil {
		r.node.warn("publish events", "room", r.id, "err", err)
	}
	return nil
}

// startRematch creates the next game's room when d agrees a rematch, before the event
// that points to it is stored. If that event then loses the race to another, the new room
// is left unreferenced and expires with its idle time to live.
func (r *liveRoom) startRematch(ctx context.Context, d decision, now time.Time) error {
	for _, e := range d.events {
		if e.Type != EvRematch || e.Next == "" {
			continue
		}
		meta, events := r.state.rematchRoom(e.Next, now)
		st, _, err := replayLog(meta, events)
		if err != nil {
			return errorf(CodeInternal, "%v", err)
		}
		ctx, cancel := backendContext(ctx)
		defer cancel()
		if err := r.node.store.Create(ctx, meta, events, st.summary()); err != nil {
			return err
		}
		r.node.metrics.roomsCreated.Inc()
		for i, seat := range st.seats {
			if seat.IdentityHash != "" {
				r.recordPlayer(ctx, seat.IdentityHash, meta.ID, sides[i], now)
			}
		}
		if _, _, bot := st.botToMove(); bot {
			r.node.wake(meta.ID)
		}
	}
	return nil
}

// recordPlayer lists room among an identity's games. A failure costs the player a line in
// "my games", not the move: it is logged, not returned.
func (r *liveRoom) recordPlayer(ctx context.Context, identityHash, room string, seat Side, now time.Time) {
	ctx, cancel := backendContext(ctx)
	defer cancel()
	if err := r.node.store.RecordPlayer(ctx, identityHash, room, seat, now); err != nil {
		r.node.backendFailed(err)
		r.node.warn("record player", "room", room, "err", err)
	}
}

// ChatRequest is a line a client says in a room.
type ChatRequest struct {
	Token  string // the speaker's seat token, if they hold a seat: they speak as that seat
	Name   string // a spectator's display name
	Text   string
	Author string // an opaque id of the sender, for muting (the hub's)
}

// maxChatRunes bounds a chat line: a sentence or two, as on the big sites.
const maxChatRunes = 140

// say stores a chat line and tells every watcher on every node.
func (r *liveRoom) say(ctx context.Context, req ChatRequest) error {
	var seat *Side
	name := ""
	if req.Token != "" {
		side := r.state.sideOfToken(req.Token)
		if side == "" {
			return errorf(CodeBadToken, "that seat token is not valid in this room")
		}
		seat, name = &side, r.state.seats[side.Index()].Name
	} else {
		n, err := CleanName(req.Name)
		if err != nil {
			return errorf(CodeBadRequest, "a spectator's chat needs a name: %s", err.(*Error).Msg)
		}
		name = n
	}
	text, err := cleanChat(req.Text)
	if err != nil {
		return err
	}
	line := ChatLine{ID: newChatID(), Time: time.Now().UTC().Truncate(time.Millisecond), Seat: seat,
		Name: name, Author: req.Author, Text: text}
	bctx, cancel := backendContext(ctx)
	defer cancel()
	if err := r.node.store.AppendChat(bctx, r.id, line); err != nil {
		r.node.backendFailed(err)
		if errors.Is(err, ErrNotFound) {
			return errorf(CodeRoomNotFound, "the room has expired")
		}
		return err
	}
	r.said(line)
	if err := r.node.publish(bctx, r.id, brokerMsg{Kind: "chat", Chat: &line}); err != nil {
		r.node.warn("publish chat", "room", r.id, "err", err)
	}
	return nil
}

// said keeps a stored chat line and shows it to the watchers here.
func (r *liveRoom) said(line ChatLine) {
	r.chat = append(r.chat, line)
	if n := len(r.chat); n > ChatKept {
		r.chat = append([]ChatLine(nil), r.chat[n-ChatKept:]...)
	}
	r.broadcast(mustJSON(chatMsg{Type: "chat", Room: r.id, Line: line}))
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// seats in the order the arrays below use.
var seatNames = [2]string{"black", "white"}

// roomPlan is one room to set up: a Reversi room with a human or a bot in each seat and
// some spectators, each client starting on a given node of the list.
type roomPlan struct {
	botLevel   [2]int // 0: a human player in that seat
	spectators int
	// nodes: the node index each client connects to first; players first (black,
	// white), then spectators. Missing entries mean node 0.
	nodes []int
}

func (rp roomPlan) node(i int) int {
	if i < len(rp.nodes) {
		return rp.nodes[i]
	}
	return 0
}

// createBody is the POST /api/rooms body for the plan.
func (rp roomPlan) createBody() []byte {
	body := map[string]any{"game": "reversi"}
	for i, lv := range rp.botLevel {
		if lv > 0 {
			body[seatNames[i]] = map[string]any{"kind": "bot", "level": lv}
		}
	}
	b, _ := json.Marshal(body)
	return b
}

// ackedMove is a move the server acknowledged: stored as event seq.
type ackedMove struct {
	seq  int64
	seat string
	move string
}

// roomRun is one room under load: its clients, the latest state they saw, and the move
// in flight. Its driver goroutine makes the moves; the clients' readers report to it
// through the methods below, under mu.
type roomRun struct {
	id         string
	plan       roomPlan
	players    [2]*peer // nil for a bot seat
	spectators []*peer
	rec        *recorder

	mu      sync.Mutex
	state   stateView
	changed chan struct{} // closed and replaced when state changes

	// The move in flight, whose arrival at every spectator is being timed.
	trackSeq   int64
	trackStart time.Time
	trackSeen  []bool
	trackLeft  int
	trackLast  time.Time
	trackDone  chan struct{}
	acked      []ackedMove
	takeBacks  int   // finished games taken back to play on
	botMoves   int   // bot moves seen
	botMovesAt int64 // the seq of the last bot move seen
	failures   int   // requests answered with an error or not at all
	wentBack   int   // times the room's log went back (a full join older than our state)
}

// setState keeps st if it is newer than the state we have.
func (r *roomRun) setState(st stateView) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st.Version <= r.state.Version && r.state.ID != "" {
		return
	}
	// A bot's move: the previous side to move was a bot seat and a move was added.
	if r.state.ID != "" && len(st.Moves) > 0 && st.GameNo == r.state.GameNo && len(st.Moves) > len(r.state.Moves) {
		if i := seatIndex(r.state.ToMove); i >= 0 && r.plan.botLevel[i] > 0 {
			r.botMoves++
			r.botMovesAt = st.Version
		}
	}
	r.state = st
	r.notifyLocked()
}

// replaceState takes st, the state of a full join whose log ends before events a client
// saw: the server's log is all there is (docs/protocol.md: a client then replaces what it
// had). That happens when the store lost events (a Redis failover without WAIT).
func (r *roomRun) replaceState(st stateView) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state.ID != "" && st.Version < r.state.Version {
		r.wentBack++
	}
	r.state = st
	r.notifyLocked()
}

// notifyLocked wakes everyone waiting for a change of the room; r.mu is held.
func (r *roomRun) notifyLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// waitUntil waits until cond, called under r.mu, holds; it is checked again at every
// change of the room's state or acknowledged moves.
func (r *roomRun) waitUntil(ctx context.Context, cond func(r *roomRun) bool) error {
	for {
		r.mu.Lock()
		ok, changed := cond(r), r.changed
		r.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func seatIndex(s string) int {
	switch s {
	case "black":
		return 0
	case "white":
		return 1
	}
	return -1
}

// current returns the latest state and a channel closed when it changes.
func (r *roomRun) current() (stateView, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state, r.changed
}

// track starts timing the event seq: from now until every spectator saw it.
func (r *roomRun) track(seq int64) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trackSeq, r.trackStart, r.trackLeft = seq, time.Now(), len(r.spectators)
	if r.trackSeen == nil {
		r.trackSeen = make([]bool, len(r.spectators))
	}
	clear(r.trackSeen)
	r.trackDone = make(chan struct{})
	if r.trackLeft == 0 {
		r.trackLast = r.trackStart
		close(r.trackDone)
	}
	return r.trackDone
}

// observe records that spectator i saw event seq at t.
func (r *roomRun) observe(i int, seq int64, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.trackSeq == 0 || seq < r.trackSeq || r.trackSeen[i] {
		return
	}
	r.trackSeen[i] = true
	r.trackLast = t
	if r.trackLeft--; r.trackLeft == 0 {
		close(r.trackDone)
	}
}

// waitVersion waits until the room's state has at least version v.
func (r *roomRun) waitVersion(ctx context.Context, v int64, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		st, changed := r.current()
		if st.Version >= v {
			return nil
		}
		select {
		case <-changed:
		case <-t.C:
			return context.DeadlineExceeded
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// waitChange waits until the state is newer than version v.
func (r *roomRun) waitChange(ctx context.Context, v int64, timeout time.Duration) error {
	return r.waitVersion(ctx, v+1, timeout)
}

// Waits of the driver. A move's event reaches everyone within milliseconds unless the
// server is overloaded; a bot may think for its whole time cap, and a node's bot lease
// must lapse before another node takes the search over.
const (
	eventWait = 10 * time.Second
	botWait   = 60 * time.Second
)

// step makes the room's next move (or takes back the end of a finished game) and waits
// until everyone saw it.
func (r *roomRun) step(ctx context.Context) {
	st, _ := r.current()
	side := seatIndex(st.ToMove)
	switch {
	case st.Status == "finished":
		r.takeBack(ctx, st)
	case side < 0 || st.Status == "waiting":
		r.waitChange(ctx, st.Version, eventWait)
	case r.players[side] == nil: // a bot is to move
		r.waitChange(ctx, st.Version, botWait)
	case len(st.Legal) == 0: // the server stores the pass
		r.waitChange(ctx, st.Version, eventWait)
	default:
		p := r.players[side]
		move := st.Legal[rand.IntN(len(st.Legal))]
		seq := st.Version + 1
		done := r.track(seq)
		a, err := p.request(ctx, map[string]any{"type": "move", "room": r.id, "move": move, "at": st.Version})
		if err != nil {
			r.failed(ctx, p, err, st.Version)
			return
		}
		r.mu.Lock()
		r.acked = append(r.acked, ackedMove{seq: seq, seat: seatNames[side], move: move})
		r.notifyLocked()
		r.mu.Unlock()
		r.rec.move()
		t := time.NewTimer(eventWait)
		defer t.Stop()
		select {
		case <-done:
			r.mu.Lock()
			d := r.trackLast.Sub(r.trackStart)
			r.mu.Unlock()
			if len(r.spectators) > 0 {
				r.rec.latency(d)
			}
		case <-t.C:
			r.rec.fail("incomplete")
		case <-ctx.Done():
			return
		}
		// The ack names the last event stored: a forced pass comes with the move.
		if err := r.waitVersion(ctx, a.Seq, eventWait); err != nil && ctx.Err() == nil {
			r.rec.fail("timeout")
		}
	}
}

// failed counts a failed request and waits for what will let the room go on: the
// player's socket back, or a newer state. A stale move with no newer state in sight
// means the room is not where this client thinks (its log went back): the player joins
// again, as the protocol's reconnect does, and takes the state it is given.
func (r *roomRun) failed(ctx context.Context, p *peer, err error, version int64) {
	if ctx.Err() != nil {
		return
	}
	code := errorCode(err)
	r.rec.fail(code)
	r.mu.Lock()
	r.failures++
	r.notifyLocked()
	r.mu.Unlock()
	if code == "stale" {
		if r.waitChange(ctx, version, time.Second) != nil && ctx.Err() == nil {
			p.resync(ctx)
		}
		return
	}
	if errors.Is(err, errDisconnected) {
		if up, ch := p.isUp(); !up {
			select {
			case <-ch:
			case <-ctx.Done():
			}
		}
		return
	}
	r.waitChange(ctx, version, time.Second)
}

// takeBack takes the end of a finished game back so that play goes on in the same room:
// a rematch would open a new room (docs/protocol.md), and the load stays on the rooms it
// set up and measures. Against a bot the player's undo acts at once; between people one
// asks and the other accepts.
func (r *roomRun) takeBack(ctx context.Context, st stateView) {
	asker, answerer := r.players[0], r.players[1]
	if asker == nil { // black is a bot: white asks, and the undo is immediate
		asker, answerer = answerer, nil
	}
	if asker == nil { // two bots: the server plays on by itself
		r.waitChange(ctx, st.Version, botWait)
		return
	}
	if _, err := asker.request(ctx, map[string]any{"type": "undo", "room": r.id}); err != nil {
		r.failed(ctx, asker, err, st.Version)
		return
	}
	if err := r.waitChange(ctx, st.Version, eventWait); err != nil {
		if ctx.Err() == nil {
			r.rec.fail("timeout")
		}
		return
	}
	if answerer != nil {
		asked, _ := r.current()
		if _, err := answerer.request(ctx, map[string]any{"type": "undo_reply", "room": r.id, "accept": true}); err != nil {
			r.failed(ctx, answerer, err, asked.Version)
			return
		}
		if err := r.waitChange(ctx, asked.Version, eventWait); err != nil && ctx.Err() == nil {
			r.rec.fail("timeout")
		}
	}
	r.mu.Lock()
	r.takeBacks++
	r.mu.Unlock()
}

// driveAll plays every room's moves, one each pace, until the returned stop is called
// (which waits for them to end).
func driveAll(ctx context.Context, runs []*roomRun, pace time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.drive(ctx, pace)
		}()
	}
	return func() { cancel(); wg.Wait() }
}

// drive makes a move every pace (one move in flight at a time; 0: each as soon as the
// last is done) until ctx ends.
func (r *roomRun) drive(ctx context.Context, pace time.Duration) {
	next := time.Now().Add(time.Duration(rand.Int64N(int64(pace) + 1)))
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		t.Reset(time.Until(next))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		r.step(ctx)
		if ctx.Err() != nil {
			return
		}
		next = next.Add(pace)
		if now := time.Now(); next.Before(now) {
			next = now // behind: go on at once, but do not burst to catch up
		}
	}
}

// peers returns every client of the room.
func (r *roomRun) peers() []*peer {
	var out []*peer
	for _, p := range r.players {
		if p != nil {
			out = append(out, p)
		}
	}
	return append(out, r.spectators...)
}

// httpAPI creates rooms and reads them back.
type httpAPI struct {
	hc *http.Client
}

// createRoom posts the plan to node addr and returns the new room's id.
func (h httpAPI) createRoom(ctx context.Context, addr string, plan roomPlan) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/api/rooms", bytes.NewReader(plan.createBody()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("loadtest: create room: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		ID    string `json:"id"`
		Error struct{ Code, Message string }
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(body, &out); err != nil || resp.StatusCode != http.StatusCreated || out.ID == "" {
		return "", fmt.Errorf("loadtest: create room: %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return out.ID, nil
}

// roomRecord is GET /api/rooms/{id}.
type roomRecord struct {
	State  stateView   `json:"state"`
	Events []eventView `json:"events"`
}

func (h httpAPI) room(ctx context.Context, addr, id string) (roomRecord, error) {
	var rec roomRecord
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/api/rooms/"+id, nil)
	if err != nil {
		return rec, err
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		return rec, fmt.Errorf("loadtest: get room %s: %v", id, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return rec, fmt.Errorf("loadtest: get room %s: %s", id, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&rec); err != nil {
		return rec, fmt.Errorf("loadtest: get room %s: %v", id, err)
	}
	return rec, nil
}

// setupRoom creates the room on the node of its first client and connects its clients.
func setupRoom(ctx context.Context, api httpAPI, d *dialer, plan roomPlan, rec *recorder, reconnect bool) (*roomRun, error) {
	id, err := api.createRoom(ctx, d.addrs[plan.node(0)%len(d.addrs)], plan)
	if err != nil {
		return nil, err
	}
	return connectRoom(ctx, d, id, plan, rec, reconnect)
}

// connectRoom connects the clients of the plan to the room id.
func connectRoom(ctx context.Context, d *dialer, id string, plan roomPlan, rec *recorder, reconnect bool) (*roomRun, error) {
	r := &roomRun{id: id, plan: plan, rec: rec, changed: make(chan struct{})}
	r.spectators = make([]*peer, plan.spectators)
	for i := range r.spectators {
		r.spectators[i] = newPeer(d, r, "", i, plan.node(2+i), reconnect)
	}
	for i, lv := range plan.botLevel {
		if lv == 0 {
			r.players[i] = newPeer(d, r, seatNames[i], -1, plan.node(i), reconnect)
		}
	}
	for i, p := range r.players {
		if p != nil {
			if err := p.connect(ctx, fmt.Sprintf("load-%s", seatNames[i])); err != nil {
				r.close()
				return nil, fmt.Errorf("loadtest: room %s: %s: %w", id, seatNames[i], err)
			}
		}
	}
	for i, p := range r.spectators {
		if err := p.connect(ctx, ""); err != nil {
			r.close()
			return nil, fmt.Errorf("loadtest: room %s: spectator %d: %w", id, i, err)
		}
	}
	return r, nil
}

// close closes every client socket of the room.
func (r *roomRun) close() {
	for _, p := range r.peers() {
		p.close()
	}
}

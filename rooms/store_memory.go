package rooms

import (
	"context"
	"slices"
	"sync"
	"time"
)

// MemoryStore is a Store in this process's memory: the default, so that the server runs
// with no set-up. It serves one node only and forgets everything when the process
// exits; use RedisStore for persistence and for several nodes.
type MemoryStore struct {
	ttls TTLs
	now  func() time.Time

	mu      sync.Mutex
	rooms   map[string]*memRoom
	players map[string]map[string]memPlayed // identity -> room -> when and where
	queues  map[string][]memTicket
}

type memRoom struct {
	meta    Meta
	events  []Event
	sum     Summary
	chat    []ChatLine
	expires time.Time
}

type memPlayed struct {
	seat Side
	at   time.Time
}

type memTicket struct {
	ticket  string
	expires time.Time
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore whose rooms expire after ttls.
func NewMemoryStore(ttls TTLs) *MemoryStore {
	return &MemoryStore{ttls: ttls, now: time.Now, rooms: map[string]*memRoom{},
		players: map[string]map[string]memPlayed{}, queues: map[string][]memTicket{}}
}

// room returns a live room or nil, dropping it if it has expired. Callers hold mu.
func (m *MemoryStore) room(id string) *memRoom {
	r := m.rooms[id]
	if r != nil && !m.now().Before(r.expires) {
		delete(m.rooms, id)
		return nil
	}
	return r
}

// Create implements Store.
func (m *MemoryStore) Create(ctx context.Context, meta Meta, events []Event, sum Summary) error {
	if err := checkSeqs(0, events); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.room(meta.ID) != nil {
		return ErrExists
	}
	m.rooms[meta.ID] = &memRoom{meta: meta, events: slices.Clone(events), sum: sum,
		expires: m.now().Add(m.ttls.of(sum))}
	return nil
}

// Load implements Store.
func (m *MemoryStore) Load(ctx context.Context, id string) (Meta, []Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(id)
	if r == nil {
		return Meta{}, nil, ErrNotFound
	}
	return r.meta, slices.Clone(r.events), nil
}

// EventsSince implements Store.
func (m *MemoryStore) EventsSince(ctx context.Context, id string, after int64) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(id)
	if r == nil {
		return nil, ErrNotFound
	}
	if after < 0 {
		after = 0
	}
	if after >= int64(len(r.events)) {
		return []Event{}, nil
	}
	return slices.Clone(r.events[after:]), nil
}

// Append implements Store.
func (m *MemoryStore) Append(ctx context.Context, id string, head Head, events []Event, sum Summary) error {
	if err := checkSeqs(head.Version, events); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(id)
	if r == nil {
		return ErrNotFound
	}
	if int64(len(r.events)) != head.Version {
		return ErrStale
	}
	if n := len(r.events); n > 0 && !head.Time.IsZero() && !r.events[n-1].Time.Equal(head.Time) {
		return ErrStale
	}
	r.events = append(r.events, events...)
	r.sum = sum
	r.expires = m.now().Add(m.ttls.of(sum))
	return nil
}

// List implements Store.
func (m *MemoryStore) List(ctx context.Context, limit int) ([]Summary, error) {
	m.mu.Lock()
	var out []Summary
	for id := range m.rooms {
		if r := m.room(id); r != nil {
			out = append(out, r.sum)
		}
	}
	m.mu.Unlock()
	slices.SortFunc(out, func(a, b Summary) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// BotRooms implements Store.
func (m *MemoryStore) BotRooms(ctx context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id := range m.rooms {
		if r := m.room(id); r != nil && r.sum.NeedsNode() {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Ping implements Store; memory is always there.
func (m *MemoryStore) Ping(ctx context.Context) error { return nil }

// Close implements Store.
func (m *MemoryStore) Close() error { return nil }

// checkSeqs verifies that events continue a log at version.
func checkSeqs(version int64, events []Event) error {
	for i, e := range events {
		if e.Seq != version+1+int64(i) {
			return errorf(CodeInternal, "event %d has seq %d, want %d", i, e.Seq, version+1+int64(i))
		}
	}
	return nil
}

// AppendChat implements Store.
func (m *MemoryStore) AppendChat(ctx context.Context, room string, line ChatLine) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(room)
	if r == nil {
		return ErrNotFound
	}
	r.chat = append(r.chat, line)
	if n := len(r.chat); n > ChatKept {
		r.chat = slices.Clone(r.chat[n-ChatKept:])
	}
	return nil
}

// Chat implements Store.
func (m *MemoryStore) Chat(ctx context.Context, room string) ([]ChatLine, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(room)
	if r == nil {
		return nil, ErrNotFound
	}
	return slices.Clone(r.chat), nil
}

// RecordPlayer implements Store.
func (m *MemoryStore) RecordPlayer(ctx context.Context, identity, room string, seat Side, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	played := m.players[identity]
	if played == nil {
		played = map[string]memPlayed{}
		m.players[identity] = played
	}
	played[room] = memPlayed{seat: seat, at: at}
	if len(played) > PlayerRoomsKept {
		oldest := ""
		for id, p := range played {
			if oldest == "" || p.at.Before(played[oldest].at) {
				oldest = id
			}
		}
		delete(played, oldest)
	}
	return nil
}

// PlayerRooms implements Store.
func (m *MemoryStore) PlayerRooms(ctx context.Context, identity string, limit int) ([]PlayerRoom, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []PlayerRoom{}
	for id, p := range m.players[identity] {
		if r := m.room(id); r != nil {
			out = append(out, PlayerRoom{Summary: r.sum, MySeat: p.seat})
		}
	}
	slices.SortFunc(out, func(a, b PlayerRoom) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Pair implements Store.
func (m *MemoryStore) Pair(ctx context.Context, queue, ticket string, ttl time.Duration) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var waiting []memTicket
	for _, t := range m.queues[queue] {
		if now.Before(t.expires) && t.ticket != ticket {
			waiting = append(waiting, t)
		}
	}
	if len(waiting) > 0 {
		m.queues[queue] = waiting[1:]
		return waiting[0].ticket, nil
	}
	m.queues[queue] = append(waiting, memTicket{ticket: ticket, expires: now.Add(ttl)})
	return "", nil
}

// Unpair implements Store.
func (m *MemoryStore) Unpair(ctx context.Context, queue, ticket string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queues[queue] = slices.DeleteFunc(m.queues[queue], func(t memTicket) bool { return t.ticket == ticket })
	return nil
}

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

	mu    sync.Mutex
	rooms map[string]*memRoom
}

type memRoom struct {
	meta    Meta
	events  []Event
	sum     Summary
	expires time.Time
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore whose rooms expire after ttls.
func NewMemoryStore(ttls TTLs) *MemoryStore {
	return &MemoryStore{ttls: ttls, now: time.Now, rooms: map[string]*memRoom{}}
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
func (m *MemoryStore) Append(ctx context.Context, id string, version int64, events []Event, sum Summary) error {
	if err := checkSeqs(version, events); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.room(id)
	if r == nil {
		return ErrNotFound
	}
	if int64(len(r.events)) != version {
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

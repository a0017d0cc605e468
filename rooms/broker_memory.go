package rooms

import (
	"context"
	"sync"
	"time"
)

// MemoryBroker is a Broker inside one process: the default. It serves one node only.
type MemoryBroker struct {
	now func() time.Time

	mu       sync.Mutex
	subs     map[string]map[int]func([]byte)
	nextSub  int
	presence map[string]map[string]presenceEntry
	leases   map[string]lease
}

type presenceEntry struct {
	count   int
	expires time.Time
}

type lease struct {
	owner   string
	expires time.Time
}

var _ Broker = (*MemoryBroker)(nil)

// NewMemoryBroker returns an empty MemoryBroker.
func NewMemoryBroker() *MemoryBroker {
	return &MemoryBroker{now: time.Now, subs: map[string]map[int]func([]byte){},
		presence: map[string]map[string]presenceEntry{}, leases: map[string]lease{}}
}

// Publish implements Broker.
func (b *MemoryBroker) Publish(ctx context.Context, room string, msg []byte) error {
	b.mu.Lock()
	var targets []func([]byte)
	for _, d := range b.subs[room] {
		targets = append(targets, d)
	}
	b.mu.Unlock()
	for _, d := range targets {
		d(msg)
	}
	return nil
}

// Subscribe implements Broker.
func (b *MemoryBroker) Subscribe(room string, deliver func([]byte)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs[room] == nil {
		b.subs[room] = map[int]func([]byte){}
	}
	id := b.nextSub
	b.nextSub++
	b.subs[room][id] = deliver
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs[room], id)
		if len(b.subs[room]) == 0 {
			delete(b.subs, room)
		}
	}, nil
}

// SetPresence implements Broker.
func (b *MemoryBroker) SetPresence(ctx context.Context, room, node string, count int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if count <= 0 {
		delete(b.presence[room], node)
		if len(b.presence[room]) == 0 {
			delete(b.presence, room)
		}
		return nil
	}
	if b.presence[room] == nil {
		b.presence[room] = map[string]presenceEntry{}
	}
	b.presence[room][node] = presenceEntry{count: count, expires: b.now().Add(PresenceTTL)}
	return nil
}

// Presence implements Broker.
func (b *MemoryBroker) Presence(ctx context.Context, rooms []string) (map[string]int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	out := make(map[string]int, len(rooms))
	for _, room := range rooms {
		for _, e := range b.presence[room] {
			if now.Before(e.expires) {
				out[room] += e.count
			}
		}
	}
	return out, nil
}

// Claim implements Broker.
func (b *MemoryBroker) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if l, ok := b.leases[key]; ok && l.owner != owner && now.Before(l.expires) {
		return false, nil
	}
	b.leases[key] = lease{owner: owner, expires: now.Add(ttl)}
	return true, nil
}

// Release implements Broker.
func (b *MemoryBroker) Release(ctx context.Context, key, owner string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l, ok := b.leases[key]; ok && l.owner == owner {
		delete(b.leases, key)
	}
	return nil
}

// Close implements Broker.
func (b *MemoryBroker) Close() error { return nil }

package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// RedisStore is a Store in Redis, shared by every server node.
//
// Keys, with the room id as a hash tag so that one room's keys live in one Redis Cluster
// slot and its scripts can touch them together:
//
//	room:{id}       hash: meta (JSON), version, summary (JSON)
//	room:{id}:log   list: the events as JSON, seq n at index n-1
//
// Two index keys span rooms and are kept outside the scripts (an index may briefly lag,
// the rooms themselves never do):
//
//	rooms:recent    sorted set: room id scored by last update (unix ms), for the lobby
//	rooms:bots      set: ids of rooms whose bot is to move
type RedisStore struct {
	rdb  redis.UniversalClient
	ttls TTLs
}

var _ Store = (*RedisStore)(nil)

// NewRedisStore returns a Store on rdb whose rooms expire after ttls.
func NewRedisStore(rdb redis.UniversalClient, ttls TTLs) *RedisStore {
	return &RedisStore{rdb: rdb, ttls: ttls}
}

const (
	recentKey = "rooms:recent"
	botsKey   = "rooms:bots"
)

func roomKey(id string) string { return "room:{" + id + "}" }
func logKey(id string) string  { return "room:{" + id + "}:log" }

// createScript stores a new room unless its hash exists.
// KEYS: room, log. ARGV: meta, summary, ttl ms, events...
var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'summary', ARGV[2], 'version', #ARGV - 3)
for i = 4, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if #ARGV > 3 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return 1
`)

// appendScript is the compare-and-set append: it checks the version and pushes the
// events in one atomic step, so two nodes can never both store a move for one turn.
// KEYS: room, log. ARGV: expected version, summary, ttl ms, events...
// Returns the new version, -1 if the room does not exist, -2 if the version moved on.
var appendScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return -1 end
if v ~= ARGV[1] then return -2 end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
local nv = tonumber(v) + #ARGV - 3
redis.call('HSET', KEYS[1], 'version', nv, 'summary', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return nv
`)

func unavailable(op string, err error) error {
	return fmt.Errorf("rooms: redis %s: %w: %v", op, ErrUnavailable, err)
}

func encodeEvents(events []Event, args []any) ([]any, error) {
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		args = append(args, b)
	}
	return args, nil
}

// Create implements Store.
func (s *RedisStore) Create(ctx context.Context, meta Meta, events []Event, sum Summary) error {
	if err := checkSeqs(0, events); err != nil {
		return err
	}
	args := []any{mustJSON(meta), mustJSON(sum), s.ttls.of(sum).Milliseconds()}
	args, err := encodeEvents(events, args)
	if err != nil {
		return err
	}
	pipe := s.rdb.Pipeline()
	cmd := createScript.Eval(ctx, pipe, []string{roomKey(meta.ID), logKey(meta.ID)}, args...)
	s.index(ctx, pipe, sum)
	pipe.Exec(ctx)
	ok, err := cmd.Int()
	if err != nil {
		return unavailable("create", err)
	}
	if ok == 0 {
		return ErrExists
	}
	return nil
}

// index queues the lobby and bot index updates for a room on pipe, to go with the
// room's own write in one round trip: with appendfsync always, Redis then fsyncs once for
// both. If the room's write is refused (a stale append), the index has been touched for
// nothing: the lobby may list the room a little early or the sweeper look at it once;
// rooms that no longer exist are dropped from the index when List meets them.
func (s *RedisStore) index(ctx context.Context, pipe redis.Pipeliner, sum Summary) {
	pipe.ZAdd(ctx, recentKey, redis.Z{Score: float64(sum.UpdatedAt.UnixMilli()), Member: sum.ID})
	if sum.BotToMove {
		pipe.SAdd(ctx, botsKey, sum.ID)
	} else {
		pipe.SRem(ctx, botsKey, sum.ID)
	}
}

// Load implements Store.
func (s *RedisStore) Load(ctx context.Context, id string) (Meta, []Event, error) {
	pipe := s.rdb.Pipeline()
	metaCmd := pipe.HGet(ctx, roomKey(id), "meta")
	logCmd := pipe.LRange(ctx, logKey(id), 0, -1)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return Meta{}, nil, unavailable("load", err)
	}
	raw, err := metaCmd.Bytes()
	if errors.Is(err, redis.Nil) {
		return Meta{}, nil, ErrNotFound
	}
	var meta Meta
	if err := json.Unmarshal(raw, &meta); err != nil {
		return Meta{}, nil, fmt.Errorf("rooms: room %s: bad meta: %w", id, err)
	}
	events, err := decodeEvents(id, logCmd.Val())
	return meta, events, err
}

func decodeEvents(id string, raws []string) ([]Event, error) {
	events := make([]Event, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal([]byte(raw), &events[i]); err != nil {
			return nil, fmt.Errorf("rooms: room %s: bad event %d: %w", id, i+1, err)
		}
	}
	return events, nil
}

// EventsSince implements Store.
func (s *RedisStore) EventsSince(ctx context.Context, id string, after int64) ([]Event, error) {
	if after < 0 {
		after = 0
	}
	pipe := s.rdb.Pipeline()
	exists := pipe.Exists(ctx, roomKey(id))
	logCmd := pipe.LRange(ctx, logKey(id), after, -1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, unavailable("events", err)
	}
	if exists.Val() == 0 {
		return nil, ErrNotFound
	}
	events, err := decodeEvents(id, logCmd.Val())
	if err != nil {
		return nil, err
	}
	for i := range events {
		if events[i].Seq != after+1+int64(i) {
			return nil, fmt.Errorf("rooms: room %s: event at %d has seq %d", id, after+1+int64(i), events[i].Seq)
		}
	}
	return events, nil
}

// Append implements Store.
func (s *RedisStore) Append(ctx context.Context, id string, version int64, events []Event, sum Summary) error {
	if err := checkSeqs(version, events); err != nil {
		return err
	}
	args := []any{strconv.FormatInt(version, 10), mustJSON(sum), s.ttls.of(sum).Milliseconds()}
	args, err := encodeEvents(events, args)
	if err != nil {
		return err
	}
	pipe := s.rdb.Pipeline()
	cmd := appendScript.Eval(ctx, pipe, []string{roomKey(id), logKey(id)}, args...)
	s.index(ctx, pipe, sum)
	pipe.Exec(ctx)
	n, err := cmd.Int64()
	if err != nil {
		return unavailable("append", err)
	}
	switch n {
	case -1:
		return ErrNotFound
	case -2:
		return ErrStale
	}
	return nil
}

// List implements Store. Rooms that expired are dropped from the index as they are met.
func (s *RedisStore) List(ctx context.Context, limit int) ([]Summary, error) {
	ids, err := s.rdb.ZRevRange(ctx, recentKey, 0, int64(limit)*2).Result()
	if err != nil {
		return nil, unavailable("list", err)
	}
	if len(ids) == 0 {
		return []Summary{}, nil
	}
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HGet(ctx, roomKey(id), "summary")
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, unavailable("list", err)
	}
	out := make([]Summary, 0, limit)
	var gone []any
	for i, cmd := range cmds {
		raw, err := cmd.Bytes()
		if err != nil {
			gone = append(gone, ids[i])
			continue
		}
		var sum Summary
		if json.Unmarshal(raw, &sum) == nil && len(out) < limit {
			out = append(out, sum)
		}
	}
	if len(gone) > 0 {
		s.rdb.ZRem(ctx, recentKey, gone...)
		s.rdb.SRem(ctx, botsKey, gone...)
	}
	return out, nil
}

// BotRooms implements Store.
func (s *RedisStore) BotRooms(ctx context.Context) ([]string, error) {
	ids, err := s.rdb.SMembers(ctx, botsKey).Result()
	if err != nil {
		return nil, unavailable("bot rooms", err)
	}
	return ids, nil
}

// Ping implements Store.
func (s *RedisStore) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return unavailable("ping", err)
	}
	return nil
}

// Close implements Store. The client belongs to the caller, who closes it.
func (s *RedisStore) Close() error { return nil }

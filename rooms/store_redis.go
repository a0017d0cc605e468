package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisStore is a Store in Redis, shared by every server node: one Redis server, a
// master found through Sentinel, or a Redis Cluster.
//
// Keys, with the room id as a hash tag so that one room's keys live in one Redis Cluster
// slot and its scripts can touch them together:
//
//	room:{id}       hash: meta (JSON), version, summary (JSON)
//	room:{id}:log   list: the events as JSON, seq n at index n-1
//
// Two indexes span rooms and are kept outside the scripts (an index may briefly lag,
// the rooms themselves never do):
//
//	rooms:recent    sorted set: room id scored by last update (unix ms), for the lobby
//	rooms:bots      set: ids of rooms whose bot is to move
//
// On a Cluster each index is cut into indexShards keys, rooms:recent:{n} and
// rooms:bots:{n} (n from 0), a room's entries in the shard its id hashes to: every move
// updates its room's index entry, and one key would put every move of the hall on one
// slot, so on one master. The lobby reads every shard and merges them.
type RedisStore struct {
	rdb     redis.UniversalClient
	cluster *redis.ClusterClient // rdb, when it is a Cluster client
	ttls    TTLs
	shards  int
	wait    waitPolicy
}

var _ Store = (*RedisStore)(nil)

// waitPolicy is how many replicas must confirm a write before Append and Create return.
type waitPolicy struct {
	replicas int
	timeout  time.Duration
}

// RedisOption changes how a RedisStore stores.
type RedisOption func(*RedisStore)

// WaitForReplicas makes every Create and Append wait (Redis WAIT) until n replicas of
// the room's master have the write, or timeout passes. A write that is not confirmed in
// time returns an error wrapping ErrUnavailable, although the master has it: the move is
// not acknowledged, and a later read or a stale append shows it. Without this option
// (n = 0) a write returns once the master has it, and an acknowledged move can be lost if
// the master dies before its replica copied it (replication is asynchronous).
func WaitForReplicas(n int, timeout time.Duration) RedisOption {
	return func(s *RedisStore) { s.wait = waitPolicy{replicas: n, timeout: timeout} }
}

// indexShards is how many keys each cross-room index is cut into on a Cluster: enough to
// spread the index writes of every move over up to 16 masters, few enough that the lobby
// (one read per shard, pipelined per master) stays one round trip per master.
const indexShards = 16

// NewRedisStore returns a Store on rdb whose rooms expire after ttls. rdb may be a
// *redis.Client (one server, or Sentinel's failover client) or a *redis.ClusterClient.
func NewRedisStore(rdb redis.UniversalClient, ttls TTLs, opts ...RedisOption) *RedisStore {
	s := &RedisStore{rdb: rdb, ttls: ttls, shards: 1}
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		s.cluster, s.shards = cc, indexShards
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

const (
	recentKey = "rooms:recent"
	botsKey   = "rooms:bots"
)

func roomKey(id string) string { return "room:{" + id + "}" }
func logKey(id string) string  { return "room:{" + id + "}:log" }

// shardOf is the index shard of a room.
func (s *RedisStore) shardOf(id string) int {
	if s.shards == 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(s.shards))
}

// recentShard and botsShard name shard n of the indexes; with one shard they keep the
// names a single Redis has always had.
func (s *RedisStore) recentShard(n int) string {
	if s.shards == 1 {
		return recentKey
	}
	return recentKey + ":{" + strconv.Itoa(n) + "}"
}

func (s *RedisStore) botsShard(n int) string {
	if s.shards == 1 {
		return botsKey
	}
	return botsKey + ":{" + strconv.Itoa(n) + "}"
}

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

// appendScript is the compare-and-set append: it checks the version (and, when given,
// the last event's time: Head) and pushes the events in one atomic step, so two nodes can
// never both store a move for one turn, nor one store on a log it has not seen.
// KEYS: room, log. ARGV: expected version, summary, ttl ms, expected last event's time as
// stored (RFC 3339; empty: the version alone), events...
// Returns the new version, -1 if the room does not exist, -2 if the log moved on.
var appendScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return -1 end
if v ~= ARGV[1] then return -2 end
if ARGV[4] ~= '' then
  local last = redis.call('LINDEX', KEYS[2], -1)
  if last and cjson.decode(last).time ~= ARGV[4] then return -2 end
end
for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
local nv = tonumber(v) + #ARGV - 4
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
	ok, err := s.write(ctx, "create", createScript, meta.ID, args, sum)
	if err != nil {
		return err
	}
	if ok == 0 {
		return ErrExists
	}
	return nil
}

// write runs a room's script (create or append) together with the room's index
// updates, and waits for replicas if the store is set to. Everything goes in one round
// trip where the keys allow it: with appendfsync always, Redis then fsyncs once for the
// lot. On a Cluster the index shard may live on another master: the room's write and the
// index's go to their masters at the same time. It returns the script's result.
func (s *RedisStore) write(ctx context.Context, op string, script *redis.Script, id string, args []any, sum Summary) (int64, error) {
	keys := []string{roomKey(id), logKey(id)}
	var pipe redis.Pipeliner
	if s.cluster == nil {
		pipe = s.rdb.Pipeline()
		s.index(ctx, pipe, sum)
	} else {
		// The room's master only: WAIT must follow the write on the same connection.
		master, err := s.cluster.MasterForKey(ctx, keys[0])
		if err != nil {
			return 0, unavailable(op, err)
		}
		pipe = master.Pipeline()
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			ipipe := s.rdb.Pipeline()
			s.index(ctx, ipipe, sum)
			ipipe.Exec(ctx) // the index may lag; List repairs it
		}()
		defer wg.Wait()
	}
	cmd := script.Eval(ctx, pipe, keys, args...)
	var waitCmd *redis.Cmd
	if s.wait.replicas > 0 {
		// In the pipeline, on the write's connection: WAIT counts the replicas that have
		// every write this connection made so far.
		waitCmd = pipe.Do(ctx, "wait", s.wait.replicas, s.wait.timeout.Milliseconds())
	}
	pipe.Exec(ctx)
	n, err := cmd.Int64()
	if err != nil {
		return 0, unavailable(op, err)
	}
	if waitCmd != nil && n != 0 && n != -1 && n != -2 {
		got, err := waitCmd.Int64()
		if err != nil {
			return 0, unavailable(op, err)
		}
		if got < int64(s.wait.replicas) {
			return 0, fmt.Errorf("rooms: redis %s %s: %w: stored on the master, confirmed by %d of %d replicas within %v",
				op, id, ErrUnavailable, got, s.wait.replicas, s.wait.timeout)
		}
	}
	return n, nil
}

// index queues the lobby and bot index updates for a room on pipe, to go with the
// room's own write in one round trip: with appendfsync always, Redis then fsyncs once for
// both. If the room's write is refused (a stale append), the index has been touched for
// nothing: the lobby may list the room a little early or the sweeper look at it once;
// rooms that no longer exist are dropped from the index when List meets them.
func (s *RedisStore) index(ctx context.Context, pipe redis.Pipeliner, sum Summary) {
	n := s.shardOf(sum.ID)
	pipe.ZAdd(ctx, s.recentShard(n), redis.Z{Score: float64(sum.UpdatedAt.UnixMilli()), Member: sum.ID})
	if sum.NeedsNode() {
		pipe.SAdd(ctx, s.botsShard(n), sum.ID)
	} else {
		pipe.SRem(ctx, s.botsShard(n), sum.ID)
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
func (s *RedisStore) Append(ctx context.Context, id string, head Head, events []Event, sum Summary) error {
	if err := checkSeqs(head.Version, events); err != nil {
		return err
	}
	last := ""
	if !head.Time.IsZero() {
		// As encoding/json writes it into the stored event.
		last = head.Time.Format(time.RFC3339Nano)
	}
	args := []any{strconv.FormatInt(head.Version, 10), mustJSON(sum), s.ttls.of(sum).Milliseconds(), last}
	args, err := encodeEvents(events, args)
	if err != nil {
		return err
	}
	n, err := s.write(ctx, "append", appendScript, id, args, sum)
	if err != nil {
		return err
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
	ids, err := s.recent(ctx, int64(limit)*2)
	if err != nil {
		return nil, unavailable("list", err)
	}
	if len(ids) == 0 {
		return []Summary{}, nil
	}
	sums, err := s.summaries(ctx, ids)
	if err != nil {
		return nil, unavailable("list", err)
	}
	out := make([]Summary, 0, limit)
	gone := map[int][]any{} // shard -> ids of rooms that expired
	for i, sum := range sums {
		if sum == nil {
			n := s.shardOf(ids[i])
			gone[n] = append(gone[n], ids[i])
			continue
		}
		if len(out) < limit {
			out = append(out, *sum)
		}
	}
	if len(gone) > 0 {
		pipe := s.rdb.Pipeline()
		for n, ids := range gone {
			pipe.ZRem(ctx, s.recentShard(n), ids...)
			pipe.SRem(ctx, s.botsShard(n), ids...)
		}
		pipe.Exec(ctx)
	}
	return out, nil
}

// summaries reads the summaries of rooms in one round trip: nil for a room that no
// longer exists (or whose summary cannot be read).
func (s *RedisStore) summaries(ctx context.Context, ids []string) ([]*Summary, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HGet(ctx, roomKey(id), "summary")
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]*Summary, len(ids))
	for i, cmd := range cmds {
		raw, err := cmd.Bytes()
		if err != nil {
			continue
		}
		var sum Summary
		if json.Unmarshal(raw, &sum) == nil {
			out[i] = &sum
		}
	}
	return out, nil
}

// recent returns the ids of the up to n+1 most recently updated rooms over every shard
// of the lobby index, most recent first.
func (s *RedisStore) recent(ctx context.Context, n int64) ([]string, error) {
	if s.shards == 1 {
		return s.rdb.ZRevRange(ctx, recentKey, 0, n).Result()
	}
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.ZSliceCmd, s.shards)
	for i := range cmds {
		cmds[i] = pipe.ZRevRangeWithScores(ctx, s.recentShard(i), 0, n)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	var all []redis.Z
	for _, c := range cmds {
		all = append(all, c.Val()...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	ids := make([]string, 0, min(len(all), int(n)+1))
	for _, z := range all[:min(len(all), int(n)+1)] {
		ids = append(ids, z.Member.(string))
	}
	return ids, nil
}

// BotRooms implements Store.
func (s *RedisStore) BotRooms(ctx context.Context) ([]string, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringSliceCmd, s.shards)
	for i := range cmds {
		cmds[i] = pipe.SMembers(ctx, s.botsShard(i))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, unavailable("bot rooms", err)
	}
	var ids []string
	for _, c := range cmds {
		ids = append(ids, c.Val()...)
	}
	return ids, nil
}

// Ping implements Store. On a Cluster it also asks whether every slot is served and
// reaches every master: a Cluster with slots nobody serves refuses some rooms, and the
// error says so.
func (s *RedisStore) Ping(ctx context.Context) error {
	if s.cluster == nil {
		if err := s.rdb.Ping(ctx).Err(); err != nil {
			return unavailable("ping", err)
		}
		return nil
	}
	info, err := s.cluster.ClusterInfo(ctx).Result()
	if err != nil {
		return unavailable("ping", err)
	}
	if err := clusterHealth(info); err != nil {
		return unavailable("ping", err)
	}
	err = s.cluster.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		if err := m.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("master %s: %w", m.Options().Addr, err)
		}
		return nil
	})
	if err != nil {
		return unavailable("ping", err)
	}
	return nil
}

// clusterSlots is how many hash slots a Redis Cluster has.
const clusterSlots = 16384

// clusterHealth reads CLUSTER INFO: nil if the cluster is ok and serves every slot.
func clusterHealth(info string) error {
	fields := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			fields[k] = v
		}
	}
	okSlots, _ := strconv.Atoi(fields["cluster_slots_ok"])
	if fields["cluster_state"] != "ok" || okSlots < clusterSlots {
		return fmt.Errorf("cluster_state %s: %d of %d slots served (assigned %s, failing %s)",
			fields["cluster_state"], okSlots, clusterSlots, fields["cluster_slots_assigned"], fields["cluster_slots_fail"])
	}
	return nil
}

// Close implements Store. The client belongs to the caller, who closes it.
func (s *RedisStore) Close() error { return nil }

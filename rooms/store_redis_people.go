package rooms

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// What a RedisStore keeps beside the rooms (docs/protocol.md: Chat, Identity, Quick
// pairing). Each key's hash tag puts the keys one script touches in one Cluster slot:
//
//	room:{id}:chat        list: the room's last ChatKept lines as JSON
//	player:{hash}         sorted set: the rooms an identity played, scored by unix ms
//	player:{hash}:seats   hash: room id -> the seat the identity took last there
//	pair:{queue}          sorted set: waiting tickets scored by their expiry (unix ms)

func chatKey(id string) string          { return "room:{" + id + "}:chat" }
func playerKey(hash string) string      { return "player:{" + hash + "}" }
func playerSeatsKey(hash string) string { return "player:{" + hash + "}:seats" }
func pairKey(queue string) string       { return "pair:{" + queue + "}" }

// chatScript appends a line to a room's chat if the room exists, keeps the last lines,
// and lets the chat live as long as the room (at least minTTL).
// KEYS: room, chat. ARGV: line, kept, minTTL ms.
var chatScript = redis.NewScript(`
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
if ttl < tonumber(ARGV[3]) then ttl = tonumber(ARGV[3]) end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`)

// AppendChat implements Store.
func (s *RedisStore) AppendChat(ctx context.Context, room string, line ChatLine) error {
	n, err := chatScript.Run(ctx, s.rdb, []string{roomKey(room), chatKey(room)},
		mustJSON(line), ChatKept, s.ttls.Finished.Milliseconds()).Int64()
	if err != nil {
		return unavailable("chat", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Chat implements Store.
func (s *RedisStore) Chat(ctx context.Context, room string) ([]ChatLine, error) {
	pipe := s.rdb.Pipeline()
	exists := pipe.Exists(ctx, roomKey(room))
	lines := pipe.LRange(ctx, chatKey(room), 0, -1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, unavailable("chat", err)
	}
	if exists.Val() == 0 {
		return nil, ErrNotFound
	}
	out := make([]ChatLine, 0, len(lines.Val()))
	for _, raw := range lines.Val() {
		var l ChatLine
		if json.Unmarshal([]byte(raw), &l) == nil {
			out = append(out, l)
		}
	}
	return out, nil
}

// playerScript records a room in an identity's list and keeps it bounded and alive.
// KEYS: player, player seats. ARGV: room, seat, unix ms, kept, ttl ms.
var playerScript = redis.NewScript(`
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local n = redis.call('ZCARD', KEYS[1])
if n > tonumber(ARGV[4]) then
  local old = redis.call('ZRANGE', KEYS[1], 0, n - tonumber(ARGV[4]) - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, n - tonumber(ARGV[4]) - 1)
  redis.call('HDEL', KEYS[2], unpack(old))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
`)

// RecordPlayer implements Store.
func (s *RedisStore) RecordPlayer(ctx context.Context, identity, room string, seat Side, at time.Time) error {
	err := playerScript.Run(ctx, s.rdb, []string{playerKey(identity), playerSeatsKey(identity)},
		room, string(seat), at.UnixMilli(), PlayerRoomsKept, PlayerTTL.Milliseconds()).Err()
	if err != nil {
		return unavailable("record player", err)
	}
	return nil
}

// PlayerRooms implements Store. The list is ordered by when the identity last sat in
// each room; the answer by the rooms' last activity.
func (s *RedisStore) PlayerRooms(ctx context.Context, identity string, limit int) ([]PlayerRoom, error) {
	// All of the list (it is bounded): rooms that expired are dropped before the limit.
	ids, err := s.rdb.ZRevRange(ctx, playerKey(identity), 0, PlayerRoomsKept-1).Result()
	if err != nil {
		return nil, unavailable("player rooms", err)
	}
	if len(ids) == 0 {
		return []PlayerRoom{}, nil
	}
	seats, err := s.rdb.HMGet(ctx, playerSeatsKey(identity), ids...).Result()
	if err != nil {
		return nil, unavailable("player rooms", err)
	}
	sums, err := s.summaries(ctx, ids)
	if err != nil {
		return nil, unavailable("player rooms", err)
	}
	out := make([]PlayerRoom, 0, len(ids))
	for i, sum := range sums {
		if sum == nil {
			continue // the room expired
		}
		p := PlayerRoom{Summary: *sum}
		if seat, ok := seats[i].(string); ok {
			p.MySeat = Side(seat)
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PlayerRoom) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// pairScript is quick pairing's atomic step: drop expired tickets, take the oldest other
// one, or queue this one. KEYS: queue. ARGV: ticket, now ms, ttl ms.
var pairScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local waiting = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, t in ipairs(waiting) do
  if t ~= ARGV[1] then
    redis.call('ZREM', KEYS[1], t)
    return t
  end
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[3]))
return ''
`)

// Pair implements Store.
func (s *RedisStore) Pair(ctx context.Context, queue, ticket string, ttl time.Duration) (string, error) {
	partner, err := pairScript.Run(ctx, s.rdb, []string{pairKey(queue)},
		ticket, strconv.FormatInt(time.Now().UnixMilli(), 10), ttl.Milliseconds()).Text()
	if err != nil {
		return "", unavailable("pair", err)
	}
	return partner, nil
}

// Unpair implements Store.
func (s *RedisStore) Unpair(ctx context.Context, queue, ticket string) error {
	if err := s.rdb.ZRem(ctx, pairKey(queue), ticket).Err(); err != nil {
		return unavailable("unpair", err)
	}
	return nil
}

package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// BenchmarkMoveRoundTrip measures, over loopback, the time from a player sending a move
// to both the opponent and a spectator having received it, with the memory Store and
// with Redis, untimed and with a 30+20 clock, and with ten spectators chatting. Players alternate Reversi moves (the first
// legal move); when a game ends they agree a rematch and all three follow to its room.
//
//	go test -run XXX -bench MoveRoundTrip -benchtime 2000x ./cmd/server
func BenchmarkMoveRoundTrip(b *testing.B) {
	const chatters = 10
	for _, run := range []struct {
		store, clock string
		chat         bool
	}{
		{"memory", "", false}, {"redis", "", false},
		{"memory", `{"kind":"fischer","base":1800,"increment":20}`, false},
		{"redis", `{"kind":"fischer","base":1800,"increment":20}`, false},
		{"memory", "", true}, {"redis", "", true},
	} {
		name := run.store
		if run.clock != "" {
			name += "-clock"
		}
		if run.chat {
			name += "-chat"
		}
		store := run.store
		b.Run(name, func(b *testing.B) {
			cfg := testConfig(b)
			cfg.MessagesPerSecond, cfg.MessageBurst = 1e6, 1e6 // one client sends as fast as it can
			if store == "redis" {
				rdb := redistest.Client(b)
				cfg.RedisURL = fmt.Sprintf("%s/%d", redistest.URL(b), rdb.Options().DB)
			}
			addr := startServer(b, cfg)
			body := `{"game":"reversi"}`
			if run.clock != "" {
				body = `{"game":"reversi","clock":` + run.clock + `}`
			}
			room := createRoom(b, addr, body)
			players := [2]*client{dial(b, addr), dial(b, addr)} // black, white
			spectator := dial(b, addr)
			tokens := [2]string{players[0].seat(room, "black", "A"), players[1].seat(room, "white", "B")}
			spectator.ok(msg{"type": "join", "room": room})
			state := players[1].waitFor("seated", func(m msg) bool { return m.str("type") == "event" && m.obj("state").num("version") == 2 }).obj("state")
			if run.chat {
				// Ten other spectators chat in the room all along, each a line a second
				// (the most a connection may): the moves share the room with the chat.
				stop := make(chan struct{})
				defer close(stop)
				for i := range chatters {
					c := dial(b, addr)
					c.ok(msg{"type": "join", "room": room})
					go func() {
						tick := time.NewTicker(time.Second)
						defer tick.Stop()
						for n := 0; ; n++ {
							select {
							case <-stop:
								return
							case <-tick.C:
								c.ws.WriteJSON(msg{"type": "chat", "room": room, "name": fmt.Sprint("S", i), "text": fmt.Sprint("line ", n)})
							}
						}
					}()
				}
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				if state.str("status") == "finished" {
					players[0].ok(msg{"type": "rematch", "room": room})
					a := players[1].ok(msg{"type": "rematch_reply", "room": room, "accept": true})
					next := spectator.event(a.num("seq")).obj("event").str("next")
					// The colours swap: white's player is black in the next game.
					players[0], players[1] = players[1], players[0]
					tokens[0], tokens[1] = tokens[1], tokens[0]
					for i, p := range players {
						p.ok(msg{"type": "join", "room": next, "token": tokens[i]})
					}
					state = spectator.ok(msg{"type": "join", "room": next}).obj("state")
					for _, c := range []*client{players[0], players[1], spectator} {
						c.ok(msg{"type": "leave", "room": room})
						c.pending = c.pending[:0]
					}
					room = next
				}
				side := state.str("toMove")
				mover, other := players[0], players[1]
				if side == "white" {
					mover, other = players[1], players[0]
				}
				legal := toStrings(state["legal"])
				start := time.Now()
				id := mover.send(msg{"type": "move", "room": room, "move": legal[0]})
				v := state.num("version") + 1
				if a := mover.waitFor("answer", func(m msg) bool {
					return m.num("id") == id && m.str("type") == "error" || m.str("type") == "event" && m.obj("event").num("seq") == v
				}); a.str("type") == "error" {
					b.Fatalf("move %s at version %d: %v", legal[0], v-1, a)
				}
				other.event(v)
				state = spectator.event(v).obj("state")
				lat = append(lat, time.Since(start))
				ack := mover.answer(id)
				if ack.str("type") != "ack" {
					b.Fatalf("move %s at version %d: %v", legal[0], v-1, ack)
				}
				// The ack names the last event stored: a forced pass comes with the move.
				if last := ack.num("seq"); last > v {
					other.event(last)
					state = spectator.event(last).obj("state")
				}
				mover.pending = mover.pending[:0]
				other.pending = other.pending[:0]
				spectator.pending = spectator.pending[:0]
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// BenchmarkFlagLateness measures how late flags fall: rooms with a 15+0 clock where both
// sides make their first moves and then nobody moves again; for each, the time from the
// clock's deadline (in the state after white's first move) to the flag event's timestamp.
// With FLAG_BENCH_ADDR set it drives that server (for example one under cmd/loadtest's
// moves load) instead of starting its own on Redis.
//
//	go test -run XXX -bench FlagLateness -benchtime 1x ./cmd/server
func BenchmarkFlagLateness(b *testing.B) {
	const rooms = 200
	addr := os.Getenv("FLAG_BENCH_ADDR")
	if addr == "" {
		cfg := testConfig(b)
		cfg.MessagesPerSecond, cfg.MessageBurst = 1e6, 1e6
		cfg.MaxConnsPerIP = -1
		rdb := redistest.Client(b)
		cfg.RedisURL = fmt.Sprintf("%s/%d", redistest.URL(b), rdb.Options().DB)
		addr = startServer(b, cfg)
	}
	for range b.N {
		lateness := make([]time.Duration, 0, rooms)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range rooms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				room := createRoom(b, addr, `{"game":"reversi","clock":{"kind":"fischer","base":15,"increment":0}}`)
				black, white := dial(b, addr), dial(b, addr)
				black.seat(room, "black", fmt.Sprint("B", i))
				white.seat(room, "white", fmt.Sprint("W", i))
				first := black.ok(msg{"type": "move", "room": room, "move": "f5"})
				white.event(first.num("seq"))
				a := white.ok(msg{"type": "move", "room": room, "move": "f6"})
				ev := black.event(a.num("seq"))
				deadline, _ := time.Parse(time.RFC3339Nano, ev.obj("state").obj("clock").str("deadline"))
				flag := black.waitFor("the flag", func(m msg) bool {
					return m.str("type") == "event" && m.obj("event").str("type") == "flag"
				})
				at, _ := time.Parse(time.RFC3339Nano, flag.obj("event").str("time"))
				mu.Lock()
				lateness = append(lateness, at.Sub(deadline))
				mu.Unlock()
				black.ws.Close()
				white.ws.Close()
			}()
		}
		wg.Wait()
		slices.Sort(lateness)
		b.ReportMetric(float64(lateness[len(lateness)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lateness[len(lateness)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(lateness[len(lateness)-1].Microseconds())/1000, "max-ms")
	}
}

// BenchmarkLobbyPush measures what a lobby viewer receives: it subscribes and counts the
// lobby messages and their bytes for LOBBY_BENCH_SECONDS (default 20). Point it with
// LOBBY_BENCH_ADDR at a server under cmd/loadtest's moves load (2,000 rooms changing);
// without it, it runs against a fresh server with 100 rooms whose games go on.
//
//	LOBBY_BENCH_ADDR=127.0.0.1:18282 go test -run XXX -bench LobbyPush -benchtime 1x ./cmd/server
func BenchmarkLobbyPush(b *testing.B) {
	addr := os.Getenv("LOBBY_BENCH_ADDR")
	if addr == "" {
		cfg := testConfig(b)
		cfg.MaxConnsPerIP = -1
		addr = startServer(b, cfg)
		for range 100 {
			createRoom(b, addr, `{"game":"reversi","black":{"kind":"bot","level":1},"white":{"kind":"bot","level":1}}`)
		}
	}
	seconds := 20
	if v := os.Getenv("LOBBY_BENCH_SECONDS"); v != "" {
		fmt.Sscan(v, &seconds)
	}
	for range b.N {
		viewer := dial(b, addr)
		viewer.send(msg{"type": "lobby_subscribe"})
		viewer.waitFor("the lobby", func(m msg) bool { return m.str("type") == "lobby" })
		// Count raw frames from here on: the client's reader decodes them, so re-encode.
		var msgs, bytes int
		end := time.After(time.Duration(seconds) * time.Second)
		for done := false; !done; {
			select {
			case m := <-viewer.msgs:
				if m.str("type") == "lobby" {
					raw, _ := json.Marshal(m)
					msgs, bytes = msgs+1, bytes+len(raw)
				}
			case <-end:
				done = true
			}
		}
		b.ReportMetric(float64(msgs)/float64(seconds), "msgs/s")
		b.ReportMetric(float64(bytes)/float64(seconds), "bytes/s")
		viewer.ws.Close()
	}
}

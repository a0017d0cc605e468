package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// buildServer compiles the server binary once per test run.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// startProcess runs the server binary as its own process and waits until it is healthy.
func startProcess(t *testing.T, bin, addr string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "-addr", addr, "-bot-pace", "0", "-bot-lease", "3s", "-rooms-per-minute", "0")
	cmd.Env = append(os.Environ(), env...)
	if testing.Verbose() {
		cmd.Stderr = os.Stderr
	}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}, 30*time.Second, 20*time.Millisecond, "server did not come up")
	return cmd
}

// TestKillAndRestart kills a server with SIGKILL in the middle of a game and starts it
// again: every acknowledged move is there, and the game goes on.
func TestKillAndRestart(t *testing.T) {
	rdb := redistest.Client(t)
	url := fmt.Sprintf("%s/%d", redistest.URL(t), rdb.Options().DB)
	bin := buildServer(t)
	addr := freeAddr(t)
	env := []string{"REDIS_URL=" + url}
	proc := startProcess(t, bin, addr, env...)

	room := createRoom(t, addr, `{"game":"reversi","white":{"kind":"bot","level":2}}`)
	ann := dial(t, addr)
	token := ann.seat(room, "black", "Ann")
	acked := []string{}
	for _, mv := range []string{"f5", "c3", "e6"} {
		state := ann.waitFor("black to move", func(m msg) bool {
			return m.str("type") == "event" && m.obj("state").str("toMove") == "black"
		}).obj("state")
		legal := toStrings(state["legal"])
		move := mv
		if !contains(legal, mv) {
			move = legal[0]
		}
		a := ann.ok(msg{"type": "move", "room": room, "move": move})
		require.Equal(t, "ack", a.str("type"))
		acked = append(acked, move)
	}

	require.NoError(t, proc.Process.Signal(syscall.SIGKILL))
	proc.Wait()
	startProcess(t, bin, addr, env...)

	ann2 := dial(t, addr)
	j := ann2.ok(msg{"type": "join", "room": room, "token": token})
	require.Equal(t, "black", j.str("seat"), "the seat token still works")
	var blackMoves []string
	for _, e := range j["events"].([]any) {
		ev := msg(e.(map[string]any))
		if ev.str("type") == "move" && ev.str("seat") == "black" {
			blackMoves = append(blackMoves, ev.str("move"))
		}
	}
	require.Equal(t, acked, blackMoves, "every acknowledged move survived the kill")
	// The bot's reply to the last move is played by the restarted server if the killed
	// one had not stored it yet.
	if j.obj("state").str("toMove") != "black" {
		ann2.waitFor("black to move again", func(m msg) bool {
			return m.str("type") == "event" && m.obj("state").str("toMove") == "black"
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRedisOutage stops Redis for ten seconds under a running server: moves fail with
// `unavailable`, /readyz says so, connections stay up, and play resumes by itself when Redis is back
// (restarted with its append-only file, fsync always: nothing acknowledged is lost).
func TestRedisOutage(t *testing.T) {
	redis := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	cfg := testConfig(t)
	cfg.RedisURL = redis.URL()
	addr := startServer(t, cfg)

	room := createRoom(t, addr, `{"game":"gomoku"}`)
	ann, bob := dial(t, addr), dial(t, addr)
	ann.seat(room, "black", "Ann")
	bob.seat(room, "white", "Bob")
	ann.ok(msg{"type": "move", "room": room, "move": "h8"})

	redis.Stop()
	// Ann, who sends nothing, is told that moves are paused.
	st := ann.waitFor("storage unavailable", func(m msg) bool { return m.str("type") == "status" })
	require.Equal(t, "unavailable", st.str("storage"))
	bob.fails(msg{"type": "move", "room": room, "move": "h9"}, "unavailable")
	status, _ := getJSON(t, addr, "/readyz")
	require.Equal(t, http.StatusServiceUnavailable, status)
	// Ten seconds without Redis: the sockets stay up and answer, moves keep failing
	// cleanly, nothing crashes. (The outage is the point of the wait.)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		require.Equal(t, "pong", ann.ok(msg{"type": "ping"}).str("type"))
		bob.fails(msg{"type": "move", "room": room, "move": "h9"}, "unavailable")
		time.Sleep(500 * time.Millisecond)
	}

	require.NoError(t, redis.Restart())
	require.Eventually(t, func() bool {
		a := bob.answer(bob.send(msg{"type": "move", "room": room, "move": "h9"}))
		return a.str("type") == "ack"
	}, 30*time.Second, 100*time.Millisecond)
	status, _ = getJSON(t, addr, "/readyz")
	require.Equal(t, http.StatusOK, status)
	st = ann.waitFor("storage ok", func(m msg) bool { return m.str("type") == "status" })
	require.Equal(t, "ok", st.str("storage"))
	ann.ok(msg{"type": "move", "room": room, "move": "i8"})
	_, rec := getJSON(t, addr, "/api/rooms/"+room)
	require.Equal(t, []string{"h8", "h9", "i8"}, toStrings(rec.obj("state")["moves"]))
}

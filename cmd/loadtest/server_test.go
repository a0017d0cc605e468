package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The server binary, built once for all the tests of the package.
var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// serverBinary builds cmd/server (go build, as an operator would) once per test run.
func serverBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "loadtest-server")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "server")
		out, err := exec.Command("go", "build", "-o", buildBin, "github.com/boardhall/boardhall/cmd/server").CombinedOutput()
		if err != nil {
			buildErr = err
			buildBin = string(out)
		}
	})
	require.NoError(t, buildErr, "go build ./cmd/server: %s", buildBin)
	return buildBin
}

// freeAddr returns a loopback address nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// node is a server process started by a test.
type node struct {
	addr string
	cmd  *exec.Cmd
	log  *bytes.Buffer
}

// startNode runs the server binary with the given extra flags on a free port and waits
// until it answers /healthz. It is killed when the test ends.
func startNode(t *testing.T, extra ...string) *node {
	t.Helper()
	bin := serverBinary(t)
	n := &node{addr: freeAddr(t), log: &bytes.Buffer{}}
	args := append([]string{"-addr", n.addr, "-max-conns-per-ip", "-1", "-messages-per-second", "1000",
		"-message-burst", "1000", "-rooms-per-minute", "0", "-log-level", "warn"}, extra...)
	n.cmd = exec.Command(bin, args...)
	n.cmd.Stderr = &lockedWriter{w: n.log}
	require.NoError(t, n.cmd.Start())
	exited := make(chan struct{})
	go func() { n.cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		n.cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server %s log:\n%s", n.addr, n.log)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + n.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return n
			}
		}
		select {
		case <-exited:
			t.Fatalf("server exited: %s", n.log)
		case <-time.After(20 * time.Millisecond): // polling a process we do not control
		}
		require.True(t, time.Now().Before(deadline), "server did not come up: %s", n.log)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// testLoad is a load against nodes with the given settings.
func testLoad(t *testing.T, mode string, args []string, addrs ...string) (*load, config) {
	t.Helper()
	cfg, err := parseArgs(append(append([]string{"-addr", strings.Join(addrs, ",")}, args...), mode), &bytes.Buffer{})
	require.NoError(t, err)
	sources, err := sourceAddrs(cfg.addrs[0], 2)
	require.NoError(t, err)
	return newLoad(cfg, newDialer(cfg.addrs, sources), &testLog{t}), cfg
}

type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// TestMovesMode runs the moves mode for a moment against a real server (memory store):
// moves are acknowledged and reach every spectator, with no errors, and the server's
// metrics are read.
func TestMovesMode(t *testing.T) {
	n := startNode(t)
	l, _ := testLoad(t, "moves", []string{"-rooms", "10", "-spectators", "3", "-rate", "100",
		"-warmup", "200ms", "-duration", "1500ms"}, n.addr)
	res, err := l.moves(context.Background(), "moves", 10, 100, 0)
	require.NoError(t, err)
	require.Equal(t, 50, res.Connections)
	require.Equal(t, float64(50), res.Server.Connections, "the server counts the same sockets")
	require.Positive(t, res.Moves)
	require.Positive(t, res.Latency.Count)
	require.LessOrEqual(t, res.Latency.P50, res.Latency.P99)
	require.LessOrEqual(t, res.Latency.P99, res.Latency.Max)
	require.Empty(t, res.Errors)
	require.Positive(t, res.Server.RSSAfterMB)

	var out bytes.Buffer
	res.writeText(&out)
	require.Contains(t, out.String(), "p99")
}

// TestIdleMode opens idle connections and reads the server's RSS per connection.
func TestIdleMode(t *testing.T) {
	n := startNode(t)
	l, _ := testLoad(t, "idle", []string{"-conns", "95", "-spectators", "8", "-duration", "100ms"}, n.addr)
	res, err := l.idle(context.Background())
	require.NoError(t, err)
	require.Equal(t, 95, res.Connections)
	require.Equal(t, 10, res.Rooms)
	require.Equal(t, float64(95), res.ServerConns)
	require.Positive(t, res.RSSAfterMB)
}

// TestGamesPlayOnAfterTheEnd: rooms that play faster than a game lasts take the end of
// each finished game back and go on in the same room (against a person and against a
// bot), with no errors.
func TestGamesPlayOnAfterTheEnd(t *testing.T) {
	n := startNode(t, "-bot-pace", "0")
	l, _ := testLoad(t, "moves", []string{"-spectators", "1"}, n.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plans := append(l.humanPlans(1, 0), roomPlan{botLevel: [2]int{0, 1}, spectators: 1, nodes: []int{0, 0, 0}})
	rec := newRecorder()
	runs, err := l.setup(ctx, plans, rec, ctx)
	require.NoError(t, err)
	defer closeAll(runs)
	stop := driveAll(ctx, runs, 0)
	defer stop()
	for _, r := range runs {
		require.NoError(t, r.waitUntil(ctx, func(r *roomRun) bool { return r.takeBacks >= 2 }), "room %s (bot %v)", r.id, r.plan.botLevel)
	}
	stop()
	_, _, errs := rec.take()
	require.Empty(t, errs)
}

// TestServerCommandLine runs the server binary as an operator would: -h prints the usage,
// points to docs/operations.md and exits 0; a Redis setting that cannot be reached stops
// the start with exit status 1 and one line naming the setting.
func TestServerCommandLine(t *testing.T) {
	bin := serverBinary(t)
	out, err := exec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "-h exits 0: %s", out)
	require.Contains(t, string(out), "docs/operations.md")

	nobody := freeAddr(t)
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-redis-url", "redis://"+nobody)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 1, exit.ExitCode())
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	require.Len(t, lines, 1, "one line: %q", stderr.String())
	require.Contains(t, lines[0], "REDIS_URL=redis://"+nobody)
}

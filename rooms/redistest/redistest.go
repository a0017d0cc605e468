// Package redistest gives tests a real Redis: the server that the test command started
// (TEST_REDIS_URL), or one this package starts from the redis-server binary. Each test
// gets a database of its own, so test packages running at once do not see each other's
// keys. With CI=true a missing Redis fails the test instead of skipping it.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// databases is how many logical databases a started server has (the test command starts
// its server with as many); database 0 holds the allocation counter.
const databases = 64

var (
	startOnce sync.Once
	startURL  string
	startErr  error
)

// URL returns the address of the test Redis server, or ends the test: Fatal in CI,
// Skip elsewhere (with how to get one).
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		return u
	}
	startOnce.Do(func() {
		var s *Server
		s, startErr = start(os.TempDir())
		if startErr == nil {
			startURL = s.URL()
		}
	})
	if startErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis is required in CI: %v", startErr)
		}
		t.Skipf("no redis: %v (install redis-server or set TEST_REDIS_URL)", startErr)
	}
	return startURL
}

// Client returns a client on a fresh, empty database of the test server, closed when
// the test ends.
func Client(t testing.TB) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(URL(t))
	if err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	ctx := context.Background()
	admin := redis.NewClient(opt)
	n, err := admin.Incr(ctx, "redistest:next-db").Result()
	admin.Close()
	if err != nil {
		t.Fatalf("redis: %v", err)
	}
	opt.DB = 1 + int(n)%(databases-1)
	rdb := redis.NewClient(opt)
	if err := rdb.FlushDB(ctx).Err(); err != nil {
		t.Fatalf("redis flushdb: %v", err)
	}
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// spawns runs functions on one OS thread that lives as long as the test binary. The
// parent-death signal of a started server (dieWithParent) fires when the thread that
// started it ends, not the process, and Go ends threads (one whose goroutine exited while
// locked to it, for example a bot worker's): servers must be started from a thread
// that never ends.
var spawns = make(chan func())

func init() {
	go func() {
		runtime.LockOSThread() // never unlocked: this thread lives until the process exits
		for f := range spawns {
			f()
		}
	}()
}

func onSpawnThread(f func()) {
	done := make(chan struct{})
	spawns <- func() { f(); close(done) }
	<-done
}

// Server is a redis-server process of a test's own, for tests that stop and restart
// Redis.
type Server struct {
	dir  string
	port int
	conf string // a configuration file, given first (a Sentinel's)
	args []string
	cmd  *exec.Cmd
}

// Start starts a redis-server of the test's own on a free loopback port with the extra
// arguments (e.g. "--appendonly", "yes"), stopped when the test ends. Without the binary
// it fails in CI and skips elsewhere.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	s, err := start(t.TempDir(), args...)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server is required in CI: %v", err)
		}
		t.Skipf("no redis-server: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

func start(dir string, args ...string) (*Server, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, err
	}
	port, err := freePort(0)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, port: port, args: args}
	return s, s.Restart()
}

// freePort returns a loopback port nobody listens on now, and with busOffset > 0 whose
// port+busOffset is free too (a Cluster node's bus port).
func freePort(busOffset int) (int, error) {
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if busOffset == 0 {
			return port, nil
		}
		if port+busOffset > 65535 {
			continue
		}
		if bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+busOffset)); err == nil {
			bus.Close()
			return port, nil
		}
	}
	return 0, fmt.Errorf("no free loopback port pair %d apart", busOffset)
}

// URL is the server's address.
func (s *Server) URL() string { return "redis://127.0.0.1:" + strconv.Itoa(s.port) }

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Restart starts the server again on the same port and data directory (it must be
// stopped) and waits until it answers.
func (s *Server) Restart() error {
	args := append([]string{"--bind", "127.0.0.1", "--port", strconv.Itoa(s.port), "--dir", s.dir,
		"--save", "", "--databases", strconv.Itoa(databases), "--logfile", filepath.Join(s.dir, "redis.log")}, s.args...)
	if s.conf != "" {
		args = append([]string{s.conf}, args...)
	}
	s.cmd = exec.Command("redis-server", args...)
	dieWithParent(s.cmd)
	var err error
	onSpawnThread(func() { err = s.cmd.Start() })
	if err != nil {
		return err
	}
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	defer c.Close()
	for range 100 {
		if c.Ping(context.Background()).Err() == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond) // polling a process's start-up: nothing to wait on
	}
	s.Stop()
	return fmt.Errorf("redis-server on port %d did not start", s.port)
}

// Port is the server's port.
func (s *Server) Port() int { return s.port }

// Running reports whether the server's process was started and not stopped.
func (s *Server) Running() bool { return s.cmd != nil }

// Stop kills the server (SIGKILL: what an outage looks like) and waits for it.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

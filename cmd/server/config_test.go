package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/boardhall/boardhall/rooms/redistest"
)

func TestLoadConfig(t *testing.T) {
	stderr = io.Discard // the usage text for the bad flags below
	t.Cleanup(func() { stderr = os.Stderr })
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	t.Run("defaults", func(t *testing.T) {
		c, err := loadConfig(nil, env(nil))
		require.NoError(t, err)
		require.Equal(t, ":8080", c.Addr)
		require.Equal(t, "", c.RedisURL)
		require.Equal(t, int64(4096), c.MaxMessageBytes)
		require.Equal(t, 5*time.Second, c.BotMoveTime)
		require.GreaterOrEqual(t, c.BotWorkers, 1)
	})
	t.Run("environment", func(t *testing.T) {
		c, err := loadConfig(nil, env(map[string]string{"ADDR": "127.0.0.1:9000", "REDIS_URL": "redis://r:6379/1",
			"ALLOWED_ORIGINS": "https://a.example, https://b.example", "BOT_WORKERS": "3", "BOT_MOVE_TIME": "2s",
			"MESSAGES_PER_SECOND": "7.5", "FINISHED_TTL": "1h"}))
		require.NoError(t, err)
		require.Equal(t, "127.0.0.1:9000", c.Addr)
		require.Equal(t, "redis://r:6379/1", c.RedisURL)
		require.Equal(t, []string{"https://a.example", "https://b.example"}, c.AllowedOrigins)
		require.Equal(t, 3, c.BotWorkers)
		require.Equal(t, 2*time.Second, c.BotMoveTime)
		require.Equal(t, 7.5, c.MessagesPerSecond)
		require.Equal(t, time.Hour, c.FinishedTTL)
	})
	t.Run("flags beat the environment", func(t *testing.T) {
		c, err := loadConfig([]string{"-addr", ":7000", "-bot-workers", "5"}, env(map[string]string{"ADDR": ":9000", "BOT_WORKERS": "2"}))
		require.NoError(t, err)
		require.Equal(t, ":7000", c.Addr)
		require.Equal(t, 5, c.BotWorkers)
	})
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"bad duration":             {env: map[string]string{"BOT_MOVE_TIME": "soon"}},
		"bad number":               {env: map[string]string{"BOT_WORKERS": "many"}},
		"no workers":               {args: []string{"-bot-workers", "0"}},
		"tiny frames":              {args: []string{"-max-message-bytes", "100"}},
		"bad log level":            {args: []string{"-log-level", "loud"}},
		"stray argument":           {args: []string{"extra"}},
		"unknown flag":             {args: []string{"-colour", "red"}},
		"zero ttl":                 {args: []string{"-idle-ttl", "0s"}},
		"zero pair wait":           {env: map[string]string{"PAIR_WAIT": "0s"}},
		"zero message rate":        {args: []string{"-messages-per-second", "0"}},
		"sentinel without master":  {env: map[string]string{"REDIS_SENTINEL_ADDRS": "127.0.0.1:26379"}},
		"master without sentinels": {env: map[string]string{"REDIS_SENTINEL_MASTER": "hall"}},
		"sentinel addr no port":    {env: map[string]string{"REDIS_SENTINEL_ADDRS": "127.0.0.1", "REDIS_SENTINEL_MASTER": "hall"}},
		"cluster addr bad port":    {env: map[string]string{"REDIS_CLUSTER_ADDRS": "127.0.0.1:7000,127.0.0.1:x"}},
		"cluster addr only commas": {env: map[string]string{"REDIS_CLUSTER_ADDRS": ",,"}},
		"url and cluster":          {env: map[string]string{"REDIS_URL": "redis://r:6379", "REDIS_CLUSTER_ADDRS": "r:7000"}},
		"wait without redis":       {env: map[string]string{"REDIS_WAIT_REPLICAS": "1"}},
		"negative wait":            {env: map[string]string{"REDIS_URL": "redis://r:6379", "REDIS_WAIT_REPLICAS": "-1"}},
		"wait timeout too long":    {env: map[string]string{"REDIS_URL": "redis://r:6379", "REDIS_WAIT_TIMEOUT": "5s"}},
		"zero pool":                {env: map[string]string{"REDIS_URL": "redis://r:6379", "REDIS_POOL_SIZE": "0"}},
		"wait not a number":        {env: map[string]string{"REDIS_URL": "redis://r:6379", "REDIS_WAIT_REPLICAS": "one"}},
	} {
		t.Run(name, func(t *testing.T) {
			fs := env(tc.env)
			_, err := loadConfig(tc.args, fs)
			require.Error(t, err)
		})
	}
}

func TestRedisConfig(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		name  string
		args  []string
		env   map[string]string
		store string
		want  RedisConfig
	}{
		{name: "url", env: map[string]string{"REDIS_URL": "redis://r:6379/0"}, store: "redis",
			want: RedisConfig{WaitTimeout: 500 * time.Millisecond, PoolSize: 128}},
		{name: "sentinel", env: map[string]string{"REDIS_SENTINEL_ADDRS": "s1:26379, s2:26379,s3:26379", "REDIS_SENTINEL_MASTER": "hall"},
			store: "redis-sentinel", want: RedisConfig{SentinelAddrs: []string{"s1:26379", "s2:26379", "s3:26379"}, SentinelMaster: "hall", WaitTimeout: 500 * time.Millisecond, PoolSize: 128}},
		{name: "cluster with wait", env: map[string]string{"REDIS_CLUSTER_ADDRS": "c1:7000,[::1]:7001", "REDIS_WAIT_REPLICAS": "1", "REDIS_WAIT_TIMEOUT": "200ms"},
			store: "redis-cluster", want: RedisConfig{ClusterAddrs: []string{"c1:7000", "[::1]:7001"}, WaitReplicas: 1, WaitTimeout: 200 * time.Millisecond, PoolSize: 128}},
		{name: "flags", args: []string{"-redis-cluster-addrs", "c1:7000", "-redis-password", "pw", "-redis-wait-replicas", "2"},
			store: "redis-cluster", want: RedisConfig{ClusterAddrs: []string{"c1:7000"}, Password: "pw", WaitReplicas: 2, WaitTimeout: 500 * time.Millisecond, PoolSize: 128}},
		{name: "cluster with a smaller pool", env: map[string]string{"REDIS_CLUSTER_ADDRS": "c1:7000", "REDIS_POOL_SIZE": "32"},
			store: "redis-cluster", want: RedisConfig{ClusterAddrs: []string{"c1:7000"}, WaitTimeout: 500 * time.Millisecond, PoolSize: 32}},
		{name: "memory", store: "memory", want: RedisConfig{WaitTimeout: 500 * time.Millisecond, PoolSize: 128}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadConfig(tc.args, env(tc.env))
			require.NoError(t, err)
			require.Equal(t, tc.want, c.Redis)
			require.Equal(t, tc.store, c.storeName())
		})
	}
}

// TestHelp: -h prints the usage with a pointer to the operations guide, and main exits 0
// on flag.ErrHelp.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	stderr = &out
	t.Cleanup(func() { stderr = os.Stderr })
	_, err := loadConfig([]string{"-h"}, func(string) string { return "" })
	require.ErrorIs(t, err, flag.ErrHelp)
	require.Contains(t, out.String(), "docs/operations.md")
	require.Contains(t, out.String(), "-redis-sentinel-addrs")
}

// TestBadRedisSettings: a Redis setting that cannot be parsed or reached stops the start
// with an error that names the setting.
func TestBadRedisSettings(t *testing.T) {
	nobody := freeLoopbackAddr(t) // nothing listens there
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"unparsable url", func(c *Config) { c.RedisURL = "http://not-redis" }, "REDIS_URL=http://not-redis"},
		{"unreachable url", func(c *Config) { c.RedisURL = "redis://" + nobody }, "REDIS_URL=redis://" + nobody + ": Redis not ready"},
		{"unreachable sentinels", func(c *Config) {
			c.Redis.SentinelAddrs, c.Redis.SentinelMaster = []string{nobody}, "hall"
		}, "REDIS_SENTINEL_ADDRS=" + nobody + " REDIS_SENTINEL_MASTER=hall: Redis not ready"},
		{"unreachable cluster", func(c *Config) { c.Redis.ClusterAddrs = []string{nobody} }, "REDIS_CLUSTER_ADDRS=" + nobody + ": Redis not ready"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			tc.set(&cfg)
			err := run(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
			require.ErrorContains(t, err, tc.want)
			require.NotContains(t, err.Error(), "\n", "one line")
		})
	}
}

// freeLoopbackAddr is a loopback address nobody listens on now.
func freeLoopbackAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// TestShutdownTellsClientsToReconnect: on SIGTERM (a cancelled context) every client is
// told to reconnect before its socket closes.
func TestShutdownTellsClientsToReconnect(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, testConfig(t), slog.New(slog.NewTextHandler(io.Discard, nil)), ready) }()
	addr := <-ready
	room := createRoom(t, addr, `{"game":"gomoku"}`)
	c := dial(t, addr)
	c.ok(msg{"type": "join", "room": room})
	cancel()
	m := c.waitFor("reconnect", func(m msg) bool { return m.str("type") == "reconnect" })
	require.Equal(t, "shutdown", m.str("reason"))
	<-c.gone
	require.NoError(t, <-done)
}

// TestComposeFile checks docker-compose.yml: every hall node's environment is a
// configuration this server accepts, with the store its profile promises; and, where a
// docker client with the compose plugin exists, `docker compose config` accepts the file
// with every profile.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	require.NoError(t, err)
	var compose struct {
		Services map[string]struct {
			Profiles    []string          `yaml:"profiles"`
			Environment map[string]string `yaml:"environment"`
		} `yaml:"services"`
	}
	require.NoError(t, yaml.Unmarshal(raw, &compose))
	wantStore := map[string]string{"": "redis", "sentinel": "redis-sentinel", "cluster": "redis-cluster"}
	nodes := map[string]int{}
	for name, svc := range compose.Services {
		if svc.Environment["NODE_ID"] == "" {
			continue
		}
		profile := strings.Join(svc.Profiles, ",")
		c, err := loadConfig(nil, func(k string) string { return svc.Environment[k] })
		require.NoError(t, err, "service %s", name)
		require.Equal(t, wantStore[profile], c.storeName(), "service %s (profile %q)", name, profile)
		require.Equal(t, name, c.Node, "service %s names itself", name)
		nodes[profile]++
	}
	require.Equal(t, map[string]int{"": 2, "sentinel": 2, "cluster": 2}, nodes, "two nodes per topology")

	if _, err := exec.LookPath("docker"); err != nil {
		t.Logf("no docker client (%v): the file was checked by this test alone", err)
		return
	}
	if out, err := exec.Command("docker", "compose", "version").CombinedOutput(); err != nil {
		// test.sh builds the plugin where a docker client exists; in CI its absence is a
		// failure, as a missing Redis is.
		if os.Getenv("CI") != "" {
			t.Fatalf("a docker client without the compose plugin (%v: %s): test.sh should have built it", err, out)
		}
		t.Logf("docker compose not available (%v): the file was checked by this test alone", err)
		return
	}
	for _, args := range [][]string{{"config", "-q"}, {"--profile", "sentinel", "--profile", "cluster", "config", "-q"}} {
		out, err := exec.Command("docker", append([]string{"compose", "-f", "../../docker-compose.yml"}, args...)...).CombinedOutput()
		require.NoError(t, err, "docker compose %v: %s", args, out)
	}
}

// TestReadyzCluster: a node on a Redis Cluster is ready while every slot is served, and
// /readyz answers 503 with the reason once a slot is served by nobody.
func TestReadyzCluster(t *testing.T) {
	cl := redistest.StartCluster(t)
	cfg := testConfig(t)
	cfg.Redis.ClusterAddrs = cl.Addrs()
	addr := startServer(t, cfg)
	ready := func() (int, string) {
		resp, err := http.Get("http://" + addr + "/readyz")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	code, body := ready()
	require.Equal(t, http.StatusOK, code, body)

	// Slot 0 forgotten by every node: nobody serves it.
	ctx := context.Background()
	for _, a := range cl.Addrs() {
		c := redis.NewClient(&redis.Options{Addr: a})
		require.NoError(t, c.Do(ctx, "cluster", "delslots", "0").Err())
		c.Close()
	}
	require.Eventually(t, func() bool {
		code, body = ready()
		return code == http.StatusServiceUnavailable
	}, 20*time.Second, 100*time.Millisecond)
	require.Contains(t, body, "16383 of 16384 slots served")
}

package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
		"bad duration":      {env: map[string]string{"BOT_MOVE_TIME": "soon"}},
		"bad number":        {env: map[string]string{"BOT_WORKERS": "many"}},
		"no workers":        {args: []string{"-bot-workers", "0"}},
		"tiny frames":       {args: []string{"-max-message-bytes", "100"}},
		"bad log level":     {args: []string{"-log-level", "loud"}},
		"stray argument":    {args: []string{"extra"}},
		"unknown flag":      {args: []string{"-colour", "red"}},
		"zero ttl":          {args: []string{"-idle-ttl", "0s"}},
		"zero message rate": {args: []string{"-messages-per-second", "0"}},
	} {
		t.Run(name, func(t *testing.T) {
			fs := env(tc.env)
			_, err := loadConfig(tc.args, fs)
			require.Error(t, err)
		})
	}
}

func TestBadRedisURL(t *testing.T) {
	cfg := testConfig(t)
	cfg.RedisURL = "http://not-redis"
	err := run(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	require.ErrorContains(t, err, "REDIS_URL")
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

package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		err   string
		check func(t *testing.T, c config)
	}{
		{"defaults", []string{"moves"}, "", func(t *testing.T, c config) {
			require.Equal(t, []string{"127.0.0.1:8080"}, c.addrs)
			require.Equal(t, 2000, c.rooms)
			require.Equal(t, 8, c.spectators)
			require.Equal(t, 2000.0, c.rate)
			require.Equal(t, 20*time.Second, c.duration)
			require.False(t, c.reconnect, "one node: nowhere to go")
			require.Equal(t, 20000, c.maxConnections())
		}},
		{"two nodes reconnect", []string{"-addr", "127.0.0.1:1,127.0.0.1:2", "moves"}, "", func(t *testing.T, c config) {
			require.True(t, c.reconnect)
		}},
		{"reconnect off", []string{"-addr", "127.0.0.1:1,127.0.0.1:2", "-reconnect", "false", "moves"}, "", func(t *testing.T, c config) {
			require.False(t, c.reconnect)
		}},
		{"idle", []string{"-conns", "50000", "idle"}, "", func(t *testing.T, c config) {
			require.Equal(t, 50000, c.maxConnections())
		}},
		{"growth", []string{"-rooms", "100", "-steps", "1,2,4,8", "growth"}, "", func(t *testing.T, c config) {
			require.Equal(t, []int{1, 2, 4, 8}, c.steps)
			require.Equal(t, 8000, c.maxConnections())
		}},
		{"bots", []string{"-rooms", "10", "-bot-rooms", "5", "bots"}, "", func(t *testing.T, c config) {
			require.Equal(t, 105, c.maxConnections())
		}},
		{"no mode", nil, "exactly one mode", nil},
		{"two modes", []string{"idle", "moves"}, "exactly one mode", nil},
		{"unknown mode", []string{"chaos"}, "unknown mode", nil},
		{"remote server", []string{"-addr", "192.168.1.5:8080", "moves"}, "not a loopback", nil},
		{"zero duration", []string{"-duration", "0s", "moves"}, "-duration", nil},
		{"endless", []string{"-duration", "1000h", "moves"}, "-duration", nil},
		{"negative warmup", []string{"-warmup", "-1s", "moves"}, "-warmup", nil},
		{"too many connections", []string{"-conns", "200000", "idle"}, "-conns", nil},
		{"too few connections", []string{"-conns", "3", "idle"}, "-conns", nil},
		{"too many at the last step", []string{"-rooms", "2000", "growth"}, "largest step", nil},
		{"no rooms", []string{"-rooms", "0", "moves"}, "-rooms", nil},
		{"zero rate", []string{"-rate", "0", "moves"}, "-rate", nil},
		{"NaN rate", []string{"-rate", "NaN", "moves"}, "-rate", nil},
		{"negative spectators", []string{"-spectators", "-1", "moves"}, "-spectators", nil},
		{"bad steps", []string{"-steps", "1,4,2", "growth"}, "increasing", nil},
		{"steps not numbers", []string{"-steps", "1,x", "growth"}, "-steps", nil},
		{"too many sources", []string{"-sources", "300", "moves"}, "-sources", nil},
		{"bad reconnect", []string{"-reconnect", "maybe", "moves"}, "-reconnect", nil},
		{"no bot rooms", []string{"-bot-rooms", "0", "bots"}, "-bot-rooms", nil},
		{"bad setup concurrency", []string{"-setup-concurrency", "0", "moves"}, "-setup-concurrency", nil},
		{"unknown flag", []string{"-colour", "red", "moves"}, "not defined", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseArgs(tc.args, &bytes.Buffer{})
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			tc.check(t, c)
		})
	}
}

func TestParseSteps(t *testing.T) {
	got, err := parseSteps(" 1, 3 ,9")
	require.NoError(t, err)
	require.Equal(t, []int{1, 3, 9}, got)
	for _, bad := range []string{"", "0", "2,2", "1,,2", "5000"} {
		_, err := parseSteps(bad)
		require.Error(t, err, bad)
	}
}

func TestIdlePlans(t *testing.T) {
	for _, tc := range []struct {
		name              string
		conns, spectators int
		rooms             int
	}{
		{"even", 100, 8, 10},
		{"remainder with spectators", 95, 8, 10},
		{"remainder of two", 92, 8, 10},
		{"remainder of one", 91, 8, 10},
		{"players only", 7, 0, 4},
		{"one room", 10, 8, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &load{cfg: config{spectators: tc.spectators}, d: newDialer([]string{"127.0.0.1:1", "127.0.0.1:2"}, nil)}
			plans := l.idlePlans(tc.conns)
			require.Len(t, plans, tc.rooms)
			total := 0
			for _, p := range plans {
				require.GreaterOrEqual(t, p.spectators, 0)
				for _, lv := range p.botLevel {
					if lv == 0 {
						total++
					}
				}
				total += p.spectators
			}
			require.Equal(t, tc.conns, total, "every connection is planned, no more")
		})
	}
}

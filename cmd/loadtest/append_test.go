package main

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/rooms/redistest"
)

// TestAppendMode appends through the Store to a real Redis for a moment and prints the
// latency; a -redis off loopback is refused.
func TestAppendMode(t *testing.T) {
	rdb := redistest.Client(t)
	url := fmt.Sprintf("%s/%d", redistest.URL(t), rdb.Options().DB)
	cfg, err := parseArgs([]string{"-redis", url, "-rooms", "5", "-rate", "50", "-warmup", "0s", "-duration", "400ms", "append"}, &bytes.Buffer{})
	require.NoError(t, err)
	res, err := appendLatency(context.Background(), cfg, &bytes.Buffer{})
	require.NoError(t, err)
	require.Positive(t, res.Latency.Count)
	require.Empty(t, res.Errors)
	var out bytes.Buffer
	res.writeText(&out)
	require.Contains(t, out.String(), "p99")

	for _, target := range []string{"redis://192.0.2.1:6379/0", "cluster:127.0.0.1:7000,192.0.2.1:7001"} {
		_, err := parseArgs([]string{"-redis", target, "append"}, &bytes.Buffer{})
		require.Error(t, err, target)
	}
}

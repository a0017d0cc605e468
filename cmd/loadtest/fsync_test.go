package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFsyncMode runs the fsync mode for a moment in a temporary directory: it parses,
// writes, syncs and prints a latency summary, leaving no file behind.
func TestFsyncMode(t *testing.T) {
	dir := t.TempDir()
	cfg, err := parseArgs([]string{"-fsync-dir", dir, "-duration", "100ms", "fsync"}, &bytes.Buffer{})
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), cfg, &out, &bytes.Buffer{}))
	require.Contains(t, out.String(), "fsync:")
	require.Contains(t, out.String(), "p99")

	res, err := fsyncLatency(context.Background(), dir, 0)
	require.NoError(t, err)
	require.Zero(t, res.Latency.Count, "no time, no writes")
	entries, err := fsyncDirEntries(dir)
	require.NoError(t, err)
	require.Empty(t, entries, "the test file is removed")
}

func fsyncDirEntries(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

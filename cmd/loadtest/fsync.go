package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// fsyncRecord is the size of one write in the fsync mode: about one move's append to
// Redis's append-only file (the script's effects and the index update).
const fsyncRecord = 200

// FsyncResult is the latency of write-then-fsync on this machine's disk: what Redis with
// appendfsync always waits for before it answers a write.
type FsyncResult struct {
	Dir     string  `json:"dir"`
	Seconds float64 `json:"seconds"`
	PerSec  float64 `json:"fsyncsPerSecond"`
	Latency Latency `json:"latency"`
}

func (r FsyncResult) writeText(w io.Writer) {
	l := r.Latency
	fmt.Fprintf(w, "fsync: %d writes of %d bytes, each followed by fsync, in %s over %.0fs: %.0f/s\n",
		l.Count, fsyncRecord, r.Dir, r.Seconds, r.PerSec)
	fmt.Fprintf(w, "  latency  p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms\n", l.P50, l.P90, l.P99, l.Max)
}

// fsync appends small records to a file in dir, one fsync after each, for d (one at a
// time, as Redis's single thread does), and reports the fsync latency.
func fsyncLatency(ctx context.Context, dir string, d time.Duration) (FsyncResult, error) {
	f, err := os.CreateTemp(dir, "loadtest-fsync-*")
	if err != nil {
		return FsyncResult{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	rec := make([]byte, fsyncRecord)
	var lat []time.Duration
	start := time.Now()
	for time.Since(start) < d && ctx.Err() == nil {
		t := time.Now()
		if _, err := f.Write(rec); err != nil {
			return FsyncResult{}, err
		}
		if err := f.Sync(); err != nil {
			return FsyncResult{}, err
		}
		lat = append(lat, time.Since(t))
	}
	secs := time.Since(start).Seconds()
	return FsyncResult{Dir: dir, Seconds: secs, PerSec: float64(len(lat)) / secs, Latency: summarize(lat)}, nil
}

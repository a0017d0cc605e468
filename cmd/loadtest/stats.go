package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// percentile returns the p-th percentile (0 < p <= 100) of sorted by the nearest-rank
// method: the smallest value with at least p% of the values at or below it. It is 0
// for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Latency is a summary of move latencies, in milliseconds in JSON.
type Latency struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50Ms"`
	P90   float64 `json:"p90Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// summarize sorts ds in place and summarizes it.
func summarize(ds []time.Duration) Latency {
	slices.Sort(ds)
	l := Latency{Count: len(ds)}
	if len(ds) > 0 {
		l.P50, l.P90, l.P99, l.Max = ms(percentile(ds, 50)), ms(percentile(ds, 90)), ms(percentile(ds, 99)), ms(ds[len(ds)-1])
	}
	return l
}

// recorder collects what a run measures: latencies, acknowledged moves, errors by code.
// Every room's driver writes to it.
type recorder struct {
	mu        sync.Mutex
	latencies []time.Duration
	moves     int64 // acknowledged moves
	errors    map[string]int64
}

func newRecorder() *recorder { return &recorder{errors: map[string]int64{}} }

func (r *recorder) latency(d time.Duration) {
	r.mu.Lock()
	r.latencies = append(r.latencies, d)
	r.mu.Unlock()
}

func (r *recorder) move() {
	r.mu.Lock()
	r.moves++
	r.mu.Unlock()
}

// fail counts an error by its protocol code, or by one of the tool's own: timeout (no
// answer in time), disconnected (the socket dropped with the request in flight),
// incomplete (a spectator never saw the move).
func (r *recorder) fail(code string) {
	r.mu.Lock()
	r.errors[code]++
	r.mu.Unlock()
}

// take returns and resets what was recorded.
func (r *recorder) take() (lat []time.Duration, moves int64, errs map[string]int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	lat, moves, errs = r.latencies, r.moves, r.errors
	r.latencies, r.moves, r.errors = nil, 0, map[string]int64{}
	return lat, moves, errs
}

// Server is what the server's /metrics said over a run.
type Server struct {
	RSSBeforeMB float64 `json:"rssBeforeMB"`
	RSSAfterMB  float64 `json:"rssAfterMB"`
	// CPU is the server's CPU seconds per wall second over the run (1.0 = one core).
	CPU         float64 `json:"cpuCores"`
	Connections float64 `json:"connections"`
	// MoveP50 and MoveP99 are the server's own time to carry out a move command
	// (hall_command_seconds: decide, store, fan out), as histogram bucket upper bounds:
	// the part of the latency the server spends, without the network and the clients.
	MoveP50 float64 `json:"moveCommandP50Ms"`
	MoveP99 float64 `json:"moveCommandP99Ms"`
}

// Result is one measured run of the moves load.
type Result struct {
	Label       string           `json:"label"`
	Rooms       int              `json:"rooms"`
	Spectators  int              `json:"spectatorsPerRoom"`
	BotRooms    int              `json:"botRooms"`
	Connections int              `json:"connections"`
	Seconds     float64          `json:"seconds"`
	TargetRate  float64          `json:"targetMovesPerSecond"`
	Rate        float64          `json:"movesPerSecond"`
	Moves       int64            `json:"moves"`
	Latency     Latency          `json:"latency"`
	Errors      map[string]int64 `json:"errors"`
	Server      Server           `json:"server"`
	BotMoves    float64          `json:"botMovesPerSecond,omitempty"`
	BotsRefused float64          `json:"botJobsRefused,omitempty"`
	LoadtestCPU float64          `json:"loadtestCpuCores"`
	// LoadtestWait is the time the tool's threads spent waiting for a CPU, per second
	// of the run; MachinePressure the share of the run in which some task on the
	// machine waited for a CPU (Linux PSI). Both near 0 on an idle machine.
	LoadtestWait    float64 `json:"loadtestRunQueueWait"`
	MachinePressure float64 `json:"machineCpuPressure"`
	SetupSeconds    float64 `json:"setupSeconds"`
}

// writeText prints r for people.
func (r Result) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s: %d rooms (%d spectators each", r.Label, r.Rooms, r.Spectators)
	if r.BotRooms > 0 {
		fmt.Fprintf(w, ", %d bot rooms", r.BotRooms)
	}
	fmt.Fprintf(w, "), %d connections, set up in %.1fs\n", r.Connections, r.SetupSeconds)
	fmt.Fprintf(w, "  moves       %d in %.1fs: %.0f/s (target %.0f/s)\n", r.Moves, r.Seconds, r.Rate, r.TargetRate)
	l := r.Latency
	fmt.Fprintf(w, "  latency     send to last spectator: p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms  (%d moves)\n",
		l.P50, l.P90, l.P99, l.Max, l.Count)
	fmt.Fprintf(w, "  errors      %s\n", formatErrors(r.Errors))
	s := r.Server
	fmt.Fprintf(w, "  server      RSS %.1f MB -> %.1f MB, CPU %.2f cores, %.0f connections; move command p50 <= %g ms, p99 <= %g ms\n",
		s.RSSBeforeMB, s.RSSAfterMB, s.CPU, s.Connections, s.MoveP50, s.MoveP99)
	if r.BotRooms > 0 {
		fmt.Fprintf(w, "  bots        %.1f bot moves/s, %.0f searches refused (queue full)\n", r.BotMoves, r.BotsRefused)
	}
	fmt.Fprintf(w, "  loadtest    CPU %.2f cores (same machine); its threads waited %.2f s/s for a CPU\n", r.LoadtestCPU, r.LoadtestWait)
	fmt.Fprintf(w, "  machine     CPU pressure %.0f%% (share of the run in which some task waited for a CPU)\n", 100*r.MachinePressure)
}

// formatErrors prints error counts by code, in code order, or "none".
func formatErrors(errs map[string]int64) string {
	if len(errs) == 0 {
		return "none"
	}
	codes := make([]string, 0, len(errs))
	for c := range errs {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", c, errs[c])
	}
	return b.String()
}

package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func durations(ms ...int) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one value", durations(7), 50, 7 * time.Millisecond},
		{"one value p99", durations(7), 99, 7 * time.Millisecond},
		{"median of four is the second (nearest rank)", durations(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{"median of five", durations(1, 2, 3, 4, 5), 50, 3 * time.Millisecond},
		{"p100 is the max", durations(1, 2, 3, 4, 5), 100, 5 * time.Millisecond},
		{"tiny p is the min", durations(1, 2, 3), 0.001, time.Millisecond},
		{"p50 of 1..100", durations(hundred...), 50, 50 * time.Millisecond},
		{"p90 of 1..100", durations(hundred...), 90, 90 * time.Millisecond},
		{"p99 of 1..100", durations(hundred...), 99, 99 * time.Millisecond},
		{"p99 of ten: the max", durations(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 99, 10 * time.Millisecond},
		{"p90 of ten", durations(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 90, 9 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, percentile(tc.sorted, tc.p))
		})
	}
}

// FuzzPercentile checks the nearest-rank definition against its statement: at least p%
// of the values are at or below the result, and fewer than p% are below it.
func FuzzPercentile(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4}, uint8(50))
	f.Add([]byte{9}, uint8(99))
	f.Add([]byte{5, 5, 5, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, pp uint8) {
		if len(raw) == 0 {
			return
		}
		p := float64(pp%100 + 1)
		ds := make([]time.Duration, len(raw))
		for i, b := range raw {
			ds[i] = time.Duration(b)
		}
		slices.Sort(ds)
		got := percentile(ds, p)
		atOrBelow, below := 0, 0
		for _, d := range ds {
			if d <= got {
				atOrBelow++
			}
			if d < got {
				below++
			}
		}
		n := float64(len(ds))
		require.GreaterOrEqual(t, float64(atOrBelow)*100, p*n-1e-9)
		require.Less(t, float64(below)*100, p*n)
	})
}

func TestSummarize(t *testing.T) {
	l := summarize(durations(5, 1, 4, 2, 3))
	require.Equal(t, Latency{Count: 5, P50: 3, P90: 5, P99: 5, Max: 5}, l)
	require.Equal(t, Latency{}, summarize(nil))
	l = summarize([]time.Duration{1500 * time.Microsecond})
	require.Equal(t, 1.5, l.P50, "milliseconds with microsecond precision")
}

func TestRecorderTake(t *testing.T) {
	r := newRecorder()
	r.latency(time.Millisecond)
	r.move()
	r.move()
	r.fail("stale")
	r.fail("stale")
	r.fail("timeout")
	lat, moves, errs := r.take()
	require.Len(t, lat, 1)
	require.Equal(t, int64(2), moves)
	require.Equal(t, map[string]int64{"stale": 2, "timeout": 1}, errs)
	lat, moves, errs = r.take()
	require.Empty(t, lat)
	require.Zero(t, moves)
	require.Empty(t, errs, "take resets")
}

func TestFormatErrors(t *testing.T) {
	require.Equal(t, "none", formatErrors(nil))
	require.Equal(t, "busy 1, stale 3, timeout 2", formatErrors(map[string]int64{"timeout": 2, "stale": 3, "busy": 1}))
}

func TestKnee(t *testing.T) {
	step := func(p99, rate, target float64) Result {
		return Result{Latency: Latency{P99: p99}, Rate: rate, TargetRate: target}
	}
	for _, tc := range []struct {
		name  string
		steps []Result
		want  int
	}{
		{"none", []Result{step(1, 100, 100), step(1.5, 200, 200), step(2, 400, 400)}, -1},
		{"latency more than doubles", []Result{step(1, 100, 100), step(1.9, 200, 200), step(2.1, 400, 400)}, 2},
		{"rate falls short", []Result{step(1, 100, 100), step(1, 189, 200)}, 1},
		{"rate within 5%", []Result{step(1, 100, 100), step(1, 191, 200)}, -1},
		{"first step already short", []Result{step(1, 50, 100)}, 0},
		{"empty", nil, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, knee(tc.steps))
		})
	}
}

func TestResultText(t *testing.T) {
	r := Result{Label: "moves", Rooms: 2, Spectators: 8, Connections: 20, Seconds: 10, TargetRate: 2, Rate: 2, Moves: 20,
		Latency: Latency{Count: 20, P50: 0.5, P90: 0.7, P99: 1.25, Max: 3}, Errors: map[string]int64{"stale": 1},
		Server: Server{RSSBeforeMB: 10, RSSAfterMB: 12, CPU: 0.05, Connections: 20}}
	var b bytes.Buffer
	r.writeText(&b)
	for _, want := range []string{"2 rooms (8 spectators each)", "20 in 10.0s: 2/s (target 2/s)", "p99 1.25 ms", "stale 1", "RSS 10.0 MB -> 12.0 MB"} {
		require.Contains(t, b.String(), want)
	}
	b.Reset()
	GrowthResult{Steps: []Result{r}, Knee: -1}.writeText(&b)
	require.Equal(t, 3, strings.Count(b.String(), "\n"))
	require.Contains(t, b.String(), "knee: none")
}

func TestParseMachineCounters(t *testing.T) {
	require.Equal(t, 2.5, parseSchedstatWait("123 2500000000 7\n"))
	require.Zero(t, parseSchedstatWait("123"))
	require.Zero(t, parseSchedstatWait("1 x 2"))
	psi := "some avg10=86.46 avg60=94.18 avg300=95.14 total=3432222371\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
	require.Equal(t, 3432.222371, parsePressureTotal(psi))
	require.Zero(t, parsePressureTotal("full total=5\n"))
	require.Zero(t, parsePressureTotal("some total=x\n"))
	require.GreaterOrEqual(t, runQueueWait(), 0.0)
	require.GreaterOrEqual(t, cpuPressure(), 0.0)
}

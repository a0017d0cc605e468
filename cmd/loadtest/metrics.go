package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The server metrics the tool reads (docs/operations.md).
const (
	metricRSS         = "process_resident_memory_bytes"
	metricCPU         = "process_cpu_seconds_total"
	metricConns       = "hall_ws_connections"
	metricHeapInuse   = "go_memstats_heap_inuse_bytes"
	metricGoroutines  = "go_goroutines"
	metricBotSearches = `hall_bot_search_seconds_count{game="reversi"}`
	metricBotRefused  = "hall_bot_jobs_refused_total"
)

// parseMetrics reads the Prometheus text format: one sample per line, `name value` or
// `name{labels} value`, optionally followed by a timestamp; # lines are comments. The
// map's keys are the name with its labels exactly as written.
func parseMetrics(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		key, rest, err := splitSample(line)
		if err != nil {
			return nil, fmt.Errorf("loadtest: metrics line %d: %v", n, err)
		}
		fields := strings.Fields(rest)
		if len(fields) < 1 || len(fields) > 2 {
			return nil, fmt.Errorf("loadtest: metrics line %d: want a value and at most a timestamp: %q", n, line)
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return nil, fmt.Errorf("loadtest: metrics line %d: %v", n, err)
		}
		out[key] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("loadtest: metrics: %v", err)
	}
	return out, nil
}

// splitSample splits a sample line into its name with labels and the rest. Label values
// are quoted strings that may hold spaces, braces and escaped quotes.
func splitSample(line string) (key, rest string, err error) {
	i := strings.IndexAny(line, "{ \t")
	if i <= 0 {
		return "", "", fmt.Errorf("no value: %q", line)
	}
	if line[i] != '{' {
		return line[:i], line[i:], nil
	}
	inQuote := false
	for j := i + 1; j < len(line); j++ {
		switch c := line[j]; {
		case inQuote && c == '\\':
			j++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == '}':
			return line[:j+1], line[j+1:], nil
		}
	}
	return "", "", fmt.Errorf("unterminated labels: %q", line)
}

// scrape reads the server's /metrics.
func scrape(ctx context.Context, hc *http.Client, addr string) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("loadtest: metrics: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("loadtest: metrics: %s", resp.Status)
	}
	return parseMetrics(resp.Body)
}

// sample is the server's state at one moment.
type sample struct {
	at      time.Time
	metrics map[string]float64
}

func takeSample(ctx context.Context, hc *http.Client, addr string) (sample, error) {
	m, err := scrape(ctx, hc, addr)
	return sample{at: time.Now(), metrics: m}, err
}

// cpuCores is the server's CPU use between two samples, in cores.
func cpuCores(a, b sample) float64 {
	wall := b.at.Sub(a.at).Seconds()
	if wall <= 0 {
		return 0
	}
	return (b.metrics[metricCPU] - a.metrics[metricCPU]) / wall
}

func mb(bytes float64) float64 { return bytes / (1 << 20) }

// moveBucketPrefix names the buckets of the server's move command time histogram.
const moveBucketPrefix = `hall_command_seconds_bucket{command="move",le="`

// histQuantile estimates the q-quantile (0..1) of what a Prometheus histogram observed
// between samples a and b, as the upper bound of the bucket it falls in (so it is at
// most one bucket too high); when it lies beyond the last finite bucket, that bucket's
// bound (read it as "at least"; JSON has no infinity); 0 when nothing was observed. prefix is the bucket series name up to the le value.
func histQuantile(a, b map[string]float64, prefix string, q float64) float64 {
	type bucket struct{ le, n float64 }
	var buckets []bucket
	for k, v := range b {
		if !strings.HasPrefix(k, prefix) || !strings.HasSuffix(k, `"}`) {
			continue
		}
		le, err := strconv.ParseFloat(k[len(prefix):len(k)-2], 64)
		if err != nil {
			continue
		}
		buckets = append(buckets, bucket{le, v - a[k]})
	}
	sort.Slice(buckets, func(i, j int) bool { return buckets[i].le < buckets[j].le })
	if len(buckets) == 0 || buckets[len(buckets)-1].n <= 0 {
		return 0
	}
	want := q * buckets[len(buckets)-1].n
	last := 0.0
	for _, bk := range buckets {
		if math.IsInf(bk.le, 1) {
			break
		}
		if bk.n >= want {
			return bk.le
		}
		last = bk.le
	}
	return last
}

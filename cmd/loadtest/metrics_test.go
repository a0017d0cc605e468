package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseMetrics(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want map[string]float64
		err  string
	}{
		{"plain", "# HELP x y\n# TYPE x gauge\nx 1\n", map[string]float64{"x": 1}, ""},
		{"float and exponent", "process_resident_memory_bytes 2.4576e+07\n", map[string]float64{"process_resident_memory_bytes": 24576000}, ""},
		{"labels", `hall_ws_errors_total{code="stale"} 3` + "\n", map[string]float64{`hall_ws_errors_total{code="stale"}`: 3}, ""},
		{"labels with spaces and braces", `m{a="x } y",b="q\"z"} 4`, map[string]float64{`m{a="x } y",b="q\"z"}`: 4}, ""},
		{"timestamp", "x 5 1700000000000", map[string]float64{"x": 5}, ""},
		{"special values", "a +Inf\nb NaN\n", nil, ""},
		{"blank lines", "\n\nx 1\n\n", map[string]float64{"x": 1}, ""},
		{"no value", "x\n", nil, "no value"},
		{"bad value", "x one\n", nil, "line 1"},
		{"too many fields", "x 1 2 3\n", nil, "at most a timestamp"},
		{"unterminated labels", `x{a="1" 2`, nil, "unterminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMetrics(strings.NewReader(tc.text))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			if tc.want != nil {
				require.Equal(t, tc.want, got)
			} else {
				require.Len(t, got, 2)
			}
		})
	}
}

// FuzzParseMetrics: the parser never panics, and a sample it writes back in the text
// format reads the same.
func FuzzParseMetrics(f *testing.F) {
	f.Add("x 1\n")
	f.Add(`hall_command_seconds_bucket{command="move",le="0.005"} 1234` + "\n")
	f.Add("# comment\ny{a=\"}\"} 2e3 17\n")
	f.Fuzz(func(t *testing.T, text string) {
		got, err := parseMetrics(strings.NewReader(text))
		if err != nil {
			return
		}
		for k, v := range got {
			if v != v { // NaN does not compare equal to itself
				continue
			}
			again, err := parseMetrics(strings.NewReader(k + " " + strconv.FormatFloat(v, 'g', -1, 64) + "\n"))
			require.NoError(t, err, "%q", k)
			require.Equal(t, v, again[k], "%q", k)
		}
	})
}

func TestCPUCores(t *testing.T) {
	t0 := time.Now()
	a := sample{at: t0, metrics: map[string]float64{metricCPU: 10}}
	b := sample{at: t0.Add(2 * time.Second), metrics: map[string]float64{metricCPU: 11}}
	require.InDelta(t, 0.5, cpuCores(a, b), 1e-9)
	require.Zero(t, cpuCores(a, a), "no time passed")
}

func TestHistQuantile(t *testing.T) {
	b := func(le string) string { return moveBucketPrefix + le + `"}` }
	before := map[string]float64{b("0.001"): 10, b("0.01"): 10, b("0.1"): 10, b("+Inf"): 10}
	after := map[string]float64{b("0.001"): 60, b("0.01"): 108, b("0.1"): 109, b("+Inf"): 110,
		`hall_command_seconds_bucket{command="join",le="0.001"}`: 1000}
	for _, tc := range []struct {
		name string
		q    float64
		want float64
	}{
		{"median in the first bucket", 0.5, 0.001},
		{"p90", 0.9, 0.01},
		{"p98", 0.98, 0.01},
		{"p99", 0.99, 0.1},
		{"beyond the last finite bucket: its bound", 1, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, histQuantile(before, after, moveBucketPrefix, tc.q))
		})
	}
	require.Zero(t, histQuantile(after, after, moveBucketPrefix, 0.5), "nothing observed")
	require.Zero(t, histQuantile(nil, nil, moveBucketPrefix, 0.5))
}

package main

import (
	"math"
	"testing"
)

// TestPairedRMSE checks the paired comparison on errors worked out by hand.
// Two positions labelled 0: a errs by 1 on both, b by 3 and 1. Then
// RMSE(a) = 1, RMSE(b) = sqrt(5); the squared errors differ by 8 and 0, a
// mean of 4 with a standard error of 4, which the delta method divides by
// 1 + sqrt(5). An evaluation compared with itself differs by exactly 0.
func TestPairedRMSE(t *testing.T) {
	samples := []sample{{black: 1, score: 0}, {black: 2, score: 0}}
	a := func(sample) float64 { return 1 }
	b := func(s sample) float64 {
		if s.black == 1 {
			return 3
		}
		return -1
	}
	ra, rb, se := pairedRMSE(samples, a, b)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"RMSE of a", ra, 1},
		{"RMSE of b", rb, math.Sqrt(5)},
		{"standard error", se, 4 / (1 + math.Sqrt(5))},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if ra, rb, se := pairedRMSE(samples, b, b); ra != rb || se != 0 {
		t.Errorf("b against itself: %v, %v, SE %v; want equal RMSEs and SE 0", ra, rb, se)
	}
}

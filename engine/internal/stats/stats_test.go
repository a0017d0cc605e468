package stats

import (
	"fmt"
	"math"
	"testing"
)

func TestMeanSE(t *testing.T) {
	for _, tc := range []struct {
		xs       []float64
		mean, se float64
	}{
		{nil, 0, 0},
		{[]float64{3}, 3, 0},
		{[]float64{1, 3}, 2, 1}, // sd sqrt(2), over sqrt(2)
		{[]float64{0, 1, -0.5, 0}, 0.125, math.Sqrt(1.1875 / 3 / 4)},
		{[]float64{2, 2, 2, 2}, 2, 0},
		{[]float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0 / 3 / 4)}, // sd 1.291, over 2
	} {
		m, se := MeanSE(tc.xs)
		if math.Abs(m-tc.mean) > 1e-12 || math.Abs(se-tc.se) > 1e-12 {
			t.Errorf("MeanSE(%v) = %v, %v; want %v, %v", tc.xs, m, se, tc.mean, tc.se)
		}
	}
}

func ExampleMeanSE() {
	m, se := MeanSE([]float64{1, 0, 1, 1, 0.5, 0})
	fmt.Printf("%.3f ± %.3f\n", m, se)
	// Output: 0.583 ± 0.201
}

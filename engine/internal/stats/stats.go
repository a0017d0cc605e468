// Package stats holds the small statistics the engines' measurements share:
// the mean of a sample and its standard error, as every paired comparison
// of two builds (match gauntlets, move-loss sets) reports it.
package stats

import "math"

// MeanSE returns the mean of xs and its standard error (the sample
// standard deviation over the square root of the count). With fewer than
// two values the error is 0, and with none the mean is 0 as well.
func MeanSE(xs []float64) (mean, se float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

package reversi

import (
	"math"
	"math/rand"
	"testing"
)

// hashIndexBits is how many low bits of hashPosition the tests check: the
// tables index by the low bits, and the largest (the midgame table of a
// 256 MiB engine) uses about 23.
const hashIndexBits = 24

// TestHashPositionSpreads checks the hash's low bits on the positions the
// tables see: the distinct positions of random games fall evenly into the
// 4096 buckets of bits 0-11 and of bits 12-23 (a chi-square within five
// standard deviations of its mean), and no two share the whole hash.
func TestHashPositionSpreads(t *testing.T) {
	seen := map[[2]uint64]bool{}
	for _, p := range randomPositions(rand.New(rand.NewSource(7)), 3000) {
		seen[[2]uint64{p.me, p.opp}] = true
	}
	hashes := map[uint64]bool{}
	var low, mid [4096]int
	for k := range seen {
		h := hashPosition(k[0], k[1])
		if hashes[h] {
			t.Fatalf("two positions share the hash %#x", h)
		}
		hashes[h] = true
		low[h&4095]++
		mid[h>>12&4095]++
	}
	n := float64(len(seen))
	for _, c := range []struct {
		name   string
		counts *[4096]int
	}{{"bits 0-11", &low}, {"bits 12-23", &mid}} {
		want := n / 4096
		chi := 0.0
		for _, got := range c.counts {
			d := float64(got) - want
			chi += d * d / want
		}
		// chi-square with 4095 degrees of freedom: mean 4095, sd sqrt(2*4095).
		if sd := math.Sqrt(2 * 4095); math.Abs(chi-4095) > 5*sd {
			t.Errorf("%s of %d positions: chi-square %.0f, want 4095 ± %.0f", c.name, len(seen), chi, 5*sd)
		}
	}
}

// TestHashPositionAvalanche checks that a change of any one square, on
// either board, flips each of the index bits in about half of random
// positions: no square is left out of a bit the tables index by.
func TestHashPositionAvalanche(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const trials = 2000
	var flipped [128][hashIndexBits]int
	for i := 0; i < trials; i++ {
		me, opp := rng.Uint64(), rng.Uint64()
		h := hashPosition(me, opp)
		for b := 0; b < 128; b++ {
			m, o := me, opp
			if b < 64 {
				m ^= 1 << uint(b)
			} else {
				o ^= 1 << uint(b-64)
			}
			d := h ^ hashPosition(m, o)
			for j := 0; j < hashIndexBits; j++ {
				flipped[b][j] += int(d >> uint(j) & 1)
			}
		}
	}
	for b := range flipped {
		for j, f := range flipped[b] {
			if rate := float64(f) / trials; rate < 0.4 || rate > 0.6 {
				t.Errorf("input bit %d flips hash bit %d in %.3f of positions, want about 0.5", b, j, rate)
			}
		}
	}
}

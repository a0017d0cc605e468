package pattern

import (
	"fmt"
	"math/bits"
	"math/rand"
	"testing"
)

// TestFramesAreIndices checks the frames of a position from both sides'
// views against Indices of the position and of its colours swapped, less
// the tables' offsets.
func TestFramesAreIndices(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		me, opp := randomBoard(rng)
		var mine, theirs Frame
		mine.Read(me, opp)
		theirs.Read(opp, me)
		var a, b [PerPosition]int32
		Indices(me, opp, 0, 0, &a)
		Indices(opp, me, 0, 0, &b)
		if [2]uint16(mine[NumInstances:]) != [2]uint16{} || [2]uint16(theirs[NumInstances:]) != [2]uint16{} {
			t.Fatalf("padding %v, %v, want zeros", mine[NumInstances:], theirs[NumInstances:])
		}
		for k := range mine[:NumInstances] {
			if int32(mine[k]) != a[k]-instanceOffset[k] || int32(theirs[k]) != b[k]-instanceOffset[k] {
				t.Fatalf("instance %d: frames %d, %d; indices %d, %d (offset %d)", k, mine[k], theirs[k], a[k], b[k], instanceOffset[k])
			}
		}
	}
}

// TestSquareTerms checks the squares' digits: every instance holds 4 to 10
// squares with the powers 1, 3, 9, ... once each, and every square lies in
// 4 to 8 instances.
func TestSquareTerms(t *testing.T) {
	powers := make([]map[uint16]bool, NumInstances)
	for k := range powers {
		powers[k] = map[uint16]bool{}
	}
	for sq, ts := range squareTerms {
		if len(ts) < 4 || len(ts) > 8 {
			t.Errorf("square %d in %d instances", sq, len(ts))
		}
		for _, x := range ts {
			if powers[x.instance][x.power] {
				t.Errorf("instance %d: power %d twice", x.instance, x.power)
			}
			powers[x.instance][x.power] = true
		}
	}
	for k, ps := range powers {
		for p := uint16(1); p < uint16(pow3(len(ps))); p *= 3 {
			if !ps[p] {
				t.Errorf("instance %d (%d squares): no power %d", k, len(ps), p)
			}
		}
		if len(ps) < 4 || len(ps) > 10 {
			t.Errorf("instance %d holds %d squares", k, len(ps))
		}
	}
}

// TestPlayUpdatesFrame plays random moves (a square and discs turned over,
// legal or not: Play and PlayOwn only count digits) and checks the
// updated frames against the child's frames read from scratch, and its evaluation against
// the sum of the weights over Indices.
func TestPlayUpdatesFrame(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	w := symmetricWeights(rng)
	for i := 0; i < 5000; i++ {
		me, opp := randomBoard(rng)
		empty := ^(me | opp)
		if empty == 0 {
			continue
		}
		sq := pickBit(rng, empty)
		flipped := opp & rng.Uint64() & rng.Uint64()
		var node, nodeOwn, want, wantOwn Frame
		node.Read(opp, me)                                // the node from the view of the child's mover
		nodeOwn.Read(me, opp)                             // and of the move's player
		cme, copp := opp&^flipped, me|flipped|1<<uint(sq) // the child: opp to move
		want.Read(cme, copp)
		wantOwn.Read(copp, cme)
		for _, way := range playWays {
			child, own := node, nodeOwn
			way.play(&child, sq, flipped)
			if child != want {
				t.Fatalf("%x %x, %d flipping %x: %s gives %v, want %v", me, opp, sq, flipped, way.name, child, want)
			}
			way.playOwn(&own, sq, flipped)
			if own != wantOwn {
				t.Fatalf("%x %x, %d flipping %x: %s (own) gives %v, want %v", me, opp, sq, flipped, way.name, own, wantOwn)
			}
		}
		child := want
		mm, om := rng.Intn(30), rng.Intn(30)
		var ix [PerPosition]int32
		Indices(cme, copp, mm, om, &ix)
		sum := 0
		for _, j := range ix {
			sum += int(w[j])
		}
		if got := EvaluateFrame(w, &child, mm, om); got != sum {
			t.Fatalf("EvaluateFrame %d, the sum over Indices %d", got, sum)
		}
		mobility := int(w[ix[NumInstances]]) + int(w[ix[NumInstances+1]])
		if got := sumFrameGo((*[StageSize]int16)(w), &child) + mobility; got != sum {
			t.Fatalf("sumFrameGo and mobility %d, the sum over Indices %d", got, sum)
		}
	}
}

// playWays are the ways to update a frame this machine runs: Play and
// PlayOwn as the search calls them, and each implementation behind them.
var playWays = func() []struct {
	name          string
	play, playOwn func(f *Frame, sq int, flipped uint64)
} {
	type way = struct {
		name          string
		play, playOwn func(f *Frame, sq int, flipped uint64)
	}
	ways := []way{
		{"Play", (*Frame).Play, (*Frame).PlayOwn},
		{"playGo", (*Frame).playGo, (*Frame).playOwnGo},
	}
	if useAVX2 {
		ways = append(ways, way{"playAVX2", playAVX2, playOwnAVX2})
	}
	return ways
}()

// pickBit returns a random set bit of x (x must not be 0).
func pickBit(rng *rand.Rand, x uint64) int {
	n := rng.Intn(bits.OnesCount64(x))
	for ; n > 0; n-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}

// ExampleFrame_Play evaluates the children of a position from its frame:
// one update a child instead of reading its 46 pattern instances again.
func ExampleFrame_Play() {
	me, opp := uint64(0x0000000810000000), uint64(0x0000001008000000) // the start: black to move
	var child, want Frame
	child.Read(opp, me)                // the children have white to move
	child.Play(19, 0x0000000008000000) // black plays d3, turning d4 over
	want.Read(opp&^0x0000000008000000, me|0x0000000008080000)
	fmt.Println(child == want)
	// Output: true
}

func BenchmarkFrame(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	w := symmetricWeights(rng)
	me, opp := randomBoard(rng)
	b.Run("Evaluate", func(b *testing.B) {
		s := 0
		for i := 0; i < b.N; i++ {
			s += Evaluate(w, me, opp, 10, 10)
		}
		sink = s
	})
	b.Run("Read", func(b *testing.B) {
		var f Frame
		for i := 0; i < b.N; i++ {
			f.Read(me, opp)
		}
	})
	b.Run("PlayEvaluateFrame", func(b *testing.B) {
		var theirs Frame
		theirs.Read(opp, me)
		s := 0
		for i := 0; i < b.N; i++ {
			f := theirs
			f.Play(i&7, 0x0000001818000000&^(me|opp)|opp&0x0000001818000000)
			s += EvaluateFrame(w, &f, 10, 10)
		}
		sink = s
	})
}

var sink int

package pattern

import (
	"bytes"
	"math/bits"
	"math/rand"
	"testing"
)

// randomBoard returns a random position: each square empty, mine or theirs.
func randomBoard(rng *rand.Rand) (me, opp uint64) {
	for sq := 0; sq < 64; sq++ {
		switch rng.Intn(3) {
		case 1:
			me |= 1 << uint(sq)
		case 2:
			opp |= 1 << uint(sq)
		}
	}
	return me, opp
}

// symmetricWeights returns a random stage table in which every entry equals
// its canonical entry, as fitted tables are.
func symmetricWeights(rng *rand.Rand) []int16 {
	w := make([]int16, StageSize)
	for j := range w {
		w[j] = int16(rng.Intn(2001) - 1000)
	}
	for j := range w {
		w[j] = w[Canonical(j)]
	}
	return w
}

func TestOffsets(t *testing.T) {
	want := [NumPatterns]int{0, offset1, offset2, offset3, offset4, offset5, offset6, offset7, offset8, offset9, offset10}
	if Offsets != want {
		t.Fatalf("Offsets %v, constants %v", Offsets, want)
	}
	if StageSize != LinearOffset+1 {
		t.Fatalf("StageSize %d", StageSize)
	}
}

func TestEvaluateIsSumOfIndices(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	w := symmetricWeights(rng)
	for i := 0; i < 2000; i++ {
		me, opp := randomBoard(rng)
		mm, om := rng.Intn(30), rng.Intn(30)
		var ix [PerPosition]int32
		Indices(me, opp, mm, om, &ix)
		sum := 0
		seen := map[int32]int{}
		for _, j := range ix {
			sum += int(w[j])
			seen[j]++
		}
		if got := Evaluate(w, me, opp, mm, om); got != sum {
			t.Fatalf("Evaluate %d, sum over Indices %d", got, sum)
		}
	}
}

// TestSymmetry checks that every image of a position under the board's
// symmetries evaluates the same, given tables with mirror configurations
// equal: so every instance of every pattern is read, each once.
func TestSymmetry(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	w := symmetricWeights(rng)
	for i := 0; i < 2000; i++ {
		me, opp := randomBoard(rng)
		want := Evaluate(w, me, opp, 5, 7)
		var im, io [8]uint64
		images(me, &im)
		images(opp, &io)
		for k := 1; k < 8; k++ {
			if got := Evaluate(w, im[k], io[k], 5, 7); got != want {
				t.Fatalf("image %d evaluates %d, the position %d", k, got, want)
			}
		}
	}
}

// TestImages checks the eight images against the symmetries composed the
// obvious way: the transposes of the identity, ranks reversed, files
// reversed and the half-turn.
func TestImages(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 1000; i++ {
		x := rng.Uint64()
		v, h := bits.ReverseBytes64(x), Mirror(x)
		r := bits.ReverseBytes64(h)
		want := [8]uint64{x, v, h, r, Transpose(x), Transpose(v), Transpose(h), Transpose(r)}
		var got [8]uint64
		images(x, &got)
		if got != want {
			t.Fatalf("images(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

// TestIndicesBySquares reads each pattern square by square (the slow,
// obvious way) and checks the fast index of the identity image's reading.
func TestIndicesBySquares(t *testing.T) {
	squares := map[int][]int{ // pattern -> squares in digit order
		0:  {0, 1, 2, 3, 4, 5, 6, 7, 9, 14},
		1:  {0, 1, 2, 3, 4, 8, 9, 10, 11, 12},
		2:  {0, 1, 2, 8, 9, 10, 16, 17, 18},
		3:  {8, 9, 10, 11, 12, 13, 14, 15},
		4:  {16, 17, 18, 19, 20, 21, 22, 23},
		5:  {24, 25, 26, 27, 28, 29, 30, 31},
		6:  {0, 9, 18, 27, 36, 45, 54, 63},
		7:  {1, 10, 19, 28, 37, 46, 55},
		8:  {2, 11, 20, 29, 38, 47},
		9:  {3, 12, 21, 30, 39},
		10: {4, 13, 22, 31},
	}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 500; i++ {
		me, opp := randomBoard(rng)
		var ix [PerPosition]int32
		Indices(me, opp, 0, 0, &ix)
		have := map[int32]bool{}
		for _, j := range ix {
			have[j] = true
		}
		for p, sqs := range squares {
			idx, pw := 0, 1
			for _, sq := range sqs {
				switch {
				case me>>uint(sq)&1 != 0:
					idx += pw
				case opp>>uint(sq)&1 != 0:
					idx += 2 * pw
				}
				pw *= 3
			}
			j := int32(Offsets[p] + idx)
			if !have[j] {
				t.Fatalf("pattern %d: index %d (squares %v) not among the position's entries", p, idx, sqs)
			}
		}
	}
}

func TestCanonicalIsInvolution(t *testing.T) {
	for j := 0; j < StageSize; j++ {
		c := Canonical(j)
		if c > j || Canonical(c) != c {
			t.Fatalf("Canonical(%d) = %d, Canonical of that %d", j, c, Canonical(c))
		}
	}
	// An edge with one disc on a1 shares its value with the one on h1.
	if got := Canonical(pow3(7)); got != 1 {
		t.Errorf("edge with my disc on h1: canonical %d, want 1 (my disc on a1)", got)
	}
	if got := Canonical(2 * pow3(9)); got != 2*pow3(8) {
		t.Errorf("edge with their disc on g2: canonical %d, want %d (on b2)", got, 2*pow3(8))
	}
}

func TestEncodeDecode(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	st := make([][]int16, NumStages)
	for s := range st {
		st[s] = symmetricWeights(rng)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, st); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for s := range st {
		if !slicesEqual(got[s], st[s]) {
			t.Fatalf("stage %d differs after a round trip", s)
		}
	}
	for _, bad := range [][]byte{nil, []byte("not gzip"), buf.Bytes()[:buf.Len()/2]} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%d bytes of junk) succeeded", len(bad))
		}
	}
}

func slicesEqual(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStage(t *testing.T) {
	for _, c := range []struct{ empties, want int }{{0, 0}, {1, 0}, {4, 0}, {5, 1}, {60, NumStages - 1}, {64, NumStages - 1}} {
		if got := Stage(c.empties); got != c.want {
			t.Errorf("Stage(%d) = %d, want %d", c.empties, got, c.want)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	w := symmetricWeights(rng)
	me, opp := randomBoard(rng)
	b.ReportAllocs()
	s := 0
	for i := 0; i < b.N; i++ {
		s += Evaluate(w, me, opp, 8, 9)
	}
	_ = s
}

// FuzzDecode feeds Decode arbitrary bytes, seeded with a valid file, a
// truncated one and junk: it must return an error or well-formed tables,
// never panic.
func FuzzDecode(f *testing.F) {
	st := make([][]int16, NumStages)
	for s := range st {
		st[s] = make([]int16, StageSize)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, st); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:buf.Len()/2])
	f.Add([]byte("RVPAT1"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data)
		if err != nil {
			return
		}
		if len(got) != NumStages {
			t.Fatalf("%d stages", len(got))
		}
		for _, s := range got {
			if len(s) != StageSize {
				t.Fatalf("a stage of %d", len(s))
			}
		}
	})
}

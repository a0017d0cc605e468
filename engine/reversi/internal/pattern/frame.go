package pattern

import "math/bits"

// NumInstances is the number of pattern instances one position's
// evaluation reads: PerPosition without the two mobility entries.
const NumInstances = PerPosition - 2

// A Frame holds the configuration index of every pattern instance of a
// position, read from one side's view (its discs are the digit 1, the
// other side's the digit 2), in the order of Indices.
//
// Patterns with a symmetry of their own (an edge, a line or a diagonal
// read from the other end, the 3x3 corner read down instead of across) are
// read once per instance, from one image that brings it into place; their
// tables must give a configuration and its mirror image the same value
// (Canonical), so the evaluation is the same on every image of the board.
// The 2x5 corner has no such symmetry and is read on all 8 images.
//
// A move changes few of a frame's digits, so the search updates the frame
// of a position's children (Play) instead of reading every instance again:
// a child's evaluation then costs a few additions and the table lookups.
//
// A Frame has two entries more than the instances, always zero, so that
// it is three 32-byte vectors: the AVX2 update (frame_amd64.s) adds a
// square's digits to the whole frame at once.
type Frame [frameLen]uint16

// frameLen is the length of a Frame: NumInstances rounded up to a
// multiple of 16.
const frameLen = (NumInstances + 15) &^ 15

// Read sets f to the frame of (me, opp) from me's view, reading every
// instance from the board. The children of (me to move, opp) have opp to
// move, so their frames follow from that of (opp, me) (Play).
func (f *Frame) Read(me, opp uint64) {
	var m, o [8]uint64
	images(me, &m)
	images(opp, &o)
	k := 0
	add := func(a, b uint32) {
		f[k] = uint16(ternary[a&1023] + 2*ternary[b&1023])
		k++
	}
	for i := 0; i < 8; i++ {
		add(corner2x5(m[i]), corner2x5(o[i]))
	}
	for _, i := range edgeImages {
		add(edgeX(m[i]), edgeX(o[i]))
		add(uint32(uint8(m[i]>>8)), uint32(uint8(o[i]>>8)))
		add(uint32(uint8(m[i]>>16)), uint32(uint8(o[i]>>16)))
		add(uint32(uint8(m[i]>>24)), uint32(uint8(o[i]>>24)))
	}
	for i := 0; i < 4; i++ {
		add(corner3x3(m[i]), corner3x3(o[i]))
		add(uint32(diag(m[i], diag7Mask, 1)), uint32(diag(o[i], diag7Mask, 1)))
		add(uint32(diag(m[i], diag6Mask, 2)), uint32(diag(o[i], diag6Mask, 2)))
		add(uint32(diag(m[i], diag5Mask, 3)), uint32(diag(o[i], diag5Mask, 3)))
		add(uint32(diag(m[i], diag4Mask, 4)), uint32(diag(o[i], diag4Mask, 4)))
	}
	for i := 0; i < 2; i++ {
		add(uint32(diag(m[i], diag8Mask, 0)), uint32(diag(o[i], diag8Mask, 0)))
	}
}

// Play updates f, the frame of a position from the view of the side that
// is not to move (Read(opp, me)), to the frame of the position after the
// side to move plays sq and turns over the discs of flipped: the frame of
// the child from its own mover's view. In that frame the player of the move is the
// digit 2: sq goes from 0 to 2, and each flipped disc from 1 to 2.
func (f *Frame) Play(sq int, flipped uint64) {
	if useAVX2 {
		playAVX2(f, sq, flipped)
		return
	}
	f.playGo(sq, flipped)
}

// playGo is Play in plain Go: for each square, the instances that hold it.
func (f *Frame) playGo(sq int, flipped uint64) {
	for _, t := range squareTerms[sq] {
		f[t.instance] += 2 * t.power
	}
	for ; flipped != 0; flipped &= flipped - 1 {
		for _, t := range squareTerms[bits.TrailingZeros64(flipped)] {
			f[t.instance] += t.power
		}
	}
}

// PlayOwn updates f, the frame of a position from its mover's view
// (Read(me, opp)), to the frame of the position after the mover plays sq
// and turns over the discs of flipped, still from the view of the player
// of the move: the frame the child's own children follow from (Play). In
// it sq goes from 0 to 1, and each flipped disc from 2 to 1.
func (f *Frame) PlayOwn(sq int, flipped uint64) {
	if useAVX2 {
		playOwnAVX2(f, sq, flipped)
		return
	}
	f.playOwnGo(sq, flipped)
}

// playOwnGo is PlayOwn in plain Go.
func (f *Frame) playOwnGo(sq int, flipped uint64) {
	for _, t := range squareTerms[sq] {
		f[t.instance] += t.power
	}
	for ; flipped != 0; flipped &= flipped - 1 {
		for _, t := range squareTerms[bits.TrailingZeros64(flipped)] {
			f[t.instance] -= t.power
		}
	}
}

// EvaluateFrame returns what Evaluate returns for the position whose frame
// from its mover's view is f, with the given mobility: the sum of one
// stage's table w (StageSize entries) over the instances and the mobility
// entries.
func EvaluateFrame(w []int16, f *Frame, myMoves, oppMoves int) int {
	t := (*[StageSize]int16)(w)
	s := int(t[MyMobilityOffset+myMoves&(MobilityEntries-1)]) + int(t[OppMobilityOffset+oppMoves&(MobilityEntries-1)])
	return s + sumFrame(t, f)
}

// sumFrameGo returns the sum of the table entries of the frame's
// instances: sumFrame in plain Go.
func sumFrameGo(t *[StageSize]int16, f *Frame) int {
	// Every read is written out with its frame index and table offset as
	// constants: a loop over the frame with the offsets in an array took 14
	// instructions an instance, these about 5.
	// The 2x5 corners.
	s := int(t[offset1+int(f[0])]) + int(t[offset1+int(f[1])]) + int(t[offset1+int(f[2])]) + int(t[offset1+int(f[3])]) +
		int(t[offset1+int(f[4])]) + int(t[offset1+int(f[5])]) + int(t[offset1+int(f[6])]) + int(t[offset1+int(f[7])])
	// Each side's edge+2X and lines 2, 3 and 4.
	s += int(t[int(f[8])]) + int(t[offset3+int(f[9])]) + int(t[offset4+int(f[10])]) + int(t[offset5+int(f[11])])
	s += int(t[int(f[12])]) + int(t[offset3+int(f[13])]) + int(t[offset4+int(f[14])]) + int(t[offset5+int(f[15])])
	s += int(t[int(f[16])]) + int(t[offset3+int(f[17])]) + int(t[offset4+int(f[18])]) + int(t[offset5+int(f[19])])
	s += int(t[int(f[20])]) + int(t[offset3+int(f[21])]) + int(t[offset4+int(f[22])]) + int(t[offset5+int(f[23])])
	// The 3x3 corner and the diagonals of 7, 6, 5 and 4 squares, on each of
	// four images.
	s += int(t[offset2+int(f[24])]) + int(t[offset7+int(f[25])]) + int(t[offset8+int(f[26])]) +
		int(t[offset9+int(f[27])]) + int(t[offset10+int(f[28])])
	s += int(t[offset2+int(f[29])]) + int(t[offset7+int(f[30])]) + int(t[offset8+int(f[31])]) +
		int(t[offset9+int(f[32])]) + int(t[offset10+int(f[33])])
	s += int(t[offset2+int(f[34])]) + int(t[offset7+int(f[35])]) + int(t[offset8+int(f[36])]) +
		int(t[offset9+int(f[37])]) + int(t[offset10+int(f[38])])
	s += int(t[offset2+int(f[39])]) + int(t[offset7+int(f[40])]) + int(t[offset8+int(f[41])]) +
		int(t[offset9+int(f[42])]) + int(t[offset10+int(f[43])])
	// The two long diagonals.
	return s + int(t[offset6+int(f[44])]) + int(t[offset6+int(f[45])])
}

// squareTerm is one pattern instance that holds a square, with the power
// of 3 of the square's digit in the instance's index.
type squareTerm struct {
	instance uint8
	power    uint16
}

// squareTerms lists, for each square, the instances that hold it (from 4
// for a centre square to 8 for an X-square).
var squareTerms [64][]squareTerm

// instanceOffset is the table offset of each instance's pattern, in the
// order of a Frame: the 2x5 corners, the edges and lines 2-4 of each side,
// the 3x3 corners and the short diagonals of each corner, the two long
// diagonals.
var instanceOffset = func() (off [NumInstances]int32) {
	k := 0
	for i := 0; i < 8; i++ {
		off[k] = offset1
		k++
	}
	for i := 0; i < 4; i++ {
		for _, o := range []int32{0, offset3, offset4, offset5} {
			off[k] = o
			k++
		}
	}
	for i := 0; i < 4; i++ {
		for _, o := range []int32{offset2, offset7, offset8, offset9, offset10} {
			off[k] = o
			k++
		}
	}
	off[k], off[k+1] = offset6, offset6
	return off
}()

// squareDigits is, for each square, the frame of a board holding that
// square alone from its owner's view: the square's digit (its power of 3)
// in every instance that holds it, zero elsewhere. The AVX2 updates add
// it whole.
var squareDigits [64]Frame

// initSquareTerms reads each square's digit in every instance from the
// frame of a board holding that square alone.
func initSquareTerms() {
	for sq := 0; sq < 64; sq++ {
		f := &squareDigits[sq]
		f.Read(1<<uint(sq), 0)
		for k, p := range f {
			if p != 0 {
				squareTerms[sq] = append(squareTerms[sq], squareTerm{uint8(k), p})
			}
		}
	}
}

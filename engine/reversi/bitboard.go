package reversi

import "math/bits"

// This file holds the bitboard primitives every other part builds on. A
// bitboard is a uint64 with bit i set for square i (a1 = bit 0, h1 = bit 7,
// a8 = bit 56, h8 = bit 63). All functions take the discs of the side to
// move ("me") and of its opponent ("opp"), so they work for either colour.

const (
	// notFileA masks off file a: a bit shifted east out of file h wraps to
	// file a of the next rank and must be dropped.
	notFileA uint64 = 0xFEFEFEFEFEFEFEFE
	// notFileH masks off file h, for the same reason when shifting west.
	notFileH uint64 = 0x7F7F7F7F7F7F7F7F
	// innerFiles is files b..g: an opponent disc on file a or h can never be
	// outflanked horizontally or diagonally, so move generation masks them.
	innerFiles uint64 = 0x7E7E7E7E7E7E7E7E
)

// legalMoves returns the squares where the side owning me may move.
func legalMoves(me, opp uint64) uint64 {
	empty := ^(me | opp)
	oh := opp & innerFiles
	// Each block finds, in one direction, the runs of opponent discs that
	// start next to one of my discs: one step, then the pairs of opponent
	// discs (pre) let each further step cover two squares, so runs of up
	// to six (the longest possible) take four steps instead of six. The
	// square after a run is a move if it is empty.
	var moves uint64

	t := oh & (me << 1)
	t |= oh & (t << 1)
	pre := oh & (oh << 1)
	t |= pre & (t << 2)
	t |= pre & (t << 2)
	moves |= t << 1

	t = oh & (me >> 1)
	t |= oh & (t >> 1)
	pre >>= 1
	t |= pre & (t >> 2)
	t |= pre & (t >> 2)
	moves |= t >> 1

	t = opp & (me << 8)
	t |= opp & (t << 8)
	pre = opp & (opp << 8)
	t |= pre & (t << 16)
	t |= pre & (t << 16)
	moves |= t << 8

	t = opp & (me >> 8)
	t |= opp & (t >> 8)
	pre >>= 8
	t |= pre & (t >> 16)
	t |= pre & (t >> 16)
	moves |= t >> 8

	t = oh & (me << 7)
	t |= oh & (t << 7)
	pre = oh & (oh << 7)
	t |= pre & (t << 14)
	t |= pre & (t << 14)
	moves |= t << 7

	t = oh & (me >> 7)
	t |= oh & (t >> 7)
	pre >>= 7
	t |= pre & (t >> 14)
	t |= pre & (t >> 14)
	moves |= t >> 7

	t = oh & (me << 9)
	t |= oh & (t << 9)
	pre = oh & (oh << 9)
	t |= pre & (t << 18)
	t |= pre & (t << 18)
	moves |= t << 9

	t = oh & (me >> 9)
	t |= oh & (t >> 9)
	pre >>= 9
	t |= pre & (t >> 18)
	t |= pre & (t >> 18)
	moves |= t >> 9

	return moves & empty
}

// rays[sq][d] is the set of squares strictly beyond sq in direction d, up to
// the edge of the board. Directions 0..3 go towards higher bit indexes (east,
// south-west, south, south-east), 4..7 towards lower ones.
var rays [64][8]uint64

// rayStep is the square-index delta and file delta of each direction in rays.
var rayStep = [8]struct{ dr, dc int }{
	{0, 1}, {1, -1}, {1, 0}, {1, 1},
	{0, -1}, {-1, 1}, {-1, 0}, {-1, -1},
}

func init() {
	for sq := 0; sq < 64; sq++ {
		for d, st := range rayStep {
			r, c := sq/8+st.dr, sq%8+st.dc
			for r >= 0 && r < 8 && c >= 0 && c < 8 {
				rays[sq][d] |= 1 << uint(r*8+c)
				r += st.dr
				c += st.dc
			}
		}
	}
}

// flips returns the opponent discs that a move by me on sq turns over; zero
// when the move is illegal (sq must be empty for the result to mean anything).
// It has no branches: whether a direction flips anything is close to a coin
// toss, and mispredicted branches cost more than the arithmetic below.
func flips(me, opp uint64, sq int) uint64 {
	r := &rays[sq]
	f := flipsUp(me, opp, r[0]) | flipsUp(me, opp, r[1]) | flipsUp(me, opp, r[2]) | flipsUp(me, opp, r[3]) |
		flipsDown(me, opp, r[4])
	// The three rays that head to lower ranks head to higher ones on the
	// board turned upside down (one byte swap), where the cheaper carry
	// trick finds them; the westward ray stays in its rank and keeps the
	// leading-zero count.
	m := &mirroredRays[sq]
	vme, vopp := bits.ReverseBytes64(me), bits.ReverseBytes64(opp)
	return f | bits.ReverseBytes64(flipsUp(vme, vopp, m[0])|flipsUp(vme, vopp, m[1])|flipsUp(vme, vopp, m[2]))
}

// mirroredRays[sq] are rays[sq][5..7] (north-east, north, north-west)
// mirrored top to bottom: on the mirrored board they run towards higher
// bit indexes.
var mirroredRays [64][3]uint64

func init() {
	for sq := 0; sq < 64; sq++ {
		for i := range mirroredRays[sq] {
			mirroredRays[sq][i] = flipVertical(rays[sq][5+i])
		}
	}
}

// flipsUp returns the discs flipped along ray, a ray towards higher bit
// indexes. Adding one to the opponent's discs with every square off the ray
// set carries through the run of opponent discs that starts the ray and
// stops on the first square that is not the opponent's: that square
// outflanks the run if it is mine.
func flipsUp(me, opp, ray uint64) uint64 {
	outflank := ((opp | ^ray) + 1) & ray & me
	// outflank-1 is the run below it; nonZero keeps an empty result empty.
	nonZero := (outflank | -outflank) >> 63
	return (outflank - nonZero) & ray
}

// flipsDown returns the discs flipped along ray, a ray towards lower bit
// indexes: the highest ray square that is not the opponent's outflanks the
// run above it if it is mine.
func flipsDown(me, opp, ray uint64) uint64 {
	// Shifting by 64 when no such square exists gives zero, as Go defines.
	outflank := (uint64(1) << 63 >> uint(bits.LeadingZeros64(ray&^opp))) & me
	return -(outflank << 1) & ray
}

// potentialMoves returns the empty squares adjacent to an opponent disc: the
// places where a move might become possible (the "frontier" of opp).
func potentialMoves(me, opp uint64) uint64 {
	empty := ^(me | opp)
	n := (opp<<1)&notFileA | (opp>>1)&notFileH |
		opp<<8 | opp>>8 |
		(opp<<9)&notFileA | (opp>>9)&notFileH |
		(opp<<7)&notFileH | (opp>>7)&notFileA
	return n & empty
}

// Corner and edge masks used by the evaluation and the endgame ordering.
const (
	// cornerMask is a1, h1, a8, h8: discs there can never be flipped.
	cornerMask uint64 = 0x8100000000000081
	// xSquareMask is b2, g2, b7, g7, diagonal to a corner: taking one while
	// the corner is empty usually hands the corner to the opponent.
	xSquareMask uint64 = 0x0042000000004200
	// cSquareMask is the edge squares next to a corner (b1, a2, ...): risky
	// for the same reason, though less than the X-squares.
	cSquareMask uint64 = 0x4281000000008142
	// edgeMask is the outer ring of the board.
	edgeMask uint64 = 0xFF818181818181FF
)

// stableDiscs returns a subset of the discs of `mine` that can never be
// flipped, given all discs on the board (occupied). A disc is stable when, on
// each of its four lines, the line is full or a neighbour on that line is the
// board edge or a stable disc of the same colour. Iterating from nothing finds
// the corners first, then the edges and interiors that lean on them.
func stableDiscs(mine, occupied uint64) uint64 {
	if mine&cornerMask == 0 {
		// Without a corner a side can only have stable discs on lines that
		// are full in all four directions, which is rare until the last
		// moves; answering "none" (a subset of the truth, as the callers
		// need) keeps the common case cheap.
		return 0
	}
	return stableWith(mine, fullLines(occupied))
}

// stableWith is stableDiscs with the full lines of the board already known.
func stableWith(mine uint64, full [4]uint64) uint64 {
	// Squares where the wall stands beside the disc on that line.
	const (
		wallH = 0x8181818181818181
		wallV = 0xFF000000000000FF
		wallD = 0xFF818181818181FF // either diagonal: the edge ring
	)
	stable := mine & full[0] & full[1] & full[2] & full[3]
	for {
		h := full[0] | wallH | (stable<<1)&notFileA | (stable>>1)&notFileH
		v := full[1] | wallV | stable<<8 | stable>>8
		d := full[2] | wallD | (stable<<9)&notFileA | (stable>>9)&notFileH
		a := full[3] | wallD | (stable<<7)&notFileH | (stable>>7)&notFileA
		next := stable | mine&h&v&d&a
		if next == stable {
			return stable
		}
		stable = next
	}
}

// lineMasks holds every rank, file, diagonal and anti-diagonal (by kind).
var lineMasks [4][]uint64

func init() {
	for r := 0; r < 8; r++ {
		lineMasks[0] = append(lineMasks[0], uint64(0xFF)<<uint(8*r))
	}
	for c := 0; c < 8; c++ {
		lineMasks[1] = append(lineMasks[1], uint64(0x0101010101010101)<<uint(c))
	}
	// Diagonals (a1-h8 direction) keyed by col-row, anti-diagonals by col+row.
	for k := -7; k <= 7; k++ {
		var m uint64
		for r := 0; r < 8; r++ {
			if c := r + k; c >= 0 && c < 8 {
				m |= 1 << uint(r*8+c)
			}
		}
		lineMasks[2] = append(lineMasks[2], m)
	}
	for k := 0; k <= 14; k++ {
		var m uint64
		for r := 0; r < 8; r++ {
			if c := k - r; c >= 0 && c < 8 {
				m |= 1 << uint(r*8+c)
			}
		}
		lineMasks[3] = append(lineMasks[3], m)
	}
}

// fullLines returns, for each line kind (rank, file, diagonal,
// anti-diagonal), the squares whose line of that kind is completely filled.
func fullLines(occupied uint64) [4]uint64 {
	var full [4]uint64
	// Ranks: a square is on a full rank when its byte is all ones.
	h := occupied & (occupied >> 1)
	h &= h >> 2
	h &= h >> 4
	full[0] = (h & 0x0101010101010101) * 0xFF
	// Files: AND the eight ranks together; bit c is set if file c is full.
	v := occupied & (occupied >> 32)
	v &= v >> 16
	v &= v >> 8
	full[1] = (v & 0xFF) * 0x0101010101010101
	// Diagonals: a square's diagonal is full when the squares from it to
	// the board's edge are occupied in both directions along it.
	full[2] = fullUp(occupied, 9, notFileH) & fullDown(occupied, 9, notFileA)
	full[3] = fullUp(occupied, 7, notFileA) & fullDown(occupied, 7, notFileH)
	return full
}

// fullUp returns the squares from which every square n, 2n, 3n, ... bit
// positions higher (n is 7 or 9: one rank up and one file across), up to
// the edge of the board, is occupied, the square itself included. inFile
// holds the squares whose neighbour that way is on the board file-wise (the
// rank edge is where the shift runs off the board). It doubles the span
// checked three times: 2, 4 and 8 squares.
func fullUp(occupied uint64, n uint, inFile uint64) uint64 {
	on := (^uint64(0) >> n) & inFile // the neighbour n higher exists
	t := occupied & ((occupied >> n) | ^on)
	on2 := on & (on >> n)
	t &= (t >> (2 * n)) | ^on2
	on4 := on2 & (on2 >> (2 * n))
	t &= (t >> (4 * n)) | ^on4
	return t
}

// fullDown is fullUp towards lower bit positions.
func fullDown(occupied uint64, n uint, inFile uint64) uint64 {
	on := (^uint64(0) << n) & inFile // the neighbour n lower exists
	t := occupied & ((occupied << n) | ^on)
	on2 := on & (on << n)
	t &= (t << (2 * n)) | ^on2
	on4 := on2 & (on2 << (2 * n))
	t &= (t << (4 * n)) | ^on4
	return t
}

// flipVertical mirrors a bitboard top to bottom (rank 1 <-> rank 8).
func flipVertical(x uint64) uint64 { return bits.ReverseBytes64(x) }

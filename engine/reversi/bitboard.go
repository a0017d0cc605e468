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

// legalMovesGo returns the squares where the side owning me may move:
// legalMoves in plain Go, for machines without the vector version
// (bitboard_amd64.go) and to test it against.
func legalMovesGo(me, opp uint64) uint64 {
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

// flipsGo returns the opponent discs that a move by me on sq turns over;
// zero when the move is illegal (sq must be empty for the result to mean
// anything). flips is this function, in assembly on amd64.
//
// Each of the four lines through sq (rank, file, diagonal, anti-diagonal)
// is gathered into a byte, one bit per square, and two table lookups give
// the discs it flips: the squares just past the runs of opponent discs next
// to sq (lineOutflank), of which those holding my discs close a run, and
// the squares between sq and them (lineFlips). A rank is a byte of the
// board already; a diagonal holds one square per file, so one
// multiplication adds its ranks into the top byte (no two squares share a
// bit, so nothing carries) and another spreads the byte back over the ranks,
// where the diagonal's mask keeps its own squares; a file is gathered as in
// fileByte and spread back by fileOfByte. There are no branches (whether a
// line flips anything is close to a coin toss), and this took 30% off the
// cost of a flip against the carry-propagation code it replaced (eight rays,
// one addition each), which was 22% of an FFO solve.
func flipsGo(me, opp uint64, sq int) uint64 {
	const rankSum = 0x0101010101010101
	r, c := uint(sq>>3)&7, uint(sq&7)
	f := uint64(lineFlipped(c, uint8(opp>>(8*r)), uint8(me>>(8*r)))) << (8 * r)
	f |= fileOfByte[lineFlipped(r, fileByte(opp, c), fileByte(me, c))] << c
	l := &lineOf[sq&63]
	d := l[0]
	f |= uint64(lineFlipped(c, uint8((opp&d)*rankSum>>56), uint8((me&d)*rankSum>>56))) * rankSum & d
	d = l[1]
	f |= uint64(lineFlipped(c, uint8((opp&d)*rankSum>>56), uint8((me&d)*rankSum>>56))) * rankSum & d
	return f
}

// lineFlipped returns the bits of a line of opponent discs o flipped by a
// move on bit pos of the line where my discs are m.
func lineFlipped(pos uint, o, m uint8) uint8 {
	return lineFlips[pos&7][lineOutflank[pos&7][o]&m]
}

// lineOf[sq] is the diagonal and the anti-diagonal through sq.
var lineOf [64][2]uint64

// lineOutflank[pos][o] is, for a move on bit pos of a line whose opponent
// discs are o, the bits just past each run of opponent discs that starts
// next to pos. lineFlips[pos][out] is the bits strictly between pos and
// each bit of out.
var (
	lineOutflank [8][256]uint8
	lineFlips    [8][256]uint8
)

func init() {
	for pos := 0; pos < 8; pos++ {
		for o := 0; o < 256; o++ {
			var out uint8
			for _, step := range [2]int{1, -1} {
				i := pos + step
				for i >= 0 && i < 8 && o>>uint(i)&1 == 1 {
					i += step
				}
				if i != pos+step && i >= 0 && i < 8 {
					out |= 1 << uint(i)
				}
			}
			lineOutflank[pos][o] = out
		}
		for out := 0; out < 256; out++ {
			var f uint8
			for i := 0; i < 8; i++ {
				if out>>uint(i)&1 == 1 {
					for j := min(i, pos) + 1; j < max(i, pos); j++ {
						f |= 1 << uint(j)
					}
				}
			}
			lineFlips[pos][out] = f
		}
	}
	for sq := 0; sq < 64; sq++ {
		for r := 0; r < 8; r++ {
			if c := sq%8 + r - sq/8; c >= 0 && c < 8 {
				lineOf[sq][0] |= 1 << uint(r*8+c) // the a1-h8 direction
			}
			if c := sq%8 + sq/8 - r; c >= 0 && c < 8 {
				lineOf[sq][1] |= 1 << uint(r*8+c) // the a8-h1 direction
			}
		}
	}
}

// potentialMoves returns the empty squares adjacent to an opponent disc: the
// places where a move might become possible (the "frontier" of opp).
func potentialMoves(me, opp uint64) uint64 {
	return around(opp) &^ (me | opp)
}

// around returns the squares of x and those next to them: each rank
// spread sideways, then up and down a rank (five shifts for the eight
// directions). Callers mask x out where only the neighbours count.
func around(x uint64) uint64 {
	h := x | (x<<1)&notFileA | (x>>1)&notFileH
	return h | h<<8 | h>>8
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
	return stableAll(mine, occupied)
}

// stableWith is stableDiscs with the full lines of the board already known.
//
// It iterates from the discs that are stable whatever the rest of the board
// holds: the discs on all four full lines, and the edge discs that the
// iteration would find first (edgeStable). Starting from part of the
// result changes nothing but the number of rounds: each round only adds
// discs, and the edge discs are stable by the edge alone (an edge disc's
// lines across the edge end at the wall), so the rounds that would walk
// along the edges one square at a time are skipped.
func stableWith(mine uint64, full [4]uint64) uint64 {
	return stableFrom(mine&full[0]&full[1]&full[2]&full[3]|edgeStable(mine, full), mine, full)
}

// stableFrom grows a set of stable discs of mine, stable, to all of them: a
// disc is stable when on each of its four lines the line is full, or a wall
// or a stable disc of mine stands beside it. Each round adds the discs next
// to the ones found so far.
func stableFrom(stable, mine uint64, full [4]uint64) uint64 {
	// Squares where the wall stands beside the disc on that line.
	const (
		wallH = 0x8181818181818181
		wallV = 0xFF000000000000FF
		wallD = 0xFF818181818181FF // either diagonal: the edge ring
	)
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

// edgeStable returns the discs of mine on the edges that stableWith finds
// from the edge alone: those joined to a corner along their edge by discs
// of mine, and all of mine on a full edge.
func edgeStable(mine uint64, full [4]uint64) uint64 {
	const rank1, rank8 = 0xFF, 0xFF << 56
	s := uint64(edgeRun[byte(mine)]) | uint64(edgeRun[byte(mine>>56)])<<56
	s |= fileOfByte[edgeRun[fileByte(mine, 0)]] | fileOfByte[edgeRun[fileByte(mine, 7)]]<<7
	return s | mine&(full[0]&(rank1|rank8)|full[1]&0x8181818181818181)
}

// edgeRun[b] is the bits of b joined to bit 0 or bit 7 through set bits:
// the discs of a line that a run of the same side's discs ties to a corner.
var edgeRun [256]uint8

// fileOfByte[b] puts bit i of b on square i of file a (a1 + 8i): fileByte
// undone.
var fileOfByte [256]uint64

func init() {
	for b := 0; b < 256; b++ {
		var r uint8
		for i := 0; i < 8 && b>>uint(i)&1 == 1; i++ {
			r |= 1 << uint(i)
		}
		for i := 7; i >= 0 && b>>uint(i)&1 == 1; i-- {
			r |= 1 << uint(i)
		}
		edgeRun[b] = r
		for i := 0; i < 8; i++ {
			if b>>uint(i)&1 == 1 {
				fileOfByte[b] |= 1 << uint(8*i)
			}
		}
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

package gomoku

import (
	"encoding/binary"
	"math/bits"
)

// Move generation helpers: the board keeps per-point threat classes, so
// finding fours, threes and the candidate area is a scan over bytes.

// Scanning eight cells at a time. The scans of the board for candidate
// moves, fours and threes test two or three bytes a cell (its contents,
// its class, its neighbour count) and keep a few cells of the 300 or so
// they pass. They read the arrays eight bytes at a time instead, as a
// little-endian word (byte k is cell i+k), turn each test into a word
// with the high bit of byte k set where cell i+k passes it (the byte
// tests below, exact for every byte value they are given), and visit
// only the set bits of the tests ANDed together, in the order of the
// cells: 5.6% fewer instructions at level 6 than cell by cell
// (docs/benchmarks.md, thirty-sixth session). A word may run past the
// last cell into the wall, whose cells are never empty, so no scan needs
// to stop inside a word; every array holds maxCells bytes, at least
// eight past the last cell of the largest board.

const (
	lowBits  = 0x0101010101010101 // 1 in every byte
	highBits = 0x8080808080808080 // the high bit of every byte
	low7Bits = 0x7f7f7f7f7f7f7f7f // the seven low bits of every byte
)

// nonZeroBytes has the high bit of byte k set where byte k of x is not
// zero: (v & 0x7f) + 0x7f sets the high bit exactly when the low seven
// bits are not all zero and never carries out of the byte, and v's own
// high bit is ORed in.
func nonZeroBytes(x uint64) uint64 {
	return ((x & low7Bits) + low7Bits | x) & highBits
}

// zeroBytes has the high bit of byte k set where byte k of x is zero.
func zeroBytes(x uint64) uint64 {
	return ^nonZeroBytes(x) & highBits
}

// atLeastBytes has the high bit of byte k set where byte k of x is at
// least t, for bytes below 0x80 (classes, counts) and t in 1..0x80: v +
// 0x80 - t reaches 0x80 exactly when v >= t, and stays below 0x100.
func atLeastBytes(x uint64, t uint8) uint64 {
	return (x + uint64(0x80-t)*lowBits) & highBits
}

// word reads the eight bytes of s from its start as a little-endian
// word (written out like binary.LittleEndian.Uint64, which the compiler
// turns into one load, for the byte types of the board's arrays).
func word[T ~uint8](s []T) uint64 {
	_ = s[7] // one bounds check for the eight reads
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// emptyCells returns the test word of the cells from i that are empty.
// (binary.LittleEndian.Uint64 is word for a []byte; called here, it keeps
// the function within the compiler's inlining budget.)
func (b *Board) emptyCells(i int) uint64 {
	return zeroBytes(binary.LittleEndian.Uint64(b.cells[i:]))
}

// nextCell returns the cell of the lowest set bit of the test word m of
// the cells from i.
func nextCell(i int, m uint64) int {
	return i + bits.TrailingZeros64(m)>>3
}

// maxMoves bounds a move list: every point of the largest board.
const maxMoves = MaxSize * MaxSize

// firstCell and lastCell bound the cell indices of on-board points.
func (b *Board) firstCell() int { return b.index(Point{0, 0}) }
func (b *Board) lastCell() int  { return b.index(Point{b.size - 1, b.size - 1}) }

// legalFor reports whether the side to move, colour c, may play at the
// empty cell i (renju forbids some points to black).
func (b *Board) legalFor(c Color, i int) bool {
	return !(b.rule == Renju && c == Black && b.isForbidden(i))
}

// forcedBlock returns the cell where c must play to stop the other side's
// five (call it when the other side has one): ok is false when c cannot
// stop it, because there are two such cells or the one cell is forbidden
// to c.
func (b *Board) forcedBlock(c Color) (cell int, ok bool) {
	// classCount counts the cells fiveCells would list.
	if b.classCount[c.Other()][tFive] != 1 {
		return 0, false
	}
	cell = b.onlyFiveCell(c.Other())
	if !b.legalFor(c, cell) {
		return 0, false
	}
	return cell, true
}

// onlyFiveCell returns the empty cell where c would make five when there
// is exactly one (classCount[c][tFive] == 1). It looks first on the lines
// of the last stone, which made that four in most positions (a four and
// its five cell are within four steps on a line), and scans the board
// only if it is not there: the scan was 5% of a level-6 search's
// instructions when forcedBlock scanned every time (docs/benchmarks.md,
// twenty-eighth session).
func (b *Board) onlyFiveCell(c Color) int {
	if n := len(b.history); n > 0 {
		i := b.history[n-1]
		for _, off := range b.dirs {
			for k := -4; k <= 4; k++ {
				if j := i + k*off; b.cells[j] == cellEmpty && b.threat[c][j] == tFive {
					return j
				}
			}
		}
	}
	var buf [1]int
	return b.fiveCells(c, buf[:0])[0]
}

// fiveCells appends the empty cells where c would make five.
func (b *Board) fiveCells(c Color, out []int) []int {
	if b.classCount[c][tFive] == 0 {
		return out
	}
	// Eight cells at a time: tFive is the highest class.
	for w, last := b.firstCell(), b.lastCell(); w <= last; w += 8 {
		for m := b.emptyCells(w) & atLeastBytes(word(b.threat[c][w:]), uint8(tFive)); m != 0; m &= m - 1 {
			out = append(out, nextCell(w, m))
		}
	}
	return out
}

// openFourMove returns the first empty cell (in board order) where c
// makes an open four (class tFlex4) and may play, and false if there is
// none: the first of a win in three plies. The cells are read eight at a
// time; the only class above tFlex4 is tFive.
func (b *Board) openFourMove(c Color) (int, bool) {
	for w, last := b.firstCell(), b.lastCell(); w <= last; w += 8 {
		for m := b.emptyCells(w) & atLeastBytes(word(b.threat[c][w:]), uint8(tFlex4)); m != 0; m &= m - 1 {
			if i := nextCell(w, m); b.threat[c][i] == tFlex4 && b.legalFor(c, i) {
				return i, true
			}
		}
	}
	return 0, false
}

// hasFourMove reports whether c has a point that makes a four or better.
func (b *Board) hasFourMove(c Color) bool {
	n := &b.classCount[c]
	return n[tFour]+n[tFourThree]+n[tFlex4]+n[tFive] > 0
}

// isFourClass reports whether a threat class makes at least a four: one
// bit test (fourClasses) rather than four comparisons.
func isFourClass(t threat) bool {
	return fourClasses>>t&1 != 0
}

// fourClasses has bit t set for the threat classes that make a four.
const fourClasses = 1<<tFour | 1<<tFourThree | 1<<tFlex4 | 1<<tFive

// maxPattern returns the best line pattern of colour c at cell i, which
// pointTable holds beside the point's class: one lookup rather than four
// reads and comparisons.
func (b *Board) maxPattern(c Color, i int) pattern {
	return pointTable[b.pointIdx[c][i]].best
}

// hasThreePattern reports whether a stone of c at i makes an open three (or
// better) on some line.
func (b *Board) hasThreePattern(c Color, i int) bool {
	return b.maxPattern(c, i) >= pF3
}

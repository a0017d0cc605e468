// Package pattern defines the features of the Reversi engine's pattern
// evaluation: which groups of squares are read, how a position maps to the
// table entries it uses, the game stages, and the file format of the fitted
// tables. engine/reversi evaluates with them and the training command
// (../train) fits them, so both read positions the same way.
//
// A pattern is a fixed group of squares; a configuration of it (each square
// empty, mine or theirs) is a base-3 number, the index of its table entry.
// Every instance of every pattern on the board is read (the 2x5 corner in
// both orientations at each corner), by reading the pattern on the images of
// the board under the symmetries of the square (turns and mirrors); with
// tables that give mirror configurations one value (Canonical), the
// evaluation of a position and of its mirror images is the same.
//
//	pattern      squares (on the identity image)              entries
//	edge+2X      a1-h1, b2, g2                                 3^10
//	corner 2x5   a1-e1, a2-e2                                  3^10
//	corner 3x3   a1-c1, a2-c2, a3-c3                           3^9
//	line 2       a2-h2                                         3^8
//	line 3       a3-h3                                         3^8
//	line 4       a4-h4                                         3^8
//	diagonal 8   a1, b2, ..., h8                               3^8
//	diagonal 7   b1, c2, ..., h7                               3^7
//	diagonal 6   c1, d2, ..., h6                               3^6
//	diagonal 5   d1, e2, ..., h5                               3^5
//	diagonal 4   e1, f2, g3, h4                                3^4
//
// Two small tables add the mobility of each side (number of legal
// moves).
package pattern

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// NumPatterns is the number of patterns read on each board image.
const NumPatterns = 11

// Sizes is the number of entries of each pattern's table.
var Sizes = [NumPatterns]int{59049, 59049, 19683, 6561, 6561, 6561, 6561, 2187, 729, 243, 81}

// Offsets is where each pattern's table starts in a stage's weights.
var Offsets [NumPatterns]int

// MobilityEntries is the size of each mobility table: a side never has more
// legal moves than the 60 squares that can be empty.
const MobilityEntries = 64

// Mobility tables, after the patterns: my moves, then the opponent's; then
// one weight for the engine's linear evaluation (weights.json), in
// thousandths: the patterns are fitted as corrections to it.
var (
	MyMobilityOffset  int
	OppMobilityOffset int
	LinearOffset      int
)

// StageSize is the number of weights of one stage: the patterns' tables,
// the two mobility tables and the linear weight. It is a constant (the
// other offsets are computed from Sizes at start; TestOffsets checks that
// they agree) so that EvaluateFrame can index a stage as an array.
const StageSize = offset10 + 81 + 2*MobilityEntries + 1

// PerPosition is the number of weights one position's evaluation adds:
// the asymmetric 2x5 corner on all 8 images, the edges, lines and shorter
// diagonals once per instance (4 each), the long diagonal twice, and the
// two mobility entries.
const PerPosition = 8 + 4 + 4 + 3*4 + 2 + 4*4 + 2

// NumStages is the number of game stages, each with its own weights; stage
// s covers StageWidth numbers of empties.
const (
	StageWidth = 4
	NumStages  = 60 / StageWidth
)

func init() {
	n := 0
	for i, s := range Sizes {
		Offsets[i] = n
		n += s
	}
	MyMobilityOffset = n
	OppMobilityOffset = n + MobilityEntries
	LinearOffset = n + 2*MobilityEntries
	initCanonical()

	for b := 0; b < 1024; b++ {
		v, p := int32(0), int32(1)
		for i := 0; i < 10; i++ {
			if b&(1<<uint(i)) != 0 {
				v += p
			}
			p *= 3
		}
		ternary[b] = v
	}
	initSquareTerms()
}

// Stage returns the stage of a position with the given number of empties.
func Stage(empties int) int {
	s := (empties - 1) / StageWidth
	if s < 0 {
		return 0
	}
	if s >= NumStages {
		return NumStages - 1
	}
	return s
}

// ternary[b] is the base-3 number whose digits are the bits of b (each 0 or
// 1): "mine" contributes ternary[mine bits], "theirs" twice ternary[their bits].
var ternary [1024]int32

// Indices writes into dst the weight indices (within a stage) that the
// evaluation of (me to move, opp) adds up: the pattern instances of its
// Frame, each at its pattern's table offset, then the two mobility
// entries. The mobility counts are given by the caller, who usually has
// them already.
func Indices(me, opp uint64, myMoves, oppMoves int, dst *[PerPosition]int32) {
	var f Frame
	f.Read(me, opp)
	for k, v := range f[:NumInstances] {
		dst[k] = instanceOffset[k] + int32(v)
	}
	dst[NumInstances] = int32(MyMobilityOffset + myMoves)
	dst[NumInstances+1] = int32(OppMobilityOffset + oppMoves)
}

// edgeImages are the images that bring each edge (and each line parallel
// to it) to the first ranks: the identity (rank 1), the vertical flip (rank
// 8), the transpose (file a) and the transposed mirror (file h).
var edgeImages = [4]int{0, 1, 4, 6}

// Evaluate returns the sum of the weights of (me to move, opp) in one
// stage's table w (StageSize entries): the same sum as over Indices. It
// reads the position's frame and sums it (EvaluateFrame); the search
// evaluates most positions from a frame updated from their parent's.
func Evaluate(w []int16, me, opp uint64, myMoves, oppMoves int) int {
	var f Frame
	f.Read(me, opp)
	return EvaluateFrame(w, &f, myMoves, oppMoves)
}

// canonical[j] is the weight that entry j of a stage shares with its
// mirror configuration: the smaller of the two indices (itself for the 2x5
// corner and the mobility tables, which have no such symmetry).
var canonical []int32

// Canonical returns the index of the weight that entry j (within a stage)
// must equal: a configuration of a symmetric pattern and its mirror image
// share one value. The fit solves for canonical entries only and copies.
func Canonical(j int) int { return int(canonical[j]) }

// digitPerms gives, for each pattern, where each base-3 digit goes under
// the pattern's own symmetry (nil: none).
func digitPerms() [NumPatterns][]int {
	rev := func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = n - 1 - i
		}
		return p
	}
	var p [NumPatterns][]int
	p[0] = []int{7, 6, 5, 4, 3, 2, 1, 0, 9, 8} // edge reversed, b2 <-> g2
	p[2] = []int{0, 3, 6, 1, 4, 7, 2, 5, 8}    // 3x3 transposed
	p[3], p[4], p[5], p[6] = rev(8), rev(8), rev(8), rev(8)
	p[7], p[8], p[9], p[10] = rev(7), rev(6), rev(5), rev(4)
	return p
}

func initCanonical() {
	canonical = make([]int32, StageSize)
	for j := range canonical {
		canonical[j] = int32(j)
	}
	for pi, perm := range digitPerms() {
		if perm == nil {
			continue
		}
		n := len(perm)
		for idx := 0; idx < Sizes[pi]; idx++ {
			x, out := idx, 0
			for d := 0; d < n; d++ {
				out += (x % 3) * pow3(perm[d])
				x /= 3
			}
			if out < idx {
				canonical[Offsets[pi]+idx] = int32(Offsets[pi] + out)
			}
		}
	}
}

func pow3(n int) int {
	v := 1
	for ; n > 0; n-- {
		v *= 3
	}
	return v
}

// The table offsets as constants, so Evaluate's index arithmetic folds
// (Offsets holds the same values; TestOffsets checks them).
const (
	offset1  = 59049
	offset2  = offset1 + 59049
	offset3  = offset2 + 19683
	offset4  = offset3 + 6561
	offset5  = offset4 + 6561
	offset6  = offset5 + 6561
	offset7  = offset6 + 6561
	offset8  = offset7 + 2187
	offset9  = offset8 + 729
	offset10 = offset9 + 243
)

// Diagonal masks: the diagonal of n squares starting at file 8-n of rank 1.
const (
	diag8Mask = 0x8040201008040201
	diag7Mask = 0x0080402010080402
	diag6Mask = 0x0000804020100804
	diag5Mask = 0x0000008040201008
	diag4Mask = 0x0000000080402010
)

// edgeX gathers a1-h1 into bits 0-7, b2 into bit 8 and g2 into bit 9.
func edgeX(x uint64) uint32 {
	return uint32(x&0xFF) | uint32(x>>1)&0x100 | uint32(x>>5)&0x200
}

// corner2x5 gathers a1-e1 into bits 0-4 and a2-e2 into bits 5-9.
func corner2x5(x uint64) uint32 {
	return uint32(x&0x1F) | uint32(x>>3)&0x3E0
}

// corner3x3 gathers a1-c1, a2-c2, a3-c3 into bits 0-8.
func corner3x3(x uint64) uint32 {
	return uint32(x&7) | uint32(x>>5)&0x38 | uint32(x>>10)&0x1C0
}

// diag gathers the squares of a diagonal mask into the low bits, in file
// order: multiplying by the sum of the rank shifts moves every square of the
// diagonal (one per file) into the top byte at its file's bit, and shift
// drops the files left of the diagonal's start.
func diag(x, mask uint64, shift uint) uint8 {
	return uint8(((x & mask) * 0x0101010101010101) >> 56 >> shift)
}

// images fills img with the eight images of x under the symmetries of the
// board: identity, the two mirrors and the half-turn, and the same four
// after a flip about the a1-h8 diagonal. Transposing a board turns a
// reversal of its ranks into one of its files and the other way round, so
// the last four come from one transpose, one mirror and byte swaps (a
// transpose costs about as much as a mirror, a byte swap one instruction):
// the transposes of v, h and r are the mirror of t, t with its ranks
// reversed, and that mirror with its ranks reversed.
func images(x uint64, img *[8]uint64) {
	v := bits.ReverseBytes64(x) // ranks reversed
	h := Mirror(x)              // files reversed
	r := bits.ReverseBytes64(h) // half-turn
	t := Transpose(x)
	th := Mirror(t) // = Transpose(v)
	img[0], img[1], img[2], img[3] = x, v, h, r
	img[4], img[5], img[6], img[7] = t, th, bits.ReverseBytes64(t), bits.ReverseBytes64(th)
}

// Mirror reverses the files of a bitboard (a <-> h). With Transpose and a byte swap
// (bits.ReverseBytes64, the ranks reversed) it makes the board's eight symmetries; the
// engine and its tools use these rather than copies of their own.
func Mirror(x uint64) uint64 {
	const k1, k2, k4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
	x = (x>>1)&k1 | (x&k1)<<1
	x = (x>>2)&k2 | (x&k2)<<2
	x = (x>>4)&k4 | (x&k4)<<4
	return x
}

// Transpose flips a bitboard about the a1-h8 diagonal (b1 <-> a2).
func Transpose(x uint64) uint64 {
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0F0F0F0F00000000
	t := k4 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = k2 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = k1 & (x ^ x<<7)
	x ^= t ^ t>>7
	return x
}

// The weights file: "RVPAT1" and the numbers of stages and weights per
// stage (uint32, little-endian), then every stage's weights as int16
// little-endian, in hundredths of a disc; the whole compressed with gzip
// (most entries of the large tables are zero: configurations the training
// games never reached).
const magic = "RVPAT1"

// Encode writes weights (NumStages tables of StageSize entries) in the file format.
func Encode(w io.Writer, stages [][]int16) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(magic)
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[0:], uint32(len(stages)))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(StageSize))
	bw.Write(hdr[:])
	var b [2]byte
	for _, st := range stages {
		if len(st) != StageSize {
			return fmt.Errorf("pattern: a stage has %d weights, want %d", len(st), StageSize)
		}
		for _, v := range st {
			binary.LittleEndian.PutUint16(b[:], uint16(v))
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Decode reads weights written by Encode and checks their shape.
func Decode(data []byte) ([][]int16, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("pattern: weights: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("pattern: weights: %w", err)
	}
	if len(raw) < len(magic)+8 || string(raw[:len(magic)]) != magic {
		return nil, errors.New("pattern: weights: not a pattern weights file")
	}
	raw = raw[len(magic):]
	ns, size := int(binary.LittleEndian.Uint32(raw[0:])), int(binary.LittleEndian.Uint32(raw[4:]))
	raw = raw[8:]
	if ns != NumStages || size != StageSize {
		return nil, fmt.Errorf("pattern: weights: %d stages of %d, want %d of %d", ns, size, NumStages, StageSize)
	}
	if len(raw) != 2*ns*size {
		return nil, fmt.Errorf("pattern: weights: %d bytes of weights, want %d", len(raw), 2*ns*size)
	}
	out := make([][]int16, ns)
	for s := range out {
		out[s] = make([]int16, size)
		for i := range out[s] {
			out[s][i] = int16(binary.LittleEndian.Uint16(raw[2*(s*size+i):]))
		}
	}
	return out, nil
}

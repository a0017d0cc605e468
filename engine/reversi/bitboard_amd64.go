package reversi

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Move generation was a fifth of the search's instructions (both sides'
// moves at every leaf, for the evaluation's mobility, and the side to
// move's at every node), so on amd64 it runs on vectors when the processor
// has them: the eight directions of legalMovesGo, four to a register
// (bitboard_amd64.s), on AVX2 or, shorter, on AVX-512. TestLegalMoves
// checks every version against a square-by-square reference.
//
// The discs a move turns over (flips) were a quarter of an endgame solve's
// time. Without AVX-512 they are flipsGo's table lookups written in
// assembly (flipsTables): the compiler's code for them spilled five values
// to the stack. (The same four lanes on AVX2, filling each run from the
// move's square, took 6.9 ns against flipsGo's 7.3 in a throughput
// benchmark, with a longer chain of dependent steps where the search waits
// on the result.) AVX-512 finds the end of each run in a few steps,
// towards lower bits with a leading zero count: 3.3 ns a call in
// throughput, 7.0 in a dependent chain against 7.4 (twenty-eighth session).

// useAVX2 says whether the processor runs the vector move generation.
var useAVX2 = cpu.X86.HasAVX2

// legalMovesAVX2 is legalMovesGo on AVX2.
//
//go:noescape
func legalMovesAVX2(me, opp uint64) uint64

// legalMovesPairAVX2 is legalMovesGo for both sides at once on AVX2.
//
//go:noescape
func legalMovesPairAVX2(me, opp uint64) (mine, theirs uint64)

// useAVX512 says whether flips and the move generation run on AVX-512:
// flips needs the leading zero count of each 64-bit lane (AVX512CD), and
// both work on 256-bit registers (AVX512VL).
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512CD && cpu.X86.HasPOPCNT

// flips returns the opponent discs that a move by me on sq turns over:
// flipsGo, on AVX-512 when the processor has it, else flipsTables
// (bitboard_amd64.s).
//
//go:noescape
func flips(me, opp uint64, sq int) uint64

// flipsTables is flipsGo in assembly without vectors.
//
//go:noescape
func flipsTables(me, opp uint64, sq int) uint64

// flipRays[sq] holds the eight rays from sq, for flips on AVX-512: the
// four towards higher bits (east, north, north-west, north-east: steps of
// 1, 8, 7 and 9) then the same four towards lower bits.
var flipRays = func() (r [64][8]uint64) {
	steps := [4][2]int{{0, 1}, {1, 0}, {1, -1}, {1, 1}} // rank, file steps
	for sq := range r {
		for i, s := range steps {
			for dir, sign := range [2]int{1, -1} {
				row, col := sq/8+sign*s[0], sq%8+sign*s[1]
				for row >= 0 && row < 8 && col >= 0 && col < 8 {
					r[sq][4*dir+i] |= 1 << uint(row*8+col)
					row, col = row+sign*s[0], col+sign*s[1]
				}
			}
		}
	}
	return r
}()

// legalMovesAVX512 is legalMovesAVX2 with AVX-512's three-input logic
// (useAVX512).
//
//go:noescape
func legalMovesAVX512(me, opp uint64) uint64

// legalMovesPairAVX512 is legalMovesPairAVX2 with AVX-512's three-input
// logic (useAVX512).
//
//go:noescape
func legalMovesPairAVX512(me, opp uint64) (mine, theirs uint64)

// legalMoves returns the squares where the side owning me may move.
func legalMoves(me, opp uint64) uint64 {
	switch {
	case useAVX512:
		return legalMovesAVX512(me, opp)
	case useAVX2:
		return legalMovesAVX2(me, opp)
	}
	return legalMovesGo(me, opp)
}

// legalMovesPair returns both sides' legal moves: those of me
// (legalMoves(me, opp)) and those of opp (legalMoves(opp, me)).
func legalMovesPair(me, opp uint64) (mine, theirs uint64) {
	switch {
	case useAVX512:
		return legalMovesPairAVX512(me, opp)
	case useAVX2:
		return legalMovesPairAVX2(me, opp)
	}
	return legalMovesGo(me, opp), legalMovesGo(opp, me)
}

// solveKeysAVX512 makes the child and the ordering key (solveKey) of every
// move of moves at a solver node into l, from index 0, and returns their
// number; odd is oddRegions of the node's empties. It is the solver's loop
// over its moves in one call (useAVX512): with flips and the children's
// mobility as calls, each move spilled and reloaded the node's values.
//
//go:noescape
func solveKeysAVX512(me, opp, moves, odd uint64, l *moveList) int

// solveKeys is solveKeysGo, on AVX-512 when the processor has it.
func solveKeys(me, opp, moves, odd uint64, l *moveList) int {
	if useAVX512 {
		return solveKeysAVX512(me, opp, moves, odd, l)
	}
	return solveKeysGo(me, opp, moves, odd, l)
}

// orderKeysAVX512 makes the child and the key (orderKey) of every move of
// moves into l, from index 0, and returns their number: the midgame
// search's loop over its moves two plies above the leaves, in one call
// (useAVX512), as solveKeysAVX512 is the solver's.
//
//go:noescape
func orderKeysAVX512(me, opp, moves uint64, l *moveList) int

// orderKeys is orderKeysGo, on AVX-512 when the processor has it.
func orderKeys(me, opp, moves uint64, l *moveList) int {
	if useAVX512 {
		return orderKeysAVX512(me, opp, moves, l)
	}
	return orderKeysGo(me, opp, moves, l)
}

// stableAVX2 is stableWith(mine, fullLines(occupied)) on AVX2
// (bitboard_amd64.s): the full lines with the four line kinds one to a
// lane of a register. The edge discs that stableWith starts from are
// found by filling from mine's corners along the edges instead of by
// table, which only changes how many rounds the iteration takes, not its
// result; the rounds run in general registers. c is stableLanes, passed
// so that the compiler sees that stableAll needs it set.
//
//go:noescape
func stableAVX2(mine, occupied uint64, c *stableConstants) uint64

// stableAll is stableWith(mine, fullLines(occupied)), on AVX2 when the
// processor has it. The solver's stability cut-off counts it at about a
// tenth of its nodes (it was 13% of an FFO solve's time), the evaluation
// at every leaf with a corner taken.
func stableAll(mine, occupied uint64) uint64 {
	if useAVX2 {
		return stableAVX2(mine, occupied, &stableLanes)
	}
	return stableWith(mine, fullLines(occupied))
}

// stableConstants are stableAVX2's constants, each with one value a lane;
// the lanes are the line kinds of fullLines: rank, file, diagonal,
// anti-diagonal, whose neighbours are 1, 8, 9 and 7 bits away.
type stableConstants struct {
	// step, step2 and step4 are each lane's distance to its neighbour,
	// and twice and four times it.
	step, step2, step4 [4]uint64
	// upOff1, upOff2 and upOff4 are fullUp's ^on, ^on2 and ^on4: the
	// squares with no square 1, 2 or 4 steps higher on the line, which
	// count as full that way. downOff1.. are fullDown's.
	upOff1, upOff2, upOff4       [4]uint64
	downOff1, downOff2, downOff4 [4]uint64
	// wall is where a disc has the wall beside it on the lane's line
	// (stableFrom's wallH, wallV, wallD).
	wall [4]uint64
	// fillUp and fillDown are the shift counts of the fill along the
	// edges from the corners: east and north (up, in lanes 0 and 1), west
	// and south (down, in lanes 2 and 3); 64 shifts a lane to zero, so
	// each lane moves one way only. fillIn is the squares each lane's
	// step may land on (east: not file a; west: not file h).
	fillUp1, fillUp2, fillUp4       [4]uint64
	fillDown1, fillDown2, fillDown4 [4]uint64
	fillIn                          [4]uint64
}

// stableLanes is the one set of stableConstants.
var stableLanes = func() (c stableConstants) {
	const all = ^uint64(0)
	steps := [4]uint{1, 8, 9, 7}
	// A square's neighbour higher on the line is on the board file-wise
	// when the square is not on file h (east, north-east) or a (north-west).
	higherIn := [4]uint64{notFileH, all, notFileH, notFileA}
	lowerIn := [4]uint64{notFileA, all, notFileA, notFileH}
	c.wall = [4]uint64{0x8181818181818181, 0xFF000000000000FF, 0xFF818181818181FF, 0xFF818181818181FF}
	for i, n := range steps {
		c.step[i], c.step2[i], c.step4[i] = uint64(n), uint64(2*n), uint64(4*n)
		on := (all >> n) & higherIn[i]
		on2 := on & (on >> n)
		on4 := on2 & (on2 >> (2 * n))
		c.upOff1[i], c.upOff2[i], c.upOff4[i] = ^on, ^on2, ^on4
		on = (all << n) & lowerIn[i]
		on2 = on & (on << n)
		on4 = on2 & (on2 << (2 * n))
		c.downOff1[i], c.downOff2[i], c.downOff4[i] = ^on, ^on2, ^on4
	}
	c.fillUp1, c.fillUp2, c.fillUp4 = [4]uint64{1, 8, 64, 64}, [4]uint64{2, 16, 64, 64}, [4]uint64{4, 32, 64, 64}
	c.fillDown1, c.fillDown2, c.fillDown4 = [4]uint64{64, 64, 1, 8}, [4]uint64{64, 64, 2, 16}, [4]uint64{64, 64, 4, 32}
	c.fillIn = [4]uint64{notFileA, all, notFileH, all}
	return c
}()

// prefetch hints the processor to load the cache line at p (PREFETCHT0).
//
//go:noescape
func prefetch(p unsafe.Pointer)

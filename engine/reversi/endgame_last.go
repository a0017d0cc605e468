package reversi

import "math/bits"

// The last four empties. Most nodes of an exact solve lie here, so
// this code avoids everything the general solver does per node: no move
// generation, no sorting, no table. Only solve4 tries the stability
// cut-off: at three empties and fewer it would cost more than it saves. The empty squares are found once, at
// four empties, put in parity order (a square alone in its quadrant first),
// and passed down as arguments; the last square's result is counted from
// precomputed line tables instead of being played.

// solve4 solves a position with exactly four empty squares, x1..x4, tried
// in that order.
func (e *Engine) solve4(me, opp uint64, alpha, beta int, x1, x2, x3, x4 int) int {
	e.nodes++
	if 64-2*popcount(opp) <= alpha { // stability cut-off (stableUpperBound)
		if ub := stableUpperBound(me, opp); ub <= alpha {
			return ub
		}
	}
	best := -65
	xs := [4]int{x1, x2, x3, x4}
	for i, x := range xs {
		if neighbours[x]&opp == 0 {
			continue
		}
		f := flips(me, opp, x)
		if f == 0 {
			continue
		}
		// The other three squares, in their order.
		a, b, c := x2, x3, x4
		switch i {
		case 1:
			a = x1
		case 2:
			a, b = x1, x2
		case 3:
			a, b, c = x1, x2, x3
		}
		v := -e.solve3(opp&^f, me|f|1<<uint(x), -beta, -alpha, a, b, c)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					return v
				}
			}
		}
	}
	if best > -65 {
		return best
	}
	if legalMoves(opp, me) == 0 {
		return finalScore(me, opp)
	}
	return -e.solve4(opp, me, -beta, -alpha, x1, x2, x3, x4)
}

// solve3 solves a position with exactly three empty squares. It is solve4's
// loop for one square less, written out again on purpose: one function for
// both, with the squares in an array and a count, searched the same nodes
// 7-10% slower (BenchmarkSolve), and these routines hold most of a solve's
// nodes.
func (e *Engine) solve3(me, opp uint64, alpha, beta int, x1, x2, x3 int) int {
	e.nodes++
	best := -65
	xs := [3]int{x1, x2, x3}
	for i, x := range xs {
		if neighbours[x]&opp == 0 {
			continue
		}
		f := flips(me, opp, x)
		if f == 0 {
			continue
		}
		a, b := x2, x3
		switch i {
		case 1:
			a = x1
		case 2:
			a, b = x1, x2
		}
		v := -e.solve2(opp&^f, me|f|1<<uint(x), -beta, -alpha, a, b)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					return v
				}
			}
		}
	}
	if best > -65 {
		return best
	}
	if legalMoves(opp, me) == 0 {
		return finalScore(me, opp)
	}
	return -e.solve3(opp, me, -beta, -alpha, x1, x2, x3)
}

// solve2 solves a position with exactly two empty squares.
func (e *Engine) solve2(me, opp uint64, alpha, beta int, x1, x2 int) int {
	e.nodes++
	best := -65
	if neighbours[x1]&opp != 0 {
		if f := flips(me, opp, x1); f != 0 {
			best = -e.last1(opp&^f, me|f|1<<uint(x1), x2)
			if best >= beta {
				return best
			}
		}
	}
	if neighbours[x2]&opp != 0 {
		if f := flips(me, opp, x2); f != 0 {
			if v := -e.last1(opp&^f, me|f|1<<uint(x2), x1); v > best {
				best = v
			}
		}
	}
	if best > -65 {
		return best
	}
	if legalMoves(opp, me) == 0 {
		return finalScore(me, opp)
	}
	return -e.solve2(opp, me, -beta, -alpha, x1, x2)
}

// last1 returns the exact score with one empty square, sq: the side to move
// plays it if it can, else the opponent does, else it goes to the winner.
func (e *Engine) last1(me, opp uint64, sq int) int {
	e.nodes++
	mine := popcount(me)
	if n := countLastFlips(me, sq); n > 0 {
		return 2*(mine+n+1) - 64
	}
	if n := countLastFlips(opp, sq); n > 0 {
		return 2*(mine-n) - 64
	}
	// Nobody can play: 63 discs on the board, the empty goes to the winner.
	d := 2*mine - 63
	if d > 0 {
		return d + 1
	}
	return d - 1
}

// lastFlipCount[pos][line] is the number of discs a player flips on one
// line of eight squares by playing at pos, when its discs on the line are
// the set bits of line and every other square is the opponent's or off the
// board. Off-board squares read as zeros and lie beyond the line's ends, so
// no run through them is ever closed by a disc of the player: they count as
// nothing, as they must.
var lastFlipCount [8][256]uint8

// lastLine is how countLastFlips gathers one line through a square into a
// byte: the mask of the line's squares, the shift that first brings a file
// down to file a (zero for diagonals), and the multiplier that collects the
// squares into the top byte. pos is the square's bit in that byte.
type lastLine struct {
	mask, mul uint64
	shift     uint
	pos       uint8
}

// lastLines[sq] are the file, diagonal and anti-diagonal through sq; the
// rank is a plain byte of the board.
var lastLines [64][3]lastLine

func init() {
	for pos := 0; pos < 8; pos++ {
		for line := 0; line < 256; line++ {
			n := 0
			for _, step := range [2]int{1, -1} {
				run := 0
				for i := pos + step; i >= 0 && i < 8; i += step {
					if line>>uint(i)&1 == 1 {
						n += run
						break
					}
					run++
				}
			}
			lastFlipCount[pos][line] = uint8(n)
		}
	}
	// Gathering: a file is shifted down to file a and multiplied so that the
	// disc on rank r lands on bit 56+r (no two partial products share a bit,
	// so there are no carries). A diagonal has one square per rank and a
	// distinct file in each, so multiplying by 0x0101010101010101 adds the
	// ranks into the top byte with the discs at their file's bit.
	const fileA, fileMagic, rankSum = 0x0101010101010101, 0x0102040810204080, 0x0101010101010101
	for sq := 0; sq < 64; sq++ {
		r, c := sq/8, sq%8
		lastLines[sq][0] = lastLine{mask: fileA << uint(c), mul: fileMagic, shift: uint(c), pos: uint8(r)}
		lastLines[sq][1] = lastLine{mask: lineMasks[2][c-r+7], mul: rankSum, pos: uint8(c)}
		lastLines[sq][2] = lastLine{mask: lineMasks[3][c+r], mul: rankSum, pos: uint8(c)}
	}
}

// countLastFlips returns how many discs the side owning me flips by playing
// sq, the only empty square on the board (every other square is someone's
// disc, so the opponent's discs are the complement of me).
func countLastFlips(me uint64, sq int) int {
	// The masks (&63, &7) cost nothing and let the compiler drop its
	// bounds checks and its test for shifts of 64 or more.
	l := &lastLines[sq&63]
	r := uint(sq) & 56
	n := lastFlipCount[sq&7][byte(me>>r)]
	n += lastFlipCount[l[0].pos&7][((me&l[0].mask)>>(l[0].shift&63))*l[0].mul>>56]
	n += lastFlipCount[l[1].pos&7][(me&l[1].mask)*l[1].mul>>56]
	n += lastFlipCount[l[2].pos&7][(me&l[2].mask)*l[2].mul>>56]
	return int(n)
}

// parityOrder returns the four empty squares of empty, those in odd (the
// squares alone in their quadrant) first: playing last in a region is worth
// more, so those moves are more often best.
func parityOrder(empty, odd uint64) (int, int, int, int) {
	var xs [4]int
	n := 0
	for _, set := range [2]uint64{empty & odd, empty &^ odd} {
		for ; set != 0; set &= set - 1 {
			xs[n] = bits.TrailingZeros64(set)
			n++
		}
	}
	return xs[0], xs[1], xs[2], xs[3]
}

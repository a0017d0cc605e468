package gomoku

// Move generation helpers: the board keeps per-point threat classes, so
// finding fours, threes and the candidate area is a scan over bytes.

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
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] == cellEmpty && b.threat[c][i] == tFive {
			out = append(out, i)
		}
	}
	return out
}

// fiveCellNear returns an empty cell within five steps of i on its lines
// where c would make five, and how many distinct such cells there are
// there (capped at 2). After c plays a four at i, this finds the point the
// opponent must block without scanning the board.
func (b *Board) fiveCellNear(c Color, i int) (cell, n int) {
	cell = -1
	for d, off := range b.dirs {
		for k := -5; k <= 5; k++ {
			j := i + k*off
			if k == 0 || b.cells[j] != cellEmpty {
				continue
			}
			if pattern(b.pats[c][d][j]&patternMask) == pF5 && j != cell {
				if cell < 0 {
					cell = j
				}
				n++
				if n >= 2 {
					return cell, n
				}
			}
		}
	}
	return cell, n
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

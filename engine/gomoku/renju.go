package gomoku

// Renju forbidden points.
//
// Black may not make an overline (six or more), a double four or a double
// three, unless the same move makes exactly five. A four is a line that one
// more stone turns into exactly five; a three is a line that one more stone,
// itself not forbidden, turns into a straight four (four in a row that both
// ends complete to five). The "itself not forbidden" makes the test
// recursive: a three whose only extension is a forbidden point is a false
// three and does not count.

// maxRenjuDepth bounds the recursion of the three test. Real positions need
// two or three levels; the bound only guards against pathological boards
// and is high enough never to cut a real line of reasoning.
const maxRenjuDepth = 8

// isForbidden reports whether a black stone at the empty cell i is
// forbidden. The line patterns give a cheap filter: a point with at most one
// line at three-or-better, no open four and no overline cannot be forbidden.
func (b *Board) isForbidden(i int) bool {
	lines, flex, over := 0, false, false
	for d := 0; d < 4; d++ {
		e := b.pats[Black][d][i]
		switch pattern(e & patternMask) {
		case pF5:
			return false
		case pF4:
			flex = true
			lines++
		case pB4, pF3:
			lines++
		}
		if e&overlineBit != 0 {
			over = true
		}
	}
	if lines < 2 && !flex && !over {
		return false
	}
	return b.forbiddenAt(i, 0)
}

// forbiddenAt is the exact test: a black stone at the empty cell i.
func (b *Board) forbiddenAt(i, depth int) bool {
	b.cells[i] = cellBlack
	defer func() { b.cells[i] = cellEmpty }()
	var runs [4]int
	for d, off := range b.dirs {
		runs[d], _, _ = b.blackRun(i, off)
		if runs[d] == 5 {
			return false // exactly five wins, whatever else it makes
		}
	}
	for _, n := range runs {
		if n > 5 {
			return true
		}
	}
	fours, threes := 0, 0
	for _, off := range b.dirs {
		f := b.fours(i, off)
		fours += f
		if f == 0 && depth < maxRenjuDepth && b.isThree(i, off, depth) {
			threes++
		}
	}
	return fours >= 2 || threes >= 2
}

// blackRun returns the length of the run of black stones through i along
// off and its two ends.
func (b *Board) blackRun(i, off int) (n, lo, hi int) {
	lo, hi = i, i
	for b.cells[lo-off] == cellBlack {
		lo -= off
	}
	for b.cells[hi+off] == cellBlack {
		hi += off
	}
	return (hi-lo)/off + 1, lo, hi
}

// fours counts the fours through the black stone at i along off: the empty
// points that complete exactly five with it. The two ends of a straight
// four are one four; two completions that are not a straight four (such as
// X.XXX.X with i in the middle) are two.
func (b *Board) fours(i, off int) int {
	var at [8]int
	n := 0
	for k := -4; k <= 4; k++ {
		j := i + k*off
		if k == 0 || b.cells[j] != cellEmpty {
			continue
		}
		b.cells[j] = cellBlack
		m, lo, hi := b.blackRun(j, off)
		if m == 5 && contains(lo, hi, i, off) {
			at[n] = k
			n++
		}
		b.cells[j] = cellEmpty
	}
	if n == 2 && at[1]-at[0] == 5 {
		return 1
	}
	return n
}

// contains reports whether i lies on the run lo..hi (step off).
func contains(lo, hi, i, off int) bool {
	if off > 0 {
		return lo <= i && i <= hi
	}
	return hi <= i && i <= lo
}

// isThree reports whether the black stone at i makes a real three along
// off: some empty point on the line, not itself forbidden, turns it into a
// straight four.
func (b *Board) isThree(i, off, depth int) bool {
	for k := -4; k <= 4; k++ {
		j := i + k*off
		if k == 0 || b.cells[j] != cellEmpty {
			continue
		}
		b.cells[j] = cellBlack
		straight := b.straightFour(j, i, off)
		b.cells[j] = cellEmpty
		if straight && !b.forbiddenAt(j, depth+1) {
			return true
		}
	}
	return false
}

// straightFour reports whether the black run through j along off is a
// straight four containing i: exactly four stones, and both ends empty and
// completing exactly five (no black stone just beyond).
func (b *Board) straightFour(j, i, off int) bool {
	m, lo, hi := b.blackRun(j, off)
	if m != 4 || !contains(lo, hi, i, off) {
		return false
	}
	a, z := lo-off, hi+off
	return b.cells[a] == cellEmpty && b.cells[z] == cellEmpty &&
		b.cells[a-off] != cellBlack && b.cells[z+off] != cellBlack
}

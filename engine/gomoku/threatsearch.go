package gomoku

// Threat-space search: VCF (victory by continuous fours) and VCT (victory
// by continuous threats: fours and open threes). The attacker only plays
// moves that force an answer, so the tree is narrow and deep wins are found
// that a full-width search cannot reach. Both searches are sound: a "win"
// is a proof against every defence they consider, and the defences
// considered are complete (every block of a four or a three, and every
// counter-four). They may miss wins (node budgets, depth limits, threats
// they do not model such as a four-three point), never invent one.

// threatTableBits sizes the threat-search table: 2^18 entries of 16 bytes,
// 4 MiB, enough for the few hundred thousand nodes a root VCT visits.
const threatTableBits = 18

// maxVCFDepth bounds a VCF line in attacker moves. The longest VCFs in
// real play are around 20 moves; the board runs out of fours long before.
const maxVCFDepth = 40

// Salts keep VCF and VCT entries for the same position apart.
const (
	saltVCF = 0x6a09e667f3bcc908
	saltVCT = 0xbb67ae8584caa73b
)

// threatEntry is one slot of the threat table.
type threatEntry struct {
	key  uint64
	move int16
	win  bool
	rem  int8 // remaining depth the result was proven for (fails only)
}

// threatTable is a direct-mapped table of proven threat-search results.
type threatTable struct {
	slots []threatEntry
	mask  uint64
}

func newThreatTable(bits uint) threatTable {
	return threatTable{slots: make([]threatEntry, 1<<bits), mask: 1<<bits - 1}
}

func (t *threatTable) clear() { clear(t.slots) }

func (t *threatTable) get(key uint64) (threatEntry, bool) {
	s := t.slots[key&t.mask]
	return s, s.key == key && key != 0
}

func (t *threatTable) put(key uint64, move int, win bool, rem int) {
	t.slots[key&t.mask] = threatEntry{key: key, move: int16(move), win: win, rem: int8(min(rem, 127))}
}

// threatLine records the winning line of the last successful threat search,
// indexed by ply.
type threatLine struct {
	moves [maxPly]int16
	end   int
	tail  int // plies after end that the line implies but does not list
}

// vcf reports whether the side to move wins by continuous fours. On
// success e.line holds the line from ply on. It spends e.vcfBudget nodes at
// most; a search cut by the budget reports no win. It plays with the light
// play of threatboard.go, which skips the evaluation's sums it never reads.
func (e *Engine) vcf(b *Board, ply, depth int) bool {
	if b.won || ply >= maxPly-4 || depth >= maxVCFDepth {
		return false
	}
	e.nodes++
	e.vcfBudget--
	e.checkStop()
	if e.vcfBudget < 0 || e.stopped || e.threatOut {
		return false
	}
	me := b.ToMove()
	opp := me.Other()
	if b.classCount[me][tFive] > 0 {
		var buf [8]int
		e.line.moves[ply] = int16(b.fiveCells(me, buf[:0])[0])
		e.line.end = ply + 1
		return true
	}
	key := b.hash ^ saltVCF
	if ent, ok := e.threat.get(key); ok {
		if ent.win {
			e.line.moves[ply] = ent.move
			e.line.end = ply + 1
			return true
		}
		return false
	}
	// The moves are fours: the class counts bound them (fourPoints),
	// and a list of vcfMoves fits nearly every node without the 6.4 KB
	// of a full list, which was zeroed at every node.
	var buf [vcfMoves]scored
	moves := buf[:0]
	if n := fourPoints(b, me); n > vcfMoves {
		moves = make([]scored, 0, n)
	}
	if n := b.classCount[opp][tFive]; n > 0 {
		if n > 1 {
			return false
		}
		c := b.onlyFiveCell(opp)
		if !isFourClass(b.threat[me][c]) || !b.legalFor(me, c) {
			return false
		}
		moves = append(moves, scored{move: c})
	} else {
		moves = e.fourMoves(b, me, moves)
	}
	budgetBefore := e.vcfBudget
	for _, m := range moves {
		b.playLight(m.move)
		e.nodes++
		if b.won {
			b.undoLight()
			e.line.moves[ply] = int16(m.move)
			e.line.end = ply + 1
			e.threat.put(key, m.move, true, 0)
			return true
		}
		win := false
		if b.classCount[opp][tFive] == 0 {
			// The attacker had no five cell before its four (the node
			// would have won at once), so its five cells now are the
			// four's, on the stone's lines: the class count says how many,
			// and onlyFiveCell finds the one there first. (fiveCellNear
			// scanned the lines for them: this takes 1.1% fewer
			// instructions at level 6; docs/benchmarks.md, thirty-sixth
			// session.)
			n := b.classCount[me][tFive]
			cell := -1
			if n == 1 {
				cell = b.onlyFiveCell(me)
			}
			switch {
			case n >= 2:
				// Two fives: the defender blocks one, the attacker plays
				// the other.
				win = true
				var fb [8]int
				cells := b.fiveCells(me, fb[:0])
				e.line.moves[ply+1] = int16(cells[0])
				e.line.moves[ply+2] = int16(cells[len(cells)-1])
				e.line.end = ply + 3
			case n == 1 && b.rule == Renju && opp == Black && b.isForbidden(cell):
				// Black cannot block: the block is forbidden. Whatever
				// black plays, the five follows.
				win = true
				e.line.end = ply + 1
				e.line.tail = 2
			case n == 1:
				b.playLight(cell)
				e.nodes++
				win = e.vcf(b, ply+2, depth+1)
				b.undoLight()
				e.line.moves[ply+1] = int16(cell)
			}
		}
		b.undoLight()
		if win {
			e.line.moves[ply] = int16(m.move)
			e.threat.put(key, m.move, true, 0)
			return true
		}
		if e.stopped || e.threatOut || e.vcfBudget < 0 {
			return false
		}
	}
	if e.vcfBudget >= 0 && budgetBefore >= 0 && !e.threatOut && !e.stopped {
		e.threat.put(key, -1, false, maxVCFDepth)
	}
	return false
}

// vcfMoves is the length of the VCF's move list on its frame: most nodes
// have one to three fours, and more than vcfMoves take a list from the
// heap.
const vcfMoves = 32

// fourPoints returns the number of empty points where c makes a four or
// better (legal or not), from the board's class counts.
func fourPoints(b *Board, c Color) int16 {
	n := &b.classCount[c]
	return n[tFour] + n[tFourThree] + n[tFlex4] + n[tFive]
}

// fourMoves appends c's legal moves that make a four or better, the
// strongest (open fours, four-threes) first.
//
// The board counts its empty points by class (classCount), so the scan
// ends at the last such point, and is skipped when there is none: most
// VCF nodes have one or two fours, often none.
func (e *Engine) fourMoves(b *Board, c Color, out []scored) []scored {
	start := len(out)
	left := fourPoints(b, c)
	// Eight cells at a time (movegen.go): the empty ones of class tFour
	// or above, of which all but tThree2 make a four.
	for w, last := b.firstCell(), b.lastCell(); left > 0 && w <= last; w += 8 {
		for m := b.emptyCells(w) & atLeastBytes(word(b.threat[c][w:]), uint8(tFour)); m != 0; m &= m - 1 {
			i := nextCell(w, m)
			if !isFourClass(b.threat[c][i]) {
				continue
			}
			left--
			if !b.legalFor(c, i) {
				continue
			}
			out = append(out, scored{move: i, score: b.valueAt(c, i)})
		}
	}
	sortScored(out[start:])
	return out
}

// sortScored sorts by score, best first (insertion sort: lists are short).
func sortScored(s []scored) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].score > s[j-1].score; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// vct reports whether the side to move wins by continuous threats within
// rem more attacker moves. On success e.line holds the first move at ply.
func (e *Engine) vct(b *Board, ply, rem int) bool {
	if b.won || ply >= maxPly-8 {
		return false
	}
	e.checkStop()
	if e.stopped || e.threatOut || e.vcfBudget < 0 {
		return false
	}
	me := b.ToMove()
	opp := me.Other()
	if e.vcf(b, ply, 0) {
		return true
	}
	if rem <= 0 || e.vcfBudget < 0 {
		return false
	}
	key := b.hash ^ saltVCT
	if ent, ok := e.threat.get(key); ok {
		if ent.win {
			e.line.moves[ply] = ent.move
			e.line.end = ply + 1
			return true
		}
		if int(ent.rem) >= rem {
			return false
		}
	}
	var buf [maxMoves]scored
	moves := buf[:0]
	if b.classCount[opp][tFive] > 0 {
		cell, ok := b.forcedBlock(me)
		if !ok {
			return false
		}
		moves = append(moves, scored{move: cell})
	} else {
		for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
			if b.cells[i] != cellEmpty || b.near[i] == 0 {
				continue
			}
			t := b.threat[me][i]
			if !isFourClass(t) && !b.hasThreePattern(me, i) {
				continue
			}
			if !b.legalFor(me, i) {
				continue
			}
			moves = append(moves, scored{move: i, score: b.valueAt(me, i) + b.valueAt(opp, i)/2})
		}
		sortScored(moves)
	}
	for _, m := range moves {
		b.play(m.move)
		e.nodes++
		win := e.vctDefend(b, ply+1, rem)
		b.undo()
		if win {
			e.line.moves[ply] = int16(m.move)
			e.threat.put(key, m.move, true, rem)
			return true
		}
		if e.stopped || e.threatOut || e.vcfBudget < 0 {
			return false
		}
	}
	e.threat.put(key, -1, false, rem)
	return false
}

// vctDefend reports whether the attacker (who just moved) wins against
// every defence of the side to move. The defences of a threat are its
// blocking points (where the attacker would make a four or better) and the
// defender's own fours.
func (e *Engine) vctDefend(b *Board, ply, rem int) bool {
	if b.won {
		return true // the attacker made five
	}
	def := b.ToMove()
	att := def.Other()
	if b.classCount[def][tFive] > 0 {
		return false // the defender wins first
	}
	if n := b.classCount[att][tFive]; n > 0 {
		cell, ok := b.forcedBlock(def)
		if !ok {
			return true
		}
		b.play(cell)
		e.nodes++
		win := e.vct(b, ply+1, rem-1)
		b.undo()
		if win {
			e.line.moves[ply] = int16(cell)
		}
		return win
	}
	if b.classCount[att][tFlex4] == 0 {
		return false // no threat: the defender has a free move
	}
	var buf [maxMoves]scored
	defences := e.threeDefences(b, buf[:0])
	sortScored(defences)
	for _, d := range defences {
		b.play(d.move)
		e.nodes++
		win := e.vct(b, ply+1, rem-1)
		b.undo()
		if !win || e.stopped || e.threatOut || e.vcfBudget < 0 {
			return false
		}
	}
	return true
}

// threeDefences appends the defences of the side to move against the
// attacker's open three: the attacker's "cost squares" (the points where it
// would make a four on the line of a three its last stone made; a stone
// anywhere else leaves that three free to become an open four) and the
// defender's own fours. If the last stone made no open three (the three
// stood before it), every point where the attacker would make a four on
// any line is a candidate instead: a superset, so never an unsound cut.
func (e *Engine) threeDefences(b *Board, out []scored) []scored {
	def := b.ToMove()
	att := def.Other()
	start := len(out)
	last := -1
	if n := len(b.history); n > 0 {
		last = b.history[n-1]
	}
	var lines [4]bool
	onLine := false
	if last >= 0 && b.cells[last] == uint8(att)+1 {
		for d := range b.dirs {
			if pattern(b.pats[att][d][last]&patternMask) == pF3 {
				lines[d], onLine = true, true
			}
		}
	}
	if onLine {
		for d, off := range b.dirs {
			if !lines[d] {
				continue
			}
			for k := -4; k <= 4; k++ {
				j := last + k*off
				if k == 0 || b.cells[j] != cellEmpty || pattern(b.pats[att][d][j]&patternMask) < pB4 || !b.legalFor(def, j) {
					continue
				}
				out = append(out, scored{move: j, score: b.valueAt(att, j) + b.valueAt(def, j)})
			}
		}
		// The defender's own fours, where not already listed.
		listed := out[start:]
		left := fourPoints(b, def)
		// Eight cells at a time (movegen.go), as in fourMoves.
		for w, lastCell := b.firstCell(), b.lastCell(); left > 0 && w <= lastCell; w += 8 {
			for m := b.emptyCells(w) & atLeastBytes(word(b.threat[def][w:]), uint8(tFour)); m != 0; m &= m - 1 {
				i := nextCell(w, m)
				if !isFourClass(b.threat[def][i]) {
					continue
				}
				left--
				if !b.legalFor(def, i) {
					continue
				}
				dup := false
				for _, l := range listed {
					if l.move == i {
						dup = true
						break
					}
				}
				if !dup {
					out = append(out, scored{move: i, score: b.valueAt(att, i) + b.valueAt(def, i)})
				}
			}
		}
		return out
	}
	// The empty cells near the stones, eight at a time (movegen.go).
	for w, lastCell := b.firstCell(), b.lastCell(); w <= lastCell; w += 8 {
		for m := b.emptyCells(w) & nonZeroBytes(word(b.near[w:])); m != 0; m &= m - 1 {
			i := nextCell(w, m)
			if b.maxPattern(att, i) < pB4 && !isFourClass(b.threat[def][i]) {
				continue
			}
			if !b.legalFor(def, i) {
				continue
			}
			out = append(out, scored{move: i, score: b.valueAt(att, i) + b.valueAt(def, i)})
		}
	}
	return out
}

// rootThreats answers the positions that need no main search: a five to
// play, a four to block, a proven VCF or VCT win.
func (e *Engine) rootThreats(b *Board, info func(int, int, int, []int16) Info) (Info, bool) {
	me := b.ToMove()
	opp := me.Other()
	var fb [8]int
	if cells := b.fiveCells(me, fb[:0]); len(cells) > 0 {
		return info(1, cells[0], WinScore-1, []int16{int16(cells[0])}), true
	}
	if cells := b.fiveCells(opp, fb[:0]); len(cells) > 0 {
		c := cells[0]
		if !b.legalFor(me, c) || len(cells) > 1 {
			// Lost whatever we do; block one (a legal one if any, else
			// any legal move: renju may forbid black every block).
			c = -1
			for _, x := range cells {
				if b.legalFor(me, x) {
					c = x
					break
				}
			}
			if c < 0 {
				moves := e.genRootMoves(b)
				if len(moves) == 0 {
					return Info{}, false // Search reports that no move is legal
				}
				c = int(moves[0].move)
			}
			return info(1, c, -(WinScore - 2), []int16{int16(c)}), true
		}
		// The block is the only move: answer at once, with the static
		// score of the position after it.
		b.play(c)
		score := -e.eval(b)
		b.undo()
		return info(1, c, score, []int16{int16(c)}), true
	}
	if e.opt.rootVCF > 0 {
		e.vcfBudget = e.opt.rootVCF
		e.line.tail = 0
		if e.vcf(b, 0, 0) {
			// A line cut short by a table hit proves the win but not its
			// length: the score then counts only the plies it lists.
			return info(1, int(e.line.moves[0]), WinScore-e.line.end-e.line.tail, e.line.moves[:e.line.end]), true
		}
	}
	if e.opt.rootVCT > 0 && !e.stopped {
		e.vcfBudget = e.opt.rootVCT
		for rem := 2; rem <= e.opt.vctDepth && !e.stopped && !e.threatOut && e.vcfBudget > 0; rem += 2 {
			if e.rootVCT(b, rem) {
				return info(1, int(e.line.moves[0]), WinScore-2*rem-1, e.line.moves[:1]), true
			}
		}
	}
	return Info{}, false
}

package gomoku

// Proof-number VCT (level 6). The depth-first VCT of threatsearch.go
// searches every threat of the attacker to the full remaining depth, in
// order, before it tries the next; on 21 positions of the games lost to
// Rapfi, the opponent's winning threat sequences took it 1,000 to 940,000
// nodes (5.0 million in all), where the screen gives it 10,000. A
// depth-first proof-number search (df-pn) proves them in 3.2 million: it
// always expands the child that is cheapest to prove (at
// the attacker's nodes) or to refute (at the defender's), counting how
// many leaves still have to be proven (pn) or refuted (dn) below each
// node, so that a threat the defender has few answers to is followed
// first and a line with many defences is left until it is needed.
//
// The tree is the one vct searches, narrowed on the attacker's side: the
// attacker plays fours and moves that make an open three (past its first
// move only those related to its moves in the sequence: relatedThreats),
// and first tries a short VCF at each of its nodes; the defender answers
// a four by its block and a three by the three's cost squares or a four
// of its own (threeDefences). It is as sound as vct: a proof holds
// against every defence considered, and those are complete. rem bounds
// the attacker's moves, as in vct. If the related threats are refuted,
// vctPN searches every threat with the budget left.

// pnInf is the proof or disproof number of a settled node: a proven node
// has pn 0 and dn pnInf, a refuted one the reverse.
const pnInf = 1 << 30

// pnTableBits sizes the proof-number table: 2^17 entries of 16 bytes,
// 2 MiB.
const pnTableBits = 17

// pnVCFBudget bounds the VCF tried at each of the attacker's nodes. The
// attacker's fours are in the tree already; the VCF finds the long runs
// of fours beyond rem, and a full one at every node spent most of vct's
// nodes. It was 100: with 10 the VCFs took 354,000 of the 702,000 nodes
// the 21 wins of BenchmarkThreatWins needed instead of 589,000 of 915,000
// (with relatedThreats), and 9 instead of 5 were proven within 10,000.
const pnVCFBudget = 10

// pnThreeProof is the proof number a new node gets after an attacker's
// three (a four's is 1): the defender has about three answers to an
// open three (its cost squares), one to a four, so the search follows
// the fours and the threes with few answers first. Initial numbers of 1
// for every child cost 23% more nodes on BenchmarkThreatWins (702,000
// against 550,000; 2 gave 642,000, 4 and 6 574,000 and 536,000).
const pnThreeProof = 3

// Salts keep the two kinds of node and the remaining depths apart in the
// proof-number table.
const (
	saltPN     = 0x3c6ef372fe94f82b
	saltPNAnd  = 0xa54ff53a5f1d36f1
	pnRemMixer = 0x9e3779b97f4a7c15
	saltPNAll  = 0x510e527fade682d1
)

// pnAllThreats, as the start of a sequence, makes the proof-number search
// generate every threat of the attacker (relatedThreats never applies: no
// ply is beyond it).
const pnAllThreats = maxPly

// pnEntry is one slot of the proof-number table.
type pnEntry struct {
	key    uint64
	pn, dn uint32
}

// pnKey is the table key of a node: the position, whose turn it is in
// the search (and: the defender's), the attacker moves left, and whether
// the attacker's threats are narrowed to the related ones (a node refuted
// among the related threats may still be won with all of them).
func pnKey(hash uint64, and bool, rem int, all bool) uint64 {
	k := hash ^ saltPN ^ uint64(rem+1)*pnRemMixer
	if and {
		k ^= saltPNAnd
	}
	if all {
		k ^= saltPNAll
	}
	return k
}

// pnReady allocates the proof-number table on its first use.
func (e *Engine) pnReady() {
	if e.pnTable == nil {
		e.pnTable = make([]pnEntry, 1<<pnTableBits)
		e.pnLists = new([maxPly]pnList)
	}
}

// pnList is a proof-number node's children with their numbers. dfpn
// takes the list of its ply (one node per ply is searching at a time):
// lists on its frame (9.6 KB) were zeroed at every node, 1.2% of a
// level-6 search's instructions (docs/benchmarks.md, thirty-sixth
// session).
type pnList struct {
	moves  [maxMoves]scored
	pn, dn [maxMoves]uint32
}

// pnLookup reports whether the node has an entry (it was expanded
// before: its short VCF failed then).
func (e *Engine) pnLookup(key uint64) (pnEntry, bool) {
	s := e.pnTable[key&(1<<pnTableBits-1)]
	return s, s.key == key
}

func (e *Engine) pnPut(key uint64, pn, dn uint32) {
	e.pnTable[key&(1<<pnTableBits-1)] = pnEntry{key: key, pn: pn, dn: dn}
}

// vctPN reports whether the side to move wins by continuous threats in at
// most rem attacker moves, within e.vcfBudget nodes. On success
// e.line.moves[ply] is the first move.
func (e *Engine) vctPN(b *Board, ply, rem int) bool {
	e.pnReady()
	// Deepening two attacker moves at a time finds the short wins first:
	// with the full depth at once the search wandered into long lines
	// (3.2 against 8.0 million nodes on the 21 wins of safeChoicePositions).
	// The related threats are searched first; if they are refuted to the
	// full depth within the budget (a small tree, as a rule), every threat
	// is searched with what is left.
	for _, start := range [2]int{ply, pnAllThreats} {
		for r := 2; r <= rem; r += 2 {
			if e.vcfBudget <= 0 || e.stopped || e.threatOut {
				return false
			}
			if pn, _ := e.dfpn(b, false, r, pnInf-1, pnInf-1, ply, start); pn == 0 {
				return true
			}
		}
	}
	return false
}

// pnSettle returns the numbers of a node that needs no expansion, and
// ok: a win or loss on the board, the attacker's short VCF, the end of
// its moves. Otherwise it appends the node's children to moves.
func (e *Engine) pnSettle(b *Board, and bool, rem, ply, start int, seen bool, moves []scored) (pn, dn uint32, out []scored, ok bool) {
	proven, refuted := uint32(0), uint32(pnInf)
	me := b.ToMove()
	opp := me.Other()
	switch {
	case b.won && and: // the attacker made five
		return proven, refuted, moves, true
	case b.won, ply >= maxPly-8:
		return refuted, proven, moves, true
	case b.classCount[me][tFive] > 0:
		if and {
			return refuted, proven, moves, true // the defender wins first
		}
		return proven, refuted, moves, true
	case b.classCount[opp][tFive] > 0:
		cell, ok := b.forcedBlock(me)
		if !ok {
			if and {
				return proven, refuted, moves, true
			}
			return refuted, proven, moves, true
		}
		if !and && !seen && e.vcfWithin(b, ply, pnVCFBudget) {
			return proven, refuted, moves, true
		}
		if !and && rem <= 0 {
			return refuted, proven, moves, true
		}
		return 0, 0, append(moves, scored{move: cell}), false
	}
	if and {
		if b.classCount[opp][tFlex4] == 0 {
			return refuted, proven, moves, true // no threat: the defender is free
		}
		moves = e.threeDefences(b, moves)
		if len(moves) == 0 {
			return proven, refuted, moves, true
		}
		sortScored(moves)
		return 0, 0, moves, false
	}
	if !seen && e.vcfWithin(b, ply, pnVCFBudget) {
		return proven, refuted, moves, true
	}
	if rem <= 0 {
		return refuted, proven, moves, true
	}
	moves = e.threatMoves(b, moves)
	if ply > start {
		moves = relatedThreats(b, moves, ply-start)
	}
	if len(moves) == 0 {
		return refuted, proven, moves, true
	}
	return 0, 0, moves, false
}

// threatMoves appends the attacker's moves of the VCT: the points near
// the stones where the side to move makes a four or an open three, best
// first.
func (e *Engine) threatMoves(b *Board, out []scored) []scored {
	me := b.ToMove()
	opp := me.Other()
	start := len(out)
	// A point makes a four or an open three exactly when its class is
	// tThree or above; the class counts end the scan at the last one.
	var left int16
	for t := tThree; t < numThreats; t++ {
		left += b.classCount[me][t]
	}
	// Eight cells at a time (movegen.go).
	for w, last := b.firstCell(), b.lastCell(); left > 0 && w <= last; w += 8 {
		for m := b.emptyCells(w) & atLeastBytes(word(b.threat[me][w:]), uint8(tThree)); m != 0; m &= m - 1 {
			i := nextCell(w, m)
			left--
			if b.near[i] == 0 || !b.legalFor(me, i) {
				continue
			}
			out = append(out, scored{move: i, score: b.valueAt(me, i) + b.valueAt(opp, i)/2})
		}
	}
	sortScored(out[start:])
	return out
}

// dfpn searches the node until its proof number reaches thpn or its
// disproof number thdn, or the budget is spent, and returns its numbers.
// and says the defender is to move; rem counts the attacker's moves left
// (a defender's move passes the turn back at one less).
func (e *Engine) dfpn(b *Board, and bool, rem int, thpn, thdn uint32, ply, start int) (uint32, uint32) {
	all := start == pnAllThreats
	key := pnKey(b.hash, and, rem, all)
	list := &e.pnLists[ply] // ply < maxPly: pnSettle settles every node from maxPly-8 on
	_, seen := e.pnLookup(key)
	pn, dn, moves, settled := e.pnSettle(b, and, rem, ply, start, seen, list.moves[:0])
	if settled {
		e.pnPut(key, pn, dn)
		return pn, dn
	}
	childRem := rem
	if and {
		childRem = rem - 1
	}
	me := b.ToMove()
	cpn, cdn := &list.pn, &list.dn
	for k, m := range moves {
		cpn[k], cdn[k] = 1, 1
		if s, ok := e.pnLookup(pnKey(b.hash^zobrist[me][m.move], !and, childRem, all)); ok {
			cpn[k], cdn[k] = s.pn, s.dn
		} else if !and && !isFourClass(b.threat[me][m.move]) {
			cpn[k] = pnThreeProof
		}
	}
	for {
		// The node's numbers from its children's: at the attacker's node
		// one proven child proves it and every child must be refuted; at
		// the defender's the reverse.
		best, second := -1, uint32(pnInf)
		var sum uint64
		min1 := uint32(pnInf)
		for k := range moves {
			x, y := cpn[k], cdn[k] // x: the number minimised, y: summed
			if and {
				x, y = cdn[k], cpn[k]
			}
			sum += uint64(y)
			if x < min1 {
				second = min1
				min1, best = x, k
			} else if x < second {
				second = x
			}
		}
		total := uint32(min(sum, pnInf))
		if and {
			pn, dn = total, min1
		} else {
			pn, dn = min1, total
		}
		if pn >= thpn || dn >= thdn || e.vcfBudget <= 0 || e.stopped || e.threatOut {
			if pn == 0 && !and {
				e.line.moves[ply] = int16(moves[best].move)
			}
			if e.vcfBudget > 0 && !e.stopped && !e.threatOut {
				e.pnPut(key, pn, dn)
			} else if pn == 0 || dn == 0 {
				e.pnPut(key, pn, dn) // settled results hold whatever the budget
			}
			return pn, dn
		}
		// Thresholds of the chosen child: it is searched until it stops
		// being the best one or settles the node.
		var tpn, tdn uint32
		if and {
			tdn = min(thdn, epsilonAbove(second))
			tpn = satSub(thpn, pn-cpn[best])
		} else {
			tpn = min(thpn, epsilonAbove(second))
			tdn = satSub(thdn, dn-cdn[best])
		}
		b.play(moves[best].move)
		e.nodes++
		e.vcfBudget--
		e.checkStop()
		cpn[best], cdn[best] = e.dfpn(b, !and, childRem, tpn, tdn, ply+1, start)
		b.undo()
	}
}

// satAdd and satSub add and subtract proof numbers within [0, pnInf].
func satAdd(a, b uint32) uint32 { return uint32(min(uint64(a)+uint64(b), pnInf)) }

func satSub(a, b uint32) uint32 {
	if b >= a {
		return 0
	}
	return a - b
}

// vcfWithin runs the VCF with at most limit nodes of the current budget
// and charges what it used to it.
func (e *Engine) vcfWithin(b *Board, ply, limit int) bool {
	saved := e.vcfBudget
	if saved <= limit {
		return e.vcf(b, ply, 0)
	}
	e.vcfBudget = limit
	won := e.vcf(b, ply, 0)
	e.vcfBudget = saved - (limit - e.vcfBudget)
	return won
}

// threatWin reports whether the side to move wins by a VCF, or a VCT of
// at most maxRem attacker moves, within budget nodes: the screens'
// question, asked for the opponent after one of our moves. Level 6 asks
// the proof-number VCT (vctPN, which deepens itself); the levels below
// deepen vct two attacker moves at a time.
func (e *Engine) threatWin(b *Board, ply, vcfBudget, budget, maxRem int) bool {
	e.vcfBudget = vcfBudget
	if e.vcf(b, ply, 0) {
		return true
	}
	e.vcfBudget = budget
	if e.opt.pnVCT {
		return e.vctPN(b, ply, maxRem)
	}
	for rem := 2; rem <= maxRem && e.vcfBudget > 0 && !e.threatOut && !e.stopped; rem += 2 {
		if e.vct(b, ply, rem) {
			return true
		}
	}
	return false
}

// rootVCT runs the VCT of at most rem attacker moves at the root: the
// proof-number one at level 6. Its caller deepens rem two moves at a
// time, as vctPN does, so that the score counts the shortest win found.
func (e *Engine) rootVCT(b *Board, rem int) bool {
	if e.opt.pnVCT {
		e.pnReady()
		pn, _ := e.dfpn(b, false, rem, pnInf-1, pnInf-1, 0, 0)
		return pn == 0
	}
	return e.vct(b, 0, rem)
}

// epsilonAbove is the threshold of the best child: a little above the
// second best's number (the "1+epsilon" rule, epsilon 1/2), so that the
// search does not switch back and forth between two nearly equal
// children, re-expanding each time.
func epsilonAbove(second uint32) uint32 {
	return satAdd(second, second/2+1)
}

// relatedThreats keeps, of the attacker's threats, those related to its
// moves so far in the sequence: a point on one of the four lines through
// one of those stones, within four steps of it. A threat elsewhere could
// have been played before the sequence began; strong programs search
// only the related ones past the first move, and on the 21 threat wins of
// safeChoicePositions this cut the nodes to prove them by about 40%
// (BenchmarkThreatWins, docs/benchmarks.md). Dropping attacker moves keeps
// the search sound: a proof needs one winning attacker move, which is
// still one, and every defence. seqLen is the number of plies played
// since the sequence began; the attacker's stones are every other one
// from the second last (the last is the defender's reply).
func relatedThreats(b *Board, moves []scored, seqLen int) []scored {
	h := b.history
	n := len(h)
	out := moves[:0]
	for _, m := range moves {
		px, py := m.move%b.stride, m.move/b.stride
		for k := n - 2; k >= n-seqLen; k -= 2 {
			dx, dy := absInt(px-h[k]%b.stride), absInt(py-h[k]/b.stride)
			if (dx == 0 || dy == 0 || dx == dy) && max(dx, dy) <= 4 {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// absInt returns |x|.
func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

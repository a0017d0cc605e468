package gomoku

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Errors returned by IsLegal, Play and Undo; test with errors.Is.
var (
	ErrOffBoard  = errors.New("gomoku: point off the board")
	ErrOccupied  = errors.New("gomoku: point occupied")
	ErrGameOver  = errors.New("gomoku: game over")
	ErrForbidden = errors.New("gomoku: forbidden point for black (renju)")
	ErrNoMoves   = errors.New("gomoku: no move to take back")
)

// pad is the width of the wall around the board: five, so that every key
// (five neighbours each way) reads walls, never another row.
const pad = 5

// maxCells is the size of the padded cell arrays for the largest board:
// (20 + 2*5 + 1) rows of stride 20 + 5 (rows share their side walls).
const maxCells = (MaxSize + 2*pad + 1) * (MaxSize + pad)

// Cell contents.
const (
	cellEmpty = 0
	cellBlack = 1 // Black + 1
	cellWhite = 2 // White + 1
	cellWall  = 3
)

// Board is a gomoku position with its history. It is mutable: Play and Undo
// update the line patterns, the evaluation and the Zobrist hash
// incrementally, and Undo restores all of them exactly. A Board is not safe
// for concurrent use; Clone it to hand a copy to another goroutine.
type Board struct {
	size   int
	stride int
	rule   Rule
	dirs   [4]int // index offsets of the four lines: row, column, two diagonals

	cells [maxCells]uint8
	// The per-point arrays below (keys to pointIdx) describe the empty
	// points. An occupied point's entries are stale: a play leaves the
	// points that hold stones alone (setNeighbours), and they are right
	// again when the stone is taken back, since play and undo go last in,
	// first out. Nothing reads them at an occupied point but threeDefences,
	// at the last stone played, whose entries no later stone has touched.
	//
	// keys[d][i]: the neighbours of i on line d seen by each colour, Black's
	// key in the low 16 bits and White's in the high 16 (keyOf): a stone
	// changes both colours' keys of a point with one addition (keySteps).
	keys [4][maxCells]uint32
	// pats[c][d][i]: the table entry (pattern and flags) of a stone of colour c at i on line d.
	pats [2][4][maxCells]uint8
	// threat[c][i]: the threat class of a stone of colour c at i (all four lines).
	threat [2][maxCells]threat
	// pointIdx[c][i]: the index in pointTable of the four patterns of
	// pats[c][0..3][i], kept with them: its entry holds threat[c][i], the
	// point's pattern value (valueAt) and its values in the evaluation
	// (eval.go, evaltable.go). The pattern value was kept per point as
	// well until the thirty-sixth session: it is read far less often than
	// a play and an undo wrote it.
	pointIdx [2][maxCells]uint16
	// near[i]: stones within two steps (5x5 square) of i; candidates have near > 0.
	near [maxCells]uint8

	// evalTotal[c][r] sums the evaluation's values of c's points over
	// empty points when c has role r (to move or just moved; eval.go,
	// evaltable.go); classCount[c][t] counts empty points whose threat
	// class for c is t. Both are kept incrementally. (A sum of value[c]
	// was kept too until nothing read it: docs/benchmarks.md,
	// twenty-eighth session.)
	evalTotal  [2][2]int32
	classCount [2][numThreats]int16

	hash    uint64
	history []int // cell indices, in move order
	stones  int

	// undos[n] holds what the n-th stone's play changed, for takeBack to
	// restore instead of recomputing: the totals before it, and where its
	// changes start in changes[c], which lists, for colour c, each
	// neighbour's pattern on the stone's line and pointTable index as they
	// were before it.
	undos   []undoRecord
	changes [2][]pointChange

	winner  Color
	won     bool
	winLine []Point
}

// NewBoard returns an empty board of the given size under rule r: 15x15
// (the standard board), 19x19 (the go board, which the hall also offers)
// or 20x20 (the board of the Gomocup freestyle league). Renju is played on
// 15x15 only.
func NewBoard(size int, r Rule) (*Board, error) {
	if size != 15 && size != 19 && size != 20 {
		return nil, fmt.Errorf("gomoku: board size %d not supported (15, 19 or 20)", size)
	}
	if r < Freestyle || r > Renju {
		return nil, fmt.Errorf("gomoku: unknown rule %d", int(r))
	}
	if r == Renju && size != 15 {
		return nil, fmt.Errorf("gomoku: renju is played on 15x15, not %dx%d", size, size)
	}
	b := &Board{size: size, stride: size + pad, rule: r}
	b.dirs = [4]int{1, b.stride, b.stride + 1, b.stride - 1}
	b.reset()
	return b, nil
}

// reset clears the board to the empty position.
func (b *Board) reset() {
	for i := range b.cells {
		b.cells[i] = cellWall
	}
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			b.cells[b.index(Point{x, y})] = cellEmpty
		}
	}
	// Keys: everything the walls block.
	for i := range b.cells {
		if b.cells[i] == cellWall {
			continue
		}
		for d, off := range b.dirs {
			var key uint16
			for k := -5; k <= 5; k++ {
				if k == 0 {
					continue
				}
				j := i + k*off
				if j < 0 || j >= maxCells || b.cells[j] == cellWall {
					key += keyBlocked * keyWeight(k)
				}
			}
			b.keys[d][i] = uint32(key) | uint32(key)<<16
		}
	}
	b.evalTotal = [2][2]int32{}
	b.classCount = [2][numThreats]int16{}
	for i := range b.cells {
		if b.cells[i] == cellWall {
			continue
		}
		for c := Black; c <= White; c++ {
			t := b.rule.exactFive(c)
			tab := patternTables[boolIndex(t)]
			for d := range b.dirs {
				b.pats[c][d][i] = tab[b.keyOf(c, d, i)]
			}
			b.refreshPoint(c, i)
			e := &pointTable[b.pointIdx[c][i]]
			b.evalTotal[c][0] += e.eval[0]
			b.evalTotal[c][1] += e.eval[1]
			b.classCount[c][b.threat[c][i]]++
		}
	}
	b.near = [maxCells]uint8{}
	b.hash = 0
	b.history = b.history[:0]
	b.undos = b.undos[:0]
	b.changes[0], b.changes[1] = b.changes[0][:0], b.changes[1][:0]
	b.stones = 0
	b.won = false
	b.winLine = nil
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// index maps an on-board point to its cell index.
func (b *Board) index(p Point) int { return (p.Y+pad)*b.stride + p.X + pad }

// point maps a cell index back to its point.
func (b *Board) point(i int) Point { return Point{X: i%b.stride - pad, Y: i/b.stride - pad} }

// Size returns the board size (15, 19 or 20).
func (b *Board) Size() int { return b.size }

// Rule returns the rule variant.
func (b *Board) Rule() Rule { return b.rule }

// ToMove returns the colour to play next: Black on an even move count.
func (b *Board) ToMove() Color { return Color(len(b.history) & 1) }

// MoveCount returns the number of stones played.
func (b *Board) MoveCount() int { return len(b.history) }

// Moves returns a copy of the move history.
func (b *Board) Moves() []Point {
	out := make([]Point, len(b.history))
	for i, c := range b.history {
		out[i] = b.point(c)
	}
	return out
}

// LastMove returns the last stone played and false if the board is empty.
func (b *Board) LastMove() (Point, bool) {
	if len(b.history) == 0 {
		return Point{}, false
	}
	return b.point(b.history[len(b.history)-1]), true
}

// Hash returns the Zobrist hash of the stones on the board. The side to move
// follows from the number of stones, so it is not hashed.
func (b *Board) Hash() uint64 { return b.hash }

// At returns the stone at p and whether p is occupied. Off-board points are
// reported as empty.
func (b *Board) At(p Point) (Color, bool) {
	if !p.in(b.size) {
		return 0, false
	}
	c := b.cells[b.index(p)]
	if c == cellEmpty {
		return 0, false
	}
	return Color(c - 1), true
}

// Winner reports the winner once the game is over. over is true when
// someone has won or the board is full; in the latter case the game is a
// draw (see Draw) and c is meaningless.
func (b *Board) Winner() (c Color, over bool) {
	if b.won {
		return b.winner, true
	}
	return 0, b.stones == b.size*b.size
}

// Draw reports whether the game ended in a draw: the board is full and
// nobody has five.
func (b *Board) Draw() bool { return !b.won && b.stones == b.size*b.size }

// Over reports whether the game is over (a win or a full board).
func (b *Board) Over() bool { _, over := b.Winner(); return over }

// WinningLine returns the stones of the winning line (five, or more in
// freestyle) in order along the line, or nil if nobody has won.
func (b *Board) WinningLine() []Point {
	if !b.won {
		return nil
	}
	return append([]Point(nil), b.winLine...)
}

// Clone returns an independent copy of the board.
func (b *Board) Clone() *Board {
	c := *b
	c.history = append([]int(nil), b.history...)
	c.undos = append([]undoRecord(nil), b.undos...)
	for t := range b.changes {
		c.changes[t] = append([]pointChange(nil), b.changes[t]...)
	}
	c.winLine = append([]Point(nil), b.winLine...)
	return &c
}

// IsLegal reports whether the side to move may play at p: nil, or an error
// wrapping ErrOffBoard, ErrOccupied, ErrGameOver or ErrForbidden.
func (b *Board) IsLegal(p Point) error {
	if !p.in(b.size) {
		return fmt.Errorf("%w: %v on %dx%d", ErrOffBoard, p, b.size, b.size)
	}
	if b.Over() {
		return ErrGameOver
	}
	i := b.index(p)
	if b.cells[i] != cellEmpty {
		return fmt.Errorf("%w: %v", ErrOccupied, p)
	}
	if b.rule == Renju && b.ToMove() == Black && b.isForbidden(i) {
		return fmt.Errorf("%w: %v", ErrForbidden, p)
	}
	return nil
}

// Play places a stone of the side to move at p. On error the board is
// unchanged.
func (b *Board) Play(p Point) error {
	if err := b.IsLegal(p); err != nil {
		return err
	}
	b.play(b.index(p))
	return nil
}

// Undo takes back the last stone.
func (b *Board) Undo() error {
	if len(b.history) == 0 {
		return ErrNoMoves
	}
	b.undo()
	return nil
}

// play places the side to move's stone at the empty cell i, without any
// legality check, and records a win.
func (b *Board) play(i int) { b.place(i, true) }

// undo takes back the last stone.
func (b *Board) undo() { b.takeBack(true) }

// place is play, and with full false the threat search's light play
// (threatboard.go), which skips the evaluation's sums and the neighbour
// counts.
func (b *Board) place(i int, full bool) {
	c := b.ToMove()
	b.history = append(b.history, i)
	b.undos = append(b.undos, undoRecord{
		changes:   [2]int{len(b.changes[0]), len(b.changes[1])},
		evalTotal: b.evalTotal, classCount: b.classCount,
	})
	for t := range b.changes {
		if cap(b.changes[t])-len(b.changes[t]) < maxChanges {
			b.changes[t] = slices.Grow(b.changes[t], maxChanges)
		}
	}
	b.stones++
	b.hash ^= zobrist[c][i]
	b.cells[i] = uint8(c) + 1
	for t := Black; t <= White; t++ {
		if full {
			e := &pointTable[b.pointIdx[t][i]]
			b.evalTotal[t][0] -= e.eval[0]
			b.evalTotal[t][1] -= e.eval[1]
		}
		b.classCount[t][b.threat[t][i]]--
	}
	b.setNeighbours(i, c, full)
	if full {
		b.addNear(i, 1)
	}
	// The stone makes five exactly when its point's class for c is tFive
	// (a line pattern pF5, which the pattern table gives under the same
	// rule as makesFive, exact five or not): only then is the line looked
	// for. The point's own class is not changed by its stone.
	if b.threat[c][i] == tFive && b.makesFive(i, c) {
		b.won = true
		b.winner = c
	}
}

// takeBack is undo, and with full false the light undo of a stone placed
// with full false.
func (b *Board) takeBack(full bool) {
	n := len(b.history) - 1
	i := b.history[n]
	b.history = b.history[:n]
	c := Color(b.cells[i] - 1)
	b.stones--
	b.hash ^= zobrist[c][i]
	b.cells[i] = cellEmpty
	b.clearKeys(i, c)
	u := &b.undos[n]
	for t := range b.changes {
		v := b.view(Color(t))
		for _, ch := range b.changes[t][u.changes[t]:] {
			j := int(ch.cell)
			v.pats[ch.dir&3][j] = ch.pat
			v.pointIdx[j] = ch.index
			e := &pointTable[ch.index]
			v.threat[j] = e.threat
		}
		b.changes[t] = b.changes[t][:u.changes[t]]
	}
	// A light play left the evaluation's sums alone: restoring them is
	// then a no-op.
	b.evalTotal, b.classCount = u.evalTotal, u.classCount
	b.undos = b.undos[:n]
	if full {
		b.addNear(i, -1)
	}
	b.won = false
	b.winLine = nil
}

// undoRecord is what takeBack restores of one play besides its changes:
// the totals before it, and where its changes start.
type undoRecord struct {
	changes    [2]int
	evalTotal  [2][2]int32
	classCount [2][numThreats]int16
}

// pointChange is one point's pattern on one line and pointTable index for
// one colour before a play changed them (the threat class and value
// follow from the index).
type pointChange struct {
	cell  uint16
	index uint16
	pat   uint8
	dir   uint8
}

// keyOf returns colour c's key of the point i on line d.
func (b *Board) keyOf(c Color, d, i int) uint16 {
	return uint16(b.keys[d][i] >> (16 * uint(c)))
}

// keySteps[c][n] is what a stone of colour c adds to the key word of a
// point whose digit n it is (keyWeight): own in c's half, blocked in the
// other colour's. Each half of a key word is always a valid key, below
// 3^10 < 2^16, so adding or taking away a step never carries or borrows
// from one half into the other.
var keySteps = func() (t [2][keyCells]uint32) {
	for n, w := range keyDigit {
		own, blocked := uint32(keyOwn*w), uint32(keyBlocked*w)
		t[Black][n] = own | blocked<<16
		t[White][n] = blocked | own<<16
	}
	return t
}()

// maxChanges bounds one colour's changes in one play: the forty points
// within five steps of the stone on its lines.
const maxChanges = 4 * 2 * 5

// clearKeys takes the stone of colour c at i out of the keys of the empty
// points within five steps on its four lines (the digit goes back to
// empty), the first half of setNeighbours' undoing; takeBack restores the
// patterns and what follows from them from the play's changes. The board
// around i is what it was when the stone was placed, so the points it
// skips as occupied are the ones setNeighbours skipped.
func (b *Board) clearKeys(i int, c Color) {
	steps := &keySteps[c]
	for d, off := range b.dirs {
		keys := &b.keys[d]
		j := i
		for k := 1; k <= 5; k++ {
			j += off
			if cell := b.cells[j]; cell != cellEmpty {
				if cell == cellWall {
					break
				}
				continue // setNeighbours skipped it too
			}
			keys[j] -= steps[5-k]
		}
		j = i
		for k := 1; k <= 5; k++ {
			j -= off
			if cell := b.cells[j]; cell != cellEmpty {
				if cell == cellWall {
					break
				}
				continue
			}
			keys[j] -= steps[k+4]
		}
	}
}

// setNeighbours adds the stone of colour c at i to the keys of the empty
// intersections within five steps on its four lines (own for c, blocked
// for the other colour), refreshes their patterns, and logs each change
// in b.changes for takeBack. full is false for the threat search's light
// play (threatboard.go), which skips the evaluation's sums.
//
// The points on those lines that hold stones are skipped: nothing reads
// an occupied point's state, and undo restores the board in the reverse
// order of play, so when such a stone is taken back every stone placed
// after it is gone and its state is right again. Skipping them took 10%
// fewer instructions at level 6 (docs/benchmarks.md, thirty-sixth
// session).
//
// This is the hottest code of the engine (two thirds of a search's time,
// most of it under the VCF), so it is written for speed: each side of each
// line is its own loop over pointers to the line's arrays, and a side stops
// at the first wall. Stopping there changes nothing: the wall is at least
// five cells wide on every side (pad), so every later cell within five
// steps is a wall too, which the plain loop would skip one by one. The
// caller has made room for maxChanges changes of each colour.
func (b *Board) setNeighbours(i int, c Color, full bool) {
	// The loops go by colour, Black then White, rather than by the
	// stone's colour and the other: each colour's key is then a fixed
	// half of the key word. (The colours' updates are independent.)
	vb, vw := b.view(Black), b.view(White)
	logB := b.changes[Black][len(b.changes[Black]):cap(b.changes[Black])]
	logW := b.changes[White][len(b.changes[White]):cap(b.changes[White])]
	nB, nW := 0, 0
	steps := &keySteps[c]
	for d, off := range b.dirs {
		keys := &b.keys[d]
		patsB, patsW := &vb.pats[d], &vw.pats[d]
		wd := pointWeight[d]
		// The stone is at offset -k from a cell k steps ahead of it, and at
		// +k from a cell k steps behind it: keyWeight(-k) = keyDigit[5-k],
		// keyWeight(k) = keyDigit[k+4], and keySteps follows keyDigit.
		j := i
		for k := 1; k <= 5; k++ {
			j += off
			if cell := b.cells[j]; cell != cellEmpty {
				if cell == cellWall {
					break
				}
				continue // an occupied point keeps its stale state (see above)
			}
			kk := keys[j] + steps[5-k]
			keys[j] = kk
			kb, kw := uint16(kk), uint16(kk>>16)
			// Far from the stone the pattern often stays the same: then
			// the point's class and values stand.
			if pb := vb.tab[kb]; pb != patsB[j] {
				old := vb.pointIdx[j]
				logB[nB] = pointChange{cell: uint16(j), index: old, pat: patsB[j], dir: uint8(d)}
				nB++
				vb.pointIdx[j] = old + (uint16(pb&patternMask)-uint16(patsB[j]&patternMask))*wd
				patsB[j] = pb
			}
			if pw := vw.tab[kw]; pw != patsW[j] {
				old := vw.pointIdx[j]
				logW[nW] = pointChange{cell: uint16(j), index: old, pat: patsW[j], dir: uint8(d)}
				nW++
				vw.pointIdx[j] = old + (uint16(pw&patternMask)-uint16(patsW[j]&patternMask))*wd
				patsW[j] = pw
			}
		}
		j = i
		for k := 1; k <= 5; k++ {
			j -= off
			if cell := b.cells[j]; cell != cellEmpty {
				if cell == cellWall {
					break
				}
				continue
			}
			kk := keys[j] + steps[k+4]
			keys[j] = kk
			kb, kw := uint16(kk), uint16(kk>>16)
			if pb := vb.tab[kb]; pb != patsB[j] {
				old := vb.pointIdx[j]
				logB[nB] = pointChange{cell: uint16(j), index: old, pat: patsB[j], dir: uint8(d)}
				nB++
				vb.pointIdx[j] = old + (uint16(pb&patternMask)-uint16(patsB[j]&patternMask))*wd
				patsB[j] = pb
			}
			if pw := vw.tab[kw]; pw != patsW[j] {
				old := vw.pointIdx[j]
				logW[nW] = pointChange{cell: uint16(j), index: old, pat: patsW[j], dir: uint8(d)}
				nW++
				vw.pointIdx[j] = old + (uint16(pw&patternMask)-uint16(patsW[j]&patternMask))*wd
				patsW[j] = pw
			}
		}
	}
	// Then the changed points' classes and the totals, from the log: a
	// loop a colour instead of a call at every change (each point
	// changes at most once a colour in a play, so the order is free).
	refreshChanged(&vb, logB[:nB], full)
	refreshChanged(&vw, logW[:nW], full)
	b.changes[Black] = b.changes[Black][:len(b.changes[Black])+nB]
	b.changes[White] = b.changes[White][:len(b.changes[White])+nW]
}

// colourView addresses one colour's per-point arrays, totals and pattern
// table once, for the loops of a play that update them point by point
// (setNeighbours, refreshChanged): indexing b.threat[c][j] and the like
// at every point recomputed the colour's offset and checked its bounds
// each time (docs/benchmarks.md, twenty-eighth session).
type colourView struct {
	pats       *[4][maxCells]uint8
	pointIdx   *[maxCells]uint16
	threat     *[maxCells]threat
	evalTotal  *[2]int32
	classCount *[numThreats]int16
	tab        *[1 << 16]uint8 // the colour's pattern table (patternTables)
}

// view returns colour c's view of b.
func (b *Board) view(c Color) colourView {
	return colourView{
		pats:       &b.pats[c],
		pointIdx:   &b.pointIdx[c],
		threat:     &b.threat[c],
		evalTotal:  &b.evalTotal[c],
		classCount: &b.classCount[c],
		tab:        patternTables[boolIndex(b.rule.exactFive(c))],
	}
}

// pointWeight[d] is the weight of direction d's pattern in a pointTable
// index: numPatterns^(3-d). When the pattern of a point's line d changes,
// its index changes by the patterns' difference times pointWeight[d]
// (setNeighbours; uint16 arithmetic wraps, so a decrease is an addition
// too).
var pointWeight = [4]uint16{nP * nP * nP, nP * nP, nP, 1}

// nP is numPatterns as a uint16 constant.
const nP = uint16(numPatterns)

// refreshChanged updates, for v's colour, the threat class of each empty
// point of a play's changes (whose pointTable index setNeighbours has
// moved), and keeps the totals, which count empty points, by the
// differences between the entry before the play (the change's index) and
// the new one. When full is false (a light play, threatboard.go) the
// evaluation's sums are left alone: the threat search never reads them,
// and the light undo restores the index they are computed from.
//
// The index is kept with the patterns rather than recomputed from the
// four of them, and the evaluation's values are read from the table
// rather than kept per point: together a quarter fewer instructions in
// the engine's hottest code (docs/benchmarks.md, twenty-eighth session).
// Done from the log after the lines' updates rather than by a call at
// each change, 3.6% fewer instructions (thirty-sixth session).
func refreshChanged(v *colourView, changes []pointChange, full bool) {
	var eval0, eval1 int32
	for _, ch := range changes {
		j := int(ch.cell)
		e := &pointTable[v.pointIdx[j]]
		if full {
			old := &pointTable[ch.index]
			eval0 += e.eval[0] - old.eval[0]
			eval1 += e.eval[1] - old.eval[1]
		}
		if t := v.threat[j]; t != e.threat {
			v.classCount[t]--
			v.classCount[e.threat]++
		}
		v.threat[j] = e.threat
	}
	v.evalTotal[0] += eval0
	v.evalTotal[1] += eval1
}

// refreshPoint recomputes pointIdx[c][j] and threat[c][j] from the four
// patterns.
func (b *Board) refreshPoint(c Color, j int) {
	p := &b.pats[c]
	var k uint16
	for d := range p {
		k += uint16(p[d][j]&patternMask) * pointWeight[d]
	}
	e := &pointTable[k]
	b.pointIdx[c][j] = k
	b.threat[c][j] = e.threat
}

// valueAt returns the pattern score of a stone of colour c at the empty
// cell i, which orders moves: the value of its pointTable entry.
func (b *Board) valueAt(c Color, i int) int32 {
	return pointTable[b.pointIdx[c][i]].value
}

// pointEntry is what the four line patterns of a point make together.
type pointEntry struct {
	value  int32    // for move ordering
	eval   [2]int32 // for the evaluation, per role (evaltable.go)
	threat threat
	best   pattern // the best of the four patterns (maxPattern)
}

// pointTable maps the four line patterns of a point (base numPatterns
// digits, direction 0 first) to its threat class and values: 9^4 entries
// of 16 bytes, 103 KiB. A play or an undo refreshes up to 80 points, and
// the lookup replaced a count-and-classify loop that took a third of the
// search's time.
var pointTable = buildPointTable()

// pointValue is the unoptimised definition pointTable caches: the sum of
// the line values plus the bonus of the combination for the move order,
// and the evaluation's values of the combination (evaltable.go). k is the
// table index of the four patterns.
func pointValue(pats [4]pattern, k int) pointEntry {
	var v int32
	var n [numPatterns]uint8
	for _, p := range pats {
		v += patternValue[p]
		n[p]++
	}
	t := classifyThreat(&n)
	c := comboOf[k]
	return pointEntry{
		value:  v + threatBonus[t],
		eval:   [2]int32{evalW.combo[roleToMove][c], evalW.combo[roleMoved][c]},
		threat: t,
		best:   max(pats[0], pats[1], pats[2], pats[3]),
	}
}

func buildPointTable() []pointEntry {
	const n = int(numPatterns)
	t := make([]pointEntry, n*n*n*n)
	for k := range t {
		var pats [4]pattern
		for d, r := 3, k; d >= 0; d-- {
			pats[d] = pattern(r % n)
			r /= n
		}
		t[k] = pointValue(pats, k)
	}
	return t
}

// addNear adds delta (1 or -1) to the neighbour counts of the 5x5 square
// around i. Each row of the square is five bytes of near, changed with one
// addition to the eight-byte word that starts there (nearRow in its five
// low bytes): a count is at most 25 and never goes below zero (a -1 takes
// back a +1), so no byte carries into or borrows from the next, and the
// three bytes past the row have zero added. Than a byte at a time, 2.8%
// fewer instructions at level 6 (docs/benchmarks.md, thirty-sixth
// session). The last word ends seven cells past the square's last row,
// inside near on every board.
func (b *Board) addNear(i int, delta int) {
	step := uint64(delta) * nearRow // delta -1: -nearRow modulo 2^64
	for dy := -2; dy <= 2; dy++ {
		row := b.near[i+dy*b.stride-2:]
		binary.LittleEndian.PutUint64(row, binary.LittleEndian.Uint64(row)+step)
	}
}

// nearRow has 1 in the five bytes of a row of addNear's square.
const nearRow = 0x0101010101

// makesFive reports whether the stone of colour c at i completes a winning
// line, and records that line.
func (b *Board) makesFive(i int, c Color) bool {
	want := uint8(c) + 1
	exact := b.rule.exactFive(c)
	for _, off := range b.dirs {
		lo, hi := i, i
		for b.cells[lo-off] == want {
			lo -= off
		}
		for b.cells[hi+off] == want {
			hi += off
		}
		n := (hi-lo)/off + 1
		if n >= 5 && !(exact && n > 5) {
			b.winLine = b.winLine[:0]
			for j := lo; j <= hi; j += off {
				b.winLine = append(b.winLine, b.point(j))
			}
			return true
		}
	}
	return false
}

// String draws the board with X for black, O for white, rows numbered from
// the top down as in a diagram.
func (b *Board) String() string {
	var s []byte
	for y := b.size - 1; y >= 0; y-- {
		s = fmt.Appendf(s, "%2d ", y+1)
		for x := 0; x < b.size; x++ {
			switch b.cells[b.index(Point{x, y})] {
			case cellBlack:
				s = append(s, 'X', ' ')
			case cellWhite:
				s = append(s, 'O', ' ')
			default:
				s = append(s, '.', ' ')
			}
		}
		s = append(s[:len(s)-1], '\n')
	}
	s = append(s, "   "...)
	for x := 0; x < b.size; x++ {
		s = append(s, byte('a'+x), ' ')
	}
	s = append(s[:len(s)-1], '\n')
	return string(s)
}

// zobrist holds one random key per colour and cell, from a fixed seed so
// hashes are reproducible across runs.
var zobrist [2][maxCells]uint64

func init() {
	// splitmix64 with a fixed seed: reproducible and well mixed.
	x := uint64(0x9e3779b97f4a7c15)
	for c := range zobrist {
		for i := range zobrist[c] {
			x += 0x9e3779b97f4a7c15
			z := x
			z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
			z = (z ^ z>>27) * 0x94d049bb133111eb
			zobrist[c][i] = z ^ z>>31
		}
	}
}

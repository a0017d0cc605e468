package gomoku

// A light play and undo for the VCF. A VCF node plays two stones (the
// attacker's four and the defender's block), and the board update is most
// of its cost. The VCF reads only the cells, the hash, the line patterns,
// the threat classes with their counts, the ordering values and the win;
// never the evaluation's sums (total, evalTotal, evalValue) nor the
// neighbour counts (near). playLight and undoLight keep what the VCF reads
// exactly as play and undo do and leave the rest untouched. Between a
// playLight and its undoLight the untouched fields are stale, so nothing in
// between may call play, undo or eval: only the VCF runs there, and it
// plays with playLight alone. After undoLight every field is what it was,
// since the patterns are restored and the skipped fields never moved.

// playLight places the side to move's stone at the empty cell i like play,
// keeping only what the VCF reads.
func (b *Board) playLight(i int) {
	c := b.ToMove()
	b.history = append(b.history, i)
	b.stones++
	b.hash ^= zobrist[c][i]
	b.cells[i] = uint8(c) + 1
	b.classCount[Black][b.threat[Black][i]]--
	b.classCount[White][b.threat[White][i]]--
	b.setNeighbours(i, c, keyOwn, keyBlocked, false)
	if b.makesFive(i, c) {
		b.won = true
		b.winner = c
	}
}

// undoLight takes back a stone placed by playLight.
func (b *Board) undoLight() {
	n := len(b.history) - 1
	i := b.history[n]
	b.history = b.history[:n]
	c := Color(b.cells[i] - 1)
	b.stones--
	b.hash ^= zobrist[c][i]
	b.cells[i] = cellEmpty
	b.setNeighbours(i, c, keyEmpty, keyEmpty, false)
	b.classCount[Black][b.threat[Black][i]]++
	b.classCount[White][b.threat[White][i]]++
	b.won = false
	b.winLine = nil
}

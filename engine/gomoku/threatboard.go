package gomoku

// A light play and undo for the VCF. A VCF node plays two stones (the
// attacker's four and the defender's block), and the board update is most
// of its cost. The VCF reads only the cells, the hash, the line patterns,
// the threat classes with their counts, the ordering values and the win;
// never the evaluation's sums (evalTotal) nor the neighbour counts
// (near). playLight and undoLight keep what the VCF reads exactly as play
// and undo do and leave the rest untouched. Between a playLight and its
// undoLight the untouched fields are stale, so nothing in between may
// call play, undo or eval: only the VCF runs there, and it plays with
// playLight alone. After undoLight every field is what it was, since the
// patterns are restored and the skipped fields never moved.

// playLight places the side to move's stone at the empty cell i like play,
// keeping only what the VCF reads.
func (b *Board) playLight(i int) { b.place(i, false) }

// undoLight takes back a stone placed by playLight.
func (b *Board) undoLight() { b.takeBack(false) }

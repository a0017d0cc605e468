package gomoku

// Foul names why a point is forbidden to black under renju, in the players' words.
type Foul string

// The renju fouls. A point can be more than one; the first that applies, in this order, is
// named.
const (
	NoFoul      Foul = ""            // the point is not forbidden
	Overline    Foul = "overline"    // six or more in a row
	DoubleFour  Foul = "double four" // two fours at once
	DoubleThree Foul = "double three"
)

// FoulAt says why a black stone at p would be forbidden under renju, or NoFoul if it would
// not be (or p is not an empty point of a renju board with black to move). It applies the
// same test as IsLegal, once more, to name the reason; call it only to explain a refusal.
func (b *Board) FoulAt(p Point) Foul {
	if b.rule != Renju || !p.in(b.size) || b.ToMove() != Black || b.Over() {
		return NoFoul
	}
	i := b.index(p)
	if b.cells[i] != cellEmpty || !b.isForbidden(i) {
		return NoFoul
	}
	b.cells[i] = cellBlack
	defer func() { b.cells[i] = cellEmpty }()
	fours, threes := 0, 0
	for _, off := range b.dirs {
		if n, _, _ := b.blackRun(i, off); n > 5 {
			return Overline
		}
		f := b.fours(i, off)
		fours += f
		if f == 0 && b.isThree(i, off, 0) {
			threes++
		}
	}
	switch {
	case fours >= 2:
		return DoubleFour
	case threes >= 2:
		return DoubleThree
	}
	return Overline // isForbidden said so; only an overline is left
}

package gomoku

// A slow, obvious VCF solver used as an oracle: it reads stones through
// the public API only (At, Play, Undo) and finds fives by counting runs,
// with none of the engine's pattern tables. Freestyle and standard only.

// naiveFive reports whether a stone of colour c at the empty point p
// would win under b's rule.
func naiveFive(b *Board, p Point, c Color) bool {
	exact := b.Rule().exactFive(c)
	for _, d := range [4]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, s := range [2]int{1, -1} {
			q := Point{p.X + s*d.X, p.Y + s*d.Y}
			for {
				col, ok := b.At(q)
				if !ok || col != c {
					break
				}
				n++
				q = Point{q.X + s*d.X, q.Y + s*d.Y}
			}
		}
		if n >= 5 && !(exact && n > 5) {
			return true
		}
	}
	return false
}

// naiveFives lists the empty points where c would win.
func naiveFives(b *Board, c Color) []Point {
	var out []Point
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			p := Point{x, y}
			if _, occ := b.At(p); !occ && naiveFive(b, p, c) {
				out = append(out, p)
			}
		}
	}
	return out
}

// naiveVCF reports whether the side to move wins by continuous fours in at
// most n attacker moves, and the first move of such a win.
func naiveVCF(b *Board, n int) (Point, bool) {
	me := b.ToMove()
	opp := me.Other()
	if f := naiveFives(b, me); len(f) > 0 {
		return f[0], true
	}
	if n == 0 {
		return Point{}, false
	}
	oppFives := naiveFives(b, opp)
	if len(oppFives) > 1 {
		return Point{}, false
	}
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			p := Point{x, y}
			if len(oppFives) == 1 && p != oppFives[0] {
				continue
			}
			if b.IsLegal(p) != nil {
				continue
			}
			b.Play(p)
			win := false
			threats := naiveFives(b, me)
			switch {
			case len(threats) >= 2:
				win = len(naiveFives(b, opp)) == 0
			case len(threats) == 1 && len(naiveFives(b, opp)) == 0:
				if b.Play(threats[0]) == nil {
					_, win = naiveVCF(b, n-1)
					b.Undo()
				}
			}
			b.Undo()
			if win {
				return p, true
			}
		}
	}
	return Point{}, false
}

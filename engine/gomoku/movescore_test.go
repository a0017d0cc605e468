package gomoku

import (
	"testing"
	"unsafe"
)

// TestMoveFeatures checks that every candidate of a few game positions
// has one feature in each group, inside the group's range.
func TestMoveFeatures(t *testing.T) {
	groups := []int{featClassPair, featMinePattern, featOppPattern, featDistLast, featDistPrev, featMineValue, featOppValue, numMoveFeatures}
	for _, p := range safeChoicePositions[:5] {
		b := boardFrom(t, Freestyle, p.record)
		for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
			if b.cells[i] != cellEmpty || b.near[i] == 0 {
				continue
			}
			var buf [8]int
			f := moveFeatures(b, i, buf[:0])
			if len(f) != len(groups)-1 {
				t.Fatalf("%s %v: %d features, want %d", p.record, b.point(i), len(f), len(groups)-1)
			}
			for g, j := range f {
				if j < groups[g] || j >= groups[g+1] {
					t.Errorf("%s %v: feature %d = %d, outside [%d, %d)", p.record, b.point(i), g, j, groups[g], groups[g+1])
				}
			}
		}
	}
}

// TestMoveScoreFeatures checks that the move score (with its summed
// terms, moveTerms) is the sum of the values of the move's features on
// every candidate of a few game positions, for both sides to move.
func TestMoveScoreFeatures(t *testing.T) {
	for _, p := range safeChoicePositions[:5] {
		b := boardFrom(t, Freestyle, p.record)
		for pass := 0; pass < 2; pass++ {
			s := newMoveScorer(b)
			for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
				if b.cells[i] != cellEmpty || b.near[i] == 0 {
					continue
				}
				var buf [8]int
				var want int32
				for _, f := range moveFeatures(b, i, buf[:0]) {
					want += moveScoreTable[f]
				}
				if got := s.score(i); got != want {
					t.Errorf("%s %v: score %d, features sum to %d", p.record, b.point(i), got, want)
				}
			}
			// The other side to move: play a quiet far point (a corner).
			if pass == 0 {
				corner := b.index(Point{0, 0})
				if b.cells[corner] != cellEmpty {
					break
				}
				b.play(corner)
			}
		}
	}
}

// TestMoveScoreRanks checks the fitted score on plain cases: a move that
// makes an open three beside the last stones scores above a quiet point
// far from them, and a four-three above the open three.
func TestMoveScoreRanks(t *testing.T) {
	// Black h8 i8 (white i9 j10 elsewhere): black to move.
	b := boardFrom(t, Freestyle, "h8i9i8j10")
	three, far := b.index(Point{X: 9, Y: 7}), b.index(Point{X: 3, Y: 11}) // j8, d12
	if b.threat[Black][three] != tThree {
		t.Fatalf("j8: class %d, want an open three", b.threat[Black][three])
	}
	if s3, sf := moveScore(b, three), moveScore(b, far); s3 <= sf {
		t.Errorf("open three j8 scores %d, quiet far point d12 %d: want the three above", s3, sf)
	}
	// Black h8 i8 j8 (white in the corners), black to move: g8 and k8
	// make an open four, which must score above every move that makes no
	// four.
	b = boardFrom(t, Freestyle, "h8a1i8a15j8o1")
	g8 := b.index(Point{X: 6, Y: 7})
	if b.threat[Black][g8] != tFlex4 {
		t.Fatalf("g8: class %d, want an open four", b.threat[Black][g8])
	}
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] == cellEmpty && b.near[i] > 0 && !isFourClass(b.threat[Black][i]) && moveScore(b, i) >= moveScore(b, g8) {
			t.Errorf("%v scores %d, the open four g8 %d", b.point(i), moveScore(b, i), moveScore(b, g8))
		}
	}
}

// TestScoredSize checks that the fitted score kept in scored fits the
// struct's padding: a move list is no larger than with the move and its
// ordering score alone (on 64-bit platforms, where an int leaves four
// bytes of padding after the int32).
func TestScoredSize(t *testing.T) {
	if unsafe.Sizeof(int(0)) < 8 {
		t.Skip("no padding to fill with 32-bit ints")
	}
	type bare struct {
		move  int
		score int32
	}
	if got, want := unsafe.Sizeof(scored{}), unsafe.Sizeof(bare{}); got != want {
		t.Errorf("scored takes %d bytes, want %d", got, want)
	}
}

// TestGenMovesFit checks that level 6's genMoves keeps, for every move,
// the fitted score of the move on the board before it is played (what
// the weak-three reduction tests), at the nodes of a few game positions
// and of the positions one move after them.
func TestGenMovesFit(t *testing.T) {
	e := &Engine{opt: levelOptions(6)}
	var buf [maxMoves]scored
	check := func(b *Board) {
		for _, m := range e.genMoves(b, buf[:0], -1, 1) {
			if want := moveScore(b, m.move); m.fit != want {
				t.Errorf("%s %v: genMoves keeps %d, moveScore before the move %d", FormatRecord(b.Moves()), b.point(m.move), m.fit, want)
			}
		}
	}
	for _, p := range safeChoicePositions[:5] {
		b := boardFrom(t, Freestyle, p.record)
		check(b)
		for _, m := range e.genMoves(b, nil, -1, 1)[:3] {
			b.play(m.move)
			check(b)
			b.undo()
		}
	}
}

// TestMoveScoreFilledCell checks that scoring a filled cell (a move
// already played) panics instead of reading a wrong board.
func TestMoveScoreFilledCell(t *testing.T) {
	b := boardFrom(t, Freestyle, "h8i9")
	defer func() {
		if recover() == nil {
			t.Error("moveScore of a filled cell did not panic")
		}
	}()
	moveScore(b, b.index(Point{X: 7, Y: 7}))
}

// TestDistanceBuckets checks the move score's table of distance buckets
// by cell difference against the Chebyshev distance of the coordinates
// (distanceBucket's definition), for every pair of distinct on-board
// cells of every board size.
func TestDistanceBuckets(t *testing.T) {
	for _, size := range []int{15, 19, 20} {
		b, _ := NewBoard(size, Freestyle)
		tab := distanceBuckets[size-minSize]
		for i := b.firstCell(); i <= b.lastCell(); i++ {
			if b.cells[i] == cellWall {
				continue
			}
			for j := b.firstCell(); j <= b.lastCell(); j++ {
				if b.cells[j] == cellWall || j == i {
					continue
				}
				p, q := b.point(i), b.point(j)
				want := min(max(abs(p.X-q.X), abs(p.Y-q.Y)), numDistances) - 1
				if got := int(tab[uint(i-j+distanceSpan/2)%distanceSpan]); got != want {
					t.Fatalf("%dx%d: %v from %v: bucket %d, want %d", size, size, p, q, got, want)
				}
			}
		}
	}
}

package gomoku

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// setup builds a position from black and white stones given as notation
// ("h8 i9"), playing them alternately without legality checks so that
// composed positions (which a game could not reach in this order) are
// possible. Missing stones of one colour are padded with stones in the far
// corners, which touch nothing of interest.
func setup(t testing.TB, size int, r Rule, black, white string) *Board {
	t.Helper()
	return setupTurn(t, size, r, black, white, Black)
}

// setupTurn is setup with a choice of the side to move.
func setupTurn(t testing.TB, size int, r Rule, black, white string, toMove Color) *Board {
	t.Helper()
	b, err := NewBoard(size, r)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ParseRecord(black, size)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := ParseRecord(white, size)
	if err != nil {
		t.Fatal(err)
	}
	used := map[Point]bool{}
	for _, p := range append(append([]Point(nil), bs...), ws...) {
		used[p] = true
	}
	var fillers []Point
	for _, y := range []int{0, size - 1} {
		for x := 0; x < size; x += 3 {
			if p := (Point{x, y}); !used[p] {
				fillers = append(fillers, p)
			}
		}
	}
	extra := int(toMove) // white to move: black has one stone more
	for len(ws) < len(bs)-extra {
		ws = append(ws, fillers[0])
		fillers = fillers[1:]
	}
	for len(bs) < len(ws)+extra {
		bs = append(bs, fillers[0])
		fillers = fillers[1:]
	}
	for k := range bs {
		pair := []Point{bs[k]}
		if k < len(ws) {
			pair = append(pair, ws[k])
		}
		for _, p := range pair {
			i := b.index(p)
			if b.cells[i] != cellEmpty {
				t.Fatalf("setup: %v twice", p)
			}
			b.play(i)
		}
	}
	return b
}

func TestParseRule(t *testing.T) {
	tests := []struct {
		in   string
		want Rule
		bad  bool
	}{
		{"freestyle", Freestyle, false},
		{"Standard", Standard, false},
		{"exactly-five", Standard, false},
		{"RENJU", Renju, false},
		{"caro", 0, true},
		{"", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRule(tc.in)
			if (err != nil) != tc.bad {
				t.Fatalf("ParseRule(%q) error %v, want error %v", tc.in, err, tc.bad)
			}
			if !tc.bad && (got != tc.want || got.String() != strings.Replace(strings.ToLower(tc.in), "exactly-five", "standard", 1)) {
				t.Fatalf("ParseRule(%q) = %v", tc.in, got)
			}
		})
	}
}

func TestParsePoint(t *testing.T) {
	tests := []struct {
		name string
		in   string
		size int
		want Point
		bad  bool
	}{
		{"centre", "h8", 15, Point{7, 7}, false},
		{"corner", "a1", 15, Point{0, 0}, false},
		{"upper case", "O15", 15, Point{14, 14}, false},
		{"19x19 corner", "s19", 19, Point{18, 18}, false},
		{"20x20 corner", "t20", 20, Point{19, 19}, false},
		{"off 19x19", "t1", 19, Point{}, true},
		{"off 15x15", "p1", 15, Point{}, true},
		{"row 16 on 15", "a16", 15, Point{}, true},
		{"row zero", "a0", 15, Point{}, true},
		{"leading zero", "a01", 15, Point{}, true},
		{"no row", "h", 15, Point{}, true},
		{"trailing", "h8x", 15, Point{}, true},
		{"empty", "", 15, Point{}, true},
		{"digit first", "8h", 15, Point{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePoint(tc.in, tc.size)
			if (err != nil) != tc.bad {
				t.Fatalf("ParsePoint(%q) error %v, want error %v", tc.in, err, tc.bad)
			}
			if !tc.bad {
				if got != tc.want {
					t.Fatalf("ParsePoint(%q) = %v, want %v", tc.in, got, tc.want)
				}
				if got.String() != strings.ToLower(tc.in) {
					t.Fatalf("String() = %q, want %q", got.String(), strings.ToLower(tc.in))
				}
			}
		})
	}
}

func TestParseRecord(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		bad  bool
	}{
		{"run together", "h8i9j10", "h8i9j10", false},
		{"spaces", "h8 i9  j10", "h8i9j10", false},
		{"commas", "H8,I9,A11,B2", "h8i9a11b2", false},
		{"empty", "", "", false},
		{"off board", "h8 z1", "", true},
		{"junk", "h8 ?", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRecord(tc.in, 15)
			if (err != nil) != tc.bad {
				t.Fatalf("ParseRecord(%q) error %v, want error %v", tc.in, err, tc.bad)
			}
			if !tc.bad && FormatRecord(got) != tc.want {
				t.Fatalf("ParseRecord(%q) = %q, want %q", tc.in, FormatRecord(got), tc.want)
			}
		})
	}
}

func TestNewBoardErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		r    Rule
	}{{"size 13", 13, Freestyle}, {"size 21", 21, Standard}, {"size 16", 16, Freestyle}, {"renju on 19", 19, Renju}, {"bad rule", 15, Rule(7)}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewBoard(tc.size, tc.r); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

// TestWin plays a last stone and checks the result under each rule.
func TestWin(t *testing.T) {
	tests := []struct {
		name   string
		r      Rule
		black  string // black stones before the last move
		white  string
		last   string // the last move (by the side to move)
		over   bool
		winner Color
		line   string
	}{
		{"freestyle five row", Freestyle, "d8 e8 f8 g8", "d9 e9 f9 g9", "h8", true, Black, "d8e8f8g8h8"},
		{"freestyle five column", Freestyle, "h4 h5 h6 h7", "a9 b9 c9 e9", "h8", true, Black, "h4h5h6h7h8"},
		{"freestyle five diagonal", Freestyle, "d4 e5 f6 g7", "a9 b9 c9 e9", "h8", true, Black, "d4e5f6g7h8"},
		{"freestyle five anti-diagonal", Freestyle, "l4 k5 j6 i7", "a9 b9 c9 e9", "h8", true, Black, "l4k5j6i7h8"},
		{"freestyle overline wins", Freestyle, "c8 d8 e8 f8 h8", "c9 d9 e9 f9 i9", "g8", true, Black, "c8d8e8f8g8h8"},
		{"standard exact five", Standard, "d8 e8 f8 g8", "d9 e9 f9 g9", "h8", true, Black, "d8e8f8g8h8"},
		{"standard overline does not win", Standard, "c8 d8 e8 f8 h8", "c9 d9 e9 f9 i9", "g8", false, 0, ""},
		{"standard white overline does not win", Standard, "a1 a3 a5 a7 a9 a11 a13", "c8 d8 e8 f8 h8", "g8", false, 0, ""},
		{"renju white overline wins", Renju, "a1 a3 a5 a7 a9 a11 a13", "c8 d8 e8 f8 h8", "g8", true, White, "c8d8e8f8g8h8"},
		{"renju black exact five", Renju, "d8 e8 f8 g8", "d9 e9 f9 g9", "h8", true, Black, "d8e8f8g8h8"},
		{"four is not a win", Freestyle, "d8 e8 f8", "d9 e9 f9", "g8", false, 0, ""},
		{"edge five", Freestyle, "a1 a2 a3 a4", "c1 c2 c3 c4", "a5", true, Black, "a1a2a3a4a5"},
		{"19x19 five", Freestyle, "p19 q19 r19 s19", "p1 q1 r1 s1", "o19", true, Black, "o19p19q19r19s19"},
		{"20x20 five", Freestyle, "q20 r20 s20 t20", "q1 r1 s1 t1", "p20", true, Black, "p20q20r20s20t20"},
		{"20x20 edge standard six", Standard, "o20 p20 q20 s20 t20", "o1 p1 q1 s1 t1", "r20", false, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			size := 15
			if strings.Contains(tc.name, "19x19") {
				size = 19
			}
			if strings.Contains(tc.name, "20x20") {
				size = 20
			}
			toMove := Black
			if strings.Contains(tc.name, "white") {
				toMove = White
			}
			b := setupTurn(t, size, tc.r, tc.black, tc.white, toMove)
			p, err := ParsePoint(tc.last, size)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Play(p); err != nil {
				t.Fatalf("Play(%v): %v\n%v", p, err, b)
			}
			c, over := b.Winner()
			if over != tc.over || (over && c != tc.winner) {
				t.Fatalf("Winner() = %v, %v; want %v, %v\n%v", c, over, tc.winner, tc.over, b)
			}
			if got := FormatRecord(b.WinningLine()); got != tc.line {
				t.Fatalf("WinningLine() = %q, want %q", got, tc.line)
			}
			if over {
				if err := b.Play(Point{0, 14}); !errors.Is(err, ErrGameOver) {
					t.Fatalf("Play after the end: %v, want ErrGameOver", err)
				}
			}
			if err := b.Undo(); err != nil {
				t.Fatal(err)
			}
			if _, over := b.Winner(); over {
				t.Fatal("still over after Undo")
			}
		})
	}
}

// TestRenjuForbidden checks black's forbidden points on composed positions,
// including false threes (a three whose only extension is itself forbidden
// or blocked) and a five that beats a forbidden shape.
func TestRenjuForbidden(t *testing.T) {
	tests := []struct {
		name      string
		black     string
		white     string
		at        string
		forbidden bool
	}{
		{"double three", "f8 g8 h6 h7", "", "h8", true},
		{"double three with a split three", "f8 g8 h5 h7", "", "h8", true},
		{"three and a dead three", "f8 g8 h6 h7", "h5", "h8", false},
		{"double four", "f8 g8 i8 h5 h6 h7", "", "h8", true},
		{"two dead fours", "e8 f8 g8 h5 h6 h7", "d8 h4", "h8", true},
		{"double four on one line", "d8 f8 h8 j8", "", "g8", true},
		{"four-three is allowed", "f8 g8 i8 h6 h7", "", "h8", false},
		{"overline", "d8 e8 f8 g8 i8", "", "h8", true},
		{"overline of seven", "c8 d8 e8 f8 h8 i8", "", "g8", true},
		{"five beats double three", "d8 e8 f8 g8 h6 h7 i9 j10", "", "h8", false},
		{"five beats overline", "d8 e8 f8 g8 h5 h6 h7 h9 h10 h11", "", "h8", false},
		{"overline of seven across", "h5 h6 h7 h9 h10 h11", "", "h8", true},
		{"false three: extension is an overline", "e8 f8 g6 g7 h6 h7 h9 h10 h11", "c8", "g8", false},
		{"control: same three is real without the overline", "e8 f8 g6 g7", "c8", "g8", true},
		{"false three: both ends blocked beyond", "f8 g8 h6 h7", "d8 j8 e8", "h8", false},
		{"dead three beside a stone", "f8 g8 h6 h7", "e8", "h8", false},
		{"three with a stone one step away", "f8 g8 h6 h7", "d8", "h8", true},
		{"single three", "f8 g8", "", "h8", false},
		{"split double three", "f8 h8 g6 g10", "", "g8", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := setup(t, 15, Renju, tc.black, tc.white)
			p, _ := ParsePoint(tc.at, 15)
			if b.ToMove() != Black {
				t.Fatalf("setup left %v to move", b.ToMove())
			}
			err := b.IsLegal(p)
			if got := errors.Is(err, ErrForbidden); got != tc.forbidden {
				t.Fatalf("IsLegal(%v) = %v, want forbidden %v\n%v", p, err, tc.forbidden, b)
			}
			// The quick filter must agree with the exact test.
			if exact := b.forbiddenAt(b.index(p), 0); exact != tc.forbidden {
				t.Fatalf("forbiddenAt(%v) = %v, want %v", p, exact, tc.forbidden)
			}
			// The same point is never forbidden for white or under other rules.
			for _, r := range []Rule{Freestyle, Standard} {
				o := setup(t, 15, r, tc.black, tc.white)
				if err := o.IsLegal(p); err != nil {
					t.Fatalf("%v: IsLegal(%v) = %v", r, p, err)
				}
			}
		})
	}
}

// TestPlayErrors checks that illegal moves leave the board unchanged.
func TestPlayErrors(t *testing.T) {
	b := setup(t, 15, Renju, "f8 g8 h6 h7", "a15 b15 c15 d15")
	before := snapshot(b)
	for _, tc := range []struct {
		name string
		p    Point
		want error
	}{
		{"off board", Point{15, 3}, ErrOffBoard},
		{"negative", Point{-1, 3}, ErrOffBoard},
		{"occupied", Point{5, 7}, ErrOccupied},
		{"forbidden", Point{7, 7}, ErrForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := b.Play(tc.p); !errors.Is(err, tc.want) {
				t.Fatalf("Play(%v) = %v, want %v", tc.p, err, tc.want)
			}
			if snapshot(b) != before {
				t.Fatal("board changed by an illegal move")
			}
		})
	}
	e, _ := NewBoard(15, Freestyle)
	if err := e.Undo(); !errors.Is(err, ErrNoMoves) {
		t.Fatalf("Undo on empty board = %v", err)
	}
}

// state is everything Play and Undo maintain, for exact comparisons.
type state struct {
	cells      [maxCells]uint8
	keys       [4][maxCells]uint32
	pats       [2][4][maxCells]uint8
	threat     [2][maxCells]threat
	pointIdx   [2][maxCells]uint16
	near       [maxCells]uint8
	evalTotal  [2][2]int32
	classCount [2][numThreats]int16
	hash       uint64
	stones     int
	won        bool
}

func snapshot(b *Board) state {
	return state{b.cells, b.keys, b.pats, b.threat, b.pointIdx, b.near, b.evalTotal, b.classCount, b.hash, b.stones, b.won}
}

// randomGame plays random legal moves near the stones until the game ends
// or n moves are played, checking on the way that the incremental state
// equals a board rebuilt from scratch and that Undo restores it exactly.
func randomGame(t testing.TB, seed int64, size int, r Rule, n int) {
	rng := rand.New(rand.NewSource(seed))
	b, err := NewBoard(size, r)
	if err != nil {
		t.Fatal(err)
	}
	var before []state
	for len(b.history) < n && !b.Over() {
		var p Point
		for tries := 0; ; tries++ {
			p = Point{rng.Intn(size), rng.Intn(size)}
			if len(b.history) > 0 && tries < 50 {
				last := b.point(b.history[rng.Intn(len(b.history))])
				p = Point{last.X + rng.Intn(5) - 2, last.Y + rng.Intn(5) - 2}
			}
			if b.IsLegal(p) == nil {
				break
			}
			if tries > 10000 {
				t.Fatalf("no legal move found\n%v", b)
			}
		}
		before = append(before, snapshot(b))
		if err := b.Play(p); err != nil {
			t.Fatal(err)
		}
		checkFromCells(t, b)
	}
	// Oracle: replaying the moves on a fresh board gives the same state.
	// (A replay in the same order also gives the occupied points' stale
	// state; checkFromCells checks the empty points against the cells.)
	fresh, _ := NewBoard(size, r)
	for _, m := range b.Moves() {
		fresh.play(fresh.index(m))
	}
	if snapshot(fresh) != snapshot(b) {
		t.Fatalf("seed %d: incremental state differs from a rebuilt board", seed)
	}
	for k := len(before) - 1; k >= 0; k-- {
		if err := b.Undo(); err != nil {
			t.Fatal(err)
		}
		if snapshot(b) != before[k] {
			t.Fatalf("seed %d: Undo of move %d did not restore the board", seed, k+1)
		}
	}
}

// checkFromCells checks the incremental state of every empty point (both
// colours' keys, patterns, pointTable indices and threat classes), the
// totals over the empty points and every point's neighbour count against
// what the cells alone give, computed the slow way. An occupied point's
// state is left out: a play does not update the points its lines cross
// that hold stones (their state is stale until the stone is taken back,
// when it is right again).
func checkFromCells(t testing.TB, b *Board) {
	t.Helper()
	var evalTotal [2][2]int32
	var classCount [2][numThreats]int16
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] != cellEmpty {
			continue
		}
		for c := Black; c <= White; c++ {
			tab := patternTables[boolIndex(b.rule.exactFive(c))]
			var k uint16
			for d, off := range b.dirs {
				var key uint16
				for n := -5; n <= 5; n++ {
					if n == 0 {
						continue
					}
					switch b.cells[i+n*off] {
					case cellEmpty:
					case uint8(c) + 1:
						key += keyOwn * keyWeight(n)
					default: // the other colour or the wall
						key += keyBlocked * keyWeight(n)
					}
				}
				if b.keyOf(c, d, i) != key {
					t.Fatalf("%v at %v, line %d: key %d, from the cells %d\n%v", c, b.point(i), d, b.keyOf(c, d, i), key, b)
				}
				if b.pats[c][d][i] != tab[key] {
					t.Fatalf("%v at %v, line %d: pattern %#x, from the cells %#x\n%v", c, b.point(i), d, b.pats[c][d][i], tab[key], b)
				}
				k += uint16(tab[key]&patternMask) * pointWeight[d]
			}
			e := &pointTable[k]
			if b.pointIdx[c][i] != k || b.threat[c][i] != e.threat {
				t.Fatalf("%v at %v: index %d, class %d; from the cells %d, %d\n%v",
					c, b.point(i), b.pointIdx[c][i], b.threat[c][i], k, e.threat, b)
			}
			evalTotal[c][0] += e.eval[0]
			evalTotal[c][1] += e.eval[1]
			classCount[c][e.threat]++
		}
	}
	// The neighbour counts, at every point.
	for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
		if b.cells[i] == cellWall {
			continue
		}
		n := 0
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if c := b.cells[i+dy*b.stride+dx]; c == cellBlack || c == cellWhite {
					n++
				}
			}
		}
		if int(b.near[i]) != n {
			t.Fatalf("at %v: %d stones near, from the cells %d\n%v", b.point(i), b.near[i], n, b)
		}
	}
	if b.evalTotal != evalTotal || b.classCount != classCount {
		t.Fatalf("totals %v %v, from the cells %v %v\n%v", b.evalTotal, b.classCount, evalTotal, classCount, b)
	}
}

// TestFiveClass checks what place relies on to skip makesFive: a stone
// makes five exactly where its point's class is tFive, for both colours
// at every empty point of random games under every rule; and that
// maxPattern, read from pointTable, is the best of the four patterns.
func TestFiveClass(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		for _, r := range []Rule{Freestyle, Standard, Renju} {
			rng := rand.New(rand.NewSource(seed))
			b, _ := NewBoard(15, r)
			for !b.Over() && len(b.history) < 150 {
				for i, last := b.firstCell(), b.lastCell(); i <= last; i++ {
					if b.cells[i] != cellEmpty {
						continue
					}
					for c := Black; c <= White; c++ {
						best := pNone
						for d := range 4 {
							best = max(best, pattern(b.pats[c][d][i]&patternMask))
						}
						if got := b.maxPattern(c, i); got != best {
							t.Fatalf("seed %d %v: %v at %v: maxPattern %d, best pattern %d", seed, r, c, b.point(i), got, best)
						}
						b.cells[i] = uint8(c) + 1
						five := b.makesFive(i, c)
						b.cells[i] = cellEmpty
						b.winLine = nil
						if five != (b.threat[c][i] == tFive) {
							t.Fatalf("seed %d %v: %v at %v: makesFive %v, class %d\n%v", seed, r, c, b.point(i), five, b.threat[c][i], b)
						}
					}
				}
				p := Point{rng.Intn(15), rng.Intn(15)}
				if len(b.history) > 0 {
					last := b.point(b.history[len(b.history)-1])
					p = Point{last.X + rng.Intn(7) - 3, last.Y + rng.Intn(7) - 3}
				}
				b.Play(p) // an illegal point is skipped
			}
		}
	}
}

func TestRandomGamesUndo(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		for _, r := range []Rule{Freestyle, Standard, Renju} {
			randomGame(t, seed, 15, r, 225)
		}
		randomGame(t, seed, 19, Standard, 361)
	}
}

func FuzzRandomGame(f *testing.F) {
	f.Add(int64(1), uint8(0), false)
	f.Add(int64(7), uint8(1), true)
	f.Add(int64(42), uint8(2), false)
	f.Fuzz(func(t *testing.T, seed int64, rule uint8, big bool) {
		r := Rule(rule % 3)
		size := 15
		if big && r != Renju {
			size = 19
		}
		randomGame(t, seed, size, r, size*size)
	})
}

func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{"h8i9j10", "a1 o15", "H8,I9", "", "z99", "a", "h8 h8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParseRecord(s, 15)
		if err != nil {
			return
		}
		again, err := ParseRecord(FormatRecord(moves), 15)
		if err != nil || FormatRecord(again) != FormatRecord(moves) {
			t.Fatalf("round trip of %q: %v %v", s, again, err)
		}
		for _, m := range moves {
			if !m.in(15) {
				t.Fatalf("%v off the board", m)
			}
		}
	})
}

func TestFullBoardDraw(t *testing.T) {
	// Fill the board in a pattern without five in a row: alternating
	// stones along each row, the phase shifting every second row, which
	// leaves no five in any direction (113 black, 112 white stones).
	b, _ := NewBoard(15, Freestyle)
	colour := func(x, y int) Color {
		return Color((x + y/2) % 2)
	}
	var blacks, whites []Point
	for y := 0; y < 15; y++ {
		for x := 0; x < 15; x++ {
			if colour(x, y) == Black {
				blacks = append(blacks, Point{x, y})
			} else {
				whites = append(whites, Point{x, y})
			}
		}
	}
	if len(blacks) != len(whites)+1 {
		t.Skipf("pattern has %d black and %d white stones", len(blacks), len(whites))
	}
	for k := range blacks {
		if err := b.Play(blacks[k]); err != nil {
			t.Fatalf("move %d: %v\n%v", 2*k, err, b)
		}
		if k < len(whites) {
			if err := b.Play(whites[k]); err != nil {
				t.Fatalf("move %d: %v\n%v", 2*k+1, err, b)
			}
		}
	}
	if !b.Draw() || !b.Over() {
		t.Fatalf("full board: Draw() = %v\n%v", b.Draw(), b)
	}
	if _, over := b.Winner(); !over {
		t.Fatal("Winner() not over on a full board")
	}
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"h8", "A1", "s19", "o15", "p16", "a0", "", "zz", "h 8"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, big bool) {
		size := 15
		if big {
			size = 19
		}
		p, err := ParsePoint(s, size)
		if err != nil {
			return
		}
		if !p.in(size) {
			t.Fatalf("ParsePoint(%q) = %v, off the board", s, p)
		}
		if q, err := ParsePoint(p.String(), size); err != nil || q != p {
			t.Fatalf("round trip of %q: %v %v", s, q, err)
		}
	})
}

// TestByteTests checks the word-at-a-time byte tests of the board scans
// (movegen.go) against their byte-by-byte definitions: every byte value
// at every position of a word whose other bytes are random.
func TestByteTests(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for pos := 0; pos < 8; pos++ {
		for v := 0; v < 256; v++ {
			x := rng.Uint64()&^(0xff<<(8*pos)) | uint64(v)<<(8*pos)
			nz, z := nonZeroBytes(x), zeroBytes(x)
			for k := 0; k < 8; k++ {
				bv := uint8(x >> (8 * k))
				bit := uint64(0x80) << (8 * k)
				if (nz&bit != 0) != (bv != 0) || (z&bit != 0) != (bv == 0) {
					t.Fatalf("%#x byte %d (%#x): nonZeroBytes %#x, zeroBytes %#x", x, k, bv, nz, z)
				}
			}
			if nz&^highBits != 0 || z&^highBits != 0 {
				t.Fatalf("%#x: bits outside the high bits: %#x, %#x", x, nz, z)
			}
			if v >= 0x80 {
				continue
			}
			y := x & low7Bits // atLeastBytes takes bytes below 0x80
			for th := 1; th <= 0x80; th++ {
				ge := atLeastBytes(y, uint8(th))
				for k := 0; k < 8; k++ {
					bv := uint8(y >> (8 * k))
					if bit := uint64(0x80) << (8 * k); (ge&bit != 0) != (bv >= uint8(th)) {
						t.Fatalf("%#x byte %d (%#x) at least %d: %#x", y, k, bv, th, ge)
					}
				}
				if ge&^highBits != 0 {
					t.Fatalf("%#x at least %d: bits outside the high bits: %#x", y, th, ge)
				}
			}
		}
	}
	b, _ := NewBoard(15, Freestyle)
	s := []threat{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if got := word(s); got != 0x0807060504030201 {
		t.Errorf("word of 1..8 = %#x", got)
	}
	if got := b.emptyCells(b.lastCell()); got != 0x80 {
		t.Errorf("emptyCells at the last cell = %#x, want the last cell alone", got)
	}
}

// TestScans checks the board scans that read eight cells at a time
// against the plain cell-by-cell loops, for both colours at every
// position of random games under every rule: fiveCells, openFourMove,
// fourMoves, threatMoves, threeDefences' and scanMoves' candidates.
func TestScans(t *testing.T) {
	for _, r := range []Rule{Freestyle, Standard, Renju} {
		for seed := int64(1); seed <= 4; seed++ {
			rng := rand.New(rand.NewSource(seed))
			e := &Engine{opt: levelOptions(6)}
			b, _ := NewBoard(15, r)
			b.play(b.index(Point{7, 7}))
			for !b.Over() && b.MoveCount() < 150 {
				me, opp := b.ToMove(), b.ToMove().Other()
				var fives, fours, threes, cands []int
				openFour := -1
				for i := b.firstCell(); i <= b.lastCell(); i++ {
					if b.cells[i] != cellEmpty {
						continue
					}
					if b.threat[me][i] == tFive {
						fives = append(fives, i)
					}
					if isFourClass(b.threat[me][i]) && b.legalFor(me, i) {
						fours = append(fours, i)
					}
					if openFour < 0 && b.threat[me][i] == tFlex4 && b.legalFor(me, i) {
						openFour = i
					}
					if b.threat[me][i] >= tThree && b.near[i] > 0 && b.legalFor(me, i) {
						threes = append(threes, i)
					}
					if b.near[i] > 0 && (b.classCount[opp][tFlex4] == 0 || isFourClass(b.threat[me][i]) || b.maxPattern(opp, i) >= pB4) {
						cands = append(cands, i)
					}
				}
				var buf [maxMoves]scored
				cells := func(s []scored) (out []int) {
					for _, m := range s {
						out = append(out, m.move)
					}
					slices.Sort(out)
					return out
				}
				check := func(what string, got, want []int) {
					if !slices.Equal(got, want) {
						t.Fatalf("%v %s: %s %v, cell by cell %v", r, FormatRecord(b.Moves()), what, got, want)
					}
				}
				check("fiveCells", b.fiveCells(me, nil), fives)
				if i, ok := b.openFourMove(me); ok != (openFour >= 0) || ok && i != openFour {
					t.Fatalf("%v %s: openFourMove %d, %v; cell by cell %d", r, FormatRecord(b.Moves()), i, ok, openFour)
				}
				check("fourMoves", cells(e.fourMoves(b, me, buf[:0])), fours)
				check("threatMoves", cells(e.threatMoves(b, buf[:0])), threes)
				check("scanMoves", cells(e.scanMoves(b, buf[:0], -1, 1)), cands)
				if b.classCount[opp][tFlex4] > 0 {
					// threeDefences' fallback: every point where the
					// attacker (opp) would make a four, or the defender one.
					var defs []int
					for _, i := range cands {
						if (b.maxPattern(opp, i) >= pB4 || isFourClass(b.threat[me][i])) && b.legalFor(me, i) {
							defs = append(defs, i)
						}
					}
					got := cells(e.threeDefences(b, buf[:0]))
					if !onLineThree(b) {
						check("threeDefences", got, defs)
					}
				}
				moves := e.genMoves(b, buf[:0], -1, 1)
				if len(moves) == 0 {
					break
				}
				b.play(moves[rng.Intn(min(len(moves), 3))].move)
			}
		}
	}
}

// onLineThree reports whether the last stone made an open three (the
// case where threeDefences lists the three's cost squares instead of its
// fallback set).
func onLineThree(b *Board) bool {
	last := b.history[len(b.history)-1]
	att := Color(b.cells[last] - 1)
	for d := range b.dirs {
		if pattern(b.pats[att][d][last]&patternMask) == pF3 {
			return true
		}
	}
	return false
}

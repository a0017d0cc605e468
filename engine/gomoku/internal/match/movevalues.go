package match

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/boardhall/boardhall/engine/gomoku"
	"github.com/boardhall/boardhall/engine/internal/stats"
)

// A move-value set is a list of freestyle 15x15 positions, each with a
// judge's value of some of its moves: the value of a move is minus the
// judge's score of the position after it, every such search with the same
// fixed budget, so that the one-ply offset cancels between moves. A
// build's choice in a position is scored by how much it gives away
// against the best judged move (MoveLoss). The set is also a cache: a new
// build's moves are judged once and added.
//
// The text form (testdata/gomoku-movevalues.txt):
//
//	# comments and blank lines are ignored
//	gomoku-movevalues nodes=500000
//	pos h8i9j10i10 g21/main-r333-20.log:piskvork/20:white root=-85 best=h11 h11=-90 g11=-120
//
// The header names the judge's node budget. A set whose header ends in
// " judge=multipv" was valued by one multi-PV root search a position
// (MultiPV): every judged move is one line of the same search, all other
// moves blocked, with the node budget per line; without it each value is
// minus a search of the position after the move. Each pos line has the moves
// played so far (a record, every move legal), where it came from (no
// spaces), the judge's score of the position itself (root=, the side to
// move's view, from the search that chose best=), the judge's choice, then
// judged moves as move=value, the side to move's view. A value is an
// integer below MateBound in magnitude or a mate, "+M13" (the side to move
// wins in 13 plies) or "-M12". A position with no judged moves was decided
// (|root| beyond the set's threshold) and is kept only so that it is not
// searched again; best= is then "-".

// MateBound is the magnitude from which a Value is a mate: Value(MateBound+k)
// wins, Value(-MateBound-k) loses, the fewer plies the larger k.
const MateBound = 20000

// mateBase is MateBound plus the longest mate a value can name.
const mateBase = MateBound + 1000

// Value is a judge's score from the side to move's view: a number of the
// judge's units below MateBound in magnitude, or a mate.
type Value int

// ParseValue reads "123", "-45", "+M13" or "-M12".
func ParseValue(s string) (Value, error) {
	if m, ok := strings.CutPrefix(s, "+M"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 0 || n >= mateBase-MateBound || m != strconv.Itoa(n) {
			return 0, fmt.Errorf("value %q: bad mate", s)
		}
		return Value(mateBase - n), nil
	}
	if m, ok := strings.CutPrefix(s, "-M"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 0 || n >= mateBase-MateBound || m != strconv.Itoa(n) {
			return 0, fmt.Errorf("value %q: bad mate", s)
		}
		return Value(-mateBase + n), nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= -MateBound || n >= MateBound || s != strconv.Itoa(n) {
		return 0, fmt.Errorf("value %q: want an integer of magnitude below %d or a mate (+M13, -M12)", s, MateBound)
	}
	return Value(n), nil
}

// String prints a value as ParseValue reads it.
func (v Value) String() string {
	switch {
	case v >= MateBound:
		return fmt.Sprintf("+M%d", mateBase-int(v))
	case v <= -MateBound:
		return fmt.Sprintf("-M%d", mateBase+int(v))
	}
	return strconv.Itoa(int(v))
}

// Neg is the value from the other side's view.
func (v Value) Neg() Value { return -v }

// WinScale is the judge's units per unit of logit: Rapfi converts its
// classical evaluation to a win rate as 1/(1+exp(-v/200)) (its default
// scaling factor), so a win probability is its own scale, not ours.
const WinScale = 200

// WinProb is the value as a win probability: 1/(1+exp(-v/WinScale)), a
// mate 1 or 0.
func (v Value) WinProb() float64 {
	switch {
	case v >= MateBound:
		return 1
	case v <= -MateBound:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(v)/WinScale))
}

// ValuedPosition is one position of a move-value set.
type ValuedPosition struct {
	Moves  []gomoku.Point // the game so far
	Source string         // where it came from: log, opening, colour
	Root   Value          // the judge's score of the position
	Best   gomoku.Point   // the judge's choice (meaningless when Decided)
	Values map[gomoku.Point]Value
}

// Key is the record of the moves so far, the position's key in a set.
func (p *ValuedPosition) Key() string { return gomoku.FormatRecord(p.Moves) }

// Decided reports whether the position was left unjudged (no values).
func (p *ValuedPosition) Decided() bool { return len(p.Values) == 0 }

// BestValue returns the highest judged value.
func (p *ValuedPosition) BestValue() Value {
	best := Value(math.MinInt32)
	for _, v := range p.Values {
		best = max(best, v)
	}
	return best
}

// Board returns the position on a fresh board.
func (p *ValuedPosition) Board() (*gomoku.Board, error) {
	b, err := gomoku.NewBoard(setSize, gomoku.Freestyle)
	if err != nil {
		return nil, err
	}
	for _, m := range p.Moves {
		if err := b.Play(m); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// MoveValues is a move-value set.
type MoveValues struct {
	Nodes     int  // the judge's node budget per search (per line if MultiPV)
	MultiPV   bool // valued by one multi-PV root search a position
	Positions []*ValuedPosition
	index     map[string]int
}

// setSize is the board of a move-value set.
const setSize = 15

// Find returns the position with the given moves, or nil.
func (s *MoveValues) Find(moves []gomoku.Point) *ValuedPosition {
	return s.FindKey(gomoku.FormatRecord(moves))
}

// FindKey returns the position whose key (record) is key, or nil.
func (s *MoveValues) FindKey(key string) *ValuedPosition {
	if i, ok := s.index[key]; ok {
		return s.Positions[i]
	}
	return nil
}

// Add appends a position; it fails on a position already in the set.
func (s *MoveValues) Add(p *ValuedPosition) error {
	if s.index == nil {
		s.index = map[string]int{}
	}
	k := p.Key()
	if _, dup := s.index[k]; dup {
		return fmt.Errorf("position %s twice", k)
	}
	s.index[k] = len(s.Positions)
	s.Positions = append(s.Positions, p)
	return nil
}

// ParseMoveValues reads a set in the text form above. It is strict: any
// line it does not understand, an illegal move, a position or a judged
// move twice, or a judged position whose choice is not among its judged
// moves is an error naming the line.
func ParseMoveValues(r io.Reader) (*MoveValues, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	s := &MoveValues{}
	header := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(format string, a ...any) error {
			return fmt.Errorf("move values: line %d: %s", n, fmt.Sprintf(format, a...))
		}
		f := strings.Fields(line)
		if !header {
			if len(f) < 2 || len(f) > 3 || f[0] != "gomoku-movevalues" || !strings.HasPrefix(f[1], "nodes=") || (len(f) == 3 && f[2] != "judge=multipv") {
				return nil, fail("want the header \"gomoku-movevalues nodes=N [judge=multipv]\", got %q", line)
			}
			s.MultiPV = len(f) == 3
			v, err := strconv.Atoi(strings.TrimPrefix(f[1], "nodes="))
			if err != nil || v <= 0 {
				return nil, fail("bad node budget %q", f[1])
			}
			s.Nodes, header = v, true
			continue
		}
		if f[0] != "pos" || len(f) < 5 {
			return nil, fail("want \"pos <record> <source> root=<value> best=<move> [move=value ...]\"")
		}
		moves, err := gomoku.ParseRecord(f[1], setSize)
		if err != nil || len(moves) == 0 || gomoku.FormatRecord(moves) != f[1] {
			return nil, fail("bad record %q (%v)", f[1], err)
		}
		p := &ValuedPosition{Moves: moves, Source: f[2], Values: map[gomoku.Point]Value{}}
		b, err := p.Board()
		if err != nil {
			return nil, fail("record %s: %v", f[1], err)
		}
		if b.Over() {
			return nil, fail("record %s: the game is over", f[1])
		}
		rv, ok := strings.CutPrefix(f[3], "root=")
		if !ok {
			return nil, fail("want root=<value>, got %q", f[3])
		}
		if p.Root, err = ParseValue(rv); err != nil {
			return nil, fail("%v", err)
		}
		bm, ok := strings.CutPrefix(f[4], "best=")
		if !ok {
			return nil, fail("want best=<move>, got %q", f[4])
		}
		if bm != "-" {
			if p.Best, err = legalPoint(b, bm); err != nil {
				return nil, fail("best: %v", err)
			}
		}
		for _, t := range f[5:] {
			ms, vs, ok := strings.Cut(t, "=")
			if !ok {
				return nil, fail("want move=value, got %q", t)
			}
			m, err := legalPoint(b, ms)
			if err != nil {
				return nil, fail("%v", err)
			}
			if _, dup := p.Values[m]; dup {
				return nil, fail("move %v judged twice", m)
			}
			if p.Values[m], err = ParseValue(vs); err != nil {
				return nil, fail("move %v: %v", m, err)
			}
		}
		if len(p.Values) > 0 {
			if _, ok := p.Values[p.Best]; bm == "-" || !ok {
				return nil, fail("the judge's choice %s is not among the judged moves", bm)
			}
		} else if bm != "-" {
			return nil, fail("a decided position (no judged moves) has best=-")
		}
		if err := s.Add(p); err != nil {
			return nil, fail("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("move values: %w", err)
	}
	if !header {
		return nil, fmt.Errorf("move values: no header")
	}
	return s, nil
}

// legalPoint parses a move and checks it is legal in b.
func legalPoint(b *gomoku.Board, s string) (gomoku.Point, error) {
	if s != strings.ToLower(s) {
		return gomoku.Point{}, fmt.Errorf("move %q: lower case", s)
	}
	m, err := gomoku.ParsePoint(s, b.Size())
	if err != nil {
		return m, err
	}
	if m.String() != s {
		return m, fmt.Errorf("move %q: not in the usual notation", s)
	}
	if err := b.IsLegal(m); err != nil {
		return m, fmt.Errorf("move %v: %w", m, err)
	}
	return m, nil
}

// ReadMoveValuesFile reads a set in the text form from the file at path.
func ReadMoveValuesFile(path string) (*MoveValues, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ParseMoveValues(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// WriteTo writes the set in its text form, judged moves best first (ties
// in notation order), so that the file reads well and diffs small. It
// returns the number of bytes written, as io.WriterTo asks.
func (s *MoveValues) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	fmt.Fprintf(bw, "gomoku-movevalues nodes=%d", s.Nodes)
	if s.MultiPV {
		bw.WriteString(" judge=multipv")
	}
	bw.WriteByte('\n')
	for _, p := range s.Positions {
		best := "-"
		if !p.Decided() {
			best = p.Best.String()
		}
		fmt.Fprintf(bw, "pos %s %s root=%v best=%s", p.Key(), p.Source, p.Root, best)
		ms := make([]gomoku.Point, 0, len(p.Values))
		for m := range p.Values {
			ms = append(ms, m)
		}
		sort.Slice(ms, func(i, j int) bool {
			if p.Values[ms[i]] != p.Values[ms[j]] {
				return p.Values[ms[i]] > p.Values[ms[j]]
			}
			return ms[i].String() < ms[j].String()
		})
		for _, m := range ms {
			fmt.Fprintf(bw, " %v=%v", m, p.Values[m])
		}
		bw.WriteByte('\n')
	}
	err := bw.Flush()
	return cw.n, err
}

// countingWriter passes writes on to w and counts the bytes w took.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// MoveLoss is how much a move gives away in a judged position: the win
// probability of the best judged move minus the move's (0 for the best,
// at most 1), and the same in the judge's units with each value first
// clamped to [-cap, cap] (a mate counts as cap). ok is false when the
// move was not judged.
func (p *ValuedPosition) MoveLoss(m gomoku.Point, cap int) (wp, units float64, ok bool) {
	v, ok := p.Values[m]
	if !ok {
		return 0, 0, false
	}
	best := p.BestValue()
	clamp := func(v Value) float64 { return float64(min(max(int(v), -cap), cap)) }
	return best.WinProb() - v.WinProb(), clamp(best) - clamp(v), true
}

// Choice is a build's move in a position of a set.
type Choice struct {
	Key   string // the position's record
	Move  gomoku.Point
	Depth int
}

// ParseChoices reads a choice file: a header "gomoku-choices <label>",
// then one "<record> <move> <depth>" line a position.
func ParseChoices(r io.Reader) (string, []Choice, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	label, header := "", false
	var out []Choice
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if !header {
			if len(f) != 2 || f[0] != "gomoku-choices" {
				return "", nil, fmt.Errorf("choices: line %d: want the header \"gomoku-choices <label>\"", n)
			}
			label, header = f[1], true
			continue
		}
		if len(f) != 3 {
			return "", nil, fmt.Errorf("choices: line %d: want \"<record> <move> <depth>\"", n)
		}
		moves, err := gomoku.ParseRecord(f[0], setSize)
		if err != nil || len(moves) == 0 || gomoku.FormatRecord(moves) != f[0] {
			return "", nil, fmt.Errorf("choices: line %d: bad record %q", n, f[0])
		}
		b, err := (&ValuedPosition{Moves: moves}).Board()
		if err != nil {
			return "", nil, fmt.Errorf("choices: line %d: %v", n, err)
		}
		m, err := legalPoint(b, f[1])
		if err != nil {
			return "", nil, fmt.Errorf("choices: line %d: %v", n, err)
		}
		d, err := strconv.Atoi(f[2])
		if err != nil || d < 0 {
			return "", nil, fmt.Errorf("choices: line %d: bad depth %q", n, f[2])
		}
		if seen[f[0]] {
			return "", nil, fmt.Errorf("choices: line %d: position twice", n)
		}
		seen[f[0]] = true
		out = append(out, Choice{Key: f[0], Move: m, Depth: d})
	}
	if err := sc.Err(); err != nil {
		return "", nil, err
	}
	if !header {
		return "", nil, fmt.Errorf("choices: no header")
	}
	return label, out, nil
}

// WriteChoices writes a choice file.
func WriteChoices(w io.Writer, label string, cs []Choice) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "gomoku-choices %s\n", label)
	for _, c := range cs {
		fmt.Fprintf(bw, "%s %v %d\n", c.Key, c.Move, c.Depth)
	}
	return bw.Flush()
}

// LossSummary sums a build's choices on a set.
type LossSummary struct {
	N          int     // positions scored
	Unjudged   int     // choices whose move has no value yet
	MeanWP     float64 // mean loss in win probability
	SEWP       float64 // its standard error
	MeanUnits  float64 // mean loss in the judge's units, values clamped
	SEUnits    float64
	Best       int // choices of a best judged move
	JudgeBest  int // choices of the judge's own choice
	Large      int // losses of LargeLoss or more (win probability)
	MeanDepth  float64
	PerPos     map[string]float64 // loss (win probability) by position
	UnitsByPos map[string]float64
}

// LargeLoss is a loss of win probability counted as a blunder.
const LargeLoss = 0.2

// UnitsCap clamps values for the loss in the judge's units.
const UnitsCap = 1000

// Score scores choices on s (positions of the set only, decided ones
// left out).
func (s *MoveValues) Score(cs []Choice) LossSummary {
	sum := LossSummary{PerPos: map[string]float64{}, UnitsByPos: map[string]float64{}}
	var wps, us []float64
	depth := 0
	for _, c := range cs {
		p := s.FindKey(c.Key)
		if p == nil || p.Decided() {
			continue
		}
		wp, u, ok := p.MoveLoss(c.Move, UnitsCap)
		if !ok {
			sum.Unjudged++
			continue
		}
		wps, us = append(wps, wp), append(us, u)
		sum.PerPos[c.Key], sum.UnitsByPos[c.Key] = wp, u
		depth += c.Depth
		if p.Values[c.Move] == p.BestValue() {
			sum.Best++
		}
		if c.Move == p.Best {
			sum.JudgeBest++
		}
		if wp >= LargeLoss {
			sum.Large++
		}
	}
	sum.N = len(wps)
	sum.MeanWP, sum.SEWP = stats.MeanSE(wps)
	sum.MeanUnits, sum.SEUnits = stats.MeanSE(us)
	if sum.N > 0 {
		sum.MeanDepth = float64(depth) / float64(sum.N)
	}
	return sum
}

// WithoutMates returns the set without the judged positions that have a
// mate among their values (decided positions are kept), for a loss that
// no forced win or loss dominates.
func (s *MoveValues) WithoutMates() *MoveValues {
	out := &MoveValues{Nodes: s.Nodes, MultiPV: s.MultiPV}
	for _, p := range s.Positions {
		mate := false
		for _, v := range p.Values {
			mate = mate || v >= MateBound || v <= -MateBound
		}
		if !mate {
			out.Add(p) // cannot fail: the keys of s are distinct
		}
	}
	return out
}

// Spread returns the set without the judged positions where the best
// judged move's win probability exceeds the median judged move's by less
// than x (the median of an even count the lower middle; decided positions
// are kept): the positions where the choice matters most.
func (s *MoveValues) Spread(x float64) *MoveValues {
	out := &MoveValues{Nodes: s.Nodes, MultiPV: s.MultiPV}
	for _, p := range s.Positions {
		if !p.Decided() {
			wps := make([]float64, 0, len(p.Values))
			for _, v := range p.Values {
				wps = append(wps, v.WinProb())
			}
			sort.Float64s(wps)
			if wps[len(wps)-1]-wps[(len(wps)-1)/2] < x {
				continue
			}
		}
		out.Add(p) // cannot fail: the keys of s are distinct
	}
	return out
}

// Clamped returns the set with every judged value clamped to [-c, c] (a
// mate counts as c), so that a loss is measured within that band.
func (s *MoveValues) Clamped(c int) *MoveValues {
	out := &MoveValues{Nodes: s.Nodes, MultiPV: s.MultiPV}
	for _, p := range s.Positions {
		q := *p
		q.Values = make(map[gomoku.Point]Value, len(p.Values))
		for m, v := range p.Values {
			q.Values[m] = Value(min(max(int(v), -c), c))
		}
		out.Add(&q) // cannot fail: the keys of s are distinct
	}
	return out
}

// Paired returns the mean per-position difference a - b over the
// positions both scored, its standard error and the count.
func Paired(a, b map[string]float64) (mean, se float64, n int) {
	var d []float64
	for k, x := range a {
		if y, ok := b[k]; ok {
			d = append(d, x-y)
		}
	}
	sort.Float64s(d) // a fixed order: the sums do not depend on map order
	mean, se = stats.MeanSE(d)
	return mean, se, len(d)
}

// fivePoint reports whether c has a point that makes five (or more) at
// once in b: a four on the board.
func fivePoint(b *gomoku.Board, c gomoku.Color) bool {
	n := b.Size()
	at := func(x, y int) bool {
		if x < 0 || y < 0 || x >= n || y >= n {
			return false
		}
		s, ok := b.At(gomoku.Point{X: x, Y: y})
		return ok && s == c
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if _, taken := b.At(gomoku.Point{X: x, Y: y}); taken {
				continue
			}
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				run := 1
				for k := 1; at(x+k*d[0], y+k*d[1]); k++ {
					run++
				}
				for k := 1; at(x-k*d[0], y-k*d[1]); k++ {
					run++
				}
				if run >= 5 {
					return true
				}
			}
		}
	}
	return false
}

// Forced reports whether the position is decided or forced by a four: the
// side to move can make five, or must stop the opponent's.
func Forced(b *gomoku.Board) bool {
	me := b.ToMove()
	return fivePoint(b, me) || fivePoint(b, 1-me)
}

// MultiPVReport collects what a multi-PV root search (Rapfi's YXNBEST,
// with its MESSAGE lines) reports: each completed line "(k) v | d-sd |
// PV..." (line k at depth d, value v, the PV's first move). Lines a stopped
// search did not complete are never printed, so a depth is complete when
// all its lines are there.
type MultiPVReport struct {
	lines map[int]map[int]pvLine // depth -> line number -> line
	most  int                    // the most lines seen at any depth
}

type pvLine struct {
	move  gomoku.Point
	value Value
}

// Add reads one message line (with or without the "MESSAGE " prefix);
// anything that is not a multi-PV line is ignored.
func (r *MultiPVReport) Add(l string) {
	l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "MESSAGE"))
	if !strings.HasPrefix(l, "(") {
		return
	}
	ks, rest, ok := strings.Cut(l[1:], ")")
	k, err := strconv.Atoi(ks)
	parts := strings.Split(rest, "|")
	if !ok || err != nil || k < 1 || len(parts) < 3 {
		return
	}
	v, err := ParseValue(strings.TrimSpace(parts[0]))
	if err != nil {
		return
	}
	ds, _, _ := strings.Cut(strings.TrimSpace(parts[1]), "-")
	d, err := strconv.Atoi(ds)
	pv := strings.Fields(parts[2])
	if err != nil || d < 1 || len(pv) == 0 {
		return
	}
	m, err := gomoku.ParsePoint(strings.ToLower(pv[0]), setSize)
	if err != nil {
		return
	}
	if r.lines == nil {
		r.lines = map[int]map[int]pvLine{}
	}
	if r.lines[d] == nil {
		r.lines[d] = map[int]pvLine{}
	}
	r.lines[d][k] = pvLine{m, v}
	r.most = max(r.most, len(r.lines[d]), k)
}

// Values returns the deepest depth whose lines 1..n all completed (n the
// most lines seen at any depth), with each line's first move and value,
// and the best of them (the highest value, the lower line number on a
// tie). It fails when no depth is complete or a depth's lines repeat a
// move.
func (r *MultiPVReport) Values() (depth int, best gomoku.Point, vals map[gomoku.Point]Value, err error) {
	for d, ls := range r.lines {
		if d <= depth || len(ls) != r.most {
			continue
		}
		vs := map[gomoku.Point]Value{}
		var b gomoku.Point
		bv := Value(math.MinInt32)
		for k := 1; k <= r.most; k++ {
			l, ok := ls[k]
			if !ok {
				break
			}
			if _, dup := vs[l.move]; dup {
				return 0, b, nil, fmt.Errorf("multi-PV depth %d: move %v in two lines", d, l.move)
			}
			vs[l.move] = l.value
			if l.value > bv {
				b, bv = l.move, l.value
			}
		}
		if len(vs) == r.most {
			depth, best, vals = d, b, vs
		}
	}
	if depth == 0 {
		return 0, best, nil, fmt.Errorf("multi-PV: no depth with all %d lines", r.most)
	}
	return depth, best, vals, nil
}

// symmetries are the eight maps of an n x n board onto itself.
var symmetries = [8]func(p gomoku.Point, n int) gomoku.Point{
	func(p gomoku.Point, n int) gomoku.Point { return p },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: n - 1 - p.X, Y: p.Y} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: p.X, Y: n - 1 - p.Y} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: n - 1 - p.X, Y: n - 1 - p.Y} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: p.Y, Y: p.X} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: n - 1 - p.Y, Y: p.X} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: p.Y, Y: n - 1 - p.X} },
	func(p gomoku.Point, n int) gomoku.Point { return gomoku.Point{X: n - 1 - p.Y, Y: n - 1 - p.X} },
}

// Twin returns a move's value in vals through a symmetry of the board b
// that maps every stone onto a stone of its colour: a judge that leaves
// symmetric twins out of its root moves (Rapfi does) values m as the
// twin it searched. ok is false when no symmetry of b maps m onto a
// valued move.
func Twin(b *gomoku.Board, m gomoku.Point, vals map[gomoku.Point]Value) (Value, bool) {
	n := b.Size()
	for _, s := range symmetries[1:] {
		v, ok := vals[s(m, n)]
		if !ok {
			continue
		}
		same := true
		for _, p := range b.Moves() {
			c, _ := b.At(p)
			d, taken := b.At(s(p, n))
			if !taken || c != d {
				same = false
				break
			}
		}
		if same {
			return v, true
		}
	}
	return 0, false
}

package gomoku

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The evaluation's values, read from evaltable.txt (embedded).
//
// A point's value in the evaluation depends on the combination of the
// four line patterns a stone there would make: the multiset of the four
// patterns, since the lines' order does not matter (495 combinations of
// four patterns out of nine). Each combination has two values, one for
// the side to move and one for the side that has just moved: an open
// three of the side to move is one move from an open four, the same three
// of the other side only asks to be blocked. The file also holds the
// evaluation's threat terms (eval.go). It is written by the fit
// (TestFitEval in fit_test.go), which fits the values to the scores of a
// deeper search on sampled positions, starting from the hand-set values
// (handSetWeights in fit_test.go: per combination the sum of its
// patterns' patternValue and its class's threatBonus, the move order's
// values, for both roles).

// numCombos is the number of multisets of four patterns out of
// numPatterns: C(9+4-1, 4).
const numCombos = 495

// Evaluation roles: whose value of a point is read.
const (
	roleToMove = 0 // the side to move
	roleMoved  = 1 // the side that has just moved
)

// comboPatterns lists each combination's patterns from best to worst,
// in lexicographic order; comboOf maps the four line patterns of a point
// (base numPatterns digits, direction 0 first, as pointTable's index) to
// their combination's index. Both are package variables with initialisers
// so that pointTable, which reads them, is built after them.
var (
	comboPatterns = buildComboPatterns()
	comboOf       = buildComboOf()
)

// evalWeights are the evaluation's values: per combination and role, and
// eval's threat terms.
type evalWeights struct {
	combo                       [2][numCombos]int32 // [role][combination]
	moverFourThree, moverThree2 int
	oppOpenThree, oppFourThree  int
	oppThree2, tempo            int
	// situation is added for the two sides' threats together, indexed
	// by the side to move's situation and the other side's (eval.go).
	situation [numSituations][numSituations]int32
}

// evalTermNames name the threat terms in evaltable.txt, in the order of
// evalWeights.terms.
var evalTermNames = []string{"moverFourThree", "moverThree2", "oppOpenThree", "oppFourThree", "oppThree2", "tempo"}

// terms returns pointers to the threat terms, in evalTermNames order.
func (w *evalWeights) terms() []*int {
	return []*int{&w.moverFourThree, &w.moverThree2, &w.oppOpenThree, &w.oppFourThree, &w.oppThree2, &w.tempo}
}

// evalW holds the embedded table's values.
var evalW = mustParseEvalTable(evalTableText)

//go:embed evaltable.txt
var evalTableText string

// patternNames are the names of the patterns in evaltable.txt.
var patternNames = [numPatterns]string{"None", "B1", "B2", "F2", "B3", "F3", "B4", "F4", "F5"}

// buildComboPatterns numbers the combinations: every multiset of four
// patterns, sorted from best to worst, in lexicographic order.
func buildComboPatterns() (out [numCombos][4]pattern) {
	n := 0
	for a := int(numPatterns) - 1; a >= 0; a-- {
		for b := a; b >= 0; b-- {
			for c := b; c >= 0; c-- {
				for d := c; d >= 0; d-- {
					out[n] = [4]pattern{pattern(a), pattern(b), pattern(c), pattern(d)}
					n++
				}
			}
		}
	}
	return out
}

// buildComboOf maps every pointTable index to its combination.
func buildComboOf() []uint16 {
	index := make(map[[4]pattern]uint16, numCombos)
	for c, p := range comboPatterns {
		index[p] = uint16(c)
	}
	const n = int(numPatterns)
	out := make([]uint16, n*n*n*n)
	for k := range out {
		out[k] = index[sortedPatterns(k)]
	}
	return out
}

// sortedPatterns unpacks a pointTable index into its four patterns, best
// first.
func sortedPatterns(k int) [4]pattern {
	const n = int(numPatterns)
	var p [4]pattern
	for d := 3; d >= 0; d-- {
		p[d] = pattern(k % n)
		k /= n
	}
	// Four elements: an insertion sort, descending.
	for i := 1; i < 4; i++ {
		for j := i; j > 0 && p[j] > p[j-1]; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	return p
}

// comboName is a combination as evaltable.txt writes it: "F3 B4 B1 None".
func comboName(c int) string {
	p := comboPatterns[c]
	return patternNames[p[0]] + " " + patternNames[p[1]] + " " + patternNames[p[2]] + " " + patternNames[p[3]]
}

// maxEvalValue bounds every value of the table: the board sums at most 225
// of them per colour, so totals stay far from int32 overflow, and a fitted
// value is a few thousand at most.
const maxEvalValue = 100_000

// parseEvalValue reads one value of the table, refusing one beyond
// ±maxEvalValue.
func parseEvalValue(s string) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, err
	}
	if v < -maxEvalValue || v > maxEvalValue {
		return 0, fmt.Errorf("value %d beyond ±%d", v, maxEvalValue)
	}
	return int32(v), nil
}

// parseEvalTable reads the table: '#' comments, a line "term <name>
// <value>" per threat term and "combo <four patterns> <to-move value>
// <moved value>" per combination, every one of them present, and lines
// "situation <mover's> <other's> <value>" (situations by number; one
// left out is 0).
func parseEvalTable(text string) (*evalWeights, error) {
	w := &evalWeights{}
	byName := make(map[string]int, numCombos)
	for c := range numCombos {
		byName[comboName(c)] = c
	}
	seenCombo := make([]bool, numCombos)
	seenTerm := make([]bool, len(evalTermNames))
	terms := w.terms()
	for n, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "term" && len(f) == 3:
			v, err := parseEvalValue(f[2])
			i := slices.Index(evalTermNames, f[1])
			if err != nil || i < 0 {
				return nil, fmt.Errorf("gomoku: eval table line %d: bad term %q", n+1, line)
			}
			*terms[i], seenTerm[i] = int(v), true
		case f[0] == "combo" && len(f) == 7:
			c, ok := byName[strings.Join(f[1:5], " ")]
			v0, err0 := parseEvalValue(f[5])
			v1, err1 := parseEvalValue(f[6])
			if !ok || err0 != nil || err1 != nil {
				return nil, fmt.Errorf("gomoku: eval table line %d: bad combination %q", n+1, line)
			}
			w.combo[roleToMove][c], w.combo[roleMoved][c], seenCombo[c] = v0, v1, true
		case f[0] == "situation" && len(f) == 4:
			m, err0 := strconv.Atoi(f[1])
			o, err1 := strconv.Atoi(f[2])
			v, err2 := parseEvalValue(f[3])
			if err0 != nil || err1 != nil || err2 != nil || m < 0 || m >= numSituations || o < 0 || o >= numSituations {
				return nil, fmt.Errorf("gomoku: eval table line %d: bad situation %q", n+1, line)
			}
			w.situation[m][o] = v
		default:
			return nil, fmt.Errorf("gomoku: eval table line %d: unknown line %q", n+1, line)
		}
	}
	for c, ok := range seenCombo {
		if !ok {
			return nil, fmt.Errorf("gomoku: eval table lacks combination %s", comboName(c))
		}
	}
	for i, ok := range seenTerm {
		if !ok {
			return nil, fmt.Errorf("gomoku: eval table lacks term %s", evalTermNames[i])
		}
	}
	return w, nil
}

// mustParseEvalTable parses the embedded table; a bad one is a build
// fault (TestEvalTable parses it too).
func mustParseEvalTable(text string) *evalWeights {
	w, err := parseEvalTable(text)
	if err != nil {
		panic(err)
	}
	return w
}

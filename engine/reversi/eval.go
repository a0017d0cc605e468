package reversi

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// The evaluation is a linear function of features of the position, with one
// set of weights per game phase (by number of empty squares):
//
//	score = sum_i w[phase][i] * feature_i  +  sum_edges edge[phase][pattern]
//
// Features are counted as (side to move) minus (opponent), so the score is
// from the side to move's view, in evalScale units per disc. The weights are
// in weights.json, embedded at build time; docs/reversi-engine.md says how
// they were made.

// evalScale is the number of evaluation units per disc: scores are
// hundredths of a disc, so a midgame score reads as an estimated final disc
// difference.
const evalScale = 100

// numPhases is the number of weight sets: phase = (empties-1)/phaseWidth, so
// each set covers eight plies, enough positions per phase to fit well.
const (
	numPhases  = 8
	phaseWidth = 8
)

// Feature indexes. Every feature is (mine - theirs) unless stated.
const (
	fMobility     = iota // legal moves
	fPotential           // empty squares next to the other side's discs (potential mobility)
	fCorners             // corner discs
	fXSquares            // X-square discs next to an empty corner
	fCSquares            // C-square discs next to an empty corner
	fStable              // discs that can never be flipped
	fParity              // 1 when the number of empties is odd (the side to move gets the last move), else 0
	fDiscs               // discs
	fCornerAccess        // corners among the legal moves
	fFrontier            // discs next to an empty square (a frontier is a weakness)
	numFeatures
)

// featureNames names the features in weights.json, in index order.
var featureNames = [numFeatures]string{
	"mobility", "potential_mobility", "corners", "x_squares", "c_squares",
	"stable", "parity", "discs", "corner_access", "frontier",
}

// numEdgeConfigs is 3^8: each of the 8 squares of an edge is empty, mine or theirs.
const numEdgeConfigs = 6561

// weights is the evaluation's parameters.
type weights struct {
	Version  int                         `json:"version"`
	Source   string                      `json:"source"`
	Features [numFeatures]string         `json:"features"`
	Scalar   [numPhases][numFeatures]int `json:"scalar"`
	// Edge is the value of each edge configuration, indexed by the base-3
	// number of its squares read from one corner to the other (0 empty,
	// 1 mine, 2 theirs); empty means all zero.
	Edge [][]int16 `json:"edge,omitempty"`
}

//go:embed weights.json
var weightsJSON []byte

//go:embed patterns.bin
var patternsBin []byte

// evalParams is the evaluation's weights in the form the search uses.
type evalParams struct {
	scalar [numPhases][numFeatures]int
	edge   [numPhases][numEdgeConfigs]int16
	// pattern, when not nil, is used at patternEmpties empties or fewer:
	// one table per game stage (internal/pattern says what is read), fitted
	// as corrections to the linear evaluation of linearParams and with that
	// evaluation folded in (eval_fold.go). Above it, and when pattern is
	// nil, the evaluation is linearParams's.
	pattern        []patternStage
	patternEmpties int
}

// linearParams is the feature evaluation of weights.json alone: the
// engine's evaluation before the pattern tables, kept as the baseline that
// matches and fits are measured against.
var linearParams = mustLoadWeights(weightsJSON)

// defaultParams is the evaluation new engines use: the pattern tables up to
// patternMaxEmpties, the linear evaluation above.
var defaultParams = patternParams

// patternParams is the pattern evaluation of patterns.bin (made by
// internal/train), read once at start-up; nil if the file does not decode
// (TestEvaluateSymmetric fails then; the training command can still run
// to make a new one).
var patternParams = func() *evalParams {
	st, err := pattern.Decode(patternsBin)
	if err != nil {
		return nil
	}
	return &evalParams{pattern: foldStages(st, linearParams), patternEmpties: patternMaxEmpties}
}()

// patternMaxEmpties is the most empties at which the pattern tables are
// used. Up to 28 empties they are fitted on exact or near-exact labels and
// beat the linear evaluation by 1.3-1.8 discs (held-out RMSE); they order
// the endgame solver's moves (from 16 empties) and the searches just
// before it. The stages of 29-44 empties are fitted on labels from depth-10
// searches into the stages below (internal/train label), with ridge 10:
// with Multi-ProbCut at 1.0 sigma, the first such tables (depth-8 labels,
// ridge 100) won 41-32-7 against the tables up to 28 at 1.5 sigma, and the
// depth-10 ones 38-34-8 against those, at 300 ms a move (small gains, not
// proven ones: docs/benchmarks.md, sixth and seventh sessions). Above 44
// empties there are no fitted stages, and the linear evaluation is used.
const patternMaxEmpties = 44

func mustLoadWeights(data []byte) *evalParams {
	w, err := parseWeights(data)
	if err != nil {
		panic(err) // the embedded file is part of the build; tests load it
	}
	return w.params()
}

// params converts a weights file to the search's form.
func (w *weights) params() *evalParams {
	p := &evalParams{scalar: w.Scalar}
	for ph := range w.Edge {
		copy(p.edge[ph][:], w.Edge[ph])
	}
	return p
}

// parseWeights decodes and checks a weights file.
func parseWeights(data []byte) (*weights, error) {
	var w weights
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("reversi: weights: %w", err)
	}
	if w.Features != featureNames {
		return nil, fmt.Errorf("reversi: weights: features %v, want %v", w.Features, featureNames)
	}
	if len(w.Edge) != 0 {
		if len(w.Edge) != numPhases {
			return nil, fmt.Errorf("reversi: weights: %d edge phases, want %d", len(w.Edge), numPhases)
		}
		for ph, e := range w.Edge {
			if len(e) != numEdgeConfigs {
				return nil, fmt.Errorf("reversi: weights: edge phase %d has %d entries, want %d", ph, len(e), numEdgeConfigs)
			}
		}
	}
	return &w, nil
}

// ternary[b] is the base-3 number whose digits are the bits of b (each 0 or
// 1): the index contribution of "mine" discs; "theirs" count double.
var ternary [256]int

func init() {
	for b := 0; b < 256; b++ {
		v, p := 0, 1
		for i := 0; i < 8; i++ {
			if b&(1<<uint(i)) != 0 {
				v += p
			}
			p *= 3
		}
		ternary[b] = v
	}
}

// fileByte gathers file c (0 = a) into a byte, row 1 in bit 0.
func fileByte(x uint64, c uint) uint8 {
	x = (x >> c) & 0x0101010101010101
	return uint8((x * 0x0102040810204080) >> 56)
}

// edgeIndexes returns the pattern index of the four edges: rank 1, rank 8,
// file a and file h.
func edgeIndexes(me, opp uint64) [4]int {
	return [4]int{
		ternary[uint8(me)] + 2*ternary[uint8(opp)],
		ternary[uint8(me>>56)] + 2*ternary[uint8(opp>>56)],
		ternary[fileByte(me, 0)] + 2*ternary[fileByte(opp, 0)],
		ternary[fileByte(me, 7)] + 2*ternary[fileByte(opp, 7)],
	}
}

// phaseOf returns the weight set for a position with the given empties.
func phaseOf(empties int) int {
	if empties < 1 {
		return 0
	}
	ph := (empties - 1) / phaseWidth
	if ph >= numPhases {
		ph = numPhases - 1
	}
	return ph
}

// features computes the feature vector of the position (me to move).
func features(me, opp uint64) [numFeatures]int {
	myMoves, oppMoves := legalMovesPair(me, opp)
	return featuresWith(me, opp, myMoves, oppMoves)
}

// featuresWith is features with both sides' legal moves already known.
func featuresWith(me, opp, myMoves, oppMoves uint64) [numFeatures]int {
	var f [numFeatures]int
	occupied := me | opp
	empty := ^occupied
	f[fMobility] = popcount(myMoves) - popcount(oppMoves)
	f[fPotential] = popcount(potentialMoves(me, opp)) - popcount(potentialMoves(opp, me))
	f[fCorners] = popcount(me&cornerMask) - popcount(opp&cornerMask)
	// X- and C-squares count only while their corner is empty.
	var xs, cs uint64
	for i, corner := range [4]uint64{1 << 0, 1 << 7, 1 << 56, 1 << 63} {
		if empty&corner != 0 {
			xs |= xOf[i]
			cs |= cOf[i]
		}
	}
	f[fXSquares] = popcount(me&xs) - popcount(opp&xs)
	f[fCSquares] = popcount(me&cs) - popcount(opp&cs)
	f[fStable] = stableDiff(me, opp)
	if popcount(empty)&1 == 1 {
		f[fParity] = 1
	}
	f[fDiscs] = popcount(me) - popcount(opp)
	f[fCornerAccess] = popcount(myMoves&cornerMask) - popcount(oppMoves&cornerMask)
	f[fFrontier] = frontierDiff(me, opp)
	return f
}

// stableDiff returns the stable discs (stableDiscs) of me minus those of
// opp. Each side is counted on its own, and on AVX2 finds the full lines
// again for the second side: still 8% less time to depth 12 on
// BenchmarkMidgame than the Go version sharing them (twenty-ninth
// session).
func stableDiff(me, opp uint64) int {
	occupied := me | opp
	return popcount(stableDiscs(me, occupied)) - popcount(stableDiscs(opp, occupied))
}

// frontierDiff returns the discs of me next to an empty square minus those
// of opp.
func frontierDiff(me, opp uint64) int {
	nearEmpty := around(^(me | opp)) // the empty squares themselves hold no disc
	return popcount(me&nearEmpty) - popcount(opp&nearEmpty)
}

// xOf and cOf are the X-square and the two C-squares of each corner (a1, h1,
// a8, h8).
var (
	xOf = [4]uint64{1 << 9, 1 << 14, 1 << 49, 1 << 54}
	cOf = [4]uint64{1<<1 | 1<<8, 1<<6 | 1<<15, 1<<48 | 1<<57, 1<<55 | 1<<62}
)

// evaluate returns the static score of the position for the side to move
// with the embedded weights.
func evaluate(me, opp uint64) int { return defaultParams.evaluate(me, opp) }

// evaluate returns the static score of the position for the side to move, in
// evalScale units per disc (clamped inside the range of real disc scores).
func (p *evalParams) evaluate(me, opp uint64) int { return p.evaluateFrame(me, opp, nil) }

// evaluateChild is evaluate of the child (me, opp) that the move on sq,
// turning over flipped, makes from a parent whose frame from the child's
// mover's view is parent: the child's frame follows by an update
// (pattern.Frame.Play), far cheaper than reading its patterns again.
func (p *evalParams) evaluateChild(me, opp uint64, parent *pattern.Frame, sq int, flipped uint64) int {
	f := *parent
	f.Play(sq, flipped)
	return p.evaluateFrame(me, opp, &f)
}

// evaluateFrame is evaluate given the position's pattern frame from its
// mover's view (pattern.Frame), when the caller has it; with f nil it reads
// the patterns from the board. The score is the same.
func (p *evalParams) evaluateFrame(me, opp uint64, f *pattern.Frame) int {
	empties := 64 - popcount(me|opp)
	myMoves, oppMoves := legalMovesPair(me, opp)
	if p.pattern != nil && empties <= p.patternEmpties {
		st := &p.pattern[pattern.Stage(empties)]
		var s int
		if f != nil {
			s = pattern.EvaluateFrame(st.table, f, popcount(myMoves), popcount(oppMoves))
		} else {
			s = pattern.Evaluate(st.table, me, opp, popcount(myMoves), popcount(oppMoves))
		}
		if st.linear {
			s += st.restOf(me, opp, myMoves, oppMoves, empties)
		}
		return clampEval(s)
	}
	lin := p
	if p.pattern != nil {
		lin = linearParams // a pattern set above its range
	}
	return clampEval(lin.linear(me, opp, empties, myMoves, oppMoves))
}

// usesFrames reports whether positions with the given empties are
// evaluated with the pattern tables, so that their frames help.
func (p *evalParams) usesFrames(empties int) bool {
	return p.pattern != nil && empties <= p.patternEmpties
}

// linear is the linear evaluation (features and edge table), unclamped.
func (p *evalParams) linear(me, opp uint64, empties int, myMoves, oppMoves uint64) int {
	ph := phaseOf(empties)
	f := featuresWith(me, opp, myMoves, oppMoves)
	w := &p.scalar[ph]
	s := 0
	for i, v := range f {
		s += w[i] * v
	}
	e := &p.edge[ph]
	for _, idx := range edgeIndexes(me, opp) {
		s += int(e[idx])
	}
	return s
}

// clampEval keeps estimates strictly inside proven scores so that a known
// win is always preferred to a guessed one.
func clampEval(s int) int {
	const limit = 63 * evalScale
	if s > limit {
		s = limit
	} else if s < -limit {
		s = -limit
	}
	return s
}

// Evaluate returns the engine's static estimate of p, in discs from the side
// to move's view (positive: the side to move is ahead). It is the score the
// search uses at its leaves, exposed for tools and tests.
func Evaluate(p Position) float64 {
	return float64(evaluate(p.me, p.opp)) / evalScale
}

// Evaluate returns the static estimate of p by this engine's evaluation
// (the pattern tables, or the linear features after UseLinearEvaluation),
// in discs from the side to move's view.
func (e *Engine) Evaluate(p Position) float64 {
	return float64(e.params.evaluate(p.me, p.opp)) / evalScale
}

package reversi

import (
	"context"
	"errors"
	"math/bits"
	"math/rand"
	"slices"
	"time"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// DefaultTableBytes is the memory NewEngine gives its transposition tables:
// 32 MiB (half for the midgame search, half for the endgame solver) holds
// about 1.4 million positions, several times what a 10-second search visits
// after the tables' own cut-offs, while keeping many bot engines cheap.
const DefaultTableBytes = 32 << 20

// pollInterval is how many nodes pass between checks of the context: 4096
// nodes take well under a millisecond, so a cancelled search stops promptly,
// and the check's cost vanishes among the nodes.
const pollInterval = 4096

// infinity bounds every score: proven scores are at most 64 discs.
const infinity = 65 * evalScale

// Engine searches Reversi positions. It owns its transposition tables and is
// reusable across games, but it is NOT safe for concurrent use: give each
// goroutine its own Engine.
type Engine struct {
	params *evalParams // the evaluation's weights
	mid    *table      // midgame search results (depth, centidisc bounds)
	end    *table      // endgame solver results (empties, disc bounds)
	// endLocal is the region of end that keeps the positions near the
	// end (solverTable).
	endLocal table

	// State of the search in progress.
	nodes     uint64
	done      <-chan struct{}
	aborted   bool
	selective bool // Multi-ProbCut on (probcut.go)
	// endConf is the solver's confidence: provenExact when it proves,
	// else the cut threshold of the selective pass running (endcut.go).
	endConf uint8
	// resultPass is set while the result passes of solveResult run: their
	// cuts high in the tree use deeper probes (endCutProbeDepth).
	resultPass bool
	pv         [64]int8 // scratch for PV extraction
	// stopAtNodes, if not 0, aborts the search at the first poll after
	// this many nodes, as a deadline would: Search sets it from
	// Limits.Nodes, and tests of searchRoot use it to cut an iteration at
	// a reproducible point.
	stopAtNodes uint64
	// solveLists[n] is the move list of the solver node with n empties
	// on the current path: reusing it saves clearing a fresh 1.3 KB list
	// at every node (about 1.5% of a solve's time in the profile).
	solveLists *[61]moveList
	// midLists[n] is the move list of the midgame node with n empties on
	// the current path, for the same reason (in the midgame the saving
	// showed in no measure). A node's ProbCut probe and its pass search
	// the same position with the same empties, but both end before the
	// node fills its list; the exact solver and its ordering searches only
	// go down from there.
	midLists *[61]moveList
}

// NewEngine returns an engine with DefaultTableBytes of transposition tables.
func NewEngine() *Engine { return NewEngineSize(DefaultTableBytes) }

// NewEngineSize returns an engine whose tables use about tableBytes bytes in
// total (at least 48 KiB).
func NewEngineSize(tableBytes int) *Engine {
	// endConf starts at provenExact: a solve outside Search (the tests
	// call solve and solveRoot directly) proves, with no selective cuts.
	e := &Engine{params: defaultParams, mid: newTable(tableBytes / 2), end: newTable(tableBytes / 2), solveLists: new([61]moveList), midLists: new([61]moveList), endConf: provenExact}
	e.mid.perSearch = true
	n := min(len(e.end.entries), localTableEntries)
	e.endLocal = table{entries: e.end.entries[:n], mask: uint64(n-1) &^ 1}
	return e
}

// UsePatternEvaluation makes the engine evaluate positions with the pattern
// tables of patterns.bin.
func (e *Engine) UsePatternEvaluation() {
	if patternParams == nil {
		panic("reversi: the embedded patterns.bin does not decode")
	}
	e.params = patternParams
	e.Clear()
}

// UsePatternsUpTo makes the engine evaluate with the pattern tables at up to
// the given number of empties and with the linear evaluation above (the
// shipped engine uses them up to patternMaxEmpties): for measuring, by
// matches, where the tables stop paying for their cost. Stages of
// patterns.bin that were not fitted are all zero (they would evaluate
// every position as 0): empties above the fitted range make no sense.
func (e *Engine) UsePatternsUpTo(empties int) {
	if patternParams == nil {
		panic("reversi: the embedded patterns.bin does not decode")
	}
	p := *patternParams
	p.patternEmpties = empties
	e.params = &p
	e.Clear()
}

// UsePatternTables makes the engine evaluate with the pattern tables of data
// (a file in the format of patterns.bin) at up to the given number of
// empties, and with the linear evaluation above: the training command
// labels positions with searches into tables it has just fitted, before
// they are shipped. It returns an error, and leaves the engine as it was,
// if data does not decode.
func (e *Engine) UsePatternTables(data []byte, empties int) error {
	st, err := pattern.Decode(data)
	if err != nil {
		return err
	}
	e.params = &evalParams{pattern: foldStages(st, linearParams), patternEmpties: empties}
	e.Clear()
	return nil
}

// UseLinearEvaluation makes the engine evaluate positions with the linear
// features of weights.json instead of the pattern tables: the evaluation of
// the earlier engine, kept for measuring the patterns against it and for
// reproducing the training games (internal/train plays them with it).
func (e *Engine) UseLinearEvaluation() {
	e.params = linearParams
	e.Clear()
}

// Clear forgets everything the engine learnt from earlier searches, so that
// the next search behaves as with a new engine.
func (e *Engine) Clear() {
	e.mid.clear()
	e.end.clear()
}

// Limits says how hard to search. The time limit is the context's deadline.
type Limits struct {
	// Level is the strength, 1..MaxLevel; 0 means MaxLevel.
	Level int
	// Depth, if positive, overrides the level's midgame depth. A depth at
	// least the number of empty squares asks for an exact solve.
	Depth int
	// EndgameEmpties, if positive, overrides the level's exact-endgame
	// range: the position is solved exactly when it has this many empty
	// squares or fewer.
	EndgameEmpties int
	// Progress, if not nil, is called after each completed iteration and
	// after an endgame solve, on the searching goroutine: keep it cheap.
	Progress func(Info)
	// Seed drives the randomness of the weak levels; 0 is a fixed default,
	// so play is reproducible. The same position, level and seed always give
	// the same move.
	Seed int64
	// NoSelective turns off the selective search (Multi-ProbCut) of the
	// levels that use it, so that every score is a full-width search's.
	NoSelective bool
	// Exclude lists moves the search must not choose (for reporting the
	// best alternatives, as NBoard's "hint n" does). Excluding every legal
	// move is an error.
	Exclude []Square
	// Nodes, if positive, ends the search after about this many nodes
	// (at the first check of the context after them, every 4,096 nodes),
	// as a deadline would: the last completed iteration's move is played.
	// It does not depend on the machine's speed or load, so a search with
	// it gives the same move every time: for measurements. Like a
	// deadline, it lifts the cap on the top level's depth.
	Nodes uint64
}

// Info reports a search: its progress after each iteration, and its result.
type Info struct {
	Depth   int           // midgame depth completed, or the number of empties when Exact
	Nodes   uint64        // positions visited so far in this search
	NPS     uint64        // nodes per second
	Elapsed time.Duration // time since the search began
	Best    Square        // best move found (Pass if the side must pass)
	Score   int           // from the side to move's view, in discs (an estimate unless Exact)
	Exact   bool          // Score is the proven result of perfect play
	PV      []Square      // principal variation, starting with Best
	// Centi is Score in hundredths of a disc (the unrounded estimate).
	Centi int
}

// Result is the outcome of a search: the move to play and how it was found.
type Result = Info

// Errors returned by Search.
var (
	// ErrGameOver is returned when neither side can move.
	ErrGameOver = errors.New("reversi: the game is over")
	// ErrNoIteration is returned when the context ended before the first
	// iteration finished.
	ErrNoIteration = errors.New("reversi: search stopped before any result")
)

// rootMove is a candidate move at the root with its latest score.
type rootMove struct {
	sq    int
	score int
}

// Search returns the move to play for the side to move, searching by
// iterative deepening up to the level's depth, then (when the level's
// endgame range is reached) solving the position exactly; under a deadline
// the top level settles the result (win, draw or loss) before the margin
// (playForResult). When ctx is done it
// returns the best move of the last completed iteration; it fails only if
// ctx was done before the search began, if no iteration could finish, or if
// the game is over. If the side to move must pass, it returns Pass at once.
func (e *Engine) Search(ctx context.Context, p Position, lim Limits) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{Best: NoSquare}, err
	}
	start := time.Now()
	moves := legalMoves(p.me, p.opp)
	if moves == 0 {
		if legalMoves(p.opp, p.me) == 0 {
			return Result{Best: NoSquare, Score: finalScore(p.me, p.opp), Exact: true}, ErrGameOver
		}
		return Result{Best: Pass, PV: []Square{Pass}}, nil
	}
	for _, x := range lim.Exclude {
		if x >= 0 && x < 64 {
			moves &^= 1 << uint(x)
		}
	}
	if moves == 0 {
		return Result{Best: NoSquare}, errors.New("reversi: every legal move is excluded")
	}

	lv := levelFor(lim.Level)
	maxDepth := lv.depth
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	} else if _, ok := ctx.Deadline(); !ok && lim.Nodes == 0 && maxDepth > noDeadlineDepth {
		maxDepth = noDeadlineDepth
	}
	empties := p.Empties()
	if lim.EndgameEmpties > 0 {
		lv.solveEmpties = lim.EndgameEmpties
	}
	solveFrom := lv.solveEmpties
	if maxDepth >= empties {
		solveFrom = empties // asked to search to the end: solve exactly
	}

	e.nodes = 0
	e.selective = lv.selective && !lim.NoSelective
	e.endConf = provenExact
	e.done = ctx.Done()
	e.aborted = false
	e.stopAtNodes = lim.Nodes
	e.mid.newSearch()
	e.end.newSearch()

	report := func(r *Result) {
		r.Elapsed = time.Since(start)
		r.Nodes = e.nodes
		if s := r.Elapsed.Seconds(); s > 0 {
			r.NPS = uint64(float64(e.nodes) / s)
		}
		if lim.Progress != nil {
			lim.Progress(*r)
		}
	}

	if lv.noise > 0 && lim.Depth == 0 {
		return e.noisyRoot(p, moves, lv, lim.Seed, report), nil
	}

	// Midgame iterative deepening. In the endgame range it still runs a few
	// shallow iterations: they order the solver's root moves and give a
	// fallback move if the solve is cut short.
	root := make([]rootMove, 0, 32)
	for m := moves; m != 0; m &= m - 1 {
		root = append(root, rootMove{sq: bits.TrailingZeros64(m)})
	}
	midDepth := maxDepth
	if empties <= solveFrom {
		// A few iterations first; more when the solve was asked for (by
		// depth) far beyond the level's endgame range, so that progress
		// keeps coming while the solve is out of reach.
		pre := endgamePreDepth
		if extra := empties - lv.solveEmpties; extra > 0 {
			pre += extra
		}
		if midDepth > pre {
			midDepth = pre
		}
	}
	if midDepth > empties {
		midDepth = empties
	}
	var res Result
	have := false
	deepen := func(from, to int) {
		for d := from; d <= to; d++ {
			score, partial := e.searchRoot(p.me, p.opp, root, d, have)
			if e.aborted {
				if have && partial >= 0 && partial != int(res.Best) {
					// The deadline cut this iteration after it had
					// proved a move better than the last iteration's
					// best: play it (the time spent on it is not
					// thrown away).
					res = Result{Depth: d - 1, Best: Square(partial), Centi: score, Score: roundDiscs(score), PV: []Square{Square(partial)}}
				}
				return
			}
			have = true
			res = Result{Depth: d, Best: Square(root[0].sq), Centi: score, Score: roundDiscs(score)}
			res.PV = e.principalVariation(p, root[0].sq, false)
			if d == empties {
				res.Exact = true // a search to the end of the game is a solve
			}
			report(&res)
		}
	}
	deepen(1, midDepth)
	if !have {
		return Result{Best: NoSquare}, ErrNoIteration
	}

	if empties <= solveFrom && !res.Exact {
		if !e.aborted && midDepth < maxDepth && !solveInTime(ctx, start) {
			// The solve's first pass would not end before the
			// deadline: search deeper in the midgame instead, to the
			// deadline.
			deepen(midDepth+1, min(maxDepth, empties))
		} else if _, ok := ctx.Deadline(); ok && e.selective {
			e.playForResult(p, root, &res, report)
		} else {
			midDepth := res.Depth
			best, score := e.solveRoot(p.me, p.opp, root, res.Score, func(best, score int) {
				// A selective pass: its move replaces the midgame's, but the
				// score is not proven (Exact stays false).
				res = Result{Depth: midDepth, Best: Square(best), Score: score, Centi: score * evalScale}
				res.PV = e.principalVariation(p, best, true)
				report(&res)
			})
			if !e.aborted {
				res = Result{Depth: empties, Best: Square(best), Score: score, Centi: score * evalScale, Exact: true}
				res.PV = e.principalVariation(p, best, true)
				report(&res)
			}
		}
	}
	res.Elapsed = time.Since(start)
	res.Nodes = e.nodes
	if s := res.Elapsed.Seconds(); s > 0 {
		res.NPS = uint64(float64(e.nodes) / s)
	}
	return res, nil
}

// playForResult is the solve of the top level under a deadline (endresult.go):
// the result passes, each that proves a win or a draw putting its move in
// *res, then the exact score if time is left. res holds the midgame
// iterations' result, kept when every pass finds a loss: then the midgame's
// choice is the better guess at the least bad move.
func (e *Engine) playForResult(p Position, root []rootMove, res *Result, report func(*Result)) {
	empties := p.Empties()
	mid := *res
	e.solveResult(p.me, p.opp, root, func(conf uint8, best, outcome int) {
		r := Result{Depth: mid.Depth, Best: Square(best)}
		switch outcome {
		case outcomeWin:
			r.Score = max(mid.Score, 2) // the estimate, when it agrees
		case outcomeDraw:
			r.Score = 0
		default:
			r.Best, r.Score = mid.Best, min(mid.Score, -2)
		}
		r.Centi = r.Score * evalScale
		r.PV = e.principalVariation(p, int(r.Best), true)
		*res = r
		report(res)
	})
	if e.aborted {
		return
	}
	// The proof is done: the outcome is known, and the best move is
	// first in root. The exact score settles the margin.
	best, score := e.solveAspiration(p.me, p.opp, root, res.Score)
	if !e.aborted {
		*res = Result{Depth: empties, Best: Square(best), Score: score, Centi: score * evalScale, Exact: true}
		res.PV = e.principalVariation(p, best, true)
		report(res)
	}
}

// solveTimeFactor: the solve after the midgame iterations is started only
// if the time left before the deadline is at least this many times the
// time the iterations took. A first selective pass that the deadline cuts
// is thrown away, and the move falls back on the iterations' shallower
// result. The thirty-second session set 3 from 405 positions of 24-34
// empties (first passes 2-4 times the iterations' time); on 21 positions of
// 24-34 empties the thirty-fourth session measured 1-14 times, median 5.7,
// and a factor of 8 chose better moves than 3 by the judged sets of 24-29
// and 30-39 empties (NTest's values at depth 20): better in 17 positions
// and worse in 5 over 0.3 s, 1 s and 3 s a move, where re-runs of the
// same build changed 10 (7 and 3): a small gain (docs/benchmarks.md).
const solveTimeFactor = 8

// solveInTime reports whether a solve started now is expected to end
// before ctx's deadline (always, when ctx has none): the search began at
// start.
func solveInTime(ctx context.Context, start time.Time) bool {
	deadline, ok := ctx.Deadline()
	if !ok {
		return true
	}
	spent := time.Since(start)
	return time.Until(deadline) >= solveTimeFactor*spent
}

// endgamePreDepth is the midgame depth searched before an exact solve: deep
// enough to put the best move first for the solver and to be a sound
// fallback when the deadline cuts the solve short, shallow enough to cost a
// small fraction of the solve. It was 10 until issue 16's fifteenth
// session: 12 takes FFO #40-#49 from 792.7 M to 750.4 M nodes and 45
// positions of held-out games at 22-24 empties from 3.81 G to 3.75 G, and
// scored 34-40-6 against NTest at 0.3 s where 10 scored 29-38-13 on the
// same 80 games (docs/benchmarks.md). Only searches allowed deeper than 10
// reach it (level 10, or a depth asked for): levels 1-9 stop at 10.
const endgamePreDepth = 12

// noDeadlineDepth caps the midgame depth of the top level when the context
// has no deadline and Limits no node budget, so that a search without a
// limit still ends (in seconds on one core).
const noDeadlineDepth = 14

// roundDiscs converts evaluation units to whole discs, rounding half away
// from zero.
func roundDiscs(v int) int {
	if v >= 0 {
		return (v + evalScale/2) / evalScale
	}
	return -((-v + evalScale/2) / evalScale)
}

// poll checks the context; it is called every pollInterval nodes.
func (e *Engine) poll() {
	select {
	case <-e.done:
		e.aborted = true
	default:
	}
	if e.stopAtNodes != 0 && e.nodes >= e.stopAtNodes {
		e.aborted = true
	}
}

// searchRoot searches every root move to depth and sorts root so that the
// best comes first; it returns the best score and move. ordered says whether
// root is already sorted by an earlier iteration. If the search is aborted,
// the move returned is the best of the moves searched completely (-1 if
// none was), and the score its score.
func (e *Engine) searchRoot(me, opp uint64, root []rootMove, depth int, ordered bool) (int, int) {
	if !ordered {
		for i := range root {
			sq := root[i].sq
			f := flips(me, opp, sq)
			root[i].score = -e.params.evaluate(opp&^f, me|f|1<<uint(sq))
		}
		sortRoot(root)
	}
	alpha, beta := -infinity, infinity
	best, bestSq := -infinity, -1
	for i := range root {
		sq := root[i].sq
		f := flips(me, opp, sq)
		cme, copp := opp&^f, me|f|1<<uint(sq)
		var v int
		if i == 0 {
			v = -e.pvs(cme, copp, -beta, -alpha, depth-1)
		} else {
			v = -e.pvs(cme, copp, -alpha-1, -alpha, depth-1)
			if v > alpha && !e.aborted {
				v = -e.pvs(cme, copp, -beta, -alpha, depth-1)
			}
		}
		if e.aborted {
			return best, bestSq
		}
		if v > best {
			best, bestSq = v, sq
			if v > alpha {
				alpha = v
			}
			root[i].score = v
		} else {
			root[i].score = -infinity + i // keep the old order among the rest
		}
	}
	sortRoot(root)
	e.mid.store(me, opp, depth, -infinity, infinity, best, root[0].sq)
	return best, bestSq
}

// sortRoot orders root moves by score, best first (stable).
func sortRoot(root []rootMove) {
	for i := 1; i < len(root); i++ {
		for j := i; j > 0 && root[j].score > root[j-1].score; j-- {
			root[j], root[j-1] = root[j-1], root[j]
		}
	}
}

// moveList is a fixed-size list of moves with their child positions and
// ordering keys, so the search allocates nothing. It has room for 64 moves:
// no position has more legal moves than empty squares.
type moveList struct {
	n   int
	sq  [64]int8
	key [64]int32
	me  [64]uint64
	opp [64]uint64
}

// putFirst gives the move on sq, if listed, the key that puts it first
// (the transposition table's move); sq -1 changes nothing.
func (l *moveList) putFirst(sq int) {
	for i := range l.n {
		if int(l.sq[i]) == sq {
			l.key[i] = hashMoveKey
		}
	}
}

// pick moves the best-keyed remaining move to position i (the first of
// equal keys).
func (l *moveList) pick(i int) {
	// Each key is packed with 255 minus its place after i, so that the
	// largest packed value is the best key and, among equal keys, the
	// first. The running maximum is kept by arithmetic, without a branch:
	// the comparison is a coin toss the processor mispredicts about every
	// other move (pick took a tenth of the search's time with a branch,
	// and the compiler makes one of max here).
	best := int64(l.key[i])<<8 | 255
	for j, k := range l.key[i+1 : l.n] { // a range over a slice: no bounds checks
		d := (int64(k)<<8 | int64(254-j)) - best // no overflow: keys are int32
		best += d &^ (d >> 63)                   // + d if d > 0
	}
	b := i + 255 - int(best&255)
	if b != i {
		l.sq[i], l.sq[b] = l.sq[b], l.sq[i]
		l.key[i], l.key[b] = l.key[b], l.key[i]
		l.me[i], l.me[b] = l.me[b], l.me[i]
		l.opp[i], l.opp[b] = l.opp[b], l.opp[i]
	}
}

// Move-ordering constants for the midgame search.
const (
	// hashMoveKey puts the transposition table's move first.
	hashMoveKey = 1 << 30
	// evalOrderDepth is the remaining depth from which children are ordered
	// by the full evaluation; below it, by the opponent's mobility, which is
	// cheaper and nearly as good close to the leaves.
	evalOrderDepth = 3
)

// pvs is the midgame principal-variation search (negamax, fail-soft),
// returning the score of (me to move) in evalScale units.
func (e *Engine) pvs(me, opp uint64, alpha, beta, depth int) int {
	return e.pvsFrame(me, opp, alpha, beta, depth, nil)
}

// pvsFrame is pvs given, when the caller has it, the node's pattern frame
// from the opponent's view (Read(opp, me)): a node two plies above the
// leaves hands each child its frame, one update instead of the child's
// reading its 46 instances again.
func (e *Engine) pvsFrame(me, opp uint64, alpha, beta, depth int, theirs *pattern.Frame) int {
	e.nodes++
	if e.nodes%pollInterval == 0 {
		e.poll()
	}
	if e.aborted {
		return 0
	}
	empties := 64 - popcount(me|opp)
	if depth >= empties && empties <= midgameSolveEmpties {
		// The search reaches the end of the game anyway: solve it exactly
		// with the faster endgame code.
		a, b := floorDiv(alpha, evalScale), ceilDiv(beta, evalScale)
		return e.solve(me, opp, a, b, empties) * evalScale
	}
	if depth <= 0 {
		return e.params.evaluate(me, opp)
	}
	moves := legalMoves(me, opp)
	if moves == 0 {
		if legalMoves(opp, me) == 0 {
			return finalScore(me, opp) * evalScale
		}
		return -e.pvsFrame(opp, me, -beta, -alpha, depth, nil)
	}

	hashMove := -1
	useTable := depth >= midTableMinDepth
	if !useTable {
		// Near the leaves a table probe (a cache miss) costs more than the
		// little subtree it could save.
	} else if ent, ok := e.mid.probe(me, opp); ok {
		if int(ent.depth) >= depth {
			lo, hi := int(ent.lower), int(ent.upper)
			if lo >= beta {
				return lo
			}
			if hi <= alpha {
				return hi
			}
			if lo == hi {
				return lo
			}
		}
		hashMove = int(ent.move)
	}

	if e.selective && depth >= mpcMinDepth && beta == alpha+1 && depth < empties {
		if v, ok := e.probCut(me, opp, alpha, beta, depth, empties); ok {
			return v
		}
	}

	l := &e.midLists[empties]
	l.n = 0
	// The children are evaluated here, as leaves (depth 1, and not the
	// last empty square: that child is a finished game) or to order the
	// moves: their pattern frames follow from this node's (pattern.Frame),
	// each update far cheaper than reading a child's patterns again.
	var frames *pattern.Frame
	if (depth == 1 && empties > 1 || depth >= evalOrderDepth) && e.params.usesFrames(empties-1) {
		if theirs == nil {
			theirs = new(pattern.Frame) // on the stack: it does not escape
			theirs.Read(opp, me)
		}
		frames = theirs
	}
	// Two plies above the leaves, the children's frames (for their own
	// children, the leaves) follow from this node's frame from its own view.
	var own, child *pattern.Frame
	if depth == 2 && empties > 2 && e.params.usesFrames(empties-2) {
		own, child = new(pattern.Frame), new(pattern.Frame)
		own.Read(me, opp)
	}
	// One ply above the leaves the moves are ordered by their square
	// alone, so a child is made only when its move is tried: a node that
	// fails high on its first moves never computes the others' flips.
	// The squares' order needs no sort: the moves are listed class by
	// class (squareClasses), each class in the order of the squares, as a
	// stable sort by squareKey would leave them.
	lazy := depth < 2 && hashMove < 0
	if lazy {
		for _, class := range squareClasses {
			for m := moves & class; m != 0; m &= m - 1 {
				l.sq[l.n] = int8(bits.TrailingZeros64(m))
				l.n++
			}
		}
		moves = 0 // listed
	}
	if depth >= 2 && depth < evalOrderDepth {
		// Two plies above the leaves: the children and their keys
		// (orderKey) in one call.
		l.n = orderKeys(me, opp, moves, l)
		l.putFirst(hashMove)
	} else {
		for m := moves; m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			f := flips(me, opp, sq)
			cme, copp := opp&^f, me|f|1<<uint(sq)
			var key int
			switch {
			case sq == hashMove:
				key = hashMoveKey
			case depth >= evalOrderDepth && frames != nil:
				key = -e.params.evaluateChild(cme, copp, frames, sq, f)
			case depth >= evalOrderDepth:
				key = -e.params.evaluate(cme, copp)
			default:
				key = squareKey[sq]
			}
			l.sq[l.n], l.key[l.n], l.me[l.n], l.opp[l.n] = int8(sq), int32(key), cme, copp
			l.n++
			if depth > midTableMinDepth {
				// The child will probe the table (a cache miss, most of
				// the time): start the load now, while the other children
				// are made and keyed. Same nodes; BenchmarkMidgame 4-6%
				// faster.
				e.mid.prefetch(hashPosition(cme, copp))
			}
		}
	}

	alpha0 := alpha
	best, bestMove := -infinity, -1
	for i := 0; i < l.n; i++ {
		if lazy {
			f := flips(me, opp, int(l.sq[i]))
			l.me[i], l.opp[i] = opp&^f, me|f|1<<uint(l.sq[i])
		} else {
			l.pick(i)
		}
		var v int
		if depth == 1 && frames != nil {
			// The children are leaves: evaluate each from this node's
			// frame, with pvs's node count at depth 0 (a null-window
			// search and its re-search are two nodes).
			sq, f := int(l.sq[i]), opp&^l.me[i]
			v = -e.leaf(l.me[i], l.opp[i], frames, sq, f)
			if i > 0 && v > alpha && v < beta && !e.aborted {
				v = -e.leaf(l.me[i], l.opp[i], frames, sq, f)
			}
		} else {
			if own != nil {
				*child = *own
				child.PlayOwn(int(l.sq[i]), opp&^l.me[i])
			}
			if i == 0 {
				v = -e.pvsFrame(l.me[i], l.opp[i], -beta, -alpha, depth-1, child)
			} else {
				v = -e.pvsFrame(l.me[i], l.opp[i], -alpha-1, -alpha, depth-1, child)
				if v > alpha && v < beta && !e.aborted {
					v = -e.pvsFrame(l.me[i], l.opp[i], -beta, -alpha, depth-1, child)
				}
			}
		}
		if e.aborted {
			return 0
		}
		if v > best {
			best, bestMove = v, int(l.sq[i])
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	if useTable {
		e.mid.store(me, opp, depth, alpha0, beta, best, bestMove)
	}
	return best
}

// leaf is pvs at depth 0 for a child (me, opp) of a node that has more
// than one empty square, whose move sq turned over flipped: the same node
// count and score, with the child's pattern frame updated from parent, the
// node's frame from the child's view (Read(opp, me) at the node).
func (e *Engine) leaf(me, opp uint64, parent *pattern.Frame, sq int, flipped uint64) int {
	e.nodes++
	if e.nodes%pollInterval == 0 {
		e.poll()
	}
	if e.aborted {
		return 0
	}
	return e.params.evaluateChild(me, opp, parent, sq, flipped)
}

// midTableMinDepth is the least remaining depth at which the midgame search
// uses its transposition table.
const midTableMinDepth = 2

// midgameSolveEmpties is the most empties at which the midgame search hands
// a node that it would search to the end anyway to the exact solver; beyond
// it such nodes are rare and an exact solve could take far longer than the
// depth-limited search the caller asked for.
const midgameSolveEmpties = 14

// orderKeysGo makes the child and the key (orderKey) of every move of
// moves into l, from index 0, and returns their number. orderKeys is this
// function, or the same in assembly.
func orderKeysGo(me, opp, moves uint64, l *moveList) int {
	n := 0
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(me, opp, sq)
		cme, copp := opp&^f, me|f|1<<uint(sq)
		l.sq[n], l.key[n], l.me[n], l.opp[n] = int8(sq), int32(orderKey(cme, copp, sq)), cme, copp
		n++
	}
	return n
}

// orderKey ranks a move for ordering near the leaves: fewer replies for the
// opponent is better, corners are good, X-squares next to an empty corner
// are bad.
func orderKey(cme, copp uint64, sq int) int {
	replies := legalMoves(cme, copp)
	k := -16*popcount(replies) - 32*popcount(replies&cornerMask)
	bit := uint64(1) << uint(sq)
	if bit&cornerMask != 0 {
		k += 64
	}
	return k
}

// squareClasses are the squares of each value of squareKey, the best
// first.
var squareClasses = func() []uint64 {
	var keys []int
	for _, k := range squareKey {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	classes := make([]uint64, len(keys))
	for i, k := range keys {
		for sq, sk := range squareKey {
			if sk == k {
				classes[i] |= 1 << uint(sq)
			}
		}
	}
	return classes
}()

// squareKey ranks a move by its square alone, for ordering one ply above
// the leaves, where the children's evaluation will compute their mobility
// anyway: corners first, then edges and the centre, X- and C-squares last.
var squareKey = [64]int{
	64, -8, 16, 8, 8, 16, -8, 64,
	-8, -32, 0, 0, 0, 0, -32, -8,
	16, 0, 4, 2, 2, 4, 0, 16,
	8, 0, 2, 0, 0, 2, 0, 8,
	8, 0, 2, 0, 0, 2, 0, 8,
	16, 0, 4, 2, 2, 4, 0, 16,
	-8, -32, 0, 0, 0, 0, -32, -8,
	64, -8, 16, 8, 8, 16, -8, 64,
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

// principalVariation follows the best moves stored in the tables from p,
// starting with first.
func (e *Engine) principalVariation(p Position, first int, exact bool) []Square {
	pv := []Square{Square(first)}
	q := p.play(first)
	t := e.mid
	if exact {
		t = e.end
	}
	seen := map[Position]bool{p: true}
	for len(pv) < 60 && !q.GameOver() && !seen[q] {
		seen[q] = true
		if q.MustPass() {
			pv = append(pv, Pass)
			q, _ = q.PlayPass()
			continue
		}
		ent, ok := t.probe(q.me, q.opp)
		if !ok || ent.move < 0 || !q.IsLegal(Square(ent.move)) {
			break
		}
		pv = append(pv, Square(ent.move))
		q = q.play(int(ent.move))
	}
	return pv
}

// noisyRoot plays a weak level: every root move is searched with a full
// window to the level's depth, a random amount up to the level's noise is
// added to each score, and the best noisy score is played. The random
// stream depends only on the seed and the position, so play is reproducible.
func (e *Engine) noisyRoot(p Position, moves uint64, lv level, seed int64, report func(*Result)) Result {
	if seed == 0 {
		seed = 1
	}
	rng := rand.New(rand.NewSource(seed ^ int64(hashPosition(p.me, p.opp)>>1)))
	best, bestScore, bestNoisy := -1, 0, -1<<30
	for m := moves; m != 0; m &= m - 1 {
		sq := bits.TrailingZeros64(m)
		f := flips(p.me, p.opp, sq)
		v := -e.pvs(p.opp&^f, p.me|f|1<<uint(sq), -infinity, infinity, lv.depth-1)
		noisy := v + rng.Intn(2*lv.noise+1) - lv.noise
		if noisy > bestNoisy {
			best, bestScore, bestNoisy = sq, v, noisy
		}
	}
	res := Result{Depth: lv.depth, Best: Square(best), Centi: bestScore, Score: roundDiscs(bestScore), PV: []Square{Square(best)}}
	report(&res)
	return res
}

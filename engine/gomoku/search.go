package gomoku

import (
	"context"
	"errors"
	"math/rand"
	"slices"
	"sort"
	"time"
)

// Scores. Scores are from the side to move's point of view. A proven win
// in n plies scores WinScore-n and a proven loss -(WinScore-n); anything at
// or beyond WinThreshold in absolute value is a proof, not an estimate.
const (
	// WinScore is the score of winning now. It is far above any evaluation
	// (the pattern totals stay below a few tens of thousands).
	WinScore = 1_000_000
	// WinThreshold separates proven results from evaluations: a proof is
	// never longer than maxPly plies.
	WinThreshold = WinScore - maxPly
	// maxPly bounds the depth of the search stack, extensions and threat
	// sequences included.
	maxPly = 256
	// MaxDepth is the deepest nominal depth iterative deepening will try.
	MaxDepth = 40
)

// DefaultTTBits sizes the transposition table: 2^20 entries of 16 bytes,
// 16 MiB per Engine.
const DefaultTTBits = 20

// Engine searches gomoku positions. It owns its transposition tables and
// is reusable across games (the tables are cleared when the board size or
// rule changes), but it is not safe for concurrent use: give each
// goroutine its own Engine.
type Engine struct {
	tt      []ttEntry
	ttMask  uint64
	threat  threatTable
	killers [maxPly][2]int16
	history [2][maxCells]int32
	size    int
	rule    Rule

	// Per-search state.
	done    <-chan struct{}
	stopped bool
	// threatUntil, when set, ends the root threat search (not the whole
	// search) at that time, so a fruitless VCT leaves time for the main
	// search.
	threatUntil time.Time
	threatOut   bool
	// searchUntil, when set, ends the main search before the deadline,
	// leaving the rest to the deep screen of its choice (deepScreen).
	searchUntil time.Time
	nodeLimit   uint64 // Limits.Nodes
	// threatNodes is threatUntil under a node budget: the root threat
	// search and the screen end when the search has used this many nodes.
	threatNodes uint64
	nodes       uint64
	pollBlock   uint64 // nodes/256 at the last poll (checkStop)
	vcfBudget   int
	pv          [maxPly][maxPly]int16
	pvLen       [maxPly]int
	rootMoves   []rootMove
	rootDepth   int // nominal depth of the current iteration
	// iterBest is the best root move of the current iteration so far
	// (-1: none yet) and iterScore its score: what a cut iteration gives.
	iterBest, iterScore int
	line                threatLine
	opt                 options
	// moveLists[ply] holds the move list of negamax's node at ply (one
	// node per ply is searching at a time). A list on the frame's stack
	// (6.4 KB) was zeroed at every node (with the VCF's, 1.7% of a
	// level-6 search's instructions; docs/benchmarks.md, thirty-sixth
	// session).
	moveLists [maxPly][maxMoves]scored
	// pnTable holds the proof-number VCT's nodes (vct.go), allocated on
	// its first use: the levels below 6 never use it.
	pnTable []pnEntry
	// pnLists[ply] holds the children of the proof-number node at ply
	// (dfpn, vct.go), allocated with pnTable.
	pnLists *[maxPly]pnList
}

// NewEngine returns an engine with a DefaultTTBits transposition table
// (16 MiB) and a 4 MiB threat-search table.
func NewEngine() *Engine {
	e := &Engine{}
	e.tt = make([]ttEntry, 1<<DefaultTTBits)
	e.ttMask = 1<<DefaultTTBits - 1
	e.threat = newThreatTable(threatTableBits)
	return e
}

// Limits configure one search.
type Limits struct {
	// Level is the strength, 1..MaxLevel; 0 means full strength.
	Level int
	// Depth overrides the level's depth limit when > 0.
	Depth int
	// Progress, if not nil, is called after each completed iteration.
	Progress func(Info)
	// Seed drives the randomness of the weak levels; 0 is a fixed default,
	// so play is reproducible.
	Seed int64
	// Nodes, when > 0, ends the search after about this many nodes (main
	// and threat search), like a deadline that does not depend on the
	// machine's speed or load: for measurements that must be reproducible.
	Nodes uint64
}

// Info describes the state of a search after an iteration.
type Info struct {
	Depth   int           // nominal depth of the last completed iteration
	Nodes   uint64        // nodes searched so far (main and threat search)
	NPS     uint64        // nodes per second
	Elapsed time.Duration // time since the search started
	Best    Point         // the best move so far
	Score   int           // from the side to move's view; |Score| >= WinThreshold is a proof
	PV      []Point       // principal variation, starting with Best
}

// Result is the outcome of a search: the Info of the last completed
// iteration.
type Result = Info

// Search returns the move for the side to move in b. The time limit is
// ctx's deadline: when ctx is done, Search returns the best move of the
// last completed iteration, or, if none completed, the best-ordered legal
// move; it never fails for lack of time. Errors: ErrGameOver on a finished
// game, a level out of range, or no legal move (renju, every point
// forbidden). b is left unchanged. On an empty board it answers the centre
// at once.
func (e *Engine) Search(ctx context.Context, b *Board, lim Limits) (Result, error) {
	start := time.Now()
	if b.Over() {
		return Result{}, ErrGameOver
	}
	if lim.Level < 0 || lim.Level > MaxLevel {
		return Result{}, errors.New("gomoku: level out of range")
	}
	if e.size != b.size || e.rule != b.rule {
		if e.size != 0 { // a new engine's tables are empty already
			e.clear()
		}
		e.size, e.rule = b.size, b.rule
	}
	e.opt = levelOptions(lim.Level)
	if _, ok := ctx.Deadline(); !ok && lim.Nodes == 0 && e.opt.depth > fullDepthWithoutDeadline {
		e.opt.depth = fullDepthWithoutDeadline
	}
	if lim.Depth > 0 {
		e.opt.depth = min(lim.Depth, MaxDepth)
	}
	pos := b.Clone()
	e.done = ctx.Done()
	e.stopped = false
	e.nodes, e.pollBlock = 0, ^uint64(0)
	e.nodeLimit = lim.Nodes
	e.history = [2][maxCells]int32{}
	e.killers = [maxPly][2]int16{}

	info := func(depth int, best int, score int, pv []int16) Info {
		el := time.Since(start)
		in := Info{Depth: depth, Nodes: e.nodes, Elapsed: el, Best: pos.point(best), Score: score}
		if el > 0 {
			in.NPS = uint64(float64(e.nodes) / el.Seconds())
		}
		for _, m := range pv {
			in.PV = append(in.PV, pos.point(int(m)))
		}
		return in
	}

	if pos.stones == 0 {
		c := pos.index(Point{pos.size / 2, pos.size / 2})
		r := info(1, c, 0, []int16{int16(c)})
		if lim.Progress != nil {
			lim.Progress(r)
		}
		return r, nil
	}

	// Forced answers and threat-space wins before the main search. The
	// threat search gets at most rootThreatShare of the time.
	e.threatUntil, e.threatOut = time.Time{}, false
	dl, hasDL := ctx.Deadline()
	if hasDL {
		e.threatUntil = timeShare(start, dl, rootThreatShare)
	}
	if lim.Nodes > 0 {
		e.threatNodes = uint64(float64(lim.Nodes) * rootThreatShare) // the same share of a node budget
	}
	r, ok := e.rootThreats(pos, info)
	e.threatUntil, e.threatOut, e.threatNodes = time.Time{}, false, 0
	if ok {
		if lim.Progress != nil {
			lim.Progress(r)
		}
		return r, nil
	}

	e.rootMoves = e.genRootMoves(pos)
	if len(e.rootMoves) == 0 {
		// Every empty point is forbidden to black: no legal move is left.
		return Result{}, errors.New("gomoku: no legal move")
	}
	best := info(0, int(e.rootMoves[0].move), 0, []int16{e.rootMoves[0].move})
	// The screen may use the time up to screenShare of the budget; what it
	// has not screened by then is screened if the main search chooses it
	// (screenBest).
	if hasDL {
		e.threatUntil = timeShare(start, dl, screenShare)
	}
	if lim.Nodes > 0 {
		e.threatNodes = uint64(float64(lim.Nodes) * screenShare)
	}
	e.screenRoot(pos)
	e.threatUntil, e.threatOut, e.threatNodes = time.Time{}, false, 0
	// The deep screen gets the last share of the time, or of the node
	// budget.
	deep := (hasDL || lim.Nodes > 0) && e.opt.deepScreenNodes > 0
	if deep && hasDL {
		e.searchUntil = timeShare(start, dl, deepScreenStart)
	}
	if deep && lim.Nodes > 0 {
		e.nodeLimit = uint64(float64(lim.Nodes) * deepScreenStart)
	}
	stable := 0 // iterations in a row that kept the best move
	// deepen runs the iterations from depth from on, until the level's
	// depth, a proof, the end of the main search's share or (if mayStop)
	// a stable best move, and then lifts the share's limits for what
	// follows.
	deepen := func(from int, mayStop bool) {
		defer func() { e.searchUntil, e.nodeLimit = time.Time{}, lim.Nodes }()
		for depth := from; depth <= e.opt.depth; depth++ {
			score := e.searchRoot(pos, depth)
			for !e.stopped && score > -WinThreshold && e.screenBest(pos) {
				score = e.searchRoot(pos, depth)
			}
			if e.stopped {
				// An iteration cut by the deadline still tells something: a
				// move that beat the previous best at the new depth (searched
				// to the end with the full window, and screened) is better.
				if m, s, ok := e.partialBest(); ok && e.opt.noise == 0 && m != pos.index(best.Best) {
					best = info(depth-1, m, s, e.pv[0][:e.pvLen[0]])
				}
				return
			}
			e.pickNoisy(lim.Seed, depth)
			if depth > stableFromDepth && int(e.rootMoves[0].move) == pos.index(best.Best) {
				stable++
			} else {
				stable = 0
			}
			best = info(depth, int(e.rootMoves[0].move), score, e.pv[0][:e.pvLen[0]])
			if lim.Progress != nil {
				lim.Progress(best)
			}
			if score >= WinThreshold || score <= -WinThreshold || len(e.rootMoves) == 1 {
				return
			}
			if mayStop && hasDL && stopEarly(time.Since(start), dl.Sub(start), stable) {
				return
			}
		}
	}
	deepen(1, true)
	// The deep screen runs even when the main search scores every move
	// lost: its losses are found among a limited number of defences at
	// each node, so a move the opponent's threat search cannot prove lost
	// is still the better choice.
	if deep && best.Score < WinThreshold && (lim.Nodes == 0 || e.nodes < lim.Nodes) {
		select {
		case <-ctx.Done():
		default:
			e.stopped = false
			m, verdict := e.deepScreen(pos, pos.index(best.Best), dl, hasDL)
			switch {
			case verdict == screenReplaced:
				best = info(best.Depth, m, e.rootScore(m), []int16{int16(m)})
			case verdict == screenSafe && best.Score > -WinThreshold && e.resumeSearch(start, dl, hasDL, lim.Nodes):
				// The choice is safe and time is left: the main search
				// goes on to the end of its share, and a new choice must
				// pass the deep screen in what remains (unless it is a
				// proven win), or the safe one stands. The resumed search
				// does not stop early: its count of stable iterations
				// would carry over from the main search, and stopEarly
				// ended it after its first iteration on 30 of 81
				// positions of the games against Rapfi.
				chosen := best
				e.stopped = false
				deepen(best.Depth+1, false)
				if best.Best != chosen.Best && best.Score < WinThreshold {
					e.stopped = false
					if !e.deepSafe(pos, pos.index(best.Best), dl, hasDL) {
						best = chosen
					}
				}
			}
		}
	}
	best.Nodes = e.nodes
	best.Elapsed = time.Since(start)
	if best.Elapsed > 0 {
		best.NPS = uint64(float64(e.nodes) / best.Elapsed.Seconds())
	}
	return best, nil
}

// Time use under a deadline. The deadline is the hard limit: an iteration
// it cuts is not wasted (partialBest). Before it, the main search stops
// early only when the best move has stood for several iterations, so that
// it thinks longer when the best move keeps changing; when it stops early
// at level 6 the deep screen only comes sooner, and the search resumes
// after it (resumeSearch). (It used to stop when the next iteration was
// expected to take more than three times the last one left, and used
// 40-43% of a second per move on average.)
const (
	// stableLong iterations with the same best move allow stopping once
	// stableLongShare of the time is used...
	stableLong      = 4
	stableLongShare = 0.5
	// ... and stableShort of them once stableShortShare is used.
	stableShort      = 2
	stableShortShare = 0.75
)

// stableFromDepth: iterations up to this depth do not count as keeping the
// best move. They take a few milliseconds, so counting them let the search
// stop at half its time after four trivial iterations.
const stableFromDepth = 5

// rootThreatShare is the share of the time (or of the node budget) the
// threat search at the root may use before the main search. It was a
// third: in the games against Rapfi at 1 s a move, the root VCT used all
// of it on most moves without finding a win, and the main search started
// after 320 ms. The main search finds the short threat wins itself (fours
// are searched as forcing moves, the VCF a ply above its leaves), and the
// deep screen guards against the opponent's.
const rootThreatShare = 0.1

// screenShare is the share of the time (counted from the start of the
// search) up to which the screen of the root moves may run. It was a
// half; like the root threat search, the screen often left the main
// search only the second half of the second. A quarter until issue 15's
// third session; with 0.15 (and the main search's changes of that
// session) level 6 scored 66% against the build with a quarter at 300 ms
// a move (docs/benchmarks.md, "Sixth session").
const screenShare = 0.15

// stopEarly reports whether the search may stop after an iteration, with
// elapsed of total used and the best move unchanged for stable
// iterations.
func stopEarly(elapsed, total time.Duration, stable int) bool {
	used := float64(elapsed) / float64(total)
	return (stable >= stableLong && used >= stableLongShare) ||
		(stable >= stableShort && used >= stableShortShare)
}

// Time left after the deep screen. When the deep screen finds the main
// search's choice safe quickly, the rest of the time would go unused (on
// 20 positions of the games against Rapfi, 960 ms a move, the search
// returned after 540-710 ms); the main search resumes instead, up to
// resumeEnd of the time (or of a node budget), if at least resumeMin of
// it is left, and what remains after it is for the deep screen of a new
// choice. The resumed search runs to resumeEnd unless it proves a result:
// on those positions level 6 now returns after 700 ms on average (655 ms
// when the resumed search could stop early), and on 81 positions of its
// games that the root threat search or a proof does not answer at once,
// after 870 ms (814 ms).
const (
	resumeMin = 0.1
	resumeEnd = 0.9
)

// resumeSearch reports whether the main search may resume after the deep
// screen, and if so sets its end (searchUntil, or nodeLimit under a node
// budget).
func (e *Engine) resumeSearch(start, deadline time.Time, hasDeadline bool, nodes uint64) bool {
	switch {
	case nodes > 0:
		if float64(e.nodes) > float64(nodes)*(resumeEnd-resumeMin) {
			return false
		}
		e.nodeLimit = uint64(float64(nodes) * resumeEnd)
	case hasDeadline:
		if time.Now().After(timeShare(start, deadline, resumeEnd-resumeMin)) {
			return false
		}
		e.searchUntil = timeShare(start, deadline, resumeEnd)
	default:
		return false
	}
	return true
}

// timeShare is the time when share of the whole time from start to
// deadline is used. Every part of a search under a deadline ends at such a
// time, so that it ends where its share says whatever the parts before it
// took. (The root threat search, the screen and the main search once took
// their shares of the time left when they began: the main search then ended
// at about 60% of the time, not 70%; docs/benchmarks.md, fifteenth session.)
func timeShare(start, deadline time.Time, share float64) time.Time {
	return start.Add(time.Duration(float64(deadline.Sub(start)) * share))
}

// partialBest returns the best move of an iteration cut by the deadline:
// the last root move whose search at the new depth ended inside the
// window with a score above the ones before it, if it has been screened
// for the opponent's threat wins (or the level has no screen).
func (e *Engine) partialBest() (move, score int, ok bool) {
	if e.iterBest < 0 {
		return 0, 0, false
	}
	for _, rm := range e.rootMoves {
		if int(rm.move) == e.iterBest {
			if rm.losing || (e.opt.screenVCF > 0 && !rm.screened) {
				return 0, 0, false
			}
			return e.iterBest, e.iterScore, true
		}
	}
	return 0, 0, false
}

// clear empties the transposition tables.
func (e *Engine) clear() {
	clear(e.tt)
	e.threat.clear()
	clear(e.pnTable)
}

// checkStop polls the context every 256 nodes: cheap enough not to show
// in profiles (a non-blocking receive), frequent enough (about a
// millisecond even on a machine that gives the search a tenth of a core)
// for deadlines. It polls at the first call in each block of 256 nodes,
// not only at a multiple of 256: the threat searches count two nodes
// between some calls, and a poll that waited for an exact multiple could
// miss several blocks (20,736 nodes for a budget of 20,000 on one of
// TestNodeBudgetRapfiPositions' positions once level 6 ordered its moves
// by the move score).
func (e *Engine) checkStop() {
	if e.nodes>>8 == e.pollBlock {
		return
	}
	e.pollBlock = e.nodes >> 8
	if e.done != nil {
		select {
		case <-e.done:
			e.stopped = true
		default:
		}
	}
	if e.nodeLimit > 0 && e.nodes >= e.nodeLimit {
		e.stopped = true
	}
	if e.threatNodes > 0 && e.nodes >= e.threatNodes {
		e.threatOut = true
	}
	if !e.threatUntil.IsZero() || !e.searchUntil.IsZero() {
		now := time.Now()
		if !e.threatUntil.IsZero() && now.After(e.threatUntil) {
			e.threatOut = true
		}
		if !e.searchUntil.IsZero() && now.After(e.searchUntil) {
			e.stopped = true
		}
	}
}

// genRootMoves returns every legal, sensible root move in order.
func (e *Engine) genRootMoves(b *Board) []rootMove {
	var buf [maxMoves]scored
	moves := e.genMoves(b, buf[:0], -1, 0)
	out := make([]rootMove, len(moves))
	for k, m := range moves {
		out[k] = rootMove{move: int16(m.move), order: m.score}
	}
	return out
}

// searchRoot runs one iteration at the root and reorders the root moves
// by their scores (stable, so ties keep the previous order).
func (e *Engine) searchRoot(b *Board, depth int) int {
	e.rootDepth = depth
	alpha, beta := -WinScore-1, WinScore+1
	e.pvLen[0] = 0
	e.iterBest = -1
	best := -WinScore - 1
	for k := range e.rootMoves {
		m := int(e.rootMoves[k].move)
		if e.rootMoves[k].losing {
			e.rootMoves[k].score = -(WinScore - 3)
			continue
		}
		b.play(m)
		e.nodes++
		var score int
		if k == 0 {
			score = -e.negamax(b, depth-1, -beta, -alpha, 1)
		} else {
			score = -e.negamax(b, depth-1, -alpha-1, -alpha, 1)
			if score > alpha && !e.stopped {
				score = -e.negamax(b, depth-1, -beta, -alpha, 1)
			}
		}
		b.undo()
		if e.stopped {
			return best
		}
		e.rootMoves[k].score = score
		if k > 0 && score <= alpha {
			e.rootMoves[k].score = min(score, alpha) - 1
		}
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
			e.pv[0][0] = int16(m)
			copy(e.pv[0][1:], e.pv[1][:e.pvLen[1]])
			e.pvLen[0] = e.pvLen[1] + 1
			e.iterBest, e.iterScore = m, score
		}
	}
	sort.SliceStable(e.rootMoves, func(i, j int) bool { return e.rootMoves[i].score > e.rootMoves[j].score })
	if e.pvLen[0] == 0 {
		e.pv[0][0] = e.rootMoves[0].move
		e.pvLen[0] = 1
	}
	return best
}

// pickNoisy lets the weak levels pick, with seeded randomness, among the
// root moves whose score is within the level's margin of the best. It
// never gives up a proven win nor picks a proven loss over a non-loss.
func (e *Engine) pickNoisy(seed int64, depth int) {
	margin := e.opt.noise
	if margin <= 0 || len(e.rootMoves) < 2 {
		return
	}
	top := e.rootMoves[0].score
	if top >= WinThreshold {
		return
	}
	n := 1
	for n < len(e.rootMoves) && n < e.opt.noiseWidth && e.rootMoves[n].score >= top-margin && e.rootMoves[n].score > -WinThreshold {
		n++
	}
	if n == 1 {
		return
	}
	rng := rand.New(rand.NewSource(seed ^ int64(depth)*0x5851f42d ^ 0x2545f491))
	k := rng.Intn(n)
	e.rootMoves[0], e.rootMoves[k] = e.rootMoves[k], e.rootMoves[0]
	e.pv[0][0] = e.rootMoves[0].move
	e.pvLen[0] = 1
}

// scored is a move with its ordering score and (level 6) its fitted move
// score (movescore.go), read before the move is played: the weak-three
// reduction tests it. The field fits the struct's padding, so a move list
// takes no more memory (TestScoredSize).
type scored struct {
	move  int
	score int32
	fit   int32
}

// Ordering bonuses, far above pattern values so that they dominate.
const (
	orderTT     = 1 << 30 // the transposition table's move first
	orderKiller = 1 << 20 // then the killers, which refuted siblings
)

// genMoves fills buf with the moves worth searching at this node, ordered
// best first: the transposition table's move, the killers, then the
// points' pattern values for both sides (level 6: the fitted move score,
// movescore.go) plus the history table. When the opponent threatens to
// make an open four (it has an open three), only the moves that stop it
// or make a four are generated; otherwise every empty point near the
// stones.
func (e *Engine) genMoves(b *Board, buf []scored, ttMove, ply int) []scored {
	return orderMoves(b, e.scanMoves(b, buf, ttMove, ply))
}

// scanMoves is genMoves' first half: it appends the moves with their
// ordering scores in board order, renju's forbidden points included.
func (e *Engine) scanMoves(b *Board, buf []scored, ttMove, ply int) []scored {
	me := b.ToMove()
	opp := me.Other()
	defend := b.classCount[opp][tFlex4] > 0
	var scorer moveScorer
	if e.opt.moveScore {
		scorer = newMoveScorer(b)
	}
	// What every move reads, addressed once: the side's history row and
	// the killers (none beyond maxPly; -1 is no cell).
	hist := &e.history[me]
	killer0, killer1 := int16(-1), int16(-1)
	if ply < maxPly {
		killer0, killer1 = e.killers[ply][0], e.killers[ply][1]
	}
	// The empty cells near the stones, eight at a time (movegen.go).
	for w, last := b.firstCell(), b.lastCell(); w <= last; w += 8 {
		for m := b.emptyCells(w) & nonZeroBytes(word(b.near[w:])); m != 0; m &= m - 1 {
			i := nextCell(w, m)
			if defend && !isFourClass(b.threat[me][i]) && b.maxPattern(opp, i) < pB4 {
				continue
			}
			var s, fit int32
			if e.opt.moveScore {
				fit = scorer.score(i)
				s = fit
			} else {
				s = b.valueAt(me, i) + b.valueAt(opp, i)
			}
			s += hist[i] >> 4
			if i == ttMove {
				s += orderTT
			} else if int16(i) == killer0 || int16(i) == killer1 {
				s += orderKiller
			}
			buf = append(buf, scored{move: i, score: s, fit: fit})
		}
	}
	return buf
}

// orderMoves is genMoves' second half: it sorts the moves of scanMoves
// best first and drops the points forbidden to black under renju.
func orderMoves(b *Board, buf []scored) []scored {
	// Best first. The sort only asks whether the comparison is negative,
	// so the difference of the scores (int32s: it cannot overflow an int)
	// orders exactly as cmp.Compare does, without its branches.
	slices.SortFunc(buf, func(x, y scored) int { return int(y.score) - int(x.score) })
	if b.rule == Renju && b.ToMove() == Black {
		n := 0
		for _, m := range buf {
			if !b.isForbidden(m.move) {
				buf[n] = m
				n++
			}
		}
		buf = buf[:n]
	}
	return buf
}

// firstMove returns the index in moves (scanMoves' list, unsorted) of the
// move that orderMoves would put first, when that does not depend on how
// the sort orders ties and on renju's forbidden points: the one move with
// the highest score, if it is legal. ok is false otherwise (two moves
// share the highest score, or the best is forbidden).
func firstMove(b *Board, moves []scored) (k int, ok bool) {
	if len(moves) == 0 {
		return 0, false
	}
	top := moves[0].score
	ties := false
	for j := 1; j < len(moves); j++ {
		switch s := moves[j].score; {
		case s > top:
			top, k, ties = s, j, false
		case s == top:
			ties = true
		}
	}
	if ties || !b.legalFor(b.ToMove(), moves[k].move) {
		return 0, false
	}
	return k, true
}

// negamax is the principal-variation alpha-beta search.
func (e *Engine) negamax(b *Board, depth, alpha, beta, ply int) int {
	e.pvLen[ply] = 0
	if b.won {
		return -(WinScore - ply)
	}
	if b.stones == b.size*b.size {
		return 0
	}
	e.checkStop()
	if e.stopped {
		return 0
	}
	if ply >= maxPly-2 {
		return e.eval(b)
	}
	me := b.ToMove()
	opp := me.Other()

	// Mate-distance pruning: no result here can beat a win next move.
	if WinScore-ply-1 <= alpha {
		return alpha
	}
	// I have five: win now.
	if b.classCount[me][tFive] > 0 {
		return WinScore - ply - 1
	}
	// The opponent has a four: block it, nothing else.
	if b.classCount[opp][tFive] > 0 {
		cell, ok := b.forcedBlock(me)
		if !ok {
			return -(WinScore - ply - 2)
		}
		b.play(cell)
		e.nodes++
		score := -e.negamax(b, depth, -beta, -alpha, ply+1) // forced: no depth used
		b.undo()
		if score > alpha {
			e.setPV(ply, cell)
		}
		return score
	}
	// I can make an open four and the opponent has no four to reply with:
	// a win in three plies.
	if b.classCount[me][tFlex4] > 0 && !b.hasFourMove(opp) {
		if i, ok := b.openFourMove(me); ok {
			e.setPV(ply, i)
			return WinScore - ply - 3
		}
	}

	// Transposition table.
	hash := b.hash
	ttMove := -1
	if ent, ok := e.probe(hash); ok {
		ttMove = int(ent.move)
		if int(ent.depth) >= depth {
			s := scoreFromTT(int(ent.score), ply)
			switch {
			case ent.flag == ttExact:
				return s
			case ent.flag == ttLower && s >= beta:
				return s
			case ent.flag == ttUpper && s <= alpha:
				return s
			}
		}
	}

	if depth <= 0 {
		return e.leaf(b, alpha, beta, ply)
	}
	pvNode := beta-alpha > 1
	staticEval, haveEval := 0, false
	// Static futility and razoring (selective.go): far above beta, a
	// shallow node is not searched; far below alpha, it drops into the
	// threat search and the quiescence of open threes.
	if e.opt.futility && !pvNode && depth <= futilityDepth && b.classCount[opp][tFlex4] == 0 &&
		beta < WinThreshold && alpha > -WinThreshold {
		if !haveEval {
			staticEval, haveEval = e.eval(b), true
		}
		if staticEval-staticFutilityMargin(depth) >= beta {
			return staticEval
		}
		if depth <= razorDepth && staticEval+razorMargin(depth) < alpha {
			return e.leaf(b, alpha, beta, ply)
		}
	}
	// One ply above the leaves, a short VCF for the side to move: the
	// static evaluation of the plies below cannot see it. Level 6 runs it
	// after the moves, and only when none of them reached beta.
	frontier := depth <= 1 && e.opt.frontierVCF > 0 && b.hasFourMove(me)
	if frontier && !e.opt.frontierLast && e.frontierWin(b, ply) {
		return WinScore - ply - 5
	}

	// The moves are sorted only when the first does not cut off: the
	// first is the one move with the highest score (the table's move,
	// as a rule), found without sorting, and a cut-off on it is the most
	// common end of a node (docs/benchmarks.md, thirty-sixth session).
	// When the highest score is shared, the sort's order of the tie
	// decides, so the moves are sorted before the first is searched.
	var first [1]scored
	unsorted := e.scanMoves(b, e.moveLists[ply][:0], ttMove, ply)
	w := e.opt.width(depth)
	var moves []scored
	cut := false // the width left moves unsearched
	k0, lazy := firstMove(b, unsorted)
	if lazy {
		first[0] = unsorted[k0]
		moves = first[:]
	} else {
		moves = orderMoves(b, unsorted)
		if len(moves) == 0 {
			if b.classCount[opp][tFlex4] > 0 {
				return -(WinScore - ply - 4) // no defence against the open four to come
			}
			return -(WinScore - ply - 2) // only forbidden points left (renju)
		}
		if len(moves) > w {
			moves, cut = moves[:w], true
		}
	}

	// Fail-high reduction (selective.go): off the principal variation,
	// far above beta, the moves that make no four are searched a ply
	// shallower.
	likelyHigh := false
	if e.opt.selective && !pvNode && depth >= 2 && b.classCount[opp][tFlex4] == 0 && beta < WinThreshold && alpha > -WinThreshold {
		if !haveEval {
			staticEval, haveEval = e.eval(b), true
		}
		likelyHigh = staticEval >= beta+failHighMargin(depth)
	}
	origAlpha := alpha
	best := -WinScore - 1
	bestMove := moves[0].move
	for k := 0; k < len(moves); k++ { // moves grows after the first (lazy)
		m := moves[k]
		quiet := b.threat[me][m.move] < tThree && b.threat[opp][m.move] < tThree
		// Selective search (selective.go): moves that make no open three
		// and do not take a point where the opponent would make a four
		// may be pruned near the leaves; those that do not take a point
		// of the opponent's double threats may be reduced, and so may the
		// open threes with a low move score (weakThree).
		mine, theirs := b.threat[me][m.move], b.threat[opp][m.move]
		if e.opt.selective && k > 0 && prunable(mine, theirs) && !pvNode && best > -WinThreshold {
			if !haveEval {
				staticEval, haveEval = e.eval(b), true
			}
			if prune(depth, k, staticEval, alpha) {
				continue
			}
		}
		// A four forces its block, so the pair costs no depth: the search
		// follows attacks to their end instead of stopping at a four.
		newDepth := depth - 1
		if e.opt.fourExtension && isFourClass(b.threat[me][m.move]) && ply-(e.rootDepth-depth) < maxExtensionPlies {
			newDepth = depth
		}
		if likelyHigh && !isFourClass(mine) {
			newDepth--
		}
		b.play(m.move)
		e.nodes++
		var score int
		if k == 0 {
			score = -e.negamax(b, newDepth, -beta, -alpha, ply+1)
		} else {
			// Late moves that threaten nothing are searched shallower
			// first; a fail-high is re-searched at full depth.
			r := 0
			if e.opt.selective {
				if reducible(mine, theirs) {
					r = reduction(depth, k, pvNode)
				} else if e.opt.threeCut != 0 && mine == tThree && theirs < tThree2 && m.fit < e.opt.threeCut {
					r = max(0, reduction(depth, k, pvNode)-1)
				}
			} else if k >= 3 && depth >= 3 && quiet && e.opt.lmr {
				r = 1
			}
			score = -e.negamax(b, newDepth-r, -alpha-1, -alpha, ply+1)
			if score > alpha && !e.stopped {
				score = -e.negamax(b, newDepth, -beta, -alpha, ply+1)
			}
		}
		b.undo()
		if e.stopped {
			return 0
		}
		if score > best {
			best = score
			bestMove = m.move
		}
		if score > alpha {
			alpha = score
			e.setPV(ply, m.move)
			if score >= beta {
				if ply < maxPly && int16(m.move) != e.killers[ply][0] {
					e.killers[ply][1] = e.killers[ply][0]
					e.killers[ply][0] = int16(m.move)
				}
				e.history[me][m.move] += int32(depth * depth)
				break
			}
		}
		if lazy {
			// The first move did not cut off: the rest in order. The
			// sort puts the first move first again.
			moves, lazy = orderMoves(b, unsorted), false
			if len(moves) > w {
				moves, cut = moves[:w], true
			}
		}
	}
	if lazy && best <= -WinThreshold {
		// A cut-off on the first move, at a proven loss: whether the
		// width cut moves needs the whole ordered list.
		cut = len(orderMoves(b, unsorted)) > w
	}
	if cut && best <= -WinThreshold {
		// Every move searched loses, but the width left others unsearched:
		// the loss is not proven. A score just above the proven losses
		// keeps the node below every evaluated one without claiming a
		// proof, which would travel up the tree as a certainty (a move
		// that lost was once scored a proven win this way; twenty-ninth
		// session). Late-move pruning and futility already stop at the
		// first move that does not lose.
		best = -WinThreshold + 1
	}
	if frontier && e.opt.frontierLast && best < beta {
		if e.frontierWin(b, ply) {
			return WinScore - ply - 5
		}
		if e.stopped {
			return 0
		}
	}
	flag := ttExact
	switch {
	case best >= beta:
		flag = ttLower
	case best <= origAlpha:
		flag = ttUpper
	}
	e.store(hash, bestMove, depth, scoreToTT(best, ply), flag)
	return best
}

// frontierWin reports whether the side to move wins by a VCF of the
// level's frontier budget: the search's question one ply above the
// leaves.
//
// Level 6 asks it after the node's moves, and only when none of them
// reached beta (frontierLast): at a node that fails high the answer
// changes nothing but the bound. The positions it is asked about are
// nearly all new (on the 20 positions of BenchmarkDepthRapfiPositions,
// 233,050 distinct of 240,652 calls, the repeats already answered by the
// threat table), so a table of its answers would save nothing; asked
// first, it took 60% of the search's nodes, asked last 30%, and the mean
// depth in 800,000 nodes went from 8.80 to 9.80 (docs/benchmarks.md,
// tenth session).
func (e *Engine) frontierWin(b *Board, ply int) bool {
	e.vcfBudget = e.opt.frontierVCF
	return e.vcf(b, ply, 0)
}

// maxExtensionPlies bounds the plies a path may gain from the four
// extension: four fours and their blocks. Longer attacks by fours are the
// leaf VCF's to find. Unbounded, the extension followed every order of the
// many fours of a crowded renju board, and single depth-4 searches took
// 20 s and more (40 million nodes).
const maxExtensionPlies = 8

// setPV makes move the head of the principal variation at ply.
func (e *Engine) setPV(ply, move int) {
	e.pv[ply][0] = int16(move)
	n := 0
	if ply+1 < maxPly {
		n = copy(e.pv[ply][1:], e.pv[ply+1][:e.pvLen[ply+1]])
	}
	e.pvLen[ply] = n + 1
}

// leaf evaluates a node at depth 0: a short VCF search for the side to
// move (a win the static evaluation cannot see; levels 4 and 5 only), then
// the quiescence search of open threes.
func (e *Engine) leaf(b *Board, alpha, beta, ply int) int {
	if e.opt.leafVCF > 0 && b.hasFourMove(b.ToMove()) {
		e.vcfBudget = e.opt.leafVCF
		if e.vcf(b, ply, 0) {
			return WinScore - ply - 5 // at least a four, its block and a five
		}
	}
	return e.quiesce(b, alpha, beta, ply, e.opt.quiesce)
}

// quiesceWidth bounds the blocks tried at a quiescence node: an open three
// has two to four cost squares; more candidates come only from the
// fallback set, and on crowded renju boards that set made single depth-4
// searches take seven seconds (13 million nodes) before this bound.
const quiesceWidth = 6

// quiesce resolves open threes below the leaves. A position where the
// opponent has an open three is not quiet: the side to move must block
// it (or lose to the open four), so its own shapes there are worth a
// tempo less than the static evaluation says. With q levels left and no
// four of its own to play, the side to move tries the blocks (the points
// where the three's owner would make a four) and takes the best; the
// blocks themselves are searched the same way, so a second three made in
// reply is answered too. A four to block is followed at no cost; an open
// three of the side to move, with no four against it, wins.
func (e *Engine) quiesce(b *Board, alpha, beta, ply, q int) int {
	if b.won {
		return -(WinScore - ply)
	}
	me := b.ToMove()
	opp := me.Other()
	if b.classCount[me][tFive] > 0 {
		return WinScore - ply - 1
	}
	if q <= 0 || ply >= maxPly-2 || b.stones == b.size*b.size {
		return e.eval(b)
	}
	if b.classCount[opp][tFive] > 0 {
		cell, ok := b.forcedBlock(me)
		if !ok {
			return -(WinScore - ply - 2)
		}
		b.play(cell)
		e.nodes++
		score := -e.quiesce(b, -beta, -alpha, ply+1, q)
		b.undo()
		return score
	}
	if b.hasFourMove(me) {
		if b.classCount[me][tFlex4] > 0 && !b.hasFourMove(opp) {
			if _, ok := b.openFourMove(me); ok {
				return WinScore - ply - 3
			}
		}
		return e.eval(b)
	}
	if b.classCount[opp][tFlex4] == 0 {
		return e.eval(b)
	}
	// The opponent threatens an open four: only blocks can save the game.
	// The blocks are those of the VCT (the three's cost squares, or every
	// point where the opponent would make a four if the three is older
	// than its last stone); only the best quiesceWidth are tried, so that
	// a crowded board, where the fallback set is large, stays cheap.
	var buf [maxMoves]scored
	moves := e.threeDefences(b, buf[:0])
	if len(moves) == 0 {
		return -(WinScore - ply - 4)
	}
	sortScored(moves)
	truncated := len(moves) > quiesceWidth
	if truncated {
		moves = moves[:quiesceWidth]
	}
	best := -WinScore - 1
	for _, m := range moves {
		b.play(m.move)
		e.nodes++
		score := -e.quiesce(b, -beta, -max(alpha, best), ply+1, q-1)
		b.undo()
		if score > best {
			best = score
			if best >= beta {
				break
			}
		}
	}
	if truncated && best <= -WinThreshold {
		// Every block tried loses, but not every block was tried: a likely
		// loss, not a proof.
		return -evalUnprovenLoss
	}
	return best
}

// evalUnprovenLoss is the score of a position the quiescence search
// believes lost without having tried every defence: far below any
// evaluation (the pattern totals stay below a few tens of thousands), so
// the search avoids it, yet below WinThreshold in size, so it is never
// reported as a proof.
const evalUnprovenLoss = 100_000

// Transposition table.

type ttFlag uint8

const (
	ttExact ttFlag = iota + 1
	ttLower        // score is a lower bound (fail high)
	ttUpper        // score is an upper bound (fail low)
)

// ttEntry is one slot: 16 bytes.
type ttEntry struct {
	key   uint64
	score int32
	move  int16
	depth int8
	flag  ttFlag
}

func (e *Engine) probe(hash uint64) (ttEntry, bool) {
	ent := e.tt[hash&e.ttMask]
	return ent, ent.flag != 0 && ent.key == hash
}

// store replaces the slot unless it holds a deeper result for the same
// position.
func (e *Engine) store(hash uint64, move, depth, score int, flag ttFlag) {
	slot := &e.tt[hash&e.ttMask]
	if slot.key == hash && int(slot.depth) > depth && slot.flag != 0 {
		return
	}
	*slot = ttEntry{key: hash, score: int32(score), move: int16(move), depth: int8(min(depth, 127)), flag: flag}
}

// scoreToTT and scoreFromTT store proven results relative to the node, so
// a win found at one ply reads correctly at another.
func scoreToTT(s, ply int) int {
	switch {
	case s >= WinThreshold:
		return s + ply
	case s <= -WinThreshold:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s >= WinThreshold:
		return s - ply
	case s <= -WinThreshold:
		return s + ply
	}
	return s
}

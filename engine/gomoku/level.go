package gomoku

// MaxLevel is the strongest level of the strength scale. Level 1 is a
// beginner that makes real mistakes; MaxLevel is the full engine, limited
// only by the caller's deadline. The levels below it are limited by depth,
// never by the clock, so each is the same player on a fast or a loaded
// machine. There are six: docs/benchmarks.md shows each beating the one
// below. The ten levels of earlier versions differed above level 5 only by
// depth limits that the service's deadline cut to the same depth, so they
// played the same moves.
const MaxLevel = 6

// options are the knobs a level sets.
type options struct {
	depth           int   // iterative deepening stops after this depth
	widthBase       int   // moves searched at a node: widthBase + 2*depth
	noise           int   // pick randomly among root moves within this score of the best
	noiseWidth      int   // ... among at most this many
	leafVCF         int   // VCF node budget at each leaf (0: off)
	frontierVCF     int   // VCF node budget one ply above the leaves (0: off)
	frontierLast    bool  // ... asked after the node's moves, if none reached beta
	rootVCF         int   // VCF node budget at the root (0: off)
	rootVCT         int   // VCT node budget at the root (0: off)
	vctDepth        int   // VCT depth in attacker moves
	lmr             bool  // late move reductions
	fourExtension   bool  // a four and its forced block cost no depth
	screenMoves     int   // root moves screened for an opponent threat win
	screenVCF       int   // VCF node budget per screened move (0: off)
	screenVCT       int   // VCT node budget per screened move (0: off)
	screenDepth     int   // VCT depth of the screen, in attacker moves
	quiesce         int   // open-three answers searched below the leaves (0: off)
	selective       bool  // log-scaled reductions and quiet-move pruning (selective.go)
	futility        bool  // static futility pruning and razoring (selective.go)
	deepScreenNodes int   // node budget of the deep screen per move (0: off; deepScreen)
	pnVCT           bool  // the screens and the root VCT are the proof-number search (vct.go)
	moveScore       bool  // moves ordered by the fitted move score (movescore.go)
	threeCut        int32 // open threes whose move score is below this are reduced (0: none; selective.go)
}

// width is the number of moves searched at a node with depth plies left:
// the best-ordered moves only, more near the root where a mistake costs
// most. Beyond it the moves are weak enough (no threat, far from the
// action) that the seeds' "10 best candidates" idea holds.
func (o options) width(depth int) int {
	return o.widthBase + 2*depth
}

// fullDepthWithoutDeadline caps the full engine when the caller gives no
// deadline, so that a search always ends.
const fullDepthWithoutDeadline = 12

// levelOptions returns the options of a level (0 means MaxLevel).
//
//	level  limit               randomness  threat search
//	1      depth 1             wide (300)  none
//	2      depth 2             150         none
//	3      depth 3             60          VCF at the root
//	4      depth 3             none        VCF at the root and near the leaves
//	5      depth 4             none        + screen of the opponent's VCF/VCT
//	6      the caller's clock  none        + VCT at the root, wider screen
//
// At levels 4 and 5 a four and its block cost no depth; from level 5 the
// open threes below the leaves are resolved (quiesce). Level 5 is "the
// depth-4 bot" of the match against seed article 001.
//
// Level 6 has neither the four extension nor the VCF at the leaves (it
// keeps the one a ply above them): in its games against Rapfi most of its
// main-search nodes were four sequences at plies 8-14 of a depth-4 or
// depth-5 search, the extension following every order of the fours, and
// each leaf ran a VCF of up to 60 nodes. Without both, a four still forces
// its block, which costs no depth, so the pair costs one ply. On 20
// positions of those games (800,000 nodes each) the mean depth went from
// 4.8 to 7.3-7.5, and at 300 ms a move the build scored 66% against the
// one with both (docs/benchmarks.md, "Sixth session").
func levelOptions(level int) options {
	if level == 0 {
		level = MaxLevel
	}
	o := options{widthBase: 8, noiseWidth: 1, lmr: true, fourExtension: level >= 4 && level < MaxLevel}
	if level >= 5 {
		o.quiesce = 2
	}
	switch level {
	case 1:
		o.depth, o.noise, o.noiseWidth, o.widthBase = 1, 300, 6, 6
	case 2:
		o.depth, o.noise, o.noiseWidth, o.widthBase = 2, 150, 4, 6
	case 3:
		o.depth, o.noise, o.noiseWidth, o.rootVCF = 3, 60, 3, 2000
	case 4:
		o.depth, o.rootVCF, o.leafVCF, o.frontierVCF = 3, 5000, 30, 30
	case 5:
		o.depth, o.rootVCF, o.leafVCF, o.frontierVCF, o.widthBase = 4, 20000, 60, 60, 12
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 12, 2000, 10000, 6
	default:
		// No leafVCF and no fourExtension: see above.
		o.depth, o.rootVCF, o.frontierVCF, o.rootVCT, o.vctDepth = MaxDepth, 500000, 60, 400000, 10
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 20, 5000, 10000, 6
		o.selective, o.futility, o.frontierLast = true, true, true
		o.deepScreenNodes = 400000
		o.pnVCT = true
		o.moveScore, o.threeCut = true, weakThree
	}
	return o
}

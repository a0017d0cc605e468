package gomoku

// MaxLevel is the strongest level of the strength scale. Level 1 is a
// beginner that makes real mistakes; MaxLevel is the full engine, limited
// only by the caller's deadline.
const MaxLevel = 10

// options are the knobs a level sets.
type options struct {
	depth         int  // iterative deepening stops after this depth
	widthBase     int  // moves searched at a node: widthBase + 2*depth
	noise         int  // pick randomly among root moves within this score of the best
	noiseWidth    int  // ... among at most this many
	leafVCF       int  // VCF node budget at each leaf (0: off)
	rootVCF       int  // VCF node budget at the root (0: off)
	rootVCT       int  // VCT node budget at the root (0: off)
	vctDepth      int  // VCT depth in attacker moves
	lmr           bool // late move reductions
	fourExtension bool // a four and its forced block cost no depth
	screenMoves   int  // root moves screened for an opponent threat win
	screenVCF     int  // VCF node budget per screened move (0: off)
	screenVCT     int  // VCT node budget per screened move (0: off)
	screenDepth   int  // VCT depth of the screen, in attacker moves
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
//	level  depth  randomness     threat search
//	1      1      wide (300)     none
//	2      2      150            none
//	3      3      60             VCF at the root
//	4      3      none           VCF at the root and near the leaves
//	5      4      none           + screen of the opponent's VCF/VCT
//	6      5      none           + VCT at the root
//	7      6      none           + VCT, wider screen
//	8      8      none           + VCT
//	9      10     none           + VCT
//	10     time   none           + VCT (deeper, bigger budgets)
func levelOptions(level int) options {
	if level == 0 {
		level = MaxLevel
	}
	o := options{widthBase: 8, noiseWidth: 1, lmr: true, fourExtension: level >= 4}
	switch level {
	case 1:
		o.depth, o.noise, o.noiseWidth, o.widthBase = 1, 300, 6, 6
	case 2:
		o.depth, o.noise, o.noiseWidth, o.widthBase = 2, 150, 4, 6
	case 3:
		o.depth, o.noise, o.noiseWidth, o.rootVCF = 3, 60, 3, 2000
	case 4:
		o.depth, o.rootVCF, o.leafVCF = 3, 5000, 30
	case 5:
		o.depth, o.rootVCF, o.leafVCF = 4, 20000, 60
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 12, 2000, 2000, 4
	case 6:
		o.depth, o.rootVCF, o.leafVCF, o.rootVCT, o.vctDepth = 5, 50000, 60, 20000, 4
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 12, 2000, 2000, 4
	case 7:
		o.depth, o.rootVCF, o.leafVCF, o.rootVCT, o.vctDepth = 6, 100000, 60, 50000, 6
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 16, 3000, 3000, 4
	case 8:
		o.depth, o.rootVCF, o.leafVCF, o.rootVCT, o.vctDepth = 8, 200000, 60, 100000, 6
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 16, 4000, 4000, 4
	case 9:
		o.depth, o.rootVCF, o.leafVCF, o.rootVCT, o.vctDepth = 10, 300000, 60, 200000, 8
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 20, 5000, 5000, 6
	default:
		o.depth, o.rootVCF, o.leafVCF, o.rootVCT, o.vctDepth = MaxDepth, 500000, 60, 400000, 10
		o.screenMoves, o.screenVCF, o.screenVCT, o.screenDepth = 20, 5000, 10000, 6
	}
	return o
}

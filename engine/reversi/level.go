package reversi

// MaxLevel is the strongest level: the full engine.
const MaxLevel = 10

// level is what one step of the strength scale means to the search.
type level struct {
	depth        int  // midgame search depth (plies)
	solveEmpties int  // exact endgame solve at this many empties or fewer (0: never)
	noise        int  // random error added to each root move's score, in evalScale units (0: none)
	selective    bool // Multi-ProbCut in the midgame search
}

// levels is the strength scale, indexed by level (index 0 unused). Levels 1-3
// play shallow searches with random errors of up to 8, 4 and 2 discs per
// move, so they make real mistakes; from level 4 the engine plays its best
// move at the level's depth, and solves the endgame exactly from a number of
// empties that grows with the level; above depth 8 each level adds two plies
// (one more ply was not always enough to beat the level below). The top
// level searches as deep as the time limit allows and solves exactly from 22
// empties. There is no fixed-depth level just below the top: under the
// service's 5 s per move the full engine reaches about depth 12 on the
// benchmark machine, so a depth-12 level played like it (4-4 over 8 games)
// and a depth-14 level (20 s a move) was always cut by the deadline.
var levels = [MaxLevel + 1]level{
	1:  {depth: 1, noise: 8 * evalScale},
	2:  {depth: 2, noise: 4 * evalScale},
	3:  {depth: 3, noise: 2 * evalScale},
	4:  {depth: 4, solveEmpties: 8},
	5:  {depth: 5, solveEmpties: 10},
	6:  {depth: 6, solveEmpties: 12},
	7:  {depth: 7, solveEmpties: 14},
	8:  {depth: 8, solveEmpties: 16},
	9:  {depth: 10, solveEmpties: 18},
	10: {depth: 60, solveEmpties: 22, selective: true},
}

// levelFor returns the settings of a level; 0 and out-of-range values above
// MaxLevel mean MaxLevel, values below 1 other than 0 mean level 1.
func levelFor(n int) level {
	switch {
	case n == 0 || n > MaxLevel:
		return levels[MaxLevel]
	case n < 1:
		return levels[1]
	}
	return levels[n]
}

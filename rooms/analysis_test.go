package rooms

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// meanStep is the mean absolute change from one ply's score to the next, after the
// start.
func meanStep(evals []int) int {
	total := 0
	for i := 2; i < len(evals); i++ {
		total += max(evals[i]-evals[i-1], evals[i-1]-evals[i])
	}
	return total / max(1, len(evals)-2)
}

// zigzag is the mean distance of each score from the midpoint of its two neighbours,
// after the start: the part of the ply-to-ply changes that flips sign every ply, apart
// from a trend (a side's growing advantage moves the midpoints with it).
func zigzag(evals []int) int {
	total := 0
	for i := 2; i+1 < len(evals); i++ {
		d := 2*evals[i] - evals[i-1] - evals[i+1]
		total += max(d, -d)
	}
	return total / max(1, 2*(len(evals)-3))
}

// The Gomoku graph of a quiet opening is smooth: the mover's initiative, which makes
// the raw scores zigzag with every ply (0,494,945,-125,1297,799,1803,1700 for this
// opening with the evaluation of issue 15's sixteenth session; 0,272,748,-200,506,615,
// 1201,1233 with the eleventh session's; 0,-300,476,-270,432,-258,422 with the hand-set
// one), is taken out, so successive scores are comparable. The zigzag is measured apart
// from the trend: black's advantage grows over these plies, and that rise belongs on
// the graph. Not all of the zigzag is the initiative (the -125 above is the search's
// own swing), and how much of it is depends on the evaluation table: a table fitted to
// game results carries less initiative (its raw zigzag here was 241 where the shipped
// table's is 854). So the bounds do not depend on the table: the graph never zigzags
// more than the raw scores, its zigzag stays under an absolute bound (smaller than one
// ply's swing in any table's raw scores so far), and its estimate of the initiative
// comes within a fifth (or 50 points, for a table whose scores barely zigzag) of the
// best that subtracting any one constant could do on this game (the graph estimates
// that constant from the game itself). TestGraphTakesOutInitiative checks the graph's
// estimate on a series whose initiative is known. The positions are judged at a fixed
// depth here, so that the test does not depend on how fast the machine is.
func TestGomokuGraphIsSmooth(t *testing.T) {
	b, err := gomoku.NewBoard(15, gomoku.Freestyle)
	require.NoError(t, err)
	engine := gomoku.NewEngine()
	var judged []judgement
	raw := []int{}
	for i, mv := range append([]string{""}, "h8", "i8", "f6", "e5", "f7", "f8", "h7") {
		if i > 0 {
			p, err := gomoku.ParsePoint(mv, 15)
			require.NoError(t, err)
			require.NoError(t, b.Play(p))
		}
		j := judgement{toMove: sideOfGomoku(b.ToMove())}
		if i > 0 {
			res, err := engine.Search(context.Background(), b.Clone(), gomoku.Limits{Depth: 4})
			require.NoError(t, err)
			j.score = res.Score
			if j.toMove == White {
				j.score = -j.score
			}
		}
		judged = append(judged, j)
		raw = append(raw, j.score)
	}
	smooth := gomokuKind.graph(judged)
	t.Logf("raw %v (zigzag %d), graph %v (zigzag %d)", raw, zigzag(raw), smooth, zigzag(smooth))
	require.Equal(t, raw[0], smooth[0], "the start is as judged")
	require.LessOrEqual(t, zigzag(smooth), zigzag(raw), "the graph adds no zigzag")
	require.Less(t, zigzag(smooth), smoothGraphZigzag, "the graph's successive scores are comparable")
	best := zigzag(raw)
	for tempo := -2000; tempo <= 2000; tempo += 10 {
		best = min(best, zigzag(gomokuKind.withoutInitiative(judged, tempo)))
	}
	t.Logf("the best constant initiative leaves a zigzag of %d", best)
	require.LessOrEqual(t, zigzag(smooth), best+max(best/5, 50),
		"the graph's estimate of the initiative is near the best constant")

	// Reversi scores are left as they are.
	rev := []judgement{{score: 0, toMove: Black}, {score: 3, toMove: White}, {score: -1, toMove: Black}, {score: 2, toMove: White}}
	require.Equal(t, []int{0, 3, -1, 2}, reversiKind.graph(rev))
}

// smoothGraphZigzag bounds the zigzag of a smooth Gomoku graph, in the engine's units:
// about a quarter of the raw zigzag of the shipped table on TestGomokuGraphIsSmooth's
// opening (854), a fifth of the scale at which its scores predict results (K = 1,204,
// docs/gomoku-engine.md), so the graph's ply-to-ply wobble moves a win chance by a few
// percent at most.
const smoothGraphZigzag = 250

// The graph recovers a known initiative: a series made of a trend (black's advantage
// growing, then shrinking), a constant advantage of the side to move and a small wobble
// comes out as the trend within the wobble, whatever the initiative's size or sign.
func TestGraphTakesOutInitiative(t *testing.T) {
	trend := []int{0, 100, 250, 300, 450, 500, 650, 600, 500, 350, 300, 150, 100}
	wobble := []int{0, 30, -20, 10, -40, 25, 0, -15, 35, -30, 5, 20, -10}
	for _, initiative := range []int{0, 150, 600, 1500, -300} {
		judged := make([]judgement, len(trend))
		for i := range trend {
			side := Black
			if i%2 == 1 {
				side = White // black moved first: after an odd number of plies white is to move
			}
			score := trend[i] + wobble[i]
			if i > 0 { // the start is not judged with an initiative
				if side == Black {
					score += initiative
				} else {
					score -= initiative
				}
			}
			judged[i] = judgement{score: score, toMove: side}
		}
		out := gomokuKind.graph(judged)
		for i := range trend {
			require.InDelta(t, trend[i], out[i], 80, "initiative %d, ply %d: %v", initiative, i, out)
		}
		require.Less(t, zigzag(out), 60, "initiative %d: %v", initiative, out)
	}
}

func TestGraphKeepsProofs(t *testing.T) {
	judged := []judgement{
		{score: 0, toMove: Black}, {score: -300, toMove: White}, {score: 480, toMove: Black},
		{score: -260, toMove: White}, {score: gomokuForcedWin, toMove: Black, proven: true},
	}
	out := gomokuKind.graph(judged)
	require.Equal(t, gomokuForcedWin, out[4], "a proof stays a proof")
	for _, v := range out[:4] {
		require.Less(t, v, gomokuForcedWin)
		require.Greater(t, v, -gomokuForcedWin)
	}
	require.Less(t, meanStep(out[:4]), meanStep([]int{0, -300, 480, -260}))
}

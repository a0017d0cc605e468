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
// the raw scores zigzag with every ply (0,272,748,-200,506,615,1201,1233 for this
// opening with the evaluation of issue 15's eleventh session; 0,107,270,-43,232,122,
// 482,571 with the seventh session's; 0,-300,476,-270,432,-258,422 with the hand-set
// one), is taken out, so successive scores are comparable. The zigzag is measured apart
// from the trend: black's advantage grows over these plies, and that rise belongs on
// the graph. Not all of the zigzag is the initiative (the -200 above is the search's
// own swing), so the graph is held to two measures: it takes out at least two fifths
// of the raw zigzag, and it comes within a fifth of the best that subtracting any one
// constant initiative could do on this game (the graph estimates that constant from
// the game itself). The positions are judged at a fixed depth here, so that the test
// does not depend on how fast the machine is.
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
	require.Less(t, zigzag(smooth), zigzag(raw)*3/5,
		"the graph's zigzag is a fraction of the raw one")
	best := zigzag(raw)
	for tempo := -2000; tempo <= 2000; tempo += 10 {
		best = min(best, zigzag(gomokuKind.withoutInitiative(judged, tempo)))
	}
	t.Logf("the best constant initiative leaves a zigzag of %d", best)
	require.LessOrEqual(t, zigzag(smooth), best*6/5,
		"the graph's estimate of the initiative is near the best constant")

	// Reversi scores are left as they are.
	rev := []judgement{{score: 0, toMove: Black}, {score: 3, toMove: White}, {score: -1, toMove: Black}, {score: 2, toMove: White}}
	require.Equal(t, []int{0, 3, -1, 2}, reversiKind.graph(rev))
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

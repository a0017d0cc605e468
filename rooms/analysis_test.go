package rooms

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
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

// The Gomoku graph of a quiet opening is smooth: the mover's initiative, which made the
// raw scores zigzag with every ply (0,-300,476,-270,432,-258,422 for this opening), is
// taken out, so successive scores are comparable.
func TestGomokuGraphIsSmooth(t *testing.T) {
	if testing.Short() {
		t.Skip("searches every position")
	}
	meta := Meta{ID: "g", Game: "gomoku", Size: 15, Rule: "freestyle"}
	g, err := gomokuKind.start(meta)
	require.NoError(t, err)
	var judged []judgement
	raw := []int{}
	for i, mv := range append([]string{""}, "h8", "i8", "f6", "e5", "f7", "f8", "h7") {
		if i > 0 {
			_, err := g.play(mv)
			require.NoError(t, err)
		}
		j, err := gomokuKind.evaluate(context.Background(), g)
		require.NoError(t, err)
		judged = append(judged, j)
		raw = append(raw, j.score)
	}
	smooth := gomokuKind.graph(judged)
	t.Logf("raw %v, graph %v", raw, smooth)
	require.Equal(t, raw[0], smooth[0], "the start is as judged")
	require.LessOrEqual(t, meanStep(smooth), max(100, meanStep(raw)/3),
		"ply-to-ply changes on the graph are a fraction of the raw zigzag")

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

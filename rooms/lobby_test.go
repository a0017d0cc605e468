package rooms

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSortLobby(t *testing.T) {
	now := t0.Add(time.Hour)
	sums := []Summary{
		{ID: "fresh", Status: StatusWaiting, CreatedAt: now.Add(-time.Minute)},
		{ID: "forgotten", Status: StatusWaiting, CreatedAt: now.Add(-openFresh - time.Second)},
		{ID: "someone-waits", Status: StatusWaiting, CreatedAt: now.Add(-time.Hour), Viewers: 1},
		{ID: "playing", Status: StatusPlaying, Present: []Side{White}},
		{ID: "deserted", Status: StatusPlaying, Plies: 0},
		{ID: "bots", Status: StatusPlaying, BotToMove: true},
		{ID: "left-mid-game", Status: StatusPlaying, Plies: 30, Viewers: 2, Spectators: 2},
		{ID: "done", Status: StatusFinished},
	}
	l := sortLobby(sums, now)
	ids := func(list []Summary) []string {
		out := []string{}
		for _, s := range list {
			out = append(out, s.ID)
		}
		return out
	}
	require.Equal(t, []string{"fresh", "someone-waits"}, ids(l.Open))
	require.Equal(t, []string{"playing", "bots"}, ids(l.Live), "a game only spectators watch is not live")
	require.Equal(t, []string{"done"}, ids(l.Finished))

	var many []Summary
	for range 2 * lobbyEach {
		many = append(many, Summary{Status: StatusFinished})
	}
	require.Len(t, sortLobby(many, now).Finished, lobbyEach)
}

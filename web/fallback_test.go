package web_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/boardhall/boardhall/engine/gomoku"
	"github.com/boardhall/boardhall/engine/reversi"
)

// TestLobbyFallbackLevels checks that the lobby's fallback game list (shown
// until GET /api/games answers) offers the engines' real level ranges, so a
// change of an engine's scale cannot leave the client offering levels the
// server refuses.
func TestLobbyFallbackLevels(t *testing.T) {
	src, err := os.ReadFile("static/js/lobby.js")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"reversi": reversi.MaxLevel, "gomoku": gomoku.MaxLevel}
	entry := regexp.MustCompile(`\{ game: '(\w+)',[^}]*maxLevel: (\d+) \}`)
	found := map[string]int{}
	for _, m := range entry.FindAllStringSubmatch(string(src), -1) {
		n, _ := strconv.Atoi(m[2])
		found[m[1]] = n
	}
	for game, max := range want {
		got, ok := found[game]
		if !ok {
			t.Errorf("lobby.js FALLBACK_GAMES has no entry for %s", game)
		} else if got != max {
			t.Errorf("lobby.js FALLBACK_GAMES offers %s levels 1..%d, the engine has 1..%d", game, got, max)
		}
	}
}

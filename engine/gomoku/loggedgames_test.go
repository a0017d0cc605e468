package gomoku

import (
	"path/filepath"
	"testing"
)

// TestLoggedGameFiles replays every game of the committed game files (the
// data the evaluation and the move score are fitted on): each record is
// legal on a freestyle 15x15 board, and a won or lost game ends with the
// winner's five, so a damaged or mislabelled file fails here rather than
// in a fit.
func TestLoggedGameFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*games*.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("game files: %v, want fitgames.txt.gz and the Rapfi games", files)
	}
	for _, name := range files {
		games := readLoggedGames(t, name)
		if len(games) == 0 {
			t.Fatalf("%s: no games", name)
		}
		for _, g := range games {
			moves, err := ParseRecord(g.record, 15)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, g.record, err)
			}
			b, _ := NewBoard(15, Freestyle)
			for i, p := range moves {
				if b.Over() {
					t.Fatalf("%s: %s: move %d after the game ended", name, g.record, i+1)
				}
				if err := b.Play(p); err != nil {
					t.Fatalf("%s: %s: move %d: %v", name, g.record, i+1, err)
				}
			}
			winner, over := b.Winner()
			switch {
			case g.black == 0.5:
				if over && !b.Draw() {
					t.Errorf("%s: %s: a draw that ends with a five", name, g.record)
				}
			case !over || b.Draw():
				t.Errorf("%s: %s: a decisive result without a five", name, g.record)
			case (winner == Black) != (g.black == 1):
				t.Errorf("%s: %s: the result names the other winner", name, g.record)
			}
		}
		t.Logf("%s: %d games", name, len(games))
	}
}

package gomoku

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
)

// rapfiMistake is a position of testdata/rapfi-mistakes.txt: one of our
// moves in a game lost to Rapfi at 1000 ms a move that the judge (Rapfi
// at 500 ms a position) scored a loss of at least 150 of its points, with
// the move it preferred and its lines after both (issue 15, twenty-ninth
// session). The judge's scores chose the positions; they are not labels.
type rapfiMistake struct {
	name, record  string
	played, rapfi string
	// afterPlayed and afterRapfi are the judge's lines from the position
	// after each move.
	afterPlayed, afterRapfi string
}

func loadRapfiMistakes(t testing.TB) []rapfiMistake {
	t.Helper()
	f, err := os.Open("testdata/rapfi-mistakes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []rapfiMistake
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		x := strings.Fields(l)
		if len(x) != 11 {
			t.Fatalf("rapfi-mistakes.txt: %q: want 11 fields", l)
		}
		out = append(out, rapfiMistake{name: strings.Join(x[:3], " "), record: x[3], played: x[4], rapfi: x[5],
			afterPlayed: x[9], afterRapfi: x[10]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRapfiMistakes checks the set: legal games not over, two different
// legal moves, and the judge's lines legal after them up to the end of
// the game.
func TestRapfiMistakes(t *testing.T) {
	ps := loadRapfiMistakes(t)
	if len(ps) != 55 {
		t.Fatalf("%d positions, want 55", len(ps))
	}
	for _, p := range ps {
		if p.played == p.rapfi {
			t.Errorf("%s: the same move twice", p.name)
		}
		for _, m := range [][2]string{{p.played, p.afterPlayed}, {p.rapfi, p.afterRapfi}} {
			b := boardFrom(t, Freestyle, p.record)
			if b.Over() {
				t.Fatalf("%s: the game is over", p.name)
			}
			line, err := ParseRecord(m[0]+m[1], 15)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			for k, q := range line {
				if b.Over() {
					break
				}
				if err := b.Play(q); err != nil {
					t.Errorf("%s: move %d of %s%s: %v", p.name, k+1, m[0], m[1], err)
					break
				}
			}
		}
	}
}

// BenchmarkRapfiMistakes gives the full engine 800,000 nodes on each
// position of rapfi-mistakes.txt with a fresh engine and reports how
// often it plays the judge's move ("rapfi") and the move of the game
// ("played"). Main at c3be02f: 9 and 31 of 55; at 4,000,000 nodes 14 and 17,
// at 24,000,000 18 and 11 (docs/benchmarks.md, twenty-ninth session).
func BenchmarkRapfiMistakes(b *testing.B) {
	ps := loadRapfiMistakes(b)
	rapfi, played := 0, 0
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			board := boardFrom(b, Freestyle, p.record)
			r, err := NewEngine().Search(context.Background(), board, Limits{Nodes: 800_000})
			if err != nil {
				b.Fatal(err)
			}
			switch FormatRecord([]Point{r.Best}) {
			case p.rapfi:
				rapfi++
			case p.played:
				played++
			}
		}
	}
	b.ReportMetric(float64(rapfi)/float64(b.N), "rapfi")
	b.ReportMetric(float64(played)/float64(b.N), "played")
	b.ReportMetric(float64(len(ps)), "positions")
}

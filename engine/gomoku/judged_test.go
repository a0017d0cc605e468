package gomoku

import (
	"context"
	"testing"
)

// judgedPositions are positions of games level 6 lost to Rapfi at 1 s a
// move (issue 15, the sixteenth session's games, located in the
// seventeenth with TestJudgeLosses and TestAnalyseJudged, the judge at
// 500 ms a position and GOMOKU_JUDGED_LONG=8000000): our move there turned a
// position the judge held level into one it won, and our own engine
// proves that move lost, by level 6's proof-number VCT
// (opponentWinsByPN) or by a full search of 8 million nodes after it. The
// moves in hold are those among the first 12 root moves that neither
// proves lost (2 million nodes); those in lost are proven lost like the
// move played. Each record ends just before our move; the verdicts are
// our engine's, the judge's scores only chose the positions.
var judgedPositions = []struct {
	record, played string
	hold, lost     []string
}{
	{"h8g9j6f9k7f8i5h4h10g10g11h9i9j8", "f6",
		[]string{"f12", "l8"},
		[]string{"f11", "g7", "j10", "i8", "j7", "h11", "e9", "k11", "i7"}},
	{"h8g9i6g8g7i9f8h6f7f9e9i8j9i10i7h7e10g11d10c11g10h10f12i11i12j11k11h12", "f11",
		[]string{"f10", "c10"},
		[]string{"h11", "j12", "g13", "e11", "e8", "e12", "k12", "e7", "j8"}},
	{"h8g8j7g9f10g7g10h10h9i8f8i11f11f9", "e10",
		[]string{"h7", "e12", "d13", "g6", "i6"},
		[]string{"d11", "e9", "g11", "i7", "f12", "i9"}},
	// Two from the same afternoon's games of the build before the
	// refitted evaluation table (piskvork/11 as black, 15 as white).
	{"h8i7j8i8i9j10h9h10i10i11g9f9h12j11j9k9h11g12l8k7k8l7j7j5g7i6m8n8g8g6e9i4i5k6h3h6j6f10e8e6f6e5f11e11h4g3f4e4f8d8f5f7g10g11", "f3",
		[]string{"e12", "c11", "d10", "e2"},
		[]string{"e7", "e3", "h5", "d13", "f2", "j3"}},
	{"h8h9h7i7g8i8i6f9h5h6g5", "f5",
		[]string{"i5"},
		[]string{"j5", "j7", "i9", "g9", "g7", "g10", "k6", "e9", "g6", "f11", "g4"}},
}

// TestJudgedPositions checks the set's records: legal games not over,
// the moves empty points, the move played among neither list and no move
// in both.
func TestJudgedPositions(t *testing.T) {
	for _, p := range judgedPositions {
		b := boardFrom(t, Freestyle, p.record)
		if b.Over() {
			t.Errorf("%s: the game is over", p.record)
		}
		seen := map[Point]bool{}
		for _, s := range append(append([]string{p.played}, p.hold...), p.lost...) {
			m, err := ParsePoint(s, 15)
			if err != nil {
				t.Fatalf("%s: %v", p.record, err)
			}
			if seen[m] {
				t.Errorf("%s: %v listed twice", p.record, m)
			}
			seen[m] = true
			if err := b.IsLegal(m); err != nil {
				t.Errorf("%s: %v: %v", p.record, m, err)
			}
		}
	}
}

// BenchmarkJudgedChoice gives the full engine 800,000 nodes on each of
// judgedPositions with a fresh engine and reports how many of its moves
// are among the moves that hold, and how many among those proven lost
// (the move played included); the rest were not checked.
func BenchmarkJudgedChoice(b *testing.B) {
	hold, lost := 0, 0
	for i := 0; i < b.N; i++ {
		for _, p := range judgedPositions {
			board := boardFrom(b, Freestyle, p.record)
			r, err := NewEngine().Search(context.Background(), board, Limits{Nodes: 800_000})
			if err != nil {
				b.Fatal(err)
			}
			choice := FormatRecord([]Point{r.Best})
			for _, s := range p.hold {
				if s == choice {
					hold++
				}
			}
			for _, s := range append([]string{p.played}, p.lost...) {
				if s == choice {
					lost++
				}
			}
		}
	}
	b.ReportMetric(float64(hold)/float64(b.N), "hold")
	b.ReportMetric(float64(lost)/float64(b.N), "lost")
	b.ReportMetric(float64(len(judgedPositions)), "positions")
}

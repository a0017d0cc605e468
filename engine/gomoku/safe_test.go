package gomoku

import (
	"context"
	"testing"
)

// safeChoicePositions are positions of games level 6 lost to Rapfi at 1 s
// a move (issue 15, sixth session, Piskvork openings 0-19) where our move
// let the opponent win by threats and some other move did not
// (TestAnalyseThreatWins on the match log: every root move checked with a
// VCF and VCT of up to 10 attacker moves in 400,000 nodes). Each record
// ends just before our losing move; the last field is that move.
var safeChoicePositions = []struct{ record, lost string }{
	{"h8i8i11i9h10g9h9h11i10g8g10j10i6j7j6h6i5k7i7k5k4l6m5i4m7e10l3j5k6d11f9e11m6f11g11m4j3l5k3i3j2l4m3n3m8m9", "g12"},
	{"h8i8h11j9h7h9j7i9g9i7i6g8i10h6k9h5g5e8f10f7g6e7e11d12e6f11h12d7c7c6f9", "d8"},
	{"h8i9i11i7h10h7i10", "i6"},
	{"h8i8k8j7h9h7j9i7g7i9i10l7k7g8j5i5i6k9l10j10l8k11l12l11k12g12m8n8m12n12j11l13e5f6k4g5m6m7n10m9n4j8h6k5l6l4m3m2e7g11g10f11k3l3h10h11i12j12e11e10h13g14f9f13k6j6k13j14o6n6o9m11m5o3f10d12k10l9o10m10o8o7o11o12", "e12"},
	{"h8i8k8g7j9i7k9f7j7", "i9"},
	{"h8i9g11h7i7g9h12h9f9g6j9f8i13f10", "g7"},
	{"h8i9h9h7i10g8h11j9g10h10f9e8g11", "g6"},
	{"h8i8g7i9i7g9j7k7j9j8h10f7k8i10h9h11h6h7i6h5g6f6f8i5j6k6g5g4i12f4j11h13e4k5", "d5"},
	{"h8i7h9g7j7i8j9j8i6k8h6h7g6f7e7f6k9l8m8l9f8g9e8e10m10m9k7k6l10i11g11i10i9e5d8g8f10e9f9f11h12h11g12i12i14j14j13d5k10n10k11k13l11k12l12j10n11j12h10m11e12d4c3f12m15l13n13m12g14g13d7c6d10d9d11f13", "f14"},
	{"h8i7h9h6j8g7i8g8j7g10g9i5j4", "j9"},
	{"h8i7j8i8i9h10g9h9j10k11j7j9k10j11i11h12i10i13f10g11e11d12h13f12g12f11j12e12g10f13e13d11", "g14"},
	{"h8i7j8g8i9g7j7g6g9", "j9"},
	{"h8i9j10k9h10k10h9h11k8", "l9"},
	{"h8g7g10i7i8h9j8k8j9j7h7g6j10g8g5k10l9f7e6h5i4h6i6j12k9m9e8e9f8m7f9d7", "e7"},
	{"h8g7g10g5h9", "i8"},
	{"h8g8i10h7g10f7g7f9e10f10f11f6f8e9d9g12i8i6j5h9i9i11g11e6d5j8h6j10i5j4k5h5j6i7d11e11d8d7l8k7l7l9j7i4", "g6"},
	{"h8h7h10g7f8f7i7g9g10g6e10f10", "g5"},
	{"h8h9j6g9g6f8h10f9i9f11", "f7"},
	{"h8h9j6g9i9g7g6f8h6i6h7f5j8h10e7", "f4"},
	{"h8g9j6f9j7g10", "g7"},
	{"h8g9i6g8g6h9i9", "g10"},
}

// opponentWinsByThreats reports whether, after move m of the side to move
// in b, the opponent wins by a VCF or a VCT of up to 10 attacker moves
// found within 400,000 nodes: the analysis's "big search".
func opponentWinsByThreats(b *Board, m int) bool {
	e := fullEngineFor(b)
	b.play(m)
	defer b.undo()
	e.vcfBudget = 400000
	won := e.vcf(b, 1, 0)
	for rem := 2; rem <= 10 && !won && e.vcfBudget > 0; rem += 2 {
		won = e.vct(b, 1, rem)
	}
	return won
}

// opponentWinsByPN reports whether, after move m of the side to move in
// b, the opponent wins by level 6's threat search (a VCF, then the
// proof-number VCT of up to 10 attacker moves) within 2 million nodes. It
// proves wins the big search above misses (one position of the eighth
// session's Rapfi games: 60,000-95,000 nodes against nothing in 12
// million), so a move safe by both is safer.
func opponentWinsByPN(b *Board, m int) bool {
	e := fullEngineFor(b)
	b.play(m)
	defer b.undo()
	return e.threatWin(b, 1, 2_000_000, 2_000_000, 10)
}

// BenchmarkSafeChoice gives the full engine a node budget (800,000, about
// what a second gives it; the same search on any machine) on each of
// safeChoicePositions with a fresh engine, and reports how many of its
// moves leave the opponent no threat win by the big search (safe), and
// none by the proof-number VCT either (strict).
func BenchmarkSafeChoice(b *testing.B) {
	safe, strict, n := 0, 0, 0
	for i := 0; i < b.N; i++ {
		for _, p := range safeChoicePositions {
			board := boardFrom(b, Freestyle, p.record)
			r, err := NewEngine().Search(context.Background(), board, Limits{Nodes: 800_000})
			if err != nil {
				b.Fatal(err)
			}
			n++
			if !opponentWinsByThreats(board, board.index(r.Best)) {
				safe++
				if !opponentWinsByPN(board, board.index(r.Best)) {
					strict++
				}
			}
		}
	}
	b.ReportMetric(float64(safe)/float64(b.N), "safe")
	b.ReportMetric(float64(strict)/float64(b.N), "strict")
	b.ReportMetric(float64(len(safeChoicePositions)), "positions")
}

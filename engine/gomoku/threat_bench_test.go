package gomoku

import "testing"

// BenchmarkThreatWins measures the level-6 threat search on the 21 threat
// wins of safeChoicePositions: after our losing move, the opponent's VCF
// and proof-number VCT of up to 10 attacker moves (threatWin, the deep
// screen's question) with a budget of 2 million nodes, a fresh engine each.
// It reports the budget (threat-search nodes) used to prove them all (a
// win not proven counts the whole budget), how many are proven, and how
// many within the first screen's and a larger budget (10,000 and 40,000
// nodes: the search is the same until its budget runs out, so a win that
// took fewer nodes is found with that budget).
func BenchmarkThreatWins(b *testing.B) {
	const budget = 2_000_000
	var nodes uint64
	proven, within10k, within40k := 0, 0, 0
	for i := 0; i < b.N; i++ {
		for _, p := range safeChoicePositions {
			board := boardFrom(b, Freestyle, p.record+p.lost)
			e := fullEngineFor(board)
			// threatWin's two steps, to count the budget each used.
			e.vcfBudget = budget
			won := e.vcf(board, 1, 0)
			used := budget - e.vcfBudget
			if !won {
				e.vcfBudget = budget
				won = e.vctPN(board, 1, deepScreenDepth)
				used += budget - e.vcfBudget
			}
			nodes += uint64(used)
			if testing.Verbose() {
				b.Logf("%s %s: %v %d", p.record, p.lost, won, used)
			}
			if !won {
				continue
			}
			proven++
			if used <= 10_000 {
				within10k++
			}
			if used <= 40_000 {
				within40k++
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(nodes)/n, "nodes")
	b.ReportMetric(float64(proven)/n, "proven")
	b.ReportMetric(float64(within10k)/n, "within10k")
	b.ReportMetric(float64(within40k)/n, "within40k")
}

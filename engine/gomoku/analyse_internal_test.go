package gomoku

import (
	"fmt"
	"os"
	"testing"
)

// TestAnalyseThreatWins reads a match log (GOMOKU_ANALYSE=<file>) and, for
// each lost game, finds the first position where the winner had a threat
// win (VCF or VCT) and whether level 5's screen settings see it.
func TestAnalyseThreatWins(t *testing.T) {
	path := os.Getenv("GOMOKU_ANALYSE")
	if path == "" {
		t.Skip("set GOMOKU_ANALYSE to a match log")
	}
	for _, g := range lostLines(t, path) {
		name := g.opening + " " + g.colour
		b := boardFrom(t, Freestyle, g.record)
		moves := b.Moves()
		winner := Black
		if g.colour == "black" {
			winner = White
		}
		e := NewEngine()
		e.size, e.rule = 15, Freestyle
		for n := 5; n < len(moves); n++ {
			pos := boardFrom(t, Freestyle, FormatRecord(moves[:n]))
			if pos.ToMove() != winner {
				continue
			}
			// Big search: the truth, as far as we can tell.
			e.clear()
			e.opt = levelOptions(6)
			e.vcfBudget = 400000
			big := e.vcf(pos, 1, 0)
			kind := "VCF"
			for rem := 2; rem <= 10 && !big && e.vcfBudget > 0; rem += 2 {
				big = e.vct(pos, 1, rem)
				kind = "VCT"
			}
			if !big {
				continue
			}
			// The smallest depth and budget that find it.
			need := ""
			for rem := 2; rem <= 10; rem += 2 {
				for _, budget := range []int{2000, 5000, 10000, 20000, 50000, 100000, 400000} {
					e.clear()
					e.vcfBudget = budget
					if e.vcf(pos, 1, 0) || e.vct(pos, 1, rem) {
						need = fmt.Sprintf("rem %d, %d nodes", rem, budget)
						break
					}
				}
				if need != "" {
					break
				}
			}
			t.Logf("%s: needs %s", name, need)
			// Level 5's screen on the same position.
			e.clear()
			o := levelOptions(5)
			e.vcfBudget = o.screenVCF
			small := e.vcf(pos, 1, 0)
			if !small {
				e.vcfBudget = o.screenVCT
				for rem := 2; rem <= max(o.screenDepth, 4) && !small && e.vcfBudget > 0; rem += 2 {
					small = e.vct(pos, 1, rem)
				}
			}
			// Our alternatives at the position before our move.
			prev := boardFrom(t, Freestyle, FormatRecord(moves[:n-1]))
			e.opt = levelOptions(5)
			var safe []Point
			roots := e.genRootMoves(prev)
			for _, rm := range roots {
				prev.play(int(rm.move))
				e.clear()
				e.vcfBudget = 400000
				lost := e.vcf(prev, 1, 0)
				for rem := 2; rem <= 10 && !lost && e.vcfBudget > 0; rem += 2 {
					lost = e.vct(prev, 1, rem)
				}
				if !lost {
					safe = append(safe, prev.point(int(rm.move)))
				}
				prev.undo()
			}
			t.Logf("%s: %d root moves, safe by the big VCT: %v", name, len(roots), safe)
			t.Logf("%s: winner's %s from move %d after our %v (screen sees it: %v): %s", name, kind, n+1, moves[n-1], small, FormatRecord(moves[:n]))
			break
		}
	}
}

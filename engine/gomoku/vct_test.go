package gomoku

import "testing"

// TestVCTPN checks the proof-number VCT against positions of the games
// lost to Rapfi: after our losing move the opponent's threat win is
// proven (the depth-first vct proves it too), and after a move the big
// search found safe no win is claimed.
func TestVCTPN(t *testing.T) {
	cases := []struct {
		record string // the position before our move
		move   string // our move
		wins   bool   // whether the opponent then wins by threats
		pnOnly bool   // the depth-first VCT needs more than the budget
	}{
		{"h8h9j6g9g6f8h10f9i9f11", "f7", true, false},
		{"h8h9j6g9i9g7g6f8h6i6h7f5j8h10e7", "f4", true, false},
		{"h8i8h11j9h7h9j7i9g9i7i6g8i10h6k9h5g5e8f10f7g6e7e11d12e6f11h12d7c7c6f9", "d8", true, false},
		// Eighth session, against Rapfi: the depth-first VCT proves both
		// wins with 100,000 and 400,000 nodes (TestAnalyseThreatWins). The
		// first one's threats past the first are not all related to the
		// attacker's earlier ones: it is proven only by vctPN's search of
		// every threat after the related ones are refuted.
		{"h8i8i11h10g11f10g10h11i10k9i12i13g12g13f12e12j11k12h13k10k11j10j12h12l11m11l10m9i14f11j14g14l9l8k7g8h7f7k14l14j7i7h5m7n6m8m10k8j8h6l6m5m6f8f9j6g7f6g6f4f5g5e3e7j15j13", "l13", true, true},
		{"h8i8i11j7j10h9g10i10h12g13j11", "h11", true, false},
		{"h8h9j6g9g6f8h10f9i9f11", "f12", false, false},
		{"h8h9j6g9i9g7g6f8h6i6h7f5j8h10e7", "j12", false, false},
	}
	for _, c := range cases {
		b := boardFrom(t, Freestyle, c.record)
		ps, err := ParseRecord(c.move, 15)
		if err != nil {
			t.Fatal(err)
		}
		b.play(b.index(ps[0]))
		for _, pn := range []bool{true, false} {
			if c.pnOnly && !pn {
				continue
			}
			e := fullEngineFor(b)
			e.opt.pnVCT = pn
			hash := b.hash
			won := e.threatWin(b, 1, 20000, 200000, 10)
			if b.hash != hash {
				t.Fatalf("%s %s: the search left the board changed", c.record, c.move)
			}
			if won != c.wins {
				t.Errorf("%s %s (proof-number %v): opponent wins %v, want %v", c.record, c.move, pn, won, c.wins)
			}
			if won && pn {
				// The first move of the proof is a threat of the winner,
				// or the block of our four.
				m := int(e.line.moves[1])
				me := b.ToMove()
				block, forced := b.forcedBlock(me)
				if forced && b.classCount[me.Other()][tFive] > 0 && m != block {
					t.Errorf("%s %s: first move %v is not the block %v", c.record, c.move, b.point(m), b.point(block))
				}
				if b.cells[m] != cellEmpty || (b.classCount[me.Other()][tFive] == 0 && !isFourClass(b.threat[me][m]) && !b.hasThreePattern(me, m)) {
					t.Errorf("%s %s: first move %v is no threat", c.record, c.move, b.point(m))
				}
			}
		}
	}
}

// TestVCTPNPuzzles: the proof-number VCT proves every VCF puzzle of the
// suite (a VCF is a VCT whose threats are all fours) with its first move
// a winning one.
func TestVCTPNPuzzles(t *testing.T) {
	for _, pz := range vcfPuzzles {
		b := boardFrom(t, Freestyle, pz.record)
		e := fullEngineFor(b)
		e.vcfBudget = 100000
		if !e.vctPN(b, 0, 10) {
			t.Errorf("%s: not proven", pz.record)
		}
	}
}

// fullEngineFor returns a fresh engine with level 6's options for b's
// size and rule, as the threat-search tests and benchmarks use it.
func fullEngineFor(b *Board) *Engine {
	e := NewEngine()
	e.size, e.rule = b.size, b.rule
	e.opt = levelOptions(MaxLevel)
	return e
}

// TestRelatedThreats: past the attacker's first move, only threats on a
// line through one of its stones of the sequence, within four steps, are
// kept; stones played before the sequence do not count.
func TestRelatedThreats(t *testing.T) {
	// Black's h8 and j10 are the sequence's attacker stones (the last four
	// plies); a1 was played before it.
	b := boardFrom(t, Freestyle, "a1o15h8o14j10o13")
	cases := []struct {
		point string
		kept  bool
	}{
		{"h12", true},  // h8's column, four steps
		{"h13", false}, // five steps
		{"d8", true},   // h8's row, four steps
		{"c8", false},  // five steps
		{"l12", true},  // j10's diagonal, two steps
		{"k12", false}, // on no line of h8 or j10
		{"b2", false},  // a1's diagonal, but a1 is before the sequence
		{"f14", true},  // j10's other diagonal, four steps
		{"e15", false}, // five steps
	}
	for _, c := range cases {
		ps, err := ParseRecord(c.point, 15)
		if err != nil {
			t.Fatal(err)
		}
		got := relatedThreats(b, []scored{{move: b.index(ps[0])}}, 4)
		if (len(got) == 1) != c.kept {
			t.Errorf("%s: kept %v, want %v", c.point, len(got) == 1, c.kept)
		}
	}
}

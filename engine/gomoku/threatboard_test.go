package gomoku

import (
	"math/rand"
	"testing"
)

// lightState is what playLight keeps exactly as play does: everything the
// VCF reads, and the pointTable indices, from which the evaluation's sums
// are updated on the next full play.
type lightState struct {
	cells      [maxCells]uint8
	keys       [4][maxCells]uint32
	pats       [2][4][maxCells]uint8
	threat     [2][maxCells]threat
	pointIdx   [2][maxCells]uint16
	classCount [2][numThreats]int16
	hash       uint64
	stones     int
	won        bool
}

func lightSnapshot(b *Board) lightState {
	return lightState{b.cells, b.keys, b.pats, b.threat, b.pointIdx, b.classCount, b.hash, b.stones, b.won}
}

// TestPlayLight checks the light play against the oracle of the full one
// on random games under every rule: after playLight the fields the VCF
// reads equal those after play, undoLight restores the whole board, and a
// VCF search leaves the whole board as it found it.
func TestPlayLight(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		for _, r := range []Rule{Freestyle, Standard, Renju} {
			rng := rand.New(rand.NewSource(seed))
			b, _ := NewBoard(15, r)
			e := NewEngine()
			for b.MoveCount() < 120 && !b.Over() {
				var cands []int
				for i := b.firstCell(); i <= b.lastCell(); i++ {
					if b.cells[i] == cellEmpty && (b.MoveCount() == 0 || b.near[i] > 0) && b.legalFor(b.ToMove(), i) {
						cands = append(cands, i)
					}
				}
				if len(cands) == 0 {
					break
				}
				m := cands[rng.Intn(len(cands))]
				before := snapshot(b)
				b.play(m)
				full := lightSnapshot(b)
				b.undo()
				b.playLight(m)
				if lightSnapshot(b) != full {
					t.Fatalf("seed %d %v: playLight at %v differs from play", seed, r, b.point(m))
				}
				b.undoLight()
				if snapshot(b) != before {
					t.Fatalf("seed %d %v: undoLight at %v did not restore the board", seed, r, b.point(m))
				}
				// Two light plays in a row: the second stone's point goes
				// stale while occupied and must come back as it was.
				if m2 := cands[rng.Intn(len(cands))]; m2 != m {
					b.playLight(m)
					b.playLight(m2)
					b.undoLight()
					b.undoLight()
					if snapshot(b) != before {
						t.Fatalf("seed %d %v: two light plays at %v, %v did not undo", seed, r, b.point(m), b.point(m2))
					}
				}
				e.vcfBudget = 2000
				e.vcf(b, 0, 0)
				if snapshot(b) != before {
					t.Fatalf("seed %d %v: the VCF changed the board", seed, r)
				}
				b.play(m)
			}
		}
	}
}

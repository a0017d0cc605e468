package reversi

import (
	"math/bits"
	"math/rand"
	"testing"
)

// TestSelectivePassesKeepExact checks that the selective passes before the
// exact solve change nothing in its result: on positions with 16 empties
// (with the passes and cuts lowered to reach them), the score equals the
// plain solver's, the best move reaches it, and each pass is reported.
func TestSelectivePassesKeepExact(t *testing.T) {
	defer func(root, min int) { endCutRootEmpties, endCutMinEmpties = root, min }(endCutRootEmpties, endCutMinEmpties)
	endCutRootEmpties, endCutMinEmpties = 16, 10
	rng := rand.New(rand.NewSource(5))
	e := NewEngineSize(1 << 20)
	e.endConf = provenExact
	for _, p := range endgamePositions(rng, 6, 16) {
		if p.MustPass() {
			continue
		}
		e.Clear()
		want := e.solve(p.me, p.opp, -65, 65, 16)
		var root []rootMove
		for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
			root = append(root, rootMove{sq: bits.TrailingZeros64(m)})
		}
		e.Clear()
		passes := 0
		best, score := e.solveRoot(p.me, p.opp, root, 0, func(int, int) { passes++ })
		if score != want {
			t.Fatalf("with selective passes: score %d, want %d\n%s", score, want, p.Diagram())
		}
		if passes != len(endCutPasses) {
			t.Errorf("%d passes reported, want %d", passes, len(endCutPasses))
		}
		if e.endConf != provenExact {
			t.Errorf("solveRoot left endConf %d", e.endConf)
		}
		f := flips(p.me, p.opp, best)
		if got := -e.solve(p.opp&^f, p.me|f|1<<uint(best), -65, 65, 15); got != want {
			t.Fatalf("best move %s scores %d, want %d", Square(best), got, want)
		}
	}
}

// TestTableConf checks how the table keeps bounds of different
// confidence: a surer result replaces a less sure one, a less sure one
// never overwrites a surer one's bounds, and probe reports the confidence.
func TestTableConf(t *testing.T) {
	const me, opp = 0x0000000810000000, 0x0000001008000000
	tests := []struct {
		name   string
		stores []struct {
			conf         uint8
			alpha, score int
		}
		wantConf          uint8
		wantLower, wantUp int16
	}{
		{"selective alone", []struct {
			conf         uint8
			alpha, score int
		}{{100, 3, 10}}, 100, 10, 32000},
		{"exact replaces selective", []struct {
			conf         uint8
			alpha, score int
		}{{100, 3, 10}, {provenExact, 3, 2}}, provenExact, -32000, 2},
		{"selective keeps exact", []struct {
			conf         uint8
			alpha, score int
		}{{provenExact, 3, 2}, {160, 3, 10}}, provenExact, -32000, 2},
		{"same confidence narrows", []struct {
			conf         uint8
			alpha, score int
		}{{160, 3, 10}, {160, 20, 14}}, 160, 10, 14},
	}
	for _, tc := range tests {
		tab := newTable(1 << 16)
		for _, s := range tc.stores {
			tab.storeConf(me, opp, 20, s.conf, s.alpha, s.alpha+1, s.score, 19)
		}
		ent, ok := tab.probe(me, opp)
		if !ok || ent.conf != tc.wantConf || ent.lower != tc.wantLower || ent.upper != tc.wantUp || ent.move != 19 {
			t.Errorf("%s: got %+v %v, want conf %d bounds [%d, %d] move 19", tc.name, ent, ok, tc.wantConf, tc.wantLower, tc.wantUp)
		}
	}
}

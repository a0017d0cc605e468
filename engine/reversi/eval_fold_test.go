package reversi

import (
	"math"
	"math/rand"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// TestFoldedEvaluation checks the folded tables (eval_fold.go) against the
// evaluation they replace, computed the obvious way from the file's
// tables: the pattern sum plus k/1000 of the linear evaluation. Rounding
// each folded entry to a hundredth of a disc moves a score by a few
// hundredths; a term folded into the wrong place would move it by discs.
func TestFoldedEvaluation(t *testing.T) {
	raw, err := pattern.Decode(patternsBin)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	var sum2 float64
	n := 0
	for _, p := range randomPositions(rng, 60) {
		empties := p.Empties()
		if empties > patternMaxEmpties || empties == 0 {
			continue
		}
		myMoves, oppMoves := legalMoves(p.me, p.opp), legalMoves(p.opp, p.me)
		w := raw[pattern.Stage(empties)]
		lin := linearParams.linear(p.me, p.opp, empties, myMoves, oppMoves)
		if lin != clampEval(lin) {
			continue // the unfolded evaluation clamps the linear part first
		}
		want := pattern.Evaluate(w, p.me, p.opp, popcount(myMoves), popcount(oppMoves)) +
			int(w[pattern.LinearOffset])*lin/1000
		if want != clampEval(want) {
			continue
		}
		got := patternParams.evaluate(p.me, p.opp)
		if d := got - want; d > 20 || d < -20 {
			t.Fatalf("folded %d, unfolded %d (%d empties)\n%s", got, want, empties, p.Diagram())
		}
		sum2 += float64((got - want) * (got - want))
		n++
	}
	if n < 1000 {
		t.Fatalf("only %d positions compared", n)
	}
	t.Logf("%d positions, root-mean-square difference %.2f hundredths of a disc", n, math.Sqrt(sum2/float64(n)))
}

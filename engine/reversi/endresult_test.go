package reversi

import (
	"context"
	"math/bits"
	"math/rand"
	"testing"
	"time"
)

// outcomeOf is the outcome of a final score, from the same side's view.
func outcomeOf(score int) int {
	switch {
	case score > 0:
		return outcomeWin
	case score < 0:
		return outcomeLoss
	}
	return outcomeDraw
}

// TestSolveResultProves checks the result passes on positions with 16
// empties (with the passes and cuts lowered to reach them): every pass is
// reported in order, the last (the proof) gives the outcome of the exact
// score, its move reaches that outcome unless the position is lost, and
// endConf is back at provenExact afterwards.
func TestSolveResultProves(t *testing.T) {
	defer func(root, min int) { endCutRootEmpties, endCutMinEmpties = root, min }(endCutRootEmpties, endCutMinEmpties)
	endCutRootEmpties, endCutMinEmpties = 16, 10
	t.Run("probes of endCutDepth", testSolveResultProves)
	// With the deeper probes of the result passes reaching down to these
	// positions: the passes' cuts change, the proof must not.
	defer func(min int) { resultCutMinEmpties = min }(resultCutMinEmpties)
	resultCutMinEmpties = 12
	t.Run("probes of resultCutDepth", testSolveResultProves)
}

func testSolveResultProves(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	e := NewEngineSize(1 << 20)
	outcomes := map[int]int{}
	for _, p := range endgamePositions(rng, 12, 16) {
		if p.MustPass() {
			continue
		}
		e.Clear()
		want := outcomeOf(e.solve(p.me, p.opp, -65, 65, 16))
		outcomes[want]++
		var root []rootMove
		for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
			root = append(root, rootMove{sq: bits.TrailingZeros64(m)})
		}
		e.Clear()
		var confs []uint8
		best, outcome := -1, 0
		e.solveResult(p.me, p.opp, root, func(conf uint8, b, o int) {
			confs = append(confs, conf)
			best, outcome = b, o
		})
		if len(confs) != len(resultPasses) || confs[len(confs)-1] != provenExact {
			t.Fatalf("passes reported at %v, want %v", confs, resultPasses)
		}
		if e.endConf != provenExact || e.resultPass {
			t.Errorf("solveResult left endConf %d, resultPass %v", e.endConf, e.resultPass)
		}
		if outcome != want {
			t.Fatalf("proof's outcome %d, want %d\n%s", outcome, want, p.Diagram())
		}
		if root[0].sq != best {
			t.Errorf("root starts with %s, the proof's move is %s", Square(root[0].sq), Square(best))
		}
		if want == outcomeLoss {
			continue
		}
		f := flips(p.me, p.opp, best)
		if got := outcomeOf(-e.solve(p.opp&^f, p.me|f|1<<uint(best), -65, 65, 15)); got != want {
			t.Fatalf("move %s reaches outcome %d, want %d\n%s", Square(best), got, want, p.Diagram())
		}
	}
	if outcomes[outcomeWin] == 0 || outcomes[outcomeLoss] == 0 {
		t.Errorf("outcomes of the positions %v: want wins and losses among them", outcomes)
	}
}

// TestSearchPlaysForResultUnderDeadline checks the top level's solve under
// a deadline: the result pass just before the exact score reports a move
// that reaches the position's outcome, with a score of that outcome's sign,
// and the search still ends with the exact score and a move that reaches it.
func TestSearchPlaysForResultUnderDeadline(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	for _, p := range endgamePositions(rng, 5, 18) {
		if p.MustPass() {
			continue
		}
		exact, err := NewEngine().Search(context.Background(), p, Limits{Depth: 60})
		if err != nil || !exact.Exact {
			t.Fatalf("plain solve: %+v (%v)", exact, err)
		}
		var reports []Info
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		r, err := NewEngine().Search(ctx, p, Limits{Level: MaxLevel, Progress: func(i Info) { reports = append(reports, i) }})
		cancel()
		if err != nil || !r.Exact || r.Score != exact.Score {
			t.Fatalf("under a deadline: %s %+d exact %v (%v), want %+d exact\n%s", r.Best, r.Score, r.Exact, err, exact.Score, p.Diagram())
		}
		if len(reports) < 2 {
			t.Fatalf("%d reports", len(reports))
		}
		proof := reports[len(reports)-2]
		want := outcomeOf(exact.Score)
		if proof.Exact || outcomeOf(proof.Score) != want {
			t.Fatalf("the proof's report %s %+d exact %v, want an estimate of outcome %d", proof.Best, proof.Score, proof.Exact, want)
		}
		for _, m := range []Square{proof.Best, r.Best} {
			child, err := NewEngine().Search(context.Background(), p.play(int(m)), Limits{Depth: 60})
			if err != nil {
				t.Fatal(err)
			}
			if m == r.Best && -child.Score != exact.Score || want != outcomeLoss && outcomeOf(-child.Score) != want {
				t.Errorf("move %s scores %+d; the position %+d", m, -child.Score, exact.Score)
			}
		}
	}
}

// TestPlayForResultOverrulesMidgame hands playForResult midgame results
// (on positions with 16 empties, the passes lowered to reach them)
// whose move does not reach the position's outcome (put first in the root,
// as the iterations would): the proof's report must play a move that does,
// and the final report is the exact score.
func TestPlayForResultOverrulesMidgame(t *testing.T) {
	defer func(root, min int) { endCutRootEmpties, endCutMinEmpties = root, min }(endCutRootEmpties, endCutMinEmpties)
	endCutRootEmpties, endCutMinEmpties = 16, 10
	rng := rand.New(rand.NewSource(37))
	e := NewEngineSize(1 << 22)
	tried := 0
	for _, p := range endgamePositions(rng, 30, 16) {
		if p.MustPass() || tried == 4 {
			continue
		}
		e.Clear()
		want := e.solve(p.me, p.opp, -65, 65, 16)
		if outcomeOf(want) == outcomeLoss {
			continue
		}
		worse := -1 // a move that does not reach the outcome
		var root []rootMove
		for m := legalMoves(p.me, p.opp); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros64(m)
			f := flips(p.me, p.opp, sq)
			if worse < 0 && outcomeOf(-e.solve(p.opp&^f, p.me|f|1<<uint(sq), -65, 65, 15)) != outcomeOf(want) {
				worse = sq
				root = append([]rootMove{{sq: sq}}, root...)
			} else {
				root = append(root, rootMove{sq: sq})
			}
		}
		if worse < 0 {
			continue
		}
		tried++
		e.Clear()
		res := Result{Depth: 8, Best: Square(worse), Score: 5, Centi: 500}
		var reports []Info
		e.playForResult(p, root, &res, func(r *Result) { reports = append(reports, *r) })
		if !res.Exact || res.Score != want {
			t.Fatalf("final %s %+d exact %v, want %+d exact", res.Best, res.Score, res.Exact, want)
		}
		proof := reports[len(reports)-2]
		f := flips(p.me, p.opp, int(proof.Best))
		if got := -e.solve(p.opp&^f, p.me|f|1<<uint(proof.Best), -65, 65, 15); outcomeOf(got) != outcomeOf(want) || outcomeOf(proof.Score) != outcomeOf(want) {
			t.Errorf("midgame move %s (not reaching %+d): the proof played %s (%+d, reported %+d)\n%s", Square(worse), want, proof.Best, got, proof.Score, p.Diagram())
		}
	}
	if tried < 4 {
		t.Errorf("only %d positions with a move short of the outcome", tried)
	}
}

// TestEndCutProbeDepth checks which probes decide a selective node: two
// plies in the solve's own passes at any size, and in a result pass below
// resultCutMinEmpties; resultCutDepth plies in a result pass from there up.
func TestEndCutProbeDepth(t *testing.T) {
	for _, c := range []struct {
		empties    int
		resultPass bool
		want       int
	}{
		{12, false, endCutDepth},
		{26, false, endCutDepth},
		{12, true, endCutDepth},
		{resultCutMinEmpties - 1, true, endCutDepth},
		{resultCutMinEmpties, true, resultCutDepth},
		{29, true, resultCutDepth},
	} {
		if got := endCutProbeDepth(c.empties, c.resultPass); got != c.want {
			t.Errorf("endCutProbeDepth(%d, %v) = %d, want %d", c.empties, c.resultPass, got, c.want)
		}
	}
	// The deeper probe keeps the parity of the shallow one, which the
	// spread model was fitted for (even depths; odd ones are biased).
	if resultCutDepth%2 != 0 || resultCutDepth <= endCutDepth {
		t.Errorf("resultCutDepth %d: want an even depth above endCutDepth %d", resultCutDepth, endCutDepth)
	}
}

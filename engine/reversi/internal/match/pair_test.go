package match

import (
	"math"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
)

// game is a record of the gauntlet's shape: ours ("level 10") against
// "ntest" from an opening, black's score; the moves do not matter here.
func game(t *testing.T, opening string, oursBlack bool, blackScore int) Record {
	t.Helper()
	o, err := reversi.ParseTranscript(opening)
	if err != nil {
		t.Fatal(err)
	}
	r := Record{Black: "level 10", White: "ntest depth 12", Opening: o, Score: blackScore}
	if !oursBlack {
		r.Black, r.White = r.White, r.Black
	}
	return r
}

func TestOutcomes(t *testing.T) {
	recs := []Record{
		game(t, "f5d6c3", true, 10),   // ours black, won by 10
		game(t, "f5d6c3", false, 10),  // ours white, lost by 10
		game(t, "f5f6e6", true, 0),    // draw
		game(t, "f5f6e6", false, -64), // ours white, won everything
	}
	got, err := Outcomes(recs, "level")
	if err != nil {
		t.Fatal(err)
	}
	want := map[GameKey]Outcome{
		{"f5d6c3", true}:  {Points: 1, Discs: 10},
		{"f5d6c3", false}: {Points: 0, Discs: -10},
		{"f5f6e6", true}:  {Points: 0.5, Discs: 0},
		{"f5f6e6", false}: {Points: 1, Discs: 64},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d outcomes, want %d", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%v: got %+v, want %+v", k, got[k], w)
		}
	}
}

func TestOutcomesErrors(t *testing.T) {
	both := game(t, "f5d6c3", true, 2)
	both.White = "level 9"
	neither := game(t, "f5d6c3", true, 2)
	neither.Black = "edax"
	for _, tc := range []struct {
		name string
		recs []Record
		want string
	}{
		{"both sides measured", []Record{both}, "exactly one player"},
		{"neither side measured", []Record{neither}, "exactly one player"},
		{"a game twice", []Record{game(t, "f5d6c3", true, 2), game(t, "f5d6c3", true, -2)}, "played twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Outcomes(tc.recs, "level")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestPair(t *testing.T) {
	a := map[GameKey]Outcome{
		{"o1", true}: {1, 10}, {"o1", false}: {0, -4}, {"o2", true}: {0.5, 0}, {"o2", false}: {0, -2},
		{"o3", true}: {1, 8}, // only A played it: left out
	}
	b := map[GameKey]Outcome{
		{"o1", true}: {1, 6}, {"o1", false}: {1, 8}, {"o2", true}: {0, -6}, {"o2", false}: {0, -2},
	}
	p, err := Pair(a, b)
	if err != nil {
		t.Fatal(err)
	}
	// Differences: points 0, +1, -0.5, 0; discs -4, +12, -6, 0. By opening
	// the points sum to +1 and -0.5.
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.6f, want %.6f", name, got, want)
		}
	}
	if p.Games != 4 || p.Changed != 2 {
		t.Errorf("games %d, changed %d; want 4 and 2", p.Games, p.Changed)
	}
	near("Points", p.Points, 0.125)
	near("PointsSE", p.PointsSE, math.Sqrt(1.1875/3/4))
	near("PointsClusterSE", p.PointsClusterSE, 0.75*2/4)
	near("Discs", p.Discs, 0.5)
	near("DiscsSE", p.DiscsSE, math.Sqrt(195.0/3/4))
	if s := p.String(); !strings.Contains(s, "score +12.50%") || !strings.Contains(s, "discs +0.50") {
		t.Errorf("String() = %q", s)
	}
	if _, err := Pair(a, map[GameKey]Outcome{{"o9", true}: {1, 2}}); err == nil {
		t.Error("no game in common: want an error")
	}
}

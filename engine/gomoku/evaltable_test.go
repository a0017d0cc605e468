package gomoku

import (
	"strings"
	"testing"
)

// TestComboOf checks the combination numbering: every combination is
// reached, and two pointTable indices share one exactly when their
// patterns are the same multiset.
func TestComboOf(t *testing.T) {
	seen := make([]bool, numCombos)
	for k, c := range comboOf {
		seen[c] = true
		if got := sortedPatterns(k); got != comboPatterns[c] {
			t.Fatalf("index %d: combination %d is %v, the patterns are %v", k, c, comboPatterns[c], got)
		}
	}
	for c, ok := range seen {
		if !ok {
			t.Errorf("combination %d (%s) never reached", c, comboName(c))
		}
	}
}

// TestEvalTableRoundTrip writes the hand-set and the embedded tables and
// parses them back.
func TestEvalTableRoundTrip(t *testing.T) {
	for _, w := range []*evalWeights{handSetWeights(), evalW} {
		got, err := parseEvalTable(formatEvalTable(w, []string{"a header"}))
		if err != nil {
			t.Fatal(err)
		}
		if *got != *w {
			t.Fatal("the table read back differs")
		}
	}
}

// TestEvalTableErrors lists tables parseEvalTable must refuse.
func TestEvalTableErrors(t *testing.T) {
	good := formatEvalTable(handSetWeights(), nil)
	lines := strings.Split(strings.TrimSpace(good), "\n")
	without := func(prefix string) string {
		var out []string
		for _, l := range lines {
			if !strings.HasPrefix(l, prefix) {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "lacks combination"},
		{"no tempo", without("term tempo "), "lacks term tempo"},
		{"no combination", without("combo F5 F5 F5 F5 "), "lacks combination F5 F5 F5 F5"},
		{"unknown term", good + "term speed 3\n", "bad term"},
		{"bad number", good + "term tempo x\n", "bad term"},
		{"unknown pattern", good + "combo F6 F5 F5 F5 1 2\n", "bad combination"},
		{"unsorted", good + "combo B1 F5 F5 F5 1 2\n", "bad combination"},
		{"one value", good + "combo F5 F5 F5 F5 1\n", "unknown line"},
		{"junk", good + "hello\n", "unknown line"},
		{"situation out of range", good + "situation 9 0 5\n", "bad situation"},
		{"situation not a number", good + "situation 1 x 5\n", "bad situation"},
		{"situation too large", good + "situation 1 1 100001\n", "bad situation"},
		{"situation beyond int32", good + "situation 1 1 4294967296\n", "bad situation"},
		{"term too large", good + "term tempo -100001\n", "bad term"},
	} {
		_, err := parseEvalTable(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// FuzzParseEvalTable checks that the parser never panics, and that a
// table it accepts writes back to one that parses to the same values.
func FuzzParseEvalTable(f *testing.F) {
	f.Add(formatEvalTable(handSetWeights(), []string{"seed"}))
	f.Add(evalTableText)
	f.Add("term tempo 5\ncombo None None None None 1 2\n")
	f.Add("# only a comment\n")
	f.Fuzz(func(t *testing.T, text string) {
		w, err := parseEvalTable(text)
		if err != nil {
			return
		}
		back, err := parseEvalTable(formatEvalTable(w, nil))
		if err != nil || *back != *w {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestSituationOf checks the situations read from a side's class counts.
func TestSituationOf(t *testing.T) {
	counts := func(pairs ...int) *[numThreats]int16 {
		var n [numThreats]int16
		for i := 0; i < len(pairs); i += 2 {
			n[pairs[i]] = int16(pairs[i+1])
		}
		return &n
	}
	for _, tc := range []struct {
		n          *[numThreats]int16
		renjuBlack bool
		want       int
	}{
		{counts(int(tTwo), 9), false, sitNone},
		{counts(int(tThree), 1), false, sitThree},
		{counts(int(tThree), 4), false, sitThrees},
		{counts(int(tFour), 2), false, sitFour},
		{counts(int(tFour), 1, int(tThree), 3), false, sitFourAndThree},
		{counts(int(tThree2), 1, int(tThree), 3), false, sitThree2},
		{counts(int(tThree2), 1, int(tFour), 1), false, sitThree2Four},
		{counts(int(tThree2), 1, int(tThree), 3), true, sitThrees}, // renju black: the double three is forbidden
		{counts(int(tFourThree), 1, int(tThree2), 1), false, sitFourThree},
		{counts(int(tFlex4), 1, int(tFourThree), 1), false, sitFlex4},
	} {
		if got := situationOf(tc.n, tc.renjuBlack); got != tc.want {
			t.Errorf("%v (renju black %v): situation %d, want %d", *tc.n, tc.renjuBlack, got, tc.want)
		}
	}
}

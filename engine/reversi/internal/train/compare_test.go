package main

import (
	"bytes"
	"testing"
)

// TestCompareLabels checks compare's figures on labels whose errors are
// known. The reference has two exact positions at 48 empties (values 10 and
// -6), one at 40 (0) and one at 48 that is not exact; one set is two discs
// above every value, the other right at the first position, four below at
// the second, and far off where the reference is not exact (which must not
// count).
func TestCompareLabels(t *testing.T) {
	ref := []sample{
		{black: 0xff, white: 0xff00, score: 10, exact: true},
		{black: 0xff00, white: 0xff, score: -6, exact: true},
		{black: 0xffff, white: 0xff0000, score: 0, exact: true},
		{black: 0xff0000, white: 0xff, score: 3},
	}
	up := append([]sample(nil), ref...)
	for i := range up {
		up[i].score += 2
	}
	mixed := append([]sample(nil), ref...)
	mixed[1].score -= 4
	mixed[3].score += 30
	var out bytes.Buffer
	if err := compareLabels(ref, []labelSet{{"up", up}, {"mixed", mixed}}, 1, 60, &out); err != nil {
		t.Fatal(err)
	}
	want := "40 empties:  up n=1 rmse 2.00 mean +2.00  mixed n=1 rmse 0.00 mean +0.00\n" +
		"48 empties:  up n=2 rmse 2.00 mean +2.00  mixed n=2 rmse 2.83 mean -2.00\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}

	out.Reset()
	if err := compareLabels(ref, []labelSet{{"up", up}}, 41, 60, &out); err != nil {
		t.Fatal(err)
	}
	if want := "48 empties:  up n=2 rmse 2.00 mean +2.00\n"; out.String() != want {
		t.Errorf("41-60 empties: got %q, want %q", out.String(), want)
	}

	for name, sets := range map[string][]labelSet{
		"no set":                  nil,
		"another position":        {{"swapped", []sample{ref[1], ref[0], ref[2], ref[3]}}},
		"fewer samples":           {{"short", ref[:2]}},
		"no exact label in range": nil,
	} {
		lo := 1
		if name == "no exact label in range" {
			sets, lo = []labelSet{{"up", up}}, 49
		}
		if err := compareLabels(ref, sets, lo, 60, &out); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

package gomoku

import "testing"

func TestFoulAt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string // played in order, black first (white far away on the a file)
		p     string
		want  Foul
	}{
		{"one three is allowed", []string{"h8", "a1", "i8", "a3", "h9", "a5"}, "h10", NoFoul},
		{"double three at the corner of two open twos", []string{"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"}, "i8", DoubleThree},
		{"overline", []string{"c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9"}, "f8", Overline},
		{"double four", []string{"e8", "a1", "f8", "a3", "g8", "a5", "i10", "a7", "i11", "a9", "i12", "a11"}, "i8", DoubleFour},
		{"five is never forbidden", []string{"d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7"}, "h8", NoFoul},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := NewBoard(15, Renju)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.moves {
				p, err := ParsePoint(m, 15)
				if err != nil {
					t.Fatal(err)
				}
				if err := b.Play(p); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
			}
			p, _ := ParsePoint(tc.p, 15)
			if got := b.FoulAt(p); got != tc.want {
				t.Fatalf("FoulAt(%s) = %q, want %q", tc.p, got, tc.want)
			}
			forbidden := b.IsLegal(p) != nil
			if forbidden != (tc.want != NoFoul) {
				t.Fatalf("IsLegal(%s) forbidden=%v but FoulAt says %q", tc.p, forbidden, tc.want)
			}
		})
	}
}

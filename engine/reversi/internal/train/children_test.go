package main

import (
	"bytes"
	"math/bits"
	"strings"
	"testing"

	"github.com/boardhall/boardhall/engine/reversi"
)

// decodeAll reads samples written to a buffer.
func decodeAll(t *testing.T, data []byte) []sample {
	t.Helper()
	if len(data)%sampleBytes != 0 {
		t.Fatalf("%d bytes is not a whole number of samples", len(data))
	}
	var out []sample
	for i := 0; i < len(data); i += sampleBytes {
		out = append(out, decodeSample(data[i:]))
	}
	return out
}

// isChildOf reports whether c is p after one of p's legal moves (and a
// pass, when the opponent then has none).
func isChildOf(c sample, p reversi.Position) bool {
	for _, sq := range p.LegalMoves() {
		q, _ := p.Play(sq)
		if q.MustPass() && !q.GameOver() {
			q, _ = q.PlayPass()
		}
		if q.Black() == c.black && q.White() == c.white && q.ToMove() == c.toMove {
			return true
		}
	}
	return false
}

func TestChildren(t *testing.T) {
	games := decodeAll(t, smallGen(t, 2))
	for _, c := range []struct{ min, max, every int }{{20, 40, 1}, {29, 36, 4}, {50, 55, 2}, {1, 59, 3}} {
		cfg := childrenConfig{minEmpties: c.min, maxEmpties: c.max, every: c.every}
		var buf bytes.Buffer
		ngames, n, err := children(cfg, games, &buf)
		if err != nil {
			t.Fatal(err)
		}
		out := decodeAll(t, buf.Bytes())
		if n == 0 {
			t.Fatalf("%+v: no children written", c)
		}
		if ngames != 6 || len(out) != n+ngames {
			t.Fatalf("%+v: %d games, %d children, %d samples written", c, ngames, n, len(out))
		}

		// The expected children, game by game: every legal child of the
		// chosen parents, in order.
		var want []sample
		game, k := -1, 0
		for _, s := range games {
			if isStart(s) {
				game++
				k = 0
				want = append(want, sample{black: s.black, white: s.white, toMove: s.toMove})
			}
			p := s.position()
			if e := p.Empties() - 1; e < c.min || e > c.max || p.MustPass() {
				continue
			}
			if k++; (k-1)%c.every != game%c.every {
				continue
			}
			for _, sq := range p.LegalMoves() {
				q, _ := p.Play(sq)
				if q.GameOver() {
					continue
				}
				if q.MustPass() {
					q, _ = q.PlayPass()
				}
				want = append(want, sample{black: q.Black(), white: q.White(), toMove: q.ToMove()})
			}
		}
		if len(want) != len(out) {
			t.Fatalf("%+v: %d samples, want %d", c, len(out), len(want))
		}
		for i, s := range out {
			if s != want[i] {
				t.Fatalf("%+v: sample %d is %+v, want %+v", c, i, s, want[i])
			}
			if isStart(s) {
				continue
			}
			if e := 64 - bits.OnesCount64(s.black|s.white); e < c.min || e > c.max {
				t.Errorf("%+v: a child with %d empties", c, e)
			}
			if s.score != 0 || s.exact {
				t.Errorf("%+v: a child is labelled", c)
			}
			if p := s.position(); p.MustPass() || p.GameOver() {
				t.Errorf("%+v: a child whose side to move cannot move", c)
			}
		}
		// Every child follows from a game position by one legal move.
		for _, s := range out {
			if isStart(s) {
				continue
			}
			found := false
			for _, g := range games {
				if isChildOf(s, g.position()) {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%+v: %+v is no game position's child", c, s)
			}
		}
	}
}

// TestChildrenKeepTheSplit: appended to a file of ten games, game g's
// children are held out exactly when game g is (game 9 here).
func TestChildrenKeepTheSplit(t *testing.T) {
	var games []sample
	for i := 0; i < 2; i++ { // twelve games (smallGen's six, twice)
		games = append(games, decodeAll(t, smallGen(t, 1))...)
	}
	var buf bytes.Buffer
	if _, _, err := children(childrenConfig{minEmpties: 1, maxEmpties: 59, every: 1}, games, &buf); err != nil {
		t.Fatal(err)
	}
	kids := decodeAll(t, buf.Bytes())
	first := firstGames(games, 10)
	var want []sample // game 9 of first, then game 9 of kids
	for _, part := range [][]sample{first, kids} {
		game := -1
		for _, s := range part {
			if isStart(s) {
				game++
			}
			if game == 9 {
				want = append(want, s)
			}
		}
	}
	_, valid := split(append(append([]sample(nil), first...), kids...))
	if len(valid) != len(want) || len(want) <= len(firstGames(games, 10))-len(firstGames(games, 9))+1 {
		t.Fatalf("%d held out, want %d (game 9 and its children)", len(valid), len(want))
	}
	for i := range want {
		if valid[i] != want[i] {
			t.Fatalf("held-out sample %d differs", i)
		}
	}
}

func TestChildrenRefusesGamelessInput(t *testing.T) {
	games := decodeAll(t, smallGen(t, 1))
	if _, _, err := children(childrenConfig{minEmpties: 1, maxEmpties: 59, every: 1}, games[1:], new(bytes.Buffer)); err == nil {
		t.Fatal("samples that do not start with a game's start position were accepted")
	}
}

// TestChildrenLeaveOutFinishedGames: a move that takes the opponent's
// last disc ends the game; that child has no move to search and is left
// out (its side to move cannot pass either).
func TestChildrenLeaveOutFinishedGames(t *testing.T) {
	p, err := reversi.ParsePosition("XO"+strings.Repeat("-", 62), reversi.Black)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LegalMoves()) != 1 {
		t.Fatalf("the test position has %d legal moves, want 1", len(p.LegalMoves()))
	}
	start := reversi.Start()
	games := []sample{
		{black: start.Black(), white: start.White(), toMove: reversi.Black},
		{black: p.Black(), white: p.White(), toMove: reversi.Black},
	}
	var buf bytes.Buffer
	_, n, err := children(childrenConfig{minEmpties: 1, maxEmpties: 61, every: 1}, games, &buf)
	if err != nil {
		t.Fatal(err)
	}
	// The start position's four children, none of the finished one.
	if n != 4 {
		t.Fatalf("%d children written, want the start's 4", n)
	}
}

package match

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// The full matches are measurements, run only on request:
//
//	REVERSI_MATCH=1 go test -run TestMatch -v -timeout 60m ./engine/reversi/internal/match
//
// REVERSI_MATCH_GAMES sets the number of openings (each played twice). The
// normal suite plays a short real version so the harness cannot rot.
func fullMatch() bool { return os.Getenv("REVERSI_MATCH") != "" }

func openingsCount(short, full int) int {
	if !fullMatch() {
		return short
	}
	if n, err := strconv.Atoi(os.Getenv("REVERSI_MATCH_GAMES")); err == nil && n > 0 {
		return n
	}
	return full
}

func TestMatchAgainstSeed000(t *testing.T) {
	depth := 9
	if !fullMatch() {
		depth = 5 // keep the normal suite quick; the method is the same
	}
	a := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 4}}
	b := &Seed000{Depth: depth}
	ops := Openings(4, openingsCount(2, 60))
	start := time.Now()
	st, err := Play(context.Background(), a, b, ops, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("level 4 vs seed000 depth %d: %v (%v)", depth, st, time.Since(start).Round(time.Second))
	if st.Games != 2*len(ops) || st.Wins+st.Losses+st.Draws != st.Games {
		t.Fatalf("inconsistent stats %+v", st)
	}
	if st.Score() < 0.9 {
		t.Errorf("level 4 scored %.1f%% against the seed method, want at least 90%%", 100*st.Score())
	}
}

func TestMatchLadder(t *testing.T) {
	top := 4
	if fullMatch() {
		top = reversi.MaxLevel
		if s := os.Getenv("REVERSI_MATCH_TOP"); s != "" {
			top, _ = strconv.Atoi(s)
		}
	}
	ops := Openings(4, openingsCount(1, 12))
	from := 2
	if s := os.Getenv("REVERSI_MATCH_FROM"); s != "" && fullMatch() {
		from, _ = strconv.Atoi(s)
	}
	for lv := from; lv <= top; lv++ {
		a := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: lv, Seed: 1}}
		b := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: lv - 1, Seed: 1}}
		ctxFor := func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }
		if lv == reversi.MaxLevel {
			// The top level is bounded by time, as the service runs it
			// (5 s per move by default; REVERSI_MATCH_MOVETIME overrides).
			a.Engine, a.Limits = reversi.NewEngine(), reversi.Limits{Level: lv}
			moveTime := 5 * time.Second
			if d, err := time.ParseDuration(os.Getenv("REVERSI_MATCH_MOVETIME")); err == nil && d > 0 {
				moveTime = d
			}
			ctxFor = func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), moveTime)
			}
		}
		st, err := Play(context.Background(), timed{a, ctxFor}, b, ops, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("level %d vs level %d: %v", lv, lv-1, st)
		if fullMatch() && st.Score() <= 0.5 {
			t.Errorf("level %d does not beat level %d: %v", lv, lv-1, st)
		}
	}
}

// timed gives each move of a player its own context (a per-move time cap).
type timed struct {
	Player
	ctx func() (context.Context, context.CancelFunc)
}

func (t timed) Move(_ context.Context, p reversi.Position) (reversi.Square, error) {
	ctx, cancel := t.ctx()
	defer cancel()
	return t.Player.Move(ctx, p)
}

func TestOpenings(t *testing.T) {
	ops := Openings(4, 300)
	if len(ops) != 244 { // perft(4) from the start
		t.Fatalf("got %d four-ply lines, want 244", len(ops))
	}
	if got := Openings(2, 5); len(got) != 5 {
		t.Fatalf("got %d lines", len(got))
	}
}

func TestSeed000TakesCorner(t *testing.T) {
	// Black can take a1: the seed method does so at once.
	p, err := reversi.ParsePosition("-OX"+"-----"+"--------"+"--------"+"---OX---"+"---XO---"+"--------"+"--------"+"--------", reversi.Black)
	if err != nil {
		t.Fatal(err)
	}
	m, err := (&Seed000{Depth: 3}).Move(context.Background(), p)
	if err != nil || m != 0 {
		t.Errorf("got %v %v, want a1", m, err)
	}
}

func TestRecord(t *testing.T) {
	last := new(reversi.Result)
	a := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 2, Seed: 1}, Last: last}
	b := &Seed000{Depth: 2}
	var recs []Record
	st, err := Play(context.Background(), a, b, Openings(4, 2), func(_ Stats, r Record) { recs = append(recs, r) })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != st.Games || st.Games != 4 {
		t.Fatalf("%d records of %d games", len(recs), st.Games)
	}
	for i, r := range recs {
		if r.Black != a.Name() && r.White != a.Name() {
			t.Errorf("record %d: players %q and %q, neither is %q", i, r.Black, r.White, a.Name())
		}
		line := r.String()
		back, err := ParseRecord(line)
		if err != nil {
			t.Fatalf("record %d: %v\n%s", i, err, line)
		}
		if back.String() != line {
			t.Errorf("record %d read back as\n%s\nwant\n%s", i, back, line)
		}
		ps, err := back.Positions()
		if err != nil || len(ps) != len(r.Moves) {
			t.Fatalf("record %d: %d positions for %d moves (%v)", i, len(ps), len(r.Moves), err)
		}
		notes := 0
		for j, m := range r.Moves {
			mover := r.White
			if ps[j].ToMove() == reversi.Black {
				mover = r.Black
			}
			if m != reversi.Pass && mover == a.Name() {
				if !strings.HasPrefix(r.Notes[j], "d") && !strings.HasPrefix(r.Notes[j], "x") {
					t.Errorf("record %d move %d: note %q for the engine's move", i, j, r.Notes[j])
				}
				notes++
			} else if r.Notes[j] != "" {
				t.Errorf("record %d move %d: note %q for a move without one", i, j, r.Notes[j])
			}
		}
		if notes == 0 {
			t.Errorf("record %d: no notes from the engine", i)
		}
	}
	// A record whose moves do not end the game with its score is refused.
	r := recs[0]
	r.Score += 2
	if _, err := ParseRecord(r.String()); err == nil {
		t.Error("a record with a wrong score was accepted")
	}
}

// FuzzParseRecord: any line ParseRecord accepts writes back to a line it
// reads again as the same record, and replays to a position per move;
// anything else gets an error, never a panic.
func FuzzParseRecord(f *testing.F) {
	f.Add("level 1\tseed000\td3c3b3b2\tc4a3f5f6e6f7b4a5c5c6b6a6a4f3e3f2d2c1c7d8d7c2d6g6b5c8e8f8e7f4g5h6g2g3a1h1a2g4a7b7g8h8h2h3a8g7b8pah5h4b1pad1pah7pae2e1g1f1\t16\td1:+14.96 - d1:+10.43 - d1:+15.55 - d1:+23.97 - d1:+24.08 - d1:+26.85 - d1:+30.06 - d1:+36.77 - d1:+45.82 - d1:+42.88 - d1:+44.69 - d1:+52.03 - d1:+60.35 - d1:+57.47 - d1:+61.69 - d1:+56.33 - d1:+46.49 - d1:+45.55 - d1:+42.51 - d1:+45.38 - d1:+30.87 - d1:+23.03 - d1:+20.13 - d1:+39.82 - d1:+36.69 - d1:+39.26 - d1:+34.61 - d1:+32.08 - d1:+24.91 - d1:+19.82 -")
	f.Add("seed000\tlevel 1\td3c3b3b2\tc4b4a1b1c1d2a3c5d1c2a4a5a6e2f1f2e1b5g3a2b6f3f6h3h4e6e3h5c6f4f7h2f5g2h1g4h6d6c7g1pag5g6g8f8h7h8e8d8g7d7e7paa7a8b8c8b7\t0\t- d1:-19.05 - d1:-12.49 - d1:-30.55 - d1:-11.04 - d1:-9.73 - d1:-22.97 - d1:-25.96 - d1:-15.77 - d1:-18.34 - d1:-15.47 - d1:-8.44 - d1:+6.33 - d1:+3.06 - d1:+2.63 - d1:+9.48 - d1:+15.02 - d1:+17.18 - d1:+9.93 - d1:+6.08 - d1:+13.95 - d1:+13.39 - d1:+9.08 - d1:+0.03 - d1:+1.07 - d1:+6.32 - d1:+5.35 - d1:-1.37 - d1:-5.41 - d1:+0.00\r\n")
	f.Add("a\tb\tf5\td6\t0\t-")          // the game is not over
	f.Add("a\tb\t\t\t0\t")               // no moves at all
	f.Add("a\tb\tf5d6\tzz\t0\t-")        // a move that is no square
	f.Add("a\tb\tf5\tf5\t0\t-")          // an illegal move
	f.Add("a\tb\tf5\td6\tx\t-")          // a score that is no number
	f.Add("a\tb\tf5\td6\t0")             // five fields
	f.Add("a\tb\tf5\td6\t0\t- -\textra") // seven fields
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRecord(line)
		if err != nil {
			return
		}
		out := r.String()
		back, err := ParseRecord(out)
		if err != nil {
			t.Fatalf("%q parsed, but its record %q did not: %v", line, out, err)
		}
		if back.String() != out {
			t.Fatalf("record %q read back as %q", out, back.String())
		}
		ps, err := back.Positions()
		if err != nil || len(ps) != len(back.Moves) {
			t.Fatalf("record %q: %d positions for %d moves (%v)", out, len(ps), len(back.Moves), err)
		}
	})
}

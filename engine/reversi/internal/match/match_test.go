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

package match

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// TestMatchVariants plays two variants of the full engine against each
// other at a fixed time per move (REVERSI_MATCH_MOVETIME, default 300ms),
// from symmetry-unique 6-ply openings, both colours:
//
//	REVERSI_MATCH=1 REVERSI_MATCH_A=full REVERSI_MATCH_B=noselective REVERSI_MATCH_GAMES=20 \
//	nice -n 10 go test -run TestMatchVariants -v -timeout 60m ./engine/reversi/internal/match
//
// A variant is a "+"-separated list of: full (the engine as shipped),
// noselective (Multi-ProbCut off), pattern (the pattern tables),
// linear (the linear evaluation), patternsN (the pattern tables up to N
// empties, the linear evaluation above), tablesN=PATH (the pattern tables
// of the file PATH, as made by internal/train, up to N empties: for trying
// a fit before it is shipped), depthN (a fixed midgame depth instead of
// the time: the evaluations compared without their speed).
func TestMatchVariants(t *testing.T) {
	if !fullMatch() {
		t.Skip("set REVERSI_MATCH=1 to play engine variants against each other")
	}
	moveTime := 300 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("REVERSI_MATCH_MOVETIME")); err == nil && d > 0 {
		moveTime = d
	}
	a := variant(t, os.Getenv("REVERSI_MATCH_A"), moveTime)
	b := variant(t, os.Getenv("REVERSI_MATCH_B"), moveTime)
	ops := UniqueOpenings(6, openingsCount(20, 20))
	start := time.Now()
	st, err := Play(context.Background(), a, b, ops, func(st Stats, _ Record) {
		if st.Games%10 == 0 {
			t.Logf("game %d: %v", st.Games, st)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	se := 1.96 * math.Sqrt(st.Score()*(1-st.Score())/float64(st.Games))
	t.Logf("%s vs %s at %v a move: %v (±%.1f%%); %v", a.Name(), b.Name(), moveTime, st, 100*se, time.Since(start).Round(time.Second))
}

func variant(t *testing.T, spec string, moveTime time.Duration) Player {
	if spec == "" {
		spec = "full"
	}
	e := reversi.NewEngine()
	lim := reversi.Limits{Level: reversi.MaxLevel}
	for _, v := range strings.Split(spec, "+") {
		switch {
		case v == "full":
		case v == "noselective":
			lim.NoSelective = true
		case v == "pattern":
			e.UsePatternEvaluation()
		case v == "linear":
			e.UseLinearEvaluation()
		case strings.HasPrefix(v, "depth"):
			n, err := strconv.Atoi(strings.TrimPrefix(v, "depth"))
			if err != nil || n < 1 {
				t.Fatalf("variant %q: want depthN", v)
			}
			lim.Depth = n
		case strings.HasPrefix(v, "tables"):
			num, path, ok := strings.Cut(strings.TrimPrefix(v, "tables"), "=")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < 0 || n > 60 {
				t.Fatalf("variant %q: want tablesN=PATH", v)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.UsePatternTables(data, n); err != nil {
				t.Fatalf("variant %q: %v", v, err)
			}
		default:
			var n int
			if _, err := fmt.Sscanf(v, "patterns%d", &n); err != nil || n < 0 || n > 60 {
				t.Fatalf("unknown variant %q", v)
			}
			e.UsePatternsUpTo(n)
		}
	}
	return &clocked{Player: EnginePlayer{Engine: e, Limits: lim, Label: spec}, moveTime: moveTime}
}

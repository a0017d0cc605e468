package match

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// profileRecord is a game of the thirty-second session's match against
// NTest at 3 s a move (level 10 as black): the short run of
// TestMoveTimeProfile profiles two of its positions.
const profileRecord = "level 10\tntest\td3e3f5c3c2e6\tf4c4f3d2c1e1d6f6e7c6d7f7c7g6g4e2g5c8b5c5f8d8e8g8b3b6f1h5d1h3a6g3b4b2h4a2f2a5a4b1a7g1a1a3h1a8b8b7h2g7h7h6h8g2\t-2\t- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"

// TestMoveTimeProfile is a measurement of where the time of a move goes
// near the end of the game. For every position of the given match records
// where our engine ("level ..." in the record) was to move, with a number
// of empties in range, it searches with a fresh engine at the top level and
// a deadline, and logs each progress report (midgame iterations, the
// solve's selective passes, the exact result) with its time; then per
// number of empties the positions, the searches that went deeper than the
// solve's cap (empties - 10, so midgame iterations to the deadline), the
// selective passes that ended, the exact solves, and the mean time after
// the last report (time that produced nothing the move could use):
//
//	REVERSI_TIME_PROFILE=rec-a.txt,rec-b.txt REVERSI_TIME_PROFILE_EMPTIES=24:34 \
//	REVERSI_MATCH_MOVETIME=3s go test -run TestMoveTimeProfile -v -timeout 0 ./engine/reversi/internal/match
//
// Without REVERSI_TIME_PROFILE the normal suite profiles two positions of
// profileRecord at 200 ms, so the measurement cannot rot.
func TestMoveTimeProfile(t *testing.T) {
	var recs []Record
	lo, hi, moveTime, limit := 24, 34, 3*time.Second, 0
	if files := os.Getenv("REVERSI_TIME_PROFILE"); files != "" {
		for _, name := range strings.Split(files, ",") {
			rs, err := ReadRecords(name)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rs...)
		}
		if v := os.Getenv("REVERSI_TIME_PROFILE_EMPTIES"); v != "" {
			a, b, ok := strings.Cut(v, ":")
			var err1, err2 error
			lo, err1 = strconv.Atoi(a)
			hi, err2 = strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || lo < 1 || hi < lo {
				t.Fatalf("REVERSI_TIME_PROFILE_EMPTIES=%q: want a range of empties, like 24:34", v)
			}
		}
		if d, err := time.ParseDuration(os.Getenv("REVERSI_MATCH_MOVETIME")); err == nil && d > 0 {
			moveTime = d
		}
	} else {
		r, err := ParseRecord(profileRecord)
		if err != nil {
			t.Fatal(err)
		}
		recs, lo, hi, moveTime, limit = []Record{r}, 30, 34, 200*time.Millisecond, 2
	}

	type tally struct {
		positions, deeper, passes, exact int
		idle                             time.Duration
	}
	byEmpties := map[int]*tally{}
	searched := 0
	for g, r := range recs {
		ps, err := r.Positions()
		if err != nil {
			t.Fatalf("record %d: %v", g+1, err)
		}
		oursBlack := strings.HasPrefix(r.Black, "level")
		for i, p := range ps {
			n := p.Empties()
			if r.Moves[i] == reversi.Pass || (p.ToMove() == reversi.Black) != oursBlack || n < lo || n > hi {
				continue
			}
			if limit > 0 && searched == limit {
				break
			}
			searched++
			tl := byEmpties[n]
			if tl == nil {
				tl = new(tally)
				byEmpties[n] = tl
			}
			steps, idle, deeper, passes, exact := profileMove(t, p, moveTime)
			tl.positions++
			tl.idle += idle
			if deeper {
				tl.deeper++
			}
			tl.passes += passes
			if exact {
				tl.exact++
			}
			t.Logf("record %d, %d empties: %s", g+1, n, steps)
		}
	}
	if searched == 0 {
		t.Fatalf("no position of ours with %d-%d empties in the records", lo, hi)
	}
	keys := make([]int, 0, len(byEmpties))
	for n := range byEmpties {
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, n := range keys {
		tl := byEmpties[n]
		t.Logf("%d empties: %d positions, %d deeper than the cap, %d selective passes ended, %d exact, %.2f s after the last report on average",
			n, tl.positions, tl.deeper, tl.passes, tl.exact, tl.idle.Seconds()/float64(tl.positions))
	}
}

// profileMove searches p at the top level with a deadline moveTime away and
// returns its progress reports as text, the time after the last one, and
// whether the search went deeper than the solve's cap, how many selective
// passes ended (reports at the cap's depth after the first) and whether the
// solve was exact.
func profileMove(t *testing.T, p reversi.Position, moveTime time.Duration) (steps string, idle time.Duration, deeper bool, passes int, exact bool) {
	t.Helper()
	eng := reversi.NewEngine() // before the clock starts: its tables take time to make
	ctx, cancel := context.WithTimeout(context.Background(), moveTime)
	defer cancel()
	capDepth := p.Empties() - 10
	var b strings.Builder
	var last time.Duration
	atCap := 0
	start := time.Now()
	res, err := eng.Search(ctx, p, reversi.Limits{Level: reversi.MaxLevel, Progress: func(i reversi.Info) {
		last = time.Since(start)
		tag := "d"
		switch {
		case i.Exact:
			tag = "x"
		case i.Depth == capDepth:
			atCap++
		case i.Depth > capDepth:
			deeper = true
		}
		fmt.Fprintf(&b, "%s%d:%s%+d@%.2f ", tag, i.Depth, i.Best, i.Score, last.Seconds())
	}})
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(&b, "| played %s after %.2f s", res.Best, elapsed.Seconds())
	return b.String(), elapsed - last, deeper, max(atCap-1, 0), res.Exact
}

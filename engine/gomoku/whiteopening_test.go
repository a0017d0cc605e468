package gomoku

import (
	"bufio"
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestWhiteOpenings compares white's first move in the Piskvork openings
// at the budget level 6 gets at 1000 ms a move with a long search's
// (issue 15: as white the games against Rapfi are lost by the opening).
// Skipped unless GOMOKU_WHITE_LONG (nodes of the long search) is set:
//
//	GOMOKU_WHITE_LONG=8000000 [GOMOKU_WHITE_SHORT=500000] [GOMOKU_WHITE_FROM=0] \
//	  [GOMOKU_WHITE_TO=40] [GOMOKU_WHITE_LOGS=<match logs>] \
//	  go test -run TestWhiteOpenings -v -timeout 0 ./engine/gomoku
//
// For each opening: the short search's move and score, the long search's,
// and, when they differ, the long search's score of the position after
// the short search's move (white's view). GOMOKU_WHITE_LOGS names match
// logs of games against another program; the white moves it played when
// we were black in that opening are listed too, facts for analysis.
func TestWhiteOpenings(t *testing.T) {
	long := envUint(t, "GOMOKU_WHITE_LONG", 0)
	if long == 0 {
		t.Skip("set GOMOKU_WHITE_LONG to the long search's nodes to compare white's first moves")
	}
	short := envUint(t, "GOMOKU_WHITE_SHORT", 500000)
	openings, names := piskvorkOpenings(t)
	from := int(envUint(t, "GOMOKU_WHITE_FROM", 0))
	to := min(int(envUint(t, "GOMOKU_WHITE_TO", uint64(len(openings)))), len(openings))
	theirs := map[string][]string{}
	if logs := os.Getenv("GOMOKU_WHITE_LOGS"); logs != "" {
		line := regexp.MustCompile(`(piskvork/\d+) \S+ as black: (win|loss|draw) ([a-o0-9]+)`)
		for _, name := range strings.Split(logs, ",") {
			fh, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 1<<16), 1<<20)
			for sc.Scan() {
				if m := line.FindStringSubmatch(sc.Text()); m != nil {
					if moves, err := ParseRecord(m[3], 15); err == nil && len(moves) > 3 {
						theirs[m[1]] = append(theirs[m[1]], FormatRecord(moves[3:4])+" ("+m[2]+")")
					}
				}
			}
			fh.Close()
		}
	}
	search := func(b *Board, nodes uint64) Result {
		r, err := NewEngine().Search(context.Background(), b, Limits{Nodes: nodes})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	same := 0
	for i := from; i < to; i++ {
		b := randomOpening(nil, openings[i], 0, 0)
		s := search(b, short)
		l := search(b, long)
		after := ""
		if s.Best == l.Best {
			same++
		} else {
			c := b.Clone()
			if err := c.Play(s.Best); err != nil {
				t.Fatal(err)
			}
			after = " long search after the short move: " + strconv.Itoa(-search(c, long).Score)
		}
		name := names[i]
		// The other program's moves, each scored by the long search.
		var their []string
		done := map[string]bool{}
		for _, m := range theirs[name] {
			mv, _, _ := strings.Cut(m, " ")
			p, err := ParseRecord(mv, 15)
			if err != nil || done[mv] {
				continue
			}
			done[mv] = true
			c := b.Clone()
			if c.Play(p[0]) != nil {
				continue
			}
			their = append(their, mv+" "+strconv.Itoa(-search(c, long).Score))
		}
		t.Logf("%s %s: short %s %d (depth %d), long %s %d (depth %d)%s; the other program's (our result as black): %s; scored by the long search: %s",
			name, FormatRecord(b.Moves()), FormatRecord([]Point{s.Best}), s.Score, s.Depth, FormatRecord([]Point{l.Best}), l.Score, l.Depth,
			after, strings.Join(theirs[name], " "), strings.Join(their, ", "))
	}
	t.Logf("openings %d-%d: the same move in %d of %d", from, to-1, same, to-from)
}

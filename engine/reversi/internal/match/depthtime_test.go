package match

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// midgameSetFile is the engine's midgame measuring set: 80 positions of
// games against NTest at 30-50 empties, one a line ("board side [move]").
const midgameSetFile = "../../testdata/midgame-ntest.txt"

// readMidgameSet reads the positions of midgameSetFile (without their
// reference moves).
func readMidgameSet(t *testing.T) []reversi.Position {
	t.Helper()
	f, err := os.Open(midgameSetFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []reversi.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) < 2 || (fs[1] != "X" && fs[1] != "O") {
			t.Fatalf("%s: %q: want a board and X or O to move", midgameSetFile, sc.Text())
		}
		side := reversi.Black
		if fs[1] == "O" {
			side = reversi.White
		}
		p, err := reversi.ParsePosition(fs[0], side)
		if err != nil {
			t.Fatalf("%s: %v", midgameSetFile, err)
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestDepthTime is a measurement of the time our engine and an NBoard
// engine take to the same nominal depths on the midgame set: each position
// is searched by ours at the top level with a fresh engine (Multi-ProbCut
// on, as in play), and, when REVERSI_NBOARD names a program, by that
// program in a fresh process at "set depth d" (its start-up is not timed:
// the clock starts once it has answered a ping). It logs the seconds of
// both and their ratio per depth:
//
//	REVERSI_DEPTH_TIME=14,16,18 REVERSI_NBOARD=/path/to/ntest \
//	go test -run TestDepthTime -v -timeout 0 ./engine/reversi/internal/match
//
// REVERSI_DEPTH_TIME_POSITIONS=n measures the first n positions only.
// Without REVERSI_DEPTH_TIME the normal suite times ours on two positions
// at depth 4, so the measurement cannot rot.
func TestDepthTime(t *testing.T) {
	ps := readMidgameSet(t)
	depths, limit := []int{4}, 2
	if spec := os.Getenv("REVERSI_DEPTH_TIME"); spec != "" {
		depths, limit = nil, len(ps)
		for _, s := range strings.Split(spec, ",") {
			d, err := strconv.Atoi(s)
			if err != nil || d < 1 || d > 60 {
				t.Fatalf("REVERSI_DEPTH_TIME: %q is not a depth (1-60)", s)
			}
			depths = append(depths, d)
		}
	}
	if v := os.Getenv("REVERSI_DEPTH_TIME_POSITIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("REVERSI_DEPTH_TIME_POSITIONS: %q is not a positive count", v)
		}
		limit = n
	}
	if limit < len(ps) {
		ps = ps[:limit]
	}
	prog := os.Getenv("REVERSI_NBOARD")
	for _, d := range depths {
		var ours, theirs time.Duration
		var nodes uint64
		for _, p := range ps {
			r, err := reversi.NewEngine().Search(context.Background(), p, reversi.Limits{Depth: d})
			if err != nil {
				t.Fatal(err)
			}
			if r.Depth != d && !r.Exact {
				t.Fatalf("depth %d: the search completed depth %d", d, r.Depth)
			}
			ours += r.Elapsed
			nodes += r.Nodes
			if prog != "" {
				th, err := nboardTime(prog, d, p)
				if err != nil {
					t.Fatal(err)
				}
				theirs += th
			}
		}
		if prog == "" {
			t.Logf("depth %d: %d positions, ours %.2f s, %d nodes", d, len(ps), ours.Seconds(), nodes)
			continue
		}
		t.Logf("depth %d: %d positions, ours %.2f s (%d nodes), %s %.2f s: theirs / ours %.2f",
			d, len(ps), ours.Seconds(), nodes, prog, theirs.Seconds(), theirs.Seconds()/ours.Seconds())
	}
}

// nboardTime starts the NBoard program at depth d and returns the time it
// takes to answer position p (Thinking: the clock starts once the program
// has answered a ping, so its start-up is not counted).
func nboardTime(prog string, d int, p reversi.Position) (time.Duration, error) {
	n := &NBoardPlayer{Path: prog, Dir: prog[:strings.LastIndexByte(prog, '/')+1], Depth: d}
	defer n.Close()
	if _, err := n.Move(context.Background(), p); err != nil {
		return 0, err
	}
	_, th := n.Thinking()
	return th, nil
}

package match

import (
	"bufio"
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

// fakeEngineEnv makes the test binary act as a minimal NBoard engine (see
// TestMain): it answers "go" with the first legal move, so the harness is
// tested against a real child process without any outside program.
const fakeEngineEnv = "MATCH_FAKE_NBOARD_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEngineEnv) != "" {
		fakeEngine()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough NBoard: set game (a BO[] board without
// moves, as GGF writes it), go, ping, quit.
func fakeEngine() {
	sc := bufio.NewScanner(os.Stdin)
	var pos reversi.Position
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0:
		case f[0] == "ping":
			fmt.Println("pong", f[1])
		case f[0] == "set" && len(f) > 1 && f[1] == "depth":
			fmt.Println("set myname Fake" + f[2])
		case f[0] == "set" && len(f) > 1 && f[1] == "game":
			line := sc.Text()
			i := strings.Index(line, "BO[8 ")
			board := strings.ReplaceAll(line[i+5:i+5+64], "*", "X")
			side := reversi.Black
			if line[i+5+65] == 'O' {
				side = reversi.White
			}
			pos, _ = reversi.ParsePosition(board, side)
		case f[0] == "go":
			fmt.Printf("=== %s 0.00 0.0\n", pos.LegalMoves()[0])
		case f[0] == "quit":
			return
		}
	}
}

func TestNBoardPlayer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv(fakeEngineEnv, "1")
	fake := &NBoardPlayer{Label: "fake", Path: exe, Depth: 3}
	defer func() {
		if err := fake.Close(); err != nil {
			t.Error(err)
		}
	}()
	ours := EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 2, Seed: 1}}
	st, err := Play(context.Background(), ours, fake, UniqueOpenings(4, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 2 {
		t.Fatalf("stats %+v", st)
	}
	if n, _ := fake.Thinking(); n < 20 {
		t.Errorf("the fake engine answered %d moves, want a whole game's worth", n)
	}
}

func TestGGF(t *testing.T) {
	p, _ := reversi.Replay(reversi.Start(), []reversi.Square{37})
	want := "(;GM[Othello]PC[match]BO[8 ---------------------------O*------***-------------------------- O];)"
	if got := GGF(p); got != want {
		t.Errorf("GGF = %s, want %s", got, want)
	}
}

func TestUniqueOpenings(t *testing.T) {
	for _, c := range []struct{ plies, want int }{
		{1, 1}, // the four first moves are one up to symmetry
		{2, 3}, // perpendicular, parallel and diagonal openings
	} {
		if got := len(UniqueOpenings(c.plies, 1000)); got != c.want {
			t.Errorf("%d plies: %d unique lines, want %d", c.plies, got, c.want)
		}
	}
	if got := len(UniqueOpenings(6, 40)); got != 40 {
		t.Errorf("got %d six-ply lines, want 40", got)
	}
}

// TestMatchNBoard plays the engine at a fixed time per move against any
// NBoard engine at a fixed depth, from symmetry-unique openings, both
// colours; it runs only when REVERSI_NBOARD names the program:
//
//	REVERSI_NBOARD=/tmp/ntest/build/ntest REVERSI_NBOARD_DEPTH=20 REVERSI_MATCH_MOVETIME=300ms \
//	REVERSI_MATCH_GAMES=20 nice -n 10 go test -run TestMatchNBoard -v -timeout 120m ./engine/reversi/internal/match
//
// REVERSI_MATCH_GAMES is the number of openings (each played twice),
// REVERSI_MATCH_PLIES their length (6). REVERSI_MATCH_OPENINGS=from:to
// plays only openings from..to-1 of those (counting from 0), so that a long
// match can run as chunks: REVERSI_MATCH_GAMES=20 with 0:5, 5:10, 10:15 and
// 15:20 plays the same 40 games as one run. The program runs in its own
// directory (NTest reads its evaluation files from there). The report gives
// both sides' average time per move, so the depth can be set to match ours.
func TestMatchNBoard(t *testing.T) {
	path := os.Getenv("REVERSI_NBOARD")
	if path == "" {
		t.Skip("set REVERSI_NBOARD to an NBoard engine to play it")
	}
	depth := 12
	if d, err := strconv.Atoi(os.Getenv("REVERSI_NBOARD_DEPTH")); err == nil {
		depth = d
	}
	moveTime := 300 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("REVERSI_MATCH_MOVETIME")); err == nil && d > 0 {
		moveTime = d
	}
	plies := 6
	if n, err := strconv.Atoi(os.Getenv("REVERSI_MATCH_PLIES")); err == nil && n > 0 {
		plies = n
	}
	n := 20
	if v, err := strconv.Atoi(os.Getenv("REVERSI_MATCH_GAMES")); err == nil && v > 0 {
		n = v
	}
	openings := UniqueOpenings(plies, n)
	if r := os.Getenv("REVERSI_MATCH_OPENINGS"); r != "" {
		var from, to int
		if _, err := fmt.Sscanf(r, "%d:%d", &from, &to); err != nil || from < 0 || to > len(openings) || from >= to {
			t.Fatalf("REVERSI_MATCH_OPENINGS=%q: want from:to within 0:%d", r, len(openings))
		}
		openings = openings[from:to]
	}
	dir := path[:strings.LastIndexByte(path, '/')+1]
	them := &NBoardPlayer{Path: path, Dir: dir, Depth: depth}
	defer them.Close()
	ours := &clocked{Player: EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: reversi.MaxLevel}}, moveTime: moveTime}
	start := time.Now()
	st, err := Play(context.Background(), ours, them, openings, func(g int, st Stats) {
		m, d := them.Thinking()
		t.Logf("game %d: %v; ours %.3f s a move, theirs %.3f s", g, st, ours.average(), d.Seconds()/float64(max(m, 1)))
	})
	if err != nil {
		t.Fatal(err)
	}
	m, d := them.Thinking()
	se := 1.96 * math.Sqrt(st.Score()*(1-st.Score())/float64(st.Games))
	t.Logf("ours (%v a move) vs %s depth %d: %v (±%.1f%%); ours %.3f s a move, theirs %.3f s; %v",
		moveTime, path, depth, st, 100*se, ours.average(), d.Seconds()/float64(max(m, 1)), time.Since(start).Round(time.Second))
}

// clocked gives each move of a player a fixed time and keeps the total.
type clocked struct {
	Player
	moveTime time.Duration
	moves    int
	total    time.Duration
}

func (c *clocked) Move(ctx context.Context, p reversi.Position) (reversi.Square, error) {
	ctx, cancel := context.WithTimeout(ctx, c.moveTime)
	defer cancel()
	start := time.Now()
	m, err := c.Player.Move(ctx, p)
	c.moves++
	c.total += time.Since(start)
	return m, err
}

func (c *clocked) average() float64 {
	if c.moves == 0 {
		return 0
	}
	return c.total.Seconds() / float64(c.moves)
}

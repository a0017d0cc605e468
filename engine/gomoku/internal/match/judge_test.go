package match

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// TestJudgeLosses replays the games we lost in match logs and asks a
// judge, another Gomocup program, about the position after each of our
// moves (GOMOKU_MATCH=judge, GOMOKU_LOG=<logs, comma-separated>,
// GOMOKU_OPPONENT=<the judge>, GOMOKU_OPPONENT_INIT and
// GOMOKU_OPPONENT_PAUSE as for TestMatchGomocup, GOMOKU_MOVETIME ms a
// position, default 500). Each position is sent whole with BOARD; the
// judge's last MESSAGE line with "Eval" gives its score (its classical
// search's "Eval 193" or a mate "+M13") and its line. Our full engine
// searches the same position for the same time. It logs one line a
// position, both scores from our side's view:
//
//	judge piskvork/3 white 12 i10 judge=-85 line=H11 G11 ... ours=-40 best=h11 depth=9
//
// and stops a game after three positions in a row the judge scores as a
// mate against us. With GOMOKU_JUDGE_BEFORE=1 it asks the judge alone about
// the positions before our moves instead (our side to move: its score is
// ours, its line starts with the move it would play):
//
//	before piskvork/3 white 12 i10 judge=-40 line=H11 G11 ...
//
// so that a fall can be split between the opponent's move and ours. The lines are facts for analysis (where the games are
// lost); the judge's scores are never labels for our tables. The project's
// tests never need the judge.
func TestJudgeLosses(t *testing.T) {
	if os.Getenv("GOMOKU_MATCH") != "judge" {
		t.Skip("set GOMOKU_MATCH=judge, GOMOKU_LOG and GOMOKU_OPPONENT to judge the lost games of match logs")
	}
	prog := strings.Fields(os.Getenv("GOMOKU_OPPONENT"))
	if len(prog) == 0 {
		t.Fatal("GOMOKU_OPPONENT: the judge, a Gomocup program")
	}
	moveTime := time.Duration(envInt("GOMOKU_MOVETIME", 500)) * time.Millisecond
	var msg judgeMessage
	j := &Gomocup{
		Path: prog[0], Args: prog[1:], MoveTime: moveTime, Fresh: true,
		Pause:    time.Duration(envInt("GOMOKU_OPPONENT_PAUSE", 0)) * time.Millisecond,
		Messages: msg.add,
	}
	if v := os.Getenv("GOMOKU_OPPONENT_INIT"); v != "" {
		j.Init = strings.Split(v, ";")
	}
	defer j.Close()
	before := os.Getenv("GOMOKU_JUDGE_BEFORE") == "1"
	for _, path := range strings.Split(os.Getenv("GOMOKU_LOG"), ",") {
		for _, g := range readLosses(t, path) {
			if before {
				judgeBefore(t, j, &msg, g)
			} else {
				judgeGame(t, j, &msg, g, moveTime)
			}
		}
	}
}

// lostGame is a game of a match log that our side lost.
type lostGame struct {
	name  string // the opening
	ours  gomoku.Color
	moves []gomoku.Point
}

// readLosses returns the lost games of a match log (the lines
// "... piskvork/3 name as white: loss h8i9...").
func readLosses(t *testing.T, path string) []lostGame {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []lostGame
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, ": loss ")
		if i < 0 {
			continue
		}
		head := strings.Fields(line[:i])
		if len(head) < 4 || head[len(head)-2] != "as" {
			t.Fatalf("%s: %q: want \"<opening> <player> as <colour>: loss <record>\"", path, line)
		}
		g := lostGame{name: head[len(head)-4], ours: gomoku.White}
		if head[len(head)-1] == "black" {
			g.ours = gomoku.Black
		}
		if g.moves, err = gomoku.ParseRecord(strings.TrimSpace(line[i+len(": loss "):]), 15); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// judgeGame logs the judge's and our engine's scores after each of our
// moves in g.
func judgeGame(t *testing.T, j *Gomocup, msg *judgeMessage, g lostGame, moveTime time.Duration) {
	colour := colourName(g.ours)
	b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
	e := gomoku.NewEngine()
	mated := 0
	for n, m := range g.moves {
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
		if b.ToMove() == g.ours || n < 3 || n == len(g.moves)-1 {
			continue // the opponent's move, the opening, or the last (won) move
		}
		*msg = judgeMessage{}
		if _, err := j.Move(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), moveTime)
		r, err := e.Search(ctx, b, gomoku.Limits{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// Both searched for the opponent: our view is the opposite.
		score, line := msg.ourView()
		t.Logf("judge %s %s %d %v judge=%s line=%s ours=%d best=%v depth=%d",
			g.name, colour, n+1, m, score, line, -r.Score, r.Best, r.Depth)
		if strings.HasPrefix(score, "-M") {
			if mated++; mated == 3 {
				return
			}
		} else {
			mated = 0
		}
	}
}

// judgeBefore logs the judge's score and line before each of our moves in
// g, up to the position before the last.
func judgeBefore(t *testing.T, j *Gomocup, msg *judgeMessage, g lostGame) {
	b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
	mated := 0
	for n, m := range g.moves[:len(g.moves)-1] {
		if b.ToMove() == g.ours && n >= 3 {
			*msg = judgeMessage{}
			if _, err := j.Move(context.Background(), b); err != nil {
				t.Fatal(err)
			}
			t.Logf("before %s %s %d %v judge=%s line=%s", g.name, colourName(g.ours), n+1, m, msg.eval, msg.line)
			if strings.HasPrefix(msg.eval, "-M") {
				if mated++; mated == 3 {
					return
				}
			} else {
				mated = 0
			}
		}
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}

func colourName(c gomoku.Color) string {
	if c == gomoku.Black {
		return "black"
	}
	return "white"
}

// judgeMessage keeps the last score and line a judge reported.
type judgeMessage struct {
	eval, line string
}

// add reads Rapfi-style MESSAGE lines: "... | Eval 193 | ..." and
// "MESSAGE Bestline H11 G11 ...".
func (m *judgeMessage) add(l string) {
	if _, rest, ok := strings.Cut(l, "Bestline "); ok {
		m.line = strings.Join(strings.Fields(rest), "")
		return
	}
	if _, rest, ok := strings.Cut(l, "| Eval "); ok {
		m.eval = strings.TrimSpace(strings.Split(rest, "|")[0])
	}
}

// ourView returns the judge's score negated (it scored the position for
// the side to move, our opponent) and its line.
func (m *judgeMessage) ourView() (string, string) {
	switch {
	case m.eval == "":
		return "?", m.line
	case strings.HasPrefix(m.eval, "+"):
		return "-" + m.eval[1:], m.line
	case strings.HasPrefix(m.eval, "-"):
		return "+" + m.eval[1:], m.line
	}
	return fmt.Sprintf("-%s", m.eval), m.line
}

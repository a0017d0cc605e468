package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// Gomocup is a Gomocup (Piskvork "pbrain") program as a player: any
// engine that speaks the protocol on stdin/stdout, ours (`engine gomocup`)
// or another. It starts a fresh process for every game (the first move
// asked on a position that does not continue the last one) and sends the
// opponent's moves with TURN, or the whole position with BOARD when more
// than one stone is new (the opening). The match's Board is the referee:
// the program's moves are played on it under the match's rule, renju's
// forbidden points included, so a program's own rule code is never
// trusted.
type Gomocup struct {
	// Path and Args start the program.
	Path string
	Args []string
	// Label names the player in results (default: the program's base name).
	Label string
	// MoveTime is sent as timeout_turn; the match time is unlimited.
	MoveTime time.Duration
	// Nodes, when > 0, is sent as INFO MAX_NODE (the Yixin/Rapfi extension,
	// ours too) with timeout_turn 0 and no match time, so that no clock
	// decides anything (Rapfi and ours then search to the node count only)
	// and the same program plays the same moves on a loaded machine. The
	// answer is waited for up to nodeWait then.
	Nodes uint64
	// Init lines are sent after the standard INFO lines of every game, e.g.
	// "INFO THREAD_NUM 1" for engines that read their thread count so.
	Init []string
	// Pause is waited after each of the program's answers before the next
	// command: some programs drop a command that arrives right after they
	// answered (Rapfi needs about 20 ms). Zero for well-behaved programs.
	Pause time.Duration
	// Messages, if not nil, receives the program's MESSAGE lines.
	Messages func(string)
	// Retries counts the moves asked a second time (see Move).
	Retries int
	// Fresh sends every position whole with BOARD, in the same process:
	// for a judge asking about positions that need not follow each other.
	Fresh bool

	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	lines  chan string
	known  []gomoku.Point // the position the program has, in move order
	size   int
	rule   gomoku.Rule
	stats  Timing
	answer time.Time
}

// Timing sums the wall time a player took per move.
type Timing struct {
	Moves int
	Total time.Duration
	Max   time.Duration
}

// Mean returns the mean time per move.
func (t Timing) Mean() time.Duration {
	if t.Moves == 0 {
		return 0
	}
	return t.Total / time.Duration(t.Moves)
}

// answerGrace is how long past its move time a program may take before
// the match gives up on it: generous, because a loaded machine delays
// any process, but a hung program must not hang the match.
const answerGrace = 5 * time.Second

// nodeWait is the time a program searching to a node count (Gomocup.Nodes)
// may take per move: budgets of a few hundred thousand nodes take well
// under a second; a minute only catches a hung program.
const nodeWait = time.Minute

// Name implements Player.
func (g *Gomocup) Name() string {
	if g.Label != "" {
		return g.Label
	}
	name := g.Path
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// Timing returns the time the program took per move so far (wall time
// from sending the command to reading the answer).
func (g *Gomocup) Timing() Timing { return g.stats }

// Close ends the program's process, if one runs.
func (g *Gomocup) Close() error {
	if g.cmd == nil {
		return nil
	}
	fmt.Fprintf(g.in, "END\n")
	g.in.Close()
	done := make(chan error, 1)
	go func() { done <- g.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Second):
		g.cmd.Process.Kill()
		err = <-done
	}
	g.cmd = nil
	return err
}

// Move implements Player. A program that does not answer in its move time
// and answerGrace is asked once more, from a fresh process given the
// whole position: on a loaded machine an answer can get lost (Rapfi at
// 1 s per move went silent once in 20 games), and one lost line should
// not end a match of hours. A second failure is returned.
func (g *Gomocup) Move(ctx context.Context, b *gomoku.Board) (gomoku.Point, error) {
	p, err := g.move(ctx, b)
	if err != nil && ctx.Err() == nil {
		g.Retries++
		g.kill()
		p, err = g.move(ctx, b)
	}
	return p, err
}

func (g *Gomocup) move(ctx context.Context, b *gomoku.Board) (gomoku.Point, error) {
	moves := b.Moves()
	if g.cmd == nil || (!g.continues(b, moves) && !(g.Fresh && g.sameGame(b))) {
		if err := g.start(b); err != nil {
			return gomoku.Point{}, err
		}
	}
	if wait := g.Pause - time.Since(g.answer); wait > 0 {
		time.Sleep(wait) // the program's quirk, see Pause
	}
	sent := time.Now()
	switch n := len(moves) - len(g.known); {
	case len(moves) == 0:
		g.send("BEGIN")
	case n == 1 && len(g.known) > 0 && !g.Fresh:
		m := moves[len(moves)-1]
		g.send(fmt.Sprintf("TURN %d,%d", m.X, m.Y))
	default:
		g.sendBoard("BOARD", b)
	}
	return g.answered(ctx, moves, sent)
}

// sendBoard sends the whole position after the command (BOARD or
// YXBOARD). The program's stones are 1, the opponent's 2; listed in move
// order, black first (some programs take the first stone as black).
func (g *Gomocup) sendBoard(cmd string, b *gomoku.Board) {
	me := b.ToMove()
	g.send(cmd)
	for k, m := range b.Moves() {
		f := 2
		if gomoku.Color(k%2) == me {
			f = 1
		}
		g.send(fmt.Sprintf("%d,%d,%d", m.X, m.Y, f))
	}
	g.send("DONE")
}

// answered reads the program's move and keeps the timing.
func (g *Gomocup) answered(ctx context.Context, moves []gomoku.Point, sent time.Time) (gomoku.Point, error) {
	p, err := g.readMove(ctx)
	if err != nil {
		g.kill()
		return p, fmt.Errorf("match: %s at move %d: %w", g.Name(), len(moves)+1, err)
	}
	el := time.Since(sent)
	g.answer = time.Now()
	g.stats.Moves++
	g.stats.Total += el
	g.stats.Max = max(g.stats.Max, el)
	g.known = append(moves, p)
	return p, nil
}

// Query asks the program about b outside a game, in the running process
// if it was started for b's size and rule: it sends the lines before
// (e.g. Rapfi's YXHASHCLEAR, so that every search starts alike), then the
// position with BOARD, or, when cmd is not empty, with YXBOARD (the Yixin
// extension: the position without a search) followed by cmd (e.g.
// "YXNBEST 3"), and reads the move the program answers. Like Move it asks
// once more from a fresh process when the first answer does not come.
func (g *Gomocup) Query(ctx context.Context, b *gomoku.Board, before []string, cmd string) (gomoku.Point, error) {
	p, err := g.query(ctx, b, before, cmd)
	if err != nil && ctx.Err() == nil {
		g.Retries++
		g.kill()
		p, err = g.query(ctx, b, before, cmd)
	}
	return p, err
}

func (g *Gomocup) query(ctx context.Context, b *gomoku.Board, before []string, cmd string) (gomoku.Point, error) {
	if g.cmd == nil || !g.sameGame(b) {
		if err := g.start(b); err != nil {
			return gomoku.Point{}, err
		}
	}
	if wait := g.Pause - time.Since(g.answer); wait > 0 {
		time.Sleep(wait)
	}
	sent := time.Now()
	for _, l := range before {
		g.send(l)
	}
	if cmd == "" {
		g.sendBoard("BOARD", b)
	} else {
		g.sendBoard("YXBOARD", b)
		g.send(cmd)
	}
	return g.answered(ctx, b.Moves(), sent)
}

// continues reports whether b is the position the program has plus the
// opponent's one answer (or the same position, the program to move).
func (g *Gomocup) continues(b *gomoku.Board, moves []gomoku.Point) bool {
	if b.Size() != g.size || b.Rule() != g.rule || len(moves) < len(g.known) || len(g.known) == 0 {
		return false
	}
	for k, m := range g.known {
		if moves[k] != m {
			return false
		}
	}
	return len(moves)-len(g.known) <= 1
}

// sameGame reports whether the running program was started for b's
// size and rule.
func (g *Gomocup) sameGame(b *gomoku.Board) bool {
	return b.Size() == g.size && b.Rule() == g.rule
}

// ruleBits is the protocol's INFO rule value of a rule.
func ruleBits(r gomoku.Rule) int {
	switch r {
	case gomoku.Standard:
		return 1
	case gomoku.Renju:
		return 4
	}
	return 0
}

// start runs a fresh process for a new game and sends START and INFO.
func (g *Gomocup) start(b *gomoku.Board) error {
	g.kill()
	cmd := exec.Command(g.Path, g.Args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("match: start %s: %w", g.Path, err)
	}
	g.cmd, g.in, g.out = cmd, in, bufio.NewReader(out)
	g.lines = make(chan string, 64)
	go func(r *bufio.Reader, lines chan<- string) {
		defer close(lines)
		for {
			l, err := r.ReadString('\n')
			if l = strings.TrimRight(l, "\r\n"); l != "" {
				lines <- l
			}
			if err != nil {
				return
			}
		}
	}(g.out, g.lines)
	g.known, g.size, g.rule = nil, b.Size(), b.Rule()
	g.send(fmt.Sprintf("START %d", b.Size()))
	if l, err := g.readLine(context.Background(), 10*time.Second); err != nil || l != "OK" {
		g.kill()
		return fmt.Errorf("match: %s: START %d answered %q (%v)", g.Name(), b.Size(), l, err)
	}
	turn := g.MoveTime.Milliseconds()
	if g.Nodes > 0 {
		turn = 0
	}
	g.send(fmt.Sprintf("INFO timeout_turn %d", turn))
	g.send("INFO timeout_match 0")
	g.send("INFO time_left 2147483647")
	g.send("INFO max_memory 0")
	g.send("INFO game_type 1")
	g.send(fmt.Sprintf("INFO rule %d", ruleBits(b.Rule())))
	if g.Nodes > 0 {
		g.send(fmt.Sprintf("INFO MAX_NODE %d", g.Nodes))
	}
	for _, l := range g.Init {
		g.send(l)
	}
	return nil
}

// kill ends the process without ceremony.
func (g *Gomocup) kill() {
	if g.cmd == nil {
		return
	}
	g.in.Close()
	g.cmd.Process.Kill()
	g.cmd.Wait()
	g.cmd = nil
}

func (g *Gomocup) send(l string) {
	fmt.Fprintf(g.in, "%s\n", l)
}

// readLine returns the next line that is not a MESSAGE or DEBUG line.
func (g *Gomocup) readLine(ctx context.Context, wait time.Duration) (string, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-g.lines:
			if !ok {
				return "", errors.New("the program ended")
			}
			up := strings.ToUpper(l)
			if strings.HasPrefix(up, "MESSAGE") || strings.HasPrefix(up, "DEBUG") {
				if g.Messages != nil {
					g.Messages(l)
				}
				continue
			}
			return l, nil
		case <-timer.C:
			return "", fmt.Errorf("no answer in %v", wait)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// readMove reads the program's move "x,y".
func (g *Gomocup) readMove(ctx context.Context) (gomoku.Point, error) {
	wait := g.MoveTime
	if g.Nodes > 0 {
		wait = nodeWait
	}
	l, err := g.readLine(ctx, wait+answerGrace)
	if err != nil {
		return gomoku.Point{}, err
	}
	xs, ys, ok := strings.Cut(l, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || err1 != nil || err2 != nil {
		return gomoku.Point{}, fmt.Errorf("answered %q, not a move", l)
	}
	return gomoku.Point{X: x, Y: y}, nil
}

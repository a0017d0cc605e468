package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// NBoardPlayer plays with any engine that speaks the NBoard protocol (NTest,
// Edax, our own `engine nboard`) as a child process. For each move it sends
// the position as a game record ("set game"), asks "go" and reads the
// "=== <move>" answer. The engine keeps running between moves; Close ends
// it. The protocol has no clock command: the engine searches to Depth,
// so compare engines by the time they take (Thinking), unless Clock gives
// it a clock in each game record (engines that plan their time from it,
// as NTest does in its match-time mode, then play at a chosen time).
type NBoardPlayer struct {
	Label string   // name in reports
	Path  string   // the program
	Args  []string // its arguments
	Dir   string   // its working directory ("" = this process's)
	Depth int      // sent as "set depth"
	// Clock, if not nil, gives the seconds put on both clocks (GGF TI) of
	// the record sent for each move, from the move's empties and this
	// player's moves and thinking time so far; nil sends no clock.
	Clock func(empties, moves int, thinking time.Duration) int

	mu       sync.Mutex
	cmd      *exec.Cmd
	in       io.WriteCloser
	lines    chan string
	ping     int
	moves    int
	thinking time.Duration
}

// Name returns the label, or the program's name and depth.
func (n *NBoardPlayer) Name() string {
	if n.Label != "" {
		return n.Label
	}
	return fmt.Sprintf("%s depth %d", n.Path, n.Depth)
}

// Thinking returns the moves answered so far and the time they took, as
// seen from here (sending the position to reading the answer).
func (n *NBoardPlayer) Thinking() (moves int, total time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.moves, n.thinking
}

// start launches the engine and puts it in NBoard mode at Depth.
func (n *NBoardPlayer) start() error {
	cmd := exec.Command(n.Path, n.Args...)
	cmd.Dir = n.Dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("match: starting %s: %w", n.Path, err)
	}
	n.cmd, n.in, n.lines = cmd, in, make(chan string, 64)
	go func(lines chan<- string) {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 4096), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}(n.lines)
	return n.send(fmt.Sprintf("nboard 2\nset depth %d", n.Depth))
}

func (n *NBoardPlayer) send(s string) error {
	_, err := io.WriteString(n.in, s+"\n")
	return err
}

// await reads lines until one satisfies done.
func (n *NBoardPlayer) await(ctx context.Context, done func(string) bool) (string, error) {
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case l, ok := <-n.lines:
			if !ok {
				return "", fmt.Errorf("match: %s ended its output", n.Name())
			}
			if done(l) {
				return l, nil
			}
		}
	}
}

// Move sends the position and returns the engine's move.
func (n *NBoardPlayer) Move(ctx context.Context, p reversi.Position) (reversi.Square, error) {
	sq, _, err := n.Analyse(ctx, p)
	return sq, err
}

// Analyse sends the position and returns the engine's move and its
// evaluation (in discs, from the side to move's view, as NBoard engines
// report it: "=== f5/-1.25/0.30" or "=== f5 -1.25 0.30"; NaN when the
// answer has none, as NTest's book moves: "=== f5//0.30").
func (n *NBoardPlayer) Analyse(ctx context.Context, p reversi.Position) (reversi.Square, float64, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.sync(ctx); err != nil {
		return reversi.NoSquare, 0, err
	}
	record := GGF(p)
	if n.Clock != nil {
		record = GGFClock(p, n.Clock(p.Empties(), n.moves, n.thinking))
	}
	start := time.Now()
	if err := n.send("set game " + record + "\ngo"); err != nil {
		return reversi.NoSquare, 0, err
	}
	l, err := n.await(ctx, func(l string) bool { return strings.HasPrefix(l, "===") })
	if err != nil {
		return reversi.NoSquare, 0, err
	}
	n.moves++
	n.thinking += time.Since(start)
	sq, eval, err := parseMoveAnswer(l)
	if err != nil {
		return reversi.NoSquare, 0, fmt.Errorf("match: %s: %w", n.Name(), err)
	}
	return sq, eval, nil
}

// sync starts the engine if it is not running, then sends a ping and
// reads up to its pong, so that nothing left from an earlier command can be
// taken for the next answer. n.mu must be held.
func (n *NBoardPlayer) sync(ctx context.Context) error {
	if n.cmd == nil {
		if err := n.start(); err != nil {
			return err
		}
	}
	n.ping++
	pong := fmt.Sprintf("pong %d", n.ping)
	if err := n.send(fmt.Sprintf("ping %d", n.ping)); err != nil {
		return err
	}
	_, err := n.await(ctx, func(l string) bool { return strings.TrimSpace(l) == pong })
	return err
}

// MoveValue is an NBoard engine's value of one move, in discs from the
// view of the side that plays it.
type MoveValue struct {
	Move  reversi.Square
	Value float64
}

// Hint asks the engine for the values of its best moves best in p ("hint
// best"; NTest searches every one of them with a full window to Depth) and
// returns them, highest first. Each move's value is the last one the
// engine reported ("search" or "book" lines: "search f5 -1.25 0 18"; an
// engine reports each move again at every depth of its iterations), except
// that win/loss/draw searches (a depth such as "97%W") are skipped: their
// values are bounds, not disc counts. The answer ends at the first bare
// "status" line after a value, as NTest ends it; nothing may be sent
// before that, since NTest stops a search when input arrives. Moves the
// engine reported no value for are missing.
func (n *NBoardPlayer) Hint(ctx context.Context, p reversi.Position, best int) ([]MoveValue, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := n.sync(ctx); err != nil {
		return nil, err
	}
	if err := n.send(fmt.Sprintf("set game %s\nhint %d", GGF(p), best)); err != nil {
		return nil, err
	}
	values := map[reversi.Square]float64{}
	var bad error
	if _, err := n.await(ctx, func(l string) bool {
		if strings.TrimSpace(l) == "status" && len(values) > 0 {
			return true
		}
		sq, v, ok, err := parseHintLine(l)
		if err != nil && bad == nil {
			bad = fmt.Errorf("match: %s: %w", n.Name(), err)
		}
		if ok {
			values[sq] = v
		}
		return false
	}); err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	out := make([]MoveValue, 0, len(values))
	for sq, v := range values {
		out = append(out, MoveValue{sq, v})
	}
	SortMoveValues(out)
	return out, nil
}

// SortMoveValues orders move values highest first, ties by square.
func SortMoveValues(vs []MoveValue) {
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].Value != vs[j].Value {
			return vs[i].Value > vs[j].Value
		}
		return vs[i].Move < vs[j].Move
	})
}

// parseHintLine reads one line of an engine's answer to "hint": a move's
// value from "search <move> <value> 0 <depth> ..." or "book <move> <value>
// ...", ok false for any other line and for win/loss/draw searches (the
// depth ends in W). A move after a pass ("PA-f5") is not a move of the
// position and is not read.
func parseHintLine(l string) (reversi.Square, float64, bool, error) {
	f := strings.Fields(l)
	if len(f) < 3 || (f[0] != "search" && f[0] != "book") || strings.HasPrefix(strings.ToUpper(f[1]), "PA") {
		return reversi.NoSquare, 0, false, nil
	}
	if f[0] == "search" && len(f) > 4 && strings.HasSuffix(f[4], "W") {
		return reversi.NoSquare, 0, false, nil
	}
	sq, err := reversi.ParseSquare(strings.ToLower(f[1]))
	if err != nil {
		return reversi.NoSquare, 0, false, fmt.Errorf("hint line %q: %w", l, err)
	}
	v, err := strconv.ParseFloat(f[2], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return reversi.NoSquare, 0, false, fmt.Errorf("hint line %q: the value is not a number of discs", l)
	}
	return sq, v, true, nil
}

// parseMoveAnswer reads an NBoard engine's answer to "go": "=== f5/-1.25/0.30"
// or "=== f5 -1.25 0.30" (the move, its evaluation in discs, the time), the
// evaluation NaN when it is missing ("=== f5//0.30", NTest's book moves).
func parseMoveAnswer(l string) (reversi.Square, float64, error) {
	f := strings.Fields(strings.TrimPrefix(l, "==="))
	if len(f) == 0 {
		return reversi.NoSquare, 0, fmt.Errorf("answered %q: no move", l)
	}
	parts := strings.Split(f[0], "/")
	if len(parts) == 1 {
		parts = f
	}
	sq, err := reversi.ParseSquare(strings.ToLower(parts[0]))
	if err != nil {
		return reversi.NoSquare, 0, fmt.Errorf("answered %q: %w", l, err)
	}
	eval := math.NaN()
	if len(parts) > 1 && parts[1] != "" {
		if eval, err = strconv.ParseFloat(parts[1], 64); err != nil {
			return reversi.NoSquare, 0, fmt.Errorf("answered %q: %w", l, err)
		}
	}
	return sq, eval, nil
}

// Close ends the engine (quit, then closing its input).
func (n *NBoardPlayer) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil {
		return nil
	}
	n.send("quit")
	n.in.Close()
	done := make(chan error, 1)
	go func() { done <- n.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		n.cmd.Process.Kill()
		err = errors.New("match: the engine did not quit; killed")
		<-done
	}
	n.cmd = nil
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil // engines that exit(1) on quit are fine
	}
	return err
}

// GGF writes a position as a one-node GGF game record: the board with the
// side to move and no moves.
func GGF(p reversi.Position) string { return GGFClock(p, 0) }

// GGFClock is GGF with seconds on both players' clocks (TI), or none if
// seconds is not positive.
func GGFClock(p reversi.Position, seconds int) string {
	b := []byte(p.String())
	for i, c := range b {
		if c == 'X' {
			b[i] = '*'
		}
	}
	side := "*"
	if p.ToMove() == reversi.White {
		side = "O"
	}
	clock := ""
	if seconds > 0 {
		clock = fmt.Sprintf("TI[%d]", seconds)
	}
	return fmt.Sprintf("(;GM[Othello]PC[match]%sBO[8 %s %s];)", clock, b, side)
}

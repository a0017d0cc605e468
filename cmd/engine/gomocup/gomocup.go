// Package gomocup runs the gomoku engine under the Gomocup (Piskvork
// "pbrain") protocol on a pair of streams, so that it can play inside the
// Piskvork manager and against other Gomocup engines.
//
// The manager sends one command per line (START, RESTART, BEGIN, TURN,
// BOARD ... DONE, INFO, TAKEBACK, END, ABOUT, RECTSTART, PLAY) and the engine
// answers OK, a move "x,y" (0-based), ERROR, UNKNOWN or MESSAGE lines, as the
// protocol defines. Commands are read on their own goroutine so that END
// stops a search at once.
//
// Supported: square boards of 15, 19 and 20 (the sizes the engine plays;
// 20 is the Gomocup freestyle league's), INFO rule 0 (freestyle), 1
// (exactly five) and 4 (renju, 15x15); the continuous-game bit (2) and
// caro (8) are reported as unsupported and play continues under the
// closest rule. A BOARD's stones may come in any order (placeStones). A
// line longer than maxLine is answered ERROR and skipped. Time: each move
// uses timeout_turn minus a margin that scales with it (see margin), and
// at most a share of time_left when the match time is limited; the
// search uses the time it is given. INFO MAX_NODE n (the Yixin/Rapfi
// extension) searches each move to about n nodes with no deadline instead:
// while it is set (n > 0) the time settings are ignored, so the same
// position gives the same move on any machine and under any load.
//
// Usage (what cmd/engine does):
//
//	err := gomocup.Run(ctx, os.Stdin, os.Stdout)
package gomocup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// Protocol defaults, used until the manager sends INFO.
const (
	// defaultTurn is the move time when no timeout_turn arrives: Gomocup's
	// fastgame limit of 5 s per move.
	defaultTurn = 5 * time.Second
	// maxMargin is the most time kept back per move for reading the
	// command, printing the answer and the manager's own overhead. The
	// search returns within about a millisecond of its deadline (it polls
	// every 256 nodes); the rest covers a loaded machine holding the
	// process off the CPU. Rapfi keeps 30 ms at any turn time.
	maxMargin = 40 * time.Millisecond
	// marginShare is the share of short turn times kept back instead (a
	// fifth): at timeout_turn 50 ms the engine keeps 10 ms and searches
	// 40 ms, where a fixed margin would leave nothing.
	marginShare = 5
	// movesToGo is the number of moves the remaining match time is divided
	// by: games rarely last more than 30 more moves per side.
	movesToGo = 25
	// fastMove is the time spent when timeout_turn is 0 ("play as fast as
	// possible").
	fastMove = 20 * time.Millisecond
	// unlimited is the protocol's time_left value for no limit.
	unlimited = 2147483647
)

// about is the answer to ABOUT.
const about = `name="boardhall", version="1.0", author="boardhall team", country="-"`

// line is one input line and when it arrived (the turn clock starts then).
// tooLong marks a line longer than maxLine: its text is dropped and the
// session answers ERROR in its place.
type line struct {
	text    string
	at      time.Time
	tooLong bool
}

// maxLine bounds one command line. The longest real command is a BOARD
// stone line or an INFO setting, tens of bytes; a megabyte is far beyond
// any, and bounds the memory a broken or hostile manager can make us hold.
const maxLine = 1 << 20

// readLines reads in line by line and sends each line on out until the end
// of in or ctx is done. A line longer than maxLine is skipped (read to its
// end and dropped) and sent as tooLong, so that the session answers ERROR
// and goes on. It returns the read error, nil at the end of in.
func readLines(ctx context.Context, in io.Reader, out chan<- line) error {
	r := bufio.NewReaderSize(in, 64*1024)
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		tooLong := len(buf) > maxLine
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue // the line goes on
		}
		if len(buf) > 0 || tooLong {
			l := line{text: strings.TrimRight(string(buf), "\r\n"), at: time.Now()}
			if len(l.text) > maxLine || tooLong {
				l = line{at: l.at, tooLong: true}
			}
			select {
			case out <- l:
			case <-ctx.Done():
				return nil
			}
		}
		buf = buf[:0]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// session is the state of one protocol conversation.
type session struct {
	out    *bufio.Writer
	lines  <-chan line
	engine *gomoku.Engine

	board *gomoku.Board
	size  int
	rule  gomoku.Rule

	turn       time.Duration // timeout_turn (0: as fast as possible)
	match      time.Duration // timeout_match (0: unlimited)
	timeLeft   time.Duration // time_left (-1: not sent)
	maxMemory  int64
	maxNodes   uint64   // INFO MAX_NODE (0: no node limit, the clock rules)
	notes      []string // INFO problems, reported before the next answer
	pending    []line   // lines that arrived during a search
	ended      bool
	readerDone bool
}

// Run speaks the protocol: it reads commands from in and writes answers to
// out until END, the end of in, or ctx is done. It returns nil on END or
// EOF and an error only if reading or writing fails.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan line, 64)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		readErr <- readLines(ctx, in, lines)
	}()
	s := &session{
		out:      bufio.NewWriter(out),
		lines:    lines,
		engine:   gomoku.NewEngine(),
		turn:     defaultTurn,
		timeLeft: -1,
		rule:     gomoku.Freestyle,
	}
	for !s.ended {
		l, ok := s.next(ctx)
		if !ok {
			break
		}
		s.handle(ctx, l)
		if err := s.out.Flush(); err != nil {
			return fmt.Errorf("gomocup: write: %w", err)
		}
	}
	select {
	case err := <-readErr:
		if err != nil {
			return fmt.Errorf("gomocup: read: %w", err)
		}
	default:
	}
	return nil
}

// next returns the next line to handle: a pending one first.
func (s *session) next(ctx context.Context) (line, bool) {
	if len(s.pending) > 0 {
		l := s.pending[0]
		s.pending = s.pending[1:]
		return l, true
	}
	if s.readerDone {
		return line{}, false
	}
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.readerDone = true
		}
		return l, ok
	case <-ctx.Done():
		return line{}, false
	}
}

// printf writes one answer line.
func (s *session) printf(format string, a ...any) {
	fmt.Fprintf(s.out, format, a...)
	s.out.WriteString("\n")
}

// flushNotes reports INFO problems as MESSAGE lines.
func (s *session) flushNotes() {
	for _, n := range s.notes {
		s.printf("MESSAGE %s", n)
	}
	s.notes = nil
}

// handle runs one command.
func (s *session) handle(ctx context.Context, l line) {
	if l.tooLong {
		s.printf("ERROR line longer than %d bytes skipped", maxLine)
		return
	}
	text := strings.TrimSpace(l.text)
	if text == "" {
		return
	}
	cmd, arg, _ := strings.Cut(text, " ")
	cmd = strings.ToUpper(cmd)
	arg = strings.TrimSpace(arg)
	if cmd != "INFO" {
		s.flushNotes()
	}
	switch cmd {
	case "START":
		n, err := strconv.Atoi(arg)
		if err != nil {
			s.printf("ERROR bad board size %q", arg)
			return
		}
		s.start(n)
	case "RECTSTART":
		w, h, err := parseXY(arg)
		if err != nil || w != h {
			s.printf("ERROR only square boards of 15, 19 or 20 are supported")
			return
		}
		s.start(w)
	case "RESTART":
		if s.size == 0 {
			s.printf("ERROR no board: send START first")
			return
		}
		s.start(s.size)
	case "INFO":
		s.info(arg)
	case "BEGIN":
		if !s.needBoard() {
			return
		}
		if s.board.MoveCount() != 0 {
			s.printf("ERROR BEGIN on a board that is not empty")
			return
		}
		s.think(ctx, l.at)
	case "TURN":
		if !s.needBoard() {
			return
		}
		p, err := s.parsePoint(arg)
		if err == nil {
			err = s.board.Play(p)
		}
		if err != nil {
			s.printf("ERROR TURN %s: %v", arg, err)
			return
		}
		s.think(ctx, l.at)
	case "BOARD":
		if !s.needBoard() {
			return
		}
		s.readBoard(ctx, l.at)
	case "TAKEBACK":
		if !s.needBoard() {
			return
		}
		p, err := s.parsePoint(arg)
		if err != nil {
			s.printf("ERROR TAKEBACK %s: %v", arg, err)
			return
		}
		if last, ok := s.board.LastMove(); !ok || last != p {
			s.printf("ERROR TAKEBACK %s: not the last move", arg)
			return
		}
		s.board.Undo()
		s.printf("OK")
	case "PLAY":
		// The manager's answer to a SUGGEST: play the given move as ours.
		if !s.needBoard() {
			return
		}
		p, err := s.parsePoint(arg)
		if err == nil {
			err = s.board.Play(p)
		}
		if err != nil {
			s.printf("ERROR PLAY %s: %v", arg, err)
			return
		}
		s.printf("%d,%d", p.X, p.Y)
	case "END":
		s.ended = true
	case "ABOUT":
		s.printf("%s", about)
	case "SWAP2BOARD":
		s.skipBlock(ctx)
		s.printf("UNKNOWN SWAP2BOARD is not supported")
	default:
		s.printf("UNKNOWN command %s", cmd)
	}
}

// start begins a new game on an n x n board.
func (s *session) start(n int) {
	b, err := gomoku.NewBoard(n, s.rule)
	if err != nil {
		s.printf("ERROR unsupported board size %d (15, 19 or 20; renju 15)", n)
		return
	}
	s.board, s.size = b, n
	s.printf("OK")
}

// needBoard answers ERROR when no game was started.
func (s *session) needBoard() bool {
	if s.board == nil {
		s.printf("ERROR no board: send START first")
		return false
	}
	return true
}

// parseXY parses "x,y".
func parseXY(arg string) (int, int, error) {
	xs, ys, ok := strings.Cut(arg, ",")
	if !ok {
		return 0, 0, errors.New("want x,y")
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if err1 != nil || err2 != nil {
		return 0, 0, errors.New("want x,y")
	}
	return x, y, nil
}

// parsePoint parses "x,y" and checks it is on the board.
func (s *session) parsePoint(arg string) (gomoku.Point, error) {
	x, y, err := parseXY(arg)
	if err != nil {
		return gomoku.Point{}, err
	}
	p := gomoku.Point{X: x, Y: y}
	if x < 0 || y < 0 || x >= s.size || y >= s.size {
		return p, fmt.Errorf("off the %dx%d board", s.size, s.size)
	}
	return p, nil
}

// info applies one INFO setting. It never answers, except ERROR for a bad
// MAX_NODE (a setting that changes how every move is searched must not be
// dropped quietly): other problems become notes.
func (s *session) info(arg string) {
	key, val, _ := strings.Cut(arg, " ")
	key = strings.ToLower(key)
	val = strings.TrimSpace(val)
	if key == "max_node" {
		n, err := parseMaxNode(val)
		if err != nil {
			s.printf("ERROR INFO max_node %q: %v; the node limit stays %d", val, err, s.maxNodes)
			return
		}
		s.maxNodes = n
		return
	}
	num, numErr := strconv.ParseInt(val, 10, 64)
	switch key {
	case "timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type":
		if numErr != nil {
			s.notes = append(s.notes, fmt.Sprintf("INFO %s: bad value %q", key, val))
			return
		}
	}
	switch key {
	case "timeout_turn":
		s.turn = time.Duration(max(num, 0)) * time.Millisecond
	case "timeout_match":
		s.match = time.Duration(max(num, 0)) * time.Millisecond
	case "time_left":
		if num == unlimited {
			s.timeLeft = -1
		} else {
			s.timeLeft = time.Duration(num) * time.Millisecond
		}
	case "max_memory":
		s.maxMemory = num
		if num > 0 && num < minMemory {
			s.notes = append(s.notes, fmt.Sprintf("max_memory %d is below the %d bytes the engine uses", num, minMemory))
		}
	case "rule":
		s.setRule(int(num))
	}
	// game_type, folder, evaluate and unknown keys: nothing to do.
}

// parseMaxNode parses INFO MAX_NODE's value: a node count, 0 for no
// limit. The largest uint64 also means no limit (Rapfi's reading of it).
func parseMaxNode(val string) (uint64, error) {
	n, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		return 0, errors.New("want a whole number of nodes >= 0 (0: no limit)")
	}
	if n == ^uint64(0) {
		n = 0
	}
	return n, nil
}

// minMemory is what the engine needs: its 16 MiB transposition table, 4 MiB
// threat table, the pattern tables (2 MiB) and the Go runtime.
const minMemory = 40 << 20

// setRule applies the rule bitmask: 1 exactly five, 2 continuous game, 4
// renju, 8 caro.
func (s *session) setRule(bits int) {
	r := gomoku.Freestyle
	switch {
	case bits&4 != 0:
		r = gomoku.Renju
	case bits&1 != 0:
		r = gomoku.Standard
	}
	if bits&2 != 0 {
		s.notes = append(s.notes, "continuous game (rule bit 2) is not supported; the game ends at the first five")
	}
	if bits&8 != 0 {
		s.notes = append(s.notes, "caro (rule bit 8) is not supported; playing exactly five")
		r = gomoku.Standard
	}
	if r == s.rule {
		return
	}
	s.rule = r
	if s.board == nil {
		return
	}
	// Replay the game under the new rule; keep the old board if it cannot be.
	b, err := gomoku.NewBoard(s.size, r)
	if err != nil {
		s.notes = append(s.notes, fmt.Sprintf("rule %v: %v", r, err))
		return
	}
	for _, m := range s.board.Moves() {
		if err := b.Play(m); err != nil {
			s.notes = append(s.notes, fmt.Sprintf("rule %v: the game so far is not legal under it: %v", r, err))
			return
		}
	}
	s.board = b
}

// readBoard reads a BOARD block up to DONE, sets the position and answers
// a move. Stones are "x,y,f" with f 1 for ours, 2 for the opponent's; the
// engine is always the side to move, which fixes the colours: equal counts
// mean we are black.
func (s *session) readBoard(ctx context.Context, at time.Time) {
	var own, opp []gomoku.Point
	var problem error
	for {
		l, ok := s.nextRaw(ctx)
		if !ok {
			return
		}
		if l.tooLong {
			problem = fmt.Errorf("line longer than %d bytes", maxLine)
			continue
		}
		t := strings.ToUpper(strings.TrimSpace(l.text))
		if t == "" {
			continue
		}
		if t == "DONE" {
			break
		}
		parts := strings.Split(t, ",")
		if len(parts) != 3 {
			problem = fmt.Errorf("bad line %q", l.text)
			continue
		}
		p, err := s.parsePoint(parts[0] + "," + parts[1])
		f, ferr := strconv.Atoi(strings.TrimSpace(parts[2]))
		switch {
		case err != nil:
			problem = fmt.Errorf("%q: %v", l.text, err)
		case ferr != nil || f < 1 || f > 3:
			problem = fmt.Errorf("%q: field must be 1, 2 or 3", l.text)
		case f == 3:
			problem = errors.New("field 3 (continuous game) is not supported")
		case f == 1:
			own = append(own, p)
		default:
			opp = append(opp, p)
		}
	}
	if problem != nil {
		s.printf("ERROR BOARD: %v", problem)
		return
	}
	var black, white []gomoku.Point
	switch len(opp) - len(own) {
	case 0:
		black, white = own, opp
	case 1:
		black, white = opp, own
	default:
		s.printf("ERROR BOARD: %d own and %d opponent stones: the side to move cannot be told", len(own), len(opp))
		return
	}
	b, err := gomoku.NewBoard(s.size, s.rule)
	if err != nil {
		s.printf("ERROR BOARD: %v", err)
		return
	}
	if err := placeStones(b, black, white); err != nil {
		s.printf("ERROR BOARD: %v", err)
		return
	}
	s.board = b
	s.think(ctx, at)
}

// placeOrderBudget bounds the orders placeStones tries. A real position
// is placed at the first try or after a few steps back (a six-stone line
// needs its inner stone last); the bound keeps a pathological BOARD from
// stalling the session.
const placeOrderBudget = 100_000

// placeStones plays the stones of a BOARD block on the empty board b,
// black and white alternating, black first. The protocol lists stones in
// any order, so the listed order is only a first guess: the stones are
// placed in an order in which no stone ends the game before the last (an
// overline under exactly-five rules is five once its inner stone is
// missing; under renju a stone must not be forbidden when it is placed).
// The search tries each colour's stones in listed order and steps back
// when no stone fits, so a position in move order is placed as listed.
func placeStones(b *gomoku.Board, black, white []gomoku.Point) error {
	for _, set := range [][]gomoku.Point{black, white} {
		for _, p := range set {
			if p.X < 0 || p.Y < 0 || p.X >= b.Size() || p.Y >= b.Size() {
				return fmt.Errorf("stone %v: off the board", p)
			}
			if _, ok := b.At(p); ok {
				return fmt.Errorf("stone %v: listed twice", p)
			}
		}
	}
	seen := map[gomoku.Point]bool{}
	for _, p := range append(append([]gomoku.Point(nil), black...), white...) {
		if seen[p] {
			return fmt.Errorf("stone %v: listed twice", p)
		}
		seen[p] = true
	}
	left := [2][]gomoku.Point{black, white}
	used := [2][]bool{make([]bool, len(black)), make([]bool, len(white))}
	total := len(black) + len(white)
	budget := placeOrderBudget
	var place func() bool
	place = func() bool {
		if b.MoveCount() == total {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		c := b.ToMove()
		for k, p := range left[c] {
			if used[c][k] || b.Play(p) != nil {
				continue
			}
			// Only the last stone may end the game (the manager would not
			// ask for a move then, but the position is still placed).
			if b.MoveCount() == total || !b.Over() {
				used[c][k] = true
				if place() {
					return true
				}
				used[c][k] = false
			}
			b.Undo()
		}
		return false
	}
	if !place() {
		return errors.New("the stones cannot be placed in any legal move order (a game that ended, or stones forbidden to black)")
	}
	return nil
}

// nextRaw returns the next line, for reading inside a block.
func (s *session) nextRaw(ctx context.Context) (line, bool) {
	return s.next(ctx)
}

// skipBlock consumes lines up to DONE.
func (s *session) skipBlock(ctx context.Context) {
	for {
		l, ok := s.next(ctx)
		if !ok || strings.EqualFold(strings.TrimSpace(l.text), "DONE") {
			return
		}
	}
}

// budget is the time for this move, counted from when the command arrived.
func (s *session) budget() time.Duration {
	if s.turn == 0 {
		return fastMove
	}
	t := s.turn
	if s.match > 0 && s.timeLeft >= 0 {
		t = min(t, s.timeLeft/movesToGo)
	}
	return t - margin(t)
}

// margin is the time kept back from a move budget of t: a fifth of short
// budgets, at most maxMargin.
func margin(t time.Duration) time.Duration {
	return min(maxMargin, t/marginShare)
}

// think searches the position, plays the answer on our board and prints
// it. While it thinks, END stops it; other lines wait their turn.
func (s *session) think(ctx context.Context, at time.Time) {
	if s.board.Over() {
		s.printf("ERROR the game is over")
		return
	}
	// A node limit replaces the clock: no deadline, so that the move does
	// not depend on the machine's speed or load.
	var sctx context.Context
	var cancel context.CancelFunc
	if s.maxNodes > 0 {
		sctx, cancel = context.WithCancel(ctx)
	} else {
		sctx, cancel = context.WithDeadline(ctx, at.Add(s.budget()))
	}
	defer cancel()
	type answer struct {
		r   gomoku.Result
		err error
	}
	done := make(chan answer, 1)
	pos := s.board.Clone()
	lim := gomoku.Limits{Nodes: s.maxNodes}
	if s.turn == 0 && s.maxNodes == 0 {
		lim.Depth = 1
	}
	go func() {
		r, err := s.engine.Search(sctx, pos, lim)
		done <- answer{r, err}
	}()
	var a answer
wait:
	for {
		select {
		case a = <-done:
			break wait
		case l, ok := <-s.lines:
			if !ok {
				s.readerDone = true
				s.lines = nil
				continue
			}
			if strings.EqualFold(strings.TrimSpace(l.text), "END") {
				cancel()
				<-done
				s.ended = true
				return
			}
			s.pending = append(s.pending, l)
		}
	}
	if a.err != nil {
		s.printf("ERROR %v", a.err)
		return
	}
	r := a.r
	if err := s.board.Play(r.Best); err != nil {
		s.printf("ERROR engine move %v: %v", r.Best, err)
		return
	}
	s.printf("MESSAGE depth %d | score %s | nodes %d | speed %d nps | time %dms | pv %s",
		r.Depth, scoreText(r.Score), r.Nodes, r.NPS, r.Elapsed.Milliseconds(), pvText(r.PV))
	s.printf("%d,%d", r.Best.X, r.Best.Y)
}

// scoreText prints a score, proofs as +W/-L with the number of plies.
func scoreText(score int) string {
	switch {
	case score >= gomoku.WinThreshold:
		return fmt.Sprintf("+W%d", gomoku.WinScore-score)
	case score <= -gomoku.WinThreshold:
		return fmt.Sprintf("-L%d", gomoku.WinScore+score)
	}
	return strconv.Itoa(score)
}

// pvText prints a principal variation in the usual notation (letter = x,
// number = y+1), as Gomocup engines do.
func pvText(pv []gomoku.Point) string {
	parts := make([]string, len(pv))
	for i, p := range pv {
		parts[i] = strings.ToUpper(p.String())
	}
	return strings.Join(parts, " ")
}

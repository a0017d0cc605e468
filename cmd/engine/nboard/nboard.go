// Package nboard runs the Reversi engine under the NBoard protocol: the text
// protocol the NBoard GUI (and Edax, Ntest and other engines) use on
// stdin/stdout, one command per line. It lets our engine play inside the
// NBoard GUI, against other engines, and be measured: with "set depth 60" a
// "go" or "hint" reports the exact score of the position.
//
// Commands understood (see the project's NBoard notes):
//
//	nboard <version>       enter NBoard mode (any version)
//	set depth <n>          midgame depth (1..60); replies "set myname Boardhall<n>".
//	                       The endgame is solved exactly from the empties of the
//	                       strength level of that depth (8 at depth 4, 16 at 8, 18 at 10, 22 from 12),
//	                       and always when n reaches the end of the game (60)
//	set game <GGF>         the position at the end of this game record
//	set contempt <x>       accepted and ignored (draws are worth 0)
//	move <sq>[/<eval>[/<time>]]   play a move (PA for a pass); a bare "f5" works too
//	go                     reply "=== <move> <eval> <seconds>" (the move is not played)
//	hint <n>               reply "search <pv> <eval> 0 <depth>" for the best n moves
//	ping <n>               stop any search, then reply "pong <n>"
//	learn                  reply "learned" (there is no opening book to learn into)
//	quit                   stop
//
// During a search, "nodestats <nodes> <seconds>" lines report progress and
// "status" lines say what the engine is doing. Input is read while searching:
// "ping" and "quit" stop the search at once; other commands wait for it.
//
// Example session:
//
//	< nboard 2
//	< set depth 8
//	> set myname Boardhall8
//	< set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)
//	< ping 1
//	> pong 1
//	< go
//	> status Boardhall is thinking
//	> nodestats 2315 0.00
//	...
//	> === f6 -0.42 0.0
//	> status Boardhall is waiting
package nboard

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardhall/boardhall/engine/reversi"
)

// engineName is the name reported with "set myname", followed by the depth
// as Edax and Ntest do.
const engineName = "Boardhall"

// defaultDepth is the midgame depth before the GUI sends "set depth" (the GUI
// must, but a person typing commands may not): about a second per move.
const defaultDepth = 12

// maxLineBytes bounds an input line: a GGF record of a full game is under
// 2 KB, so 64 KiB leaves room for long tags while refusing runaway input.
const maxLineBytes = 64 << 10

// inputLine is one line of input, or the news that a line longer than
// maxLineBytes was skipped.
type inputLine struct {
	text    string
	tooLong bool
}

// readLine reads one line (without its end) of at most max bytes. A longer
// line is read to its end and dropped: the result says tooLong, and the
// next call starts on the next line. A last line without an end counts.
func readLine(br *bufio.Reader, max int) (inputLine, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			buf = append(buf, chunk...)
			if len(bytes.TrimRight(buf, "\r\n")) > max {
				tooLong, buf = true, nil
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return inputLine{tooLong: true}, nil
			}
			return inputLine{text: string(bytes.TrimRight(buf, "\r\n"))}, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(buf) > 0 || tooLong):
			if tooLong {
				return inputLine{tooLong: true}, nil
			}
			return inputLine{text: string(bytes.TrimRight(buf, "\r\n"))}, nil
		default:
			return inputLine{}, err
		}
	}
}

// Run reads NBoard commands from in and writes replies to out until "quit",
// the end of input, or ctx ends. It returns nil on a normal end.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s := &session{
		out:    &lineWriter{w: out},
		engine: reversi.NewEngine(),
		pos:    reversi.Start(),
		depth:  defaultDepth,
	}
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	go func() {
		// The only reader of in; it ends with the input or when Run
		// returns (stopReading), never blocking on a gone receiver.
		br := bufio.NewReaderSize(in, 4096)
		for {
			l, err := readLine(br, maxLineBytes)
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				readErr <- err
				close(lines)
				return
			}
			select {
			case lines <- l:
			case <-readCtx.Done():
				return
			}
		}
	}()

	var (
		pending []string // commands that arrived during a search, in order
		eof     bool
	)
	for {
		var line string
		switch {
		case s.search == nil && len(pending) > 0:
			line, pending = pending[0], pending[1:]
		case s.search == nil && eof:
			// End of input is "quit", once the last search has answered.
			if err := <-readErr; err != nil {
				return fmt.Errorf("nboard: reading commands: %w", err)
			}
			return s.out.failed()
		default:
			select {
			case <-ctx.Done():
				s.stopSearch()
				return nil
			case <-s.searchDone():
				s.finishSearch()
				continue
			case l, ok := <-lines:
				if !ok {
					eof, lines = true, nil
					continue
				}
				if l.tooLong {
					s.out.printf("status error: a line of more than %d bytes was skipped", maxLineBytes)
					continue
				}
				line = l.text
			}
		}
		cmd := strings.Fields(line)
		if len(cmd) == 0 {
			continue
		}
		if s.search != nil {
			if cmd[0] != "ping" && cmd[0] != "quit" {
				pending = append(pending, line)
				continue
			}
			s.stopSearch()
			s.finishSearch()
			// Commands queued before the ping or quit still apply in
			// order, except searches: the GUI is moving on, so their
			// answers would only belong to a position it has left.
			for _, q := range pending {
				qc := strings.Fields(q)
				if qc[0] == "go" || qc[0] == "hint" {
					continue
				}
				s.handle(ctx, q, qc)
			}
			pending = nil
		}
		if quit := s.handle(ctx, line, cmd); quit {
			return s.out.failed()
		}
		if s.out.failed() != nil {
			return fmt.Errorf("nboard: writing replies: %w", s.out.failed())
		}
	}
}

// session is the protocol state. Only Run's goroutine touches it, except the
// running search, which owns the engine and writes through out until its
// done channel is closed.
type session struct {
	out    *lineWriter
	engine *reversi.Engine
	pos    reversi.Position
	depth  int
	search *runningSearch
}

// runningSearch is a search running in its own goroutine.
type runningSearch struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// searchDone returns the running search's done channel, or nil (blocks
// forever in a select) when idle.
func (s *session) searchDone() <-chan struct{} {
	if s.search == nil {
		return nil
	}
	return s.search.done
}

// stopSearch cancels the running search, if any, and waits for it to end.
func (s *session) stopSearch() {
	if s.search != nil {
		s.search.cancel()
		<-s.search.done
	}
}

// finishSearch forgets a search that has ended.
func (s *session) finishSearch() {
	if s.search != nil {
		<-s.search.done
		s.search.cancel()
		s.search = nil
	}
}

// handle runs one command; it reports whether the session should end.
func (s *session) handle(ctx context.Context, line string, cmd []string) bool {
	switch cmd[0] {
	case "nboard":
		// Any version: versions 1 and 2 differ only in the GUI.
	case "quit":
		return true
	case "ping":
		if len(cmd) > 1 {
			s.out.printf("pong %s", cmd[1])
		} else {
			s.out.printf("pong")
		}
	case "set":
		s.handleSet(line, cmd)
	case "move":
		if len(cmd) != 2 {
			s.out.printf("status error: usage: move <square>[/<eval>[/<time>]]")
			return false
		}
		s.playMove(cmd[1])
	case "go":
		s.startSearch(ctx, 1, true)
	case "hint":
		n := 1
		if len(cmd) > 1 {
			v, err := strconv.Atoi(cmd[1])
			if err != nil || v < 1 {
				s.out.printf("status error: usage: hint <n>, n >= 1")
				return false
			}
			n = v
		}
		s.startSearch(ctx, n, false)
	case "learn":
		s.out.printf("status %s has no opening book: nothing to learn", engineName)
		s.out.printf("learned")
	default:
		// A bare square is a move (as Edax accepts); anything else is
		// ignored as the protocol asks.
		if len(cmd) == 1 {
			if _, err := parseMoveText(cmd[0]); err == nil {
				s.playMove(cmd[0])
			}
		}
	}
	return false
}

func (s *session) handleSet(line string, cmd []string) {
	if len(cmd) < 2 {
		return
	}
	switch cmd[1] {
	case "depth":
		if len(cmd) != 3 {
			s.out.printf("status error: usage: set depth <n>")
			return
		}
		d, err := strconv.Atoi(cmd[2])
		if err != nil || d < 1 || d > 60 {
			s.out.printf("status error: depth must be 1..60, got %q", cmd[2])
			return
		}
		s.depth = d
		s.out.printf("set myname %s%d", engineName, d)
	case "game":
		i := strings.Index(line, "game")
		p, err := parseGGF(line[i+len("game"):])
		if err != nil {
			s.out.printf("status error: %v", err)
			return
		}
		s.pos = p
	case "contempt":
		// Accepted; the engine scores a draw as 0.
	}
}

func (s *session) playMove(text string) {
	sq, err := parseMoveText(text)
	if err != nil {
		s.out.printf("status error: %v", err)
		return
	}
	next, err := s.pos.Play(sq)
	if err != nil {
		s.out.printf("status error: %v", err)
		return
	}
	s.pos = next
}

// startSearch starts a search for "go" (n = 1, answer with ===) or "hint n".
func (s *session) startSearch(ctx context.Context, n int, isGo bool) {
	pos, depth, out, engine := s.pos, s.depth, s.out, s.engine
	sctx, cancel := context.WithCancel(ctx)
	rs := &runningSearch{cancel: cancel, done: make(chan struct{})}
	s.search = rs
	go func() {
		defer close(rs.done)
		start := time.Now()
		out.printf("status %s is thinking", engineName)
		defer out.printf("status %s is waiting", engineName)
		var totalNodes uint64
		progress := func(inf reversi.Info) {
			out.printf("nodestats %d %.2f", totalNodes+inf.Nodes, time.Since(start).Seconds())
		}
		var excluded []reversi.Square
		for i := 0; i < n; i++ {
			if pos.GameOver() {
				if isGo {
					out.printf("status error: the game is over")
				}
				return
			}
			lim := reversi.Limits{Level: levelForDepth(depth), Depth: depth, Progress: progress, Exclude: excluded}
			searched := pos
			if pos.MustPass() {
				// The pass is forced, but its eval is the position's:
				// search the opponent's reply and turn the score round
				// (exact at depth 60, as any other move's).
				searched, _ = pos.PlayPass()
				lim.Exclude = nil
			}
			res, err := engine.Search(sctx, searched, lim)
			if searched != pos && err == nil {
				res.Centi, res.Score = -res.Centi, -res.Score
				res.PV = append([]reversi.Square{reversi.Pass}, res.PV...)
				res.Best = reversi.Pass
			}
			if err != nil {
				if !errors.Is(err, context.Canceled) && sctx.Err() == nil && len(excluded) < len(pos.LegalMoves()) {
					out.printf("status error: %v", err)
				}
				return
			}
			totalNodes += res.Nodes
			eval := float64(res.Centi) / 100
			if isGo {
				out.printf("=== %s %.2f %.1f", moveText(res.Best), eval, time.Since(start).Seconds())
				return
			}
			depthText := strconv.Itoa(res.Depth)
			if res.Exact {
				depthText = "60" // a solve sees to the end of the game
			}
			out.printf("search %s %.2f 0 %s", pvText(pos, res.PV), eval, depthText)
			if res.Best == reversi.Pass || sctx.Err() != nil {
				return
			}
			excluded = append(excluded, res.Best)
			if len(excluded) == len(pos.LegalMoves()) {
				return
			}
		}
	}()
}

// levelForDepth picks the strength level whose exact-endgame range suits a
// midgame depth set by the GUI: the level of that depth (so "set depth 4"
// solves exactly from 8 empties, as level 4 does), the full engine from
// depth 12 on. The depth itself still decides the midgame search.
func levelForDepth(d int) int {
	switch {
	case d >= 12:
		return reversi.MaxLevel
	case d >= 10:
		return 9 // depth 10: exact from 18 empties
	case d >= 8:
		return 8
	}
	return d
}

// moveText writes a move as NBoard reads it: lowercase square, "pa" for a pass.
func moveText(sq reversi.Square) string {
	if sq == reversi.Pass {
		return "pa"
	}
	return sq.String()
}

// pvText writes a principal variation without separators, black's moves in
// lowercase and white's in uppercase, as Edax does.
func pvText(p reversi.Position, pv []reversi.Square) string {
	var sb strings.Builder
	for _, m := range pv {
		t := moveText(m)
		if p.ToMove() == reversi.White {
			t = strings.ToUpper(t)
		}
		sb.WriteString(t)
		next, err := p.Play(m)
		if err != nil {
			break
		}
		p = next
	}
	return sb.String()
}

// lineWriter writes whole lines under a lock (the search goroutine and the
// command loop both write) and keeps the first error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// failed returns the first write error, if any.
func (l *lineWriter) failed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *lineWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	_, l.err = fmt.Fprintf(l.w, format+"\n", args...)
}

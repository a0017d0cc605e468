package rooms

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// position is one game's rules as a room needs them: the current position of the room's
// current game, changed by play and pass, and searched by the game's engine. Each game's
// file (game_reversi.go, game_gomoku.go) adapts its engine package; a position is owned by
// one goroutine.
type position interface {
	// toMove is the side to move (meaningless once over).
	toMove() Side
	// play plays move (in the game's notation) for the side to move. It returns the
	// squares the move turned over (Reversi) and an *Error with CodeIllegalMove (or
	// CodeBadRequest for unreadable notation) when the rules forbid it; on error the
	// position is unchanged.
	play(move string) (flipped []string, err error)
	// mustPass reports whether the side to move has no move while the game goes on
	// (Reversi only).
	mustPass() bool
	// pass plays a forced pass; it fails unless mustPass.
	pass() error
	// over reports whether the rules ended the game.
	over() bool
	// result is the outcome when over, else nil.
	result() *Result
	// board is the position as the protocol's board string (docs/protocol.md).
	board() string
	// counts are the discs or stones of each colour.
	counts() Counts
	// legal lists the legal moves of the side to move where the game shows them to the
	// player (Reversi); nil otherwise.
	legal() []string
	// forbidden lists the points the side to move may not play for a rule of the
	// variant (renju, black); nil otherwise.
	forbidden() []string
	// winLine is the winning line of a Gomoku game, nil otherwise.
	winLine() []string
	// clone returns an independent copy.
	clone() position
	// search returns the engine's move for the side to move at the given strength
	// level, calling report (which must not block) as it deepens. It stops when ctx is
	// done and then returns the best move found so far, or an error if it has none.
	// Searches may run at once on different positions (each takes its own engine).
	search(ctx context.Context, level int, report func(progress)) (progress, error)
	// quickMove returns a move for the side to move from a search of fixed, small size
	// (milliseconds, without a deadline), marked Quick: what a bot on a clock plays when
	// its search ran out of time without a move.
	quickMove(level int) (progress, error)
}

// progress is a bot's search report: after each completed iteration, and the final
// answer. Score is from the searching side's view.
type progress struct {
	Depth int
	Best  string
	Score int
	Nodes uint64
	NPS   uint64
	PV    []string
	Exact bool // Score is proven (a solved endgame, a forced win)
	Quick bool // a quick move (quickMove), not the level's search
}

// GameInfo describes a game the hall offers, for GET /api/games and for validation.
type GameInfo struct {
	Game     string   `json:"game"`
	Sizes    []int    `json:"sizes"`
	Rules    []string `json:"rules"`
	MaxLevel int      `json:"maxLevel"`
	// SizesByRule lists, for rules played on fewer boards than Sizes, the sizes allowed.
	SizesByRule map[string][]int `json:"sizesByRule,omitempty"`
	// WinScore, when not zero, is the analysis score of a forced win: the evaluation
	// graph reads |score| >= WinScore as "a win is proven" (Gomoku). Zero when scores are
	// plain numbers (Reversi: discs).
	WinScore int `json:"winScore,omitempty"`
}

// gameKind is everything rooms knows about one game, in one record: what the hall offers,
// how a room's options are checked, how a position starts, and how the analysis graph
// judges positions. Each game's file declares its record; games lists them.
type gameKind struct {
	info GameInfo
	// normalize checks and completes a room's options (default size and rule).
	normalize func(m *Meta) error
	// start returns the starting position for the room's options.
	start func(m Meta) (position, error)
	// analysisLevel is the engine's lowest level without deliberate randomness, so that
	// the same position always gets the same score on the graph.
	analysisLevel int
	// tempo says that the side to move's initiative is worth so much in this game that
	// the analysis graph takes it out of each score (analysis.go, graph).
	tempo bool
}

// games lists the games the hall offers, by name.
var games = map[string]*gameKind{
	reversiKind.info.Game: reversiKind,
	gomokuKind.info.Game:  gomokuKind,
}

// Games lists the games the hall offers, sorted by name.
func Games() []GameInfo {
	var out []GameInfo
	for _, k := range games {
		out = append(out, k.info)
	}
	slices.SortFunc(out, func(a, b GameInfo) int { return strings.Compare(a.Game, b.Game) })
	return out
}

// kindOf returns the record of a room's game.
func kindOf(game string) (*gameKind, error) {
	k, ok := games[game]
	if !ok {
		return nil, errorf(CodeBadRequest, "unknown game %q (want one of %v)", game, gameNames())
	}
	return k, nil
}

// newPosition starts the position for a room's options.
func newPosition(m Meta) (position, error) {
	k, err := kindOf(m.Game)
	if err != nil {
		return nil, err
	}
	return k.start(m)
}

// normalizeMeta validates a new room's game options and fills in defaults.
func normalizeMeta(m *Meta) error {
	k, err := kindOf(m.Game)
	if err != nil {
		return err
	}
	return k.normalize(m)
}

func gameNames() []string {
	var names []string
	for _, g := range Games() {
		names = append(names, g.Game)
	}
	return names
}

// checkLevel validates a bot level for a game.
func checkLevel(game string, level int) error {
	k, err := kindOf(game)
	if err != nil {
		return err
	}
	if top := k.info.MaxLevel; level < 1 || level > top {
		return errorf(CodeBadRequest, "bot level must be 1..%d for %s, not %d", top, game, level)
	}
	return nil
}

// illegal wraps an engine's rule error as an illegal_move error.
func illegal(move string, err error) error {
	return &Error{Code: CodeIllegalMove, Msg: fmt.Sprintf("%s: %v", move, err)}
}

// enginePool keeps idle engines of one game for the next search. An engine serves one
// search at a time, and its transposition table (tens of megabytes) is worth keeping
// between searches: the pool holds at most as many engines as ever searched at once
// (the bot workers and the analyser).
type enginePool[E any] struct {
	fresh func() E

	mu   sync.Mutex
	idle []E
}

// get takes an idle engine, or makes one. It makes it outside the lock: making an engine
// (tens of megabytes) can take a bot worker starved of CPU seconds, and a timed bot's quick
// move or the analyser must not wait for it.
func (p *enginePool[E]) get() E {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		e := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return e
	}
	p.mu.Unlock()
	return p.fresh()
}

// put returns an engine after its search.
func (p *enginePool[E]) put(e E) {
	p.mu.Lock()
	p.idle = append(p.idle, e)
	p.mu.Unlock()
}

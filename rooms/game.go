package rooms

import (
	"fmt"
	"slices"
	"strings"
)

// Game is one game's rules as a room needs them: the current position of the room's
// current game, changed by Play and Pass. Implementations adapt the engine packages;
// a Game is owned by one goroutine.
type Game interface {
	// ToMove is the side to move (meaningless once Over).
	ToMove() Side
	// Play plays move (in the game's notation) for the side to move. It returns the
	// squares the move turned over (Reversi) and an *Error with CodeIllegalMove (or
	// CodeBadRequest for unreadable notation) when the rules forbid it; on error the
	// position is unchanged.
	Play(move string) (flipped []string, err error)
	// MustPass reports whether the side to move has no move while the game goes on
	// (Reversi only).
	MustPass() bool
	// Pass plays a forced pass; it fails unless MustPass.
	Pass() error
	// Over reports whether the rules ended the game.
	Over() bool
	// Result is the outcome when Over, else nil.
	Result() *Result
	// Board is the position as the protocol's board string (docs/protocol.md).
	Board() string
	// Counts are the discs or stones of each colour.
	Counts() Counts
	// Legal lists the legal moves of the side to move where the game shows them to the
	// player (Reversi); nil otherwise.
	Legal() []string
	// Forbidden lists the points the side to move may not play for a rule of the variant
	// (renju, black); nil otherwise.
	Forbidden() []string
	// WinLine is the winning line of a Gomoku game, nil otherwise.
	WinLine() []string
	// Clone returns an independent copy (for a bot's search).
	Clone() Game
}

// GameInfo describes a game the hall offers, for GET /api/games and for validation.
type GameInfo struct {
	Game     string   `json:"game"`
	Sizes    []int    `json:"sizes"`
	Rules    []string `json:"rules"`
	MaxLevel int      `json:"maxLevel"`
	// SizesByRule lists, for rules played on fewer boards than Sizes, the sizes allowed.
	SizesByRule map[string][]int `json:"sizesByRule,omitempty"`
}

// gameKind is one playable game: its description and how to start a position.
type gameKind struct {
	info GameInfo
	// normalize checks and completes a room's options (default size and rule).
	normalize func(m *Meta) error
	// start returns the starting position for the room's options.
	start func(m Meta) (Game, error)
}

// gameKinds lists the games by name. It is filled by the game adapter files' init
// functions, each for its own game.
var gameKinds = map[string]gameKind{}

// Games lists the games the hall offers, sorted by name.
func Games() []GameInfo {
	var out []GameInfo
	for _, k := range gameKinds {
		out = append(out, k.info)
	}
	slices.SortFunc(out, func(a, b GameInfo) int { return strings.Compare(a.Game, b.Game) })
	return out
}

// newGame starts the position for a room's options.
func newGame(m Meta) (Game, error) {
	k, ok := gameKinds[m.Game]
	if !ok {
		return nil, errorf(CodeBadRequest, "unknown game %q", m.Game)
	}
	return k.start(m)
}

// normalizeMeta validates a new room's game options and fills in defaults.
func normalizeMeta(m *Meta) error {
	k, ok := gameKinds[m.Game]
	if !ok {
		return errorf(CodeBadRequest, "unknown game %q (want one of %v)", m.Game, gameNames())
	}
	return k.normalize(m)
}

// maxLevel is the top bot level of a game.
func maxLevel(game string) int { return gameKinds[game].info.MaxLevel }

func gameNames() []string {
	var names []string
	for _, g := range Games() {
		names = append(names, g.Game)
	}
	return names
}

// checkLevel validates a bot level for a game.
func checkLevel(game string, level int) error {
	if top := maxLevel(game); level < 1 || level > top {
		return errorf(CodeBadRequest, "bot level must be 1..%d for %s, not %d", top, game, level)
	}
	return nil
}

// illegal wraps an engine's rule error as an illegal_move error.
func illegal(move string, err error) error {
	return &Error{Code: CodeIllegalMove, Msg: fmt.Sprintf("%s: %v", move, err)}
}

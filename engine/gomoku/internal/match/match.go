// Package match plays games between gomoku players and reports the
// score with an error bar. It is the harness behind the strength claims in
// docs/gomoku-engine.md and docs/benchmarks.md: our engine against a
// re-implementation of seed article 001 (see Seed001), and each level of
// the strength scale against the level below.
//
// Games start from fixed openings (testdata/gomoku-openings.txt, the
// Piskvork opening list and the 26 renju opening shapes), each played
// twice with the colours swapped, so that neither side profits from a
// lucky opening.
//
//	res, err := match.Run(ctx, match.Config{
//		A: match.Engine{Level: 5}, B: match.Seed001{Depth: 4},
//		Size: 15, Rule: gomoku.Freestyle, Openings: openings,
//	})
//	fmt.Println(res) // "level5 vs seed001: +120 -10 =2 (92.4% ± 4.5%)"
package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// Player chooses moves.
type Player interface {
	Name() string
	// Move returns the move for the side to move; b must be left unchanged.
	Move(ctx context.Context, b *gomoku.Board) (gomoku.Point, error)
}

// Engine is our engine as a player: a level, an optional depth override
// and an optional time or node budget per move (0: none, depth-limited
// only, which makes games reproducible).
type Engine struct {
	Level    int
	Depth    int
	MoveTime time.Duration
	// Nodes, when > 0, bounds each search by nodes instead (Limits.Nodes):
	// the same player on an idle or a loaded machine.
	Nodes uint64
	Seed  int64
	Label string

	e *gomoku.Engine
}

// Name implements Player.
func (p *Engine) Name() string {
	if p.Label != "" {
		return p.Label
	}
	s := fmt.Sprintf("level%d", p.Level)
	if p.Depth > 0 {
		s += fmt.Sprintf("-d%d", p.Depth)
	}
	if p.MoveTime > 0 {
		s += "-" + p.MoveTime.String()
	}
	if p.Nodes > 0 {
		s += fmt.Sprintf("-%dnodes", p.Nodes)
	}
	return s
}

// Move implements Player.
func (p *Engine) Move(ctx context.Context, b *gomoku.Board) (gomoku.Point, error) {
	if p.e == nil {
		p.e = gomoku.NewEngine()
	}
	if p.MoveTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.MoveTime)
		defer cancel()
	}
	// The seed varies with the position so that weak levels do not repeat
	// one game, yet a match is reproducible.
	r, err := p.e.Search(ctx, b, gomoku.Limits{Level: p.Level, Depth: p.Depth, Nodes: p.Nodes, Seed: p.Seed + int64(b.MoveCount())*7919 + int64(b.Hash()%1000)})
	return r.Best, err
}

// Opening is a start position: stones in move order, black first.
type Opening struct {
	Name  string
	Moves []gomoku.Point
}

// ParseOpenings reads the openings file format: "set|index|n|fits15|fits20|
// offsets" with offsets "dx,dy" from the centre; "#" starts a comment.
// Only openings that fit the board are returned.
func ParseOpenings(r io.Reader, size int) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 6 {
			return nil, fmt.Errorf("match: openings line %d: want 6 fields, got %d", lineNo, len(f))
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("match: openings line %d: bad count %q", lineNo, f[2])
		}
		o := Opening{Name: f[0] + "/" + f[1]}
		fits := true
		for _, pair := range strings.Fields(f[5]) {
			xs, ys, ok := strings.Cut(pair, ",")
			dx, err1 := strconv.Atoi(xs)
			dy, err2 := strconv.Atoi(ys)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("match: openings line %d: bad offset %q", lineNo, pair)
			}
			p := gomoku.Point{X: size/2 + dx, Y: size/2 + dy}
			if p.X < 0 || p.Y < 0 || p.X >= size || p.Y >= size {
				fits = false
			}
			o.Moves = append(o.Moves, p)
		}
		if len(o.Moves) != n {
			return nil, fmt.Errorf("match: openings line %d: %d offsets, header says %d", lineNo, len(o.Moves), n)
		}
		if fits {
			out = append(out, o)
		}
	}
	return out, sc.Err()
}

// Images returns the opening's first n (1..8) symmetric images on a
// size x size board: image k turns the stones k%4 quarter turns about the
// centre and then, for k >= 4, mirrors them left to right. Image 0 is the
// opening itself; image k is named Name/sk. Every image of a point on the
// board is on the board. An opening with a symmetry of its own has images
// that coincide (see Distinct).
func Images(o Opening, size, n int) []Opening {
	n = max(1, min(n, 8))
	out := make([]Opening, 0, n)
	for k := 0; k < n; k++ {
		img := Opening{Name: o.Name, Moves: make([]gomoku.Point, len(o.Moves))}
		if k > 0 {
			img.Name = fmt.Sprintf("%s/s%d", o.Name, k)
		}
		s := symmetries[imageSymmetry[k]]
		for i, m := range o.Moves {
			img.Moves[i] = s(m, size)
		}
		out = append(out, img)
	}
	return out
}

// imageSymmetry is the map of the board (an index into symmetries) that
// makes image k: the identity, a quarter turn, a half turn, three quarter
// turns, then each of them followed by the mirror left to right. The
// order names the images of match records, so it stays as it is.
var imageSymmetry = [8]int{0, 5, 3, 6, 1, 4, 2, 7}

// Distinct returns how many of the images are different positions (the
// same stones of each colour, whatever the move order).
func Distinct(images []Opening) int {
	seen := map[string]bool{}
	for _, o := range images {
		var sets [2][]string
		for i, m := range o.Moves {
			sets[i%2] = append(sets[i%2], m.String())
		}
		for i := range sets {
			slices.Sort(sets[i])
		}
		seen[strings.Join(sets[0], " ")+"|"+strings.Join(sets[1], " ")] = true
	}
	return len(seen)
}

// Outcome of one game from A's point of view.
type Outcome int

const (
	Loss Outcome = iota // A lost
	Draw                // full board (or the move cap)
	Win                 // A won
)

// maxGameMoves caps a game: after this many stones it is scored a draw
// (Gomocup adjudicates renju games after 200 moves).
const maxGameMoves = 200

// PlayGame plays one game from the opening; aBlack says whether A plays
// black. It returns A's outcome and the full record.
func PlayGame(ctx context.Context, a, b Player, open Opening, aBlack bool, size int, rule gomoku.Rule) (Outcome, []gomoku.Point, error) {
	board, err := gomoku.NewBoard(size, rule)
	if err != nil {
		return Draw, nil, err
	}
	for _, m := range open.Moves {
		if err := board.Play(m); err != nil {
			return Draw, nil, fmt.Errorf("match: opening %s: %w", open.Name, err)
		}
	}
	for !board.Over() && board.MoveCount() < maxGameMoves {
		if err := ctx.Err(); err != nil {
			return Draw, board.Moves(), err
		}
		mover := b
		if (board.ToMove() == gomoku.Black) == aBlack {
			mover = a
		}
		m, err := mover.Move(ctx, board)
		if err != nil {
			return Draw, board.Moves(), fmt.Errorf("match: %s: %w", mover.Name(), err)
		}
		if err := board.Play(m); err != nil {
			return Draw, board.Moves(), fmt.Errorf("match: %s played %v: %w", mover.Name(), m, err)
		}
	}
	w, over := board.Winner()
	if !over || board.Draw() {
		return Draw, board.Moves(), nil
	}
	if (w == gomoku.Black) == aBlack {
		return Win, board.Moves(), nil
	}
	return Loss, board.Moves(), nil
}

// Config describes a match.
type Config struct {
	A, B     Player
	Size     int
	Rule     gomoku.Rule
	Openings []Opening
	// Log, if not nil, receives one line per game.
	Log func(string)
}

// Result is a match score from A's point of view.
type Result struct {
	A, B                string
	Wins, Losses, Draws int
}

// Games returns the number of games played.
func (r Result) Games() int { return r.Wins + r.Losses + r.Draws }

// Score returns A's score fraction (a draw is half a point) and the
// half-width of its 95% confidence interval (normal approximation, 1.96
// standard errors of the per-game score).
func (r Result) Score() (score, margin float64) {
	n := float64(r.Games())
	if n == 0 {
		return 0, 0
	}
	score = (float64(r.Wins) + 0.5*float64(r.Draws)) / n
	// Per-game variance from the observed outcomes.
	mean2 := (float64(r.Wins) + 0.25*float64(r.Draws)) / n
	sd := math.Sqrt(math.Max(mean2-score*score, 0) / n)
	return score, 1.96 * sd
}

// String prints "A vs B: +W -L =D (score% ± margin%)".
func (r Result) String() string {
	s, m := r.Score()
	return fmt.Sprintf("%s vs %s: +%d -%d =%d (%.1f%% ± %.1f%%)", r.A, r.B, r.Wins, r.Losses, r.Draws, 100*s, 100*m)
}

// Run plays every opening twice, A black then A white.
func Run(ctx context.Context, cfg Config) (Result, error) {
	res := Result{A: cfg.A.Name(), B: cfg.B.Name()}
	for _, o := range cfg.Openings {
		for _, aBlack := range []bool{true, false} {
			out, rec, err := PlayGame(ctx, cfg.A, cfg.B, o, aBlack, cfg.Size, cfg.Rule)
			if err != nil {
				return res, err
			}
			switch out {
			case Win:
				res.Wins++
			case Loss:
				res.Losses++
			default:
				res.Draws++
			}
			if cfg.Log != nil {
				colour := "white"
				if aBlack {
					colour = "black"
				}
				cfg.Log(fmt.Sprintf("%s %s as %s: %s %s", o.Name, res.A, colour, [...]string{"loss", "draw", "win"}[out], gomoku.FormatRecord(rec)))
			}
		}
	}
	return res, nil
}

// Package match plays games between Reversi players, for measuring strength:
// each opening is played twice with the colours swapped, and the result is
// the wins, losses and draws of the first player and the disc difference.
//
// It also holds Seed000, a re-implementation of the method of the project's
// seed article 000 (a weight table, a depth-9 alpha-beta over the sum of the
// table weights of the moves played, and "take a corner at once"), the
// baseline the engine must beat by a wide margin.
//
//	a := match.EnginePlayer{Engine: reversi.NewEngine(), Limits: reversi.Limits{Level: 4}}
//	b := &match.Seed000{Depth: 9}
//	st, err := match.Play(ctx, a, b, match.Openings(4, 50), nil)
//	fmt.Println(st) // "games 100: wins 97 losses 2 draws 1 (97.5%), discs +31.2 per game"
package match

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/boardhall/boardhall/engine/reversi"
	"github.com/boardhall/boardhall/engine/reversi/internal/pattern"
)

// Player chooses moves. Move is only called when the side to move has a
// legal move.
type Player interface {
	Name() string
	Move(ctx context.Context, p reversi.Position) (reversi.Square, error)
}

// EnginePlayer plays with the engine at the given limits.
type EnginePlayer struct {
	Engine *reversi.Engine
	Limits reversi.Limits
	Label  string // name in reports; defaults to the level
	// Last, if not nil, receives each search's result, so that Note can
	// describe the move in a game record.
	Last *reversi.Result
}

// Name returns the label, or "level N".
func (e EnginePlayer) Name() string {
	if e.Label != "" {
		return e.Label
	}
	return fmt.Sprintf("level %d", e.Limits.Level)
}

// Move searches with the engine.
func (e EnginePlayer) Move(ctx context.Context, p reversi.Position) (reversi.Square, error) {
	r, err := e.Engine.Search(ctx, p, e.Limits)
	if e.Last != nil {
		*e.Last = r
	}
	return r.Best, err
}

// Note describes the last search (when Last is set): "d17:+2.35" for a
// midgame search of depth 17 that scored the move +2.35 discs, "x24:+4"
// for an exact solve at 24 empties.
func (e EnginePlayer) Note() string {
	if e.Last == nil {
		return ""
	}
	if e.Last.Exact {
		return fmt.Sprintf("x%d:%+d", e.Last.Depth, e.Last.Score)
	}
	return fmt.Sprintf("d%d:%+.2f", e.Last.Depth, float64(e.Last.Centi)/100)
}

// Noter is a Player that can describe its last move for a game record.
type Noter interface {
	Note() string
}

// Stats is the outcome of a match from the first player's view.
type Stats struct {
	Games, Wins, Losses, Draws int
	Discs                      int // sum over games of the first player's final disc difference
}

// Score is the first player's share of the points (win 1, draw 1/2).
func (s Stats) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
}

// String summarises the match.
func (s Stats) String() string {
	avg := 0.0
	if s.Games > 0 {
		avg = float64(s.Discs) / float64(s.Games)
	}
	return fmt.Sprintf("games %d: wins %d losses %d draws %d (%.1f%%), discs %+.1f per game",
		s.Games, s.Wins, s.Losses, s.Draws, 100*s.Score(), avg)
}

// Openings returns n distinct opening lines of the given number of plies,
// spread evenly over all lines of that length in square order.
func Openings(plies, n int) [][]reversi.Square {
	var all [][]reversi.Square
	var walk func(p reversi.Position, line []reversi.Square)
	walk = func(p reversi.Position, line []reversi.Square) {
		if len(line) == plies {
			all = append(all, append([]reversi.Square(nil), line...))
			return
		}
		for _, m := range p.LegalMoves() {
			q, _ := p.Play(m)
			walk(q, append(line, m))
		}
	}
	walk(reversi.Start(), nil)
	if n >= len(all) {
		return all
	}
	out := make([][]reversi.Square, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// Game plays one game from the position after opening, black and white
// choosing the moves, and returns the final score (black minus white).
func Game(ctx context.Context, black, white Player, opening []reversi.Square) (int, error) {
	r, err := GameRecord(ctx, black, white, opening)
	return r.Score, err
}

// GameRecord plays one game as Game does and returns its record.
func GameRecord(ctx context.Context, black, white Player, opening []reversi.Square) (Record, error) {
	r := Record{Black: black.Name(), White: white.Name(), Opening: opening}
	p, err := reversi.Replay(reversi.Start(), opening)
	if err != nil {
		return r, fmt.Errorf("match: opening: %w", err)
	}
	for !p.GameOver() {
		if p.MustPass() {
			p, _ = p.PlayPass()
			r.Moves = append(r.Moves, reversi.Pass)
			r.Notes = append(r.Notes, "")
			continue
		}
		pl := black
		if p.ToMove() == reversi.White {
			pl = white
		}
		m, err := pl.Move(ctx, p)
		if err != nil {
			return r, fmt.Errorf("match: %s: %w", pl.Name(), err)
		}
		q, err := p.Play(m)
		if err != nil {
			return r, fmt.Errorf("match: %s played an illegal move: %w", pl.Name(), err)
		}
		note := ""
		if n, ok := pl.(Noter); ok {
			note = n.Note()
		}
		r.Moves = append(r.Moves, m)
		r.Notes = append(r.Notes, note)
		p = q
	}
	r.Score = p.FinalScore()
	return r, nil
}

// Play plays every opening twice, a with black then with white, and returns
// the result from a's view. report, if not nil, is called after each game
// with the stats so far and the game's record.
func Play(ctx context.Context, a, b Player, openings [][]reversi.Square, report func(st Stats, r Record)) (Stats, error) {
	var st Stats
	for _, op := range openings {
		for _, aBlack := range []bool{true, false} {
			var (
				r   Record
				err error
			)
			if aBlack {
				r, err = GameRecord(ctx, a, b, op)
			} else {
				r, err = GameRecord(ctx, b, a, op)
			}
			if err != nil {
				return st, err
			}
			s := r.Score
			if !aBlack {
				s = -s
			}
			st.Games++
			st.Discs += s
			switch {
			case s > 0:
				st.Wins++
			case s < 0:
				st.Losses++
			default:
				st.Draws++
			}
			if report != nil {
				report(st, r)
			}
		}
	}
	return st, nil
}

// UniqueOpenings returns n opening lines of the given number of plies whose
// end positions are all different even up to the board's symmetries (turns
// and mirrors), spread evenly over all such lines in square order: no
// opening is the same game as another seen in a mirror.
func UniqueOpenings(plies, n int) [][]reversi.Square {
	seen := map[[2]uint64]bool{}
	var all [][]reversi.Square
	for _, line := range Openings(plies, 1<<30) {
		p, err := reversi.Replay(reversi.Start(), line)
		if err != nil {
			continue
		}
		k := canonical(p.Black(), p.White())
		if seen[k] {
			continue
		}
		seen[k] = true
		all = append(all, line)
	}
	if n >= len(all) {
		return all
	}
	out := make([][]reversi.Square, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// canonical is the least of the eight symmetric images of a board.
func canonical(black, white uint64) [2]uint64 {
	best := [2]uint64{^uint64(0), ^uint64(0)}
	for i := 0; i < 8; i++ {
		b, w := black, white
		if i&1 != 0 {
			b, w = pattern.Transpose(b), pattern.Transpose(w)
		}
		if i&2 != 0 {
			b, w = pattern.Mirror(b), pattern.Mirror(w)
		}
		if i&4 != 0 {
			b, w = bits.ReverseBytes64(b), bits.ReverseBytes64(w)
		}
		if b < best[0] || b == best[0] && w < best[1] {
			best = [2]uint64{b, w}
		}
	}
	return best
}

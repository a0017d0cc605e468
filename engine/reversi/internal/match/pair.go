package match

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardhall/boardhall/engine/internal/stats"
	"github.com/boardhall/boardhall/engine/reversi"
)

// GameKey names a game of a gauntlet: its opening and the colour the
// measured side played. Two builds played over the same openings have the
// same keys, so their games can be compared one by one.
type GameKey struct {
	Opening string // the opening as a transcript ("f5d6c3d3c4f4")
	Black   bool   // the measured side played black
}

// Outcome is one game's result from the measured side's view.
type Outcome struct {
	Points float64 // 1 for a win, 0.5 for a draw, 0 for a loss
	Discs  int     // final disc difference, the measured side's minus the other's
}

// Outcomes returns the result of each game of recs from the view of the
// player whose name starts with side (as "level 10"), keyed by opening and
// colour. A game neither side of which is side, or where both are, is an
// error, and so is a key seen twice: a gauntlet plays each opening once
// with each colour.
func Outcomes(recs []Record, side string) (map[GameKey]Outcome, error) {
	out := make(map[GameKey]Outcome, len(recs))
	for i, r := range recs {
		black, white := strings.HasPrefix(r.Black, side), strings.HasPrefix(r.White, side)
		if black == white {
			return nil, fmt.Errorf("match: game %d (%s against %s): want exactly one player named %q", i+1, r.Black, r.White, side)
		}
		k := GameKey{Opening: reversi.FormatTranscript(r.Opening), Black: black}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("match: game %d: opening %s with the same colours played twice", i+1, k.Opening)
		}
		d := r.Score
		if !black {
			d = -d
		}
		o := Outcome{Discs: d, Points: 0.5}
		if d > 0 {
			o.Points = 1
		} else if d < 0 {
			o.Points = 0
		}
		out[k] = o
	}
	return out, nil
}

// Paired compares two builds over the games both played (B minus A).
type Paired struct {
	Games   int // games both builds played
	Changed int // games whose result differs
	// Points is the mean difference in points a game (0.01 is a
	// percentage point of score); PointsSE its standard error from the
	// per-game differences, and PointsClusterSE the same with the games
	// of an opening summed first, so that the two colours of one opening
	// are not counted as independent.
	Points, PointsSE, PointsClusterSE float64
	// Discs is the mean difference in final discs a game, DiscsSE its
	// standard error from the per-game differences.
	Discs, DiscsSE float64
}

// String gives the comparison in percentage points and discs, with the
// standard errors.
func (p Paired) String() string {
	z := 0.0
	if p.PointsSE > 0 {
		z = p.Points / p.PointsSE
	}
	return fmt.Sprintf("%d games (%d results differ): score %+.2f%% ± %.2f%% (%+.1f SE; by opening ± %.2f%%), discs %+.2f ± %.2f a game",
		p.Games, p.Changed, 100*p.Points, 100*p.PointsSE, z, 100*p.PointsClusterSE, p.Discs, p.DiscsSE)
}

// Pair compares b against a game by game over the keys both hold. With no
// common game it returns an error; with one game the standard errors are 0.
func Pair(a, b map[GameKey]Outcome) (Paired, error) {
	var keys []GameKey
	for k := range a {
		if _, ok := b[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return Paired{}, fmt.Errorf("match: the two sets of games have no game in common")
	}
	// Sorted so that the sums, and so the figures, do not depend on map order.
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Opening != keys[j].Opening {
			return keys[i].Opening < keys[j].Opening
		}
		return keys[i].Black && !keys[j].Black
	})
	n := len(keys)
	points := make([]float64, n)
	discs := make([]float64, n)
	byOpening := map[string]float64{}
	var order []string
	p := Paired{Games: n}
	for i, k := range keys {
		points[i] = b[k].Points - a[k].Points
		discs[i] = float64(b[k].Discs - a[k].Discs)
		if points[i] != 0 {
			p.Changed++
		}
		if _, seen := byOpening[k.Opening]; !seen {
			order = append(order, k.Opening)
		}
		byOpening[k.Opening] += points[i]
	}
	p.Points, p.PointsSE = stats.MeanSE(points)
	p.Discs, p.DiscsSE = stats.MeanSE(discs)
	sums := make([]float64, len(order))
	for i, o := range order {
		sums[i] = byOpening[o]
	}
	// The mean a game is (openings/games) times the mean of the openings'
	// sums, so its standard error scales the same way.
	_, se := stats.MeanSE(sums)
	p.PointsClusterSE = se * float64(len(sums)) / float64(n)
	return p, nil
}

package rooms

import (
	"context"
	"sync"
	"time"
)

// Analysis is an engine's judgement of every position of a room's current game, for the
// evaluation graph: Evals[i] is the score after i plies, from black's point of view
// (Reversi: discs; Gomoku: engine units, |score| >= 10000 a forced win).
type Analysis struct {
	Room    string `json:"room"`
	Version int64  `json:"version"`
	GameNo  int    `json:"gameNo"`
	Level   int    `json:"level"`
	Evals   []int  `json:"evals"`
}

// Analysis cost: a shallow search per position is enough to draw the course of a game,
// and keeps a whole game's analysis to a fraction of a second.
const (
	analysisPerPos  = 100 * time.Millisecond
	analysisCacheMx = 512 // analyses kept, newest versions of the most recent rooms
)

// analysisLevels are the engines' lowest levels without deliberate randomness: the same
// position always gets the same score.
var analysisLevels = map[string]int{"reversi": 4, "gomoku": 5}

// analyzer runs analyses one at a time per node, on engines of its own (not the bot
// pool's), and remembers the latest analysis of each room.
type analyzer struct {
	turn    chan struct{} // a token: held while analysing
	engines map[string]Searcher

	mu    sync.Mutex
	cache map[string]analysisEntry
}

// analysisEntry is a cached analysis with the plies it judged.
type analysisEntry struct {
	Analysis
	plies []string
}

func newAnalyzer() *analyzer {
	a := &analyzer{turn: make(chan struct{}, 1), engines: map[string]Searcher{}, cache: map[string]analysisEntry{}}
	a.turn <- struct{}{}
	return a
}

// Analyze returns the analysis of a room's current game. An analysis of the room's
// current version is served from memory; otherwise it waits its turn (or ctx) and
// searches each position briefly.
func (s *Service) Analyze(ctx context.Context, id string) (Analysis, error) {
	meta, events, err := s.store.Load(ctx, id)
	if err != nil {
		return Analysis{}, err
	}
	st, err := Replay(meta, events)
	if err != nil {
		return Analysis{}, err
	}
	a := s.analyzer
	a.mu.Lock()
	cached, ok := a.cache[id]
	a.mu.Unlock()
	if ok && cached.Version == st.Version {
		return cached.Analysis, nil
	}
	select {
	case <-a.turn:
	case <-ctx.Done():
		return Analysis{}, errorf(CodeBusy, "the analysis engine is busy; try again")
	}
	defer func() { a.turn <- struct{}{} }()

	out := Analysis{Room: id, Version: st.Version, GameNo: st.GameNo, Level: analysisLevels[meta.Game]}
	plies := make([]string, len(st.plies))
	for i, p := range st.plies {
		plies[i] = p.move
	}
	// Positions the earlier analysis judged are judged already: the position after i
	// plies is the same if the first i plies are.
	same := 0
	if ok && cached.GameNo == st.GameNo {
		for same < len(plies) && same < len(cached.plies) && plies[same] == cached.plies[same] {
			same++
		}
	}
	g, err := newGame(meta)
	if err != nil {
		return Analysis{}, err
	}
	for i := 0; i <= len(st.plies); i++ {
		if i > 0 {
			p := st.plies[i-1]
			if p.move == "pass" {
				err = g.Pass()
			} else {
				_, err = g.Play(p.move)
			}
			if err != nil {
				return Analysis{}, err
			}
		}
		if ok && i <= same && i < len(cached.Evals) {
			out.Evals = append(out.Evals, cached.Evals[i])
			continue
		}
		score, err := a.evaluate(ctx, meta.Game, g)
		if err != nil {
			return Analysis{}, err
		}
		out.Evals = append(out.Evals, score)
	}
	a.mu.Lock()
	if len(a.cache) >= analysisCacheMx {
		for k := range a.cache { // forget an arbitrary one: a cache, not a record
			delete(a.cache, k)
			break
		}
	}
	a.cache[id] = analysisEntry{Analysis: out, plies: plies}
	a.mu.Unlock()
	return out, nil
}

// evaluate scores one position from black's view.
func (a *analyzer) evaluate(ctx context.Context, game string, g Game) (int, error) {
	if g.Over() {
		r := g.Result()
		win := 10000
		if game == "reversi" {
			win = r.Margin
		}
		switch r.Winner {
		case Black:
			return win, nil
		case White:
			return -win, nil
		}
		return 0, nil
	}
	if g.MustPass() {
		g = g.Clone()
		if err := g.Pass(); err != nil {
			return 0, err
		}
	}
	eng := a.engines[game]
	if eng == nil {
		eng = searcherFactories[game]()
		a.engines[game] = eng
	}
	sctx, cancel := context.WithTimeout(ctx, analysisPerPos)
	defer cancel()
	res, err := eng.Search(sctx, g.Clone(), analysisLevels[game], nil)
	if err != nil {
		return 0, err
	}
	if g.ToMove() == White {
		return -res.Score, nil
	}
	return res.Score, nil
}

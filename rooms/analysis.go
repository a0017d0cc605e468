package rooms

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Analysis is an engine's judgement of every position of a room's current game, for the
// evaluation graph: Evals[i] is the score after i plies, from black's point of view
// (Reversi: discs; Gomoku: engine units, |score| >= WinScore a forced win).
type Analysis struct {
	Room    string `json:"room"`
	Version int64  `json:"version"`
	GameNo  int    `json:"gameNo"`
	Level   int    `json:"level"`
	Evals   []int  `json:"evals"`
	// WinScore is the game's forced-win score (GameInfo.WinScore), 0 for none.
	WinScore int `json:"winScore,omitempty"`
}

// Analysis cost: a shallow search per position is enough to draw the course of a game,
// and keeps a whole game's analysis to a fraction of a second.
const (
	analysisPerPos  = 100 * time.Millisecond
	analysisCacheMx = 512 // analyses kept, newest versions of the most recent rooms
)

// analyzer runs analyses one at a time per node and remembers the latest analysis of
// each room.
type analyzer struct {
	turn chan struct{} // a token: held while analysing

	mu    sync.Mutex
	cache map[string]analysisEntry
}

// analysisEntry is a cached analysis with the plies it judged and the raw judgements
// behind its scores.
type analysisEntry struct {
	Analysis
	plies  []string
	judged []judgement
}

// judgement is the engine's view of one position: the score from black's view, the side
// to move, and whether the score is proven (a finished game or a forced win) rather than
// estimated.
type judgement struct {
	score  int
	toMove Side
	proven bool
}

func newAnalyzer() *analyzer {
	a := &analyzer{turn: make(chan struct{}, 1), cache: map[string]analysisEntry{}}
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
	st, _, err := replayLog(meta, events)
	if err != nil {
		return Analysis{}, err
	}
	kind, err := kindOf(meta.Game)
	if err != nil {
		return Analysis{}, err
	}
	a := s.analyzer
	a.mu.Lock()
	cached, ok := a.cache[id]
	a.mu.Unlock()
	if ok && cached.Version == st.version {
		return cached.Analysis, nil
	}
	select {
	case <-a.turn:
	case <-ctx.Done():
		return Analysis{}, errorf(CodeBusy, "the analysis engine is busy; try again")
	}
	defer func() { a.turn <- struct{}{} }()

	out := Analysis{Room: id, Version: st.version, GameNo: st.gameNo, Level: kind.analysisLevel,
		WinScore: kind.info.WinScore}
	plies := make([]string, len(st.plies))
	for i, p := range st.plies {
		plies[i] = p.move
	}
	// Positions the earlier analysis judged are judged already: the position after i
	// plies is the same if the first i plies are.
	same := 0
	if ok && cached.GameNo == st.gameNo {
		for same < len(plies) && same < len(cached.plies) && plies[same] == cached.plies[same] {
			same++
		}
	}
	g, err := kind.start(meta)
	if err != nil {
		return Analysis{}, err
	}
	judged := make([]judgement, 0, len(st.plies)+1)
	for i := 0; i <= len(st.plies); i++ {
		if i > 0 {
			p := st.plies[i-1]
			if p.move == "pass" {
				err = g.pass()
			} else {
				_, err = g.play(p.move)
			}
			if err != nil {
				return Analysis{}, err
			}
		}
		if ok && i <= same && i < len(cached.judged) {
			judged = append(judged, cached.judged[i])
			continue
		}
		j, err := kind.evaluate(ctx, g)
		if err != nil {
			return Analysis{}, err
		}
		judged = append(judged, j)
	}
	out.Evals = kind.graph(judged)
	a.mu.Lock()
	if len(a.cache) >= analysisCacheMx {
		for k := range a.cache { // forget an arbitrary one: a cache, not a record
			delete(a.cache, k)
			break
		}
	}
	a.cache[id] = analysisEntry{Analysis: out, plies: plies, judged: judged}
	a.mu.Unlock()
	return out, nil
}

// evaluate judges one position from black's view on the graph's scale: a finished game
// scores its margin (Reversi) or the forced-win score (Gomoku); a search's proof of a win
// scores the forced-win score, and its estimates stay below it.
func (k *gameKind) evaluate(ctx context.Context, g position) (judgement, error) {
	win := k.info.WinScore
	if g.over() {
		r := g.result()
		margin := r.Margin
		if win > 0 {
			margin = win
		}
		j := judgement{toMove: g.toMove(), proven: true}
		switch r.Winner {
		case Black:
			j.score = margin
		case White:
			j.score = -margin
		}
		return j, nil
	}
	if g.mustPass() {
		g = g.clone()
		if err := g.pass(); err != nil {
			return judgement{}, err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, analysisPerPos)
	defer cancel()
	res, err := g.clone().search(sctx, k.analysisLevel, nil)
	if err != nil {
		return judgement{}, err
	}
	score := res.Score
	if win > 0 {
		switch {
		case res.Exact:
			score = win * sign(score)
		case score >= win:
			score = win - 1
		case score <= -win:
			score = -(win - 1)
		}
	}
	toMove := g.toMove()
	if toMove == White {
		score = -score
	}
	return judgement{score: score, toMove: toMove, proven: res.Exact}, nil
}

// graph turns a game's judgements into the graph's series. Where the side to move's
// initiative is worth much (kind.tempo: Gomoku, where it is worth hundreds of units), a
// raw series zigzags with every ply, since each position is scored with its mover's
// advantage in it. The graph takes that advantage out, so that the scores of successive
// plies are comparable. The advantage is estimated from the game itself: a score is the
// game's trend plus the initiative c for the side to move, so at a ply between two
// judged ones the score's distance from its neighbours' midpoint is the trend's bend plus
// 2c from the mover's view (the sides alternate). The median of those distances over the
// game, halved, is the estimate: the median keeps a few turns of the game or swings of
// the search from pulling it, and a trend that rises or falls for long adds nothing to
// it. (Medians of the two sides' own scores, used before, cancel a lasting advantage
// only when the series is long and its two halves alike.) Proven scores stay as they
// are and take no part in the estimate.
func (k *gameKind) graph(judged []judgement) []int {
	var bends []int // mover's-view distances from the neighbours' midpoint, doubled
	for i := 2; k.tempo && i+1 < len(judged); i++ {
		prev, j, next := judged[i-1], judged[i], judged[i+1]
		if prev.proven || j.proven || next.proven {
			continue
		}
		bend := 2*j.score - prev.score - next.score // black's view
		if j.toMove == White {
			bend = -bend
		}
		bends = append(bends, bend)
	}
	if len(bends) == 0 { // no initiative to take out (Reversi), or too few plies to see it
		out := make([]int, len(judged))
		for i, j := range judged {
			out[i] = j.score
		}
		return out
	}
	slices.Sort(bends)
	median := bends[len(bends)/2]
	if len(bends)%2 == 0 {
		median = (bends[len(bends)/2-1] + median) / 2
	}
	return k.withoutInitiative(judged, median/4)
}

// withoutInitiative is the series with the mover's initiative, tempo in the
// mover's view, taken out of every judgement after the start; proven scores
// stay as they are, and the rest stay short of a proof.
func (k *gameKind) withoutInitiative(judged []judgement, tempo int) []int {
	out := make([]int, len(judged))
	win := k.info.WinScore
	for i, j := range judged {
		out[i] = j.score
		if j.proven || i == 0 {
			continue
		}
		v := moverView(j) - tempo
		if j.toMove == White {
			v = -v
		}
		if win > 0 {
			v = max(-(win - 1), min(win-1, v))
		}
		out[i] = v
	}
	return out
}

// moverView is a judgement's score from the side to move's view.
func moverView(j judgement) int {
	if j.toMove == White {
		return -j.score
	}
	return j.score
}

// sign is -1, 0 or 1.
func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

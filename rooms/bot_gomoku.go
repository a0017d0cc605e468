package rooms

import (
	"context"
	"math/rand/v2"

	"github.com/boardhall/boardhall/engine/gomoku"
)

// gomokuMaxLevel is the engine's strength scale, offered as the room's bot levels.
const gomokuMaxLevel = gomoku.MaxLevel

func init() {
	searcherFactories["gomoku"] = func() Searcher { return &gomokuSearcher{engine: gomoku.NewEngine()} }
}

// gomokuSearcher runs engine/gomoku for a bot worker.
type gomokuSearcher struct {
	engine *gomoku.Engine
}

func (s *gomokuSearcher) Search(ctx context.Context, g Game, level int, progress func(Progress)) (Progress, error) {
	board := g.(*gomokuGame).board
	lim := gomoku.Limits{Level: level, Seed: rand.Int64N(1<<62) + 1}
	if progress != nil {
		lim.Progress = func(i gomoku.Info) { progress(gomokuProgress(i)) }
	}
	res, err := s.engine.Search(ctx, board, lim)
	if err != nil {
		return Progress{}, err
	}
	return gomokuProgress(res), nil
}

func gomokuProgress(i gomoku.Info) Progress {
	pv := make([]string, len(i.PV))
	for k, p := range i.PV {
		pv[k] = p.String()
	}
	return Progress{Depth: i.Depth, Best: i.Best.String(), Score: i.Score, Nodes: i.Nodes,
		NPS: i.NPS, PV: pv, Exact: i.Score >= gomoku.WinThreshold || i.Score <= -gomoku.WinThreshold}
}

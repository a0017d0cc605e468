package rooms

import (
	"context"
	"math/rand/v2"

	"github.com/boardhall/boardhall/engine/reversi"
)

// reversiMaxLevel is the engine's strength scale, offered as the room's bot levels.
const reversiMaxLevel = reversi.MaxLevel

func init() {
	searcherFactories["reversi"] = func() Searcher { return &reversiSearcher{engine: reversi.NewEngine()} }
}

// reversiSearcher runs engine/reversi for a bot worker.
type reversiSearcher struct {
	engine *reversi.Engine
}

func (s *reversiSearcher) Search(ctx context.Context, g Game, level int, progress func(Progress)) (Progress, error) {
	pos := g.(*reversiGame).pos
	lim := reversi.Limits{Level: level, Seed: rand.Int64N(1<<62) + 1}
	if progress != nil {
		lim.Progress = func(i reversi.Info) { progress(reversiProgress(i)) }
	}
	res, err := s.engine.Search(ctx, pos, lim)
	if err != nil {
		return Progress{}, err
	}
	return reversiProgress(res), nil
}

func reversiProgress(i reversi.Info) Progress {
	pv := make([]string, len(i.PV))
	for k, sq := range i.PV {
		pv[k] = sq.String()
	}
	return Progress{Depth: i.Depth, Best: i.Best.String(), Score: i.Score, Nodes: i.Nodes,
		NPS: i.NPS, PV: pv, Exact: i.Exact}
}

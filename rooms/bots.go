package rooms

import (
	"context"
	"sync"
	"time"
)

// Progress is a bot's search report: after each completed iteration, and the final
// answer. Score is from the searching side's view.
type Progress struct {
	Depth int
	Best  string
	Score int
	Nodes uint64
	NPS   uint64
	PV    []string
	Exact bool
}

// Searcher chooses moves for one game. A bot worker owns one Searcher per game, so a
// Searcher is never used by two goroutines at once and may keep state between searches
// (a transposition table).
type Searcher interface {
	// Search returns the move for the side to move in g at the given strength level,
	// calling progress (which must not block) as it deepens. It stops when ctx is done
	// and then returns the best move found so far, or an error if it has none.
	Search(ctx context.Context, g Game, level int, progress func(Progress)) (Progress, error)
}

// searcherFactories makes a game's Searcher, by game name; the bot_*.go files fill it.
var searcherFactories = map[string]func() Searcher{}

// BotPool runs bot searches on a fixed number of worker goroutines shared by all rooms,
// so bots use bounded CPU and never run on a socket's goroutine.
//
// A job waits in a bounded queue. When the queue is full Submit refuses the job at once
// and the room tries again later: a flood of bot games slows bots down, never people.
type BotPool struct {
	jobs chan botJob
	wg   sync.WaitGroup
}

// botJob is one search: the position, the level, where to report, and what to do with
// the answer. done is always called exactly once.
type botJob struct {
	ctx      context.Context
	game     string
	pos      Game
	level    int
	progress func(Progress)
	done     func(Progress, time.Duration, error)
}

// NewBotPool starts workers goroutines with a queue of queue waiting jobs.
func NewBotPool(workers, queue int) *BotPool {
	if workers < 1 {
		workers = 1
	}
	p := &BotPool{jobs: make(chan botJob, queue)}
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// Submit queues a job; false if the queue is full (the job's done is then not called).
func (p *BotPool) Submit(j botJob) bool {
	select {
	case p.jobs <- j:
		return true
	default:
		return false
	}
}

// Close stops the workers once the queued jobs are done; cancel their contexts first to
// make that quick.
func (p *BotPool) Close() {
	close(p.jobs)
	p.wg.Wait()
}

func (p *BotPool) work() {
	defer p.wg.Done()
	lowerPriority()
	engines := map[string]Searcher{}
	for j := range p.jobs {
		if err := j.ctx.Err(); err != nil {
			j.done(Progress{}, 0, err)
			continue
		}
		s := engines[j.game]
		if s == nil {
			newSearcher := searcherFactories[j.game]
			if newSearcher == nil {
				j.done(Progress{}, 0, errorf(CodeInternal, "no engine for %s", j.game))
				continue
			}
			s = newSearcher()
			engines[j.game] = s
		}
		start := time.Now()
		res, err := s.Search(j.ctx, j.pos, j.level, j.progress)
		j.done(res, time.Since(start), err)
	}
}

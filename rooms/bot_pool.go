package rooms

import (
	"context"
	"sync"
	"time"
)

// BotPool runs bot searches on a fixed number of worker goroutines shared by all rooms,
// so bots use bounded CPU and never run on a socket's goroutine.
//
// A job waits in a bounded queue. When the queue is full Submit refuses the job at once
// and the room tries again later: a flood of bot games slows bots down, never people.
type BotPool struct {
	jobs chan botJob
	wg   sync.WaitGroup
}

// botJob is one search: the position (a copy the search may keep), the level, where to
// report, and what to do with the answer. done is always called exactly once.
type botJob struct {
	ctx    context.Context
	pos    position
	level  int
	report func(progress)
	done   func(progress, time.Duration, error)
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

// submit queues a job; false if the queue is full (the job's done is then not called).
func (p *BotPool) submit(j botJob) bool {
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
	for j := range p.jobs {
		if err := j.ctx.Err(); err != nil {
			j.done(progress{}, 0, err)
			continue
		}
		start := time.Now()
		res, err := j.pos.search(j.ctx, j.level, j.report)
		j.done(res, time.Since(start), err)
	}
}

package rooms

import (
	"context"
	"time"
)

// botLeaseKey names the lease on a room's bot search: whoever holds it searches.
func botLeaseKey(room string) string { return "bot:" + room }

// thinkingEvery spaces a bot's progress messages: often enough to look alive, rare
// enough not to flood spectators when the engine completes many shallow iterations.
const thinkingEvery = 150 * time.Millisecond

// checkBot makes the bot search state match the room: it cancels a search that a new
// event made moot and starts one when a bot is to move and this node can claim it.
// Called on the room goroutine after every change.
func (r *liveRoom) checkBot() {
	if r.state == nil || r.svc.ctx.Err() != nil {
		return
	}
	side, level, toMove := r.state.BotToMove()
	if r.bot != nil && (!toMove || r.bot.version != r.state.Version || r.bot.side != side) {
		r.bot.cancel() // undo, a seat change or another node's move made it moot
		r.bot = nil
		if !toMove {
			r.releaseLease()
		}
	}
	if !toMove || r.bot != nil {
		return
	}
	if r.botRetry != nil {
		r.botRetry.Stop()
		r.botRetry = nil
	}
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	owned, err := r.svc.broker.Claim(ctx, botLeaseKey(r.id), r.svc.cfg.Node, r.svc.cfg.BotLease)
	cancel()
	if err != nil || !owned {
		// Another node is searching (or the broker is down): look again later; if that
		// node dies its lease lapses and this node takes over.
		r.retryBotLater(r.svc.cfg.BotLease / 2)
		return
	}
	r.startBot(side, level)
}

// retryBotLater checks the bot again after d.
func (r *liveRoom) retryBotLater(d time.Duration) {
	if r.botRetry != nil {
		return
	}
	r.botRetry = time.AfterFunc(d, func() {
		r.post(func() {
			r.botRetry = nil
			r.checkBot()
		})
	})
}

func (r *liveRoom) releaseLease() {
	ctx, cancel := context.WithTimeout(context.Background(), backendTimeout)
	defer cancel()
	r.svc.broker.Release(ctx, botLeaseKey(r.id), r.svc.cfg.Node)
}

// startBot queues the search for side at level on the bot pool.
func (r *liveRoom) startBot(side Side, level int) {
	cfg := r.svc.cfg
	ctx, cancel := context.WithTimeout(r.svc.ctx, cfg.BotMoveTime)
	run := &botRun{version: r.state.Version, side: side, cancel: cancel, started: time.Now()}
	r.bot = run
	game := r.state.Meta.Game
	var lastSent time.Time
	job := botJob{
		ctx: ctx, game: game, pos: r.state.game.Clone(), level: level,
		progress: func(p Progress) {
			// On the worker goroutine: throttle, then show it here and on other nodes.
			if now := time.Now(); now.Sub(lastSent) >= thinkingEvery {
				lastSent = now
				r.sendThinking(side, p)
			}
		},
		done: func(p Progress, took time.Duration, err error) {
			cfg.Metrics.observeSearch(game, took, p.Nodes, err)
			if err == nil && p.Best != "" {
				r.sendThinking(side, p) // the final depth and score, which throttling may have held back
			}
			r.postWait(func() { r.botDone(run, p, err) })
		},
	}
	if !r.svc.bots.Submit(job) {
		cancel()
		r.bot = nil
		r.releaseLease()
		cfg.Metrics.botJobsRefused.Inc()
		r.retryBotLater(time.Second)
	}
}

// sendThinking tells local watchers and other nodes how the search goes.
func (r *liveRoom) sendThinking(side Side, p Progress) {
	msg := mustJSON(Thinking{Type: "thinking", Room: r.id, Seat: side, Depth: p.Depth, Best: p.Best,
		Score: p.Score, Nodes: p.Nodes, NPS: p.NPS, PV: p.PV, Exact: p.Exact})
	r.post(func() { r.broadcast(msg) })
	ctx, cancel := context.WithTimeout(r.svc.ctx, backendTimeout)
	defer cancel()
	r.svc.broker.Publish(ctx, r.id, mustJSON(brokerMsg{Node: r.svc.cfg.Node, Kind: "thinking", Thinking: msg}))
}

// postWait queues a task that must not be lost to a full queue; it waits for room in
// the queue unless the room stops.
func (r *liveRoom) postWait(task func()) {
	select {
	case r.inbox <- task:
	case <-r.done:
	}
}

// botDone takes a finished search's answer: it plays the move if the room is still
// where the search started, after the bot-vs-bot pace.
func (r *liveRoom) botDone(run *botRun, p Progress, err error) {
	if r.bot != run {
		return // cancelled and replaced; the answer is moot
	}
	if err != nil || p.Best == "" {
		r.bot = nil
		run.cancel()
		r.releaseLease()
		if r.svc.ctx.Err() == nil {
			r.svc.log.Warn("bot search failed", "room", r.id, "err", err)
			r.retryBotLater(time.Second)
		}
		return
	}
	if wait := r.botPaceLeft(run); wait > 0 {
		time.AfterFunc(wait, func() { r.post(func() { r.botDone(run, p, nil) }) })
		r.svc.cfg.Metrics.botPaced.Inc()
		run.started = time.Time{} // pace once
		return
	}
	r.bot = nil
	run.cancel()
	eval := p.Score
	if run.side == White {
		eval = -eval // events carry black's view
	}
	version := run.version
	_, err = r.execute(r.svc.ctx, Command{Kind: CmdMove, Move: p.Best, At: &version, actor: run.side, bot: true, eval: &eval})
	if err != nil {
		r.svc.log.Warn("bot move refused", "room", r.id, "move", p.Best, "err", err)
		r.checkBot()
	}
	if r.bot == nil {
		// No next search took the lease over (in bot against bot, execute's checkBot
		// has already claimed it again for the other bot, and it stays).
		r.releaseLease()
	}
}

// botPaceLeft is how much longer a bot-vs-bot move should wait to be watchable.
func (r *liveRoom) botPaceLeft(run *botRun) time.Duration {
	if run.started.IsZero() || r.svc.cfg.BotPace == 0 {
		return 0
	}
	if r.state.seats[0].Kind != SeatBot || r.state.seats[1].Kind != SeatBot {
		return 0
	}
	return r.svc.cfg.BotPace - time.Since(run.started)
}

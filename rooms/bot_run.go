package rooms

import (
	"context"
	"time"
)

// botRun is a bot search in progress on this node.
type botRun struct {
	version int64
	side    Side
	level   int
	cancel  context.CancelFunc
	started time.Time
	// quickTimer, in a game on a live clock, fires quickGrace after the search's budget:
	// a search still without a move then is answered by a quick move (playQuick).
	quickTimer *time.Timer
	quick      bool // the quick move was started
	// pending counts the answers still to come: the search's, and the quick move's once
	// started. A failed answer is final only when the other cannot still bring a move.
	pending int
}

// stop ends the search and its quick timer.
func (run *botRun) stop() {
	run.cancel()
	if run.quickTimer != nil {
		run.quickTimer.Stop()
	}
}

// quickGrace is how long after its budget a timed bot's search may still answer before a
// quick move replaces it. A search that has the CPU stops within milliseconds of its
// deadline; the bot workers run at the lowest priority, and on a saturated machine a
// starved one can overrun it by seconds (or not have started). The budget keeps
// botTimeMargin for this and for storing the move.
const quickGrace = 50 * time.Millisecond

// botLeaseKey names the lease on a room's bot search: whoever holds it searches.
func botLeaseKey(room string) string { return "bot:" + room }

// thinkingEvery spaces a bot's progress messages: often enough to look alive, rare
// enough not to flood spectators when the engine completes many shallow iterations.
const thinkingEvery = 150 * time.Millisecond

// checkBot makes the bot search state match the room: it cancels a search that a new
// event made moot and starts one when a bot is to move and this node can claim it.
// Called on the room goroutine after every change.
func (r *liveRoom) checkBot() {
	if r.state == nil || r.node.ctx.Err() != nil {
		return
	}
	side, level, toMove := r.state.botToMove()
	if r.bot != nil && (!toMove || r.bot.version != r.state.version || r.bot.side != side) {
		r.bot.stop() // undo, a seat change or another node's move made it moot
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
	ctx, cancel := backendContext(r.node.ctx)
	owned, err := r.node.broker.Claim(ctx, botLeaseKey(r.id), r.node.name, r.node.cfg.BotLease)
	cancel()
	if err != nil || !owned {
		// Another node is searching (or the broker is down): look again later; if that
		// node dies its lease lapses and this node takes over.
		r.retryBotLater(r.node.cfg.BotLease / 2)
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
	// Also called while stopping, when the node's context may be cancelled already.
	ctx, cancel := backendContext(context.Background())
	defer cancel()
	r.node.broker.Release(ctx, botLeaseKey(r.id), r.node.name)
}

// startBot queues the search for side at level on the bot pool.
func (r *liveRoom) startBot(side Side, level int) {
	n := r.node
	budget := r.botBudget(side, time.Now())
	ctx, cancel := context.WithTimeout(n.ctx, budget)
	run := &botRun{version: r.state.version, side: side, level: level, cancel: cancel, started: time.Now(), pending: 1}
	if r.state.meta.Clock.Kind == ClockFischer { // a correspondence clock can wait for a retry
		run.quickTimer = time.AfterFunc(budget+quickGrace, func() { r.post(func() { r.playQuick(run) }) })
	}
	r.bot = run
	game := r.state.meta.Game
	// The worker only hands its reports and its answer over: sending them (to the room's
	// queue, the broker, Redis) happens on a goroutine of normal priority. A worker starved
	// of CPU must never hold up the room or the broker, nor wait on them: under four busy
	// loops beside the server, bots sending from the worker lost on time while their
	// searches ran late; without it they answered on time (docs/benchmarks.md, "Timed bots
	// on a saturated machine").
	feed := make(chan progress, 1)
	var final struct {
		p    progress
		took time.Duration
		err  error
	}
	var lastSent time.Time
	job := botJob{
		ctx: ctx, pos: r.state.game.clone(), level: level,
		report: func(p progress) {
			if now := time.Now(); now.Sub(lastSent) >= thinkingEvery {
				lastSent = now
				offerLatest(feed, p)
			}
		},
		done: func(p progress, took time.Duration, err error) {
			final.p, final.took, final.err = p, took, err
			close(feed) // after the writes above: the sender reads them once feed is drained
		},
	}
	if !n.bots.submit(job) {
		run.stop()
		r.bot = nil
		r.releaseLease()
		n.metrics.botJobsRefused.Inc()
		r.retryBotLater(time.Second)
		return
	}
	go func() {
		for p := range feed {
			r.sendThinking(side, p)
		}
		n.metrics.observeSearch(game, final.took, final.p.Nodes, final.err)
		if final.err == nil && final.p.Best != "" {
			r.sendThinking(side, final.p) // the final depth and score, which throttling may have held back
		}
		r.postWait(func() { r.botAnswer(run, final.p, final.err) })
	}()
}

// offerLatest puts p in ch (capacity 1) without blocking, replacing a report not yet sent:
// spectators want the newest depth, not every one.
func offerLatest(ch chan progress, p progress) {
	for {
		select {
		case ch <- p:
			return
		default:
			select {
			case <-ch:
			default:
			}
		}
	}
}

// sendThinking tells local watchers and other nodes how the search goes.
func (r *liveRoom) sendThinking(side Side, p progress) {
	msg := mustJSON(thinkingMsg{Type: "thinking", Room: r.id, Seat: side, Depth: p.Depth, Best: p.Best,
		Score: p.Score, Nodes: p.Nodes, NPS: p.NPS, PV: p.PV, Exact: p.Exact})
	r.post(func() { r.broadcast(msg) })
	ctx, cancel := backendContext(r.node.ctx)
	defer cancel()
	r.node.publish(ctx, r.id, brokerMsg{Kind: "thinking", Thinking: msg})
}

// botAnswer takes one of run's answers, the search's or the quick move's.
func (r *liveRoom) botAnswer(run *botRun, p progress, err error) {
	run.pending--
	r.botDone(run, p, err)
}

// botDone takes a finished search's answer: it plays the move if the room is still
// where the search started, after the bot-vs-bot pace.
func (r *liveRoom) botDone(run *botRun, p progress, err error) {
	if r.bot != run {
		return // cancelled and replaced; the answer is moot
	}
	if err != nil || p.Best == "" {
		if run.quickTimer != nil && r.node.ctx.Err() == nil {
			if !run.quick {
				r.playQuick(run) // on a live clock a move now beats a retry a second later
				return
			}
			if run.pending > 0 {
				// The search failed with the quick move under way (or the quick move
				// failed with the search still running): the other may yet bring a
				// move, which beats a retry a second later.
				return
			}
		}
		r.bot = nil
		run.stop()
		r.releaseLease()
		if r.node.ctx.Err() == nil {
			r.node.warn("bot search failed", "room", r.id, "err", err)
			r.retryBotLater(time.Second)
		}
		return
	}
	if wait := r.botPaceLeft(run); wait > 0 {
		r.postAfter(wait, func() { r.botDone(run, p, nil) })
		r.node.metrics.botPaced.Inc()
		run.started = time.Time{} // pace once
		return
	}
	r.bot = nil
	run.stop()
	if p.Quick {
		r.node.metrics.botQuickMoves.Inc()
		r.node.warn("bot search had no move by its deadline; playing its quick move", "room", r.id, "move", p.Best)
	}
	eval := p.Score
	if run.side == White {
		eval = -eval // events carry black's view
	}
	version := run.version
	_, err = r.execute(r.node.ctx, Command{Kind: CmdMove, Move: p.Best, At: &version, actor: run.side, bot: true, eval: &eval})
	if err != nil {
		r.node.warn("bot move refused", "room", r.id, "move", p.Best, "err", err)
		r.checkBot()
	}
	if r.bot == nil {
		// No next search took the lease over (in bot against bot, execute's checkBot
		// has already claimed it again for the other bot, and it stays).
		r.releaseLease()
	}
}

// playQuick answers run's search, once, with a quick move (position.quickMove) computed
// on a goroutine of normal priority: a bot on a live clock whose search has no move by its
// deadline (it waited in the queue, or the kernel starved its worker) must still move before
// its flag. The first of the search and the quick move to answer with a move is played
// (botDone ignores the other); a failed answer waits for the other (botRun.pending).
func (r *liveRoom) playQuick(run *botRun) {
	if r.bot != run || run.quick {
		return
	}
	run.quick = true
	run.pending++
	pos := r.state.game.clone()
	go func() {
		p, err := pos.quickMove(run.level)
		r.postWait(func() { r.botAnswer(run, p, err) })
	}()
}

// Planning a timed bot's search: it spends a share of what it has left plus most of its
// increment, and always leaves a margin for storing the move (a Redis round trip, a busy
// machine) so that it never loses on time, at any level.
const (
	botMovesToPlan = 25                     // the time left is spread as if over this many moves
	botTimeMargin  = 300 * time.Millisecond // kept back for storing the move
	botLeastSearch = 20 * time.Millisecond  // a search always gets at least this
)

// botBudget is how long side's bot may search now: the service's cap, and in a timed game
// a plan from its own clock.
func (r *liveRoom) botBudget(side Side, now time.Time) time.Duration {
	budget := r.node.cfg.BotMoveTime
	due, first, ok := r.state.clk.deadline(r.state.meta.Clock, side)
	if !ok || r.state.game.toMove() != side {
		return budget
	}
	left := due.Sub(now)
	plan := left / botMovesToPlan
	if !first && r.state.meta.Clock.Kind == ClockFischer {
		plan += r.state.meta.Clock.increment() * 3 / 4
	}
	if first {
		plan = left / 4
	}
	plan = min(plan, left/2, left-botTimeMargin)
	return max(botLeastSearch, min(budget, plan))
}

// botPaceLeft is how much longer a bot-vs-bot move should wait to be watchable.
func (r *liveRoom) botPaceLeft(run *botRun) time.Duration {
	if run.started.IsZero() || r.node.cfg.BotPace == 0 || r.state.meta.Clock.timed() {
		return 0 // a timed game's pace is its clocks'
	}
	if r.state.seats[0].Kind != SeatBot || r.state.seats[1].Kind != SeatBot {
		return 0
	}
	return r.node.cfg.BotPace - time.Since(run.started)
}

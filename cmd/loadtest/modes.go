package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// load runs the modes against the configured nodes.
type load struct {
	cfg config
	d   *dialer
	api httpAPI
	log io.Writer
}

func newLoad(cfg config, d *dialer, log io.Writer) *load {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	return &load{cfg: cfg, d: d, api: httpAPI{hc: hc}, log: log}
}

// nodeFor spreads clients over the nodes: client i of room r starts on node (r+i) mod n,
// so that the two players of a room are on different nodes when there are two.
func nodeFor(room, client, nodes int) int { return (room + client) % nodes }

// setup creates the rooms of plans, at most cfg.concurrency at once, and connects their
// clients; on any failure it closes what it opened and returns the first error.
func (l *load) setup(ctx context.Context, plans []roomPlan, rec *recorder, clientCtx context.Context) ([]*roomRun, error) {
	runs := make([]*roomRun, len(plans))
	errs := make(chan error, len(plans))
	sem := make(chan struct{}, l.cfg.concurrency)
	var wg sync.WaitGroup
	start := time.Now()
	var done int
	var mu sync.Mutex
	for i, plan := range plans {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r, err := setupRoom(clientCtx, l.api, l.d, plan, rec, l.cfg.reconnect)
			if err != nil {
				errs <- err
				return
			}
			runs[i] = r
			mu.Lock()
			done++
			if done%500 == 0 {
				fmt.Fprintf(l.log, "loadtest: %d/%d rooms set up (%.0fs)\n", done, len(plans), time.Since(start).Seconds())
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	err := <-errs
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		closeAll(runs)
		return nil, err
	}
	return runs, nil
}

func closeAll(runs []*roomRun) {
	for _, r := range runs {
		if r != nil {
			r.close()
		}
	}
}

func countConns(runs []*roomRun) int {
	n := 0
	for _, r := range runs {
		n += len(r.peers())
	}
	return n
}

// humanPlans is rooms Reversi rooms with two people and the spectators.
func (l *load) humanPlans(rooms, first int) []roomPlan {
	plans := make([]roomPlan, rooms)
	n := len(l.d.addrs)
	for i := range plans {
		plans[i].spectators = l.cfg.spectators
		plans[i].nodes = make([]int, 2+l.cfg.spectators)
		for j := range plans[i].nodes {
			plans[i].nodes[j] = nodeFor(first+i, j, n)
		}
	}
	return plans
}

// idlePlans splits conns connections into rooms of two players and the spectators; the
// last room takes the remainder (a single connection is a player facing a bot that never
// gets to move, since nobody moves in the idle mode).
func (l *load) idlePlans(conns int) []roomPlan {
	perRoom := 2 + l.cfg.spectators
	rooms := (conns + perRoom - 1) / perRoom
	plans := l.humanPlans(rooms, 0)
	last := &plans[rooms-1]
	switch rest := conns - (rooms-1)*perRoom; {
	case rest >= 2:
		last.spectators = rest - 2
	default:
		last.spectators, last.botLevel = 0, [2]int{0, 1}
	}
	return plans
}

// IdleResult is what the idle mode measured.
type IdleResult struct {
	Connections int     `json:"connections"`
	Rooms       int     `json:"rooms"`
	RSSBeforeMB float64 `json:"rssBeforeMB"`
	RSSRoomsMB  float64 `json:"rssWithRoomsMB"`
	RSSAfterMB  float64 `json:"rssAfterMB"`
	HeapMB      float64 `json:"heapInuseAfterMB"`
	Goroutines  float64 `json:"goroutinesAfter"`
	// PerConnKB is (RSS after - RSS before) / connections: rooms included.
	PerConnKB float64 `json:"rssPerConnectionKB"`
	// PerConnOnlyKB leaves out the rooms: (RSS after - RSS with the rooms created) /
	// connections.
	PerConnOnlyKB float64 `json:"rssPerConnectionWithoutRoomsKB"`
	HeldSeconds   float64 `json:"heldSeconds"`
	ServerConns   float64 `json:"serverConnections"`
	SetupSeconds  float64 `json:"setupSeconds"`
}

func (r IdleResult) writeText(w io.Writer) {
	fmt.Fprintf(w, "idle: %d connections in %d rooms (server counts %.0f), set up in %.1fs, held %.0fs\n",
		r.Connections, r.Rooms, r.ServerConns, r.SetupSeconds, r.HeldSeconds)
	fmt.Fprintf(w, "  server RSS  %.1f MB before, %.1f MB with the rooms, %.1f MB with the connections (heap in use %.1f MB, %.0f goroutines)\n",
		r.RSSBeforeMB, r.RSSRoomsMB, r.RSSAfterMB, r.HeapMB, r.Goroutines)
	fmt.Fprintf(w, "  per idle connection  %.2f KB of RSS (%.2f KB without the rooms' share)\n", r.PerConnKB, r.PerConnOnlyKB)
}

// idle opens the connections, holds them, and measures the server's RSS.
func (l *load) idle(ctx context.Context) (IdleResult, error) {
	var res IdleResult
	addr := l.d.addrs[0]
	before, err := takeSample(ctx, l.api.hc, addr)
	if err != nil {
		return res, err
	}
	plans := l.idlePlans(l.cfg.conns)
	rooms := len(plans)
	// Rooms first, so that their own memory can be told apart from the sockets'.
	ids := make([]string, rooms)
	for i := range plans {
		if ids[i], err = l.api.createRoom(ctx, addr, plans[i]); err != nil {
			return res, err
		}
	}
	withRooms, err := takeSample(ctx, l.api.hc, addr)
	if err != nil {
		return res, err
	}
	clientCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	runs, err := l.connectExisting(ctx, clientCtx, ids, plans)
	if err != nil {
		return res, err
	}
	defer closeAll(runs)
	res.SetupSeconds = time.Since(start).Seconds()
	fmt.Fprintf(l.log, "loadtest: %d connections open; holding them for %v\n", countConns(runs), l.cfg.duration)
	held := time.Now()
	select {
	case <-time.After(l.cfg.duration):
	case <-ctx.Done():
		return res, ctx.Err()
	}
	after, err := takeSample(ctx, l.api.hc, addr)
	if err != nil {
		return res, err
	}
	res.HeldSeconds = time.Since(held).Seconds()
	res.Connections, res.Rooms = countConns(runs), rooms
	res.RSSBeforeMB, res.RSSRoomsMB, res.RSSAfterMB = mb(before.metrics[metricRSS]), mb(withRooms.metrics[metricRSS]), mb(after.metrics[metricRSS])
	res.HeapMB, res.Goroutines = mb(after.metrics[metricHeapInuse]), after.metrics[metricGoroutines]
	res.ServerConns = after.metrics[metricConns]
	res.PerConnKB = (after.metrics[metricRSS] - before.metrics[metricRSS]) / 1024 / float64(res.Connections)
	res.PerConnOnlyKB = (after.metrics[metricRSS] - withRooms.metrics[metricRSS]) / 1024 / float64(res.Connections)
	return res, nil
}

// connectExisting connects the clients of rooms already created.
func (l *load) connectExisting(ctx, clientCtx context.Context, ids []string, plans []roomPlan) ([]*roomRun, error) {
	rec := newRecorder()
	runs := make([]*roomRun, len(ids))
	sem := make(chan struct{}, l.cfg.concurrency)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i := range ids {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r, err := connectRoom(clientCtx, l.d, ids[i], plans[i], rec, l.cfg.reconnect)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			runs[i] = r
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		closeAll(runs)
		return nil, firstErr
	}
	return runs, nil
}

// cpuSeconds is this process's CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// moves sets up rooms human rooms plus extra rooms, plays at rate moves per second for
// the warmup and then the measured duration, and reports.
func (l *load) moves(ctx context.Context, label string, rooms int, rate float64, botRooms int) (Result, error) {
	res := Result{Label: label, Rooms: rooms, Spectators: l.cfg.spectators, BotRooms: botRooms, TargetRate: rate}
	addr := l.d.addrs[0]
	before, err := takeSample(ctx, l.api.hc, addr)
	if err != nil {
		return res, err
	}
	plans := l.humanPlans(rooms, 0)
	// Bot rooms: a person (the tool) against a bot, who answers each bot move at once
	// and takes the end of a finished game back, so that the bot always has a search
	// waiting. Their moves are kept apart from the measured human-vs-human rooms.
	var botPlans []roomPlan
	for i := range botRooms {
		botPlans = append(botPlans, roomPlan{botLevel: [2]int{0, l.cfg.botLevel}, nodes: []int{nodeFor(i, 0, len(l.d.addrs))}})
	}
	rec, botRec := newRecorder(), newRecorder()
	clientCtx, cancelClients := context.WithCancel(ctx)
	defer cancelClients()
	start := time.Now()
	runs, err := l.setup(ctx, plans, rec, clientCtx)
	if err != nil {
		return res, err
	}
	defer closeAll(runs)
	botRuns, err := l.setup(ctx, botPlans, botRec, clientCtx)
	if err != nil {
		return res, err
	}
	defer closeAll(botRuns)
	res.SetupSeconds = time.Since(start).Seconds()
	res.Connections = countConns(runs) + countConns(botRuns)
	fmt.Fprintf(l.log, "loadtest: %s: %d rooms, %d connections set up in %.1fs; playing\n", label, len(runs)+len(botRuns), res.Connections, res.SetupSeconds)

	pace := time.Duration(float64(rooms) / rate * float64(time.Second))
	stopHumans := driveAll(clientCtx, runs, pace)
	stopBots := driveAll(clientCtx, botRuns, 0)
	stopAll := func() { stopHumans(); stopBots() }
	select {
	case <-time.After(l.cfg.warmup):
	case <-ctx.Done():
		stopAll()
		return res, ctx.Err()
	}
	rec.take()
	s0, err := takeSample(ctx, l.api.hc, addr)
	if err != nil {
		stopAll()
		return res, err
	}
	cpu0, wait0, psi0 := cpuSeconds(), runQueueWait(), cpuPressure()
	select {
	case <-time.After(l.cfg.duration):
	case <-ctx.Done():
		stopAll()
		return res, ctx.Err()
	}
	lat, moves, errs := rec.take()
	s1, err := takeSample(ctx, l.api.hc, addr)
	cpu1, wait1, psi1 := cpuSeconds(), runQueueWait(), cpuPressure()
	stopAll()
	if err != nil {
		return res, err
	}
	wall := s1.at.Sub(s0.at).Seconds()
	res.Seconds, res.Moves, res.Rate = wall, moves, float64(moves)/wall
	res.Latency, res.Errors = summarize(lat), errs
	res.Server = Server{RSSBeforeMB: mb(before.metrics[metricRSS]), RSSAfterMB: mb(s1.metrics[metricRSS]),
		CPU: cpuCores(s0, s1), Connections: s1.metrics[metricConns],
		MoveP50: 1000 * histQuantile(s0.metrics, s1.metrics, moveBucketPrefix, 0.50),
		MoveP99: 1000 * histQuantile(s0.metrics, s1.metrics, moveBucketPrefix, 0.99)}
	res.LoadtestCPU = (cpu1 - cpu0) / wall
	res.LoadtestWait, res.MachinePressure = (wait1-wait0)/wall, (psi1-psi0)/wall
	if botRooms > 0 {
		res.BotMoves = (s1.metrics[metricBotSearches] - s0.metrics[metricBotSearches]) / wall
		res.BotsRefused = s1.metrics[metricBotRefused] - s0.metrics[metricBotRefused]
	}
	return res, nil
}

// BotsResult compares human latency without and with bots.
type BotsResult struct {
	Without Result  `json:"withoutBots"`
	With    Result  `json:"withBots"`
	Ratio   float64 `json:"p99Ratio"`
}

func (r BotsResult) writeText(w io.Writer) {
	r.Without.writeText(w)
	r.With.writeText(w)
	fmt.Fprintf(w, "human p99 with bots / without: %.2f (target: at most 2)\n", r.Ratio)
}

// bots runs the moves load without and then with the bot rooms.
func (l *load) bots(ctx context.Context) (BotsResult, error) {
	var res BotsResult
	var err error
	if res.Without, err = l.moves(ctx, "without bots", l.cfg.rooms, l.cfg.rate, 0); err != nil {
		return res, err
	}
	if res.With, err = l.moves(ctx, "with bots", l.cfg.rooms, l.cfg.rate, l.cfg.botRooms); err != nil {
		return res, err
	}
	if res.Without.Latency.P99 > 0 {
		res.Ratio = res.With.Latency.P99 / res.Without.Latency.P99
	}
	return res, nil
}

// GrowthResult is the moves load at several sizes.
type GrowthResult struct {
	Steps []Result `json:"steps"`
	// Knee is the index of the first step whose p99 is more than twice the first
	// step's or whose move rate falls 5% short of its target; -1 for none.
	Knee int `json:"knee"`
}

func (r GrowthResult) writeText(w io.Writer) {
	fmt.Fprintf(w, "%6s %7s %8s %8s %8s %8s %8s %8s %8s %9s %9s %6s %9s %8s\n",
		"rooms", "conns", "target/s", "moves/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors", "RSS MB", "srv CPU", "lt CPU", "srv p99<=", "pressure")
	for _, s := range r.Steps {
		var errs int64
		for _, n := range s.Errors {
			errs += n
		}
		fmt.Fprintf(w, "%6d %7d %8.0f %8.0f %8.2f %8.2f %8.2f %8.2f %8d %9.1f %9.2f %6.2f %9g %7.0f%%\n",
			s.Rooms, s.Connections, s.TargetRate, s.Rate, s.Latency.P50, s.Latency.P90, s.Latency.P99, s.Latency.Max,
			errs, s.Server.RSSAfterMB, s.Server.CPU, s.LoadtestCPU, s.Server.MoveP99, 100*s.MachinePressure)
	}
	if r.Knee < 0 {
		fmt.Fprintln(w, "knee: none within these steps")
	} else {
		fmt.Fprintf(w, "knee: at %d rooms\n", r.Steps[r.Knee].Rooms)
	}
}

// knee finds the first step that breaks down (see GrowthResult.Knee).
func knee(steps []Result) int {
	for i, s := range steps {
		if s.Rate < 0.95*s.TargetRate || (i > 0 && s.Latency.P99 > 2*steps[0].Latency.P99) {
			return i
		}
	}
	return -1
}

// growth runs the moves load at each step.
func (l *load) growth(ctx context.Context) (GrowthResult, error) {
	var res GrowthResult
	for _, k := range l.cfg.steps {
		r, err := l.moves(ctx, fmt.Sprintf("%dx", k), k*l.cfg.rooms, float64(k)*l.cfg.rate, 0)
		if err != nil {
			return res, err
		}
		res.Steps = append(res.Steps, r)
		fmt.Fprintf(l.log, "loadtest: %dx: p99 %.2f ms, %.0f moves/s\n", k, r.Latency.P99, r.Rate)
	}
	res.Knee = knee(res.Steps)
	return res, nil
}

package rooms

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the rooms' Prometheus measurements; docs/operations.md explains each.
type Metrics struct {
	liveRooms      prometheus.Gauge
	roomsCreated   prometheus.Counter
	events         *prometheus.CounterVec
	commands       *prometheus.HistogramVec
	commandErrors  *prometheus.CounterVec
	staleAppends   prometheus.Counter
	botSearch      *prometheus.HistogramVec
	botNodes       *prometheus.CounterVec
	botJobsRefused prometheus.Counter
	botPaced       prometheus.Counter
	botQuickMoves  prometheus.Counter
	flagLateness   prometheus.Histogram
}

// NewMetrics creates the rooms' metrics and registers them with reg (nil: not
// registered, for tests).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		liveRooms: prometheus.NewGauge(prometheus.GaugeOpts{Name: "hall_rooms_live",
			Help: "Rooms loaded on this node (watched, or with a bot to move)."}),
		roomsCreated: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_rooms_created_total",
			Help: "Rooms created through this node."}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hall_events_stored_total",
			Help: "Events stored by this node, by type."}, []string{"type"}),
		commands: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "hall_command_seconds",
			Help:    "Time to carry out a client command (decide, store, fan out), by command.",
			Buckets: []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5}}, []string{"command"}),
		commandErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hall_command_errors_total",
			Help: "Commands refused, by error code."}, []string{"code"}),
		staleAppends: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_stale_appends_total",
			Help: "Appends that lost the compare-and-set to another writer."}),
		botSearch: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "hall_bot_search_seconds",
			Help:    "Time of one bot search, by game.",
			Buckets: []float64{.001, .01, .05, .1, .25, .5, 1, 2, 5, 10}}, []string{"game"}),
		botNodes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hall_bot_nodes_total",
			Help: "Positions searched by bots, by game."}, []string{"game"}),
		botJobsRefused: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_bot_jobs_refused_total",
			Help: "Bot searches refused because the bot pool's queue was full."}),
		botPaced: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_bot_moves_paced_total",
			Help: "Bot-vs-bot moves held back to the watchable pace."}),
		botQuickMoves: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_bot_quick_moves_total",
			Help: "Moves of bots on a live clock whose search ran out of time without a move, chosen by a quick search instead."}),
		flagLateness: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "hall_flag_lateness_seconds",
			Help:    "Time from a clock's deadline to its flag (or abort) event's timestamp.",
			Buckets: []float64{.001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5}}),
	}
	if reg != nil {
		reg.MustRegister(m.liveRooms, m.roomsCreated, m.events, m.commands, m.commandErrors,
			m.staleAppends, m.botSearch, m.botNodes, m.botJobsRefused, m.botPaced, m.botQuickMoves, m.flagLateness)
	}
	return m
}

func (m *Metrics) observeCommand(kind CommandKind, took time.Duration, err error) {
	m.commands.WithLabelValues(string(kind)).Observe(took.Seconds())
	if err != nil {
		m.commandErrors.WithLabelValues(string(CodeOf(err))).Inc()
	}
}

func (m *Metrics) observeSearch(game string, took time.Duration, nodes uint64, err error) {
	if err != nil {
		return
	}
	m.botSearch.WithLabelValues(game).Observe(took.Seconds())
	m.botNodes.WithLabelValues(game).Add(float64(nodes))
}

package hub

import "github.com/prometheus/client_golang/prometheus"

// metrics are the hub's Prometheus measurements; docs/operations.md explains each.
type metrics struct {
	conns       prometheus.Gauge
	messagesIn  prometheus.Counter
	messagesOut prometheus.Counter
	errors      *prometheus.CounterVec
	rateLimited prometheus.Counter
	slowDropped prometheus.Counter
	refused     *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		conns: prometheus.NewGauge(prometheus.GaugeOpts{Name: "hall_ws_connections",
			Help: "Open WebSocket connections on this node."}),
		messagesIn: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_ws_messages_in_total",
			Help: "Frames received from clients."}),
		messagesOut: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_ws_messages_out_total",
			Help: "Frames written to clients."}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hall_ws_errors_total",
			Help: "Error answers sent to clients, by code."}, []string{"code"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_ws_rate_limited_total",
			Help: "Client messages refused by the per-connection rate limit."}),
		slowDropped: prometheus.NewCounter(prometheus.CounterOpts{Name: "hall_ws_slow_clients_dropped_total",
			Help: "Connections closed because their send queue was full."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hall_ws_refused_total",
			Help: "Connections or frames refused, by reason (per_ip_limit, upgrade, too_large)."}, []string{"reason"}),
	}
	if reg != nil {
		reg.MustRegister(m.conns, m.messagesIn, m.messagesOut, m.errors, m.rateLimited, m.slowDropped, m.refused)
	}
	return m
}

package router

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the router's Prometheus metrics, in its own registry.
type metrics struct {
	generations *prometheus.CounterVec
	tokens      prometheus.Counter
	failovers   prometheus.Counter
	exclusions  prometheus.Counter
	probes      prometheus.Counter
	roomWaits   prometheus.Counter
	promptWaits prometheus.Counter
	expired     prometheus.Counter
	keepalives  prometheus.Counter
	hopStep     prometheus.Histogram
}

func newMetrics(r *Router, reg *prometheus.Registry) (*metrics, error) {
	m := &metrics{
		generations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_router_generations_total", Help: "Generations by outcome (ok, error, cancelled)."}, []string{"outcome"}),
		tokens: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_tokens_total", Help: "Tokens generated."}),
		failovers: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_failovers_total", Help: "Chains rebuilt after a hop failed mid-generation."}),
		exclusions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_exclusions_total", Help: "Peers left out of new chains after a failure (one per failure event)."}),
		probes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_probes_total", Help: "Chains built through an excluded peer because no other chain existed."}),
		roomWaits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_room_waits_total", Help: "Generations of a prompt batch refused for want of room on the nodes that waited for another of the batch to end (router.Waves)."}),
		promptWaits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_prompt_waits_total", Help: "Generations of a prompt batch that waited for others' prompt steps before starting theirs (router.Waves)."}),
		expired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_expired_total", Help: "Nodes dropped from the view because their record expired: stopped without withdrawing, or not renewed in time."}),
		keepalives: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_router_keepalives_total", Help: "Keepalives sent to a chain's hops that had no frame for a quarter of their node's idle timeout."}),
		hopStep: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "svc_router_hop_step_seconds", Help: "Wall time of one step on one hop, network included.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18)}),
	}
	sessions := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_router_sessions_open", Help: "Sessions this router holds open on nodes."},
		func() float64 {
			r.mu.Lock()
			defer r.mu.Unlock()
			n := 0
			for _, c := range r.inflight {
				n += c
			}
			return float64(n)
		})
	nodes := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_router_nodes", Help: "Nodes in the swarm view."},
		func() float64 {
			r.mu.Lock()
			defer r.mu.Unlock()
			return float64(len(r.nodes))
		})
	for _, c := range []prometheus.Collector{m.generations, m.tokens, m.failovers, m.exclusions, m.probes, m.roomWaits, m.promptWaits, m.expired, m.keepalives, m.hopStep, sessions, nodes} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("router: register metrics: %w", err)
		}
	}
	return m, nil
}

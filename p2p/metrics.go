package p2p

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"svc/shards/model"
)

// nodeMetrics are a node's Prometheus metrics, in the node's own registry
// (several nodes may share a process).
type nodeMetrics struct {
	steps     prometheus.Counter
	positions prometheus.Counter
	stepTime  prometheus.Histogram
	errors    *prometheus.CounterVec
	opened    prometheus.Counter
	// keepalives counts the keepalives received, refused ones included.
	keepalives prometheus.Counter

	batchSessions  prometheus.Histogram
	batchPositions prometheus.Histogram
	queueWait      prometheus.Histogram
}

func newNodeMetrics(n *Node, reg *prometheus.Registry) (*nodeMetrics, error) {
	labels := prometheus.Labels{"model": n.name, "blocks": fmt.Sprintf("%d:%d", n.first, n.last)}
	m := &nodeMetrics{
		steps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_node_steps_total", Help: "Forward steps computed.", ConstLabels: labels}),
		positions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_node_positions_total", Help: "Positions (tokens) computed.", ConstLabels: labels}),
		stepTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "svc_node_step_seconds", Help: "Compute time of one forward step.", ConstLabels: labels,
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18)}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_node_stream_errors_total", Help: "Forward streams ended with an error, by code.", ConstLabels: labels},
			[]string{"code"}),
		opened: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_node_sessions_opened_total", Help: "Sessions opened.", ConstLabels: labels}),
		keepalives: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_node_keepalives_total", Help: "Keepalives received on sessions' streams (refused ones included).", ConstLabels: labels}),
		batchSessions: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "svc_node_batch_sessions", Help: "Steps (sessions) computed together in one batch.", ConstLabels: labels,
			Buckets: []float64{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256}}),
		batchPositions: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "svc_node_batch_positions", Help: "Positions (tokens) computed together in one batch.", ConstLabels: labels,
			Buckets: prometheus.ExponentialBuckets(1, 2, 10)}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "svc_node_queue_seconds", Help: "Time a step waited for the shard before its batch started.", ConstLabels: labels,
			Buckets: prometheus.ExponentialBuckets(0.00001, 2, 20)}),
	}
	sessions := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_node_sessions_open", Help: "Sessions currently open.", ConstLabels: labels},
		func() float64 { return float64(n.Sessions()) })
	free := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_node_cache_tokens_free", Help: "Cache positions new sessions can still reserve.", ConstLabels: labels},
		func() float64 {
			n.mu.Lock()
			sh := n.shard
			n.mu.Unlock()
			if sh == nil {
				return 0
			}
			return float64(sh.FreeTokens())
		})
	// The prompt cache's figures, read from the shard when scraped.
	pcache := func(f func(model.PromptCacheStats) float64) func() float64 {
		return func() float64 {
			n.mu.Lock()
			sh := n.shard
			n.mu.Unlock()
			if sh == nil {
				return 0
			}
			return f(sh.PromptCacheStats())
		}
	}
	pcHits := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "svc_node_prompt_cache_hits_total", Help: "Sessions' first steps answered from the prompt cache.", ConstLabels: labels},
		pcache(func(s model.PromptCacheStats) float64 { return float64(s.Hits) }))
	pcMisses := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "svc_node_prompt_cache_misses_total", Help: "Sessions' first steps computed (not found in the prompt cache).", ConstLabels: labels},
		pcache(func(s model.PromptCacheStats) float64 { return float64(s.Misses) }))
	pcEntries := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_node_prompt_cache_entries", Help: "First steps held in the prompt cache.", ConstLabels: labels},
		pcache(func(s model.PromptCacheStats) float64 { return float64(s.Entries) }))
	pcBytes := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "svc_node_prompt_cache_bytes", Help: "Bytes of keys, values and outputs held in the prompt cache.", ConstLabels: labels},
		pcache(func(s model.PromptCacheStats) float64 { return float64(s.Bytes) }))
	for _, c := range []prometheus.Collector{m.steps, m.positions, m.stepTime, m.errors, m.opened, m.keepalives, m.batchSessions, m.batchPositions, m.queueWait, sessions, free, pcHits, pcMisses, pcEntries, pcBytes} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("p2p: register metrics: %w", err)
		}
	}
	return m, nil
}

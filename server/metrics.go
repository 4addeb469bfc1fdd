package server

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the API's Prometheus series.
type metrics struct {
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	tokens       *prometheus.CounterVec
	promptTokens *prometheus.CounterVec
	cachedTokens *prometheus.CounterVec
	// Managed variant: by key name (bounded by the keys issued) and model
	// (only names the deployment serves, else "").
	keyRequests *prometheus.CounterVec
	keyTokens   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_requests_total",
			Help: "HTTP requests answered by the /v1 API, by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "svc_api_request_duration_seconds",
			Help:    "Time until the handler returned (for streams: until the first token), by route.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10),
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "svc_api_requests_in_flight",
			Help: "Requests being answered, streams included until their last event.",
		}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_generated_tokens_total",
			Help: "Completion tokens generated, by model.",
		}, []string{"model"}),
		promptTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_prompt_tokens_total",
			Help: "Prompt tokens sent for generation, by model.",
		}, []string{"model"}),
		cachedTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_cached_prompt_tokens_total",
			Help: "Prompt tokens of finished generations that every node answered from its prompt cache (usage's cached_tokens), by model.",
		}, []string{"model"}),
		keyRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_key_requests_total",
			Help: "Requests with a valid API key (managed variant), by key name, model and status code.",
		}, []string{"key", "model", "code"}),
		keyTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_api_key_generated_tokens_total",
			Help: "Completion tokens generated (managed variant), by key name and model.",
		}, []string{"key", "model"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.inFlight, m.tokens, m.promptTokens, m.cachedTokens, m.keyRequests, m.keyTokens} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) observe(route string, code int, d time.Duration) {
	m.requests.WithLabelValues(route, statusLabel(code)).Inc()
	if d > 0 {
		m.duration.WithLabelValues(route).Observe(d.Seconds())
	}
}

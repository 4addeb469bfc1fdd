// Package server is the OpenAI-compatible /v1 HTTP API of the local variant,
// on fasthttp. It validates requests, resolves the model name (or the
// deployment's default), renders the model's chat template, tokenizes, asks a
// router.Backend for a greedy generation and answers as one JSON body or as a
// Server-Sent Events stream. It owns SPEC.md §7's error table for the local
// variant and exposes Prometheus metrics on /metrics. It knows nothing of how
// a route through the swarm is found: that is the router's job.
package server

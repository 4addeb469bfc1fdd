// Package swarm holds svc's end-to-end tests of a swarm under failure and
// load: real `svc node` processes and a `svc serve --bootstrap` gateway on
// 127.0.0.1, driven by the OpenAI Go SDK (and plain net/http where the exact
// status and body matter), while nodes are killed (SIGKILL), stopped
// (SIGTERM), frozen (SIGSTOP) and restarted.
//
// TestSwarm builds cmd/svc once and runs, each on a swarm of its own:
//
//   - failover: a node is SIGKILLed in the middle of a streamed generation
//     (found by freezing the gateway for a moment and reading which node
//     has a session open); with a spare holding the same blocks the stream
//     completes with exactly the undisturbed answer, without one the stream
//     ends with an error event (or the request with a 503) in SPEC's shape
//     within seconds; a client that leaves mid-stream closes the chain; no
//     session stays open anywhere.
//   - frozen hop: a node that stops answering (SIGSTOP) mid-generation is
//     given up at the router's step deadline and the generation completes
//     on the spare; once thawed, the node closes the abandoned session; a
//     gateway SIGKILLed mid-stream leaves no session open on the nodes.
//   - swarm view while a node is frozen: the model stays listed and
//     servable through the other holder.
//   - capacity: while one generation fills the only node's cache, another
//     request gets 503 route_unavailable at once, and is served later.
//   - steady view with short record TTL: a healthy swarm never blinks out
//     of /v1/models with 3 s or 6 s records.
//   - soak (bounded: 75 s of churn, about 80 s in all): concurrent streamed
//     requests while nodes are stopped and restarted, never all holders of
//     a range at once; every answer is exact or an error of SPEC's local
//     table, nothing hangs, the gateway's memory stays flat, nothing is
//     left open.
//   - churn (#14, about 70 s): four nodes with their own keys (two
//     replicas each of [0,3) and [3,5), 6 s records), six clients streamed
//     and not, while replicas are SIGKILLed and restarted with their keys
//     (the partner of a restarted replica killed the moment it announces),
//     one is frozen for 18 s, and a whole range is lost and restored: every
//     answer exact or a SPEC error, at least 99.9% served while every range
//     had a live replica, a restarted replica alone for its range and a
//     restored range serve within 2 s of announcing, publish warnings back
//     off, nodes export runtime metrics, nothing left open. The log has the
//     counts per phase.
//
// The package has no non-test code. The whole run takes about 2.5 to 3 minutes
// on 2 cores; -short skips it.
package swarm

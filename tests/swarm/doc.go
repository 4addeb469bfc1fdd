// Package swarm holds svc's end-to-end tests of a swarm under failure and
// load: real `svc node` processes and a `svc serve --bootstrap` gateway on
// 127.0.0.1, driven by the OpenAI Go SDK, while nodes are killed (SIGKILL),
// stopped (SIGTERM) and restarted.
//
// The tests check what issue 6 promises a user: a generation survives the
// loss of a node when another holds the same blocks, and yields exactly the
// tokens of an undisturbed run; without a replacement it ends promptly with
// an error in SPEC's shape; under a bounded soak of concurrent streams and
// node churn every answer is either exactly right or an error from SPEC's
// local-variant table, memory stays flat, and no session is left open.
//
// The package has no non-test code; run it with
//
//	go test ./tests/swarm/
//
// It builds the svc binary once per run and takes a few minutes (the soak
// alone is bounded to about a minute and a half). -short skips it.
package swarm

// Package swarmtest builds real swarms inside one test process: libp2p nodes
// on 127.0.0.1 holding given block ranges of a model (sharing one opened
// model, or each opening its own file), a bare client endpoint, and a router
// that joined them over the DHT. Everything it starts is closed at the test's
// cleanup, and waits are event waits (Router.WaitModel) or bounded polls of
// in-process counters, never fixed sleeps.
//
//	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Ranges: [][2]int{{0, 2}, {2, 5}}})
//	sw.WaitServed(t, "stories260K")
//	res, err := sw.Router.Generate(ctx, router.GenerateRequest{...}, emit)
//	sw.WaitNoSessions(t)
//
// Nodes get short timers suited to tests (Config.Node overrides any field:
// RecordTTL, CacheTokens, IdleTimeout…); the first node is every later
// node's and the router's bootstrap peer. AddNode starts one more node
// (a replica, or the missing range) in the same swarm. Node and Client start
// single pieces for tests that assemble a swarm by hand.
//
// The package imports p2p and router, so tests inside those packages that
// use it are external test packages (p2p_test, router_test).
package swarmtest

// Package localswarm runs a whole swarm inside one process: for each model,
// a few libp2p nodes on loopback that hold an even share of its blocks, and
// a router that joins them (and, through Config.Bootstrap, any swarm
// outside). It is what "svc serve --model" starts, and what tests start
// when they need a real swarm without separate processes.
//
// Start returns once every node is online; WaitServed then waits until the
// router's view holds each model in full, so that a first request does not
// race the nodes' announcements. Close stops the router, then the nodes,
// then closes the models the swarm opened.
package localswarm

// Package managed holds the end-to-end tests of the managed variant: a
// coordinator and its machines as real processes (svc-coordinator,
// svc-node-agent, svc) in temporary directories on 127.0.0.1, driven
// through their command lines the way an operator would.
package managed

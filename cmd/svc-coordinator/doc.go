// Command svc-coordinator is the managed deployment's authority: init
// creates the deployment (CA, state), run is the daemon, and every other
// command is an operator command sent to the running daemon over its admin
// socket. Its command reference is docs/cli/svc-coordinator*.md, generated
// from this program (go test ./cmd/svc-coordinator -run TestDocs -update).
package main

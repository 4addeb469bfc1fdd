// Package coordinator is the managed variant's authority: the daemon behind
// svc-coordinator. It owns the deployment CA (coordinator/ca), the state
// database (coordinator/store), the audit trail (coordinator/audit) and the
// licence (coordinator/licence), signs the roster that admits members
// (coordinator/trust), enrols machines over libp2p, and answers the
// operator's commands on a local admin socket.
//
// Files (each path has a flag and an environment override):
//
//	/etc/svc/coordinator.toml   configuration (unknown keys are an error)
//	/etc/svc/ca.crt             the deployment CA, world-readable
//	/var/lib/svc-coordinator/   state.db (bbolt), admin.sock (0600), node.key
//
// Every command's change is committed (fsync) before the daemon answers,
// in the same bbolt transaction as its audit record, so a SIGKILL at any
// moment loses nothing that was reported done and never leaves a change
// without its record. Operator commands never open the database: they send
// one JSON request over the admin socket and the daemon, which knows the
// caller from SO_PEERCRED, executes it. Commands are registered by name in a
// table (Daemon.Handle), so other rooms add theirs without touching the
// dispatcher.
//
// Running, the daemon has two libp2p hosts with the coordinator's one key.
// The swarm host (swarm_port) is a DHT server whose admission is its own
// roster (trust.Trust): only certified members connect; it serves and pushes
// the roster, model slices and reports. The enrolment host (enrol_port)
// answers only p2p.EnrolProtocol, and its connection gater refuses every
// address the firewall state (firewall open --from --for) does not allow,
// before any handshake. Every committed change re-signs the roster (its
// version is a counter in the database, so it only grows across restarts);
// the swarm part pushes it to every connected member first and only then
// closes the connections of members it no longer admits, so a removed
// machine learns of its removal and exits. Machine connections and
// disconnections are recorded (machine.online, machine.offline) by the
// swarm part's goroutine, never from libp2p's notification callbacks.
package coordinator

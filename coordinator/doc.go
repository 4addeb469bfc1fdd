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
package coordinator

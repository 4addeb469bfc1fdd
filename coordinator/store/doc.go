// Package store is the coordinator's state: one bbolt file in the state
// directory. Every Update commits with an fsync before it returns, so a
// change that a command reported as done survives a SIGKILL or a power loss;
// bbolt's file lock keeps a second daemon (or a stray operator command) from
// opening the file behind the running one. Values are JSON under string keys,
// one bucket per kind of thing (Buckets); Backup streams a consistent
// snapshot of the whole file from one read transaction.
package store

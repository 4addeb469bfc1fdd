// Package audit is the coordinator's tamper-evident audit trail: records
// (time, actor, kind, target, outcome, reference, detail) appended in the
// same bbolt transaction as the change they describe, each carrying the
// sha256 of its own content and of the previous record, with the head
// (last sequence number and hash) kept apart. Verify walks the chain and
// names the first record that was edited or removed; a removed tail shows
// against the head. Show filters by time, kind, actor and reference;
// Export writes a period as JSON lines or CSV.
//
// Someone who can rewrite the database file can also recompute every hash
// after an edit: the chain detects edits made without the coordinator's
// code, and exported copies (or backups) anchor what was there before.
package audit

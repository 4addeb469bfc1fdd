// Package placement decides which machines hold which blocks of a model:
// contiguous block ranges over the machines that are online, in proportion
// to the memory each reports, every block covered, with further copies
// where memory allows. It is a pure function of its inputs, so the
// coordinator computes the same placement from the same state.
//
// The first copy splits the blocks at the points where the cumulative cost
// of the blocks (the bytes of their tensors) crosses each machine's share
// of the total memory, machines taken in the order of their ids; when a
// range would not fit its machine, it falls back to filling the largest
// machines first with the longest run that fits. Copy k (up to the number
// of machines) keeps the first copy's ranges and hands range j to the
// machine k-1 places further in that order, so that no machine holds a
// block twice; a range that does not fit in what its machine has left is
// skipped (fewer copies of those blocks, never a placement error). Only a
// first copy that cannot be made at all is an error (ErrInsufficient).
// A range takes its blocks' bytes and, on its machine, Machine.RangeCost
// of the range more where that is set: the caches
// of the node that serves it, which the coordinator computes from what the
// machine's agent reports (agent.toml's prompt_cache and kv_cache, the
// latter bounding the keys and values its sessions hold: a fixed size, or
// with kv_cache auto a cost that grows with the range's
// blocks, 2GiB or one session of the model's whole context on them where
// that is more), so that a machine planned full stays within its memory
// under load.
package placement

package model

// Rest tells the shard's worker pool that no forward step follows at once,
// so that its idle workers park instead of spinning (tensor.Pool.Rest). A
// scheduler calls it when its queue runs empty; results never change.
func (s *Shard) Rest() { s.pool.Rest() }

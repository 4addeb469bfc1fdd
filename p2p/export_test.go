package p2p

// Crash stops the node as a killed process would: no withdrawal, the
// records it pushed stay in the DHT until they expire.
func (n *Node) Crash() {
	n.closeOnce.Do(func() {
		n.mu.Lock()
		n.closing = true
		for s := range n.streams {
			_ = s.Reset()
		}
		n.mu.Unlock()
		n.cancel()
		n.loop.Wait()
		_ = n.ep.Close()
		n.handlers.Wait()
		if n.shard != nil {
			n.shard.Close()
		}
		if n.ownModel {
			_ = n.m.Close()
		}
	})
}

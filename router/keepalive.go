package router

import (
	"context"
	"sync"
	"time"

	"svc/p2p"
)

// A chain steps its hops one after the other, so while one hop's step
// waits in its node's queue (many long prompts at once) or the client
// reads slowly, the other hops get no frame, and a node ends a session
// idle for its idle timeout: the generation failed over, replayed, and
// could lose its sessions again. So while a chain holds its hops, a
// keeper per hop sends a keepalive (p2p.Session.KeepIdle) each time that
// hop has gone a quarter of its node's announced idle timeout without a
// frame. Nodes that announce no idle timeout (older ones, which would
// refuse the request) get none: their sessions end as before.

// keepHops starts a keeper for every hop of the chain that takes
// keepalives; they run until stopKeeping (closeHops), or until ctx (the
// generation's) ends.
func (c *chain) keepHops(ctx context.Context) {
	c.stopKeeping()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, h := range c.hops {
		if h.KeepAliveEvery() <= 0 {
			continue
		}
		wg.Go(func() { c.keep(ctx, h, stop) })
	}
	c.stopKeep = func() {
		close(stop)
		wg.Wait()
	}
}

// keep sends h a keepalive whenever it has gone its KeepAliveEvery without
// a frame, looking twice as often. It stops at stop, at ctx's end, or when
// a keepalive fails: the session is broken then, and the chain's next step
// there fails over as it would have after the idle timeout.
func (c *chain) keep(ctx context.Context, h *p2p.Session, stop <-chan struct{}) {
	t := time.NewTicker(h.KeepAliveEvery() / 2)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sent, err := h.KeepIdle(ctx)
		if err != nil {
			c.r.log.Debug("keepalive failed", "peer", h.Peer(), "err", err)
			return
		}
		if sent {
			c.r.met.keepalives.Inc()
		}
	}
}

// stopKeeping stops the hops' keepers and waits for them (a keepalive
// under way ends first), so that the sessions can be closed.
func (c *chain) stopKeeping() {
	if c.stopKeep != nil {
		c.stopKeep()
		c.stopKeep = nil
	}
}

// keepEvery is how long a hop whose node announces keepalives every
// announced may go without a frame: announced, or Config.KeepAlive when
// shorter; 0 (none) for a node that announces none.
func (r *Router) keepEvery(announced time.Duration) time.Duration {
	if announced > 0 && r.cfg.KeepAlive > 0 {
		return min(announced, r.cfg.KeepAlive)
	}
	return announced
}

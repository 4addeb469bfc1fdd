package router

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p"
	"svc/p2p/wire"
)

// exclusion is what the router holds against a peer whose hop failed: the
// peer is left out of new chains until `until` (but probed when a chain
// needs it), for a time that doubles with each failure in a row.
type exclusion struct {
	until    time.Time
	failures int       // failures in a row; a success halves the back-off
	failedAt time.Time // when the last failure was seen
	// seq and addrs are the peer's record in the view at that failure: a
	// newer record (signed after the failure, or with other addresses)
	// is evidence the peer is back, and ends the exclusion.
	seq   uint64
	addrs string
	// full: a generation's exclusion of a peer that refused for want of
	// cache room (not a failure).
	full bool
}

// lifts reports whether a record is evidence that the peer is back.
func (e *exclusion) lifts(a *wire.Announcement) bool {
	if a.Seq <= e.seq {
		return false
	}
	// Seq is the signing time in unix nanoseconds.
	return time.Unix(0, int64(a.Seq)).After(e.failedAt) || addrsKey(a) != e.addrs
}

// addrsKey is a record's addresses as one comparable string.
func addrsKey(a *wire.Announcement) string {
	as := slices.Clone(a.Addrs)
	slices.SortFunc(as, bytes.Compare)
	return string(bytes.Join(as, []byte{0}))
}

// blames tells whether err says the peer is at fault (unreachable, reset,
// timed out, broken). A refusal for lack of room, a request the caller got
// wrong, the caller's own cancellation, or a dial the local host refused
// because of its own dial back-off is no reason to shun the peer.
func blames(ctx context.Context, err error) bool {
	if ctx.Err() != nil || p2p.IsDialBackoff(err) {
		return false
	}
	var re *p2p.RemoteError
	if errors.As(err, &re) {
		switch re.Code {
		case wire.Code_NO_CAPACITY, wire.Code_NOT_READY, wire.Code_BAD_REQUEST, wire.Code_TOO_LONG, wire.Code_SESSION_EXISTS:
			return false
		}
	}
	return true
}

// blame excludes a peer after a failure of an attempt that began at
// `began`. Failures of attempts that began before the last failure was
// seen are the same event (several generations losing one dead node) and
// count once.
func (r *Router) blame(ctx context.Context, p peer.ID, err error, began time.Time) {
	if !blames(ctx, err) {
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.excl[p]
	if e == nil {
		e = &exclusion{}
		r.excl[p] = e
	}
	if !e.failedAt.IsZero() && e.failedAt.After(began) && e.until.After(now) {
		return // already counted
	}
	e.failures++
	d := r.cfg.Backoff << min(e.failures-1, 30)
	if d > r.cfg.MaxBackoff || d <= 0 {
		d = r.cfg.MaxBackoff
	}
	e.until, e.failedAt = now.Add(d), now
	e.seq, e.addrs = 0, ""
	if m, ok := r.nodes[p]; ok {
		e.seq, e.addrs = m.Record.Seq, addrsKey(m.Record)
	}
	r.met.exclusions.Inc()
	r.log.Info("peer excluded after a failure", "peer", p, "for", d, "failures", e.failures, "err", err)
}

// succeeded records that a peer served: its exclusion ends, and the
// back-off its next failure earns is halved.
func (r *Router) succeeded(p peer.ID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.excl[p]
	if e == nil {
		return
	}
	e.until = time.Time{}
	e.failures-- // the back-off doubles per failure; a success halves it
	if e.failures <= 0 {
		delete(r.excl, p)
	}
}

// excluded reports whether p is left out of new chains now.
func (r *Router) excluded(p peer.ID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.excl[p]
	return e != nil && e.until.After(time.Now())
}

// readdress looks for a newer record of p than the view holds (from the
// node, else from the DHT); when it finds one it applies it, re-addresses
// the peer and reports true. Either way the host's dial back-off for p is
// cleared: the next dial goes out.
func (r *Router) readdress(ctx context.Context, p peer.ID) bool {
	r.mu.Lock()
	var seq uint64
	if m, ok := r.nodes[p]; ok {
		seq = m.Record.Seq
	}
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, readdressTimeout)
	defer cancel()
	m, err := r.ep.Lookup(ctx, p)
	if err != nil || m.Withdrawn || m.Record.Seq <= seq {
		r.ep.Readdress(p, nil)
		return false
	}
	r.apply([]p2p.Member{*m}, time.Now())
	r.ep.Readdress(p, m.Record.Addrs)
	return true
}

// readdressTimeout bounds the search for a newer record of an unreachable
// peer, inside a request.
const readdressTimeout = 2 * time.Second

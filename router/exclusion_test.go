package router

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"

	"svc/p2p"
	"svc/p2p/wire"
)

// exclusionRouter is a router with no swarm, for the exclusion rules.
func exclusionRouter(t *testing.T) *Router {
	t.Helper()
	r, err := New(t.Context(), Config{Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Backoff: time.Second, MaxBackoff: 8 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// exclusionOf is p's last back-off (from its failure to the end of its
// exclusion: exact, however late the test reads it) and its failures in a
// row.
func (r *Router) exclusionOf(p peer.ID) (time.Duration, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.excl[p]
	if e == nil {
		return 0, 0
	}
	return e.until.Sub(e.failedAt), e.failures
}

func TestExclusionBackoff(t *testing.T) {
	r := exclusionRouter(t)
	ctx := context.Background()
	const p = peer.ID("peer-a")
	reset := errors.New("stream reset")

	// Each failure in a row doubles the exclusion, up to MaxBackoff.
	for i, want := range []time.Duration{1, 2, 4, 8, 8} {
		r.blame(ctx, p, reset, time.Now())
		if got, n := r.exclusionOf(p); got != want*time.Second || n != i+1 {
			t.Fatalf("failure %d: excluded for %s (%d failures), want %s", i+1, got, n, want*time.Second)
		}
	}
	// A failure of an attempt that began before the last failure was seen
	// is the same event: counted once.
	r.blame(ctx, p, reset, time.Now().Add(-time.Minute))
	if _, n := r.exclusionOf(p); n != 5 {
		t.Fatalf("an old attempt's failure counted again: %d failures", n)
	}
	// A success ends the exclusion and halves the next back-off.
	r.succeeded(p)
	if r.excluded(p) {
		t.Fatal("still excluded after a success")
	}
	r.blame(ctx, p, reset, time.Now())
	if got, n := r.exclusionOf(p); got != 8*time.Second || n != 5 {
		t.Fatalf("after a success then a failure: %s, %d failures; want 8s, 5", got, n)
	}
	for range 5 {
		r.succeeded(p)
	}
	if got, n := r.exclusionOf(p); got != 0 || n != 0 {
		t.Fatalf("after five successes: %s, %d failures; want none", got, n)
	}

	// Refusals, the caller's own cancellation and the local dial back-off
	// are nobody's fault.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		ctx context.Context
		err error
	}{
		{ctx, &p2p.RemoteError{Code: wire.Code_NO_CAPACITY}},
		{ctx, &p2p.RemoteError{Code: wire.Code_NOT_READY}},
		{ctx, fmt.Errorf("open session: %w", &swarm.DialError{Peer: p, Cause: swarm.ErrDialBackoff})},
		{cancelled, reset},
	} {
		if blames(c.ctx, c.err) {
			t.Errorf("%v is blamed", c.err)
		}
	}
	if !blames(ctx, reset) || !blames(ctx, fmt.Errorf("open session: %w", &swarm.DialError{Peer: p, Cause: errors.New("connection refused")})) {
		t.Error("a reset stream or a refused connection is not blamed")
	}
}

func TestNewerAnnouncementLiftsExclusion(t *testing.T) {
	failedAt := time.Now()
	old := &wire.Announcement{Seq: uint64(failedAt.Add(-time.Second).UnixNano()), Addrs: [][]byte{[]byte("a")}}
	e := &exclusion{until: failedAt.Add(time.Minute), failedAt: failedAt, seq: old.Seq, addrs: addrsKey(old)}
	for _, c := range []struct {
		name string
		a    *wire.Announcement
		want bool
	}{
		{"the same record", old, false},
		{"an older record", &wire.Announcement{Seq: old.Seq - 1, Addrs: old.Addrs}, false},
		{"re-signed before the failure, same addresses", &wire.Announcement{Seq: old.Seq + 1, Addrs: old.Addrs}, false},
		{"re-signed before the failure, new addresses", &wire.Announcement{Seq: old.Seq + 1, Addrs: [][]byte{[]byte("b")}}, true},
		{"signed after the failure", &wire.Announcement{Seq: uint64(failedAt.Add(time.Millisecond).UnixNano()), Addrs: old.Addrs}, true},
	} {
		if got := e.lifts(c.a); got != c.want {
			t.Errorf("%s: lifts %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRouteErrorReason(t *testing.T) {
	for _, c := range []struct {
		e    RouteError
		want string
	}{
		{RouteError{Model: "m", First: 3, Last: 5}, "blocks 3..4 have no online holder"},
		{RouteError{Model: "m", First: 4, Last: 5, Excluded: 2}, "block 4 has no usable holder: 2 holders are left out after failures"},
		{RouteError{Model: "m", First: 0, Last: 3, Excluded: 1, Busy: 1}, "blocks 0..2 have no usable holder: 1 holder is left out after failures, 1 holder is full"},
		{RouteError{Model: "m"}, "the ranges of the nodes holding it do not chain from the first block to the last"},
	} {
		if got := c.e.Reason(); got != c.want {
			t.Errorf("Reason() = %q, want %q", got, c.want)
		}
		if !errors.Is(&c.e, ErrRouteUnavailable) || !strings.Contains(c.e.Error(), `"m"`) {
			t.Errorf("%v is not ErrRouteUnavailable naming the model", &c.e)
		}
	}
}

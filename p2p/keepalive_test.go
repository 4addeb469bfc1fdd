package p2p

import (
	"context"
	"strings"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/shards/model"
)

// keepNode starts a node of the whole stories260K with cfg's idle timeout
// and keepalive limit, and a client endpoint.
func keepNode(t *testing.T, ctx context.Context, idle, limit time.Duration) (*Node, *Endpoint) {
	t.Helper()
	n, err := NewNode(ctx, NodeConfig{
		ModelPath: testenv.Path(t, "models", "stories260K.gguf"), First: 0, Last: 5, Threads: 1,
		Listen: []string{"/ip4/127.0.0.1/tcp/0"}, IdleTimeout: idle, KeepAliveLimit: limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return n, client(t, ctx, n.Addrs())
}

// keepUntil sends s a keepalive whenever one is due until d has passed
// since from or one fails, and returns the failure.
func keepUntil(ctx context.Context, s *Session, from time.Time, d time.Duration) error {
	for time.Since(from) < d {
		if _, err := s.KeepIdle(ctx); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.KeepAliveEvery() / 4):
		}
	}
	return nil
}

// keepalives reads the node's svc_node_keepalives_total.
func keepalives(t *testing.T, n *Node) float64 {
	t.Helper()
	mfs, err := n.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "svc_node_keepalives_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("no svc_node_keepalives_total")
	return 0
}

// A node announces its idle timeout, which says it takes keepalives; they
// keep a session that gets no step for longer than that timeout, cache
// and all, but only up to the node's limit after the session's last step:
// then the node refuses the keepalive and ends the session. The caller
// keeps the session far more often than the announcement asks, so that a
// loaded test process stalled for nearly the idle timeout does not lose
// it, and the first keepalives end well within the limit.
func TestKeepAliveLimit(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	const idle, limit = 2 * time.Second, 4 * time.Second
	n, c := keepNode(t, ctx, idle, limit)
	every := KeepAliveEvery(n.served())
	if got := n.served().IdleTimeoutMs; got != uint32(idle.Milliseconds()) || every != idle/4 {
		t.Fatalf("announced idle timeout %d ms, keepalives every %v; want %v, %v", got, every, idle, idle/4)
	}
	s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "kept", Digest: n.Digest(), First: 0, Last: 5, MaxLength: 8, Dim: 64, KeepAlive: minKeepAlive})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Reset()
	// Longer than the idle timeout without a step, well within the limit.
	if err := keepUntil(ctx, s, time.Now(), idle*5/4); err != nil {
		t.Fatalf("keepalive within the limit: %v", err)
	}
	if got := keepalives(t, n); got < 1 {
		t.Fatalf("%v keepalives reached the node", got)
	}
	// Taken before the step, whose time the node's limit counts from.
	stepped := time.Now()
	out, err := s.Forward(ctx, model.Input{Tokens: []int32{1, 403, 407}, Logits: model.LogitsLast})
	if err != nil || len(out.Argmax) != 1 {
		t.Fatalf("step after %v of keepalives: %+v, %v", idle*5/4, out, err)
	}
	err = keepUntil(ctx, s, stepped, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "keepalives keep a session at most 4s after its last step") {
		t.Fatalf("keepalives past the limit: %v", err)
	}
	if d := time.Since(stepped); d < limit {
		t.Fatalf("keepalive refused %v after the last step, before the %v limit", d, limit)
	}
	if _, err := s.Forward(ctx, model.Input{Tokens: []int32{261}, Logits: model.LogitsLast}); err == nil {
		t.Fatal("a step on a session whose keepalive was refused succeeded")
	}
	waitSessions(t, n, 0)
}

// A node that takes no keepalives (as nodes before them) announces no idle
// timeout, so a caller opens its sessions with none due, and KeepIdle
// sends it nothing however long the session idles. Sent one anyway, it
// refuses it as a request of no known kind, ending the session: why a
// router must not. The node's idle timeout is long, so that a stalled
// test process does not end the sessions first.
func TestKeepAliveNotAnnounced(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	const idle = time.Minute
	n, c := keepNode(t, ctx, idle, -1)
	if got, every := n.served().IdleTimeoutMs, KeepAliveEvery(n.served()); got != 0 || every != 0 {
		t.Fatalf("a node without keepalives announces an idle timeout of %d ms, keepalives every %v", got, every)
	}
	s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "plain", Digest: n.Digest(), First: 0, Last: 5, MaxLength: 8, Dim: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Reset()
	for range 3 {
		if sent, err := s.KeepIdle(ctx); sent || err != nil {
			t.Fatalf("KeepIdle to a node that announces none: sent %v, %v", sent, err)
		}
		time.Sleep(2 * minKeepAlive) // longer than any keepalive interval
	}
	if got := keepalives(t, n); got != 0 {
		t.Fatalf("the node got %v keepalives", got)
	}

	forced, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: "forced", Digest: n.Digest(), First: 0, Last: 5, MaxLength: 8, Dim: 64, KeepAlive: minKeepAlive})
	if err != nil {
		t.Fatal(err)
	}
	defer forced.Reset()
	time.Sleep(minKeepAlive)
	if _, err := forced.KeepIdle(ctx); err == nil || !strings.Contains(err.Error(), "request of no known kind") {
		t.Fatalf("a keepalive to a node that takes none: %v", err)
	}
}

package p2p

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/testenv"
)

// A node's Gate refuses new sessions with its reason while it says no.
func TestNodeGate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var expired atomic.Bool
	n, err := NewNode(ctx, NodeConfig{
		ModelPath: testenv.Path(t, "models", "stories260K.gguf"), First: 2, Last: 5, Threads: 1,
		Listen: []string{"/ip4/127.0.0.1/tcp/0"},
		Gate: func() error {
			if expired.Load() {
				return errors.New("the deployment's licence expired")
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	c := client(t, ctx, n.Addrs())
	open := func(id string) error {
		s, err := OpenSession(ctx, c.Host, n.ID(), SessionOptions{ID: id, Digest: n.Digest(), First: 2, Last: 5, MaxLength: 8, Dim: 64})
		if err == nil {
			_ = s.Close()
		}
		return err
	}
	if err := open("before"); err != nil {
		t.Fatalf("open while the gate is open: %v", err)
	}
	expired.Store(true)
	if err := open("after"); err == nil || !strings.Contains(err.Error(), "licence expired") {
		t.Fatalf("open while the gate is shut: %v", err)
	}
}

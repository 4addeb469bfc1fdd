package server

import (
	"context"
	"testing"
	"time"

	"svc/p2p"
	"svc/router"
	"svc/shards/chattmpl"
	"svc/shards/model"
	"svc/shards/tokenizer"
)

// swarm is a real swarm in this process: one libp2p node per range
// (sharing one opened model), and a router that joined them over the DHT.
type swarm struct {
	backend router.Backend
	rt      *router.Router
	nodes   []*p2p.Node
	m       *model.Model
}

func startSwarm(t *testing.T, path string, ranges [][2]int) *swarm {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sw := &swarm{m: m}
	t.Cleanup(func() {
		if sw.rt != nil {
			_ = sw.rt.Close()
		}
		for _, n := range sw.nodes {
			_ = n.Close()
		}
		_ = m.Close()
	})
	var boot []string
	for _, r := range ranges {
		n, err := p2p.NewNode(ctx, p2p.NodeConfig{
			Model: m, First: r[0], Last: r[1],
			Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Bootstrap: boot, Threads: 1,
		})
		if err != nil {
			t.Fatalf("node [%d,%d): %v", r[0], r[1], err)
		}
		sw.nodes = append(sw.nodes, n)
		if boot == nil {
			boot = n.Addrs()
		}
	}
	sw.rt, err = router.New(ctx, router.Config{Bootstrap: boot, RefreshInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sw.backend = sw.rt
	return sw
}

// waitState waits until the router sees the model in the given state.
func (sw *swarm) waitState(t *testing.T, name string, want router.State) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = sw.rt.Refresh(ctx)
		var got router.State
		for _, st := range sw.rt.Models(ctx) {
			if st.Name == name {
				got = st.State
			}
		}
		cancel()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("model %s is %q after 30s, want %q", name, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (sw *swarm) tokenizer(t *testing.T, _ string) *tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.FromGGUF(sw.m.File())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func (sw *swarm) chatPrompt(t *testing.T, msgs []map[string]string) (string, []int32) {
	t.Helper()
	var cm []chattmpl.Message
	for _, m := range msgs {
		cm = append(cm, chattmpl.Message{Role: m["role"], Content: m["content"]})
	}
	text, ids, err := ChatPrompt(sw.m.File(), cm, nil)
	if err != nil {
		t.Fatal(err)
	}
	return text, ids
}

// sessions counts the sessions open on every node.
func (sw *swarm) sessions() int {
	n := 0
	for _, nd := range sw.nodes {
		n += nd.Sessions()
	}
	return n
}

func (sw *swarm) waitNoSessions(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for sw.sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still open on the nodes after %s", sw.sessions(), d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

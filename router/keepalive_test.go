package router_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// nodeCounter reads a counter of a node's registry (one series).
func nodeCounter(t *testing.T, n *p2p.Node, name string) float64 {
	t.Helper()
	mfs, err := n.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return 0 // a CounterVec has no series until its first increment
}

// keepFast is the router's keepalive interval in tests with short idle
// timeouts: far below them, so that a loaded test process stalled for
// nearly the whole timeout (every keeper late at once) still keeps its
// sessions, while a pause longer than the timeout still ends sessions
// that get none.
const keepFast = 50 * time.Millisecond

// twoHops starts a swarm of stories260K in two hops, blocks [0,2) with
// first's configuration and [2,5) with second's, and waits until the
// router, which sends keepalives every keepFast, serves the model.
func twoHops(t *testing.T, path string, first, second p2p.NodeConfig) *swarmtest.Swarm {
	t.Helper()
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 2}}, Node: first,
		Router: router.Config{KeepAlive: keepFast}})
	second.Model, second.First, second.Last = sw.Model, 2, 5
	second.Bootstrap = sw.Boot
	sw.Nodes = append(sw.Nodes, swarmtest.Node(t, second))
	sw.WaitServed(t, "stories260K")
	return sw
}

// slowReader generates prompt through sw's router with a client that,
// after the first token, reads nothing for pause (every hop of the chain
// idle that long), and returns the tokens and the error.
func slowReader(t *testing.T, sw *swarmtest.Swarm, prompt []int32, maxTokens int, pause time.Duration) ([]int32, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var got []int32
	_, err := sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: maxTokens},
		func(tk router.Token) error {
			if len(got) == 0 {
				time.Sleep(pause)
			}
			got = append(got, tk.ID)
			return nil
		})
	return got, err
}

// A generation whose hops all go longer than their nodes' idle timeout
// without a frame (the client pauses) keeps its sessions when the nodes
// take keepalives: the router sends each hop one, and the generation goes
// on without a failover. Nodes as before keepalives (KeepAliveLimit < 0)
// announce no idle timeout and get none: they end the sessions, and the
// generation fails over (and replays) to give the same answer.
func TestKeepAliveIdleHops(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	const idle, maxTokens = 2 * time.Second, 4
	prompt := []int32{1, 403, 407, 261, 378}
	want, _ := swarmtest.Local(t, path, prompt, maxTokens)
	for _, tc := range []struct {
		name  string
		limit time.Duration
	}{{"without keepalives", -1}, {"with keepalives", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			nc := p2p.NodeConfig{IdleTimeout: idle, KeepAliveLimit: tc.limit}
			sw := twoHops(t, path, nc, nc)
			got, err := slowReader(t, sw, prompt, maxTokens, idle*3/2)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%v, one process %v", got, want)
			}
			failovers := gauge(t, sw.Router, "svc_router_failovers_total")
			sent := gauge(t, sw.Router, "svc_router_keepalives_total")
			for i, n := range sw.Nodes {
				kept := nodeCounter(t, n, "svc_node_keepalives_total")
				if tc.limit < 0 && kept != 0 {
					t.Errorf("hop %d, which announces no idle timeout, got %v keepalives", i+1, kept)
				}
				if tc.limit >= 0 && kept < 1 {
					t.Errorf("hop %d got no keepalive", i+1)
				}
			}
			if tc.limit < 0 && (failovers < 1 || sent != 0) {
				t.Errorf("%v failovers and %v keepalives sent: the sessions idle longer than the timeout should have ended", failovers, sent)
			}
			if tc.limit >= 0 && failovers != 0 {
				t.Errorf("%v failovers with keepalives (%v sent)", failovers, sent)
			}
			sw.WaitNoSessions(t)
		})
	}
}

// A hop whose node announces no idle timeout (it predates keepalives and
// would refuse one, ending the session) is never sent a keepalive, while
// the chain's other hop, which takes them, is kept through the pause.
func TestKeepAliveOnlyAnnounced(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	const idle, maxTokens = 2 * time.Second, 3
	prompt := []int32{1, 403, 407, 261, 378}
	want, _ := swarmtest.Local(t, path, prompt, maxTokens)
	sw := twoHops(t, path, p2p.NodeConfig{IdleTimeout: idle}, p2p.NodeConfig{KeepAliveLimit: -1})
	got, err := slowReader(t, sw, prompt, maxTokens, idle*3/2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%v, one process %v", got, want)
	}
	if n := nodeCounter(t, sw.Nodes[0], "svc_node_keepalives_total"); n < 1 {
		t.Errorf("the hop that takes keepalives got %v", n)
	}
	if n := nodeCounter(t, sw.Nodes[1], "svc_node_keepalives_total"); n != 0 {
		t.Errorf("the hop that announces no idle timeout got %v keepalives", n)
	}
	if n := nodeCounter(t, sw.Nodes[1], "svc_node_stream_errors_total"); n != 0 {
		t.Errorf("%v stream errors on the hop that takes no keepalives", n)
	}
	if n := gauge(t, sw.Router, "svc_router_failovers_total"); n != 0 {
		t.Errorf("%v failovers", n)
	}
	sw.WaitNoSessions(t)
}

// Many long prompts at once through two hops, whose nodes end sessions
// idle for 2 s: while a prompt's step waits in hop 1's long queue, its
// session on hop 2 gets no frame but the router's keepalives, and keeps
// it. Before keepalives, hop 2 ended such sessions ('stream reset' on the
// router's next step there), and their generations failed over, many
// again and again. The answers are those a single process gives. The
// router's step timeout, which a step's wait in the queue counts against,
// is long enough for the whole queue on a loaded machine (or under -race),
// so that a failover here can only be a lost session.
func TestKeepAliveLongQueue(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	const prompts, long, maxTokens = 40, 450, 2
	nc := p2p.NodeConfig{IdleTimeout: 2 * time.Second}
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 2}, {2, 5}}, Node: nc,
		Router: router.Config{KeepAlive: keepFast, StepTimeout: time.Minute}})
	sw.WaitServed(t, "stories260K")
	ps := make([][]int32, prompts)
	for i := range ps {
		p := make([]int32, long)
		for j := range p {
			p[j] = int32(300 + (i+j)%200)
		}
		p[0] = 1
		ps[i] = p
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	got := make([][]int32, prompts)
	errs := make([]error, prompts)
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			_, errs[i] = sw.Router.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: p, MaxTokens: maxTokens},
				func(tk router.Token) error {
					got[i] = append(got[i], tk.ID)
					return nil
				})
		})
	}
	wg.Wait()
	failovers := gauge(t, sw.Router, "svc_router_failovers_total")
	t.Logf("%v failovers, %v keepalives sent", failovers, gauge(t, sw.Router, "svc_router_keepalives_total"))
	for i, err := range errs {
		if err != nil {
			t.Errorf("prompt %d: %v", i, err)
		}
	}
	if failovers != 0 {
		t.Errorf("%v failovers", failovers)
	}
	// Every fourth against a single process (each takes a while).
	for i := 0; i < prompts; i += 4 {
		if want, _ := swarmtest.Local(t, path, ps[i], maxTokens); errs[i] == nil && !slices.Equal(got[i], want) {
			t.Errorf("prompt %d: %v, one process %v", i, got[i], want)
		}
	}
	sw.WaitNoSessions(t)
}

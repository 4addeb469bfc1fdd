package router_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
	"svc/shards/model"
)

const testTTL = swarmtest.RecordTTL

func startNode(t *testing.T, path string, first, last int, boot []string) *p2p.Node {
	t.Helper()
	return swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: first, Last: last, Bootstrap: boot})
}

func startRouter(t *testing.T, boot []string) *router.Router {
	t.Helper()
	return swarmtest.Router(t, router.Config{Bootstrap: boot, RefreshInterval: 300 * time.Millisecond, Backoff: 2 * time.Second, Logger: testLogger(t)})
}

// waitState waits until r sees the model in state want ("": absent), at
// most within, and returns how long that took.
func waitState(t *testing.T, r *router.Router, name string, want router.State, within time.Duration) time.Duration {
	t.Helper()
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), within)
	defer cancel()
	if err := r.WaitState(ctx, name, want); err != nil {
		t.Fatal(err)
	}
	return time.Since(t0)
}

var prompt = []int32{1, 403, 407, 261, 378, 425, 270}

func TestChainEqualsOneProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, path, 0, 2, nil)
	b := startNode(t, path, 2, 4, a.Addrs())
	c := startNode(t, path, 4, 5, a.Addrs())
	r := startRouter(t, b.Addrs())
	waitState(t, r, "stories260K", router.StateServed, swarmtest.DefaultWaitTime)

	info, err := r.Model(ctx, "stories260K")
	if err != nil {
		t.Fatal(err)
	}
	if info.Digest != a.Digest() || info.Blocks != 5 || info.Header == nil {
		t.Fatalf("model info %+v", info.ModelStatus)
	}
	if _, err := r.Model(ctx, "nope"); !errors.Is(err, router.ErrModelNotFound) {
		t.Fatalf("unknown model: %v", err)
	}
	for _, max := range []int{1, 40, 300} {
		want, finish := swarmtest.Local(t, path, prompt, max)
		var got []int32
		res, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: max, Stop: swarmtest.StopTokens(t, path)}, func(tk router.Token) error {
			got = append(got, tk.ID)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) || string(res.Finish) != finish || res.CompletionTokens != len(want) || res.PromptTokens != len(prompt) {
			t.Fatalf("max %d: chain %v (%+v), one process %v (%s)", max, got, res, want, finish)
		}
		t.Logf("max %d: %d tokens, finish %s", max, len(got), res.Finish)
	}
	swarmtest.WaitSessions(t, 0, a, b, c)

	// Log-probabilities through the chain have one process's bits: the
	// generated tokens' top rows, and with the prompt's, its positions'
	// from the last hop's logits rows (the generation is unchanged).
	for _, k := range []int{0, 1, 5, router.MaxTopLogprobs} {
		want := swarmtest.LocalLogprobs(t, path, prompt, 30, max(k, 1))
		for _, withPrompt := range []bool{false, true} {
			var got []router.Token
			var gotPrompt []router.Token
			req := router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 30, Stop: swarmtest.StopTokens(t, path), Logprobs: true, TopLogprobs: k}
			if withPrompt {
				req.PromptLogprobs = func(p []router.Token) error {
					if got != nil || gotPrompt != nil {
						t.Error("prompt log-probabilities not given once, before the first token")
					}
					gotPrompt = p
					return nil
				}
			}
			if _, err := r.Generate(ctx, req, func(tk router.Token) error { got = append(got, tk); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want.Steps) {
				t.Fatalf("top %d: %d tokens, one process %d", k, len(got), len(want.Steps))
			}
			for i, tk := range got {
				w := want.Steps[i]
				if tk.ID != w.ID || tk.Logprob != w.Top[0].Logprob || !slices.Equal(tk.Top, w.Top[:k]) {
					t.Fatalf("top %d, prompt %v: token %d: chain %+v, one process %+v", k, withPrompt, i, tk, w)
				}
			}
			t.Logf("top %d, prompt %v: %d tokens, the first of log-probability %v", k, withPrompt, len(got), got[0].Logprob)
			if !withPrompt {
				continue
			}
			if len(gotPrompt) != len(prompt)-1 {
				t.Fatalf("%d prompt positions for a prompt of %d", len(gotPrompt), len(prompt))
			}
			for i, tk := range gotPrompt {
				if tk.ID != prompt[i+1] || tk.Logprob != want.Prompt[i] || !slices.Equal(tk.Top, want.PromptTops[i][:k]) {
					t.Fatalf("top %d: prompt position %d: chain %+v, one process %v %v", k, i+1, tk, want.Prompt[i], want.PromptTops[i])
				}
			}
		}
	}
	if _, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 3, Logprobs: true, TopLogprobs: router.MaxTopLogprobs + 1}, nil); err == nil {
		t.Error("top logprobs beyond the bound accepted")
	}
	swarmtest.WaitSessions(t, 0, a, b, c)

	// Concurrent generations, each equal to its single-process run.
	want, _ := swarmtest.Local(t, path, prompt, 60)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			var got []int32
			_, err := r.Generate(ctx, router.GenerateRequest{Model: a.Digest(), Prompt: prompt, MaxTokens: 60, Stop: swarmtest.StopTokens(t, path)}, func(tk router.Token) error {
				got = append(got, tk.ID)
				return nil
			})
			if err == nil && !slices.Equal(got, want) {
				err = errors.New("concurrent generation differs")
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	swarmtest.WaitSessions(t, 0, a, b, c)

	// A client that goes away mid-generation leaves nothing open.
	gctx, gcancel := context.WithCancel(ctx)
	n := 0
	_, err = r.Generate(gctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 200}, func(router.Token) error {
		if n++; n == 5 {
			gcancel()
		}
		return nil
	})
	gcancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled generation: %v", err)
	}
	// An error from emit ends the generation with it.
	stopErr := errors.New("client gone")
	if _, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 50}, func(router.Token) error { return stopErr }); !errors.Is(err, stopErr) {
		t.Fatalf("emit error: %v", err)
	}
	swarmtest.WaitSessions(t, 0, a, b, c)
}

func TestModelStates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, path, 0, 2, nil)
	c := startNode(t, path, 4, 5, a.Addrs())
	r := startRouter(t, a.Addrs())
	waitState(t, r, "stories260K", router.StateIncomplete, swarmtest.DefaultWaitTime)
	if _, err := r.Model(ctx, "stories260K"); !errors.Is(err, router.ErrModelIncomplete) {
		t.Fatalf("Model of an incomplete model: %v", err)
	}
	if _, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 5}, nil); !errors.Is(err, router.ErrModelIncomplete) {
		t.Fatalf("Generate on an incomplete model: %v", err)
	}
	// The missing blocks arrive: served, without restarting anything.
	b := startNode(t, path, 2, 4, c.Addrs())
	waitState(t, r, "stories260K", router.StateServed, swarmtest.DefaultWaitTime)
	if _, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 5}, nil); err != nil {
		t.Fatal(err)
	}
	// The only holder of [2,4) stops: incomplete again, usually well within
	// the record TTL since it withdraws its record (logged; the bound is a
	// hang guard: its records stop being renewed, so they lapse anyway).
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	took := waitState(t, r, "stories260K", router.StateIncomplete, testTTL+swarmtest.DefaultWaitTime)
	t.Logf("incomplete %s after the node stopped (record TTL %s)", took, testTTL)
	// Every node gone: the model is no longer known.
	_ = a.Close()
	_ = c.Close()
	waitState(t, r, "stories260K", "", testTTL+swarmtest.DefaultWaitTime)
}

func TestFailoverMidGeneration(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, path, 0, 2, nil)
	b1 := startNode(t, path, 2, 4, a.Addrs())
	b2 := startNode(t, path, 2, 4, a.Addrs())
	c := startNode(t, path, 4, 5, a.Addrs())
	r := startRouter(t, a.Addrs())
	waitState(t, r, "stories260K", router.StateServed, swarmtest.DefaultWaitTime)
	deadline := time.Now().Add(swarmtest.DefaultWaitTime)
	for router.HoldersOf(r, a.Digest()) < 4 {
		if time.Now().After(deadline) {
			t.Fatal("router never saw all four nodes")
		}
		time.Sleep(50 * time.Millisecond)
	}

	want, _ := swarmtest.Local(t, path, prompt, 80)
	var got []int32
	var stopped *p2p.Node
	_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 80, Stop: swarmtest.StopTokens(t, path)}, func(tk router.Token) error {
		got = append(got, tk.ID)
		if len(got) == 10 {
			// Stop whichever replica of [2,4) carries this session.
			for _, n := range []*p2p.Node{b1, b2} {
				if n.Sessions() > 0 {
					stopped = n
				}
			}
			if stopped == nil {
				return errors.New("no replica holds the session")
			}
			// Close from another goroutine: it waits for its streams.
			// The next step must meet the closed node, so wait until its
			// streams are reset (its session closed), not a fixed while.
			go func() { _ = stopped.Close() }()
			waitClosing(t, stopped)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after failover: %v, undisturbed %v", got, want)
	}
	if n := gauge(t, r, "svc_router_failovers_total"); n != 1 {
		t.Fatalf("failover counter %v, want 1", n)
	}
	swarmtest.WaitSessions(t, 0, a, b1, b2, c)

	// Without a replacement the request fails by itself: no route, rather
	// than running on until the client's deadline.
	other := b1
	if stopped == b1 {
		other = b2
	}
	t0 := time.Now()
	_, err = r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 80}, func(router.Token) error {
		if other != nil {
			go func(n *p2p.Node) { _ = n.Close() }(other)
			waitClosing(t, other)
			other = nil
		}
		return nil
	})
	if !errors.Is(err, router.ErrRouteUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("generation after the loss of every replica: %v, want no route", err)
	}
	t.Logf("without replacement, failed after %s: %v", time.Since(t0), err)
	swarmtest.WaitSessions(t, 0, a, c)
}

// waitClosing waits until n, being closed by another goroutine, has reset
// its streams (no session left open).
func waitClosing(t *testing.T, n *p2p.Node) {
	t.Helper()
	swarmtest.WaitSessions(t, 0, n)
}

// testLogger sends debug logs to the test log when SVC_TEST_DEBUG is set.
func testLogger(t *testing.T) *slog.Logger {
	if os.Getenv("SVC_TEST_DEBUG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) { w.t.Log(string(b)); return len(b), nil }

// TestEveryFixtureModelThroughChain: for every fixture model, a chain of up
// to three nodes generates what one process generates.
func TestEveryFixtureModelThroughChain(t *testing.T) {
	for _, path := range testenv.Models(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".gguf")
		t.Run(name, func(t *testing.T) {
			m, err := model.Open(path, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			blocks := m.Config().Blocks
			bos := m.Config().BOS
			_ = m.Close()
			ranges, err := model.EvenSplit(blocks, min(3, blocks))
			if err != nil {
				t.Fatal(err)
			}
			var nodes []*p2p.Node
			var boot []string
			for _, rg := range ranges {
				n := startNode(t, path, rg[0], rg[1], boot)
				nodes = append(nodes, n)
				boot = n.Addrs()
			}
			r := swarmtest.Router(t, router.Config{Bootstrap: boot, Logger: testLogger(t)})
			swarmtest.WaitState(t, r, name, router.StateServed)
			p := []int32{3, 10, 20, 30, 40}
			if bos >= 0 {
				p[0] = bos
			}
			want, _ := swarmtest.Local(t, path, p, 12)
			// A hang guard, from here: the router bounds every step itself
			// (StepTimeout), and the nodes' start above may take long on a
			// loaded machine.
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			var got []int32
			if _, err := r.Generate(ctx, router.GenerateRequest{Model: name, Prompt: p, MaxTokens: 12, Stop: swarmtest.StopTokens(t, path)}, func(tk router.Token) error {
				got = append(got, tk.ID)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("chain %v, one process %v", got, want)
			}
			swarmtest.WaitSessions(t, 0, nodes...)
		})
	}
}

// gauge reads a metric without labels from the router's registry.
func gauge(t *testing.T, r *router.Router, name string) float64 {
	t.Helper()
	mfs, err := r.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name || len(mf.GetMetric()) != 1 {
			continue
		}
		m := mf.GetMetric()[0]
		switch {
		case m.GetCounter() != nil:
			return m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			return m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// TestCapacityRefusal: a node whose cache is taken refuses new sessions
// cleanly, the request gets router.ErrRouteUnavailable at once, and the node is
// usable again when the first session ends.
func TestCapacityRefusal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, path, 0, 3, nil)
	b := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 3, Last: 5, Bootstrap: a.Addrs(), CacheTokens: 100})
	r := startRouter(t, a.Addrs())
	waitState(t, r, "stories260K", router.StateServed, swarmtest.DefaultWaitTime)

	holding := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		n := 0
		_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, func(router.Token) error {
			if n++; n == 1 {
				close(holding)
				<-release
			}
			return nil
		})
		done <- err
	}()
	<-holding
	t0 := time.Now()
	_, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, nil)
	var re *router.RouteError
	if !errors.Is(err, router.ErrRouteUnavailable) || !errors.As(err, &re) || re.Busy != 1 || re.Excluded != 0 || re.First != 3 || re.Last != 5 {
		t.Fatalf("second generation on a full node: %v, want a RouteError: blocks 3..4, one holder full", err)
	}
	t.Logf("refused in %s: %v", time.Since(t0), err)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	swarmtest.WaitSessions(t, 0, a, b)
	if _, err := r.Generate(ctx, router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, nil); err != nil {
		t.Fatalf("generation after the cache freed: %v", err)
	}
	swarmtest.WaitSessions(t, 0, a, b)
}

// TestShortTTLViewIsSteady: with records that live less than the router's
// refresh interval plus the nodes' renewal interval, live nodes must not
// blink out of the view: the router renews each record before it lapses.
// The records live 6 s (renewed every 0.5 s) and the refresh interval is
// 10 s, so without those renewals every record seen when the model was
// first served lapses before the router's next round; the check runs until
// all of them have expired. The router renews a quarter of the way to an
// expiry, so a renewal may be late by 4 s (a loaded machine) and still come
// in time.
func TestShortTTLViewIsSteady(t *testing.T) {
	const ttl = 6 * time.Second
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 0, Last: 2, RecordTTL: ttl})
	_ = swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 2, Last: 5, Bootstrap: a.Addrs(), RecordTTL: ttl})
	r := swarmtest.Router(t, router.Config{Bootstrap: a.Addrs(), RefreshInterval: 10 * time.Second, Logger: testLogger(t)})
	swarmtest.WaitState(t, r, "stories260K", router.StateServed)
	// Every record in the view now expires before then, unless renewed.
	lapsed := time.Now().Add(ttl + swarmtest.RecordRefresh)
	served := func() bool {
		for _, m := range r.Models(t.Context()) {
			if m.Name == "stories260K" && m.State == router.StateServed {
				return true
			}
		}
		return false
	}
	for ; time.Now().Before(lapsed); time.Sleep(50 * time.Millisecond) {
		if !served() {
			t.Fatalf("model left the view while every node runs: %+v", r.Models(t.Context()))
		}
	}
	if !served() || gauge(t, r, "svc_router_expired_total") != 0 {
		t.Fatalf("after every first record lapsed: %+v, %v records expired in the view", r.Models(t.Context()), gauge(t, r, "svc_router_expired_total"))
	}
}

// TestExcludedPeerIsProbed: a peer excluded after a failure is still used
// when no chain exists without it (a probe), and its success ends the
// exclusion; with a replica available, the excluded peer is left out.
//
// A record b signs after its exclusion would end it (the peer is back), and
// a short back-off would too: b signs none while the test runs (records of
// 10 min, renewed every 5), and exclusions last a minute, so that the
// checks hold however slowly the generations run.
func TestExcludedPeerIsProbed(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, path, 0, 2, nil)
	b := swarmtest.Node(t, p2p.NodeConfig{ModelPath: path, First: 2, Last: 5, Bootstrap: a.Addrs(), RecordTTL: p2p.DefaultMaxRecordTTL, RefreshInterval: p2p.DefaultMaxRecordTTL / 2})
	r := swarmtest.Router(t, router.Config{Bootstrap: a.Addrs(), RefreshInterval: swarmtest.RouterRefresh, Backoff: time.Minute, Logger: testLogger(t)})
	waitState(t, r, "stories260K", router.StateServed, swarmtest.DefaultWaitTime)
	want, _ := swarmtest.Local(t, path, prompt, 12)
	generate := func() []int32 {
		t.Helper()
		var got []int32
		if _, err := r.Generate(t.Context(), router.GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 12, Stop: swarmtest.StopTokens(t, path)}, func(tk router.Token) error {
			got = append(got, tk.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}

	router.Exclude(r, b.ID())
	if got := generate(); !slices.Equal(got, want) {
		t.Fatalf("through the probed peer: %v, want %v", got, want)
	}
	if router.Excluded(r, b.ID()) || gauge(t, r, "svc_router_probes_total") != 1 {
		t.Fatalf("after a successful probe: excluded %v, probes %v", router.Excluded(r, b.ID()), gauge(t, r, "svc_router_probes_total"))
	}

	// With a replica, the excluded peer is not probed.
	b2 := startNode(t, path, 2, 5, a.Addrs())
	deadline := time.Now().Add(swarmtest.DefaultWaitTime)
	for router.HoldersOf(r, a.Digest()) < 3 {
		if time.Now().After(deadline) {
			t.Fatal("router never saw the replica")
		}
		time.Sleep(20 * time.Millisecond)
	}
	router.Exclude(r, b.ID())
	generate()
	if !router.Excluded(r, b.ID()) || gauge(t, r, "svc_router_probes_total") != 1 || b.Sessions() != 0 {
		t.Fatalf("with a replica: excluded %v, probes %v", router.Excluded(r, b.ID()), gauge(t, r, "svc_router_probes_total"))
	}
	swarmtest.WaitSessions(t, 0, a, b, b2)
}

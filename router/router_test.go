package router

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

	"svc/internal/testenv"
	"svc/p2p"
	"svc/shards/model"
)

const (
	testTTL     = 3 * time.Second
	testRefresh = 300 * time.Millisecond
)

func startNode(t *testing.T, ctx context.Context, path string, first, last int, boot []string) *p2p.Node {
	t.Helper()
	return startNodeCache(t, ctx, path, first, last, boot, 0)
}

func startNodeCache(t *testing.T, ctx context.Context, path string, first, last int, boot []string, cache int) *p2p.Node {
	t.Helper()
	n, err := p2p.NewNode(ctx, p2p.NodeConfig{
		ModelPath: path, First: first, Last: last, Bootstrap: boot,
		Threads: 1, RecordTTL: testTTL, RefreshInterval: testRTTLRefresh(), CacheTokens: cache,
	})
	if err != nil {
		t.Fatalf("start node [%d,%d): %v", first, last, err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return n
}

func testRTTLRefresh() time.Duration { return testTTL / 6 }

func startRouter(t *testing.T, ctx context.Context, boot []string) *Router {
	t.Helper()
	r, err := New(ctx, Config{Bootstrap: boot, RefreshInterval: testRefresh, Backoff: 2 * time.Second, Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("start router: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// waitState polls the router until the model has the wanted state (or,
// with want "", is absent).
func waitState(t *testing.T, ctx context.Context, r *Router, name string, want State, within time.Duration) time.Duration {
	t.Helper()
	t0 := time.Now()
	for {
		var got State
		for _, m := range r.Models(ctx) {
			if m.Name == name {
				got = m.State
			}
		}
		if got == want {
			return time.Since(t0)
		}
		if time.Since(t0) > within {
			t.Fatalf("model %s is %q after %s, want %q", name, got, within, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func waitNoSessions(t *testing.T, nodes ...*p2p.Node) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, n := range nodes {
		for n.Sessions() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("node %s still has %d sessions", n.ID(), n.Sessions())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// local runs the same generation in one process.
func local(t *testing.T, ctx context.Context, path string, prompt []int32, maxTokens int) ([]int32, string) {
	t.Helper()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("local", len(prompt)+maxTokens); err != nil {
		t.Fatal(err)
	}
	stop := m.StopTokens()
	res, err := model.Generate(ctx, []model.Hop{model.SessionHop{Shard: sh, ID: "local"}}, prompt, model.GenOptions{MaxTokens: maxTokens, Stop: stop}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Completion
	if res.Finish == model.FinishStop {
		out = out[:len(out)-1]
	}
	return out, res.Finish
}

func stopFunc(t *testing.T, path string) func(int32) bool {
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	return m.StopTokens()
}

var prompt = []int32{1, 403, 407, 261, 378, 425, 270}

func TestChainEqualsOneProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, ctx, path, 0, 2, nil)
	b := startNode(t, ctx, path, 2, 4, a.Addrs())
	c := startNode(t, ctx, path, 4, 5, a.Addrs())
	r := startRouter(t, ctx, b.Addrs())
	waitState(t, ctx, r, "stories260K", StateServed, 10*time.Second)

	info, err := r.Model(ctx, "stories260K")
	if err != nil {
		t.Fatal(err)
	}
	if info.Digest != a.Digest() || info.Blocks != 5 || info.Header == nil {
		t.Fatalf("model info %+v", info.ModelStatus)
	}
	if _, err := r.Model(ctx, "nope"); !errors.Is(err, ErrModelNotFound) {
		t.Fatalf("unknown model: %v", err)
	}
	for _, max := range []int{1, 40, 300} {
		want, finish := local(t, ctx, path, prompt, max)
		var got []int32
		res, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: max, Stop: stopFunc(t, path)}, func(id int32) error {
			got = append(got, id)
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
	waitNoSessions(t, a, b, c)

	// Concurrent generations, each equal to its single-process run.
	want, _ := local(t, ctx, path, prompt, 60)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			var got []int32
			_, err := r.Generate(ctx, GenerateRequest{Model: a.Digest(), Prompt: prompt, MaxTokens: 60, Stop: stopFunc(t, path)}, func(id int32) error {
				got = append(got, id)
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
	waitNoSessions(t, a, b, c)

	// A client that goes away mid-generation leaves nothing open.
	gctx, gcancel := context.WithCancel(ctx)
	n := 0
	_, err = r.Generate(gctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 200}, func(int32) error {
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
	if _, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 50}, func(int32) error { return stopErr }); !errors.Is(err, stopErr) {
		t.Fatalf("emit error: %v", err)
	}
	waitNoSessions(t, a, b, c)
}

func TestModelStates(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, ctx, path, 0, 2, nil)
	c := startNode(t, ctx, path, 4, 5, a.Addrs())
	r := startRouter(t, ctx, a.Addrs())
	waitState(t, ctx, r, "stories260K", StateIncomplete, 10*time.Second)
	if _, err := r.Model(ctx, "stories260K"); !errors.Is(err, ErrModelIncomplete) {
		t.Fatalf("Model of an incomplete model: %v", err)
	}
	if _, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 5}, nil); !errors.Is(err, ErrModelIncomplete) {
		t.Fatalf("Generate on an incomplete model: %v", err)
	}
	// The missing blocks arrive: served, without restarting anything.
	b := startNode(t, ctx, path, 2, 4, c.Addrs())
	waitState(t, ctx, r, "stories260K", StateServed, 10*time.Second)
	if _, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 5}, nil); err != nil {
		t.Fatal(err)
	}
	// The only holder of [2,4) stops: incomplete again, well within the
	// record TTL since it withdraws its record.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	took := waitState(t, ctx, r, "stories260K", StateIncomplete, testTTL+2*time.Second)
	t.Logf("incomplete %s after the node stopped", took)
	// Every node gone: the model is no longer known.
	_ = a.Close()
	_ = c.Close()
	waitState(t, ctx, r, "stories260K", "", testTTL+2*time.Second)
}

func TestFailoverMidGeneration(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, ctx, path, 0, 2, nil)
	b1 := startNode(t, ctx, path, 2, 4, a.Addrs())
	b2 := startNode(t, ctx, path, 2, 4, a.Addrs())
	c := startNode(t, ctx, path, 4, 5, a.Addrs())
	r := startRouter(t, ctx, a.Addrs())
	waitState(t, ctx, r, "stories260K", StateServed, 10*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for len(r.snapshot()[a.Digest()]) < 4 {
		if time.Now().After(deadline) {
			t.Fatal("router never saw all four nodes")
		}
		time.Sleep(50 * time.Millisecond)
	}

	want, _ := local(t, ctx, path, prompt, 80)
	var got []int32
	var stopped *p2p.Node
	_, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 80, Stop: stopFunc(t, path)}, func(id int32) error {
		got = append(got, id)
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
			go func() { _ = stopped.Close() }()
			time.Sleep(100 * time.Millisecond)
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
	waitNoSessions(t, a, b1, b2, c)

	// Without a replacement the request fails promptly.
	other := b1
	if stopped == b1 {
		other = b2
	}
	t0 := time.Now()
	_, err = r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 80}, func(id int32) error {
		if other != nil {
			go func(n *p2p.Node) { _ = n.Close() }(other)
			other = nil
			time.Sleep(100 * time.Millisecond)
		}
		return nil
	})
	if err == nil {
		t.Fatal("generation survived the loss of every replica")
	}
	if time.Since(t0) > 10*time.Second {
		t.Fatalf("failure took %s", time.Since(t0))
	}
	t.Logf("without replacement: %v", err)
	waitNoSessions(t, a, c)
}

func TestBestChain(t *testing.T) {
	cs := []candidate{
		{peer: "a", first: 0, last: 5, cost: 10},
		{peer: "b", first: 0, last: 2, cost: 2},
		{peer: "c", first: 2, last: 5, cost: 3},
		{peer: "d", first: 2, last: 4, cost: 1},
		{peer: "e", first: 4, last: 5, cost: 1},
	}
	got := bestChain(5, slices.Clone(cs))
	var ids []string
	for _, c := range got {
		ids = append(ids, string(c.peer))
	}
	if !slices.Equal(ids, []string{"b", "d", "e"}) {
		t.Fatalf("chain %v", ids)
	}
	// Equal cost: fewer hops.
	cs[0].cost = 4
	got = bestChain(5, slices.Clone(cs))
	if len(got) != 1 || got[0].peer != "a" {
		t.Fatalf("chain %v", got)
	}
	if bestChain(5, []candidate{{first: 0, last: 3}, {first: 2, last: 5}}) != nil {
		t.Fatal("overlapping ranges that do not chain made a route")
	}
	if !covers(5, [][2]int{{2, 5}, {0, 2}}) || covers(5, [][2]int{{0, 3}, {2, 5}}) {
		t.Fatal("covers")
	}
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
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
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
				n := startNode(t, ctx, path, rg[0], rg[1], boot)
				nodes = append(nodes, n)
				boot = n.Addrs()
			}
			r, err := New(ctx, Config{Bootstrap: boot, RefreshInterval: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			waitState(t, ctx, r, name, StateServed, 10*time.Second)
			p := []int32{3, 10, 20, 30, 40}
			if bos >= 0 {
				p[0] = bos
			}
			want, _ := local(t, ctx, path, p, 12)
			var got []int32
			if _, err := r.Generate(ctx, GenerateRequest{Model: name, Prompt: p, MaxTokens: 12, Stop: stopFunc(t, path)}, func(id int32) error {
				got = append(got, id)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("chain %v, one process %v", got, want)
			}
			waitNoSessions(t, nodes...)
		})
	}
}

// gauge reads a metric without labels from the router's registry.
func gauge(t *testing.T, r *Router, name string) float64 {
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
// cleanly, the request gets ErrRouteUnavailable at once, and the node is
// usable again when the first session ends.
func TestCapacityRefusal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, ctx, path, 0, 3, nil)
	b := startNodeCache(t, ctx, path, 3, 5, a.Addrs(), 100)
	r := startRouter(t, ctx, a.Addrs())
	waitState(t, ctx, r, "stories260K", StateServed, 10*time.Second)

	holding := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		n := 0
		_, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, func(int32) error {
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
	_, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, nil)
	if !errors.Is(err, ErrRouteUnavailable) {
		t.Fatalf("second generation on a full node: %v", err)
	}
	t.Logf("refused in %s: %v", time.Since(t0), err)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waitNoSessions(t, a, b)
	if _, err := r.Generate(ctx, GenerateRequest{Model: "stories260K", Prompt: prompt, MaxTokens: 60}, nil); err != nil {
		t.Fatalf("generation after the cache freed: %v", err)
	}
	waitNoSessions(t, a, b)
}

// TestShortTTLViewIsSteady: with records that live less than the router's
// refresh interval plus the nodes' renewal interval, live nodes must not
// blink out of the view.
func TestShortTTLViewIsSteady(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	path := testenv.Path(t, "models", "stories260K.gguf")
	a := startNode(t, ctx, path, 0, 2, nil) // TTL 3 s, renewed every 0.5 s
	_ = startNode(t, ctx, path, 2, 5, a.Addrs())
	r, err := New(ctx, Config{Bootstrap: a.Addrs(), RefreshInterval: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	waitState(t, ctx, r, "stories260K", StateServed, 15*time.Second)
	for end := time.Now().Add(8 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		served := false
		for _, m := range r.Models(ctx) {
			served = served || (m.Name == "stories260K" && m.State == StateServed)
		}
		if !served {
			t.Fatalf("model left the view while every node runs: %+v", r.Models(ctx))
		}
	}
}

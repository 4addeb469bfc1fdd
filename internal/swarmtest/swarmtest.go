package swarmtest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
	"svc/shards/gguf"
	"svc/shards/model"
	"svc/shards/modeltools"
)

// Test timers: records live 3 s and are renewed twice a second, the router
// looks for nodes every 300 ms, so that a swarm settles in a second and a
// dead node leaves the view within a few.
const (
	RecordTTL       = 3 * time.Second
	RecordRefresh   = 500 * time.Millisecond
	RouterRefresh   = 300 * time.Millisecond
	startTimeout    = 2 * time.Minute
	DefaultWaitTime = 30 * time.Second
)

// Config describes an in-process swarm.
type Config struct {
	// Model is the GGUF path every node serves.
	Model string
	// Shared makes the nodes share one opened model (less memory, faster
	// start); otherwise each node opens the file, as separate machines do.
	Shared bool
	// Ranges are the nodes' blocks [first, last), one node each, started
	// in order.
	Ranges [][2]int
	// Node is the template of every node's configuration; the kit fills
	// in the model, the range, loopback Listen, Bootstrap, and Threads 1,
	// RecordTTL and RefreshInterval when zero.
	Node p2p.NodeConfig
	// Router configures the router (Bootstrap is filled in; the refresh
	// interval defaults to RouterRefresh). NoRouter starts none.
	Router   router.Config
	NoRouter bool
}

// Swarm is a running in-process swarm.
type Swarm struct {
	cfg    Config
	Model  *model.Model // the shared model, when Config.Shared
	Nodes  []*p2p.Node
	Router *router.Router
	// Boot is the bootstrap multiaddrs (the first node's).
	Boot []string
}

// Start starts the nodes of cfg.Ranges and the router, and closes them all
// at the test's cleanup. It does not wait for the model to be served: see
// WaitServed.
func Start(t testing.TB, cfg Config) *Swarm {
	t.Helper()
	sw := &Swarm{cfg: cfg}
	if cfg.Shared {
		m, err := model.Open(cfg.Model, model.Options{})
		if err != nil {
			t.Fatalf("swarmtest: %v", err)
		}
		t.Cleanup(func() { _ = m.Close() }) // runs after the nodes' cleanups
		sw.Model = m
	}
	for _, r := range cfg.Ranges {
		sw.AddNode(t, r[0], r[1])
	}
	if !cfg.NoRouter {
		rc := cfg.Router
		rc.Bootstrap = append(rc.Bootstrap, sw.Boot...)
		if rc.RefreshInterval == 0 {
			rc.RefreshInterval = RouterRefresh
		}
		sw.Router = Router(t, rc)
	}
	return sw
}

// AddNode starts one more node of the swarm's model for blocks
// [first, last) (last 0: the node chooses), bootstrapped from the first.
func (sw *Swarm) AddNode(t testing.TB, first, last int) *p2p.Node {
	t.Helper()
	nc := sw.cfg.Node
	if sw.Model != nil {
		nc.Model = sw.Model
	} else {
		nc.ModelPath = sw.cfg.Model
	}
	nc.First, nc.Last = first, last
	nc.Bootstrap = append(append([]string(nil), nc.Bootstrap...), sw.Boot...)
	n := Node(t, nc)
	sw.Nodes = append(sw.Nodes, n)
	if sw.Boot == nil {
		sw.Boot = n.Addrs()
	}
	return n
}

// Node starts one node with the test defaults filled in (loopback Listen,
// Threads 1, RecordTTL, RefreshInterval) and closes it at cleanup.
func Node(t testing.TB, nc p2p.NodeConfig) *p2p.Node {
	t.Helper()
	if len(nc.Listen) == 0 {
		nc.Listen = []string{"/ip4/127.0.0.1/tcp/0"}
	}
	if nc.Threads == 0 {
		nc.Threads = 1
	}
	if nc.RecordTTL == 0 {
		nc.RecordTTL = RecordTTL
	}
	if nc.RefreshInterval == 0 {
		nc.RefreshInterval = min(RecordRefresh, nc.RecordTTL/3)
	}
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	n, err := p2p.NewNode(ctx, nc)
	if err != nil {
		t.Fatalf("swarmtest: node [%d,%d): %v", nc.First, nc.Last, err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return n
}

// Router starts a router (loopback) and closes it at cleanup.
func Router(t testing.TB, rc router.Config) *router.Router {
	t.Helper()
	if len(rc.Listen) == 0 {
		rc.Listen = []string{"/ip4/127.0.0.1/tcp/0"}
	}
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	r, err := router.New(ctx, rc)
	if err != nil {
		t.Fatalf("swarmtest: router: %v", err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// Client starts a bare endpoint (no blocks) joined through boot, closed at
// cleanup, to talk to nodes directly.
func Client(t testing.TB, boot []string) *p2p.Endpoint {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	e, err := p2p.NewEndpoint(ctx, p2p.EndpointConfig{Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Bootstrap: boot})
	if err != nil {
		t.Fatalf("swarmtest: client endpoint: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// WaitServed waits (DefaultWaitTime at most) until the router serves the
// model (a name or a digest).
func (sw *Swarm) WaitServed(t testing.TB, name string) {
	t.Helper()
	WaitState(t, sw.Router, name, router.StateServed)
}

// WaitState waits (DefaultWaitTime at most) until r sees the model in state
// want ("" for absent) and returns how long that took.
func WaitState(t testing.TB, r *router.Router, name string, want router.State) time.Duration {
	t.Helper()
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), DefaultWaitTime)
	defer cancel()
	if err := r.WaitState(ctx, name, want); err != nil {
		t.Fatalf("swarmtest: %v", err)
	}
	return time.Since(t0)
}

// Sessions counts the sessions open on the swarm's nodes.
func (sw *Swarm) Sessions() int { return Sessions(sw.Nodes...) }

// Sessions counts the sessions open on nodes.
func Sessions(nodes ...*p2p.Node) int {
	n := 0
	for _, nd := range nodes {
		n += nd.Sessions()
	}
	return n
}

// WaitNoSessions waits until no node of the swarm has a session open.
func (sw *Swarm) WaitNoSessions(t testing.TB) { t.Helper(); WaitSessions(t, 0, sw.Nodes...) }

// WaitSessions waits (DefaultWaitTime at most) until the nodes together
// hold want sessions. Sessions close asynchronously (a node notices a
// closed stream a moment later), and a node has no event for it, so this
// polls its counter every few milliseconds.
func WaitSessions(t testing.TB, want int, nodes ...*p2p.Node) {
	t.Helper()
	deadline := time.Now().Add(DefaultWaitTime)
	for {
		got := Sessions(nodes...)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("swarmtest: %d sessions open on the nodes after %s, want %d", got, DefaultWaitTime, want)
		}
		select {
		case <-t.Context().Done():
			t.Fatalf("swarmtest: waiting for %d sessions: %v", want, t.Context().Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Local generates prompt greedily in one process (one shard holding every
// block): what any chain must reproduce. The stop token is not part of the
// returned completion.
func Local(t testing.TB, path string, prompt []int32, maxTokens int) ([]int32, string) {
	t.Helper()
	m, sh, done := wholeShard(t, path)
	defer done()
	if err := sh.OpenSession("local", len(prompt)+maxTokens); err != nil {
		t.Fatal(err)
	}
	res, err := model.Generate(t.Context(), []model.Hop{model.SessionHop{Shard: sh, ID: "local"}}, prompt,
		model.GenOptions{MaxTokens: maxTokens, Stop: m.StopTokens()}, nil)
	if err != nil {
		t.Fatal(fmt.Errorf("swarmtest: local generation: %w", err))
	}
	out := res.Completion
	if res.Finish == model.FinishStop {
		out = out[:len(out)-1]
	}
	return out, res.Finish
}

// StopTokens returns the model's stop-token test.
func StopTokens(t testing.TB, path string) func(int32) bool {
	t.Helper()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	return m.StopTokens()
}

// Logprobs is what one process computes for a generation with
// log-probabilities: the generated tokens with the top k at each position
// (model.Generate with TopK, the stop token left out) and, for prompt
// positions 1..n-1, the prompt token's log-probability and the top k of
// the row that predicts it, from one prefill of the whole prompt with
// every position's logits. A chain through the swarm must give the same
// bits.
type Logprobs struct {
	Steps      []model.Step
	Finish     string
	Prompt     []float32
	PromptTops [][]model.TokenLogprob
}

// LocalLogprobs computes Logprobs in one process.
func LocalLogprobs(t testing.TB, path string, prompt []int32, maxTokens, k int) Logprobs {
	t.Helper()
	m, sh, done := wholeShard(t, path)
	defer done()
	for _, id := range []string{"gen", "prompt"} {
		if err := sh.OpenSession(id, len(prompt)+maxTokens); err != nil {
			t.Fatal(err)
		}
	}
	var lp Logprobs
	stop := m.StopTokens()
	res, err := model.Generate(t.Context(), []model.Hop{model.SessionHop{Shard: sh, ID: "gen"}}, prompt,
		model.GenOptions{MaxTokens: maxTokens, Stop: stop, TopK: k}, func(s model.Step) error {
			if stop == nil || !stop(s.ID) {
				lp.Steps = append(lp.Steps, s)
			}
			return nil
		})
	if err != nil {
		t.Fatal(fmt.Errorf("swarmtest: local generation: %w", err))
	}
	lp.Finish = res.Finish
	out, err := sh.Forward(t.Context(), "prompt", model.Input{Tokens: prompt, Logits: model.LogitsAll, TopK: k})
	if err != nil {
		t.Fatal(fmt.Errorf("swarmtest: local prompt logits: %w", err))
	}
	vocab := m.Config().Vocab
	for i := 1; i < len(prompt); i++ {
		lp.Prompt = append(lp.Prompt, model.Logprob(out.Logits[(i-1)*vocab:i*vocab], prompt[i]))
		lp.PromptTops = append(lp.PromptTops, out.Top[i-1])
	}
	return lp
}

// BigVocabModel writes a small random-weight model with Llama 3's
// vocabulary (128,256 tokens) and a context of 1,024 positions, named
// "bigvocab": long prompts at a large vocabulary, for the prompt-scoring
// tests of router and server.
func BigVocabModel(t testing.TB) string {
	t.Helper()
	vocab, err := gguf.Open(testenv.Path(t, "tokenizer", "ggml-vocab-llama-bpe.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer vocab.Close()
	ft, err := modeltools.ParseFileType("q8_0")
	if err != nil {
		t.Fatal(err)
	}
	shape := modeltools.Shape{Name: "bigvocab", Dim: 64, Blocks: 2, Heads: 4, KVHeads: 2, FFN: 128, Context: 1024, RopeBase: 10000, Eps: 1e-5, Tied: true}
	path := filepath.Join(t.TempDir(), "bigvocab.gguf")
	if err := modeltools.SynthFile(t.Context(), path, modeltools.SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 5, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	return path
}

// wholeShard opens the model at path and one shard of every block on one
// thread, the one process a chain must reproduce; done closes both.
func wholeShard(t testing.TB, path string) (m *model.Model, sh *model.Shard, done func()) {
	t.Helper()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh, err = m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 1})
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	return m, sh, func() {
		sh.Close()
		m.Close()
	}
}

package router_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
	"svc/shards/model"
)

// Decode benchmarks: one process against a chain of three nodes on
// loopback, same model, same threads per computing shard. The model is
// SVC_BENCH_MODEL (default: the stories260K fixture), e.g.
//
//	svc model synth --shape tinyllama-1.1b --vocab ... --type q4_0 --out /tmp/tinyllama-q4_0.gguf
//	SVC_BENCH_MODEL=/tmp/tinyllama-q4_0.gguf go test -run '^$' -bench Decode -benchtime 3x ./router
//
// Both report decode tokens/s (prefill excluded); the chain also reports
// the network's share of each hop (wall time minus node compute time).

const benchDecodeTokens = 64

func benchModel(b *testing.B) string {
	if p := os.Getenv("SVC_BENCH_MODEL"); p != "" {
		return p
	}
	return testenv.Path(b, "models", "stories260K.gguf")
}

var benchPrompt = []int32{1, 403, 407, 261, 378, 425, 270, 300}

// timedHops measures the decode part of a generation: the clock starts
// after the prefill step.
type timedHops struct {
	hops  []model.Hop
	steps int
	start time.Time
}

func (t *timedHops) Forward(ctx context.Context, in model.Input) (*model.Output, error) {
	var out *model.Output
	for i, h := range t.hops {
		var err error
		if out, err = h.Forward(ctx, in); err != nil {
			return nil, err
		}
		if i < len(t.hops)-1 {
			in = model.Input{Hidden: out.Hidden, Logits: in.Logits, TopK: in.TopK, OmitLogits: in.OmitLogits}
		}
	}
	if t.steps == 0 {
		t.start = time.Now()
	}
	t.steps++
	return out, nil
}

// BenchmarkDecodeChain3 alternates, iteration by iteration, a generation in
// one process and the same generation through three nodes, so that both see
// the same machine load, and reports both decode rates and their ratio.
func BenchmarkDecodeChain3(b *testing.B) {
	ctx := context.Background()
	path := benchModel(b)
	m, err := model.Open(path, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	whole, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer whole.Close()
	ranges, err := model.EvenSplit(m.Config().Blocks, 3)
	if err != nil {
		b.Fatal(err)
	}
	sw := swarmtest.Start(b, swarmtest.Config{Model: path, Shared: true, Ranges: ranges,
		Node: p2p.NodeConfig{Threads: 2}, Router: router.Config{RefreshInterval: 200 * time.Millisecond}})
	sw.WaitServed(b, sw.Nodes[0].Digest())
	nodes, r := sw.Nodes, sw.Router
	client := swarmtest.Client(b, sw.Boot)
	maxLen := len(benchPrompt) + benchDecodeTokens
	var local, chain, overhead, compute time.Duration
	var hopSteps int
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("bench-%d", i)
		if err := whole.OpenSession(id, maxLen); err != nil {
			b.Fatal(err)
		}
		th := &timedHops{hops: []model.Hop{model.SessionHop{Shard: whole, ID: id}}}
		if _, err := model.Generate(ctx, []model.Hop{th}, benchPrompt, model.GenOptions{MaxTokens: benchDecodeTokens}, nil); err != nil {
			b.Fatal(err)
		}
		local += time.Since(th.start)
		_ = whole.CloseSession(id)

		// Sessions opened by hand so that their timings can be read.
		var hops []model.Hop
		var sess []*p2p.Session
		for j, n := range nodes {
			s, err := p2p.OpenSession(ctx, client.Host, n.ID(), p2p.SessionOptions{
				ID: id, Digest: n.Digest(), First: ranges[j][0], Last: ranges[j][1],
				MaxLength: maxLen, Dim: m.Config().Dim,
			})
			if err != nil {
				b.Fatal(err)
			}
			hops = append(hops, s)
			sess = append(sess, s)
		}
		th = &timedHops{hops: hops}
		if _, err := model.Generate(ctx, []model.Hop{th}, benchPrompt, model.GenOptions{MaxTokens: benchDecodeTokens}, nil); err != nil {
			b.Fatal(err)
		}
		chain += time.Since(th.start)
		for _, s := range sess {
			c, w, n := s.Stats()
			overhead += w - c
			compute += c
			hopSteps += n
			_ = s.Close()
		}
	}
	toks := float64(b.N * (benchDecodeTokens - 1))
	b.ReportMetric(toks/local.Seconds(), "local-tokens/s")
	b.ReportMetric(toks/chain.Seconds(), "chain-tokens/s")
	b.ReportMetric(100*local.Seconds()/chain.Seconds(), "chain-%-of-local")
	b.ReportMetric(float64(overhead.Microseconds())/float64(hopSteps), "µs-network/hop-step")
	// The router's own path, once, to show it adds nothing noticeable.
	t0 := time.Now()
	res, err := r.Generate(ctx, router.GenerateRequest{Model: nodes[0].Digest(), Prompt: benchPrompt, MaxTokens: benchDecodeTokens}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(res.CompletionTokens)/time.Since(t0).Seconds(), "router-tokens/s-with-prefill")
}

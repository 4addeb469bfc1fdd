package router_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/p2p"
	"svc/router"
	"svc/shards/model"
	"svc/shards/tensor"
)

// BenchmarkAdapterMix8 measures what serving a LoRA adapter costs a busy
// node: 8 concurrent generations of which 4 name "<model>-ad" (a rank-16
// F16 adapter on every block matrix) against 8 concurrent generations of
// the base model, alternating iteration by iteration on the same node (so
// both see the same machine load), and reports both aggregate decode rates
// and their ratio. The model is SVC_BENCH_MODEL (default stories260K), e.g.
//
//	svc model synth --shape tinyllama-1.1b --vocab ../shared/tokenizer/ggml-vocab-llama-spm.gguf --type q4_0 --out /tmp/tl-q4_0.gguf
//	SVC_BENCH_MODEL=/tmp/tl-q4_0.gguf go test -run '^$' -bench AdapterMix8 -benchtime 3x ./router
func BenchmarkAdapterMix8(b *testing.B) {
	ctx := context.Background()
	path := benchModel(b)
	m, err := model.Open(path, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ad := filepath.Join(b.TempDir(), "ad.gguf")
	err = m.SynthAdapter(ad, model.SynthAdapterOptions{Rank: 16, Alpha: 32, Type: tensor.F16, Seed: 1})
	name := m.Name()
	m.Close()
	if err != nil {
		b.Fatal(err)
	}
	sw := swarmtest.Start(b, swarmtest.Config{Model: path, Ranges: [][2]int{{0, 0}},
		Node:   p2p.NodeConfig{Threads: 2, Adapters: []p2p.AdapterSpec{{Name: "ad", Path: ad}}},
		Router: router.Config{RefreshInterval: 200 * time.Millisecond}})
	digest := sw.Nodes[0].Digest()
	sw.WaitServed(b, digest)
	var adName string
	for _, st := range sw.Router.Models(ctx) {
		if st.Adapter == "ad" {
			adName = st.Name
		}
	}
	if adName == "" {
		b.Fatalf("the adapter of %s is not listed", name)
	}
	swarmtest.WaitState(b, sw.Router, adName, router.StateServed)
	const n, tokens = 8, 32
	run := func(models []string) (int, time.Duration) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		t0 := time.Now()
		for i := range n {
			wg.Go(func() {
				res, err := sw.Router.Generate(ctx, router.GenerateRequest{Model: models[i], Prompt: benchPrompt, MaxTokens: tokens}, nil)
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				total += res.CompletionTokens
				mu.Unlock()
			})
		}
		wg.Wait()
		return total, time.Since(t0)
	}
	base, mix := make([]string, n), make([]string, n)
	for i := range n {
		base[i], mix[i] = digest, digest
		if i%2 == 1 {
			mix[i] = adName
		}
	}
	var baseTok, mixTok int
	var baseTime, mixTime time.Duration
	for i := 0; b.Loop(); i++ {
		// Alternate which goes first, so that neither always runs on a
		// warmer (or busier) machine.
		order := []bool{i%2 == 0, i%2 != 0}
		for _, isBase := range order {
			if isBase {
				k, d := run(base)
				baseTok, baseTime = baseTok+k, baseTime+d
			} else {
				k, d := run(mix)
				mixTok, mixTime = mixTok+k, mixTime+d
			}
		}
	}
	br, mr := float64(baseTok)/baseTime.Seconds(), float64(mixTok)/mixTime.Seconds()
	b.ReportMetric(br, "base-tokens/s")
	b.ReportMetric(mr, "mix-tokens/s")
	b.ReportMetric(100*mr/br, "mix-%-of-base")
	fmt.Fprintf(b.Output(), "%s: 8 concurrent base requests %.1f tokens/s; 4 base + 4 with a rank-16 F16 adapter %.1f tokens/s (%.1f%%)\n", name, br, mr, 100*mr/br)
}

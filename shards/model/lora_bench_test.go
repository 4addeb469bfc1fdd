package model

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"svc/shards/lora"
	"svc/shards/tensor"
)

// BenchmarkLoRABatch8 measures one decode step of 8 sessions batched
// (ForwardBatch) when all use the base model against when half of them use
// a rank-16 F16 adapter on every block matrix, alternating in the same run
// so that both see the same load; it reports both wall and CPU time ratios
// (CPU time is steadier on a shared machine). The model is SVC_BENCH_MODEL,
// e.g.
//
//	SVC_BENCH_MODEL=/tmp/tl-q4_0.gguf go test -run '^$' -bench LoRABatch8 -benchtime 20x ./shards/model
func BenchmarkLoRABatch8(b *testing.B) {
	ctx := context.Background()
	m := openBenchModel(b)
	defer m.Close()
	path := filepath.Join(b.TempDir(), "ad.gguf")
	if err := m.SynthAdapter(path, SynthAdapterOptions{Rank: 16, Alpha: 32, Type: tensor.F16, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	a, err := lora.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer sh.Close()
	if err := sh.AddAdapter("ad", a, 1); err != nil {
		b.Fatal(err)
	}
	const k, prompt = 8, 48
	vocab := int32(m.Config().Vocab)
	open := func(prefix string, adapted bool) []string {
		ids := make([]string, k)
		for j := range ids {
			ids[j] = fmt.Sprintf("%s%d", prefix, j)
			ad := ""
			if adapted && j%2 == 1 {
				ad = "ad"
			}
			if err := sh.OpenSessionAdapter(ids[j], prompt+b.N+1, ad); err != nil {
				b.Fatal(err)
			}
			toks := make([]int32, prompt)
			for i := range toks {
				toks[i] = int32(1+7*i+j) % vocab
			}
			if _, err := sh.Forward(ctx, ids[j], Input{Tokens: toks, Logits: LogitsLast, OmitLogits: true}); err != nil {
				b.Fatal(err)
			}
		}
		return ids
	}
	base, mix := open("b", false), open("m", true)
	step := func(ids []string, tok int32) (time.Duration, time.Duration) {
		batch := make([]BatchStep, k)
		for j := range batch {
			batch[j] = BatchStep{ID: ids[j], In: Input{Tokens: []int32{tok}, Logits: LogitsLast, OmitLogits: true}}
		}
		t0, c0 := time.Now(), cpuSeconds()
		_, errs := sh.ForwardBatch(ctx, batch)
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0), cpuSeconds() - c0
	}
	var bw, bc, mw, mc time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tok := int32(5+i) % vocab
		w, c := step(base, tok)
		bw, bc = bw+w, bc+c
		w, c = step(mix, tok)
		mw, mc = mw+w, mc+c
	}
	b.ReportMetric(float64(b.N*k)/bw.Seconds(), "base_tok/s")
	b.ReportMetric(float64(b.N*k)/mw.Seconds(), "mix_tok/s")
	b.ReportMetric(100*bw.Seconds()/mw.Seconds(), "mix_%_of_base_wall")
	b.ReportMetric(100*bc.Seconds()/mc.Seconds(), "mix_%_of_base_cpu")
}

package bench

import (
	"context"
	"fmt"
	"testing"

	"svc/internal/testenv"
	"svc/shards/model"
)

// benchShard opens a fixture model as one shard with two threads.
func benchShard(b *testing.B, name string) *model.Shard {
	m, err := model.Open(testenv.Path(b, "models", name), model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { m.Close() })
	sh, err := m.NewShard(0, m.Config().Blocks, model.ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sh.Close)
	return sh
}

// BenchmarkDecodeStep times one single-token Forward over the whole model,
// with its allocations (the per-token path should allocate little).
func BenchmarkDecodeStep(b *testing.B) {
	for _, name := range []string{"mini-llama-q8_0.gguf", "mini-llama-q4_0.gguf", "mini-llama-q4_k_m.gguf"} {
		b.Run(name, func(b *testing.B) {
			sh := benchShard(b, name)
			ctx := context.Background()
			in := model.Input{Tokens: []int32{1}, Logits: model.LogitsLast, OmitLogits: true}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%512 == 0 {
					b.StopTimer()
					_ = sh.CloseSession("d")
					if err := sh.OpenSession("d", 512); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if _, err := sh.Forward(ctx, "d", in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrefill times a 128-token batched Forward; tokens/s is reported.
func BenchmarkPrefill(b *testing.B) {
	for _, name := range []string{"mini-llama-q8_0.gguf", "mini-llama-q4_0.gguf"} {
		b.Run(name, func(b *testing.B) {
			sh := benchShard(b, name)
			ctx := context.Background()
			toks := make([]int32, 128)
			for i := range toks {
				toks[i] = int32(3 + i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				id := fmt.Sprint("p", i)
				if err := sh.OpenSession(id, len(toks)); err != nil {
					b.Fatal(err)
				}
				if _, err := sh.Forward(ctx, id, model.Input{Tokens: toks, Logits: model.LogitsLast, OmitLogits: true}); err != nil {
					b.Fatal(err)
				}
				_ = sh.CloseSession(id)
			}
			b.ReportMetric(float64(len(toks)*b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}

package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// BenchmarkDecodeContext times decoding steps of the model SVC_BENCH_MODEL
// at 128 and 2000 positions of context, e.g.
//
//	SVC_BENCH_MODEL=/tmp/svc-speed-models/tinyllama-q4_0.gguf go test -run '^$' -bench DecodeContext -benchtime 20x ./shards/model
//
// The cache is filled with random f16 keys and values instead of a
// prefill (attention's cost does not depend on them), and every step
// decodes at the same context. The shard has one thread, so the process's
// CPU time is the work: tok/cpu-s is a figure a shared machine disturbs
// little. On a set with a group kernel each iteration also runs the step
// with the per-head kernels ("perhead-"), alternating which goes first,
// for an A/B pair.
func BenchmarkDecodeContext(b *testing.B) {
	path := os.Getenv("SVC_BENCH_MODEL")
	if path == "" {
		b.Skip("set SVC_BENCH_MODEL to a GGUF file")
	}
	m, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	sh, err := m.NewShard(0, c.Blocks, ShardOptions{Threads: 1, CacheTokens: 2 * 2001, IdleTimeout: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer sh.Close()
	kerns := []*attnKernels{bestAttn}
	if bestAttn.group != nil {
		ph := *bestAttn
		ph.name, ph.group = "perhead", nil
		kerns = append(kerns, &ph)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{128, 2000} {
		n = min(n, c.Context-1)
		id := fmt.Sprint("ctx-", n)
		if err := sh.OpenSession(id, n+1); err != nil {
			b.Fatal(err)
		}
		s := sh.sessions[id]
		for i := range s.layers {
			s.layers[i] = layerCache{k: randF16(r, (n+1)*c.KVDim(), 1, false), v: randF16(r, (n+1)*c.KVDim(), 1, false)}
		}
		b.Run(fmt.Sprintf("ctx=%d", n), func(b *testing.B) {
			cpu := make([]float64, len(kerns))
			in := Input{Tokens: []int32{1}, Logits: LogitsLast, OmitLogits: true}
			for it := 0; b.Loop(); it++ {
				for i := range kerns {
					// Each goes first in turn: the order must not favour one.
					j := (i + it) % len(kerns)
					k := kerns[j]
					s.n = n
					s.sc.attn.kern = k
					c0 := cpuSeconds()
					if _, err := sh.Forward(context.Background(), id, in); err != nil {
						b.Fatal(err)
					}
					cpu[j] += (cpuSeconds() - c0).Seconds()
				}
			}
			for j, k := range kerns {
				name := "tok/cpu-s"
				if j > 0 {
					name = k.name + "-" + name
				}
				b.ReportMetric(float64(b.N)/cpu[j], name)
			}
		})
		sh.CloseSession(id)
	}
}

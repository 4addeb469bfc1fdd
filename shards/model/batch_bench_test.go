package model

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"svc/internal/testenv"
)

// BenchmarkDecodeBatch measures one decode step of k sessions at a whole
// model, batched (ForwardBatch) against one Forward per session, both
// alternating in the same run so they see the same machine load. Each
// session holds a 48-token prompt, as a chat request would. The model is
// SVC_BENCH_MODEL (default: the stories260K fixture), e.g.
//
//	SVC_BENCH_MODEL=/tmp/tinyllama-q4_0.gguf go test -run '^$' -bench DecodeBatch -benchtime 20x ./shards/model
func BenchmarkDecodeBatch(b *testing.B) {
	m := openBenchModel(b)
	defer m.Close()
	for _, k := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("sessions=%d", k), func(b *testing.B) {
			benchDecodeBatch(b, m, k)
		})
	}
}

// openBenchModel opens the model the benchmarks run on: SVC_BENCH_MODEL, or
// the stories260K fixture.
func openBenchModel(b *testing.B) *Model {
	path := os.Getenv("SVC_BENCH_MODEL")
	if path == "" {
		path = testenv.Path(b, "models", "stories260K.gguf")
	}
	m, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func benchDecodeBatch(b *testing.B, m *Model, k int) {
	ctx := context.Background()
	const prompt = 48
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer sh.Close()
	vocab := int32(m.Config().Vocab)
	ids := make([]string, k)
	for j := range ids {
		ids[j] = fmt.Sprintf("s%d", j)
		if err := sh.OpenSession(ids[j], prompt+2*b.N+1); err != nil {
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
	batch := make([]BatchStep, k)
	var batched, single time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tok := int32(5+i) % vocab
		for j := range batch {
			batch[j] = BatchStep{ID: ids[j], In: Input{Tokens: []int32{tok}, Logits: LogitsLast, OmitLogits: true}}
		}
		t0 := time.Now()
		_, errs := sh.ForwardBatch(ctx, batch)
		batched += time.Since(t0)
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		t0 = time.Now()
		for j := range ids {
			if _, err := sh.Forward(ctx, ids[j], Input{Tokens: []int32{tok}, Logits: LogitsLast, OmitLogits: true}); err != nil {
				b.Fatal(err)
			}
		}
		single += time.Since(t0)
	}
	n := float64(b.N * k)
	b.ReportMetric(n/batched.Seconds(), "batched_tok/s")
	b.ReportMetric(n/single.Seconds(), "single_tok/s")
	b.ReportMetric(single.Seconds()/batched.Seconds(), "speedup")
}

package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"svc/internal/testenv"
	"svc/shards/tensor"
)

// TestLoRAHeadChunks: the output head's pair computes B·(A·x) a chunk of
// headLoRARows rows at a time where a row's bits do not depend on the rows
// computed with it (every type but BF16), so that a step asking for every
// position's logits holds a temporary of that many rows of the vocabulary
// beside its logits, not one per position; the chunks give the bits of one
// product over every row.
func TestLoRAHeadChunks(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	const n = 3*headLoRARows + 5
	for _, o := range []struct {
		typ     tensor.Type
		rank    int
		chunked bool
		narrowB bool // B·t from B's transpose
	}{
		{tensor.F32, 4, true, true},
		{tensor.F16, 32, true, false},
		{tensor.Q8_0, 32, true, false},
		{tensor.BF16, 8, false, false},
	} {
		name := fmt.Sprintf("%v rank %d", o.typ, o.rank)
		a := synthAdapter(t, m, SynthAdapterOptions{Kinds: []string{KindOutput}, Rank: o.rank, Type: o.typ, Seed: 3, Std: 0.1})
		sh, err := m.NewShard(0, c.Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		if err := sh.AddAdapter("h", a, 1); err != nil {
			t.Fatal(err)
		}
		p := sh.adapters["h"].head
		if p == nil || (p.bt != nil) != o.narrowB {
			t.Fatalf("%s: head pair %v", name, p)
		}

		// A step of n positions, every position's logits.
		if err := sh.OpenSessionAdapter("s", n+1, "h"); err != nil {
			t.Fatal(err)
		}
		if _, err := sh.Forward(context.Background(), "s", Input{Tokens: sessionTokens(0, n, c.Vocab), Logits: LogitsAll, TopK: 2}); err != nil {
			t.Fatal(err)
		}
		sh.mu.Lock()
		held := cap(sh.sessions["s"].sc.loraD)
		sh.mu.Unlock()
		if o.chunked && held > headLoRARows*c.Vocab {
			t.Errorf("%s: the head pair's temporary holds %d floats after a step of %d positions; %d rows of %d are %d", name, held, n, headLoRARows, c.Vocab, headLoRARows*c.Vocab)
		}

		// The chunks' bits are those of one product over every row: two
		// spans sharing the pair, one without it.
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float32, n*c.Dim)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		spans := []loraSpan{{row0: 0, rows: 40, p: p}, {row0: 40, rows: 7}, {row0: 47, rows: n - 47, p: p}}
		add := func(chunk int) []float32 {
			out := make([]float32, n*c.Vocab)
			bs := sh.batchScratch()
			defer sh.putBatchScratch(bs)
			sh.addLoRASpans(&bs.sc, spans, x, c.Dim, out, c.Vocab, chunk)
			return out
		}
		whole, chunks := add(0), add(headLoRARows)
		sameBits(t, name+": chunked head pair", whole, chunks)
		for _, v := range whole[40*c.Vocab : 47*c.Vocab] {
			if v != 0 {
				t.Fatalf("%s: a span without the pair was adapted", name)
			}
		}
		sh.Close()
	}
}

package model

import (
	"context"
	"runtime"
	"testing"

	"svc/internal/testenv"
)

// stepAllocs is what a decode step through Forward may allocate: the
// *Output and the one slice in it that the caller keeps (Argmax on the last
// shard, Hidden on the others). Everything else — activations, quantized
// copies, attention buffers, pool jobs — is per-session or per-pool scratch
// that is reused, so the count does not grow with the number of blocks.
// Through ForwardInto with a kept Output a step allocates nothing.
const stepAllocs = 2

// decodeAllocs opens a session on sh, fills part of its cache with a
// prompt (so that the KV cache has reached its reserved size and does not
// grow during the measurement) and returns the average allocations of one
// single-position Forward. With gc, a garbage collection runs before each
// step: scratch that a collection throws away would be allocated again.
func decodeAllocs(t *testing.T, sh *Shard, into, gc bool) float64 {
	t.Helper()
	c := sh.Model().Config()
	const prompt, maxLen, runs = 40, 64, 20
	if err := sh.OpenSession("a", maxLen); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sh.CloseSession("a") }()
	ctx := context.Background()
	var in, step Input
	if sh.IsFirst() {
		in = Input{Tokens: testTokens(prompt, c.Vocab), Logits: LogitsLast, OmitLogits: true}
		step = Input{Tokens: []int32{5}, Logits: LogitsLast, OmitLogits: true}
	} else {
		h := make([]float32, prompt*c.Dim)
		for i := range h {
			h[i] = float32(i%17-8) / 8
		}
		in = Input{Hidden: h, Logits: LogitsLast, OmitLogits: true}
		step = Input{Hidden: h[:c.Dim], Logits: LogitsLast, OmitLogits: true}
	}
	if _, err := sh.Forward(ctx, "a", in); err != nil {
		t.Fatal(err)
	}
	var ferr error
	// AllocsPerRun makes one warm-up call (which grows the KV cache to the
	// session's reservation) before it counts; prompt+runs+1 < maxLen.
	var out Output
	n := testing.AllocsPerRun(runs, func() {
		if gc {
			runtime.GC()
		}
		var err error
		if into {
			err = sh.ForwardInto(ctx, "a", step, &out)
		} else {
			_, err = sh.Forward(ctx, "a", step)
		}
		if err != nil {
			ferr = err
		}
	})
	if ferr != nil {
		t.Fatal(ferr)
	}
	return n
}

// TestDecodeStepAllocs checks that a single-token Forward allocates only
// its result, for shards of one block and of every block, at either end of
// the model and in the middle: nothing in the per-token path allocates per
// block or per matrix product.
func TestDecodeStepAllocs(t *testing.T) {
	if avx512Simulated {
		t.Skip("the avx512sim build's interpreted kernels allocate per call")
	}
	m, err := Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	nb := m.Config().Blocks
	if nb < 3 {
		t.Fatalf("fixture has %d blocks, the test needs 3", nb)
	}
	for _, r := range []struct {
		name        string
		first, last int
	}{
		{"whole model", 0, nb},
		{"first block", 0, 1},
		{"first blocks", 0, nb - 1},
		{"middle block", 1, 2},
		{"last blocks", 1, nb},
		{"last block", nb - 1, nb},
	} {
		for _, threads := range []int{1, 2} {
			sh, err := m.NewShard(r.first, r.last, ShardOptions{Threads: threads, IdleTimeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			got := decodeAllocs(t, sh, false, false)
			into := decodeAllocs(t, sh, true, false)
			intoGC := decodeAllocs(t, sh, true, true)
			sh.Close()
			if got > stepAllocs {
				t.Errorf("%s [%d,%d), %d threads: %v allocations per decode step, want at most %d",
					r.name, r.first, r.last, threads, got, stepAllocs)
			}
			if into != 0 || intoGC != 0 {
				t.Errorf("%s [%d,%d), %d threads: %v allocations per ForwardInto decode step (%v with a collection before each), want none",
					r.name, r.first, r.last, threads, into, intoGC)
			}
		}
	}
}

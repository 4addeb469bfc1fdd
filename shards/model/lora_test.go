package model

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/lora"
	"svc/shards/tensor"
)

// synthAdapter writes a seeded adapter for m and opens it.
func synthAdapter(t testing.TB, m *Model, o SynthAdapterOptions) *lora.Adapter {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("adapter-r%d-%v-%d.gguf", o.Rank, o.Type, o.Seed))
	if err := m.SynthAdapter(path, o); err != nil {
		t.Fatal(err)
	}
	a, err := lora.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// loraModels are the models the adapter tests run on: both architectures,
// a trained model, and weight types with and without batch-invariant
// products (BF16's order depends on the row count).
var loraModels = []string{"stories260K", "mini-llama-q8_0", "mini-llama-bf16", "mini-llama-q4_k_m", "mini-qwen2-q4_k_m"}

// TestLoRABatchMixedBitIdentical runs five sessions (no adapter, x, y, x,
// y) through prompts and decode steps on a two-shard chain, each step alone
// and all sessions' steps in one ForwardBatch, and through one shard
// holding every block: every output has the same bits. It also checks that
// the adapters change the output.
func TestLoRABatchMixedBitIdentical(t *testing.T) {
	adapters := []string{"", "x", "y", "x", "y"}
	prompts := []int{7, 1, 12, 3, 5}
	const decode = 4
	for _, name := range loraModels {
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", name+".gguf"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			ax := synthAdapter(t, m, SynthAdapterOptions{Rank: 8, Alpha: 16, Type: tensor.F16, Seed: 1})
			ay := synthAdapter(t, m, SynthAdapterOptions{Rank: 4, Type: tensor.BF16, Seed: 2, Kinds: []string{"attn_q", "attn_v", "ffn_down"}, Std: 0.05})
			vocab := m.Config().Vocab
			type run struct {
				outs [][]*Output // [step][session]: the last shard's output
			}
			do := func(shards []*Shard, batched bool) run {
				for _, sh := range shards {
					if err := sh.AddAdapter("x", ax, 1); err != nil {
						t.Fatal(err)
					}
					if err := sh.AddAdapter("y", ay, 0.5); err != nil {
						t.Fatal(err)
					}
				}
				ids := make([]string, len(adapters))
				for s, a := range adapters {
					ids[s] = fmt.Sprintf("s%d", s)
					for _, sh := range shards {
						if err := sh.OpenSessionAdapter(ids[s], 64, a); err != nil {
							t.Fatal(err)
						}
					}
				}
				var r run
				next := make([]int32, len(adapters))
				for step := 0; step <= decode; step++ {
					ins := make([]Input, len(adapters))
					for s := range adapters {
						toks := []int32{next[s]}
						if step == 0 {
							toks = sessionTokens(s, prompts[s], vocab)
						}
						ins[s] = Input{Tokens: toks, Logits: LogitsLast, TopK: 3}
					}
					var outs []*Output
					for k, sh := range shards {
						if k > 0 {
							for s := range ins {
								ins[s] = Input{Hidden: outs[s].Hidden, Logits: LogitsLast, TopK: 3}
							}
						}
						outs = forwardAll(t, context.Background(), sh, ids, ins, batched)
					}
					for s := range adapters {
						next[s] = outs[s].Argmax[0]
					}
					r.outs = append(r.outs, outs)
				}
				return r
			}
			tw := twoShards(t, m)
			alone := do(tw[:], false)
			tw = twoShards(t, m)
			together := do(tw[:], true)
			one, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer one.Close()
			single := do([]*Shard{one}, true)
			for step := range alone.outs {
				for s := range adapters {
					what := fmt.Sprintf("step %d session %d (adapter %q)", step, s, adapters[s])
					sameOutput(t, what+" batched", alone.outs[step][s], together.outs[step][s])
					sameOutput(t, what+" one shard", alone.outs[step][s], single.outs[step][s])
				}
			}
			base, adapted := sameInputLogits(t, m, ax)
			if slices.Equal(base, adapted) {
				t.Fatal("the adapter does not change the logits")
			}
		})
	}
}

// sameInputLogits returns the logits of one prompt without and with the
// adapter.
func sameInputLogits(t *testing.T, m *Model, a *lora.Adapter) (base, adapted []float32) {
	t.Helper()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.AddAdapter("a", a, 1); err != nil {
		t.Fatal(err)
	}
	toks := sessionTokens(0, 6, m.Config().Vocab)
	for i, ad := range []string{"", "a"} {
		id := fmt.Sprint("cmp", i)
		if err := sh.OpenSessionAdapter(id, 16, ad); err != nil {
			t.Fatal(err)
		}
		out, err := sh.Forward(context.Background(), id, Input{Tokens: toks, Logits: LogitsLast})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			base = out.Logits
		} else {
			adapted = out.Logits
		}
	}
	return base, adapted
}

// TestLoRAZeroIsBase: an adapter whose B is zero (the usual initialisation
// of a new adapter) gives the base model's bits.
func TestLoRAZeroIsBase(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	pairs, err := lora.Synth(lora.SynthOptions{Targets: m.AdapterTargets(), Rank: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pairs {
		clear(pairs[i].B)
	}
	path := filepath.Join(t.TempDir(), "zero.gguf")
	if err := lora.WriteFile(path, lora.WriteOptions{Arch: "llama", Alpha: 8, Type: tensor.F32, Pairs: pairs}); err != nil {
		t.Fatal(err)
	}
	a, err := lora.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	base, adapted := sameInputLogits(t, m, a)
	sameBits(t, "zero adapter", base, adapted)
}

// TestLoRARefused: adapters that do not fit the model (a block matrix, the
// token embedding or the output head of another shape, a tensor the model
// does not have or svc does not adapt, a NaN), and sessions naming an
// adapter the shard does not hold, are refused with errors naming them;
// the token embedding's and the output head's pairs of the right shapes are
// accepted.
func TestLoRARefused(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	q, err := Open(testenv.Path(t, "models", "mini-qwen2-q4_k_m.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	sh, err := m.NewShard(0, 2, ShardOptions{Threads: 1, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	qa := synthAdapter(t, q, SynthAdapterOptions{Rank: 2, Type: tensor.F32, Seed: 1})
	if err := sh.AddAdapter("q", qa, 1); err == nil || !strings.Contains(err.Error(), "architecture") {
		t.Fatalf("qwen2 adapter on a llama model: %v", err)
	}
	// in and out as lora.PairData takes them: a token embedding's in is
	// the vocabulary, out its width.
	writeArch := func(arch, target string, in, out int) *lora.Adapter {
		pairs := []lora.PairData{{Target: target, In: in, Out: out, Rank: 2, A: make([]float32, 2*in), B: make([]float32, out*2)}}
		path := filepath.Join(t.TempDir(), "a.gguf")
		if err := lora.WriteFile(path, lora.WriteOptions{Arch: arch, Type: tensor.F32, Pairs: pairs}); err != nil {
			t.Fatal(err)
		}
		a, err := lora.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	write := func(target string, in, out int) *lora.Adapter { return writeArch("llama", target, in, out) }
	c := m.Config()
	for _, tc := range []struct {
		a    *lora.Adapter
		want string
	}{
		{write("blk.0.attn_q.weight", c.Dim, c.QDim()+1), "blk.0.attn_q.weight"},
		{write("blk.9.attn_q.weight", c.Dim, c.QDim()), "blk.9.attn_q.weight"},
		{write("output.weight", c.Dim, c.Vocab+1), fmt.Sprintf("output.weight has shape [%d %d]", c.Dim, c.Vocab)},
		{write("output.weight", c.Dim+1, c.Vocab), "output.weight"},
		{write("token_embd.weight", c.Vocab+1, c.Dim), fmt.Sprintf("token_embd.weight has shape [%d %d]", c.Dim, c.Vocab)},
		{write("token_embd.weight", c.Vocab, c.Dim-1), "token_embd.weight"},
		{write("output_norm.bias", c.Dim, 1), "output_norm.bias"},
		{write("blk.0.attn_norm.weight", c.Dim, 1), "blk.0.attn_norm.weight"},
	} {
		if err := sh.AddAdapter("bad", tc.a, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("adapter on %s: error %v, want one naming it", tc.want, err)
		}
	}
	// The ends of the model, of the right shapes, are adapted.
	if err := sh.AddAdapter("head", write("output.weight", c.Dim, c.Vocab), 1); err != nil {
		t.Errorf("head adapter: %v", err)
	}
	if err := sh.AddAdapter("embd", write("token_embd.weight", c.Vocab, c.Dim), 1); err != nil {
		t.Errorf("token embedding adapter: %v", err)
	}
	// A tied head has no output.weight to adapt.
	qc := q.Config()
	if err := q.CheckAdapter(writeArch("qwen2", "output.weight", qc.Dim, qc.Vocab)); err == nil || !strings.Contains(err.Error(), "output.weight") {
		t.Errorf("head adapter on a tied head: %v", err)
	}
	// A NaN in B (an adapter that diverged in training).
	pairs := []lora.PairData{{Target: "blk.1.ffn_down.weight", In: c.FFN, Out: c.Dim, Rank: 2, A: make([]float32, 2*c.FFN), B: make([]float32, c.Dim*2)}}
	pairs[0].B[7] = float32(math.NaN())
	nanPath := filepath.Join(t.TempDir(), "nan.gguf")
	if err := lora.WriteFile(nanPath, lora.WriteOptions{Arch: "llama", Type: tensor.F16, Pairs: pairs}); err != nil {
		t.Fatal(err)
	}
	na, err := lora.Open(nanPath)
	if err != nil {
		t.Fatal(err)
	}
	defer na.Close()
	if err := sh.AddAdapter("nan", na, 1); err == nil || !strings.Contains(err.Error(), "blk.1.ffn_down.weight.lora_b") {
		t.Fatalf("NaN adapter: %v", err)
	}
	pairs = []lora.PairData{{Target: "token_embd.weight", In: c.Vocab, Out: c.Dim, Rank: 2, A: make([]float32, 2*c.Vocab), B: make([]float32, c.Dim*2)}}
	pairs[0].A[2*c.Vocab-1] = float32(math.Inf(1))
	if err := lora.WriteFile(nanPath, lora.WriteOptions{Arch: "llama", Type: tensor.F32, Pairs: pairs}); err != nil {
		t.Fatal(err)
	}
	ia, err := lora.Open(nanPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ia.Close()
	if err := sh.AddAdapter("inf", ia, 1); err == nil || !strings.Contains(err.Error(), "token_embd.weight.lora_a") {
		t.Fatalf("infinite embedding adapter: %v", err)
	}
	if err := sh.OpenSessionAdapter("s", 8, "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("unknown adapter: %v", err)
	}
}

// TestLoRANarrowB: the transposed product of a narrow B equals MatMul's,
// bit for bit, for F32 and F16, every narrow rank, one row and several.
func TestLoRANarrowB(t *testing.T) {
	for _, typ := range []tensor.Type{tensor.F32, tensor.F16} {
		for _, r := range []int{1, 3, 16, 31} {
			const in, out = 64, 40
			pairs, err := lora.Synth(lora.SynthOptions{Targets: []lora.Target{{Name: "blk.0.attn_q.weight", In: in, Out: out}}, Rank: r, Seed: uint64(r), Std: 0.7})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "n.gguf")
			if err := lora.WriteFile(path, lora.WriteOptions{Arch: "llama", Type: typ, Pairs: pairs}); err != nil {
				t.Fatal(err)
			}
			a, err := lora.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			p, _ := a.Pair("blk.0.attn_q.weight")
			lp := newLoRAPair(p, 1)
			a.Close()
			if lp.bt == nil {
				t.Fatalf("%v rank %d: not narrow", typ, r)
			}
			for _, rows := range []int{1, 4, 7} {
				x := make([]float32, rows*r)
				for i := range x {
					x[i] = float32(math.Sin(float64(i*r+1))) * 3
				}
				want := make([]float32, rows*out)
				tensor.MatMul(nil, tensor.NewWorkspace(), lp.b, x, rows, want)
				got := make([]float32, rows*out)
				lp.narrowB(x, rows, got)
				sameBits(t, fmt.Sprintf("%v rank %d rows %d", typ, r, rows), want, got)
			}
		}
	}
}

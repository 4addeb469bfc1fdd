package model

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
	"svc/shards/lora"
	"svc/shards/tensor"
)

// The adapters of the model's ends: the token embedding's pair (looked up
// by token) and the output head's.

// endKinds are the SynthAdapter kinds of a model's ends: the token
// embedding, and the output head unless it is tied.
func endKinds(m *Model) []string {
	if m.Config().TiedHead {
		return []string{KindTokenEmbd}
	}
	return []string{KindTokenEmbd, KindOutput}
}

// TestLoRAEndsMerged: an adapter of the token embedding and the output head
// gives the logits of the base model whose token_embd.weight and
// output.weight were merged with it in float64 and stored as F32 (for a
// tied head, which svc does not adapt with the embedding's pair, the merged
// file's head is the original token_embd.weight as output.weight), over a
// prompt and decode steps; the adapter changes them far beyond that. The
// merge's rounding differs from the adapted sum's, which the random-weight
// blocks amplify, so the logits agree within the tolerance of the
// comparisons with llama.cpp; with the embedding merged by float32
// operations in llama.cpp's order the bits are the same.
func TestLoRAEndsMerged(t *testing.T) {
	for _, name := range []string{"mini-llama-f32", "mini-qwen2-q8_0"} {
		t.Run(name, func(t *testing.T) {
			src := testenv.Path(t, "models", name+".gguf")
			m, err := Open(src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			a := synthAdapter(t, m, SynthAdapterOptions{Kinds: endKinds(m), Rank: 4, Alpha: 8, Type: tensor.F32, Seed: 11, Std: 0.1})
			merged, err := Open(mergeEnds(t, m, a, 1, false), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer merged.Close()
			if merged.Config().TiedHead {
				t.Fatal("the merged model's head is tied")
			}

			toks := sessionTokens(0, 12, m.Config().Vocab)
			// A prompt of 8 positions, every row's logits, then 4 decode steps.
			run := func(m *Model, adapter string) [][]float32 {
				t.Helper()
				sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
				if err != nil {
					t.Fatal(err)
				}
				defer sh.Close()
				if adapter != "" {
					if err := sh.AddAdapter(adapter, a, 1); err != nil {
						t.Fatal(err)
					}
				}
				if err := sh.OpenSessionAdapter("s", 16, adapter); err != nil {
					t.Fatal(err)
				}
				var rows [][]float32
				vocab := m.Config().Vocab
				for i := 0; i < len(toks); {
					n, mode := 1, LogitsLast
					if i == 0 {
						n, mode = 8, LogitsAll
					}
					out, err := sh.Forward(context.Background(), "s", Input{Tokens: toks[i : i+n], Logits: mode})
					if err != nil {
						t.Fatal(err)
					}
					for r := 0; r < len(out.Logits)/vocab; r++ {
						rows = append(rows, out.Logits[r*vocab:(r+1)*vocab])
					}
					i += n
				}
				return rows
			}
			adapted, want, base := run(m, "a"), run(merged, ""), run(m, "")
			maxDiff := func(x, y [][]float32) float64 {
				worst := 0.0
				for r := range x {
					lx, ly := logSumExp(x[r]), logSumExp(y[r])
					for v := range x[r] {
						worst = max(worst, math.Abs((float64(x[r][v])-lx)-(float64(y[r][v])-ly)))
					}
				}
				return worst
			}
			// Merging changes only the rounding, which the blocks amplify
			// little: the tolerance of the comparisons with llama.cpp.
			tol := tolerance(name)
			if d := maxDiff(adapted, want); d > tol {
				t.Errorf("adapted and merged log-probabilities differ by %.6f nats, more than %g", d, tol)
			}
			if d := maxDiff(adapted, base); d < 10*tol {
				t.Errorf("the adapter changes the log-probabilities by %.6f nats only", d)
			}
			t.Logf("max |Δ logprob| adapted vs merged %.2g, adapted vs base %.3g", maxDiff(adapted, want), maxDiff(adapted, base))

			// The embedding alone, merged in float32 as llama.cpp adds it.
			a = synthAdapter(t, m, SynthAdapterOptions{Kinds: []string{KindTokenEmbd}, Rank: 4, Alpha: 8, Type: tensor.F32, Seed: 12, Std: 0.1})
			exact, err := Open(mergeEnds(t, m, a, 1, true), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer exact.Close()
			adapted, want = run(m, "a"), run(exact, "")
			for r := range adapted {
				sameBits(t, fmt.Sprintf("embedding adapter, logits row %d", r), want[r], adapted[r])
			}
		})
	}
}

// mergeEnds writes a copy of m's file whose token_embd.weight (and
// output.weight, if the adapter adapts it) hold W + scale·ΔW computed in
// float64 from a's pairs, stored as F32. A tied head keeps the original
// token_embd.weight as a separate output.weight. inOrder computes the
// embedding's rows with float32 operations in llama.cpp's order instead.
func mergeEnds(t *testing.T, m *Model, a *lora.Adapter, userScale float32, inOrder bool) string {
	t.Helper()
	c := m.Config()
	f := m.file
	matrix := func(name string) (tensor.Matrix, *gguf.TensorInfo) {
		ti, ok := f.Tensor(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return tensor.Matrix{Type: tensor.Type(ti.Type), Rows: c.Vocab, Cols: c.Dim, Data: f.Data(ti)}, ti
	}
	rowsOf := func(w tensor.Matrix) [][]float64 {
		out := make([][]float64, w.Rows)
		row := make([]float32, w.Cols)
		for r := range out {
			if err := tensor.Row(w, r, row); err != nil {
				t.Fatal(err)
			}
			out[r] = make([]float64, w.Cols)
			for j, v := range row {
				out[r][j] = float64(v)
			}
		}
		return out
	}
	f32 := func(w [][]float64) []byte {
		b := make([]byte, 0, len(w)*len(w[0])*4)
		for _, row := range w {
			for _, v := range row {
				b = append(b, make([]byte, 4)...)
				u := math.Float32bits(float32(v))
				b[len(b)-4], b[len(b)-3], b[len(b)-2], b[len(b)-1] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
			}
		}
		return b
	}
	// delta(W)[o][i] = scale·Σ_k B[o][k]·A[k][i], over the matrices'
	// float64 values (A's rows indexed by input i for the embedding:
	// ΔE[t][j] = scale·Σ_k B[j][k]·A[t][k]).
	merge := func(target string, w [][]float64) {
		p, ok := a.Pair(target)
		if !ok {
			t.Fatalf("the adapter has no %s", target)
		}
		A, B := rowsOf(p.A), rowsOf(p.B)
		scale := float64(p.Scale(a.Alpha, userScale))
		if p.Embedding && inOrder {
			// llama.cpp's float32 operations: the rank-long dot product
			// summed in order, each product rounded, then scaled and
			// added.
			s32 := float32(scale)
			for r := range w {
				for j := range w[r] {
					var d float32
					for k := 0; k < p.Rank; k++ {
						d += float32(float32(B[j][k]) * float32(A[r][k]))
					}
					w[r][j] = float64(float32(w[r][j]) + float32(d*s32))
				}
			}
			return
		}
		for r := range w {
			for j := range w[r] {
				s := 0.0
				for k := 0; k < p.Rank; k++ {
					if p.Embedding {
						s += B[j][k] * A[r][k]
					} else {
						s += B[r][k] * A[k][j]
					}
				}
				w[r][j] += scale * s
			}
		}
	}
	data := map[string][]byte{}
	types := map[string]gguf.TensorType{}
	embd, _ := matrix("token_embd.weight")
	e := rowsOf(embd)
	if _, ok := a.Pair("token_embd.weight"); ok {
		merge("token_embd.weight", e)
	}
	data["token_embd.weight"], types["token_embd.weight"] = f32(e), gguf.TypeF32
	headName := "output.weight"
	if c.TiedHead {
		headName = "token_embd.weight"
	}
	head, hti := matrix(headName)
	if _, ok := a.Pair("output.weight"); ok {
		h := rowsOf(head)
		merge("output.weight", h)
		data["output.weight"], types["output.weight"] = f32(h), gguf.TypeF32
	} else {
		data["output.weight"], types["output.weight"] = f.Data(hti), hti.Type
	}

	var specs []gguf.TensorSpec
	for _, ti := range f.Tensors {
		spec := gguf.TensorSpec{Name: ti.Name, Dims: slices.Clone(ti.Dims), Type: ti.Type}
		if typ, ok := types[ti.Name]; ok {
			spec.Type = typ
		}
		specs = append(specs, spec)
	}
	if c.TiedHead {
		specs = append(specs, gguf.TensorSpec{Name: "output.weight", Dims: []uint64{uint64(c.Dim), uint64(c.Vocab)}, Type: types["output.weight"]})
	}
	path := filepath.Join(t.TempDir(), "merged.gguf")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	err = gguf.Write(out, f.KVs, specs, f.Alignment, func(i int, w io.Writer) error {
		b, ok := data[specs[i].Name]
		if !ok {
			ti, _ := f.Tensor(specs[i].Name)
			b = f.Data(ti)
		}
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoRAEndsBatchSplit: sessions with adapters of the ends (with a block
// matrix, F32 and BF16) and sessions without one, each step alone and all
// in one ForwardBatch, on two shards and on one: the same bits everywhere,
// a session without an adapter has the base model's bits, and the adapters
// change the output.
func TestLoRAEndsBatchSplit(t *testing.T) {
	adapters := []string{"", "e", "w", "", "e", "w"}
	prompts := []int{5, 9, 1, 5, 3, 6}
	const decode = 3
	for _, name := range []string{"stories260K", "mini-llama-q8_0", "mini-qwen2-q4_k_m"} {
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", name+".gguf"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			ae := synthAdapter(t, m, SynthAdapterOptions{Kinds: append(endKinds(m), "attn_v"), Rank: 4, Alpha: 8, Type: tensor.F32, Seed: 4, Std: 0.1})
			aw := synthAdapter(t, m, SynthAdapterOptions{Kinds: endKinds(m), Rank: 8, Type: tensor.BF16, Seed: 5, Std: 0.1})
			vocab := m.Config().Vocab
			do := func(shards []*Shard, batched bool, adapters []string) [][]*Output {
				t.Helper()
				for _, sh := range shards {
					if err := sh.AddAdapter("e", ae, 1); err != nil {
						t.Fatal(err)
					}
					if err := sh.AddAdapter("w", aw, 0.5); err != nil {
						t.Fatal(err)
					}
				}
				ids := make([]string, len(adapters))
				for s, a := range adapters {
					ids[s] = fmt.Sprint("s", s)
					for _, sh := range shards {
						if err := sh.OpenSessionAdapter(ids[s], 32, a); err != nil {
							t.Fatal(err)
						}
					}
				}
				var outs [][]*Output
				next := make([]int32, len(adapters))
				for step := 0; step <= decode; step++ {
					ins := make([]Input, len(adapters))
					for s := range adapters {
						ins[s] = Input{Tokens: []int32{next[s]}, Logits: LogitsLast, TopK: 3}
						if step == 0 {
							ins[s] = Input{Tokens: sessionTokens(s, prompts[s], vocab), Logits: LogitsAll, TopK: 2}
						}
					}
					var o []*Output
					for k, sh := range shards {
						if k > 0 {
							for s := range ins {
								ins[s] = Input{Hidden: o[s].Hidden, Logits: ins[s].Logits, TopK: ins[s].TopK}
							}
						}
						o = forwardAll(t, context.Background(), sh, ids, ins, batched)
					}
					for s := range adapters {
						next[s] = o[s].Argmax[len(o[s].Argmax)-1]
					}
					outs = append(outs, o)
				}
				return outs
			}
			whole := func() []*Shard {
				sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(sh.Close)
				return []*Shard{sh}
			}
			tw := twoShards(t, m)
			alone := do(tw[:], false, adapters)
			tw = twoShards(t, m)
			together := do(tw[:], true, adapters)
			single := do(whole(), true, adapters)
			base := do(whole(), false, make([]string, len(adapters)))
			for step := range alone {
				for s, a := range adapters {
					what := fmt.Sprintf("step %d session %d (adapter %q)", step, s, a)
					sameOutput(t, what+" batched", alone[step][s], together[step][s])
					sameOutput(t, what+" one shard", alone[step][s], single[step][s])
					if a == "" {
						sameOutput(t, what+" base", base[step][s], together[step][s])
					}
				}
			}
			for s, a := range adapters {
				if a != "" && slices.Equal(alone[0][s].Logits, base[0][s].Logits) {
					t.Errorf("adapter %q does not change session %d's logits", a, s)
				}
			}
		})
	}
}

// TestLoRAEndsPromptCache: a first step computed with an adapter of the
// ends is answered from the prompt cache only for a session with that
// adapter, with the bits of computing it, and never for the base model or
// another adapter.
func TestLoRAEndsPromptCache(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	e1 := synthAdapter(t, m, SynthAdapterOptions{Kinds: []string{KindTokenEmbd}, Rank: 4, Type: tensor.F16, Seed: 1, Std: 0.1})
	e2 := synthAdapter(t, m, SynthAdapterOptions{Kinds: []string{KindOutput}, Rank: 4, Type: tensor.F16, Seed: 2, Std: 0.1})
	shard := func(cache int64) *Shard {
		sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: cache, Threads: 2, IdleTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sh.Close)
		for n, a := range map[string]*lora.Adapter{"e1": e1, "e2": e2} {
			if err := sh.AddAdapter(n, a, 1); err != nil {
				t.Fatal(err)
			}
		}
		return sh
	}
	cached, plain := shard(0), shard(-1)
	in := Input{Tokens: sessionTokens(0, 6, m.Config().Vocab), Logits: LogitsLast, TopK: 3}
	sid := 0
	step := func(sh *Shard, adapter string) *Output {
		t.Helper()
		sid++
		id := fmt.Sprint("s", sid)
		if err := sh.OpenSessionAdapter(id, 16, adapter); err != nil {
			t.Fatal(err)
		}
		out, err := sh.Forward(context.Background(), id, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	names := []string{"", "e1", "e2"}
	for k, a := range names {
		if out := step(cached, a); out.Cached != 0 {
			t.Fatalf("adapter %q: answered from the cache of another adapter", a)
		}
		if st := cached.PromptCacheStats(); st.Hits != 0 || st.Misses != uint64(k+1) {
			t.Fatalf("adapter %q: %+v", a, st)
		}
	}
	for _, a := range names {
		got := step(cached, a)
		if got.Cached == 0 {
			t.Fatalf("adapter %q: the repeated first step was computed again", a)
		}
		got.Cached = 0
		sameOutput(t, fmt.Sprintf("adapter %q hit", a), step(plain, a), got)
	}
	if b, x := step(plain, ""), step(plain, "e2"); slices.Equal(b.Logits, x.Logits) {
		t.Fatal("the head adapter does not change the logits")
	}
}

package model

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"svc/internal/testenv"
	"svc/shards/tensor"
)

// promptCacheModels are the fixtures the prompt cache tests run on: a
// Llama, a Qwen2 (biases, tied head) and BF16 (products not
// batch-invariant, so ForwardBatch computes decode steps alone).
var promptCacheModels = []string{"stories260K", "mini-qwen2-q4_k_m", "mini-llama-bf16"}

// threeShards splits a model into a first, a middle and a last shard.
func threeShards(t *testing.T, m *Model, o ShardOptions) []*Shard {
	t.Helper()
	L := m.Config().Blocks
	if L < 3 {
		t.Fatalf("model has %d blocks, need 3", L)
	}
	a, b := L/3, 2*L/3
	var out []*Shard
	for _, r := range [][2]int{{0, a}, {a, b}, {b, L}} {
		o.Threads, o.IdleTimeout = 2, -1
		sh, err := m.NewShard(r[0], r[1], o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sh.Close)
		out = append(out, sh)
	}
	return out
}

// chainStep runs one step of session id through the shards, each step
// alone (batch nil) or as part of a ForwardBatch together with the steps
// other(i) adds for shard i, and returns every shard's output.
func chainStep(t *testing.T, shards []*Shard, id string, in Input) []*Output {
	t.Helper()
	outs := make([]*Output, len(shards))
	for i, sh := range shards {
		hin := in
		if i > 0 {
			hin.Tokens, hin.Hidden = nil, outs[i-1].Hidden
		}
		out, err := sh.Forward(context.Background(), id, hin)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = out
	}
	return outs
}

func openAll(t *testing.T, shards []*Shard, id string, maxLen int, o SessionOptions) {
	t.Helper()
	for _, sh := range shards {
		if err := sh.OpenSessionWith(id, maxLen, o); err != nil {
			t.Fatal(err)
		}
	}
}

// decodeSteps decodes k tokens greedily in session id (full logits and
// top-k of every step) and returns the last shard's outputs.
func decodeSteps(t *testing.T, shards []*Shard, id string, tok int32, k int) []*Output {
	t.Helper()
	var outs []*Output
	for range k {
		o := chainStep(t, shards, id, Input{Tokens: []int32{tok}, Logits: LogitsLast, TopK: 3})
		last := o[len(o)-1]
		outs = append(outs, last)
		tok = last.Argmax[0]
	}
	return outs
}

// TestPromptCacheHitBitIdentical checks that a first step answered from
// the cache, on a first, a middle and a last shard, returns the bits the
// computation returns, and that the session then decodes exactly as a
// session that computed its first step (against shards without a cache).
func TestPromptCacheHitBitIdentical(t *testing.T) {
	for _, name := range promptCacheModels {
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", name+".gguf"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			cached := threeShards(t, m, ShardOptions{})
			plain := threeShards(t, m, ShardOptions{PromptCacheBytes: -1})
			prompt := testTokens(9, m.Config().Vocab)
			first := Input{Tokens: prompt, Logits: LogitsAll, TopK: 4}
			const decode = 4

			openAll(t, plain, "ref", 32, SessionOptions{})
			ref := chainStep(t, plain, "ref", first)
			refDec := decodeSteps(t, plain, "ref", ref[2].Argmax[len(prompt)-1], decode)

			for s, sess := range []string{"cold", "hit1", "hit2"} {
				openAll(t, cached, sess, 32, SessionOptions{})
				got := chainStep(t, cached, sess, first)
				wantCached := 0
				if s > 0 {
					wantCached = len(prompt)
				}
				for i := range got {
					sameOutput(t, fmt.Sprintf("%s shard %d first step", sess, i), got[i], ref[i])
					if got[i].Cached != wantCached {
						t.Fatalf("%s shard %d: Cached %d, want %d", sess, i, got[i].Cached, wantCached)
					}
					st := cached[i].PromptCacheStats()
					if st.Hits != uint64(s) || st.Misses != 1 || st.Entries != 1 {
						t.Fatalf("%s shard %d: stats %+v, want %d hits, 1 miss, 1 entry", sess, i, st, s)
					}
				}
				dec := decodeSteps(t, cached, sess, got[2].Argmax[len(prompt)-1], decode)
				for k := range dec {
					sameOutput(t, fmt.Sprintf("%s decode step %d", sess, k), dec[k], refDec[k])
					if dec[k].Cached != 0 {
						t.Fatalf("%s decode step %d: Cached %d", sess, k, dec[k].Cached)
					}
				}
				// Later steps are never cached.
				if st := cached[0].PromptCacheStats(); st.Hits != uint64(s) || st.Misses != 1 {
					t.Fatalf("%s: decode steps changed the stats: %+v", sess, st)
				}
				if n, err := cached[1].SessionLen(sess); err != nil || n != len(prompt)+decode {
					t.Fatalf("%s: middle shard holds %d positions (%v), want %d", sess, n, err, len(prompt)+decode)
				}
			}
		})
	}
}

// TestPromptCacheForwardBatch runs, per shard, one ForwardBatch that mixes
// a cached first step, an uncached first step and a decode step, and
// checks every output and the sessions' later decoding against steps
// computed alone without a cache.
func TestPromptCacheForwardBatch(t *testing.T) {
	for _, name := range promptCacheModels {
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", name+".gguf"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			vocab := m.Config().Vocab
			cached := threeShards(t, m, ShardOptions{})
			plain := threeShards(t, m, ShardOptions{PromptCacheBytes: -1})
			pa, pb := sessionTokens(1, 7, vocab), sessionTokens(2, 5, vocab)
			inA := Input{Tokens: pa, Logits: LogitsLast, TopK: 2}
			inB := Input{Tokens: pb, Logits: LogitsLast}

			// References: each session alone, no cache.
			openAll(t, plain, "a", 32, SessionOptions{})
			openAll(t, plain, "b", 32, SessionOptions{})
			refA := chainStep(t, plain, "a", inA)
			refA2 := chainStep(t, plain, "a", Input{Tokens: []int32{refA[2].Argmax[0]}, Logits: LogitsLast})
			refB := chainStep(t, plain, "b", inB)
			refAdec := decodeSteps(t, plain, "a", refA2[2].Argmax[0], 3)
			refBdec := decodeSteps(t, plain, "b", refB[2].Argmax[0], 3)

			// Fill the cache with a's first step and advance "warm" by it.
			openAll(t, cached, "warm", 32, SessionOptions{})
			warm := chainStep(t, cached, "warm", inA)
			for i := range warm {
				sameOutput(t, fmt.Sprintf("warm shard %d", i), warm[i], refA[i])
			}
			// One batch per shard: "a" (a hit), "b" (a miss) and "warm"'s
			// second step (a decode step).
			openAll(t, cached, "a", 32, SessionOptions{})
			openAll(t, cached, "b", 32, SessionOptions{})
			var prev []*Output
			for i, sh := range cached {
				steps := []BatchStep{{ID: "a", In: inA}, {ID: "b", In: inB}, {ID: "warm", In: Input{Tokens: []int32{refA[2].Argmax[0]}, Logits: LogitsLast}}}
				if i > 0 {
					for j := range steps {
						steps[j].In.Tokens, steps[j].In.Hidden = nil, prev[j].Hidden
					}
				}
				outs, errs := sh.ForwardBatch(context.Background(), steps)
				for j, err := range errs {
					if err != nil {
						t.Fatalf("shard %d step %d: %v", i, j, err)
					}
				}
				sameOutput(t, fmt.Sprintf("shard %d hit", i), outs[0], refA[i])
				sameOutput(t, fmt.Sprintf("shard %d miss", i), outs[1], refB[i])
				sameOutput(t, fmt.Sprintf("shard %d decode", i), outs[2], refA2[i])
				if c := [3]int{outs[0].Cached, outs[1].Cached, outs[2].Cached}; c != [3]int{len(pa), 0, 0} {
					t.Fatalf("shard %d: Cached %v, want %d for the hit alone", i, c, len(pa))
				}
				if st := sh.PromptCacheStats(); st.Hits != 1 || st.Misses != 2 || st.Entries != 2 {
					t.Fatalf("shard %d: stats %+v, want 1 hit, 2 misses, 2 entries", i, st)
				}
				prev = outs
			}
			// "a" is one step behind "warm": give it the same second step.
			chainStep(t, cached, "a", Input{Tokens: []int32{refA[2].Argmax[0]}, Logits: LogitsLast})
			for k, o := range decodeSteps(t, cached, "a", refA2[2].Argmax[0], 3) {
				sameOutput(t, fmt.Sprintf("a decode %d", k), o, refAdec[k])
			}
			for k, o := range decodeSteps(t, cached, "b", refB[2].Argmax[0], 3) {
				sameOutput(t, fmt.Sprintf("b decode %d", k), o, refBdec[k])
			}
		})
	}
}

// TestPromptCacheKey checks that a first step differing in anything the
// result depends on (tokens, hidden bits, logits mode, top-k, omitted
// logits, adapter, scope) misses, and that only an identical one hits.
func TestPromptCacheKey(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	L := m.Config().Blocks
	first, err := m.NewShard(0, L, ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	middle, err := m.NewShard(1, L, ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer middle.Close()
	ad := synthAdapter(t, m, SynthAdapterOptions{Rank: 4, Type: tensor.F16, Seed: 3})
	for _, sh := range []*Shard{first, middle} {
		if err := sh.AddAdapter("x", ad, 1); err != nil {
			t.Fatal(err)
		}
	}
	prompt := testTokens(6, m.Config().Vocab)
	base := Input{Tokens: prompt, Logits: LogitsLast}
	hidden := make([]float32, 3*m.Config().Dim)
	for i := range hidden {
		hidden[i] = float32(i%17) / 16
	}
	sid := 0
	step := func(sh *Shard, in Input, o SessionOptions) *Output {
		t.Helper()
		sid++
		id := fmt.Sprintf("s%d", sid)
		if err := sh.OpenSessionWith(id, 16, o); err != nil {
			t.Fatal(err)
		}
		defer sh.CloseSession(id)
		out, err := sh.Forward(context.Background(), id, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	expect := func(sh *Shard, what string, hits, misses uint64) {
		t.Helper()
		if st := sh.PromptCacheStats(); st.Hits != hits || st.Misses != misses {
			t.Fatalf("%s: %d hits, %d misses; want %d, %d", what, st.Hits, st.Misses, hits, misses)
		}
	}
	step(first, base, SessionOptions{})
	expect(first, "first", 0, 1)
	step(first, base, SessionOptions{})
	expect(first, "identical", 1, 1)
	variants := []struct {
		what string
		in   Input
		o    SessionOptions
	}{
		{"other token", Input{Tokens: append(slices.Clone(prompt[:5]), prompt[5]+1), Logits: LogitsLast}, SessionOptions{}},
		{"shorter", Input{Tokens: prompt[:5], Logits: LogitsLast}, SessionOptions{}},
		{"logits all", Input{Tokens: prompt, Logits: LogitsAll}, SessionOptions{}},
		{"logits none", Input{Tokens: prompt, Logits: LogitsNone}, SessionOptions{}},
		{"top-k", Input{Tokens: prompt, Logits: LogitsLast, TopK: 2}, SessionOptions{}},
		{"omit logits", Input{Tokens: prompt, Logits: LogitsLast, OmitLogits: true}, SessionOptions{}},
		{"score", Input{Tokens: prompt, Logits: LogitsAll, Score: prompt[1:]}, SessionOptions{}},
		{"adapter", base, SessionOptions{Adapter: "x"}},
		{"scope", base, SessionOptions{PromptCacheScope: []byte("tenant-1")}},
		{"other scope", base, SessionOptions{PromptCacheScope: []byte("tenant-2")}},
	}
	for k, v := range variants {
		step(first, v.in, v.o)
		expect(first, v.what, 1, uint64(2+k))
	}
	// Each variant is now cached under its own key.
	for k, v := range variants {
		step(first, v.in, v.o)
		expect(first, v.what+" again", uint64(2+k), uint64(1+len(variants)))
	}
	// An adapted hit returns the adapter's bits, not the base's.
	plain, err := m.NewShard(0, L, ShardOptions{Threads: 2, IdleTimeout: -1, PromptCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := plain.AddAdapter("x", ad, 1); err != nil {
		t.Fatal(err)
	}
	sameOutput(t, "adapted hit", step(first, base, SessionOptions{Adapter: "x"}), step(plain, base, SessionOptions{Adapter: "x"}))

	// Hidden-state inputs: one bit of difference misses.
	step(middle, Input{Hidden: hidden, Logits: LogitsLast}, SessionOptions{})
	step(middle, Input{Hidden: hidden, Logits: LogitsLast}, SessionOptions{})
	expect(middle, "hidden", 1, 1)
	h2 := slices.Clone(hidden)
	h2[len(h2)-1] += 1.0 / (1 << 20)
	step(middle, Input{Hidden: h2, Logits: LogitsLast}, SessionOptions{})
	expect(middle, "hidden one value off", 1, 2)
}

// TestPromptCacheBudget checks that entries stay within the byte budget,
// the least recently used going first, that an entry larger than the
// budget is not stored, and that a disabled cache stores nothing.
func TestPromptCacheBudget(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	L := c.Blocks
	// A first step of n positions with LogitsNone on a shard of every
	// block holds only keys and values.
	entry := func(n int) int64 { return int64(2 * 2 * n * c.KVDim() * L) }
	const n = 4
	budget := 2*entry(n) + entry(n)/2
	sh, err := m.NewShard(0, L, ShardOptions{Threads: 2, IdleTimeout: -1, PromptCacheBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	sid := 0
	run := func(sh *Shard, toks []int32) {
		t.Helper()
		sid++
		id := fmt.Sprintf("s%d", sid)
		if err := sh.OpenSession(id, 16); err != nil {
			t.Fatal(err)
		}
		defer sh.CloseSession(id)
		if _, err := sh.Forward(context.Background(), id, Input{Tokens: toks}); err != nil {
			t.Fatal(err)
		}
	}
	prompts := make([][]int32, 4)
	for i := range prompts {
		prompts[i] = sessionTokens(i, n, c.Vocab)
	}
	run(sh, prompts[0])
	run(sh, prompts[1])
	run(sh, prompts[0]) // 0 becomes the most recently used
	run(sh, prompts[2]) // evicts 1
	st := sh.PromptCacheStats()
	if st.Entries != 2 || st.Bytes != 2*entry(n) || st.Bytes > st.Budget || st.Budget != budget {
		t.Fatalf("stats %+v: want 2 entries of %d bytes within %d", st, entry(n), budget)
	}
	run(sh, prompts[0])
	run(sh, prompts[2])
	run(sh, prompts[1])
	if st := sh.PromptCacheStats(); st.Hits != 3 || st.Misses != 4 || st.Entries != 2 || st.Bytes > budget {
		t.Fatalf("after the lookups: %+v, want 3 hits (0 twice, 2), 4 misses (0, 1, 2, 1 again)", st)
	}
	// A step larger than the budget is computed but not kept.
	run(sh, sessionTokens(9, 3*n, c.Vocab))
	if st := sh.PromptCacheStats(); st.Entries != 2 || st.Bytes > budget {
		t.Fatalf("after a step larger than the budget: %+v", st)
	}

	off, err := m.NewShard(0, L, ShardOptions{Threads: 2, IdleTimeout: -1, PromptCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	run(off, prompts[0])
	run(off, prompts[0])
	if st := off.PromptCacheStats(); st != (PromptCacheStats{}) {
		t.Fatalf("disabled cache: %+v", st)
	}
	def, err := m.NewShard(0, L, ShardOptions{Threads: 1, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	if st := def.PromptCacheStats(); st.Budget != DefaultPromptCacheBytes {
		t.Fatalf("default budget %d, want %d", st.Budget, DefaultPromptCacheBytes)
	}
}

// TestPromptCacheOwnsItsCopies checks that changing the outputs a miss and
// a hit returned, and the input a miss was computed from, leaves the cached
// entry as it was.
func TestPromptCacheOwnsItsCopies(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	L := m.Config().Blocks
	for _, r := range [][2]int{{0, L}, {0, L - 1}} {
		sh, err := m.NewShard(r[0], r[1], ShardOptions{Threads: 2, IdleTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer sh.Close()
		in := Input{Tokens: testTokens(5, m.Config().Vocab), Logits: LogitsAll, TopK: 3}
		var want *Output
		for k := range 3 {
			id := fmt.Sprintf("s%d-%d", r[1], k)
			if err := sh.OpenSession(id, 8); err != nil {
				t.Fatal(err)
			}
			out, err := sh.Forward(context.Background(), id, in)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = &Output{Hidden: slices.Clone(out.Hidden), Logits: slices.Clone(out.Logits), Argmax: slices.Clone(out.Argmax)}
				for _, tp := range out.Top {
					want.Top = append(want.Top, slices.Clone(tp))
				}
			} else {
				sameOutput(t, fmt.Sprintf("blocks [%d,%d) step %d", r[0], r[1], k), out, want)
			}
			for i := range out.Hidden {
				out.Hidden[i] = -1
			}
			for i := range out.Logits {
				out.Logits[i] = -1
			}
			for i := range out.Argmax {
				out.Argmax[i] = -1
			}
			for _, tp := range out.Top {
				tp[0].ID, tp[0].Logprob = -1, 1
			}
			// The session's own cache moves on; the entry must not.
			if _, err := sh.Forward(context.Background(), id, Input{Tokens: []int32{1, 2}, Logits: LogitsLast}); err != nil {
				t.Fatal(err)
			}
		}
		if st := sh.PromptCacheStats(); st.Hits != 2 {
			t.Fatalf("blocks [%d,%d): %+v, want 2 hits", r[0], r[1], st)
		}
	}
}

// TestPromptCacheSameBatch sends one first step three times in one
// ForwardBatch per shard: it is computed once and copied to the other two
// sessions, which then decode exactly as a session computed alone. A lead
// whose context has ended leaves its copies to compute themselves.
func TestPromptCacheSameBatch(t *testing.T) {
	for _, name := range promptCacheModels {
		t.Run(name, func(t *testing.T) {
			m, err := Open(testenv.Path(t, "models", name+".gguf"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			vocab := m.Config().Vocab
			cached := threeShards(t, m, ShardOptions{})
			plain := threeShards(t, m, ShardOptions{PromptCacheBytes: -1})
			in := Input{Tokens: sessionTokens(4, 6, vocab), Logits: LogitsAll, TopK: 2}
			openAll(t, plain, "ref", 32, SessionOptions{})
			ref := chainStep(t, plain, "ref", in)
			refDec := decodeSteps(t, plain, "ref", ref[2].Argmax[5], 3)

			ids := []string{"x", "y", "z"}
			for _, id := range ids {
				openAll(t, cached, id, 32, SessionOptions{})
			}
			var prev []*Output
			for i, sh := range cached {
				steps := make([]BatchStep, len(ids))
				for j, id := range ids {
					steps[j] = BatchStep{ID: id, In: in}
					if i > 0 {
						steps[j].In.Tokens, steps[j].In.Hidden = nil, prev[j].Hidden
					}
				}
				outs, errs := sh.ForwardBatch(context.Background(), steps)
				for j := range ids {
					if errs[j] != nil {
						t.Fatalf("shard %d step %d: %v", i, j, errs[j])
					}
					sameOutput(t, fmt.Sprintf("shard %d session %s", i, ids[j]), outs[j], ref[i])
					// The first computes, the others are copied.
					if want := min(j, 1) * len(in.Tokens); outs[j].Cached != want {
						t.Fatalf("shard %d session %s: Cached %d, want %d", i, ids[j], outs[j].Cached, want)
					}
				}
				if st := sh.PromptCacheStats(); st.Hits != 2 || st.Misses != 1 || st.Entries != 1 {
					t.Fatalf("shard %d: %+v, want 2 hits (copies), 1 miss, 1 entry", i, st)
				}
				prev = outs
			}
			for _, id := range ids {
				for k, o := range decodeSteps(t, cached, id, ref[2].Argmax[5], 3) {
					sameOutput(t, fmt.Sprintf("%s decode %d", id, k), o, refDec[k])
				}
			}

			// The lead's own context has ended: it fails (in the rounds
			// or before), its copy is computed.
			sh := cached[0]
			ended, cancel := context.WithCancel(context.Background())
			cancel()
			for k := range 6 {
				lead, copyID := fmt.Sprintf("lead%d", k), fmt.Sprintf("copy%d", k)
				for _, id := range []string{lead, copyID} {
					if err := sh.OpenSession(id, 32); err != nil {
						t.Fatal(err)
					}
				}
				pin := Input{Tokens: sessionTokens(10+k, 5, vocab)}
				if err := plain[0].OpenSession(copyID, 32); err != nil {
					t.Fatal(err)
				}
				want, err := plain[0].Forward(context.Background(), copyID, pin)
				if err != nil {
					t.Fatal(err)
				}
				outs, errs := sh.ForwardBatch(context.Background(), []BatchStep{{ID: lead, In: pin, Ctx: ended}, {ID: copyID, In: pin}})
				if errs[0] == nil || errs[1] != nil {
					t.Fatalf("attempt %d: errors %v, %v; want the lead's alone", k, errs[0], errs[1])
				}
				sameOutput(t, fmt.Sprintf("attempt %d: the copy", k), outs[1], want)
				if outs[1].Cached != 0 {
					t.Fatalf("attempt %d: the computed copy says %d positions cached", k, outs[1].Cached)
				}
				if n, _ := sh.SessionLen(lead); n != 0 {
					t.Fatalf("attempt %d: the failed lead holds %d positions", k, n)
				}
			}
		})
	}
}

// TestPromptCacheGenerateCached checks Result.Cached: the prompt positions
// every hop answered from its cache, none when any hop computed them.
func TestPromptCacheGenerateCached(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	cached := threeShards(t, m, ShardOptions{})
	plain := threeShards(t, m, ShardOptions{PromptCacheBytes: -1})
	prompt := testTokens(7, m.Config().Vocab)
	gen := func(id string, shards []*Shard) int {
		t.Helper()
		openAll(t, shards, id, 32, SessionOptions{})
		var hops []Hop
		for _, sh := range shards {
			hops = append(hops, SessionHop{Shard: sh, ID: id})
		}
		res, err := Generate(context.Background(), hops, prompt, GenOptions{MaxTokens: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Cached
	}
	mixed := []*Shard{cached[0], plain[1], cached[2]}
	for _, c := range []struct {
		id     string
		shards []*Shard
		want   int
	}{
		{"cold", cached, 0},
		{"hit", cached, len(prompt)},
		{"one hop computes", mixed, 0},
	} {
		if got := gen(c.id, c.shards); got != c.want {
			t.Errorf("%s: Result.Cached %d, want %d", c.id, got, c.want)
		}
	}
	if st := cached[0].PromptCacheStats(); st.Hits != 2 {
		t.Errorf("first shard: %d hits, want 2 (the mixed chain's included)", st.Hits)
	}
}

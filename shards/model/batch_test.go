package model

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/testenv"
	"svc/shards/tensor"
)

// batchModels are the fixtures the batching tests run on: the tiny Llama,
// legacy and k-quant types, Qwen2 (biases, tied head) and BF16 (whose
// products are not batch-invariant).
var batchModels = []string{
	"stories260K", "mini-llama-q4_0", "mini-llama-q8_0", "mini-llama-q4_k_m",
	"mini-llama-q6_k", "mini-qwen2-q4_k_m", "mini-llama-bf16", "mini-llama-f16",
}

func batchModelPaths(t *testing.T) []string {
	t.Helper()
	all := testenv.Models(t)
	var out []string
	for _, name := range batchModels {
		i := slices.IndexFunc(all, func(p string) bool { return strings.TrimSuffix(filepath.Base(p), ".gguf") == name })
		if i < 0 {
			t.Fatalf("fixture model %s.gguf is missing", name)
		}
		out = append(out, all[i])
	}
	return out
}

// twoShards splits the model into a first and a last shard, so that both
// the hidden-state and the logits paths are exercised.
func twoShards(t *testing.T, m *Model) [2]*Shard {
	t.Helper()
	L := m.Config().Blocks
	mid := max(L/2, 1)
	if mid == L {
		t.Fatalf("model has %d blocks, need 2", L)
	}
	var sh [2]*Shard
	for i, r := range [][2]int{{0, mid}, {mid, L}} {
		// No prompt cache here and in the other tests that compare
		// computations: a hit would answer a repeated first step without
		// computing it.
		s, err := m.NewShard(r[0], r[1], ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		sh[i] = s
	}
	return sh
}

// planStep is one session's step in a test plan: its positions and how the
// last shard reports logits.
type planStep struct {
	n    int
	mode LogitsMode
	topK int
	omit bool
}

// stepOutputs are the two shards' outputs of one step.
type stepOutputs struct{ first, last *Output }

func sameOutput(t *testing.T, what string, a, b *Output) {
	t.Helper()
	sameBits(t, what+" hidden", a.Hidden, b.Hidden)
	sameBits(t, what+" logits", a.Logits, b.Logits)
	if !slices.Equal(a.Argmax, b.Argmax) {
		t.Fatalf("%s: argmax %v vs %v", what, a.Argmax, b.Argmax)
	}
	if len(a.Top) != len(b.Top) {
		t.Fatalf("%s: %d vs %d top rows", what, len(a.Top), len(b.Top))
	}
	for i := range a.Top {
		if !slices.Equal(a.Top[i], b.Top[i]) {
			t.Fatalf("%s: top row %d: %v vs %v", what, i, a.Top[i], b.Top[i])
		}
	}
}

// sessionTokens gives session s its own deterministic token stream.
func sessionTokens(s, n, vocab int) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32((i*97 + s*31 + 3) % min(vocab, 500))
	}
	return t
}

// runPlan runs plan (plan[t][s] is session s's step at time t; n == 0: no
// step) on two shards, either each step alone through Forward or every
// time's steps together through ForwardBatch, and returns the outputs.
func runPlan(t *testing.T, m *Model, plan [][]planStep, batched bool) [][]stepOutputs {
	t.Helper()
	sh := twoShards(t, m)
	ns := len(plan[0])
	total := make([]int, ns)
	for _, row := range plan {
		for s, st := range row {
			total[s] += st.n
		}
	}
	vocab := m.Config().Vocab
	toks := make([][]int32, ns)
	for s := range ns {
		id := fmt.Sprint("s", s)
		for _, h := range sh {
			if err := h.OpenSession(id, total[s]); err != nil {
				t.Fatal(err)
			}
		}
		toks[s] = sessionTokens(s, total[s], vocab)
	}
	pos := make([]int, ns)
	ctx := context.Background()
	res := make([][]stepOutputs, len(plan))
	for ti, row := range plan {
		res[ti] = make([]stepOutputs, ns)
		var ids []string
		var sess []int
		var first []Input
		for s, st := range row {
			if st.n == 0 {
				continue
			}
			ids = append(ids, fmt.Sprint("s", s))
			sess = append(sess, s)
			first = append(first, Input{Tokens: toks[s][pos[s] : pos[s]+st.n], Logits: st.mode, TopK: st.topK, OmitLogits: st.omit})
			pos[s] += st.n
		}
		outs1 := forwardAll(t, ctx, sh[0], ids, first, batched)
		second := make([]Input, len(first))
		for i, in := range first {
			second[i] = Input{Hidden: outs1[i].Hidden, Logits: in.Logits, TopK: in.TopK, OmitLogits: in.OmitLogits}
		}
		outs2 := forwardAll(t, ctx, sh[1], ids, second, batched)
		for i, s := range sess {
			res[ti][s] = stepOutputs{outs1[i], outs2[i]}
		}
	}
	return res
}

func forwardAll(t *testing.T, ctx context.Context, sh *Shard, ids []string, ins []Input, batched bool) []*Output {
	t.Helper()
	if !batched {
		outs := make([]*Output, len(ids))
		for i, id := range ids {
			out, err := sh.Forward(ctx, id, ins[i])
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = out
		}
		return outs
	}
	steps := make([]BatchStep, len(ids))
	for i, id := range ids {
		steps[i] = BatchStep{ID: id, In: ins[i]}
	}
	outs, errs := sh.ForwardBatch(ctx, steps)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("step of %s: %v", ids[i], err)
		}
	}
	return outs
}

// TestForwardBatchBitIdentical runs four sessions through plans of prompts
// of different lengths, decode steps, a prompt arriving while others decode,
// a session sitting out, and prompts longer than a pass (cut into chunks,
// one of them a single row), batched and alone: every hidden state, logit,
// argmax and top-k entry must have the same bits.
func TestForwardBatchBitIdentical(t *testing.T) {
	L, A := LogitsLast, LogitsAll
	d := planStep{n: 1, mode: L, topK: 3, omit: true}
	plan := [][]planStep{
		{{n: 7, mode: L, topK: 2}, {n: 1, mode: L}, {n: 13, mode: A}, {n: 3, mode: L, omit: true}},
		{d, d, d, d},
		{d, {n: 5, mode: A, topK: 1}, d, {n: 1, mode: A}},
		{d, d, {}, d},
		{{n: 2, mode: L}, {n: 3, mode: L}, {n: 4, mode: A, omit: true}, {n: 2, mode: L}},
		{{n: maxBatch + 1, mode: L}, d, {n: maxBatch + 9, mode: A, omit: true}, d},
		{d, d, d, d},
		{d, d, d, d},
	}
	// Under the pure-Go kernels only the tiny stories260K runs the prompts
	// longer than a pass; the other models get short ones in their place.
	short := slices.Clone(plan)
	short[5] = []planStep{{n: 9, mode: L}, d, {n: 17, mode: A, omit: true}, d}
	for _, path := range batchModelPaths(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".gguf")
		t.Run(name, func(t *testing.T) {
			m, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			p := plan
			if pureGoKernels() && name != "stories260K" {
				p = short
			}
			if c := m.Config().Context; c < 2*maxBatch+40 {
				t.Fatalf("context length %d is too short for the plan", c)
			}
			alone := runPlan(t, m, p, false)
			together := runPlan(t, m, p, true)
			for ti := range p {
				for s := range p[ti] {
					if p[ti][s].n == 0 {
						continue
					}
					what := fmt.Sprintf("time %d session %d", ti, s)
					sameOutput(t, what+" first shard", alone[ti][s].first, together[ti][s].first)
					sameOutput(t, what+" last shard", alone[ti][s].last, together[ti][s].last)
				}
			}
		})
	}
}

// TestForwardBatchFailures puts failing steps among good ones: an unknown
// session, a bad token, a step too long for its session, a session twice,
// and a step whose own context is cancelled. Each fails alone with its
// error, leaves its session as it was, and the good steps give Forward's
// bits.
func TestForwardBatchFailures(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-llama-q4_k_m.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	vocab := m.Config().Vocab
	ctx := context.Background()
	for _, id := range []string{"a", "b", "short", "cancelled", "ref-a", "ref-b"} {
		if err := sh.OpenSession(id, 16); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := sessionTokens(1, 6, vocab), sessionTokens(2, 4, vocab)
	want := map[string]*Output{}
	for id, tok := range map[string][]int32{"ref-a": ta, "ref-b": tb} {
		out, err := sh.Forward(ctx, id, Input{Tokens: tok, Logits: LogitsAll})
		if err != nil {
			t.Fatal(err)
		}
		want[id] = out
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	steps := []BatchStep{
		{ID: "a", In: Input{Tokens: ta, Logits: LogitsAll}},
		{ID: "nobody", In: Input{Tokens: ta, Logits: LogitsAll}},
		{ID: "short", In: Input{Tokens: sessionTokens(3, 17, vocab), Logits: LogitsLast}},
		{ID: "cancelled", In: Input{Tokens: ta, Logits: LogitsLast}, Ctx: cctx},
		{ID: "b", In: Input{Tokens: []int32{1, int32(vocab)}, Logits: LogitsLast}},
		{ID: "a", In: Input{Tokens: ta, Logits: LogitsLast}},
	}
	outs, errs := sh.ForwardBatch(ctx, steps)
	for i, wantErr := range []error{nil, ErrNoSession, ErrTooLong, context.Canceled, ErrBadInput, ErrBadInput} {
		if wantErr == nil {
			if errs[i] != nil {
				t.Fatalf("step %d: %v", i, errs[i])
			}
			continue
		}
		if !errors.Is(errs[i], wantErr) || outs[i] != nil {
			t.Fatalf("step %d: error %v, output %v; want %v", i, errs[i], outs[i], wantErr)
		}
	}
	sameOutput(t, "good step among failures", want["ref-a"], outs[0])
	for _, id := range []string{"short", "cancelled", "b"} {
		if n, err := sh.SessionLen(id); err != nil || n != 0 {
			t.Fatalf("failed session %s has %d positions (%v), want 0", id, n, err)
		}
	}
	// The failed sessions are still usable and unharmed.
	outs, errs = sh.ForwardBatch(ctx, []BatchStep{
		{ID: "b", In: Input{Tokens: tb, Logits: LogitsAll}},
		{ID: "cancelled", In: Input{Tokens: ta, Logits: LogitsAll}},
	})
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	sameOutput(t, "session after its failed step", want["ref-b"], outs[0])
	sameOutput(t, "session after its cancelled step", want["ref-a"], outs[1])

	// The batch's own context fails every step.
	outs, errs = sh.ForwardBatch(cctx, []BatchStep{{ID: "a", In: Input{Tokens: []int32{1}}}, {ID: "b", In: Input{Tokens: []int32{1}}}})
	for i := range errs {
		if !errors.Is(errs[i], context.Canceled) || outs[i] != nil {
			t.Fatalf("step %d under a cancelled batch: %v", i, errs[i])
		}
	}
}

// TestForwardBatchCancelMidway cancels one step's context while the batch is
// inside its blocks: that step fails and leaves its session as it was, the
// others finish with Forward's bits.
func TestForwardBatchCancelMidway(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-qwen2-q4_k_m.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	vocab := m.Config().Vocab
	ctx := context.Background()
	toks := [][]int32{sessionTokens(0, 5, vocab), sessionTokens(1, 3, vocab), sessionTokens(2, 1, vocab)}
	var want []*Output
	for i, tok := range toks {
		id := fmt.Sprint("ref", i)
		if err := sh.OpenSession(id, 8); err != nil {
			t.Fatal(err)
		}
		out, err := sh.Forward(ctx, id, Input{Tokens: tok, Logits: LogitsAll})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, out)
		if err := sh.OpenSession(fmt.Sprint("s", i), 8); err != nil {
			t.Fatal(err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	calls := 0
	sh.useMatMul(func(p *tensor.Pool, ws *tensor.Workspace, w tensor.Matrix, x []float32, n int, out []float32) {
		if calls++; calls == 3 { // inside the first block
			cancel()
		}
		tensor.MatMul(p, ws, w, x, n, out)
	})
	steps := make([]BatchStep, len(toks))
	for i, tok := range toks {
		steps[i] = BatchStep{ID: fmt.Sprint("s", i), In: Input{Tokens: tok, Logits: LogitsAll}}
	}
	steps[1].Ctx = cctx
	outs, errs := sh.ForwardBatch(ctx, steps)
	sh.matmul, sh.matmulMany = tensor.MatMul, tensor.MatMulMany
	if !errors.Is(errs[1], context.Canceled) {
		t.Fatalf("cancelled step: %v", errs[1])
	}
	for _, i := range []int{0, 2} {
		if errs[i] != nil {
			t.Fatalf("step %d: %v", i, errs[i])
		}
		sameOutput(t, fmt.Sprint("step ", i), want[i], outs[i])
	}
	if n, _ := sh.SessionLen("s1"); n != 0 {
		t.Fatalf("cancelled session has %d positions", n)
	}
	out, err := sh.Forward(ctx, "s1", Input{Tokens: toks[1], Logits: LogitsAll})
	if err != nil {
		t.Fatal(err)
	}
	sameOutput(t, "cancelled session's step again", want[1], out)
}

// TestForwardBatchConcurrent runs batches naming the same sessions in
// opposite orders at the same time, and Forwards beside them: sessions are
// locked in one order, so nothing deadlocks, and each session's steps stay
// serialized.
func TestForwardBatchConcurrent(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	const rounds = 20
	ids := []string{"a", "b", "c"}
	for _, id := range ids {
		if err := sh.OpenSession(id, 3*rounds); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errc := make(chan error, 3*rounds*len(ids))
	for g := range 2 {
		wg.Go(func() {
			for range rounds {
				var steps []BatchStep
				for i := range ids {
					id := ids[i]
					if g == 1 {
						id = ids[len(ids)-1-i]
					}
					steps = append(steps, BatchStep{ID: id, In: Input{Tokens: []int32{1}, Logits: LogitsLast, OmitLogits: true}})
				}
				_, errs := sh.ForwardBatch(ctx, steps)
				for _, err := range errs {
					if err != nil {
						errc <- err
					}
				}
			}
		})
	}
	wg.Go(func() {
		for range rounds {
			if _, err := sh.Forward(ctx, "b", Input{Tokens: []int32{2}, Logits: LogitsLast}); err != nil {
				errc <- err
			}
		}
	})
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	for _, id := range ids {
		want := 2 * rounds
		if id == "b" {
			want = 3 * rounds
		}
		if n, err := sh.SessionLen(id); err != nil || n != want {
			t.Fatalf("session %s: %d positions (%v), want %d", id, n, err, want)
		}
	}
}

// TestForwardBatchDecodeAllocs bounds what a batched decode step allocates:
// a fixed amount per call and per step (its Output and the slice the caller
// keeps), nothing per block or per product.
func TestForwardBatchDecodeAllocs(t *testing.T) {
	if avx512Simulated {
		t.Skip("the avx512sim build's interpreted kernels allocate per call")
	}
	m, err := Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	for _, r := range [][2]int{{0, c.Blocks}, {1, c.Blocks - 1}} {
		sh, err := m.NewShard(r[0], r[1], ShardOptions{PromptCacheBytes: -1, Threads: 2, IdleTimeout: -1})
		if err != nil {
			t.Fatal(err)
		}
		const sessions, runs = 4, 10
		steps := make([]BatchStep, sessions)
		for i := range steps {
			id := fmt.Sprint("s", i)
			if err := sh.OpenSession(id, 64); err != nil {
				t.Fatal(err)
			}
			in := Input{Logits: LogitsLast, OmitLogits: true}
			if sh.IsFirst() {
				in.Tokens = []int32{int32(i + 1)}
			} else {
				in.Hidden = make([]float32, c.Dim)
				for j := range in.Hidden {
					in.Hidden[j] = float32((i+j)%13-6) / 6
				}
			}
			steps[i] = BatchStep{ID: id, In: in}
			// Grow the caches to their reservation first.
			if _, err := sh.Forward(context.Background(), id, in); err != nil {
				t.Fatal(err)
			}
			for range 40 {
				if _, err := sh.Forward(context.Background(), id, in); err != nil {
					t.Fatal(err)
				}
			}
		}
		var ferr error
		got := testing.AllocsPerRun(runs, func() {
			_, errs := sh.ForwardBatch(context.Background(), steps)
			ferr = errors.Join(errs...)
		})
		sh.Close()
		if ferr != nil {
			t.Fatal(ferr)
		}
		// outs, errs, items, the lock order (and sort.Slice's swapper),
		// plus each step's two.
		limit := float64(6 + stepAllocs*sessions)
		if got > limit {
			t.Errorf("blocks [%d,%d): %v allocations per batched decode step of %d sessions, want at most %v", r[0], r[1], got, sessions, limit)
		}
	}
}

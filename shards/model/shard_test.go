package model

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"svc/internal/testenv"
)

// testTokens is a deterministic token sequence inside every test vocabulary.
func testTokens(n, vocab int) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32((i*131 + 7) % min(vocab, 512))
	}
	return t
}

// runChainSteps feeds tokens through a chain in the given batch sizes and
// returns every position's logits.
func runChainSteps(t *testing.T, m *Model, ranges [][2]int, threads int, tokens []int32, batches []int) []float32 {
	t.Helper()
	ch, err := m.NewChain(ranges, ShardOptions{PromptCacheBytes: -1, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	hops, err := ch.Open("s", len(tokens))
	if err != nil {
		t.Fatal(err)
	}
	var logits []float32
	pos := 0
	for _, b := range batches {
		in := Input{Tokens: tokens[pos : pos+b], Logits: LogitsAll}
		var out *Output
		for _, h := range hops {
			if out, err = h.Forward(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			in = Input{Hidden: out.Hidden, Logits: LogitsAll}
		}
		logits = append(logits, out.Logits...)
		pos += b
	}
	if pos != len(tokens) {
		t.Fatalf("batches cover %d of %d tokens", pos, len(tokens))
	}
	return logits
}

func sameBits(t *testing.T, what string, a, b []float32) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d vs %d values", what, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: value %d differs: %v vs %v", what, i, a[i], b[i])
		}
	}
}

// batchPlans are sequences of Forward batch sizes over 11 tokens: a prompt
// then decode steps (what Generate does), decode only, and uneven batches
// mixed with single steps.
var batchPlans = [][]int{{10, 1}, {6, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {3, 5, 1, 2}, {11}}

// pureGoBatchPlans are the plans run under the pure-Go kernels: a prompt
// then a decode step, and uneven batches mixed with single steps.
var pureGoBatchPlans = [][]int{{10, 1}, {3, 5, 1, 2}}

// TestSplitBitIdentical checks, for every shared model and several batch
// plans, that chains of shards give exactly the logits of one shard fed the
// same batches, that another thread count changes nothing, and that running
// the same batches again (a replay after failover) reproduces every bit.
func TestSplitBitIdentical(t *testing.T) {
	for _, path := range testenv.Models(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".gguf"), func(t *testing.T) {
			m, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			L := m.Config().Blocks
			tokens := testTokens(11, m.Config().Vocab)
			whole := [][2]int{{0, L}}
			three, err := EvenSplit(L, 3)
			if err != nil {
				t.Fatal(err)
			}
			perBlock := make([][2]int, L)
			for i := range perBlock {
				perBlock[i] = [2]int{i, i + 1}
			}
			plans := batchPlans
			if pureGoKernels() {
				plans = pureGoBatchPlans
			}
			for _, plan := range plans {
				what := fmt.Sprintf("batches %v", plan)
				base := runChainSteps(t, m, whole, 1, tokens, plan)
				sameBits(t, what+", 2 threads", base, runChainSteps(t, m, whole, 2, tokens, plan))
				sameBits(t, what+", split into 3", base, runChainSteps(t, m, three, 2, tokens, plan))
				sameBits(t, what+", one shard per block", base, runChainSteps(t, m, perBlock, 1, tokens, plan))
				sameBits(t, what+", replayed", base, runChainSteps(t, m, whole, 1, tokens, plan))
			}
		})
	}
}

// TestReplaySameShard replays a session's batches on a shard that has
// served other sessions meanwhile (recycled scratch and attention buffers)
// and must give the same bits.
func TestReplaySameShard(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-qwen2-q4_k_m.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ch, err := m.NewChain([][2]int{{0, m.Config().Blocks}}, ShardOptions{PromptCacheBytes: -1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	tokens := testTokens(23, m.Config().Vocab)
	run := func(id string, plan []int) []float32 {
		hops, err := ch.Open(id, len(tokens))
		if err != nil {
			t.Fatal(err)
		}
		defer ch.CloseSession(id)
		var logits []float32
		pos := 0
		for _, b := range plan {
			out, err := hops[0].Forward(context.Background(), Input{Tokens: tokens[pos : pos+b], Logits: LogitsAll})
			if err != nil {
				t.Fatal(err)
			}
			logits = append(logits, out.Logits...)
			pos += b
		}
		return logits
	}
	plan := []int{17, 1, 1, 4}
	first := run("a", plan)
	run("other", []int{1, 22})
	sameBits(t, "replay after another session", first, run("b", plan))
}

func TestLongPrefillChunked(t *testing.T) {
	// A prompt longer than maxBatch is processed in chunks of maxBatch
	// positions: exactly as if the caller had sent those batches.
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	n := maxBatch + 37
	tokens := testTokens(n, m.Config().Vocab)
	whole := [][2]int{{0, m.Config().Blocks}}
	a := runChainSteps(t, m, whole, 2, tokens, []int{n})
	b := runChainSteps(t, m, whole, 2, tokens, []int{maxBatch, 37})
	sameBits(t, "chunked prefill", a, b)
}

func TestSessions(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	first, err := m.NewShard(0, 2, ShardOptions{Threads: 1, CacheTokens: 100, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if !first.IsFirst() || first.IsLast() {
		t.Fatal("shard [0,2) should be first and not last")
	}
	ctx := context.Background()
	if err := first.OpenSession("a", 60); err != nil {
		t.Fatal(err)
	}
	if err := first.OpenSession("a", 10); !errors.Is(err, ErrSessionExists) {
		t.Fatalf("duplicate session: %v", err)
	}
	if err := first.OpenSession("b", 41); !errors.Is(err, ErrNoCapacity) {
		t.Fatalf("over capacity: %v", err)
	}
	if err := first.OpenSession("c", c.Context+1); !errors.Is(err, ErrTooLong) {
		t.Fatalf("beyond context: %v", err)
	}
	if got := first.FreeTokens(); got != 40 {
		t.Fatalf("free tokens %d, want 40", got)
	}
	if got := first.Sessions(); got != 1 {
		t.Fatalf("sessions %d, want 1", got)
	}
	out, err := first.Forward(ctx, "a", Input{Tokens: []int32{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Hidden) != 3*c.Dim || out.Logits != nil {
		t.Fatalf("first shard output: %d hidden, %d logits", len(out.Hidden), len(out.Logits))
	}
	for _, bad := range []Input{
		{},                                // no positions
		{Tokens: []int32{int32(c.Vocab)}}, // outside vocabulary
		{Tokens: []int32{-1}},             // negative
		{Hidden: make([]float32, c.Dim)},  // hidden to the first shard
		{Tokens: []int32{1}, Logits: 7},   // bad mode
		{Tokens: []int32{1}, TopK: -1},    // bad top-k
		{Tokens: make([]int32, 58)},       // past the session's length
	} {
		if _, err := first.Forward(ctx, "a", bad); err == nil {
			t.Fatalf("Forward(%+v) succeeded", bad)
		}
	}
	if n, _ := first.SessionLen("a"); n != 3 {
		t.Fatalf("failed calls changed the session: length %d", n)
	}
	if _, err := first.Forward(ctx, "nope", Input{Tokens: []int32{1}}); !errors.Is(err, ErrNoSession) {
		t.Fatalf("unknown session: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := first.Forward(cancelled, "a", Input{Tokens: []int32{4}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled forward: %v", err)
	}
	if err := first.CloseSession("a"); err != nil {
		t.Fatal(err)
	}
	if err := first.CloseSession("a"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("double close: %v", err)
	}
	if got := first.FreeTokens(); got != 100 {
		t.Fatalf("free tokens after close %d, want 100", got)
	}

	last, err := m.NewShard(2, c.Blocks, ShardOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer last.Close()
	if err := last.OpenSession("a", 10); err != nil {
		t.Fatal(err)
	}
	if _, err := last.Forward(ctx, "a", Input{Tokens: []int32{1}}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("tokens to a later shard: %v", err)
	}
	if _, err := last.Forward(ctx, "a", Input{Hidden: make([]float32, c.Dim+1)}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("ragged hidden: %v", err)
	}
	for _, bad := range []int{0, -1} {
		if err := last.OpenSession(fmt.Sprint("x", bad), bad); err == nil {
			t.Fatalf("OpenSession with length %d succeeded", bad)
		}
	}
	for _, r := range [][2]int{{-1, 2}, {2, 2}, {3, 2}, {0, c.Blocks + 1}} {
		if _, err := m.NewShard(r[0], r[1], ShardOptions{}); err == nil {
			t.Fatalf("NewShard(%d,%d) succeeded", r[0], r[1])
		}
	}
}

func TestTopKAndArgmax(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("s", 16); err != nil {
		t.Fatal(err)
	}
	out, err := sh.Forward(context.Background(), "s", Input{Tokens: []int32{1, 403, 407}, Logits: LogitsAll, TopK: 5})
	if err != nil {
		t.Fatal(err)
	}
	V := m.Config().Vocab
	if len(out.Logits) != 3*V || len(out.Argmax) != 3 || len(out.Top) != 3 {
		t.Fatalf("got %d logits, %d argmax, %d top rows", len(out.Logits), len(out.Argmax), len(out.Top))
	}
	for r := 0; r < 3; r++ {
		row := out.Logits[r*V : (r+1)*V]
		top := out.Top[r]
		if len(top) != 5 || top[0].ID != out.Argmax[r] {
			t.Fatalf("row %d: top %v, argmax %d", r, top, out.Argmax[r])
		}
		for i, tl := range top {
			if row[tl.ID] > row[top[0].ID] || (i > 0 && tl.Logprob > top[i-1].Logprob) || tl.Logprob > 0 {
				t.Fatalf("row %d: top list not sorted log-probabilities: %v", r, top)
			}
		}
		for id, v := range row {
			if v > row[top[4].ID] && !inTop(top, int32(id)) {
				t.Fatalf("row %d: token %d (logit %v) beats the top-5 but is missing", r, id, v)
			}
		}
	}
	// Without logits: argmax and top only.
	out2, err := sh.Forward(context.Background(), "s", Input{Tokens: []int32{365}, Logits: LogitsLast, TopK: 2, OmitLogits: true})
	if err != nil {
		t.Fatal(err)
	}
	if out2.Logits != nil || len(out2.Argmax) != 1 || len(out2.Top) != 1 || len(out2.Top[0]) != 2 {
		t.Fatalf("omit logits: %+v", out2)
	}
}

func inTop(top []TokenLogprob, id int32) bool {
	for _, t := range top {
		if t.ID == id {
			return true
		}
	}
	return false
}

func TestIdleExpiry(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, 1, ShardOptions{Threads: 1, CacheTokens: 50, IdleTimeout: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	if err := sh.OpenSession("idle", 50); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for sh.Sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("idle session did not expire")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if sh.FreeTokens() != 50 {
		t.Fatalf("expired session kept its reservation: %d free", sh.FreeTokens())
	}
	sh.Close()
	sh.Close() // idempotent
	if err := sh.OpenSession("late", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("open after close: %v", err)
	}
}

func TestConcurrentSessions(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "mini-llama-q8_0.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sh, err := m.NewShard(0, m.Config().Blocks, ShardOptions{PromptCacheBytes: -1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	tokens := testTokens(9, m.Config().Vocab)
	plan := []int{4, 1, 1, 3}
	want := runChainSteps(t, m, [][2]int{{0, m.Config().Blocks}}, 1, tokens, plan)
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			id := fmt.Sprint("g", g)
			if err := sh.OpenSession(id, 9); err != nil {
				errs <- err
				return
			}
			defer sh.CloseSession(id)
			var got []float32
			pos := 0
			for _, b := range plan {
				out, err := sh.Forward(context.Background(), id, Input{Tokens: tokens[pos : pos+b], Logits: LogitsAll})
				if err != nil {
					errs <- err
					return
				}
				got = append(got, out.Logits...)
				pos += b
			}
			for i := range got {
				if got[i] != want[i] {
					errs <- fmt.Errorf("session %s: logit %d differs", id, i)
					return
				}
			}
			errs <- nil
		}(g)
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

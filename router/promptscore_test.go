package router_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p/wire"
	"svc/router"
	"svc/shards/gguf"
	"svc/shards/modeltools"
)

// bigVocabModel writes a small random-weight model with Llama 3's
// vocabulary (128,256 tokens) and a context of 1,024 positions, named
// "bigvocab".
func bigVocabModel(t *testing.T) string {
	t.Helper()
	vocab, err := gguf.Open(testenv.Path(t, "tokenizer", "ggml-vocab-llama-bpe.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer vocab.Close()
	ft, err := modeltools.ParseFileType("q8_0")
	if err != nil {
		t.Fatal(err)
	}
	shape := modeltools.Shape{Name: "bigvocab", Dim: 64, Blocks: 2, Heads: 4, KVHeads: 2, FFN: 128, Context: 1024, RopeBase: 10000, Eps: 1e-5, Tied: true}
	path := filepath.Join(t.TempDir(), "bigvocab.gguf")
	if err := modeltools.SynthFile(t.Context(), path, modeltools.SynthOptions{Shape: shape, Vocab: vocab, Type: ft, Seed: 5, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLongPromptLogprobs scores a prompt longer than one reply of logits
// rows could carry (the bound before the last hop scored the prompt
// itself) through a chain of two nodes, with one process's bits.
func TestLongPromptLogprobs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	path := bigVocabModel(t)
	a := startNode(t, path, 0, 1, nil)
	b := startNode(t, path, 1, 2, a.Addrs())
	r := startRouter(t, a.Addrs())
	waitState(t, r, "bigvocab", router.StateServed, 20*time.Second)
	const vocab, n, k = 128256, 700, 5
	if old := wire.DefaultMaxPayload / (4 * vocab); n <= old {
		t.Fatalf("a prompt of %d tokens is within the old bound of %d", n, old)
	}
	if n > router.MaxPromptLogprobs(k) {
		t.Fatalf("a prompt of %d tokens is beyond MaxPromptLogprobs(%d) = %d", n, k, router.MaxPromptLogprobs(k))
	}
	prompt := make([]int32, n)
	for i := range prompt {
		prompt[i] = int32((i*7919 + 13) % vocab) // ids over the whole vocabulary
	}
	want := swarmtest.LocalLogprobs(t, path, prompt, 2, k)
	var gotPrompt []router.Token
	var got []router.Token
	req := router.GenerateRequest{Model: "bigvocab", Prompt: prompt, MaxTokens: 2, Logprobs: true, TopLogprobs: k,
		PromptLogprobs: func(p []router.Token) error { gotPrompt = p; return nil }}
	if _, err := r.Generate(ctx, req, func(tk router.Token) error { got = append(got, tk); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(gotPrompt) != n-1 {
		t.Fatalf("%d prompt positions for a prompt of %d", len(gotPrompt), n)
	}
	for i, tk := range gotPrompt {
		if tk.ID != prompt[i+1] || tk.Logprob != want.Prompt[i] || !slices.Equal(tk.Top, want.PromptTops[i][:k]) {
			t.Fatalf("prompt position %d: chain %+v, one process %v %v", i+1, tk, want.Prompt[i], want.PromptTops[i])
		}
	}
	if len(got) != len(want.Steps) {
		t.Fatalf("%d tokens, one process %d", len(got), len(want.Steps))
	}
	for i, tk := range got {
		if w := want.Steps[i]; tk.ID != w.ID || tk.Logprob != w.Top[0].Logprob || !slices.Equal(tk.Top, w.Top[:k]) {
			t.Fatalf("token %d: chain %+v, one process %+v", i, tk, w)
		}
	}
	t.Logf("%d prompt positions scored on the last node; the last %v", len(gotPrompt), gotPrompt[n-2])
	swarmtest.WaitSessions(t, 0, a, b)
}

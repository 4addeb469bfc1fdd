package model

import (
	"context"
	"errors"
	"testing"

	"svc/internal/testenv"
)

// TestStoriesGreedy runs free greedy generation on stories260K and checks
// llama.cpp's completions token for token up to the first step where
// llama.cpp's own top-1/top-2 margin is under 0.01 nats, on one shard and
// on three chained shards.
func TestStoriesGreedy(t *testing.T) {
	ref := loadRef(t, testenv.Path(t, "reference", "stories260K.json"))
	m, err := Open(testenv.Path(t, "models", ref.Model), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	L := m.Config().Blocks
	three, err := EvenSplit(L, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, ranges := range [][][2]int{{{0, L}}, three} {
		ch, err := m.NewChain(ranges, ShardOptions{PromptCacheBytes: -1, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for ci, c := range ref.Cases {
			steps := alignSteps(t, ci, c)
			// Compare up to the first close call of llama.cpp's: from that
			// step on, either choice is legitimate.
			limit := len(c.CompletionTokens)
			for j, s := range steps {
				top := c.TopLogprobs[j]
				if len(top) > 1 && top[0].Logprob-top[1].Logprob < 0.01 {
					limit = s
					break
				}
			}
			hops, err := ch.Open("g", len(c.PromptTokens)+len(c.CompletionTokens))
			if err != nil {
				t.Fatal(err)
			}
			var streamed []int32
			res, err := Generate(context.Background(), hops, c.PromptTokens, GenOptions{MaxTokens: len(c.CompletionTokens), Stop: m.StopTokens(), TopK: 2},
				func(s Step) error { streamed = append(streamed, s.ID); return nil })
			if err != nil {
				t.Fatal(err)
			}
			if err := ch.CloseSession("g"); err != nil {
				t.Fatal(err)
			}
			if len(streamed) != len(res.Completion) || len(res.Top) != len(res.Completion) {
				t.Fatalf("case %d: %d streamed, %d completion, %d top rows", ci, len(streamed), len(res.Completion), len(res.Top))
			}
			for i := 0; i < limit; i++ {
				if i >= len(res.Completion) || res.Completion[i] != c.CompletionTokens[i] {
					t.Fatalf("%d shards, case %d (%q): step %d differs from llama.cpp (compared up to %d): got %v, want %v",
						len(ranges), ci, c.Prompt, i, limit, res.Completion[:min(i+1, len(res.Completion))], c.CompletionTokens[:i+1])
				}
			}
			t.Logf("%d shard(s), case %d: %d/%d tokens identical (margin cut-off at %d), finish %s", len(ranges), ci, matching(res.Completion, c.CompletionTokens), len(c.CompletionTokens), limit, res.Finish)
		}
		ch.Close()
	}
}

func matching(a, b []int32) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// recordingHop wraps a real hop and records its inputs.
type recordingHop struct {
	Hop
	inputs []Input
}

func (r *recordingHop) Forward(ctx context.Context, in Input) (*Output, error) {
	r.inputs = append(r.inputs, in)
	return r.Hop.Forward(ctx, in)
}

func TestGenerateForcedAndStop(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ch, err := m.NewChain([][2]int{{0, m.Config().Blocks}}, ShardOptions{PromptCacheBytes: -1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	prompt := []int32{1, 403, 407, 261, 378}
	force := []int32{432, 383, 2, 300}
	hops, err := ch.Open("f", 32)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingHop{Hop: hops[0]}
	res, err := Generate(context.Background(), []Hop{rec}, prompt, GenOptions{MaxTokens: 10, Force: force, TopK: 3, Stop: m.StopTokens()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Token 2 is EOS: forcing it ends the generation with "stop", keeping it.
	if got := res.Completion; len(got) != 3 || got[0] != 432 || got[1] != 383 || got[2] != 2 || res.Finish != FinishStop {
		t.Fatalf("forced completion %v finish %s", got, res.Finish)
	}
	// The prompt went in as one batch, then one token per step.
	if len(rec.inputs) != 3 || len(rec.inputs[0].Tokens) != len(prompt) || len(rec.inputs[1].Tokens) != 1 || rec.inputs[1].Tokens[0] != 432 {
		t.Fatalf("hop inputs: %+v", rec.inputs)
	}
	if rec.inputs[0].Logits != LogitsLast {
		t.Fatalf("prefill asked for logits mode %d", rec.inputs[0].Logits)
	}
	if len(res.Top) != 3 || len(res.Top[0]) != 3 {
		t.Fatalf("top rows %v", res.Top)
	}
	_ = ch.CloseSession("f")

	hops, _ = ch.Open("l", 32)
	res, err = Generate(context.Background(), hops, prompt, GenOptions{MaxTokens: 4}, nil)
	if err != nil || len(res.Completion) != 4 || res.Finish != FinishLength {
		t.Fatalf("length-limited generation: %+v, %v", res, err)
	}
	_ = ch.CloseSession("l")

	stop := errors.New("client went away")
	hops, _ = ch.Open("e", 32)
	_, err = Generate(context.Background(), hops, prompt, GenOptions{MaxTokens: 4}, func(Step) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("emit error not returned: %v", err)
	}
	_ = ch.CloseSession("e")

	for _, bad := range []struct {
		hops   []Hop
		prompt []int32
		o      GenOptions
	}{
		{nil, prompt, GenOptions{MaxTokens: 1}},
		{hops, nil, GenOptions{MaxTokens: 1}},
		{hops, prompt, GenOptions{}},
	} {
		if _, err := Generate(context.Background(), bad.hops, bad.prompt, bad.o, nil); err == nil {
			t.Fatalf("Generate(%d hops, %d prompt, %+v) succeeded", len(bad.hops), len(bad.prompt), bad.o)
		}
	}
}

func TestEvenSplit(t *testing.T) {
	r, err := EvenSplit(22, 3)
	if err != nil || len(r) != 3 || r[0][0] != 0 || r[2][1] != 22 || r[0][1] != r[1][0] || r[1][1] != r[2][0] {
		t.Fatalf("EvenSplit(22,3) = %v, %v", r, err)
	}
	for _, k := range []int{0, -1, 23} {
		if _, err := EvenSplit(22, k); err == nil {
			t.Fatalf("EvenSplit(22,%d) succeeded", k)
		}
	}
}

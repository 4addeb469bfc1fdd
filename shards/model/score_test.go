package model

import (
	"context"
	"errors"
	"math"
	"testing"

	"svc/internal/testenv"
)

// TestScore checks Input.Score: the last shard returns the log-probability
// of each position's given token, bit for bit Logprob of that position's
// logits row, over a step longer than one chunk (maxBatch), through
// Forward, ForwardBatch and the prompt cache; and refuses bad ids.
func TestScore(t *testing.T) {
	m, err := Open(testenv.Path(t, "models", "stories260K.gguf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := m.Config()
	n := maxBatch + 40
	if n > c.Context {
		t.Fatalf("the test model's context of %d is shorter than %d", c.Context, n)
	}
	sh, err := m.NewShard(0, c.Blocks, ShardOptions{Threads: 2, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	ctx := context.Background()
	for _, id := range []string{"ref", "one", "batch", "other", "cached", "bad"} {
		if err := sh.OpenSession(id, n); err != nil {
			t.Fatal(err)
		}
	}
	prompt := testTokens(n, c.Vocab)
	ref, err := sh.Forward(ctx, "ref", Input{Tokens: prompt, Logits: LogitsAll, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Tokens: prompt, Logits: LogitsAll, TopK: 3, OmitLogits: true, Score: prompt[1:]}
	check := func(what string, out *Output) {
		t.Helper()
		if out.Logits != nil || len(out.Scores) != n-1 || len(out.Top) != n {
			t.Fatalf("%s: %d logits, %d scores, %d top rows; want none, %d, %d", what, len(out.Logits), len(out.Scores), len(out.Top), n-1, n)
		}
		for i, s := range out.Scores {
			want := Logprob(ref.Logits[i*c.Vocab:(i+1)*c.Vocab], prompt[i+1])
			if math.Float32bits(s) != math.Float32bits(want) {
				t.Fatalf("%s: position %d: score %v, want %v", what, i, s, want)
			}
		}
		sameOutput(t, what, &Output{Argmax: ref.Argmax, Top: ref.Top}, &Output{Argmax: out.Argmax, Top: out.Top})
	}
	one, err := sh.Forward(ctx, "one", in)
	if err != nil {
		t.Fatal(err)
	}
	check("forward", one)
	cached, err := sh.Forward(ctx, "cached", in)
	if err != nil {
		t.Fatal(err)
	}
	if cached.Cached != n {
		t.Fatalf("the same first step again: %d positions from the cache, want %d", cached.Cached, n)
	}
	check("prompt cache", cached)
	// Another session's step shares the batch, scoring fewer positions.
	other := Input{Tokens: prompt[:10], Logits: LogitsAll, OmitLogits: true, Score: prompt[1:4]}
	outs, errs := sh.ForwardBatch(ctx, []BatchStep{{ID: "batch", In: in}, {ID: "other", In: other}})
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	check("batch", outs[0])
	for i, s := range outs[1].Scores {
		want := Logprob(ref.Logits[i*c.Vocab:(i+1)*c.Vocab], prompt[i+1])
		if math.Float32bits(s) != math.Float32bits(want) {
			t.Fatalf("batch, other step: position %d: score %v, want %v", i, s, want)
		}
	}
	if len(outs[1].Scores) != 3 {
		t.Fatalf("batch, other step: %d scores, want 3", len(outs[1].Scores))
	}
	for _, bad := range []Input{
		{Tokens: prompt[:4], Logits: LogitsLast, Score: prompt[1:4]},
		{Tokens: prompt[:4], Logits: LogitsAll, Score: prompt[:5]},
		{Tokens: prompt[:4], Logits: LogitsAll, Score: []int32{1, int32(c.Vocab)}},
		{Tokens: prompt[:4], Logits: LogitsAll, Score: []int32{-1}},
	} {
		if _, err := sh.Forward(ctx, "bad", bad); !errors.Is(err, ErrBadInput) {
			t.Fatalf("score %v with logits mode %d: %v, want %v", bad.Score, bad.Logits, err, ErrBadInput)
		}
	}
	if n, err := sh.SessionLen("bad"); err != nil || n != 0 {
		t.Fatalf("refused steps left %d positions (%v)", n, err)
	}
}

package textgen

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"svc/internal/testenv"
	"svc/shards/model"
)

func openStories(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.Open(testenv.Path(t, "models", "stories260K.gguf"), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// TestRun checks the reference continuation of stories260K, that the
// streamed pieces add up to the text, and that a chain of shards gives the
// same tokens as one.
func TestRun(t *testing.T) {
	m := openStories(t)
	var streamed strings.Builder
	res, err := Run(t.Context(), m, Request{Prompt: "Once upon a time", MaxTokens: 8, Threads: 1, TopLogprobs: 2,
		OnText: func(p string) error { streamed.WriteString(p); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if want := ", there was a little girl"; res.Text != want || streamed.String() != want {
		t.Errorf("text %q, streamed %q; want %q", res.Text, streamed.String(), want)
	}
	if !slices.Equal(res.PromptTokens, []int32{1, 403, 407, 261, 378}) || len(res.CompletionTokens) != 8 || len(res.TopLogprobs) != 8 {
		t.Errorf("prompt %v, %d completion tokens, %d top lists", res.PromptTokens, len(res.CompletionTokens), len(res.TopLogprobs))
	}
	if res.FinishReason != model.FinishLength || !res.Decoded {
		t.Errorf("finish %q decoded %v, want length and true", res.FinishReason, res.Decoded)
	}
	split, err := Run(t.Context(), m, Request{Tokens: res.PromptTokens, MaxTokens: 8, Split: 3, Threads: 1, Warmup: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(split.CompletionTokens, res.CompletionTokens) || split.Text != res.Text {
		t.Errorf("three shards gave %v %q, one gave %v %q", split.CompletionTokens, split.Text, res.CompletionTokens, res.Text)
	}
}

func TestRunInvalid(t *testing.T) {
	m := openStories(t)
	cfg := m.Config()
	cases := []struct {
		req   Request
		field string
	}{
		{Request{MaxTokens: 4}, "Prompt"},
		{Request{Prompt: "a", Tokens: []int32{1}, MaxTokens: 4}, "Prompt"},
		{Request{Tokens: []int32{1}, MaxTokens: 0}, "MaxTokens"},
		{Request{Tokens: []int32{1, int32(cfg.Vocab)}, MaxTokens: 4}, "Tokens"},
		{Request{Tokens: []int32{1}, Force: []int32{-1}, MaxTokens: 4}, "Force"},
		{Request{Tokens: []int32{1}, MaxTokens: 4, Split: cfg.Blocks + 1}, "Split"},
		{Request{Tokens: []int32{1}, MaxTokens: 4, Threads: -1}, "Threads"},
		{Request{Tokens: []int32{1}, MaxTokens: cfg.Context}, "MaxTokens"},
	}
	for _, c := range cases {
		_, err := Run(t.Context(), m, c.req)
		var inv *InvalidError
		if !errors.As(err, &inv) || inv.Field != c.field {
			t.Errorf("%+v: error %v, want an InvalidError for %s", c.req, err, c.field)
		}
	}
}

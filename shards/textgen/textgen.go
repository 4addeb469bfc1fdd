package textgen

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"svc/shards/lora"
	"svc/shards/model"
	"svc/shards/tensor"
	"svc/shards/tokenizer"
)

// Request is one generation.
type Request struct {
	// Prompt is text, tokenized with the model's tokenizer (BOS added when
	// the model asks for it, special tokens parsed). Exactly one of Prompt
	// and Tokens is set.
	Prompt string
	// Tokens are prompt ids used as they are (no BOS added).
	Tokens []int32
	// MaxTokens bounds the completion; it must be positive.
	MaxTokens int
	// Split runs the model as this many chained shards (0 or 1: one).
	Split int
	// TopLogprobs > 0 reports the K most likely tokens at every position.
	TopLogprobs int
	// Force is the continuation (teacher forcing); see model.GenOptions.
	Force []int32
	// Adapter, if set, is a LoRA adapter file (llama.cpp's GGUF format)
	// computed with at AdapterScale (0 is taken as 1, llama.cpp's --lora).
	Adapter      string
	AdapterScale float32
	// Threads is the size of the worker pool the shards share (0: one per CPU).
	Threads int
	// Warmup runs one token through every shard in a session of its own
	// first, as llama.cpp does, so that the timings leave out the first
	// touch of the mapped weights.
	Warmup bool
	// OnText, if set, receives the decoded text piece by piece as it is
	// generated (the plain concatenation llama-server streams; control
	// tokens print nothing). Its error ends the generation.
	OnText func(piece string) error
}

// Result is the outcome of a generation, in the shape of "svc generate
// --json".
type Result struct {
	PromptTokens     []int32                `json:"prompt_tokens"`
	CompletionTokens []int32                `json:"completion_tokens"`
	Text             string                 `json:"text"`
	FinishReason     string                 `json:"finish_reason"`
	TopLogprobs      [][]model.TokenLogprob `json:"top_logprobs,omitempty"`
	Timings          Timings                `json:"timings"`
	// Decoded says whether the model has a tokenizer: without one Text is
	// empty and only the ids tell the result.
	Decoded bool `json:"-"`
}

// InvalidError is a request the model cannot serve as asked (a token
// outside the vocabulary, more shards than blocks, a prompt longer than the
// context): the caller's mistake, not a failure of the run. Field names the
// Request field at fault.
type InvalidError struct {
	Field  string
	Reason string
}

func (e *InvalidError) Error() string { return e.Field + ": " + e.Reason }

func invalidf(field, format string, args ...any) error {
	return &InvalidError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Run generates greedily with m as req asks.
func Run(ctx context.Context, m *model.Model, req Request) (*Result, error) {
	tok, tokErr := tokenizer.FromGGUF(m.File())
	if tokErr != nil {
		tok = nil // ids only: the prompt must be given as ids
	}
	prompt, err := promptIDs(req, tok, tokErr)
	if err != nil {
		return nil, err
	}
	maxLen, err := check(m.Config(), req, prompt)
	if err != nil {
		return nil, err
	}
	split := max(req.Split, 1)
	ranges, err := model.EvenSplit(m.Config().Blocks, split)
	if err != nil {
		return nil, invalidf("Split", "%v", err)
	}
	// One worker pool serves every shard of the chain: they run one after
	// the other.
	pool := tensor.NewPool(req.Threads)
	defer pool.Close()
	ch, err := m.NewChain(ranges, model.ShardOptions{Pool: pool, CacheTokens: maxLen, IdleTimeout: -1})
	if err != nil {
		return nil, err
	}
	defer ch.Close()
	if req.Warmup {
		if err := warmup(ctx, ch, prompt[0]); err != nil {
			return nil, fmt.Errorf("warm-up: %w", err)
		}
	}
	adapter, err := addAdapter(ch, req)
	if err != nil {
		return nil, err
	}
	hops, err := ch.OpenAdapter("generate", maxLen, adapter)
	if err != nil {
		return nil, err
	}
	stop := m.StopTokens()
	if tokErr == nil {
		stop = tok.IsEOG
	}
	return decode(ctx, hops, prompt, req, stop, tok)
}

// addAdapter loads the request's adapter into the chain's shards and
// returns the name sessions use ("" for none).
func addAdapter(ch *model.Chain, req Request) (string, error) {
	if req.Adapter == "" {
		return "", nil
	}
	a, err := lora.Open(req.Adapter)
	if err != nil {
		return "", fmt.Errorf("adapter: %w", err)
	}
	defer a.Close() // the shards copy their pairs
	scale := req.AdapterScale
	if scale == 0 {
		scale = 1
	}
	if err := ch.AddAdapter("adapter", a, scale); err != nil {
		return "", fmt.Errorf("adapter %s: %w", req.Adapter, err)
	}
	return "adapter", nil
}

// promptIDs tokenizes the prompt or takes the given ids.
func promptIDs(req Request, tok *tokenizer.Tokenizer, tokErr error) ([]int32, error) {
	if (req.Prompt == "") == (len(req.Tokens) == 0) {
		return nil, invalidf("Prompt", "give exactly one of a prompt text and prompt tokens")
	}
	if req.Prompt == "" {
		return req.Tokens, nil
	}
	if tokErr != nil {
		return nil, fmt.Errorf("a text prompt needs the model's tokenizer: %w", tokErr)
	}
	ids, err := tok.Encode(req.Prompt, true, true)
	if err != nil {
		return nil, fmt.Errorf("prompt: %w", err)
	}
	if len(ids) == 0 {
		return nil, invalidf("Prompt", "%q gives no tokens", req.Prompt)
	}
	return ids, nil
}

// check validates req against the model and returns the session length.
func check(cfg model.Config, req Request, prompt []int32) (int, error) {
	if req.MaxTokens <= 0 {
		return 0, invalidf("MaxTokens", "must be positive, got %d", req.MaxTokens)
	}
	for field, n := range map[string]int{"TopLogprobs": req.TopLogprobs, "Threads": req.Threads, "Split": req.Split} {
		if n < 0 {
			return 0, invalidf(field, "must not be negative, got %d", n)
		}
	}
	for _, list := range []struct {
		field string
		ids   []int32
	}{{"Tokens", prompt}, {"Force", req.Force}} {
		for _, id := range list.ids {
			if id < 0 || int(id) >= cfg.Vocab {
				return 0, invalidf(list.field, "token %d is outside the vocabulary [0,%d)", id, cfg.Vocab)
			}
		}
	}
	if req.Split > cfg.Blocks {
		return 0, invalidf("Split", "%d shards: the model has only %d blocks", req.Split, cfg.Blocks)
	}
	maxLen := len(prompt) + req.MaxTokens
	if len(req.Force) > 0 && len(req.Force) < req.MaxTokens {
		maxLen = len(prompt) + len(req.Force)
	}
	if maxLen > cfg.Context {
		return 0, invalidf("MaxTokens", "the prompt (%d tokens) plus %d tokens exceed the model's context length %d", len(prompt), req.MaxTokens, cfg.Context)
	}
	return maxLen, nil
}

// warmup runs one token through every shard in a session of its own.
func warmup(ctx context.Context, ch *model.Chain, first int32) error {
	hops, err := ch.Open("warmup", 2)
	if err != nil {
		return err
	}
	_, err = model.Generate(ctx, hops, []int32{first}, model.GenOptions{MaxTokens: 1}, nil)
	return errors.Join(err, ch.CloseSession("warmup"))
}

// decode runs the generation, streaming text when there is a tokenizer.
func decode(ctx context.Context, hops []model.Hop, prompt []int32, req Request, stop func(int32) bool, tok *tokenizer.Tokenizer) (*Result, error) {
	var stream *tokenizer.StreamDecoder
	if tok != nil {
		stream = tok.NewStreamDecoderWith(tokenizer.StreamOptions{DecodeOptions: tokenizer.DecodeOptions{SkipSpecial: true}, Raw: true})
	}
	var text strings.Builder
	put := func(piece string) error {
		text.WriteString(piece)
		if req.OnText != nil && piece != "" {
			return req.OnText(piece)
		}
		return nil
	}
	var first time.Time
	emit := func(s model.Step) error {
		if first.IsZero() {
			first = time.Now()
		}
		if stream == nil {
			return nil
		}
		return put(stream.Add(s.ID))
	}
	start := time.Now()
	res, err := model.Generate(ctx, hops, prompt, model.GenOptions{MaxTokens: req.MaxTokens, Stop: stop, Force: req.Force, TopK: req.TopLogprobs}, emit)
	if err != nil {
		return nil, err
	}
	end := time.Now()
	if stream != nil {
		if err := put(stream.Flush()); err != nil {
			return nil, err
		}
	}
	return &Result{
		PromptTokens:     res.Prompt,
		CompletionTokens: res.Completion,
		Text:             text.String(),
		FinishReason:     res.Finish,
		TopLogprobs:      res.Top,
		Timings:          newTimings(len(prompt), len(res.Completion), start, first, end),
		Decoded:          stream != nil,
	}, nil
}

// Timings split the wall time of a generation as llama.cpp's timings do:
// the prompt's forward pass up to the first generated token, then the
// remaining tokens one at a time.
type Timings struct {
	PrefillMS        float64 `json:"prefill_ms"`
	PrefillPerSecond float64 `json:"prefill_tokens_per_s"`
	DecodeMS         float64 `json:"decode_ms"`
	DecodePerSecond  float64 `json:"decode_tokens_per_s"`
}

func newTimings(promptTokens, generated int, start, first, end time.Time) Timings {
	var t Timings
	if first.IsZero() {
		return t
	}
	pre, dec := first.Sub(start), end.Sub(first)
	t.PrefillMS = float64(pre.Microseconds()) / 1e3
	if pre > 0 {
		t.PrefillPerSecond = float64(promptTokens) / pre.Seconds()
	}
	t.DecodeMS = float64(dec.Microseconds()) / 1e3
	if generated > 1 && dec > 0 {
		t.DecodePerSecond = float64(generated-1) / dec.Seconds()
	}
	return t
}

package model

import (
	"context"
	"errors"
	"fmt"
	"svc/shards/lora"
)

// Hop is one link of a chain that computes a model: a shard session here, or
// a remote peer's over the network. Feeding each hop's Output.Hidden to the
// next, starting from token ids, yields the last hop's logits.
type Hop interface {
	Forward(ctx context.Context, in Input) (*Output, error)
}

// SessionHop adapts one session of a local shard to Hop.
type SessionHop struct {
	Shard *Shard
	ID    string
}

// Forward runs the session's next step.
func (h SessionHop) Forward(ctx context.Context, in Input) (*Output, error) {
	return h.Shard.Forward(ctx, h.ID, in)
}

// GenOptions control a greedy generation.
type GenOptions struct {
	// MaxTokens bounds the completion (required unless Force is set).
	MaxTokens int
	// Stop reports end-of-generation tokens (nil: none). A stop token is
	// kept as the completion's last token, as llama.cpp reports it.
	Stop func(int32) bool
	// Force, when non-empty, is the continuation (teacher forcing): token i
	// of the completion is Force[i] instead of the argmax, and Top[i] is
	// still the distribution it was chosen from.
	Force []int32
	// TopK > 0 reports the K most likely tokens at every step.
	TopK int
}

// Step is one generated token.
type Step struct {
	ID  int32
	Top []TokenLogprob
}

// Result of a generation.
type Result struct {
	Prompt     []int32
	Completion []int32
	Finish     string // "stop" (a stop token) or "length"
	Top        [][]TokenLogprob
	// Cached is how many prompt positions every hop answered from its
	// prompt cache (the prefill step's Output.Cached).
	Cached int
}

// Finish reasons.
const (
	FinishStop   = "stop"
	FinishLength = "length"
)

// runChain feeds one step through every hop. The last hop's Output is
// returned, its Cached the fewest of every hop's.
func runChain(ctx context.Context, hops []Hop, tokens []int32, topK int) (*Output, error) {
	in := Input{Tokens: tokens, Logits: LogitsLast, TopK: topK, OmitLogits: true}
	var out *Output
	cached := len(tokens)
	for i, h := range hops {
		var err error
		if out, err = h.Forward(ctx, in); err != nil {
			return nil, fmt.Errorf("hop %d of %d: %w", i+1, len(hops), err)
		}
		cached = min(cached, out.Cached)
		if i < len(hops)-1 {
			if out.Hidden == nil {
				return nil, fmt.Errorf("hop %d of %d returned no hidden states", i+1, len(hops))
			}
			in = Input{Hidden: out.Hidden, Logits: LogitsLast, TopK: topK, OmitLogits: true}
		}
	}
	if len(out.Argmax) != 1 || (topK > 0 && len(out.Top) != 1) {
		return nil, errors.New("last hop returned no prediction (is it the shard holding the last block?)")
	}
	out.Cached = max(cached, 0)
	return out, nil
}

// Generate runs greedy decoding through a chain of hops whose sessions are
// already open: the prompt is prefilled as one batch (logits for its last
// position only), then tokens are decoded one at a time. emit, if not nil,
// is called for every token as soon as it is chosen; an error from it ends
// the generation with that error.
func Generate(ctx context.Context, hops []Hop, prompt []int32, o GenOptions, emit func(Step) error) (*Result, error) {
	if len(hops) == 0 {
		return nil, errors.New("model: generate: no hops")
	}
	if len(prompt) == 0 {
		return nil, errors.New("model: generate: empty prompt")
	}
	limit := o.MaxTokens
	if len(o.Force) > 0 && (limit <= 0 || limit > len(o.Force)) {
		limit = len(o.Force)
	}
	if limit <= 0 {
		return nil, fmt.Errorf("model: generate: max tokens %d must be positive", o.MaxTokens)
	}
	res := &Result{Prompt: append([]int32(nil), prompt...), Finish: FinishLength}
	next := prompt
	for len(res.Completion) < limit {
		out, err := runChain(ctx, hops, next, o.TopK)
		if err != nil {
			return res, fmt.Errorf("model: generate: step %d: %w", len(res.Completion), err)
		}
		if len(res.Completion) == 0 {
			res.Cached = out.Cached
		}
		tok := out.Argmax[0]
		if len(o.Force) > 0 {
			tok = o.Force[len(res.Completion)]
		}
		st := Step{ID: tok}
		if o.TopK > 0 {
			st.Top = out.Top[0]
			res.Top = append(res.Top, st.Top)
		}
		res.Completion = append(res.Completion, tok)
		if emit != nil {
			if err := emit(st); err != nil {
				return res, err
			}
		}
		if o.Stop != nil && o.Stop(tok) {
			res.Finish = FinishStop
			break
		}
		next = []int32{tok}
	}
	return res, nil
}

// StopTokens returns a predicate for the model's end-of-generation tokens
// from its metadata (EOS and EOT), or nil when it declares none.
func (m *Model) StopTokens() func(int32) bool {
	var ids []int32
	for _, id := range []int32{m.cfg.EOS, m.cfg.EOT} {
		if id >= 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return func(t int32) bool {
		for _, id := range ids {
			if t == id {
				return true
			}
		}
		return false
	}
}

// EvenSplit divides blocks into k contiguous ranges of nearly equal size.
func EvenSplit(blocks, k int) ([][2]int, error) {
	if k < 1 || k > blocks {
		return nil, fmt.Errorf("model: cannot split %d blocks into %d shards", blocks, k)
	}
	r := make([][2]int, k)
	for i := range r {
		r[i] = [2]int{i * blocks / k, (i + 1) * blocks / k}
	}
	return r, nil
}

// Chain is a model run as consecutive local shards in one process.
type Chain struct {
	Shards []*Shard
}

// NewChain builds shards for the given contiguous ranges covering every
// block.
func (m *Model) NewChain(ranges [][2]int, o ShardOptions) (*Chain, error) {
	ch := &Chain{}
	next := 0
	for _, r := range ranges {
		if r[0] != next {
			ch.Close()
			return nil, fmt.Errorf("model: shard ranges %v do not cover blocks contiguously from 0", ranges)
		}
		s, err := m.NewShard(r[0], r[1], o)
		if err != nil {
			ch.Close()
			return nil, err
		}
		ch.Shards = append(ch.Shards, s)
		next = r[1]
	}
	if next != m.cfg.Blocks {
		ch.Close()
		return nil, fmt.Errorf("model: shard ranges %v do not reach the last block %d", ranges, m.cfg.Blocks)
	}
	return ch, nil
}

// Open opens the same session on every shard and returns its hops.
func (ch *Chain) Open(id string, maxLen int) ([]Hop, error) { return ch.OpenAdapter(id, maxLen, "") }

// AddAdapter gives every shard of the chain its blocks' share of an
// adapter (Shard.AddAdapter).
func (ch *Chain) AddAdapter(name string, a *lora.Adapter, userScale float32) error {
	for _, s := range ch.Shards {
		if err := s.AddAdapter(name, a, userScale); err != nil {
			return err
		}
	}
	return nil
}

// OpenAdapter is Open for a session computing with the named adapter ("":
// none).
func (ch *Chain) OpenAdapter(id string, maxLen int, adapter string) ([]Hop, error) {
	var hops []Hop
	for i, s := range ch.Shards {
		if err := s.OpenSessionAdapter(id, maxLen, adapter); err != nil {
			for _, t := range ch.Shards[:i] {
				_ = t.CloseSession(id)
			}
			return nil, err
		}
		hops = append(hops, SessionHop{Shard: s, ID: id})
	}
	return hops, nil
}

// CloseSession closes the session on every shard.
func (ch *Chain) CloseSession(id string) error {
	var first error
	for _, s := range ch.Shards {
		if err := s.CloseSession(id); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Close closes every shard.
func (ch *Chain) Close() {
	for _, s := range ch.Shards {
		s.Close()
	}
}

package router

import (
	"context"
	"errors"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p/wire"
	"svc/shards/gguf"
	"svc/shards/model"
)

// This file is the contract between the router and its callers (server/,
// cmd/). The implementation lives beside it.

// State is a model's condition in the swarm.
type State string

// Model states, as SPEC.md names them.
const (
	StateServed     State = "served"     // every block is held by an online node
	StateLoading    State = "loading"    // every block is held, but some only by nodes still loading
	StateIncomplete State = "incomplete" // present on the swarm, but some blocks are held by nobody
)

// Errors a generation or a look-up can end with. The API maps them to SPEC's
// error codes: ErrModelNotFound → 404 model_not_found, ErrModelIncomplete and
// ErrModelLoading → 503 model_incomplete, ErrRouteUnavailable → 503
// route_unavailable.
var (
	ErrModelNotFound    = errors.New("model not found on the swarm")
	ErrModelIncomplete  = errors.New("model present but some blocks are held by nobody")
	ErrModelLoading     = errors.New("model still loading")
	ErrRouteUnavailable = errors.New("no route could be built")
)

// ModelStatus is what the swarm view knows of one model.
type ModelStatus struct {
	Name    string // the name requests use (by default the file name without .gguf)
	Digest  string // model identity: equal for equal weights, different otherwise
	Blocks  int    // number of transformer blocks
	State   State
	Created time.Time // when this view first saw the model
	// Adapter and AdapterDigest name the LoRA adapter (and its file) of a
	// "<model>-<adapter>" entry; its State counts only the hops holding it.
	Adapter, AdapterDigest string
}

// ModelInfo is what the API needs to turn requests into tokens and back: the
// model's GGUF header (metadata and tensor table, no tensor data), from which
// it builds the tokenizer and the chat template. It is fetched from a node
// and checked against the digest.
type ModelInfo struct {
	ModelStatus
	Header *gguf.File
}

// GenerateRequest asks for a greedy continuation of Prompt.
type GenerateRequest struct {
	Model     string  // name or digest
	Prompt    []int32 // token ids, BOS already added if the model wants it
	MaxTokens int
	// Stop reports whether a token ends generation (end of sequence or end
	// of turn); the stopping token is not part of the completion.
	Stop func(id int32) bool
	// PromptCacheScope is given to every hop's session: a node answers the
	// prompt from its prompt cache only with a prompt sent in the same
	// scope (one per tenant, so that a fast first token tells nobody what
	// another tenant sent; nil: the shared scope).
	PromptCacheScope []byte
	// Logprobs asks for the log-probability of every generated token
	// (Token.Logprob) and of the TopLogprobs most likely tokens at its
	// position (Token.Top, 0..MaxTopLogprobs). Without it the nodes
	// compute none and Token carries the id alone.
	Logprobs    bool
	TopLogprobs int
	// PromptLogprobs, with Logprobs, is called once, before the first
	// token, with the log-probabilities of prompt positions 1..n-1 (the
	// first has nothing before it): Token i is Prompt[i+1] given what
	// precedes it, with the TopLogprobs most likely tokens there. The last
	// hop scores the prompt tokens itself (wire.Step.score) and returns a
	// few numbers per position, so the prompt may hold at most
	// MaxPromptLogprobs(TopLogprobs) tokens (about 15,000 at 20 top rows,
	// 53,000 at 5), whatever the vocabulary. An error from it ends the
	// generation and is returned.
	PromptLogprobs func(prompt []Token) error
	// Waves, shared by the generations of one request, lets one refused
	// for want of room on the nodes wait until another of them ends
	// instead of failing (waves.go); nil: a lone generation.
	Waves *Waves
	// Waiting, with Waves, is called whenever the generation begins to
	// wait: for its turn to start its prompt, or for room (before its
	// first token, or in a failover after it), so that a caller holding
	// back a batch's stream until each prompt has started knows this one
	// will not start soon.
	Waiting func()
}

// MaxTopLogprobs bounds GenerateRequest.TopLogprobs (OpenAI's bound for
// chat completions' top_logprobs).
const MaxTopLogprobs = 20

// MaxPromptLogprobs is the longest prompt whose log-probabilities can be
// asked for with top most likely tokens per position: the last hop's
// reply to the prompt step carries, per position, its argmax, its score
// and its top rows (at least one) in one control message, so the wire's
// bound per step (wire.MaxReplyPositions) is the prompt's.
func MaxPromptLogprobs(top int) int { return wire.MaxReplyPositions(top) }

// Token is one generated token (or, for PromptLogprobs, one prompt
// token) with, when the request asked for them, its log-probability
// (natural log, the log-softmax of the logits) and the most likely tokens
// at its position, most likely first (lower id first on ties). Decoding is
// greedy, so a generated token is Top's first entry.
type Token struct {
	ID      int32
	Logprob float32
	Top     []model.TokenLogprob // nil when no log-probabilities were asked for
}

// FinishReason says why a generation ended.
type FinishReason string

// Finish reasons, as the OpenAI API names them.
const (
	FinishStop   FinishReason = "stop"
	FinishLength FinishReason = "length"
)

// GenerateResult summarises a finished generation.
type GenerateResult struct {
	PromptTokens int
	// CachedTokens are the prompt tokens every node of the chain answered
	// from its prompt cache instead of computing them (OpenAI's
	// usage.prompt_tokens_details.cached_tokens): all of the prompt or none.
	CachedTokens     int
	CompletionTokens int
	Finish           FinishReason
}

// Backend is what the HTTP API needs from the router. *Router implements it.
type Backend interface {
	// Models lists every model the swarm view knows, in any state.
	Models(ctx context.Context) []ModelStatus
	// Model resolves a name (or digest) to its info, or returns
	// ErrModelNotFound / ErrModelIncomplete / ErrModelLoading.
	Model(ctx context.Context, name string) (*ModelInfo, error)
	// Generate runs a greedy generation, calling emit with each token as
	// it is produced (not the stop token), with its log-probabilities when
	// req.Logprobs asks for them. An error from emit ends the
	// generation and is returned. Every session it opened is closed before
	// it returns, on success, failure or cancellation.
	Generate(ctx context.Context, req GenerateRequest, emit func(Token) error) (GenerateResult, error)
}

// FailedPeer returns the peer whose hop failed during a generation, when
// err says so: the API files it with the request's reference for the
// operator (it never reaches the client).
func FailedPeer(err error) (peer.ID, bool) {
	var he *hopError
	if errors.As(err, &he) {
		return he.peer, true
	}
	return "", false
}

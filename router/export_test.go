package router

import (
	"context"
	"errors"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p"
	"svc/shards/model"
)

// HoldersOf counts the unexpired announcements of a model in r's view, for
// the external tests.
func HoldersOf(r *Router, digest string) int { return len(r.snapshot()[digest]) }

// Exclude excludes p as a failure of one of its hops would.
func Exclude(r *Router, p peer.ID) {
	r.blame(context.Background(), p, errors.New("stream reset (test)"), time.Now())
}

// Excluded reports whether p is left out of new chains now.
func Excluded(r *Router, p peer.ID) bool { return r.excluded(p) }

// ScorePrompt runs a prompt step whose log-probabilities are asked for, as
// Generate does with PromptLogprobs, through one open session (a chain of
// one hop), for the external tests.
func ScorePrompt(ctx context.Context, r *Router, s *p2p.Session, prompt []int32, top int) ([]Token, error) {
	var toks []Token
	c := &chain{r: r, hops: []*p2p.Session{s}, peers: []peer.ID{s.Peer()}}
	p := &promptScores{chain: c, top: top, fn: func(t []Token) error { toks = t; return nil }}
	_, err := p.Forward(ctx, model.Input{Tokens: prompt, Logits: model.LogitsLast, TopK: max(top, 1), OmitLogits: true})
	return toks, err
}

// AnnouncedFree is the free cache positions p announces for a model in
// r's view (false: no such announcement).
func AnnouncedFree(r *Router, p peer.ID, digest string) (uint64, bool) {
	for _, h := range r.snapshot()[digest] {
		if h.peer == p {
			return h.s.FreeCacheTokens, true
		}
	}
	return 0, false
}

// FillPrompts takes every turn w's pacing gives prompt steps at once (as
// steps in flight would), so that any further prompt step waits until
// release.
func FillPrompts(ctx context.Context, w *Waves) (release func(), err error) {
	var ends []func()
	release = func() {
		for _, end := range ends {
			end()
		}
	}
	for range promptSteps {
		end, err := w.prompt(ctx, promptPositions/promptSteps, nil)
		if err != nil {
			release()
			return nil, err
		}
		ends = append(ends, end)
	}
	return release, nil
}

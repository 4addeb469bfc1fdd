package router

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p"
	"svc/p2p/wire"
	"svc/shards/model"
)

// Generate runs a greedy generation through a chain of nodes (Backend).
func (r *Router) Generate(ctx context.Context, req GenerateRequest, emit func(id int32) error) (GenerateResult, error) {
	st, hs, err := r.resolve(req.Model)
	if err != nil {
		return GenerateResult{}, err
	}
	if len(req.Prompt) == 0 {
		return GenerateResult{}, errors.New("router: empty prompt")
	}
	if req.MaxTokens <= 0 {
		return GenerateResult{}, fmt.Errorf("router: max tokens %d must be positive", req.MaxTokens)
	}
	h, err := r.header(ctx, st.Digest, hs)
	if err != nil {
		return GenerateResult{}, err
	}
	// The session must hold the prompt and every generated token but the
	// last, which is never fed back.
	maxTokens := req.MaxTokens
	if room := h.cfg.Context - len(req.Prompt) + 1; maxTokens > room {
		if room <= 0 {
			return GenerateResult{}, fmt.Errorf("router: prompt of %d tokens does not fit the context of %d", len(req.Prompt), h.cfg.Context)
		}
		maxTokens = room
	}
	ch := &chain{r: r, digest: st.Digest, adapter: st.Adapter, adapterDigest: st.AdapterDigest, total: st.Blocks, dim: h.cfg.Dim, maxLen: len(req.Prompt) + maxTokens - 1, barrier: r.barrier(st.Digest)}
	defer ch.close()
	if err := ch.build(ctx); err != nil {
		return GenerateResult{}, err
	}
	res := GenerateResult{PromptTokens: len(req.Prompt)}
	out, err := model.Generate(ctx, []model.Hop{ch}, req.Prompt, model.GenOptions{MaxTokens: maxTokens, Stop: req.Stop}, func(s model.Step) error {
		if req.Stop != nil && req.Stop(s.ID) {
			return nil // the stop token is not part of the completion
		}
		res.CompletionTokens++
		if emit == nil {
			return nil
		}
		return emit(s.ID)
	})
	r.met.tokens.Add(float64(res.CompletionTokens))
	if err != nil {
		outcome := "error"
		if ctx.Err() != nil {
			outcome = "cancelled"
		}
		r.met.generations.WithLabelValues(outcome).Inc()
		return res, err
	}
	r.met.generations.WithLabelValues("ok").Inc()
	res.Finish = FinishLength
	if out.Finish == model.FinishStop {
		res.Finish = FinishStop
	}
	return res, nil
}

// chain is a generation's route through the swarm, seen by model.Generate
// as a single Hop. It remembers every step it was given so that, when a hop
// fails, it can open a new route and replay them.
type chain struct {
	r      *Router
	digest string
	total  int
	dim    int
	maxLen int
	// adapter and adapterDigest: every hop must hold this LoRA adapter
	// file ("": the base model).
	adapter, adapterDigest string

	// barrier lines this generation's decode steps up with the others'
	// (barrier.go); joined at the first decode step.
	barrier *stepBarrier
	joined  bool
	// lastStep is how long the last decode step took, the bound of the
	// next one's wait at the barrier.
	lastStep time.Duration

	hops      []*p2p.Session
	history   []model.Input
	failovers int
	// excluded are peers that refused or failed this generation; they are
	// not tried again for it.
	excluded map[peer.ID]bool
	mu       sync.Mutex // guards excluded while hops open in parallel
}

// Forward runs one step through every hop, failing over on hop failures.
func (c *chain) Forward(ctx context.Context, in model.Input) (*model.Output, error) {
	if decode := len(in.Tokens) == 1 && len(c.history) > 0; decode && c.barrier != nil {
		if !c.joined {
			c.barrier.join()
			c.joined = true
		}
		c.barrier.wait(ctx, c.lastStep)
		t0 := time.Now()
		defer func() { c.lastStep = time.Since(t0) }()
	}
	for {
		out, err := c.run(ctx, in)
		if err == nil {
			// A replay only needs the caches filled, not logits.
			c.history = append(c.history, model.Input{Tokens: slices.Clone(in.Tokens), Logits: model.LogitsNone})
			return out, nil
		}
		if ctx.Err() != nil || !retryable(err) || c.failovers >= c.r.cfg.MaxFailovers {
			return nil, err
		}
		c.failovers++
		c.r.met.failovers.Inc()
		c.r.log.Warn("hop failed, rebuilding the chain", "err", err, "failover", c.failovers)
		c.closeHops()
		if berr := c.build(ctx); berr != nil {
			return nil, fmt.Errorf("router: failover after %w: %w", err, berr)
		}
		if err := c.replay(ctx); err != nil {
			// The replay's own failure loops back through the failover
			// budget.
			c.r.log.Warn("replay failed", "err", err)
			continue
		}
	}
}

// hopError names the peer whose step failed.
type hopError struct {
	peer peer.ID
	err  error
}

func (e *hopError) Error() string { return e.err.Error() }
func (e *hopError) Unwrap() error { return e.err }

func (c *chain) exclude(p peer.ID) {
	c.mu.Lock()
	if c.excluded == nil {
		c.excluded = map[peer.ID]bool{}
	}
	c.excluded[p] = true
	c.mu.Unlock()
}

func (c *chain) isExcluded(p peer.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.excluded[p]
}

func (c *chain) run(ctx context.Context, in model.Input) (*model.Output, error) {
	var out *model.Output
	for i, h := range c.hops {
		var err error
		t0 := time.Now()
		out, err = h.Forward(ctx, in)
		c.r.met.hopStep.Observe(time.Since(t0).Seconds())
		if err != nil {
			c.r.blame(ctx, h.Peer(), err)
			c.exclude(h.Peer())
			return nil, &hopError{peer: h.Peer(), err: fmt.Errorf("router: hop %d of %d: %w", i+1, len(c.hops), err)}
		}
		if i < len(c.hops)-1 {
			in = model.Input{Hidden: out.Hidden, Logits: in.Logits, TopK: in.TopK, OmitLogits: in.OmitLogits}
		}
	}
	return out, nil
}

// replay feeds the past steps through a fresh chain, batch for batch as
// they were first computed, so that the new caches are bit-identical.
func (c *chain) replay(ctx context.Context) error {
	for _, in := range c.history {
		if _, err := c.run(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// retryable tells failures another route may cure from those it cannot.
func retryable(err error) bool {
	var re *p2p.RemoteError
	if errors.As(err, &re) {
		switch re.Code {
		case wire.Code_BAD_REQUEST, wire.Code_TOO_LONG:
			return false
		}
	}
	var he *hopError
	return errors.As(err, &he)
}

// blame leaves a peer out of new chains for the backoff period when err
// says the peer is at fault (unreachable, reset, timed out, broken). A
// refusal for lack of room, or a request the caller got wrong, or the
// caller's own cancellation, is no reason to shun the peer.
func (r *Router) blame(ctx context.Context, p peer.ID, err error) {
	if ctx.Err() != nil {
		return
	}
	var re *p2p.RemoteError
	if errors.As(err, &re) {
		switch re.Code {
		case wire.Code_NO_CAPACITY, wire.Code_NOT_READY, wire.Code_BAD_REQUEST, wire.Code_TOO_LONG, wire.Code_SESSION_EXISTS:
			return
		}
	}
	r.mu.Lock()
	r.backoff[p] = time.Now().Add(r.cfg.Backoff)
	r.mu.Unlock()
}

// candidates lists the online ranges of the chain's model, leaving out
// peers in backoff, with their estimated cost.
func (c *chain) candidates() []candidate {
	r := c.r
	hs := r.snapshot()[c.digest]
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []candidate
	for _, h := range hs {
		s := h.s
		if s.State != wire.ServeState_STATE_ONLINE || int(s.TotalBlocks) != c.total {
			continue
		}
		if c.adapter != "" && !p2p.HoldsAdapter(s, c.adapter, c.adapterDigest) {
			continue
		}
		if until, ok := r.backoff[h.peer]; ok && until.After(now) {
			continue
		}
		if c.isExcluded(h.peer) {
			continue
		}
		if s.FreeCacheTokens < uint64(c.maxLen) && r.inflight[h.peer] > 0 {
			// Announced full and we know it is busy: skip rather than be
			// refused (an idle node's announcement may be stale).
			continue
		}
		// Busy nodes serve each session more slowly; spread the load.
		load := float64(s.Sessions) + float64(r.inflight[h.peer])
		cost := s.MsPerToken*(1+0.5*load) + float64(r.cfg.HopPenalty.Microseconds())/1000
		out = append(out, candidate{peer: h.peer, first: int(s.First), last: int(s.Last), cost: cost, ms: s.MsPerToken})
	}
	return out
}

// build picks the best chain and opens a session on every hop. A hop that
// refuses is left out and another chain tried, a few times.
func (c *chain) build(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		route := bestChain(c.total, c.candidates())
		if route == nil {
			if lastErr != nil {
				return fmt.Errorf("router: %w: last failure: %w", ErrRouteUnavailable, lastErr)
			}
			return fmt.Errorf("router: %w: no chain of online nodes covers blocks 0..%d", ErrRouteUnavailable, c.total)
		}
		hops, err := c.open(ctx, route)
		if err == nil {
			c.hops = hops
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("router: open chain: %w", err)
		}
		lastErr = err
	}
	return fmt.Errorf("router: %w: %w", ErrRouteUnavailable, lastErr)
}

// open opens the route's sessions in parallel; on any failure it closes
// those that opened and backs off the peers that failed.
func (c *chain) open(ctx context.Context, route []candidate) ([]*p2p.Session, error) {
	id := newSessionID()
	hops := make([]*p2p.Session, len(route))
	errs := make([]error, len(route))
	var wg sync.WaitGroup
	for i, cand := range route {
		wg.Go(func() {
			s, err := p2p.OpenSession(ctx, c.r.ep.Host, cand.peer, p2p.SessionOptions{
				ID: id, Digest: c.digest, First: cand.first, Last: cand.last,
				MaxLength: c.maxLen, Dim: c.dim, StepTimeout: c.r.cfg.StepTimeout,
				Adapter: c.adapter, AdapterDigest: c.adapterDigest,
				PerPosition: max(time.Duration(10*cand.ms*float64(time.Millisecond)), time.Millisecond),
			})
			if err != nil {
				errs[i] = err
				c.r.blame(ctx, cand.peer, err)
				c.exclude(cand.peer)
				return
			}
			c.r.track(cand.peer, 1)
			hops[i] = s
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		closeAll(c.r, hops)
		return nil, err
	}
	return hops, nil
}

func (r *Router) track(p peer.ID, d int) {
	r.mu.Lock()
	r.inflight[p] += d
	if r.inflight[p] <= 0 {
		delete(r.inflight, p)
	}
	r.mu.Unlock()
}

// closeAll closes sessions in parallel and waits for the nodes' replies.
func closeAll(r *Router, hops []*p2p.Session) {
	var wg sync.WaitGroup
	for _, h := range hops {
		if h == nil {
			continue
		}
		wg.Go(func() {
			if err := h.Close(); err != nil {
				r.log.Debug("close session", "err", err)
			}
			r.track(h.Peer(), -1)
		})
	}
	wg.Wait()
}

func (c *chain) closeHops() {
	closeAll(c.r, c.hops)
	c.hops = nil
}

func (c *chain) close() {
	if c.joined {
		c.barrier.leave()
		c.joined = false
	}
	c.closeHops()
}

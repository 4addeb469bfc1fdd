package router

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p"
	"svc/p2p/wire"
	"svc/shards/model"
)

// Generate runs a greedy generation through a chain of nodes (Backend).
func (r *Router) Generate(ctx context.Context, req GenerateRequest, emit func(Token) error) (GenerateResult, error) {
	st, hs, err := r.resolveWait(ctx, req.Model)
	if err != nil {
		return GenerateResult{}, err
	}
	if len(req.Prompt) == 0 {
		return GenerateResult{}, errors.New("router: empty prompt")
	}
	if req.MaxTokens <= 0 {
		return GenerateResult{}, fmt.Errorf("router: max tokens %d must be positive", req.MaxTokens)
	}
	if req.TopLogprobs < 0 || req.TopLogprobs > MaxTopLogprobs {
		return GenerateResult{}, fmt.Errorf("router: top logprobs %d outside 0..%d", req.TopLogprobs, MaxTopLogprobs)
	}
	h, err := r.header(ctx, st.Digest, hs)
	if err != nil {
		return GenerateResult{}, err
	}
	withPrompt := req.Logprobs && req.PromptLogprobs != nil
	if limit := MaxPromptLogprobs(req.TopLogprobs); withPrompt && len(req.Prompt) > limit {
		return GenerateResult{}, fmt.Errorf("router: the log-probabilities of a prompt of %d tokens were asked for; with %d top log-probabilities at most %d fit one reply", len(req.Prompt), req.TopLogprobs, limit)
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
	ch := &chain{r: r, name: st.Name, digest: st.Digest, adapter: st.Adapter, adapterDigest: st.AdapterDigest, scope: req.PromptCacheScope, total: st.Blocks, dim: h.cfg.Dim, maxLen: len(req.Prompt) + maxTokens - 1, barrier: r.barrier(st.Digest)}
	if err := ch.fits(); err != nil {
		return GenerateResult{}, err
	}
	ch.waiting = req.Waiting
	if req.Waves != nil {
		// A batch's prompts start a few at a time (waves.go).
		if err := ch.promptTurn(ctx, req.Waves, len(req.Prompt)); err != nil {
			return GenerateResult{}, err
		}
	}
	// Joined before the prompt, so that generations that start together
	// also take their first decode steps together (barrier.go).
	ch.member = ch.barrier.join()
	defer ch.close()
	if err := ch.buildIn(ctx, req.Waves); err != nil {
		return GenerateResult{}, err
	}
	res := GenerateResult{PromptTokens: len(req.Prompt)}
	opts := model.GenOptions{MaxTokens: maxTokens, Stop: req.Stop}
	var hop model.Hop = ch
	if req.Logprobs {
		// At least one row, which holds the chosen token (the argmax).
		opts.TopK = max(req.TopLogprobs, 1)
		if withPrompt {
			hop = &promptScores{chain: ch, top: req.TopLogprobs, fn: req.PromptLogprobs}
		}
	}
	out, err := model.Generate(ctx, []model.Hop{hop}, req.Prompt, opts, func(s model.Step) error {
		if req.Stop != nil && req.Stop(s.ID) {
			return nil // the stop token is not part of the completion
		}
		res.CompletionTokens++
		if emit == nil {
			return nil
		}
		t := Token{ID: s.ID}
		if req.Logprobs {
			var err error
			if t, err = chosen(s.ID, s.Top, req.TopLogprobs); err != nil {
				return err
			}
		}
		return emit(t)
	})
	r.met.tokens.Add(float64(res.CompletionTokens))
	if out != nil {
		// Also when emit ended the generation (a client's stop string).
		res.CachedTokens = out.Cached
	}
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

// chosen is a generated token with its log-probability, found in the top
// rows of its position (greedy: the first), and the first k of them.
func chosen(id int32, top []model.TokenLogprob, k int) (Token, error) {
	for _, t := range top {
		if t.ID == id {
			return Token{ID: id, Logprob: t.Logprob, Top: top[:min(k, len(top))]}, nil
		}
	}
	return Token{}, fmt.Errorf("router: token %d is not among the %d most likely of its position", id, len(top))
}

// promptScores is the chain as model.Generate sees it when the prompt's
// log-probabilities are asked for: its first step (the prompt, as one
// batch, as always) asks the last hop for every position's top rows and
// the log-probability of the prompt's next token there (model.Input.Score,
// sent to the last hop only), hands them to fn, and shows model.Generate
// the last position's prediction alone, as it asked. Later steps pass
// through.
type promptScores struct {
	*chain
	top  int // how many of each position's top rows fn gets
	fn   func([]Token) error
	done bool
}

func (p *promptScores) Forward(ctx context.Context, in model.Input) (*model.Output, error) {
	if p.done {
		return p.chain.Forward(ctx, in)
	}
	p.done = true
	n := len(in.Tokens)
	in.Logits, in.OmitLogits, in.Score = model.LogitsAll, true, in.Tokens[1:]
	out, err := p.chain.Forward(ctx, in)
	if err != nil {
		return nil, err
	}
	if n > 1 && len(out.Scores) == 0 {
		return nil, fmt.Errorf("router: the last hop returned no log-probabilities for the prompt's %d tokens: it predates prompt scoring (wire.Step.score) and must be upgraded to serve echo with logprobs", n-1)
	}
	if len(out.Scores) != n-1 || len(out.Argmax) != n || len(out.Top) != n {
		return nil, fmt.Errorf("router: the last hop returned %d scores, %d predictions and %d top rows for a prompt of %d positions", len(out.Scores), len(out.Argmax), len(out.Top), n)
	}
	toks := make([]Token, n-1)
	for i := 1; i < n; i++ {
		// Position i-1 predicts token i.
		top := out.Top[i-1]
		toks[i-1] = Token{ID: in.Tokens[i], Logprob: out.Scores[i-1], Top: top[:min(p.top, len(top))]}
	}
	if err := p.fn(toks); err != nil {
		return nil, err
	}
	return &model.Output{Argmax: out.Argmax[n-1:], Top: out.Top[n-1:], Cached: out.Cached, Batch: out.Batch}, nil
}

// chain is a generation's route through the swarm, seen by model.Generate
// as a single Hop. It remembers every step it was given so that, when a hop
// fails, it can open a new route and replay them.
type chain struct {
	r      *Router
	name   string // the model's name, for messages
	digest string
	total  int
	dim    int
	maxLen int
	// adapter and adapterDigest: every hop must hold this LoRA adapter
	// file ("": the base model).
	adapter, adapterDigest string
	scope                  []byte // the hops' prompt cache scope

	// barrier lines this generation's decode steps up with the others'
	// (barrier.go); member is this generation there, joined when it
	// starts.
	barrier *stepBarrier
	member  *barrierMember
	// step is the current hops' announced time of one decode step, the
	// barrier's bound for the first decode steps of generations that
	// started together.
	step time.Duration

	hops []*p2p.Session
	// peers are the hops' peers, in order, for the barrier's round
	// counts (set with hops, so that decode steps do not rebuild them).
	peers     []peer.ID
	history   []model.Input
	failovers int
	// excluded are peers that refused or failed this generation, with
	// their record at the time: they are not tried again for it unless
	// they announce again (restarted, or back from a freeze).
	excluded map[peer.ID]*exclusion
	// opened is when the current hops were opened: a failure of a session
	// opened before the peer's last failure was seen is the same event.
	opened time.Time
	mu     sync.Mutex // guards excluded while hops open in parallel

	// waves, once the sessions opened, is the request's room-sharing,
	// told when they close; afterRelease marks a build after another
	// generation of the request freed room (waves.go).
	waves        *Waves
	afterRelease bool
	// promptDone, for a member of a Waves, ends its prompt step's turn, or
	// a failover's turn to replay (after the next step that succeeds, or
	// when the generation ends); nil when it holds none.
	promptDone func()
	// waiting is GenerateRequest.Waiting, called as the generation begins
	// to wait for its prompt's turn or for room.
	waiting func()
	// stopKeep stops the current hops' keepers (keepalive.go); nil when
	// none run.
	stopKeep func()
}

// Forward runs one step through every hop, failing over on hop failures.
func (c *chain) Forward(ctx context.Context, in model.Input) (*model.Output, error) {
	// rounds tells each hop how many steps reach it together with this
	// one, so that it computes them as one batch from the first.
	var rounds []int
	if decode := len(in.Tokens) == 1 && len(c.history) > 0; decode && c.member != nil {
		m := c.member
		rounds = c.barrier.wait(ctx, m, max(c.step, minFreshWait), c.peers)
		t0 := time.Now()
		// m: a failover waiting for room leaves the barrier (rebuild).
		defer func() { c.barrier.stepped(m, time.Since(t0)) }()
	}
	for {
		out, err := c.run(ctx, in, rounds)
		if err == nil {
			// A replay only needs the caches filled, not logits.
			c.history = append(c.history, model.Input{Tokens: slices.Clone(in.Tokens), Logits: model.LogitsNone})
			if c.promptDone != nil {
				c.promptDone()
				c.promptDone = nil
			}
			return out, nil
		}
		if ctx.Err() != nil || !retryable(err) || c.failovers >= c.r.cfg.MaxFailovers {
			return nil, err
		}
		c.failovers++
		c.r.met.failovers.Inc()
		c.r.log.Warn("hop failed, rebuilding the chain", "err", err, "failover", c.failovers)
		c.closeHops()
		if berr := c.rebuild(ctx); berr != nil {
			return nil, fmt.Errorf("router: failover after %w: %w", err, berr)
		}
		// The others' steps went on without this one: a new chain's
		// hops get it alone.
		rounds = nil
		if err := c.replay(ctx); err != nil {
			// The replay's own failure loops back through the failover
			// budget.
			c.r.log.Warn("replay failed", "err", err)
			continue
		}
	}
}

// minFreshWait is the barrier's bound for the first decode steps of
// generations that started together when the hops announce no speed yet.
const minFreshWait = 5 * time.Millisecond

// hopError names the peer whose step failed.
type hopError struct {
	peer peer.ID
	err  error
}

func (e *hopError) Error() string { return e.err.Error() }
func (e *hopError) Unwrap() error { return e.err }

func (c *chain) exclude(p peer.ID, err error) {
	var re *p2p.RemoteError
	e := &exclusion{failedAt: time.Now(), full: errors.As(err, &re) && re.Code == wire.Code_NO_CAPACITY}
	c.r.mu.Lock()
	if m, ok := c.r.nodes[p]; ok {
		e.seq, e.addrs = m.Record.Seq, addrsKey(m.Record)
	}
	c.r.mu.Unlock()
	c.mu.Lock()
	if c.excluded == nil {
		c.excluded = map[peer.ID]*exclusion{}
	}
	c.excluded[p] = e
	c.mu.Unlock()
}

// isExcluded reports whether p failed this generation and has not
// announced again since (a is its record in the view, if any).
func (c *chain) isExcluded(p peer.ID, a *wire.Announcement) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.excluded[p]
	return e != nil && (a == nil || !e.lifts(a))
}

// run feeds one step through the current hops, telling hop i that
// rounds[i] steps reach it together (none when rounds is shorter), or
// fewer (hopRound). The last hop's Output is returned with Cached the
// fewest positions any hop answered from its prompt cache: a position
// counts as cached only if no hop computed it.
func (c *chain) run(ctx context.Context, in model.Input, rounds []int) (*model.Output, error) {
	var out *model.Output
	cached := math.MaxInt
	score := in.Score // the last hop's alone: it has the logits
	in.Score = nil
	for i, h := range c.hops {
		var err error
		t0 := time.Now()
		batch := 0
		if out != nil {
			batch = out.Batch
		}
		if i == len(c.hops)-1 {
			in.Score = score
		}
		out, err = h.ForwardRound(ctx, in, hopRound(rounds, i, batch))
		c.r.met.hopStep.Observe(time.Since(t0).Seconds())
		if err != nil {
			c.r.blame(ctx, h.Peer(), err, c.opened)
			c.exclude(h.Peer(), err)
			return nil, &hopError{peer: h.Peer(), err: fmt.Errorf("router: hop %d of %d: %w", i+1, len(c.hops), err)}
		}
		cached = min(cached, out.Cached)
		if i < len(c.hops)-1 {
			in = model.Input{Hidden: out.Hidden, Logits: in.Logits, TopK: in.TopK, OmitLogits: in.OmitLogits}
		}
	}
	if out != nil {
		out.Cached = cached
	}
	return out, nil
}

// hopRound is the round announced to hop i: rounds[i], the steps of the
// barrier's round whose chains agree up to that hop, but no more than the
// previous hop computed in one batch with this step (batch; 0: unknown,
// or i is the first hop). When a round splits at a hop (seven steps in
// one batch, the eighth in the next), the seven go on as a round of seven
// and the eighth alone, so that neither waits at the next hop for steps
// that are not coming.
func hopRound(rounds []int, i, batch int) int {
	if i >= len(rounds) {
		return 0
	}
	if batch > 0 {
		return min(rounds[i], batch)
	}
	return rounds[i]
}

// replay feeds the past steps through a fresh chain, batch for batch as
// they were first computed, so that the new caches are bit-identical.
func (c *chain) replay(ctx context.Context) error {
	for _, in := range c.history {
		if _, err := c.run(ctx, in, nil); err != nil {
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

// probeCost is added to the cost of a hop through an excluded peer: such a
// chain is built only when no other exists.
const probeCost = 1e9

// candidates lists the online ranges of the chain's model with their
// estimated cost, leaving out the peers that failed this generation and
// those announced full while this router keeps them busy. Peers excluded
// after failures are listed as probes, at a prohibitive cost.
func (c *chain) candidates() []candidate {
	r := c.r
	hs := r.snapshot()[c.digest]
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []candidate
	for _, h := range hs {
		s := h.s
		if !c.serves(s) || c.isExcluded(h.peer, r.nodes[h.peer].Record) {
			continue
		}
		if s.FreeCacheTokens < uint64(c.maxLen) && r.inflight[h.peer] > 0 && !c.afterRelease {
			// Announced full and we know it is busy: skip rather than be
			// refused (an idle node's announcement may be stale; so is a
			// busy one's when a generation of this request just ended).
			continue
		}
		// Busy nodes serve each session more slowly; spread the load.
		load := float64(s.Sessions) + float64(r.inflight[h.peer])
		cost := s.MsPerToken*(1+0.5*load) + float64(r.cfg.HopPenalty.Microseconds())/1000
		probe := false
		if e := r.excl[h.peer]; e != nil && e.until.After(now) {
			cost, probe = cost+probeCost, true
		}
		out = append(out, candidate{peer: h.peer, first: int(s.First), last: int(s.Last), cost: cost, ms: s.MsPerToken, probe: probe, keep: p2p.KeepAliveEvery(s)})
	}
	return out
}

// serves reports whether a holder's announcement can take part in the
// chain: online, of the same blocks, and holding its adapter if any.
func (c *chain) serves(s *wire.Served) bool {
	return s.State == wire.ServeState_STATE_ONLINE && int(s.TotalBlocks) == c.total &&
		(c.adapter == "" || p2p.HoldsAdapter(s, c.adapter, c.adapterDigest))
}

// build picks the best chain and opens a session on every hop. A hop that
// refuses is left out and another chain tried, a few times. When no chain
// exists while some node vanished lately or is excluded after a failure,
// it waits up to RouteWait for the view to change (asking for a discovery
// and a renewal round at once): a holder of the missing blocks may be
// announcing again at this moment.
func (c *chain) build(ctx context.Context) error {
	var lastErr error
	waited := false
	for attempt := 0; attempt < 4; attempt++ {
		cands := c.candidates()
		route := bestChain(c.total, slices.Clone(cands))
		if route == nil && !waited && c.r.mayReturn() {
			waited = true
			c.r.waitFor(ctx, c.r.cfg.RouteWait, func() bool {
				cands = c.candidates()
				route = bestChain(c.total, slices.Clone(cands))
				return route != nil
			})
		}
		if route == nil {
			if ctx.Err() != nil {
				return fmt.Errorf("router: waiting for a route: %w", ctx.Err())
			}
			return c.routeError(cands, lastErr)
		}
		for _, h := range route {
			if h.probe {
				c.r.met.probes.Inc()
				c.r.log.Info("probing an excluded peer: no chain without it", "peer", h.peer, "blocks", fmt.Sprintf("%d:%d", h.first, h.last))
			}
		}
		opened := time.Now()
		hops, err := c.open(ctx, route)
		if err == nil {
			c.hops, c.opened = hops, opened
			c.peers = make([]peer.ID, len(hops))
			for i, h := range hops {
				c.peers[i] = h.Peer()
			}
			c.step = 0
			for _, h := range route {
				c.step += time.Duration(h.ms * float64(time.Millisecond))
			}
			c.keepHops(ctx)
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("router: open chain: %w", err)
		}
		lastErr = err
	}
	return fmt.Errorf("router: %w: %w", ErrRouteUnavailable, lastErr)
}

// RouteError is a refusal for want of a chain: which blocks no usable node
// holds, and what their holders are doing. Its message names no peer.
type RouteError struct {
	Model string
	// First and Last bound the blocks [First, Last) left uncovered (the
	// first such span); equal when the holders' ranges cover every block
	// but do not chain.
	First, Last int
	// Excluded holders of those blocks were left out after failures of
	// this generation (those left out after other requests' failures are
	// still tried, as probes); Busy ones are full; when both are zero no
	// online node holds the blocks.
	Excluded, Busy int
	// Last is the last failure opening a chain, if any.
	Err error
}

func (e *RouteError) Error() string {
	msg := fmt.Sprintf("router: %s: model %q: %s", ErrRouteUnavailable, e.Model, e.Reason())
	if e.Err != nil {
		msg += ": last failure: " + e.Err.Error()
	}
	return msg
}

// Reason describes what is missing (of the model, which it does not name)
// without naming any peer or address, so that it can be shown to clients.
func (e *RouteError) Reason() string {
	var what string
	switch {
	case e.First == e.Last:
		return "the ranges of the nodes holding it do not chain from the first block to the last"
	case e.Last-e.First == 1:
		what = fmt.Sprintf("block %d has", e.First)
	default:
		what = fmt.Sprintf("blocks %d..%d have", e.First, e.Last-1)
	}
	var why []string
	if e.Excluded > 0 {
		why = append(why, fmt.Sprintf("%d %s left out after failures", e.Excluded, plural(e.Excluded, "holder is", "holders are")))
	}
	if e.Busy > 0 {
		why = append(why, fmt.Sprintf("%d %s full", e.Busy, plural(e.Busy, "holder is", "holders are")))
	}
	if len(why) == 0 {
		return what + " no online holder"
	}
	return what + " no usable holder: " + strings.Join(why, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (e *RouteError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrRouteUnavailable}
	}
	return []error{ErrRouteUnavailable, e.Err}
}

// routeError explains why no chain covers the model: the first span of
// blocks the usable candidates leave uncovered, and how many of its
// online holders are excluded or busy.
//
// A probe (a peer the router left out after a failure, such as another
// generation's step timing out there, that this generation has not tried)
// covers its blocks: build would have used it, so it is not why no chain
// was found. Counting it as a gap named its blocks instead of those
// actually missing, as "left out after failures" rather than full, and so
// kept a batch's generation from waiting for room (roomRefusal).
func (c *chain) routeError(usable []candidate, last error) error {
	covered := make([]bool, c.total)
	for _, cd := range usable {
		for b := max(cd.first, 0); b < min(cd.last, c.total); b++ {
			covered[b] = true
		}
	}
	e := &RouteError{Model: c.name, Err: last}
	e.First = slices.Index(covered, false)
	if e.First < 0 {
		e.First, e.Last = 0, 0
		return e
	}
	e.Last = e.First
	for e.Last < c.total && !covered[e.Last] {
		e.Last++
	}
	hs := c.r.snapshot()[c.digest]
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	for _, h := range hs {
		s := h.s
		if !c.serves(s) || int(s.First) > e.First || int(s.Last) <= e.First {
			continue
		}
		// Why candidates left it out: this generation excluded it after a
		// failure, or it is full (it refused for room, or is announced
		// full while busy).
		c.mu.Lock()
		mine := c.excluded[h.peer]
		c.mu.Unlock()
		if mine != nil && !mine.full && c.isExcluded(h.peer, c.r.nodes[h.peer].Record) {
			e.Excluded++
		} else {
			e.Busy++
		}
	}
	return e
}

// open opens the route's sessions in parallel; on any failure it closes
// those that opened and excludes the peers that failed.
func (c *chain) open(ctx context.Context, route []candidate) ([]*p2p.Session, error) {
	id := newSessionID()
	hops := make([]*p2p.Session, len(route))
	errs := make([]error, len(route))
	var wg sync.WaitGroup
	for i, cand := range route {
		wg.Go(func() {
			s, err := c.openHop(ctx, id, cand)
			if err != nil {
				errs[i] = err
				c.exclude(cand.peer, err)
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

// openHop opens one hop's session. A peer that cannot be reached where the
// host knows it may have restarted elsewhere: the router looks for a newer
// record, re-addresses the peer (forgetting the host's dial back-off for
// it) and dials again once. A dial refused by the local dial back-off is
// never the peer's fault.
func (c *chain) openHop(ctx context.Context, id string, cand candidate) (*p2p.Session, error) {
	opts := p2p.SessionOptions{
		ID: id, Digest: c.digest, First: cand.first, Last: cand.last,
		MaxLength: c.maxLen, Dim: c.dim, StepTimeout: c.r.cfg.StepTimeout,
		Adapter: c.adapter, AdapterDigest: c.adapterDigest, PromptCacheScope: c.scope,
		PerPosition: max(time.Duration(10*cand.ms*float64(time.Millisecond)), time.Millisecond),
		KeepAlive:   c.r.keepEvery(cand.keep),
	}
	began := time.Now()
	s, err := p2p.OpenSession(ctx, c.r.ep.Host, cand.peer, opts)
	if err != nil && p2p.IsDialError(err) && ctx.Err() == nil {
		if c.r.readdress(ctx, cand.peer) || p2p.IsDialBackoff(err) {
			began = time.Now()
			s, err = p2p.OpenSession(ctx, c.r.ep.Host, cand.peer, opts)
		}
	}
	if err != nil {
		c.r.blame(ctx, cand.peer, err, began)
		return nil, err
	}
	c.r.succeeded(cand.peer)
	return s, nil
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
	c.stopKeeping()
	closeAll(c.r, c.hops)
	c.hops, c.peers = nil, nil
}

func (c *chain) close() {
	if c.member != nil {
		c.barrier.leave(c.member)
		c.member = nil
	}
	c.closeHops()
	if c.waves != nil {
		c.waves.closed()
		c.waves = nil
	}
	if c.promptDone != nil {
		c.promptDone()
	}
}

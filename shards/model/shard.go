package model

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"svc/shards/tensor"
)

// Session errors.
var (
	ErrSessionExists = errors.New("session already exists")
	ErrNoSession     = errors.New("no such session")
	ErrNoCapacity    = errors.New("not enough free cache tokens")
	ErrTooLong       = errors.New("sequence longer than allowed")
	ErrClosed        = errors.New("shard closed")
	ErrBadInput      = errors.New("bad forward input")
)

// LogitsMode says for which positions the last shard computes logits.
type LogitsMode int

// Logits modes.
const (
	LogitsNone LogitsMode = iota // fill the cache only
	LogitsLast                   // the last position of the batch
	LogitsAll                    // every position of the batch
)

// Input is one forward step of a session: N new positions.
type Input struct {
	Tokens []int32   // first shard: N token ids
	Hidden []float32 // other shards: N×Dim hidden states from the previous shard
	Logits LogitsMode
	// TopK > 0 makes the last shard also return the K most likely tokens
	// with their log-probabilities for each logits row.
	TopK int
	// OmitLogits makes the last shard return Argmax (and Top) without the
	// raw logits rows, which are large to send over a network.
	OmitLogits bool
	// Score, with Logits LogitsAll, makes the last shard return in
	// Output.Scores the log-probability of token Score[i] at the step's
	// position i (at most one id per position): a prompt's next tokens
	// scored where the logits are, so that only a number per position
	// leaves the shard. The values are Logprob's, the bits Top's.
	Score []int32
}

// Output is what a forward step returns. Shards other than the last return
// Hidden (N×Dim); the last returns Logits (rows × Vocab, one row per position
// selected by the Logits mode), the Argmax of each row and, with TopK, Top.
type Output struct {
	Hidden []float32
	Logits []float32
	Argmax []int32
	Top    [][]TokenLogprob
	// Scores are the log-probabilities of Input.Score's tokens, one per id.
	Scores []float32
	// Cached is how many of the step's positions were answered from the
	// prompt cache instead of computed: all of them or none at a shard
	// (only whole first steps are reused); through a chain of hops, those
	// every hop answered so (the fewest), since a position one hop
	// computed was not served from a cache.
	Cached int
	// Batch is how many steps a node computed in one batch with this one,
	// this one included, as its reply says (0: unknown). The router tells
	// the next hop to wait for no more steps than that.
	Batch int
}

// ShardOptions configure a shard.
type ShardOptions struct {
	// Threads for the shard's worker pool (<= 0: one per CPU). Ignored when
	// Pool is set.
	Threads int
	// Pool, if set, is shared with other shards and not closed by the shard.
	Pool *tensor.Pool
	// CacheTokens is how many positions all sessions together may reserve
	// (0: 4 × the context length).
	CacheTokens int
	// IdleTimeout closes sessions unused for this long (0: 5 minutes;
	// negative: never).
	IdleTimeout time.Duration
	// NoRepack keeps the weight matrices as views of the mapping instead of
	// the copies in tensor.Pack's layout (same results; decoding is slower
	// where Pack applies). For comparisons.
	NoRepack bool
	// PromptCacheBytes bounds the prompt cache, which answers a session's
	// first step from an identical earlier one (promptcache.go): keys,
	// values and outputs of all entries together (0:
	// DefaultPromptCacheBytes; negative: no cache).
	PromptCacheBytes int64
}

// maxBatch bounds the rows processed at once so that a long prompt's
// working memory stays bounded, as llama.cpp's micro-batches do. The split
// is fixed by the Forward's size, so a replay of the same Forward calls
// gives the same bits; a last chunk of one row takes the decode order (see
// attention).
const maxBatch = 256

// Shard computes blocks [First, Last) of a model for many sessions.
type Shard struct {
	m           *Model
	cfg         Config
	first, last int
	blocks      []*blockWeights
	embd        *tensor.Matrix // first shard only
	head        *headWeights   // last shard only
	rope        *rope
	pool        *tensor.Pool
	ownPool     bool
	attnBufs    attnBufList
	// matmul and matmulMany are tensor.MatMul and tensor.MatMulMany; tests
	// substitute a reference kernel for both (useMatMul).
	matmul     func(p *tensor.Pool, ws *tensor.Workspace, w tensor.Matrix, x []float32, n int, out []float32)
	matmulMany func(p *tensor.Pool, ws *tensor.Workspace, w []tensor.Matrix, x []float32, n int, out [][]float32)
	// blocksInvariant and headInvariant say whether the blocks' and the
	// head's products give each position the same bits whatever else shares
	// the call (tensor.BatchInvariant); ForwardBatch relies on it.
	blocksInvariant, headInvariant bool
	batchMu                        sync.Mutex
	batchFree                      []*batchScratch          // ForwardBatch's idle scratch
	adapters                       map[string]*shardAdapter // guarded by mu
	pcache                         *promptCache

	mu       sync.Mutex
	sessions map[string]*session
	reserved int
	capacity int
	idle     time.Duration
	closed   bool
	stop     chan struct{}
	done     chan struct{}
}

type session struct {
	id      string
	maxLen  int
	sem     chan struct{} // one Forward at a time
	n       int           // positions in the cache
	layers  []layerCache
	sc      scratch
	busy    int           // Forward calls in progress or waiting (guarded by Shard.mu)
	adapter *shardAdapter // nil: the base model
	scope   []byte        // the prompt cache's scope (SessionOptions)
	lastUse time.Time
}

// NewShard prepares blocks [first, last) of the model. Only the tensors of
// those blocks (and the embedding or head at the ends) are referenced; their
// pages are read when first used.
func (m *Model) NewShard(first, last int, o ShardOptions) (*Shard, error) {
	c := m.cfg
	if first < 0 || last > c.Blocks || first >= last {
		return nil, fmt.Errorf("model: block range [%d,%d) is not a non-empty part of [0,%d)", first, last, c.Blocks)
	}
	if o.CacheTokens < 0 {
		return nil, fmt.Errorf("model: cache tokens %d is negative", o.CacheTokens)
	}
	s := &Shard{m: m, cfg: c, first: first, last: last, sessions: map[string]*session{}, matmul: tensor.MatMul, matmulMany: tensor.MatMulMany}
	s.pcache = newPromptCache(o.PromptCacheBytes)
	s.capacity = o.CacheTokens
	if s.capacity == 0 {
		s.capacity = 4 * c.Context
	}
	s.idle = o.IdleTimeout
	if s.idle == 0 {
		s.idle = 5 * time.Minute
	}
	f := m.file
	for i := first; i < last; i++ {
		b, err := loadBlock(f, &c, i, !o.NoRepack)
		if err != nil {
			return nil, err
		}
		s.blocks = append(s.blocks, b)
	}
	var factors []float32
	if c.RopeFactors {
		var err error
		if factors, err = loadVector(f, "rope_freqs.weight", c.RopeDims/2, true); err != nil {
			return nil, err
		}
		for i, v := range factors {
			if !(v > 0) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("model: %w: rope_freqs.weight[%d] = %v is not a positive number", ErrBadModel, i, v)
			}
		}
	}
	s.rope = newRope(&c, factors)
	if first == 0 {
		e, err := loadMatrix(f, "token_embd.weight", c.Vocab, c.Dim, false)
		if err != nil {
			return nil, err
		}
		s.embd = &e
	}
	if last == c.Blocks {
		h, err := loadHead(f, &c, !o.NoRepack)
		if err != nil {
			return nil, err
		}
		s.head = h
		if c.TiedHead && s.embd != nil {
			// One tensor: look tokens up in the head's copy, whose mapped
			// pages loadMatrix may have released.
			e := h.out
			s.embd = &e
		}
	}
	s.blocksInvariant, s.headInvariant = true, true
	for _, b := range s.blocks {
		for _, w := range []tensor.Matrix{b.wq, b.wk, b.wv, b.wo, b.wgate, b.wup, b.wdown} {
			s.blocksInvariant = s.blocksInvariant && tensor.BatchInvariant(w.Type)
		}
	}
	if s.head != nil {
		s.headInvariant = tensor.BatchInvariant(s.head.out.Type)
	}
	if o.Pool != nil {
		s.pool = o.Pool
	} else {
		s.pool = tensor.NewPool(o.Threads)
		s.ownPool = true
	}
	// Callers of Forward on different sessions may run attention at the
	// same time; room for a few of them.
	s.attnBufs = newAttnBufList(4 * s.pool.Threads())
	if s.idle > 0 {
		s.stop, s.done = make(chan struct{}), make(chan struct{})
		go s.expireLoop()
	}
	return s, nil
}

// Range returns the shard's blocks [first, last).
func (s *Shard) Range() (first, last int) { return s.first, s.last }

// Model returns the model the shard belongs to.
func (s *Shard) Model() *Model { return s.m }

// IsFirst reports whether the shard takes token ids (holds block 0).
func (s *Shard) IsFirst() bool { return s.embd != nil }

// IsLast reports whether the shard produces logits (holds the last block).
func (s *Shard) IsLast() bool { return s.head != nil }

// expireLoop closes sessions idle for longer than the idle timeout; Close
// stops it.
func (s *Shard) expireLoop() {
	defer close(s.done)
	tick := min(max(s.idle/4, 10*time.Millisecond), 30*time.Second)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.mu.Lock()
			for id, ss := range s.sessions {
				if ss.busy == 0 && now.Sub(ss.lastUse) > s.idle {
					delete(s.sessions, id)
					s.reserved -= ss.maxLen
				}
			}
			s.mu.Unlock()
		}
	}
}

// Close stops the expiry goroutine, drops every session and, unless the pool
// was shared, stops the worker pool.
func (s *Shard) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.sessions = map[string]*session{}
	s.reserved = 0
	s.mu.Unlock()
	if s.stop != nil {
		close(s.stop)
		<-s.done
	}
	if s.ownPool {
		s.pool.Close()
	}
}

// OpenSession reserves maxLen cache positions for a new session of the base
// model.
func (s *Shard) OpenSession(id string, maxLen int) error { return s.OpenSessionAdapter(id, maxLen, "") }

// OpenSessionAdapter reserves maxLen cache positions for a new session that
// computes with the named adapter (AddAdapter; "" for the base model).
func (s *Shard) OpenSessionAdapter(id string, maxLen int, adapter string) error {
	return s.OpenSessionWith(id, maxLen, SessionOptions{Adapter: adapter})
}

// SessionOptions describe a new session.
type SessionOptions struct {
	// Adapter names the adapter to compute with (AddAdapter; "" for the
	// base model).
	Adapter string
	// PromptCacheScope separates prompt-cache entries: a session's first
	// step is answered only from a first step of a session with the same
	// scope (a router passes one per tenant, so that nobody learns from a
	// fast first token that another tenant sent the same prompt).
	PromptCacheScope []byte
}

// OpenSessionWith reserves maxLen cache positions for a new session.
func (s *Shard) OpenSessionWith(id string, maxLen int, o SessionOptions) error {
	adapter := o.Adapter
	if maxLen <= 0 {
		return fmt.Errorf("model: session %q: %w: maximum length %d must be positive", id, ErrTooLong, maxLen)
	}
	if maxLen > s.cfg.Context {
		return fmt.Errorf("model: session %q: %w: maximum length %d exceeds the context length %d", id, ErrTooLong, maxLen, s.cfg.Context)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("model: session %q: %w", id, ErrClosed)
	}
	if _, ok := s.sessions[id]; ok {
		return fmt.Errorf("model: session %q: %w", id, ErrSessionExists)
	}
	var ad *shardAdapter
	if adapter != "" {
		if ad = s.adapters[adapter]; ad == nil {
			return fmt.Errorf("model: session %q: %w: %q", id, ErrNoAdapter, adapter)
		}
	}
	if free := s.capacity - s.reserved; maxLen > free {
		return fmt.Errorf("model: session %q: %w: asked for %d, %d free", id, ErrNoCapacity, maxLen, free)
	}
	s.sessions[id] = &session{
		id:      id,
		maxLen:  maxLen,
		sem:     make(chan struct{}, 1),
		layers:  make([]layerCache, len(s.blocks)),
		sc:      scratch{ws: tensor.NewWorkspace()},
		lastUse: time.Now(),
		adapter: ad,
		scope:   bytes.Clone(o.PromptCacheScope),
	}
	s.reserved += maxLen
	return nil
}

// CloseSession frees a session's cache and reservation.
func (s *Shard) CloseSession(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[id]
	if !ok {
		return fmt.Errorf("model: session %q: %w", id, ErrNoSession)
	}
	delete(s.sessions, id)
	s.reserved -= ss.maxLen
	return nil
}

// FreeTokens is how many cache positions new sessions can still reserve.
func (s *Shard) FreeTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.capacity - s.reserved
}

// Sessions is the number of open sessions.
func (s *Shard) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Hold marks a session in use until the returned function is called (its
// last use then), so that the idle timeout does not end it while a step of
// it waits for its turn in its node's queue: waiting is not idleness.
func (s *Shard) Hold(id string) (func(), error) {
	ss, err := s.acquireLookup(id)
	if err != nil {
		return nil, err
	}
	return func() { s.release(ss) }, nil
}

// SessionLen is the number of positions a session has cached.
func (s *Shard) SessionLen(id string) (int, error) {
	ss, err := s.acquireLookup(id)
	if err != nil {
		return 0, err
	}
	defer s.release(ss)
	ss.sem <- struct{}{}
	defer func() { <-ss.sem }()
	return ss.n, nil
}

func (s *Shard) acquireLookup(id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("model: session %q: %w", id, ErrClosed)
	}
	ss, ok := s.sessions[id]
	if !ok {
		return nil, fmt.Errorf("model: session %q: %w", id, ErrNoSession)
	}
	ss.busy++
	return ss, nil
}

func (s *Shard) release(ss *session) {
	s.mu.Lock()
	ss.busy--
	ss.lastUse = time.Now()
	s.mu.Unlock()
}

// Forward appends len(Tokens) (first shard) or len(Hidden)/Dim positions to
// the session and runs the shard's blocks over them. One session's calls are
// serialized; different sessions run concurrently. If ctx ends midway the
// session is left as it was before the call.
func (s *Shard) Forward(ctx context.Context, id string, in Input) (*Output, error) {
	out := &Output{}
	if err := s.ForwardInto(ctx, id, in, out); err != nil {
		return nil, err
	}
	return out, nil
}

// ForwardInto is Forward writing its result into out: Argmax and Top are
// truncated and refilled in place, Logits (when asked for) are fresh
// memory. A decode loop that keeps one Output and omits the logits
// allocates nothing per token.
func (s *Shard) ForwardInto(ctx context.Context, id string, in Input, out *Output) error {
	ss, err := s.acquireLookup(id)
	if err != nil {
		return err
	}
	defer s.release(ss)
	select {
	case ss.sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("model: session %q: %w", id, ctx.Err())
	}
	defer func() { <-ss.sem }()

	n, err := s.checkInput(ss, in)
	if err != nil {
		return err
	}
	c := &s.cfg
	var key promptKey
	cached := ss.n == 0 && s.pcache.enabled()
	if cached {
		if key = s.pcache.key(ss, in); s.pcache.load(key, ss, c.KVDim(), out) {
			ss.n, out.Cached = n, n
			return nil
		}
	}
	x := s.residual(ss, n, out.Hidden)
	if err := s.embed(ss, in, x); err != nil {
		return err
	}

	*out = Output{Argmax: out.Argmax[:0], Top: out.Top[:0], Scores: out.Scores[:0]}
	for r0 := 0; r0 < n; r0 += maxBatch {
		rows := min(maxBatch, n-r0)
		xb := x[r0*c.Dim : (r0+rows)*c.Dim]
		ss.sc.reserve(c, rows)
		for l, b := range s.blocks {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("model: session %q: %w", id, err)
			}
			sc := &ss.sc
			sc.spans = append(sc.spans[:0], span{rows: rows, pos0: ss.n + r0, maxLen: ss.maxLen, lc: &ss.layers[l], attn: &sc.attn, lora: ss.blockAdapter(l)})
			s.blockForward(b, xb, rows, sc.spans, sc)
		}
		if s.IsLast() {
			s.logits(&ss.sc, xb, r0, rows, n, in, out, ss.headAdapter())
		}
	}
	ss.n += n
	if !s.IsLast() {
		out.Hidden = x
	}
	if cached {
		s.pcache.store(key, ss, n, c.KVDim(), out)
	}
	return nil
}

// checkInput validates a step of session ss (whose semaphore the caller
// holds) and returns its number of positions.
func (s *Shard) checkInput(ss *session, in Input) (int, error) {
	c := &s.cfg
	id := ss.id
	var n int
	if s.IsFirst() {
		if in.Hidden != nil {
			return 0, fmt.Errorf("model: session %q: %w: the first shard takes token ids, not hidden states", id, ErrBadInput)
		}
		n = len(in.Tokens)
		for i, t := range in.Tokens {
			if t < 0 || int(t) >= c.Vocab {
				return 0, fmt.Errorf("model: session %q: %w: token %d at index %d is outside the vocabulary [0,%d)", id, ErrBadInput, t, i, c.Vocab)
			}
		}
	} else {
		if in.Tokens != nil {
			return 0, fmt.Errorf("model: session %q: %w: shard [%d,%d) takes hidden states, not token ids", id, ErrBadInput, s.first, s.last)
		}
		if len(in.Hidden)%c.Dim != 0 {
			return 0, fmt.Errorf("model: session %q: %w: %d hidden values are not a multiple of the width %d", id, ErrBadInput, len(in.Hidden), c.Dim)
		}
		n = len(in.Hidden) / c.Dim
		for i, v := range in.Hidden {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return 0, fmt.Errorf("model: session %q: %w: hidden value %d is %v", id, ErrBadInput, i, v)
			}
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("model: session %q: %w: no positions", id, ErrBadInput)
	}
	if in.Logits < LogitsNone || in.Logits > LogitsAll {
		return 0, fmt.Errorf("model: session %q: %w: logits mode %d", id, ErrBadInput, in.Logits)
	}
	if in.TopK < 0 {
		return 0, fmt.Errorf("model: session %q: %w: top-k %d is negative", id, ErrBadInput, in.TopK)
	}
	if len(in.Score) > 0 {
		if in.Logits != LogitsAll {
			return 0, fmt.Errorf("model: session %q: %w: scoring tokens needs the logits of every position", id, ErrBadInput)
		}
		if len(in.Score) > n {
			return 0, fmt.Errorf("model: session %q: %w: %d tokens to score for a step of %d positions", id, ErrBadInput, len(in.Score), n)
		}
		for i, t := range in.Score {
			if t < 0 || int(t) >= c.Vocab {
				return 0, fmt.Errorf("model: session %q: %w: token to score %d at index %d is outside the vocabulary [0,%d)", id, ErrBadInput, t, i, c.Vocab)
			}
		}
	}
	if ss.n+n > ss.maxLen {
		return 0, fmt.Errorf("model: session %q: %w: %d cached + %d new positions exceed its maximum length %d", id, ErrTooLong, ss.n, n, ss.maxLen)
	}
	return n, nil
}

// residual returns the n×Dim residual stream of a step. The hidden states a
// middle shard returns belong to the caller; the last shard's stay internal
// and reuse the session's scratch.
func (s *Shard) residual(ss *session, n int, reuse []float32) []float32 {
	if s.IsLast() {
		ss.sc.x = growTo(ss.sc.x, n*s.cfg.Dim)
		return ss.sc.x
	}
	// Returned to the caller as Hidden: fresh memory, or the caller's own
	// from its previous step (ForwardInto).
	return growTo(reuse, n*s.cfg.Dim)
}

// embed fills x with a checked step's input: the token embeddings on the
// first shard (with the session's adapter's, if it adapts them), the
// previous shard's hidden states elsewhere.
func (s *Shard) embed(ss *session, in Input, x []float32) error {
	if !s.IsFirst() {
		copy(x, in.Hidden)
		return nil
	}
	d := s.cfg.Dim
	for i, t := range in.Tokens {
		if err := tensor.Row(*s.embd, int(t), x[i*d:(i+1)*d]); err != nil {
			return fmt.Errorf("model: session %q: embedding token %d: %w", ss.id, t, err)
		}
	}
	if p := ss.embdAdapter(); p != nil {
		if err := s.addEmbdLoRA(&ss.sc, p, in.Tokens, x); err != nil {
			return fmt.Errorf("model: session %q: %w", ss.id, err)
		}
	}
	return nil
}

// logits sends the rows of a step's chunk (rows [r0, r0+rows) of its n
// positions, in x) that its Logits mode selects through the output head,
// adapted by the session's head pair lp (nil: the base head).
func (s *Shard) logits(sc *scratch, x []float32, r0, rows, n int, in Input, out *Output, lp *loraPair) {
	lo, k := selected(in, r0, rows, n)
	d := s.cfg.Dim
	sc.heads = append(sc.heads[:0], headPart{x: x[lo*d : (lo+k)*d], k: k, in: in, out: out, lora: lp})
	s.applyHead(sc, sc.heads)
}

// selected returns the first row and the number of rows of a chunk (rows
// [r0, r0+rows) of an n-position step) that the step's Logits mode sends
// through the head.
func selected(in Input, r0, rows, n int) (lo, k int) {
	switch in.Logits {
	case LogitsLast:
		if r0+rows == n {
			return rows - 1, 1
		}
	case LogitsAll:
		return 0, rows
	}
	return 0, 0
}

// headPart is one step's rows for the output head: k rows (k×Dim of x),
// the step's input options, its result and its session's head pair (nil:
// the base head).
type headPart struct {
	x    []float32
	k    int
	in   Input
	out  *Output
	lora *loraPair
}

// applyHead computes the logits of every part's rows in one product (output
// norm, then head), adds each adapted part's low-rank product as a block's
// matrices do (addLoRASpans), and appends each part's argmax, top-k and,
// unless the step omits them, logits to its Output. Logits a caller keeps
// are fresh memory, each part its own slice of it; otherwise the scratch is
// reused.
func (s *Shard) applyHead(sc *scratch, parts []headPart) {
	c := &s.cfg
	d, vocab := c.Dim, c.Vocab
	defer clear(parts) // drop the references to the steps' memory
	total, keep := 0, false
	for _, p := range parts {
		total += p.k
		keep = keep || (p.k > 0 && !p.in.OmitLogits)
	}
	if total == 0 {
		return
	}
	sc.logitsXn = growTo(sc.logitsXn, total*d)
	r := 0
	for _, p := range parts {
		rmsNormRows(sc.logitsXn[r*d:], p.x, s.head.norm, p.k, d, c.Eps)
		r += p.k
	}
	var lg []float32
	if keep {
		lg = make([]float32, total*vocab)
	} else {
		sc.logits = growTo(sc.logits, total*vocab)
		lg = sc.logits
	}
	s.matmul(s.pool, sc.ws, s.head.out, sc.logitsXn, total, lg)
	sc.loraIn = sc.loraIn[:0]
	r = 0
	for _, p := range parts {
		sc.loraIn = append(sc.loraIn, loraSpan{row0: r, rows: p.k, p: p.lora})
		r += p.k
	}
	s.addLoRASpans(sc, sc.loraIn, sc.logitsXn, d, lg, vocab, headLoRARows)
	r = 0
	for _, p := range parts {
		// The full slice expression makes a later append copy instead of
		// writing into the next part.
		part := lg[r*vocab : (r+p.k)*vocab : (r+p.k)*vocab]
		r += p.k
		for i := 0; i < p.k; i++ {
			row := part[i*vocab : (i+1)*vocab]
			// The row's index in the step: its rows come in order, one
			// argmax each, over the step's chunks.
			g := len(p.out.Argmax)
			scored := g < len(p.in.Score)
			var lse float64 // one pass over the row for its score and top rows
			if scored || p.in.TopK > 0 {
				lse = logSumExp(row)
			}
			if scored {
				p.out.Scores = append(p.out.Scores, logprobWith(row, p.in.Score[g], lse))
			}
			p.out.Argmax = append(p.out.Argmax, argmax(row))
			if p.in.TopK > 0 {
				p.out.Top = append(p.out.Top, topK(row, p.in.TopK, lse))
			}
		}
		if p.k > 0 && !p.in.OmitLogits {
			if p.out.Logits == nil {
				p.out.Logits = part
			} else {
				p.out.Logits = append(p.out.Logits, part...)
			}
		}
	}
}

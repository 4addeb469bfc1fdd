package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p/wire"
	"svc/shards/model"
)

// ForwardProtocol carries one session per stream: Open, then Steps (token
// ids for the first hop, raw little-endian float32 hidden states
// otherwise), then Close or end of stream, which frees the session. The
// version is part of the id, so libp2p's multistream negotiation refuses a
// peer that speaks another.
const ForwardProtocol = "/svc/forward/1.0.0"

// maxTopK bounds the top-k a peer may ask for.
const maxTopK = 256

// DefaultKeepAliveLimit is NodeConfig.KeepAliveLimit's default: a session
// kept by keepalives alone this long after its last step is abandoned, as
// no chain's other hop takes so long for a step.
const DefaultKeepAliveLimit = 30 * time.Minute

// minKeepAlive bounds how often a caller sends a session keepalives, the
// node announcing however short an idle timeout.
const minKeepAlive = 50 * time.Millisecond

// KeepAliveEvery is how long a session on a holder announcing s may go
// without a frame before its caller sends a keepalive: a quarter of the
// node's idle timeout, so that one is late only after three quarters of it
// went by; 0 when the node announces no idle timeout (it predates
// keepalives, or takes none), which must never be sent one.
func KeepAliveEvery(s *wire.Served) time.Duration {
	if s.GetIdleTimeoutMs() == 0 {
		return 0
	}
	return max(time.Duration(s.IdleTimeoutMs)*time.Millisecond/4, minKeepAlive)
}

// maxRound bounds the round a step may announce (wire.Step.round): a batch
// never holds more steps than positions.
const maxRound = model.MaxBatch

// The conversions between the model's types and the wire's, one function
// each way: the client encodes with inputToWire and decodes with
// outputFromWire, the node the other way round.

// inputToWire turns a step's input into a Step and its payload; first says
// whether the hop holds block 0 (token ids) or not (hidden states of width
// dim). It returns the step's position count.
func inputToWire(in model.Input, first bool, dim int) (*wire.Step, []byte, error) {
	st := &wire.Step{Logits: wire.LogitsMode(in.Logits), TopK: uint32(max(in.TopK, 0)), OmitLogits: in.OmitLogits, Score: in.Score}
	if first {
		if in.Hidden != nil {
			return nil, nil, errors.New("the hop holds block 0 and takes token ids")
		}
		st.N, st.Tokens = uint32(len(in.Tokens)), in.Tokens
		return st, nil, nil
	}
	if in.Tokens != nil || len(in.Hidden)%dim != 0 {
		return nil, nil, fmt.Errorf("the hop takes hidden states of width %d", dim)
	}
	st.N, st.Payload = uint32(len(in.Hidden)/dim), wire.Payload_PAYLOAD_HIDDEN_F32
	return st, wire.EncodeF32(in.Hidden), nil
}

// inputFromWire is inputToWire's inverse for a hop that holds block 0
// (first) or not, and the last block (vocab > 0: the vocabulary) or not;
// what does not fit the hop is a BAD_REQUEST.
func inputFromWire(st *wire.Step, payload []byte, first bool, dim, vocab int) (model.Input, error) {
	np := int(st.N)
	if st.Logits < wire.LogitsMode_LOGITS_NONE || st.Logits > wire.LogitsMode_LOGITS_ALL {
		return model.Input{}, refuse(wire.Code_BAD_REQUEST, "logits mode %d", st.Logits)
	}
	if st.TopK > maxTopK {
		return model.Input{}, refuse(wire.Code_BAD_REQUEST, "top-k %d exceeds %d", st.TopK, maxTopK)
	}
	if err := checkScore(st, vocab); err != nil {
		return model.Input{}, err
	}
	if err := checkReply(st, vocab); err != nil {
		return model.Input{}, err
	}
	in := model.Input{Logits: model.LogitsMode(st.Logits), TopK: int(st.TopK), OmitLogits: st.OmitLogits, Score: st.Score}
	if first {
		if len(st.Tokens) != np || st.Payload != wire.Payload_PAYLOAD_NONE || len(payload) != 0 {
			return model.Input{}, refuse(wire.Code_BAD_REQUEST, "the first hop takes %d token ids and no payload (got %d ids, payload %v of %d bytes)", np, len(st.Tokens), st.Payload, len(payload))
		}
		in.Tokens = st.Tokens
		return in, nil
	}
	if len(st.Tokens) != 0 || st.Payload != wire.Payload_PAYLOAD_HIDDEN_F32 || len(payload) != np*dim*4 {
		return model.Input{}, refuse(wire.Code_BAD_REQUEST, "the hop takes %d×%d float32 hidden states (got %d token ids, payload %v of %d bytes)", np, dim, len(st.Tokens), st.Payload, len(payload))
	}
	h, err := wire.DecodeF32(payload)
	if err != nil {
		return model.Input{}, &streamError{code: wire.Code_BAD_REQUEST, err: err}
	}
	in.Hidden = h
	return in, nil
}

// checkScore refuses a step's token ids to score (wire.Step.score) that
// the hop cannot score: it does not hold the last block (vocab 0), the
// step asks for fewer logits than every position's, more ids than
// positions, or ids outside the vocabulary.
func checkScore(st *wire.Step, vocab int) error {
	if len(st.Score) == 0 {
		return nil
	}
	switch {
	case vocab == 0:
		return refuse(wire.Code_BAD_REQUEST, "%d tokens to score sent to a hop without the model's last block", len(st.Score))
	case st.Logits != wire.LogitsMode_LOGITS_ALL:
		return refuse(wire.Code_BAD_REQUEST, "tokens to score with logits mode %v: scoring needs LOGITS_ALL", st.Logits)
	case uint64(len(st.Score)) > uint64(st.N):
		return refuse(wire.Code_BAD_REQUEST, "%d tokens to score for a step of %d positions", len(st.Score), st.N)
	}
	for i, t := range st.Score {
		if t < 0 || int(t) >= vocab {
			return refuse(wire.Code_BAD_REQUEST, "token to score %d at index %d is outside the vocabulary [0,%d)", t, i, vocab)
		}
	}
	return nil
}

// checkReply refuses a step for every position's logits whose reply could
// not be framed (top rows beyond wire.MaxControl) or read by the client
// (logits rows beyond wire.DefaultMaxPayload): the caller gets a reason
// and a bound before any work, not a reset stream after it.
func checkReply(st *wire.Step, vocab int) error {
	if st.Logits != wire.LogitsMode_LOGITS_ALL || vocab == 0 {
		return nil
	}
	if limit := wire.MaxReplyPositions(int(st.TopK)); uint64(st.N) > uint64(limit) {
		return refuse(wire.Code_BAD_REQUEST, "a step of %d positions asking for every position's logits with top-k %d: its reply would exceed the wire's %d-byte control limit; send at most %d positions per step", st.N, st.TopK, wire.MaxControl, limit)
	}
	if limit := wire.DefaultMaxPayload / (4 * vocab); !st.OmitLogits && uint64(st.N) > uint64(limit) {
		return refuse(wire.Code_BAD_REQUEST, "a step of %d positions asking for every position's logits: %d rows of %d float32 exceed the %d-byte payload limit; omit the logits or send at most %d positions per step", st.N, st.N, vocab, wire.DefaultMaxPayload, limit)
	}
	return nil
}

// outputToWire turns a step's output over np positions into a Response and
// its payload (hidden states of width dim, or logits rows of width vocab).
func outputToWire(out *model.Output, np, dim, vocab int) (*wire.Response, []byte) {
	resp := &wire.Response{Code: wire.Code_OK, Argmax: out.Argmax, Scores: out.Scores, Cached: uint32(out.Cached), Batch: uint32(max(out.Batch, 0))}
	for _, row := range out.Top {
		tr := &wire.TopRow{Items: make([]*wire.TokenLogprob, len(row))}
		for i, t := range row {
			tr.Items[i] = &wire.TokenLogprob{Id: t.ID, Logprob: t.Logprob}
		}
		resp.Top = append(resp.Top, tr)
	}
	switch {
	case out.Hidden != nil:
		resp.Payload, resp.N, resp.Dim = wire.Payload_PAYLOAD_HIDDEN_F32, uint32(np), uint32(dim)
		return resp, wire.EncodeF32(out.Hidden)
	case len(out.Logits) > 0:
		resp.Payload, resp.N, resp.Dim = wire.Payload_PAYLOAD_LOGITS_F32, uint32(len(out.Logits)/vocab), uint32(vocab)
		return resp, wire.EncodeF32(out.Logits)
	}
	return resp, nil
}

// outputFromWire is outputToWire's inverse for a step of n positions on a
// model of width dim.
func outputFromWire(resp *wire.Response, data []byte, n, dim int) (*model.Output, error) {
	if int64(resp.Cached) > int64(n) {
		return nil, fmt.Errorf("%d positions answered from its prompt cache for a step of %d", resp.Cached, n)
	}
	if len(resp.Scores) > n {
		return nil, fmt.Errorf("%d scores for a step of %d positions", len(resp.Scores), n)
	}
	out := &model.Output{Argmax: resp.Argmax, Scores: resp.Scores, Cached: int(resp.Cached), Batch: int(min(resp.Batch, maxRound))}
	for _, row := range resp.Top {
		r := make([]model.TokenLogprob, len(row.Items))
		for i, t := range row.Items {
			r[i] = model.TokenLogprob{ID: t.Id, Logprob: t.Logprob}
		}
		out.Top = append(out.Top, r)
	}
	var err error
	switch resp.Payload {
	case wire.Payload_PAYLOAD_HIDDEN_F32:
		if int(resp.N) != n || int(resp.Dim) != dim || len(data) != n*dim*4 {
			return nil, fmt.Errorf("%d bytes of hidden states for %d×%d", len(data), n, dim)
		}
		out.Hidden, err = wire.DecodeF32(data)
	case wire.Payload_PAYLOAD_LOGITS_F32:
		if uint64(len(data)) != uint64(resp.N)*uint64(resp.Dim)*4 {
			return nil, fmt.Errorf("%d bytes of logits for %d×%d", len(data), resp.N, resp.Dim)
		}
		out.Logits, err = wire.DecodeF32(data)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Handler.

// session is the state of one forward stream on the node.
type session struct {
	id     string
	shard  *model.Shard
	sched  *scheduler
	maxLen int
	pos    int
	// stepped is when the session opened or last computed a step:
	// keepalives keep it only up to NodeConfig.KeepAliveLimit after.
	stepped time.Time
}

func (n *Node) handleForward(s network.Stream) {
	if !n.track(s) {
		_ = s.Reset()
		return
	}
	defer n.untrack(s)
	rd, err := joinService(s, ServiceForward)
	if err != nil {
		n.met.errors.WithLabelValues("LIMIT").Inc()
		_ = s.Reset()
		return
	}
	ctx, cancel := context.WithCancel(n.ctx)
	defer cancel()
	var ss session
	err = n.serveForward(ctx, s, rd, &ss)
	// Whatever ended the stream (close, reset, bad frame, node stopping),
	// the session it opened ends with it.
	if ss.shard != nil {
		_ = ss.shard.CloseSession(ss.id)
	}
	if ss.sched != nil {
		ss.sched.forget(ss.id)
	}
	n.finish(s, err)
}

// finish ends a stream: after a protocol error the peer gets an error
// response and a clean close; after an I/O error the stream is reset.
func (n *Node) finish(s network.Stream, err error) {
	var se *streamError
	switch {
	case err == nil:
		_ = s.Close()
	case errors.As(err, &se):
		n.met.errors.WithLabelValues(se.code.String()).Inc()
		n.log.Debug("forward stream refused", "peer", s.Conn().RemotePeer(), "code", se.code, "err", se.err)
		_ = s.SetWriteDeadline(time.Now().Add(writeTimeout))
		if werr := wire.WriteFrame(s, &wire.Response{Code: se.code, Message: se.err.Error()}, nil); werr != nil {
			_ = s.Reset()
			return
		}
		_ = s.Close()
	default:
		label := "IO"
		if isLimit(err) {
			label = "LIMIT"
		}
		n.met.errors.WithLabelValues(label).Inc()
		n.log.Debug("forward stream failed", "peer", s.Conn().RemotePeer(), "err", err)
		_ = s.Reset()
	}
}

func (n *Node) serveForward(ctx context.Context, s network.Stream, rd *wire.Reader, ss *session) error {
	// Until its first frame is complete a stream costs the node and gives
	// it nothing, so it gets a short deadline; then the session's idle time.
	wait := min(firstFrameTimeout, n.cfg.IdleTimeout)
	for {
		if err := s.SetReadDeadline(time.Now().Add(wait)); err != nil {
			return fmt.Errorf("set read deadline: %w", err)
		}
		limit := 0
		if ss.shard != nil {
			limit = min((ss.maxLen-ss.pos)*n.dim*4, wire.DefaultMaxPayload)
		}
		var req wire.Request
		fr, err := rd.Read(s, &req, limit)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, wire.ErrFrame) || errors.Is(err, io.ErrUnexpectedEOF) {
			// Bad lengths, bad protobuf, or the peer stopped sending
			// mid-frame: tell it why, then end the stream.
			return &streamError{code: wire.Code_BAD_REQUEST, err: err}
		}
		if err != nil {
			return err
		}
		wait = n.cfg.IdleTimeout
		resp, out, done, err := n.forwardRequest(ctx, &req, fr.Payload, ss)
		fr.Free()
		if err != nil {
			return err
		}
		if err := s.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
			return fmt.Errorf("set write deadline: %w", err)
		}
		if err := wire.WriteFrame(s, resp, out); err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// forwardRequest answers one request; done when it was the Close.
func (n *Node) forwardRequest(ctx context.Context, req *wire.Request, payload []byte, ss *session) (*wire.Response, []byte, bool, error) {
	switch k := req.Kind.(type) {
	case *wire.Request_Open:
		if len(payload) > 0 {
			return nil, nil, false, refuse(wire.Code_BAD_REQUEST, "open carries a payload")
		}
		if err := n.open(k.Open, ss); err != nil {
			return nil, nil, false, err
		}
		return &wire.Response{Code: wire.Code_OK}, nil, false, nil
	case *wire.Request_Step:
		if ss.shard == nil {
			return nil, nil, false, refuse(wire.Code_BAD_REQUEST, "step before open")
		}
		resp, out, err := n.step(ctx, k.Step, payload, ss)
		return resp, out, false, err
	case *wire.Request_KeepAlive:
		n.met.keepalives.Inc()
		if err := n.keepAlive(ss, payload); err != nil {
			return nil, nil, false, err
		}
		return &wire.Response{Code: wire.Code_OK}, nil, false, nil
	case *wire.Request_Close:
		// Free the cache before answering, so that a caller who saw the
		// reply sees the session gone.
		if ss.shard != nil {
			_ = ss.shard.CloseSession(ss.id)
			ss.shard = nil
		}
		return &wire.Response{Code: wire.Code_OK}, nil, true, nil
	}
	return nil, nil, false, refuse(wire.Code_BAD_REQUEST, "request of no known kind")
}

// keepAlive accepts a keepalive: the read deadline restarts with the next
// frame's, and the shard's idle clock is restarted by a use that computes
// nothing (Hold and release). Past the limit it is refused, which ends the
// stream and the session.
func (n *Node) keepAlive(ss *session, payload []byte) error {
	switch {
	case n.cfg.KeepAliveLimit < 0:
		// What a node that predates keepalives answers.
		return refuse(wire.Code_BAD_REQUEST, "request of no known kind")
	case ss.shard == nil:
		return refuse(wire.Code_BAD_REQUEST, "keepalive before open")
	case len(payload) > 0:
		return refuse(wire.Code_BAD_REQUEST, "keepalive carries a payload")
	}
	if idle := time.Since(ss.stepped); idle > n.cfg.KeepAliveLimit {
		return refuse(wire.Code_BAD_REQUEST, "no step for %s: keepalives keep a session at most %s after its last step", idle.Round(time.Millisecond), n.cfg.KeepAliveLimit)
	}
	unhold, err := ss.shard.Hold(ss.id)
	if err != nil {
		return refuse(codeOf(err), "%w", err)
	}
	unhold()
	return nil
}

// maxPromptCacheScope bounds wire.Open.prompt_cache_scope, which each
// session keeps: a tenant's name or a digest is far shorter.
const maxPromptCacheScope = 256

func (n *Node) open(o *wire.Open, ss *session) error {
	if ss.shard != nil {
		return refuse(wire.Code_BAD_REQUEST, "second open on one stream")
	}
	if o.SessionId == "" || len(o.SessionId) > 128 {
		return refuse(wire.Code_BAD_REQUEST, "session id of %d bytes (want 1..128)", len(o.SessionId))
	}
	if len(o.PromptCacheScope) > maxPromptCacheScope {
		return refuse(wire.Code_BAD_REQUEST, "prompt cache scope of %d bytes (want at most %d)", len(o.PromptCacheScope), maxPromptCacheScope)
	}
	if o.ModelDigest != n.digest {
		return refuse(wire.Code_UNKNOWN_MODEL, "this node serves model %s, not %q", n.digest, o.ModelDigest)
	}
	if int(o.First) != n.first || int(o.Last) != n.last {
		return refuse(wire.Code_WRONG_RANGE, "this node holds blocks [%d,%d), not [%d,%d)", n.first, n.last, o.First, o.Last)
	}
	n.mu.Lock()
	sh, sched, online := n.shard, n.sched, n.online
	n.mu.Unlock()
	if sh == nil || !online {
		return refuse(wire.Code_NOT_READY, "blocks still loading")
	}
	if n.cfg.Gate != nil {
		if err := n.cfg.Gate(); err != nil {
			return refuse(wire.Code_SHUTTING_DOWN, "%v", err)
		}
	}
	if err := n.adapterFor(o); err != nil {
		return err
	}
	if err := sh.OpenSessionWith(o.SessionId, int(o.MaxLength), model.SessionOptions{Adapter: o.Adapter, PromptCacheScope: o.PromptCacheScope}); err != nil {
		return refuse(codeOf(err), "%w", err)
	}
	n.met.opened.Inc()
	*ss = session{id: o.SessionId, shard: sh, sched: sched, maxLen: int(o.MaxLength), stepped: time.Now()}
	return nil
}

func (n *Node) step(ctx context.Context, st *wire.Step, payload []byte, ss *session) (*wire.Response, []byte, error) {
	np := int(st.N)
	if np <= 0 || np > ss.maxLen-ss.pos {
		return nil, nil, refuse(wire.Code_TOO_LONG, "step of %d positions after %d of at most %d", st.N, ss.pos, ss.maxLen)
	}
	vocab := 0
	if n.last == n.total {
		vocab = n.m.Config().Vocab
	}
	in, err := inputFromWire(st, payload, n.first == 0, n.dim, vocab)
	if err != nil {
		return nil, nil, err
	}
	// The scheduler computes this step together with the steps of other
	// streams that are waiting at the same time. The session is in use
	// while its step waits in the queue: a step queued longer than the
	// idle timeout (many prompts at once) lost its session before.
	unhold, err := ss.shard.Hold(ss.id)
	if err != nil {
		return nil, nil, refuse(codeOf(err), "%w", err)
	}
	res := ss.sched.do(ctx, ss.id, in, np, int(min(st.Round, maxRound)))
	unhold()
	if res.err != nil {
		return nil, nil, refuse(codeOf(res.err), "%w", res.err)
	}
	el := res.compute
	ss.pos += np
	ss.stepped = time.Now()
	n.met.steps.Inc()
	n.met.positions.Add(float64(np))
	n.met.stepTime.Observe(el.Seconds())
	if res.positions == 1 {
		// Only a lone decode step measures the cost of one token; a
		// batch's time is shared by its steps.
		n.observeSpeed(el)
	}
	res.out.Batch = res.sessions
	resp, data := outputToWire(res.out, np, n.dim, n.m.Config().Vocab)
	resp.ComputeMicros = uint64(el.Microseconds())
	return resp, data, nil
}

// observeSpeed folds a decode step's time into the announced speed.
func (n *Node) observeSpeed(d time.Duration) {
	ms := float64(d.Microseconds()) / 1000
	n.mu.Lock()
	n.msPerTok = 0.9*n.msPerTok + 0.1*ms
	n.mu.Unlock()
}

func codeOf(err error) wire.Code {
	switch {
	case errors.Is(err, model.ErrSessionExists):
		return wire.Code_SESSION_EXISTS
	case errors.Is(err, model.ErrNoCapacity):
		return wire.Code_NO_CAPACITY
	case errors.Is(err, model.ErrTooLong):
		return wire.Code_TOO_LONG
	case errors.Is(err, model.ErrBadInput):
		return wire.Code_BAD_REQUEST
	case errors.Is(err, model.ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, errSchedulerStopped):
		return wire.Code_SHUTTING_DOWN
	}
	return wire.Code_INTERNAL
}

// Client.

// Session is one open session on a remote node: a model.Hop over a forward
// stream. It is not safe for concurrent Forward calls (a generation's
// steps are sequential anyway).
type Session struct {
	peer    peer.ID
	s       network.Stream
	rd      *wire.Reader
	first   bool
	dim     int
	timeout time.Duration // per step, plus perPos for each position
	perPos  time.Duration
	// keepEvery is SessionOptions.KeepAlive.
	keepEvery time.Duration

	// io is held by each exchange of a request and its reply, so that a
	// keepalive (KeepIdle, from another goroutine) never interleaves with
	// a step; last is when the latest reply came, under io.
	io   sync.Mutex
	last time.Time

	mu     sync.Mutex
	broken error
	// Compute and Wall add up the node's compute time and the caller's
	// wall time of every step, so the network's share can be measured.
	compute, wall time.Duration
	steps         int
}

// SessionOptions describe the session to open.
type SessionOptions struct {
	ID          string
	Digest      string
	First, Last int
	MaxLength   int
	// Dim is the model's hidden width, to check the replies and bound
	// their size.
	Dim int
	// StepTimeout bounds one step, reply included (default 2 minutes),
	// plus PerPosition for every position the step carries: a node that
	// does not answer in time is treated as failed.
	StepTimeout time.Duration
	PerPosition time.Duration
	// Adapter names the node's LoRA adapter to compute with and
	// AdapterDigest its file's sha256 (empty: the base model).
	Adapter, AdapterDigest string
	// PromptCacheScope keeps the session's first step from being answered
	// from the prompt cache with another scope's (model.SessionOptions).
	PromptCacheScope []byte
	// KeepAlive is how long the session may go without a frame before
	// KeepIdle sends a keepalive (KeepAliveEvery of the node's
	// announcement); 0 for a node that announces no idle timeout, which
	// KeepIdle never sends one.
	KeepAlive time.Duration
}

// OpenSession opens a forward stream to p and a session on it.
func OpenSession(ctx context.Context, h host.Host, p peer.ID, o SessionOptions) (*Session, error) {
	if o.StepTimeout <= 0 {
		o.StepTimeout = 2 * time.Minute
	}
	s, rd, err := openStream(ctx, h, p, ForwardProtocol, ServiceForward)
	if err != nil {
		return nil, err
	}
	ss := &Session{peer: p, s: s, rd: rd, first: o.First == 0, dim: o.Dim, timeout: o.StepTimeout, perPos: max(o.PerPosition, 0), keepEvery: max(o.KeepAlive, 0)}
	req := &wire.Request{Kind: &wire.Request_Open{Open: &wire.Open{
		SessionId: o.ID, ModelDigest: o.Digest,
		First: uint32(o.First), Last: uint32(o.Last), MaxLength: uint32(o.MaxLength),
		Adapter: o.Adapter, AdapterDigest: o.AdapterDigest, PromptCacheScope: o.PromptCacheScope,
	}}}
	if _, err := ss.roundTrip(ctx, req, nil, 0, 0, nil); err != nil {
		ss.Reset()
		return nil, fmt.Errorf("p2p: open session on %s: %w", p, err)
	}
	return ss, nil
}

// Peer is the node the session lives on.
func (s *Session) Peer() peer.ID { return s.peer }

// Stats returns the node's compute time, the caller's wall time and the
// number of steps so far.
func (s *Session) Stats() (compute, wall time.Duration, steps int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compute, s.wall, s.steps
}

// roundTrip sends one request and reads its response, whose payload (at
// most maxPayload bytes: a larger one is refused before it is read) goes
// to use (when set) before its memory is given back. Cancelling ctx resets
// the stream, which ends the session on the node.
func (s *Session) roundTrip(ctx context.Context, req *wire.Request, payload []byte, positions, maxPayload int, use func(*wire.Response, []byte) error) (*wire.Response, error) {
	s.io.Lock()
	defer s.io.Unlock()
	resp, err := s.exchange(ctx, req, payload, positions, maxPayload, use)
	if err != nil {
		return nil, s.breakWith(err)
	}
	return resp, nil
}

// exchange is roundTrip's request and reply, under s.io, without marking
// the session broken on failure.
func (s *Session) exchange(ctx context.Context, req *wire.Request, payload []byte, positions, maxPayload int, use func(*wire.Response, []byte) error) (*wire.Response, error) {
	s.mu.Lock()
	broken := s.broken
	s.mu.Unlock()
	if broken != nil {
		return nil, broken
	}
	stop := context.AfterFunc(ctx, func() { _ = s.s.Reset() })
	defer stop()
	if err := s.s.SetDeadline(time.Now().Add(s.timeout + time.Duration(positions)*s.perPos)); err != nil {
		return nil, fmt.Errorf("set deadline: %w", err)
	}
	if err := wire.WriteFrame(s.s, req, payload); err != nil {
		return nil, ctxErr(ctx, err)
	}
	var resp wire.Response
	fr, err := s.rd.Read(s.s, &resp, maxPayload)
	defer fr.Free()
	if err != nil {
		return nil, ctxErr(ctx, fmt.Errorf("read reply: %w", err))
	}
	// The node's idle clock starts again when it has sent a reply.
	s.last = time.Now()
	if resp.Code != wire.Code_OK {
		return nil, &RemoteError{Peer: s.peer, Code: resp.Code, Message: resp.Message}
	}
	if use != nil {
		if err := use(&resp, fr.Payload); err != nil {
			return nil, err
		}
	}
	return &resp, nil
}

// KeepAliveEvery is how long the session may go without a frame before
// KeepIdle sends a keepalive (0: never).
func (s *Session) KeepAliveEvery() time.Duration { return s.keepEvery }

// KeepIdle sends the node a keepalive when the session accepts them and
// has had no frame for KeepAliveEvery, so that the node's idle timeout
// does not end it while the caller's generation waits elsewhere (another
// hop's step in a long queue). It sends nothing while a request of the
// session is under way, and says whether it sent one. Its failure marks
// the session broken with an error that carries no node's refusal code:
// the next step fails as a lost session does, which another route may
// cure.
func (s *Session) KeepIdle(ctx context.Context) (bool, error) {
	if s.keepEvery <= 0 || !s.io.TryLock() {
		return false, nil
	}
	defer s.io.Unlock()
	if time.Since(s.last) < s.keepEvery {
		return false, nil
	}
	if _, err := s.exchange(ctx, &wire.Request{Kind: &wire.Request_KeepAlive{KeepAlive: &wire.KeepAlive{}}}, nil, 0, 0, nil); err != nil {
		// %v, not %w: a refusal's code (BAD_REQUEST past the node's limit)
		// is the keepalive's, not the next step's.
		return false, s.breakWith(fmt.Errorf("p2p: session on %s lost: keepalive: %v", s.peer, err))
	}
	return true, nil
}

// breakWith marks the session unusable: after any failure the stream's
// state is unknown, so the node has already ended (or will end) it.
func (s *Session) breakWith(err error) error {
	s.mu.Lock()
	if s.broken == nil {
		s.broken = err
	}
	s.mu.Unlock()
	return err
}

// Forward runs one step on the node (model.Hop).
func (s *Session) Forward(ctx context.Context, in model.Input) (*model.Output, error) {
	return s.ForwardRound(ctx, in, 0)
}

// ForwardRound is Forward for a step that the caller sends to the node at
// the same time as the steps of round-1 other sessions (wire.Step.round):
// the node computes them as one batch. round 0 or 1: no such group.
func (s *Session) ForwardRound(ctx context.Context, in model.Input, round int) (*model.Output, error) {
	t0 := time.Now()
	st, payload, err := inputToWire(in, s.first, s.dim)
	if err != nil {
		return nil, fmt.Errorf("p2p: peer %s: %w", s.peer, err)
	}
	st.Round = uint32(min(max(round, 0), maxRound))
	var out *model.Output
	decode := func(resp *wire.Response, data []byte) error {
		o, err := outputFromWire(resp, data, int(st.N), s.dim)
		if err != nil {
			return fmt.Errorf("p2p: peer %s returned %w", s.peer, err)
		}
		out = o
		return nil
	}
	// A step that omits the logits gets hidden states back (a hop before
	// the last) or nothing: a node cannot make the caller hold more, such
	// as logits rows it did not ask for.
	limit := wire.DefaultMaxPayload
	if in.OmitLogits && s.dim > 0 {
		limit = min(int(st.N)*s.dim*4, limit)
	}
	resp, err := s.roundTrip(ctx, &wire.Request{Kind: &wire.Request_Step{Step: st}}, payload, int(st.N), limit, decode)
	if err != nil {
		return nil, fmt.Errorf("p2p: step on %s: %w", s.peer, err)
	}
	s.mu.Lock()
	s.compute += time.Duration(resp.ComputeMicros) * time.Microsecond
	s.wall += time.Since(t0)
	s.steps++
	s.mu.Unlock()
	return out, nil
}

// Close ends the session: a Close request, its reply (briefly awaited),
// then the stream's close. A broken session is reset instead.
func (s *Session) Close() error {
	s.mu.Lock()
	broken := s.broken
	s.mu.Unlock()
	if broken != nil {
		s.Reset()
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.roundTrip(ctx, &wire.Request{Kind: &wire.Request_Close{Close: &wire.Close{}}}, nil, 0, 0, nil)
	if err != nil {
		s.Reset()
		return fmt.Errorf("p2p: close session on %s: %w", s.peer, err)
	}
	_ = s.s.Close()
	return nil
}

// Reset drops the stream without ceremony; the node closes the session.
func (s *Session) Reset() {
	_ = s.breakWith(errors.New("session reset"))
	_ = s.s.Reset()
}

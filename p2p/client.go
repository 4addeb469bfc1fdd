package p2p

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"svc/p2p/wire"
	"svc/shards/gguf"
	"svc/shards/model"
)

// RemoteError is a refusal a node sent back.
type RemoteError struct {
	Peer    peer.ID
	Code    wire.Code
	Message string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("peer %s: %v: %s", e.Peer, e.Code, e.Message)
}

// Session is one open session on a remote node: a model.Hop over a forward
// stream. It is not safe for concurrent Forward calls (a generation's
// steps are sequential anyway).
type Session struct {
	peer    peer.ID
	s       network.Stream
	first   bool
	dim     int
	timeout time.Duration // per step, plus perPos for each position
	perPos  time.Duration

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
	// Dim is the model's hidden width, to check the replies.
	Dim int
	// StepTimeout bounds one step, reply included (default 2 minutes),
	// plus PerPosition for every position the step carries: a node that
	// does not answer in time is treated as failed.
	StepTimeout time.Duration
	PerPosition time.Duration
}

// OpenSession opens a forward stream to p and a session on it.
func OpenSession(ctx context.Context, h host.Host, p peer.ID, o SessionOptions) (*Session, error) {
	if o.StepTimeout <= 0 {
		o.StepTimeout = 2 * time.Minute
	}
	s, err := h.NewStream(ctx, p, protocol.ID(wire.ForwardProtocol))
	if err != nil {
		return nil, fmt.Errorf("p2p: open stream to %s: %w", p, err)
	}
	ss := &Session{peer: p, s: s, first: o.First == 0, dim: o.Dim, timeout: o.StepTimeout, perPos: max(o.PerPosition, 0)}
	req := &wire.Request{Kind: &wire.Request_Open{Open: &wire.Open{
		SessionId: o.ID, ModelDigest: o.Digest,
		First: uint32(o.First), Last: uint32(o.Last), MaxLength: uint32(o.MaxLength),
	}}}
	if _, err := ss.roundTrip(ctx, req, nil, 0); err != nil {
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

// roundTrip sends one request and reads its response. Cancelling ctx resets
// the stream, which ends the session on the node.
func (s *Session) roundTrip(ctx context.Context, req *wire.Request, payload []byte, positions int) (*response, error) {
	s.mu.Lock()
	broken := s.broken
	s.mu.Unlock()
	if broken != nil {
		return nil, broken
	}
	stop := context.AfterFunc(ctx, func() { _ = s.s.Reset() })
	defer stop()
	if err := s.s.SetDeadline(time.Now().Add(s.timeout + time.Duration(positions)*s.perPos)); err != nil {
		return nil, s.breakWith(fmt.Errorf("set deadline: %w", err))
	}
	if err := wire.WriteFrame(s.s, req, payload); err != nil {
		return nil, s.breakWith(ctxErr(ctx, err))
	}
	var resp wire.Response
	data, err := wire.ReadFrame(s.s, &resp, wire.DefaultMaxPayload)
	if err != nil {
		return nil, s.breakWith(ctxErr(ctx, fmt.Errorf("read reply: %w", err)))
	}
	if resp.Code != wire.Code_OK {
		return nil, s.breakWith(&RemoteError{Peer: s.peer, Code: resp.Code, Message: resp.Message})
	}
	return &response{Response: &resp, data: data}, nil
}

type response struct {
	*wire.Response
	data []byte
}

func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
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
	t0 := time.Now()
	st := &wire.Step{Logits: wire.LogitsMode(in.Logits), TopK: uint32(max(in.TopK, 0)), OmitLogits: in.OmitLogits}
	var payload []byte
	var n int
	if s.first {
		if in.Hidden != nil {
			return nil, fmt.Errorf("p2p: peer %s holds block 0 and takes token ids", s.peer)
		}
		n = len(in.Tokens)
		st.Tokens = in.Tokens
	} else {
		if in.Tokens != nil || len(in.Hidden)%s.dim != 0 {
			return nil, fmt.Errorf("p2p: peer %s takes hidden states of width %d", s.peer, s.dim)
		}
		n = len(in.Hidden) / s.dim
		st.Payload = wire.Payload_PAYLOAD_HIDDEN_F32
		payload = wire.EncodeF32(in.Hidden)
	}
	st.N = uint32(n)
	resp, err := s.roundTrip(ctx, &wire.Request{Kind: &wire.Request_Step{Step: st}}, payload, n)
	if err != nil {
		return nil, fmt.Errorf("p2p: step on %s: %w", s.peer, err)
	}
	out := &model.Output{Argmax: resp.Argmax}
	for _, row := range resp.Top {
		r := make([]model.TokenLogprob, len(row.Items))
		for i, t := range row.Items {
			r[i] = model.TokenLogprob{ID: t.Id, Logprob: t.Logprob}
		}
		out.Top = append(out.Top, r)
	}
	switch resp.Payload {
	case wire.Payload_PAYLOAD_HIDDEN_F32:
		if int(resp.N) != n || int(resp.Dim) != s.dim || len(resp.data) != n*s.dim*4 {
			return nil, s.breakWith(fmt.Errorf("p2p: peer %s returned %d bytes of hidden states for %d×%d", s.peer, len(resp.data), n, s.dim))
		}
		if out.Hidden, err = wire.DecodeF32(resp.data); err != nil {
			return nil, s.breakWith(err)
		}
	case wire.Payload_PAYLOAD_LOGITS_F32:
		if uint64(len(resp.data)) != uint64(resp.N)*uint64(resp.Dim)*4 {
			return nil, s.breakWith(fmt.Errorf("p2p: peer %s returned %d bytes of logits for %d×%d", s.peer, len(resp.data), resp.N, resp.Dim))
		}
		if out.Logits, err = wire.DecodeF32(resp.data); err != nil {
			return nil, s.breakWith(err)
		}
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
	_, err := s.roundTrip(ctx, &wire.Request{Kind: &wire.Request_Close{Close: &wire.Close{}}}, nil, 0)
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

// FetchHeader asks p for the GGUF header of the model with digest and checks
// it against the digest before parsing it.
func FetchHeader(ctx context.Context, h host.Host, p peer.ID, digest string) (*gguf.File, error) {
	s, err := h.NewStream(ctx, p, protocol.ID(wire.MetaProtocol))
	if err != nil {
		return nil, fmt.Errorf("p2p: open meta stream to %s: %w", p, err)
	}
	defer func() { _ = s.Reset() }()
	stop := context.AfterFunc(ctx, func() { _ = s.Reset() })
	defer stop()
	_ = s.SetDeadline(time.Now().Add(time.Minute))
	if err := wire.WriteFrame(s, &wire.MetaRequest{ModelDigest: digest}, nil); err != nil {
		return nil, fmt.Errorf("p2p: meta request to %s: %w", p, ctxErr(ctx, err))
	}
	_ = s.CloseWrite()
	var resp wire.MetaResponse
	header, err := wire.ReadFrame(s, &resp, wire.DefaultMaxPayload)
	if err != nil {
		return nil, fmt.Errorf("p2p: meta reply from %s: %w", p, ctxErr(ctx, err))
	}
	if resp.Code != wire.Code_OK {
		return nil, &RemoteError{Peer: p, Code: resp.Code, Message: resp.Message}
	}
	if got := DigestOf(header, resp.SamplesSha256); got != digest {
		return nil, fmt.Errorf("p2p: header from %s gives digest %s, not %s", p, got, digest)
	}
	f, err := gguf.ParseHeader(header)
	if err != nil {
		return nil, fmt.Errorf("p2p: header of model %s from %s: %w", digest, p, err)
	}
	return f, nil
}

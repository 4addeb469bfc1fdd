package p2p

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"svc/p2p/wire"
	"svc/shards/model"
)

// writeTimeout bounds how long a node waits for a slow reader.
const writeTimeout = 30 * time.Second

// maxTopK bounds the top-k a peer may ask for.
const maxTopK = 256

// streamError is a failure the node reports to its peer before ending the
// stream.
type streamError struct {
	code wire.Code
	err  error
}

func (e *streamError) Error() string { return fmt.Sprintf("%v: %v", e.code, e.err) }
func (e *streamError) Unwrap() error { return e.err }

func refuse(code wire.Code, format string, args ...any) error {
	return &streamError{code: code, err: fmt.Errorf(format, args...)}
}

// track registers a stream so that Close can end it; false when closing.
func (n *Node) track(s network.Stream) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closing {
		return false
	}
	n.streams[s] = struct{}{}
	n.handlers.Add(1)
	return true
}

func (n *Node) untrack(s network.Stream) {
	n.mu.Lock()
	delete(n.streams, s)
	n.mu.Unlock()
	n.handlers.Done()
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
		n.met.errors.WithLabelValues("IO").Inc()
		n.log.Debug("forward stream failed", "peer", s.Conn().RemotePeer(), "err", err)
		_ = s.Reset()
	}
}

// session is the state of one forward stream.
type session struct {
	id     string
	shard  *model.Shard
	sched  *scheduler
	maxLen int
	pos    int
}

func (n *Node) handleForward(s network.Stream) {
	if !n.track(s) {
		_ = s.Reset()
		return
	}
	defer n.untrack(s)
	ctx, cancel := context.WithCancel(n.ctx)
	defer cancel()
	var ss session
	err := n.serveForward(ctx, s, &ss)
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

func (n *Node) serveForward(ctx context.Context, s network.Stream, ss *session) error {
	for {
		if err := s.SetReadDeadline(time.Now().Add(n.cfg.IdleTimeout)); err != nil {
			return fmt.Errorf("set read deadline: %w", err)
		}
		limit := 0
		if ss.shard != nil {
			limit = min((ss.maxLen-ss.pos)*n.dim*4, wire.DefaultMaxPayload)
		}
		var req wire.Request
		payload, err := wire.ReadFrame(s, &req, limit)
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
		var resp *wire.Response
		var out []byte
		switch k := req.Kind.(type) {
		case *wire.Request_Open:
			if len(payload) > 0 {
				return refuse(wire.Code_BAD_REQUEST, "open carries a payload")
			}
			if err := n.open(k.Open, ss); err != nil {
				return err
			}
			resp = &wire.Response{Code: wire.Code_OK}
		case *wire.Request_Step:
			if ss.shard == nil {
				return refuse(wire.Code_BAD_REQUEST, "step before open")
			}
			if resp, out, err = n.step(ctx, k.Step, payload, ss); err != nil {
				return err
			}
		case *wire.Request_Close:
			// Free the cache before answering, so that a caller who saw the
			// reply sees the session gone.
			if ss.shard != nil {
				_ = ss.shard.CloseSession(ss.id)
				ss.shard = nil
			}
			if err := s.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
				return fmt.Errorf("set write deadline: %w", err)
			}
			return wire.WriteFrame(s, &wire.Response{Code: wire.Code_OK}, nil)
		default:
			return refuse(wire.Code_BAD_REQUEST, "request of no known kind")
		}
		if err := s.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil {
			return fmt.Errorf("set write deadline: %w", err)
		}
		if err := wire.WriteFrame(s, resp, out); err != nil {
			return err
		}
	}
}

func (n *Node) open(o *wire.Open, ss *session) error {
	if ss.shard != nil {
		return refuse(wire.Code_BAD_REQUEST, "second open on one stream")
	}
	if o.SessionId == "" || len(o.SessionId) > 128 {
		return refuse(wire.Code_BAD_REQUEST, "session id of %d bytes (want 1..128)", len(o.SessionId))
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
	if err := sh.OpenSession(o.SessionId, int(o.MaxLength)); err != nil {
		return refuse(codeOf(err), "%w", err)
	}
	n.met.opened.Inc()
	*ss = session{id: o.SessionId, shard: sh, sched: sched, maxLen: int(o.MaxLength)}
	return nil
}

func (n *Node) step(ctx context.Context, st *wire.Step, payload []byte, ss *session) (*wire.Response, []byte, error) {
	np := int(st.N)
	if np <= 0 || np > ss.maxLen-ss.pos {
		return nil, nil, refuse(wire.Code_TOO_LONG, "step of %d positions after %d of at most %d", st.N, ss.pos, ss.maxLen)
	}
	if st.Logits < wire.LogitsMode_LOGITS_NONE || st.Logits > wire.LogitsMode_LOGITS_ALL {
		return nil, nil, refuse(wire.Code_BAD_REQUEST, "logits mode %d", st.Logits)
	}
	if st.TopK > maxTopK {
		return nil, nil, refuse(wire.Code_BAD_REQUEST, "top-k %d exceeds %d", st.TopK, maxTopK)
	}
	in := model.Input{Logits: model.LogitsMode(st.Logits), TopK: int(st.TopK), OmitLogits: st.OmitLogits}
	if n.first == 0 {
		if len(st.Tokens) != np || st.Payload != wire.Payload_PAYLOAD_NONE || len(payload) != 0 {
			return nil, nil, refuse(wire.Code_BAD_REQUEST, "the first hop takes %d token ids and no payload (got %d ids, payload %v of %d bytes)", np, len(st.Tokens), st.Payload, len(payload))
		}
		in.Tokens = st.Tokens
	} else {
		if len(st.Tokens) != 0 || st.Payload != wire.Payload_PAYLOAD_HIDDEN_F32 || len(payload) != np*n.dim*4 {
			return nil, nil, refuse(wire.Code_BAD_REQUEST, "hop [%d,%d) takes %d×%d float32 hidden states (got %d token ids, payload %v of %d bytes)", n.first, n.last, np, n.dim, len(st.Tokens), st.Payload, len(payload))
		}
		h, err := wire.DecodeF32(payload)
		if err != nil {
			return nil, nil, &streamError{code: wire.Code_BAD_REQUEST, err: err}
		}
		in.Hidden = h
	}
	// The scheduler computes this step together with the steps of other
	// streams that are waiting at the same time.
	res := ss.sched.do(ctx, ss.id, in, np)
	if res.err != nil {
		return nil, nil, refuse(codeOf(res.err), "%w", res.err)
	}
	out, el := res.out, res.compute
	ss.pos += np
	n.met.steps.Inc()
	n.met.positions.Add(float64(np))
	n.met.stepTime.Observe(el.Seconds())
	if res.positions == 1 {
		// Only a lone decode step measures the cost of one token; a
		// batch's time is shared by its steps.
		n.observeSpeed(el)
	}
	resp := &wire.Response{Code: wire.Code_OK, Argmax: out.Argmax, ComputeMicros: uint64(el.Microseconds())}
	for _, row := range out.Top {
		tr := &wire.TopRow{Items: make([]*wire.TokenLogprob, len(row))}
		for i, t := range row {
			tr.Items[i] = &wire.TokenLogprob{Id: t.ID, Logprob: t.Logprob}
		}
		resp.Top = append(resp.Top, tr)
	}
	var data []byte
	switch {
	case out.Hidden != nil:
		resp.Payload, resp.N, resp.Dim = wire.Payload_PAYLOAD_HIDDEN_F32, uint32(np), uint32(n.dim)
		data = wire.EncodeF32(out.Hidden)
	case len(out.Logits) > 0:
		vocab := n.m.Config().Vocab
		resp.Payload, resp.N, resp.Dim = wire.Payload_PAYLOAD_LOGITS_F32, uint32(len(out.Logits)/vocab), uint32(vocab)
		data = wire.EncodeF32(out.Logits)
	}
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

func (n *Node) handleMeta(s network.Stream) {
	if !n.track(s) {
		_ = s.Reset()
		return
	}
	defer n.untrack(s)
	_ = s.SetDeadline(time.Now().Add(writeTimeout))
	var req wire.MetaRequest
	if _, err := wire.ReadFrame(s, &req, 0); err != nil {
		n.log.Debug("meta request", "err", err)
		_ = wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_BAD_REQUEST, Message: err.Error()}, nil)
		_ = s.Close()
		return
	}
	if req.ModelDigest != n.digest {
		_ = wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_UNKNOWN_MODEL, Message: "model not served here"}, nil)
		_ = s.Close()
		return
	}
	if err := wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_OK, SamplesSha256: n.samples}, n.header); err != nil {
		_ = s.Reset()
		return
	}
	_ = s.Close()
}

package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"svc/p2p/wire"
)

// JSON request/answer protocols. The control protocols (enrolment, roster,
// slices, reports) each exchange one JSON request for one JSON answer on a
// stream of their own; exchange is the caller's side and answer the
// handler's, so each protocol's file holds only its types and its logic.
// On the wire each message is a length-prefixed JSON document
// (wire.WriteMessage); the answer is an envelope carrying either the body or
// a refusal.

// jsonTimeout bounds a whole exchange when the caller's context has no
// earlier deadline.
const jsonTimeout = 30 * time.Second

// Refusal is a JSON protocol's "no": a handler returns one to answer with
// its code and message, and exchange returns it (Peer set) when the other
// side refused. Any other error a handler returns is answered as "internal"
// without its text, which stays in the handler's log.
type Refusal struct {
	Peer    peer.ID `json:"-"`
	Code    string  `json:"code"`
	Message string  `json:"message"`
}

func (r *Refusal) Error() string {
	if r.Peer != "" {
		return fmt.Sprintf("peer %s refused: %s: %s", r.Peer, r.Code, r.Message)
	}
	return fmt.Sprintf("refused: %s: %s", r.Code, r.Message)
}

// envelope is an answer on the wire.
type envelope struct {
	Body    json.RawMessage `json:"body,omitempty"`
	Refusal *Refusal        `json:"refusal,omitempty"`
}

// exchange sends req as JSON on a new stream of proto to p and decodes the
// answer into resp (when not nil). Requests are bounded by what the handler
// accepts, answers by limit bytes; the stream joins ServiceControl.
func exchange(ctx context.Context, h host.Host, p peer.ID, proto protocol.ID, req, resp any, limit int) error {
	ctx, cancel := context.WithTimeout(ctx, jsonTimeout)
	defer cancel()
	body, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("p2p: encode %s request: %w", proto, err)
	}
	s, rd, err := openStream(ctx, h, p, proto, ServiceControl)
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if !closed {
			_ = s.Reset()
		}
	}()
	stop := context.AfterFunc(ctx, func() { _ = s.Reset() })
	defer stop()
	dl, _ := ctx.Deadline()
	_ = s.SetDeadline(dl)
	if err := wire.WriteMessage(s, body); err != nil {
		return fmt.Errorf("p2p: %s request to %s: %w", proto, p, ctxErr(ctx, err))
	}
	_ = s.CloseWrite()
	fr, err := rd.ReadMessage(s, limit)
	defer fr.Free()
	if err != nil {
		return fmt.Errorf("p2p: %s answer from %s: %w", proto, p, ctxErr(ctx, err))
	}
	var env envelope
	if err := json.Unmarshal(fr.Payload, &env); err != nil {
		return fmt.Errorf("p2p: %s answer from %s: %w", proto, p, err)
	}
	closed = true
	_ = s.Close()
	if env.Refusal != nil {
		env.Refusal.Peer = p
		return env.Refusal
	}
	if resp == nil {
		return nil
	}
	if err := json.Unmarshal(env.Body, resp); err != nil {
		return fmt.Errorf("p2p: %s answer from %s: %w", proto, p, err)
	}
	return nil
}

// answer serves one exchange on s: it reads a request of at most limit
// bytes (the first and only frame, so it gets firstFrameTimeout), decodes
// it into a fresh Req, and writes what handle returns. ctx is the
// handler's lifetime (the endpoint's or the node's).
func answer[Req any](ctx context.Context, s network.Stream, limit int, handle func(ctx context.Context, from peer.ID, req *Req) (any, error)) error {
	rd, err := joinService(s, ServiceControl)
	if err != nil {
		_ = s.Reset()
		return err
	}
	_ = s.SetReadDeadline(time.Now().Add(firstFrameTimeout))
	fr, err := rd.ReadMessage(s, limit)
	if err != nil {
		fr.Free()
		_ = s.Reset()
		return fmt.Errorf("read %s request: %w", s.Protocol(), err)
	}
	var req Req
	err = json.Unmarshal(fr.Payload, &req)
	fr.Free()
	var env envelope
	var out any
	if err != nil {
		env.Refusal = &Refusal{Code: "bad_request", Message: fmt.Sprintf("request is not valid JSON for %s: %v", s.Protocol(), err)}
	} else {
		hctx, cancel := context.WithTimeout(ctx, jsonTimeout)
		out, err = handle(hctx, s.Conn().RemotePeer(), &req)
		cancel()
	}
	var ref *Refusal
	switch {
	case env.Refusal != nil:
	case errors.As(err, &ref):
		env.Refusal = &Refusal{Code: ref.Code, Message: ref.Message}
	case err != nil:
		env.Refusal = &Refusal{Code: "internal", Message: "the peer failed to answer"}
	default:
		if env.Body, err = json.Marshal(out); err != nil {
			env.Refusal = &Refusal{Code: "internal", Message: "the peer failed to answer"}
			err = fmt.Errorf("encode %s answer: %w", s.Protocol(), err)
		}
	}
	b, merr := json.Marshal(env)
	if merr != nil {
		_ = s.Reset()
		return fmt.Errorf("encode %s envelope: %w", s.Protocol(), merr)
	}
	_ = s.SetWriteDeadline(time.Now().Add(writeTimeout))
	if werr := wire.WriteMessage(s, b); werr != nil {
		_ = s.Reset()
		return fmt.Errorf("write %s answer: %w", s.Protocol(), werr)
	}
	_ = s.Close()
	return err
}

// refusal turns a check's error into the Refusal sent to the peer.
func refusal(code string, err error) error {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	return &Refusal{Code: code, Message: err.Error()}
}

// serveJSON registers a JSON request/answer handler for proto on h. The
// returned stop removes it and waits for the answers in progress, whose
// context it cancels.
func serveJSON[Req any](h host.Host, proto protocol.ID, limit int, log *slog.Logger,
	handle func(ctx context.Context, from peer.ID, req *Req) (any, error)) func() {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	stopped := false
	h.SetStreamHandler(proto, func(s network.Stream) {
		mu.Lock()
		if stopped {
			mu.Unlock()
			_ = s.Reset()
			return
		}
		wg.Add(1)
		mu.Unlock()
		defer wg.Done()
		if err := answer(ctx, s, limit, handle); err != nil {
			log.Debug("answer", "protocol", proto, "peer", s.Conn().RemotePeer(), "err", err)
		}
	})
	return func() {
		h.RemoveStreamHandler(proto)
		mu.Lock()
		stopped = true
		mu.Unlock()
		cancel()
		wg.Wait()
	}
}

package p2p

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"svc/p2p/wire"
	"svc/shards/slice"
)

// SliceProtocol carries model slices from the machine that holds a model
// (the coordinator) to the machines a placement assigns blocks to. One
// stream, one request: a model's manifest or one tensor of it. The
// request and the reply head are JSON messages (wire.WriteMessage:
// sliceRequest, sliceReply); the manifest's or the tensor's bytes follow
// the reply head raw. Streams join SliceService, whose memory the
// endpoint bounds like the other services'.
const SliceProtocol = "/svc/slice/1.0.0"

// SliceService is the resource-manager service slice streams join.
const SliceService = "svc.slice"

// Bounds of the slice protocol.
const (
	maxSliceMsg     = 4 << 10   // a request or reply head
	sliceChunk      = 256 << 10 // bytes copied and reserved per stream
	sliceIdle       = 30 * time.Second
	defaultSliceMax = 16 // concurrent transfers a server runs
)

// SliceSource is what a slice server serves. Lookup finds the model whose
// manifest hashes to hash: its manifest, the manifest's encoding and a
// reader of a file holding its tensors at their offsets. Authorize says
// whether peer p may have tensor (an empty tensor: the manifest) of that
// model; its error is sent to the peer.
type SliceSource struct {
	Lookup    func(hash string) (*slice.Manifest, []byte, io.ReaderAt, error)
	Authorize func(p peer.ID, hash, tensor string) error
	// MaxStreams bounds the transfers served at once (16 when 0); further
	// requests wait for a free one.
	MaxStreams int
	Logger     *slog.Logger
}

// SliceServer answers SliceProtocol on a host.
type SliceServer struct {
	h   host.Host
	src SliceSource
	log *slog.Logger
	sem chan struct{}
	wg  sync.WaitGroup
	ctx context.Context
	end context.CancelFunc
}

type sliceRequest struct {
	Manifest string `json:"manifest"`         // the manifest's hash
	Tensor   string `json:"tensor,omitempty"` // empty: the manifest itself
}

type sliceReply struct {
	Error string `json:"error,omitempty"`
	Size  uint64 `json:"size"` // bytes that follow
}

// ServeSlices answers SliceProtocol on h from src until Close.
func ServeSlices(h host.Host, src SliceSource) (*SliceServer, error) {
	if src.Lookup == nil || src.Authorize == nil {
		return nil, errors.New("p2p: slice server needs Lookup and Authorize")
	}
	if src.MaxStreams <= 0 {
		src.MaxStreams = defaultSliceMax
	}
	log := src.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &SliceServer{h: h, src: src, log: log, sem: make(chan struct{}, src.MaxStreams)}
	s.ctx, s.end = context.WithCancel(context.Background())
	h.SetStreamHandler(protocol.ID(SliceProtocol), s.handle)
	return s, nil
}

// Close stops answering and waits for the transfers in progress to end.
func (s *SliceServer) Close() {
	s.h.RemoveStreamHandler(protocol.ID(SliceProtocol))
	s.end()
	s.wg.Wait()
}

func (s *SliceServer) handle(st network.Stream) {
	s.wg.Add(1)
	defer s.wg.Done()
	stop := context.AfterFunc(s.ctx, func() { _ = st.Reset() })
	defer stop()
	if err := s.serve(st); err != nil {
		s.log.Debug("slice stream", "peer", st.Conn().RemotePeer(), "err", err)
		_ = st.Reset()
		return
	}
	_ = st.Close()
}

func (s *SliceServer) serve(st network.Stream) error {
	rd, err := joinService(st, SliceService)
	if err != nil {
		return err
	}
	_ = st.SetReadDeadline(time.Now().Add(firstFrameTimeout))
	_ = st.SetWriteDeadline(time.Now().Add(sliceIdle))
	var req sliceRequest
	if err := readSliceMsg(rd, st, &req); err != nil {
		return err
	}
	p := st.Conn().RemotePeer()
	refuse := func(err error) error {
		return writeSliceMsg(st, sliceReply{Error: err.Error()})
	}
	m, encoded, r, lerr := s.src.Lookup(req.Manifest)
	if lerr != nil {
		return refuse(lerr)
	}
	if err := s.src.Authorize(p, req.Manifest, req.Tensor); err != nil {
		return refuse(err)
	}
	if req.Tensor == "" {
		if err := writeSliceMsg(st, sliceReply{Size: uint64(len(encoded))}); err != nil {
			return err
		}
		_, err := st.Write(encoded)
		return err
	}
	t, ok := m.Tensor(req.Tensor)
	if !ok {
		return refuse(fmt.Errorf("model %s has no tensor %q", req.Manifest, req.Tensor))
	}
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
	defer func() { <-s.sem }()
	if err := st.Scope().ReserveMemory(sliceChunk, network.ReservationPriorityMedium); err != nil {
		return refuse(fmt.Errorf("busy: %w", err))
	}
	defer st.Scope().ReleaseMemory(sliceChunk)
	if err := writeSliceMsg(st, sliceReply{Size: t.Size}); err != nil {
		return err
	}
	_, err = slice.ReadTensor(r, m, t, &deadlineWriter{st: st})
	return err
}

// deadlineWriter pushes a stream's write deadline forward as bytes go
// out, so that a transfer is bounded by progress rather than by size.
type deadlineWriter struct{ st network.Stream }

func (w *deadlineWriter) Write(p []byte) (int, error) {
	var n int
	for len(p) > 0 {
		c := min(len(p), sliceChunk)
		_ = w.st.SetWriteDeadline(time.Now().Add(sliceIdle))
		k, err := w.st.Write(p[:c])
		n += k
		if err != nil {
			return n, err
		}
		p = p[c:]
	}
	return n, nil
}

// writeSliceMsg writes v as one JSON message.
func writeSliceMsg(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if len(b) > maxSliceMsg {
		return fmt.Errorf("message of %d bytes exceeds %d", len(b), maxSliceMsg)
	}
	return wire.WriteMessage(w, b)
}

// readSliceMsg reads one JSON message of at most maxSliceMsg bytes into
// v; unknown fields are refused.
func readSliceMsg(rd *wire.Reader, r io.Reader, v any) error {
	fr, err := rd.ReadMessage(r, maxSliceMsg)
	defer fr.Free()
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(fr.Payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode message: %w", err)
	}
	return nil
}

// SliceError is a refusal a slice server sent.
type SliceError struct {
	Peer    peer.ID
	Message string
}

func (e *SliceError) Error() string {
	return fmt.Sprintf("p2p: slice server %s refused: %s", e.Peer, e.Message)
}

// sliceRoundTrip opens a stream to p, sends req and reads the reply head;
// the caller reads reply.Size bytes from the returned stream and closes it.
func sliceRoundTrip(ctx context.Context, h host.Host, p peer.ID, req sliceRequest) (network.Stream, sliceReply, error) {
	var rep sliceReply
	st, rd, err := openStream(ctx, h, p, SliceProtocol, SliceService)
	if err != nil {
		return nil, rep, err
	}
	_ = st.SetDeadline(time.Now().Add(sliceIdle))
	if err := writeSliceMsg(st, req); err != nil {
		_ = st.Reset()
		return nil, rep, fmt.Errorf("p2p: slice request to %s: %w", p, err)
	}
	if err := st.CloseWrite(); err != nil {
		_ = st.Reset()
		return nil, rep, fmt.Errorf("p2p: slice request to %s: %w", p, err)
	}
	if err := readSliceMsg(rd, st, &rep); err != nil {
		_ = st.Reset()
		return nil, rep, fmt.Errorf("p2p: slice reply from %s: %w", p, ctxErr(ctx, err))
	}
	if rep.Error != "" {
		_ = st.Reset()
		return nil, rep, &SliceError{Peer: p, Message: rep.Error}
	}
	return st, rep, nil
}

// FetchManifest asks p for the manifest that hashes to hash and checks it.
func FetchManifest(ctx context.Context, h host.Host, p peer.ID, hash string) (*slice.Manifest, error) {
	st, rep, err := sliceRoundTrip(ctx, h, p, sliceRequest{Manifest: hash})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	stop := context.AfterFunc(ctx, func() { _ = st.Reset() })
	defer stop()
	if rep.Size > 64<<20 {
		_ = st.Reset()
		return nil, fmt.Errorf("p2p: manifest of %d bytes from %s", rep.Size, p)
	}
	b := make([]byte, rep.Size)
	if _, err := io.ReadFull(st, b); err != nil {
		_ = st.Reset()
		return nil, fmt.Errorf("p2p: read manifest from %s: %w", p, ctxErr(ctx, err))
	}
	m, err := slice.Parse(b, hash)
	if err != nil {
		return nil, fmt.Errorf("p2p: manifest from %s: %w", p, err)
	}
	return m, nil
}

// FetchTensor asks p for tensor t of the model whose manifest hashes to
// hash and copies its bytes to w (slice.Write checks them).
func FetchTensor(ctx context.Context, h host.Host, p peer.ID, hash string, t slice.Tensor, w io.Writer) error {
	st, rep, err := sliceRoundTrip(ctx, h, p, sliceRequest{Manifest: hash, Tensor: t.Name})
	if err != nil {
		return err
	}
	defer st.Close()
	stop := context.AfterFunc(ctx, func() { _ = st.Reset() })
	defer stop()
	if rep.Size != t.Size {
		_ = st.Reset()
		return fmt.Errorf("p2p: %s offers %d bytes of tensor %s, the manifest says %d", p, rep.Size, t.Name, t.Size)
	}
	buf := make([]byte, sliceChunk)
	left := int64(t.Size)
	for left > 0 {
		_ = st.SetReadDeadline(time.Now().Add(sliceIdle))
		n, err := st.Read(buf[:min(int64(len(buf)), left)])
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				_ = st.Reset()
				return werr
			}
			left -= int64(n)
		}
		if err != nil && left > 0 {
			_ = st.Reset()
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("p2p: read tensor %s from %s: %w", t.Name, p, ctxErr(ctx, err))
		}
	}
	return nil
}

// SliceFetch is a slice.Fetch that takes tensors from p.
func SliceFetch(h host.Host, p peer.ID, hash string) slice.Fetch {
	return func(ctx context.Context, t slice.Tensor, w io.Writer) error {
		return FetchTensor(ctx, h, p, hash, t, w)
	}
}

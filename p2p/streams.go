package p2p

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"

	"svc/p2p/wire"
)

// Resource-manager services. Every svc stream joins one, which bounds the
// memory its frames may hold in total (EndpointConfig.StreamMemory each);
// how many streams may be open is bounded by that memory, not by a count.
const (
	ServiceForward = "svc.forward"
	ServiceMeta    = "svc.meta"
	ServiceRecord  = "svc.record"
	// ServiceControl is the service of the JSON request/answer protocols
	// (jsonmsg.go).
	ServiceControl = "svc.control"
)

var services = []string{ServiceForward, ServiceMeta, ServiceRecord, ServiceControl, SliceService}

// firstFrameTimeout is how long a stream may take to deliver its first
// complete frame: a peer that opens streams and sends nothing (or only a
// header) must not hold them for the session idle time.
const firstFrameTimeout = 10 * time.Second

// writeTimeout bounds how long a node waits for a slow reader.
const writeTimeout = 30 * time.Second

// resourceManager bounds memory, not stream counts: every concurrent
// generation holds one stream per hop, and libp2p's default counts (a few
// hundred per peer) would refuse a busy gateway, while the memory a stream
// holds is what a hostile peer could exhaust. So counts are lifted and each
// svc service gets streamMemory (its per-peer share too, since one gateway
// may carry all the traffic); frames reserve from it as their bytes
// arrive. Connections, file descriptors and libp2p's own memory keep
// libp2p's defaults scaled to the machine.
func resourceManager(streamMemory int64) (network.ResourceManager, error) {
	scaled := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&scaled)
	base := scaled.AutoScale()
	if streamMemory <= 0 {
		streamMemory = int64(base.ToPartialLimitConfig().System.Memory)
	}
	counts := rcmgr.ResourceLimits{
		Streams: rcmgr.Unlimited, StreamsInbound: rcmgr.Unlimited, StreamsOutbound: rcmgr.Unlimited,
	}
	open := counts
	open.Memory = rcmgr.Unlimited64
	svc := counts
	svc.Memory = rcmgr.LimitVal64(streamMemory)
	partial := rcmgr.PartialLimitConfig{
		System: counts, Transient: counts,
		ServiceDefault: counts, ServicePeerDefault: counts,
		// The services below bound svc's streams; a protocol or peer
		// limit under them would only refuse a large frame early.
		ProtocolDefault: open, ProtocolPeerDefault: open, PeerDefault: open,
		Service:     map[string]rcmgr.ResourceLimits{},
		ServicePeer: map[string]rcmgr.ResourceLimits{},
		// One stream may hold one whole frame.
		Stream: rcmgr.ResourceLimits{Memory: rcmgr.LimitVal64(min(streamMemory, wire.MaxControl+wire.DefaultMaxPayload+2<<20))},
	}
	for _, s := range services {
		partial.Service[s] = svc
		partial.ServicePeer[s] = svc
	}
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(partial.Build(base)))
	if err != nil {
		return nil, fmt.Errorf("p2p: resource manager: %w", err)
	}
	return rm, nil
}

// scopeMemory accounts a stream's frames to its resource-manager scope.
type scopeMemory struct{ scope network.StreamScope }

func (m scopeMemory) Reserve(n int) error {
	return m.scope.ReserveMemory(n, network.ReservationPriorityAlways)
}

func (m scopeMemory) Release(n int) { m.scope.ReleaseMemory(n) }

// joinService puts an accepted stream under a service and returns the
// reader for its frames; on error the stream must be reset.
func joinService(s network.Stream, service string) (*wire.Reader, error) {
	if err := s.Scope().SetService(service); err != nil {
		return nil, fmt.Errorf("join service %s: %w", service, err)
	}
	return &wire.Reader{Mem: scopeMemory{s.Scope()}}, nil
}

// openStream opens a stream of proto to p under service; ctx bounds the
// opening only.
func openStream(ctx context.Context, h host.Host, p peer.ID, proto protocol.ID, service string) (network.Stream, *wire.Reader, error) {
	s, err := h.NewStream(ctx, p, proto)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: open %s stream to %s: %w", proto, p, err)
	}
	rd, err := joinService(s, service)
	if err != nil {
		_ = s.Reset()
		return nil, nil, fmt.Errorf("p2p: %s stream to %s: %w", proto, p, err)
	}
	return s, rd, nil
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

// RemoteError is a refusal a node sent back.
type RemoteError struct {
	Peer    peer.ID
	Code    wire.Code
	Message string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("peer %s: %v: %s", e.Peer, e.Code, e.Message)
}

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

func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// isLimit tells whether err is the resource manager refusing memory.
func isLimit(err error) bool {
	return errors.Is(err, network.ErrResourceLimitExceeded)
}

package p2p

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"google.golang.org/protobuf/proto"

	"svc/p2p/wire"
)

// Several models on one machine. A machine of a managed swarm serves every
// model placed on it under one libp2p host and peer id: each model's Node
// is made with NodeConfig.Endpoint set to the shared Endpoint. The
// endpoint then answers ForwardProtocol and MetaProtocol itself, reads
// each stream's first frame (an Open naming the model's digest and
// blocks, or a MetaRequest naming the digest), and hands the stream, that
// frame replayed, to the node it names; the host's one announcement lists
// every attached node's model.

// ModelIdentity is what makes a model's digest: the file's bytes before the
// tensor data and the sha256 of its tensor samples (see DigestOf).
type ModelIdentity struct {
	Header  []byte
	Samples []byte
}

// maxDispatchControl bounds the first frame's control part that the
// endpoint reads to dispatch a stream (an Open or a MetaRequest is tiny).
const maxDispatchControl = 64 << 10

type sharedNodes struct {
	mu    sync.Mutex
	nodes []*Node
}

// attach adds n to the nodes the host dispatches to; the first one
// installs the dispatching handlers.
func (e *Endpoint) attach(n *Node) error {
	e.nodes.mu.Lock()
	defer e.nodes.mu.Unlock()
	for _, o := range e.nodes.nodes {
		if o.digest == n.digest && o.first == n.first && o.last == n.last {
			return fmt.Errorf("p2p: blocks [%d,%d) of model %s are already served on this host", n.first, n.last, n.name)
		}
	}
	if len(e.nodes.nodes) == 0 {
		e.Host.SetStreamHandler(ForwardProtocol, e.dispatchForward)
		e.Host.SetStreamHandler(MetaProtocol, e.dispatchMeta)
	}
	e.nodes.nodes = append(e.nodes.nodes, n)
	return nil
}

// detach removes n; the last one removes the handlers.
func (e *Endpoint) detach(n *Node) {
	e.nodes.mu.Lock()
	defer e.nodes.mu.Unlock()
	for i, o := range e.nodes.nodes {
		if o == n {
			e.nodes.nodes = append(e.nodes.nodes[:i], e.nodes.nodes[i+1:]...)
			break
		}
	}
	if len(e.nodes.nodes) == 0 {
		e.Host.RemoveStreamHandler(ForwardProtocol)
		e.Host.RemoveStreamHandler(MetaProtocol)
	}
}

// serving reports whether any node is attached.
func (e *Endpoint) serving() bool {
	e.nodes.mu.Lock()
	defer e.nodes.mu.Unlock()
	return len(e.nodes.nodes) > 0
}

// servedAll is the announcement's list: every attached node's model.
func (e *Endpoint) servedAll() []*wire.Served {
	e.nodes.mu.Lock()
	nodes := append([]*Node(nil), e.nodes.nodes...)
	e.nodes.mu.Unlock()
	out := make([]*wire.Served, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, n.served())
	}
	return out
}

// pick returns the node for a digest and range: the exact one, else one
// of the model (it refuses the range), else any (it refuses the model).
func (e *Endpoint) pick(digest string, first, last int, exact bool) *Node {
	e.nodes.mu.Lock()
	defer e.nodes.mu.Unlock()
	var ofModel, anyNode *Node
	for _, n := range e.nodes.nodes {
		if n.digest == digest && (!exact || (n.first == first && n.last == last)) {
			return n
		}
		if n.digest == digest && ofModel == nil {
			ofModel = n
		}
		if anyNode == nil {
			anyNode = n
		}
	}
	if ofModel != nil {
		return ofModel
	}
	return anyNode
}

func (e *Endpoint) dispatchForward(s network.Stream) {
	var req wire.Request
	rs, err := peekFrame(s, &req)
	if err != nil {
		e.log.Debug("forward stream dispatch", "peer", s.Conn().RemotePeer(), "err", err)
		_ = s.Reset()
		return
	}
	var n *Node
	if o := req.GetOpen(); o != nil {
		n = e.pick(o.ModelDigest, int(o.First), int(o.Last), true)
	} else {
		n = e.pick("", 0, 0, false) // it refuses a stream that does not open
	}
	if n == nil {
		_ = s.Reset()
		return
	}
	n.handleForward(rs)
}

func (e *Endpoint) dispatchMeta(s network.Stream) {
	var req wire.MetaRequest
	rs, err := peekFrame(s, &req)
	if err != nil {
		e.log.Debug("meta stream dispatch", "peer", s.Conn().RemotePeer(), "err", err)
		_ = s.Reset()
		return
	}
	n := e.pick(req.ModelDigest, 0, 0, false)
	if n == nil {
		_ = s.Reset()
		return
	}
	n.handleMeta(rs)
}

// peekFrame reads the header and control part of a stream's first frame
// (wire's framing: two big-endian uint32 lengths, then the control
// message) into ctrl and returns the stream with those bytes put back in
// front, so the node reads the frame as if nothing had happened.
func peekFrame(s network.Stream, ctrl proto.Message) (network.Stream, error) {
	_ = s.SetReadDeadline(time.Now().Add(firstFrameTimeout))
	var hdr [8]byte
	if _, err := io.ReadFull(s, hdr[:]); err != nil {
		return nil, fmt.Errorf("read first frame: %w", err)
	}
	cl := binary.BigEndian.Uint32(hdr[0:])
	if cl > maxDispatchControl {
		return nil, fmt.Errorf("first frame's control part of %d bytes exceeds %d", cl, maxDispatchControl)
	}
	// The buffer is charged to the stream's scope like every other frame,
	// so a peer opening many streams with large first frames runs into the
	// resource manager's limits instead of the heap.
	size := 8 + int(cl)
	if err := s.Scope().ReserveMemory(size, network.ReservationPriorityAlways); err != nil {
		return nil, fmt.Errorf("first frame of %d bytes: %w", size, err)
	}
	buf := make([]byte, size)
	copy(buf, hdr[:])
	if _, err := io.ReadFull(s, buf[8:]); err != nil {
		s.Scope().ReleaseMemory(size)
		return nil, fmt.Errorf("read first frame: %w", err)
	}
	if err := proto.Unmarshal(buf[8:], ctrl); err != nil {
		s.Scope().ReleaseMemory(size)
		return nil, fmt.Errorf("first frame: %w", err)
	}
	return &replayStream{Stream: s, head: buf, reserved: size}, nil
}

// replayStream is a stream whose first bytes were read already: Read
// returns them again before the rest. The memory reserved for them is
// given back once they have been read (or with the stream's scope when it
// ends first).
type replayStream struct {
	network.Stream
	head     []byte
	reserved int
}

func (r *replayStream) Read(p []byte) (int, error) {
	if len(r.head) > 0 {
		n := copy(p, r.head)
		r.head = r.head[n:]
		if len(r.head) == 0 {
			r.head = nil
			r.Stream.Scope().ReleaseMemory(r.reserved)
			r.reserved = 0
		}
		return n, nil
	}
	return r.Stream.Read(p)
}

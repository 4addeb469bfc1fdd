package p2p

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p/wire"
	"svc/shards/gguf"
)

// MetaProtocol returns a model's GGUF header bytes plus the hash of its
// tensor samples, so that a machine without the weights can check them
// against the digest and build the tokenizer and chat template: one
// MetaRequest, one MetaResponse whose payload is the header.
const MetaProtocol = "/svc/meta/1.0.0"

// metaRequestLimit bounds a MetaRequest's payload (it has none).
const metaRequestLimit = 0

// The meta protocol's model<->wire conversion is the identity of a model:
// modelIdentity gives what the node sends, DigestOf what the caller checks.

// digestSample mirrors how shards/model computes a model's digest: the
// first and last 4 KiB of every tensor (whole tensors when smaller).
const digestSample = 4096

// modelIdentity returns what a node sends on the meta protocol: the file's
// bytes before the tensor data, and the hash of the tensor samples. Their
// combination must give the model's digest, which NewNode checks so that a
// change of the digest scheme fails loudly instead of making every gateway
// reject the node.
func modelIdentity(f *gguf.File) (header, samples []byte, err error) {
	fd, err := os.Open(f.Path)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: read model header: %w", err)
	}
	defer fd.Close()
	header = make([]byte, f.DataOffset())
	if _, err := io.ReadFull(io.NewSectionReader(fd, 0, int64(len(header))), header); err != nil {
		return nil, nil, fmt.Errorf("p2p: read model header of %s: %w", f.Path, err)
	}
	h := sha256.New()
	buf := make([]byte, 2*digestSample)
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		start, size := int64(f.DataOffset()+ti.Offset), int64(ti.Size)
		parts := [][2]int64{{start, size}}
		if size > 2*digestSample {
			parts = [][2]int64{{start, digestSample}, {start + size - digestSample, digestSample}}
		}
		for _, p := range parts {
			b := buf[:p[1]]
			if _, err := fd.ReadAt(b, p[0]); err != nil {
				return nil, nil, fmt.Errorf("p2p: sample tensor %s of %s: %w", ti.Name, f.Path, err)
			}
			h.Write(b)
		}
	}
	return header, h.Sum(nil), nil
}

// DigestOf combines a header and a tensor-sample hash into a model digest.
func DigestOf(header, samples []byte) string {
	hh := sha256.Sum256(header)
	all := sha256.New()
	all.Write(hh[:])
	all.Write(samples)
	return hex.EncodeToString(all.Sum(nil))
}

func (n *Node) handleMeta(s network.Stream) {
	if !n.track(s) {
		_ = s.Reset()
		return
	}
	defer n.untrack(s)
	rd, err := joinService(s, ServiceMeta)
	if err != nil {
		_ = s.Reset()
		return
	}
	_ = s.SetReadDeadline(time.Now().Add(firstFrameTimeout))
	var req wire.MetaRequest
	fr, err := rd.Read(s, &req, metaRequestLimit)
	fr.Free()
	_ = s.SetWriteDeadline(time.Now().Add(writeTimeout))
	switch {
	case err != nil:
		n.log.Debug("meta request", "err", err)
		_ = wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_BAD_REQUEST, Message: err.Error()}, nil)
	case req.ModelDigest != n.digest:
		_ = wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_UNKNOWN_MODEL, Message: "model not served here"}, nil)
	default:
		if err := wire.WriteFrame(s, &wire.MetaResponse{Code: wire.Code_OK, SamplesSha256: n.samples}, n.header); err != nil {
			_ = s.Reset()
			return
		}
	}
	_ = s.Close()
}

// FetchHeader asks p for the GGUF header of the model with digest and checks
// it against the digest before parsing it.
func FetchHeader(ctx context.Context, h host.Host, p peer.ID, digest string) (*gguf.File, error) {
	s, rd, err := openStream(ctx, h, p, MetaProtocol, ServiceMeta)
	if err != nil {
		return nil, err
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
	fr, err := rd.Read(s, &resp, wire.DefaultMaxPayload)
	defer fr.Free()
	if err != nil {
		return nil, fmt.Errorf("p2p: meta reply from %s: %w", p, ctxErr(ctx, err))
	}
	if resp.Code != wire.Code_OK {
		return nil, &RemoteError{Peer: p, Code: resp.Code, Message: resp.Message}
	}
	header := fr.Payload
	if got := DigestOf(header, resp.SamplesSha256); got != digest {
		return nil, fmt.Errorf("p2p: header from %s gives digest %s, not %s", p, got, digest)
	}
	// The parsed file must not share the pooled frame.
	f, err := gguf.ParseHeader(append([]byte(nil), header...))
	if err != nil {
		return nil, fmt.Errorf("p2p: header of model %s from %s: %w", digest, p, err)
	}
	return f, nil
}

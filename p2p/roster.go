package p2p

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Roster protocols of a managed swarm. The roster is opaque here (signed
// JSON that coordinator/trust verifies): RosterProtocol answers the newest
// roster a member holds, so every member serves it to every other and the
// roster outlives a coordinator outage; RosterPushProtocol delivers a new
// one (the coordinator pushes each change to every connected member). One
// stream, one uvarint-prefixed roster.
const (
	RosterProtocol     = "/svc/roster/1.0.0"
	RosterPushProtocol = "/svc/roster-push/1.0.0"
	maxRosterBytes     = 16 << 20
	rosterTimeout      = 10 * time.Second
)

// ServeRoster answers both roster protocols on h: get returns the roster
// to serve (nil: none yet), put receives a pushed one (its error is only
// logged by the caller's side of things; the pusher sees a reset).
func ServeRoster(h host.Host, get func() []byte, put func(from peer.ID, roster []byte) error) {
	h.SetStreamHandler(protocol.ID(RosterProtocol), func(st network.Stream) {
		defer st.Close()
		_ = st.SetDeadline(time.Now().Add(rosterTimeout))
		r := get()
		if r == nil {
			_ = st.Reset()
			return
		}
		if err := writeBlob(st, r); err != nil {
			_ = st.Reset()
		}
	})
	h.SetStreamHandler(protocol.ID(RosterPushProtocol), func(st network.Stream) {
		defer st.Close()
		_ = st.SetDeadline(time.Now().Add(rosterTimeout))
		b, err := readBlob(st, maxRosterBytes)
		if err != nil {
			_ = st.Reset()
			return
		}
		if err := put(st.Conn().RemotePeer(), b); err != nil {
			_ = st.Reset()
		}
	})
}

// FetchRoster asks p for its roster.
func FetchRoster(ctx context.Context, h host.Host, p peer.ID) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, rosterTimeout)
	defer cancel()
	st, err := h.NewStream(ctx, p, protocol.ID(RosterProtocol))
	if err != nil {
		return nil, fmt.Errorf("p2p: roster from %s: %w", p, err)
	}
	defer st.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(dl)
	}
	b, err := readBlob(st, maxRosterBytes)
	if err != nil {
		return nil, fmt.Errorf("p2p: roster from %s: %w", p, err)
	}
	return b, nil
}

// PushRoster delivers roster to p.
func PushRoster(ctx context.Context, h host.Host, p peer.ID, roster []byte) error {
	ctx, cancel := context.WithTimeout(ctx, rosterTimeout)
	defer cancel()
	st, err := h.NewStream(ctx, p, protocol.ID(RosterPushProtocol))
	if err != nil {
		return fmt.Errorf("p2p: push roster to %s: %w", p, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(dl)
	}
	if err := writeBlob(st, roster); err != nil {
		_ = st.Reset()
		return fmt.Errorf("p2p: push roster to %s: %w", p, err)
	}
	return st.Close()
}

func writeBlob(w io.Writer, b []byte) error {
	buf := binary.AppendUvarint(make([]byte, 0, len(b)+binary.MaxVarintLen64), uint64(len(b)))
	_, err := w.Write(append(buf, b...))
	return err
}

func readBlob(r io.Reader, limit int) ([]byte, error) {
	n, err := binary.ReadUvarint(&byteReader{r: r})
	if err != nil {
		return nil, fmt.Errorf("read length: %w", err)
	}
	if n > uint64(limit) {
		return nil, fmt.Errorf("%d bytes exceeds %d", n, limit)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return b, nil
}

package p2p

import (
	"errors"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

// Readdress replaces what the host knows of a peer's addresses with addrs
// (the binary multiaddrs of its newest record) and forgets the host's dial
// back-off for the peer: a node restarted on new addresses must not wait out
// the back-off its dead predecessor earned.
func (e *Endpoint) Readdress(id peer.ID, addrs [][]byte) {
	if id == e.Host.ID() {
		return
	}
	var mas []ma.Multiaddr
	for _, b := range addrs {
		if m, err := ma.NewMultiaddrBytes(b); err == nil {
			mas = append(mas, m)
		}
	}
	if len(mas) > 0 {
		ps := e.Host.Peerstore()
		ps.ClearAddrs(id)
		ps.AddAddrs(id, mas, 2*time.Minute)
	}
	if sw, ok := e.Host.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(id)
	}
}

// IsDialBackoff reports whether err is a dial the local host refused
// because of its own dial back-off: no attempt reached the peer, so the
// peer is not to blame.
func IsDialBackoff(err error) bool { return errors.Is(err, swarm.ErrDialBackoff) }

// IsDialError reports whether err is a failure to reach the peer at all
// (every address refused, or the local dial back-off), as opposed to a
// failure of a stream on a working connection.
func IsDialError(err error) bool {
	var de *swarm.DialError
	return errors.As(err, &de) || IsDialBackoff(err) || errors.Is(err, swarm.ErrNoAddresses)
}

package p2p

import (
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Admission decides who belongs to a managed swarm. p2p defines it and the
// managed variant's coordinator packages implement it, so that p2p never
// imports them; an Endpoint without one (the local variant) admits every
// peer and every validly signed record.
//
// The Endpoint asks it at two points: its libp2p connection gater (AcceptAddr
// before any handshake, AdmitPeer before dialing a peer and once a
// connection's peer is authenticated), and its record validator
// (CheckCredential on the credential a record's signer attached, so that a
// peer that is not a member cannot place records in the DHT or be listed
// by Members). The host's own records carry Credential.
type Admission interface {
	// AcceptAddr reports whether an inbound connection from remote may
	// start its handshake.
	AcceptAddr(remote ma.Multiaddr) bool
	// AdmitPeer reports whether this host may talk to p.
	AdmitPeer(p peer.ID) bool
	// CheckCredential checks the credential that signer attached to its
	// record (nil when it attached none); an error refuses the record.
	CheckCredential(signer peer.ID, credential []byte) error
	// Credential is what this host attaches to the records it signs.
	Credential() []byte
}

// gater is libp2p's connection gater over an Admission.
type gater struct{ adm Admission }

func (g gater) InterceptPeerDial(p peer.ID) bool { return g.adm.AdmitPeer(p) }

func (g gater) InterceptAddrDial(p peer.ID, _ ma.Multiaddr) bool { return g.adm.AdmitPeer(p) }

func (g gater) InterceptAccept(c network.ConnMultiaddrs) bool {
	return g.adm.AcceptAddr(c.RemoteMultiaddr())
}

func (g gater) InterceptSecured(_ network.Direction, p peer.ID, _ network.ConnMultiaddrs) bool {
	return g.adm.AdmitPeer(p)
}

func (g gater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

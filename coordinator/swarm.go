package coordinator

import (
	"context"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"sort"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/coordinator/trust"
	"svc/p2p"
)

// crlValidity is how long a signed CRL says it is current; the roster is
// re-signed well before (every change, and hourly).
const crlValidity = 7 * 24 * time.Hour

// buildRoster signs a new roster from the state, with the next version.
func (d *Daemon) buildRoster() ([]byte, error) {
	var r trust.Roster
	var revoked []ca.Revoked
	var lic *LicenceRecord
	err := d.st.Update(func(tx *bolt.Tx) error {
		v, err := store.Counter(tx, "roster")
		if err != nil {
			return err
		}
		r.Version = v
		if err := store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
			if m.Removed.IsZero() {
				r.Members = append(r.Members, m.Cert)
			}
			return nil
		}); err != nil {
			return err
		}
		if err := store.Each(tx, store.Revoked, func(_ string, rv RevokedRecord) error {
			n, ok := new(big.Int).SetString(rv.Serial, 10)
			if ok {
				revoked = append(revoked, ca.Revoked{Serial: n, At: rv.At})
			}
			return nil
		}); err != nil {
			return err
		}
		var rec LicenceRecord
		if ok, err := store.Get(tx, store.Licence, "current", &rec); err != nil {
			return err
		} else if ok {
			lic = &rec
		}
		return store.Each(tx, store.Placements, func(_ string, p Placement) error {
			r.Placements = append(r.Placements, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("roster: %w", err)
	}
	now := d.Now()
	r.Issued = now.UTC()
	r.Coordinator = d.Certificate().Raw
	r.CoordinatorAddrs = d.SwarmAddrs()
	if r.CRL, err = d.ca.CRL(now, now.Add(crlValidity), int64(r.Version), revoked); err != nil {
		return nil, err
	}
	if lic != nil {
		if l, err := d.Licence(); err == nil && l != nil {
			r.Grant = &trust.Grant{Licensee: l.Licensee, Expires: l.Expires, Machines: l.Machines, Models: l.Models, Features: l.Features}
		}
	}
	return trust.Sign(&r, d.ca.Signer())
}

// refreshRoster signs a new roster and hands it to the running swarm part
// (which pushes it to every member before dropping the removed ones), or
// keeps it when the swarm is not running.
func (d *Daemon) refreshRoster() {
	raw, err := d.buildRoster()
	if err != nil {
		d.Log.Error("roster not rebuilt", "err", err)
		return
	}
	if _, err := d.trust.Accept(raw); err != nil {
		d.Log.Error("own roster refused", "err", err)
		return
	}
	select {
	case d.kick <- struct{}{}:
	default: // a push is pending; it sends the newest roster
	}
}

// Roster is the current signed roster.
func (d *Daemon) Roster() ([]byte, error) {
	if raw := d.trust.Raw(); raw != nil {
		return raw, nil
	}
	return nil, fmt.Errorf("no roster yet")
}

// Trust is the coordinator's admission (its own roster).
func (d *Daemon) Trust() *trust.Trust { return d.trust }

// SwarmAddrs are the multiaddrs (with /p2p/) of the swarm host: the
// certificate's endpoint first, then what the host listens on.
func (d *Daemon) SwarmAddrs() []string {
	m := d.Certificate()
	var out []string
	for _, ep := range m.Endpoints {
		host, port, err := net.SplitHostPort(ep)
		if err == nil {
			out = append(out, fmt.Sprintf("%s/tcp/%s/p2p/%s", hostMultiaddr(host), port, m.Peer))
		}
	}
	d.live.mu.Lock()
	ep := d.live.swarm
	d.live.mu.Unlock()
	if ep != nil {
		for _, a := range ep.Host.Addrs() {
			s := a.String() + "/p2p/" + m.Peer.String()
			dup := false
			for _, o := range out {
				dup = dup || o == s
			}
			if !dup {
				out = append(out, s)
			}
		}
	}
	return out
}

// startSwarm starts the swarm host (DHT server, roster, admission) and
// the enrolment host, and pushes rosters until ctx ends.
func (d *Daemon) startSwarm(ctx context.Context) (stop func(), err error) {
	listen := d.Cfg.Listen
	ip := netip.MustParseAddr(listen)
	fam := "ip4"
	if ip.Is6() {
		fam = "ip6"
	}
	ep, err := p2p.NewEndpoint(ctx, p2p.EndpointConfig{
		Listen:    []string{fmt.Sprintf("/%s/%s/tcp/%d", fam, listen, d.Cfg.SwarmPort)},
		Key:       d.key,
		Server:    true,
		Admission: d.trust,
		Logger:    d.Log,
	})
	if err != nil {
		return nil, err
	}
	stopRoster := d.trust.Attach(ep.Host)
	stopAPI, err := d.serveAPIMembers(ep.Host)
	if err != nil {
		_ = ep.Close()
		return nil, err
	}
	enrol, err := p2p.NewEnrolHost(d.key, []string{fmt.Sprintf("/%s/%s/tcp/%d", fam, listen, d.Cfg.EnrolPort)},
		func(a netip.Addr) bool { return d.CurrentFirewall().Allows(a, d.Now()) }, enrolment{d}, d.Log)
	if err != nil {
		stopAPI()
		_ = ep.Close()
		return nil, err
	}
	stopModels, err := d.startModels(ctx, ep)
	if err != nil {
		stopAPI()
		_ = enrol.Close()
		stopRoster()
		_ = ep.Close()
		return nil, err
	}
	d.live.mu.Lock()
	d.live.swarm, d.live.enrolPort = ep, enrol.Port()
	d.live.mu.Unlock()
	ep.Host.Network().Notify(&network.NotifyBundle{
		ConnectedF: func(_ network.Network, c network.Conn) {
			d.memberEvent(c.RemotePeer().String(), "machine.online")
		},
		DisconnectedF: func(n network.Network, c network.Conn) {
			if n.Connectedness(c.RemotePeer()) != network.Connected {
				d.memberEvent(c.RemotePeer().String(), "machine.offline")
			}
		},
	})
	// The roster names the swarm addresses, now known.
	d.refreshRoster()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		resign := time.NewTicker(time.Hour)
		defer resign.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-d.kick:
				d.trust.Push(ctx)
				d.trust.Enforce()
			case rec := <-d.events:
				d.Record(rec)
			case <-resign.C:
				d.refreshRoster()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		stopAPI()
		stopModels()
		_ = enrol.Close()
		_ = ep.Close()
		d.live.mu.Lock()
		d.live.swarm = nil
		d.live.mu.Unlock()
	}, nil
}

// memberEvent records a member connecting or leaving, by label.
func (d *Daemon) memberEvent(peerID, kind string) {
	var label string
	_ = d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
			if m.Peer == peerID && m.Removed.IsZero() {
				label = m.Label
			}
			return nil
		})
	})
	if label == "" {
		return
	}
	select {
	case d.events <- audit.Record{Actor: "machine:" + label, Kind: kind, Target: label, Detail: "peer " + peerID}:
	default:
		d.Log.Warn("machine event not recorded: queue full", "kind", kind, "label", label)
	}
}

// onlinePeers lists connected peers, sorted.
func (d *Daemon) onlinePeers() []string {
	d.live.mu.Lock()
	ep := d.live.swarm
	d.live.mu.Unlock()
	if ep == nil {
		return nil
	}
	var out []string
	for _, p := range ep.Host.Network().Peers() {
		out = append(out, p.String())
	}
	sort.Strings(out)
	return out
}

package trust

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"svc/coordinator/ca"
	"svc/p2p"
)

// ErrNotMember is wrapped by Admit's refusals.
var ErrNotMember = errors.New("not a member of this deployment")

// Trust holds a member's newest verified roster and implements
// p2p.Admission from it.
type Trust struct {
	ca  *x509.Certificate
	now func() time.Time
	log *slog.Logger

	mu       sync.RWMutex
	cred     []byte
	view     *View
	host     host.Host
	onChange []func(*View)
}

// New makes a Trust for the deployment whose CA is caCert.
func New(caCert *x509.Certificate, log *slog.Logger) *Trust {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Trust{ca: caCert, now: time.Now, log: log}
}

// CA is the deployment's CA certificate.
func (t *Trust) CA() *x509.Certificate { return t.ca }

// View is the current roster (nil before the first).
func (t *Trust) View() *View {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.view
}

// Raw is the current signed roster (nil before the first).
func (t *Trust) Raw() []byte {
	if v := t.View(); v != nil {
		return v.Raw
	}
	return nil
}

// AcceptAddr implements p2p.Admission: any address may start a handshake;
// the peer id it proves decides (AdmitPeer).
func (t *Trust) AcceptAddr(ma.Multiaddr) bool { return true }

// AdmitPeer implements p2p.Admission.
func (t *Trust) AdmitPeer(p peer.ID) bool { return t.Admit(p) == nil }

// SetCredential sets what this member attaches to its records (its
// certificate, DER).
func (t *Trust) SetCredential(der []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cred = der
}

// Credential implements p2p.Admission.
func (t *Trust) Credential() []byte {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.cred
}

// CheckCredential implements p2p.Admission: a record's signer must attach
// a certificate of this deployment naming it, valid now and not revoked by
// the current roster, and the roster must admit it.
func (t *Trust) CheckCredential(signer peer.ID, cred []byte) error {
	if len(cred) == 0 {
		return fmt.Errorf("%w: the record carries no certificate", ErrNotMember)
	}
	m, err := ca.Verify(t.ca, cred, t.now())
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotMember, err)
	}
	if m.Peer != signer {
		return fmt.Errorf("%w: the certificate names %s, the record is signed by %s", ErrNotMember, m.Peer, signer)
	}
	if v := t.View(); v != nil && v.CRLSet.Revoked(m.Serial) {
		return fmt.Errorf("%w: %s's certificate is revoked", ErrNotMember, m.Label)
	}
	return t.Admit(signer)
}

// Admit says why p is not admitted (nil if it is): p must hold a
// certificate of the current roster that is valid now and not revoked.
func (t *Trust) Admit(p peer.ID) error {
	v := t.View()
	if v == nil {
		return fmt.Errorf("%w: no roster yet", ErrNotMember)
	}
	m, ok := v.Member(p)
	if !ok {
		return fmt.Errorf("%w: %s holds no valid certificate", ErrNotMember, p)
	}
	if !t.now().Before(m.NotAfter) {
		return fmt.Errorf("%w: %s's certificate expired at %s", ErrNotMember, m.Label, m.NotAfter.UTC().Format(time.RFC3339))
	}
	return nil
}

// OnChange registers f to run with every newer roster.
func (t *Trust) OnChange(f func(*View)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onChange = append(t.onChange, f)
}

// Update verifies data and keeps it if it is newer than the current
// roster; it reports whether it was. Connections of peers the new roster
// does not admit are then closed (Enforce).
func (t *Trust) Update(data []byte) (bool, error) {
	newer, err := t.Accept(data)
	if newer {
		t.Enforce()
	}
	return newer, err
}

// Accept is Update without closing connections, for the coordinator, which
// first tells the removed peers (Push) and then calls Enforce.
func (t *Trust) Accept(data []byte) (bool, error) {
	v, err := Open(t.ca, data, t.now())
	if err != nil {
		return false, err
	}
	t.mu.Lock()
	if t.view != nil && v.Version <= t.view.Version {
		t.mu.Unlock()
		return false, nil
	}
	t.view = v
	fs := append([]func(*View){}, t.onChange...)
	t.mu.Unlock()
	for _, f := range fs {
		f(v)
	}
	return true, nil
}

// Enforce closes the connections of peers the roster does not admit.
func (t *Trust) Enforce() {
	t.mu.RLock()
	h := t.host
	t.mu.RUnlock()
	if h == nil {
		return
	}
	for _, p := range h.Network().Peers() {
		if err := t.Admit(p); err != nil {
			t.log.Info("dropping a peer the roster no longer admits", "peer", p, "reason", err)
			_ = h.Network().ClosePeer(p)
		}
	}
}

// Attach serves the roster on h (fetch and push) until the returned stop,
// and drops h's peers the roster stops admitting.
func (t *Trust) Attach(h host.Host) (stop func()) {
	t.mu.Lock()
	t.host = h
	t.mu.Unlock()
	return p2p.ServeRoster(h, t.log, t.Raw, func(from peer.ID, b []byte) error {
		newer, err := t.Update(b)
		if err != nil {
			t.log.Warn("pushed roster refused", "from", from, "err", err)
			return err
		}
		if newer {
			t.log.Debug("roster pushed", "from", from, "version", t.View().Version)
		}
		return nil
	})
}

// Push sends the current roster to every connected peer.
func (t *Trust) Push(ctx context.Context) {
	t.mu.RLock()
	h, v := t.host, t.view
	t.mu.RUnlock()
	if h == nil || v == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range h.Network().Peers() {
		wg.Go(func() {
			if err := p2p.PushRoster(ctx, h, p, v.Raw); err != nil {
				t.log.Debug("roster push failed", "peer", p, "err", err)
			}
		})
	}
	wg.Wait()
}

// Refresh fetches the roster from the coordinator or, failing that, from
// connected members, every interval until ctx ends.
func (t *Trust) Refresh(ctx context.Context, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		t.fetchOnce(ctx)
	}
}

func (t *Trust) fetchOnce(ctx context.Context) {
	t.mu.RLock()
	h, v := t.host, t.view
	t.mu.RUnlock()
	if h == nil || v == nil {
		return
	}
	order := []peer.ID{v.Coord.Peer}
	for _, p := range h.Network().Peers() {
		if p != v.Coord.Peer {
			order = append(order, p)
		}
	}
	for _, p := range order {
		if p == h.ID() {
			continue
		}
		b, err := p2p.FetchRoster(ctx, h, p)
		if err != nil {
			continue
		}
		if _, err := t.Update(b); err != nil {
			t.log.Warn("fetched roster refused", "from", p, "err", err)
			continue
		}
		return
	}
}

// Self describes this member in the current roster: its certificate if
// admitted, else why not (revoked, expired, absent).
func (t *Trust) Self(id peer.ID, cert *ca.Member) error {
	v := t.View()
	if v == nil {
		return nil
	}
	if v.CRLSet.Revoked(cert.Serial) {
		return fmt.Errorf("this machine's certificate (%s, serial %s) was revoked: it was removed from the deployment", cert.Label, cert.Serial)
	}
	return nil
}

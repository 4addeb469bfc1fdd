package apimember

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"svc/apikey"
	"svc/coordinator/agent"
	"svc/coordinator/ca"
	"svc/coordinator/trust"
	"svc/p2p"
	"svc/router"
	"svc/server"
)

// Why Run ends on its own.
var (
	// ErrRemoved: the roster revoked this member's certificate.
	ErrRemoved = errors.New("this API member was removed from the deployment (its certificate is revoked)")
	// ErrExpired: the member certificate expired; enrol again.
	ErrExpired = errors.New("this API member's certificate has expired; enrol it again with a new token")
)

// EnrollOptions are enroll's inputs.
type EnrollOptions struct {
	StateDir string
	// Coordinator is the enrolment multiaddr token create printed.
	Coordinator, Token, Pin, Label string
}

// Enroll makes this API's identity: the node agent's enrolment, with the
// api role (the token must have been created with --role api).
func Enroll(ctx context.Context, o EnrollOptions) (*ca.Member, error) {
	res, err := agent.Enroll(ctx, agent.EnrollOptions{StateDir: o.StateDir, Coordinator: o.Coordinator,
		Token: o.Token, Pin: o.Pin, Label: o.Label, Role: ca.RoleAPI})
	if err != nil {
		return nil, err
	}
	if res.Member.Role != ca.RoleAPI {
		return res.Member, fmt.Errorf("the token gave this machine the role %s, not api: create the token with --role api", res.Member.Role)
	}
	return res.Member, nil
}

// RunOptions are run's inputs.
type RunOptions struct {
	Config Config
	Log    *slog.Logger
	// Ready is called once the API answers, with the addresses it serves
	// HTTPS, metrics ("" if none) and the plain listener ("" if none) on.
	Ready func(https, metrics, plain string)
	// RosterInterval and KeyInterval are how often the roster and the key
	// set are fetched (1 s each).
	RosterInterval, KeyInterval time.Duration
}

// loadIdentity reads the member's CA and certificate.
func loadIdentity(f Files, now time.Time) (*x509.Certificate, *ca.Member, error) {
	b, err := os.ReadFile(f.CA())
	if err != nil {
		return nil, nil, fmt.Errorf("not enrolled (no %s): run svc-api enroll: %w", f.CA(), err)
	}
	caCert, err := ca.ParseCertPEM(b)
	if err != nil {
		return nil, nil, err
	}
	der, err := readPEM(f.Cert(), "CERTIFICATE")
	if err != nil {
		return nil, nil, fmt.Errorf("not enrolled (no usable %s): run svc-api enroll: %w", f.Cert(), err)
	}
	m, err := ca.Verify(caCert, der, now)
	if errors.Is(err, ca.ErrExpired) {
		return nil, nil, fmt.Errorf("%w (%v)", ErrExpired, err)
	}
	if err != nil {
		return nil, nil, err
	}
	if m.Role != ca.RoleAPI {
		return nil, nil, fmt.Errorf("%s is a %s certificate, not an API member's", f.Cert(), m.Role)
	}
	return caCert, m, nil
}

// Run serves the managed API until ctx ends, the member is removed
// (ErrRemoved) or its certificate expires (ErrExpired).
func Run(ctx context.Context, o RunOptions) error {
	cfg := o.Config
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if len(cfg.Hosts) == 0 {
		return errors.New("SVC_API_HOSTS is empty: name the host names or addresses developers reach the API at (its TLS certificate is for them)")
	}
	f := Files{cfg.StateDir}
	caCert, me, err := loadIdentity(f, time.Now())
	if err != nil {
		return err
	}
	key, t, err := agent.OpenMember(caCert, me, f.Key(), f.Roster(), log)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	check := func(v *trust.View) {
		if v.CRLSet.Revoked(me.Serial) {
			cancel(ErrRemoved)
		}
	}
	check(t.View())
	t.OnChange(func(v *trust.View) {
		if err := agent.WriteFile(f.Roster(), v.Raw); err != nil {
			log.Warn("roster not cached", "err", err)
		}
		check(v)
	})
	t.SetCredential(me.Raw)
	boot := t.View().CoordinatorAddrs
	if cfg.Coordinator != "" {
		boot = append([]string{cfg.Coordinator}, boot...)
	}
	rt, err := router.New(ctx, router.Config{Listen: []string{cfg.SwarmListen}, Bootstrap: boot, Key: key,
		Admission: t, RefreshInterval: 2 * time.Second, Logger: log})
	if err != nil {
		return fmt.Errorf("join the swarm: %w", err)
	}
	defer rt.Close()
	h := rt.Host()
	t.Attach(h)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel(nil)
	rosterEvery, keysEvery := o.RosterInterval, o.KeyInterval
	if rosterEvery <= 0 {
		rosterEvery = time.Second
	}
	wg.Go(func() { t.Refresh(ctx, rosterEvery) })
	coord := func() peer.ID { return t.View().Coord.Peer }

	// The TLS certificate, renewed in the background.
	request := func(ctx context.Context, csr []byte) ([]byte, error) {
		return p2p.RequestAPITLS(ctx, h, coord(), csr)
	}
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	cert, err := ensureTLSRetry(tctx, f, caCert, cfg.Hosts, request)
	tcancel()
	if err != nil {
		return err
	}
	var current atomic.Pointer[tls.Certificate]
	current.Store(cert)
	wg.Go(func() {
		tick := time.NewTicker(time.Hour)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			c, err := ensureTLS(ctx, f, caCert, cfg.Hosts, time.Now(), request)
			if err != nil {
				log.Warn("TLS certificate not renewed", "err", err)
				continue
			}
			current.Store(c)
		}
	})

	// Keys from the coordinator, cached on disk.
	ring, err := apikey.NewRing(apikey.RingConfig{
		Source:       keySource{h: h, coord: coord},
		CacheFile:    f.KeyCache(),
		Interval:     keysEvery,
		OfflineGrace: cfg.OfflineGrace,
		Logger:       log,
	})
	if err != nil {
		return err
	}
	wg.Go(func() { ring.Run(ctx) })

	journal, err := openJournal(cfg.Journal, cfg.JournalMaxBytes, cfg.JournalKeep, log)
	if err != nil {
		return err
	}
	defer journal.Close()
	audit := newAuditQueue(func(ctx context.Context, batch []json.RawMessage) error {
		return p2p.SendAPIEvents(ctx, h, coord(), batch)
	}, log)
	wg.Go(func() { audit.run(ctx) })

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	srv, err := server.New(server.Config{
		Backend: rt, OwnedBy: cfg.OwnedBy, MaxBodyBytes: cfg.MaxBodyBytes,
		Registerer: reg, Gatherer: prometheus.Gatherers{reg, rt.Registry()}, Logger: log,
		Managed: &server.Managed{
			Keys: ring, Deployment: &deployment{t: t, h: h}, Journal: journal, Audit: audit,
			GenerationLimit: cfg.GenerationLimit, MaxGenerations: cfg.MaxGenerations,
		},
	})
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	tlsLn := tls.NewListener(ln, &tls.Config{
		MinVersion:     tls.VersionTLS12,
		NextProtos:     []string{"http/1.1"},
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return current.Load(), nil },
	})
	errc := make(chan error, 3)
	wg.Go(func() { errc <- srv.Serve(ctx, tlsLn) })

	metricsAddr := ""
	if cfg.MetricsListen != "" {
		mln, err := lc.Listen(ctx, "tcp", cfg.MetricsListen)
		if err != nil {
			cancel(nil)
			return fmt.Errorf("listen on %s for metrics: %w", cfg.MetricsListen, err)
		}
		metricsAddr = mln.Addr().String()
		ms := &http.Server{Handler: promhttp.HandlerFor(prometheus.Gatherers{reg, rt.Registry()}, promhttp.HandlerOpts{}),
			ReadHeaderTimeout: 10 * time.Second}
		wg.Go(func() { _ = ms.Serve(mln) })
		wg.Go(func() {
			<-ctx.Done()
			_ = ms.Close()
		})
	}
	plainAddr := ""
	if cfg.PlainListen != "" {
		plain, err := server.New(server.Config{Backend: rt, OwnedBy: cfg.OwnedBy, MaxBodyBytes: cfg.MaxBodyBytes, Logger: log})
		if err != nil {
			cancel(nil)
			return err
		}
		pln, err := lc.Listen(ctx, "tcp", cfg.PlainListen)
		if err != nil {
			cancel(nil)
			return fmt.Errorf("listen on %s: %w", cfg.PlainListen, err)
		}
		plainAddr = pln.Addr().String()
		wg.Go(func() { errc <- plain.Serve(ctx, pln) })
	}
	log.Info("API serving", "https", ln.Addr().String(), "hosts", strings.Join(cfg.Hosts, ","), "member", me.Label, "peer", me.Peer)
	if o.Ready != nil {
		o.Ready(ln.Addr().String(), metricsAddr, plainAddr)
	}
	expiry := time.NewTimer(time.Until(me.NotAfter))
	defer expiry.Stop()
	select {
	case <-ctx.Done():
	case err := <-errc:
		cancel(err)
	case <-expiry.C:
		cancel(ErrExpired)
	}
	if err := context.Cause(ctx); errors.Is(err, ErrRemoved) || errors.Is(err, ErrExpired) {
		return err
	} else if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// ensureTLSRetry gets the TLS certificate, retrying while the coordinator
// cannot be reached yet (the swarm is still being joined).
func ensureTLSRetry(ctx context.Context, f Files, caCert *x509.Certificate, hosts []string,
	request func(context.Context, []byte) ([]byte, error)) (*tls.Certificate, error) {
	for {
		c, err := ensureTLS(ctx, f, caCert, hosts, time.Now(), request)
		var ref *p2p.Refusal
		if err == nil || errors.As(err, &ref) {
			return c, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (gave up waiting for the coordinator: %v)", err, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// keySource fetches the key set from the coordinator.
type keySource struct {
	h     host.Host
	coord func() peer.ID
}

func (s keySource) Fetch(ctx context.Context, have uint64) (apikey.Set, bool, error) {
	return p2p.FetchAPIKeys(ctx, s.h, s.coord(), have)
}

// deployment is the server's view of the authority: the roster.
type deployment struct {
	t *trust.Trust
	h host.Host
}

func (d *deployment) Licence() (time.Time, bool) {
	v := d.t.View()
	if v == nil || v.Grant == nil {
		return time.Time{}, false
	}
	return v.Grant.Expires, true
}

func (d *deployment) Placement(model string) server.Placement {
	v := d.t.View()
	if v == nil {
		return server.Placement{}
	}
	p, ok := v.Placement(model)
	if !ok {
		// An adapter is served as MODEL-ADAPTER with its model's
		// placement; its base's state is the one that counts.
		for i := range v.Placements {
			if base := v.Placements[i].Name; strings.HasPrefix(model, base+"-") {
				p, ok = &v.Placements[i], true
				break
			}
		}
	}
	if !ok {
		return server.Placement{}
	}
	out := server.Placement{Reason: p.Reason}
	switch p.State {
	case trust.StateLoading:
		out.State = server.PlacementLoading
	case trust.StateServed:
		out.State = server.PlacementServed
	case trust.StateUnavailable:
		out.State = server.PlacementUnavailable
	}
	// The machine the state is about: the first slice not served.
	for _, s := range p.Slices {
		if s.State != "" && s.State != trust.StateServed {
			out.Machine = d.machine(s.Peer, s.Label)
			if out.Reason == "" {
				out.Reason = s.Reason
			}
			break
		}
	}
	return out
}

func (d *deployment) Machine(p string) (server.Machine, bool) {
	id, err := peer.Decode(p)
	if err != nil {
		return server.Machine{}, false
	}
	m, ok := d.t.View().Member(id)
	if !ok {
		return server.Machine{Peer: p, Address: d.address(id)}, true
	}
	return d.machine(p, m.Label), true
}

func (d *deployment) machine(p, label string) server.Machine {
	m := server.Machine{Label: label, Peer: p}
	if id, err := peer.Decode(p); err == nil {
		m.Address = d.address(id)
	}
	return m
}

// address is the host:port the router knows the peer at.
func (d *deployment) address(id peer.ID) string {
	for _, a := range d.h.Peerstore().Addrs(id) {
		if na, err := manet.ToNetAddr(a); err == nil {
			if _, err := a.ValueForProtocol(ma.P_TCP); err == nil {
				return na.String()
			}
		}
	}
	return ""
}

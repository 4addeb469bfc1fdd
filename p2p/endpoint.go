package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ipfs/go-cid"
	ds "github.com/ipfs/go-datastore"
	dssync "github.com/ipfs/go-datastore/sync"
	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	record "github.com/libp2p/go-libp2p-record"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"
	mh "github.com/multiformats/go-multihash"

	"svc/p2p/wire"
)

// DHTPrefix is the private protocol prefix of svc's Kademlia DHT
// (/svc/kad/1.0.0), which keeps it apart from the public IPFS DHT.
const DHTPrefix = "/svc"

// DefaultListen is where a host listens when nothing is configured.
var defaultListen = []string{"/ip4/127.0.0.1/tcp/0"}

// SwarmCID is the DHT key every node provides, so that members can be
// found: the CIDv1 (raw) of sha256("svc/swarm/v1").
func SwarmCID() cid.Cid {
	h, err := mh.Sum([]byte("svc/swarm/v1"), mh.SHA2_256, -1)
	if err != nil {
		// sha2-256 is always registered; this cannot fail.
		panic(fmt.Sprintf("p2p: swarm key hash: %v", err))
	}
	return cid.NewCidV1(cid.Raw, h)
}

// EndpointConfig configures a libp2p host with the swarm's DHT.
type EndpointConfig struct {
	// Listen multiaddrs (default /ip4/127.0.0.1/tcp/0). Add a
	// /udp/0/quic-v1 address for QUIC.
	Listen []string
	// Bootstrap peers, full multiaddrs with /p2p/<id>. Empty: this is the
	// first member of a new swarm.
	Bootstrap []string
	// Key is the host's identity (a fresh Ed25519 key when nil).
	Key crypto.PrivKey
	// Server runs the DHT in server mode (nodes); otherwise client mode
	// (gateways), which queries the DHT without storing records for others.
	Server bool
	// MaxRecordTTL is the validator's bound on record expiries
	// (DefaultMaxRecordTTL when zero).
	MaxRecordTTL time.Duration
	// StreamMemory bounds the frame memory of each of svc's stream services
	// (ServiceForward, ServiceMeta, ...; default: libp2p's system memory
	// limit, scaled to the machine). A stream whose next frame does not fit
	// is reset.
	StreamMemory int64
	// Admission, when set, gates connections and checks records' signer
	// credentials (a managed swarm); nil admits everyone (the local variant).
	Admission Admission
	Logger    *slog.Logger
}

// Endpoint is a libp2p host joined to the swarm's DHT.
type Endpoint struct {
	Host host.Host
	DHT  *dht.IpfsDHT
	Key  crypto.PrivKey
	log  *slog.Logger
	val  Validator
	adm  Admission

	// record is the last signed announcement this host published, served
	// on RecordProtocol.
	record atomic.Pointer[[]byte]
	// nodes are the nodes sharing this host (shared.go).
	nodes sharedNodes
}

// NewEndpoint starts a host, connects to the bootstrap peers (at least one
// must answer when any are given) and starts the DHT.
func NewEndpoint(ctx context.Context, cfg EndpointConfig) (*Endpoint, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key := cfg.Key
	if key == nil {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			return nil, fmt.Errorf("p2p: generate identity: %w", err)
		}
		key = k
	}
	boot, err := parseAddrInfos(cfg.Bootstrap)
	if err != nil {
		return nil, err
	}
	listen := cfg.Listen
	if len(listen) == 0 {
		listen = defaultListen
	}
	rm, err := resourceManager(cfg.StreamMemory)
	if err != nil {
		return nil, err
	}
	opts := []libp2p.Option{
		libp2p.Identity(key),
		libp2p.ListenAddrStrings(listen...),
		libp2p.ResourceManager(rm),
	}
	if cfg.Admission != nil {
		opts = append(opts, libp2p.ConnectionGater(gater{cfg.Admission}))
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("p2p: start host on %v: %w", listen, err)
	}
	mode := dht.ModeClient
	if cfg.Server {
		mode = dht.ModeServer
	}
	val := Validator{MaxTTL: cfg.MaxRecordTTL, Admission: cfg.Admission}
	d, err := dht.New(h,
		dht.Mode(mode),
		dht.ProtocolPrefix(DHTPrefix),
		dht.Validator(record.NamespacedValidator{RecordNamespace: val}),
		dht.Datastore(dssync.MutexWrap(ds.NewMapDatastore())),
		dht.BootstrapPeers(boot...),
	)
	if err != nil {
		_ = h.Close()
		return nil, fmt.Errorf("p2p: start DHT: %w", err)
	}
	e := &Endpoint{Host: h, DHT: d, Key: key, log: log, val: val, adm: cfg.Admission}
	h.SetStreamHandler(RecordProtocol, e.handleRecord)
	if len(boot) > 0 {
		if err := e.connect(ctx, boot); err != nil {
			_ = e.Close()
			return nil, err
		}
	}
	if err := d.Bootstrap(ctx); err != nil {
		_ = e.Close()
		return nil, fmt.Errorf("p2p: bootstrap DHT: %w", err)
	}
	if len(boot) > 0 {
		e.waitRouting(ctx, 5*time.Second)
	}
	return e, nil
}

// waitRouting waits until the DHT's routing table holds a peer: a
// connection is made at once, but a peer enters the table only after the
// identify exchange, and a query before that finds nothing.
func (e *Endpoint) waitRouting(ctx context.Context, limit time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for e.DHT.RoutingTable().Size() == 0 {
		select {
		case <-ctx.Done():
			e.log.Warn("no DHT peer in routing table yet", "waited", limit)
			return
		case <-t.C:
		}
	}
}

// connect dials the bootstrap peers in parallel; one success is enough.
func (e *Endpoint) connect(ctx context.Context, boot []peer.AddrInfo) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	errs := make([]error, len(boot))
	var wg sync.WaitGroup
	for i, ai := range boot {
		wg.Go(func() {
			if err := e.Host.Connect(ctx, ai); err != nil {
				errs[i] = fmt.Errorf("connect to bootstrap peer %s: %w", ai.ID, err)
			}
		})
	}
	wg.Wait()
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
			e.log.Warn("bootstrap peer unreachable", "err", err)
		}
	}
	if len(failed) == len(boot) {
		return fmt.Errorf("p2p: no bootstrap peer reachable: %w", errors.Join(failed...))
	}
	return nil
}

// Close stops the DHT and the host.
func (e *Endpoint) Close() error {
	err1 := e.DHT.Close()
	err2 := e.Host.Close()
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("p2p: close endpoint: %w", err)
	}
	return nil
}

// ID is the host's peer id.
func (e *Endpoint) ID() peer.ID { return e.Host.ID() }

// Addrs are the host's listen addresses as full multiaddrs ending in
// /p2p/<id>, which other machines can bootstrap from.
func (e *Endpoint) Addrs() []string {
	ai := peer.AddrInfo{ID: e.Host.ID(), Addrs: e.Host.Addrs()}
	mas, err := peer.AddrInfoToP2pAddrs(&ai)
	if err != nil {
		return nil
	}
	out := make([]string, len(mas))
	for i, a := range mas {
		out[i] = a.String()
	}
	return out
}

// Member is one node as its verified record describes it.
type Member struct {
	ID     peer.ID
	Record *wire.Announcement
	// Expires is when the record stops being valid unless refreshed.
	Expires time.Time
	// Withdrawn: the node said it is stopping; forget it now.
	Withdrawn bool
}

// Members finds every node that provides SwarmCID and fetches, in parallel,
// each one's record; nodes whose records are missing, invalid or
// expired are left out; withdrawn ones are returned with Withdrawn set.
// Their addresses go to the peerstore.
//
// A frozen peer never answers and would hold every DHT query open until the
// caller's deadline, so each phase gets a share of the time left and keeps
// what it found when its share runs out: one stuck node must not empty the
// view of the healthy ones.
func (e *Endpoint) Members(ctx context.Context) ([]Member, error) {
	var ids []peer.ID
	seen := map[peer.ID]bool{}
	findCtx, cancelFind := context.WithTimeout(ctx, min(share(ctx, 0.4), findBudget))
	defer cancelFind()
	for ai := range e.DHT.FindProvidersAsync(findCtx, SwarmCID(), 0) {
		if seen[ai.ID] {
			continue
		}
		seen[ai.ID] = true
		ids = append(ids, ai.ID)
		if ai.ID != e.Host.ID() && len(ai.Addrs) > 0 {
			e.Host.Peerstore().AddAddrs(ai.ID, ai.Addrs, peerstore.TempAddrTTL)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("p2p: find swarm members: %w", err)
	}
	lookCtx, cancelLook := context.WithTimeout(ctx, min(share(ctx, 0.6), lookupBudget))
	defer cancelLook()
	out := make([]*Member, len(ids))
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-lookCtx.Done():
				return
			}
			defer func() { <-sem }()
			m, err := e.Lookup(lookCtx, id)
			if err != nil {
				e.log.Debug("no usable record", "peer", id, "err", err)
				return
			}
			out[i] = m
		})
	}
	wg.Wait()
	var ms []Member
	for _, m := range out {
		if m != nil {
			ms = append(ms, *m)
		}
	}
	return ms, nil
}

// Lookup fetches and checks one node's record (withdrawn ones included).
func (e *Endpoint) Lookup(ctx context.Context, id peer.ID) (*Member, error) {
	key := RecordKey(id)
	// The node itself has its newest record and answers at once unless it
	// is stuck; the DHT's copies are the fallback for a node we cannot
	// reach directly.
	if m, err := e.LookupDirect(ctx, id); err == nil {
		return m, nil
	} else {
		e.log.Debug("record not fetched from the node", "peer", id, "err", err)
	}
	gctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	v, err := e.DHT.GetValue(gctx, key)
	// At the deadline the DHT returns the best record it got so far (a
	// frozen peer may never answer); a valid one is good enough.
	if err != nil && (v == nil || !errors.Is(err, context.DeadlineExceeded)) {
		return nil, fmt.Errorf("get record of %s: %w", id, err)
	}
	a, _, err := e.val.Open(key, v)
	if err != nil {
		return nil, err
	}
	if a.Withdrawn {
		return &Member{ID: id, Record: a, Expires: time.UnixMilli(a.ExpiresUnixMs), Withdrawn: true}, nil
	}
	if id != e.Host.ID() {
		var addrs []ma.Multiaddr
		for _, b := range a.Addrs {
			if m, err := ma.NewMultiaddrBytes(b); err == nil {
				addrs = append(addrs, m)
			}
		}
		e.Host.Peerstore().AddAddrs(id, addrs, 2*time.Minute)
	}
	return &Member{ID: id, Record: a, Expires: time.UnixMilli(a.ExpiresUnixMs)}, nil
}

// Publish signs a and stores it under this host's key; the DHT pushes it
// to the closest peers. Only a record that could not even be stored locally
// is an error: being alone in the swarm is not.
func (e *Endpoint) Publish(ctx context.Context, a *wire.Announcement) error {
	var cred []byte
	if e.adm != nil {
		cred = e.adm.Credential()
	}
	v, err := signRecord(e.Key, a, cred)
	if err != nil {
		return err
	}
	e.record.Store(&v)
	if err := e.DHT.PutValue(ctx, RecordKey(e.Host.ID()), v); err != nil {
		if e.DHT.RoutingTable().Size() == 0 {
			// Stored locally; no peer to push to yet.
			return nil
		}
		return fmt.Errorf("p2p: publish record: %w", err)
	}
	return nil
}

func parseAddrInfos(addrs []string) ([]peer.AddrInfo, error) {
	var mas []ma.Multiaddr
	for _, s := range addrs {
		m, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, fmt.Errorf("p2p: bootstrap address %q: %w", s, err)
		}
		mas = append(mas, m)
	}
	ais, err := peer.AddrInfosFromP2pAddrs(mas...)
	if err != nil {
		return nil, fmt.Errorf("p2p: bootstrap addresses must end in /p2p/<peer id>: %w", err)
	}
	return ais, nil
}

// lookupFallback bounds a phase when the caller's context has no deadline.
const lookupFallback = 10 * time.Second

// share returns a fraction of the time ctx has left (of lookupFallback when
// it has no deadline).
func share(ctx context.Context, frac float64) time.Duration {
	left := lookupFallback
	if dl, ok := ctx.Deadline(); ok {
		left = time.Until(dl)
	}
	return time.Duration(float64(left) * frac)
}

// Time budgets of one view refresh. They must stay well inside the shortest
// record lifetime (a few seconds in tests, 30 s by default): a healthy peer
// answers in milliseconds, and a stuck one must not hold the refresh while
// the records of healthy nodes expire. Providers not found in one round are
// found in the next; nodes already in the view are looked up directly.
const (
	findBudget    = 1500 * time.Millisecond
	lookupBudget  = 2500 * time.Millisecond
	directTimeout = 1 * time.Second
)

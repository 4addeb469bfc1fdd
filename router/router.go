package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/prometheus/client_golang/prometheus"

	"svc/p2p"
	"svc/p2p/wire"
	"svc/shards/gguf"
	"svc/shards/model"
)

// Config configures a Router. Every field has a default.
type Config struct {
	// Listen multiaddrs of the router's own host (default loopback TCP).
	Listen []string
	// Bootstrap peers: full multiaddrs of swarm members.
	Bootstrap []string
	// Key is the router's libp2p identity (fresh when nil).
	Key crypto.PrivKey
	// RefreshInterval is how often the swarm view is rebuilt (default 5 s).
	RefreshInterval time.Duration
	// StepTimeout bounds one step on one hop (default 15 s), plus ten
	// times the hop's announced time per token for every position of the
	// step; a hop that does not answer in time counts as failed, and the
	// generation fails over.
	StepTimeout time.Duration
	// HopPenalty is added to every hop's estimated cost, so that chains
	// with fewer hops win when speeds are close (default 0.2 ms).
	HopPenalty time.Duration
	// Backoff is how long a peer whose hop failed is first left out of
	// new chains (default 1 s). Each further failure in a row doubles it,
	// up to MaxBackoff (default 1 min); each success halves it; a newer
	// announcement from the peer (signed after the failure, or with new
	// addresses) ends it at once. A chain that cannot be built without an
	// excluded peer tries it anyway (a probe).
	Backoff, MaxBackoff time.Duration
	// RouteWait is how long a request waits for the view to change when
	// no chain can be built for a model the swarm knows, or knew until a
	// holder's record lapsed lately: a holder of the missing blocks may be
	// announcing again any moment (default 2 s; negative: never wait).
	RouteWait time.Duration
	// MaxFailovers bounds how many times one generation rebuilds its chain
	// (default 3; negative: never).
	MaxFailovers int
	// KeepAlive, when positive, is how long a chain's hop may go without
	// a frame before it gets a keepalive, if shorter than the default: a
	// quarter of its node's announced idle timeout. Tests set it far below
	// their short idle timeouts so that a stalled test process does not
	// lose sessions.
	KeepAlive time.Duration
	// Admission makes the router's host a member of a managed swarm
	// (p2p.EndpointConfig.Admission); nil: the local variant's open swarm.
	Admission p2p.Admission
	Logger    *slog.Logger
}

func (c *Config) defaults() {
	if c.RefreshInterval <= 0 {
		c.RefreshInterval = 5 * time.Second
	}
	if c.StepTimeout <= 0 {
		c.StepTimeout = 15 * time.Second
	}
	if c.HopPenalty <= 0 {
		c.HopPenalty = 200 * time.Microsecond
	}
	if c.Backoff <= 0 {
		c.Backoff = time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = time.Minute
	}
	if c.RouteWait == 0 {
		c.RouteWait = 2 * time.Second
	}
	if c.MaxFailovers == 0 {
		c.MaxFailovers = 3
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// Router keeps the swarm view and runs generations through it.
type Router struct {
	cfg Config
	log *slog.Logger
	ep  *p2p.Endpoint

	ctx    context.Context
	cancel context.CancelFunc
	loop   sync.WaitGroup

	mu       sync.Mutex
	nodes    map[peer.ID]p2p.Member
	created  map[string]time.Time   // digest → when first seen
	excl     map[peer.ID]*exclusion // peers whose hops failed
	inflight map[peer.ID]int        // sessions this router holds per peer
	headers  map[string]*header
	barriers map[string]*stepBarrier // digest → its generations' barrier
	// changed is closed (and replaced) whenever the view changes, so that
	// WaitState waits for events instead of polling.
	changed chan struct{}
	// kick and renewKick ask the discovery and renewal loops for a round
	// now (capacity 1 each).
	kick, renewKick chan struct{}
	// vanished are nodes whose records expired (not withdrawn) lately,
	// with what they served: they may come back any moment, and renewals
	// keep asking for them.
	vanished map[peer.ID]vanishedNode

	fetchMu sync.Mutex // one header fetch at a time

	reg *prometheus.Registry
	met *metrics
}

// vanishedNode is when a node's record expired and the models it served.
type vanishedNode struct {
	at     time.Time
	models []*wire.Served
}

// header is a verified GGUF header and the configuration parsed from it.
type header struct {
	file *gguf.File
	cfg  model.Config
}

// New starts the router's host, joins the swarm through the bootstrap
// peers, builds a first view (waiting at most a few seconds for it) and
// keeps refreshing it until Close.
func New(ctx context.Context, cfg Config) (*Router, error) {
	cfg.defaults()
	ep, err := p2p.NewEndpoint(ctx, p2p.EndpointConfig{Listen: cfg.Listen, Bootstrap: cfg.Bootstrap, Key: cfg.Key, Admission: cfg.Admission, Logger: cfg.Logger})
	if err != nil {
		return nil, fmt.Errorf("router: %w", err)
	}
	r := &Router{
		cfg: cfg, log: cfg.Logger, ep: ep,
		nodes: map[peer.ID]p2p.Member{}, created: map[string]time.Time{},
		excl: map[peer.ID]*exclusion{}, inflight: map[peer.ID]int{}, headers: map[string]*header{}, barriers: map[string]*stepBarrier{},
		changed: make(chan struct{}), kick: make(chan struct{}, 1),
		renewKick: make(chan struct{}, 1), vanished: map[peer.ID]vanishedNode{},
	}
	r.reg = prometheus.NewRegistry()
	if r.met, err = newMetrics(r, r.reg); err != nil {
		_ = ep.Close()
		return nil, err
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if len(cfg.Bootstrap) > 0 {
		fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := r.Refresh(fctx); err != nil {
			r.log.Warn("first swarm view", "err", err)
		}
		cancel()
	}
	r.loop.Add(2)
	go r.refreshLoop()
	go r.discoverLoop()
	return r, nil
}

// Close stops the refresh loop and the host. Generations still running
// fail.
func (r *Router) Close() error {
	r.cancel()
	r.loop.Wait()
	if err := r.ep.Close(); err != nil {
		return fmt.Errorf("router: %w", err)
	}
	return nil
}

// Registry holds the router's Prometheus metrics (generations, tokens,
// failovers, hop step time, open sessions, nodes in view).
func (r *Router) Registry() *prometheus.Registry { return r.reg }

// Addrs are the router's own multiaddrs.
func (r *Router) Addrs() []string { return r.ep.Addrs() }

// Host is the router's libp2p host (a managed member serves its roster and
// asks the coordinator on it).
func (r *Router) Host() host.Host { return r.ep.Host }

// refreshLoop renews the records of the nodes in the view, asking each node
// directly, as often as their lifetimes require.
func (r *Router) refreshLoop() {
	defer r.loop.Done()
	t := time.NewTimer(r.nextRefresh())
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-t.C:
		case <-r.renewKick:
			t.Stop()
		}
		ctx, cancel := context.WithTimeout(r.ctx, renewTimeout)
		r.renew(ctx)
		cancel()
		r.sweep(time.Now())
		t.Reset(r.nextRefresh())
	}
}

// discoverLoop looks for nodes through the DHT every RefreshInterval. It
// runs apart from refreshLoop because a DHT query can wait on a stuck peer
// for seconds, and renewals must not wait with it.
func (r *Router) discoverLoop() {
	defer r.loop.Done()
	t := time.NewTicker(r.cfg.RefreshInterval)
	defer t.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-t.C:
		case <-r.kick:
		}
		ctx, cancel := context.WithTimeout(r.ctx, max(2*r.cfg.RefreshInterval, discoverTimeout))
		if err := r.discover(ctx); err != nil && r.ctx.Err() == nil {
			r.log.Warn("refresh swarm view", "err", err)
		}
		cancel()
		r.sweep(time.Now())
	}
}

// lookNow asks the discovery and renewal loops for a round at once
// (rounds do not pile up: a kick while one runs starts one more after it).
func (r *Router) lookNow() {
	for _, k := range []chan struct{}{r.kick, r.renewKick} {
		select {
		case k <- struct{}{}:
		default:
		}
	}
}

// vanishedMemory is how long a node whose record expired is still asked
// for: a node restarted within it (same key) is found by renewals, without
// waiting for a DHT search.
const vanishedMemory = 2 * time.Minute

// mayReturn reports whether some node vanished lately or is excluded after
// a failure: a model missing blocks may then be whole again any moment.
func (r *Router) mayReturn() bool {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.vanished) > 0 {
		return true
	}
	for _, e := range r.excl {
		if e.until.After(now) {
			return true
		}
	}
	return false
}

// heldByVanished reports whether a node whose record expired lately served
// the model (a name or a digest, or "<model>-<adapter>").
func (r *Router) heldByVanished(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.vanished {
		for _, s := range v.models {
			if s.Name == name || s.Digest == name {
				return true
			}
			for _, a := range s.Adapters {
				if adapterModel(s.Name, a.Name) == name {
					return true
				}
			}
		}
	}
	return false
}

// waitFor waits up to d for cond to hold, re-checking it whenever the view
// changes and asking for a discovery and a renewal round at once.
func (r *Router) waitFor(ctx context.Context, d time.Duration, cond func() bool) bool {
	if d <= 0 {
		return cond()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		r.mu.Lock()
		changed := r.changed
		r.mu.Unlock()
		if cond() {
			return true
		}
		r.lookNow()
		select {
		case <-changed:
		case <-t.C:
			return cond()
		case <-ctx.Done():
			return false
		}
	}
}

// renewTimeout bounds one round of renewals: a healthy node answers in
// milliseconds.
const renewTimeout = 2 * time.Second

// discoverTimeout is the least time a discovery round gets, whatever the
// refresh interval: the DHT search and the record lookups of
// p2p.Endpoint.Members take up to 1.5 s and 2.5 s when peers answer slowly
// (a loaded machine). A round bounded by a short refresh interval alone
// (twice 100 ms) found no node at all on a loaded 2-core machine, so nodes
// missing from the first view were never found.
const discoverTimeout = 5 * time.Second

// minRefresh keeps the refresh loop from spinning on records about to
// expire.
const minRefresh = 200 * time.Millisecond

// nextRefresh is RefreshInterval, or sooner when a record in the view
// would expire before then: records live RecordTTL and nodes renew them
// every third of it, so refreshing a quarter of the way to the earliest
// expiry, round after round, finds a newer record of every live node well
// before the old one lapses. Without this, a TTL shorter than the refresh interval plus a
// node's renewal interval would make live nodes blink out of the view.
// A quarter rather than half: a round late by three quarters of the time
// left still renews in time (about 1.5 s with the 3 s TTL the node
// command allows at least; half left 1 s, which a loaded machine's
// scheduling stalls can take), and a failed round is retried sooner.
func (r *Router) nextRefresh() time.Duration {
	wait := r.cfg.RefreshInterval
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.nodes {
		if q := m.Expires.Sub(now) / 4; q < wait {
			wait = q
		}
	}
	return max(wait, minRefresh)
}

// Refresh rebuilds the swarm view now: it renews the nodes already in
// the view, then searches the DHT for nodes. A node that no round reaches
// stays until its record expires; a node that withdrew leaves at once.
func (r *Router) Refresh(ctx context.Context) error {
	r.renew(ctx)
	err := r.discover(ctx)
	r.sweep(time.Now())
	return err
}

// renew asks every node in the view for its current record, straight from
// the node, and applies each answer as it arrives, so a stuck node delays
// nobody else's renewal.
func (r *Router) renew(ctx context.Context) {
	r.mu.Lock()
	known := make([]peer.ID, 0, len(r.nodes)+len(r.vanished))
	for id := range r.nodes {
		known = append(known, id)
	}
	for id := range r.vanished {
		known = append(known, id)
	}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range known {
		wg.Go(func() {
			m, err := r.ep.LookupDirect(ctx, id)
			if err != nil {
				// The node does not answer where we knew it: it may have
				// come back elsewhere, and the DHT has its newest record.
				m, err = r.ep.Lookup(ctx, id)
			}
			if err == nil {
				r.apply([]p2p.Member{*m}, time.Now())
			}
		})
	}
	wg.Wait()
}

// discover finds the swarm's members through the DHT and applies them.
// Nodes in the view that the provider search missed (a stopped node is no
// longer returned as a provider) are looked up in the DHT too, so that a
// withdrawn record is seen within a round even when the node is gone.
func (r *Router) discover(ctx context.Context) error {
	t0 := time.Now()
	ms, err := r.ep.Members(ctx)
	found := map[peer.ID]bool{}
	for _, m := range ms {
		found[m.ID] = true
	}
	r.mu.Lock()
	var missing []peer.ID
	for id := range r.nodes {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range missing {
		wg.Go(func() {
			if m, lerr := r.ep.Lookup(ctx, id); lerr == nil {
				r.apply([]p2p.Member{*m}, time.Now())
			}
		})
	}
	wg.Wait()
	r.log.Debug("swarm view", "members", len(ms), "missed", len(missing), "took", time.Since(t0), "err", err)
	r.apply(ms, time.Now())
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	return nil
}

// sweep drops expired records and finished backoffs.
func (r *Router) sweep(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	dropped := false
	for id, m := range r.nodes {
		if !m.Expires.After(now) {
			delete(r.nodes, id)
			r.vanished[id] = vanishedNode{at: now, models: m.Record.Models}
			r.met.expired.Inc()
			dropped = true
		}
	}
	for id, v := range r.vanished {
		if now.Sub(v.at) > vanishedMemory {
			delete(r.vanished, id)
		}
	}
	if dropped {
		r.notifyLocked()
	}
	for id, e := range r.excl {
		// The count of failures in a row is kept while it can still
		// matter: as long as the longest back-off it could lead to.
		if !e.until.After(now) && now.Sub(e.failedAt) > r.cfg.MaxBackoff {
			delete(r.excl, id)
		}
	}
}

// apply merges members into the view: newer records replace older ones,
// withdrawn nodes leave.
func (r *Router) apply(ms []p2p.Member, now time.Time) {
	var readdress []p2p.Member
	defer func() {
		// Outside the lock: it touches the host's peerstore and swarm.
		for _, m := range readdress {
			r.ep.Readdress(m.ID, m.Record.Addrs)
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(ms) > 0 {
		defer r.notifyLocked()
	}
	for _, m := range ms {
		if m.Withdrawn {
			delete(r.nodes, m.ID)
			delete(r.vanished, m.ID)
			continue
		}
		if !m.Expires.After(now) {
			continue
		}
		delete(r.vanished, m.ID)
		old, known := r.nodes[m.ID]
		if known && old.Record.Seq > m.Record.Seq {
			continue
		}
		if known && m.Record.Seq > old.Record.Seq && addrsKey(old.Record) != addrsKey(m.Record) {
			// Restarted elsewhere: dial the new addresses, without the
			// dial back-off the old ones earned.
			readdress = append(readdress, m)
		}
		if e := r.excl[m.ID]; e != nil && e.until.After(now) && e.lifts(m.Record) {
			r.log.Info("peer announced again; its exclusion ends", "peer", m.ID, "failures", e.failures)
			e.until = time.Time{}
			if !known || addrsKey(old.Record) == addrsKey(m.Record) {
				readdress = append(readdress, m)
			}
		}
		r.nodes[m.ID] = m
		for _, s := range m.Record.Models {
			if _, ok := r.created[s.Digest]; !ok {
				r.created[s.Digest] = now
				r.log.Info("model seen", "name", s.Name, "digest", s.Digest[:12])
			}
		}
	}
}

// notifyLocked wakes every WaitState; r.mu must be held.
func (r *Router) notifyLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// WaitModel waits until the model (a name or a digest) is served, at most
// until ctx ends.
func (r *Router) WaitModel(ctx context.Context, name string) error {
	return r.WaitState(ctx, name, StateServed)
}

// WaitState waits until the model (a name or a digest) is in state want,
// or, with want "", absent from the view, at most until ctx ends. It wakes
// on every change of the view and when a record in it expires.
func (r *Router) WaitState(ctx context.Context, name string, want State) error {
	for {
		r.mu.Lock()
		changed := r.changed
		var expiry time.Time
		for _, m := range r.nodes {
			if expiry.IsZero() || m.Expires.Before(expiry) {
				expiry = m.Expires
			}
		}
		r.mu.Unlock()
		var got State
		for _, m := range r.Models(ctx) {
			if (m.Name == name || m.Digest == name) && (got == "" || stateRank[m.State] < stateRank[got]) {
				got = m.State
			}
		}
		if got == want {
			return nil
		}
		wake := time.Hour
		if !expiry.IsZero() {
			wake = max(time.Until(expiry), time.Millisecond)
		}
		t := time.NewTimer(wake)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("router: model %s is %q, want %q: %w", name, got, want, ctx.Err())
		}
		t.Stop()
	}
}

// holding is one node's announcement of one model.
type holding struct {
	peer peer.ID
	s    *wire.Served
}

// snapshot returns the unexpired holdings per digest.
func (r *Router) snapshot() map[string][]holding {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]holding{}
	for id, m := range r.nodes {
		if !m.Expires.After(now) {
			continue
		}
		for _, s := range m.Record.Models {
			out[s.Digest] = append(out[s.Digest], holding{peer: id, s: s})
		}
	}
	return out
}

// status derives a model's state from its holdings.
func (r *Router) status(digest string, hs []holding) ModelStatus {
	// Nodes agree on the name and block count for one digest, unless one
	// lies; the most common values win, which a single liar cannot sway.
	names, totals := map[string]int{}, map[int]int{}
	for _, h := range hs {
		names[h.s.Name]++
		totals[int(h.s.TotalBlocks)]++
	}
	st := ModelStatus{Digest: digest, Name: mostCommon(names), Blocks: mostCommon(totals)}
	var online, all [][2]int
	for _, h := range hs {
		if int(h.s.TotalBlocks) != st.Blocks {
			continue
		}
		rg := [2]int{int(h.s.First), int(h.s.Last)}
		all = append(all, rg)
		if h.s.State == wire.ServeState_STATE_ONLINE {
			online = append(online, rg)
		}
	}
	switch {
	case covers(st.Blocks, online):
		st.State = StateServed
	case covers(st.Blocks, all):
		st.State = StateLoading
	default:
		st.State = StateIncomplete
	}
	r.mu.Lock()
	st.Created = r.created[digest]
	r.mu.Unlock()
	return st
}

func mostCommon[K string | int](m map[K]int) K {
	var best K
	n := -1
	for k, c := range m {
		if c > n || (c == n && k < best) {
			best, n = k, c
		}
	}
	return best
}

// Models lists every model in the view, in any state, by name, and each
// model's adapters as "<model>-<adapter>".
func (r *Router) Models(ctx context.Context) []ModelStatus {
	var out []ModelStatus
	for d, hs := range r.snapshot() {
		base := r.status(d, hs)
		out = append(out, base)
		for _, a := range r.adapterStatuses(base, hs) {
			out = append(out, a.st)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Digest < out[j].Digest
	})
	return out
}

var stateRank = map[State]int{StateServed: 0, StateLoading: 1, StateIncomplete: 2}

// resolve finds a model by name or digest; when several digests share a
// name, the best served one wins.
func (r *Router) resolve(name string) (ModelStatus, []holding, error) {
	snap := r.snapshot()
	var best ModelStatus
	var bestHs []holding
	found := false
	for d, hs := range snap {
		st := r.status(d, hs)
		cands := append([]adapterView{{st: st, hs: hs}}, r.adapterStatuses(st, hs)...)
		for _, c := range cands {
			st := c.st
			if st.Name != name && (st.Digest != name || st.Adapter != "") {
				continue
			}
			if !found || stateRank[st.State] < stateRank[best.State] ||
				(st.State == best.State && st.Created.Before(best.Created)) {
				best, bestHs, found = st, c.hs, true
			}
		}
	}
	if !found {
		return ModelStatus{}, nil, fmt.Errorf("router: model %q: %w", name, ErrModelNotFound)
	}
	switch best.State {
	case StateLoading:
		return best, bestHs, fmt.Errorf("router: model %q: %w", name, ErrModelLoading)
	case StateIncomplete:
		return best, bestHs, fmt.Errorf("router: model %q: %w", name, ErrModelIncomplete)
	}
	return best, bestHs, nil
}

// resolveWait is resolve, waiting up to RouteWait for a model that is
// missing blocks or still loading when a holder may be back any moment.
func (r *Router) resolveWait(ctx context.Context, name string) (ModelStatus, []holding, error) {
	st, hs, err := r.resolve(name)
	wait := (errors.Is(err, ErrModelIncomplete) || errors.Is(err, ErrModelLoading)) && r.mayReturn()
	// A model whose every holder's record lapsed at once (renewals late by
	// a stall of a loaded machine) is unknown until they are asked again,
	// which the wait starts at once; before, such a request got "not
	// found" although the nodes were up.
	wait = wait || errors.Is(err, ErrModelNotFound) && r.heldByVanished(name)
	if wait {
		r.waitFor(ctx, r.cfg.RouteWait, func() bool {
			st, hs, err = r.resolve(name)
			return err == nil
		})
	}
	return st, hs, err
}

// Model resolves a served model and returns its header, fetched from one
// of its nodes and checked against the digest.
func (r *Router) Model(ctx context.Context, name string) (*ModelInfo, error) {
	st, hs, err := r.resolveWait(ctx, name)
	if err != nil {
		return nil, err
	}
	h, err := r.header(ctx, st.Digest, hs)
	if err != nil {
		return nil, err
	}
	return &ModelInfo{ModelStatus: st, Header: h.file}, nil
}

// header returns the cached header of digest, or fetches it from the
// holders (online ones first).
func (r *Router) header(ctx context.Context, digest string, hs []holding) (*header, error) {
	r.mu.Lock()
	h := r.headers[digest]
	r.mu.Unlock()
	if h != nil {
		return h, nil
	}
	r.fetchMu.Lock()
	defer r.fetchMu.Unlock()
	r.mu.Lock()
	h = r.headers[digest]
	r.mu.Unlock()
	if h != nil {
		return h, nil
	}
	sort.SliceStable(hs, func(i, j int) bool {
		return hs[i].s.State == wire.ServeState_STATE_ONLINE && hs[j].s.State != wire.ServeState_STATE_ONLINE
	})
	var errs []error
	for _, ho := range hs {
		f, err := p2p.FetchHeader(ctx, r.ep.Host, ho.peer, digest)
		if err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		cfg, err := model.ParseConfig(f)
		if err != nil {
			errs = append(errs, fmt.Errorf("header from %s: %w", ho.peer, err))
			continue
		}
		h = &header{file: f, cfg: cfg}
		r.mu.Lock()
		r.headers[digest] = h
		r.mu.Unlock()
		return h, nil
	}
	return nil, fmt.Errorf("router: fetch header of model %s: %w: %w", digest, ErrRouteUnavailable, errors.Join(errs...))
}

// newSessionID returns a fresh random session id.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// barrier returns the step barrier of the model with the given digest.
func (r *Router) barrier(digest string) *stepBarrier {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.barriers[digest]
	if b == nil {
		b = newStepBarrier()
		r.barriers[digest] = b
	}
	return b
}

// adapterModel is the name a model served with an adapter goes by.
func adapterModel(model, adapter string) string { return model + "-" + adapter }

// adapterView is a model with one adapter: its status and the holdings of
// the hops holding that adapter.
type adapterView struct {
	st ModelStatus
	hs []holding
}

// adapterStatuses lists a model's adapters (one per name and file), each
// with the state of the chains through the hops that hold it.
func (r *Router) adapterStatuses(base ModelStatus, hs []holding) []adapterView {
	type key struct{ name, digest string }
	var keys []key
	seen := map[key]bool{}
	for _, h := range hs {
		for _, a := range h.s.Adapters {
			k := key{a.Name, a.Digest}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	var out []adapterView
	for _, k := range keys {
		var with []holding
		for _, h := range hs {
			if p2p.HoldsAdapter(h.s, k.name, k.digest) {
				with = append(with, h)
			}
		}
		st := r.status(base.Digest, with)
		st.Name, st.Blocks = adapterModel(base.Name, k.name), base.Blocks
		st.Adapter, st.AdapterDigest = k.name, k.digest
		if st.Blocks != base.Blocks {
			st.State = StateIncomplete
		}
		out = append(out, adapterView{st: st, hs: with})
	}
	return out
}

package p2p

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/prometheus/client_golang/prometheus"

	"svc/p2p/wire"
	"svc/shards/model"
)

// NodeConfig configures a node. ModelPath (or Model) is required; every
// other field has a default.
type NodeConfig struct {
	// ModelPath is the GGUF file to serve, unless Model is set.
	ModelPath string
	// Model is an already opened model (several nodes of one process may
	// share it); the node does not close it.
	Model *model.Model
	// ContextLength caps session lengths when the node opens ModelPath.
	ContextLength int
	// Name requests use for the model (default: the file name without
	// .gguf).
	Name string
	// First and Last are the blocks [First, Last) to hold. Last == 0 means
	// choose automatically: the least-covered range in the swarm.
	First, Last int
	// AutoBlocks is how many blocks an automatic choice takes (0: the
	// largest range nobody holds, else the whole model).
	AutoBlocks int

	Listen    []string
	Bootstrap []string
	// Key is the node's libp2p identity (fresh when nil).
	Key crypto.PrivKey
	// Gate, when set, is asked before each new session: an error refuses
	// it with that reason (a managed machine's licence grant has expired).
	// Sessions already open go on.
	Gate func() error
	// StreamMemory and Admission go to the node's Endpoint
	// (EndpointConfig).
	StreamMemory int64
	Admission    Admission
	// Endpoint, when set, is a host shared with other nodes of this
	// process (shared.go): Listen, Bootstrap, Key, StreamMemory and
	// Admission are then the endpoint's, and the node does not close it.
	Endpoint *Endpoint
	// Identity, when set, is the model's identity (header and tensor
	// samples) taken as given: for a sparse slice file (package slice),
	// which the node opens with the digest they make.
	Identity *ModelIdentity

	// Threads of the shard's worker pool (0: one per CPU).
	Threads int
	// CacheTokens is the shard's cache capacity in positions over all
	// sessions (0: what CacheBytes hold, or by default what
	// DefaultCacheBytes of f16 keys and values hold for these blocks, and
	// at least 4 × the context length).
	CacheTokens int
	// CacheBytes, when positive and CacheTokens is 0, bounds the shard's
	// KV cache in bytes: it holds CacheBytes / CacheBytesPerPosition
	// positions, and NewNode refuses (ErrCacheTooSmall) a budget that
	// cannot hold one session of the model's whole context, which no
	// request the API admits could then be sure to get.
	CacheBytes int64
	// IdleTimeout ends sessions (and their streams) unused this long
	// (default 5 minutes); a session whose step waits in the node's queue
	// is in use.
	IdleTimeout time.Duration
	// KeepAliveLimit is how long after a session's last step (or its
	// open) keepalives (wire.KeepAlive) still keep it from the idle
	// timeout: a router sends them to a chain's idle hops while another
	// hop's step waits in a long queue, and a peer must not hold a
	// session's cache forever with them (default 30 minutes; negative:
	// the node accepts and announces none, as nodes before keepalives).
	KeepAliveLimit time.Duration
	// PromptCacheBytes bounds the shard's prompt cache, which answers a
	// session's first step from an identical earlier one
	// (model.ShardOptions; 0: model.DefaultPromptCacheBytes; negative:
	// off).
	PromptCacheBytes int64
	// Adapters are LoRA adapters to serve with the model (only the pairs
	// of the node's blocks are loaded).
	Adapters []AdapterSpec
	// BatchPositions bounds the positions of the steps the node computes
	// together in one pass (0: model.MaxBatch; 1: one step at a time).
	BatchPositions int

	// RecordTTL is how long an announcement stays valid (default 30 s);
	// RefreshInterval how often it is renewed (default TTL/3).
	RecordTTL       time.Duration
	RefreshInterval time.Duration

	Logger *slog.Logger
}

// Node serves blocks of one model to the swarm.
type Node struct {
	cfg      NodeConfig
	log      *slog.Logger
	ep       *Endpoint
	m        *model.Model
	ownModel bool
	name     string
	digest   string
	total    int
	dim      int
	first    int
	last     int
	header   []byte
	samples  []byte
	adapters []*wire.Adapter // announced with the blocks; fixed after loading
	reg      *prometheus.Registry
	met      *nodeMetrics

	ctx    context.Context // ends when the node closes
	cancel context.CancelFunc
	kick   chan struct{} // asks the announce loop to publish now
	loop   sync.WaitGroup

	mu        sync.Mutex
	shard     *model.Shard // nil while loading
	sched     *scheduler   // set with shard; its loop runs under loop
	online    bool
	msPerTok  float64
	capacity  int // the shard's cache positions over all sessions
	closing   bool
	streams   map[network.Stream]struct{}
	handlers  sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

func (c *NodeConfig) defaults() {
	if c.RecordTTL <= 0 {
		c.RecordTTL = 30 * time.Second
	}
	if c.RefreshInterval <= 0 {
		c.RefreshInterval = c.RecordTTL / 3
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 5 * time.Minute
	}
	if c.KeepAliveLimit == 0 {
		c.KeepAliveLimit = DefaultKeepAliveLimit
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.BatchPositions <= 0 {
		c.BatchPositions = model.MaxBatch
	}
}

// NewNode opens the model, joins the swarm, announces the blocks as loading,
// loads them, measures their speed and announces them online. It returns
// once the node answers forward requests.
func NewNode(ctx context.Context, cfg NodeConfig) (*Node, error) {
	cfg.defaults()
	if cfg.RefreshInterval >= cfg.RecordTTL {
		return nil, fmt.Errorf("p2p: refresh interval %s must be shorter than the record TTL %s", cfg.RefreshInterval, cfg.RecordTTL)
	}
	if cfg.RecordTTL > DefaultMaxRecordTTL {
		return nil, fmt.Errorf("p2p: record TTL %s exceeds what validators accept (%s)", cfg.RecordTTL, DefaultMaxRecordTTL)
	}
	n := &Node{cfg: cfg, log: cfg.Logger, m: cfg.Model, streams: map[network.Stream]struct{}{}, kick: make(chan struct{}, 1)}
	if n.m == nil {
		if cfg.ModelPath == "" {
			return nil, errors.New("p2p: node needs a model file")
		}
		var digest string
		if cfg.Identity != nil {
			digest = DigestOf(cfg.Identity.Header, cfg.Identity.Samples)
		}
		m, err := model.Open(cfg.ModelPath, model.Options{ContextLength: cfg.ContextLength, Digest: digest})
		if err != nil {
			return nil, fmt.Errorf("p2p: %w", err)
		}
		n.m, n.ownModel = m, true
	}
	fail := func(err error) (*Node, error) {
		if n.ep != nil && cfg.Endpoint == nil {
			_ = n.ep.Close()
		}
		if n.ownModel {
			_ = n.m.Close()
		}
		return nil, err
	}
	mc := n.m.Config()
	n.digest, n.total, n.dim = n.m.Digest(), mc.Blocks, mc.Dim
	n.name = cfg.Name
	if n.name == "" {
		n.name = strings.TrimSuffix(filepath.Base(n.m.File().Path), ".gguf")
	}
	var err error
	if cfg.Identity != nil {
		n.header, n.samples = cfg.Identity.Header, cfg.Identity.Samples
	} else if n.header, n.samples, err = modelIdentity(n.m.File()); err != nil {
		return fail(err)
	}
	if d := DigestOf(n.header, n.samples); d != n.digest {
		return fail(fmt.Errorf("p2p: model digest %s does not match header and samples (%s): the digest scheme of shards/model changed", n.digest, d))
	}
	if cfg.Endpoint != nil {
		n.ep = cfg.Endpoint
	} else if n.ep, err = NewEndpoint(ctx, EndpointConfig{
		Listen: cfg.Listen, Bootstrap: cfg.Bootstrap, Key: cfg.Key, Server: true,
		StreamMemory: cfg.StreamMemory, Admission: cfg.Admission, Logger: cfg.Logger,
	}); err != nil {
		return fail(err)
	}
	n.first, n.last = cfg.First, cfg.Last
	if n.last == 0 {
		if n.first, n.last, err = n.autoRange(ctx); err != nil {
			return fail(err)
		}
	}
	if n.first < 0 || n.last > n.total || n.first >= n.last {
		return fail(fmt.Errorf("p2p: blocks [%d,%d) are not a non-empty part of the model's [0,%d)", n.first, n.last, n.total))
	}
	n.reg = prometheus.NewRegistry()
	if n.met, err = newNodeMetrics(n, n.reg); err != nil {
		return fail(err)
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if cfg.Endpoint != nil {
		if err := n.ep.attach(n); err != nil {
			return fail(err)
		}
	} else {
		n.ep.Host.SetStreamHandler(ForwardProtocol, n.handleForward)
		n.ep.Host.SetStreamHandler(MetaProtocol, n.handleMeta)
	}
	n.loop.Add(1)
	go n.announceLoop()
	n.log.Info("loading blocks", "model", n.name, "blocks", fmt.Sprintf("%d:%d", n.first, n.last), "of", n.total)

	cacheTokens := cfg.CacheTokens
	switch {
	case cacheTokens == 0 && cfg.CacheBytes > 0:
		if cacheTokens, err = CacheTokensFor(mc, n.last-n.first, cfg.CacheBytes); err != nil {
			_ = n.Close()
			return nil, fmt.Errorf("p2p: blocks [%d,%d): %w", n.first, n.last, err)
		}
	case cacheTokens == 0:
		cacheTokens = defaultCacheTokens(mc, n.last-n.first)
	}
	sh, err := n.m.NewShard(n.first, n.last, model.ShardOptions{Threads: cfg.Threads, CacheTokens: cacheTokens, IdleTimeout: cfg.IdleTimeout, PromptCacheBytes: cfg.PromptCacheBytes})
	if err != nil {
		_ = n.Close()
		return nil, fmt.Errorf("p2p: load blocks [%d,%d): %w", n.first, n.last, err)
	}
	adapters, err := loadAdapters(sh, cfg.Adapters)
	if err != nil {
		sh.Close()
		_ = n.Close()
		return nil, err
	}
	ms, err := measure(ctx, sh, n.dim)
	if err != nil {
		sh.Close()
		_ = n.Close()
		return nil, fmt.Errorf("p2p: measure speed of blocks [%d,%d): %w", n.first, n.last, err)
	}
	sched := newScheduler(sh, cfg.BatchPositions, n.met)
	n.mu.Lock()
	n.shard, n.sched, n.online, n.msPerTok, n.adapters = sh, sched, true, ms, adapters
	n.capacity = cacheTokens
	n.loop.Add(1)
	n.mu.Unlock()
	go func() {
		defer n.loop.Done()
		sched.run(n.ctx)
	}()
	n.announceNow()
	n.log.Info("online", "model", n.name, "blocks", fmt.Sprintf("%d:%d", n.first, n.last), "ms_per_token", fmt.Sprintf("%.3f", ms), "addrs", n.Addrs())
	return n, nil
}

// Addrs are the node's full multiaddrs (with /p2p/<id>).
func (n *Node) Addrs() []string { return n.ep.Addrs() }

// ID is the node's peer id.
func (n *Node) ID() peer.ID { return n.ep.ID() }

// Range is the blocks [first, last) the node holds.
func (n *Node) Range() (first, last int) { return n.first, n.last }

// Digest is the model identity the node announces.
func (n *Node) Digest() string { return n.digest }

// Name is the model name the node announces.
func (n *Node) Name() string { return n.name }

// Registry holds the node's Prometheus metrics.
func (n *Node) Registry() *prometheus.Registry { return n.reg }

// Sessions is the number of sessions open on the node.
func (n *Node) Sessions() int {
	n.mu.Lock()
	sh := n.shard
	n.mu.Unlock()
	if sh == nil {
		return 0
	}
	return sh.Sessions()
}

// Close withdraws the announcement, ends every stream (which closes its
// session), stops the DHT and the host and frees the blocks.
func (n *Node) Close() error {
	n.closeOnce.Do(func() { n.closeErr = n.close() })
	return n.closeErr
}

func (n *Node) close() error {
	n.mu.Lock()
	n.closing = true
	for s := range n.streams {
		_ = s.Reset()
	}
	n.mu.Unlock()
	shared := n.cfg.Endpoint != nil
	if shared {
		n.ep.detach(n)
	} else {
		n.ep.Host.RemoveStreamHandler(ForwardProtocol)
		n.ep.Host.RemoveStreamHandler(MetaProtocol)
	}
	n.cancel()
	n.loop.Wait()
	// A withdrawn record makes gateways forget the node at their next
	// refresh instead of at the record's expiry.
	wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	// On a shared host the others' models stay announced.
	if err := n.ep.Publish(wctx, n.record(!shared || !n.ep.serving())); err != nil {
		n.log.Debug("withdraw announcement", "err", err)
	}
	cancel()
	n.handlers.Wait()
	n.mu.Lock()
	sh := n.shard
	n.shard = nil
	n.mu.Unlock()
	if sh != nil {
		sh.Close()
	}
	var err error
	if !shared {
		err = n.ep.Close()
	}
	if n.ownModel {
		err = errors.Join(err, n.m.Close())
	}
	return err
}

// record builds the node's current announcement.
func (n *Node) record(withdrawn bool) *wire.Announcement {
	now := time.Now()
	a := &wire.Announcement{
		Seq:           uint64(now.UnixNano()),
		ExpiresUnixMs: now.Add(n.cfg.RecordTTL).UnixMilli(),
		Withdrawn:     withdrawn,
	}
	for _, m := range n.ep.Host.Addrs() {
		a.Addrs = append(a.Addrs, m.Bytes())
	}
	if withdrawn {
		return a
	}
	if n.cfg.Endpoint != nil {
		a.Models = n.ep.servedAll()
		return a
	}
	a.Models = []*wire.Served{n.served()}
	return a
}

// served is what the node's record says of its model.
func (n *Node) served() *wire.Served {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := &wire.Served{
		Digest: n.digest, Name: n.name,
		First: uint32(n.first), Last: uint32(n.last), TotalBlocks: uint32(n.total),
		State:      wire.ServeState_STATE_LOADING,
		MsPerToken: n.msPerTok,
		MaxLength:  uint32(n.m.Config().Context),
	}
	if n.cfg.KeepAliveLimit > 0 {
		s.IdleTimeoutMs = uint32(min(max(n.cfg.IdleTimeout.Milliseconds(), 1), math.MaxUint32))
	}
	if n.online && n.shard != nil {
		s.State = wire.ServeState_STATE_ONLINE
		s.FreeCacheTokens = uint64(n.shard.FreeTokens())
		s.Sessions = uint32(n.shard.Sessions())
		s.Adapters = n.adapters
		// A session longer than the whole cache is never accepted: a
		// router then knows at once that such a generation cannot run
		// here, rather than finding this node full time after time.
		s.MaxLength = uint32(min(n.m.Config().Context, n.capacity))
	}
	return s
}

func (n *Node) announceNow() {
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

// announceLoop publishes the record every RefreshInterval (and when
// kicked) and keeps the node registered as a provider of SwarmCID.
func (n *Node) announceLoop() {
	defer n.loop.Done()
	t := time.NewTicker(n.cfg.RefreshInterval)
	defer t.Stop()
	var provided time.Time
	failures := 0 // failed pushes in a row
	for {
		ctx, cancel := context.WithTimeout(n.ctx, n.cfg.RefreshInterval)
		// The record is renewed locally (and served directly) even when
		// the DHT push fails; a stuck peer among the closest makes every
		// push time out, so the warning is given at failures 1, 2, 4, 8…
		// and on recovery rather than every round.
		switch err := n.ep.Publish(ctx, n.record(false)); {
		case err != nil && n.ctx.Err() == nil:
			failures++
			if failures&(failures-1) == 0 {
				n.log.Warn("publish announcement", "err", err, "failures_in_a_row", failures)
			}
		case err == nil && failures > 0:
			n.log.Info("publish announcement recovered", "after_failures", failures)
			failures = 0
		}
		// Provider records last long; renew them every minute, and retry
		// quickly while the routing table was empty.
		if time.Since(provided) > time.Minute && n.ctx.Err() == nil {
			if err := n.ep.DHT.Provide(ctx, SwarmCID(), true); err != nil {
				n.log.Debug("provide swarm key", "err", err)
			} else if n.ep.DHT.RoutingTable().Size() > 0 {
				provided = time.Now()
			}
		}
		cancel()
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		case <-n.kick:
		}
	}
}

// autoRange picks the blocks the swarm needs most.
func (n *Node) autoRange(ctx context.Context) (int, int, error) {
	var held [][2]int
	if len(n.cfg.Bootstrap) > 0 {
		// A fresh DHT client needs a moment before its first query works.
		vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ms, err := n.ep.Members(vctx)
		cancel()
		if err != nil {
			return 0, 0, fmt.Errorf("p2p: look at the swarm to choose blocks: %w", err)
		}
		for _, m := range ms {
			if m.Withdrawn {
				continue
			}
			for _, s := range m.Record.Models {
				if s.Digest == n.digest && int(s.TotalBlocks) == n.total {
					held = append(held, [2]int{int(s.First), int(s.Last)})
				}
			}
		}
	}
	f, l := ChooseRange(n.total, held, n.cfg.AutoBlocks)
	n.log.Info("chose blocks", "blocks", fmt.Sprintf("%d:%d", f, l), "held_elsewhere", held)
	return f, l, nil
}

// ChooseRange picks blocks for a new node of a model with total blocks,
// given the ranges other nodes hold. With size 0 it takes the longest run of
// blocks nobody holds (the first such run), or the whole model when every
// block is held. With size > 0 it takes the window of that size whose least
// covered block is least covered, then with the least total coverage, then
// the earliest.
func ChooseRange(total int, held [][2]int, size int) (int, int) {
	cov := make([]int, total)
	for _, r := range held {
		for b := max(r[0], 0); b < min(r[1], total); b++ {
			cov[b]++
		}
	}
	if size <= 0 {
		bf, bl := 0, 0
		for b := 0; b < total; {
			if cov[b] != 0 {
				b++
				continue
			}
			e := b
			for e < total && cov[e] == 0 {
				e++
			}
			if e-b > bl-bf {
				bf, bl = b, e
			}
			b = e
		}
		if bl > bf {
			return bf, bl
		}
		return 0, total
	}
	size = min(size, total)
	best, bestMin, bestSum := 0, math.MaxInt, math.MaxInt
	for f := 0; f+size <= total; f++ {
		lo, sum := math.MaxInt, 0
		for _, c := range cov[f : f+size] {
			lo = min(lo, c)
			sum += c
		}
		if lo < bestMin || (lo == bestMin && sum < bestSum) {
			best, bestMin, bestSum = f, lo, sum
		}
	}
	return best, best + size
}

// measure times a one-position step of the shard, the unit of decode cost.
func measure(ctx context.Context, sh *model.Shard, dim int) (float64, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := "svc-measure-" + hex.EncodeToString(b[:])
	const steps = 4
	if err := sh.OpenSession(id, steps); err != nil {
		return 0, err
	}
	defer func() { _ = sh.CloseSession(id) }()
	best := math.Inf(1)
	for i := range steps {
		in := model.Input{Logits: model.LogitsLast, OmitLogits: true}
		if sh.IsFirst() {
			in.Tokens = []int32{int32(i)}
		} else {
			in.Hidden = make([]float32, dim)
			for j := range in.Hidden {
				in.Hidden[j] = float32(math.Sin(float64(i*dim+j))) * 0.1
			}
		}
		t0 := time.Now()
		if _, err := sh.Forward(ctx, id, in); err != nil {
			return 0, err
		}
		if i > 0 { // the first step pages the weights in
			best = min(best, float64(time.Since(t0).Microseconds())/1000)
		}
	}
	return best, nil
}

// DefaultCacheBytes is the KV-cache memory a node plans for by default.
// Caches grow as sessions fill them, so this bounds memory rather than
// reserving it.
const DefaultCacheBytes = 2 << 30

// defaultCacheTokens is how many positions DefaultCacheBytes hold for
// blocks of a model, and at least 4 × the context length.
func defaultCacheTokens(c model.Config, blocks int) int {
	n := DefaultCacheBytes / max(CacheBytesPerPosition(c, blocks), 1)
	return max(int(n), 4*c.Context)
}

// ErrCacheTooSmall is wrapped when a KV-cache budget cannot hold one
// session of a model's whole context.
var ErrCacheTooSmall = errors.New("KV cache budget too small")

// CacheBytesPerPosition is what one position of one session takes in the
// KV cache of blocks of a model: keys and values, f16, KVDim wide, per
// block.
func CacheBytesPerPosition(c model.Config, blocks int) int64 {
	return int64(2 * 2 * c.KVDim() * blocks)
}

// ContextCacheBytes is the KV cache one session of the model's whole
// context takes on blocks of it: the least a budget must hold.
func ContextCacheBytes(c model.Config, blocks int) int64 {
	return CacheBytesPerPosition(c, blocks) * int64(c.Context)
}

// SliceCacheBytes is the KV-cache budget of a node serving blocks of a
// model, given the budget configured (the managed agent's kv_cache): that
// budget when positive; when 0 (automatic), DefaultCacheBytes, or one
// session of the model's whole context on these blocks where that is more,
// so that a model with a long trained context is served by default and
// its memory still planned. The agent gives it to each slice's node and
// the coordinator's placement counts the same, one formula for both.
func SliceCacheBytes(c model.Config, blocks int, budget int64) int64 {
	if budget > 0 {
		return budget
	}
	return max(DefaultCacheBytes, ContextCacheBytes(c, blocks))
}

// CacheTokensFor is how many positions budget bytes of KV cache hold for
// blocks of a model; ErrCacheTooSmall when fewer than the context length.
func CacheTokensFor(c model.Config, blocks int, budget int64) (int, error) {
	per := max(CacheBytesPerPosition(c, blocks), 1)
	n := budget / per
	if n < int64(c.Context) {
		return 0, fmt.Errorf("%w: %s holds %d positions of %d blocks, fewer than one session of the model's context of %d, which takes at least %s",
			ErrCacheTooSmall, SizeText(budget), n, blocks, c.Context, SizeText(RoundUpMiB(ContextCacheBytes(c, blocks))))
	}
	return int(min(n, int64(math.MaxInt32))), nil
}

// RoundUpMiB rounds n up to whole MiB, as sizes are written for operators.
func RoundUpMiB(n int64) int64 { return (n + 1<<20 - 1) &^ (1<<20 - 1) }

// SizeText writes a size as a configuration takes it: whole GiB or MiB
// with the unit, otherwise bytes.
func SizeText(n int64) string {
	switch {
	case n > 0 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/coordinator/trust"
	"svc/p2p"
	"svc/shards/model"
	"svc/shards/slice"
)

// Slices. The roster's placements name, for each model served, the block
// ranges placed on each machine and the sha256 of the model's manifest. The
// agent serves every slice placed on it: it fetches the manifest from the
// coordinator (checked against the roster's hash), then only the tensors
// of its blocks, into a sparse copy of the model file in STATE_DIR/slices
// (package slice: each tensor checked against the manifest, the file
// renamed into place once complete), and serves it with a p2p.Node on the
// agent's own host and peer id (every model on one host, p2p's shared
// endpoint), under the whole model's digest. Adapters placed with the model
// travel the same way: each one's manifest (hash and file digest in the
// roster), then only the lora_a/lora_b pairs of the slice's blocks, into a
// sparse adapter file beside the slice's, served as "<model>-<adapter>"
// under the whole adapter file's digest. Each slice's node keeps at most
// p2p.SliceCacheBytes of keys and values (p2p.NodeConfig.CacheBytes): with
// agent.toml's kv_cache auto, 2GiB or one session of the model's whole
// context on the slice's blocks where that is more; with a size, that
// size, and a slice for which it cannot hold one session of the whole
// context is reported unavailable with the size it needs. The reports
// carry kv_cache (0 for auto) so that placement counts the same. It reports each slice's state
// to the coordinator (loading, served, or unavailable with the reason)
// whenever the roster says otherwise, and drops the slices (node and file)
// of placements that are gone or moved elsewhere. A slice that failed is
// tried again only once the operator serves the model again (the roster
// shows it unavailable, then loading).

// SlicesDir is where the agent keeps its slice files.
func (f Files) SlicesDir() string { return filepath.Join(f.Dir, "slices") }

// reconcileInterval is how often the agent compares its slices with the
// roster when no new roster arrives (reports lost to a coordinator outage
// are sent again).
const reconcileInterval = 2 * time.Second

// sliceKey identifies a slice placed on this machine.
type sliceKey struct {
	model, manifest string
	first, last     int
	// adapters is the placement's adapters, JSON-encoded (comparable):
	// other adapters make another slice.
	adapters string
}

func (k sliceKey) String() string { return fmt.Sprintf("%s[%d:%d]", k.model, k.first, k.last) }

// held is a slice this agent is loading or serving.
type held struct {
	state, reason string
	node          *p2p.Node
	path          string
	cancel        context.CancelFunc
	done          chan struct{}
	// sawUnavailable: the roster has shown this slice unavailable since it
	// failed here, so a later "loading" is the operator serving it again.
	sawUnavailable bool
}

// keeper serves the slices the roster places on this machine.
type keeper struct {
	ep   *p2p.Endpoint
	t    *trust.Trust
	me   peer.ID
	dir  string
	log  *slog.Logger
	kick chan struct{}
	// memory is what agent.toml gives to slices (0: not set); the
	// coordinator learns it, and the memory free, from the reports.
	memory      int64
	announced   bool  // a report with the memory reached the coordinator
	promptCache int64 // each node's NodeConfig.PromptCacheBytes
	kvCache     int64 // agent.toml's kv_cache (0: auto), as p2p.SliceCacheBytes takes it

	mu    sync.Mutex
	held  map[sliceKey]*held
	loads sync.WaitGroup // loading goroutines
	drops sync.WaitGroup // dropping goroutines
	// dropping holds, per slice being dropped, a channel closed once its
	// node is closed and its file removed: a new load of the same slice
	// waits for it.
	dropping map[sliceKey]chan struct{}
}

func newKeeper(ep *p2p.Endpoint, t *trust.Trust, me peer.ID, dir string, memory int64, log *slog.Logger) *keeper {
	k := &keeper{ep: ep, t: t, me: me, dir: dir, memory: memory, log: log, kick: make(chan struct{}, 1), held: map[sliceKey]*held{},
		dropping: map[sliceKey]chan struct{}{}}
	t.OnChange(func(*trust.View) { k.poke() })
	return k
}

func (k *keeper) poke() {
	select {
	case k.kick <- struct{}{}:
	default:
	}
}

// run keeps the slices in line with the roster until ctx ends, then stops
// every node.
func (k *keeper) run(ctx context.Context) {
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		k.log.Error("slices directory", "err", err)
	}
	t := time.NewTicker(reconcileInterval)
	defer t.Stop()
	for {
		k.reconcile(ctx)
		select {
		case <-ctx.Done():
			k.stopAll()
			return
		case <-k.kick:
		case <-t.C:
		}
	}
}

// mine lists the slices the roster places on this machine, with the
// roster's word on each.
func (k *keeper) mine(v *trust.View) map[sliceKey]trust.Slice {
	out := map[sliceKey]trust.Slice{}
	if v == nil {
		return out
	}
	for _, p := range v.Placements {
		if p.Manifest == "" {
			continue
		}
		for _, s := range p.Slices {
			if s.Peer == k.me.String() {
				key := sliceKey{model: p.Name, manifest: p.Manifest, first: s.First, last: s.Last}
				if as := p.Adapters(); len(as) > 0 {
					b, _ := json.Marshal(as)
					key.adapters = string(b)
				}
				out[key] = s
			}
		}
	}
	return out
}

func (k *keeper) reconcile(ctx context.Context) {
	v := k.t.View()
	want := k.mine(v)
	var rep p2p.Report
	k.mu.Lock()
	for key, h := range k.held {
		if _, ok := want[key]; !ok {
			delete(k.held, key)
			k.dropLocked(key, h)
		}
	}
	for key, s := range want {
		h, ok := k.held[key]
		if ok && h.state == trust.StateUnavailable {
			if s.State == trust.StateUnavailable {
				h.sawUnavailable = true
			} else if s.State == trust.StateLoading && h.sawUnavailable {
				// Served again by the operator: try again, keeping what
				// the file already holds (the failed load has ended).
				h.cancel()
				delete(k.held, key)
				ok = false
			}
		}
		if !ok && ctx.Err() == nil {
			h = k.start(ctx, key)
		}
		if h.state != s.State || (h.state == trust.StateUnavailable && h.reason != s.Reason) {
			rep.Slices = append(rep.Slices, p2p.SliceReport{Model: key.model, Manifest: key.manifest,
				First: key.first, Last: key.last, State: h.state, Reason: h.reason})
		}
	}
	k.mu.Unlock()
	if (len(rep.Slices) == 0 && k.announced) || v == nil || v.Coord == nil {
		return
	}
	rep.Memory, rep.Available, rep.PromptCache, rep.KVCache = k.memory, memAvailable(), promptCacheBudget(k.promptCache), k.kvCache
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := p2p.SendReport(rctx, k.ep.Host, v.Coord.Peer, rep); err != nil {
		if ctx.Err() == nil {
			k.log.Warn("slice states not reported; trying again", "err", err)
		}
		return
	}
	k.announced = true
}

// promptCacheBudget is what each slice's prompt cache may take, given as
// p2p.NodeConfig.PromptCacheBytes (0: the default; negative: none).
func promptCacheBudget(nodeBytes int64) int64 {
	switch {
	case nodeBytes == 0:
		return model.DefaultPromptCacheBytes
	case nodeBytes < 0:
		return 0
	}
	return nodeBytes
}

// memAvailable is MemAvailable of /proc/meminfo in bytes (0 when unknown).
func memAvailable() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// dropLocked drops a slice in the background (k.mu held).
func (k *keeper) dropLocked(key sliceKey, h *held) {
	done := make(chan struct{})
	prev := k.dropping[key]
	k.dropping[key] = done
	k.drops.Go(func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		k.drop(key, h)
		k.mu.Lock()
		if k.dropping[key] == done {
			delete(k.dropping, key)
		}
		k.mu.Unlock()
	})
}

// start begins loading a slice (k.mu held).
func (k *keeper) start(ctx context.Context, key sliceKey) *held {
	lctx, cancel := context.WithCancel(ctx)
	name := fmt.Sprintf("%s-%s-%d-%d", key.model, shortHash(key.manifest), key.first, key.last)
	if key.adapters != "" {
		// Another set of adapters is another slice, loaded while the old
		// one is dropped: its files must not be the same.
		sum := sha256.Sum256([]byte(key.adapters))
		name += "-a" + hex.EncodeToString(sum[:4])
	}
	h := &held{state: trust.StateLoading, cancel: cancel, done: make(chan struct{}),
		path: filepath.Join(k.dir, name+".gguf")}
	k.held[key] = h
	dropped := k.dropping[key]
	k.loads.Add(1)
	go func() {
		defer k.loads.Done()
		defer close(h.done)
		if dropped != nil {
			// The same slice is still being dropped (stopped and served
			// again): let it remove its file first.
			select {
			case <-dropped:
			case <-lctx.Done():
			}
		}
		t0 := time.Now()
		n, err := k.load(lctx, key, h.path)
		k.mu.Lock()
		cur := k.held[key] == h
		switch {
		case err != nil && lctx.Err() != nil:
			// Dropped or stopping: nothing to report.
		case err != nil:
			h.state, h.reason = trust.StateUnavailable, err.Error()
			k.log.Error("slice not served", "slice", key, "err", err)
		case !cur:
			// Dropped while it loaded.
			_ = n.Close()
		default:
			h.node, h.state = n, trust.StateServed
			k.log.Info("slice served", "slice", key, "took", time.Since(t0).Round(time.Millisecond))
		}
		k.mu.Unlock()
		k.poke()
	}()
	return h
}

// fetchAttempts bounds how often a slice's fetch is tried before the
// slice is reported unavailable; each attempt keeps what the previous ones
// checked (slice.Write), and they are spaced 1, 2, 4, 8 s apart.
const fetchAttempts = 5

// load fetches what is missing of a slice's file and starts its node. A
// fetch that fails (the coordinator restarting, a connection lost) is tried
// again; a slice that cannot be loaded is not.
func (k *keeper) load(ctx context.Context, key sliceKey, path string) (*p2p.Node, error) {
	var m *slice.Manifest
	var specs []p2p.AdapterSpec
	var err error
	for attempt := 1; ; attempt++ {
		if m, err = k.fetch(ctx, key, path); err == nil {
			specs, err = k.fetchAdapters(ctx, key, path)
		}
		if err == nil || attempt == fetchAttempts || ctx.Err() != nil {
			break
		}
		wait := time.Duration(1<<(attempt-1)) * time.Second
		k.log.Warn("slice fetch failed; trying again", "slice", key, "in", wait, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
	if err != nil {
		return nil, err
	}
	n, err := p2p.NewNode(ctx, p2p.NodeConfig{
		ModelPath: path, Name: key.model, First: key.first, Last: key.last,
		Endpoint: k.ep, Identity: &p2p.ModelIdentity{Header: m.Header, Samples: m.Samples},
		// New sessions stop once the licence grant the roster carries expires.
		Gate:             func() error { return k.t.View().GrantError(time.Now()) },
		Adapters:         specs,
		PromptCacheBytes: k.promptCache,
		CacheBytes:       p2p.SliceCacheBytes(m.Config(), key.last-key.first, k.kvCache),
		Logger:           k.log,
	})
	if errors.Is(err, p2p.ErrCacheTooSmall) {
		// p2p's error names the blocks, what the budget holds and needs.
		return nil, fmt.Errorf("kv_cache in agent.toml: %w; raise it or set it to auto, or serve the model over more machines so that each slice has fewer blocks", err)
	}
	if err != nil {
		return nil, fmt.Errorf("load blocks %d:%d: %w", key.first, key.last, err)
	}
	return n, nil
}

// fetch makes the slice's file complete and returns the model's manifest.
func (k *keeper) fetch(ctx context.Context, key sliceKey, path string) (*slice.Manifest, error) {
	v := k.t.View()
	if v == nil || v.Coord == nil {
		return nil, errors.New("no roster names the coordinator")
	}
	coord := v.Coord.Peer
	m, err := p2p.FetchManifest(ctx, k.ep.Host, coord, key.manifest)
	if err != nil {
		return nil, fmt.Errorf("fetch the model's manifest: %w", err)
	}
	need, err := m.Need(key.first, key.last)
	if err != nil {
		return nil, err
	}
	st, err := slice.Write(ctx, path, m, need, slice.DefaultParallel, p2p.SliceFetch(k.ep.Host, coord, key.manifest))
	if err != nil {
		return nil, fmt.Errorf("fetch blocks %d:%d: %w", key.first, key.last, err)
	}
	k.log.Info("slice file ready", "slice", key, "fetched_tensors", st.Fetched, "fetched_bytes", st.Bytes, "kept_tensors", st.Reused)
	return m, nil
}

// adapterPath is where the slice at path keeps its sparse copy of an
// adapter.
func adapterPath(path string, a trust.PlacedAdapter) string {
	return fmt.Sprintf("%s.%s-%s.gguf", strings.TrimSuffix(path, ".gguf"), a.Name, shortHash(a.Manifest))
}

// keyAdapters decodes a slice's adapters.
func keyAdapters(key sliceKey) ([]trust.PlacedAdapter, error) {
	if key.adapters == "" {
		return nil, nil
	}
	var as []trust.PlacedAdapter
	if err := json.Unmarshal([]byte(key.adapters), &as); err != nil {
		return nil, fmt.Errorf("adapters of the placement: %w", err)
	}
	return as, nil
}

// fetchAdapters makes the slice's adapter files complete: for each adapter
// placed with the model, only the pairs of the slice's blocks, each tensor
// checked against the adapter's manifest, whose hash and whole-file digest
// the signed roster carries.
func (k *keeper) fetchAdapters(ctx context.Context, key sliceKey, path string) ([]p2p.AdapterSpec, error) {
	as, err := keyAdapters(key)
	if err != nil || len(as) == 0 {
		return nil, err
	}
	v := k.t.View()
	if v == nil || v.Coord == nil {
		return nil, errors.New("no roster names the coordinator")
	}
	blocks := 0
	if p, ok := v.Placement(key.model); ok {
		blocks = p.Blocks
	}
	var specs []p2p.AdapterSpec
	for _, a := range as {
		am, err := p2p.FetchManifest(ctx, k.ep.Host, v.Coord.Peer, a.Manifest)
		if err != nil {
			return nil, fmt.Errorf("fetch adapter %s's manifest: %w", a.Name, err)
		}
		if am.Kind != slice.KindAdapter || am.Digest != a.Digest {
			return nil, fmt.Errorf("adapter %s: the manifest describes a %q of digest %s, the roster says an adapter of digest %s", a.Name, am.Kind, am.Digest, a.Digest)
		}
		need, err := am.NeedBlocks(key.first, key.last, blocks)
		if err != nil {
			return nil, fmt.Errorf("adapter %s: %w", a.Name, err)
		}
		ap := adapterPath(path, a)
		st, err := slice.Write(ctx, ap, am, need, slice.DefaultParallel, p2p.SliceFetch(k.ep.Host, v.Coord.Peer, a.Manifest))
		if err != nil {
			return nil, fmt.Errorf("fetch adapter %s for blocks %d:%d: %w", a.Name, key.first, key.last, err)
		}
		k.log.Info("adapter file ready", "slice", key, "adapter", a.Name, "fetched_tensors", st.Fetched, "fetched_bytes", st.Bytes, "kept_tensors", st.Reused)
		specs = append(specs, p2p.AdapterSpec{Name: a.Name, Path: ap, Digest: a.Digest})
	}
	return specs, nil
}

// drop stops a slice's load or node and removes its file: the machine
// holds only the slices placed on it.
func (k *keeper) drop(key sliceKey, h *held) {
	h.cancel()
	<-h.done
	k.mu.Lock()
	n := h.node
	h.node = nil
	k.mu.Unlock()
	if n != nil {
		if err := n.Close(); err != nil {
			k.log.Warn("close slice", "slice", key, "err", err)
		}
	}
	files := []string{h.path, h.path + ".partial"}
	as, _ := keyAdapters(key)
	for _, a := range as {
		files = append(files, adapterPath(h.path, a), adapterPath(h.path, a)+".partial")
	}
	for _, p := range files {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			k.log.Warn("remove slice file", "path", p, "err", err)
		}
	}
	k.log.Info("slice dropped", "slice", key)
}

// stopAll closes every node (the files stay for the next start).
func (k *keeper) stopAll() {
	k.mu.Lock()
	hs := k.held
	k.held = map[sliceKey]*held{}
	k.mu.Unlock()
	for _, h := range hs {
		h.cancel()
	}
	k.loads.Wait()
	k.drops.Wait()
	for key, h := range hs {
		if h.node != nil {
			if err := h.node.Close(); err != nil {
				k.log.Warn("close slice", "slice", key, "err", err)
			}
		}
	}
}

// shortHash is the first 12 hex digits of a "sha256:…" hash.
func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	return h
}

package coordinator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/models"
	"svc/coordinator/placement"
	"svc/coordinator/store"
	"svc/coordinator/trust"
	"svc/p2p"
	"svc/shards/model"
	"svc/shards/slice"
)

// Models (model serve, list, stop). A served model is a Placement in the
// store and the roster: its manifest hash, and the slices (block ranges)
// placed on machines, each with the state its machine reports over
// p2p.ReportProtocol. The machines fetch their slices' tensors from the
// coordinator's library over p2p.SliceProtocol, which answers a machine
// only for the tensors of the slices placed on it. Adapters given with
// --adapter are checked against the model, imported beside it and carried
// in the placement (trust.PlacedAdapter); a machine gets, of each, the
// manifest and the pairs of its own slices' blocks only.
//
// States (SPEC §3): a placement is loading until every block is held by a
// served slice, then served; when a machine is removed or reports that it
// could not load its slice, and no other copy covers those blocks, the
// placement becomes unavailable with the reason, and stays so (a machine
// coming back does not clear it) until the operator serves it again.

// ModelServeArgs are model serve's arguments.
type ModelServeArgs struct {
	Source   string `json:"source"`
	Name     string `json:"name,omitempty"`
	Replicas int    `json:"replicas,omitempty"`
	// Adapters are NAME=FILE: LoRA adapters placed with the model.
	Adapters []string `json:"adapters,omitempty"`
}

// ModelNameArgs name one model.
type ModelNameArgs struct {
	Name string `json:"name"`
}

// modelState is the daemon's model library, opened on first use (the
// models directory may not exist until an operator serves a model).
type modelState struct {
	mu  sync.Mutex
	lib *models.Library
	// available is the free memory each machine last reported, by peer
	// id: the capacity of a machine that enrolled without --memory.
	available map[string]uint64
}

// defaultMachineMemory is what a machine that reported no memory is
// taken to offer.
const defaultMachineMemory = 8 << 30

// scanInterval is how often the models directory is looked at for files
// dropped into it.
const scanInterval = 30 * time.Second

func (d *Daemon) registerModels() {
	d.Handle("model.serve", d.cmdModelServe)
	d.Handle("model.list", d.cmdModelList)
	d.Handle("model.stop", d.cmdModelStop)
}

// Library is the daemon's model library (the models directory).
func (d *Daemon) Library() (*models.Library, error) {
	d.models.mu.Lock()
	defer d.models.mu.Unlock()
	if d.models.lib != nil {
		return d.models.lib, nil
	}
	lib, err := models.Open(d.Cfg.ModelsDir, models.Options{Logger: d.Log})
	if err != nil {
		return nil, fmt.Errorf("%w (models_dir in coordinator.toml, or --models-dir)", err)
	}
	d.models.lib = lib
	return lib, nil
}

func (d *Daemon) cmdModelServe(ctx context.Context, c *Call) error {
	var a ModelServeArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	if a.Source == "" {
		return errors.New("model serve needs FILE, NAME, hf:OWNER/REPO/FILE or an https:// URL")
	}
	if a.Replicas < 0 {
		return fmt.Errorf("--replicas %d: at least 1", a.Replicas)
	}
	if a.Replicas == 0 {
		a.Replicas = max(d.Cfg.Pool.Replicas, 1)
	}
	lib, err := d.Library()
	if err != nil {
		return err
	}
	e, err := lib.Import(ctx, a.Source, a.Name)
	if err != nil {
		return err
	}
	c.Target(e.Name)
	man := e.Manifest
	adapters, adapterEntries, err := d.importAdapters(ctx, lib, e, a.Adapters)
	if err != nil {
		return err
	}
	machines, members, err := d.placementMachines(e.Name, man.Config())
	if err != nil {
		return err
	}
	cost := func(f, l int) uint64 {
		n, _ := man.RangeBytes(f, l)
		for _, ae := range adapterEntries {
			ts, _ := ae.Manifest.NeedBlocks(f, l, man.Blocks())
			n += slice.Bytes(ts)
		}
		return n
	}
	ranges, err := placement.Place(placement.Model{Blocks: man.Blocks(), Cost: cost}, machines, a.Replicas)
	if err != nil {
		return fmt.Errorf("model %s (%d MiB): %w; %s", e.Name, man.Size>>20, err, fitAdvice(machines, members, man.Config()))
	}
	// A slice whose KV cache cannot hold one session of the whole context
	// would be refused by its agent: say so now, naming the setting.
	for _, r := range ranges {
		m := members[r.Machine]
		if need := p2p.ContextCacheBytes(man.Config(), r.Last-r.First); m.KVCache > 0 && m.KVCache < need {
			return fmt.Errorf("model %s: blocks %d:%d would go to %s, whose kv_cache (%s a slice) holds less than one session of the model's context of %d positions there (at least %s); raise kv_cache in %s's agent.toml or set it to auto, or add machines so that each holds fewer blocks",
				e.Name, r.First, r.Last, m.Label, p2p.SizeText(m.KVCache), man.Config().Context, p2p.SizeText(p2p.RoundUpMiB(need)), m.Label)
		}
	}
	p := Placement{Name: e.Name, Digest: man.Digest, Blocks: man.Blocks(), Manifest: e.Hash, Replicas: a.Replicas, State: trust.StateLoading}
	if err := p.SetAdapters(adapters); err != nil {
		return err
	}
	var desc []string
	for _, r := range ranges {
		label := members[r.Machine].Label
		p.Slices = append(p.Slices, trust.Slice{Peer: r.Machine, Label: label, First: r.First, Last: r.Last, State: trust.StateLoading})
		desc = append(desc, fmt.Sprintf("%s[%d:%d]", label, r.First, r.Last))
	}
	err = c.Commit(func(tx *bolt.Tx) error {
		if lic, _ := d.Licence(); lic != nil && lic.Models > 0 {
			n := 0
			if err := store.Each(tx, store.Placements, func(name string, _ Placement) error {
				if name != e.Name {
					n++
				}
				return nil
			}); err != nil {
				return err
			}
			if n >= lic.Models {
				return fmt.Errorf("the licence allows %d served models and %d are served (model stop one, or install a licence that allows more)", lic.Models, n)
			}
		}
		return store.Put(tx, store.Placements, e.Name, p)
	}, audit.Record{Kind: "model.serve", Detail: fmt.Sprintf("digest %s, manifest %s, %d blocks: %s%s", man.Digest, e.Hash, man.Blocks(), strings.Join(desc, " "), adapterDetail(adapters))})
	if err != nil {
		return err
	}
	c.Printf("model %s: %d blocks (%d MiB) placed on %s; loading (model list says when it is served)\n",
		e.Name, man.Blocks(), man.Size>>20, strings.Join(desc, " "))
	return nil
}

// importAdapters checks and imports the NAME=FILE adapters of a model
// serve and returns them as the placement lists them, with their entries.
func (d *Daemon) importAdapters(ctx context.Context, lib *models.Library, base *models.Entry, specs []string) ([]trust.PlacedAdapter, []*models.Entry, error) {
	var out []trust.PlacedAdapter
	var es []*models.Entry
	seen := map[string]bool{}
	for _, sp := range specs {
		name, file, ok := strings.Cut(sp, "=")
		if !ok || file == "" {
			return nil, nil, fmt.Errorf("--adapter %q: want NAME=FILE", sp)
		}
		if err := p2p.CheckAdapterName(name); err != nil {
			return nil, nil, fmt.Errorf("--adapter %s: %w", sp, err)
		}
		if seen[name] {
			return nil, nil, fmt.Errorf("--adapter %s: adapter %s given twice", sp, name)
		}
		seen[name] = true
		ae, err := lib.ImportAdapter(ctx, base, name, file)
		if err != nil {
			return nil, nil, fmt.Errorf("--adapter %s: %w", sp, err)
		}
		out = append(out, trust.PlacedAdapter{Name: name, Digest: ae.Manifest.Digest, Manifest: ae.Hash})
		es = append(es, ae)
	}
	return out, es, nil
}

// adapterDetail describes a placement's adapters for the audit trail.
func adapterDetail(as []trust.PlacedAdapter) string {
	var s string
	for _, a := range as {
		s += fmt.Sprintf("; adapter %s digest %s manifest %s", a.Name, a.Digest, a.Manifest)
	}
	return s
}

// fitAdvice tells the operator what to change when a model (config c)
// does not fit the machines: what placement counted with every slice (the
// machines' caches; with kv_cache auto, from a slice of one block to one
// of all the model's blocks), so that they know what they may lower.
func fitAdvice(machines []placement.Machine, members map[string]MemberRecord, c model.Config) string {
	var caches []string
	for _, mc := range machines {
		m, ok := members[mc.ID]
		if !ok {
			continue
		}
		pc := "off"
		if m.PromptCache > 0 {
			pc = p2p.SizeText(m.PromptCache)
		}
		one, all := m.SliceCaches(c, 1), m.SliceCaches(c, c.Blocks)
		switch {
		case all == 0:
		case m.KVCache > 0:
			caches = append(caches, fmt.Sprintf("%s %s (prompt_cache %s, kv_cache %s)", m.Label, mib(all), pc, m.KVCacheText()))
		case one == all:
			caches = append(caches, fmt.Sprintf("%s %s (prompt_cache %s, kv_cache auto: %s, more than one session of the model's context of %d positions takes)",
				m.Label, mib(all), pc, p2p.SizeText(p2p.DefaultCacheBytes), c.Context))
		default:
			caches = append(caches, fmt.Sprintf("%s %d to %s by blocks (prompt_cache %s, kv_cache auto: %s, or one session of the model's context of %d positions at %s a block where that is more)",
				m.Label, mibs(one), mib(all), pc, p2p.SizeText(p2p.DefaultCacheBytes), c.Context, p2p.SizeText(p2p.ContextCacheBytes(c, 1))))
		}
	}
	if len(caches) == 0 {
		return "add a machine or free memory (model stop)"
	}
	return "every slice was counted with its machine's caches: " + strings.Join(caches, ", ") +
		"; add a machine, free memory (model stop), or lower prompt_cache or kv_cache in the machines' agent.toml"
}

// placementMachines lists the online machines with the memory they have
// left for a placement of model name, of config c (what they reported,
// less the slices of the other models placed on them, each with its
// caches) and what each slice's caches (prompt and KV) take there, as a
// cost of its range, and their records by peer id.
func (d *Daemon) placementMachines(name string, c model.Config) ([]placement.Machine, map[string]MemberRecord, error) {
	var ms []MemberRecord
	var ps []Placement
	if err := d.st.View(func(tx *bolt.Tx) error {
		if err := store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
			if m.Role == ca.RoleMachine && m.Removed.IsZero() {
				ms = append(ms, m)
			}
			return nil
		}); err != nil {
			return err
		}
		return store.Each(tx, store.Placements, func(_ string, p Placement) error {
			if p.Name != name {
				ps = append(ps, p)
			}
			return nil
		})
	}); err != nil {
		return nil, nil, err
	}
	// Each slice takes its bytes and its node's prompt and KV caches, the
	// latter, with kv_cache auto, sized to its blocks of its model.
	byPeer := map[string]MemberRecord{}
	for _, m := range ms {
		byPeer[m.Peer] = m
	}
	used := map[string]uint64{}
	if lib, err := d.Library(); err == nil {
		for _, p := range ps {
			e, ok := lib.ByHash(p.Manifest)
			if !ok {
				continue
			}
			for _, s := range p.Slices {
				n, _ := e.Manifest.RangeBytes(s.First, s.Last)
				used[s.Peer] += n + byPeer[s.Peer].SliceCaches(e.Manifest.Config(), s.Last-s.First)
			}
		}
	}
	reserve, err := placement.ParseBytes(d.Cfg.Pool.MemoryReserve)
	if err != nil {
		return nil, nil, fmt.Errorf("pool.memory_reserve: %w", err)
	}
	online := d.onlinePeers()
	members := map[string]MemberRecord{}
	var out []placement.Machine
	for _, m := range ms {
		if !slices.Contains(online, m.Peer) {
			continue
		}
		mem := uint64(defaultMachineMemory)
		d.models.mu.Lock()
		if a := d.models.available[m.Peer]; a > 0 {
			mem = a
		}
		d.models.mu.Unlock()
		if m.Memory > 0 {
			mem = uint64(m.Memory)
		}
		mem = sub(sub(mem, reserve), used[m.Peer])
		members[m.Peer] = m
		out = append(out, m.placementMachine(mem, c))
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no machine is online to hold the model (svc-coordinator node list; start svc-node-agent run on an enrolled machine)")
	}
	return out, members, nil
}

// placementMachine is the machine as placement sees it for a model of
// config c: mem bytes free, and every range counted with its slice's
// caches (SliceCaches of the range's blocks).
func (m MemberRecord) placementMachine(mem uint64, c model.Config) placement.Machine {
	return placement.Machine{ID: m.Peer, Memory: mem, RangeCost: func(f, l int) uint64 { return m.SliceCaches(c, l-f) }}
}

func sub(a, b uint64) uint64 {
	if b >= a {
		return 0
	}
	return a - b
}

func (d *Daemon) cmdModelList(_ context.Context, c *Call) error {
	var ps []Placement
	if err := d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Placements, func(_ string, p Placement) error {
			ps = append(ps, p)
			return nil
		})
	}); err != nil {
		return err
	}
	placed := map[string]bool{}
	w := tabwriter.NewWriter(&c.text, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSTATE\tBLOCKS\tSLICES\tREASON")
	for _, p := range ps {
		placed[p.Name] = true
		var sl []string
		for _, s := range p.Slices {
			sl = append(sl, fmt.Sprintf("%s[%d:%d]=%s", s.Label, s.First, s.Last, s.State))
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\n", p.Name, p.State, p.Blocks, strings.Join(sl, " "), dash(p.Reason))
		// Each adapter is served as MODEL-ADAPTER, with its model's slices
		// and state.
		for _, a := range p.Adapters() {
			fmt.Fprintf(w, "%s-%s\t%s\t%d\t%s\t%s\n", p.Name, a.Name, p.State, p.Blocks, "adapter on "+p.Name+"'s slices", dash(p.Reason))
		}
	}
	// Models of the library that are not served: files dropped into the
	// models directory are imported here (their manifests built) too.
	if lib, err := d.Library(); err == nil {
		es, errs := lib.Scan()
		for _, e := range es {
			if !placed[e.Name] {
				fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\n", e.Name, "available", e.Manifest.Blocks(), "-", "not served (model serve "+e.Name+")")
			}
		}
		for _, err := range errs {
			fmt.Fprintf(w, "-\tunusable\t-\t-\t%v\n", err)
		}
	}
	return w.Flush()
}

func (d *Daemon) cmdModelStop(_ context.Context, c *Call) error {
	var a ModelNameArgs
	if err := c.Args(&a); err != nil {
		return err
	}
	c.Target(a.Name)
	err := c.Commit(func(tx *bolt.Tx) error {
		ok, err := store.Get(tx, store.Placements, a.Name, &Placement{})
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("model %s is not served (model list shows what is)", a.Name)
		}
		return store.Delete(tx, store.Placements, a.Name)
	}, audit.Record{Kind: "model.stop"})
	if err != nil {
		return err
	}
	c.Printf("model %s stopped: its machines drop their slices at the next roster\n", a.Name)
	return nil
}

// authorizeSlice lets machine p have tensor (an empty name: the manifest)
// of the model whose manifest hashes to hash only when a placement puts a
// slice that needs it on p.
func (d *Daemon) authorizeSlice(p peer.ID, hash, tensor string) error {
	var ps []Placement
	_ = d.st.View(func(tx *bolt.Tx) error {
		return store.Each(tx, store.Placements, func(_ string, pl Placement) error {
			if pl.Manifest == hash || slices.ContainsFunc(pl.Adapters(), func(a trust.PlacedAdapter) bool { return a.Manifest == hash }) {
				ps = append(ps, pl)
			}
			return nil
		})
	})
	lib, err := d.Library()
	if err != nil {
		return errors.New("no model library")
	}
	e, ok := lib.ByHash(hash)
	for _, pl := range ps {
		for _, s := range pl.Slices {
			if s.Peer != p.String() {
				continue
			}
			if tensor == "" {
				return nil
			}
			if !ok {
				continue
			}
			var need []slice.Tensor
			var err error
			if pl.Manifest == hash {
				need, err = e.Manifest.Need(s.First, s.Last)
			} else {
				// An adapter's pairs of the slice's blocks.
				need, err = e.Manifest.NeedBlocks(s.First, s.Last, pl.Blocks)
			}
			if err != nil {
				continue
			}
			for _, t := range need {
				if t.Name == tensor {
					return nil
				}
			}
		}
	}
	if tensor == "" {
		return fmt.Errorf("no slice of model %s is placed on %s", hash, p)
	}
	return fmt.Errorf("tensor %s is not in the slices placed on %s", tensor, p)
}

// startModels serves the library's slices and the machines' reports on the
// swarm host, and imports files dropped into the models directory, until
// the returned stop.
func (d *Daemon) startModels(ctx context.Context, ep *p2p.Endpoint) (stop func(), err error) {
	lib, err := d.Library()
	if err != nil {
		// Serving models needs the directory; everything else runs.
		d.Log.Warn("models directory unusable; model serve will fail", "dir", d.Cfg.ModelsDir, "err", err)
		return func() {}, nil
	}
	srv, err := p2p.ServeSlices(ep.Host, lib.Source(d.authorizeSlice, d.Log))
	if err != nil {
		return nil, err
	}
	stopReports, err := p2p.ServeReports(ep.Host, d.handleReport, d.Log)
	if err != nil {
		srv.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(scanInterval)
		defer t.Stop()
		for {
			if _, errs := lib.Scan(); len(errs) > 0 {
				d.Log.Debug("models directory", "unusable", errs)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	})
	return func() {
		cancel()
		wg.Wait()
		stopReports()
		srv.Close()
		_ = lib.Close()
	}, nil
}

// handleReport folds a machine's report into the placements.
func (d *Daemon) handleReport(_ context.Context, from peer.ID, r *p2p.Report) error {
	var label string
	var recs []audit.Record
	err := d.st.Update(func(tx *bolt.Tx) error {
		if err := store.Each(tx, store.Members, func(_ string, m MemberRecord) error {
			if m.Peer == from.String() && m.Removed.IsZero() && m.Role == ca.RoleMachine {
				label = m.Label
			}
			return nil
		}); err != nil {
			return err
		}
		if label == "" {
			return &p2p.Refusal{Code: "not_permitted", Message: "reports come from enrolled machines"}
		}
		// The machine's configuration says what it gives to slices and
		// to each slice's prompt cache and KV cache (an older agent
		// reports no KV cache: 0, its nodes' default, unplanned).
		var m MemberRecord
		ok, err := store.Get(tx, store.Members, label, &m)
		if err != nil {
			return err
		}
		pc, kv := max(r.PromptCache, 0), max(r.KVCache, 0)
		if ok && ((r.Memory > 0 && m.Memory != r.Memory) || m.PromptCache != pc || m.KVCache != kv) {
			if r.Memory > 0 {
				m.Memory = r.Memory
			}
			m.PromptCache, m.KVCache = pc, kv
			if err := store.Put(tx, store.Members, label, m); err != nil {
				return err
			}
		}
		if r.Available > 0 {
			d.models.mu.Lock()
			if d.models.available == nil {
				d.models.available = map[string]uint64{}
			}
			d.models.available[from.String()] = uint64(r.Available)
			d.models.mu.Unlock()
		}
		recs = recs[:0]
		for _, sr := range r.Slices {
			var p Placement
			ok, err := store.Get(tx, store.Placements, sr.Model, &p)
			if err != nil {
				return err
			}
			if !ok || p.Manifest != sr.Manifest {
				continue // stopped or served again since: the roster says so
			}
			changed := false
			for i := range p.Slices {
				s := &p.Slices[i]
				if s.Peer != from.String() || s.First != sr.First || s.Last != sr.Last {
					continue
				}
				if s.State == sr.State && s.Reason == sr.Reason {
					continue
				}
				switch sr.State {
				case trust.StateLoading, trust.StateServed, trust.StateUnavailable:
				default:
					return &p2p.Refusal{Code: "bad_request", Message: fmt.Sprintf("slice state %q", sr.State)}
				}
				s.State, s.Reason = sr.State, sr.Reason
				changed = true
				kind := "slice." + sr.State
				outcome := audit.OK
				if sr.State == trust.StateUnavailable {
					outcome = audit.Failed
				}
				recs = append(recs, audit.Record{Actor: "machine:" + label, Kind: kind, Target: p.Name, Outcome: outcome,
					Detail: strings.TrimSpace(fmt.Sprintf("blocks %d:%d on %s %s", s.First, s.Last, label, sr.Reason))})
			}
			if !changed {
				continue
			}
			before := p.State
			foldState(&p)
			if p.State != before {
				recs = append(recs, audit.Record{Actor: "coordinator", Kind: "model." + p.State, Target: p.Name, Outcome: audit.OK, Detail: p.Reason})
			}
			if err := store.Put(tx, store.Placements, p.Name, p); err != nil {
				return err
			}
		}
		for _, rec := range recs {
			if _, err := audit.Append(tx, rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(recs) > 0 {
		d.changed()
	}
	return nil
}

// foldState derives a placement's state from its slices': served when
// every block is held by a served slice; unavailable (sticky) when some
// block is held by no slice that is not unavailable; loading otherwise.
func foldState(p *Placement) {
	if p.State == trust.StateUnavailable {
		return
	}
	served := make([]int, p.Blocks)
	alive := make([]int, p.Blocks)
	for _, s := range p.Slices {
		for b := max(s.First, 0); b < min(s.Last, p.Blocks); b++ {
			if s.State == trust.StateServed {
				served[b]++
			}
			if s.State != trust.StateUnavailable {
				alive[b]++
			}
		}
	}
	if slices.Contains(alive, 0) {
		var why []string
		for _, s := range p.Slices {
			if s.State == trust.StateUnavailable {
				why = append(why, fmt.Sprintf("machine %s could not serve blocks %d:%d: %s", s.Label, s.First, s.Last, s.Reason))
			}
		}
		slices.SortFunc(why, cmp.Compare)
		p.State, p.Reason = trust.StateUnavailable, strings.Join(why, "; ")
		return
	}
	if !slices.Contains(served, 0) {
		p.State, p.Reason = trust.StateServed, ""
		return
	}
	p.State = trust.StateLoading
}

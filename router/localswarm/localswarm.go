package localswarm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"svc/p2p"
	"svc/router"
	"svc/shards/model"
)

// Model is one model of the swarm.
type Model struct {
	// Path is the GGUF file, unless Model is set.
	Path string
	// Model is an already opened model; the swarm does not close it.
	Model *model.Model
	// Name requests use (default: the file name without .gguf, else the
	// name in the model's metadata).
	Name string
	// Nodes is how many nodes share its blocks evenly (default 1; fewer
	// when the model has fewer blocks).
	Nodes int
	// Ranges, when set, are the blocks [First, Last) of each node instead.
	Ranges [][2]int
	// Adapters are LoRA adapters every node of the model serves (each its
	// blocks' pairs); requests name them "<model>-<adapter>".
	Adapters []p2p.AdapterSpec
}

// Config configures a swarm. Only Models or Bootstrap is required.
type Config struct {
	Models []Model
	// Bootstrap names members of a swarm to join; the in-process nodes and
	// the router join it too.
	Bootstrap []string
	// Threads of each node's worker pool (0: one per CPU).
	Threads int
	// PromptCacheBytes bounds each node's prompt cache
	// (p2p.NodeConfig.PromptCacheBytes: 0 the default, negative none).
	PromptCacheBytes int64
	// RefreshInterval of the router's view (0: the router's default).
	RefreshInterval time.Duration
	// Logger gets the swarm's own lines (a model loading, a node online)
	// and the router's; NodeLogger the nodes' (default: neither logs).
	Logger, NodeLogger *slog.Logger
}

// Swarm is a running in-process swarm.
type Swarm struct {
	rt     *router.Router
	nodes  []*p2p.Node
	opened []*model.Model
	names  []string
	boot   []string
}

// Start opens the models, starts their nodes and the router. On error
// everything it started is stopped again.
func Start(ctx context.Context, cfg Config) (_ *Swarm, err error) {
	if len(cfg.Models) == 0 && len(cfg.Bootstrap) == 0 {
		return nil, errors.New("localswarm: no model to serve and no swarm to join")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.NodeLogger == nil {
		cfg.NodeLogger = slog.New(slog.DiscardHandler)
	}
	s := &Swarm{boot: slices.Clone(cfg.Bootstrap)}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Close())
		}
	}()
	for _, spec := range cfg.Models {
		if err := s.startModel(ctx, cfg, spec); err != nil {
			return nil, err
		}
	}
	s.rt, err = router.New(ctx, router.Config{
		Bootstrap:       s.boot,
		RefreshInterval: cfg.RefreshInterval,
		Logger:          cfg.Logger.With("component", "router"),
	})
	if err != nil {
		return nil, fmt.Errorf("localswarm: router: %w", err)
	}
	return s, nil
}

// startModel opens one model and starts its nodes. Every node after the
// swarm's first bootstraps from it, so that all form one swarm.
func (s *Swarm) startModel(ctx context.Context, cfg Config, spec Model) error {
	m := spec.Model
	if m == nil {
		var err error
		if m, err = model.Open(spec.Path, model.Options{}); err != nil {
			return fmt.Errorf("localswarm: %s: %w", spec.Path, err)
		}
		s.opened = append(s.opened, m)
	}
	name := spec.Name
	if name == "" && spec.Path != "" {
		name = strings.TrimSuffix(filepath.Base(spec.Path), ".gguf")
	}
	if name == "" {
		name = m.Name()
	}
	ranges := spec.Ranges
	if len(ranges) == 0 {
		blocks := m.Config().Blocks
		var err error
		if ranges, err = model.EvenSplit(blocks, min(max(spec.Nodes, 1), blocks)); err != nil {
			return fmt.Errorf("localswarm: %s: %w", name, err)
		}
	}
	cfg.Logger.Info("loading model", "model", name, "file", spec.Path, "blocks", m.Config().Blocks, "nodes", len(ranges))
	for _, r := range ranges {
		n, err := p2p.NewNode(ctx, p2p.NodeConfig{
			Model: m, Name: name, First: r[0], Last: r[1],
			Listen:           []string{"/ip4/127.0.0.1/tcp/0"},
			Bootstrap:        s.boot,
			Threads:          cfg.Threads,
			PromptCacheBytes: cfg.PromptCacheBytes,
			Adapters:         spec.Adapters,
			Logger:           cfg.NodeLogger.With("node", fmt.Sprintf("%s[%d:%d]", name, r[0], r[1])),
		})
		if err != nil {
			return fmt.Errorf("localswarm: node for blocks [%d,%d) of %s: %w", r[0], r[1], name, err)
		}
		s.nodes = append(s.nodes, n)
		if len(s.nodes) == 1 {
			s.boot = append(s.boot, n.Addrs()...)
		}
		cfg.Logger.Info("node online", "model", name, "blocks", fmt.Sprintf("%d:%d", r[0], r[1]), "addrs", strings.Join(n.Addrs(), " "))
	}
	s.names = append(s.names, name)
	return nil
}

// Router is the swarm's router.
func (s *Swarm) Router() *router.Router { return s.rt }

// Names are the names of the in-process models, in the order of Config.Models.
func (s *Swarm) Names() []string { return slices.Clone(s.names) }

// Bootstrap is what joins this swarm: Config.Bootstrap and the first
// in-process node's addresses.
func (s *Swarm) Bootstrap() []string { return slices.Clone(s.boot) }

// WaitServed refreshes the router's view until every named model (default:
// every in-process model) is served, or ctx ends.
func (s *Swarm) WaitServed(ctx context.Context, names ...string) error {
	if len(names) == 0 {
		names = s.names
	}
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		// A failed refresh keeps the last view; the next tick tries again.
		_ = s.rt.Refresh(ctx)
		missing := notServed(s.rt.Models(ctx), names)
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localswarm: %s not served yet: %w", strings.Join(missing, ", "), context.Cause(ctx))
		case <-t.C:
		}
	}
}

func notServed(view []router.ModelStatus, names []string) []string {
	var missing []string
	for _, name := range names {
		if !slices.ContainsFunc(view, func(st router.ModelStatus) bool {
			return st.Name == name && st.State == router.StateServed
		}) {
			missing = append(missing, name)
		}
	}
	return missing
}

// Close stops the router, then the nodes (their announcements are
// withdrawn), then closes the models the swarm opened.
func (s *Swarm) Close() error {
	var err error
	if s.rt != nil {
		err = errors.Join(err, s.rt.Close())
	}
	for i := len(s.nodes) - 1; i >= 0; i-- {
		err = errors.Join(err, s.nodes[i].Close())
	}
	for _, m := range s.opened {
		err = errors.Join(err, m.Close())
	}
	s.rt, s.nodes, s.opened = nil, nil, nil // a second Close does nothing
	return err
}

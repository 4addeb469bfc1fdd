package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/p2p"
	"svc/router"
	"svc/server"
	"svc/shards/model"
)

// newServeCmd is "svc serve": the local variant's API over a swarm, either
// one it starts in this process (--model) or one it joins (--bootstrap).
func newServeCmd() *cobra.Command {
	var (
		models    []string
		nodes     int
		listen    string
		bootstrap []string
		threads   int
		waitFor   time.Duration
		dflt      string
	)
	cmd := &cobra.Command{
		Use:   "serve [--model FILE…] [--nodes N] [--listen HOST:PORT] [--bootstrap MULTIADDR…]",
		Short: "Serve the OpenAI-compatible API over a swarm of nodes",
		Long: `Serve the OpenAI-compatible /v1 API (GET /v1/models, POST /v1/chat/completions,
POST /v1/completions, GET /metrics) of the local variant.

With --model, every model file is served by --nodes nodes started in this
process, each a libp2p host on loopback holding an even share of the model's
blocks (fewer nodes when the model has fewer blocks); the first --model is the
default for requests that name no model. With --bootstrap, the server joins an
existing swarm and serves every model the swarm holds in full. Both may be
combined. The API has no authentication; any API key works.

Stop with SIGINT or SIGTERM: running requests get a grace period, then every
session is closed and the nodes leave the swarm.`,
		Example: `  svc serve --model ../shared/models/stories260K.gguf
  svc serve --bootstrap /ip4/127.0.0.1/tcp/4001/p2p/12D3KooW... --listen 127.0.0.1:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(models) == 0 && len(bootstrap) == 0 {
				return cli.Usagef("serve: give --model FILE (a swarm in this process) or --bootstrap MULTIADDR (an existing swarm)")
			}
			if nodes < 1 {
				return cli.Usagef("serve: --nodes must be at least 1, got %d", nodes)
			}
			if threads < 0 {
				return cli.Usagef("serve: --threads must not be negative, got %d", threads)
			}
			for _, m := range models {
				if _, err := os.Stat(m); err != nil {
					return fmt.Errorf("serve: --model: %w", err)
				}
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))
			return runServe(cmd.Context(), serveOptions{
				models: models, nodes: nodes, listen: listen, bootstrap: bootstrap,
				threads: threads, waitFor: waitFor, log: log, logOut: cmd.ErrOrStderr(), defaultModel: dflt,
			})
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&models, "model", nil, "GGUF model file to serve with in-process nodes (repeatable; the first is the default model)")
	f.IntVar(&nodes, "nodes", 3, "in-process nodes per --model (fewer if the model has fewer blocks)")
	f.StringVar(&listen, "listen", "127.0.0.1:8080", "HTTP address of the API")
	f.StringArrayVar(&bootstrap, "bootstrap", nil, "multiaddr of a swarm peer to join (repeatable)")
	f.IntVar(&threads, "threads", 0, "compute threads per in-process node (0: one per CPU)")
	f.StringVar(&dflt, "default-model", "", "model for requests that name none (default: the first --model; none with only --bootstrap)")
	f.DurationVar(&waitFor, "wait", 2*time.Minute, "how long to wait for each --model to become servable before giving up")
	return cmd
}

type serveOptions struct {
	models    []string
	nodes     int
	listen    string
	bootstrap []string
	threads   int
	waitFor   time.Duration
	log       *slog.Logger
	logOut    io.Writer
	// defaultModel overrides the first --model as the default.
	defaultModel string
}

func runServe(ctx context.Context, o serveOptions) (err error) {
	var closers []func() error
	defer func() {
		// Stop in reverse order: API first (done by then), router, nodes.
		for i := len(closers) - 1; i >= 0; i-- {
			err = errors.Join(err, closers[i]())
		}
	}()

	// In-process nodes, model by model. Every node after the first
	// bootstraps from the first, so they form one swarm.
	boot := append([]string(nil), o.bootstrap...)
	nodeLog := slog.New(slog.NewTextHandler(o.logOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	defaultModel := ""
	var names []string
	for mi, path := range o.models {
		m, err := model.Open(path, model.Options{})
		if err != nil {
			return fmt.Errorf("serve: --model %s: %w", path, err)
		}
		closers = append(closers, m.Close)
		blocks := m.Config().Blocks
		k := min(o.nodes, blocks)
		ranges, err := model.EvenSplit(blocks, k)
		if err != nil {
			return fmt.Errorf("serve: --model %s: %w", path, err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".gguf")
		o.log.Info("loading model", "model", name, "file", path, "blocks", blocks, "nodes", k)
		bar := progressbar.NewOptions(k,
			progressbar.OptionSetWriter(o.logOut),
			progressbar.OptionSetVisibility(isTerminal(o.logOut)),
			progressbar.OptionSetDescription(fmt.Sprintf("%s: nodes online", name)),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
		)
		for _, r := range ranges {
			n, err := p2p.NewNode(ctx, p2p.NodeConfig{
				Model: m, Name: name, First: r[0], Last: r[1],
				Listen:    []string{"/ip4/127.0.0.1/tcp/0"},
				Bootstrap: boot,
				Threads:   o.threads,
				// The node's own lines repeat this command's; keep its warnings.
				Logger: nodeLog.With("node", fmt.Sprintf("%s[%d:%d]", name, r[0], r[1])),
			})
			if err != nil {
				_ = bar.Exit()
				return fmt.Errorf("serve: node for blocks [%d,%d) of %s: %w", r[0], r[1], name, err)
			}
			closers = append(closers, n.Close)
			if len(boot) == len(o.bootstrap) {
				boot = append(boot, n.Addrs()...)
			}
			_ = bar.Clear()
			o.log.Info("node online", "model", name, "blocks", fmt.Sprintf("%d:%d", r[0], r[1]), "addrs", strings.Join(n.Addrs(), " "))
			_ = bar.Add(1)
		}
		_ = bar.Finish()
		_ = bar.Clear()
		if mi == 0 {
			defaultModel = name
		}
		names = append(names, name)
	}

	if o.defaultModel != "" {
		defaultModel = o.defaultModel
	}
	rt, closeRouter, err := newServeRouter(ctx, boot, o.log)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	closers = append(closers, closeRouter)

	// Wait until the router sees every in-process model in full, so that
	// the first request does not race the announcements.
	for _, name := range names {
		if err := waitServed(ctx, rt, name, o.waitFor); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}

	// /metrics shows the API's own metrics and the router's (generations,
	// failovers, hop latency, sessions open); in-process nodes are counted
	// by the router's view, and a separate `svc node` has its own --metrics.
	apiReg := prometheus.NewRegistry()
	apiReg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	srv, err := server.New(server.Config{Backend: rt, DefaultModel: defaultModel, Logger: o.log,
		Registerer: apiReg, Gatherer: prometheus.Gatherers{apiReg, rt.Registry()}})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.listen)
	if err != nil {
		return fmt.Errorf("serve: --listen %s: %w", o.listen, err)
	}
	served := []string{}
	for _, st := range rt.Models(ctx) {
		if st.State == router.StateServed {
			served = append(served, st.Name)
		}
	}
	o.log.Info("API listening", "url", "http://"+ln.Addr().String()+"/v1", "default_model", defaultModel,
		"served", strings.Join(served, ","), "swarm", strings.Join(boot, " "))
	// Say when models become servable or stop being so.
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		logModelChanges(watchCtx, rt, o.log)
	}()
	err = srv.Serve(ctx, ln)
	stopWatch()
	<-watched
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	o.log.Info("API stopped")
	return nil
}

// logModelChanges logs every change of a model's state in the swarm view
// until ctx ends.
func logModelChanges(ctx context.Context, rt router.Backend, log *slog.Logger) {
	last := map[string]router.State{}
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		seen := map[string]bool{}
		for _, st := range rt.Models(ctx) {
			seen[st.Name] = true
			if last[st.Name] != st.State {
				log.Info("model state", "model", st.Name, "state", string(st.State), "blocks", st.Blocks, "digest", st.Digest)
				last[st.Name] = st.State
			}
		}
		for name := range last {
			if !seen[name] {
				log.Info("model state", "model", name, "state", "gone")
				delete(last, name)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// waitServed refreshes the swarm view until name is served.
func waitServed(ctx context.Context, rt *router.Router, name string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		if err := rt.Refresh(ctx); err != nil && ctx.Err() == nil {
			// A failed refresh is retried; the view keeps its last state.
			_ = err
		}
		for _, st := range rt.Models(ctx) {
			if st.Name == name && st.State == router.StateServed {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("model %s not servable after %s: %w", name, limit, ctx.Err())
		case <-t.C:
		}
	}
}

// newServeRouter joins the swarm through boot and keeps its view.
func newServeRouter(ctx context.Context, boot []string, log *slog.Logger) (*router.Router, func() error, error) {
	rt, err := router.New(ctx, router.Config{
		Bootstrap: boot,
		Logger:    log.With("component", "router"),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("router: %w", err)
	}
	return rt, rt.Close, nil
}

// isTerminal reports whether w is a terminal: the progress bar redraws its
// line, which only makes sense there (logs to a file get the log lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

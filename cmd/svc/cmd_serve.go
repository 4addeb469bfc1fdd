package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator/placement"
	"svc/p2p"
	"svc/router"
	"svc/router/localswarm"
	"svc/server"
	"svc/shards/demo"
	"svc/shards/modelref"
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
		adapters  []string
		prompt    string
	)
	cmd := &cobra.Command{
		Use:   "serve [--model FILE…] [--nodes N] [--listen HOST:PORT] [--bootstrap MULTIADDR…]",
		Short: "Serve the OpenAI-compatible API over a swarm of nodes",
		Long: `Serve the OpenAI-compatible /v1 API (GET /v1/models, POST /v1/chat/completions,
POST /v1/completions, GET /metrics) of the local variant.

With neither --model nor --bootstrap, it serves the built-in demo model,
stories260K-demo (a 260K-parameter model that tells children's stories), so
that the API can be tried at once.

With --model, every model file (or reference: hf:OWNER/REPO/FILE.gguf[@REV]
or https://…/FILE.gguf, fetched once into $SVC_MODELS) is served by --nodes
nodes started in this process, each a libp2p host on loopback holding an even share of the model's
blocks (fewer nodes when the model has fewer blocks); the first --model is the
default for requests that name no model. --adapter NAME=FILE serves a LoRA
adapter of the first --model as "<model>-NAME" (the base stays listed under its
own name). With --bootstrap, the server joins an
existing swarm and serves every model the swarm holds in full. Both may be
combined. The API has no authentication; any API key works.

Stop with SIGINT or SIGTERM: running requests get a grace period, then every
session is closed and the nodes leave the swarm.`,
		Example: `  svc serve
  svc serve --model ../shared/models/stories260K.gguf
  svc serve --bootstrap /ip4/127.0.0.1/tcp/4001/p2p/12D3KooW... --listen 127.0.0.1:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if nodes < 1 {
				return cli.Usagef("serve: --nodes must be at least 1, got %d", nodes)
			}
			if threads < 0 {
				return cli.Usagef("serve: --threads must not be negative, got %d", threads)
			}
			promptCache, err := placement.ParseLimit(prompt)
			if err != nil {
				return cli.Usagef("serve: --prompt-cache: %v", err)
			}
			for _, m := range models {
				if _, err := os.Stat(m); err != nil && !modelref.IsRef(m) {
					return fmt.Errorf("serve: --model: %w", err)
				}
			}
			specs, err := parseAdapterFlags("serve", adapters)
			if err != nil {
				return err
			}
			if len(specs) > 0 && len(models) == 0 {
				return cli.Usagef("serve: --adapter needs a --model to apply to")
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))
			return runServe(cmd.Context(), serveOptions{
				models: models, nodes: nodes, listen: listen, bootstrap: bootstrap,
				threads: threads, waitFor: waitFor, log: log, logOut: cmd.ErrOrStderr(), defaultModel: dflt,
				adapters: specs, promptCache: promptCache,
			})
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&models, "model", nil, "GGUF model file or reference (hf:OWNER/REPO/FILE.gguf[@REV], https://…/FILE.gguf) to serve with in-process nodes (repeatable; the first is the default model)")
	f.IntVar(&nodes, "nodes", 3, "in-process nodes per --model (fewer if the model has fewer blocks)")
	f.StringVar(&listen, "listen", "127.0.0.1:8080", "HTTP address of the API")
	f.StringArrayVar(&bootstrap, "bootstrap", nil, "multiaddr of a swarm peer to join (repeatable)")
	f.StringArrayVar(&adapters, "adapter", nil, "LoRA adapter of the first --model, NAME=FILE (repeatable; served as <model>-NAME)")
	f.IntVar(&threads, "threads", 0, "compute threads per in-process node (0: one per CPU)")
	f.StringVar(&prompt, "prompt-cache", "", "memory for each in-process node's prompt cache, which answers a session's first step from an identical earlier one (e.g. 256MiB; empty or 0: 64MiB; off: none)")
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
	// adapters are served with the first model.
	adapters []p2p.AdapterSpec
	// promptCache is each in-process node's prompt cache budget
	// (p2p.NodeConfig.PromptCacheBytes).
	promptCache int64
}

// runServe starts the in-process swarm (if any --model), waits until its
// models are servable, and serves the API until ctx ends.
func runServe(ctx context.Context, o serveOptions) (err error) {
	specs, err := serveModels(ctx, o)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if len(specs) > 0 {
		specs[0].Adapters = o.adapters
	}
	sw, err := localswarm.Start(ctx, localswarm.Config{
		Models: specs, Bootstrap: o.bootstrap, Threads: o.threads, PromptCacheBytes: o.promptCache, Logger: o.log,
		// The nodes' own lines repeat the swarm's; keep their warnings.
		NodeLogger: slog.New(slog.NewTextHandler(o.logOut, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	// Stop in reverse order: the API is done by then, then the swarm.
	defer func() { err = errors.Join(err, sw.Close()) }()
	// The first request must not race the nodes' announcements.
	wctx, cancel := context.WithTimeout(ctx, o.waitFor)
	err = sw.WaitServed(wctx)
	cancel()
	if err != nil {
		return fmt.Errorf("serve: --wait %s: %w", o.waitFor, err)
	}
	dflt := o.defaultModel
	if names := sw.Names(); dflt == "" && len(names) > 0 {
		dflt = names[0]
	}
	return serveAPI(ctx, sw, o, dflt)
}

// serveModels lists the models of the in-process swarm: the --model files
// (references fetched first), or the built-in demo when there is nothing
// else to serve.
func serveModels(ctx context.Context, o serveOptions) ([]localswarm.Model, error) {
	if len(o.models) == 0 && len(o.bootstrap) == 0 {
		dir, err := modelref.DefaultDir()
		if err != nil {
			return nil, err
		}
		path, err := demo.Install(dir)
		if err != nil {
			return nil, err
		}
		o.log.Info("no --model given: serving the built-in demo model "+demo.Name+", which only tells short children's stories",
			"real_model", "svc serve --model FILE.gguf (or hf:OWNER/REPO/FILE.gguf)")
		return []localswarm.Model{{Path: path, Name: demo.Name, Nodes: o.nodes}}, nil
	}
	specs := make([]localswarm.Model, len(o.models))
	for i, value := range o.models {
		path, err := modelPath(ctx, value, o.logOut)
		if err != nil {
			return nil, err
		}
		specs[i] = localswarm.Model{Path: path, Nodes: o.nodes}
	}
	return specs, nil
}

// serveAPI serves the API over the swarm's router on --listen until ctx ends.
func serveAPI(ctx context.Context, sw *localswarm.Swarm, o serveOptions, defaultModel string) error {
	rt := sw.Router()
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
		"served", strings.Join(served, ","), "swarm", strings.Join(sw.Bootstrap(), " "))
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

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator/placement"
	"svc/p2p"
)

// nodeFlags are the flags of "svc node" as typed.
type nodeFlags struct {
	modelPath, blocks, name, metrics, keyFile, cpuProf string
	promptCache                                        string
	numBlocks, threads, cacheTokens, ctxLen            int
	listen, bootstrap, adapters                        []string
	ttl                                                time.Duration
	verbose                                            bool
}

// newNodeCmd is "svc node": one swarm node holding some blocks of a model.
func newNodeCmd() *cobra.Command {
	var fl nodeFlags
	cmd := &cobra.Command{
		Use:   "node --model FILE [--blocks A:B] [--listen MULTIADDR…] [--bootstrap MULTIADDR…] [--threads N]",
		Short: "Run a swarm node that holds and computes some blocks of a model",
		Long: `Run one node of the swarm: a libp2p host that holds blocks [A,B) of a GGUF
model, announces them on the swarm's DHT (signed, refreshed, expiring within
--record-ttl when the node dies) and computes them for gateways' sessions.

Without --blocks the node chooses the blocks the swarm needs most: the largest
range nobody holds, else the whole model (or, with --num-blocks N, the N blocks
that are least covered). Without --bootstrap it starts a new swarm.

Once online it prints its multiaddrs on stdout, one a line, for others to
--bootstrap from; logs go to stderr. SIGINT or SIGTERM stops it cleanly: its
announcement is withdrawn and every session closed.`,
		Example: `  svc node --model stories260K.gguf --blocks 0:2 --listen /ip4/127.0.0.1/tcp/4001
  svc node --model stories260K.gguf --blocks 2:5 --bootstrap /ip4/127.0.0.1/tcp/4001/p2p/12D3KooW...
  svc node --model stories260K.gguf --bootstrap /ip4/127.0.0.1/tcp/4001/p2p/12D3KooW... --metrics 127.0.0.1:9101`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := fl.config()
			if err != nil {
				return err
			}
			if cfg.ModelPath, err = modelPath(cmd.Context(), cfg.ModelPath, cmd.ErrOrStderr()); err != nil {
				return fmt.Errorf("node: %w", err)
			}
			if fl.cpuProf != "" {
				stop, err := startCPUProfile(fl.cpuProf)
				if err != nil {
					return cli.Usagef("node: %v", err)
				}
				defer stop()
			}
			return runNode(cmd.Context(), cfg.Logger, cfg, fl.metrics)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.modelPath, "model", "", "GGUF model file, or a reference: hf:OWNER/REPO/FILE.gguf[@REV], https://…/FILE.gguf")
	f.StringVar(&fl.blocks, "blocks", "", "blocks to hold, A:B = [A,B) (default: the least covered)")
	f.IntVar(&fl.numBlocks, "num-blocks", 0, "with automatic blocks: how many (0: the largest missing range, else all)")
	f.StringVar(&fl.name, "name", "", "model name requests use (default: the file name without .gguf)")
	f.StringArrayVar(&fl.listen, "listen", []string{"/ip4/127.0.0.1/tcp/0"}, "multiaddr to listen on (repeatable; e.g. /ip4/0.0.0.0/tcp/4001 for other machines, /ip4/0.0.0.0/udp/4001/quic-v1 for QUIC)")
	f.StringArrayVar(&fl.bootstrap, "bootstrap", nil, "multiaddr of a swarm member, ending in /p2p/<id> (repeatable)")
	f.StringArrayVar(&fl.adapters, "adapter", nil, "LoRA adapter to serve, NAME=FILE (repeatable; requests name it <model>-NAME; only this node's blocks' pairs are loaded)")
	f.IntVar(&fl.threads, "threads", 0, "compute threads (0: one per CPU)")
	f.IntVar(&fl.cacheTokens, "cache-tokens", 0, "KV cache capacity in positions over all sessions (0: what 2 GiB of f16 cache holds for these blocks)")
	f.StringVar(&fl.promptCache, "prompt-cache", "", "memory for the prompt cache, which answers a session's first step from an identical earlier one (e.g. 256MiB; empty or 0: 64MiB; off: none)")
	f.IntVar(&fl.ctxLen, "context", 0, "cap on session length (0: the model's context length)")
	f.StringVar(&fl.metrics, "metrics", "", "serve Prometheus metrics on HOST:PORT at /metrics")
	f.StringVar(&fl.keyFile, "key", "", "file holding the node's libp2p identity (created if missing; default: a new identity each run)")
	f.DurationVar(&fl.ttl, "record-ttl", 30*time.Second, "lifetime of the node's announcement; it is refreshed every third of it")
	f.BoolVarP(&fl.verbose, "verbose", "v", false, "debug logging")
	f.StringVar(&fl.cpuProf, "cpuprofile", "", "write a pprof CPU profile to this file until the node stops")
	return cmd
}

// config validates the flags and turns them into the node's configuration.
func (fl nodeFlags) config() (p2p.NodeConfig, error) {
	cfg := p2p.NodeConfig{
		ModelPath: fl.modelPath, ContextLength: fl.ctxLen, Name: fl.name, AutoBlocks: fl.numBlocks,
		Listen: fl.listen, Bootstrap: fl.bootstrap, Threads: fl.threads, CacheTokens: fl.cacheTokens,
		RecordTTL: fl.ttl,
	}
	if fl.modelPath == "" {
		return cfg, cli.Usagef("node: --model FILE is required")
	}
	if fl.blocks != "" {
		var err error
		if cfg.First, cfg.Last, err = parseBlocks(fl.blocks); err != nil {
			return cfg, cli.Usagef("node: --blocks: %v", err)
		}
	}
	var err error
	if cfg.Adapters, err = parseAdapterFlags("node", fl.adapters); err != nil {
		return cfg, err
	}
	if cfg.PromptCacheBytes, err = placement.ParseLimit(fl.promptCache); err != nil {
		return cfg, cli.Usagef("node: --prompt-cache: %v", err)
	}
	if fl.threads < 0 || fl.cacheTokens < 0 || fl.numBlocks < 0 || fl.ctxLen < 0 {
		return cfg, cli.Usagef("node: --threads, --cache-tokens, --num-blocks and --context must not be negative")
	}
	if fl.ttl < 3*time.Second || fl.ttl > p2p.DefaultMaxRecordTTL {
		return cfg, cli.Usagef("node: --record-ttl must be between 3s and %s", p2p.DefaultMaxRecordTTL)
	}
	level := slog.LevelInfo
	if fl.verbose {
		level = slog.LevelDebug
	}
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if fl.keyFile != "" {
		var err error
		if cfg.Key, err = p2p.LoadOrCreateKey(fl.keyFile); err != nil {
			return cfg, fmt.Errorf("node: --key: %w", err)
		}
	}
	return cfg, nil
}

func runNode(ctx context.Context, log *slog.Logger, cfg p2p.NodeConfig, metricsAddr string) error {
	n, err := p2p.NewNode(ctx, cfg)
	if err != nil {
		return fmt.Errorf("node: %w", err)
	}
	defer func() {
		if err := n.Close(); err != nil {
			log.Warn("close node", "err", err)
		}
		log.Info("node stopped")
	}()
	var srv *http.Server
	errc := make(chan error, 1)
	if metricsAddr != "" {
		var lc net.ListenConfig
		ln, err := lc.Listen(ctx, "tcp", metricsAddr)
		if err != nil {
			return fmt.Errorf("node: --metrics %s: %w", metricsAddr, err)
		}
		mux := http.NewServeMux()
		// The node's own metrics, and the Go runtime's and the process's
		// (goroutines, memory, open files), so that a leak shows.
		procReg := prometheus.NewRegistry()
		procReg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		mux.Handle("/metrics", promhttp.HandlerFor(prometheus.Gatherers{procReg, n.Registry()}, promhttp.HandlerOpts{}))
		srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { errc <- srv.Serve(ln) }()
		log.Info("metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
	}
	for _, a := range n.Addrs() {
		fmt.Println(a)
	}
	first, last := n.Range()
	log.Info("node online", "model", n.Name(), "blocks", fmt.Sprintf("%d:%d", first, last), "peer", n.ID())
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("node: metrics server: %w", err)
		}
	}
	log.Info("stopping")
	if srv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = srv.Shutdown(sctx)
		cancel()
	}
	return nil
}

// parseBlocks reads "A:B" as the range [A,B).
func parseBlocks(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not A:B", s)
	}
	first, err1 := strconv.Atoi(a)
	last, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not two integers A:B", s)
	}
	if first < 0 || last <= first {
		return 0, 0, fmt.Errorf("%q is not a non-empty range (want 0 <= A < B)", s)
	}
	return first, last, nil
}

// parseAdapterFlags reads --adapter NAME=FILE values.
func parseAdapterFlags(cmd string, vals []string) ([]p2p.AdapterSpec, error) {
	var out []p2p.AdapterSpec
	for _, v := range vals {
		name, file, ok := strings.Cut(v, "=")
		if !ok || file == "" {
			return nil, cli.Usagef("%s: --adapter %q: want NAME=FILE", cmd, v)
		}
		if err := p2p.CheckAdapterName(name); err != nil {
			return nil, cli.Usagef("%s: --adapter: %v", cmd, err)
		}
		if _, err := os.Stat(file); err != nil {
			return nil, fmt.Errorf("%s: --adapter %s: %w", cmd, name, err)
		}
		out = append(out, p2p.AdapterSpec{Name: name, Path: file})
	}
	return out, nil
}

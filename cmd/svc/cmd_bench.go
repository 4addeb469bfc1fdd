package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"svc/bench"
	"svc/cmd/internal/cli"
)

// newBenchCmd is "svc bench": engine and load benchmarks.
func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the engine on this machine, or an OpenAI-compatible endpoint under load",
	}
	cmd.AddCommand(newBenchEngineCmd(), newBenchLoadCmd())
	return cmd
}

func newBenchEngineCmd() *cobra.Command {
	var (
		o        bench.EngineOptions
		asJSON   bool
		bwMiB    int64
		bwPasses int
		cpuProf  string
	)
	cmd := &cobra.Command{
		Use:   "engine --model FILE [--threads N] [--prompt 128] [--gen 64] [--context N] [--json]",
		Short: "Measure prefill and decode speed of a model and the memory bandwidth that bounds it",
		Long: `Load the whole model as one shard and measure, in one run:
  prefill tokens/s   one batched forward of --prompt tokens
  decode tokens/s    --gen single-token steps, each feeding back the argmax,
                     after --context tokens of context (default: the
                     prompt; the tokens past the prompt are prefilled
                     untimed, so --context 2000 measures long-context
                     decoding with the usual prefill figure)
  read bandwidth     memory read speed with the same number of threads, each
                     reading one sequential stream as decoding does (also
                     shown: four streams per thread, the memory's peak);
                     measured before and after, the better reading counts
and report the weight bytes each decoded token reads and the decode bandwidth
efficiency (decode tokens/s × bytes per token ÷ bandwidth). A warm-up run
pages in every weight first. --repeat keeps the best of several runs.
Progress goes to stderr; --json prints one JSON object on stdout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Model == "" {
				return cli.Usagef("bench engine: --model is required")
			}
			if o.Prompt <= 0 || o.Gen <= 0 || o.Repeat <= 0 || o.Threads < 0 || o.Context < 0 || bwMiB <= 0 || bwPasses <= 0 || o.FixedBandwidthGBps < 0 {
				return cli.Usagef("bench engine: --prompt, --gen, --repeat, --bandwidth-mib and --bandwidth-runs must be positive, --threads, --context and --bandwidth-gbs not negative")
			}
			if o.Context != 0 && o.Context < o.Prompt {
				return cli.Usagef("bench engine: --context %d is shorter than --prompt %d", o.Context, o.Prompt)
			}
			o.Bandwidth = bench.BandwidthOptions{Bytes: bwMiB << 20, Runs: bwPasses}
			bar := newBar(cmd.ErrOrStderr(), int64(4+o.Repeat*(1+o.Gen)),
				progressbar.OptionSetDescription("load"))
			o.Progress = engineProgress(bar)
			if cpuProf != "" {
				stop, err := startCPUProfile(cpuProf)
				if err != nil {
					return err
				}
				defer stop()
			}
			res, err := bench.RunEngine(cmd.Context(), o)
			_ = bar.Finish()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				return enc.Encode(res)
			}
			return res.WriteTable(out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Model, "model", "", "GGUF model file")
	f.IntVar(&o.Threads, "threads", 0, "threads (0: all cores)")
	f.IntVar(&o.Prompt, "prompt", 128, "prompt tokens prefilled in one batch")
	f.IntVar(&o.Gen, "gen", 64, "tokens decoded one at a time")
	f.IntVar(&o.Context, "context", 0, "tokens of context when decoding starts (0: --prompt); context + gen must fit the model's context length")
	f.IntVar(&o.Repeat, "repeat", 1, "measurement runs; the best counts")
	f.BoolVar(&o.NoRepack, "no-repack", false, "compute on the file's mapped row-major weights instead of packed copies (for comparison)")
	f.Int64Var(&bwMiB, "bandwidth-mib", 1024, "buffer size of the bandwidth measurement, MiB")
	f.IntVar(&bwPasses, "bandwidth-runs", 7, "passes of the bandwidth measurement; the best counts")
	f.Float64Var(&o.FixedBandwidthGBps, "bandwidth-gbs", 0, "use this read bandwidth (GB/s) instead of measuring it")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	f.StringVar(&cpuProf, "cpuprofile", "", "write a pprof CPU profile of the run to this file")
	return cmd
}

// engineProgress shows the engine benchmark's stages on bar.
func engineProgress(bar *progressbar.ProgressBar) func(stage string, step, total int) {
	return func(stage string, step, total int) {
		if step == 0 {
			bar.Describe(stage)
		} else {
			bar.Describe(fmt.Sprintf("%s %d/%d", stage, step, total))
		}
		_ = bar.Add(1)
	}
}

// startCPUProfile profiles the process into path until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func newBenchLoadCmd() *cobra.Command {
	var (
		o      bench.LoadOptions
		conc   string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "load --url URL --model NAME [--concurrency 1,4,8] [--requests N] [--max-tokens N] [--json]",
		Short: "Drive an OpenAI-compatible endpoint with concurrent streamed chat requests",
		Long: `Send streamed /v1/chat/completions requests to any OpenAI-compatible server
(svc serve, llama-server, ...) at each concurrency level in turn and report per
level: time to first token (p50, p95), time per output token after the first
(mean, p50), aggregate output tokens/s, the share of prompt tokens the server
answered from its cache (usage.prompt_tokens_details.cached_tokens, or
llama-server's timings; "-" when it does not say) and failed requests by
error code.
Each level sends --requests requests (default 2×concurrency, at least 4);
each request is bounded by --timeout. Requests are never retried, but one
on a kept-alive connection the server closed without answering is sent again
on a new connection.

Every request sends the same message unless --distinct-prompts is given: a
server that caches prompts (svc's nodes, llama-server's slots) then answers
all but the first from its cache, which is what repeated prompts get in
production; --distinct-prompts measures computing every prompt.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.URL == "" {
				return cli.Usagef("bench load: --url is required")
			}
			levels, err := parseLevels(conc)
			if err != nil {
				return cli.Usagef("bench load: --concurrency: %v", err)
			}
			if o.Requests < 0 || o.MaxTokens <= 0 || o.Timeout <= 0 || o.Warmup < 0 {
				return cli.Usagef("bench load: --max-tokens and --timeout must be positive, --requests and --warmup not negative")
			}
			o.Concurrency = levels
			var bar *progressbar.ProgressBar
			o.Progress = func(done, total int) {
				if bar == nil {
					bar = newBar(cmd.ErrOrStderr(), int64(total),
						progressbar.OptionSetDescription("requests"),
						progressbar.OptionShowCount())
				}
				_ = bar.Set(done)
			}
			rep, err := bench.RunLoad(cmd.Context(), o)
			if bar != nil {
				_ = bar.Finish()
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return json.NewEncoder(out).Encode(rep)
			}
			return rep.WriteTable(out)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.URL, "url", "", "server base URL, e.g. http://127.0.0.1:8080")
	f.StringVar(&o.Model, "model", "", "model name sent in requests")
	f.StringVar(&conc, "concurrency", "1,4,8", "comma-separated concurrency levels")
	f.IntVar(&o.Requests, "requests", 0, "requests per level (0: 2×concurrency, at least 4)")
	f.IntVar(&o.MaxTokens, "max-tokens", 64, "max_tokens of each request")
	f.StringVar(&o.Prompt, "prompt", bench.DefaultPrompt, "user message")
	f.BoolVar(&o.DistinctPrompts, "distinct-prompts", false, "start each request's message with its own number, so that no server-side prompt cache answers one request from another's")
	f.DurationVar(&o.Timeout, "timeout", 2*time.Minute, "bound on each request")
	f.IntVar(&o.Warmup, "warmup", 1, "uncounted requests sent first")
	f.StringVar(&o.APIKey, "api-key", "", "bearer token, if the server wants one")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

// parseLevels reads "1,4,8".
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", p)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no levels in %q", s)
	}
	return out, nil
}

package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/model"
	"svc/shards/tensor"
	"svc/shards/tokenizer"
)

// generateTimings splits the wall time of a generation as llama.cpp's
// timings do: the prompt's forward pass up to the first generated token,
// then the remaining tokens one at a time.
type generateTimings struct {
	PrefillMS        float64 `json:"prefill_ms"`
	PrefillPerSecond float64 `json:"prefill_tokens_per_s"`
	DecodeMS         float64 `json:"decode_ms"`
	DecodePerSecond  float64 `json:"decode_tokens_per_s"`
}

func newGenerateTimings(promptTokens, generated int, start, first, end time.Time) generateTimings {
	var t generateTimings
	if first.IsZero() {
		return t
	}
	pre, dec := first.Sub(start), end.Sub(first)
	t.PrefillMS = float64(pre.Microseconds()) / 1e3
	if pre > 0 {
		t.PrefillPerSecond = float64(promptTokens) / pre.Seconds()
	}
	t.DecodeMS = float64(dec.Microseconds()) / 1e3
	if generated > 1 && dec > 0 {
		t.DecodePerSecond = float64(generated-1) / dec.Seconds()
	}
	return t
}

// generateResult is the --json output of "svc generate".
type generateResult struct {
	PromptTokens     []int32                `json:"prompt_tokens"`
	CompletionTokens []int32                `json:"completion_tokens"`
	Text             string                 `json:"text"`
	FinishReason     string                 `json:"finish_reason"`
	TopLogprobs      [][]model.TokenLogprob `json:"top_logprobs,omitempty"`
	Timings          generateTimings        `json:"timings"`
}

// newGenerateCmd is "svc generate": greedy continuation of a prompt on this
// machine, optionally as several chained shards.
func newGenerateCmd() *cobra.Command {
	var (
		modelPath, prompt, tokensArg, forceArg string
		n, split, logprobs, threads            int
		asJSON, warmup                         bool
	)
	cmd := &cobra.Command{
		Use:   "generate --model FILE (--prompt TEXT | --tokens IDS) [-n N] [--split K] [--logprobs K] [--force IDS] [--json]",
		Short: "Continue a prompt greedily with a local model, streaming the text",
		Long: `Run a GGUF model on this machine and continue a prompt greedily (argmax at
every step) until an end-of-generation token or -n tokens.

--prompt TEXT is tokenized with the model's tokenizer (BOS added when the model
asks for it, special tokens parsed); --tokens 1,403,407 gives the prompt ids
as they are (no BOS added). --split K runs the model as K chained shards in one
process, which must give exactly the same output. --logprobs K reports, for
every generated position, the K most likely tokens with their natural-log
probabilities. --force IDS makes the continuation exactly IDS (teacher
forcing); the log-probabilities are still those the model gave at each step.

The text streams to stdout as it is produced; --json instead prints one
object: {"prompt_tokens", "completion_tokens", "text", "finish_reason",
"top_logprobs"}.`,
		Example: `  svc generate --model ../shared/models/stories260K.gguf --prompt "Once upon a time" -n 60
  svc generate --model m.gguf --tokens 1,403,407 --split 3 --logprobs 5 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if modelPath == "" {
				return cli.Usagef("generate: --model is required")
			}
			if (prompt == "") == (tokensArg == "") {
				return cli.Usagef("generate: give exactly one of --prompt and --tokens")
			}
			if n <= 0 {
				return cli.Usagef("generate: -n must be positive, got %d", n)
			}
			if split < 1 {
				return cli.Usagef("generate: --split must be at least 1, got %d", split)
			}
			if logprobs < 0 || threads < 0 {
				return cli.Usagef("generate: --logprobs and --threads must not be negative")
			}
			var force []int32
			if forceArg != "" {
				var err error
				if force, err = parseGenerateIDs(forceArg); err != nil {
					return cli.Usagef("generate: --force: %v", err)
				}
			}
			var promptIDs []int32
			if tokensArg != "" {
				var err error
				if promptIDs, err = parseGenerateIDs(tokensArg); err != nil {
					return cli.Usagef("generate: --tokens: %v", err)
				}
			}

			m, err := model.Open(modelPath, model.Options{})
			if err != nil {
				return fmt.Errorf("generate: --model %s: %w", modelPath, err)
			}
			defer m.Close()
			cfg := m.Config()
			tok, tokErr := tokenizer.FromGGUF(m.File())
			if prompt != "" {
				if tokErr != nil {
					return fmt.Errorf("generate: --prompt needs the model's tokenizer: %w", tokErr)
				}
				if promptIDs, err = tok.Encode(prompt, true, true); err != nil {
					return fmt.Errorf("generate: --prompt: %w", err)
				}
				if len(promptIDs) == 0 {
					return cli.Usagef("generate: --prompt %q gives no tokens", prompt)
				}
			}
			for _, list := range []struct {
				flag string
				ids  []int32
			}{{"--tokens", promptIDs}, {"--force", force}} {
				for _, id := range list.ids {
					if id < 0 || int(id) >= cfg.Vocab {
						return cli.Usagef("generate: %s: token %d is outside the vocabulary [0,%d)", list.flag, id, cfg.Vocab)
					}
				}
			}
			if split > cfg.Blocks {
				return cli.Usagef("generate: --split %d: the model has only %d blocks", split, cfg.Blocks)
			}
			maxLen := len(promptIDs) + n
			if len(force) > 0 && len(force) < n {
				maxLen = len(promptIDs) + len(force)
			}
			if maxLen > cfg.Context {
				return cli.Usagef("generate: prompt (%d tokens) plus -n %d exceed the model's context length %d", len(promptIDs), n, cfg.Context)
			}

			ranges, err := model.EvenSplit(cfg.Blocks, split)
			if err != nil {
				return cli.Usagef("generate: --split: %v", err)
			}
			// One worker pool serves every shard of the chain: they run one
			// after the other.
			pool := tensor.NewPool(threads)
			defer pool.Close()
			ch, err := m.NewChain(ranges, model.ShardOptions{Pool: pool, CacheTokens: maxLen, IdleTimeout: -1})
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			defer ch.Close()
			if warmup {
				// As llama.cpp does before a prompt: one token through every
				// shard in a session of its own, so that the timings below
				// do not include the first touch of the mapped weights.
				wh, err := ch.Open("warmup", 2)
				if err != nil {
					return fmt.Errorf("generate: warm-up: %w", err)
				}
				_, err = model.Generate(cmd.Context(), wh, promptIDs[:1], model.GenOptions{MaxTokens: 1}, func(model.Step) error { return nil })
				_ = ch.CloseSession("warmup")
				if err != nil {
					return fmt.Errorf("generate: warm-up: %w", err)
				}
			}
			hops, err := ch.Open("generate", maxLen)
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}

			stop := m.StopTokens()
			if tokErr == nil {
				stop = tok.IsEOG
			}
			var stream *tokenizer.StreamDecoder
			if tokErr == nil {
				// The plain concatenation of pieces, as llama-server streams
				// a completion; control tokens (EOS) print nothing.
				stream = tok.NewStreamDecoderWith(tokenizer.StreamOptions{DecodeOptions: tokenizer.DecodeOptions{SkipSpecial: true}, Raw: true})
			}
			out := cmd.OutOrStdout()
			var text strings.Builder
			var first time.Time
			emit := func(s model.Step) error {
				if first.IsZero() {
					first = time.Now()
				}
				if stream == nil {
					return nil
				}
				piece := stream.Add(s.ID)
				text.WriteString(piece)
				if !asJSON {
					if _, err := fmt.Fprint(out, piece); err != nil {
						return fmt.Errorf("generate: writing output: %w", err)
					}
				}
				return nil
			}
			if prompt != "" && !asJSON {
				// Echo the prompt so the continuation reads as text.
				fmt.Fprint(out, prompt)
			}
			start := time.Now()
			res, err := model.Generate(cmd.Context(), hops, promptIDs, model.GenOptions{MaxTokens: n, Stop: stop, Force: force, TopK: logprobs}, emit)
			if err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			timings := newGenerateTimings(len(promptIDs), len(res.Completion), start, first, time.Now())
			if stream != nil {
				rest := stream.Flush()
				text.WriteString(rest)
				if !asJSON {
					fmt.Fprint(out, rest)
				}
			}
			if !asJSON {
				if stream == nil {
					fmt.Fprintln(out, joinGenerateIDs(res.Completion))
				} else {
					fmt.Fprintln(out)
				}
				if logprobs > 0 {
					for i, top := range res.Top {
						fmt.Fprintf(out, "%d: %d", i, res.Completion[i])
						for _, t := range top {
							fmt.Fprintf(out, " %d:%.5f", t.ID, t.Logprob)
						}
						fmt.Fprintln(out)
					}
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "prompt: %d tokens in %.1f ms (%.1f tokens/s); generated: %d tokens, %.1f tokens/s after the first\n",
					len(promptIDs), timings.PrefillMS, timings.PrefillPerSecond, len(res.Completion), timings.DecodePerSecond)
				return nil
			}
			enc := json.NewEncoder(out)
			return enc.Encode(generateResult{
				PromptTokens:     res.Prompt,
				CompletionTokens: res.Completion,
				Text:             text.String(),
				FinishReason:     res.Finish,
				TopLogprobs:      res.Top,
				Timings:          timings,
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&modelPath, "model", "", "GGUF model file")
	f.StringVar(&prompt, "prompt", "", "prompt text (tokenized with the model's tokenizer)")
	f.StringVar(&tokensArg, "tokens", "", "prompt token ids, comma-separated, used as given")
	f.IntVarP(&n, "n", "n", 64, "maximum tokens to generate")
	f.IntVar(&split, "split", 1, "run the model as this many chained shards")
	f.IntVar(&logprobs, "logprobs", 0, "report the top-K log-probabilities at every generated position")
	f.StringVar(&forceArg, "force", "", "teacher forcing: the continuation, as comma-separated token ids")
	f.BoolVar(&asJSON, "json", false, "print one JSON object instead of streaming text")
	f.BoolVar(&warmup, "warmup", true, "run one token through the model before the prompt, so that the timings leave out loading the weights (--warmup=false to skip)")
	f.IntVar(&threads, "threads", 0, "worker threads, shared by the shards (0: one per CPU)")
	return cmd
}

// parseGenerateIDs reads comma-separated token ids ("1,403, 407").
func parseGenerateIDs(s string) ([]int32, error) {
	var ids []int32
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty id in %q", s)
		}
		v, err := strconv.ParseInt(part, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a token id", part)
		}
		ids = append(ids, int32(v))
	}
	return ids, nil
}

func joinGenerateIDs(ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(int(id))
	}
	return strings.Join(parts, ",")
}

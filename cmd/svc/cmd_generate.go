package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/model"
	"svc/shards/textgen"
	"svc/shards/tokenizer"
)

// generateFlags are the flags of "svc generate" as typed.
type generateFlags struct {
	modelPath, prompt, tokens, force string
	adapter                          string
	adapterScale                     float32
	n, split, logprobs, threads      int
	asJSON, warmup                   bool
}

// newGenerateCmd is "svc generate": greedy continuation of a prompt on this
// machine, optionally as several chained shards.
func newGenerateCmd() *cobra.Command {
	var fl generateFlags
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
probabilities. --adapter FILE computes with a LoRA adapter in llama.cpp's GGUF
format (as llama.cpp's --lora; --adapter-scale S as its --lora-scaled FILE S).
--force IDS makes the continuation exactly IDS (teacher
forcing); the log-probabilities are still those the model gave at each step.

The text streams to stdout as it is produced; --json instead prints one
object: {"prompt_tokens", "completion_tokens", "text", "finish_reason",
"top_logprobs"}.`,
		Example: `  svc generate --model ../shared/models/stories260K.gguf --prompt "Once upon a time" -n 60
  svc generate --model m.gguf --tokens 1,403,407 --split 3 --logprobs 5 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req, err := fl.request()
			if err != nil {
				return err
			}
			return runGenerate(cmd, fl, req)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.modelPath, "model", "", "GGUF model file, or a reference: hf:OWNER/REPO/FILE.gguf[@REV], https://…/FILE.gguf")
	f.StringVar(&fl.prompt, "prompt", "", "prompt text (tokenized with the model's tokenizer)")
	f.StringVar(&fl.tokens, "tokens", "", "prompt token ids, comma-separated, used as given")
	f.IntVarP(&fl.n, "n", "n", 64, "maximum tokens to generate")
	f.IntVar(&fl.split, "split", 1, "run the model as this many chained shards")
	f.IntVar(&fl.logprobs, "logprobs", 0, "report the top-K log-probabilities at every generated position")
	f.StringVar(&fl.adapter, "adapter", "", "LoRA adapter GGUF to compute with")
	f.Float32Var(&fl.adapterScale, "adapter-scale", 1, "the adapter's user scale (scale = S × alpha / rank)")
	f.StringVar(&fl.force, "force", "", "teacher forcing: the continuation, as comma-separated token ids")
	f.BoolVar(&fl.asJSON, "json", false, "print one JSON object instead of streaming text")
	f.BoolVar(&fl.warmup, "warmup", true, "run one token through the model before the prompt, so that the timings leave out loading the weights (--warmup=false to skip)")
	f.IntVar(&fl.threads, "threads", 0, "worker threads, shared by the shards (0: one per CPU)")
	return cmd
}

// request validates the flags and turns them into a textgen request.
func (fl generateFlags) request() (textgen.Request, error) {
	req := textgen.Request{Prompt: fl.prompt, MaxTokens: fl.n, Split: fl.split,
		TopLogprobs: fl.logprobs, Threads: fl.threads, Warmup: fl.warmup,
		Adapter: fl.adapter, AdapterScale: fl.adapterScale}
	switch {
	case fl.modelPath == "":
		return req, cli.Usagef("generate: --model is required")
	case (fl.prompt == "") == (fl.tokens == ""):
		return req, cli.Usagef("generate: give exactly one of --prompt and --tokens")
	case fl.n <= 0:
		return req, cli.Usagef("generate: -n must be positive, got %d", fl.n)
	case fl.split < 1:
		return req, cli.Usagef("generate: --split must be at least 1, got %d", fl.split)
	case fl.logprobs < 0 || fl.threads < 0:
		return req, cli.Usagef("generate: --logprobs and --threads must not be negative")
	}
	var err error
	if req.Force, err = tokenizer.ParseIDs(fl.force); err != nil {
		return req, cli.Usagef("generate: --force: %v", err)
	}
	if fl.tokens != "" {
		if req.Tokens, err = tokenizer.ParseIDs(fl.tokens); err != nil {
			return req, cli.Usagef("generate: --tokens: %v", err)
		}
		if len(req.Tokens) == 0 {
			return req, cli.Usagef("generate: --tokens %q holds no ids", fl.tokens)
		}
	}
	return req, nil
}

// runGenerate opens the model, streams the generation to stdout (or prints
// it as JSON) and the timings to stderr.
func runGenerate(cmd *cobra.Command, fl generateFlags, req textgen.Request) error {
	path, err := modelPath(cmd.Context(), fl.modelPath, cmd.ErrOrStderr())
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	m, err := model.Open(path, model.Options{})
	if err != nil {
		return fmt.Errorf("generate: --model %s: %w", fl.modelPath, err)
	}
	defer m.Close()
	out := cmd.OutOrStdout()
	if !fl.asJSON {
		req.OnText = func(piece string) error {
			if _, err := io.WriteString(out, piece); err != nil {
				return fmt.Errorf("writing output: %w", err)
			}
			return nil
		}
		// Echo the prompt so the continuation reads as text.
		fmt.Fprint(out, fl.prompt)
	}
	res, err := textgen.Run(cmd.Context(), m, req)
	var invalid *textgen.InvalidError
	if errors.As(err, &invalid) {
		return cli.Usagef("generate: %s: %s", generateFlag(invalid.Field), invalid.Reason)
	} else if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if fl.asJSON {
		return json.NewEncoder(out).Encode(res)
	}
	if !res.Decoded {
		fmt.Fprint(out, joinIDs(res.CompletionTokens))
	}
	fmt.Fprintln(out)
	for i, top := range res.TopLogprobs {
		fmt.Fprintf(out, "%d: %d", i, res.CompletionTokens[i])
		for _, t := range top {
			fmt.Fprintf(out, " %d:%.5f", t.ID, t.Logprob)
		}
		fmt.Fprintln(out)
	}
	tm := res.Timings
	fmt.Fprintf(cmd.ErrOrStderr(), "prompt: %d tokens in %.1f ms (%.1f tokens/s); generated: %d tokens, %.1f tokens/s after the first\n",
		len(res.PromptTokens), tm.PrefillMS, tm.PrefillPerSecond, len(res.CompletionTokens), tm.DecodePerSecond)
	return nil
}

// generateFlag names the flag behind a textgen.Request field.
func generateFlag(field string) string {
	switch field {
	case "MaxTokens":
		return "-n"
	case "TopLogprobs":
		return "--logprobs"
	}
	return "--" + strings.ToLower(field) // Prompt, Tokens, Split, Force, Threads
}

func joinIDs(ids []int32) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(int(id))
	}
	return strings.Join(parts, ",")
}

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/modelref"
)

// refOptions fetch into $SVC_MODELS with a progress bar when stderr is a
// terminal and log lines otherwise.
func refOptions(stderr io.Writer) modelref.Options {
	o := modelref.Options{Logger: slog.New(slog.NewTextHandler(stderr, nil))}
	if isTerminal(stderr) {
		o.Progress = stderr
	}
	return o
}

// modelPath turns a --model value into a file: a path is used as given, a
// reference (hf:… or https://…) is fetched into the models directory once.
func modelPath(ctx context.Context, value string, stderr io.Writer) (string, error) {
	if !modelref.IsRef(value) {
		return value, nil
	}
	if _, err := modelref.Parse(value); err != nil {
		return "", cli.Usagef("--model: %v", err)
	}
	path, err := modelref.Get(ctx, value, refOptions(stderr))
	if err != nil {
		return "", fmt.Errorf("--model: %w", err)
	}
	if modelref.IsSplit(path) {
		return "", fmt.Errorf("--model %s: a split GGUF, fetched into %s; svc loads single files: merge the parts (llama-gguf-split --merge %s OUT.gguf) and pass --model OUT.gguf",
			value, path, path)
	}
	return path, nil
}

// newBar makes a progress bar on w that stays hidden when w is not a
// terminal: redrawn lines written into a log file or a pipe are noise.
func newBar(w io.Writer, total int64, opts ...progressbar.Option) *progressbar.ProgressBar {
	opts = append([]progressbar.Option{progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(isTerminal(w)),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish()}, opts...)
	return progressbar.NewOptions64(total, opts...)
}

// isTerminal reports whether w is a terminal: a progress bar redraws its
// line, which only makes sense there (logs to a file get the log lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newModelPullCmd is "svc model pull": fetch models by reference.
func newModelPullCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "pull REF…",
		Short: "Fetch models by reference into the models directory, or check they are current",
		Long: `Fetch each model into the models directory ($SVC_MODELS, default under the
user's cache directory) and print its path. A reference is
hf:OWNER/REPO/FILE.gguf[@REVISION] (a file of a Hugging Face repository; the
revision is a branch, tag or commit, default main) or https://HOST/…/FILE.gguf.
A model already there is checked against the source and fetched again if it
changed. --model of serve, node and generate takes the same references (and
uses a model already there without asking the network).

HF_TOKEN, when set, is sent to the hub (only) for gated and private
repositories; HF_ENDPOINT names another hub.`,
		Example: `  svc model pull hf:ggml-org/models/tinyllamas/stories260K.gguf
  svc model pull https://example.com/models/model-Q4_K_M.gguf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, ref := range args {
				if _, err := modelref.Parse(ref); err != nil {
					return cli.Usagef("pull: %v", err)
				}
			}
			o := refOptions(cmd.ErrOrStderr())
			o.Refresh = true
			for _, ref := range args {
				path, err := modelref.Get(cmd.Context(), ref, o)
				if err != nil {
					return fmt.Errorf("pull: %w", err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), path)
			}
			return nil
		},
	}
}

// newModelListCmd is "svc model list": the models directory's content.
func newModelListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the models in the models directory",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := modelref.DefaultDir()
			if err != nil {
				return fmt.Errorf("list: %w", err)
			}
			entries, err := modelref.List(dir)
			if err != nil {
				return fmt.Errorf("list: %w", err)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "REFERENCE\tSIZE\tFETCHED\tPATH\n")
			for _, e := range entries {
				ref := e.Ref
				if ref == "" {
					ref = "-"
				}
				fmt.Fprintf(tw, "%s\t%.1f MiB\t%s\t%s\n", ref, float64(e.Size)/(1<<20), e.Fetched.Format(time.DateTime), e.Path)
			}
			return tw.Flush()
		},
	}
}

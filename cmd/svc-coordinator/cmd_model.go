package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/coordinator"
)

func newModelCmd(p *paths) *cobra.Command {
	var a coordinator.ModelServeArgs
	serve := &cobra.Command{
		Use:   "serve FILE|NAME|hf:OWNER/REPO/FILE[@REV]|https://URL [--replicas N] [--name NAME] [--adapter NAME=FILE]...",
		Short: "Place a model's block ranges on the machines and serve it",
		Long: `Import the model into the models directory (a FILE is linked or copied
there, an hf: or https:// reference downloaded once; a NAME is a model
already there, such as a file dropped into the directory), then place
contiguous block ranges of it on the online machines in proportion to the
memory they offer, every block covered, with up to --replicas copies of
each block where memory allows. Every slice is counted with its
machine's caches (prompt_cache and kv_cache of its agent.toml; node list
shows them), so that a machine stays within its memory when its sessions
fill them: with kv_cache auto (the default), 2GiB or one session of the
model's whole context on the slice's blocks where that is more, so that
a slice of more blocks of a long-context model counts more; a model that
does not fit says what the caches counted, and a machine whose kv_cache
size cannot hold one session of the model's whole context on the blocks
it would get is named (raise it, set it to auto, or add machines).
Each machine fetches only the tensors of its own blocks from the
coordinator, checks them against the model's manifest and loads them;
model list shows the model as served once every block is. Serving a
model again places it anew (and clears unavailable).

Each --adapter NAME=FILE (a GGUF LoRA adapter, repeatable) is checked
against the model, imported beside it and placed with its slices: each
machine fetches only the adapter pairs of its own blocks (and those of
the token embedding on the first range, of the output head on the last),
and requests name the model with the adapter as MODEL-NAME.`,
		Example: `  svc-coordinator model serve /srv/models/llama-3.2-1b-q4_k_m.gguf
  svc-coordinator model serve llama-3.2-1b-q4_k_m --replicas 2
  svc-coordinator model serve stories260K.gguf --adapter tales=/srv/adapters/tales.gguf
  svc-coordinator model serve hf:bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf`,
		Args: exactArgs(1, "one FILE, NAME, hf: reference or https:// URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			a.Source = args[0]
			for i, ad := range a.Adapters {
				name, file, ok := strings.Cut(ad, "=")
				if !ok || name == "" || file == "" {
					return cli.Usagef("--adapter %q: want NAME=FILE", ad)
				}
				if abs, err := filepath.Abs(file); err == nil {
					a.Adapters[i] = name + "=" + abs
				}
			}
			// The daemon resolves files from its own directory: send an
			// absolute path for a file that exists here.
			if !strings.Contains(a.Source, "://") && !strings.HasPrefix(a.Source, "hf:") {
				if _, err := os.Stat(a.Source); err == nil {
					if abs, err := filepath.Abs(a.Source); err == nil {
						a.Source = abs
					}
				}
			}
			return p.send(cmd, "model.serve", a)
		},
	}
	serve.Flags().IntVar(&a.Replicas, "replicas", 0, "copies of each block where memory allows (default: pool.replicas of coordinator.toml, 1)")
	serve.Flags().StringArrayVar(&a.Adapters, "adapter", nil, "NAME=FILE: a LoRA adapter served with the model as MODEL-NAME (repeatable)")
	serve.Flags().StringVar(&a.Name, "name", "", "name requests use (default: the file name without .gguf)")
	list := &cobra.Command{
		Use:   "list",
		Short: "List models: state (loading, served, unavailable, available), blocks, slices, reason",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return p.send(cmd, "model.list", nil) },
	}
	stop := &cobra.Command{
		Use:     "stop NAME",
		Short:   "Stop serving a model; its machines drop their slices",
		Example: `  svc-coordinator model stop llama-3.2-1b-q4_k_m`,
		Args:    exactArgs(1, "one model NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.send(cmd, "model.stop", coordinator.ModelNameArgs{Name: args[0]})
		},
	}
	return group("model", "Serve models on the machines, list and stop them", serve, list, stop)
}

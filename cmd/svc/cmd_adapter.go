package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/lora"
	"svc/shards/model"
	"svc/shards/tensor"
)

// newModelSynthAdapterCmd is "svc model synth-adapter": a seeded random
// LoRA adapter for a model, in llama.cpp's format.
func newModelSynthAdapterCmd() *cobra.Command {
	var (
		base, out, typ, targets, name string
		rank                          int
		alpha                         float32
		seed                          uint64
		std                           float64
	)
	cmd := &cobra.Command{
		Use:   "synth-adapter --base FILE --out FILE --rank R [--alpha A] [--type T] [--seed N]",
		Short: "Write a random LoRA adapter for a model (llama.cpp's GGUF LoRA format)",
		Long: fmt.Sprintf(`Write a LoRA adapter for the model --base whose A and B matrices are seeded
normal draws (std --std), for the chosen block matrices of every block and,
when named, the token embedding and the output head. The file is the same
for the same model, options and seed; llama.cpp loads it with --lora. Scale
at use: user scale × alpha / rank (alpha 0: user scale).

Targets: %s (default: all of these);
         %s, %s (the output head of a model that has output.weight)
Types:   f32, f16, bf16, q8_0 (q8_0 needs the rank to be a multiple of 32)`, strings.Join(model.AdapterKinds(), ", "), model.KindTokenEmbd, model.KindOutput),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if base == "" || out == "" || rank == 0 {
				return cli.Usagef("model synth-adapter: --base, --out and --rank are required")
			}
			if rank < 0 || rank > lora.MaxRank {
				return cli.Usagef("model synth-adapter: --rank %d is not in [1, %d]", rank, lora.MaxRank)
			}
			t, err := tensor.ParseType(typ)
			if err != nil || !slices.Contains(lora.Types, t) {
				return cli.Usagef("model synth-adapter: --type %s: adapters may hold f32, f16, bf16 or q8_0", typ)
			}
			var kinds []string
			if targets != "" {
				kinds = strings.Split(targets, ",")
			}
			m, err := model.Open(base, model.Options{})
			if err != nil {
				return fmt.Errorf("--base: %w", err)
			}
			defer m.Close()
			err = m.SynthAdapter(out, model.SynthAdapterOptions{Name: name, Kinds: kinds, Rank: rank, Alpha: alpha, Type: t, Seed: seed, Std: std})
			if err != nil {
				return fmt.Errorf("model synth-adapter: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (rank %d, alpha %g, %v, seed %d)\n", out, rank, alpha, t, seed)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&base, "base", "", "the base model GGUF")
	f.StringVar(&out, "out", "", "output adapter GGUF")
	f.IntVar(&rank, "rank", 0, "rank r")
	f.Float32Var(&alpha, "alpha", 0, "adapter.lora.alpha (0: scale = user scale)")
	f.StringVar(&typ, "type", "f16", "tensor type (f32, f16, bf16, q8_0)")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	f.Float64Var(&std, "std", 0.02, "standard deviation of A's and B's values")
	f.StringVar(&targets, "targets", "", "comma-separated block matrices, token_embd, output (default: every block matrix)")
	f.StringVar(&name, "name", "", "general.name to record")
	return cmd
}

// adapterInspection is what "svc model inspect" reports for an adapter.
type adapterInspection struct {
	File         string   `json:"file"`
	Kind         string   `json:"kind"` // "lora adapter"
	Architecture string   `json:"architecture"`
	Name         string   `json:"name,omitempty"`
	Alpha        float32  `json:"alpha"`
	Pairs        int      `json:"pairs"`
	Ranks        []int    `json:"ranks"`
	Types        []string `json:"tensor_types"`
	Targets      []string `json:"targets"`
	Skipped      []string `json:"skipped,omitempty"`
	Base         string   `json:"base,omitempty"`
	Fits         *bool    `json:"fits_base,omitempty"`
	Problem      string   `json:"problem,omitempty"`
}

// inspectAdapter describes an adapter file and, with base, whether it fits
// that model; the error says why it does not.
func inspectAdapter(path, base string) (*adapterInspection, error) {
	a, err := lora.Open(path)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	ins := &adapterInspection{File: path, Kind: "lora adapter", Architecture: a.Arch, Name: a.Name, Alpha: a.Alpha,
		Pairs: len(a.Targets()), Ranks: a.Ranks(), Types: a.TensorTypes(), Targets: a.Targets(), Skipped: a.Skipped}
	if base == "" {
		return ins, nil
	}
	ins.Base = base
	m, err := model.Open(base, model.Options{})
	if err != nil {
		return ins, fmt.Errorf("--base: %w", err)
	}
	defer m.Close()
	err = m.CheckAdapter(a)
	fits := err == nil
	ins.Fits = &fits
	if err != nil {
		ins.Problem = err.Error()
	}
	return ins, err
}

func (ins *adapterInspection) write(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ins)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", ins.File)
	fmt.Fprintf(tw, "kind\t%s\n", ins.Kind)
	fmt.Fprintf(tw, "architecture\t%s\n", ins.Architecture)
	if ins.Name != "" {
		fmt.Fprintf(tw, "name\t%s\n", ins.Name)
	}
	fmt.Fprintf(tw, "alpha\t%g\n", ins.Alpha)
	fmt.Fprintf(tw, "pairs\t%d\n", ins.Pairs)
	fmt.Fprintf(tw, "ranks\t%v\n", ins.Ranks)
	fmt.Fprintf(tw, "tensor types\t%s\n", strings.Join(ins.Types, ", "))
	kinds := map[string]int{}
	var order []string
	for _, t := range ins.Targets {
		k := t
		if rest, ok := strings.CutPrefix(t, "blk."); ok {
			if _, s, ok := strings.Cut(rest, "."); ok {
				k = strings.TrimSuffix(s, ".weight")
			}
		}
		if kinds[k] == 0 {
			order = append(order, k)
		}
		kinds[k]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s×%d", k, kinds[k]))
	}
	fmt.Fprintf(tw, "targets\t%s\n", strings.Join(parts, ", "))
	if len(ins.Skipped) > 0 {
		fmt.Fprintf(tw, "skipped\t%d norm tensors (llama.cpp ignores them too)\n", len(ins.Skipped))
	}
	if ins.Fits != nil {
		if *ins.Fits {
			fmt.Fprintf(tw, "base\t%s: fits\n", ins.Base)
		} else {
			fmt.Fprintf(tw, "base\t%s: does not fit: %s\n", ins.Base, ins.Problem)
		}
	}
	return tw.Flush()
}

package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
	"svc/shards/gguf"
	"svc/shards/modeltools"
)

// newModelSynthCmd is "svc model synth": write a random-weight model of a
// known shape, for benchmarks at realistic sizes.
func newModelSynthCmd() *cobra.Command {
	var (
		shape, vocab, typ, out string
		seed                   int64
		threads                int
	)
	cmd := &cobra.Command{
		Use:   "synth --shape NAME --vocab FILE --type TYPE --out FILE [--seed N]",
		Short: "Write a random-weight model of a known shape",
		Long: fmt.Sprintf(`Write a Llama-architecture GGUF with random weights (normal, std %g; norms 1)
in the shape of a published model, with the tokenizer copied from --vocab (any
GGUF with tokenizer.* metadata, e.g. ggml-vocab-llama-spm.gguf). The file is
the same for the same shape, vocabulary, type and seed, and llama.cpp reads it.
Tensor types per --type follow llama-quantize (Q4_0/Q4_K_M put the output
head in Q6_K; Q4_K_M/Q5_K_M put some attn_v/ffn_down layers in Q6_K; Q4_K is
pure).

Shapes: %s
Types:  %s`, modeltools.WeightStd, strings.Join(modeltools.ShapeNames(), ", "), strings.Join(modeltools.FileTypeNames(), ", ")),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if shape == "" || vocab == "" || typ == "" || out == "" {
				return cli.Usagef("model synth: --shape, --vocab, --type and --out are required")
			}
			sh, err := modeltools.LookupShape(shape)
			if err != nil {
				return &cli.UsageError{Err: err}
			}
			ft, err := modeltools.ParseFileType(typ)
			if err != nil {
				return &cli.UsageError{Err: err}
			}
			vf, err := gguf.Open(vocab)
			if err != nil {
				return fmt.Errorf("--vocab: %w", err)
			}
			defer vf.Close()
			bar := bytesBar(cmd, "synth "+sh.Name+" "+ft.Name)
			err = modeltools.SynthFile(cmd.Context(), out, modeltools.SynthOptions{
				Shape: sh, Vocab: vf, Type: ft, Seed: seed, Threads: threads,
				Progress: bar.progress,
			})
			bar.finish()
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%s %s, seed %d)\n", out, sh.Name, ft.Name, seed)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&shape, "shape", "", "model shape ("+strings.Join(modeltools.ShapeNames(), ", ")+")")
	f.StringVar(&vocab, "vocab", "", "GGUF to copy the tokenizer from")
	f.StringVar(&typ, "type", "", "tensor type ("+strings.Join(modeltools.FileTypeNames(), ", ")+")")
	f.StringVar(&out, "out", "", "output GGUF file")
	f.Int64Var(&seed, "seed", 1, "random seed")
	f.IntVar(&threads, "threads", runtime.NumCPU(), "threads quantizing rows")
	return cmd
}

// newModelQuantizeCmd is "svc model quantize IN OUT TYPE".
func newModelQuantizeCmd() *cobra.Command {
	var threads int
	cmd := &cobra.Command{
		Use:   "quantize IN OUT TYPE",
		Short: "Convert a model's tensors to another type (llama-quantize's rules)",
		Long: `Write IN's model to OUT with its matrices converted to TYPE, choosing each
tensor's type as llama-quantize does: norms and other 1-D tensors keep their
type; the output head goes to Q6_K (except for Q8_0); Q4_K_M and Q5_K_M put
attn_v and ffn_down of some layers in Q6_K; rows too short for a k-quant fall back to a
32-element type. Metadata is copied with general.file_type updated.

Types: ` + strings.Join(modeltools.FileTypeNames(), ", "),
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			ft, err := modeltools.ParseFileType(args[2])
			if err != nil {
				return &cli.UsageError{Err: err}
			}
			in, err := gguf.Open(args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			bar := bytesBar(cmd, "quantize to "+ft.Name)
			err = modeltools.QuantizeFile(cmd.Context(), in, args[1], modeltools.QuantizeOptions{
				Type: ft, Threads: threads, Progress: bar.progress,
			})
			bar.finish()
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%s)\n", args[1], ft.Name)
			return nil
		},
	}
	cmd.Flags().IntVar(&threads, "threads", runtime.NumCPU(), "threads quantizing rows")
	return cmd
}

// progressBytes shows bytes of tensor data written on stderr; the bar is
// made on the first report, when the total is known.
type progressBytes struct {
	cmd  *cobra.Command
	desc string
	bar  *progressbar.ProgressBar
}

func bytesBar(cmd *cobra.Command, desc string) *progressBytes {
	return &progressBytes{cmd: cmd, desc: desc}
}

func (p *progressBytes) progress(done, total int64) {
	if p.bar == nil {
		p.bar = newBar(p.cmd.ErrOrStderr(), total,
			progressbar.OptionSetDescription(p.desc),
			progressbar.OptionShowBytes(true),
			progressbar.OptionThrottle(100*time.Millisecond))
	}
	_ = p.bar.Set64(done)
}

func (p *progressBytes) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

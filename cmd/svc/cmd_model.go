package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"svc/shards/gguf"
	"svc/shards/model"
)

// newModelCmd is "svc model": look at GGUF model files.
func newModelCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Inspect GGUF model files, fetch them by reference, or write synthetic and quantized ones",
	}
	cmd.AddCommand(newModelInspectCmd(), newModelPullCmd(), newModelListCmd())
	cmd.AddCommand(newModelSynthCmd(), newModelQuantizeCmd(), newModelSynthAdapterCmd())
	return cmd
}

// typeStat is one tensor type's share of a file.
type typeStat struct {
	Type    string `json:"type"`
	Tensors int    `json:"tensors"`
	Bytes   uint64 `json:"bytes"`
}

// inspection is what "svc model inspect" reports.
type inspection struct {
	File         string        `json:"file"`
	GGUFVersion  uint32        `json:"gguf_version"`
	Architecture string        `json:"architecture"`
	Name         string        `json:"name,omitempty"`
	Digest       string        `json:"digest,omitempty"`
	Config       *model.Config `json:"config,omitempty"`
	Runnable     bool          `json:"runnable"`
	Problem      string        `json:"problem,omitempty"`
	Tensors      int           `json:"tensors"`
	TensorBytes  uint64        `json:"tensor_bytes"`
	Types        []typeStat    `json:"tensor_types"`
	Tokenizer    string        `json:"tokenizer,omitempty"`
	PreTokenizer string        `json:"pre_tokenizer,omitempty"`
	VocabSize    int           `json:"vocab_size,omitempty"`
	ChatTemplate bool          `json:"chat_template"`
}

func newModelInspectCmd() *cobra.Command {
	var (
		asJSON bool
		base   string
	)
	cmd := &cobra.Command{
		Use:   "inspect FILE",
		Short: "Print a model's architecture, dimensions, tensor types and tokenizer",
		Long: `Read a GGUF file's metadata and tensor table (no weights are loaded) and print
the architecture and its dimensions, the tensor types with their counts and
bytes, the tokenizer and whether a chat template is present. A file svc cannot
run (unknown architecture, missing or misshapen tensor) is still described,
with the reason, and the command exits with status 1. A LoRA adapter file
(general.type = adapter) is described as one: architecture, alpha, ranks,
types and adapted matrices; with --base MODEL, whether it fits that model.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			f, err := gguf.Open(path)
			if err != nil {
				return fmt.Errorf("model inspect %s: %w", path, err)
			}
			if t, _ := f.String("general.type"); t == "adapter" {
				f.Close()
				ains, err := inspectAdapter(path, base)
				if ains != nil {
					if werr := ains.write(cmd.OutOrStdout(), asJSON); werr != nil {
						return werr
					}
				}
				if err != nil {
					return fmt.Errorf("model inspect %s: %w", path, err)
				}
				return nil
			}
			ins := inspectFile(f)
			var runErr error
			if ins.Runnable {
				m, err := model.New(f, model.Options{})
				if err != nil {
					ins.Runnable, ins.Problem = false, err.Error()
				} else {
					ins.Digest = m.Digest()
				}
			}
			if !ins.Runnable {
				runErr = fmt.Errorf("model inspect %s: svc cannot run this model: %s", path, ins.Problem)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(ins); err != nil {
					return err
				}
			} else if err := ins.write(out); err != nil {
				return err
			}
			if cerr := f.Close(); cerr != nil && runErr == nil {
				runErr = cerr
			}
			return runErr
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().StringVar(&base, "base", "", "for an adapter: the base model to check it against")
	return cmd
}

func inspectFile(f *gguf.File) *inspection {
	ins := &inspection{File: f.Path, GGUFVersion: f.Version, Tensors: len(f.Tensors)}
	ins.Architecture, _ = f.String("general.architecture")
	byType := map[string]*typeStat{}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		name := ti.Type.String()
		s := byType[name]
		if s == nil {
			s = &typeStat{Type: name}
			byType[name] = s
		}
		s.Tensors++
		s.Bytes += ti.Size
		ins.TensorBytes += ti.Size
	}
	for _, s := range byType {
		ins.Types = append(ins.Types, *s)
	}
	sort.Slice(ins.Types, func(i, j int) bool { return ins.Types[i].Bytes > ins.Types[j].Bytes })
	ins.Tokenizer, _ = f.String("tokenizer.ggml.model")
	ins.PreTokenizer, _ = f.String("tokenizer.ggml.pre")
	if toks, ok := f.Strings("tokenizer.ggml.tokens"); ok {
		ins.VocabSize = len(toks)
	}
	tpl, _ := f.String("tokenizer.chat_template")
	ins.ChatTemplate = tpl != ""
	cfg, err := model.ParseConfig(f)
	if err != nil {
		ins.Problem = err.Error()
		return ins
	}
	ins.Config, ins.Name, ins.Runnable = &cfg, cfg.Name, true
	return ins
}

func (ins *inspection) write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	p("file", ins.File)
	p("gguf version", ins.GGUFVersion)
	p("architecture", ins.Architecture)
	if c := ins.Config; c != nil {
		p("name", c.Name)
		p("blocks", c.Blocks)
		p("embedding", c.Dim)
		p("feed-forward", c.FFN)
		p("heads", fmt.Sprintf("%d query, %d key/value, %d wide", c.Heads, c.KVHeads, c.HeadDim))
		p("vocabulary", c.Vocab)
		p("context", c.Context)
		rope := "adjacent pairs"
		if c.RopeNeox {
			rope = "neox (halves)"
		}
		scale := ""
		if c.RopeFreqScale != 1 {
			scale = fmt.Sprintf(", linear scaling ×%g", 1/c.RopeFreqScale)
		}
		if c.RopeFactors {
			scale += ", rope_freqs factors"
		}
		p("rope", fmt.Sprintf("base %g, %d dims, %s%s", c.RopeBase, c.RopeDims, rope, scale))
		p("rms norm eps", c.Eps)
		head := "output.weight"
		if c.TiedHead {
			head = "tied to token_embd.weight"
		}
		p("output head", head)
	}
	if ins.Digest != "" {
		p("digest", ins.Digest)
	}
	p("tensors", fmt.Sprintf("%d, %s", ins.Tensors, inspectBytes(ins.TensorBytes)))
	for _, s := range ins.Types {
		p("  "+s.Type, fmt.Sprintf("%d tensors, %s", s.Tensors, inspectBytes(s.Bytes)))
	}
	tok := ins.Tokenizer
	if tok == "" {
		tok = "none"
	} else {
		if ins.PreTokenizer != "" {
			tok += " (pre-tokenizer " + ins.PreTokenizer + ")"
		}
		tok += fmt.Sprintf(", %d tokens", ins.VocabSize)
	}
	p("tokenizer", tok)
	p("chat template", map[bool]string{true: "present", false: "absent"}[ins.ChatTemplate])
	if !ins.Runnable {
		p("runnable", "no: "+ins.Problem)
	}
	return tw.Flush()
}

func inspectBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

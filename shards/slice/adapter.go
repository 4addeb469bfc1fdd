package slice

import (
	"fmt"
	"strings"

	"svc/shards/gguf"
)

// Adapters. A LoRA adapter placed with a model travels the same way as the
// model: a manifest of kind KindAdapter (its header and every tensor's
// sha256; its Digest is the whole file's sha256, the identity nodes
// announce), and sparse copies that hold the lora_a/lora_b pairs of some
// blocks only (NeedBlocks), written and checked by Write and Check.

// KindAdapter is the Kind of an adapter's manifest.
const KindAdapter = "adapter"

// BuildAdapter reads a whole GGUF adapter file and describes it. It checks
// only that the file is an adapter; lora.Open checks the rest.
func BuildAdapter(path string) (*Manifest, error) {
	gf, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	defer gf.Close()
	if err := checkAdapterHeader(gf); err != nil {
		return nil, fmt.Errorf("slice: %s: %w", path, err)
	}
	return buildKind(path, gf, KindAdapter)
}

// checkAdapterHeader requires general.type = "adapter".
func checkAdapterHeader(gf *gguf.File) error {
	v, _ := gf.Get("general.type")
	if s, _ := v.(string); s != "adapter" {
		return fmt.Errorf("general.type is %v, want \"adapter\"", v)
	}
	return nil
}

// NeedBlocks lists, in file order, the adapter tensors a shard of blocks
// [first,last) of a model of blocks blocks uses: the pairs of its blocks,
// those of the token embedding at the first range (which embeds; a tied
// head is not adapted by them, see package model), those of the output
// head at the last, and any other tensor in every range.
func (m *Manifest) NeedBlocks(first, last, blocks int) ([]Tensor, error) {
	if m.Kind != KindAdapter {
		return nil, fmt.Errorf("slice: NeedBlocks is for adapters; models use Need")
	}
	if first < 0 || last > blocks || first >= last {
		return nil, fmt.Errorf("slice: blocks [%d,%d) are not a non-empty part of the model's [0,%d)", first, last, blocks)
	}
	var out []Tensor
	for _, t := range m.Tensors {
		b, isBlock := blockOf(t.Name)
		switch {
		case isBlock:
			if b >= first && b < last {
				out = append(out, t)
			}
		case strings.HasPrefix(t.Name, "token_embd."):
			if first == 0 {
				out = append(out, t)
			}
		case strings.HasPrefix(t.Name, "output."):
			if last == blocks {
				out = append(out, t)
			}
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

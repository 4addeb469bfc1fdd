package modeltools

import (
	"fmt"
	"sort"
	"strings"
)

// Shape is the architecture of a Llama-family model: everything Synth needs
// except the vocabulary, which comes from a tokenizer GGUF.
type Shape struct {
	Name     string
	Dim      int // embedding length
	Blocks   int
	Heads    int
	KVHeads  int
	FFN      int // feed-forward inner size
	Context  int // trained context length written to the metadata
	RopeBase float32
	Eps      float32 // RMS-norm epsilon
	// Tied models have no output.weight: the head reuses token_embd.
	Tied bool
	// Llama3Rope, when set, adds rope_freqs.weight with Llama 3's
	// frequency-dependent RoPE scaling factors.
	Llama3Rope *Llama3Rope
}

// Llama3Rope holds the rope_scaling parameters of Llama 3.1/3.2 checkpoints.
type Llama3Rope struct {
	Factor        float64
	LowFreqFactor float64
	HighFreqFact  float64
	OrigContext   float64
}

// HeadDim is the size of one attention head.
func (s Shape) HeadDim() int { return s.Dim / s.Heads }

// Validate checks that the shape describes a model the writer can lay out.
func (s Shape) Validate() error {
	switch {
	case s.Dim <= 0 || s.Blocks <= 0 || s.Heads <= 0 || s.KVHeads <= 0 || s.FFN <= 0 || s.Context <= 0:
		return fmt.Errorf("modeltools: shape %q: sizes must be positive", s.Name)
	case s.Dim%s.Heads != 0:
		return fmt.Errorf("modeltools: shape %q: dim %d is not a multiple of %d heads", s.Name, s.Dim, s.Heads)
	case s.Heads%s.KVHeads != 0:
		return fmt.Errorf("modeltools: shape %q: %d heads are not a multiple of %d KV heads", s.Name, s.Heads, s.KVHeads)
	case s.HeadDim()%2 != 0:
		return fmt.Errorf("modeltools: shape %q: head size %d is odd", s.Name, s.HeadDim())
	case s.Dim%32 != 0 || s.FFN%32 != 0:
		return fmt.Errorf("modeltools: shape %q: dim and ffn must be multiples of 32", s.Name)
	case s.RopeBase <= 0 || s.Eps <= 0:
		return fmt.Errorf("modeltools: shape %q: rope base and epsilon must be positive", s.Name)
	}
	return nil
}

// shapes are the published hyper-parameters of the models we benchmark
// against (from their Hugging Face config.json), plus one tiny shape for
// tests.
var shapes = map[string]Shape{
	"tinyllama-1.1b": {
		Name: "tinyllama-1.1b", Dim: 2048, Blocks: 22, Heads: 32, KVHeads: 4, FFN: 5632,
		Context: 2048, RopeBase: 10000, Eps: 1e-5,
	},
	"llama-3.2-1b": {
		Name: "llama-3.2-1b", Dim: 2048, Blocks: 16, Heads: 32, KVHeads: 8, FFN: 8192,
		Context: 131072, RopeBase: 500000, Eps: 1e-5, Tied: true,
		Llama3Rope: &Llama3Rope{Factor: 32, LowFreqFactor: 1, HighFreqFact: 4, OrigContext: 8192},
	},
	// llama-3.2-3b has head size 128, as Llama 3 8B, Mistral 7B and Qwen2
	// 7B do, so it exercises the attention paths the 64-wide shapes above
	// do not.
	"llama-3.2-3b": {
		Name: "llama-3.2-3b", Dim: 3072, Blocks: 28, Heads: 24, KVHeads: 8, FFN: 8192,
		Context: 131072, RopeBase: 500000, Eps: 1e-5, Tied: true,
		Llama3Rope: &Llama3Rope{Factor: 32, LowFreqFactor: 1, HighFreqFact: 4, OrigContext: 8192},
	},
	// tiny: a few MB, for tests; sizes are multiples of 256 so that every
	// k-quant applies without fallbacks.
	"tiny": {
		Name: "tiny", Dim: 256, Blocks: 2, Heads: 4, KVHeads: 2, FFN: 512,
		Context: 512, RopeBase: 10000, Eps: 1e-5,
	},
}

// LookupShape returns the named shape (case-insensitive).
func LookupShape(name string) (Shape, error) {
	if s, ok := shapes[strings.ToLower(name)]; ok {
		return s, nil
	}
	return Shape{}, fmt.Errorf("modeltools: unknown shape %q (known: %s)", name, strings.Join(ShapeNames(), ", "))
}

// ShapeNames lists the known shapes, sorted.
func ShapeNames() []string {
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

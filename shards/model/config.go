package model

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"svc/shards/gguf"
)

// ErrUnsupported is wrapped by errors about models this package cannot run
// (unknown architecture, unsupported RoPE scaling, mixture of experts...).
var ErrUnsupported = errors.New("unsupported model")

// ErrBadModel is wrapped by errors about missing or inconsistent metadata
// and tensors.
var ErrBadModel = errors.New("bad model")

// Config is the architecture of a model, read from GGUF metadata.
type Config struct {
	Arch    string // "llama" or "qwen2"
	Name    string // general.name, else the file name without .gguf
	Blocks  int    // transformer blocks
	Dim     int    // embedding length (hidden size)
	FFN     int    // feed-forward inner size
	Heads   int    // query heads
	KVHeads int    // key/value heads (grouped-query attention when < Heads)
	HeadDim int    // per-head size of queries, keys and values
	Vocab   int    // rows of the token embedding
	Context int    // trained context length (maximum session length)
	Eps     float32

	// RoPE: the first RopeDims dims of each head rotate. Neox rotates pairs
	// (i, i+RopeDims/2) (Qwen2); otherwise adjacent pairs (2i, 2i+1), which
	// llama.cpp's converter arranges for Llama by permuting Q and K.
	RopeBase      float32
	RopeDims      int
	RopeNeox      bool
	RopeFreqScale float32 // 1/factor for linear scaling, else 1
	RopeFactors   bool    // rope_freqs.weight divides the angles (Llama 3)

	TiedHead bool // no output.weight: the head is token_embd.weight

	// Special tokens; -1 when absent from the metadata.
	BOS, EOS, EOT int32
}

func metaInt(f *gguf.File, key string) (int, error) {
	v, ok := f.Int(key)
	if !ok {
		if f.Has(key) {
			return 0, fmt.Errorf("model: %w: metadata key %s is not an integer", ErrBadModel, key)
		}
		return 0, fmt.Errorf("model: %w: missing metadata key %s", ErrBadModel, key)
	}
	if v <= 0 || v > 1<<30 {
		return 0, fmt.Errorf("model: %w: metadata key %s = %d is out of range", ErrBadModel, key, v)
	}
	return int(v), nil
}

func metaIntOr(f *gguf.File, key string, def int) (int, error) {
	if !f.Has(key) {
		return def, nil
	}
	return metaInt(f, key)
}

func metaFloatOr(f *gguf.File, key string, def float64) (float64, error) {
	if !f.Has(key) {
		return def, nil
	}
	v, ok := f.Float(key)
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("model: %w: metadata key %s is not a finite number", ErrBadModel, key)
	}
	return v, nil
}

func tokenID(f *gguf.File, key string) int32 {
	v, ok := f.Int(key)
	if !ok || v < 0 || v > math.MaxInt32 {
		return -1
	}
	return int32(v)
}

// ParseConfig reads the architecture configuration from a GGUF file's
// metadata and tensor table. It does not touch tensor data.
func ParseConfig(f *gguf.File) (Config, error) {
	var c Config
	arch, err := f.Architecture()
	if err != nil {
		return c, fmt.Errorf("model: %w", err)
	}
	switch arch {
	case "llama", "qwen2":
	default:
		return c, fmt.Errorf("model: %w: architecture %q (supported: llama, qwen2)", ErrUnsupported, arch)
	}
	c.Arch = arch
	c.Name, _ = f.String("general.name")
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(f.Path), ".gguf")
	}
	k := func(s string) string { return arch + "." + s }
	if c.Blocks, err = metaInt(f, k("block_count")); err != nil {
		return c, err
	}
	if c.Dim, err = metaInt(f, k("embedding_length")); err != nil {
		return c, err
	}
	if c.FFN, err = metaInt(f, k("feed_forward_length")); err != nil {
		return c, err
	}
	if c.Heads, err = metaInt(f, k("attention.head_count")); err != nil {
		return c, err
	}
	if c.KVHeads, err = metaIntOr(f, k("attention.head_count_kv"), c.Heads); err != nil {
		return c, err
	}
	if c.Heads%c.KVHeads != 0 {
		return c, fmt.Errorf("model: %w: %d attention heads are not a multiple of %d KV heads", ErrBadModel, c.Heads, c.KVHeads)
	}
	if c.Dim%c.Heads != 0 && !f.Has(k("attention.key_length")) {
		return c, fmt.Errorf("model: %w: embedding length %d is not a multiple of %d heads", ErrBadModel, c.Dim, c.Heads)
	}
	if c.HeadDim, err = metaIntOr(f, k("attention.key_length"), c.Dim/c.Heads); err != nil {
		return c, err
	}
	vl, err := metaIntOr(f, k("attention.value_length"), c.HeadDim)
	if err != nil {
		return c, err
	}
	if vl != c.HeadDim {
		return c, fmt.Errorf("model: %w: key length %d differs from value length %d", ErrUnsupported, c.HeadDim, vl)
	}
	if c.HeadDim%2 != 0 {
		return c, fmt.Errorf("model: %w: head size %d is odd", ErrBadModel, c.HeadDim)
	}
	if c.Context, err = metaInt(f, k("context_length")); err != nil {
		return c, err
	}
	eps, err := metaFloatOr(f, k("attention.layer_norm_rms_epsilon"), -1)
	if err != nil {
		return c, err
	}
	if eps <= 0 || eps >= 1 {
		return c, fmt.Errorf("model: %w: metadata key %s missing or not in (0,1)", ErrBadModel, k("attention.layer_norm_rms_epsilon"))
	}
	c.Eps = float32(eps)

	base, err := metaFloatOr(f, k("rope.freq_base"), 10000)
	if err != nil {
		return c, err
	}
	if base <= 1 {
		return c, fmt.Errorf("model: %w: %s = %v must be > 1", ErrBadModel, k("rope.freq_base"), base)
	}
	c.RopeBase = float32(base)
	if c.RopeDims, err = metaIntOr(f, k("rope.dimension_count"), c.HeadDim); err != nil {
		return c, err
	}
	if c.RopeDims > c.HeadDim || c.RopeDims%2 != 0 {
		return c, fmt.Errorf("model: %w: %s = %d must be even and at most the head size %d", ErrBadModel, k("rope.dimension_count"), c.RopeDims, c.HeadDim)
	}
	c.RopeNeox = arch == "qwen2"
	c.RopeFreqScale = 1
	scaling, _ := f.String(k("rope.scaling.type"))
	factor, err := metaFloatOr(f, k("rope.scaling.factor"), 0)
	if err != nil {
		return c, err
	}
	if scaling == "" && f.Has(k("rope.scale_linear")) {
		// Older files state linear scaling with this key alone.
		if factor, err = metaFloatOr(f, k("rope.scale_linear"), 0); err != nil {
			return c, err
		}
		scaling = "linear"
	}
	switch scaling {
	case "", "none":
	case "linear":
		if factor > 0 && factor != 1 {
			c.RopeFreqScale = float32(1 / factor)
		}
	default:
		return c, fmt.Errorf("model: %w: %s = %q (supported: none, linear)", ErrUnsupported, k("rope.scaling.type"), scaling)
	}
	if n, ok := f.Int(k("expert_count")); ok && n > 0 {
		return c, fmt.Errorf("model: %w: mixture of experts (%s = %d)", ErrUnsupported, k("expert_count"), n)
	}

	emb, ok := f.Tensor("token_embd.weight")
	if !ok {
		return c, fmt.Errorf("model: %w: missing tensor token_embd.weight", ErrBadModel)
	}
	if len(emb.Dims) != 2 || emb.Dims[0] != uint64(c.Dim) || emb.Dims[1] > 1<<24 {
		return c, fmt.Errorf("model: %w: tensor token_embd.weight has shape %v, want [%d vocab]", ErrBadModel, emb.Dims, c.Dim)
	}
	c.Vocab = int(emb.Dims[1])
	_, hasOut := f.Tensor("output.weight")
	c.TiedHead = !hasOut
	_, c.RopeFactors = f.Tensor("rope_freqs.weight")

	c.BOS = tokenID(f, "tokenizer.ggml.bos_token_id")
	c.EOS = tokenID(f, "tokenizer.ggml.eos_token_id")
	c.EOT = tokenID(f, "tokenizer.ggml.eot_token_id")
	return c, nil
}

// QDim is the width of the concatenated query heads.
func (c *Config) QDim() int { return c.Heads * c.HeadDim }

// KVDim is the width of the concatenated key (or value) heads.
func (c *Config) KVDim() int { return c.KVHeads * c.HeadDim }

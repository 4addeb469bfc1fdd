package modeltools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

// WeightStd is the standard deviation of the random matrix weights. With
// unit norm weights it keeps each projection's output near unit scale
// (0.02·√2048 ≈ 0.9), so activations stay finite and non-degenerate
// through dozens of blocks, as in a trained model.
const WeightStd = 0.02

// SynthOptions configures Synth.
type SynthOptions struct {
	Shape Shape
	// Vocab supplies the tokenizer: every tokenizer.* metadata key is
	// copied, and the number of tokens sets the vocabulary size.
	Vocab *gguf.File
	Type  FileType
	Seed  int64
	// Threads quantizing rows in parallel; <= 0 means all cores. The
	// output does not depend on it.
	Threads int
	// Progress, if set, is called with bytes of tensor data written so far
	// and the total.
	Progress func(done, total int64)
}

// synthTensor is one tensor of a synthetic model and how to fill it.
type synthTensor struct {
	spec  gguf.TensorSpec
	fill  rowSource // nil: random normal weights
	rows  int
	cols  int
	index int
}

// Synth writes a random-weight model of o.Shape to w as GGUF v3. The bytes
// depend only on the shape, vocabulary, type and seed.
func Synth(ctx context.Context, w io.Writer, o SynthOptions) error {
	s := o.Shape
	if err := s.Validate(); err != nil {
		return err
	}
	if o.Vocab == nil {
		return errors.New("modeltools: synth: no vocabulary GGUF given")
	}
	if o.Type.Name == "" {
		return errors.New("modeltools: synth: no type given")
	}
	tokens, ok := o.Vocab.Strings("tokenizer.ggml.tokens")
	if !ok || len(tokens) == 0 {
		return fmt.Errorf("modeltools: synth: %s has no tokenizer.ggml.tokens", o.Vocab.Path)
	}
	vocab := len(tokens)
	kvs := synthMetadata(s, o.Type, vocab, o.Vocab)
	tensors, err := synthTensors(s, o.Type, vocab)
	if err != nil {
		return err
	}
	specs := make([]gguf.TensorSpec, len(tensors))
	var total int64
	for i, t := range tensors {
		specs[i] = t.spec
		sz, err := t.spec.Size()
		if err != nil {
			return fmt.Errorf("modeltools: synth: %w", err)
		}
		total += int64(sz)
	}
	pool := tensor.NewPool(o.Threads)
	defer pool.Close()
	var done int64
	rw := &rowWriter{ctx: ctx, pool: pool}
	if o.Progress != nil {
		rw.progress = func(n int64) { done += n; o.Progress(done, total) }
	}
	err = gguf.Write(w, kvs, specs, 0, func(i int, w io.Writer) error {
		t := tensors[i]
		src := t.fill
		if src == nil {
			src = normalRows(o.Seed, uint64(t.index))
		}
		return rw.write(w, tensor.Type(t.spec.Type), t.rows, t.cols, src)
	})
	if err != nil {
		return fmt.Errorf("modeltools: synth %s %s: %w", s.Name, o.Type, err)
	}
	return nil
}

// SynthFile writes the model to path through a temporary file in the same
// directory, so a failed or interrupted run leaves no partial model behind.
func SynthFile(ctx context.Context, path string, o SynthOptions) error {
	return writeFileAtomic(path, func(w io.Writer) error { return Synth(ctx, w, o) })
}

func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("modeltools: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// CreateTemp makes the file private; a model file is ordinary data.
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("modeltools: %w", err)
	}
	if err = write(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("modeltools: close %s: %w", f.Name(), err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("modeltools: %w", err)
	}
	return nil
}

// normalRows draws N(0, WeightStd²) values, one independent stream per
// (tensor, row) so that rows can be generated in any order on any thread.
func normalRows(seed int64, tensorIndex uint64) rowSource {
	return func(r int, dst []float32) error {
		rng := rand.New(rand.NewPCG(uint64(seed), tensorIndex<<32|uint64(r)))
		for i := range dst {
			dst[i] = float32(rng.NormFloat64() * WeightStd)
		}
		return nil
	}
}

func constRows(v float32) rowSource {
	return func(_ int, dst []float32) error {
		for i := range dst {
			dst[i] = v
		}
		return nil
	}
}

func synthMetadata(s Shape, ft FileType, vocab int, tok *gguf.File) []gguf.KV {
	u32 := func(k string, v int) gguf.KV { return gguf.KV{Key: k, Type: gguf.ValUint32, Value: uint32(v)} }
	f32 := func(k string, v float32) gguf.KV { return gguf.KV{Key: k, Type: gguf.ValFloat32, Value: v} }
	str := func(k, v string) gguf.KV { return gguf.KV{Key: k, Type: gguf.ValString, Value: v} }
	kvs := []gguf.KV{
		str("general.architecture", "llama"),
		str("general.type", "model"),
		str("general.name", s.Name+"-synthetic"),
		u32("general.file_type", int(ft.ID)),
		u32("general.quantization_version", 2),
		u32("llama.context_length", s.Context),
		u32("llama.embedding_length", s.Dim),
		u32("llama.block_count", s.Blocks),
		u32("llama.feed_forward_length", s.FFN),
		u32("llama.rope.dimension_count", s.HeadDim()),
		u32("llama.attention.head_count", s.Heads),
		u32("llama.attention.head_count_kv", s.KVHeads),
		f32("llama.attention.layer_norm_rms_epsilon", s.Eps),
		f32("llama.rope.freq_base", s.RopeBase),
		u32("llama.vocab_size", vocab),
	}
	for _, kv := range tok.KVs {
		if strings.HasPrefix(kv.Key, "tokenizer.") {
			kvs = append(kvs, kv)
		}
	}
	return kvs
}

func synthTensors(s Shape, ft FileType, vocab int) ([]synthTensor, error) {
	var out []synthTensor
	add := func(name string, fill rowSource, dims ...int) {
		d := make([]uint64, len(dims))
		for i, x := range dims {
			d[i] = uint64(x)
		}
		typ := tensor.F32
		if quantizable(name, d) {
			typ = ft.typeFor(tensorInfo{name: name, dims: d, layer: layerOf(name), blocks: s.Blocks, tied: s.Tied})
		}
		rows := 1
		for _, x := range dims[1:] {
			rows *= x
		}
		out = append(out, synthTensor{
			spec: gguf.TensorSpec{Name: name, Dims: d, Type: gguf.TensorType(typ)},
			fill: fill, rows: rows, cols: dims[0], index: len(out),
		})
	}
	kvDim := s.KVHeads * s.HeadDim()
	add("token_embd.weight", nil, s.Dim, vocab)
	if s.Llama3Rope != nil {
		f := llama3RopeFactors(s)
		add("rope_freqs.weight", func(_ int, dst []float32) error { copy(dst, f); return nil }, len(f))
	}
	for b := 0; b < s.Blocks; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		add(p+"attn_norm.weight", constRows(1), s.Dim)
		add(p+"attn_q.weight", nil, s.Dim, s.Dim)
		add(p+"attn_k.weight", nil, s.Dim, kvDim)
		add(p+"attn_v.weight", nil, s.Dim, kvDim)
		add(p+"attn_output.weight", nil, s.Dim, s.Dim)
		add(p+"ffn_norm.weight", constRows(1), s.Dim)
		add(p+"ffn_gate.weight", nil, s.Dim, s.FFN)
		add(p+"ffn_up.weight", nil, s.Dim, s.FFN)
		add(p+"ffn_down.weight", nil, s.FFN, s.Dim)
	}
	add("output_norm.weight", constRows(1), s.Dim)
	if !s.Tied {
		add("output.weight", nil, s.Dim, vocab)
	}
	for _, t := range out {
		if _, err := t.spec.Size(); err != nil {
			return nil, fmt.Errorf("modeltools: synth: %w", err)
		}
	}
	return out, nil
}

// llama3RopeFactors computes Llama 3's per-frequency RoPE divisors: high
// frequencies are kept, low ones divided by Factor, with a smooth ramp in
// between (the rope_scaling "llama3" rule of the HF config).
func llama3RopeFactors(s Shape) []float32 {
	r := s.Llama3Rope
	hd := s.HeadDim()
	lowWave := r.OrigContext / r.LowFreqFactor
	highWave := r.OrigContext / r.HighFreqFact
	out := make([]float32, hd/2)
	for i := range out {
		freq := 1 / math.Pow(float64(s.RopeBase), float64(2*i)/float64(hd))
		wave := 2 * math.Pi / freq
		switch {
		case wave < highWave:
			out[i] = 1
		case wave > lowWave:
			out[i] = float32(r.Factor)
		default:
			smooth := (r.OrigContext/wave - r.LowFreqFactor) / (r.HighFreqFact - r.LowFreqFactor)
			out[i] = float32(1 / ((1-smooth)/r.Factor + smooth))
		}
	}
	return out
}

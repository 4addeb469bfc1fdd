package model

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

// blockWeights are the tensors of one transformer block. Matrices are views
// of the mapping or packed copies (loadMatrix); the small norm and bias
// vectors are copied as float32.
type blockWeights struct {
	attnNorm       []float32
	wq, wk, wv, wo tensor.Matrix
	bq, bk, bv, bo []float32 // nil when the model has none
	ffnNorm        []float32
	wgate, wup     tensor.Matrix
	wdown          tensor.Matrix
}

// headWeights are the output norm and the output projection (vocabulary
// logits).
type headWeights struct {
	norm []float32
	out  tensor.Matrix
}

func shapeString(d []uint64) string { return fmt.Sprint(d) }

// lookup finds a tensor and checks its shape (GGML order: innermost first).
func lookup(f *gguf.File, name string, dims ...int) (*gguf.TensorInfo, error) {
	ti, ok := f.Tensor(name)
	if !ok {
		return nil, fmt.Errorf("model: %w: missing tensor %s", ErrBadModel, name)
	}
	if len(ti.Dims) != len(dims) {
		// A trailing dimension of 1 is the same shape.
		if !(len(ti.Dims) == len(dims)+1 && ti.Dims[len(dims)] == 1) {
			return nil, fmt.Errorf("model: %w: tensor %s has shape %s, want %v", ErrBadModel, name, shapeString(ti.Dims), dims)
		}
	}
	for i, d := range dims {
		if ti.Dims[i] != uint64(d) {
			return nil, fmt.Errorf("model: %w: tensor %s has shape %s, want %v", ErrBadModel, name, shapeString(ti.Dims), dims)
		}
	}
	if !tensor.Type(ti.Type).Valid() {
		return nil, fmt.Errorf("model: %w: tensor %s has type %v, which this build cannot compute with", ErrUnsupported, name, ti.Type)
	}
	return ti, nil
}

// matrixSpec checks a weight matrix of rows×cols (GGML dims [cols rows]).
func matrixSpec(f *gguf.File, name string, rows, cols int) (*gguf.TensorInfo, error) {
	return lookup(f, name, cols, rows)
}

// loadMatrix returns a weight matrix as a view of the mapping or, with
// pack, as the copy tensor.Pack makes where the kernels stream that layout
// faster; the copy's mapped pages are then dropped from the process (they
// stay in the page cache), so the weights are not resident twice.
func loadMatrix(f *gguf.File, name string, rows, cols int, pack bool) (tensor.Matrix, error) {
	ti, err := matrixSpec(f, name, rows, cols)
	if err != nil {
		return tensor.Matrix{}, err
	}
	m := tensor.Matrix{Type: tensor.Type(ti.Type), Rows: rows, Cols: cols, Data: f.Data(ti)}
	if err := m.Validate(); err != nil {
		return tensor.Matrix{}, fmt.Errorf("model: %w: tensor %s: %w", ErrBadModel, name, err)
	}
	if !pack {
		return m, nil
	}
	p, err := tensor.Pack(m)
	if err != nil {
		return tensor.Matrix{}, fmt.Errorf("model: tensor %s: %w", name, err)
	}
	if p.Packed() {
		if err := releaseMapped(f, ti); err != nil {
			return tensor.Matrix{}, fmt.Errorf("model: tensor %s: %w", name, err)
		}
	}
	return p, nil
}

// releaseMapped unmaps from the process the whole pages of tensor ti's
// bytes (MADV_DONTNEED; a file mapping reads them back from the page cache
// if they are touched again). The pages at its ends may hold other tensors
// and are left alone. It does nothing for files not mapped from disk.
func releaseMapped(f *gguf.File, ti *gguf.TensorInfo) error {
	page := uint64(os.Getpagesize())
	start := f.DataOffset() + ti.Offset
	lo, hi := (start+page-1)&^(page-1), (start+ti.Size)&^(page-1)
	if hi <= lo {
		return nil
	}
	inner := *ti
	inner.Offset, inner.Size = lo-f.DataOffset(), hi-lo
	return f.Advise(&inner, unix.MADV_DONTNEED)
}

// loadVector reads a 1-D tensor of n elements as float32; a missing
// optional vector gives nil.
func loadVector(f *gguf.File, name string, n int, required bool) ([]float32, error) {
	if _, ok := f.Tensor(name); !ok && !required {
		return nil, nil
	}
	ti, err := lookup(f, name, n)
	if err != nil {
		return nil, err
	}
	v := make([]float32, n)
	if err := tensor.Dequantize(tensor.Type(ti.Type), f.Data(ti), v); err != nil {
		return nil, fmt.Errorf("model: %w: tensor %s: %w", ErrBadModel, name, err)
	}
	return v, nil
}

func blockName(i int, s string) string { return fmt.Sprintf("blk.%d.%s", i, s) }

// checkTensors verifies, from the tensor table alone, that every tensor the
// configuration needs exists with the right shape and a supported type.
func checkTensors(f *gguf.File, c *Config) error {
	if _, err := matrixSpec(f, "token_embd.weight", c.Vocab, c.Dim); err != nil {
		return err
	}
	if _, err := lookup(f, "output_norm.weight", c.Dim); err != nil {
		return err
	}
	if !c.TiedHead {
		if _, err := matrixSpec(f, "output.weight", c.Vocab, c.Dim); err != nil {
			return err
		}
	}
	if c.RopeFactors {
		if _, err := lookup(f, "rope_freqs.weight", c.RopeDims/2); err != nil {
			return err
		}
	}
	for i := 0; i < c.Blocks; i++ {
		if _, ok := f.Tensor(blockName(i, "ffn_gate_inp.weight")); ok {
			return fmt.Errorf("model: %w: mixture of experts (tensor %s)", ErrUnsupported, blockName(i, "ffn_gate_inp.weight"))
		}
		for _, t := range blockTensors {
			name := blockName(i, t.suffix)
			if _, ok := f.Tensor(name); !ok && !t.required(c) {
				continue
			}
			if _, err := lookup(f, name, t.dims(c)...); err != nil {
				return err
			}
		}
	}
	return nil
}

// loraSlot numbers the block matrices an adapter may adapt.
type loraSlot int

const (
	loraQ loraSlot = iota
	loraK
	loraV
	loraO
	loraGate
	loraUp
	loraDown
	loraSlots
	noLoRA loraSlot = -1
)

// blockTensor declares one tensor of a block, once: its GGUF name (after
// "blk.N."), its GGML shape, whether the configuration requires it, where
// the loader puts it, and which adapter slot (if any) applies to it. The
// checker, the loader, ShardTensors and adapter matching all read this
// table.
type blockTensor struct {
	suffix   string
	dims     func(c *Config) []int // GGML order: inputs first
	required func(c *Config) bool
	mat      func(b *blockWeights) *tensor.Matrix // matrices
	vec      func(b *blockWeights) *[]float32     // vectors (float32 copies)
	lora     loraSlot
}

func always(*Config) bool    { return true }
func never(*Config) bool     { return false }
func qkvBias(c *Config) bool { return c.Arch == "qwen2" } // Qwen2 always has Q/K/V biases; Llama may
func dim(c *Config) []int    { return []int{c.Dim} }
func qdim(c *Config) []int   { return []int{c.QDim()} }
func kvdim(c *Config) []int  { return []int{c.KVDim()} }
func dimQ(c *Config) []int   { return []int{c.Dim, c.QDim()} }
func dimKV(c *Config) []int  { return []int{c.Dim, c.KVDim()} }
func qDim(c *Config) []int   { return []int{c.QDim(), c.Dim} }
func dimFFN(c *Config) []int { return []int{c.Dim, c.FFN} }
func ffnDim(c *Config) []int { return []int{c.FFN, c.Dim} }

var blockTensors = []blockTensor{
	{"attn_norm.weight", dim, always, nil, func(b *blockWeights) *[]float32 { return &b.attnNorm }, noLoRA},
	{"attn_q.weight", dimQ, always, func(b *blockWeights) *tensor.Matrix { return &b.wq }, nil, loraQ},
	{"attn_k.weight", dimKV, always, func(b *blockWeights) *tensor.Matrix { return &b.wk }, nil, loraK},
	{"attn_v.weight", dimKV, always, func(b *blockWeights) *tensor.Matrix { return &b.wv }, nil, loraV},
	{"attn_output.weight", qDim, always, func(b *blockWeights) *tensor.Matrix { return &b.wo }, nil, loraO},
	{"attn_q.bias", qdim, qkvBias, nil, func(b *blockWeights) *[]float32 { return &b.bq }, noLoRA},
	{"attn_k.bias", kvdim, qkvBias, nil, func(b *blockWeights) *[]float32 { return &b.bk }, noLoRA},
	{"attn_v.bias", kvdim, qkvBias, nil, func(b *blockWeights) *[]float32 { return &b.bv }, noLoRA},
	{"attn_output.bias", dim, never, nil, func(b *blockWeights) *[]float32 { return &b.bo }, noLoRA},
	{"ffn_norm.weight", dim, always, nil, func(b *blockWeights) *[]float32 { return &b.ffnNorm }, noLoRA},
	{"ffn_gate.weight", dimFFN, always, func(b *blockWeights) *tensor.Matrix { return &b.wgate }, nil, loraGate},
	{"ffn_up.weight", dimFFN, always, func(b *blockWeights) *tensor.Matrix { return &b.wup }, nil, loraUp},
	{"ffn_down.weight", ffnDim, always, func(b *blockWeights) *tensor.Matrix { return &b.wdown }, nil, loraDown},
}

func loadBlock(f *gguf.File, c *Config, i int, pack bool) (*blockWeights, error) {
	b := &blockWeights{}
	for _, t := range blockTensors {
		name, d := blockName(i, t.suffix), t.dims(c)
		var err error
		if t.mat != nil {
			*t.mat(b), err = loadMatrix(f, name, d[1], d[0], pack)
		} else {
			*t.vec(b), err = loadVector(f, name, d[0], t.required(c))
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

func loadHead(f *gguf.File, c *Config, pack bool) (*headWeights, error) {
	h := &headWeights{}
	var err error
	if h.norm, err = loadVector(f, "output_norm.weight", c.Dim, true); err != nil {
		return nil, err
	}
	name := "output.weight"
	if c.TiedHead {
		name = "token_embd.weight"
	}
	if h.out, err = loadMatrix(f, name, c.Vocab, c.Dim, pack); err != nil {
		return nil, err
	}
	return h, nil
}

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
		for _, s := range blockSpecs(c, i) {
			if _, ok := f.Tensor(s.name); !ok && !s.required {
				continue
			}
			if _, err := lookup(f, s.name, s.dims...); err != nil {
				return err
			}
		}
	}
	return nil
}

type tensorSpec struct {
	name     string
	dims     []int // GGML order
	required bool
}

// blockSpecs lists block i's tensors with their GGML shapes.
func blockSpecs(c *Config, i int) []tensorSpec {
	qkvBias := c.Arch == "qwen2" // Qwen2 always has Q/K/V biases; Llama may
	return []tensorSpec{
		{blockName(i, "attn_norm.weight"), []int{c.Dim}, true},
		{blockName(i, "attn_q.weight"), []int{c.Dim, c.QDim()}, true},
		{blockName(i, "attn_k.weight"), []int{c.Dim, c.KVDim()}, true},
		{blockName(i, "attn_v.weight"), []int{c.Dim, c.KVDim()}, true},
		{blockName(i, "attn_output.weight"), []int{c.QDim(), c.Dim}, true},
		{blockName(i, "attn_q.bias"), []int{c.QDim()}, qkvBias},
		{blockName(i, "attn_k.bias"), []int{c.KVDim()}, qkvBias},
		{blockName(i, "attn_v.bias"), []int{c.KVDim()}, qkvBias},
		{blockName(i, "attn_output.bias"), []int{c.Dim}, false},
		{blockName(i, "ffn_norm.weight"), []int{c.Dim}, true},
		{blockName(i, "ffn_gate.weight"), []int{c.Dim, c.FFN}, true},
		{blockName(i, "ffn_up.weight"), []int{c.Dim, c.FFN}, true},
		{blockName(i, "ffn_down.weight"), []int{c.FFN, c.Dim}, true},
	}
}

// blockTensorNames lists the names of block i's tensors present in f.
func blockTensorNames(f *gguf.File, c *Config, i int) []string {
	var names []string
	for _, s := range blockSpecs(c, i) {
		if _, ok := f.Tensor(s.name); ok {
			names = append(names, s.name)
		}
	}
	return names
}

func loadBlock(f *gguf.File, c *Config, i int, pack bool) (*blockWeights, error) {
	b := &blockWeights{}
	var err error
	qkvBias := c.Arch == "qwen2"
	steps := []func() error{
		func() error {
			b.attnNorm, err = loadVector(f, blockName(i, "attn_norm.weight"), c.Dim, true)
			return err
		},
		func() error {
			b.wq, err = loadMatrix(f, blockName(i, "attn_q.weight"), c.QDim(), c.Dim, pack)
			return err
		},
		func() error {
			b.wk, err = loadMatrix(f, blockName(i, "attn_k.weight"), c.KVDim(), c.Dim, pack)
			return err
		},
		func() error {
			b.wv, err = loadMatrix(f, blockName(i, "attn_v.weight"), c.KVDim(), c.Dim, pack)
			return err
		},
		func() error {
			b.wo, err = loadMatrix(f, blockName(i, "attn_output.weight"), c.Dim, c.QDim(), pack)
			return err
		},
		func() error { b.bq, err = loadVector(f, blockName(i, "attn_q.bias"), c.QDim(), qkvBias); return err },
		func() error { b.bk, err = loadVector(f, blockName(i, "attn_k.bias"), c.KVDim(), qkvBias); return err },
		func() error { b.bv, err = loadVector(f, blockName(i, "attn_v.bias"), c.KVDim(), qkvBias); return err },
		func() error { b.bo, err = loadVector(f, blockName(i, "attn_output.bias"), c.Dim, false); return err },
		func() error { b.ffnNorm, err = loadVector(f, blockName(i, "ffn_norm.weight"), c.Dim, true); return err },
		func() error {
			b.wgate, err = loadMatrix(f, blockName(i, "ffn_gate.weight"), c.FFN, c.Dim, pack)
			return err
		},
		func() error {
			b.wup, err = loadMatrix(f, blockName(i, "ffn_up.weight"), c.FFN, c.Dim, pack)
			return err
		},
		func() error {
			b.wdown, err = loadMatrix(f, blockName(i, "ffn_down.weight"), c.Dim, c.FFN, pack)
			return err
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
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

package modeltools

import (
	"context"
	"errors"
	"fmt"
	"io"

	"svc/shards/gguf"
	"svc/shards/tensor"
)

// QuantizeOptions configures Quantize.
type QuantizeOptions struct {
	Type FileType
	// Threads quantizing rows in parallel; <= 0 means all cores.
	Threads int
	// Progress, if set, is called with bytes of tensor data written so far
	// and the total.
	Progress func(done, total int64)
}

// Quantize writes in's model to w with its tensors converted to o.Type by
// llama-quantize's rules: 1-D tensors and norms keep their type, matrices
// get the file type's base type adjusted per tensor (output head, Q4_K_M's
// attn_v/ffn_down layers, k-quant fallbacks for odd row lengths). Tensors
// already of the chosen type are copied unchanged. Metadata is copied with
// general.file_type and general.quantization_version updated.
func Quantize(ctx context.Context, in *gguf.File, w io.Writer, o QuantizeOptions) error {
	if in == nil || in.HeaderOnly() {
		return errors.New("modeltools: quantize: input has no tensor data")
	}
	if o.Type.Name == "" {
		return errors.New("modeltools: quantize: no type given")
	}
	blocks := 0
	if arch, err := in.Architecture(); err == nil {
		if n, ok := in.Int(arch + ".block_count"); ok && n > 0 {
			blocks = int(n)
		}
	}
	_, hasOutput := in.Tensor("output.weight")
	specs := make([]gguf.TensorSpec, len(in.Tensors))
	var total int64
	for i := range in.Tensors {
		ti := &in.Tensors[i]
		st := tensor.Type(ti.Type)
		t := st
		if quantizable(ti.Name, ti.Dims) {
			if _, err := rowBytes(st, int(ti.Dims[0])); err != nil {
				return fmt.Errorf("modeltools: quantize: tensor %s has type %v, which cannot be converted", ti.Name, st)
			}
			t = o.Type.typeFor(tensorInfo{name: ti.Name, dims: ti.Dims, layer: layerOf(ti.Name), blocks: blocks, tied: !hasOutput})
		}
		specs[i] = gguf.TensorSpec{Name: ti.Name, Dims: ti.Dims, Type: gguf.TensorType(t)}
		sz, err := specs[i].Size()
		if err != nil {
			return fmt.Errorf("modeltools: quantize: %w", err)
		}
		total += int64(sz)
	}
	kvs := make([]gguf.KV, 0, len(in.KVs)+2)
	for _, kv := range in.KVs {
		if kv.Key != "general.file_type" && kv.Key != "general.quantization_version" {
			kvs = append(kvs, kv)
		}
	}
	kvs = append(kvs,
		gguf.KV{Key: "general.quantization_version", Type: gguf.ValUint32, Value: uint32(2)},
		gguf.KV{Key: "general.file_type", Type: gguf.ValUint32, Value: o.Type.ID})

	pool := tensor.NewPool(o.Threads)
	defer pool.Close()
	var done int64
	rw := &rowWriter{ctx: ctx, pool: pool}
	if o.Progress != nil {
		rw.progress = func(n int64) { done += n; o.Progress(done, total) }
	}
	err := gguf.Write(w, kvs, specs, in.Alignment, func(i int, w io.Writer) error {
		ti := &in.Tensors[i]
		data := in.Data(ti)
		st, dt := tensor.Type(ti.Type), tensor.Type(specs[i].Type)
		if st == dt || ti.Elements() == 0 {
			return rw.copyRaw(w, data)
		}
		cols := int(ti.Dims[0])
		rows := int(ti.Elements()) / cols
		srb, err := rowBytes(st, cols)
		if err != nil {
			return err
		}
		return rw.write(w, dt, rows, cols, func(r int, dst []float32) error {
			return tensor.Dequantize(st, data[r*srb:(r+1)*srb], dst)
		})
	})
	if err != nil {
		return fmt.Errorf("modeltools: quantize to %s: %w", o.Type, err)
	}
	return nil
}

// QuantizeFile is Quantize to a file, written through a temporary file.
func QuantizeFile(ctx context.Context, in *gguf.File, path string, o QuantizeOptions) error {
	return writeFileAtomic(path, func(w io.Writer) error { return Quantize(ctx, in, w, o) })
}

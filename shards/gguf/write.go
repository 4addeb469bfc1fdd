package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// TensorSpec declares a tensor to write: its data is produced later by a
// callback, so a large model can be written without holding it in memory.
type TensorSpec struct {
	Name string
	Dims []uint64 // GGML ne order: Dims[0] is the row length
	Type TensorType
}

// Size is the number of bytes the tensor's data takes.
func (s TensorSpec) Size() (uint64, error) {
	if !s.Type.Known() {
		return 0, fmt.Errorf("gguf: tensor %q: unknown type %d", s.Name, uint32(s.Type))
	}
	if len(s.Dims) == 0 || len(s.Dims) > maxDims {
		return 0, fmt.Errorf("gguf: tensor %q: %d dimensions", s.Name, len(s.Dims))
	}
	bs := uint64(s.Type.BlockSize())
	if s.Dims[0]%bs != 0 {
		return 0, fmt.Errorf("gguf: tensor %q: row length %d is not a multiple of the %s block size %d", s.Name, s.Dims[0], s.Type, bs)
	}
	n := s.Dims[0] / bs * uint64(s.Type.BlockBytes())
	for _, d := range s.Dims[1:] {
		n *= d
	}
	return n, nil
}

// Write writes a GGUF v3 file: the metadata kvs in order, the tensor table,
// then each tensor's data as fill(i, w) writes it (exactly Size bytes each),
// aligned to alignment (0 means DefaultAlignment; a general.alignment entry
// in kvs must agree with it).
func Write(w io.Writer, kvs []KV, tensors []TensorSpec, alignment uint64, fill func(i int, w io.Writer) error) error {
	if alignment == 0 {
		alignment = DefaultAlignment
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &countWriter{w: bw}
	e := &encoder{w: cw}
	e.raw([]byte(Magic))
	e.u32(3)
	e.u64(uint64(len(tensors)))
	e.u64(uint64(len(kvs)))
	for _, kv := range kvs {
		e.str(kv.Key)
		if err := e.value(kv.Value); err != nil {
			return fmt.Errorf("gguf: key %q: %w", kv.Key, err)
		}
	}
	sizes := make([]uint64, len(tensors))
	var off uint64
	for i, t := range tensors {
		sz, err := t.Size()
		if err != nil {
			return err
		}
		sizes[i] = sz
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(off)
		off = alignUp(off+sz, alignment)
	}
	if e.err != nil {
		return fmt.Errorf("gguf: write header: %w", e.err)
	}
	if err := pad(cw, alignment); err != nil {
		return err
	}
	for i := range tensors {
		start := cw.n
		if err := fill(i, cw); err != nil {
			return fmt.Errorf("gguf: tensor %q: %w", tensors[i].Name, err)
		}
		if got := cw.n - start; got != sizes[i] {
			return fmt.Errorf("gguf: tensor %q: wrote %d bytes, want %d", tensors[i].Name, got, sizes[i])
		}
		if i+1 < len(tensors) {
			if err := pad(cw, alignment); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gguf: write: %w", err)
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n uint64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += uint64(n)
	return n, err
}

func pad(cw *countWriter, alignment uint64) error {
	if k := alignUp(cw.n, alignment) - cw.n; k > 0 {
		if _, err := cw.Write(make([]byte, k)); err != nil {
			return fmt.Errorf("gguf: write padding: %w", err)
		}
	}
	return nil
}

type encoder struct {
	w   io.Writer
	err error
	buf [8]byte
}

func (e *encoder) raw(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}
func (e *encoder) u8(v uint8)   { e.raw([]byte{v}) }
func (e *encoder) u16(v uint16) { binary.LittleEndian.PutUint16(e.buf[:], v); e.raw(e.buf[:2]) }
func (e *encoder) u32(v uint32) { binary.LittleEndian.PutUint32(e.buf[:], v); e.raw(e.buf[:4]) }
func (e *encoder) u64(v uint64) { binary.LittleEndian.PutUint64(e.buf[:], v); e.raw(e.buf[:8]) }
func (e *encoder) str(s string) { e.u64(uint64(len(s))); e.raw([]byte(s)) }

// typeOf maps a Go value to its GGUF value type (arrays report ValArray).
func typeOf(v any) (ValueType, error) {
	switch v.(type) {
	case uint8:
		return ValUint8, nil
	case int8:
		return ValInt8, nil
	case uint16:
		return ValUint16, nil
	case int16:
		return ValInt16, nil
	case uint32:
		return ValUint32, nil
	case int32:
		return ValInt32, nil
	case float32:
		return ValFloat32, nil
	case bool:
		return ValBool, nil
	case string:
		return ValString, nil
	case uint64:
		return ValUint64, nil
	case int64:
		return ValInt64, nil
	case float64:
		return ValFloat64, nil
	case []uint8, []int8, []uint16, []int16, []uint32, []int32, []float32, []bool, []string, []uint64, []int64, []float64, []any:
		return ValArray, nil
	}
	return 0, fmt.Errorf("unsupported metadata value of type %T", v)
}

// value writes a typed value: its type tag then its payload.
func (e *encoder) value(v any) error {
	t, err := typeOf(v)
	if err != nil {
		return err
	}
	e.u32(uint32(t))
	return e.payload(v)
}

func (e *encoder) payload(v any) error {
	switch x := v.(type) {
	case uint8:
		e.u8(x)
	case int8:
		e.u8(uint8(x))
	case uint16:
		e.u16(x)
	case int16:
		e.u16(uint16(x))
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case float32:
		e.u32(math.Float32bits(x))
	case bool:
		if x {
			e.u8(1)
		} else {
			e.u8(0)
		}
	case string:
		e.str(x)
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float64:
		e.u64(math.Float64bits(x))
	case []uint8:
		return arrayOf(e, ValUint8, x)
	case []int8:
		return arrayOf(e, ValInt8, x)
	case []uint16:
		return arrayOf(e, ValUint16, x)
	case []int16:
		return arrayOf(e, ValInt16, x)
	case []uint32:
		return arrayOf(e, ValUint32, x)
	case []int32:
		return arrayOf(e, ValInt32, x)
	case []float32:
		return arrayOf(e, ValFloat32, x)
	case []bool:
		return arrayOf(e, ValBool, x)
	case []string:
		return arrayOf(e, ValString, x)
	case []uint64:
		return arrayOf(e, ValUint64, x)
	case []int64:
		return arrayOf(e, ValInt64, x)
	case []float64:
		return arrayOf(e, ValFloat64, x)
	case []any:
		e.u32(uint32(ValArray))
		e.u64(uint64(len(x)))
		for _, el := range x {
			if t, err := typeOf(el); err != nil || t != ValArray {
				return fmt.Errorf("array of arrays holds a %T", el)
			}
			if err := e.arrayBody(el); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unsupported metadata value of type %T", v)
	}
	return nil
}

// arrayBody writes an array value without its outer ValArray tag.
func (e *encoder) arrayBody(v any) error { return e.payload(v) }

func arrayOf[T any](e *encoder, et ValueType, xs []T) error {
	e.u32(uint32(et))
	e.u64(uint64(len(xs)))
	for _, x := range xs {
		if err := e.payload(any(x)); err != nil {
			return err
		}
	}
	return nil
}

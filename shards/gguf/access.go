package gguf

import (
	"fmt"
	"math"
)

// Get returns the raw value of a metadata key.
func (f *File) Get(key string) (any, bool) {
	i, ok := f.kv[key]
	if !ok {
		return nil, false
	}
	return f.KVs[i].Value, true
}

// Has reports whether a metadata key is present.
func (f *File) Has(key string) bool { _, ok := f.kv[key]; return ok }

// String returns a string value.
func (f *File) String(key string) (string, bool) {
	v, ok := f.Get(key)
	s, isStr := v.(string)
	return s, ok && isStr
}

// Bool returns a bool value.
func (f *File) Bool(key string) (bool, bool) {
	v, ok := f.Get(key)
	b, isBool := v.(bool)
	return b, ok && isBool
}

// Int returns any integer-typed value as int64 (false if absent, not an
// integer, or a uint64 beyond int64's range).
func (f *File) Int(key string) (int64, bool) {
	v, ok := f.Get(key)
	if !ok {
		return 0, false
	}
	return toInt(v)
}

// Uint32 returns an integer value that fits in uint32.
func (f *File) Uint32(key string) (uint32, bool) {
	n, ok := f.Int(key)
	if !ok || n < 0 || n > math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}

// Float returns a float or integer value as float64.
func (f *File) Float(key string) (float64, bool) {
	v, ok := f.Get(key)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	n, ok := toInt(v)
	return float64(n), ok
}

// Strings returns a string array.
func (f *File) Strings(key string) ([]string, bool) {
	v, ok := f.Get(key)
	s, isArr := v.([]string)
	return s, ok && isArr
}

// Float32s returns a float32 array.
func (f *File) Float32s(key string) ([]float32, bool) {
	v, ok := f.Get(key)
	s, isArr := v.([]float32)
	return s, ok && isArr
}

// Ints returns any integer array as []int64.
func (f *File) Ints(key string) ([]int64, bool) {
	v, ok := f.Get(key)
	if !ok {
		return nil, false
	}
	switch a := v.(type) {
	case []int32:
		return widen(a), true
	case []uint32:
		return widen(a), true
	case []int64:
		return a, true
	case []uint8:
		return widen(a), true
	case []int8:
		return widen(a), true
	case []uint16:
		return widen(a), true
	case []int16:
		return widen(a), true
	case []uint64:
		out := make([]int64, len(a))
		for i, x := range a {
			if x > math.MaxInt64 {
				return nil, false
			}
			out[i] = int64(x)
		}
		return out, true
	}
	return nil, false
}

func widen[T int8 | uint8 | int16 | uint16 | int32 | uint32](a []T) []int64 {
	out := make([]int64, len(a))
	for i, x := range a {
		out[i] = int64(x)
	}
	return out
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case uint8:
		return int64(x), true
	case int8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case int16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	}
	return 0, false
}

func toUint(v any) (uint64, bool) {
	n, ok := toInt(v)
	if !ok || n < 0 {
		return 0, false
	}
	return uint64(n), true
}

// Tensor looks up a tensor by name.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	i, ok := f.tensors[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// Data returns the tensor's bytes: a view of the mapping, not a copy. It
// returns nil on a file parsed with ParseHeader.
func (f *File) Data(ti *TensorInfo) []byte {
	if f.header {
		return nil
	}
	return f.data[ti.Offset : ti.Offset+ti.Size : ti.Offset+ti.Size]
}

// Architecture returns general.architecture or an error naming the key.
func (f *File) Architecture() (string, error) {
	a, ok := f.String("general.architecture")
	if !ok {
		return "", fmt.Errorf("gguf: %w: missing or non-string key general.architecture", ErrFormat)
	}
	return a, nil
}

// DataOffset is the file offset where the tensor data section begins.
func (f *File) DataOffset() uint64 { return f.dataBase }

// HeaderBytes returns the header as it is in the file: magic, metadata and
// tensor table, without the alignment padding. ParseHeader accepts it.
func (f *File) HeaderBytes() []byte { return f.raw[:f.headerLen:f.headerLen] }

// HeaderOnly reports whether the file was parsed without its tensor data.
func (f *File) HeaderOnly() bool { return f.header }

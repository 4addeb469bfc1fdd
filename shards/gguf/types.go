package gguf

import "svc/shards/tensor"

// TensorType is a GGML tensor type id as stored in the tensor table.
type TensorType uint32

// The tensor types this reader understands (GGML ids).
const (
	TypeF32  TensorType = 0
	TypeF16  TensorType = 1
	TypeQ4_0 TensorType = 2
	TypeQ4_1 TensorType = 3
	TypeQ5_0 TensorType = 6
	TypeQ5_1 TensorType = 7
	TypeQ8_0 TensorType = 8
	TypeQ8_1 TensorType = 9
	TypeQ2_K TensorType = 10
	TypeQ3_K TensorType = 11
	TypeQ4_K TensorType = 12
	TypeQ5_K TensorType = 13
	TypeQ6_K TensorType = 14
	TypeQ8_K TensorType = 15
	TypeBF16 TensorType = 30
)

// The block layouts are the tensor package's: one table for the format
// reader and the kernels.

// String names the type as llama.cpp does ("Q4_K", "F16", ...).
func (t TensorType) String() string { return tensor.Type(t).String() }

// Known reports whether the reader knows the type's block layout.
func (t TensorType) Known() bool { return tensor.Type(t).BlockSize() > 0 }

// BlockSize is the number of elements in one block of the type.
func (t TensorType) BlockSize() int { return tensor.Type(t).BlockSize() }

// BlockBytes is the size in bytes of one block of the type.
func (t TensorType) BlockBytes() int { return tensor.Type(t).BlockBytes() }

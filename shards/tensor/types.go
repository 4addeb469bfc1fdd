package tensor

import (
	"fmt"
	"strings"
)

// Type is a ggml tensor type id as stored in GGUF files.
type Type uint32

// ggml type ids (the numbering is fixed by the GGUF format).
const (
	F32  Type = 0
	F16  Type = 1
	Q4_0 Type = 2
	Q4_1 Type = 3
	Q5_0 Type = 6
	Q5_1 Type = 7
	Q8_0 Type = 8
	Q8_1 Type = 9
	Q2_K Type = 10
	Q3_K Type = 11
	Q4_K Type = 12
	Q5_K Type = 13
	Q6_K Type = 14
	Q8_K Type = 15
	BF16 Type = 30
)

// qkK is the number of elements in a k-quant super-block.
const qkK = 256

type typeInfo struct {
	name       string
	blockSize  int
	blockBytes int
	weight     bool // usable as a weight type by MatMul/Dequantize
}

// typeTable describes every known type; the layouts are ggml's (ggml-common.h).
func typeTable(t Type) (typeInfo, bool) {
	switch t {
	case F32:
		return typeInfo{"F32", 1, 4, true}, true
	case F16:
		return typeInfo{"F16", 1, 2, true}, true
	case BF16:
		return typeInfo{"BF16", 1, 2, true}, true
	case Q4_0:
		return typeInfo{"Q4_0", 32, 2 + 16, true}, true
	case Q4_1:
		return typeInfo{"Q4_1", 32, 2 + 2 + 16, true}, true
	case Q5_0:
		return typeInfo{"Q5_0", 32, 2 + 4 + 16, true}, true
	case Q5_1:
		return typeInfo{"Q5_1", 32, 2 + 2 + 4 + 16, true}, true
	case Q8_0:
		return typeInfo{"Q8_0", 32, 2 + 32, true}, true
	case Q8_1:
		return typeInfo{"Q8_1", 32, 2 + 2 + 32, false}, true
	case Q2_K:
		return typeInfo{"Q2_K", qkK, 16 + 64 + 2 + 2, true}, true
	case Q3_K:
		return typeInfo{"Q3_K", qkK, 32 + 64 + 12 + 2, true}, true
	case Q4_K:
		return typeInfo{"Q4_K", qkK, 2 + 2 + 12 + 128, true}, true
	case Q5_K:
		return typeInfo{"Q5_K", qkK, 2 + 2 + 12 + 32 + 128, true}, true
	case Q6_K:
		return typeInfo{"Q6_K", qkK, 128 + 64 + 16 + 2, true}, true
	case Q8_K:
		return typeInfo{"Q8_K", qkK, 4 + 256 + 32, false}, true
	}
	return typeInfo{}, false
}

// String returns ggml's name for the type ("F32", "Q4_K", ...).
func (t Type) String() string {
	if ti, ok := typeTable(t); ok {
		return ti.name
	}
	return fmt.Sprintf("Type(%d)", uint32(t))
}

// Valid reports whether t is a supported weight type: F32, F16, BF16, Q8_0,
// Q4_0, Q4_1, Q5_0, Q5_1 or Q2_K..Q6_K. (Q8_1 and Q8_K exist only as
// activation formats.)
func (t Type) Valid() bool {
	ti, ok := typeTable(t)
	return ok && ti.weight
}

// BlockSize is the number of elements in one block (1 for F32/F16/BF16).
// It is 0 for unknown types.
func (t Type) BlockSize() int {
	ti, _ := typeTable(t)
	return ti.blockSize
}

// BlockBytes is the size in bytes of one block. It is 0 for unknown types.
func (t Type) BlockBytes() int {
	ti, _ := typeTable(t)
	return ti.blockBytes
}

// RowBytes is the size in bytes of a row of n elements of type t. n must be
// a non-negative multiple of the block size and t a valid weight type.
func RowBytes(t Type, n int) (int, error) {
	if !t.Valid() {
		return 0, fmt.Errorf("tensor: unsupported type %v", t)
	}
	bs := t.BlockSize()
	if n < 0 || n%bs != 0 {
		return 0, fmt.Errorf("tensor: %d elements is not a multiple of the %v block size %d", n, t, bs)
	}
	return n / bs * t.BlockBytes(), nil
}

// ParseType returns the type named s ("Q4_K", "q4_k", "F16", "bf16", ...),
// as printed by String.
func ParseType(s string) (Type, error) {
	for _, t := range []Type{F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, Q8_K} {
		if strings.EqualFold(s, t.String()) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("tensor: unknown type %q", s)
}

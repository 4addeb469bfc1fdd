package gguf

import "fmt"

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

type typeLayout struct {
	name       string
	blockSize  int // elements per block
	blockBytes int // bytes per block
}

// layouts are facts of the GGUF format: how many elements a block holds and
// how many bytes it takes.
var layouts = map[TensorType]typeLayout{
	TypeF32:  {"F32", 1, 4},
	TypeF16:  {"F16", 1, 2},
	TypeBF16: {"BF16", 1, 2},
	TypeQ4_0: {"Q4_0", 32, 18},
	TypeQ4_1: {"Q4_1", 32, 20},
	TypeQ5_0: {"Q5_0", 32, 22},
	TypeQ5_1: {"Q5_1", 32, 24},
	TypeQ8_0: {"Q8_0", 32, 34},
	TypeQ8_1: {"Q8_1", 32, 36},
	TypeQ2_K: {"Q2_K", 256, 84},
	TypeQ3_K: {"Q3_K", 256, 110},
	TypeQ4_K: {"Q4_K", 256, 144},
	TypeQ5_K: {"Q5_K", 256, 176},
	TypeQ6_K: {"Q6_K", 256, 210},
	TypeQ8_K: {"Q8_K", 256, 292},
}

// String names the type as llama.cpp does ("Q4_K", "F16", ...).
func (t TensorType) String() string {
	if l, ok := layouts[t]; ok {
		return l.name
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Known reports whether the reader knows the type's block layout.
func (t TensorType) Known() bool { _, ok := layouts[t]; return ok }

// BlockSize is the number of elements in one block of the type.
func (t TensorType) BlockSize() int { return layouts[t].blockSize }

// BlockBytes is the size in bytes of one block of the type.
func (t TensorType) BlockBytes() int { return layouts[t].blockBytes }

// ParseTensorType maps a name such as "q4_k" or "F16" to its type.
func ParseTensorType(name string) (TensorType, error) {
	for t, l := range layouts {
		if equalFold(l.name, name) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown tensor type %q", name)
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

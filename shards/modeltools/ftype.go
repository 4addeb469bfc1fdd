package modeltools

import (
	"fmt"
	"strconv"
	"strings"

	"svc/shards/tensor"
)

// FileType is a target of Synth and Quantize: a base tensor type and the
// rule that picks each tensor's type from it, as llama-quantize's file types
// (llama_ftype) do.
type FileType struct {
	Name string
	// ID is the llama_ftype value written as general.file_type.
	ID   uint32
	Base tensor.Type
	// Pure types put every quantizable matrix in Base (llama-quantize
	// --pure); the others apply llama.cpp's per-tensor adjustments (output
	// head in Q6_K, and for Q4_K_M and Q5_K_M some attn_v/ffn_down in
	// Q6_K).
	Pure bool
	// mix is the extra rule of Q4_K_M and Q5_K_M for attn_v and ffn_down.
	mix bool
}

// llama_ftype values (llama.h); they are part of the GGUF metadata.
const (
	ftypeF32   = 0
	ftypeF16   = 1
	ftypeQ4_0  = 2
	ftypeQ8_0  = 7
	ftypeQ4_KS = 14
	ftypeQ4_KM = 15
	ftypeQ5_KM = 17
	ftypeQ6_K  = 18
	ftypeBF16  = 32
)

var fileTypes = []FileType{
	{Name: "F32", ID: ftypeF32, Base: tensor.F32},
	{Name: "F16", ID: ftypeF16, Base: tensor.F16},
	{Name: "BF16", ID: ftypeBF16, Base: tensor.BF16},
	{Name: "Q8_0", ID: ftypeQ8_0, Base: tensor.Q8_0},
	{Name: "Q4_0", ID: ftypeQ4_0, Base: tensor.Q4_0},
	// llama.cpp has no pure-Q4_K file type; Q4_K_S is the nearest label.
	{Name: "Q4_K", ID: ftypeQ4_KS, Base: tensor.Q4_K, Pure: true},
	{Name: "Q6_K", ID: ftypeQ6_K, Base: tensor.Q6_K},
	{Name: "Q4_K_M", ID: ftypeQ4_KM, Base: tensor.Q4_K, mix: true},
	{Name: "Q5_K_M", ID: ftypeQ5_KM, Base: tensor.Q5_K, mix: true},
}

// ParseFileType maps a name such as "q4_k_m" or "F16" to its file type.
func ParseFileType(name string) (FileType, error) {
	for _, ft := range fileTypes {
		if strings.EqualFold(ft.Name, name) {
			return ft, nil
		}
	}
	return FileType{}, fmt.Errorf("modeltools: unknown type %q (supported: %s)", name, strings.Join(FileTypeNames(), ", "))
}

// FileTypeNames lists the supported targets.
func FileTypeNames() []string {
	out := make([]string, len(fileTypes))
	for i, ft := range fileTypes {
		out[i] = ft.Name
	}
	return out
}

func (ft FileType) String() string { return ft.Name }

func isQuantized(t tensor.Type) bool { return t.BlockSize() > 1 }

// tensorInfo is what the type rule needs to know about a tensor.
type tensorInfo struct {
	name   string
	dims   []uint64
	layer  int // block index, -1 outside blocks
	blocks int // block count of the model
	tied   bool
}

// quantizable mirrors llama.cpp's tensor_allows_quantization for the
// Llama-family tensors: matrices whose name ends in "weight", except norms.
func quantizable(name string, dims []uint64) bool {
	return len(dims) >= 2 && strings.HasSuffix(name, "weight") && !strings.Contains(name, "_norm.weight")
}

// useMoreBits is llama.cpp's choice of layers that get more bits in the
// _M mixes: the first and last eighth and every third layer in between.
func useMoreBits(i, n int) bool {
	return i < n/8 || i >= 7*n/8 || (i-n/8)%3 == 2
}

// typeFor returns the type a quantizable tensor gets under ft, following
// llama.cpp's llama_tensor_get_type for the types this package supports.
func (ft FileType) typeFor(ti tensorInfo) tensor.Type {
	t := ft.Base
	if !isQuantized(t) {
		return t
	}
	nx := int(ti.dims[0])
	if !ft.Pure {
		name := ti.name
		switch {
		case name == "output.weight" || (ti.tied && name == "token_embd.weight"):
			if nx%t.BlockSize() != 0 {
				t = tensor.Q8_0
			} else if t != tensor.Q8_0 {
				t = tensor.Q6_K
			}
		case name == "token_embd.weight":
			// Untied embeddings keep the base type.
		case strings.Contains(name, "attn_v.weight"), strings.Contains(name, "ffn_down"):
			if ft.mix && ti.layer >= 0 && useMoreBits(ti.layer, ti.blocks) {
				t = tensor.Q6_K
			}
		}
	}
	return fallbackType(t, nx)
}

// fallbackType is llama.cpp's tensor_type_fallback: rows that do not fill
// whole k-quant super-blocks use a 32-element type instead, and F16 when
// even that does not fit.
func fallbackType(t tensor.Type, nx int) tensor.Type {
	if nx%t.BlockSize() == 0 {
		return t
	}
	switch t {
	case tensor.Q2_K, tensor.Q3_K:
		t = tensor.Q4_0
	case tensor.Q4_K:
		t = tensor.Q5_0
	case tensor.Q5_K:
		t = tensor.Q5_1
	case tensor.Q6_K:
		t = tensor.Q8_0
	}
	if nx%t.BlockSize() != 0 {
		return tensor.F16
	}
	return t
}

// layerOf parses the block index out of "blk.N.…" names (-1 otherwise).
func layerOf(name string) int {
	rest, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return -1
	}
	num, _, ok := strings.Cut(rest, ".")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

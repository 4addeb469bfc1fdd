package tensor

import (
	"encoding/binary"
	"math"
)

// rowKernel computes the canonical dot product of one weight row with
// activation row i of a.
type rowKernel func(w []byte, a *acts, i int) float32

// tileKernel computes a tile of rows × pos dot products: weight rows
// r..r+rows-1 (block j of row k at w[k*l.rs+j*l.bs:]) against activation
// positions i..i+pos-1, each exactly as rowKernel would, into
// out[p*rows+k] for row k and position p. It shares the loading and
// unpacking of the weights among the positions and the loading of the
// activations among the rows.
type tileKernel func(w []byte, l tileLayout, a *acts, i int, out []float32)

// tileLayout says where a tile's blocks are. A row-major matrix has rs =
// row bytes and bs = block bytes; a packed one (pack.go) rs = block bytes
// and bs = rowTile × block bytes. next > 0 is the offset from w of the data
// to be read after this tile, which a kernel may prefetch (as much as the
// tile has); 0 asks for no prefetching.
type tileLayout struct {
	rs, bs, next int
	// os > 0 (tileSpec.direct kernels only): out is the product's output
	// from the tile's first row and position on, os floats between
	// positions, and the kernel writes out[p*os+k] instead.
	os int
}

// outs gives a tile kernel of rows rows that computes as many positions
// as out has room for its output stride (l.os, or rows in a scratch
// tile) and that number of positions.
func (l tileLayout) outs(rows int, out []float32) (os, k int) {
	os = rows
	if l.os > 0 {
		os = l.os
	}
	return os, (len(out)-rows)/os + 1
}

// tileSpec is one tile kernel and its shape. strided kernels honour
// tileLayout.bs and so read packed matrices too; the others assume
// row-major rows (bs = block bytes).
type tileSpec struct {
	rows, pos int
	fn        tileKernel
	strided   bool
	// minPos > 0: fn computes any minPos..pos positions, as many as its
	// out has room for (rows each, or os apart); otherwise exactly pos.
	minPos int
	// direct: fn honours tileLayout.os, and MatMul has it write into the
	// product's output instead of a scratch tile it would then copy.
	direct bool
}

// maxTile bounds rows*pos of any tile kernel (the size of a scratch tile),
// x kernels included (16 rows × up to 9 positions); direct kernels, which
// write into the product's output, may be larger.
const maxTile = 144

// kernelSet is one implementation of the per-type dot products. All sets
// give bit-identical results (see dot_generic.go); they differ in speed.
// Tile kernels are optional: vec (pos == 1) serves one position at a time,
// batch (pos > 1) several; the rows of both divide rowTile. many holds, for
// the types whose llama.cpp order differs when a product covers several
// positions (BF16: tinyBLAS instead of ggml_vec_dot), the kernel MatMul
// uses for n > 1, and manyBatch an optional tile kernel in that order.
type kernelSet struct {
	name  string
	dot   [BF16 + 1]rowKernel
	vec   [BF16 + 1]tileSpec
	batch [BF16 + 1]tileSpec
	many  [BF16 + 1]rowKernel
	// manyBatch: tile kernels in the order of many.
	manyBatch [BF16 + 1]tileSpec
	// x: kernels for matrices in the type's x layout (xlayout.go); Pack
	// uses that layout for the types the best set has them for.
	x [BF16 + 1]xTile
	// group > 0: Pack lays the type's matrices out block-interleaved in
	// groups of that many rows (pack.go) for the best set; its vec and
	// batch kernels for the type must be strided, their rows dividing it.
	group [BF16 + 1]int
	// Activation converters; every implementation gives the same bits.
	q8_0 func(x []float32, qs []int8, d []float32)
	q8_1 func(x []float32, qs []int8, d, s []float32)
	q8_K func(x []float32, qs []int8, d []float32, bsums []int16)
	f16  func(x []float32, h []uint16)
	bf16 func(x []float32, h []uint16)
	// f16f32: some F16 kernel of the set reads acts.hf, so F16 products
	// also widen the rounded activations back to float32; sets without
	// such kernels skip that work.
	f16f32 bool
	// q8d4: some Q8_0 kernel of the set reads acts.d4 and acts.w16.
	q8d4 bool
	// q6u8: some Q6_K batch kernel of the set reads acts.u8.
	q6u8 bool
	// bf16f32: some BF16 kernel of the set reads acts.hf for products of
	// several positions over whole 32-column steps, in splitBF16's layout.
	bf16f32 bool
	// bf16Guard, if set, is the set whose BF16 kernels give the generic
	// bits on any data, for the products where this set's might not: those
	// with a product that is not exact in float32 (bf16Exact).
	bf16Guard *kernelSet
}

// genericKernels is the pure-Go set, used where no SIMD kernel exists.
var genericKernels = &kernelSet{name: "generic", q8_0: quantQ8_0, q8_1: quantQ8_1, q8_K: quantQ8_K, f16: toF16, bf16: toBF16, dot: [BF16 + 1]rowKernel{
	F32:  func(w []byte, a *acts, i int) float32 { return dotF32(w, a.xrow(i)) },
	F16:  func(w []byte, a *acts, i int) float32 { return dotF16(w, a.hrow(i)) },
	BF16: func(w []byte, a *acts, i int) float32 { return dotBF16Step(w, a.hrow(i)) },
	Q8_0: func(w []byte, a *acts, i int) float32 { return dotQ8_0(w, a.qrow(i), a.drow(i)) },
	Q4_0: func(w []byte, a *acts, i int) float32 { return dotQ4_0(w, a.qrow(i), a.drow(i)) },
	Q5_0: func(w []byte, a *acts, i int) float32 { return dotQ5_0(w, a.qrow(i), a.drow(i)) },
	Q4_1: func(w []byte, a *acts, i int) float32 { return dotQ4_1(w, a.qrow(i), a.drow(i), a.srow(i)) },
	Q5_1: func(w []byte, a *acts, i int) float32 { return dotQ5_1(w, a.qrow(i), a.drow(i), a.srow(i)) },
	Q2_K: func(w []byte, a *acts, i int) float32 { return dotQ2_K(w, a.qrow(i), a.drow(i), a.bsrow(i)) },
	Q3_K: func(w []byte, a *acts, i int) float32 { return dotQ3_K(w, a.qrow(i), a.drow(i)) },
	Q4_K: func(w []byte, a *acts, i int) float32 { return dotQ4_K(w, a.qrow(i), a.drow(i), a.bsrow(i)) },
	Q5_K: func(w []byte, a *acts, i int) float32 { return dotQ5_K(w, a.qrow(i), a.drow(i), a.bsrow(i)) },
	Q6_K: func(w []byte, a *acts, i int) float32 { return dotQ6_K(w, a.qrow(i), a.drow(i)) },
}, many: [BF16 + 1]rowKernel{
	BF16: func(w []byte, a *acts, i int) float32 { return dotBF16Batch(w, a.hrow(i)) },
}}

// withFallback fills the gaps of a SIMD set with the generic kernels.
func withFallback(ks *kernelSet) *kernelSet {
	if ks.q8_0 == nil {
		ks.q8_0 = quantQ8_0
	}
	if ks.q8_1 == nil {
		ks.q8_1 = quantQ8_1
	}
	if ks.q8_K == nil {
		ks.q8_K = quantQ8_K
	}
	if ks.f16 == nil {
		ks.f16 = toF16
	}
	if ks.bf16 == nil {
		ks.bf16 = toBF16
	}
	for t, k := range ks.dot {
		if k == nil {
			ks.dot[t] = genericKernels.dot[t]
		}
	}
	for t, k := range ks.many {
		if k == nil {
			ks.many[t] = genericKernels.many[t]
		}
	}
	return ks
}

func (a *acts) xrow(i int) []float32 { return a.x[i*a.cols : (i+1)*a.cols] }
func (a *acts) hrow(i int) []uint16  { return a.h[i*a.cols : (i+1)*a.cols] }
func (a *acts) qrow(i int) []int8    { return a.qs[i*a.cols : (i+1)*a.cols] }
func (a *acts) drow(i int) []float32 { return a.d[i*a.nb : (i+1)*a.nb] }
func (a *acts) srow(i int) []float32 { return a.s[i*a.nb : (i+1)*a.nb] }
func (a *acts) bsrow(i int) []int16  { return a.bsums[16*i*a.nb : 16*(i+1)*a.nb] }

// Tails of float rows that do not fill a 32-lane step, added in order.

func tailF32(s float32, w []byte, x []float32, from int) float32 {
	for i := from; i < len(x); i++ {
		s += float32(math.Float32frombits(binary.LittleEndian.Uint32(w[4*i:])) * x[i])
	}
	return s
}

// f16Row is one row's F16 product on a SIMD kernel k that takes whole
// 32-column steps: the columns past them are added by tailF16.
func f16Row(k func(w *byte, x *uint16, n int) float32, w []byte, x []uint16) float32 {
	n := len(x) / 32 * 32
	var s float32
	if n > 0 {
		_ = w[2*n-1]
		s = k(&w[0], &x[0], n)
	}
	return tailF16(s, w, x, n)
}

// f16Tails adds columns [n, cols) to rows rows (row stride rs) of k
// positions from i, out[q*os+r]; with n = 0 they are the whole sums. The
// F16 tiles leave those columns to it.
func f16Tails(w []byte, rs int, a *acts, i, k, rows, os, n int, out []float32) {
	for q := range k {
		x := a.hrow(i + q)
		for r := range rows {
			s := float32(0)
			if n > 0 {
				s = out[q*os+r]
			}
			out[q*os+r] = tailF16(s, w[r*rs:], x, n)
		}
	}
}

func tailF16(s float32, w []byte, x []uint16, from int) float32 {
	for i := from; i < len(x); i++ {
		s += f16at(w[2*i:]) * f16Lookup[x[i]]
	}
	return s
}

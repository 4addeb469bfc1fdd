package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"svc/internal/testenv"
)

// allTypes lists every weight type MatMul supports.
var allTypes = []Type{F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K}

// f16Fields gives the byte offsets of the f16 scale fields of each block type.
var f16Fields = map[Type][]int{
	Q4_0: {0}, Q4_1: {0, 2}, Q5_0: {0}, Q5_1: {0, 2}, Q8_0: {0},
	Q2_K: {80, 82}, Q3_K: {108}, Q4_K: {0, 2}, Q5_K: {0, 2}, Q6_K: {208},
}

// randomMatrix fills a matrix with random but well-formed data: random quant
// bits and scale fields set to moderate f16 values (random bytes would give
// Inf/NaN scales).
func randomMatrix(r *rand.Rand, t Type, rows, cols int) Matrix {
	rb, err := RowBytes(t, cols)
	if err != nil {
		panic(err)
	}
	data := make([]byte, rows*rb)
	switch t {
	case F32:
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(r.NormFloat64())))
		}
	case F16:
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint16(data[2*i:], FP32ToFP16(float32(r.NormFloat64())))
		}
	case BF16:
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint16(data[2*i:], FP32ToBF16(float32(r.NormFloat64())))
		}
	default:
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		bb := t.BlockBytes()
		for b := 0; b < len(data)/bb; b++ {
			for k, off := range f16Fields[t] {
				v := float32(0.001 + 0.02*r.Float64())
				if k == 1 && (t == Q4_1 || t == Q5_1) {
					v = float32(r.NormFloat64() * 0.05) // the block minimum may be negative
				}
				binary.LittleEndian.PutUint16(data[b*bb+off:], FP32ToFP16(v))
			}
		}
	}
	return Matrix{Type: t, Rows: rows, Cols: cols, Data: data}
}

func randomVec(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
		if r.IntN(50) == 0 {
			x[i] *= 20 // outliers, as real activations have
		}
	}
	return x
}

// colsFor returns a small column count valid for t that is not a power of two.
func colsFor(t Type) int {
	switch t.BlockSize() {
	case 1:
		return 37 + 64
	case 32:
		return 32 * 7
	}
	return 256 * 3
}

func testPath(t testing.TB, name string) string {
	t.Helper()
	return testenv.Path(t, "models", name)
}

// sameFinite checks that ks's product of w with x (n positions, which may
// hold NaN and Inf) matches the generic kernels': the same elements are
// finite, and those are bit for bit equal.
func sameFinite(t *testing.T, ks *kernelSet, w Matrix, x []float32, n int, what string) {
	t.Helper()
	want := make([]float32, n*w.Rows)
	got := make([]float32, n*w.Rows)
	matMul(genericKernels, nil, NewWorkspace(), w, x, n, want)
	matMul(ks, nil, NewWorkspace(), w, x, n, got)
	for i := range got {
		gf := !math.IsNaN(float64(got[i])) && !math.IsInf(float64(got[i]), 0)
		wf := !math.IsNaN(float64(want[i])) && !math.IsInf(float64(want[i]), 0)
		if gf != wf || (gf && got[i] != want[i]) {
			t.Fatalf("%s element %d: %g, generic %g", what, i, got[i], want[i])
		}
	}
}

// sameBits compares bit patterns (any NaN equals any NaN: both paths give
// the default NaN, but its payload is no part of the contract).
func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

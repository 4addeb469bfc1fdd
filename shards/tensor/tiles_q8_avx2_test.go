//go:build amd64 && !purego

package tensor

import (
	"math/rand/v2"
	"testing"
)

// TestQ8BatchAVX2Positions runs the AVX2 Q8_0 batch kernels through
// matMul at position counts around their groups of four and eight and the
// posTile limit (whole groups, one to three left over, more than one call
// per row pair, whole posTiles for the transposed kernel and positions
// after them for the direct one), at column counts of one, several and
// more than one chunk of the transposed kernel, and compares every
// element with the generic kernels, bit for bit.
func TestQ8BatchAVX2Positions(t *testing.T) {
	skipUnless(t, kernelGap("avx2"))
	r := rand.New(rand.NewPCG(5, 6))
	p := NewPool(2)
	defer p.Close()
	ks := avx2Kernels()
	for _, n := range []int{4, 5, 6, 7, 8, 31, 32, 33, 36, 40, 67} {
		for _, cols := range []int{32, 96, 1056, 2048} {
			w := randomMatrix(r, Q8_0, 38, cols)
			x := randomVec(r, n*cols)
			want := make([]float32, n*w.Rows)
			got := make([]float32, n*w.Rows)
			matMul(genericKernels, p, NewWorkspace(), w, x, n, want)
			matMul(ks, p, NewWorkspace(), w, x, n, got)
			for j := range want {
				if !sameBits(got[j], want[j]) {
					t.Fatalf("n=%d cols=%d row %d position %d: %g, generic %g", n, cols, j%w.Rows, j/w.Rows, got[j], want[j])
				}
			}
		}
	}
}

// TestWidenQ8 compares the assembly widening of Q8_0 activations
// (acts.w16) with widenQ8Go on every byte value and a few lengths.
func TestWidenQ8(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, nb := range []int{1, 2, 7, 64} {
		qs := make([]int8, 32*nb)
		for i := range qs {
			qs[i] = int8(r.IntN(256) - 128)
		}
		qs[0], qs[1] = -128, 127
		want, got := make([]int16, len(qs)), make([]int16, len(qs))
		widenQ8Go(qs, want)
		widenQ8(qs, got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("nb=%d: element %d is %d, want %d", nb, i, got[i], want[i])
			}
		}
	}
}

// TestTransposeQ8T compares the assembly transposition of Q8_0 activations
// (acts.t16) with transposeQ8TGo on every byte value, each position of a
// group and a few lengths.
func TestTransposeQ8T(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, nb := range []int{1, 2, 7, 64} {
		want, got := make([]int16, 8*32*nb), make([]int16, 8*32*nb)
		for j := range 8 {
			qs := make([]int8, 32*nb)
			for i := range qs {
				qs[i] = int8(r.IntN(256) - 128)
			}
			qs[0], qs[1] = -128, 127
			transposeQ8TGo(qs, want, j)
			transposeQ8T(qs, got, j)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("nb=%d: element %d is %d, want %d", nb, i, got[i], want[i])
			}
		}
	}
}

//go:build amd64 && !purego

package tensor

import "golang.org/x/sys/cpu"

// bestKernels is chosen once from the CPU's features and never changes.
var bestKernels = detectKernels()

func detectKernels() *kernelSet {
	if cpu.X86.HasAVX2 && cpu.X86.HasF16C {
		return avx2Kernels()
	}
	return genericKernels
}

//go:noescape
func dotQ8_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ5_0AVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ5_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ4_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ3_KAVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ2_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6_KAVX2(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotF32AVX2(w *byte, x *float32, n int) float32

//go:noescape
func dotF16AVX2(w *byte, x *uint16, n int) float32

//go:noescape
func dotBF16AVX2(w *byte, x *uint16, n int) float32

// The wrappers check the lengths the assembly relies on (a mismatch would be
// a bug in MatMul, so they panic like an index error would).

func blockArgs(w []byte, a *acts, i, blockBytes int) (*byte, *int8, *float32, int) {
	nb := a.nb
	_ = w[nb*blockBytes-1]
	return &w[0], &a.qs[i*a.cols], &a.d[i*nb], nb
}

func avx2Kernels() *kernelSet {
	ks := &kernelSet{name: "avx2"}
	ks.dot[Q8_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ8_0AVX2(blockArgs(w, a, i, 34))
	}
	ks.dot[Q4_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ4_0AVX2(blockArgs(w, a, i, 18))
	}
	ks.dot[Q5_0] = func(w []byte, a *acts, i int) float32 {
		return dotQ5_0AVX2(blockArgs(w, a, i, 22))
	}
	ks.dot[Q4_1] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 20)
		return dotQ4_1AVX2(pw, py, pd, &a.s[i*nb], nb)
	}
	ks.dot[Q5_1] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 24)
		return dotQ5_1AVX2(pw, py, pd, &a.s[i*nb], nb)
	}
	ks.dot[Q4_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 144)
		return dotQ4_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q5_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 176)
		return dotQ5_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q3_K] = func(w []byte, a *acts, i int) float32 {
		return dotQ3_KAVX2(blockArgs(w, a, i, 110))
	}
	ks.dot[Q2_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, nb := blockArgs(w, a, i, 84)
		return dotQ2_KAVX2(pw, py, pd, &a.bsums[16*i*nb], nb)
	}
	ks.dot[Q6_K] = func(w []byte, a *acts, i int) float32 {
		return dotQ6_KAVX2(blockArgs(w, a, i, 210))
	}
	ks.dot[F32] = func(w []byte, a *acts, i int) float32 {
		x := a.xrow(i)
		n := len(x) / 32 * 32
		var s float32
		if n > 0 {
			_ = w[4*n-1]
			s = dotF32AVX2(&w[0], &x[0], n)
		}
		return tailF32(s, w, x, n)
	}
	ks.dot[F16] = func(w []byte, a *acts, i int) float32 {
		x := a.hrow(i)
		n := len(x) / 32 * 32
		var s float32
		if n > 0 {
			_ = w[2*n-1]
			s = dotF16AVX2(&w[0], &x[0], n)
		}
		return tailF16(s, w, x, n)
	}
	ks.dot[BF16] = func(w []byte, a *acts, i int) float32 {
		x := a.hrow(i)
		n := len(x) / 32 * 32
		var s float32
		if n > 0 {
			_ = w[2*n-1]
			s = dotBF16AVX2(&w[0], &x[0], n)
		}
		return tailBF16(s, w, x, n)
	}
	return withFallback(ks)
}

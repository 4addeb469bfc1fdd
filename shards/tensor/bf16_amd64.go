//go:build amd64 && !purego

package tensor

// hasBF16Set reports whether the VDPBF16PS kernels can run.
func hasBF16Set() bool { return bf16Gap() == "" }

// bf16Gap says why the VDPBF16PS kernels cannot run, or "".
func bf16Gap() string {
	return lacking("avx512", append(avx512Features(), feature{"AVX512BF16", kernelCaps().HasAVX512BF16})...)
}

// addBF16Kernels registers BF16 kernels on VDPBF16PS for both of llama.cpp's
// orders: the accumulators come from the instruction, the reductions and
// tails from the Go code of bf16order.go, so the bits are those of the
// generic kernels.
func addBF16Kernels(ks *kernelSet) {
	if !hasBF16Set() {
		return
	}
	// One position goes through dot (VDPBF16PS), not the AVX2 set's tile.
	ks.vec[BF16] = tileSpec{}
	ks.dot[BF16] = func(w []byte, a *acts, i int) float32 {
		x := a.hrow(i)
		var c [2][16]float32
		n := len(x) / 64 * 64
		if n > 0 {
			_ = w[2*n-1]
			bf16StepAVX512(&w[0], &x[0], n, &c)
		}
		return finishBF16Step(&c, w, x, n)
	}
	ks.many[BF16] = func(w []byte, a *acts, i int) float32 {
		x := a.hrow(i)
		if len(x)%32 != 0 {
			return ks.dot[BF16](w, a, i)
		}
		var c [16]float32
		_ = w[2*len(x)-1]
		bf16BatchAVX512(&w[0], &x[0], len(x), &c)
		return reduce16(&c)
	}
	ks.manyBatch[BF16] = tileSpec{rows: 1, pos: 4, fn: func(w []byte, _ tileLayout, a *acts, i int, out []float32) {
		if a.cols%32 != 0 {
			for p := range 4 {
				out[p] = ks.dot[BF16](w, a, i+p)
			}
			return
		}
		var c [4][16]float32
		_ = w[2*a.cols-1]
		_ = a.h[(i+4)*a.cols-1]
		bf16Batch4AVX512(&w[0], &a.h[i*a.cols], 2*a.cols, a.cols, &c)
		for p := range 4 {
			out[p] = reduce16(&c[p])
		}
	}}
	ks.bf16f32 = false // no kernel here reads acts.hf
	// VDPBF16PS may fuse each product into its sum, as Intel's manual
	// describes it, where the Go order rounds the product first: the two
	// differ only on products that are not exact in float32, which go to
	// the AVX2 set (bf16Exact).
	ks.bf16Guard = avx2Kernels()
}

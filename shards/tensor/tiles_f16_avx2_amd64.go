//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for F16 weights (tiles_f16_avx2_amd64.s), in dotF16's
// order, reading the activations as float32 (acts.hf): two rows for one
// position (decode; prefetching the rows that follow), one row for four
// positions (prefill, batched decode; each weight widened once for the
// four; batchN calls them for up to posTile positions). The Go wrappers
// add the tails past the last 32 columns.

//go:noescape
func f16Vec2AVX2(w *byte, rs int, x *float32, n int, next int, out *[2]float32)

//go:noescape
func f16Batch4AVX2(w *byte, x *float32, xstride int, n int, out *[4]float32)

// addF16AVX2 registers the kernels above.
func addF16AVX2(ks *kernelSet) {
	ks.f16f32 = true
	ks.vec[F16] = tileSpec{rows: 2, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		o := (*[2]float32)(out)
		n := a.cols / 32 * 32
		_ = w[l.rs+2*a.cols-1]
		if n > 0 {
			_ = a.hf[(i+1)*a.cols-1]
			f16Vec2AVX2(&w[0], l.rs, &a.hf[i*a.cols], n, l.next, o)
		} else {
			*o = [2]float32{}
		}
		x := a.hrow(i)
		o[0] = tailF16(o[0], w, x, n)
		o[1] = tailF16(o[1], w[l.rs:], x, n)
	}}
	ks.batch[F16] = batchN(f16BatchN)
}

// f16BatchN computes one row for 4..posTile positions (batchN): groups
// of four by f16Batch4AVX2, the rest by the row kernel's steps.
func f16BatchN(w []byte, l tileLayout, a *acts, i int, out []float32) {
	os, k := batchShape(l, out)
	n := a.cols / 32 * 32
	_ = a.hf[(i+k)*a.cols-1]
	if n > 0 {
		_ = w[2*n-1]
	}
	var q [4]float32
	p := 0
	for ; p+4 <= k; p += 4 {
		if n > 0 {
			f16Batch4AVX2(&w[0], &a.hf[(i+p)*a.cols], 4*a.cols, n, &q)
		} else {
			q = [4]float32{}
		}
		for j := range q {
			q[j] = tailF16(q[j], w, a.hrow(i+p+j), n)
		}
		putQuad(out, p, os, &q)
	}
	for ; p < k; p++ {
		out[p*os] = f16Row(dotF16AVX2, w, a.hrow(i+p))
	}
}

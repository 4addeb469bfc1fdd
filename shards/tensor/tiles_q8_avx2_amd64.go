//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for row-major Q8_0 (tiles_q8_avx2_amd64.s), each row
// in dotQ8_0's order: four rows for one position (decode; it prefetches
// the rows that follow), two rows for four positions (prefill, batched
// decode; each weight block is loaded once for the four).

//go:noescape
func q80Vec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)

//go:noescape
func q80Batch2x4AVX2(w *byte, rs int, y *int8, ystride int, d *float32, dstride int, nb int, next int, out *[8]float32)

// addQ80AVX2 registers the kernels above.
func addQ80AVX2(ks *kernelSet) {
	ks.vec[Q8_0] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 34)
		q80Vec4AVX2(pw, l.rs, py, pd, nb, l.next, (*[4]float32)(out))
	}}
	ks.batch[Q8_0] = tileSpec{rows: 2, pos: 4, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 2, 4, 34)
		q80Batch2x4AVX2(pw, l.rs, py, a.cols, pd, nb, nb, l.next, (*[8]float32)(out))
	}}
}

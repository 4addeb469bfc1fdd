//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for row-major Q4_K, Q5_K and Q6_K (tiles_k_avx2_amd64.s),
// each output in dotQ4_K's, dotQ5_K's or dotQ6_K's order: four rows for one position
// (decode), prefetching the rows that follow as they go, with the work
// that depends on the activations alone done once for the four rows; and
// for Q5_K, one row for four positions (prefill, batched decode), each
// block unpacked once for the four.

//go:noescape
func q4kVec4AVX2(w *byte, rs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[4]float32)

//go:noescape
func q5kVec4AVX2(w *byte, rs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[4]float32)

//go:noescape
func q4kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func q5kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func q6kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func q6kVec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)

// addKAVX2 registers the kernels above. The AVX-512 VNNI tiles
// (addKTiles) replace them where the CPU has those.
func addKAVX2(ks *kernelSet) {
	ks.vec[Q4_K] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 144)
		q4kVec4AVX2(pw, l.rs, py, pd, bsumsArgs(a, i, 1), nb, l.next, (*[4]float32)(out))
	}}
	ks.vec[Q5_K] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 176)
		q5kVec4AVX2(pw, l.rs, py, pd, bsumsArgs(a, i, 1), nb, l.next, (*[4]float32)(out))
	}}
	ks.batch[Q4_K] = quad(func(w []byte, a *acts, i int, out *[4]float32) {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 144}, a, i, 1, 4, 144)
		q4kBatch4AVX2(pw, py, a.cols, pd, 4*nb, bsumsArgs(a, i, 4), 32*nb, nb, out)
	})
	ks.batch[Q5_K] = quad(func(w []byte, a *acts, i int, out *[4]float32) {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 176}, a, i, 1, 4, 176)
		q5kBatch4AVX2(pw, py, a.cols, pd, 4*nb, bsumsArgs(a, i, 4), 32*nb, nb, out)
	})
	ks.vec[Q6_K] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 210)
		q6kVec4AVX2(pw, l.rs, py, pd, nb, l.next, (*[4]float32)(out))
	}}
	ks.batch[Q6_K] = quad(func(w []byte, a *acts, i int, out *[4]float32) {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 210}, a, i, 1, 4, 210)
		q6kBatch4AVX2(pw, py, a.cols, pd, 4*nb, nb, out)
	})
}

//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for row-major Q4_K, Q5_K and Q6_K (tiles_k_avx2_amd64.s),
// each output in dotQ4_K's, dotQ5_K's or dotQ6_K's order: four rows for one position
// (decode), prefetching the rows that follow as they go, with the work
// that depends on the activations alone done once for the four rows; and
// one row for four positions (prefill, batched decode), each block
// unpacked once for the four, called for up to posTile positions at a
// time (batchN).

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

// q6kBatch8AVX2 is q6kBatch4AVX2 for eight positions, whose activations
// it reads offset to unsigned (acts.u8, ustride bytes apart).
//
//go:noescape
func q6kBatch8AVX2(w *byte, u *int8, ustride int, d *float32, dstride int, nb int, out *[8]float32)

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
	ks.vec[Q6_K] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 210)
		q6kVec4AVX2(pw, l.rs, py, pd, nb, l.next, (*[4]float32)(out))
	}}
	ks.batch[Q4_K] = batchN(q4kBatchN)
	ks.batch[Q5_K] = batchN(q5kBatchN)
	ks.batch[Q6_K] = batchN(q6kBatchN)
	ks.q6u8 = true
}

// batchN makes a one-row batch tile of fn, which computes 4..posTile
// positions: MatMul then calls it once per row and posTile positions and
// has it write the product's output directly, instead of once per four
// positions through a scratch tile (on 2048 columns that overhead is
// about a tenth of a four-position call).
func batchN(fn tileKernel) tileSpec {
	return tileSpec{rows: 1, pos: posTile, minPos: 4, direct: true, fn: fn}
}

// batchShape returns the output stride and position count of a batchN
// call (out[p*os] for position p).
func batchShape(l tileLayout, out []float32) (os, k int) {
	os = max(l.os, 1)
	return os, (len(out)-1)/os + 1
}

// putQuad stores four positions' results.
func putQuad(out []float32, p, os int, q *[4]float32) {
	_ = out[(p+3)*os]
	out[p*os], out[(p+1)*os], out[(p+2)*os], out[(p+3)*os] = q[0], q[1], q[2], q[3]
}

// q4kBatchN: groups of four positions by q4kBatch4AVX2, the rest by the
// row kernel.
func q4kBatchN(w []byte, l tileLayout, a *acts, i int, out []float32) {
	os, k := batchShape(l, out)
	var q [4]float32
	p := 0
	for ; p+4 <= k; p += 4 {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 144}, a, i+p, 1, 4, 144)
		q4kBatch4AVX2(pw, py, a.cols, pd, 4*nb, bsumsArgs(a, i+p, 4), 32*nb, nb, &q)
		putQuad(out, p, os, &q)
	}
	for ; p < k; p++ {
		pw, py, pd, nb := blockArgs(w, a, i+p, 144)
		out[p*os] = dotQ4_KAVX2(pw, py, pd, bsumsArgs(a, i+p, 1), nb)
	}
}

// q5kBatchN is q4kBatchN for Q5_K.
func q5kBatchN(w []byte, l tileLayout, a *acts, i int, out []float32) {
	os, k := batchShape(l, out)
	var q [4]float32
	p := 0
	for ; p+4 <= k; p += 4 {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 176}, a, i+p, 1, 4, 176)
		q5kBatch4AVX2(pw, py, a.cols, pd, 4*nb, bsumsArgs(a, i+p, 4), 32*nb, nb, &q)
		putQuad(out, p, os, &q)
	}
	for ; p < k; p++ {
		pw, py, pd, nb := blockArgs(w, a, i+p, 176)
		out[p*os] = dotQ5_KAVX2(pw, py, pd, bsumsArgs(a, i+p, 1), nb)
	}
}

// q6kBatchN is q4kBatchN for Q6_K, with groups of eight positions by
// q6kBatch8AVX2 first where the product has the offset activations.
func q6kBatchN(w []byte, l tileLayout, a *acts, i int, out []float32) {
	os, k := batchShape(l, out)
	var q [4]float32
	p := 0
	if len(a.u8) > 0 {
		var q8 [8]float32
		for ; p+8 <= k; p += 8 {
			pw, _, pd, nb := tileArgs(w, tileLayout{bs: 210}, a, i+p, 1, 8, 210)
			_ = a.u8[(i+p+8)*a.cols-1]
			q6kBatch8AVX2(pw, &a.u8[(i+p)*a.cols], a.cols, pd, 4*nb, nb, &q8)
			putQuad(out, p, os, (*[4]float32)(q8[:4]))
			putQuad(out, p+4, os, (*[4]float32)(q8[4:]))
		}
	}
	for ; p+4 <= k; p += 4 {
		pw, py, pd, nb := tileArgs(w, tileLayout{bs: 210}, a, i+p, 1, 4, 210)
		q6kBatch4AVX2(pw, py, a.cols, pd, 4*nb, nb, &q)
		putQuad(out, p, os, &q)
	}
	for ; p < k; p++ {
		out[p*os] = dotQ6_KAVX2(blockArgs(w, a, i+p, 210))
	}
}

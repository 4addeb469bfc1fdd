//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for row-major Q8_0 (tiles_q8_avx2_amd64.s), each row
// in dotQ8_0's order: four rows for one position (decode; it prefetches
// the rows that follow), two rows for up to q80AVX2Pos positions (prefill,
// batched decode; each weight block is loaded once for four positions,
// against the activations widened to 16 bits, acts.w16), and two rows for
// a whole posTile of 32 positions with a vector lane per position
// (prompts; acts.t16).

//go:noescape
func q80Vec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)

//go:noescape
func q80Batch2xNAVX2(w *byte, rs int, y *int16, ystride int, d4 *float32, nb int, groups int, next int, out *float32, ostride int)

// q80AVX2Pos is the most positions one call of the batch kernel takes: a
// posTile, so that MatMul calls it once per two rows and posTile
// positions (on 2048 columns a call per four positions spent about a
// tenth of the time outside the kernel).
const q80AVX2Pos = posTile

// addQ80AVX2 registers the kernels above.
func addQ80AVX2(ks *kernelSet) {
	ks.vec[Q8_0] = tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 4, 1, 34)
		q80Vec4AVX2(pw, l.rs, py, pd, nb, l.next, (*[4]float32)(out))
	}}
	ks.batch[Q8_0] = tileSpec{rows: 2, pos: q80AVX2Pos, minPos: 4, fn: q80BatchAVX2, direct: true}
	ks.q8d4 = true
}

// q80BatchAVX2 computes two rows for as many positions as out has room
// for (4..q80AVX2Pos), out[p*ostride+r] (ostride = tileLayout.os, or 2): a
// whole posTile within acts.t16 with the transposed kernel, otherwise
// whole groups of four in the direct kernel and the rest (at most three)
// with the row kernel.
func q80BatchAVX2(w []byte, l tileLayout, a *acts, i int, out []float32) {
	ostride, k := l.outs(2, out)
	if k == posTile && i%posTile == 0 && i+posTile <= a.n32 {
		nb := a.nb
		_ = w[l.rs+nb*34-1]
		_ = a.t16[(i+posTile)*a.cols-1]
		_ = a.d8[(i+posTile)*nb-1]
		_ = out[(posTile-1)*ostride+1]
		var o [2 * posTile]float32
		q80Batch2x32TAVX2(&w[0], l.rs, &a.t16[i*a.cols], nb, &a.d8[i*nb], l.next, &o)
		for p := range posTile {
			out[p*ostride] = o[p]
			out[p*ostride+1] = o[posTile+p]
		}
		return
	}
	g := k / 4
	if i%4 != 0 || i < a.n32 { // not from MatMul (its position tiles start at multiples of posTile), or in t16
		g = 0
	}
	_, _, _, nb := tileArgs(w, l, a, i, 2, k, 34)
	if g > 0 {
		_ = out[(4*g-1)*ostride+1]
		j := i - a.n32
		_ = a.d4[(j+4*g)*nb-1]
		_ = a.w16[(j+4*g)*a.cols-1]
		q80Batch2xNAVX2(&w[0], l.rs, &a.w16[j*a.cols], 2*a.cols, &a.d4[j*nb], nb, g, l.next, &out[0], ostride)
	}
	for p := 4 * g; p < k; p++ {
		for r := 0; r < 2; r++ {
			out[p*ostride+r] = dotQ8_0AVX2(blockArgs(w[r*l.rs:], a, i+p, 34))
		}
	}
}

// q80Batch2x32TAVX2 is not NOSPLIT: its frame holds a 10 KB scale table
// and accumulators.
//
//go:noescape
func q80Batch2x32TAVX2(w *byte, rs int, y *int16, nb int, d8 *float32, next int, out *[2 * posTile]float32)

//go:noescape
func widenQ8AVX2(qs *int8, w *int16, nb int)

// widenQ8 is widenQ8Go in assembly.
func widenQ8(qs []int8, w []int16) {
	nb := min(len(qs), len(w)) / 32
	if nb > 0 {
		widenQ8AVX2(&qs[0], &w[0], nb)
	}
}

//go:noescape
func transposeQ8TAVX2(qs *int8, t *int16, nb int, j int)

// transposeQ8T is transposeQ8TGo in assembly.
func transposeQ8T(qs []int8, t []int16, j int) {
	nb := len(qs) / 32
	if nb > 0 {
		_ = t[8*32*nb-1]
		transposeQ8TAVX2(&qs[0], &t[0], nb, j%8)
	}
}

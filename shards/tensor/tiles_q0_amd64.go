//go:build amd64 && !purego

package tensor

import "math"

// AVX-512 VNNI tile kernels for Q8_0 and Q4_0 (tiles_q0_amd64.s). They
// compute many rows (and positions) side by side, so that the per-row
// chains of fused multiply-adds, which the canonical order makes serial
// per block, overlap instead of bounding the speed by their latency.

// The kernels step through a tile by a row stride (rs) and a block stride
// (bs), so that they read row-major and packed matrices alike (tileLayout).
// next (vec) and pf (batch) are offsets from w of data to prefetch while
// they work (0: none).

// q40Vec16 is q40Vec16s on sixteen row-major rows of rb bytes, prefetching
// the sixteen rows that follow.
func q40Vec16(w *byte, rb int, y *int8, d *float32, nb int, out *float32) {
	q40Vec16s(w, rb, 18, y, d, nb, 16*rb, out)
}

// hasQ0Tiles reports whether the CPU runs the kernels below (vnniFeatures)
// and SVC_KERNELS allows the AVX-512 set.
func hasQ0Tiles() bool { return q0TilesGap() == "" }

// q0TilesGap says why the kernels below cannot run, or "".
func q0TilesGap() string { return lacking("avx512", vnniFeatures()...) }

// addQ0Tiles registers the VNNI tile kernels for Q8_0 and Q4_0 on CPUs that
// have them: sixteen rows for one position, and eight rows × four
// positions (Q8_0) or sixteen rows × four positions (Q4_0) for batches.
func addQ0Tiles(ks *kernelSet) {
	if !hasQ0Tiles() {
		return
	}
	// On the block-interleaved layout (pack.go) these kernels measured no
	// faster than on row-major tiles with their next-tile prefetch
	// (BenchmarkDecodeStream/*/layouts with the x layouts off: Q8_0 56-57
	// GB/s both, Q4_0 41-47 packed against 49-50 row-major), and the x
	// layouts (xlayout.go) serve these types.
	dot4 := ks.dot[Q4_0]
	ks.vec[Q8_0] = tileSpec{rows: 16, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 16, 1, 34)
		q80Vec16s(pw, l.rs, l.bs, py, pd, nb, l.next, &out[:16][0])
	}}
	ks.batch[Q8_0] = tileSpec{rows: 8, pos: 4, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 8, 4, 34)
		q80Batch8x4s(pw, l.rs, l.bs, py, a.cols, pd, 4*nb, nb, l.next, &out[:32][0])
	}}
	// The Q4_0 kernels gather scales with int32 offsets of up to 15 row
	// strides; a packed matrix's stride is one block, so only a row-major
	// matrix of enormous rows can take the fallback.
	ks.vec[Q4_0] = tileSpec{rows: 16, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		if !gatherable(l.rs, 16) {
			fallbackTile(dot4, w, l.rs, a, i, 16, 1, out)
			return
		}
		pw, py, pd, nb := tileArgs(w, l, a, i, 16, 1, 18)
		q40Vec16s(pw, l.rs, l.bs, py, pd, nb, l.next, &out[:16][0])
	}}
	if hasQ40Vec16x2() {
		// Two blocks per row per step where the rows are row-major; it
		// prefetches the next tile itself (it follows the tile).
		ks.vec[Q4_0] = tileSpec{rows: 16, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
			pw, py, pd, nb := tileArgs(w, l, a, i, 16, 1, 18)
			q40Vec16x2(pw, l.rs, l.bs, py, pd, nb, &out[:16][0])
		}}
	}
	ks.batch[Q4_0] = tileSpec{rows: 16, pos: 4, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		if !gatherable(l.rs, 16) {
			fallbackTile(dot4, w, l.rs, a, i, 16, 4, out)
			return
		}
		pw, py, pd, nb := tileArgs(w, l, a, i, 16, 4, 18)
		q40Batch16x4s(pw, l.rs, l.bs, py, a.cols, pd, 4*nb, nb, l.next, &out[:64][0])
	}}
}

// gatherable reports whether the int32 offsets with which the Q4_0 tiles
// gather the scales of a row's last block reach rows rows of rb bytes
// (always, unless a row is over 100 MB).
func gatherable(rb, rows int) bool { return rb <= math.MaxInt32/rows }

// fallbackTile computes a tile with the row kernel, for shapes the
// kernels cannot address.
func fallbackTile(dot rowKernel, w []byte, rb int, a *acts, i, rows, pos int, out []float32) {
	for p := 0; p < pos; p++ {
		for k := 0; k < rows; k++ {
			out[p*rows+k] = dot(w[k*rb:(k+1)*rb], a, i+p)
		}
	}
}

//go:build arm64 && !purego

package tensor

// The NEON F16 tile for prompt batches (tiles_f16_arm64.s), in dotF16's
// order, reading the activations as float32 (acts.hf): sixteen rows for
// 2..posTile positions, each row's widened weights serving three
// positions. The Go wrapper adds the tails past the last 32 columns.

//go:noescape
func f16TileNEON(w *byte, rs int, rows int, x *float32, xs int, k int, n int, out *float32, os int)

// addF16NEON registers the tile above.
func addF16NEON(ks *kernelSet) {
	ks.f16f32 = true
	ks.batch[F16] = tileSpec{rows: 16, pos: posTile, minPos: 2, direct: true, fn: f16TileNEONRows}
}

// f16TileNEONRows computes 16 rows for 2..posTile positions from i into
// out[p*os+r] (os = l.os, or 16).
func f16TileNEONRows(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = 16
	os, k := l.outs(rows, out)
	cols := a.cols
	n := cols / 32 * 32
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = a.hf[(i+k)*cols-1]
	_ = out[(k-1)*os+rows-1]
	if n > 0 {
		f16TileNEON(&w[0], l.rs, rows, &a.hf[i*cols], 4*cols, k, n, &out[0], os)
	}
	if n < cols {
		f16Tails(w, l.rs, a, i, k, rows, os, n, out)
	}
}

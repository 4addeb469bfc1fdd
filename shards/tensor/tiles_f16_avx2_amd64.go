//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for F16 weights (tiles_f16_avx2_amd64.s), in dotF16's
// order, reading the activations as float32 (acts.hf): sixteen rows for
// one position (decode; f16Vec) and for 2..posTile positions (prefill,
// batched decode; f16Tile). The Go wrappers add the tails past the last
// 32 columns.

//go:noescape
func f16VecAVX2(w *byte, rs int, pairs int, x *float32, n int, pf int, out *float32)

//go:noescape
func f16TileAVX2(w *byte, rs int, x *float32, xs int, n int, pairs int, p int, acc *float32, pf int, pfFrom int, pfTo int, out *float32, os int)

// addF16AVX2 registers the kernels above.
func addF16AVX2(ks *kernelSet) {
	ks.f16f32 = true
	ks.vec[F16] = tileSpec{rows: f16TileRows, pos: 1, fn: f16Vec}
	ks.batch[F16] = tileSpec{rows: f16TileRows, pos: posTile, minPos: 2, direct: true, fn: f16Tile}
}

// f16Vec computes f16TileRows rows for one position with f16VecAVX2: two
// rows at a time, in one call for the tile. Each row prefetches the line
// one row on (in a row-major matrix, the second row of a pair the first
// row of the next pair): on the AVX2 EPYC, streaming a page-cache mapping
// on two threads (alternated, under load), that beat prefetching both
// rows of the next pair by 5-15% and none by 15-25%.
func f16Vec(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = f16TileRows
	cols := a.cols
	n := cols / 32 * 32
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = out[rows-1]
	if n > 0 {
		_ = a.hf[(i+1)*cols-1]
		pf := 0
		if l.next > 0 {
			pf = l.rs
		}
		f16VecAVX2(&w[0], l.rs, rows/2, &a.hf[i*cols], n, pf, &out[0])
	}
	if n < cols {
		f16Tails(w, l.rs, a, i, 1, rows, rows, n, out)
	}
}

// f16TileRows rows form one f16Tile call: eight row pairs share each K
// block of the activations while it is in L1.
const f16TileRows = 16

// f16Tile computes f16TileRows rows for 2..posTile positions with
// f16TileAVX2, in groups of at most six positions of as equal a size as
// possible (32 = 6+6+5+5+5+5), then adds the tails. Per K block, two rows'
// weights are widened once for six positions (12 FMAs per 2 conversions
// and 6 loads, which Zen 2 runs near its two FMAs a cycle), and the
// block's activations serve all sixteen rows from L1. Each group
// prefetches a share of the next tile's row pairs (l.next), at the pace
// it reads the same pairs of this tile.
func f16Tile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = f16TileRows
	os, k := l.outs(rows, out)
	cols := a.cols
	n := cols / 32 * 32
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = a.hf[(i+k)*cols-1]
	_ = out[(k-1)*os+rows-1]
	if n > 0 {
		var acc [rows * 6 * 32]float32
		const pairs = rows / 2
		groups := (k + 5) / 6
		for p, g := 0, 0; p < k; g++ {
			np := (k - p + groups - g - 1) / (groups - g)
			f16TileAVX2(&w[0], l.rs, &a.hf[(i+p)*cols], 4*cols, n/32, pairs, np, &acc[0],
				l.next, g*pairs/groups, (g+1)*pairs/groups, &out[p*os], os)
			p += np
		}
	}
	if n < cols {
		f16Tails(w, l.rs, a, i, k, rows, os, n, out)
	}
}

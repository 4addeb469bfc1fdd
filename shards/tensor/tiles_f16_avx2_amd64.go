//go:build amd64 && !purego

package tensor

// AVX2 tile kernels for F16 weights (tiles_f16_avx2_amd64.s), in dotF16's
// order, reading the activations as float32 (acts.hf): two rows for one
// position (decode; prefetching the rows that follow), and sixteen rows
// for 2..posTile positions (prefill, batched decode; see f16Tile). The Go
// wrappers add the tails past the last 32 columns.

//go:noescape
func f16Vec2AVX2(w *byte, rs int, x *float32, n int, next int, out *[2]float32)

//go:noescape
func f16TileAVX2(w *byte, rs int, x *float32, xs int, n int, pairs int, p int, acc *float32, pf int, out *float32, os int)

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
	ks.batch[F16] = tileSpec{rows: f16TileRows, pos: posTile, minPos: 2, direct: true, fn: f16Tile}
}

// f16TileRows rows form one f16Tile call: eight row pairs share each K
// block of the activations while it is in L1.
const f16TileRows = 16

// f16Tile computes f16TileRows rows for 2..posTile positions with
// f16TileAVX2, in groups of at most six positions of as equal a size as
// possible (32 = 6+6+5+5+5+5), then adds the tails. Per K block, two rows'
// weights are widened once for six positions (12 FMAs per 2 conversions
// and 6 loads, which Zen 2 runs near its two FMAs a cycle), and the
// block's activations serve all sixteen rows from L1. The first group
// prefetches the next tile's rows (l.next), which it reads at the pace
// of its own.
func f16Tile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = f16TileRows
	os := l.os
	if os == 0 {
		os = rows
	}
	k := (len(out)-rows)/os + 1
	cols := a.cols
	n := cols / 32 * 32
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = a.hf[(i+k)*cols-1]
	_ = out[(k-1)*os+rows-1]
	if n > 0 {
		var acc [rows * 6 * 32]float32
		pf := l.next
		for p, groups := 0, (k+5)/6; p < k; groups-- {
			np := (k - p + groups - 1) / groups
			f16TileAVX2(&w[0], l.rs, &a.hf[(i+p)*cols], 4*cols, n/32, rows/2, np, &acc[0], pf, &out[p*os], os)
			pf = 0
			p += np
		}
	}
	if n < cols {
		for q := 0; q < k; q++ {
			x := a.hrow(i + q)
			for r := 0; r < rows; r++ {
				s := float32(0)
				if n > 0 {
					s = out[q*os+r]
				}
				out[q*os+r] = tailF16(s, w[r*l.rs:], x, n)
			}
		}
	}
}

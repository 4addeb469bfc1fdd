//go:build amd64 && !purego

package tensor

// AVX2 kernels for BF16 weights (bf16_avx2_amd64.s) in both of llama.cpp's
// orders (bf16order.go): a tile of up to 16 rows for one position
// (decode, prefetching the rows that follow) and one row alone in the
// one-position order; a tile of 16 rows for up to posTile positions
// (prompts, batched decode) in the several-position order, with fused
// multiply-adds where the exponent ranges of its rows and positions make
// every product exact. The kernels return MXCSR's denormal-operand flag:
// when a subnormal took part, where VDPBF16PS (and the Go code) would
// have flushed it, the call is computed again by the Go kernels, so the
// bits are always theirs. A flagged one-position tile is run again a row
// pair at a time to find the pairs to recompute, and the prompt tile's
// usual kernel (bf16ManyFAVX2, every row pair fused, activations widened
// once per product in acts.hf) checks the flag per row pair and group of
// positions, so that a stray subnormal weight costs the Go kernels two
// rows, not sixteen.

//go:noescape
func bf16StepRowsAVX2(w *byte, rs int, x *uint16, n int, rows int, next int, out *[16][2]float32) int

//go:noescape
func bf16ManyAVX2(w *byte, rs int, rows int, x *uint16, xs int, k int, n int, next int, out *float32, os int) int

//go:noescape
func bf16ManyFAVX2(w *byte, rs int, rows int, xf *float32, k int, n int, xrange int, next int, out *float32, os int, flags *byte, spill *float32) int

// addBF16AVX2 registers the kernels above.
func addBF16AVX2(ks *kernelSet) {
	ks.dot[BF16] = bf16DotAVX2
	ks.vec[BF16] = tileSpec{rows: 16, pos: 1, fn: bf16VecAVX2}
	ks.many[BF16] = bf16ManyRowAVX2
	ks.manyBatch[BF16] = tileSpec{rows: 16, pos: posTile, minPos: 1, direct: true, fn: bf16ManyTileAVX2}
	ks.bf16f32 = true
}

// bf16DotAVX2 is dotBF16Step.
func bf16DotAVX2(w []byte, a *acts, i int) float32 {
	x := a.hrow(i)
	n := len(x) / 64 * 64
	if n == 0 {
		return dotBF16Step(w, x)
	}
	_ = w[2*len(x)-1]
	var r [16][2]float32
	if bf16StepRowsAVX2(&w[0], 0, &x[0], n, 1, 0, &r) != 0 {
		return dotBF16Step(w, x)
	}
	return finishBF16Sums(r[0], w, x, n)
}

// bf16VecAVX2 computes 16 rows for position i in the one-position order.
func bf16VecAVX2(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = 16
	x := a.hrow(i)
	n := len(x) / 64 * 64
	_ = w[(rows-1)*l.rs+2*len(x)-1]
	_ = out[rows-1]
	var r [rows][2]float32
	if n == 0 {
		for k := range rows {
			out[k] = dotBF16Step(w[k*l.rs:], x)
		}
		return
	}
	if bf16StepRowsAVX2(&w[0], l.rs, &x[0], n, rows, l.next, &r) != 0 {
		// A subnormal took part somewhere: find the row pairs again
		// with the kernel (checking the flag after each pair in the
		// kernel cost 5% of its speed), so that the Go kernel computes
		// two rows, not sixteen.
		for k := 0; k < rows; k += 2 {
			var r2 [16][2]float32
			if bf16StepRowsAVX2(&w[k*l.rs], l.rs, &x[0], n, 2, 0, &r2) != 0 {
				out[k], out[k+1] = dotBF16Step(w[k*l.rs:], x), dotBF16Step(w[(k+1)*l.rs:], x)
				continue
			}
			out[k], out[k+1] = finishBF16Sums(r2[0], w[k*l.rs:], x, n), finishBF16Sums(r2[1], w[(k+1)*l.rs:], x, n)
		}
		return
	}
	for k := range rows {
		out[k] = finishBF16Sums(r[k], w[k*l.rs:], x, n)
	}
}

// bf16ManyRowAVX2 is dotBF16Batch: the two-row kernel with both rows the
// same row (a row left over by the tiles).
func bf16ManyRowAVX2(w []byte, a *acts, i int) float32 {
	x := a.hrow(i)
	if len(x)%32 != 0 {
		return bf16DotAVX2(w, a, i)
	}
	_ = w[2*len(x)-1]
	var r [2]float32
	if bf16ManyAVX2(&w[0], 0, 2, &x[0], 0, 1, len(x), 0, &r[0], 2) != 0 {
		return dotBF16Batch(w, x)
	}
	return r[0]
}

// bf16ManyTileAVX2 computes 16 rows for 1..posTile positions from i in
// the several-position order, into out[p*os+k] (os = l.os, or 16).
func bf16ManyTileAVX2(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = 16
	os, k := l.outs(rows, out)
	cols := a.cols
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = a.h[(i+k)*cols-1]
	_ = out[(k-1)*os+rows-1]
	if cols%32 == 0 && len(a.hf) >= (i+k)*cols && k <= posTile {
		// Every row pair on the fused path: only outputs where a
		// subnormal took part go to the Go kernels.
		var flags [8 * posTile]byte
		var spill [8 * 12 * 8]float32
		if bf16ManyFAVX2(&w[0], l.rs, rows, &a.hf[i*cols], k, cols, int(bf16Range(a.hx[i:i+k])), l.next, &out[0], os, &flags[0], &spill[0]) == 0 {
			for p := range k {
				for rp, f := range flags[8*p : 8*p+rows/2] {
					if f != 0 {
						bf16BatchGo(w, l.rs, a, i, p, p+1, 2*rp, 2*rp+2, os, out)
					}
				}
			}
			return
		}
	}
	if cols%32 != 0 {
		// tinyBLAS declines such rows: the Go kernels' order.
		bf16BatchGo(w, l.rs, a, i, 0, k, 0, rows, os, out)
		return
	}
	if bf16ManyAVX2(&w[0], l.rs, rows, &a.h[i*cols], 2*cols, k, cols, l.next, &out[0], os) == 0 {
		return
	}
	// A subnormal took part: run the row pairs again one at a time and
	// give the flagged ones to the Go kernels' flushing.
	for r := 0; r < rows; r += 2 {
		if bf16ManyAVX2(&w[r*l.rs], l.rs, 2, &a.h[i*cols], 2*cols, k, cols, 0, &out[r], os) != 0 {
			bf16BatchGo(w, l.rs, a, i, 0, k, r, r+2, os, out)
		}
	}
}

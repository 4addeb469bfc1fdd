//go:build arm64 && !purego

package tensor

// NEON kernels for BF16 weights (bf16_arm64.s) in both of llama.cpp's
// orders (bf16order.go), in every arm64 set: a tile of 16 rows for one
// position (decode) and one row alone in the one-position order; a tile
// of 16 rows for up to posTile positions (prompts, batched decode) and
// one row alone in the several-position order. They multiply and add
// separately, as the Go kernels do, or, in the prompt tile where the
// exponent ranges of its rows and of the activations make every product
// exact, with one fused multiply-add on activations widened once per
// product (acts.hf); all run with flush-to-zero on and report whether a
// product or sum was flushed: such a call is computed again by the Go
// kernels, so the bits are always theirs.

//go:noescape
func bf16StepNEON(w *byte, rs int, x *uint16, n int, rows int, out *[16][2]float32) int

//go:noescape
func bf16ManyNEON(w *byte, rs int, rows int, x *uint16, xs int, k int, n int, out *float32, os int) int

//go:noescape
func bf16ManyFNEON(w *byte, rs int, rows int, xf *float32, xs int, k int, n int, xrange int, out *float32, os int) int

// addBF16NEON registers the kernels above.
func addBF16NEON(ks *kernelSet) {
	ks.dot[BF16] = bf16DotNEON
	ks.vec[BF16] = tileSpec{rows: 16, pos: 1, fn: bf16VecNEON}
	ks.many[BF16] = bf16ManyRowNEON
	ks.manyBatch[BF16] = tileSpec{rows: 16, pos: posTile, minPos: 1, direct: true, fn: bf16ManyTileNEON}
	ks.bf16f32 = true
}

// bf16DotNEON is dotBF16Step.
func bf16DotNEON(w []byte, a *acts, i int) float32 {
	x := a.hrow(i)
	n := len(x) / 64 * 64
	if n == 0 {
		return dotBF16Step(w, x)
	}
	_ = w[2*len(x)-1]
	var r [16][2]float32
	if bf16StepNEON(&w[0], 0, &x[0], n, 1, &r) != 0 {
		return dotBF16Step(w, x)
	}
	return finishBF16Sums(r[0], w, x, n)
}

// bf16VecNEON computes 16 rows for position i in the one-position order.
func bf16VecNEON(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = 16
	x := a.hrow(i)
	n := len(x) / 64 * 64
	_ = w[(rows-1)*l.rs+2*len(x)-1]
	_ = out[rows-1]
	var r [rows][2]float32
	if n == 0 || bf16StepNEON(&w[0], l.rs, &x[0], n, rows, &r) != 0 {
		for k := range rows {
			out[k] = dotBF16Step(w[k*l.rs:], x)
		}
		return
	}
	for k := range rows {
		out[k] = finishBF16Sums(r[k], w[k*l.rs:], x, n)
	}
}

// bf16ManyRowNEON is dotBF16Batch (a row left over by the tiles).
func bf16ManyRowNEON(w []byte, a *acts, i int) float32 {
	x := a.hrow(i)
	if len(x)%32 != 0 {
		return bf16DotNEON(w, a, i)
	}
	_ = w[2*len(x)-1]
	var r float32
	if bf16ManyNEON(&w[0], 0, 1, &x[0], 0, 1, len(x), &r, 1) != 0 {
		return dotBF16Batch(w, x)
	}
	return r
}

// bf16ManyTileNEON computes 16 rows for 1..posTile positions from i in
// the several-position order, into out[p*os+k] (os = l.os, or 16).
func bf16ManyTileNEON(w []byte, l tileLayout, a *acts, i int, out []float32) {
	const rows = 16
	os, k := l.outs(rows, out)
	cols := a.cols
	_ = w[(rows-1)*l.rs+2*cols-1]
	_ = a.h[(i+k)*cols-1]
	_ = out[(k-1)*os+rows-1]
	flag := 2
	if cols%32 == 0 && len(a.hf) > 0 {
		// Fused, where the exponent ranges make every product exact.
		_ = a.hf[(i+k)*cols-1]
		flag = bf16ManyFNEON(&w[0], l.rs, rows, &a.hf[i*cols], 4*cols, k, cols, int(bf16Range(a.hx[i:i+k])), &out[0], os)
	}
	if flag == 2 && cols%32 == 0 {
		flag = bf16ManyNEON(&w[0], l.rs, rows, &a.h[i*cols], 2*cols, k, cols, &out[0], os)
	}
	if flag != 0 {
		// tinyBLAS declines such rows (cols%32 != 0), or a subnormal
		// took part: the Go kernels' order and flushing.
		bf16BatchGo(w, l.rs, a, i, 0, k, 0, rows, os, out)
	}
}

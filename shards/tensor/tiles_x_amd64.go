//go:build amd64 && !purego

package tensor

// addXTiles registers the kernels of the x layouts (xlayout.go) on CPUs
// that run them. A kernel's argument checks failing is a bug in MatMul's
// bookkeeping, hence the panics.
func addXTiles(ks *kernelSet) {
	if !hasQ0Tiles() {
		return
	}
	if hasQ40xTiles() {
		ks.x[Q4_0] = xTile{pos: q40xMaxPos, fn: func(tile []byte, a *acts, i, p int, out []float32) {
			nb := a.nb
			if err := q40xTile(tile, nb, a.qs[i*a.cols:], a.cols, a.d[i*nb:], a.xs[i*a.xstride:], nb, p, out, q40xPrefetch(p)); err != nil {
				panic(err)
			}
		}}
	}
	ks.x[Q8_0] = xTile{pos: q80xMaxPos, fn: func(tile []byte, a *acts, i, p int, out []float32) {
		nb := a.nb
		if err := q80xBatch(tile, nb, p, a.qs[i*a.cols:], a.cols, a.d[i*nb:], nb, a.xs[i*a.xstride:], a.xstride, out); err != nil {
			panic(err)
		}
	}}
}

// q80xMaxPos is the most positions given to q80xBatch at once: one sweep
// of three passes of three.
const q80xMaxPos = 9

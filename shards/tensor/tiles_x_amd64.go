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
		}, run: q40xRun}
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

// q40xRun is xTile.run for the AVX-512 kernels: q40xVec16 on each whole
// tile of tiles against position i, writing into out directly (no
// argument checks and scratch copy per tile).
func q40xRun(tiles []byte, a *acts, i int, out []float32) {
	n, qs, d, bias := q40xRunArgs(tiles, a, i, out)
	tb := a.nb * q40xTileBytes
	pf := q40xPrefetch(1)
	for t := range n {
		q40xVec16(&tiles[t*tb], a.nb, &qs[0], &d[0], &bias[0], &out[16*t], pf)
	}
}

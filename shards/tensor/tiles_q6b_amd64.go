//go:build amd64 && !purego

package tensor

//go:noescape
func q6kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb, np, next int, out *float32)

// q6bRows is the row count of the Q6_K tile; q6bMaxPos its largest
// position count (q6bRows*q6bMaxPos = maxTile).
const (
	q6bRows   = 8
	q6bMaxPos = maxTile / q6bRows
)

// q6bTile computes an 8-row tile of Q6_K rows (laid out as l says) for
// positions i, i+1, ... into out[p*8+k]: as many positions as out has
// room for, at most q6bMaxPos (the kernel takes the count at run time, so
// one kernel serves 1..8 positions; MatMul's scratch tiles have
// maxTile = 64 floats, which gives 8). Each output is bit-identical to
// dotQ6_K (tiles_q6b_amd64.s says how).
func q6bTile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	np := min(len(out)/q6bRows, q6bMaxPos)
	pw, py, pd, nb := tileArgs(w, l, a, i, q6bRows, np, 210)
	q6kTile8(pw, l.rs, l.bs, py, a.cols, pd, nb, nb, np, l.next, &out[0])
}

// addK8Tiles makes the 8-row Q6_K tile kernel ks's batch kernel for Q6_K
// on CPUs with the K tile instructions (hasKTiles). Compared with
// q6kBatch2x8 it forms the integer lanes with fewer instructions (VPDPBUSD
// on unsigned quants with the activations as memory operands, two groups
// packed per word pair for the scale products), shares the activation
// terms among 8 rows, prefetches the next tile from memory (tileLayout.next)
// and honours tileLayout.bs, so it reads packed matrices too. It is
// registered with pos = q6bMaxPos: MatMul, as it stands, only calls a
// batch kernel when that many positions remain.
func addK8Tiles(ks *kernelSet) {
	if !hasKTiles() {
		return
	}
	ks.batch[Q6_K] = tileSpec{rows: q6bRows, pos: q6bMaxPos, fn: q6bTile, strided: true}
	ks.batch[Q4_K] = tileSpec{rows: q6bRows, pos: q6bMaxPos, fn: q4bTile, strided: true}
}

//go:noescape
func q4kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb, np, next int, out *float32)

// q4bTile is q6bTile for Q4_K (dotQ4_K's bits).
func q4bTile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	np := min(len(out)/q6bRows, q6bMaxPos)
	pw, py, pd, nb := tileArgs(w, l, a, i, q6bRows, np, 144)
	q4kTile8(pw, l.rs, l.bs, py, a.cols, pd, nb, bsumsArgs(a, i, np), 16*nb, nb, np, l.next, &out[0])
}

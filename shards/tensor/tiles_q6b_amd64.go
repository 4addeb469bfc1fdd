//go:build amd64 && !purego

package tensor

import "fmt"

// 8-row tile kernels for Q6_K and Q4_K that take the number of positions
// (1..8) at run time, for batched decoding (a few sessions' positions at
// once) as well as prompt batches. See tiles_q6b_amd64.s for how each
// output keeps dotQ6_K's / dotQ4_K's exact order.

// q6bRows is the row count of the tiles; q6bMaxPos their largest position
// count, which the kernels' stack frames are sized for.
const (
	q6bRows   = 8
	q6bMaxPos = 8
)

// A tile's results must fit in one of MatMul's scratch tiles.
var _ [maxTile - q6bRows*q6bMaxPos]struct{}

// q6bPositions is the position count of a call: as many as out has room
// for, at most q6bMaxPos. A shorter out would be a bug in MatMul.
func q6bPositions(out []float32) int {
	np := min(len(out)/q6bRows, q6bMaxPos)
	if np < 1 {
		panic(fmt.Sprintf("tensor: 8-row tile kernel given %d outputs", len(out)))
	}
	return np
}

// q6bTile computes an 8-row tile of Q6_K rows (laid out as l says) for
// positions i, i+1, ..., i+np-1 into out[p*8+k], np = q6bPositions(out).
func q6bTile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	np := q6bPositions(out)
	pw, py, pd, nb := tileArgs(w, l, a, i, q6bRows, np, 210)
	q6kTile8(pw, l.rs, l.bs, py, a.cols, pd, nb, nb, np, l.next, &out[0])
}

// q4bTile is q6bTile for Q4_K.
func q4bTile(w []byte, l tileLayout, a *acts, i int, out []float32) {
	np := q6bPositions(out)
	pw, py, pd, nb := tileArgs(w, l, a, i, q6bRows, np, 144)
	q4kTile8(pw, l.rs, l.bs, py, a.cols, pd, nb, bsumsArgs(a, i, np), 16*nb, nb, np, l.next, &out[0])
}

// addK8Tiles makes the 8-row tiles ks's batch kernels for Q6_K and Q4_K on
// CPUs with the K tile instructions (hasKTiles); the one-position kernels
// stay. Compared with q6kBatch2x8/q4kBatch2x8 they form the integer lanes
// with fewer instructions (VPDPBUSD on unsigned quants with the
// activations as memory operands, two groups packed per word pair for the
// scale products), share the per-position work among 8 rows, prefetch the
// next tile (tileLayout.next) and honour tileLayout.bs (packed matrices).
//
// They are registered with pos = 8, so MatMul as it stands calls them
// only where 8 positions remain; they compute any 1..8 positions, the
// count given by len(out), and MatMul can use them from 2 positions on by
// passing buf[:rows*k] for k = min(pos, remaining) positions.
func addK8Tiles(ks *kernelSet) {
	if !hasKTiles() {
		return
	}
	ks.batch[Q6_K] = tileSpec{rows: q6bRows, pos: q6bMaxPos, fn: q6bTile, strided: true, minPos: 2}
	ks.q6u8 = false // q6kBatchN's offset activations: no kernel of the set reads them now
	ks.batch[Q4_K] = tileSpec{rows: q6bRows, pos: q6bMaxPos, fn: q4bTile, strided: true, minPos: 2}
}

//go:build amd64 && !purego

package tensor

import "fmt"

// AVX2 kernels (tiles_q4x_avx2_amd64.s) for Q4_0 weights in the x layout of
// packq4x.go, so that Pack packs Q4_0 on CPUs without AVX-512 too: sixteen
// rows for one position (decode) and for two to four positions (prefill,
// batched decode). Both read a tile as one sequential stream.

// q40xVecAVX2 is q40xVec16 (sixteen rows, one position) for tiles
// consecutive tiles (tiles >= 1): out[16*t+r] for row r of tile t. pf > 0
// prefetches the bytes pf ahead of those it reads, pf = 0 none.
//
//go:noescape
func q40xVecAVX2(w *byte, nb int, tiles int, y *int8, d *float32, bias *int32, out *float32, pf int)

// q40xBatchAVX2 computes the sixteen rows of a tile for p = 2, 3 or 4
// positions, laid out as for q40xBatch16: out[k*16+r].
//
//go:noescape
func q40xBatchAVX2(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, p int, out *float32, pf int)

// q40xBatch8AVX2 computes the sixteen rows of a tile for eight positions
// in one pass over it, laid out as for q40xBatchAVX2.
//
//go:noescape
func q40xBatch8AVX2(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, out *float32, pf int)

// q40xAVX2PF is the one-position kernel's prefetch distance (bytes): on
// an AVX2 EPYC (Zen 2) streaming from DRAM on two threads
// (BenchmarkQ4xColdAVX2), any distance from two to sixteen pairs of
// blocks beat none by 1.3-1.7× (best of 300: 15.3 GB/s without, 24.4 at
// 4608), where the hardware prefetcher alone leaves the stream
// latency-bound; the AVX-512 kernel measured the opposite on its CPU.
const q40xAVX2PF = 4608

// q40xAVX2PF4 is the prefetch distance of the multi-position kernel's
// first pass over a tile (later ones find it in cache): on the same EPYC
// (BenchmarkQ4xColdAVX2x4, four positions, best of 40, load ~3) 8.7 GB/s
// without, 10.6-10.7 with 4608, 9216 or 18432 bytes.
const q40xAVX2PF4 = 9216

// q40xAVX2Pos is the most positions q40xTileAVX2 takes in one call, and
// q40xAVX2Group the most its kernels take.
const (
	q40xAVX2Pos   = 8
	q40xAVX2Group = 4
)

// q40xTileAVX2 is q40xTile for the AVX2 kernels (no prefetch distance):
// eight positions go to the eight-position kernel (one pass over the
// tile); fewer to the multi-position kernel in groups of up to four (five
// as three and two, which cost less than four and one: per 16-row block
// on the Zen 2 EPYC one position costs 27 cycles, two 45, three 65, four
// 85), a single one to the one-position kernel; only the first pass over
// the tile prefetches (the others find it in cache).
func q40xTileAVX2(tile []byte, nb int, qs []int8, ystride int, d []float32, bias []int32, dstride, p int, out []float32) error {
	if gap := kernelGap("avx2"); gap != "" {
		return fmt.Errorf("tensor: Q4_0x AVX2 tile: %s", gap)
	}
	if err := q40xTileArgs(tile, nb, qs, ystride, d, bias, dstride, p, q40xAVX2Pos, out); err != nil {
		return err
	}
	if p == 8 {
		q40xBatch8AVX2(&tile[0], nb, &qs[0], ystride, &d[0], &bias[0], dstride, &out[0], q40xAVX2PF4)
		return nil
	}
	pf, pf1 := q40xAVX2PF4, q40xAVX2PF
	for k, g := 0, 0; k < p; k += g {
		g = min(q40xAVX2Group, p-k)
		if p-k == 5 {
			g = 3
		}
		switch g {
		case 1:
			q40xVecAVX2(&tile[0], nb, 1, &qs[k*ystride], &d[k*dstride], &bias[k*dstride], &out[16*k], pf1)
		default:
			q40xBatchAVX2(&tile[0], nb, &qs[k*ystride], ystride, &d[k*dstride], &bias[k*dstride], dstride, g, &out[16*k], pf)
		}
		pf, pf1 = 0, 0
	}
	return nil
}

// addQ40xAVX2 registers the kernels above for x-packed Q4_0.
func addQ40xAVX2(ks *kernelSet) {
	ks.x[Q4_0] = xTile{pos: q40xAVX2Pos, fn: func(tile []byte, a *acts, i, p int, out []float32) {
		nb := a.nb
		if err := q40xTileAVX2(tile, nb, a.qs[i*a.cols:], a.cols, a.d[i*nb:], a.xs[i*a.xstride:], nb, p, out); err != nil {
			panic(err)
		}
	}, run: q40xRunAVX2}
}

// q40xRunAVX2 is xTile.run for the AVX2 kernels: the whole tiles of
// tiles against position i in one call of q40xVecAVX2.
func q40xRunAVX2(tiles []byte, a *acts, i int, out []float32) {
	n, qs, d, bias := q40xRunArgs(tiles, a, i, out)
	q40xVecAVX2(&tiles[0], a.nb, n, &qs[0], &d[0], &bias[0], &out[0], q40xAVX2PF)
}

// q40xRunArgs checks an xTile.run call of the Q4_0 x layout (whole tiles,
// room for their sixteen outputs each; a failure is a bug in MatMul's
// bookkeeping, hence the panic) and gives the tile count and position i's
// quantized activations, scales and biases.
func q40xRunArgs(tiles []byte, a *acts, i int, out []float32) (n int, qs []int8, d []float32, bias []int32) {
	nb := a.nb
	tb := nb * q40xTileBytes
	n = len(tiles) / tb
	if n == 0 || len(tiles) != n*tb || len(out) < 16*n {
		panic(fmt.Errorf("tensor: Q4_0x run: %d bytes of %d-byte tiles into %d outputs", len(tiles), tb, len(out)))
	}
	return n, a.qs[i*a.cols:][:32*nb], a.d[i*nb:][:nb], a.xs[i*a.xstride:][:nb]
}

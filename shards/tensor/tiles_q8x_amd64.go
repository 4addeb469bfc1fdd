//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"unsafe"
)

// AVX-512 VNNI kernels for Q8_0 tiles in the interleaved layout of
// packq8x.go (tiles_q8x_amd64.s). They need hasQ0Tiles(). Every output has
// the bits of dotQ8_0 on the original rows.

// q80xPrefetch is how far ahead of its loads the first pass of q80xBatch
// prefetches, in bytes. Measured (CPU time of 2 threads on 5632×2048
// matrices streaming from DRAM, same run): for 4 and 8 positions,
// prefetching in the first pass and the next chunk in the second gave
// 47 and 35 GB/s per CPU-second against 34 and 23 with no software
// prefetch (distances 1-4 KB within 3%); for one position the hardware
// prefetcher alone was as fast as any distance from 512 B to 4 KB (about
// 60 GB/s), so q80xVec does not prefetch.
const q80xPrefetch = 4096

// q80xTileBytes is the size of one interleaved tile of nb blocks.
func q80xTileBytes(nb int) int { return q80xTile * 34 * nb }

// q80xVec computes tile (one interleaved tile of nb blocks, nb = len(d))
// against one activation row qs, d with sums s (q80xActSums of qs) into
// out[:16].
func q80xVec(tile []byte, qs []int8, d []float32, s []int32, out []float32) error {
	nb := len(d)
	if nb == 0 || len(tile) < q80xTileBytes(nb) || len(qs) < 32*nb || len(s) < 8*nb || len(out) < q80xTile {
		return fmt.Errorf("q80x vec: buffers do not fit nb=%d (tile %d, qs %d, s %d, out %d)", nb, len(tile), len(qs), len(s), len(out))
	}
	q80xVec16(&tile[0], nb, &qs[0], &d[0], &s[0], &out[0], 0)
	return nil
}

// q80xBatch computes tile (nb blocks) against p positions: position k's
// activations are qs[k*ystride:][:32*nb], d[k*dstride:][:nb],
// s[k*sstride:][:8*nb]; its outputs go to out[16k:16k+16].
//
// The positions are taken two or three at a time (24 float accumulators
// plus the weights fill the 32 vector registers), up to three such passes
// (nine positions) per sweep over the tile. With more than one pass the
// tile is swept in chunks of q80xChunk blocks, every pass over one chunk
// before the next chunk (the passes save and restore their accumulators
// between chunks): the later passes read the chunk from L1 while the
// second one prefetches the next chunk, so the DRAM stream runs during the
// computation instead of in bursts.
func q80xBatch(tile []byte, nb, p int, qs []int8, ystride int, d []float32, dstride int, s []int32, sstride int, out []float32) error {
	return q80xBatchOpt(tile, nb, p, qs, ystride, d, dstride, s, sstride, out, q80xChunk, q80xPrefetch, true)
}

// q80xChunk is the number of blocks (even) of a chunk in q80xBatch: 16
// blocks are 8.5 KB of weights. 16 to 32 measured within 5% of each
// other, 8 and 12 (call overhead) and whole tiles 10-15% slower.
const q80xChunk = 16

// q80xBatchOpt is q80xBatch with the chunk size (even, > 0), the prefetch
// distance of the first pass (0: none) and whether the second pass
// prefetches the next chunk as parameters (for the benchmarks).
func q80xBatchOpt(tile []byte, nb, p int, qs []int8, ystride int, d []float32, dstride int, s []int32, sstride int, out []float32, chunk, pfd int, pfNext bool) error {
	if nb <= 0 || p <= 0 || ystride < 32*nb || dstride < nb || sstride < 8*nb || chunk <= 0 || chunk%2 != 0 || pfd < 0 {
		return fmt.Errorf("q80x batch: bad shape nb=%d p=%d strides %d, %d, %d, chunk %d", nb, p, ystride, dstride, sstride, chunk)
	}
	last := p - 1
	if len(tile) < q80xTileBytes(nb) || len(qs) < last*ystride+32*nb || len(d) < last*dstride+nb ||
		len(s) < last*sstride+8*nb || len(out) < q80xTile*p {
		return fmt.Errorf("q80x batch: buffers too short for nb=%d p=%d", nb, p)
	}
	if p == 1 {
		// As q80xVec: the hardware prefetcher alone.
		q80xVec16(&tile[0], nb, &qs[0], &d[0], &s[0], &out[0], 0)
		return nil
	}
	base := uintptr(unsafe.Pointer(&tile[0]))
	var acc [3][3 * 8 * q80xTile]float32
	for g := 0; g < p; g += 9 {
		// Split positions g.. into passes of three, or two where three
		// would leave one.
		var k0, qn [3]int
		n := 0
		for k := g; k < min(g+9, p); {
			q := 3
			switch min(g+9, p) - k {
			case 1:
				q = 1
			case 2, 4, 7:
				q = 2
			}
			k0[n], qn[n] = k, q
			n++
			k += q
		}
		if n == 1 && qn[0] == 1 {
			k := k0[0]
			q80xVec16(&tile[0], nb, &qs[k*ystride], &d[k*dstride], &s[k*sstride], &out[16*k], 0)
			continue
		}
		step := nb
		if n > 1 {
			step = chunk
		}
		for j0 := 0; j0 < nb; j0 += step {
			nj := min(step, nb-j0)
			flags := 0
			if j0 > 0 {
				flags |= 1
			}
			if j0+nj == nb {
				flags |= 2
			}
			off := 544 * j0 // j0 is even: a pair boundary
			for i := 0; i < n; i++ {
				var pf uintptr
				switch {
				case i == 0 && pfd > 0:
					pf = base + uintptr(off+pfd)
				case i == 1 && pfNext:
					// The next chunk (or the next tile after the last).
					pf = base + uintptr(off+544*nj)
				}
				k := k0[i]
				w, y, dd, ss, a, o := &tile[off], &qs[k*ystride+32*j0], &d[k*dstride+j0], &s[k*sstride+8*j0], &acc[i][0], &out[16*k]
				if qn[i] == 2 {
					q80xPass2(w, nj, y, ystride, dd, dstride, ss, sstride, a, flags, o, pf)
				} else {
					q80xPass3(w, nj, y, ystride, dd, dstride, ss, sstride, a, flags, o, pf)
				}
			}
		}
	}
	return nil
}

//go:build amd64 && !purego

package tensor

import (
	"fmt"
	"unsafe"
)

// AVX-512 VNNI kernels for Q8_0 tiles in the interleaved layout of
// packq8x.go (tiles_q8x_amd64.s). They need hasQ0Tiles(). Every output has
// the bits of dotQ8_0 on the original rows.

// q80xVec16 computes the 16 rows of one interleaved tile of nb blocks
// against one activation row: y (32*nb int8), d (nb scales), s (8*nb
// sums from q80xActSums), into out[0..16). pf is the address of the first
// byte to prefetch (it advances with the stream; 0: no software prefetch).
//
//go:noescape
func q80xVec16(w *byte, nb int, y *int8, d *float32, s *int32, out *float32, pf uintptr)

// q80xPass2 and q80xPass3 compute one tile for two or three positions;
// position p's activations are at y + p*ystride, d + p*dstride,
// s + p*sstride (strides in elements) and its 16 outputs at out[16p:].
//
//go:noescape
func q80xPass2(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, out *float32, pf uintptr)

//go:noescape
func q80xPass3(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, out *float32, pf uintptr)

// q80xPrefetch is how far ahead of its loads the first pass of q80xBatch
// prefetches, in bytes. Measured with 2 threads on 5632×2048 matrices
// streaming from DRAM (BenchmarkQ80xCold and the tuning runs reported
// with it): for 4 and 8 positions, 2048 bytes ahead in the first pass plus
// the next tile during the second pass beat no software prefetch by
// 10-25%; for one position (q80xVec) the hardware prefetcher alone was as
// fast as any distance from 512 to 4096 bytes, so q80xVec does not
// prefetch.
const q80xPrefetch = 2048

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
// s[k*sstride:][:8*nb]; its outputs go to out[16k:16k+16]. The positions
// are taken two or three at a time (24 float accumulators plus the
// weights fill the 32 vector registers); the first pass reads the tile
// from memory, the later ones from cache while prefetching the tile that
// follows in memory (the next one the caller is likely to compute).
func q80xBatch(tile []byte, nb, p int, qs []int8, ystride int, d []float32, dstride int, s []int32, sstride int, out []float32) error {
	if nb <= 0 || p <= 0 || ystride < 32*nb || dstride < nb || sstride < 8*nb {
		return fmt.Errorf("q80x batch: bad shape nb=%d p=%d strides %d, %d, %d", nb, p, ystride, dstride, sstride)
	}
	last := p - 1
	if len(tile) < q80xTileBytes(nb) || len(qs) < last*ystride+32*nb || len(d) < last*dstride+nb ||
		len(s) < last*sstride+8*nb || len(out) < q80xTile*p {
		return fmt.Errorf("q80x batch: buffers too short for nb=%d p=%d", nb, p)
	}
	base := uintptr(unsafe.Pointer(&tile[0]))
	pf := base + q80xPrefetch
	for k := 0; k < p; {
		q := 3
		switch rest := p - k; {
		case rest == 1:
			// Only when p == 1 (the splits below never leave one
			// position): as q80xVec, no software prefetch.
			q80xVec16(&tile[0], nb, &qs[k*ystride], &d[k*dstride], &s[k*sstride], &out[16*k], 0)
			return nil
		case rest == 2 || rest == 4 || rest == 7:
			q = 2
		}
		if q == 2 {
			q80xPass2(&tile[0], nb, &qs[k*ystride], ystride, &d[k*dstride], dstride, &s[k*sstride], sstride, &out[16*k], pf)
		} else {
			q80xPass3(&tile[0], nb, &qs[k*ystride], ystride, &d[k*dstride], dstride, &s[k*sstride], sstride, &out[16*k], pf)
		}
		// The second pass finds the tile cached: fetch the next one
		// meanwhile.
		if k == 0 {
			pf = base + uintptr(q80xTileBytes(nb))
		} else {
			pf = 0
		}
		k += q
	}
	return nil
}

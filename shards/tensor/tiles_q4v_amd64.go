//go:build amd64 && !purego

package tensor

// q40Vec16x2 computes sixteen Q4_0 rows for one position (tiles_q4v_amd64.s),
// two blocks per row and loop iteration, bit-identical to dotQ4_0 for every
// row. Row k's block j is at w + k*rowStride + j*blockStride, so the same
// kernel reads row-major tiles (rowStride = 18*nb, blockStride = 18) and
// block-interleaved ones (rowStride = 18, blockStride = 16*18), each with a
// path of its own, and any other strides through a general path; y and d
// are nb Q8_0 activation blocks, out gets the sixteen results in row order.
// It needs hasQ40Vec16x2().
//
// While it works it prefetches, at the pace it consumes its own tile, the
// 16*18*nb bytes that follow the tile's start by 16*18*nb: the next tile
// in both layouts (the hardware prefetchers do not follow sixteen
// row-major row streams; prefetches never fault, so the last tile may
// prefetch past the matrix).
//
// The caller guarantees nb >= 1, rowStride >= 18, blockStride >= 18 and
// that the tile's bytes [w, w + 15*rowStride + (nb-1)*blockStride + 18) are
// readable (tileArgs checks this on slices): the kernel's loads
// stay in that range but may read any byte of it, not only the blocks it
// uses.
//
//go:noescape
func q40Vec16x2(w *byte, rowStride, blockStride int, y *int8, d *float32, nb int, out *float32)

// hasQ40Vec16x2 reports whether the CPU runs q40Vec16x2: what hasQ0Tiles
// reports plus GFNI, whose affine byte transform extracts the high nibbles
// in one instruction (every CPU with AVX-512 VBMI and VNNI so far has it,
// but a hypervisor may hide it).
func hasQ40Vec16x2() bool { return hasQ40xTiles() }

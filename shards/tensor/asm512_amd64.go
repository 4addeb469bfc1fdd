//go:build amd64 && !purego && !avx512sim

package tensor

// The declarations of the AVX-512 kernels, apart from their wrappers so
// that the avx512sim build can replace them with bodies that run the same
// assembly in internal/x86sim's interpreter (sim512_amd64.go, generated
// from this file by internal/x86sim/gensim: go generate after changing one).

//go:generate go run svc/internal/x86sim/gensim -in asm512_amd64.go -out sim512_amd64.go

// kernelCaps: the CPU's features (see x86Caps).
func kernelCaps() x86Caps { return hostCaps() }

// dot512_amd64.s

//go:noescape
func dotF16AVX512(w *byte, x *uint16, n int) float32

//go:noescape
func dotF32x4AVX512(w *byte, x *float32, xstride int, n int, out *[4]float32)

// bf16_amd64.s

//go:noescape
func bf16StepAVX512(w *byte, x *uint16, n int, acc *[2][16]float32)

//go:noescape
func bf16BatchAVX512(w *byte, x *uint16, n int, acc *[16]float32)

//go:noescape
func bf16Batch4AVX512(w *byte, x *uint16, xstride int, n int, acc *[4][16]float32)

// tiles_k_amd64.s

//go:noescape
func q4kVec8(w *byte, rs, bs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[8]float32)

//go:noescape
func q4kBatch2x8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[16]float32)

//go:noescape
func q6kBatch2x8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, out *[16]float32)

//go:noescape
func q6kVec8(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *[8]float32)

// tiles_q0_amd64.s

//go:noescape
func q80Vec16s(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *float32)

//go:noescape
func q80Batch8x4s(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, pf int, out *float32)

//go:noescape
func q40Vec16s(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *float32)

//go:noescape
func q40Batch16x4s(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, pf int, out *float32)

// tiles_q4v_amd64.s

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

// tiles_q4x_amd64.s

// q40xVec16 computes the sixteen dot products of one packed tile (w, nb
// blocks) with one activation row: int8 quants y, block scales d, and the
// biases -8*sum of each block (biasQ4_0x) in bias; out[r] for row r. It
// prefetches the bytes pf ahead of those it reads (past the tile: the next
// one, which packed matrices store right after); pf = 0: no prefetches.
//
//go:noescape
func q40xVec16(w *byte, nb int, y *int8, d *float32, bias *int32, out *float32, pf int)

// q40xBatch16 is q40xVec16 for p positions (1..8): position k's quants at
// y + k*ystride, its scales and biases at d + k*dstride and bias +
// k*dstride (elements); out[k*16+r]. pf as for q40xVec16.
//
//go:noescape
func q40xBatch16(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, p int, out *float32, pf int)

// tiles_q6b_amd64.s

//go:noescape
func q6kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb, np, next int, out *float32)

//go:noescape
func q4kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb, np, next int, out *float32)

// tiles_q8x_amd64.s

// q80xVec16 computes the 16 rows of one interleaved tile of nb blocks
// against one activation row: y (32*nb int8), d (nb scales), s (8*nb
// sums from q80xActSums), into out[0..16). pf is the address of the first
// byte to prefetch (it advances with the stream; 0: no software prefetch).
//
//go:noescape
func q80xVec16(w *byte, nb int, y *int8, d *float32, s *int32, out *float32, pf uintptr)

// q80xPass2 and q80xPass3 compute nb blocks of one tile for two or three
// positions; position p's activations are at y + p*ystride, d + p*dstride,
// s + p*sstride (strides in elements). acc holds 8*16 float32 per
// position: with flags&1 the accumulators start from acc (a previous
// chunk of blocks), else from zero; with flags&2 the pass finishes the
// rows into out[16p:16p+16], else it saves the accumulators to acc.
//
//go:noescape
func q80xPass2(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, acc *float32, flags int, out *float32, pf uintptr)

//go:noescape
func q80xPass3(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, acc *float32, flags int, out *float32, pf uintptr)

//go:build amd64 && !purego

package tensor

// hasKTiles reports whether the Q4_K/Q6_K tile kernels can run: they use
// 512-bit and EVEX-encoded 256-bit integer instructions (AVX512BW, VL, DQ),
// VPDPWSSD/VPDPBUSD (AVX512_VNNI) and VPSHLDD (AVX512_VBMI2).
func hasKTiles() bool { return kTilesGap() == "" }

// kTilesGap says why the Q4_K/Q6_K tile kernels cannot run, or "".
func kTilesGap() string {
	x := kernelCaps()
	return lacking("avx512", append(avx512Features(), feature{"AVX512BW", x.HasAVX512BW}, feature{"AVX512VL", x.HasAVX512VL},
		feature{"AVX512VNNI", x.HasAVX512VNNI}, feature{"AVX512VBMI2", x.HasAVX512VBMI2})...)
}

// The kernels step through a tile by a row stride (rs) and a block stride
// (bs), so that they read row-major and packed matrices alike (tileLayout);
// next > 0 (vec) is the offset from w of data to prefetch while they work.

// addKTiles registers the VNNI tile kernels for Q4_K and Q6_K on CPUs that
// have them: 8 rows x 1 position for decoding (memory-bound: the kernels
// prefetch the next 8 rows) and 2 rows x 8 positions for prompt batches
// (each block's weights unpacked once for the eight positions). Each
// kernel interleaves several rows (and positions) so that many independent
// accumulators are in flight, each following the canonical float order of
// dotQ4_K/dotQ6_K (tiles_k_amd64.s). The wrappers check the lengths the
// assembly relies on; a mismatch would be a bug in MatMul.
func addKTiles(ks *kernelSet) {
	if !hasKTiles() {
		return
	}
	ks.vec[Q4_K] = tileSpec{rows: 8, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 8, 1, 144)
		q4kVec8(pw, l.rs, l.bs, py, pd, bsumsArgs(a, i, 1), nb, l.next, (*[8]float32)(out))
	}}
	ks.batch[Q4_K] = tileSpec{rows: 2, pos: 8, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 2, 8, 144)
		q4kBatch2x8(pw, l.rs, l.bs, py, a.cols, pd, nb, bsumsArgs(a, i, 8), 16*nb, nb, (*[16]float32)(out))
	}}
	ks.vec[Q6_K] = tileSpec{rows: 8, pos: 1, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 8, 1, 210)
		q6kVec8(pw, l.rs, l.bs, py, pd, nb, l.next, (*[8]float32)(out))
	}}
	// Pack lays these types out in groups of the vec kernels' 8 rows
	// (pack.go), which makes each tile one sequential stream: on row-major
	// rows, eight interleaved streams of 144 or 210 bytes a block, the
	// hardware prefetchers of a Zen 4 EPYC fall behind and the kernels'
	// own next-tile prefetch makes up for only part of it (BenchmarkKVec,
	// 5632×2048 streaming from DRAM: one thread Q4_K 11.8 GB/s row-major,
	// 23.8 packed, Q6_K 9.9 and 25.3; two threads 20.3 and 32.3, 18.7 and
	// 32.6, as fast as the AVX2 four-row kernels on row-major rows, whose
	// four streams the prefetchers follow). The kernels and their
	// instructions per weight are the same on both layouts.
	ks.group[Q4_K], ks.group[Q6_K] = 8, 8
	ks.batch[Q6_K] = tileSpec{rows: 2, pos: 8, strided: true, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		pw, py, pd, nb := tileArgs(w, l, a, i, 2, 8, 210)
		q6kBatch2x8(pw, l.rs, l.bs, py, a.cols, pd, nb, nb, (*[16]float32)(out))
	}}
}

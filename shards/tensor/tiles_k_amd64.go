//go:build amd64 && !purego

package tensor

import "golang.org/x/sys/cpu"

// hasKTiles reports whether the Q4_K/Q6_K tile kernels can run: they use
// 512-bit and EVEX-encoded 256-bit integer instructions (AVX512BW, VL) and
// VPDPWSSD (AVX512_VNNI).
func hasKTiles() bool {
	return cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VNNI
}

//go:noescape
func q4kVec8(w *byte, rb int, y *int8, d *float32, bsums *int16, nb int, out *[8]float32)

//go:noescape
func q4kBatch2x8(w *byte, rb int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[16]float32)

//go:noescape
func q6kBatch2x8(w *byte, rb int, y *int8, ystride int, d *float32, dstride int, nb int, out *[16]float32)

//go:noescape
func q6kVec8(w *byte, rb int, y *int8, d *float32, nb int, out *[8]float32)

// addKTiles registers the VNNI tile kernels for Q4_K and Q6_K on CPUs that
// have them. Each kernel interleaves several rows (and positions) so that
// many independent accumulators are in flight, each following the
// canonical float order of dotQ4_K/dotQ6_K.
func addKTiles(ks *kernelSet) {
	if !hasKTiles() {
		return
	}
	ks.vec[Q4_K] = tileSpec{rows: 8, pos: 1, fn: func(w []byte, rb int, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[7*rb+144*nb-1]
		_ = a.qs[(i+1)*a.cols-1]
		_ = a.d[(i+1)*nb-1]
		_ = a.bsums[16*(i+1)*nb-1]
		q4kVec8(&w[0], rb, &a.qs[i*a.cols], &a.d[i*nb], &a.bsums[16*i*nb], nb, (*[8]float32)(out))
	}}
	ks.batch[Q4_K] = tileSpec{rows: 2, pos: 8, fn: func(w []byte, rb int, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[rb+144*nb-1]
		_ = a.qs[(i+8)*a.cols-1]
		_ = a.d[(i+8)*nb-1]
		_ = a.bsums[16*(i+8)*nb-1]
		q4kBatch2x8(&w[0], rb, &a.qs[i*a.cols], a.cols, &a.d[i*nb], nb, &a.bsums[16*i*nb], 16*nb, nb, (*[16]float32)(out))
	}}
	ks.vec[Q6_K] = tileSpec{rows: 8, pos: 1, fn: func(w []byte, rb int, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[7*rb+210*nb-1]
		_ = a.qs[(i+1)*a.cols-1]
		_ = a.d[(i+1)*nb-1]
		q6kVec8(&w[0], rb, &a.qs[i*a.cols], &a.d[i*nb], nb, (*[8]float32)(out))
	}}
	ks.batch[Q6_K] = tileSpec{rows: 2, pos: 8, fn: func(w []byte, rb int, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[rb+210*nb-1]
		_ = a.qs[(i+8)*a.cols-1]
		_ = a.d[(i+8)*nb-1]
		q6kBatch2x8(&w[0], rb, &a.qs[i*a.cols], a.cols, &a.d[i*nb], nb, nb, (*[16]float32)(out))
	}}
}

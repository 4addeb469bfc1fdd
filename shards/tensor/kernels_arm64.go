//go:build arm64 && !purego

package tensor

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// The arm64 kernel sets: "neon" (Advanced SIMD, present on every arm64
// CPU) and "neondot" (with SDOT, the dot-product extension of Armv8.2 and
// later: Apple silicon, Graviton 2 and newer, Ampere), chosen at start-up
// from the CPU's features. Both follow the canonical order of
// dot_generic.go, so they give the generic kernels' bits; they replace the
// one-position products of Q8_0 and Q4_0 (dot_arm64.s), Q5_0, Q4_1 and
// Q5_1 (dotq5_arm64.s), Q4_K, Q5_K and Q6_K (dotk_arm64.s), Q3_K and Q2_K
// (dotq3k_arm64.s, dotq2k_arm64.s), F16 (dotf16_arm64.s, the same in both
// sets) and BF16 in both its orders (bf16_arm64.s, likewise), add a
// 16-row F16 tile for prompt batches (tiles_f16_arm64.s, likewise),
// four-row tiles for Q8_0 and Q4_0 (dotrows_arm64.s), four-position tiles
// for Q8_0 and Q4_0 (dotx4_arm64.s), Q5_0, Q4_1 and Q5_1 (dotq5_arm64.s),
// Q4_K, Q5_K and Q6_K (dotkx4_arm64.s), Q3_K and Q2_K (dotq3k_arm64.s,
// dotq2k_arm64.s), and quantize activations to Q8_0 and Q8_K in NEON
// (actquant_arm64.s). Only F32 keeps the Go kernels.

// bestKernels is chosen once from the CPU's features and never changes.
var bestKernels = detectKernels()

func detectKernels() *kernelSet {
	switch {
	case kernelGap("neondot") == "":
		return neonKernels(true)
	case kernelGap("neon") == "":
		return neonKernels(false)
	}
	return genericKernels
}

// kernelGap says why the named set cannot run here, or "".
func kernelGap(name string) string {
	switch name {
	case "generic":
		return ""
	case "neon":
		return capReason(name)
	case "neondot":
		if !cpu.ARM64.HasASIMDDP {
			return "the CPU lacks ASIMDDP (SDOT)"
		}
		return capReason(name)
	}
	return fmt.Sprintf("no kernel set %q on arm64", name)
}

// kernelSets lists every set this CPU can run, for tests and benchmarks.
func kernelSets() []*kernelSet {
	sets := []*kernelSet{genericKernels}
	if kernelGap("neon") == "" {
		sets = append(sets, neonKernels(false))
	}
	if kernelGap("neondot") == "" {
		sets = append(sets, neonKernels(true))
	}
	return sets
}

//go:noescape
func dotQ8_0SDOT(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ8_0NEON(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_0SDOT(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_0NEON(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ4_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6_KSDOT(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ6_KNEON(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ5_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5_0SDOT(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ5_0NEON(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ4_1SDOT(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ4_1NEON(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ5_1SDOT(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ5_1NEON(w *byte, y *int8, d *float32, s *float32, nb int) float32

//go:noescape
func dotQ5_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ5_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_1x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)

//go:noescape
func dotQ4_1x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)

//go:noescape
func dotQ5_1x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)

//go:noescape
func dotQ5_1x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)

//go:noescape
func dotQ2_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ2_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ3_KSDOT(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ3_KNEON(w *byte, y *int8, d *float32, nb int) float32

//go:noescape
func dotQ2_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ2_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ3_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ3_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotF16NEON(w *byte, x *uint16, n int) float32

//go:noescape
func dotQ8_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ8_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ5_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ5_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)

//go:noescape
func dotQ6_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ6_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)

//go:noescape
func dotQ4_0x4rowsSDOT(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)

//go:noescape
func dotQ4_0x4rowsNEON(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)

//go:noescape
func dotQ8_0x4rowsSDOT(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)

//go:noescape
func dotQ8_0x4rowsNEON(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)

//go:noescape
func quantQ8_0NEON(x *float32, qs *int8, d *float32, nb int)

//go:noescape
func quantQ8_KBlockNEON(x *float32, qs *int8, d *float32, bsums *int16) bool

// quantQ8_0Neon is quantQ8_0 in NEON (actquant_arm64.s).
func quantQ8_0Neon(x []float32, qs []int8, d []float32) {
	nb := len(x) / 32
	if nb == 0 {
		return
	}
	_ = qs[32*nb-1]
	_ = d[nb-1]
	quantQ8_0NEON(&x[0], &qs[0], &d[0], nb)
}

// quantQ8_KNeon is quantQ8_K in NEON, a super-block at a time; a block
// whose largest magnitude occurs with both signs (the first decides) is
// left to the Go converter.
func quantQ8_KNeon(x []float32, qs []int8, d []float32, bsums []int16) {
	for b := 0; b*qkK < len(x); b++ {
		xb, qb, bs := x[qkK*b:qkK*b+qkK], qs[qkK*b:qkK*b+qkK], bsums[16*b:16*b+16]
		if !quantQ8_KBlockNEON(&xb[0], &qb[0], &d[b], &bs[0]) {
			quantQ8_K(xb, qb, d[b:b+1], bs)
		}
	}
}

// neonBlockArgs checks the lengths the assembly relies on (a mismatch would
// be a bug in MatMul, so it panics like an index error) and returns the
// pointers to row i's weights, activations and scales, and the block count.
func neonBlockArgs(w []byte, a *acts, i, blockBytes int) (*byte, *int8, *float32, int) {
	nb := a.nb
	_ = w[nb*blockBytes-1]
	_ = a.qs[i*a.cols+32*nb-1]
	_ = a.d[(i+1)*nb-1]
	return &w[0], &a.qs[i*a.cols], &a.d[i*nb], nb
}

// neonBlockArgs1 is neonBlockArgs for Q8_1 activations, with their
// blocks' sums.
func neonBlockArgs1(w []byte, a *acts, i, blockBytes int) (*byte, *int8, *float32, *float32, int) {
	pw, py, pd, nb := neonBlockArgs(w, a, i, blockBytes)
	_ = a.s[(i+1)*nb-1]
	return pw, py, pd, &a.s[i*nb], nb
}

// neonQuad makes a one-row, four-position tile of a kernel like
// dotQ8_0x4SDOT (weight blocks of blockBytes), checking the lengths it
// relies on as neonBlockArgs does.
func neonQuad(k func(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32), blockBytes int) tileSpec {
	return tileSpec{rows: 1, pos: 4, fn: func(w []byte, _ tileLayout, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[nb*blockBytes-1]
		_ = a.qs[(i+4)*a.cols-1]
		_ = a.d[(i+4)*nb-1]
		k(&w[0], &a.qs[i*a.cols], a.cols, &a.d[i*nb], nb, nb, (*[4]float32)(out))
	}}
}

// neonQuad1 is neonQuad for kernels with Q8_1 activations (Q4_1, Q5_1),
// which also take the blocks' sums.
func neonQuad1(k func(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32), blockBytes int) tileSpec {
	return tileSpec{rows: 1, pos: 4, fn: func(w []byte, _ tileLayout, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[nb*blockBytes-1]
		_ = a.qs[(i+4)*a.cols-1]
		_ = a.d[(i+4)*nb-1]
		_ = a.s[(i+4)*nb-1]
		k(&w[0], &a.qs[i*a.cols], a.cols, &a.d[i*nb], nb, &a.s[i*nb], nb, (*[4]float32)(out))
	}}
}

// neonRows makes a four-row, one-position tile of a kernel like
// dotQ4_0x4rowsSDOT (row-major rows rs bytes apart, blocks of blockBytes).
func neonRows(k func(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32), blockBytes int) tileSpec {
	return tileSpec{rows: 4, pos: 1, fn: func(w []byte, l tileLayout, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[3*l.rs+nb*blockBytes-1]
		_ = a.qs[(i+1)*a.cols-1]
		_ = a.d[(i+1)*nb-1]
		k(&w[0], l.rs, &a.qs[i*a.cols], &a.d[i*nb], nb, (*[4]float32)(out))
	}}
}

// neonKQuad is neonQuad for the k-quants, whose kernels take byte
// strides and, with bsums set, the activations' block sums.
func neonKQuad(k func(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32), blockBytes int) tileSpec {
	return tileSpec{rows: 1, pos: 4, fn: func(w []byte, _ tileLayout, a *acts, i int, out []float32) {
		nb := a.nb
		_ = w[nb*blockBytes-1]
		_ = a.qs[(i+4)*a.cols-1]
		_ = a.d[(i+4)*nb-1]
		_ = a.bsums[16*(i+4)*nb-1]
		k(&w[0], &a.qs[i*a.cols], a.cols, &a.d[i*nb], 4*nb, &a.bsums[16*i*nb], 32*nb, nb, (*[4]float32)(out))
	}}
}

// noKSums adapts a four-position k-quant kernel that needs no block sums
// (Q3_K, Q6_K) to neonKQuad.
func noKSums(k func(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)) func(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32) {
	return func(w *byte, y *int8, ystride int, d *float32, dstride int, _ *int16, _ int, nb int, out *[4]float32) {
		k(w, y, ystride, d, dstride, nb, out)
	}
}

// neonKArgs is neonBlockArgs for the k-quants (256-element super-blocks of
// blockBytes each, whose activations come with 16 block sums).
func neonKArgs(w []byte, a *acts, i, blockBytes int) (*byte, *int8, *float32, *int16, int) {
	nb := a.nb
	_ = w[nb*blockBytes-1]
	_ = a.qs[i*a.cols+qkK*nb-1]
	_ = a.d[(i+1)*nb-1]
	_ = a.bsums[16*(i+1)*nb-1]
	return &w[0], &a.qs[i*a.cols], &a.d[i*nb], &a.bsums[16*i*nb], nb
}

// neonKernels is the generic set with NEON kernels for the one-position
// products of every quantized type and F16, four-row ones for Q8_0 and
// Q4_0, four-position ones for the other quantized types, and the F16
// and BF16 tiles, using SDOT when dot is set.
func neonKernels(dot bool) *kernelSet {
	ks := &kernelSet{name: "neon", q8_0: quantQ8_0Neon, q8_K: quantQ8_KNeon}
	q8, q4 := dotQ8_0NEON, dotQ4_0NEON
	q50, q41, q51 := dotQ5_0NEON, dotQ4_1NEON, dotQ5_1NEON
	q50x4, q41x4, q51x4 := dotQ5_0x4NEON, dotQ4_1x4NEON, dotQ5_1x4NEON
	q8x4, q4x4 := dotQ8_0x4NEON, dotQ4_0x4NEON
	q8rows, q4rows := dotQ8_0x4rowsNEON, dotQ4_0x4rowsNEON
	q2k, q3k, q4k, q5k, q6k := dotQ2_KNEON, dotQ3_KNEON, dotQ4_KNEON, dotQ5_KNEON, dotQ6_KNEON
	q2kx4, q3kx4, q4kx4, q5kx4, q6kx4 := dotQ2_Kx4NEON, dotQ3_Kx4NEON, dotQ4_Kx4NEON, dotQ5_Kx4NEON, dotQ6_Kx4NEON
	if dot {
		q2kx4, q3kx4, q4kx4, q5kx4, q6kx4 = dotQ2_Kx4SDOT, dotQ3_Kx4SDOT, dotQ4_Kx4SDOT, dotQ5_Kx4SDOT, dotQ6_Kx4SDOT
		ks.name = "neondot"
		q8, q4 = dotQ8_0SDOT, dotQ4_0SDOT
		q50, q41, q51 = dotQ5_0SDOT, dotQ4_1SDOT, dotQ5_1SDOT
		q50x4, q41x4, q51x4 = dotQ5_0x4SDOT, dotQ4_1x4SDOT, dotQ5_1x4SDOT
		q8x4, q4x4 = dotQ8_0x4SDOT, dotQ4_0x4SDOT
		q8rows, q4rows = dotQ8_0x4rowsSDOT, dotQ4_0x4rowsSDOT
		q2k, q3k, q4k, q5k, q6k = dotQ2_KSDOT, dotQ3_KSDOT, dotQ4_KSDOT, dotQ5_KSDOT, dotQ6_KSDOT
	}
	// Decode: four rows at a time share the activation loads (and for
	// Q4_0 run their float chains as one vector).
	ks.vec[Q8_0] = neonRows(q8rows, 34)
	ks.vec[Q4_0] = neonRows(q4rows, 18)
	// Prompt batches: each weight block loaded once for four positions.
	ks.batch[Q8_0] = neonQuad(q8x4, 34)
	ks.batch[Q4_0] = neonQuad(q4x4, 18)
	ks.batch[Q5_0] = neonQuad(q50x4, 22)
	ks.batch[Q4_1] = neonQuad1(q41x4, 20)
	ks.batch[Q5_1] = neonQuad1(q51x4, 24)
	ks.batch[Q4_K] = neonKQuad(q4kx4, 144)
	ks.batch[Q5_K] = neonKQuad(q5kx4, 176)
	ks.batch[Q6_K] = neonKQuad(noKSums(q6kx4), 210)
	ks.batch[Q3_K] = neonKQuad(noKSums(q3kx4), 110)
	ks.batch[Q2_K] = neonKQuad(q2kx4, 84)
	ks.dot[Q8_0] = func(w []byte, a *acts, i int) float32 {
		return q8(neonBlockArgs(w, a, i, 34))
	}
	ks.dot[Q4_0] = func(w []byte, a *acts, i int) float32 {
		return q4(neonBlockArgs(w, a, i, 18))
	}
	ks.dot[Q5_0] = func(w []byte, a *acts, i int) float32 {
		return q50(neonBlockArgs(w, a, i, 22))
	}
	ks.dot[Q4_1] = func(w []byte, a *acts, i int) float32 {
		return q41(neonBlockArgs1(w, a, i, 20))
	}
	ks.dot[Q5_1] = func(w []byte, a *acts, i int) float32 {
		return q51(neonBlockArgs1(w, a, i, 24))
	}
	ks.dot[Q4_K] = func(w []byte, a *acts, i int) float32 {
		return q4k(neonKArgs(w, a, i, 144))
	}
	ks.dot[Q5_K] = func(w []byte, a *acts, i int) float32 {
		return q5k(neonKArgs(w, a, i, 176))
	}
	ks.dot[F16] = func(w []byte, a *acts, i int) float32 {
		return f16Row(dotF16NEON, w, a.hrow(i))
	}
	ks.dot[Q6_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, _, nb := neonKArgs(w, a, i, 210)
		return q6k(pw, py, pd, nb)
	}
	ks.dot[Q2_K] = func(w []byte, a *acts, i int) float32 {
		return q2k(neonKArgs(w, a, i, 84))
	}
	ks.dot[Q3_K] = func(w []byte, a *acts, i int) float32 {
		pw, py, pd, _, nb := neonKArgs(w, a, i, 110)
		return q3k(pw, py, pd, nb)
	}
	addF16NEON(ks)
	addBF16NEON(ks)
	return withFallback(ks)
}

//go:build amd64 && !purego

package model

import "svc/shards/tensor"

// bestAttn is chosen once from the CPU's features and never changes.
var bestAttn = detectAttn()

func detectAttn() *attnKernels {
	switch {
	case hasAttnAVX512():
		return avx512Attn
	case hasAttnAVX2():
		return avx2Attn
	}
	return genericAttn
}

// hasAttnAVX2 reports whether the AVX2 kernels can run (with FMA and F16C)
// and SVC_KERNELS allows them: attention switches sets together with the
// matrix kernels, so a forced set is tested and measured as a whole.
func hasAttnAVX2() bool { return tensor.CanRunKernels("avx2") }

// hasAttnAVX512 reports whether the AVX-512 kernels can run (AVX512F and
// DQ, with the VEX-encoded AVX2, FMA and F16C instructions they also use)
// and SVC_KERNELS allows them.
func hasAttnAVX512() bool { return attnAVX512Runs() && tensor.CanRunKernels("avx512") }

// attnKernelSets lists every set this CPU can run, for tests.
func attnKernelSets() []*attnKernels {
	sets := []*attnKernels{genericAttn}
	if hasAttnAVX2() {
		sets = append(sets, avx2Attn)
	}
	if hasAttnAVX512() {
		sets = append(sets, avx512Attn)
	}
	return sets
}

// avx512Attn computes a single position's head groups and several
// positions' tiles with the AVX2 group and tile kernels
// (attn_avx2_amd64.go): they give the same bits, and their instructions
// are among those this set requires.
var avx512Attn = &attnKernels{
	name:          "avx512",
	prepQ:         prepQAVX512,
	scoresTiny:    scoresTinyWith(attnScoresTiny512),
	scoresVec:     scoresVecWith(attnScoresVec512),
	softmax:       softmaxWith(attnSoftmax512),
	kqvTiny:       kqvTinyAVX512,
	kqvVec:        kqvVecAVX512,
	group:         groupAVX2,
	group128:      group128AVX2,
	group128Least: 2, // four heads a round: two already gain
	tile:          tileAVX2,
	silu:          siluAVX512,
	toF16:         toF16AVX512,
}

// The wrappers below check, by slicing, that every element the assembly
// reads or writes is inside its slice: a wrong length panics here like the
// Go kernels would, instead of touching memory outside.

func prepQAVX512(q16 []uint16, qf []float32, q []float32) {
	hd := len(q)
	if hd == 0 {
		return
	}
	_ = q16[hd-1]
	_ = qf[roundUp(hd, lanes)-1]
	attnPrepQ512(&q[0], &q16[0], &qf[0], hd)
}

func kqvTinyAVX512(p []float32, v []uint16, stride int, acc []float32, o []float32) {
	hd, span := len(o), len(p)
	if hd == 0 {
		return
	}
	_ = acc[lanes*roundUp(hd, lanes)-1]
	if span == 0 {
		// No positions: every accumulator stays +0.
		clear(o)
		return
	}
	_ = v[(span-1)*stride+hd-1]
	attnKQVTiny512(&p[0], &v[0], 2*stride, span, hd, &acc[0], &o[0])
}

func kqvVecAVX512(p []float32, v []uint16, stride int, acc []float32, _ []float64, o []float32) {
	hd, span := len(o), len(p)
	if hd == 0 {
		return
	}
	_ = acc[attnAccLen(hd)-1]
	if span == 0 {
		clear(o)
		return
	}
	_ = v[(span-1)*stride+hd-1]
	np := min(max(32, roundUp(span, 32))&^(4*lanes-1), span)
	attnKQVVec512(&p[0], &v[0], 2*stride, span, np, hd, &acc[0], &o[0])
}

func siluAVX512(y, x []float32) { siluAsm(attnSiLU512, y, x) }

func toF16AVX512(dst []uint16, x []float32) {
	if len(x) == 0 {
		return
	}
	_ = dst[len(x)-1]
	attnToF16_512(&dst[0], &x[0], len(x))
}

//go:build amd64 && !purego

package model

import "svc/shards/tensor"

// avx2Attn is the kernel set for CPUs with AVX2, FMA and F16C but no
// AVX-512 (attn_avx2_amd64.s). Shapes the assembly does not take go to the
// Go kernels, which give the same bits.
var avx2Attn = &attnKernels{
	name:       "avx2",
	prepQ:      prepQAVX2,
	scoresTiny: scoresTinyWith(attnScoresTiny2),
	scoresVec:  scoresVecWith(attnScoresVec2),
	softmax:    softmaxWith(attnSoftmax2),
	kqvTiny:    kqvTinyAVX2,
	kqvVec:     kqvVecAVX2,
	silu:       siluAVX2,
	toF16:      toF16AVX2,
}

//go:noescape
func attnPrepQ2(q *float32, q16 *uint16, qf *float32, n int)

//go:noescape
func attnScoresTiny2(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)

//go:noescape
func attnScoresVec2(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)

//go:noescape
func attnSoftmax2(p *float32, span int)

//go:noescape
func attnKQVTiny2(p *float32, v *uint16, stride int, span int, hd int, acc *float32, o *float32)

//go:noescape
func attnKQVVec2(p *float32, v *uint16, stride int, span int, np int, hd int, acc *float32, o *float32)

//go:noescape
func attnToF16_2(dst *uint16, x *float32, n int)

//go:noescape
func attnSiLU2(y, x *float32, n int)

// attnExp2 applies the AVX2 vector exponential to n (a multiple of 8)
// values in place; only the tests call it.
//
//go:noescape
func attnExp2(x *float32, n int)

func prepQAVX2(q16 []uint16, qf []float32, q []float32) {
	hd := len(q)
	if hd == 0 {
		return
	}
	_ = q16[hd-1]
	_ = qf[roundUp(hd, lanes)-1]
	whole := hd &^ 7
	if whole > 0 {
		attnPrepQ2(&q[0], &q16[0], &qf[0], whole)
	}
	for i := whole; i < hd; i++ {
		q16[i] = tensor.FP32ToFP16(q[i])
		qf[i] = tensor.FP16ToFP32(q16[i])
	}
	clear(qf[hd:roundUp(hd, lanes)])
}

func kqvTinyAVX2(p []float32, v []uint16, stride int, acc []float32, o []float32) {
	hd, span := len(o), len(p)
	if hd == 0 || span == 0 || hd%8 != 0 {
		kqvTinyGo(p, v, stride, acc, o)
		return
	}
	_ = acc[lanes*hd-1]
	_ = v[(span-1)*stride+hd-1]
	attnKQVTiny2(&p[0], &v[0], 2*stride, span, hd, &acc[0], &o[0])
}

func kqvVecAVX2(p []float32, v []uint16, stride int, acc []float32, sum []float64, o []float32) {
	hd, span := len(o), len(p)
	if hd == 0 || span == 0 || hd%8 != 0 {
		kqvVecGo(p, v, stride, acc, sum, o)
		return
	}
	_ = acc[4*lanes*hd-1]
	_ = v[(span-1)*stride+hd-1]
	np := min(max(32, roundUp(span, 32))&^(4*lanes-1), span)
	attnKQVVec2(&p[0], &v[0], 2*stride, span, np, hd, &acc[0], &o[0])
}

func siluAVX2(y, x []float32) {
	full := len(x) / lanes * lanes
	if full > 0 {
		_ = y[full-1]
		attnSiLU2(&y[0], &x[0], full)
	}
	for i := full; i < len(x); i++ {
		v := x[i]
		y[i] = v / (1 + expf(-v))
	}
}

func toF16AVX2(dst []uint16, x []float32) {
	whole := len(x) &^ 7
	if whole > 0 {
		_ = dst[whole-1]
		attnToF16_2(&dst[0], &x[0], whole)
	}
	toF16(dst[whole:len(x)], x[whole:])
}

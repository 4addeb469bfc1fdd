//go:build (amd64 || arm64) && !purego

package model

import "svc/shards/tensor"

// The wrappers the SIMD kernel sets of every architecture share (AVX2 and
// AVX-512 on amd64, NEON on arm64). Like the sets' own, they check by
// slicing that every element the assembly reads or writes is inside its
// slice, so a wrong length panics as in the Go kernels.

// vecWhole is the number of positions that ggml_vec_dot_f16 takes in whole
// 64-position steps over a cache of span positions padded to 32.
func vecWhole(span int) int { return min(max(32, roundUp(span, 32))&^(4*lanes-1), span) }

// prepQAsm is prepQ with asm taking the head's whole multiple of 8 values
// and Go the rest.
func prepQAsm(asm func(q *float32, q16 *uint16, qf *float32, n int), q16 []uint16, qf []float32, q []float32) {
	hd := len(q)
	if hd == 0 {
		return
	}
	_ = q16[hd-1]
	_ = qf[roundUp(hd, lanes)-1]
	whole := hd &^ 7
	if whole > 0 {
		asm(&q[0], &q16[0], &qf[0], whole)
	}
	for i := whole; i < hd; i++ {
		q16[i] = tensor.FP32ToFP16(q[i])
		qf[i] = tensor.FP16ToFP32(q16[i])
	}
	clear(qf[hd:roundUp(hd, lanes)])
}

// toF16Asm is toF16 with asm taking the whole multiple of 8 values.
func toF16Asm(asm func(dst *uint16, x *float32, n int), dst []uint16, x []float32) {
	whole := len(x) &^ 7
	if whole > 0 {
		_ = dst[whole-1]
		asm(&dst[0], &x[0], whole)
	}
	toF16(dst[whole:len(x)], x[whole:])
}

// siluAsm is siluRowGo with asm taking the whole vectors and the tail
// computed with the C library's expf, as siluRowGo.
func siluAsm(asm func(y, x *float32, n int), y, x []float32) {
	full := len(x) / lanes * lanes
	if full > 0 {
		_ = y[full-1]
		asm(&y[0], &x[0], full)
	}
	for i := full; i < len(x); i++ {
		v := x[i]
		y[i] = v / (1 + expf(-v))
	}
}

// The score and softmax kernels of every SIMD set take the same arguments;
// these wrap one of them with the checks.

func scoresTinyWith(asm func(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)) func(q16 []uint16, qf []float32, k []uint16, stride int, scale float32, s []float32) {
	return func(q16 []uint16, qf []float32, k []uint16, stride int, scale float32, s []float32) {
		hd, span := len(q16), len(s)
		if span == 0 || hd == 0 {
			return
		}
		if hd%lanes != 0 {
			panic("model: tinyBLAS scores need a head size that is a multiple of 16")
		}
		_ = qf[hd-1]
		_ = k[(span-1)*stride+hd-1]
		asm(&qf[0], &k[0], 2*stride, hd/lanes, span, scale, &s[0])
	}
}

func scoresVecWith(asm func(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)) func(q16 []uint16, qf []float32, k []uint16, stride int, scale float32, s []float32) {
	return func(q16 []uint16, qf []float32, k []uint16, stride int, scale float32, s []float32) {
		hd, span := len(q16), len(s)
		if span == 0 || hd == 0 {
			return
		}
		_ = qf[hd-1]
		_ = k[(span-1)*stride+hd-1]
		asm(&qf[0], &k[0], 2*stride, hd, span, scale, &s[0])
	}
}

func softmaxWith(asm func(p *float32, span int)) func(p []float32, span int) {
	return func(p []float32, span int) {
		if span <= 0 {
			return
		}
		_ = p[roundUp(span, lanes)-1]
		asm(&p[0], span)
	}
}

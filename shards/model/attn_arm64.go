//go:build arm64 && !purego

package model

import "svc/shards/tensor"

// bestAttn is chosen once from the CPU's features and never changes.
var bestAttn = detectAttn()

func detectAttn() *attnKernels {
	if hasAttnNEON() {
		return neonAttn
	}
	return genericAttn
}

// hasAttnNEON reports whether SVC_KERNELS allows the NEON kernels (every
// arm64 CPU has Advanced SIMD): attention switches sets together with the
// matrix kernels, so a forced set is tested and measured as a whole.
func hasAttnNEON() bool { return tensor.CanRunKernels("neon") }

// attnKernelSets lists every set this CPU can run, for tests.
func attnKernelSets() []*attnKernels {
	sets := []*attnKernels{genericAttn}
	if hasAttnNEON() {
		sets = append(sets, neonAttn)
	}
	return sets
}

// neonAttn is the NEON kernel set (attn_arm64.s). Shapes its assembly
// does not take run the Go kernels, which give the same bits.
var neonAttn = &attnKernels{
	name:          "neon",
	prepQ:         prepQNEON,
	scoresTiny:    scoresTinyWith(attnScoresTinyNEON),
	scoresVec:     scoresVecWith(attnScoresVecNEON),
	softmax:       softmaxWith(attnSoftmaxNEON),
	kqvTiny:       kqvTinyNEON,
	kqvVec:        kqvVecNEON,
	group:         groupNEON,
	groupLeast:    3,
	group128:      group128NEON,
	group128Least: 3,
	silu:          siluNEON,
	toF16:         toF16NEON,
}

//go:noescape
func attnToF16NEON(dst *uint16, x *float32, n int)

//go:noescape
func attnPrepQNEON(q *float32, q16 *uint16, qf *float32, n int)

//go:noescape
func attnScoresVecNEON(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)

//go:noescape
func attnScoresTinyNEON(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)

//go:noescape
func attnSoftmaxNEON(p *float32, span int)

//go:noescape
func attnKQVVecNEON(p *float32, v *uint16, stride int, span int, np int, hd int, scr *float32, o *float32)

//go:noescape
func attnKQVTinyNEON(p *float32, v *uint16, stride int, span int, np int, hd int, scr *float32, o *float32)

//go:noescape
func attnSiLUNEON(y, x *float32, n int)

// attnExpNEON applies the NEON vector exponential to n (a multiple of 8)
// values in place; only the tests call it.
//
//go:noescape
func attnExpNEON(x *float32, n int)

//go:noescape
func attnGroupScoresNEON(qg *float32, k *uint16, stride int, span int, scale float32, sc *float32, nh int)

//go:noescape
func attnGroupScores128NEON(qg *float32, k *uint16, stride int, span int, scale float32, sc *float32, nh int)

//go:noescape
func attnGroupSoftmaxNEON(sc *float32, span int)

//go:noescape
func attnGroupKQVNEON(sc *float32, v *uint16, stride int, span int, np int, scr *float32, out *float32)

//go:noescape
func attnGroupKQV4NEON(sc *float32, v *uint16, stride int, span int, np int, scr *float32, out *float32)

// groupKQV returns the group value product kernel for nh heads: groups of
// up to four spend no multiply-adds on the absent ones.
func groupKQV(nh int) func(sc *float32, v *uint16, stride int, span int, np int, scr *float32, out *float32) {
	if nh <= 4 {
		return attnGroupKQV4NEON
	}
	return attnGroupKQVNEON
}

// The wrappers below check, by slicing, that every element the assembly
// reads or writes is inside its slice: a wrong length panics here like the
// Go kernels would, instead of touching memory outside.

func toF16NEON(dst []uint16, x []float32) { toF16Asm(attnToF16NEON, dst, x) }

func prepQNEON(q16 []uint16, qf []float32, q []float32) { prepQAsm(attnPrepQNEON, q16, qf, q) }

// kqvVecNEON and kqvTinyNEON take the head's whole multiple of 8 values
// in assembly, then, for a head size that is not a multiple of 8, its last
// 8 values again into a scratch vector, of which the values past the
// whole multiple are kept: each output value is a sum of its own, so this
// changes no bit. Heads of fewer than 8 values run in Go.
func kqvVecNEON(p []float32, v []uint16, stride int, acc []float32, sum []float64, o []float32) {
	hd, span := len(o), len(p)
	if hd < 8 || span == 0 {
		kqvVecGo(p, v, stride, acc, sum, o)
		return
	}
	whole, np := hd&^7, vecWhole(span)
	_ = acc[4*lanes*whole-1]
	_ = v[(span-1)*stride+hd-1]
	attnKQVVecNEON(&p[0], &v[0], 2*stride, span, np, whole, &acc[0], &o[0])
	if whole < hd {
		var last [8]float32
		attnKQVVecNEON(&p[0], &v[hd-8], 2*stride, span, np, 8, &acc[0], &last[0])
		copy(o[whole:], last[8-(hd-whole):])
	}
}

func kqvTinyNEON(p []float32, v []uint16, stride int, acc []float32, o []float32) {
	hd, span := len(o), len(p)
	if hd < 8 || span == 0 {
		kqvTinyGo(p, v, stride, acc, o)
		return
	}
	whole := hd &^ 7
	_ = acc[lanes*whole-1]
	_ = v[(span-1)*stride+hd-1]
	attnKQVTinyNEON(&p[0], &v[0], 2*stride, span, span, whole, &acc[0], &o[0])
	if whole < hd {
		var last [8]float32
		attnKQVTinyNEON(&p[0], &v[hd-8], 2*stride, span, span, 8, &acc[0], &last[0])
		copy(o[whole:], last[8-(hd-whole):])
	}
}

func siluNEON(y, x []float32) { siluAsm(attnSiLUNEON, y, x) }

// groupKQVScratch is the lane scratch of attnGroupKQVNEON (64 lanes of
// eight heads' 32 sums), taken from the front of the group's
// accumulators; its eight heads' outputs follow it.
const groupKQVScratch = 4 * lanes * groupHeads * 32

// groupNEON is attnKernels.group on the attnGroup*NEON kernels, which
// compute the scores and, for up to four heads, the value products of the
// heads there only (Llama 3.2 1B's four, Qwen2 0.5B's seven of eight).
// NEON takes groups of three at both head sizes (groupLeast,
// group128Least): per position and key/value head, three heads of 64 run
// about 320 instructions against 440 one head at a time (SmolLM2), three
// of 128 about 550 against 710 (Llama 3.2 3B), and read the cached key
// and value once instead of three times. Two heads run as many
// instructions either way. (Instructions counted under qemu; no ARM
// machine was at hand to time them.)
func groupNEON(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool {
	const hd = groupHD
	nh := len(q) / hd
	if len(q)%hd != 0 || nh == 0 || nh > groupHeads || len(out) != len(q) || span <= 0 {
		return false
	}
	q16, qg, sc, _, acc := b.group(hd, span)
	for h := range nh {
		prepQNEON(q16, qg[h*hd:(h+1)*hd], q[h*hd:(h+1)*hd])
	}
	_ = k[(span-1)*stride+hd-1]
	_ = v[(span-1)*stride+hd-1]
	_ = sc[roundUp(span, lanes)*groupHeads-1]
	o := acc[groupKQVScratch : groupKQVScratch+groupHeads*hd]
	// ggml_vec_dot_f16's whole 64-position steps over a cache padded to 32.
	np := vecWhole(span)
	attnGroupScoresNEON(&qg[0], &k[0], 2*stride, span, scale, &sc[0], nh)
	attnGroupSoftmaxNEON(&sc[0], span)
	groupKQV(nh)(&sc[0], &v[0], 2*stride, span, np, &acc[0], &o[0])
	copy(out, o[:nh*hd])
	return true
}

// group128Order is the order in which attnGroupScores128NEON reads the
// four-value vectors of a query's even half (the odd half: each plus one).
var group128Order = [16]int{0, 16, 8, 24, 4, 20, 12, 28, 2, 18, 10, 26, 6, 22, 14, 30}

// group128NEON is attnKernels.group for head size 128: the scores on
// attnGroupScores128NEON, the softmax and the value products on the
// 64-wide group kernels (each output value is a sum of its own, so the
// two 64-wide halves of the values are two calls). The query is laid out
// in qg in the order the scores kernel reads it.
func group128NEON(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool {
	const hd, half = 2 * groupHD, groupHD
	nh := len(q) / hd
	if len(q)%hd != 0 || nh == 0 || nh > groupHeads || len(out) != len(q) || span <= 0 {
		return false
	}
	q16, qg, sc, _, acc := b.group(hd, span)
	qf := acc[:hd] // the accumulators are free until the value products
	for h := range nh {
		prepQNEON(q16, qf, q[h*hd:(h+1)*hd])
		for odd := range 2 {
			slot := qg[(odd*groupHeads+h)*half : (odd*groupHeads+h+1)*half]
			for t, i := range group128Order {
				copy(slot[4*t:4*t+4], qf[4*(i+odd):4*(i+odd)+4])
			}
		}
	}
	_ = k[(span-1)*stride+hd-1]
	_ = v[(span-1)*stride+hd-1]
	_ = sc[roundUp(span, lanes)*groupHeads-1]
	o := acc[groupKQVScratch : groupKQVScratch+2*groupHeads*half]
	np := vecWhole(span)
	attnGroupScores128NEON(&qg[0], &k[0], 2*stride, span, scale, &sc[0], nh)
	attnGroupSoftmaxNEON(&sc[0], span)
	kqv := groupKQV(nh)
	kqv(&sc[0], &v[0], 2*stride, span, np, &acc[0], &o[0])
	kqv(&sc[0], &v[half], 2*stride, span, np, &acc[0], &o[groupHeads*half])
	for h := range nh {
		copy(out[h*hd:h*hd+half], o[h*half:(h+1)*half])
		copy(out[h*hd+half:(h+1)*hd], o[(groupHeads+h)*half:(groupHeads+h+1)*half])
	}
	return true
}

//go:build amd64 && !purego

package model

import "math"

// avx2Attn is the kernel set for CPUs with AVX2, FMA and F16C but no
// AVX-512 (attn_avx2_amd64.s). Shapes the assembly does not take go to the
// Go kernels, which give the same bits.
var avx2Attn = &attnKernels{
	name:          "avx2",
	prepQ:         prepQAVX2,
	scoresTiny:    scoresTinyWith(attnScoresTiny2),
	scoresVec:     scoresVecWith(attnScoresVec2),
	softmax:       softmaxWith(attnSoftmax2),
	kqvTiny:       kqvTinyAVX2,
	kqvVec:        kqvVecAVX2,
	group:         groupAVX2,
	group128:      group128AVX2,
	group128Least: 2, // four heads a round: two already gain
	tile:          tileAVX2,
	silu:          siluAVX2,
	toF16:         toF16AVX2,
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
func attnKQVAcc2(p *float32, v *uint16, stride int, np int, hd int, acc *float32)

//go:noescape
func attnKQVFold2(acc *float32, np int, p *float32, pstride int, v *uint16, vstride int, ntail int, hd int, o *float32)

//go:noescape
func attnGroupScores2(qg *float32, k *uint16, v *uint16, stride int, span int, scale float32, s *float32)

//go:noescape
func attnGroupSoftmax2(s *float32, span int)

//go:noescape
func attnGroupScores128(qg *float32, k *uint16, v *uint16, stride int, span int, rounds int, scale float32, s *float32)

//go:noescape
func attnGroupKQV2(p *float32, v *uint16, stride int, np int, heads int, cols int, acc *float32, vs *float32)

//go:noescape
func attnTileKeys2(k *uint16, kstride int, npos int, hd int, kf *float32)

//go:noescape
func attnTileScores2(qt *float32, kf *float32, kstride int, chunks int, triples int, pairs int, scale float32, s *float32, ostride int)

//go:noescape
func attnTileGather2(s *float32, ostride int, v *uint16, vstride int, npos int, octets int, blocks int, vs *float32, ps *float32)

//go:noescape
func attnTileKQV2(ps *float32, vs *float32, npos int, pairs int, blocks int, acc *float32, astride int, load int)

//go:noescape
func attnTileTail2(p *float32, pstride int, v *uint16, vstride int, count int, lane int, hd8 int, acc *float32)

//go:noescape
func attnTileReduce2(acc *float32, hd int, o *float32)

//go:noescape
func attnToF16_2(dst *uint16, x *float32, n int)

//go:noescape
func attnSiLU2(y, x *float32, n int)

// attnExp2 applies the AVX2 vector exponential to n (a multiple of 8)
// values in place; only the tests call it.
//
//go:noescape
func attnExp2(x *float32, n int)

func prepQAVX2(q16 []uint16, qf []float32, q []float32) { prepQAsm(attnPrepQ2, q16, qf, q) }

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
	np := vecWhole(span)
	if np > 0 {
		attnKQVAcc2(&p[0], &v[0], 2*stride, np, hd, &acc[0])
	}
	foldAVX2(acc, np, p[min(np, span-1):], 1, v[min(np, span-1)*stride:], stride, span-np, o)
}

// foldAVX2 runs attnKQVFold2 for len(o) outputs (a multiple of 8) after
// checking its reads: p_t = p[t·pstride] and v_t = v[t·vstride:] for the
// ntail tail positions (p and v may be anything when there are none).
func foldAVX2(acc []float32, np int, p []float32, pstride int, v []uint16, vstride int, ntail int, o []float32) {
	hd := len(o)
	if np > 0 {
		_ = acc[4*lanes*hd-1]
	}
	if ntail > 0 {
		_ = p[(ntail-1)*pstride]
		_ = v[(ntail-1)*vstride+hd-1]
	}
	attnKQVFold2(&acc[0], np, &p[0], 4*pstride, &v[0], 2*vstride, ntail, hd, &o[0])
}

// groupSlot[h] is the slot of head h in attnGroupScores2's query block,
// groupSlot128[h] in attnGroupScores128's.
var (
	groupSlot    = [groupHeads]int{0, 2, 4, 6, 1, 3, 5, 7}
	groupSlot128 = [groupHeads]int{0, 2, 1, 3, 4, 6, 5, 7}
)

// groupAVX2 is attnKernels.group on the attnGroup* kernels.
func groupAVX2(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool {
	return groupHeadsAVX2(groupHD, q, k, v, stride, scale, span, b, out)
}

// group128AVX2 is attnKernels.group128 on the attnGroup* kernels.
func group128AVX2(q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool {
	return groupHeadsAVX2(128, q, k, v, stride, scale, span, b, out)
}

// groupHeadsAVX2 computes the group for head size hd (64 or 128). The
// products with the values, attnGroupKQV2, take 64 outputs at a time (the
// sum of each output is its own: a head of 128 is two blocks of columns)
// and only four heads when there are no more.
func groupHeadsAVX2(hd int, q []float32, k, v []uint16, stride int, scale float32, span int, b *attnBuffers, out []float32) bool {
	const cols = 64
	nh := len(q) / hd
	if len(q)%hd != 0 || nh == 0 || nh > groupHeads || len(out) != len(q) || span <= 0 {
		return false
	}
	q16, qg, sc, vs, acc := b.group(hd, span)
	slots := &groupSlot
	if hd != groupHD {
		slots = &groupSlot128
	}
	for h := range groupHeads {
		slot := qg[slots[h]*hd : (slots[h]+1)*hd]
		if h < nh {
			prepQAVX2(q16, slot, q[h*hd:(h+1)*hd])
		} else {
			clear(slot) // a head that is not there: its results are ignored
		}
	}
	_ = k[(span-1)*stride+hd-1]
	_ = v[(span-1)*stride+hd-1]
	_ = sc[roundUp(span, lanes)*groupHeads-1]
	if hd == groupHD {
		attnGroupScores2(&qg[0], &k[0], &v[0], 2*stride, span, scale, &sc[0])
	} else {
		attnGroupScores128(&qg[0], &k[0], &v[0], 2*stride, span, (nh+3)/4, scale, &sc[0])
	}
	attnGroupSoftmax2(&sc[0], span)
	heads := groupHeads
	if nh <= 4 {
		heads = 4
	}
	np := vecWhole(span)
	if np > 0 {
		_ = vs[(np+4*lanes-1)/(4*lanes)*cols-1]
		_ = acc[groupHeads*4*lanes*hd-1]
		attnGroupKQV2(&sc[0], &v[0], 2*stride, np, heads, hd/cols, &acc[0], &vs[0])
	}
	t := min(np, span-1) // the first tail position, if any
	for c := 0; c < hd; c += cols {
		a := acc[c/cols*groupHeads*4*lanes*cols:]
		for h := range nh {
			o := out[h*hd+c : h*hd+c+cols]
			foldAVX2(a[h*4*lanes*cols:], np, sc[t*groupHeads+h:], groupHeads, v[t*stride+c:], stride, span-np, o)
		}
	}
	return true
}

func siluAVX2(y, x []float32) { siluAsm(attnSiLU2, y, x) }

func toF16AVX2(dst []uint16, x []float32) { toF16Asm(attnToF16_2, dst, x) }

// tileKeyBytes is the size of a block of converted keys for
// attnTileScores2 (they stay in L1 beside the queries for all the pairs),
// tileKQVPass the positions of a pass of attnTileKQV2 (a lane's values
// and probabilities stay in L1 for all the pairs).
const (
	tileKeyBytes = 12 << 10
	tileKQVPass  = 512
)

// tileAVX2 is attnKernels.tile on the attnTile* kernels: the pairs are
// numbered row-major (row r, head h: pair r·heads+h) and padded with zero
// queries to whole octets. Every pair's scores are computed up to the
// tile's longest span, and the positions a pair's row does not see are
// set to -Inf before the softmax: their probabilities become exactly +0
// and add +0 to the float64 total of ggml's order, which changes no
// bit of the pair's own probabilities. The value products then run the
// positions every row sees (the first row's span) for all the pairs at
// once, lane by lane, and each pair's remaining positions on its own.
func tileAVX2(q []float32, qstride, rows, heads, hd int, k, v []uint16, stride, span0 int, scale float32, b *attnBuffers, out []float32) bool {
	if hd <= 0 || hd%lanes != 0 || rows <= 0 || heads <= 0 || span0 <= 0 {
		return false
	}
	pairs := rows * heads
	npad := roundUp(pairs, 8)
	octets := npad / 8
	spanMax := span0 + rows - 1
	// The scores' rows: the softmax's padding to 16 and the two rows past
	// the span that the last block of three positions writes.
	nrows := roundUp(spanMax+2, lanes)
	ostride := 8 * nrows
	astride := lanes * hd
	q16, qt, sc, acc := b.tile(hd, npad*hd, octets*ostride, npad*astride)
	for r := range rows {
		for h := range heads {
			p := r*heads + h
			prepQAVX2(q16, qt[p*hd:(p+1)*hd], q[r*qstride+h*hd:r*qstride+(h+1)*hd])
		}
	}
	clear(qt[pairs*hd:])
	_ = k[(spanMax-1)*stride+hd-1]
	_ = v[(spanMax-1)*stride+hd-1]
	chunks := hd / lanes
	triples := max(1, tileKeyBytes/(3*4*hd))
	kf := b.tileKeys(3 * triples * hd)
	for j0 := 0; j0 < spanMax; j0 += 3 * triples {
		np := min(3*triples, spanMax-j0)
		attnTileKeys2(&k[j0*stride], 2*stride, np, hd, &kf[0])
		if nt := np / 3; nt > 0 {
			attnTileScores2(&qt[0], &kf[0], 4*hd, chunks, nt, npad, scale, &sc[j0*8], 4*ostride)
		}
		// The last one or two positions: a block of three copies of each
		// (key stride 0), the copies landing on the rows after it.
		for j := np / 3 * 3; j < np; j++ {
			attnTileScores2(&qt[0], &kf[j*hd], 0, chunks, 1, npad, scale, &sc[(j0+j)*8], 4*ostride)
		}
	}
	ninf := float32(math.Inf(-1))
	for p := range pairs {
		s := sc[p/8*ostride+p%8:]
		for j := span0 + p/heads; j < spanMax; j++ {
			s[j*8] = ninf
		}
	}
	for o := range octets {
		attnGroupSoftmax2(&sc[o*ostride], spanMax)
	}

	// The common positions [0, span0), in passes, lane by lane.
	per := tileKQVPass / lanes
	vs, ps := b.tileLane(per*hd, per*npad)
	for j0 := 0; j0 < span0; j0 += tileKQVPass {
		n := min(span0, j0+tileKQVPass) - j0
		load := 0
		if j0 > 0 {
			load = 1
		}
		for l := range lanes {
			np, j := 0, min(j0+l, spanMax-1)
			if l < n {
				np = (n - l + lanes - 1) / lanes
			}
			if np > 0 {
				_ = v[(j+(np-1)*lanes)*stride+hd-1]
				attnTileGather2(&sc[j*8], 4*ostride, &v[j*stride], 2*lanes*stride, np, octets, hd/lanes, &vs[0], &ps[0])
			}
			attnTileKQV2(&ps[0], &vs[0], np, npad, hd/lanes, &acc[l*hd], 4*astride, load)
		}
	}
	for p := range pairs {
		r, h := p/heads, p%heads
		a := acc[p*astride : (p+1)*astride]
		if n := r; n > 0 {
			attnTileTail2(&sc[p/8*ostride+span0*8+p%8], 32, &v[span0*stride], 2*stride, n, span0, hd/8, &a[0])
		}
		o := out[r*qstride+h*hd : r*qstride+(h+1)*hd]
		attnTileReduce2(&a[0], hd, &o[0])
	}
	return true
}

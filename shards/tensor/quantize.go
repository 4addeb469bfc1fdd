package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Quantize converts len(src) float32 values into blocks of type t written
// to dst, following ggml's reference quantizers (quantize_row_*_ref, no
// importance matrix), so that a model quantized here matches one quantized
// by llama.cpp's llama-quantize. len(src) must be a multiple of the block
// size and dst at least RowBytes(t, len(src)) long.
func Quantize(t Type, src []float32, dst []byte) error {
	need, err := RowBytes(t, len(src))
	if err != nil {
		return fmt.Errorf("tensor: quantize: %w", err)
	}
	if len(dst) < need {
		return fmt.Errorf("tensor: quantize %d %v elements: need %d bytes, have %d", len(src), t, need, len(dst))
	}
	dst = dst[:need]
	var blk func(x []float32, y []byte)
	switch t {
	case F32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
		}
		return nil
	case F16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], FP32ToFP16(v))
		}
		return nil
	case BF16:
		for i, v := range src {
			binary.LittleEndian.PutUint16(dst[2*i:], FP32ToBF16(v))
		}
		return nil
	case Q8_0:
		blk = quantBlockQ8_0
	case Q4_0:
		blk = quantBlockQ4_0
	case Q4_1:
		blk = quantBlockQ4_1
	case Q5_0:
		blk = quantBlockQ5_0
	case Q5_1:
		blk = quantBlockQ5_1
	case Q4_K:
		blk = quantBlockQ4_K
	case Q5_K:
		blk = quantBlockQ5_K
	case Q6_K:
		blk = quantBlockQ6_K
	case Q2_K:
		blk = quantBlockQ2_K
	case Q3_K:
		blk = quantBlockQ3_K
	default:
		return fmt.Errorf("tensor: quantize: %v is not supported", t)
	}
	bs, bb := t.BlockSize(), t.BlockBytes()
	for i := 0; i*bs < len(src); i++ {
		blk(src[i*bs:(i+1)*bs], dst[i*bb:(i+1)*bb])
	}
	return nil
}

func putF16(b []byte, f float32) { binary.LittleEndian.PutUint16(b, FP32ToFP16(f)) }

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// nearestInt is ggml's nearest_int: round half to even through the float32
// magic-number trick (valid for |f| < 2^22, as in ggml).
func nearestInt(f float32) int32 {
	v := f + 12582912
	return int32(math.Float32bits(v)&0x7fffff) - 0x400000
}

// signedMax returns the value of largest magnitude (the first one on ties)
// and its magnitude.
func signedMax(x []float32) (max, amax float32) {
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, max = a, v
		}
	}
	return max, amax
}

func quantBlockQ8_0(x []float32, y []byte) {
	var amax float32
	for _, v := range x {
		amax = max(amax, abs32(v))
	}
	d := amax / 127
	var id float32
	if d != 0 {
		id = 1 / d
	}
	putF16(y, d)
	for j, v := range x {
		y[2+j] = byte(int8(math.Round(float64(v * id))))
	}
}

func quantBlockQ4_0(x []float32, y []byte) {
	mx, _ := signedMax(x)
	d := mx / -8
	var id float32
	if d != 0 {
		id = 1 / d
	}
	putF16(y, d)
	for j := 0; j < 16; j++ {
		x0 := float32(x[j] * id)
		x1 := float32(x[16+j] * id)
		q0 := min(15, int8(x0+8.5))
		q1 := min(15, int8(x1+8.5))
		y[2+j] = byte(q0) | byte(q1)<<4
	}
}

func minMax(x []float32) (lo, hi float32) {
	lo, hi = math.MaxFloat32, -math.MaxFloat32
	for _, v := range x {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return lo, hi
}

func quantBlockQ4_1(x []float32, y []byte) {
	lo, hi := minMax(x)
	d := (hi - lo) / 15
	var id float32
	if d != 0 {
		id = 1 / d
	}
	putF16(y, d)
	putF16(y[2:], lo)
	for j := 0; j < 16; j++ {
		x0 := float32((x[j] - lo) * id)
		x1 := float32((x[16+j] - lo) * id)
		q0 := min(15, int8(x0+0.5))
		q1 := min(15, int8(x1+0.5))
		y[4+j] = byte(q0) | byte(q1)<<4
	}
}

func quantBlockQ5_0(x []float32, y []byte) {
	mx, _ := signedMax(x)
	d := mx / -16
	var id float32
	if d != 0 {
		id = 1 / d
	}
	putF16(y, d)
	var qh uint32
	for j := 0; j < 16; j++ {
		x0 := float32(x[j] * id)
		x1 := float32(x[16+j] * id)
		q0 := uint8(min(31, int8(x0+16.5)))
		q1 := uint8(min(31, int8(x1+16.5)))
		y[6+j] = q0&0xf | (q1&0xf)<<4
		qh |= uint32(q0>>4&1) << j
		qh |= uint32(q1>>4&1) << (j + 16)
	}
	binary.LittleEndian.PutUint32(y[2:], qh)
}

func quantBlockQ5_1(x []float32, y []byte) {
	lo, hi := minMax(x)
	d := (hi - lo) / 31
	var id float32
	if d != 0 {
		id = 1 / d
	}
	putF16(y, d)
	putF16(y[2:], lo)
	var qh uint32
	for j := 0; j < 16; j++ {
		x0 := float32((x[j] - lo) * id)
		x1 := float32((x[16+j] - lo) * id)
		q0 := uint8(x0 + 0.5)
		q1 := uint8(x1 + 0.5)
		y[8+j] = q0&0xf | (q1&0xf)<<4
		qh |= uint32(q0>>4&1) << j
		qh |= uint32(q1>>4&1) << (j + 16)
	}
	binary.LittleEndian.PutUint32(y[4:], qh)
}

func clampInt(v, lo, hi int32) int32 { return max(lo, min(hi, v)) }

// makeQKX2Quants fits x ≈ scale*L - min with L in [0,nmax] by a weighted
// least-squares search over candidate scales (ggml's make_qkx2_quants). It
// returns scale and min (as a positive offset).
func makeQKX2Quants(nmax int32, x, weights []float32, L, laux []uint8, rmin, rdelta float32, nstep int, useMAD bool) (scale, theMin float32) {
	mn, mx := x[0], x[0]
	sumW := weights[0]
	sumX := float32(sumW * x[0])
	for i := 1; i < len(x); i++ {
		mn = min(mn, x[i])
		mx = max(mx, x[i])
		w := weights[i]
		sumW += w
		sumX += float32(w * x[i])
	}
	if mn > 0 {
		mn = 0
	}
	if mx == mn {
		clear(L[:len(x)])
		return 0, -mn
	}
	errOf := func(diff float32) float32 {
		if useMAD {
			return abs32(diff)
		}
		return float32(diff * diff)
	}
	iscale := float32(nmax) / (mx - mn)
	scale = 1 / iscale
	var bestErr float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*(v-mn))), 0, nmax)
		L[i] = uint8(l)
		diff := float32(float32(scale*float32(l))+mn) - v
		bestErr += float32(weights[i] * errOf(diff))
	}
	if nstep < 1 {
		return scale, -mn
	}
	for is := 0; is <= nstep; is++ {
		iscale = float32(rmin+float32(rdelta*float32(is))+float32(nmax)) / (mx - mn)
		var sumL, sumL2, sumXL float32
		for i, v := range x {
			l := clampInt(nearestInt(float32(iscale*(v-mn))), 0, nmax)
			laux[i] = uint8(l)
			w := weights[i]
			fl := float32(l)
			sumL += float32(w * fl)
			sumL2 += float32(float32(w*fl) * fl)
			sumXL += float32(float32(w*fl) * v)
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if D > 0 {
			thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
			thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
			if thisMin > 0 {
				thisMin = 0
				thisScale = sumXL / sumL2
			}
			var cur float32
			for i, v := range x {
				diff := float32(float32(thisScale*float32(laux[i]))+thisMin) - v
				cur += float32(weights[i] * errOf(diff))
			}
			if cur < bestErr {
				copy(L[:len(x)], laux[:len(x)])
				bestErr = cur
				scale, mn = thisScale, thisMin
			}
		}
	}
	return scale, -mn
}

// packScaleMinK4 stores 8 6-bit scales and mins in the 12-byte Q4_K/Q5_K
// scales field (the inverse of kScaleMin).
func packScaleMinK4(s []byte, ls, lm *[8]uint8) {
	clear(s[:12])
	for j := 0; j < 8; j++ {
		if j < 4 {
			s[j] = ls[j]
			s[j+4] = lm[j]
		} else {
			s[j+4] = ls[j]&0xf | (lm[j]&0xf)<<4
			s[j-4] |= (ls[j] >> 4) << 6
			s[j] |= (lm[j] >> 4) << 6
		}
	}
}

// quantK4Common is the shared part of the Q4_K and Q5_K reference
// quantizers: per-32 scale/min search, 6-bit scale coding, and the final
// quant values in L (0..nmax).
func quantK4Common(x []float32, y []byte, nmax int32, rmin, rdelta float32, nstep int, L *[qkK]uint8) {
	var laux [32]uint8
	var weights [32]float32
	var scales, mins [8]float32
	var maxScale, maxMin float32
	for j := 0; j < 8; j++ {
		xs := x[32*j : 32*j+32]
		var sumX2 float32
		for _, v := range xs {
			sumX2 += float32(v * v)
		}
		avX := float32(math.Sqrt(float64(sumX2 / 32)))
		for l, v := range xs {
			weights[l] = avX + abs32(v)
		}
		scales[j], mins[j] = makeQKX2Quants(nmax, xs, weights[:], L[32*j:32*j+32], laux[:], rmin, rdelta, nstep, false)
		maxScale = max(maxScale, scales[j])
		maxMin = max(maxMin, mins[j])
	}
	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	var ls, lm [8]uint8
	for j := 0; j < 8; j++ {
		ls[j] = min(63, uint8(nearestInt(float32(invScale*scales[j]))))
		lm[j] = min(63, uint8(nearestInt(float32(invMin*mins[j]))))
	}
	packScaleMinK4(y[4:16], &ls, &lm)
	putF16(y[0:], maxScale/63)
	putF16(y[2:], maxMin/63)
	d, dmin := f16at(y[0:]), f16at(y[2:])
	for j := 0; j < 8; j++ {
		sc, m := kScaleMin(y[4:16], j)
		dd := float32(d * float32(sc))
		if dd == 0 {
			continue
		}
		dm := float32(dmin * float32(m))
		for i := 0; i < 32; i++ {
			l := nearestInt((x[32*j+i] + dm) / dd)
			L[32*j+i] = uint8(clampInt(l, 0, nmax))
		}
	}
}

func quantBlockQ4_K(x []float32, y []byte) {
	var L [qkK]uint8
	quantK4Common(x, y, 15, -1, 0.1, 20, &L)
	q := y[16:144]
	for j := 0; j < qkK; j += 64 {
		for l := 0; l < 32; l++ {
			q[j/2+l] = L[j+l] | L[j+l+32]<<4
		}
	}
}

func quantBlockQ5_K(x []float32, y []byte) {
	var L [qkK]uint8
	quantK4Common(x, y, 31, -0.5, 0.1, 15, &L)
	qh := y[16:48]
	ql := y[48:176]
	clear(qh)
	m1, m2 := uint8(1), uint8(2)
	for n := 0; n < qkK; n += 64 {
		for j := 0; j < 32; j++ {
			l1, l2 := L[n+j], L[n+j+32]
			if l1 > 15 {
				l1 -= 16
				qh[j] |= m1
			}
			if l2 > 15 {
				l2 -= 16
				qh[j] |= m2
			}
			ql[n/2+j] = l1 | l2<<4
		}
		m1 <<= 2
		m2 <<= 2
	}
}

const groupMaxEps = 1e-15

// makeQXQuants fits x ≈ scale*(L-nmax) with L in [0, 2*nmax) minimizing the
// x²-weighted error over a few candidate scales (ggml's make_qx_quants with
// rmse_type 1 and no importance weights).
func makeQXQuants(nmax int32, x []float32, L []int8) float32 {
	mx, amax := signedMax(x)
	if amax < groupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	iscale := float32(-nmax) / mx
	var sumLX, sumL2 float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
		L[i] = int8(l + nmax)
		w := float32(v * v)
		sumLX += float32(float32(w*v) * float32(l))
		sumL2 += float32(float32(w*float32(l)) * float32(l))
	}
	var scale float32
	if sumL2 != 0 {
		scale = sumLX / sumL2
	}
	best := float32(scale * sumLX)
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(float32(nmax) + float32(0.1*float32(is))) / mx
		sumLX, sumL2 = 0, 0
		for _, v := range x {
			l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
			w := float32(v * v)
			sumLX += float32(float32(w*v) * float32(l))
			sumL2 += float32(float32(w*float32(l)) * float32(l))
		}
		if sumL2 > 0 && float32(sumLX*sumLX) > float32(best*sumL2) {
			for i, v := range x {
				l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
				L[i] = int8(l + nmax)
			}
			scale = sumLX / sumL2
			best = float32(scale * sumLX)
		}
	}
	return scale
}

func quantBlockQ6_K(x []float32, y []byte) {
	var L [qkK]int8
	var scales [16]float32
	var maxScale, maxAbsScale float32
	for ib := 0; ib < 16; ib++ {
		s := makeQXQuants(32, x[16*ib:16*ib+16], L[16*ib:16*ib+16])
		scales[ib] = s
		if a := abs32(s); a > maxAbsScale {
			maxAbsScale, maxScale = a, s
		}
	}
	if maxAbsScale < groupMaxEps {
		clear(y[:210])
		return
	}
	iscale := -128 / maxScale
	putF16(y[208:], 1/iscale)
	sc := y[192:208]
	for ib := 0; ib < 16; ib++ {
		sc[ib] = byte(int8(min(127, nearestInt(float32(iscale*scales[ib])))))
	}
	d := f16at(y[208:])
	for j := 0; j < 16; j++ {
		dd := float32(d * float32(int8(sc[j])))
		if dd == 0 {
			continue
		}
		for i := 0; i < 16; i++ {
			l := clampInt(nearestInt(x[16*j+i]/dd), -32, 31)
			L[16*j+i] = int8(l + 32)
		}
	}
	ql := y[0:128]
	qh := y[128:192]
	for j := 0; j < qkK; j += 128 {
		for l := 0; l < 32; l++ {
			q1 := uint8(L[j+l]) & 0xf
			q2 := uint8(L[j+l+32]) & 0xf
			q3 := uint8(L[j+l+64]) & 0xf
			q4 := uint8(L[j+l+96]) & 0xf
			ql[j/2+l] = q1 | q3<<4
			ql[j/2+l+32] = q2 | q4<<4
			qh[j/4+l] = uint8(L[j+l])>>4 | (uint8(L[j+l+32])>>4)<<2 | (uint8(L[j+l+64])>>4)<<4 | (uint8(L[j+l+96])>>4)<<6
		}
	}
}

func packQ2Bits(qs []byte, L *[qkK]uint8) {
	for j := 0; j < qkK; j += 128 {
		for l := 0; l < 32; l++ {
			qs[j/4+l] = L[j+l] | L[j+l+32]<<2 | L[j+l+64]<<4 | L[j+l+96]<<6
		}
	}
}

func quantBlockQ2_K(x []float32, y []byte) {
	var L [qkK]uint8
	var laux [16]uint8
	var weights [16]float32
	var scales, mins [16]float32
	var maxScale, maxMin float32
	for j := 0; j < 16; j++ {
		xs := x[16*j : 16*j+16]
		for l, v := range xs {
			weights[l] = abs32(v)
		}
		scales[j], mins[j] = makeQKX2Quants(3, xs, weights[:], L[16*j:16*j+16], laux[:], -0.5, 0.1, 15, true)
		maxScale = max(maxScale, scales[j])
		maxMin = max(maxMin, mins[j])
	}
	sc := y[0:16]
	if maxScale > 0 {
		iscale := 15 / maxScale
		for j := range sc {
			sc[j] = byte(nearestInt(float32(iscale * scales[j])))
		}
		putF16(y[80:], maxScale/15)
	} else {
		clear(sc)
		putF16(y[80:], 0)
	}
	if maxMin > 0 {
		iscale := 15 / maxMin
		for j := range sc {
			sc[j] |= byte(nearestInt(float32(iscale*mins[j])) << 4)
		}
		putF16(y[82:], maxMin/15)
	} else {
		putF16(y[82:], 0)
	}
	d, dmin := f16at(y[80:]), f16at(y[82:])
	for j := 0; j < 16; j++ {
		dd := float32(d * float32(sc[j]&0xf))
		if dd == 0 {
			continue
		}
		dm := float32(dmin * float32(sc[j]>>4))
		for i := 0; i < 16; i++ {
			L[16*j+i] = uint8(clampInt(nearestInt((x[16*j+i]+dm)/dd), 0, 3))
		}
	}
	packQ2Bits(y[16:80], &L)
}

// makeQ3Quants fits x ≈ scale*L with L in [-nmax, nmax) by iterative
// x²-weighted refinement (ggml's make_q3_quants with do_rmse); L is
// returned biased by nmax.
func makeQ3Quants(nmax int32, x []float32, L []int8) float32 {
	mx, amax := signedMax(x)
	if amax < groupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	iscale := float32(-nmax) / mx
	var sumLX, sumL2 float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
		L[i] = int8(l)
		w := float32(v * v)
		sumLX += float32(float32(w*v) * float32(l))
		sumL2 += float32(float32(w*float32(l)) * float32(l))
	}
	for itry := 0; itry < 5; itry++ {
		changed := 0
		for i, v := range x {
			w := float32(v * v)
			li := float32(L[i])
			slx := sumLX - float32(float32(w*v)*li)
			if slx > 0 {
				sl2 := sumL2 - float32(float32(w*li)*li)
				newL := clampInt(nearestInt(float32(v*sl2)/slx), -nmax, nmax-1)
				if newL != int32(L[i]) {
					fl := float32(newL)
					slx += float32(float32(w*v) * fl)
					sl2 += float32(float32(w*fl) * fl)
					if sl2 > 0 && float32(float32(slx*slx)*sumL2) > float32(float32(sumLX*sumLX)*sl2) {
						L[i] = int8(newL)
						sumLX, sumL2 = slx, sl2
						changed++
					}
				}
			}
		}
		if changed == 0 {
			break
		}
	}
	for i := range x {
		L[i] += int8(nmax)
	}
	if sumL2 > 0 {
		return sumLX / sumL2
	}
	return 0
}

func quantBlockQ3_K(x []float32, y []byte) {
	var L [qkK]int8
	var scales [16]float32
	var maxScale, amax float32
	for j := 0; j < 16; j++ {
		scales[j] = makeQ3Quants(4, x[16*j:16*j+16], L[16*j:16*j+16])
		if a := abs32(scales[j]); a > amax {
			amax, maxScale = a, scales[j]
		}
	}
	sc := y[96:108]
	clear(sc)
	if maxScale != 0 {
		iscale := -32 / maxScale
		for j := 0; j < 16; j++ {
			l := int32(int8(nearestInt(float32(iscale * scales[j]))))
			l = clampInt(l, -32, 31) + 32
			if j < 8 {
				sc[j] = byte(l & 0xf)
			} else {
				sc[j-8] |= byte(l&0xf) << 4
			}
			l >>= 4
			sc[j%4+8] |= byte(l << (2 * (j / 4)))
		}
		putF16(y[108:], 1/iscale)
	} else {
		putF16(y[108:], 0)
	}
	d := f16at(y[108:])
	for j := 0; j < 16; j++ {
		dd := float32(d * float32(q3kScale(sc, j)))
		if dd == 0 {
			continue
		}
		for i := 0; i < 16; i++ {
			L[16*j+i] = int8(clampInt(nearestInt(x[16*j+i]/dd), -4, 3) + 4)
		}
	}
	hm := y[0:32]
	clear(hm)
	var U [qkK]uint8
	for j := 0; j < qkK; j++ {
		v := uint8(L[j])
		if v > 3 {
			hm[j%32] |= 1 << uint(j/32)
			v -= 4
		}
		U[j] = v
	}
	packQ2Bits(y[32:96], &U)
}

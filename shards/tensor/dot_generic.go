package tensor

import (
	"encoding/binary"
	"math"
)

// Canonical dot products. Each function below defines, for its weight type,
// the exact sequence of float32 operations that produces one output element;
// the assembly kernels implement the same sequence, so every code path gives
// the same bits. For the quantized types the sequence is the one of
// llama.cpp's x86 (AVX2) kernels, so that products match llama.cpp bit for
// bit given the same quantized activations. Integer partial sums are exact,
// so only the float steps matter. "Lane l" is the exact integer sum over the
// elements e of a block or super-block with (e%32)/4 == l (for k-quants each
// product weighted by its sub-block scale); fma is a fused multiply-add
// rounded once (fma32).
//
//   - Q8_0, Q5_0: per 32-block b, acc[l] = fma(dx*dy_b, float(lane l), acc[l])
//     for l = 0..7 into one 8-lane accumulator; result hsum8(acc).
//   - Q4_0 (llama.cpp repacks it and uses whole-block sums on x86): per
//     block acc = fma(float(sum of the 32 products), dx*dy_b, acc); result acc.
//   - Q4_1, Q5_1: lanes as Q8_0 on the unsigned quants, and per block
//     summs = fma(m, s_b, summs); result hsum8(acc) + summs.
//   - Q6_K, Q3_K: per super-block acc[l] = fma(d, float(lane l), acc[l]),
//     d = dy*dx; result hsum8(acc).
//   - Q2_K: per super-block first acc[k] = fma(dmin, float(m[2k]*bs[2k] +
//     m[2k+1]*bs[2k+1]), acc[k]) (bs: sums of 16 activations, dmin =
//     -dy*dminx), then the lanes as Q6_K.
//   - Q4_K: lanes as Q6_K; mins in accm[k] = fma(dmin, float(m[2k]*s[2k] +
//     m[2k+1]*s[2k+1]), accm[k]) for k = 0..3 (s: sums of 32 activations);
//     result hsum8(acc) + ((accm0+accm2) + (accm1+accm3)).
//   - Q5_K: as Q4_K but summs = fma(dmin, float(p0+p1+p2+p3), summs) with
//     p the four accm products; result hsum8(acc) + summs.
//   - F32/F16: element i of the first len/32*32 goes to acc[i%32]
//     (products are exact for F16), reduced as
//     v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]), hsum8(v), then the
//     tail elements are added one by one; no fused operations.
//   - BF16: llama.cpp's two orders, one position or several (bf16order.go).
//
// Explicit float32 conversions keep the Go compiler from fusing other
// multiply-adds (it may fuse x*y+z when GOAMD64>=v3). The activation side
// is fixed too: actquant.go defines the quantized activations every kernel
// set must reproduce.

// fma32 returns a*b+c rounded once to float32, like the x86 vfmadd
// instructions. The product is exact in float64; the float64 sum is exact
// unless its error term is non-zero, and then the only case where rounding
// the float64 sum to float32 could differ from rounding the exact value is
// a float64 sum lying exactly halfway between two float32 values, which is
// resolved with the sign of the error.
func fma32(a, b, c float32) float32 {
	r := float64(a)*float64(b) + float64(c)
	// A float32 midpoint (finite, normal or subnormal) has at most 25
	// significant bits, so the low 28 bits of its float64 mantissa are
	// zero; any other r rounds to the right float32 whatever the error.
	if math.Float64bits(r)<<36 != 0 {
		return float32(r)
	}
	return fma32Exact(a, b, c)
}

// fma32Exact is fma32 for any r: the possible float32 midpoints.
func fma32Exact(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	cc := float64(c)
	r := p + cc
	f := float32(r)
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return f
	}
	// TwoSum: r + e == p + cc exactly.
	bv := r - p
	e := (p - (r - bv)) + (cc - bv)
	if e == 0 || float64(f) == r {
		return f
	}
	// r lies strictly between two float32 values; find the other one.
	var other float32
	if float64(f) < r {
		other = math.Nextafter32(f, float32(math.Inf(1)))
	} else {
		other = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	if (float64(f)+float64(other))/2 != r {
		return f // not a tie: the error cannot move the value past the midpoint
	}
	if e > 0 {
		return max(f, other)
	}
	return min(f, other)
}

// hsum8 adds eight lanes in the order of an x86 horizontal reduction:
// ((v0+v4)+(v2+v6)) + ((v1+v5)+(v3+v7)).
func hsum8(v *[8]float32) float32 {
	a0, a1, a2, a3 := v[0]+v[4], v[1]+v[5], v[2]+v[6], v[3]+v[7]
	return (a0 + a2) + (a1 + a3)
}

func finish32(acc *[32]float32) float32 {
	var v [8]float32
	for l := 0; l < 8; l++ {
		v[l] = (acc[l] + acc[16+l]) + (acc[8+l] + acc[24+l])
	}
	return hsum8(&v)
}

// The integer lane sums below are grouped freely (four products at a time,
// sub-block scale applied to a group): integer sums are exact, so any
// grouping gives the lanes of the definition above. Decoding the quants in
// place instead of into a scratch array keeps the pure-Go set usable for
// the model tests.

// dot4 is the exact dot product of four weights and four activations.
func dot4(w0, w1, w2, w3 int32, a *[4]int8) int32 {
	return w0*int32(a[0]) + w1*int32(a[1]) + w2*int32(a[2]) + w3*int32(a[3])
}

// nib4 is dot4 of the four low (hi false) or high nibbles of q.
func nib4(q *[4]byte, a *[4]int8, hi bool) int32 {
	if hi {
		return dot4(int32(q[0]>>4), int32(q[1]>>4), int32(q[2]>>4), int32(q[3]>>4), a)
	}
	return dot4(int32(q[0]&0xf), int32(q[1]&0xf), int32(q[2]&0xf), int32(q[3]&0xf), a)
}

func dotQ8_0(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	for b := range d {
		blk := (*[34]byte)(w[34*b:])
		a := (*[32]int8)(qs[32*b:])
		var lanes [8]int32
		for l := range lanes {
			q := (*[4]byte)(blk[2+4*l:])
			lanes[l] = dot4(int32(int8(q[0])), int32(int8(q[1])), int32(int8(q[2])), int32(int8(q[3])), (*[4]int8)(a[4*l:]))
		}
		kLanes(&acc, &lanes, f16at(blk[:])*d[b])
	}
	return hsum8(&acc)
}

func dotQ4_0(w []byte, qs []int8, d []float32) float32 {
	var acc float32
	for b := range d {
		blk := (*[18]byte)(w[18*b:])
		a := qs[32*b : 32*b+32]
		var sum int32
		for j := 0; j < 16; j++ {
			sum += (int32(blk[2+j]&0xf)-8)*int32(a[j]) + (int32(blk[2+j]>>4)-8)*int32(a[j+16])
		}
		acc = fma32(float32(sum), f16at(blk[:])*d[b], acc)
	}
	return acc
}

// q5Lanes adds the lanes of one Q5_0/Q5_1 block (nibbles q, fifth bits qh,
// weights minus off) times d into acc.
func q5Lanes(acc *[8]float32, q *[16]byte, qh uint32, a *[32]int8, off int32, d float32) {
	var lanes [8]int32
	for l := range lanes {
		// Elements 4l..4l+3: low nibbles of bytes 4l.. for l < 4, high
		// nibbles of bytes 4l-16.. after.
		j := 4 * (l & 3)
		sh := uint(4 * (l >> 2))
		w0 := int32(q[j]>>sh&0xf|byte(qh>>(4*l)&1)<<4) - off
		w1 := int32(q[j+1]>>sh&0xf|byte(qh>>(4*l+1)&1)<<4) - off
		w2 := int32(q[j+2]>>sh&0xf|byte(qh>>(4*l+2)&1)<<4) - off
		w3 := int32(q[j+3]>>sh&0xf|byte(qh>>(4*l+3)&1)<<4) - off
		lanes[l] = dot4(w0, w1, w2, w3, (*[4]int8)(a[4*l:]))
	}
	kLanes(acc, &lanes, d)
}

// q4Lanes is q5Lanes without fifth bits or offset (Q4_1).
func q4Lanes(acc *[8]float32, q *[16]byte, a *[32]int8, d float32) {
	var lanes [8]int32
	for l := range lanes {
		lanes[l] = nib4((*[4]byte)(q[4*(l&3):]), (*[4]int8)(a[4*l:]), l >= 4)
	}
	kLanes(acc, &lanes, d)
}

func dotQ5_0(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	for b := range d {
		blk := (*[22]byte)(w[22*b:])
		q5Lanes(&acc, (*[16]byte)(blk[6:]), binary.LittleEndian.Uint32(blk[2:]), (*[32]int8)(qs[32*b:]), 16, f16at(blk[:])*d[b])
	}
	return hsum8(&acc)
}

func dotQ4_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [8]float32
	var summs float32
	for b := range d {
		blk := (*[20]byte)(w[20*b:])
		q4Lanes(&acc, (*[16]byte)(blk[4:]), (*[32]int8)(qs[32*b:]), f16at(blk[:])*d[b])
		summs = fma32(f16at(blk[2:]), sy[b], summs)
	}
	return hsum8(&acc) + summs
}

func dotQ5_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [8]float32
	var summs float32
	for b := range d {
		blk := (*[24]byte)(w[24*b:])
		q5Lanes(&acc, (*[16]byte)(blk[8:]), binary.LittleEndian.Uint32(blk[4:]), (*[32]int8)(qs[32*b:]), 0, f16at(blk[:])*d[b])
		summs = fma32(f16at(blk[2:]), sy[b], summs)
	}
	return hsum8(&acc) + summs
}

// kLanes scales the integer lanes of one block or super-block into acc:
// acc[l] = fma32(d, float32(lanes[l]), acc[l]), with fma32's common case
// written out here (the Go compiler does not inline fma32).
func kLanes(acc *[8]float32, lanes *[8]int32, d float32) {
	for l := range acc {
		x := float32(lanes[l])
		if r := float64(d)*float64(x) + float64(acc[l]); math.Float64bits(r)<<36 != 0 {
			acc[l] = float32(r)
		} else {
			acc[l] = fma32Exact(d, x, acc[l])
		}
	}
}

// crumbLanes adds the lanes of 32 elements whose weights are the 2-bit
// fields at shift of q (Q2_K), with the scale s0 for the first 16 elements
// and s1 for the last 16.
func crumbLanes(lanes *[8]int32, q *[32]byte, a *[32]int8, shift uint, s0, s1 int32) {
	for l := 0; l < 8; l++ {
		x := (*[4]byte)(q[4*l:])
		p := dot4(int32(x[0]>>shift&3), int32(x[1]>>shift&3), int32(x[2]>>shift&3), int32(x[3]>>shift&3), (*[4]int8)(a[4*l:]))
		if l < 4 {
			lanes[l] += s0 * p
		} else {
			lanes[l] += s1 * p
		}
	}
}

func dotQ2_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var acc [8]float32
	for b := range d {
		blk := (*[84]byte)(w[84*b:])
		q8 := (*[qkK]int8)(qs[qkK*b:])
		bs := (*[16]int16)(bsums[16*b:])
		dd := d[b] * f16at(blk[80:])
		dmin := -d[b] * f16at(blk[82:])
		for k := 0; k < 8; k++ {
			p := int32(blk[2*k]>>4)*int32(bs[2*k]) + int32(blk[2*k+1]>>4)*int32(bs[2*k+1])
			acc[k] = fma32(dmin, float32(p), acc[k])
		}
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			q := (*[32]byte)(blk[16+32*h:])
			for j := 0; j < 4; j++ {
				sc := blk[8*h+2*j:]
				crumbLanes(&lanes, q, (*[32]int8)(q8[128*h+32*j:]), uint(2*j), int32(sc[0]&0xf), int32(sc[1]&0xf))
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc)
}

func dotQ3_K(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	for b := range d {
		blk := (*[110]byte)(w[110*b:])
		hm := (*[32]byte)(blk[0:])
		sc := blk[96:108]
		q8 := (*[qkK]int8)(qs[qkK*b:])
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			q := (*[32]byte)(blk[32+32*h:])
			for j := 0; j < 4; j++ {
				shift, hb := uint(2*j), uint(4*h+j)
				a := (*[32]int8)(q8[128*h+32*j:])
				s0, s1 := q3kScale(sc, 8*h+2*j), q3kScale(sc, 8*h+2*j+1)
				for l := 0; l < 8; l++ {
					x, m := (*[4]byte)(q[4*l:]), (*[4]byte)(hm[4*l:])
					// A weight is its two bits, minus 4 unless its hmask bit is set.
					p := dot4(int32(x[0]>>shift&3|(m[0]>>hb&1)<<2)-4, int32(x[1]>>shift&3|(m[1]>>hb&1)<<2)-4,
						int32(x[2]>>shift&3|(m[2]>>hb&1)<<2)-4, int32(x[3]>>shift&3|(m[3]>>hb&1)<<2)-4, (*[4]int8)(a[4*l:]))
					if l < 4 {
						lanes[l] += s0 * p
					} else {
						lanes[l] += s1 * p
					}
				}
			}
		}
		kLanes(&acc, &lanes, d[b]*f16at(blk[108:]))
	}
	return hsum8(&acc)
}

// kMinProducts returns, for a Q4_K/Q5_K block with scales field s, the
// four products m[2k]*s[2k] + m[2k+1]*s[2k+1] of the sub-block mins m and
// the sums of their 32 activations (from the Q8_K bsums bs).
func kMinProducts(s []byte, bs []int16) (prod [4]int32) {
	for k := 0; k < 4; k++ {
		_, m0 := kScaleMin(s, 2*k)
		_, m1 := kScaleMin(s, 2*k+1)
		s0 := int32(bs[4*k]) + int32(bs[4*k+1])
		s1 := int32(bs[4*k+2]) + int32(bs[4*k+3])
		prod[k] = int32(m0)*s0 + int32(m1)*s1
	}
	return prod
}

func dotQ4_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var acc [8]float32
	var accm [4]float32
	for b := range d {
		blk := (*[144]byte)(w[144*b:])
		s := blk[4:16]
		q8 := (*[qkK]int8)(qs[qkK*b:])
		dd := d[b] * f16at(blk[0:])
		dmin := -d[b] * f16at(blk[2:])
		prod := kMinProducts(s, bsums[16*b:])
		for k := 0; k < 4; k++ {
			accm[k] = fma32(dmin, float32(prod[k]), accm[k])
		}
		var lanes [8]int32
		for c := 0; c < 4; c++ {
			sc1, _ := kScaleMin(s, 2*c)
			sc2, _ := kScaleMin(s, 2*c+1)
			s1, s2 := int32(sc1), int32(sc2)
			q := (*[32]byte)(blk[16+32*c:])
			lo, hi := (*[32]int8)(q8[64*c:]), (*[32]int8)(q8[64*c+32:])
			for l := 0; l < 8; l++ {
				x := (*[4]byte)(q[4*l:])
				lanes[l] += s1*nib4(x, (*[4]int8)(lo[4*l:]), false) + s2*nib4(x, (*[4]int8)(hi[4*l:]), true)
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc) + ((accm[0] + accm[2]) + (accm[1] + accm[3]))
}

func dotQ5_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var acc [8]float32
	var summs float32
	for b := range d {
		blk := (*[176]byte)(w[176*b:])
		s := blk[4:16]
		qh := (*[32]byte)(blk[16:])
		q8 := (*[qkK]int8)(qs[qkK*b:])
		dd := d[b] * f16at(blk[0:])
		dmin := -d[b] * f16at(blk[2:])
		prod := kMinProducts(s, bsums[16*b:])
		summs = fma32(dmin, float32((prod[0]+prod[1])+(prod[2]+prod[3])), summs)
		var lanes [8]int32
		for c := 0; c < 4; c++ {
			sc1, _ := kScaleMin(s, 2*c)
			sc2, _ := kScaleMin(s, 2*c+1)
			s1, s2 := int32(sc1), int32(sc2)
			u1, u2 := uint(2*c), uint(2*c+1)
			q := (*[32]byte)(blk[48+32*c:])
			lo, hi := (*[32]int8)(q8[64*c:]), (*[32]int8)(q8[64*c+32:])
			for l := 0; l < 8; l++ {
				x, h := (*[4]byte)(q[4*l:]), (*[4]byte)(qh[4*l:])
				p1 := dot4(int32(x[0]&0xf|(h[0]>>u1&1)<<4), int32(x[1]&0xf|(h[1]>>u1&1)<<4),
					int32(x[2]&0xf|(h[2]>>u1&1)<<4), int32(x[3]&0xf|(h[3]>>u1&1)<<4), (*[4]int8)(lo[4*l:]))
				p2 := dot4(int32(x[0]>>4|(h[0]>>u2&1)<<4), int32(x[1]>>4|(h[1]>>u2&1)<<4),
					int32(x[2]>>4|(h[2]>>u2&1)<<4), int32(x[3]>>4|(h[3]>>u2&1)<<4), (*[4]int8)(hi[4*l:]))
				lanes[l] += s1*p1 + s2*p2
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc) + summs
}

// q6 is a Q6_K weight: four low bits from ql shifted by ls, two high bits
// from qh shifted by hs, minus 32.
func q6(ql, qh byte, ls, hs uint) int32 {
	return int32(ql>>ls&0xf|(qh>>hs&3)<<4) - 32
}

func dotQ6_K(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	for b := range d {
		blk := (*[210]byte)(w[210*b:])
		q8 := (*[qkK]int8)(qs[qkK*b:])
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			ql := (*[64]byte)(blk[64*h:])
			qh := (*[32]byte)(blk[128+32*h:])
			sc := (*[8]byte)(blk[192+8*h:])
			a := (*[128]int8)(q8[128*h:])
			for l := 0; l < 8; l++ {
				// Elements 4l..4l+3 of each 32-element quarter of the half.
				k := l >> 2
				x, y, m := (*[4]byte)(ql[4*l:]), (*[4]byte)(ql[32+4*l:]), (*[4]byte)(qh[4*l:])
				p1 := dot4(q6(x[0], m[0], 0, 0), q6(x[1], m[1], 0, 0), q6(x[2], m[2], 0, 0), q6(x[3], m[3], 0, 0), (*[4]int8)(a[4*l:]))
				p2 := dot4(q6(y[0], m[0], 0, 2), q6(y[1], m[1], 0, 2), q6(y[2], m[2], 0, 2), q6(y[3], m[3], 0, 2), (*[4]int8)(a[32+4*l:]))
				p3 := dot4(q6(x[0], m[0], 4, 4), q6(x[1], m[1], 4, 4), q6(x[2], m[2], 4, 4), q6(x[3], m[3], 4, 4), (*[4]int8)(a[64+4*l:]))
				p4 := dot4(q6(y[0], m[0], 4, 6), q6(y[1], m[1], 4, 6), q6(y[2], m[2], 4, 6), q6(y[3], m[3], 4, 6), (*[4]int8)(a[96+4*l:]))
				lanes[l] += int32(int8(sc[k]))*p1 + int32(int8(sc[k+2]))*p2 + int32(int8(sc[k+4]))*p3 + int32(int8(sc[k+6]))*p4
			}
		}
		kLanes(&acc, &lanes, d[b]*f16at(blk[208:]))
	}
	return hsum8(&acc)
}

func dotF32(w []byte, x []float32) float32 {
	var acc [32]float32
	n := len(x) / 32 * 32
	for i := 0; i < n; i += 32 {
		wb := (*[128]byte)(w[4*i:])
		xb := (*[32]float32)(x[i:])
		for l := 0; l < 32; l++ {
			acc[l] += float32(math.Float32frombits(binary.LittleEndian.Uint32(wb[4*l:])) * xb[l])
		}
	}
	s := finish32(&acc)
	for i := n; i < len(x); i++ {
		s += float32(math.Float32frombits(binary.LittleEndian.Uint32(w[4*i:])) * x[i])
	}
	return s
}

func dotF16(w []byte, x []uint16) float32 {
	var acc [32]float32
	n := len(x) / 32 * 32
	for i := 0; i < n; i += 32 {
		wb := (*[64]byte)(w[2*i:])
		xb := (*[32]uint16)(x[i:])
		for l := 0; l < 32; l++ {
			acc[l] += f16at(wb[2*l:]) * f16Lookup[xb[l]]
		}
	}
	s := finish32(&acc)
	for i := n; i < len(x); i++ {
		s += f16at(w[2*i:]) * f16Lookup[x[i]]
	}
	return s
}

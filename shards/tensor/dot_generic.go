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

// lanes8 adds the 32 products of one block (weights w, activations a) into
// lane l of acc with acc[l] = fma(d, float(lane sum), acc[l]).
func lanes8(acc *[8]float32, w *[32]int32, a []int8, d float32) {
	a = a[:32]
	for l := 0; l < 8; l++ {
		p := w[4*l]*int32(a[4*l]) + w[4*l+1]*int32(a[4*l+1]) + w[4*l+2]*int32(a[4*l+2]) + w[4*l+3]*int32(a[4*l+3])
		acc[l] = fma32(d, float32(p), acc[l])
	}
}

func dotQ8_0(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	var v [32]int32
	for b := range d {
		blk := (*[34]byte)(w[34*b:])
		for j := 0; j < 32; j++ {
			v[j] = int32(int8(blk[2+j]))
		}
		lanes8(&acc, &v, qs[32*b:], f16at(blk[:])*d[b])
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

func dotQ5_0(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	var v [32]int32
	for b := range d {
		blk := (*[22]byte)(w[22*b:])
		qh := binary.LittleEndian.Uint32(blk[2:])
		for j := 0; j < 16; j++ {
			v[j] = (int32(blk[6+j]&0xf) | int32((qh>>j)&1)<<4) - 16
			v[j+16] = (int32(blk[6+j]>>4) | int32((qh>>(j+16))&1)<<4) - 16
		}
		lanes8(&acc, &v, qs[32*b:], f16at(blk[:])*d[b])
	}
	return hsum8(&acc)
}

func dotQ4_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [8]float32
	var summs float32
	var v [32]int32
	for b := range d {
		blk := (*[20]byte)(w[20*b:])
		for j := 0; j < 16; j++ {
			v[j] = int32(blk[4+j] & 0xf)
			v[j+16] = int32(blk[4+j] >> 4)
		}
		lanes8(&acc, &v, qs[32*b:], f16at(blk[:])*d[b])
		summs = fma32(f16at(blk[2:]), sy[b], summs)
	}
	return hsum8(&acc) + summs
}

func dotQ5_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [8]float32
	var summs float32
	var v [32]int32
	for b := range d {
		blk := (*[24]byte)(w[24*b:])
		qh := binary.LittleEndian.Uint32(blk[4:])
		for j := 0; j < 16; j++ {
			v[j] = int32(blk[8+j]&0xf) | int32((qh>>j)&1)<<4
			v[j+16] = int32(blk[8+j]>>4) | int32((qh>>(j+16))&1)<<4
		}
		lanes8(&acc, &v, qs[32*b:], f16at(blk[:])*d[b])
		summs = fma32(f16at(blk[2:]), sy[b], summs)
	}
	return hsum8(&acc) + summs
}

// addLanes16 adds scale * w[l] * a[l] for 16 elements starting at element
// index base (a multiple of 16) into the integer lanes (e%32)/4.
func addLanes16(lanes *[8]int32, base int, w *[16]int32, a []int8, scale int32) {
	a = a[:16]
	off := base % 32
	for l := 0; l < 16; l++ {
		lanes[(off+l)/4] += scale * w[l] * int32(a[l])
	}
}

// kLanes scales the integer lanes of one super-block into acc.
func kLanes(acc *[8]float32, lanes *[8]int32, d float32) {
	for l := 0; l < 8; l++ {
		acc[l] = fma32(d, float32(lanes[l]), acc[l])
	}
}

func dotQ2_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var acc [8]float32
	var v [16]int32
	for b := range d {
		blk := (*[84]byte)(w[84*b:])
		q8 := qs[qkK*b:]
		bs := bsums[16*b:]
		dd := d[b] * f16at(blk[80:])
		dmin := -d[b] * f16at(blk[82:])
		for k := 0; k < 8; k++ {
			p := int32(blk[2*k]>>4)*int32(bs[2*k]) + int32(blk[2*k+1]>>4)*int32(bs[2*k+1])
			acc[k] = fma32(dmin, float32(p), acc[k])
		}
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			q := blk[16+32*h : 16+32*h+32]
			for j := 0; j < 4; j++ {
				shift := uint(2 * j)
				for k := 0; k < 2; k++ {
					for l := 0; l < 16; l++ {
						v[l] = int32((q[16*k+l] >> shift) & 3)
					}
					base := 128*h + 32*j + 16*k
					addLanes16(&lanes, base, &v, q8[base:], int32(blk[8*h+2*j+k]&0xf))
				}
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc)
}

func dotQ3_K(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	var v [16]int32
	for b := range d {
		blk := (*[110]byte)(w[110*b:])
		hm := blk[0:32]
		sc := blk[96:108]
		q8 := qs[qkK*b:]
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			q := blk[32+32*h : 32+32*h+32]
			for j := 0; j < 4; j++ {
				shift := uint(2 * j)
				m := byte(1) << uint(4*h+j)
				for k := 0; k < 2; k++ {
					for l := 0; l < 16; l++ {
						x := int32((q[16*k+l] >> shift) & 3)
						if hm[16*k+l]&m == 0 {
							x -= 4
						}
						v[l] = x
					}
					base := 128*h + 32*j + 16*k
					addLanes16(&lanes, base, &v, q8[base:], q3kScale(sc, 8*h+2*j+k))
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
	var v [16]int32
	for b := range d {
		blk := (*[144]byte)(w[144*b:])
		s := blk[4:16]
		q8 := qs[qkK*b:]
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
			q := blk[16+32*c : 16+32*c+32]
			for k := 0; k < 2; k++ {
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l] & 0xf)
				}
				addLanes16(&lanes, 64*c+16*k, &v, q8[64*c+16*k:], int32(sc1))
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l] >> 4)
				}
				addLanes16(&lanes, 64*c+32+16*k, &v, q8[64*c+32+16*k:], int32(sc2))
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc) + ((accm[0] + accm[2]) + (accm[1] + accm[3]))
}

func dotQ5_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var acc [8]float32
	var summs float32
	var v [16]int32
	for b := range d {
		blk := (*[176]byte)(w[176*b:])
		s := blk[4:16]
		qh := blk[16:48]
		q8 := qs[qkK*b:]
		dd := d[b] * f16at(blk[0:])
		dmin := -d[b] * f16at(blk[2:])
		prod := kMinProducts(s, bsums[16*b:])
		summs = fma32(dmin, float32((prod[0]+prod[1])+(prod[2]+prod[3])), summs)
		var lanes [8]int32
		for c := 0; c < 4; c++ {
			sc1, _ := kScaleMin(s, 2*c)
			sc2, _ := kScaleMin(s, 2*c+1)
			u1, u2 := uint(2*c), uint(2*c+1)
			q := blk[48+32*c : 48+32*c+32]
			for k := 0; k < 2; k++ {
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l]&0xf) | int32((qh[16*k+l]>>u1)&1)<<4
				}
				addLanes16(&lanes, 64*c+16*k, &v, q8[64*c+16*k:], int32(sc1))
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l]>>4) | int32((qh[16*k+l]>>u2)&1)<<4
				}
				addLanes16(&lanes, 64*c+32+16*k, &v, q8[64*c+32+16*k:], int32(sc2))
			}
		}
		kLanes(&acc, &lanes, dd)
	}
	return hsum8(&acc) + summs
}

func dotQ6_K(w []byte, qs []int8, d []float32) float32 {
	var acc [8]float32
	var v1, v2, v3, v4 [16]int32
	for b := range d {
		blk := (*[210]byte)(w[210*b:])
		q8 := qs[qkK*b:]
		var lanes [8]int32
		for h := 0; h < 2; h++ {
			ql := blk[64*h : 64*h+64]
			qh := blk[128+32*h : 128+32*h+32]
			sc := blk[192+8*h : 192+8*h+8]
			for k := 0; k < 2; k++ {
				for l := 0; l < 16; l++ {
					i := 16*k + l
					v1[l] = int32(ql[i]&0xf|(qh[i]&3)<<4) - 32
					v2[l] = int32(ql[i+32]&0xf|((qh[i]>>2)&3)<<4) - 32
					v3[l] = int32(ql[i]>>4|((qh[i]>>4)&3)<<4) - 32
					v4[l] = int32(ql[i+32]>>4|((qh[i]>>6)&3)<<4) - 32
				}
				base := 128*h + 16*k
				addLanes16(&lanes, base, &v1, q8[base:], int32(int8(sc[k])))
				addLanes16(&lanes, base+32, &v2, q8[base+32:], int32(int8(sc[k+2])))
				addLanes16(&lanes, base+64, &v3, q8[base+64:], int32(int8(sc[k+4])))
				addLanes16(&lanes, base+96, &v4, q8[base+96:], int32(int8(sc[k+6])))
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

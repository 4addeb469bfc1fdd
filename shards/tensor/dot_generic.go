package tensor

import (
	"encoding/binary"
	"math"
)

// Canonical dot products. Each function below defines, for its weight type,
// the exact sequence of float32 operations that produces one output element;
// the assembly kernels implement the same sequence, so every code path gives
// the same bits. Integer partial sums are exact, so only the float steps
// matter:
//
//   - 32-element block types (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0): lane l (0..7)
//     of block b holds the integer sum of elements 4l..4l+3; it is converted
//     to float32, multiplied by s_b = dx*dy (rounded) and added to
//     accumulator acc[(b&1)*8+l]. For Q4_1/Q5_1 the offset term m_b*sy_b is
//     added to ms[b&1]. The result is hsum8(acc[0:8]+acc[8:16]) (+ ms[0]+ms[1]).
//   - k-quants: per super-block b the exact integer total isum (and, for
//     Q2_K/Q4_K/Q5_K, the min correction summs = sum of bsums times the
//     sub-block mins) is scaled in block order: sum += float32(d*isum), then
//     sum -= float32(dmin*summs), with d = float32(dx*dy_b) and
//     dmin = float32(dminx*dy_b).
//   - F32/F16/BF16: element i of the first len/32*32 goes to acc[i%32]
//     (products are exact for F16 and BF16), reduced as
//     v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]), hsum8(v), then the
//     tail elements are added one by one.
//
// No fused multiply-add is used anywhere: the explicit float32 conversions
// keep the Go compiler from fusing (it may fuse x*y+z when GOAMD64>=v3), and
// the assembly uses separate multiplies and adds. The activation side is
// fixed too: actquant.go defines the quantized activations every kernel set
// must reproduce.

// hsum8 adds eight lanes in the order of an x86 horizontal reduction:
// ((v0+v4)+(v2+v6)) + ((v1+v5)+(v3+v7)).
func hsum8(v *[8]float32) float32 {
	a0, a1, a2, a3 := v[0]+v[4], v[1]+v[5], v[2]+v[6], v[3]+v[7]
	return (a0 + a2) + (a1 + a3)
}

func finish16(acc *[16]float32) float32 {
	var v [8]float32
	for l := 0; l < 8; l++ {
		v[l] = acc[l] + acc[8+l]
	}
	return hsum8(&v)
}

func finish32(acc *[32]float32) float32 {
	var v [8]float32
	for l := 0; l < 8; l++ {
		v[l] = (acc[l] + acc[16+l]) + (acc[8+l] + acc[24+l])
	}
	return hsum8(&v)
}

// lanes4 adds the eight 4-element integer products of one 32-element block
// (weights w as int32 values, activations a) into acc[h:h+8], scaled by s.
func lanes4(acc *[16]float32, h int, w *[32]int32, a []int8, s float32) {
	a = a[:32]
	for l := 0; l < 8; l++ {
		p := w[4*l]*int32(a[4*l]) + w[4*l+1]*int32(a[4*l+1]) + w[4*l+2]*int32(a[4*l+2]) + w[4*l+3]*int32(a[4*l+3])
		acc[h+l] += float32(float32(p) * s)
	}
}

func dotQ8_0(w []byte, qs []int8, d []float32) float32 {
	var acc [16]float32
	var v [32]int32
	for b := range d {
		blk := (*[34]byte)(w[34*b:])
		s := float32(f16at(blk[:]) * d[b])
		for j := 0; j < 32; j++ {
			v[j] = int32(int8(blk[2+j]))
		}
		lanes4(&acc, (b&1)*8, &v, qs[32*b:], s)
	}
	return finish16(&acc)
}

func dotQ4_0(w []byte, qs []int8, d []float32) float32 {
	var acc [16]float32
	var v [32]int32
	for b := range d {
		blk := (*[18]byte)(w[18*b:])
		s := float32(f16at(blk[:]) * d[b])
		for j := 0; j < 16; j++ {
			v[j] = int32(blk[2+j]&0xf) - 8
			v[j+16] = int32(blk[2+j]>>4) - 8
		}
		lanes4(&acc, (b&1)*8, &v, qs[32*b:], s)
	}
	return finish16(&acc)
}

func dotQ5_0(w []byte, qs []int8, d []float32) float32 {
	var acc [16]float32
	var v [32]int32
	for b := range d {
		blk := (*[22]byte)(w[22*b:])
		s := float32(f16at(blk[:]) * d[b])
		qh := binary.LittleEndian.Uint32(blk[2:])
		for j := 0; j < 16; j++ {
			v[j] = (int32(blk[6+j]&0xf) | int32((qh>>j)&1)<<4) - 16
			v[j+16] = (int32(blk[6+j]>>4) | int32((qh>>(j+16))&1)<<4) - 16
		}
		lanes4(&acc, (b&1)*8, &v, qs[32*b:], s)
	}
	return finish16(&acc)
}

func dotQ4_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [16]float32
	var ms [2]float32
	var v [32]int32
	for b := range d {
		blk := (*[20]byte)(w[20*b:])
		s := float32(f16at(blk[:]) * d[b])
		ms[b&1] += float32(f16at(blk[2:]) * sy[b])
		for j := 0; j < 16; j++ {
			v[j] = int32(blk[4+j] & 0xf)
			v[j+16] = int32(blk[4+j] >> 4)
		}
		lanes4(&acc, (b&1)*8, &v, qs[32*b:], s)
	}
	return finish16(&acc) + (ms[0] + ms[1])
}

func dotQ5_1(w []byte, qs []int8, d, sy []float32) float32 {
	var acc [16]float32
	var ms [2]float32
	var v [32]int32
	for b := range d {
		blk := (*[24]byte)(w[24*b:])
		s := float32(f16at(blk[:]) * d[b])
		ms[b&1] += float32(f16at(blk[2:]) * sy[b])
		qh := binary.LittleEndian.Uint32(blk[4:])
		for j := 0; j < 16; j++ {
			v[j] = int32(blk[8+j]&0xf) | int32((qh>>j)&1)<<4
			v[j+16] = int32(blk[8+j]>>4) | int32((qh>>(j+16))&1)<<4
		}
		lanes4(&acc, (b&1)*8, &v, qs[32*b:], s)
	}
	return finish16(&acc) + (ms[0] + ms[1])
}

// dot16 is the integer dot product of 16 weights and 16 activations.
func dot16(w *[16]int32, a []int8) int32 {
	a = a[:16]
	var s int32
	for l := 0; l < 16; l++ {
		s += w[l] * int32(a[l])
	}
	return s
}

func dotQ2_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var sum float32
	var v [16]int32
	for b := range d {
		blk := (*[84]byte)(w[84*b:])
		q8 := qs[qkK*b:]
		bs := bsums[16*b:]
		var isum, summs int32
		for j := 0; j < 16; j++ {
			summs += int32(bs[j]) * int32(blk[j]>>4)
		}
		for h := 0; h < 2; h++ {
			q := blk[16+32*h : 16+32*h+32]
			for j := 0; j < 4; j++ {
				shift := uint(2 * j)
				for k := 0; k < 2; k++ {
					for l := 0; l < 16; l++ {
						v[l] = int32((q[16*k+l] >> shift) & 3)
					}
					isum += int32(blk[8*h+2*j+k]&0xf) * dot16(&v, q8[128*h+32*j+16*k:])
				}
			}
		}
		dd := float32(f16at(blk[80:]) * d[b])
		dmin := float32(f16at(blk[82:]) * d[b])
		sum += float32(dd * float32(isum))
		sum -= float32(dmin * float32(summs))
	}
	return sum
}

func dotQ3_K(w []byte, qs []int8, d []float32) float32 {
	var sum float32
	var v [16]int32
	for b := range d {
		blk := (*[110]byte)(w[110*b:])
		hm := blk[0:32]
		sc := blk[96:108]
		q8 := qs[qkK*b:]
		var isum int32
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
					isum += q3kScale(sc, 8*h+2*j+k) * dot16(&v, q8[128*h+32*j+16*k:])
				}
			}
		}
		dd := float32(f16at(blk[108:]) * d[b])
		sum += float32(dd * float32(isum))
	}
	return sum
}

func dotQ4_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var sum float32
	var v [16]int32
	for b := range d {
		blk := (*[144]byte)(w[144*b:])
		s := blk[4:16]
		q8 := qs[qkK*b:]
		bs := bsums[16*b:]
		var isum, summs int32
		for c := 0; c < 4; c++ {
			sc1, m1 := kScaleMin(s, 2*c)
			sc2, m2 := kScaleMin(s, 2*c+1)
			summs += int32(m1)*(int32(bs[4*c])+int32(bs[4*c+1])) + int32(m2)*(int32(bs[4*c+2])+int32(bs[4*c+3]))
			q := blk[16+32*c : 16+32*c+32]
			var lo, hi int32
			for k := 0; k < 2; k++ {
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l] & 0xf)
				}
				lo += dot16(&v, q8[64*c+16*k:])
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l] >> 4)
				}
				hi += dot16(&v, q8[64*c+32+16*k:])
			}
			isum += int32(sc1)*lo + int32(sc2)*hi
		}
		dd := float32(f16at(blk[0:]) * d[b])
		dmin := float32(f16at(blk[2:]) * d[b])
		sum += float32(dd * float32(isum))
		sum -= float32(dmin * float32(summs))
	}
	return sum
}

func dotQ5_K(w []byte, qs []int8, d []float32, bsums []int16) float32 {
	var sum float32
	var v [16]int32
	for b := range d {
		blk := (*[176]byte)(w[176*b:])
		s := blk[4:16]
		qh := blk[16:48]
		q8 := qs[qkK*b:]
		bs := bsums[16*b:]
		var isum, summs int32
		for c := 0; c < 4; c++ {
			sc1, m1 := kScaleMin(s, 2*c)
			sc2, m2 := kScaleMin(s, 2*c+1)
			summs += int32(m1)*(int32(bs[4*c])+int32(bs[4*c+1])) + int32(m2)*(int32(bs[4*c+2])+int32(bs[4*c+3]))
			u1, u2 := uint(2*c), uint(2*c+1)
			q := blk[48+32*c : 48+32*c+32]
			var lo, hi int32
			for k := 0; k < 2; k++ {
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l]&0xf) | int32((qh[16*k+l]>>u1)&1)<<4
				}
				lo += dot16(&v, q8[64*c+16*k:])
				for l := 0; l < 16; l++ {
					v[l] = int32(q[16*k+l]>>4) | int32((qh[16*k+l]>>u2)&1)<<4
				}
				hi += dot16(&v, q8[64*c+32+16*k:])
			}
			isum += int32(sc1)*lo + int32(sc2)*hi
		}
		dd := float32(f16at(blk[0:]) * d[b])
		dmin := float32(f16at(blk[2:]) * d[b])
		sum += float32(dd * float32(isum))
		sum -= float32(dmin * float32(summs))
	}
	return sum
}

func dotQ6_K(w []byte, qs []int8, d []float32) float32 {
	var sum float32
	var v1, v2, v3, v4 [16]int32
	for b := range d {
		blk := (*[210]byte)(w[210*b:])
		q8 := qs[qkK*b:]
		var isum int32
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
				isum += int32(int8(sc[k])) * dot16(&v1, q8[base:])
				isum += int32(int8(sc[k+2])) * dot16(&v2, q8[base+32:])
				isum += int32(int8(sc[k+4])) * dot16(&v3, q8[base+64:])
				isum += int32(int8(sc[k+6])) * dot16(&v4, q8[base+96:])
			}
		}
		dd := float32(f16at(blk[208:]) * d[b])
		sum += float32(dd * float32(isum))
	}
	return sum
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

func dotBF16(w []byte, x []uint16) float32 {
	var acc [32]float32
	n := len(x) / 32 * 32
	for i := 0; i < n; i += 32 {
		wb := (*[64]byte)(w[2*i:])
		xb := (*[32]uint16)(x[i:])
		for l := 0; l < 32; l++ {
			acc[l] += BF16ToFP32(le16(wb[2*l:])) * BF16ToFP32(xb[l])
		}
	}
	s := finish32(&acc)
	for i := n; i < len(x); i++ {
		s += BF16ToFP32(le16(w[2*i:])) * BF16ToFP32(x[i])
	}
	return s
}

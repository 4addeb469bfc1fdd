package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }
func f16at(b []byte) float32 {
	return f16Lookup[binary.LittleEndian.Uint16(b)]
}

// Dequantize expands len(dst) elements of type t stored in src (ggml's block
// layouts) into float32. len(dst) must be a multiple of the block size and
// src must hold at least the corresponding number of bytes.
func Dequantize(t Type, src []byte, dst []float32) error {
	need, err := RowBytes(t, len(dst))
	if err != nil {
		return fmt.Errorf("tensor: dequantize: %w", err)
	}
	if len(src) < need {
		return fmt.Errorf("tensor: dequantize %d %v elements: need %d bytes, have %d", len(dst), t, need, len(src))
	}
	src = src[:need]
	bb := t.BlockBytes()
	bs := t.BlockSize()
	switch t {
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
		return nil
	case F16:
		for i := range dst {
			dst[i] = f16at(src[2*i:])
		}
		return nil
	case BF16:
		for i := range dst {
			dst[i] = BF16ToFP32(le16(src[2*i:]))
		}
		return nil
	}
	var blk func(b []byte, y []float32)
	switch t {
	case Q4_0:
		blk = dequantQ4_0
	case Q4_1:
		blk = dequantQ4_1
	case Q5_0:
		blk = dequantQ5_0
	case Q5_1:
		blk = dequantQ5_1
	case Q8_0:
		blk = dequantQ8_0
	case Q2_K:
		blk = dequantQ2_K
	case Q3_K:
		blk = dequantQ3_K
	case Q4_K:
		blk = dequantQ4_K
	case Q5_K:
		blk = dequantQ5_K
	case Q6_K:
		blk = dequantQ6_K
	default:
		return fmt.Errorf("tensor: dequantize: unsupported type %v", t)
	}
	for i := 0; i*bs < len(dst); i++ {
		blk(src[i*bb:(i+1)*bb], dst[i*bs:(i+1)*bs])
	}
	return nil
}

// Row dequantizes row r of w into dst (len(dst) must be w.Cols); it serves
// token-embedding lookups.
func Row(w Matrix, r int, dst []float32) error {
	if err := w.Validate(); err != nil {
		return fmt.Errorf("tensor: row: %w", err)
	}
	if r < 0 || r >= w.Rows {
		return fmt.Errorf("tensor: row %d out of range [0,%d)", r, w.Rows)
	}
	if len(dst) != w.Cols {
		return fmt.Errorf("tensor: row: destination has %d elements, matrix has %d columns", len(dst), w.Cols)
	}
	if w.group > 0 {
		// One block at a time from its place in the packed layout (a
		// weight type's block is at most 210 bytes, Q6_K's).
		var scratch [256]byte
		bs := w.Type.BlockSize()
		for j := 0; j < w.Cols/bs; j++ {
			if err := Dequantize(w.Type, w.block(r, j, scratch[:]), dst[j*bs:(j+1)*bs]); err != nil {
				return err
			}
		}
		return nil
	}
	rb, _ := RowBytes(w.Type, w.Cols)
	return Dequantize(w.Type, w.Data[r*rb:(r+1)*rb], dst)
}

// Block layouts follow ggml-common.h; element order within a block follows
// ggml's dequantize_row_* so that Dequantize agrees with the GGUF files.

func dequantQ4_0(b []byte, y []float32) {
	d := f16at(b)
	qs := b[2:18]
	for j := 0; j < 16; j++ {
		y[j] = float32(int32(qs[j]&0xf)-8) * d
		y[j+16] = float32(int32(qs[j]>>4)-8) * d
	}
}

func dequantQ4_1(b []byte, y []float32) {
	d, m := f16at(b), f16at(b[2:])
	qs := b[4:20]
	for j := 0; j < 16; j++ {
		y[j] = float32(float32(qs[j]&0xf)*d) + m
		y[j+16] = float32(float32(qs[j]>>4)*d) + m
	}
}

func dequantQ5_0(b []byte, y []float32) {
	d := f16at(b)
	qh := binary.LittleEndian.Uint32(b[2:])
	qs := b[6:22]
	for j := 0; j < 16; j++ {
		lo := int32(qs[j]&0xf) | int32((qh>>j)&1)<<4
		hi := int32(qs[j]>>4) | int32((qh>>(j+16))&1)<<4
		y[j] = float32(lo-16) * d
		y[j+16] = float32(hi-16) * d
	}
}

func dequantQ5_1(b []byte, y []float32) {
	d, m := f16at(b), f16at(b[2:])
	qh := binary.LittleEndian.Uint32(b[4:])
	qs := b[8:24]
	for j := 0; j < 16; j++ {
		lo := int32(qs[j]&0xf) | int32((qh>>j)&1)<<4
		hi := int32(qs[j]>>4) | int32((qh>>(j+16))&1)<<4
		y[j] = float32(float32(lo)*d) + m
		y[j+16] = float32(float32(hi)*d) + m
	}
}

func dequantQ8_0(b []byte, y []float32) {
	d := f16at(b)
	for j := 0; j < 32; j++ {
		y[j] = float32(int8(b[2+j])) * d
	}
}

func dequantQ2_K(b []byte, y []float32) {
	sc := b[0:16]
	qs := b[16:80]
	d, dmin := f16at(b[80:]), f16at(b[82:])
	for h := 0; h < 2; h++ {
		q := qs[32*h : 32*h+32]
		for j := 0; j < 4; j++ {
			shift := uint(2 * j)
			for k := 0; k < 2; k++ {
				s := sc[8*h+2*j+k]
				dl := d * float32(s&0xf)
				ml := dmin * float32(s>>4)
				out := y[128*h+32*j+16*k:]
				for l := 0; l < 16; l++ {
					out[l] = float32(dl*float32((q[16*k+l]>>shift)&3)) - ml
				}
			}
		}
	}
}

// q3kScale returns the j-th (0..15) 6-bit scale of a Q3_K block, minus 32.
func q3kScale(sc []byte, j int) int32 {
	var lo byte
	if j < 8 {
		lo = sc[j] & 0xf
	} else {
		lo = sc[j-8] >> 4
	}
	hi := (sc[8+j%4] >> (2 * (j / 4))) & 3
	return int32(lo|hi<<4) - 32
}

func dequantQ3_K(b []byte, y []float32) {
	hm := b[0:32]
	qs := b[32:96]
	sc := b[96:108]
	d := f16at(b[108:])
	for h := 0; h < 2; h++ {
		q := qs[32*h : 32*h+32]
		for j := 0; j < 4; j++ {
			shift := uint(2 * j)
			m := byte(1) << uint(4*h+j)
			for k := 0; k < 2; k++ {
				dl := d * float32(q3kScale(sc, 8*h+2*j+k))
				out := y[128*h+32*j+16*k:]
				for l := 0; l < 16; l++ {
					v := int32((q[16*k+l] >> shift) & 3)
					if hm[16*k+l]&m == 0 {
						v -= 4
					}
					out[l] = dl * float32(v)
				}
			}
		}
	}
}

// kScaleMin returns the j-th (0..7) 6-bit scale and min of a Q4_K/Q5_K block.
func kScaleMin(s []byte, j int) (sc, m byte) {
	if j < 4 {
		return s[j] & 63, s[j+4] & 63
	}
	return s[j+4]&0xf | (s[j-4]>>6)<<4, s[j+4]>>4 | (s[j]>>6)<<4
}

func dequantQ4_K(b []byte, y []float32) {
	d, dmin := f16at(b), f16at(b[2:])
	s := b[4:16]
	qs := b[16:144]
	for c := 0; c < 4; c++ {
		sc1, m1 := kScaleMin(s, 2*c)
		sc2, m2 := kScaleMin(s, 2*c+1)
		d1, mm1 := d*float32(sc1), dmin*float32(m1)
		d2, mm2 := d*float32(sc2), dmin*float32(m2)
		q := qs[32*c : 32*c+32]
		out := y[64*c:]
		for l := 0; l < 32; l++ {
			out[l] = float32(d1*float32(q[l]&0xf)) - mm1
			out[32+l] = float32(d2*float32(q[l]>>4)) - mm2
		}
	}
}

func dequantQ5_K(b []byte, y []float32) {
	d, dmin := f16at(b), f16at(b[2:])
	s := b[4:16]
	qh := b[16:48]
	qs := b[48:176]
	for c := 0; c < 4; c++ {
		sc1, m1 := kScaleMin(s, 2*c)
		sc2, m2 := kScaleMin(s, 2*c+1)
		d1, mm1 := d*float32(sc1), dmin*float32(m1)
		d2, mm2 := d*float32(sc2), dmin*float32(m2)
		u1, u2 := byte(1)<<uint(2*c), byte(2)<<uint(2*c)
		q := qs[32*c : 32*c+32]
		out := y[64*c:]
		for l := 0; l < 32; l++ {
			lo, hi := int32(q[l]&0xf), int32(q[l]>>4)
			if qh[l]&u1 != 0 {
				lo += 16
			}
			if qh[l]&u2 != 0 {
				hi += 16
			}
			out[l] = float32(d1*float32(lo)) - mm1
			out[32+l] = float32(d2*float32(hi)) - mm2
		}
	}
}

func dequantQ6_K(b []byte, y []float32) {
	d := f16at(b[208:])
	for h := 0; h < 2; h++ {
		ql := b[64*h : 64*h+64]
		qh := b[128+32*h : 128+32*h+32]
		sc := b[192+8*h : 192+8*h+8]
		out := y[128*h:]
		for l := 0; l < 32; l++ {
			is := l / 16
			q1 := int32(ql[l]&0xf|(qh[l]&3)<<4) - 32
			q2 := int32(ql[l+32]&0xf|((qh[l]>>2)&3)<<4) - 32
			q3 := int32(ql[l]>>4|((qh[l]>>4)&3)<<4) - 32
			q4 := int32(ql[l+32]>>4|((qh[l]>>6)&3)<<4) - 32
			out[l] = float32(d*float32(int8(sc[is]))) * float32(q1)
			out[l+32] = float32(d*float32(int8(sc[is+2]))) * float32(q2)
			out[l+64] = float32(d*float32(int8(sc[is+4]))) * float32(q3)
			out[l+96] = float32(d*float32(int8(sc[is+6]))) * float32(q4)
		}
	}
}

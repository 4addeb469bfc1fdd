package tensor

import (
	"encoding/binary"
	"fmt"
)

// Interleaved Q8_0 layout ("q80x"). Row-major Q8_0 makes a 16-row tile
// kernel read 16 short streams and reduce every row horizontally. The
// interleaved layout stores each group of 16 rows (a tile) as one
// sequential stream in which, per 32-element block, dword lane r of a
// 64-byte vector is row r: one VPDPBUSD with a broadcast activation dword
// yields the 4-element partial sums of all 16 rows, which are exactly the
// integer lanes of the canonical lanes8 order (dot_generic.go).
//
// A matrix of rows × cols Q8_0 values (rows % 16 == 0, cols % 32 == 0,
// nb = cols/32 blocks per row) takes the same number of bytes as row-major
// Q8_0 (34 per block). Tile t (rows 16t..16t+15) occupies bytes
// [t*544*nb, (t+1)*544*nb). Within a tile, blocks go in pairs so that every
// 64-byte vector starts 64-byte aligned relative to the tile (and the tile
// itself is 64-byte aligned when the buffer is and nb is even): pair k
// (blocks 2k and 2k+1) starts at offset 1088*k and holds
//
//	[0, 32)      the 16 f16 scales of block 2k   (row r at 2r, little-endian)
//	[32, 64)     the 16 f16 scales of block 2k+1
//	[64, 576)    the quants of block 2k
//	[576, 1088)  the quants of block 2k+1
//
// When nb is odd the last block (j = nb-1) stands alone at offset
// 1088*(nb-1)/2: scales at [0, 32), quants at [32, 544).
//
// The 512 quant bytes of a block are eight 64-byte vectors: byte
// 64*g + 4*r + i (g = 0..7, r = 0..15, i = 0..3) is element 4g+i of row r,
// stored unsigned as the int8 quant XOR 0x80 (= quant + 128), because
// VPDPBUSD takes its unsigned operand from the weights. The -128*sum of
// the activations this adds is removed with q80xActSums.

// q80xTile is the number of rows interleaved in one tile.
const q80xTile = 16

// q80xBlockOffsets returns the offsets, within a tile of nb blocks, of the
// scales and of the quants of block j.
func q80xBlockOffsets(nb, j int) (scales, quants int) {
	base := 1088 * (j / 2)
	if j%2 == 0 && j == nb-1 {
		return base, base + 32
	}
	return base + 32*(j%2), base + 64 + 512*(j%2)
}

// q80xCheck validates the shape and buffer lengths of a pack or unpack.
func q80xCheck(dst, src []byte, rows, cols int) error {
	if rows <= 0 || cols <= 0 || rows%q80xTile != 0 || cols%32 != 0 {
		return fmt.Errorf("q80x: %d×%d matrix: rows must be a positive multiple of 16 and cols of 32", rows, cols)
	}
	n := rows * (cols / 32) * 34
	if len(src) != n || len(dst) != n {
		return fmt.Errorf("q80x: %d×%d matrix needs %d bytes, have src %d, dst %d", rows, cols, n, len(src), len(dst))
	}
	return nil
}

// packQ80x converts row-major Q8_0 data (src) of a rows × cols matrix to
// the interleaved layout (dst, same length). dst and src must not overlap.
func packQ80x(dst, src []byte, rows, cols int) error {
	if err := q80xCheck(dst, src, rows, cols); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	nb := cols / 32
	rb := 34 * nb
	for t := 0; t < rows/q80xTile; t++ {
		tile := dst[t*q80xTile*rb : (t+1)*q80xTile*rb]
		for j := 0; j < nb; j++ {
			so, qo := q80xBlockOffsets(nb, j)
			for r := 0; r < q80xTile; r++ {
				blk := src[(t*q80xTile+r)*rb+34*j : (t*q80xTile+r)*rb+34*j+34]
				tile[so+2*r] = blk[0]
				tile[so+2*r+1] = blk[1]
				for e := 0; e < 32; e++ {
					tile[qo+64*(e/4)+4*r+e%4] = blk[2+e] ^ 0x80
				}
			}
		}
	}
	return nil
}

// unpackQ80x is the inverse of packQ80x.
func unpackQ80x(dst, src []byte, rows, cols int) error {
	if err := q80xCheck(dst, src, rows, cols); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	nb := cols / 32
	rb := 34 * nb
	for t := 0; t < rows/q80xTile; t++ {
		tile := src[t*q80xTile*rb : (t+1)*q80xTile*rb]
		for j := 0; j < nb; j++ {
			for r := 0; r < q80xTile; r++ {
				blockQ80x(tile, nb, r, j, dst[(t*q80xTile+r)*rb+34*j:][:34])
			}
		}
	}
	return nil
}

// q80xActSums stores, for every 4-element group g of every block j of the
// activation row qs, s[8j+g] = -128 * (sum of its four quants): the term
// that turns VPDPBUSD's sum of (quant+128)*activation into the signed
// integer lane. Computed once per activation row and shared by all tiles.
// len(s) must be len(qs)/4.
func q80xActSums(qs []int8, s []int32) {
	s = s[:len(qs)/4]
	for g := range s {
		q := qs[4*g : 4*g+4]
		s[g] = -128 * (int32(q[0]) + int32(q[1]) + int32(q[2]) + int32(q[3]))
	}
}

// dotQ80xRef computes the 16 rows of one interleaved tile (nb blocks)
// against one activation row (qs, d) in the canonical Q8_0 order, reading
// the packed layout directly: the pure-Go reference of the tile kernels.
func dotQ80xRef(tile []byte, nb int, qs []int8, d []float32, out *[16]float32) {
	_ = tile[544*nb-1]
	_ = qs[32*nb-1]
	_ = d[nb-1]
	var acc [q80xTile][8]float32
	for j := 0; j < nb; j++ {
		so, qo := q80xBlockOffsets(nb, j)
		a := qs[32*j : 32*j+32]
		for r := 0; r < q80xTile; r++ {
			dd := FP16ToFP32(binary.LittleEndian.Uint16(tile[so+2*r:])) * d[j]
			for g := 0; g < 8; g++ {
				q := tile[qo+64*g+4*r : qo+64*g+4*r+4]
				var p int32
				for i := 0; i < 4; i++ {
					p += int32(int8(q[i]^0x80)) * int32(a[4*g+i])
				}
				acc[r][g] = fma32(dd, float32(p), acc[r][g])
			}
		}
	}
	for r := range out {
		out[r] = hsum8(&acc[r])
	}
}

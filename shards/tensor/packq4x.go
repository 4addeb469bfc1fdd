package tensor

import (
	"encoding/binary"
	"fmt"
	"unsafe"
)

// Q4_0 "x" layout: the rows of a Q4_0 matrix regrouped sixteen at a time so
// that one 64-byte load holds four quant bytes of each of sixteen rows, and
// a VPDPBUSD against a broadcast activation dword adds into dword lane r the
// partial dot of row r (no horizontal sums), while a tile of sixteen rows is
// read as one sequential stream. The packed matrix has exactly the bytes of
// the row-major one (18 per block and row), so it can replace it in place.
//
// Tile t (rows 16t..16t+15) occupies bytes [t*T, (t+1)*T) with T = nb*288
// (nb = cols/32 blocks per row). Inside a tile the blocks go in pairs; pair g
// (blocks 2g and 2g+1) starts at g*576 and holds
//
//	[  0, 256)  quants of block 2g
//	[256, 512)  quants of block 2g+1
//	[512, 544)  the sixteen f16 scales of block 2g, row 0 first
//	[544, 576)  the sixteen f16 scales of block 2g+1
//
// and, when nb is odd, the last block (nb-1) is alone at (nb-1)/2*576 with
// its quants at [0, 256) and its scales at [256, 288). The quants of a
// block are four 64-byte groups: byte 64k + 4r + i is quant byte 4k+i of row
// r (the ggml byte whose low nibble is element 4k+i and whose high nibble is
// element 16+4k+i), k = 0..3, r = 0..15, i = 0..3. Pairing the blocks keeps
// every 64-byte quant group on a 64-byte boundary when the tile is (and nb
// is even, as in every real model).

const (
	q40xRows      = 16                       // rows per tile
	q40xQuant     = q40xRows * 16            // quant bytes of one block in a tile
	q40xScale     = q40xRows * 2             // scale bytes of one block in a tile
	q40xBlock     = q40xQuant + q40xScale    // 288: one block of sixteen rows
	q40xPair      = 2 * q40xBlock            // 576: two blocks
	q40xBlockSize = 18                       // bytes of a ggml Q4_0 block
	q40xTileBytes = q40xRows * q40xBlockSize // bytes per block column of a tile
)

// q40xOffsets returns where, inside a packed tile of nb blocks, the quants
// and the scales of block j start.
func q40xOffsets(nb, j int) (quants, scales int) {
	base := j / 2 * q40xPair
	if j|1 < nb { // j belongs to a complete pair
		return base + j%2*q40xQuant, base + 2*q40xQuant + j%2*q40xScale
	}
	return base, base + q40xQuant
}

// q40xCheck validates the shape and buffer lengths of a pack or unpack.
func q40xCheck(op string, dst, src []byte, rows, cols int) error {
	switch {
	case rows <= 0 || rows%q40xRows != 0:
		return fmt.Errorf("tensor: %s: %d rows, want a positive multiple of %d", op, rows, q40xRows)
	case cols <= 0 || cols%32 != 0:
		return fmt.Errorf("tensor: %s: %d columns, want a positive multiple of 32", op, cols)
	}
	need := rows * (cols / 32) * q40xBlockSize
	if len(src) != need || len(dst) != need {
		return fmt.Errorf("tensor: %s: %d×%d Q4_0 takes %d bytes, have src %d, dst %d", op, rows, cols, need, len(src), len(dst))
	}
	return nil
}

// packQ4_0x rearranges a row-major Q4_0 matrix (ggml blocks, rows × cols)
// from src into the x layout in dst (same length; they must not overlap).
func packQ4_0x(dst, src []byte, rows, cols int) error {
	if err := q40xCheck("pack Q4_0x", dst, src, rows, cols); err != nil {
		return err
	}
	nb := cols / 32
	rb := nb * q40xBlockSize
	for t := 0; t < rows/q40xRows; t++ {
		tile := dst[t*q40xRows*rb : (t+1)*q40xRows*rb]
		for j := 0; j < nb; j++ {
			qo, so := q40xOffsets(nb, j)
			for r := 0; r < q40xRows; r++ {
				blk := src[(t*q40xRows+r)*rb+j*q40xBlockSize:][:q40xBlockSize]
				tile[so+2*r] = blk[0]
				tile[so+2*r+1] = blk[1]
				for k := 0; k < 4; k++ {
					copy(tile[qo+64*k+4*r:][:4], blk[2+4*k:][:4])
				}
			}
		}
	}
	return nil
}

// unpackQ4_0x is the inverse of packQ4_0x.
func unpackQ4_0x(dst, src []byte, rows, cols int) error {
	if err := q40xCheck("unpack Q4_0x", dst, src, rows, cols); err != nil {
		return err
	}
	nb := cols / 32
	rb := nb * q40xBlockSize
	for t := 0; t < rows/q40xRows; t++ {
		tile := src[t*q40xRows*rb : (t+1)*q40xRows*rb]
		for j := 0; j < nb; j++ {
			for r := 0; r < q40xRows; r++ {
				blockQ4_0x(tile, nb, r, j, dst[(t*q40xRows+r)*rb+j*q40xBlockSize:][:q40xBlockSize])
			}
		}
	}
	return nil
}

// biasQ4_0x writes, for each 32-element block b of one activation row qs,
// bias[b] = -8 * sum(qs[32b:32b+32]): the kernels multiply the unsigned
// nibbles n (0..15) and add this to get sum((n-8)*a) exactly. Computed once
// per activation row and shared by all tiles. It adds eight bytes at a
// time: with each byte's sign bit flipped (v+128, unsigned), pairs of
// bytes are summed into 16-bit lanes that cannot overflow (32 bytes: at
// most 8*255 per lane), then the lanes.
func biasQ4_0x(bias []int32, qs []int8) {
	if len(bias) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&qs[0])), len(qs))[:32*len(bias)]
	const flip, lo = 0x8080808080808080, 0x00ff00ff00ff00ff
	for i := range bias {
		blk := (*[32]byte)(b[32*i:])
		w0 := binary.LittleEndian.Uint64(blk[0:]) ^ flip
		w1 := binary.LittleEndian.Uint64(blk[8:]) ^ flip
		w2 := binary.LittleEndian.Uint64(blk[16:]) ^ flip
		w3 := binary.LittleEndian.Uint64(blk[24:]) ^ flip
		lanes := (w0&lo + w0>>8&lo) + (w1&lo + w1>>8&lo) + (w2&lo + w2>>8&lo) + (w3&lo + w3>>8&lo)
		u := int32(lanes * 0x0001000100010001 >> 48) // sum of the four lanes
		bias[i] = -8 * (u - 32*128)
	}
}

// dotQ4_0xRef computes the sixteen dot products of a packed tile (nb blocks)
// with one activation row (qs, d), in the canonical order of dotQ4_0, into
// out[:16]. It is the reference the SIMD kernels are tested against.
func dotQ4_0xRef(tile []byte, nb int, qs []int8, d []float32, out []float32) {
	tile = tile[:nb*q40xTileBytes]
	out = out[:q40xRows]
	for r := range out {
		var acc float32
		for j := 0; j < nb; j++ {
			qo, so := q40xOffsets(nb, j)
			a := qs[32*j : 32*j+32]
			var sum int32
			for k := 0; k < 4; k++ {
				for i := 0; i < 4; i++ {
					q := tile[qo+64*k+4*r+i]
					e := 4*k + i
					sum += (int32(q&0xf)-8)*int32(a[e]) + (int32(q>>4)-8)*int32(a[e+16])
				}
			}
			acc = fma32(float32(sum), f16at(tile[so+2*r:])*d[j], acc)
		}
		out[r] = acc
	}
}

package tensor

import "fmt"

// The packed layout. A decode step reads every weight once, and the vec
// tile kernels read a tile's rowTile rows side by side, block by block: in
// a row-major matrix that is rowTile interleaved streams of short rows
// (2176 bytes for 2048 Q8_0 columns), which the hardware prefetchers follow
// badly. Packing stores each rowTile-row tile as block 0 of its rows 0..15,
// then block 1 of rows 0..15, and so on (llama.cpp's CPU "repack" buffers
// rest on the same idea), so that a tile is one sequential stream. The
// tiles themselves stay in row order and the bytes of each block are
// unchanged, so the products are bit-identical; only the addressing
// differs (tileLayout).

// Pack returns m in the packed layout when the kernels this CPU runs read
// that layout faster for m's type (the AVX-512 VNNI tiles of Q8_0 and
// Q4_0) and m has a whole number of rowTile-row tiles; otherwise it returns
// m itself. The copy is new memory: m.Data is not referenced by the result
// and may be released by the caller. Packing an already packed matrix
// returns it unchanged. Every function of this package accepts both
// layouts, with the same results.
func Pack(m Matrix) (Matrix, error) {
	if err := m.Validate(); err != nil {
		return Matrix{}, fmt.Errorf("tensor: pack: %w", err)
	}
	if m.packed || !packable(bestKernels, m) {
		return m, nil
	}
	return packMatrix(m), nil
}

// Packed reports whether m is in the packed layout (see Pack).
func (m Matrix) Packed() bool { return m.packed }

// packable reports whether ks has tile kernels that read m packed: a
// strided vec kernel and, if it has one, a strided batch kernel, for a
// type whose product does not depend on the batch size.
func packable(ks *kernelSet, m Matrix) bool {
	t := m.Type
	if !t.Valid() || int(t) >= len(ks.vec) || m.Rows == 0 || m.Rows%rowTile != 0 || m.Cols == 0 || t.BlockSize() == 1 {
		return false
	}
	v, b := ks.vec[t], ks.batch[t]
	return v.fn != nil && v.strided && (b.fn == nil || b.strided) && ks.many[t] == nil
}

// packMatrix copies a valid row-major m with Rows%rowTile == 0 and a block
// type into the packed layout.
func packMatrix(m Matrix) Matrix {
	rb, _ := RowBytes(m.Type, m.Cols)
	bb := m.Type.BlockBytes()
	nb := rb / bb
	out := make([]byte, m.Rows*rb)
	for g := 0; g < m.Rows/rowTile; g++ {
		src, dst := m.Data[g*rowTile*rb:(g+1)*rowTile*rb], out[g*rowTile*rb:(g+1)*rowTile*rb]
		for k := 0; k < rowTile; k++ {
			row := src[k*rb : (k+1)*rb]
			for j := 0; j < nb; j++ {
				copy(dst[(j*rowTile+k)*bb:(j*rowTile+k+1)*bb], row[j*bb:(j+1)*bb])
			}
		}
	}
	p := m
	p.Data, p.packed = out, true
	return p
}

// gatherRow returns row r of m in row-major form: a subslice of m.Data
// if m is not packed, else buf (RowBytes long) holding the row's blocks.
func (m Matrix) gatherRow(r int, buf []byte) []byte {
	rb, _ := RowBytes(m.Type, m.Cols)
	if !m.packed {
		return m.Data[r*rb : (r+1)*rb]
	}
	bb := m.Type.BlockBytes()
	base := r/rowTile*rowTile*rb + r%rowTile*bb
	for j := 0; j < rb/bb; j++ {
		o := base + j*rowTile*bb
		copy(buf[j*bb:(j+1)*bb], m.Data[o:o+bb])
	}
	return buf[:rb]
}

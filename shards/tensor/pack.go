package tensor

import (
	"fmt"
	"runtime"
	"sync"
)

// Packed layouts. A decode step reads every weight once, and the vec tile
// kernels read a tile's rows side by side, block by block: in a row-major
// matrix that is sixteen (or eight) interleaved streams of short rows. The
// package reads two packed layouts, both made of groups of rows (Matrix.group):
// the x layouts (xlayout.go), which Pack produces for Q4_0 and Q8_0, and a
// block-interleaved one (each group stores block 0 of its rows, then block
// 1, ...; llama.cpp's CPU "repack" buffers rest on the same idea), which
// the strided tile kernels read (tileLayout: row stride = block bytes,
// block stride = group × block bytes) and Pack produces for the types the
// best set names in kernelSet.group (the AVX-512 set: Q4_K and Q6_K, see
// addKTiles): a group is then one sequential stream, which the hardware
// prefetchers follow, where eight interleaved rows defeat them.

// Pack returns m in the type's x layout (xlayout.go: Q4_0, Q8_0) when the
// CPU runs its kernels and m has a whole number of tiles, or in the
// block-interleaved layout when the best kernel set asks for it
// (kernelSet.group) and m has a whole number of groups; otherwise it
// returns m itself. The copy is new memory: m.Data is not referenced by the
// result and may be released by the caller. Packing an already packed
// matrix returns it unchanged. Every function of this package accepts
// every layout, with the same results.
func Pack(m Matrix) (Matrix, error) {
	if err := m.Validate(); err != nil {
		return Matrix{}, fmt.Errorf("tensor: pack: %w", err)
	}
	if m.Type == BF16 && bestKernels.bf16Guard != nil {
		m.bf16e, m.bf16Known = m.bf16Exponents(), true
	}
	switch {
	case m.group > 0:
		return m, nil
	case xPackable(bestKernels, m):
		return packX(m)
	}
	if g := groupOf(bestKernels, m); g > 0 {
		return packGroups(m, g), nil
	}
	return m, nil
}

// groupOf is the group size of the block-interleaved layout in which Pack
// lays m out for ks, or 0 for none: ks.group of m's type, where m's rows
// fill whole groups.
func groupOf(ks *kernelSet, m Matrix) int {
	t := m.Type
	if !t.Valid() || int(t) >= len(ks.group) {
		return 0
	}
	if g := ks.group[t]; g > 0 && m.Rows%g == 0 {
		return g
	}
	return 0
}

// packGroups copies a valid row-major m with a block type into the packed
// layout with groups of g rows (g divides rowTile and m.Rows). Large
// matrices are copied by several goroutines (inParallel): reading the
// source of a model's matrices from its mapping is bound by page faults,
// which proceed in parallel.
func packGroups(m Matrix, g int) Matrix {
	rb, _ := RowBytes(m.Type, m.Cols)
	out := make([]byte, m.Rows*rb)
	inParallel(m.Rows/g, len(out), func(lo, hi int) {
		packRange(out, m.Data, rb, m.Type.BlockBytes(), g, lo, hi)
	})
	p := m
	p.Data, p.group = out, g
	return p
}

// packRange packs groups [lo, hi) of g rows of rb bytes (blocks of bb)
// from src into dst.
func packRange(dst, src []byte, rb, bb, g, lo, hi int) {
	nb := rb / bb
	for r0 := lo * g; r0 < hi*g; r0 += g {
		s, d := src[r0*rb:(r0+g)*rb], dst[r0*rb:(r0+g)*rb]
		for k := 0; k < g; k++ {
			row := s[k*rb : (k+1)*rb]
			for j := 0; j < nb; j++ {
				copy(d[(j*g+k)*bb:(j*g+k+1)*bb], row[j*bb:(j+1)*bb])
			}
		}
	}
}

// Packed reports whether m is in the packed layout (see Pack).
func (m Matrix) Packed() bool { return m.group > 0 }

// inParallel calls fn on consecutive ranges that cover [0, n) and waits for
// them: for a job of size bytes of at least 8 MB, on one goroutine per CPU
// (each at least 4 MB), else on the caller alone.
func inParallel(n, size int, fn func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), size>>22, n))
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(n*w/workers, n*(w+1)/workers)
		}()
	}
	fn(0, n/workers)
	wg.Wait()
}

// gatherRow returns row r of m in row-major form: a subslice of m.Data
// if m is not packed, else buf (RowBytes long) holding the row's blocks.
func (m Matrix) gatherRow(r int, buf []byte) []byte {
	rb, _ := RowBytes(m.Type, m.Cols)
	if m.group == 0 {
		return m.Data[r*rb : (r+1)*rb]
	}
	bb := m.Type.BlockBytes()
	for j := 0; j < rb/bb; j++ {
		copy(buf[j*bb:(j+1)*bb], m.block(r, j, buf[j*bb:(j+1)*bb]))
	}
	return buf[:rb]
}

// block returns block j of row r of m in the type's row-major (ggml)
// form: a subslice of m.Data, or, for an x layout, scratch (at least a
// block long) rebuilt from the tile.
func (m Matrix) block(r, j int, scratch []byte) []byte {
	bb := m.Type.BlockBytes()
	rb := m.Cols / m.Type.BlockSize() * bb
	g := max(m.group, 1)
	if m.x {
		// Direct calls, not a func value: scratch then stays on the
		// caller's stack.
		tile := m.Data[r/g*g*rb : (r/g+1)*g*rb]
		switch m.Type {
		case Q4_0:
			blockQ4_0x(tile, rb/bb, r%g, j, scratch[:bb])
		case Q8_0:
			blockQ80x(tile, rb/bb, r%g, j, scratch[:bb])
		}
		return scratch[:bb]
	}
	o := r/g*g*rb + r%g*bb + j*g*bb
	return m.Data[o : o+bb]
}

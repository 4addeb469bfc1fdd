package tensor

import (
	"fmt"
	"runtime"
	"sync"
)

// The packed layout. A decode step reads every weight once, and the vec
// tile kernels read a tile's rows side by side, block by block: in a
// row-major matrix that is sixteen (or eight) interleaved streams of short
// rows (2176 bytes for 2048 Q8_0 columns), which the hardware prefetchers
// follow badly. Packing stores each group of as many rows as the type's
// vec kernel takes (16 for Q8_0/Q4_0, 8 for Q4_K/Q6_K) as block 0 of its
// rows, then block 1 of its rows, and so on (llama.cpp's CPU "repack"
// buffers rest on the same idea), so that a vec tile is one sequential
// stream. The groups stay in row order and the bytes of each block are
// unchanged, so the products are bit-identical; only the addressing
// differs (tileLayout: row stride = block bytes, block stride = group ×
// block bytes).

// Pack returns m in a packed layout when the kernels this CPU runs read
// one faster for m's type and m has a whole number of tiles: the type's x
// layout where the CPU runs its kernels (xlayout.go: Q4_0, Q8_0), else the
// block-interleaved layout above for the types the kernel set marks
// (kernelSet.pack; none at present: the strided Q8_0, Q4_0, Q4_K and Q6_K
// tiles read it, but measured no faster on it than on row-major rows with
// their prefetching); otherwise it returns m itself. The copy is new memory: m.Data is not referenced by the result and may
// be released by the caller. Packing an already packed matrix returns it
// unchanged. Every function of this package accepts both layouts, with the
// same results.
func Pack(m Matrix) (Matrix, error) {
	if err := m.Validate(); err != nil {
		return Matrix{}, fmt.Errorf("tensor: pack: %w", err)
	}
	if m.group > 0 {
		return m, nil
	}
	if xPackable(bestKernels, m) {
		return packX(m)
	}
	if !packable(bestKernels, m) {
		return m, nil
	}
	return packGroups(m, bestKernels.vec[m.Type].rows), nil
}

// Packed reports whether m is in the packed layout (see Pack).
func (m Matrix) Packed() bool { return m.group > 0 }

// packable reports whether Pack packs m for ks: ks packs m's type and has
// tile kernels that read m packed in groups of its vec kernel's rows.
func packable(ks *kernelSet, m Matrix) bool {
	t := m.Type
	if !t.Valid() || int(t) >= len(ks.vec) || !ks.pack[t] || m.Rows == 0 || m.Cols == 0 {
		return false
	}
	return readsPacked(ks, m)
}

// readsPacked reports whether ks's tile kernels read m packed in groups of
// its vec kernel's rows: a strided vec kernel and, if it has one, a
// strided batch kernel whose tiles fit in a group, for a block type whose
// product does not depend on the batch size.
func readsPacked(ks *kernelSet, m Matrix) bool {
	t := m.Type
	if !t.Valid() || int(t) >= len(ks.vec) || t.BlockSize() == 1 {
		return false
	}
	v, b := ks.vec[t], ks.batch[t]
	if v.fn == nil || !v.strided || rowTile%v.rows != 0 || m.Rows%v.rows != 0 || ks.many[t] != nil {
		return false
	}
	return b.fn == nil || (b.strided && v.rows%b.rows == 0)
}

// packMatrix copies a valid row-major m with a block type into the packed
// layout with the groups Pack would use on this CPU (rowTile rows where
// its kernels do not read the layout); m.Rows must be a multiple of them.
// Unlike Pack it packs whatever the kernels, for tests and benchmarks.
func packMatrix(m Matrix) Matrix {
	g := rowTile
	if v := bestKernels.vec[m.Type]; v.fn != nil && v.strided && rowTile%v.rows == 0 {
		g = v.rows
	}
	return packGroups(m, g)
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

// gatherRow returns row r of m in row-major form: a subslice of m.Data
// if m is not packed, else buf (RowBytes long) holding the row's blocks.
func (m Matrix) gatherRow(r int, buf []byte) []byte {
	rb, _ := RowBytes(m.Type, m.Cols)
	g := m.group
	if g == 0 {
		return m.Data[r*rb : (r+1)*rb]
	}
	bb := m.Type.BlockBytes()
	if m.x {
		for j := 0; j < rb/bb; j++ {
			m.xBlock(r, j, buf[j*bb:(j+1)*bb])
		}
		return buf[:rb]
	}
	base := r/g*g*rb + r%g*bb
	for j := 0; j < rb/bb; j++ {
		o := base + j*g*bb
		copy(buf[j*bb:(j+1)*bb], m.Data[o:o+bb])
	}
	return buf[:rb]
}

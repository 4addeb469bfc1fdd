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
// block stride = group × block bytes) but which Pack chooses for no type:
// those kernels measured no faster on it than on row-major rows with their
// next-tile prefetch. Only the tests build it (packgroups_test.go).

// Pack returns m in the type's x layout (xlayout.go: Q4_0, Q8_0) when the
// CPU runs its kernels and m has a whole number of tiles; otherwise it
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
	if m.group > 0 || !xPackable(bestKernels, m) {
		return m, nil
	}
	return packX(m)
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

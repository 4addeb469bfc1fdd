package tensor

import (
	"cmp"
	"fmt"
	"sync"
)

// The x layouts (packq4x.go for Q4_0, packq8x.go for Q8_0) regroup a
// matrix sixteen rows at a time so that one 64-byte load holds four quant
// bytes of each of the sixteen rows: a VPDPBUSD against a broadcast
// activation dword then adds the partial dot of row r into dword lane r,
// with no horizontal sums, and a tile is one sequential stream. Pack uses
// them where the CPU runs their kernels (kernelSet.x); every function of
// the package reads them, the other kernel sets through gathered rows.

// xFormat is what the package needs to know of one type's x layout beyond
// its kernels.
type xFormat struct {
	// pack converts a row-major rows × cols matrix (src) into dst.
	pack func(dst, src []byte, rows, cols int) error
	// sums computes, for one activation row qs, the per-row terms the
	// kernels add to turn their unsigned products into signed sums (see
	// biasQ4_0x, q80xActSums): perRow(len(qs)) of them.
	sums   func(qs []int8, s []int32)
	perRow func(cols int) int
}

// xFormatOf returns the x layout of t (pack is nil if t has none).
func xFormatOf(t Type) xFormat {
	switch t {
	case Q4_0:
		return xFormat{pack: packQ4_0x, sums: func(qs []int8, s []int32) { biasQ4_0x(s, qs) }, perRow: func(cols int) int { return cols / 32 }}
	case Q8_0:
		return xFormat{pack: packQ80x, sums: q80xActSums, perRow: func(cols int) int { return cols / 4 }}
	}
	return xFormat{}
}

// xTile is a kernel for x-packed tiles: it computes the sixteen rows of
// one tile (tile holds all its blocks) for activation positions i..i+p-1,
// 1 <= p <= pos, into out[k*16+r] for row r and position k.
type xTile struct {
	pos int
	fn  func(tile []byte, a *acts, i, p int, out []float32)
	// run, if set, computes consecutive whole tiles (tiles holds them all)
	// for the single position i into out[16*t+r] in one call, for
	// products of one position (decode), which then skip a call and a
	// copy per tile.
	run func(tiles []byte, a *acts, i int, out []float32)
}

// xPackable reports whether ks has x kernels for m's type and m's rows
// form whole tiles.
func xPackable(ks *kernelSet, m Matrix) bool {
	t := m.Type
	return t.Valid() && int(t) < len(ks.x) && ks.x[t].fn != nil && m.Rows > 0 && m.Cols > 0 && m.Rows%rowTile == 0
}

// packX copies a valid row-major m of a type with an x layout into it,
// tiles in parallel as packGroups does.
func packX(m Matrix) (Matrix, error) {
	f := xFormatOf(m.Type)
	rb, _ := RowBytes(m.Type, m.Cols)
	out := make([]byte, m.Rows*rb)
	tb := rowTile * rb
	var mu sync.Mutex
	var first error
	inParallel(m.Rows/rowTile, len(out), func(lo, hi int) {
		if err := f.pack(out[lo*tb:hi*tb], m.Data[lo*tb:hi*tb], (hi-lo)*rowTile, m.Cols); err != nil {
			mu.Lock()
			first = cmp.Or(first, err)
			mu.Unlock()
		}
	})
	if first != nil {
		return Matrix{}, fmt.Errorf("tensor: pack %v %dx%d: %w", m.Type, m.Rows, m.Cols, first)
	}
	p := m
	p.Data, p.group, p.x = out, rowTile, true
	return p, nil
}

// prepareX computes the x kernels' per-row activation terms for the n
// activation rows that prepare converted.
func (a *acts) prepareX(n int) {
	f := xFormatOf(a.t)
	a.xstride = f.perRow(a.cols)
	a.xs = grow(a.xs, n*a.xstride)
	for i := 0; i < n; i++ {
		f.sums(a.qrow(i), a.xs[i*a.xstride:(i+1)*a.xstride])
	}
}

// blockQ4_0x and blockQ80x write block j of row r of an x tile of nb
// blocks to dst in the type's row-major (ggml) form (Matrix.block).

func blockQ4_0x(tile []byte, nb, r, j int, dst []byte) {
	qo, so := q40xOffsets(nb, j)
	dst[0], dst[1] = tile[so+2*r], tile[so+2*r+1]
	for k := 0; k < 4; k++ {
		copy(dst[2+4*k:][:4], tile[qo+64*k+4*r:][:4])
	}
}

func blockQ80x(tile []byte, nb, r, j int, dst []byte) {
	so, qo := q80xBlockOffsets(nb, j)
	dst[0], dst[1] = tile[so+2*r], tile[so+2*r+1]
	for e := 0; e < 32; e++ {
		dst[2+e] = tile[qo+64*(e/4)+4*r+e%4] ^ 0x80
	}
}

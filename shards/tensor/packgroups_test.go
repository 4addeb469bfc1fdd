package tensor

// The block-interleaved layout (group > 0 without x, see pack.go) is built
// only here: the strided tile kernels and the package's readers of packed
// matrices are checked on it, though Pack chooses it for no type.

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

// packMatrix copies a valid row-major m with a block type into the
// block-interleaved layout in groups of the rows of this CPU's vec kernel
// for its type (rowTile rows where its kernels do not read the layout);
// m.Rows must be a multiple of them.
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

package tensor

// Helpers for the block-interleaved layout (group > 0 without x, see
// pack.go): the tests build it for every type with block kernels, though
// Pack chooses it only for the types of kernelSet.group.

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

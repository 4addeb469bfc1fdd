//go:build amd64 && !purego

package tensor

// hasQ40Vec16x2 reports whether the CPU runs q40Vec16x2: what hasQ0Tiles
// reports plus GFNI, whose affine byte transform extracts the high nibbles
// in one instruction (every CPU with AVX-512 VBMI and VNNI so far has it,
// but a hypervisor may hide it).
func hasQ40Vec16x2() bool { return hasQ40xTiles() }

package x86sim

// OpArgs are the operands of one vector instruction, in Intel's order
// (the Go assembler lists them reversed, immediate first: "VPTERNLOGD $0x96,
// Z1, Z2, Z3" is Intel's "vpternlogd zmm3, zmm2, zmm1, 0x96").
type OpArgs struct {
	// Dst is the destination. On entry it holds the destination's old
	// value (a register's, or for a store the memory's), which
	// accumulating, permuting and merging forms read (VPDPBUSD,
	// VFMADD231PS, VPERMT2B, VPTERNLOGD, VMOVHLPS's upper half, ...).
	Dst *Vec
	// Src1 is the first source of a three-operand form (Intel's second
	// operand, EVEX/VEX.vvvv); nil in two-operand forms.
	Src1 *Vec
	// Src2 is the last source: a register, or a memory operand loaded with
	// Mem(Bits) bytes (the rest zero), or with embedded broadcast (.BCST)
	// the element at the address repeated over Bits. In two-operand forms
	// ("VCVTDQ2PS Z1, Z2", "VPSRLW $4, Z1, Z2") the only source is Src2.
	// A general-purpose register source (VPBROADCASTD AX, Z1) is given as
	// its value in the low bytes.
	Src2 *Vec
	// Imm is the immediate operand, if the form has one.
	Imm uint8
	// Bits is the vector length of the operation: the widest vector
	// register among the operands (128, 256 or 512). The interpreter
	// writes the destination register's width of Dst back and, for VEX
	// and EVEX forms, zeroes the register above it.
	Bits int
	// Mask is the value of the opmask register ({k1}) for ops that use it
	// as an operand (Blend); all ones when the instruction names none.
	Mask uint64
}

// VecOp is the semantics of one vector mnemonic (as the Go assembler
// spells it, without the .BCST/.Z suffixes).
type VecOp struct {
	// Exec computes the result into a.Dst, lanes below the destination's
	// width. It does not apply write masks (the interpreter merges or
	// zeroes by Elem) unless Blend is set.
	Exec func(a *OpArgs)
	// Elem is the element size in bytes for write masking and embedded
	// broadcast; 0 when the instruction takes neither.
	Elem int
	// Mem is how many bytes a memory operand covers at vector length
	// bits (loaded into Src2, or stored from Dst); nil means bits/8.
	Mem func(bits int) int
	// Blend says Exec reads a.Mask itself (VPBLENDMW: the mask selects
	// between the sources); the interpreter then does not merge.
	Blend bool
}

// vectorOps is the table of the vector instructions the interpreter knows,
// keyed by mnemonic. It is built once per Machine. The semantics live in
// ops_*.go by family.
func vectorOps() map[string]VecOp {
	m := map[string]VecOp{}
	addLogicOps(m)
	addIntOps(m)
	addFloatOps(m)
	addDoubleOps(m)
	addMoveOps(m)
	addPermOps(m)
	return m
}

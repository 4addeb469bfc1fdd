#include "textflag.h"

// func Masks(x, y *[16]float32, out *[32]float32, k *[4]uint64)
// Compares into opmasks (plain and under a write mask), a zeroing masked
// register move, a masked store and KORTESTW's flags; x86sim's tests
// check the results against Go (no AVX-512 CPU to run it on).
TEXT ·Masks(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ k+24(FP), BX
	VMOVUPS (SI), Z1
	VMOVUPS (DI), Z2
	VCMPPS $1, Z2, Z1, K1
	MOVL $0x00ff, AX
	KMOVW AX, K2
	VCMPPS $1, Z2, Z1, K2, K3
	KMOVW K1, CX
	MOVQ CX, (BX)
	KMOVW K3, CX
	MOVQ CX, 8(BX)
	VMOVUPS.Z Z1, K1, Z4
	VMOVUPS Z4, (DX)
	VMOVUPS Z2, K3, 64(DX)
	XORQ CX, CX
	KORTESTW K3, K3
	JNE 2(PC)
	ORQ $1, CX
	KXNORW K0, K0, K5
	KORTESTW K5, K5
	JCC 2(PC)
	ORQ $2, CX
	MOVQ CX, 16(BX)
	VZEROUPPER
	RET

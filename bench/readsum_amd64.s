#include "textflag.h"

// func readSumAVX2(p *byte, n int) uint64
// Sums the 64-bit little-endian words of p[0:n] (n a multiple of 512) in
// one sequential stream: eight 32-byte loads per iteration into four
// accumulators, so the loop is bound by memory, not by the adds. This is
// how a matrix-vector product reads its weights (one stream per thread).
TEXT ·readSumAVX2(SB), NOSPLIT, $0-24
	MOVQ  p+0(FP), SI
	MOVQ  n+8(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	SHRQ  $8, CX
	JZ    reduce1

loop1:
	VPADDQ 0(SI), Y0, Y0
	VPADDQ 32(SI), Y1, Y1
	VPADDQ 64(SI), Y2, Y2
	VPADDQ 96(SI), Y3, Y3
	VPADDQ 128(SI), Y0, Y0
	VPADDQ 160(SI), Y1, Y1
	VPADDQ 192(SI), Y2, Y2
	VPADDQ 224(SI), Y3, Y3
	ADDQ   $256, SI
	DECQ   CX
	JNZ    loop1

reduce1:
	VPADDQ       Y1, Y0, Y0
	VPADDQ       Y3, Y2, Y2
	VPADDQ       Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDQ       X1, X0, X0
	MOVQ         X0, AX
	VZEROUPPER
	MOVQ         AX, ret+16(FP)
	RET

// func readSum4AVX2(p *byte, n int) uint64
// The same sum, reading p as four streams (its quarters) advanced together,
// 128 bytes each per iteration. Several concurrent streams keep more
// cache-line fills in flight than one, which reaches the memory system's
// peak read rate rather than the rate of one sequential reader.
TEXT ·readSum4AVX2(SB), NOSPLIT, $0-24
	MOVQ  p+0(FP), SI
	MOVQ  n+8(FP), CX
	SHRQ  $2, CX
	LEAQ  (SI)(CX*1), DI
	LEAQ  (DI)(CX*1), R8
	LEAQ  (R8)(CX*1), R9
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	SHRQ  $7, CX
	JZ    reduce4
	XORQ  DX, DX

loop4:
	VPADDQ (SI)(DX*1), Y0, Y0
	VPADDQ 32(SI)(DX*1), Y0, Y0
	VPADDQ 64(SI)(DX*1), Y0, Y0
	VPADDQ 96(SI)(DX*1), Y0, Y0
	VPADDQ (DI)(DX*1), Y1, Y1
	VPADDQ 32(DI)(DX*1), Y1, Y1
	VPADDQ 64(DI)(DX*1), Y1, Y1
	VPADDQ 96(DI)(DX*1), Y1, Y1
	VPADDQ (R8)(DX*1), Y2, Y2
	VPADDQ 32(R8)(DX*1), Y2, Y2
	VPADDQ 64(R8)(DX*1), Y2, Y2
	VPADDQ 96(R8)(DX*1), Y2, Y2
	VPADDQ (R9)(DX*1), Y3, Y3
	VPADDQ 32(R9)(DX*1), Y3, Y3
	VPADDQ 64(R9)(DX*1), Y3, Y3
	VPADDQ 96(R9)(DX*1), Y3, Y3
	ADDQ   $128, DX
	DECQ   CX
	JNZ    loop4

reduce4:
	VPADDQ       Y1, Y0, Y0
	VPADDQ       Y3, Y2, Y2
	VPADDQ       Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDQ       X1, X0, X0
	MOVQ         X0, AX
	VZEROUPPER
	MOVQ         AX, ret+16(FP)
	RET

//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels for BF16 weights in llama.cpp's two BF16 orders
// (bf16order.go), without VDPBF16PS. A 32-byte load holds 16 bf16 values,
// lane i the pair (2i, 2i+1): the odd one widened to float32 is the dword
// AND 0xFFFF0000, the even one the dword shifted left 16, so lane i of an
// 8-lane accumulator takes odd product, then even product, each with its
// own VMULPS and VADDPS, as VDPBF16PS's lane does. Without MXCSR's DAZ and
// FTZ the multiplies and adds round exactly as the Go code's float32
// operations; the instruction's (and dpbf16's) flushing of subnormal inputs
// and sums can only change a result if some operand of those operations
// is subnormal, and then the denormal-operand flag (MXCSR.DE) is set. The
// kernels clear the status flags on entry, reduce their accumulators
// (whose last sums thus become operands too), and return the DE flag;
// the Go wrappers recompute a flagged call with the Go kernels. MXCSR is
// restored on return.

// MXCSR_ENTER saves MXCSR at 0(SP) and loads it with its flags cleared.
#define MXCSR_ENTER \
	STMXCSR 0(SP);          \
	MOVL    0(SP), AX;      \
	ANDL    $-64, AX;       \
	MOVL    AX, 4(SP);      \
	LDMXCSR 4(SP)

// MXCSR_EXIT puts the DE flag raised since MXCSR_ENTER in AX (2 or 0) and
// restores MXCSR.
#define MXCSR_EXIT \
	STMXCSR 4(SP);     \
	MOVL    4(SP), AX; \
	ANDL    $2, AX;    \
	LDMXCSR 0(SP)

// BF16_HSUM(ACC, XACC, DST): the eight lanes of ACC summed in reduce16's
// order from its second step on (u_i = t_{i+4} + t_i, then (u0+u2) +
// (u1+u3)) into DST. Clobbers Y14.
#define BF16_HSUM(ACC, XACC, DST) \
	VEXTRACTF128 $1, ACC, X14;     \
	VADDPS       XACC, X14, XACC;  \
	VMOVHLPS     XACC, XACC, X14;  \
	VADDPS       X14, XACC, XACC;  \
	VMOVSHDUP    XACC, X14;        \
	VADDSS       X14, XACC, XACC;  \
	VMOVSS       XACC, DST

// BF16_SPLIT(SRC, ODD, EVEN): the 16 bf16 values at SRC as float32, the
// odd ones in ODD and the even ones in EVEN (Y15 holds 0xFFFF0000).
#define BF16_SPLIT(SRC, ODD, EVEN) \
	VMOVDQU SRC, EVEN;        \
	VPAND   Y15, EVEN, ODD;   \
	VPSLLD  $16, EVEN, EVEN

// BF16_MAC(WO, WE, XO, XE, ACC): ACC += WO·XO, then ACC += WE·XE (Y14
// holds the product).
#define BF16_MAC(WO, WE, XO, XE, ACC) \
	VMULPS XO, WO, Y14;  \
	VADDPS Y14, ACC, ACC; \
	VMULPS XE, WE, Y14;  \
	VADDPS Y14, ACC, ACC

// STEP_CHUNK2(off, A, B): 16 elements from byte off of a 64-element step,
// x at R13, rows at R12 and R12+R8, into accumulators A and B.
#define STEP_CHUNK2(off, A, B) \
	BF16_SPLIT(off(R13), Y9, Y8);         \
	BF16_SPLIT(off(R12), Y11, Y10);       \
	BF16_MAC(Y11, Y10, Y9, Y8, A);        \
	BF16_SPLIT(off(R12)(R8*1), Y13, Y12); \
	BF16_MAC(Y13, Y12, Y9, Y8, B)

// STEP_CHUNK1(off, A): STEP_CHUNK2 for the row at R12 only.
#define STEP_CHUNK1(off, A) \
	BF16_SPLIT(off(R13), Y9, Y8);   \
	BF16_SPLIT(off(R12), Y11, Y10); \
	BF16_MAC(Y11, Y10, Y9, Y8, A)

// func bf16StepRowsAVX2(w *byte, rs int, x *uint16, n int, rows int, next int, out *[16][2]float32) int
// ggml_vec_dot_bf16's order for rows weight rows (rs bytes apart) and one
// position, n elements (a multiple of 64): for row r, out[r][0] is the
// reduction of the accumulator of elements [0,32) of each 64, out[r][1]
// that of [32,64). Rows go in pairs sharing the widened x, an odd last one
// alone. next > 0: while a pair is read, the two rows after it are
// prefetched (the rows are contiguous; past the last pair, the tile after
// this one). Returns MXCSR.DE (nonzero: recompute).
TEXT ·bf16StepRowsAVX2(SB), NOSPLIT, $8-64
	MXCSR_ENTER
	MOVQ     w+0(FP), SI
	MOVQ     rs+8(FP), R8
	MOVQ     x+16(FP), DI
	MOVQ     n+24(FP), R9
	SHRQ     $6, R9
	MOVQ     rows+32(FP), R10
	MOVQ     next+40(FP), R11
	MOVQ     out+48(FP), DX
	VPCMPEQD Y15, Y15, Y15
	VPSLLD   $16, Y15, Y15

steppair:
	CMPQ   R10, $2
	JLT    stepone
	MOVQ   SI, R12
	MOVQ   DI, R13
	XORQ   BX, BX
	TESTQ  R11, R11
	JZ     steppfok
	LEAQ   (SI)(R8*2), BX

steppfok:
	MOVQ   R9, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

steppairloop:
	TESTQ CX, CX
	JZ    steppairdone
	STEP_CHUNK2(0, Y0, Y4)
	STEP_CHUNK2(32, Y1, Y5)
	STEP_CHUNK2(64, Y2, Y6)
	STEP_CHUNK2(96, Y3, Y7)
	TESTQ BX, BX
	JZ    steppairnopf
	PREFETCHT0 0(BX)
	PREFETCHT0 64(BX)
	PREFETCHT0 128(BX)
	PREFETCHT0 192(BX)
	ADDQ  $256, BX

steppairnopf:
	ADDQ $128, R12
	ADDQ $128, R13
	DECQ CX
	JMP  steppairloop

steppairdone:
	VADDPS Y0, Y1, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y3, Y2
	BF16_HSUM(Y2, X2, 4(DX))
	VADDPS Y4, Y5, Y4
	BF16_HSUM(Y4, X4, 8(DX))
	VADDPS Y6, Y7, Y6
	BF16_HSUM(Y6, X6, 12(DX))
	LEAQ   (SI)(R8*2), SI
	ADDQ   $16, DX
	SUBQ   $2, R10
	JMP    steppair

stepone:
	TESTQ  R10, R10
	JZ     stepdone
	MOVQ   SI, R12
	MOVQ   DI, R13
	MOVQ   R9, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

steponeloop:
	TESTQ CX, CX
	JZ    steponedone
	STEP_CHUNK1(0, Y0)
	STEP_CHUNK1(32, Y1)
	STEP_CHUNK1(64, Y2)
	STEP_CHUNK1(96, Y3)
	ADDQ  $128, R12
	ADDQ  $128, R13
	DECQ  CX
	JMP   steponeloop

steponedone:
	VADDPS Y0, Y1, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y3, Y2
	BF16_HSUM(Y2, X2, 4(DX))

stepdone:
	VZEROUPPER
	MXCSR_EXIT
	MOVQ AX, ret+56(FP)
	RET

// MANY_CHUNK2(off, A00, A01, A10, A11): 16 elements from byte off of a
// 32-element step, positions at DI and DI+R9, rows at SI and SI+R8, into
// the accumulators of (row, position) 00, 01, 10, 11. Each row is widened
// once for both positions, each position once for both rows.
#define MANY_CHUNK2(off, A00, A01, A10, A11) \
	BF16_SPLIT(off(DI), Y9, Y8);          \
	BF16_SPLIT(off(DI)(R9*1), Y11, Y10);  \
	BF16_SPLIT(off(SI), Y13, Y12);        \
	BF16_MAC(Y13, Y12, Y9, Y8, A00);      \
	BF16_MAC(Y13, Y12, Y11, Y10, A01);    \
	BF16_SPLIT(off(SI)(R8*1), Y13, Y12);  \
	BF16_MAC(Y13, Y12, Y9, Y8, A10);      \
	BF16_MAC(Y13, Y12, Y11, Y10, A11)

// MANY_CHUNK1(off, A0, A1): MANY_CHUNK2 for the position at DI only.
#define MANY_CHUNK1(off, A0, A1) \
	BF16_SPLIT(off(DI), Y9, Y8);         \
	BF16_SPLIT(off(SI), Y13, Y12);       \
	BF16_MAC(Y13, Y12, Y9, Y8, A0);      \
	BF16_SPLIT(off(SI)(R8*1), Y13, Y12); \
	BF16_MAC(Y13, Y12, Y9, Y8, A1)

// func bf16ManyAVX2(w *byte, rs int, x *uint16, xs int, k int, n int, next int, out *float32, os int) int
// tinyBLAS's order (one 16-lane accumulator per output over 32-element
// steps, reduced once) for two weight rows (rs bytes apart) and k
// positions (xs bytes apart), n elements (a multiple of 32): row r and
// position p into out[p*os+r]. Positions go in pairs, each pair reading
// the two rows from cache after the first; an odd last one alone. next >
// 0: the first pass over the rows also prefetches the rows after them.
// Returns MXCSR.DE (nonzero: recompute).
TEXT ·bf16ManyAVX2(SB), NOSPLIT, $8-80
	MXCSR_ENTER
	MOVQ     rs+8(FP), R8
	MOVQ     x+16(FP), R13
	MOVQ     xs+24(FP), R9
	MOVQ     k+32(FP), R10
	MOVQ     next+48(FP), BX
	TESTQ    BX, BX
	JZ       manypfok
	ADDQ     w+0(FP), BX

manypfok:
	MOVQ     out+56(FP), DX
	MOVQ     os+64(FP), R11
	SHLQ     $2, R11
	VPCMPEQD Y15, Y15, Y15
	VPSLLD   $16, Y15, Y15

manypair:
	CMPQ   R10, $2
	JLT    manyone
	MOVQ   w+0(FP), SI
	MOVQ   R13, DI
	MOVQ   n+40(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

manypairloop:
	TESTQ CX, CX
	JZ    manypairdone
	MANY_CHUNK2(0, Y0, Y1, Y2, Y3)
	MANY_CHUNK2(32, Y4, Y5, Y6, Y7)
	TESTQ BX, BX
	JZ    manypairnopf
	PREFETCHT0 0(BX)
	PREFETCHT0 64(BX)
	ADDQ  $128, BX

manypairnopf:
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JMP  manypairloop

manypairdone:
	XORQ   BX, BX
	VADDPS Y0, Y4, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y6, Y2
	BF16_HSUM(Y2, X2, 4(DX))
	VADDPS Y1, Y5, Y1
	BF16_HSUM(Y1, X1, 0(DX)(R11*1))
	VADDPS Y3, Y7, Y3
	BF16_HSUM(Y3, X3, 4(DX)(R11*1))
	LEAQ   (DX)(R11*2), DX
	LEAQ   (R13)(R9*2), R13
	SUBQ   $2, R10
	JMP    manypair

manyone:
	TESTQ  R10, R10
	JZ     manydone
	MOVQ   w+0(FP), SI
	MOVQ   R13, DI
	MOVQ   n+40(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y2, Y2, Y2
	VXORPS Y4, Y4, Y4
	VXORPS Y6, Y6, Y6

manyoneloop:
	TESTQ CX, CX
	JZ    manyonedone
	MANY_CHUNK1(0, Y0, Y2)
	MANY_CHUNK1(32, Y4, Y6)
	TESTQ BX, BX
	JZ    manyonenopf
	PREFETCHT0 0(BX)
	PREFETCHT0 64(BX)
	ADDQ  $128, BX

manyonenopf:
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JMP  manyoneloop

manyonedone:
	VADDPS Y0, Y4, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y6, Y2
	BF16_HSUM(Y2, X2, 4(DX))

manydone:
	VZEROUPPER
	MXCSR_EXIT
	MOVQ AX, ret+72(FP)
	RET

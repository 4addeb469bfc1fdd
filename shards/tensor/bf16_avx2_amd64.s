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
// alone. next > 0: while a pair is read, the row after it (the next
// pair's first; past the last pair, the next tile's) is prefetched at the
// same columns, two lines a step: streaming from DRAM on two threads
// (alternated, under load) that beat prefetching both rows of the next
// pair by about 25%. Returns MXCSR.DE (nonzero: recompute).
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
	ADDQ  $128, BX

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

// The several-position kernel has two inner loops: an exact one with a
// separate VMULPS and VADDPS per product, and one with a VFMADD231PS per
// product, which gives the same sums when every product is exact in
// float32: neither tiny (below 2^-126, which the Go code rounds to a
// subnormal first) nor too large. For normal bf16 values w and x with
// biased exponents Ew, Ex, 2^(Ew+Ex-254) <= |w·x| < 2^(Ew+Ex-252), and
// the product has at most 16 significant bits; so with Ew+Ex >= 128 and
// Ew+Ex <= 380 for every pair of nonzero values (neither Inf nor NaN,
// exponent <= 254) it is exact. The kernel takes the exponent range of
// all its positions, then of each row pair, and picks the loop; zeros
// and subnormals have exponent 0 and are left out of the minimum
// (subnormals raise DE in either loop).

DATA bf16expmask<>+0(SB)/8, $0x7f807f807f807f80
DATA bf16expmask<>+8(SB)/8, $0x7f807f807f807f80
DATA bf16expmask<>+16(SB)/8, $0x7f807f807f807f80
DATA bf16expmask<>+24(SB)/8, $0x7f807f807f807f80
GLOBL bf16expmask<>(SB), RODATA|NOPTR, $32

DATA bf16expone<>+0(SB)/8, $0x0080008000800080
DATA bf16expone<>+8(SB)/8, $0x0080008000800080
DATA bf16expone<>+16(SB)/8, $0x0080008000800080
DATA bf16expone<>+24(SB)/8, $0x0080008000800080
GLOBL bf16expone<>(SB), RODATA|NOPTR, $32

// EXP_INIT: Y14 = exponent field mask, Y13 = exponent 1, Y12 = minimum
// (of exponent-1, wrapping 0 to the top), Y11 = maximum (of the fields).
#define EXP_INIT \
	VMOVDQU  bf16expmask<>(SB), Y14; \
	VMOVDQU  bf16expone<>(SB), Y13;  \
	VPCMPEQD Y12, Y12, Y12;          \
	VPXOR    Y11, Y11, Y11

// EXP_ACC(SRC): the 16 bf16 values at SRC into Y12 and Y11.
#define EXP_ACC(SRC) \
	VPAND   SRC, Y14, Y10;  \
	VPMAXUW Y10, Y11, Y11;  \
	VPSUBW  Y13, Y10, Y10;  \
	VPMINUW Y10, Y12, Y12

// EXP_RESULT(MIN, MAX): MIN = smallest nonzero exponent - 1 (511 if
// none), MAX = largest exponent, from Y12 and Y11.
#define EXP_RESULT(MIN, MAX) \
	VEXTRACTI128 $1, Y12, X10;  \
	VPMINUW      X10, X12, X12; \
	VPHMINPOSUW  X12, X12;      \
	VMOVD        X12, MIN;      \
	ANDL         $0xffff, MIN;  \
	SHRL         $7, MIN;       \
	VEXTRACTI128 $1, Y11, X10;  \
	VPMAXUW      X10, X11, X11; \
	VPCMPEQD     X10, X10, X10; \
	VPXOR        X10, X11, X11; \
	VPHMINPOSUW  X11, X11;      \
	VMOVD        X11, MAX;      \
	NOTL         MAX;           \
	ANDL         $0xffff, MAX;  \
	SHRL         $7, MAX

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

// BF16_FMA(WO, WE, XO, XE, ACC): BF16_MAC with fused multiply-adds.
#define BF16_FMA(WO, WE, XO, XE, ACC) \
	VFMADD231PS XO, WO, ACC; \
	VFMADD231PS XE, WE, ACC

// MANY_CHUNK2F: MANY_CHUNK2 with BF16_FMA.
#define MANY_CHUNK2F(off, A00, A01, A10, A11) \
	BF16_SPLIT(off(DI), Y9, Y8);          \
	BF16_SPLIT(off(DI)(R9*1), Y11, Y10);  \
	BF16_SPLIT(off(SI), Y13, Y12);        \
	BF16_FMA(Y13, Y12, Y9, Y8, A00);      \
	BF16_FMA(Y13, Y12, Y11, Y10, A01);    \
	BF16_SPLIT(off(SI)(R8*1), Y13, Y12);  \
	BF16_FMA(Y13, Y12, Y9, Y8, A10);      \
	BF16_FMA(Y13, Y12, Y11, Y10, A11)

// MANY_CHUNK1(off, A0, A1): MANY_CHUNK2 for the position at DI only.
#define MANY_CHUNK1(off, A0, A1) \
	BF16_SPLIT(off(DI), Y9, Y8);         \
	BF16_SPLIT(off(SI), Y13, Y12);       \
	BF16_MAC(Y13, Y12, Y9, Y8, A0);      \
	BF16_SPLIT(off(SI)(R8*1), Y13, Y12); \
	BF16_MAC(Y13, Y12, Y9, Y8, A1)

// MANY_CHUNK1F: MANY_CHUNK1 with BF16_FMA.
#define MANY_CHUNK1F(off, A0, A1) \
	BF16_SPLIT(off(DI), Y9, Y8);         \
	BF16_SPLIT(off(SI), Y13, Y12);       \
	BF16_FMA(Y13, Y12, Y9, Y8, A0);      \
	BF16_SPLIT(off(SI)(R8*1), Y13, Y12); \
	BF16_FMA(Y13, Y12, Y9, Y8, A1)

// MANY_CHUNK3F(off, A00, A01, A02, A10, A11, A12): 16 elements from
// byte off of a 32-element step, positions at DI, DI+R9, DI+2*R9, rows at
// SI and SI+R8, fused: every odd product first, then every even one (each
// accumulator still takes its lane's odd product before the even one), so
// that only the two rows and one position are widened at a time and
// twelve accumulators fit in the registers.
#define MANY_CHUNK3F(off, A00, A01, A02, A10, A11, A12) \
	VPAND       off(SI), Y15, Y12;        \
	VPAND       off(SI)(R8*1), Y15, Y13;  \
	VPAND       off(DI), Y15, Y14;        \
	VFMADD231PS Y14, Y12, A00;            \
	VFMADD231PS Y14, Y13, A10;            \
	VPAND       off(DI)(R9*1), Y15, Y14;  \
	VFMADD231PS Y14, Y12, A01;            \
	VFMADD231PS Y14, Y13, A11;            \
	VPAND       off(DI)(R9*2), Y15, Y14;  \
	VFMADD231PS Y14, Y12, A02;            \
	VFMADD231PS Y14, Y13, A12;            \
	VMOVDQU     off(SI), Y12;             \
	VPSLLD      $16, Y12, Y12;            \
	VMOVDQU     off(SI)(R8*1), Y13;       \
	VPSLLD      $16, Y13, Y13;            \
	VMOVDQU     off(DI), Y14;             \
	VPSLLD      $16, Y14, Y14;            \
	VFMADD231PS Y14, Y12, A00;            \
	VFMADD231PS Y14, Y13, A10;            \
	VMOVDQU     off(DI)(R9*1), Y14;       \
	VPSLLD      $16, Y14, Y14;            \
	VFMADD231PS Y14, Y12, A01;            \
	VFMADD231PS Y14, Y13, A11;            \
	VMOVDQU     off(DI)(R9*2), Y14;       \
	VPSLLD      $16, Y14, Y14;            \
	VFMADD231PS Y14, Y12, A02;            \
	VFMADD231PS Y14, Y13, A12

// MANY_PF: with BX set, prefetch the next two lines from it.
#define MANY_PF(skip) \
	TESTQ      BX, BX;  \
	JZ         skip;    \
	PREFETCHT0 0(BX);   \
	PREFETCHT0 64(BX);  \
	ADDQ       $128, BX; \
skip:

// func bf16ManyAVX2(w *byte, rs int, rows int, x *uint16, xs int, k int, n int, next int, out *float32, os int) int
// tinyBLAS's order (one 16-lane accumulator per output over 32-element
// steps, reduced once) for rows weight rows (an even count, rs bytes
// apart) and k >= 1 positions (xs bytes apart), n elements (a multiple of
// 32, > 0): row r and position p into out[p*os+r]. Rows go in pairs;
// positions in pairs, each pair reading the two rows from cache after the
// first, an odd last one alone. next > 0: the first pass over a row pair
// also prefetches the next pair (the rows are contiguous; after the last
// pair, the tile after this one). Returns MXCSR.DE (nonzero: recompute).
// Frame: 0 and 4 MXCSR, 8 the positions' minimum exponent - 1, 16 their
// maximum exponent, 24 the row pairs left, 32 the output of this pair.
TEXT ·bf16ManyAVX2(SB), NOSPLIT, $40-88
	MXCSR_ENTER
	VPCMPEQD Y15, Y15, Y15
	VPSLLD   $16, Y15, Y15

	// The exponent range of the positions.
	EXP_INIT
	MOVQ x+24(FP), R12
	MOVQ k+40(FP), R10

xrangepos:
	MOVQ R12, SI
	MOVQ n+48(FP), CX
	SHRQ $4, CX

xrangeloop:
	EXP_ACC((SI))
	ADDQ $32, SI
	DECQ CX
	JNZ  xrangeloop
	ADDQ xs+32(FP), R12
	DECQ R10
	JNZ  xrangepos
	EXP_RESULT(AX, BX)
	MOVQ AX, 8(SP)
	MOVQ BX, 16(SP)

	MOVQ rs+8(FP), R8
	MOVQ xs+32(FP), R9
	MOVQ os+72(FP), R11
	SHLQ $2, R11
	MOVQ w+0(FP), R13
	MOVQ rows+16(FP), AX
	SHRQ $1, AX
	MOVQ AX, 24(SP)
	MOVQ out+64(FP), AX
	MOVQ AX, 32(SP)

rowpair:
	// The exponent range of the two rows, and the loop it allows.
	EXP_INIT
	MOVQ R13, SI
	MOVQ n+48(FP), CX
	SHRQ $4, CX

wrangeloop:
	EXP_ACC((SI))
	EXP_ACC((SI)(R8*1))
	ADDQ $32, SI
	DECQ CX
	JNZ  wrangeloop
	EXP_RESULT(AX, DX)
	XORQ DI, DI
	MOVQ 16(SP), CX
	CMPQ CX, $254
	JA   pickdone
	CMPQ DX, $254
	JA   pickdone
	ADDQ DX, CX
	CMPQ CX, $380
	JA   pickdone
	ADDQ 8(SP), AX
	CMPQ AX, $126
	JB   pickdone
	MOVQ $1, DI

pickdone:
	MOVQ DI, AX
	XORQ BX, BX
	MOVQ next+56(FP), CX
	TESTQ CX, CX
	JZ   pfok
	LEAQ (R13)(R8*2), BX

pfok:
	MOVQ x+24(FP), R12
	MOVQ k+40(FP), R10
	MOVQ 32(SP), DX

pospair:
	// On the fused path, positions in threes while three are left,
	// except that four go as two pairs (not three and one alone).
	TESTQ  AX, AX
	JZ     pospair2
	CMPQ   R10, $3
	JLT    pospair2
	CMPQ   R10, $4
	JEQ    pospair2
	MOVQ   R13, SI
	MOVQ   R12, DI
	MOVQ   n+48(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

tripleloop:
	MANY_CHUNK3F(0, Y0, Y1, Y2, Y3, Y4, Y5)
	MANY_CHUNK3F(32, Y6, Y7, Y8, Y9, Y10, Y11)
	MANY_PF(triplenopf)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  tripleloop
	XORQ   BX, BX
	VADDPS Y0, Y6, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y3, Y9, Y3
	BF16_HSUM(Y3, X3, 4(DX))
	VADDPS Y1, Y7, Y1
	BF16_HSUM(Y1, X1, 0(DX)(R11*1))
	VADDPS Y4, Y10, Y4
	BF16_HSUM(Y4, X4, 4(DX)(R11*1))
	VADDPS Y2, Y8, Y2
	BF16_HSUM(Y2, X2, 0(DX)(R11*2))
	VADDPS Y5, Y11, Y5
	BF16_HSUM(Y5, X5, 4(DX)(R11*2))
	LEAQ   (DX)(R11*2), DX
	ADDQ   R11, DX
	LEAQ   (R12)(R9*2), R12
	ADDQ   R9, R12
	SUBQ   $3, R10
	JMP    pospair

pospair2:
	CMPQ   R10, $2
	JLT    posone
	MOVQ   R13, SI
	MOVQ   R12, DI
	MOVQ   n+48(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  AX, AX
	JZ     pairexact

pairfma:
	MANY_CHUNK2F(0, Y0, Y1, Y2, Y3)
	MANY_CHUNK2F(32, Y4, Y5, Y6, Y7)
	MANY_PF(pairfmanopf)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  pairfma
	JMP  pairdone

pairexact:
	MANY_CHUNK2(0, Y0, Y1, Y2, Y3)
	MANY_CHUNK2(32, Y4, Y5, Y6, Y7)
	MANY_PF(pairexactnopf)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  pairexact

pairdone:
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
	LEAQ   (R12)(R9*2), R12
	SUBQ   $2, R10
	JMP    pospair

posone:
	TESTQ  R10, R10
	JZ     rowpairdone
	MOVQ   R13, SI
	MOVQ   R12, DI
	MOVQ   n+48(FP), CX
	SHRQ   $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y2, Y2, Y2
	VXORPS Y4, Y4, Y4
	VXORPS Y6, Y6, Y6
	TESTQ  AX, AX
	JZ     oneexact

onefma:
	MANY_CHUNK1F(0, Y0, Y2)
	MANY_CHUNK1F(32, Y4, Y6)
	MANY_PF(onefmanopf)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  onefma
	JMP  onedone

oneexact:
	MANY_CHUNK1(0, Y0, Y2)
	MANY_CHUNK1(32, Y4, Y6)
	MANY_PF(oneexactnopf)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  oneexact

onedone:
	VADDPS Y0, Y4, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y6, Y2
	BF16_HSUM(Y2, X2, 4(DX))

rowpairdone:
	LEAQ (R13)(R8*2), R13
	ADDQ $8, 32(SP)
	DECQ 24(SP)
	JNZ  rowpair
	VZEROUPPER
	MXCSR_EXIT
	MOVQ AX, ret+80(FP)
	RET

// The several-position kernel on the fused path with the activations
// already widened to float32 (acts.hf, splitBF16's layout: per 16
// elements the 8 odd ones, then the 8 even ones), so that each multiply-add
// takes its position's values as a memory operand and only the rows are
// widened: 18 vector instructions per 16 elements of two rows and three
// positions where bf16ManyAVX2 needs 27. In cache it takes about 3.0-3.2
// cycles per 32 elements of one row and one position (Zen 2, two FMA
// pipes: 2 at best; 24 memory-operand multiply-adds and nothing else run
// at 1.74 a cycle). Also tried, no faster for a whole product
// (BenchmarkBF16Prefill, alternated): two passes per column block over
// the two 8-lane halves of each accumulator (independent until the
// reduction), with two rows × six positions per pass, 1.25 instructions
// per multiply-add instead of 1.5.

// FPF: with BX set, prefetch the line of each of the next pair's rows
// (R8 apart) at the columns being read.
#define FPF(skip) \
	TESTQ      BX, BX;         \
	JZ         skip;           \
	PREFETCHT0 0(BX);          \
	PREFETCHT0 0(BX)(R8*1);    \
	ADDQ       $64, BX;        \
skip:

// FCH3(wo, xo, xe, A00, A01, A02, A10, A11, A12): MANY_CHUNK3F with the
// positions' odd values at xo(DI) and even ones at xe(DI) (R9 apart).
#define FCH3(wo, xo, xe, A00, A01, A02, A10, A11, A12) \
	VMOVDQU     wo(SI), Y12;              \
	VPAND       Y15, Y12, Y14;            \
	VFMADD231PS xo(DI), Y14, A00;         \
	VFMADD231PS xo(DI)(R9*1), Y14, A01;   \
	VFMADD231PS xo(DI)(R9*2), Y14, A02;   \
	VPSLLD      $16, Y12, Y12;            \
	VMOVDQU     wo(SI)(R8*1), Y13;        \
	VPAND       Y15, Y13, Y14;            \
	VFMADD231PS xo(DI), Y14, A10;         \
	VFMADD231PS xo(DI)(R9*1), Y14, A11;   \
	VFMADD231PS xo(DI)(R9*2), Y14, A12;   \
	VPSLLD      $16, Y13, Y13;            \
	VFMADD231PS xe(DI), Y12, A00;         \
	VFMADD231PS xe(DI), Y13, A10;         \
	VFMADD231PS xe(DI)(R9*1), Y12, A01;   \
	VFMADD231PS xe(DI)(R9*1), Y13, A11;   \
	VFMADD231PS xe(DI)(R9*2), Y12, A02;   \
	VFMADD231PS xe(DI)(R9*2), Y13, A12

// FCH2: FCH3 for the positions at DI and DI+R9.
#define FCH2(wo, xo, xe, A00, A01, A10, A11) \
	VPAND       wo(SI), Y15, Y12;         \
	VPAND       wo(SI)(R8*1), Y15, Y13;   \
	VFMADD231PS xo(DI), Y12, A00;         \
	VFMADD231PS xo(DI), Y13, A10;         \
	VFMADD231PS xo(DI)(R9*1), Y12, A01;   \
	VFMADD231PS xo(DI)(R9*1), Y13, A11;   \
	VMOVDQU     wo(SI), Y12;              \
	VPSLLD      $16, Y12, Y12;            \
	VMOVDQU     wo(SI)(R8*1), Y13;        \
	VPSLLD      $16, Y13, Y13;            \
	VFMADD231PS xe(DI), Y12, A00;         \
	VFMADD231PS xe(DI), Y13, A10;         \
	VFMADD231PS xe(DI)(R9*1), Y12, A01;   \
	VFMADD231PS xe(DI)(R9*1), Y13, A11

// FCH1: FCH3 for the position at DI only.
#define FCH1(wo, xo, xe, A0, A1) \
	VPAND       wo(SI), Y15, Y12;         \
	VPAND       wo(SI)(R8*1), Y15, Y13;   \
	VFMADD231PS xo(DI), Y12, A0;          \
	VFMADD231PS xo(DI), Y13, A1;          \
	VMOVDQU     wo(SI), Y12;              \
	VPSLLD      $16, Y12, Y12;            \
	VMOVDQU     wo(SI)(R8*1), Y13;        \
	VPSLLD      $16, Y13, Y13;            \
	VFMADD231PS xe(DI), Y12, A0;          \
	VFMADD231PS xe(DI), Y13, A1

// func bf16ManyFAVX2(w *byte, rs int, rows int, xf *float32, k int, n int, xrange int, next int, out *float32, os int, flags *byte, spill *float32) int
// bf16ManyAVX2's products (rows an even count up to 16, n a multiple of
// 32) when every row pair may take the fused path, reading the positions
// widened (xf, 4n bytes apart). xrange is the positions' exponent range
// as bf16ManyAVX2 finds it (splitBF16's), the minimum nonzero exponent - 1
// in bits 16.., the maximum in bits 0..15. Positions go in groups
// (threes, a four as two pairs, then a pair or one); each group goes over
// the columns in blocks of 1024 and each block against every row pair in
// turn, so that the group's activations of a block (12 KiB) stay in L1
// while the rows come from L2, with the row pairs' accumulators kept in
// spill (8×12×8 floats) from one block to the next. Returns -1 and
// computes nothing if some row pair may not take the fused path; else 0,
// with flags[8*p+r/2] set to 1 where a subnormal took part in the
// outputs of position p and rows r, r+1 (MXCSR.DE, checked after each
// block of a row pair): only those need the Go kernels. next as for
// bf16ManyAVX2, during the first group.
// Frame: 0 and 4 MXCSR, 8 this block's first column, 16 the row pairs
// left, 24 the output of this row pair, 32 the first position of this
// group, 40 the group's size, 48 the group's output, 56 this block's
// steps, 64 the row pair's spill, 72..79 the row pairs' DE flags.
TEXT ·bf16ManyFAVX2(SB), NOSPLIT, $80-104
	MXCSR_ENTER

	// Every row pair must allow the fused path.
	MOVQ xrange+48(FP), AX
	MOVQ AX, BX
	SHRQ $16, AX
	ANDQ $0xffff, BX
	MOVQ AX, 8(SP)
	MOVQ BX, 16(SP)
	MOVQ rs+8(FP), R8
	MOVQ w+0(FP), R13
	MOVQ rows+16(FP), R10
	SHRQ $1, R10

fwrangepair:
	EXP_INIT
	MOVQ R13, SI
	MOVQ n+40(FP), CX
	SHRQ $4, CX

fwrangeloop:
	EXP_ACC((SI))
	EXP_ACC((SI)(R8*1))
	ADDQ $32, SI
	DECQ CX
	JNZ  fwrangeloop
	EXP_RESULT(AX, DX)
	MOVQ 16(SP), CX
	CMPQ CX, $254
	JA   fnotfused
	CMPQ DX, $254
	JA   fnotfused
	ADDQ DX, CX
	CMPQ CX, $380
	JA   fnotfused
	ADDQ 8(SP), AX
	CMPQ AX, $126
	JB   fnotfused
	LEAQ (R13)(R8*2), R13
	DECQ R10
	JNZ  fwrangepair
	JMP  ffused

fnotfused:
	VZEROUPPER
	MXCSR_EXIT
	MOVQ $-1, ret+96(FP)
	RET

ffused:
	VPCMPEQD Y15, Y15, Y15
	VPSLLD   $16, Y15, Y15
	MOVQ     n+40(FP), R9
	SHLQ     $2, R9
	MOVQ     os+72(FP), R11
	SHLQ     $2, R11
	MOVQ     xf+24(FP), R12
	MOVQ     k+32(FP), R10
	MOVQ     out+64(FP), AX
	MOVQ     AX, 48(SP)
	MOVQ     $0, 32(SP)
	MOVQ     $0, 72(SP)
	MOVQ     next+56(FP), R14

fgroup:
	// The group's size: three while three are left, except that four go
	// as two pairs; then two, then one.
	TESTQ R10, R10
	JZ    fdone
	MOVQ  $1, AX
	CMPQ  R10, $2
	JLT   fsized
	MOVQ  $2, AX
	CMPQ  R10, $3
	JLT   fsized
	CMPQ  R10, $4
	JEQ   fsized
	MOVQ  $3, AX

fsized:
	MOVQ AX, 40(SP)
	MOVQ $0, 8(SP)

fblock:
	// This block's steps: up to 32 (1024 columns).
	MOVQ n+40(FP), AX
	SUBQ 8(SP), AX
	SHRQ $5, AX
	CMPQ AX, $32
	JLE  fblocksteps
	MOVQ $32, AX

fblocksteps:
	MOVQ AX, 56(SP)
	MOVQ w+0(FP), R13
	MOVQ 8(SP), AX
	LEAQ (R13)(AX*2), R13
	MOVQ rows+16(FP), AX
	SHRQ $1, AX
	MOVQ AX, 16(SP)
	MOVQ 48(SP), AX
	MOVQ AX, 24(SP)
	MOVQ spill+88(FP), AX
	MOVQ AX, 64(SP)

fpair:
	MOVQ  R13, SI
	MOVQ  8(SP), DI
	LEAQ  (R12)(DI*4), DI
	MOVQ  24(SP), DX
	MOVQ  56(SP), CX
	XORQ  BX, BX
	TESTQ R14, R14
	JZ    fpfok
	LEAQ  (R13)(R8*2), BX

fpfok:
	MOVQ   64(SP), AX
	CMPQ   8(SP), $0
	JEQ    fzero
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 64(AX), Y2
	VMOVUPS 96(AX), Y3
	VMOVUPS 128(AX), Y4
	VMOVUPS 160(AX), Y5
	VMOVUPS 192(AX), Y6
	VMOVUPS 224(AX), Y7
	VMOVUPS 256(AX), Y8
	VMOVUPS 288(AX), Y9
	VMOVUPS 320(AX), Y10
	VMOVUPS 352(AX), Y11
	JMP     fsize

fzero:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

fsize:
	CMPQ 40(SP), $2
	JLT  fone
	JEQ  ftwo

fthreeloop:
	FCH3(0, 0, 32, Y0, Y1, Y2, Y3, Y4, Y5)
	FCH3(32, 64, 96, Y6, Y7, Y8, Y9, Y10, Y11)
	FPF(fthreenopf)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  fthreeloop
	MOVQ 56(SP), AX
	SHLQ $5, AX
	ADDQ 8(SP), AX
	CMPQ AX, n+40(FP)
	JLT  fspill
	VADDPS Y0, Y6, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y3, Y9, Y3
	BF16_HSUM(Y3, X3, 4(DX))
	VADDPS Y1, Y7, Y1
	BF16_HSUM(Y1, X1, 0(DX)(R11*1))
	VADDPS Y4, Y10, Y4
	BF16_HSUM(Y4, X4, 4(DX)(R11*1))
	VADDPS Y2, Y8, Y2
	BF16_HSUM(Y2, X2, 0(DX)(R11*2))
	VADDPS Y5, Y11, Y5
	BF16_HSUM(Y5, X5, 4(DX)(R11*2))
	JMP    fpairdone

ftwo:
	FCH2(0, 0, 32, Y0, Y1, Y2, Y3)
	FCH2(32, 64, 96, Y6, Y7, Y8, Y9)
	FPF(ftwonopf)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  ftwo
	MOVQ 56(SP), AX
	SHLQ $5, AX
	ADDQ 8(SP), AX
	CMPQ AX, n+40(FP)
	JLT  fspill
	VADDPS Y0, Y6, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y2, Y8, Y2
	BF16_HSUM(Y2, X2, 4(DX))
	VADDPS Y1, Y7, Y1
	BF16_HSUM(Y1, X1, 0(DX)(R11*1))
	VADDPS Y3, Y9, Y3
	BF16_HSUM(Y3, X3, 4(DX)(R11*1))
	JMP    fpairdone

fone:
	FCH1(0, 0, 32, Y0, Y3)
	FCH1(32, 64, 96, Y6, Y9)
	FPF(fonenopf)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  fone
	MOVQ 56(SP), AX
	SHLQ $5, AX
	ADDQ 8(SP), AX
	CMPQ AX, n+40(FP)
	JLT  fspill
	VADDPS Y0, Y6, Y0
	BF16_HSUM(Y0, X0, 0(DX))
	VADDPS Y3, Y9, Y3
	BF16_HSUM(Y3, X3, 4(DX))
	JMP    fpairdone

fspill:
	MOVQ    64(SP), AX
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	VMOVUPS Y4, 128(AX)
	VMOVUPS Y5, 160(AX)
	VMOVUPS Y6, 192(AX)
	VMOVUPS Y7, 224(AX)
	VMOVUPS Y8, 256(AX)
	VMOVUPS Y9, 288(AX)
	VMOVUPS Y10, 320(AX)
	VMOVUPS Y11, 352(AX)

fpairdone:
	// A subnormal in this block of the row pair: note it, clear DE.
	STMXCSR 4(SP)
	MOVL    4(SP), AX
	TESTL   $2, AX
	JZ      fpairok
	ANDL    $-64, AX
	MOVL    AX, 4(SP)
	LDMXCSR 4(SP)
	MOVQ    rows+16(FP), AX
	SHRQ    $1, AX
	SUBQ    16(SP), AX
	MOVB    $1, 72(SP)(AX*1)

fpairok:
	LEAQ (R13)(R8*2), R13
	ADDQ $8, 24(SP)
	ADDQ $384, 64(SP)
	DECQ 16(SP)
	JNZ  fpair

	// The next block, or the group's flags and the next group.
	MOVQ 56(SP), AX
	SHLQ $5, AX
	ADDQ AX, 8(SP)
	MOVQ 8(SP), AX
	CMPQ AX, n+40(FP)
	JLT  fblock
	XORQ R14, R14
	MOVQ 32(SP), DI
	SHLQ $3, DI
	ADDQ flags+80(FP), DI
	MOVQ 40(SP), CX

fflags:
	MOVQ 72(SP), AX
	ORQ  AX, (DI)
	ADDQ $8, DI
	DECQ CX
	JNZ  fflags
	MOVQ $0, 72(SP)
	MOVQ 40(SP), AX
	ADDQ AX, 32(SP)
	SUBQ AX, R10
	IMULQ R11, AX
	ADDQ AX, 48(SP)
	MOVQ 40(SP), AX
	IMULQ R9, AX
	ADDQ AX, R12
	JMP  fgroup

fdone:
	VZEROUPPER
	MXCSR_EXIT
	MOVQ $0, ret+96(FP)
	RET

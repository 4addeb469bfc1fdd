//go:build amd64 && !purego

#include "textflag.h"

// Q6_K tile kernel: 8 rows x np positions (np = 1..8), AVX-512 VNNI.
//
// Each output is dotQ6_K's canonical value (dot_generic.go): per
// super-block the exact integer lanes (lane l: elements e with
// (e%32)/4 == l, times their sub-block scale, times the activation), then
// acc = fma(dy*dx, float(lanes), acc) into one 8-lane float accumulator per
// (row, position), and hsum8 at the end. Only the integer part is formed
// differently from the other Q6_K kernels, and integer sums are exact.
//
// A zmm holds 64 consecutive quants of one row (W0: elements 0..63, ...,
// W3: 192..255) as unsigned 6-bit values q, so VPDPBUSD multiplies them by
// the signed activations straight from memory: dword k of W_j . a gives the
// sum of 4 products of group 2j+k/8, lane k%8 (|sum| <= 4*63*128, an int16).
// Two such results (W1 with W0, W3 with W2) are packed into word pairs
// (high word shifted in with VPSLLD before the second VPDPBUSD adds the low
// one; exact mod 2^32), minus the packed 32*(sum of 4 activations) of the
// same groups, which turns q into q-32: the words are then the exact lane
// sums H, L of (q-32)*a, |.| <= 4*32*128, except that L carries a bias of
// 16384 (folded into the subtracted term) so that it is never negative and
// cannot borrow from H. VPDPWSSD with the word pairs of the matching
// sub-block scales, starting from -16384*(the two low words' scales) (per
// row and block), gives 16 dwords per row: lanes 0..7 of groups 0,2,4,6
// and of groups 1,3,5,7, added (the fold) into a row's 8 lanes. Two rows
// share one zmm from the fold on (row 2k low, 2k+1 high).
//
// The packed activation terms depend on the position only and are formed
// once per block for the 8 rows (stack, 128 bytes a position). The float
// accumulators live on the stack (64 bytes per row pair and position), so
// the positions can be a loop and np a run-time value. When next != 0 the
// kernel prefetches the data at w+next (the following 8 rows of a row-major
// matrix, 8*210 bytes a block), spread over the blocks.
//
// Stack, from a 64-byte aligned base (so that the accumulators' stores and
// loads never split a cache line, which measured much slower): ACC at
// +0..2047 (row pair rp, position p at 512*rp + 64*p); PP at +2048..3071
// (position p at 128*p: the two packed activation terms; R13 points
// there). Slots: 3136(SP) prefetch pointer; 3144(SP) the aligned base;
// 3152(SP) dstride*4.

// q6bcnt: word shift counts 4 (low 256 bits) and 2 (high); q6bcntr: 0 and 2.
DATA q6bcnt<>+0(SB)/8, $0x0004000400040004
DATA q6bcnt<>+8(SB)/8, $0x0004000400040004
DATA q6bcnt<>+16(SB)/8, $0x0004000400040004
DATA q6bcnt<>+24(SB)/8, $0x0004000400040004
DATA q6bcnt<>+32(SB)/8, $0x0002000200020002
DATA q6bcnt<>+40(SB)/8, $0x0002000200020002
DATA q6bcnt<>+48(SB)/8, $0x0002000200020002
DATA q6bcnt<>+56(SB)/8, $0x0002000200020002
GLOBL q6bcnt<>(SB), RODATA|NOPTR, $64
DATA q6bcntr<>+0(SB)/8, $0x0000000000000000
DATA q6bcntr<>+8(SB)/8, $0x0000000000000000
DATA q6bcntr<>+16(SB)/8, $0x0000000000000000
DATA q6bcntr<>+24(SB)/8, $0x0000000000000000
DATA q6bcntr<>+32(SB)/8, $0x0002000200020002
DATA q6bcntr<>+40(SB)/8, $0x0002000200020002
DATA q6bcntr<>+48(SB)/8, $0x0002000200020002
DATA q6bcntr<>+56(SB)/8, $0x0002000200020002
GLOBL q6bcntr<>(SB), RODATA|NOPTR, $64

// q6bidx0/1 (VPERMW indexes into the 16 scales as words): dword k of a
// packed pair gets (scale of its low word, scale of its high word). Pair
// 0 (low: groups 0,1; high: groups 2,3): sub-blocks 2(k/8)+(k%8)/4 and
// that + 4; pair 1 (groups 4,5 and 6,7): the same + 8.
DATA q6bidx0<>+0(SB)/8, $0x0004000000040000
DATA q6bidx0<>+8(SB)/8, $0x0004000000040000
DATA q6bidx0<>+16(SB)/8, $0x0005000100050001
DATA q6bidx0<>+24(SB)/8, $0x0005000100050001
DATA q6bidx0<>+32(SB)/8, $0x0006000200060002
DATA q6bidx0<>+40(SB)/8, $0x0006000200060002
DATA q6bidx0<>+48(SB)/8, $0x0007000300070003
DATA q6bidx0<>+56(SB)/8, $0x0007000300070003
GLOBL q6bidx0<>(SB), RODATA|NOPTR, $64
DATA q6bidx1<>+0(SB)/8, $0x000c0008000c0008
DATA q6bidx1<>+8(SB)/8, $0x000c0008000c0008
DATA q6bidx1<>+16(SB)/8, $0x000d0009000d0009
DATA q6bidx1<>+24(SB)/8, $0x000d0009000d0009
DATA q6bidx1<>+32(SB)/8, $0x000e000a000e000a
DATA q6bidx1<>+40(SB)/8, $0x000e000a000e000a
DATA q6bidx1<>+48(SB)/8, $0x000f000b000f000b
DATA q6bidx1<>+56(SB)/8, $0x000f000b000f000b
GLOBL q6bidx1<>(SB), RODATA|NOPTR, $64

// q6bbias: 16384, subtracted from the packed activation terms (it lands in
// the low words); q6bneg: the word pairs (-16384, 0), for the bias's
// products with the scales.
DATA q6bbias<>+0(SB)/4, $16384
GLOBL q6bbias<>(SB), RODATA|NOPTR, $4
DATA q6bneg<>+0(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+8(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+16(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+24(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+32(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+40(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+48(SB)/8, $0x0000c0000000c000
DATA q6bneg<>+56(SB)/8, $0x0000c0000000c000
GLOBL q6bneg<>(SB), RODATA|NOPTR, $64

// Constant registers: Z31 0x0f bytes, Z30 0x30 bytes, Z29 q6bcnt, Z28
// q6bcntr, Z27 q6bidx0, Z26 q6bidx1, Z25 32 (bytes).

// Q6BROW: the block at P (one row) into W0..W3 (unsigned quants, 64
// elements each), its scale word pairs into S0 (pair 0), S1 (pair 1), and
// the lanes' start value (minus the low-word bias times its scales) into B.
// Clobbers Z22..Z24.
#define Q6BROW(P, W0, W1, W2, W3, S0, S1, B) \
	VMOVDQU64       0(P), Z22;                 \
	VBROADCASTI64X4 128(P), Z23;               \
	VPSLLVW         Z29, Z23, W0;              \
	VPANDD          Z30, W0, W0;               \
	VPTERNLOGD      $0xf8, Z31, Z22, W0;       \
	VPSRLVW         Z28, Z23, W1;              \
	VPANDD          Z30, W1, W1;               \
	VPSRLW          $4, Z22, Z22;              \
	VPTERNLOGD      $0xf8, Z31, Z22, W1;       \
	VMOVDQU64       64(P), Z22;                \
	VBROADCASTI64X4 160(P), Z23;               \
	VPSLLVW         Z29, Z23, W2;              \
	VPANDD          Z30, W2, W2;               \
	VPTERNLOGD      $0xf8, Z31, Z22, W2;       \
	VPSRLVW         Z28, Z23, W3;              \
	VPANDD          Z30, W3, W3;               \
	VPSRLW          $4, Z22, Z22;              \
	VPTERNLOGD      $0xf8, Z31, Z22, W3;       \
	VPMOVSXBW       192(P), Y24;               \
	VPERMW          Z24, Z27, S0;              \
	VPERMW          Z24, Z26, S1;              \
	VPMADDWD        q6bneg<>(SB), S0, B;       \
	VPDPWSSD        q6bneg<>(SB), S1, B

// Q6BLANES: the integer lanes of one row (weights W0..W3, scale pairs S0,
// S1, start value B) for the position whose activations are at R14 and packed terms at
// (R13)(R12*2), into I (16 dwords; fold pending). Clobbers X0, X1.
#define Q6BLANES(W0, W1, W2, W3, S0, S1, B, X0, X1, I) \
	VPXORD    X0, X0, X0;                \
	VPDPBUSD  64(R14), W1, X0;           \
	VPSLLD    $16, X0, X0;               \
	VPDPBUSD  0(R14), W0, X0;            \
	VPSUBD    (R13)(R12*2), X0, X0;       \
	VMOVDQA64 B, I;                      \
	VPDPWSSD  S0, X0, I;                 \
	VPXORD    X1, X1, X1;                \
	VPDPBUSD  192(R14), W3, X1;          \
	VPSLLD    $16, X1, X1;               \
	VPDPBUSD  128(R14), W2, X1;          \
	VPSUBD    64(R13)(R12*2), X1, X1;     \
	VPDPWSSD  S1, X1, I

// Q6BHSUM: X = hsum8(Y) as dot_generic.go's hsum8. Clobbers X2.
#define Q6BHSUM(Y, X) \
	VEXTRACTF128 $1, Y, X2; \
	VADDPS       X2, X, X;  \
	VMOVHLPS     X, X, X2;  \
	VADDPS       X2, X, X;  \
	VMOVSHDUP    X, X2;     \
	VADDSS       X2, X, X

// func q6kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb, np, next int, out *float32)
TEXT ·q6kTile8(SB), $3200-88
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), R11
	MOVQ d+40(FP), DX
	MOVQ dstride+48(FP), R13
	SHLQ $2, R13
	MOVQ R13, 3152(SP)
	MOVQ nb+56(FP), CX
	MOVQ np+64(FP), BX
	SHLQ $6, BX // np*64: end of the position index R12
	MOVQ next+72(FP), AX
	TESTQ AX, AX
	JZ   nopf
	ADDQ SI, AX
nopf:
	MOVQ AX, 3136(SP)
	// 64-byte aligned base of ACC (in R8 per row pair) and PP (in R13)
	LEAQ 63(SP), R13
	ANDQ $~63, R13
	MOVQ R13, 3144(SP)
	ADDQ $2048, R13

	// Zero the float accumulators of the positions in use.
	VPXORD Z0, Z0, Z0
	MOVQ   3144(SP), R8
zrp:
	XORQ R12, R12
zpos:
	VMOVUPS Z0, (R8)(R12*1)
	ADDQ    $64, R12
	CMPQ    R12, BX
	JLT     zpos
	ADDQ    $512, R8
	CMPQ    R8, R13
	JLT     zrp

	MOVL          $0x0f0f0f0f, AX
	VPBROADCASTD  AX, Z31
	MOVL          $0x30303030, AX
	VPBROADCASTD  AX, Z30
	MOVL          $0x20202020, AX
	VPBROADCASTD  AX, Z25
	VMOVDQU64     q6bcnt<>(SB), Z29
	VMOVDQU64     q6bcntr<>(SB), Z28
	VMOVDQU64     q6bidx0<>(SB), Z27
	VMOVDQU64     q6bidx1<>(SB), Z26

blockloop:
	// Packed activation terms of every position for this block.
	MOVQ DI, R14
	XORQ R12, R12
pploop:
	VPXORD    Z13, Z13, Z13
	VPDPBUSD  64(R14), Z25, Z13
	VPSLLD    $16, Z13, Z13
	VPDPBUSD  0(R14), Z25, Z13
	VPSUBD.BCST q6bbias<>(SB), Z13, Z13
	VMOVDQU64 Z13, (R13)(R12*2)
	VPXORD    Z14, Z14, Z14
	VPDPBUSD  192(R14), Z25, Z14
	VPSLLD    $16, Z14, Z14
	VPDPBUSD  128(R14), Z25, Z14
	VPSUBD.BCST q6bbias<>(SB), Z14, Z14
	VMOVDQU64 Z14, 64(R13)(R12*2)
	ADDQ      R11, R14
	ADDQ      $64, R12
	CMPQ      R12, BX
	JLT       pploop

	// Prefetch this block's share of the next tile.
	MOVQ  3136(SP), R10
	TESTQ R10, R10
	JZ    rows
	PREFETCHT0 0(R10)
	PREFETCHT0 64(R10)
	PREFETCHT0 128(R10)
	PREFETCHT0 192(R10)
	PREFETCHT0 256(R10)
	PREFETCHT0 320(R10)
	PREFETCHT0 384(R10)
	PREFETCHT0 448(R10)
	PREFETCHT0 512(R10)
	PREFETCHT0 576(R10)
	PREFETCHT0 640(R10)
	PREFETCHT0 704(R10)
	PREFETCHT0 768(R10)
	PREFETCHT0 832(R10)
	PREFETCHT0 896(R10)
	PREFETCHT0 960(R10)
	PREFETCHT0 1024(R10)
	PREFETCHT0 1088(R10)
	PREFETCHT0 1152(R10)
	PREFETCHT0 1216(R10)
	PREFETCHT0 1280(R10)
	PREFETCHT0 1344(R10)
	PREFETCHT0 1408(R10)
	PREFETCHT0 1472(R10)
	PREFETCHT0 1536(R10)
	PREFETCHT0 1600(R10)
	PREFETCHT0 1664(R10)
	ADDQ $1680, R10
	MOVQ R10, 3136(SP)

rows:
	MOVQ SI, AX // row 2rp of this block
	MOVQ 3144(SP), R8 // accumulators of row pair rp
rploop:
	Q6BROW(AX, Z0, Z1, Z2, Z3, Z8, Z9, Z15)
	LEAQ (AX)(R9*1), R10
	Q6BROW(R10, Z4, Z5, Z6, Z7, Z10, Z11, Z16)
	// dx of the two rows, eight copies each
	VPBROADCASTW 208(AX), X12
	VPBROADCASTW 208(R10), X13
	VINSERTI32X4 $1, X13, Y12, Y12
	VCVTPH2PS    Y12, Z12
	MOVQ DI, R14
	MOVQ DX, R10
	XORQ R12, R12
posloop:
	Q6BLANES(Z0, Z1, Z2, Z3, Z8, Z9, Z15, Z13, Z14, Z17)
	Q6BLANES(Z4, Z5, Z6, Z7, Z10, Z11, Z16, Z13, Z14, Z18)
	VSHUFI64X2  $0x44, Z18, Z17, Z19
	VSHUFI64X2  $0xee, Z18, Z17, Z20
	VPADDD      Z20, Z19, Z19
	VCVTDQ2PS   Z19, Z19
	VMULPS.BCST (R10), Z12, Z21
	VFMADD213PS (R8)(R12*1), Z21, Z19
	VMOVUPS     Z19, (R8)(R12*1)
	ADDQ        R11, R14
	ADDQ        3152(SP), R10
	ADDQ        $64, R12
	CMPQ        R12, BX
	JLT         posloop
	LEAQ (AX)(R9*2), AX
	ADDQ $512, R8
	CMPQ R8, R13
	JLT  rploop

	ADDQ bs+16(FP), SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  blockloop

	// out[8p+2rp], out[8p+2rp+1] = hsum8 of the two halves.
	MOVQ out+80(FP), DI
	MOVQ 3144(SP), R8
	XORQ CX, CX // 4*(2rp)
orp:
	XORQ R12, R12
	MOVQ DI, R10
opos:
	VMOVUPS       (R8)(R12*1), Z0
	VEXTRACTF32X8 $1, Z0, Y1
	Q6BHSUM(Y1, X1)
	MOVSS         X1, 4(R10)(CX*1)
	Q6BHSUM(Y0, X0)
	MOVSS         X0, (R10)(CX*1)
	ADDQ          $32, R10
	ADDQ          $64, R12
	CMPQ          R12, BX
	JLT           opos
	ADDQ $8, CX
	ADDQ $512, R8
	CMPQ R8, R13
	JLT  orp
	VZEROUPPER
	RET

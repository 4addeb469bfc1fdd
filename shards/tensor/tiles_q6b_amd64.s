//go:build amd64 && !purego && !avx512sim

#include "textflag.h"
#include "prefetch_amd64.h"

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
// (the high one shifted by VPSLLD and added to the low one, whose VPDPBUSD
// starts from the position's term below; exact mod 2^32), minus the packed
// 32*(sum of 4 activations) of the same groups, which turns q into q-32:
// the words are then the exact lane sums H, L of (q-32)*a, |.| <= 4*32*128,
// except that L carries a bias of 16384 (in the same term) so that it is
// never negative and cannot borrow from H. VPDPWSSD with the word pairs of the matching
// sub-block scales, starting from -16384*(the two low words' scales) (per
// row and block), gives 16 dwords per row: lanes 0..7 of groups 0,2,4,6
// and of groups 1,3,5,7, added (the fold) into a row's 8 lanes. Two rows
// share one zmm from the fold on (row 2k low, 2k+1 high).
//
// The packed activation terms (16384 - packed 32*sums, the start value of
// the low VPDPBUSD) depend on the position only and are formed once per
// block for the 8 rows (stack, 128 bytes a position). The float
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
//
// Other registers of q6kTile8 while it works on a row pair: Z0..Z3 and
// Z4..Z7 the quants of the two rows, Z8/Z9 and Z10/Z11 their scale pairs,
// Z15/Z16 their lanes' start values, Z12 dx of the two rows (8 copies
// each); Z13, Z14, Z17..Z24 scratch.

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
// S1, start value B) for the position whose activations are at R14 and
// packed terms at (R13)(R12*2), into I (16 dwords; fold pending).
// Clobbers X0, X1, H0, H1.
#define Q6BLANES(W0, W1, W2, W3, S0, S1, B, X0, X1, H0, H1, I) \
	VMOVDQU64 (R13)(R12*2), X0;    \
	VPDPBUSD  0(R14), W0, X0;      \
	VPXORD    H0, H0, H0;          \
	VPDPBUSD  64(R14), W1, H0;     \
	VPSLLD    $16, H0, H0;         \
	VPADDD    H0, X0, X0;          \
	VMOVDQA64 B, I;                \
	VPDPWSSD  S0, X0, I;           \
	VMOVDQU64 64(R13)(R12*2), X1;  \
	VPDPBUSD  128(R14), W2, X1;    \
	VPXORD    H1, H1, H1;          \
	VPDPBUSD  192(R14), W3, H1;    \
	VPSLLD    $16, H1, H1;         \
	VPADDD    H1, X1, X1;          \
	VPDPWSSD  S1, X1, I

// Q6BHSUM: X = hsum8(Y) as dot_generic.go's hsum8. Clobbers X2.
#define Q6BHSUM(Y, X) \
	VEXTRACTF128 $1, Y, X2; \
	VADDPS       X2, X, X;  \
	VMOVHLPS     X, X, X2;  \
	VADDPS       X2, X, X;  \
	VMOVSHDUP    X, X2;     \
	VADDSS       X2, X, X

// Q4BMINS: X = (m0+m2)+(m1+m3) of its four floats. Clobbers X2.
#define Q4BMINS(X) \
	VMOVHLPS  X, X, X2; \
	VADDPS    X2, X, X; \
	VMOVSHDUP X, X2;    \
	VADDSS    X2, X, X

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
	VPBROADCASTD q6bbias<>(SB), Z24
pploop:
	VPXORD    Z13, Z13, Z13
	VPDPBUSD  64(R14), Z25, Z13
	VPSLLD    $16, Z13, Z13
	VPDPBUSD  0(R14), Z25, Z13
	VPSUBD    Z13, Z24, Z13
	VMOVDQU64 Z13, (R13)(R12*2)
	VPXORD    Z14, Z14, Z14
	VPDPBUSD  192(R14), Z25, Z14
	VPSLLD    $16, Z14, Z14
	VPDPBUSD  128(R14), Z25, Z14
	VPSUBD    Z14, Z24, Z14
	VMOVDQU64 Z14, 64(R13)(R12*2)
	ADDQ      R11, R14
	ADDQ      $64, R12
	CMPQ      R12, BX
	JLT       pploop

	// Prefetch this block's share of the next tile.
	MOVQ  3136(SP), R10
	TESTQ R10, R10
	JZ    rows
	PREFETCH9(0, R10)
	PREFETCH9(576, R10)
	PREFETCH9(1152, R10)
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
	Q6BLANES(Z0, Z1, Z2, Z3, Z8, Z9, Z15, Z13, Z14, Z22, Z23, Z17)
	Q6BLANES(Z4, Z5, Z6, Z7, Z10, Z11, Z16, Z13, Z14, Z22, Z23, Z18)
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

// ---------------------------------------------------------------------
// Q4_K tile kernel: 8 rows x np positions (np = 1..8), built as the Q6_K
// one. Each output is dotQ4_K's canonical value: per super-block the exact
// lanes of sc*q*a (q the unsigned 4-bit quants, sc the 6-bit sub-block
// scales) into acc = fma(dy*dx, float(lanes), acc), the mins' products
// m[2k]*s[2k] + m[2k+1]*s[2k+1] (s: sums of 32 activations, from the Q8_K
// bsums) into accm[k] = fma(-(dy*dmin), float(prod), accm[k]), and at the
// end hsum8(acc) + ((accm0+accm2)+(accm1+accm3)).
//
// W_c (c = 0..3) holds the 32 bytes of chunk c of one row's quants: low
// nibbles (elements 64c..64c+31) in the low 256 bits, high nibbles
// (64c+32..64c+63) in the high, so the activations at 64c are a plain
// memory operand of VPDPBUSD. Each VPDPBUSD result (|sum of 4| <= 4*15*128,
// an int16) is multiplied by its sub-block scales with a VPMADDWD/VPDPWSSD
// whose word pairs are (scale, 0): the low word of a dword is the sum
// itself, the high word (its sign) meets the 0. Compared with packing two
// sums into the words of one dword (as the Q6_K kernel does), that takes
// no shift, no bias and no bias-correcting start value, one multiply more
// per pair: fewer instructions per row and position (llvm-mca,
// bench/kernel-mca.sh), and the same exact integers. No per-position term
// is needed for the lanes; the mins use the 8 sums of 32 activations of
// each position (words, both 128-bit lanes), formed once per block.
//
// Stack, from a 64-byte aligned base: per row pair rp and position p a
// 128-byte slot at 1024*rp + 128*p: the float lanes of the two rows (zmm)
// then their mins (ymm, row 2rp in the low four floats); PP at +4096 (R13)
// with 64 bytes a position (the sums of 32 activations, 32 bytes used).
// Slots: 4672(SP) prefetch pointer, 4680(SP) aligned base, 4688(SP)
// dstride*4, 4696(SP) bsums pointer of the block, 4704(SP) bstride*2.

// q4bidxC (VPERMW indexes into the scale words of kScaleMin's order, whose
// words 16..31 are zero): dword k of chunk C's VPDPBUSD result is a sum of
// sub-block 2C+k/8, so its word pair is (scale 2C+k/8, word 16 = 0).
#define Q4BIDX(name, lo, hi) \
	DATA name+0(SB)/8, lo;  \
	DATA name+8(SB)/8, lo;  \
	DATA name+16(SB)/8, lo; \
	DATA name+24(SB)/8, lo; \
	DATA name+32(SB)/8, hi; \
	DATA name+40(SB)/8, hi; \
	DATA name+48(SB)/8, hi; \
	DATA name+56(SB)/8, hi; \
	GLOBL name(SB), RODATA|NOPTR, $64

Q4BIDX(q4bidx0<>, $0x0010000000100000, $0x0010000100100001)
Q4BIDX(q4bidx1<>, $0x0010000200100002, $0x0010000300100003)
Q4BIDX(q4bidx2<>, $0x0010000400100004, $0x0010000500100005)
Q4BIDX(q4bidx3<>, $0x0010000600100006, $0x0010000700100007)
DATA q4bcnt<>+0(SB)/8, $0x0000000000000000
DATA q4bcnt<>+8(SB)/8, $0x0000000000000000
DATA q4bcnt<>+16(SB)/8, $0x0000000000000000
DATA q4bcnt<>+24(SB)/8, $0x0000000000000000
DATA q4bcnt<>+32(SB)/8, $0x0004000400040004
DATA q4bcnt<>+40(SB)/8, $0x0004000400040004
DATA q4bcnt<>+48(SB)/8, $0x0004000400040004
DATA q4bcnt<>+56(SB)/8, $0x0004000400040004
GLOBL q4bcnt<>(SB), RODATA|NOPTR, $64
DATA q4bdxi<>+0(SB)/8, $0x0000000000000000
DATA q4bdxi<>+8(SB)/8, $0x0000000000000000
DATA q4bdxi<>+16(SB)/8, $0x0008000800080008
DATA q4bdxi<>+24(SB)/8, $0x0008000800080008
DATA q4bdxi<>+32(SB)/8, $0x0000000000000000
DATA q4bdxi<>+40(SB)/8, $0x0000000000000000
DATA q4bdxi<>+48(SB)/8, $0x0000000000000000
DATA q4bdxi<>+56(SB)/8, $0x0000000000000000
GLOBL q4bdxi<>(SB), RODATA|NOPTR, $64
DATA q4bdmi<>+0(SB)/8, $0x0001000100010001
DATA q4bdmi<>+8(SB)/8, $0x0009000900090009
DATA q4bdmi<>+16(SB)/8, $0x0000000000000000
DATA q4bdmi<>+24(SB)/8, $0x0000000000000000
DATA q4bdmi<>+32(SB)/8, $0x0000000000000000
DATA q4bdmi<>+40(SB)/8, $0x0000000000000000
DATA q4bdmi<>+48(SB)/8, $0x0000000000000000
DATA q4bdmi<>+56(SB)/8, $0x0000000000000000
GLOBL q4bdmi<>(SB), RODATA|NOPTR, $64
DATA q4bshA<>+0(SB)/8, $0x0f0e0d0c07060504
DATA q4bshA<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA q4bshA<>+16(SB)/8, $0x0f0e0d0c07060504
DATA q4bshA<>+24(SB)/8, $0x0f0e0d0c0b0a0908
GLOBL q4bshA<>(SB), RODATA|NOPTR, $32
DATA q4bshB<>+0(SB)/8, $0x0706050480808080
DATA q4bshB<>+8(SB)/8, $0x0b0a090880808080
DATA q4bshB<>+16(SB)/8, $0x0706050480808080
DATA q4bshB<>+24(SB)/8, $0x0b0a090880808080
GLOBL q4bshB<>(SB), RODATA|NOPTR, $32
DATA q4bmA<>+0(SB)/8, $0x0f0f0f0f3f3f3f3f
DATA q4bmA<>+8(SB)/8, $0x000000003f3f3f3f
DATA q4bmA<>+16(SB)/8, $0x0f0f0f0f3f3f3f3f
DATA q4bmA<>+24(SB)/8, $0x000000003f3f3f3f
GLOBL q4bmA<>(SB), RODATA|NOPTR, $32
DATA q4bmB<>+0(SB)/8, $0x0000000000000000
DATA q4bmB<>+8(SB)/8, $0x0f0f0f0f00000000
DATA q4bmB<>+16(SB)/8, $0x0000000000000000
DATA q4bmB<>+24(SB)/8, $0x0f0f0f0f00000000
GLOBL q4bmB<>(SB), RODATA|NOPTR, $32
DATA q4bmC<>+0(SB)/8, $0x3030303000000000
DATA q4bmC<>+8(SB)/8, $0x3030303000000000
DATA q4bmC<>+16(SB)/8, $0x3030303000000000
DATA q4bmC<>+24(SB)/8, $0x3030303000000000
GLOBL q4bmC<>(SB), RODATA|NOPTR, $32

// Q4BROW: the quants of the block at P (one row) into W0..W3.
#define Q4BROW(P, W0, W1, W2, W3) \
	VBROADCASTI64X4 16(P), W0;  \
	VPSRLVW         Z30, W0, W0; \
	VPANDD          Z31, W0, W0; \
	VBROADCASTI64X4 48(P), W1;  \
	VPSRLVW         Z30, W1, W1; \
	VPANDD          Z31, W1, W1; \
	VBROADCASTI64X4 80(P), W2;  \
	VPSRLVW         Z30, W2, W2; \
	VPANDD          Z31, W2, W2; \
	VBROADCASTI64X4 112(P), W3; \
	VPSRLVW         Z30, W3, W3; \
	VPANDD          Z31, W3, W3

// Q4BSC(idx, A, B): the scale word pairs of chunk idx (q4bidx0..3) of
// both rows of the pair, from the words in Z24 (row 2rp) and Z21 (row
// 2rp+1) ([sc0..7, m0..7], see kScaleMin; the header shuffles q4bsh*/q4bm*
// put the 6-bit values in that order), into A and B. Clobbers Z13.
#define Q4BSC(idx, A, B) \
	VMOVDQU64 idx(SB), Z13; \
	VPERMW    Z24, Z13, A;  \
	VPERMW    Z21, Z13, B

// Q4BLANES: the integer lanes of one row for the position at R14 into I,
// from its quants W0..W3 and their scale word pairs S0..S3; X0..X3
// scratch.
#define Q4BLANES(W0, W1, W2, W3, S0, S1, S2, S3, X0, X1, X2, X3, I) \
	VPXORD   X0, X0, X0;       \
	VPDPBUSD 0(R14), W0, X0;   \
	VPXORD   X1, X1, X1;       \
	VPDPBUSD 64(R14), W1, X1;  \
	VPXORD   X2, X2, X2;       \
	VPDPBUSD 128(R14), W2, X2; \
	VPXORD   X3, X3, X3;       \
	VPDPBUSD 192(R14), W3, X3; \
	VPMADDWD S0, X0, I;        \
	VPDPWSSD S1, X1, I;        \
	VPDPWSSD S2, X2, I;        \
	VPDPWSSD S3, X3, I

// func q4kTile8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb, np, next int, out *float32)
TEXT ·q4kTile8(SB), $4736-104
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), R11
	MOVQ d+40(FP), DX
	MOVQ dstride+48(FP), R13
	SHLQ $2, R13
	MOVQ R13, 4688(SP)
	MOVQ bsums+56(FP), AX
	MOVQ AX, 4696(SP)
	MOVQ bstride+64(FP), AX
	SHLQ $1, AX
	MOVQ AX, 4704(SP)
	MOVQ nb+72(FP), CX
	MOVQ np+80(FP), BX
	SHLQ $6, BX
	MOVQ next+88(FP), AX
	TESTQ AX, AX
	JZ   q4nopf
	ADDQ SI, AX
q4nopf:
	MOVQ AX, 4672(SP)
	LEAQ 63(SP), R13
	ANDQ $~63, R13
	MOVQ R13, 4680(SP)
	ADDQ $4096, R13

	// Zero the accumulators (lanes and mins) of the positions in use.
	VPXORD Z0, Z0, Z0
	MOVQ   4680(SP), R8
q4zrp:
	XORQ R12, R12
q4zpos:
	VMOVUPS Z0, (R8)(R12*2)
	VMOVUPS Z0, 64(R8)(R12*2)
	ADDQ    $64, R12
	CMPQ    R12, BX
	JLT     q4zpos
	ADDQ    $1024, R8
	CMPQ    R8, R13
	JLT     q4zrp

	MOVL         $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z31
	VMOVDQU64    q4bcnt<>(SB), Z30
	// K1 takes the high 256 bits in the fold (row 2rp+1's half).
	MOVL         $0xf0, AX
	KMOVB        AX, K1

q4block:
	// Sums of 32 activations of every position for this block.
	MOVQ 4696(SP), AX
	XORQ R12, R12
q4pp:
	VMOVDQU      (AX), X13
	VPHADDW      16(AX), X13, X13
	VINSERTI128  $1, X13, Y13, Y13
	VMOVDQU      Y13, (R13)(R12*1)
	ADDQ         4704(SP), AX
	ADDQ         $64, R12
	CMPQ         R12, BX
	JLT          q4pp
	ADDQ         $32, 4696(SP)

	MOVQ  4672(SP), R10
	TESTQ R10, R10
	JZ    q4rows
	PREFETCH9(0, R10)
	PREFETCH9(576, R10)
	ADDQ $1152, R10
	MOVQ R10, 4672(SP)

q4rows:
	MOVQ SI, AX
	MOVQ 4680(SP), R8
q4rp:
	LEAQ (AX)(R9*1), R10
	// headers of the two rows: [row 2rp | row 2rp+1] in Y19
	VMOVDQU64    (AX), X19
	VINSERTI32X4 $1, (R10), Y19, Y19
	VMOVDQU64    q4bdxi<>(SB), Z20
	VPERMW       Z19, Z20, Z20
	VCVTPH2PS    Y20, Z12
	VMOVDQU64    q4bdmi<>(SB), Z20
	VPERMW       Z19, Z20, Z20
	VCVTPH2PS    X20, Y23
	VPSHUFB      q4bshA<>(SB), Y19, Y20
	VPSHUFB      q4bshB<>(SB), Y19, Y21
	VPSRLW       $4, Y20, Y24
	VPANDD       q4bmA<>(SB), Y20, Y20
	VPANDD       q4bmB<>(SB), Y24, Y24
	VPSRLW       $2, Y21, Y21
	VPANDD       q4bmC<>(SB), Y21, Y21
	VPTERNLOGD   $0xfe, Y24, Y21, Y20
	VPMOVZXBW    X20, Y24
	VEXTRACTI32X4 $1, Y20, X21
	VPMOVZXBW    X21, Y21
	VSHUFI64X2   $3, Y21, Y24, Y22
	Q4BSC(q4bidx0<>, Z8, Z10)
	Q4BSC(q4bidx1<>, Z9, Z11)
	Q4BSC(q4bidx2<>, Z15, Z25)
	Q4BSC(q4bidx3<>, Z16, Z26)
	Q4BROW(AX, Z0, Z1, Z2, Z3)
	Q4BROW(R10, Z4, Z5, Z6, Z7)
	MOVQ DI, R14
	MOVQ DX, R10
	XORQ R12, R12
q4pos:
	// Row 2rp into Z17, row 2rp+1 into Z18, each with its own scratch
	// (Z19, Z20 are free until the fold).
	Q4BLANES(Z0, Z1, Z2, Z3, Z8, Z9, Z15, Z16, Z13, Z14, Z27, Z28, Z17)
	Q4BLANES(Z4, Z5, Z6, Z7, Z10, Z11, Z25, Z26, Z29, Z24, Z19, Z20, Z18)
	// The fold: [lo(Z17) | hi(Z18)] + [hi(Z17) | lo(Z18)], a blend (any
	// vector port) and one shuffle instead of two shuffles.
	VPBLENDMQ    Z18, Z17, K1, Z19
	VSHUFI64X2   $0x4e, Z18, Z17, Z20
	VPADDD       Z20, Z19, Z19
	VCVTDQ2PS    Z19, Z19
	VMULPS.BCST  (R10), Z12, Z21
	VFMADD213PS  (R8)(R12*2), Z21, Z19
	VMOVUPS      Z19, (R8)(R12*2)
	// mins: prod of both rows, accm = fnmadd(dy*dmin, prod, accm)
	VPMADDWD     (R13)(R12*1), Y22, Y19
	VCVTDQ2PS    Y19, Y19
	VMULPS.BCST  (R10), Y23, Y20
	VFNMADD213PS 64(R8)(R12*2), Y20, Y19
	VMOVUPS      Y19, 64(R8)(R12*2)
	ADDQ         R11, R14
	ADDQ         4688(SP), R10
	ADDQ         $64, R12
	CMPQ         R12, BX
	JLT          q4pos
	LEAQ (AX)(R9*2), AX
	ADDQ $1024, R8
	CMPQ R8, R13
	JLT  q4rp

	ADDQ bs+16(FP), SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q4block

	// out[8p+2rp+h] = hsum8(lanes) + ((m0+m2)+(m1+m3)).
	MOVQ out+96(FP), DI
	MOVQ 4680(SP), R8
	XORQ CX, CX
q4orp:
	XORQ R12, R12
	MOVQ DI, R10
q4opos:
	VMOVUPS       (R8)(R12*2), Z0
	VMOVUPS       64(R8)(R12*2), Y3
	VEXTRACTF32X8 $1, Z0, Y1
	Q6BHSUM(Y1, X1)
	VEXTRACTF128  $1, Y3, X4
	Q4BMINS(X4)
	VADDSS        X4, X1, X1
	MOVSS         X1, 4(R10)(CX*1)
	Q6BHSUM(Y0, X0)
	Q4BMINS(X3)
	VADDSS        X3, X0, X0
	MOVSS         X0, (R10)(CX*1)
	ADDQ          $32, R10
	ADDQ          $64, R12
	CMPQ          R12, BX
	JLT           q4opos
	ADDQ $8, CX
	ADDQ $1024, R8
	CMPQ R8, R13
	JLT  q4orp
	VZEROUPPER
	RET

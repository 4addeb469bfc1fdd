//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 VNNI tile kernels for Q8_0 and Q4_0 weights (see
// tiles_q0_amd64.go). Every output keeps the canonical float order of
// dot_generic.go; only the exact integer parts are computed differently
// (VPDPBUSD multiplies unsigned by signed bytes):
//
//   - Q8_0: lane j of a block is sum((x+128)*y) - 128*sum(y) over its four
//     elements; x+128 is x XOR 0x80, and -128*sum(y) (the "bias") depends
//     on the activations only, so it is computed once per activation block
//     and used as the initial value of the VPDPBUSD accumulator.
//   - Q4_0: the block sum is sum(q*y) - 8*sum(y) with q the unsigned
//     nibbles (0..15).
//
// The float steps (scale product, fused multiply-add per block, final
// reduction) are the canonical ones; many rows and positions run side by
// side in separate lanes, which hides the latency of the fma chains.

DATA q0c80<>+0(SB)/8, $0x8080808080808080
DATA q0c80<>+8(SB)/8, $0x8080808080808080
DATA q0c80<>+16(SB)/8, $0x8080808080808080
DATA q0c80<>+24(SB)/8, $0x8080808080808080
GLOBL q0c80<>(SB), RODATA|NOPTR, $32

DATA q0c08<>+0(SB)/8, $0x0808080808080808
DATA q0c08<>+8(SB)/8, $0x0808080808080808
DATA q0c08<>+16(SB)/8, $0x0808080808080808
DATA q0c08<>+24(SB)/8, $0x0808080808080808
GLOBL q0c08<>(SB), RODATA|NOPTR, $32

DATA q0nib<>+0(SB)/4, $0x0f0f0f0f
GLOBL q0nib<>(SB), RODATA|NOPTR, $4

// Row numbers 0..15, for the gather offsets of sixteen rows.
DATA q0iota<>+0(SB)/8, $0x0000000100000000
DATA q0iota<>+8(SB)/8, $0x0000000300000002
DATA q0iota<>+16(SB)/8, $0x0000000500000004
DATA q0iota<>+24(SB)/8, $0x0000000700000006
DATA q0iota<>+32(SB)/8, $0x0000000900000008
DATA q0iota<>+40(SB)/8, $0x0000000b0000000a
DATA q0iota<>+48(SB)/8, $0x0000000d0000000c
DATA q0iota<>+56(SB)/8, $0x0000000f0000000e
GLOBL q0iota<>(SB), RODATA|NOPTR, $64

// Row of each lane pair in the Q8_0 eight-row batch kernel: qword t of its
// transposed weight registers belongs to row ord[t] = 0,1,4,5,2,3,6,7.
DATA q0ord<>+0(SB)/8, $0x0000000000000000
DATA q0ord<>+8(SB)/8, $0x0000000100000001
DATA q0ord<>+16(SB)/8, $0x0000000400000004
DATA q0ord<>+24(SB)/8, $0x0000000500000005
DATA q0ord<>+32(SB)/8, $0x0000000200000002
DATA q0ord<>+40(SB)/8, $0x0000000300000003
DATA q0ord<>+48(SB)/8, $0x0000000600000006
DATA q0ord<>+56(SB)/8, $0x0000000700000007
GLOBL q0ord<>(SB), RODATA|NOPTR, $64

// Inverse of q0ord on the even lanes: output row r comes from lane idx[r].
DATA q0inv<>+0(SB)/8, $0x0000000200000000
DATA q0inv<>+8(SB)/8, $0x0000000a00000008
DATA q0inv<>+16(SB)/8, $0x0000000600000004
DATA q0inv<>+24(SB)/8, $0x0000000e0000000c
DATA q0inv<>+32(SB)/8, $0x0000000000000000
DATA q0inv<>+40(SB)/8, $0x0000000000000000
DATA q0inv<>+48(SB)/8, $0x0000000000000000
DATA q0inv<>+56(SB)/8, $0x0000000000000000
GLOBL q0inv<>(SB), RODATA|NOPTR, $64

// ---------------------------------------------------------------------------
// Q8_0, sixteen rows, one position. Each row has its own 8-lane
// accumulator (Y16..Y31); per block: Y1 = activations, Y2 = bias,
// Y3 = activation scale in every lane, Y0 = 0x80 bytes.

#define Q80V_ROW(QA, DA, ACC) \
	VPXOR        QA, Y0, Y4;  \
	VMOVDQA      Y2, Y5;      \
	VPDPBUSD     Y1, Y4, Y5;  \
	VCVTDQ2PS    Y5, Y5;      \
	VPBROADCASTW DA, X6;      \
	VCVTPH2PS    X6, Y6;      \
	VMULPS       Y3, Y6, Y6;  \
	VFMADD231PS  Y6, Y5, ACC

// Q80V_FIN: hsum8 of ACC (canonical order) stored at off(AX).
#define Q80V_FIN(ACC, off) \
	VEXTRACTF32X4 $1, ACC, X4; \
	VMOVAPS       ACC, Y5;     \
	VADDPS        X4, X5, X5;  \
	VMOVHLPS      X5, X5, X6;  \
	VADDPS        X6, X5, X5;  \
	VMOVSHDUP     X5, X6;      \
	VADDSS        X6, X5, X5;  \
	VMOVSS        X5, off(AX)

// func q80Vec16(w *byte, rb int, y *int8, d *float32, nb int, out *float32)
TEXT ·q80Vec16(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), R10
	MOVQ rb+8(FP), R8
	MOVQ y+16(FP), DI
	MOVQ d+24(FP), DX
	MOVQ nb+32(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R10)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	LEAQ (R13)(R8*4), BX
	VMOVDQU q0c80<>(SB), Y0
	VPXORD  Z16, Z16, Z16
	VPXORD  Z17, Z17, Z17
	VPXORD  Z18, Z18, Z18
	VPXORD  Z19, Z19, Z19
	VPXORD  Z20, Z20, Z20
	VPXORD  Z21, Z21, Z21
	VPXORD  Z22, Z22, Z22
	VPXORD  Z23, Z23, Z23
	VPXORD  Z24, Z24, Z24
	VPXORD  Z25, Z25, Z25
	VPXORD  Z26, Z26, Z26
	VPXORD  Z27, Z27, Z27
	VPXORD  Z28, Z28, Z28
	VPXORD  Z29, Z29, Z29
	VPXORD  Z30, Z30, Z30
	VPXORD  Z31, Z31, Z31
	TESTQ   CX, CX
	JZ      q80vdone

q80vloop:
	VMOVDQU      (DI), Y1
	VPXOR        Y2, Y2, Y2
	VPDPBUSD     Y1, Y0, Y2
	VPXOR        Y3, Y3, Y3
	VPSUBD       Y2, Y3, Y2
	VBROADCASTSS (DX), Y3
	Q80V_ROW(2(R10), (R10), Y16)
	Q80V_ROW(2(R10)(R8*1), (R10)(R8*1), Y17)
	Q80V_ROW(2(R10)(R8*2), (R10)(R8*2), Y18)
	Q80V_ROW(2(R10)(R9*1), (R10)(R9*1), Y19)
	Q80V_ROW(2(R11), (R11), Y20)
	Q80V_ROW(2(R11)(R8*1), (R11)(R8*1), Y21)
	Q80V_ROW(2(R11)(R8*2), (R11)(R8*2), Y22)
	Q80V_ROW(2(R11)(R9*1), (R11)(R9*1), Y23)
	Q80V_ROW(2(R12), (R12), Y24)
	Q80V_ROW(2(R12)(R8*1), (R12)(R8*1), Y25)
	Q80V_ROW(2(R12)(R8*2), (R12)(R8*2), Y26)
	Q80V_ROW(2(R12)(R9*1), (R12)(R9*1), Y27)
	Q80V_ROW(2(R13), (R13), Y28)
	Q80V_ROW(2(R13)(R8*1), (R13)(R8*1), Y29)
	Q80V_ROW(2(R13)(R8*2), (R13)(R8*2), Y30)
	Q80V_ROW(2(R13)(R9*1), (R13)(R9*1), Y31)
	// The next tile, read linearly at the pace this one is consumed
	// (16*34 bytes a block): the hardware prefetchers do not follow
	// sixteen interleaved rows well.
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	PREFETCHT0 128(BX)
	PREFETCHT0 192(BX)
	PREFETCHT0 256(BX)
	PREFETCHT0 320(BX)
	PREFETCHT0 384(BX)
	PREFETCHT0 448(BX)
	PREFETCHT0 512(BX)
	ADDQ $544, BX
	ADDQ $34, R10
	ADDQ $34, R11
	ADDQ $34, R12
	ADDQ $34, R13
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q80vloop

q80vdone:
	MOVQ out+40(FP), AX
	Q80V_FIN(Y16, 0)
	Q80V_FIN(Y17, 4)
	Q80V_FIN(Y18, 8)
	Q80V_FIN(Y19, 12)
	Q80V_FIN(Y20, 16)
	Q80V_FIN(Y21, 20)
	Q80V_FIN(Y22, 24)
	Q80V_FIN(Y23, 28)
	Q80V_FIN(Y24, 32)
	Q80V_FIN(Y25, 36)
	Q80V_FIN(Y26, 40)
	Q80V_FIN(Y27, 44)
	Q80V_FIN(Y28, 48)
	Q80V_FIN(Y29, 52)
	Q80V_FIN(Y30, 56)
	Q80V_FIN(Y31, 60)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q8_0, eight rows, four positions. The eight rows' blocks are transposed
// at qword granularity: register jj (Z18, Z26, Z19, Z27) holds qword jj
// (elements 8jj..8jj+7, i.e. lanes j = 2jj, 2jj+1) of every row, qword t
// belonging to row ord[t] (q0ord). Accumulator (p, jj) holds, in lane
// 2t+h, the float lane 2jj+h of row ord[t] at position p. Per block and
// position, the activation qword jj is broadcast to every row, and the
// bias of its two lanes comes from a stack copy (p*32(SP)).
//
// Registers: Z0..Z15 accumulators (4*p + jj), Z20 weight scales of the
// lanes, Z21 scale product, Z22..Z23 temporaries, Z24..Z25 and Z16..Z17
// transposition temporaries, Z28 0x80 bytes, Z29 gather offsets, Z30
// gather result, Z31 zero.

// Q80B_BIAS: -128*sum of each activation dword of the block at YA, stored
// at off(SP).
#define Q80B_BIAS(YA, off) \
	VPXORD    Y22, Y22, Y22; \
	VPDPBUSD  YA, Y28, Y22;  \
	VPSUBD    Y22, Y31, Y22; \
	VMOVDQU32 Y22, off(SP)

#define Q80B_LANE(YA, off, WT, ACC) \
	VPBROADCASTQ off(SP), Z22;   \
	VPBROADCASTQ YA, Z23;        \
	VPDPBUSD     Z23, WT, Z22;   \
	VCVTDQ2PS    Z22, Z22;       \
	VFMADD231PS  Z21, Z22, ACC

#define Q80B_POS(Y0A, Y8A, Y16A, Y24A, DA, off, A0, A1, A2, A3) \
	VMULPS.BCST DA, Z20, Z21;           \
	Q80B_LANE(Y0A, off, Z18, A0);       \
	Q80B_LANE(Y8A, off+8, Z26, A1);     \
	Q80B_LANE(Y16A, off+16, Z19, A2);   \
	Q80B_LANE(Y24A, off+24, Z27, A3)

// Q80B_FIN: hsum8 of every row of position p, stored in row order.
#define Q80B_FIN(A0, A1, A2, A3, off) \
	VADDPS    A2, A0, Z22;      \
	VADDPS    A3, A1, Z23;      \
	VADDPS    Z23, Z22, Z22;    \
	VMOVSHDUP Z22, Z23;         \
	VADDPS    Z23, Z22, Z22;    \
	VPERMPS   Z22, Z24, Z22;    \
	VMOVUPS   Y22, off(AX)

// func q80Batch8x4(w *byte, rb int, y *int8, ystride int, d *float32, dstride int, nb int, out *float32, pf bool)
TEXT ·q80Batch8x4(SB), NOSPLIT, $128-65
	MOVQ w+0(FP), R10
	MOVQ rb+8(FP), R8
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), R14
	MOVQ d+32(FP), DX
	MOVQ dstride+40(FP), BX
	MOVQ nb+48(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R10)(R8*4), R11
	LEAQ (R14)(R14*2), R15
	LEAQ (BX)(BX*2), SI
	LEAQ (R11)(R8*4), R12
	MOVBQZX pf+64(FP), R13
	VMOVDQU32        q0c80<>(SB), Y28
	VSHUFI64X2       $0x44, Z28, Z28, Z28
	VPBROADCASTD     R8, Z29
	VPMULLD          q0ord<>(SB), Z29, Z29
	VPXORD           Z31, Z31, Z31
	VPXORD           Z0, Z0, Z0
	VPXORD           Z1, Z1, Z1
	VPXORD           Z2, Z2, Z2
	VPXORD           Z3, Z3, Z3
	VPXORD           Z4, Z4, Z4
	VPXORD           Z5, Z5, Z5
	VPXORD           Z6, Z6, Z6
	VPXORD           Z7, Z7, Z7
	VPXORD           Z8, Z8, Z8
	VPXORD           Z9, Z9, Z9
	VPXORD           Z10, Z10, Z10
	VPXORD           Z11, Z11, Z11
	VPXORD           Z12, Z12, Z12
	VPXORD           Z13, Z13, Z13
	VPXORD           Z14, Z14, Z14
	VPXORD           Z15, Z15, Z15
	TESTQ            CX, CX
	JZ               q80bdone

q80bloop:
	// On the first call for these rows, the next eight rows are fetched
	// linearly (8*34 bytes a block), as in q80Vec16.
	TESTQ      R13, R13
	JZ         q80bnopf
	PREFETCHT0 (R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	ADDQ       $272, R12

q80bnopf:
	// Weight scales of the sixteen lanes (two per row).
	KXNORW     K1, K1, K1
	VPGATHERDD (R10)(Z29*1), K1, Z30
	VPMOVDW    Z30, Y30
	VCVTPH2PS  Y30, Z20

	// Rows 0|4, 1|5, 2|6, 3|7 side by side, made unsigned.
	VMOVDQU32   2(R10), Y24
	VINSERTI64X4 $1, 2(R11), Z24, Z24
	VMOVDQU32   2(R10)(R8*1), Y25
	VINSERTI64X4 $1, 2(R11)(R8*1), Z25, Z25
	VPXORD      Z28, Z24, Z24
	VPXORD      Z28, Z25, Z25
	VPUNPCKLQDQ Z25, Z24, Z16
	VPUNPCKHQDQ Z25, Z24, Z17
	VMOVDQU32   2(R10)(R8*2), Y24
	VINSERTI64X4 $1, 2(R11)(R8*2), Z24, Z24
	VMOVDQU32   2(R10)(R9*1), Y25
	VINSERTI64X4 $1, 2(R11)(R9*1), Z25, Z25
	VPXORD      Z28, Z24, Z24
	VPXORD      Z28, Z25, Z25
	VPUNPCKLQDQ Z25, Z24, Z22
	VPUNPCKHQDQ Z25, Z24, Z23
	VSHUFI64X2  $0x88, Z22, Z16, Z18
	VSHUFI64X2  $0xdd, Z22, Z16, Z19
	VSHUFI64X2  $0x88, Z23, Z17, Z26
	VSHUFI64X2  $0xdd, Z23, Z17, Z27

	Q80B_BIAS((DI), 0)
	Q80B_BIAS((DI)(R14*1), 32)
	Q80B_BIAS((DI)(R14*2), 64)
	Q80B_BIAS((DI)(R15*1), 96)

	Q80B_POS(0(DI), 8(DI), 16(DI), 24(DI), (DX), 0, Z0, Z1, Z2, Z3)
	Q80B_POS(0(DI)(R14*1), 8(DI)(R14*1), 16(DI)(R14*1), 24(DI)(R14*1), (DX)(BX*1), 32, Z4, Z5, Z6, Z7)
	Q80B_POS(0(DI)(R14*2), 8(DI)(R14*2), 16(DI)(R14*2), 24(DI)(R14*2), (DX)(BX*2), 64, Z8, Z9, Z10, Z11)
	Q80B_POS(0(DI)(R15*1), 8(DI)(R15*1), 16(DI)(R15*1), 24(DI)(R15*1), (DX)(SI*1), 96, Z12, Z13, Z14, Z15)

	ADDQ $34, R10
	ADDQ $34, R11
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q80bloop

q80bdone:
	MOVQ      out+56(FP), AX
	VMOVDQU32 q0inv<>(SB), Z24
	Q80B_FIN(Z0, Z1, Z2, Z3, 0)
	Q80B_FIN(Z4, Z5, Z6, Z7, 32)
	Q80B_FIN(Z8, Z9, Z10, Z11, 64)
	Q80B_FIN(Z12, Z13, Z14, Z15, 96)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q4_0, sixteen rows, one or four positions. Lane k of every register is
// row k: per block the rows' 16 quant bytes are loaded four rows to a
// register (row 4k+i in 128-bit lane k of register i) and transposed by
// dwords, so that register m holds dword m (bytes 4m..4m+3) of every row;
// its low nibbles are elements 4m..4m+3 (Z12+m) and its high nibbles
// elements 16+4m..16+4m+3 (Z16+m). The activation dwords are broadcast
// from memory. The weight scales come from a gather (Z29 offsets).
//
// Expects R10 = row 0, R11 = row 4, R12 = row 8, R13 = row 12 (block
// start), R8 = rb, R9 = 3*rb, Z31 = 0x0f bytes, Z28 = 0, Y27 = 0x08 bytes.

#define Q40_WEIGHTS \
	KXNORW       K1, K1, K1;                 \
	VPGATHERDD   (R10)(Z29*1), K1, Z30;      \
	VMOVDQU32    2(R10), X4;                 \
	VINSERTI32X4 $1, 2(R11), Z4, Z4;         \
	VINSERTI32X4 $2, 2(R12), Z4, Z4;         \
	VINSERTI32X4 $3, 2(R13), Z4, Z4;         \
	VMOVDQU32    2(R10)(R8*1), X5;           \
	VINSERTI32X4 $1, 2(R11)(R8*1), Z5, Z5;   \
	VINSERTI32X4 $2, 2(R12)(R8*1), Z5, Z5;   \
	VINSERTI32X4 $3, 2(R13)(R8*1), Z5, Z5;   \
	VMOVDQU32    2(R10)(R8*2), X6;           \
	VINSERTI32X4 $1, 2(R11)(R8*2), Z6, Z6;   \
	VINSERTI32X4 $2, 2(R12)(R8*2), Z6, Z6;   \
	VINSERTI32X4 $3, 2(R13)(R8*2), Z6, Z6;   \
	VMOVDQU32    2(R10)(R9*1), X7;           \
	VINSERTI32X4 $1, 2(R11)(R9*1), Z7, Z7;   \
	VINSERTI32X4 $2, 2(R12)(R9*1), Z7, Z7;   \
	VINSERTI32X4 $3, 2(R13)(R9*1), Z7, Z7;   \
	VPUNPCKLDQ   Z5, Z4, Z8;                 \
	VPUNPCKHDQ   Z5, Z4, Z9;                 \
	VPUNPCKLDQ   Z7, Z6, Z10;                \
	VPUNPCKHDQ   Z7, Z6, Z11;                \
	VPUNPCKLQDQ  Z10, Z8, Z4;                \
	VPUNPCKHQDQ  Z10, Z8, Z5;                \
	VPUNPCKLQDQ  Z11, Z9, Z6;                \
	VPUNPCKHQDQ  Z11, Z9, Z7;                \
	VPANDD       Z31, Z4, Z12;               \
	VPANDD       Z31, Z5, Z13;               \
	VPANDD       Z31, Z6, Z14;               \
	VPANDD       Z31, Z7, Z15;               \
	VPSRLD       $4, Z4, Z4;                 \
	VPSRLD       $4, Z5, Z5;                 \
	VPSRLD       $4, Z6, Z6;                 \
	VPSRLD       $4, Z7, Z7;                 \
	VPANDD       Z31, Z4, Z16;               \
	VPANDD       Z31, Z5, Z17;               \
	VPANDD       Z31, Z6, Z18;               \
	VPANDD       Z31, Z7, Z19;               \
	VPMOVDW      Z30, Y30;                   \
	VCVTPH2PS    Y30, Z20

// Q40_BIAS(YA, Zb): Zb = -8*sum(activations of the block at YA) in every
// lane (clobbers Z26).
#define Q40_BIAS(YA, Zb, Yb, Xb) \
	VPXORD        Yb, Yb, Yb;      \
	VPDPBUSD      YA, Y27, Yb;     \
	VEXTRACTI32X4 $1, Yb, X26;     \
	VPADDD        X26, Xb, Xb;     \
	VPSHUFD       $0x4e, Xb, X26;  \
	VPADDD        X26, Xb, Xb;     \
	VPSHUFD       $0xb1, Xb, X26;  \
	VPADDD        X26, Xb, Xb;     \
	VPBROADCASTD  Xb, Zb;          \
	VPSUBD        Zb, Z28, Zb

// Q40_POS: ACC = fma(float(block sum), dx*dy, ACC) for the sixteen rows
// of one position (activations at YA, scale at DA); clobbers Z21..Z24.
#define Q40_POS(YA, DA, ACC) \
	Q40_BIAS(YA, Z21, Y21, X21);        \
	VPXORD        Z22, Z22, Z22;        \
	VPDPBUSD.BCST 0 YA, Z12, Z21;       \
	VPDPBUSD.BCST 16 YA, Z16, Z22;      \
	VPDPBUSD.BCST 4 YA, Z13, Z21;       \
	VPDPBUSD.BCST 20 YA, Z17, Z22;      \
	VPDPBUSD.BCST 8 YA, Z14, Z21;       \
	VPDPBUSD.BCST 24 YA, Z18, Z22;      \
	VPDPBUSD.BCST 12 YA, Z15, Z21;      \
	VPDPBUSD.BCST 28 YA, Z19, Z22;      \
	VPADDD        Z22, Z21, Z21;        \
	VCVTDQ2PS     Z21, Z21;             \
	VMULPS.BCST   DA, Z20, Z23;         \
	VFMADD231PS   Z23, Z21, ACC

#define Q40_SETUP \
	MOVQ         w+0(FP), R10;          \
	MOVQ         rb+8(FP), R8;          \
	LEAQ         (R8)(R8*2), R9;        \
	LEAQ         (R10)(R8*4), R11;      \
	LEAQ         (R11)(R8*4), R12;      \
	LEAQ         (R12)(R8*4), R13;      \
	VPBROADCASTD q0nib<>(SB), Z31;      \
	VPXORD       Z28, Z28, Z28;         \
	VMOVDQU32    q0c08<>(SB), Y27;      \
	VPBROADCASTD R8, Z29;               \
	VPMULLD      q0iota<>(SB), Z29, Z29

#define Q40_ADVANCE \
	ADDQ $18, R10; \
	ADDQ $18, R11; \
	ADDQ $18, R12; \
	ADDQ $18, R13

// func q40Vec16(w *byte, rb int, y *int8, d *float32, nb int, out *float32)
TEXT ·q40Vec16(SB), NOSPLIT, $0-48
	Q40_SETUP
	MOVQ   y+16(FP), DI
	MOVQ   d+24(FP), DX
	MOVQ   nb+32(FP), CX
	LEAQ   (R13)(R8*4), BX
	VPXORD Z0, Z0, Z0
	TESTQ  CX, CX
	JZ     q40vdone

q40vloop:
	// The next tile, linearly (16*18 bytes a block), as in q80Vec16.
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	PREFETCHT0 128(BX)
	PREFETCHT0 192(BX)
	PREFETCHT0 256(BX)
	ADDQ $288, BX
	Q40_WEIGHTS
	Q40_POS((DI), (DX), Z0)
	Q40_ADVANCE
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q40vloop

q40vdone:
	MOVQ    out+40(FP), AX
	VMOVUPS Z0, (AX)
	VZEROUPPER
	RET

// func q40Batch16x4(w *byte, rb int, y *int8, ystride int, d *float32, dstride int, nb int, out *float32, pf bool)
TEXT ·q40Batch16x4(SB), NOSPLIT, $0-65
	Q40_SETUP
	MOVQ   y+16(FP), DI
	MOVQ   ystride+24(FP), R14
	MOVQ   d+32(FP), DX
	MOVQ   dstride+40(FP), BX
	MOVQ   nb+48(FP), CX
	LEAQ   (R14)(R14*2), R15
	LEAQ   (BX)(BX*2), SI
	LEAQ   (R13)(R8*4), AX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	TESTQ  CX, CX
	JZ     q40bdone

q40bloop:
	// On the first call for these rows, the next tile, as in q80Batch8x4.
	CMPB       pf+64(FP), $0
	JEQ        q40bnopf
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 256(AX)
	ADDQ       $288, AX

q40bnopf:
	Q40_WEIGHTS
	Q40_POS((DI), (DX), Z0)
	Q40_POS((DI)(R14*1), (DX)(BX*1), Z1)
	Q40_POS((DI)(R14*2), (DX)(BX*2), Z2)
	Q40_POS((DI)(R15*1), (DX)(SI*1), Z3)
	Q40_ADVANCE
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q40bloop

q40bdone:
	MOVQ    out+56(FP), AX
	VMOVUPS Z0, (AX)
	VMOVUPS Z1, 64(AX)
	VMOVUPS Z2, 128(AX)
	VMOVUPS Z3, 192(AX)
	VZEROUPPER
	RET


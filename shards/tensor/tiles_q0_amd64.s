//go:build amd64 && !purego && !avx512sim

#include "textflag.h"
#include "prefetch_amd64.h"

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

// Low word of each dword, twice: the scale of row ord[t] for lanes 2t, 2t+1
// of the Q8_0 eight-row batch kernel, where qword t of its transposed weight
// registers belongs to row ord[t] = 0,1,4,5,2,3,6,7.
DATA q80sidx<>+0(SB)/8, $0x0002000200000000
DATA q80sidx<>+8(SB)/8, $0x0006000600040004
DATA q80sidx<>+16(SB)/8, $0x000a000a00080008
DATA q80sidx<>+24(SB)/8, $0x000e000e000c000c
GLOBL q80sidx<>(SB), RODATA|NOPTR, $32

// Inverse of ord on the even lanes: output row r comes from lane idx[r].
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

// Q80V_ROW2: Q80V_ROW for the second block of an iteration (activations
// Y7, bias Y8, activation scale Y9).
#define Q80V_ROW2(QA, DA, ACC) \
	VPXOR        QA, Y0, Y10;  \
	VMOVDQA      Y8, Y11;      \
	VPDPBUSD     Y7, Y10, Y11; \
	VCVTDQ2PS    Y11, Y11;     \
	VPBROADCASTW DA, X12;      \
	VCVTPH2PS    X12, Y12;     \
	VMULPS       Y9, Y12, Y12; \
	VFMADD231PS  Y12, Y11, ACC

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

// func q80Vec16s(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *float32)
//
// R10..R13 address block j of rows 0, 4, 8, 12 and SI, R14, R15, AX block
// j+1 (rows 1..3 of each group by R8 = rs and R9 = 3*rs); 0(SP) holds 2*bs.
TEXT ·q80Vec16s(SB), NOSPLIT, $8-64
	MOVQ w+0(FP), R10
	MOVQ rs+8(FP), R8
	MOVQ y+24(FP), DI
	MOVQ d+32(FP), DX
	MOVQ nb+40(FP), CX
	MOVQ next+48(FP), BX
	// next is an offset from w (0: no prefetching).
	TESTQ BX, BX
	JZ    q80vnextok
	ADDQ  w+0(FP), BX
q80vnextok:
	LEAQ (R8)(R8*2), R9
	LEAQ (R10)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	MOVQ bs+16(FP), AX
	LEAQ (R10)(AX*1), SI
	LEAQ (R11)(AX*1), R14
	LEAQ (R12)(AX*1), R15
	LEAQ (AX)(AX*1), AX
	MOVQ AX, 0(SP)
	MOVQ bs+16(FP), AX
	LEAQ (R13)(AX*1), AX
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

q80vloop2:
	CMPQ CX, $2
	JLT  q80vtail
	// Two blocks per row and iteration: in a row-major tile each row
	// stream then advances a whole cache line at a time, which DRAM
	// streams measurably better.
	VMOVDQU      (DI), Y1
	VPXOR        Y2, Y2, Y2
	VPDPBUSD     Y1, Y0, Y2
	VPXOR        Y3, Y3, Y3
	VPSUBD       Y2, Y3, Y2
	VBROADCASTSS (DX), Y3
	VMOVDQU      32(DI), Y7
	VPXOR        Y8, Y8, Y8
	VPDPBUSD     Y7, Y0, Y8
	VPXOR        Y9, Y9, Y9
	VPSUBD       Y8, Y9, Y8
	VBROADCASTSS 4(DX), Y9
	Q80V_ROW(2(R10), (R10), Y16)
	Q80V_ROW2(2(SI), (SI), Y16)
	Q80V_ROW(2(R10)(R8*1), (R10)(R8*1), Y17)
	Q80V_ROW2(2(SI)(R8*1), (SI)(R8*1), Y17)
	Q80V_ROW(2(R10)(R8*2), (R10)(R8*2), Y18)
	Q80V_ROW2(2(SI)(R8*2), (SI)(R8*2), Y18)
	Q80V_ROW(2(R10)(R9*1), (R10)(R9*1), Y19)
	Q80V_ROW2(2(SI)(R9*1), (SI)(R9*1), Y19)
	Q80V_ROW(2(R11), (R11), Y20)
	Q80V_ROW2(2(R14), (R14), Y20)
	Q80V_ROW(2(R11)(R8*1), (R11)(R8*1), Y21)
	Q80V_ROW2(2(R14)(R8*1), (R14)(R8*1), Y21)
	Q80V_ROW(2(R11)(R8*2), (R11)(R8*2), Y22)
	Q80V_ROW2(2(R14)(R8*2), (R14)(R8*2), Y22)
	Q80V_ROW(2(R11)(R9*1), (R11)(R9*1), Y23)
	Q80V_ROW2(2(R14)(R9*1), (R14)(R9*1), Y23)
	Q80V_ROW(2(R12), (R12), Y24)
	Q80V_ROW2(2(R15), (R15), Y24)
	Q80V_ROW(2(R12)(R8*1), (R12)(R8*1), Y25)
	Q80V_ROW2(2(R15)(R8*1), (R15)(R8*1), Y25)
	Q80V_ROW(2(R12)(R8*2), (R12)(R8*2), Y26)
	Q80V_ROW2(2(R15)(R8*2), (R15)(R8*2), Y26)
	Q80V_ROW(2(R12)(R9*1), (R12)(R9*1), Y27)
	Q80V_ROW2(2(R15)(R9*1), (R15)(R9*1), Y27)
	Q80V_ROW(2(R13), (R13), Y28)
	Q80V_ROW2(2(AX), (AX), Y28)
	Q80V_ROW(2(R13)(R8*1), (R13)(R8*1), Y29)
	Q80V_ROW2(2(AX)(R8*1), (AX)(R8*1), Y29)
	Q80V_ROW(2(R13)(R8*2), (R13)(R8*2), Y30)
	Q80V_ROW2(2(AX)(R8*2), (AX)(R8*2), Y30)
	Q80V_ROW(2(R13)(R9*1), (R13)(R9*1), Y31)
	Q80V_ROW2(2(AX)(R9*1), (AX)(R9*1), Y31)
	TESTQ BX, BX
	JZ    q80vnopf2
	// The data after the tile, read linearly at the pace this one is
	// consumed (16*34 bytes a block): the hardware prefetchers do not
	// follow sixteen interleaved row-major rows well.
	PREFETCH9(0, BX)
	PREFETCH8(576, BX)
	ADDQ $1088, BX

q80vnopf2:
	MOVQ 0(SP), R9
	ADDQ R9, R10
	ADDQ R9, R11
	ADDQ R9, R12
	ADDQ R9, R13
	ADDQ R9, SI
	ADDQ R9, R14
	ADDQ R9, R15
	ADDQ R9, AX
	LEAQ (R8)(R8*2), R9
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q80vloop2

q80vtail:
	// An odd last block.
	TESTQ CX, CX
	JZ    q80vdone
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
	TESTQ BX, BX
	JZ    q80vdone
	PREFETCH9(0, BX)

q80vdone:
	MOVQ out+56(FP), AX
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
// belonging to row ord[t] = 0,1,4,5,2,3,6,7. Accumulator (p, jj) holds, in lane
// 2t+h, the float lane 2jj+h of row ord[t] at position p. Per block and
// position, the activation qword jj is broadcast to every row, and the
// bias of its two lanes comes from a stack copy (p*32(SP)).
//
// Registers: Z0..Z15 accumulators (4*p + jj), Z20 weight scales of the
// lanes, Z21 scale product, Z22..Z23 temporaries, Z24..Z25 and Z16..Z17
// transposition temporaries, Z28 0x80 bytes, Y29 scale word indices, Z30
// scale dwords, Z31 zero, K1..K7 dword lanes 1..7.

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

// func q80Batch8x4s(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, pf int, out *float32)
TEXT ·q80Batch8x4s(SB), NOSPLIT, $128-80
	MOVQ w+0(FP), R10
	MOVQ rs+8(FP), R8
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), R14
	MOVQ d+40(FP), DX
	MOVQ dstride+48(FP), BX
	MOVQ nb+56(FP), CX
	LEAQ (R8)(R8*2), R9
	LEAQ (R10)(R8*4), R11
	LEAQ (R14)(R14*2), R15
	LEAQ (BX)(BX*2), SI
	MOVQ pf+64(FP), R13
	LEAQ (R10)(R13*1), R12
	VMOVDQU32        q0c80<>(SB), Y28
	VSHUFI64X2       $0x44, Z28, Z28, Z28
	VMOVDQU32        q80sidx<>(SB), Y29
	MOVL             $2, AX
	KMOVW            AX, K1
	MOVL             $4, AX
	KMOVW            AX, K2
	MOVL             $8, AX
	KMOVW            AX, K3
	MOVL             $16, AX
	KMOVW            AX, K4
	MOVL             $32, AX
	KMOVW            AX, K5
	MOVL             $64, AX
	KMOVW            AX, K6
	MOVL             $128, AX
	KMOVW            AX, K7
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
	MOVQ             bs+16(FP), AX
	TESTQ            CX, CX
	JZ               q80bdone

q80bloop:
	// On the first call for these rows, the data read next is fetched
	// linearly (8*34 bytes a block), as in q80Vec16s.
	TESTQ      R13, R13
	JZ         q80bnopf
	PREFETCHT0 (R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	ADDQ       $272, R12

q80bnopf:
	// Weight scales of the sixteen lanes (two per row): the dword at each
	// row's block start (scale and two quants) into dword lane t for row
	// ord[t], then the scale words doubled.
	VPBROADCASTD (R10), Y30
	VPBROADCASTD (R10)(R8*1), K1, Y30
	VPBROADCASTD (R11), K2, Y30
	VPBROADCASTD (R11)(R8*1), K3, Y30
	VPBROADCASTD (R10)(R8*2), K4, Y30
	VPBROADCASTD (R10)(R9*1), K5, Y30
	VPBROADCASTD (R11)(R8*2), K6, Y30
	VPBROADCASTD (R11)(R9*1), K7, Y30
	VPERMW       Y30, Y29, Y30
	VCVTPH2PS    Y30, Z20

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

	ADDQ AX, R10
	ADDQ AX, R11
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q80bloop

q80bdone:
	MOVQ      out+72(FP), AX
	VMOVDQU32 q0inv<>(SB), Z24
	Q80B_FIN(Z0, Z1, Z2, Z3, 0)
	Q80B_FIN(Z4, Z5, Z6, Z7, 32)
	Q80B_FIN(Z8, Z9, Z10, Z11, 64)
	Q80B_FIN(Z12, Z13, Z14, Z15, 96)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q4_0, sixteen rows, one or four positions. Every lane is one row (lane L
// holds row rowOf(L) = 0,2,4,6, 8,10,12,14, 1,3,5,7, 9,11,13,15, a
// by-product of the loads below; q40inv puts the outputs back in order).
// Per block the rows' 16 quant bytes are transposed by dwords, so that
// register m holds dword m (bytes 4m..4m+3) of every row; its low nibbles
// are elements 4m..4m+3 (Z12+m) and its high nibbles elements
// 16+4m..16+4m+3 (Z16+m). The activation dwords are broadcast from memory.
//
// Loading: 32 bytes from each block start (scale, quants and 14 bytes of
// the next block), rows t and t+8 in one register (E_t); VPERMT2B picks the
// quants of four rows (E_2u, E_2u+1) into F_u = rows 2u, 2u+8, 2u+1, 2u+9
// (one per 128-bit lane), and a VPERMT2W tree picks the sixteen scales.
// The last block, where 32 bytes could overrun the tile, takes its quants
// with 16-byte loads into the same lanes and its scales with a gather.
//
// Expects R10 = row 0, R11 = row 4, R12 = row 8, R13 = row 12 (block
// start), R8 = rs (row stride), R9 = 3*rs, Z31 = 0x0f bytes, Z28 = 0, Y29 = 0x08 bytes,
// Z24..Z27 the permutation indices (q40qidx, q40w1, q40w2, q40w3).

// Quant bytes of E_2u (128-bit lanes 0, 1) and E_2u+1 (lanes 2, 3).
DATA q40qidx<>+0(SB)/8, $0x0908070605040302
DATA q40qidx<>+8(SB)/8, $0x11100f0e0d0c0b0a
DATA q40qidx<>+16(SB)/8, $0x2928272625242322
DATA q40qidx<>+24(SB)/8, $0x31302f2e2d2c2b2a
DATA q40qidx<>+32(SB)/8, $0x4948474645444342
DATA q40qidx<>+40(SB)/8, $0x51504f4e4d4c4b4a
DATA q40qidx<>+48(SB)/8, $0x6968676665646362
DATA q40qidx<>+56(SB)/8, $0x71706f6e6d6c6b6a
GLOBL q40qidx<>(SB), RODATA|NOPTR, $64

// Scale words: G_v = rows 2v, 2v+8, 2v+1, 2v+9 (words 0 and 16 of E_2v,
// E_2v+1); H_0 = G_0|G_1 = rows 0,8,1,9,2,10,3,11 and H_1 = G_2|G_3 =
// rows 4,12,5,13,6,14,7,15; then rowOf order.
DATA q40w1<>+0(SB)/8, $0x0030002000100000
GLOBL q40w1<>(SB), RODATA|NOPTR, $8
DATA q40w2<>+0(SB)/8, $0x0003000200010000
DATA q40w2<>+8(SB)/8, $0x0023002200210020
GLOBL q40w2<>(SB), RODATA|NOPTR, $16
DATA q40w3<>+0(SB)/8, $0x0024002000040000
DATA q40w3<>+8(SB)/8, $0x0025002100050001
DATA q40w3<>+16(SB)/8, $0x0026002200060002
DATA q40w3<>+24(SB)/8, $0x0027002300070003
GLOBL q40w3<>(SB), RODATA|NOPTR, $32

// rowOf(L), for the gather offsets of the last block.
DATA q40rows<>+0(SB)/8, $0x0000000200000000
DATA q40rows<>+8(SB)/8, $0x0000000600000004
DATA q40rows<>+16(SB)/8, $0x0000000a00000008
DATA q40rows<>+24(SB)/8, $0x0000000e0000000c
DATA q40rows<>+32(SB)/8, $0x0000000300000001
DATA q40rows<>+40(SB)/8, $0x0000000700000005
DATA q40rows<>+48(SB)/8, $0x0000000b00000009
DATA q40rows<>+56(SB)/8, $0x0000000f0000000d
GLOBL q40rows<>(SB), RODATA|NOPTR, $64

// Lane of each output row: the inverse of rowOf.
DATA q40inv<>+0(SB)/8, $0x0000000800000000
DATA q40inv<>+8(SB)/8, $0x0000000900000001
DATA q40inv<>+16(SB)/8, $0x0000000a00000002
DATA q40inv<>+24(SB)/8, $0x0000000b00000003
DATA q40inv<>+32(SB)/8, $0x0000000c00000004
DATA q40inv<>+40(SB)/8, $0x0000000d00000005
DATA q40inv<>+48(SB)/8, $0x0000000e00000006
DATA q40inv<>+56(SB)/8, $0x0000000f00000007
GLOBL q40inv<>(SB), RODATA|NOPTR, $64

// Row addresses (block start) of rows 0..15.
#define R0 (R10)
#define R1 (R10)(R8*1)
#define R2 (R10)(R8*2)
#define R3 (R10)(R9*1)
#define R4 (R11)
#define R5 (R11)(R8*1)
#define R6 (R11)(R8*2)
#define R7 (R11)(R9*1)
#define R8_ (R12)
#define R9_ (R12)(R8*1)
#define R10_ (R12)(R8*2)
#define R11_ (R12)(R9*1)
#define R12_ (R13)
#define R13_ (R13)(R8*1)
#define R14_ (R13)(R8*2)
#define R15_ (R13)(R9*1)

#define Q40_E(RA, RB, Zr, Yr) \
	VMOVDQU32    RA, Yr;          \
	VINSERTI64X4 $1, RB, Zr, Zr

// Q40_NIBBLES: transposes F_0..F_3 (Z4, Z6, Z8, Z10) by dwords and splits
// the nibbles into Z12..Z19.
#define Q40_NIBBLES \
	VPUNPCKLDQ  Z6, Z4, Z5;   \
	VPUNPCKHDQ  Z6, Z4, Z7;   \
	VPUNPCKLDQ  Z10, Z8, Z9;  \
	VPUNPCKHDQ  Z10, Z8, Z11; \
	VPUNPCKLQDQ Z9, Z5, Z4;   \
	VPUNPCKHQDQ Z9, Z5, Z6;   \
	VPUNPCKLQDQ Z11, Z7, Z8;  \
	VPUNPCKHQDQ Z11, Z7, Z10; \
	VPANDD      Z31, Z4, Z12; \
	VPANDD      Z31, Z6, Z13; \
	VPANDD      Z31, Z8, Z14; \
	VPANDD      Z31, Z10, Z15; \
	VPSRLD      $4, Z4, Z4;   \
	VPSRLD      $4, Z6, Z6;   \
	VPSRLD      $4, Z8, Z8;   \
	VPSRLD      $4, Z10, Z10; \
	VPANDD      Z31, Z4, Z16; \
	VPANDD      Z31, Z6, Z17; \
	VPANDD      Z31, Z8, Z18; \
	VPANDD      Z31, Z10, Z19

// Q40_WEIGHTS: quants (Z12..Z19) and scales (Z20) of a block that is not
// the last of its row.
#define Q40_WEIGHTS \
	Q40_E(R0, R8_, Z4, Y4);            \
	Q40_E(R1, R9_, Z5, Y5);            \
	Q40_E(R2, R10_, Z6, Y6);           \
	Q40_E(R3, R11_, Z7, Y7);           \
	Q40_E(R4, R12_, Z8, Y8);           \
	Q40_E(R5, R13_, Z9, Y9);           \
	Q40_E(R6, R14_, Z10, Y10);         \
	Q40_E(R7, R15_, Z11, Y11);         \
	VMOVDQA64   Z25, Z12;              \
	VPERMI2W    Z5, Z4, Z12;           \
	VMOVDQA64   Z25, Z13;              \
	VPERMI2W    Z7, Z6, Z13;           \
	VMOVDQA64   Z25, Z14;              \
	VPERMI2W    Z9, Z8, Z14;           \
	VMOVDQA64   Z25, Z15;              \
	VPERMI2W    Z11, Z10, Z15;         \
	VPERMT2W    Z13, Z26, Z12;         \
	VPERMT2W    Z15, Z26, Z14;         \
	VPERMT2W    Z14, Z27, Z12;         \
	VCVTPH2PS   Y12, Z20;              \
	VPERMT2B    Z5, Z24, Z4;           \
	VPERMT2B    Z7, Z24, Z6;           \
	VPERMT2B    Z9, Z24, Z8;           \
	VPERMT2B    Z11, Z24, Z10;         \
	Q40_NIBBLES

#define Q40_F(RA, RB, RC, RD, Zr, Xr) \
	VMOVDQU32    2 RA, Xr;           \
	VINSERTI32X4 $1, 2 RB, Zr, Zr;   \
	VINSERTI32X4 $2, 2 RC, Zr, Zr;   \
	VINSERTI32X4 $3, 2 RD, Zr, Zr

// Q40_WEIGHTS_LAST: the same for the last block of the rows (16-byte
// loads, gathered scales); clobbers Z24, Z25.
#define Q40_WEIGHTS_LAST \
	VPBROADCASTD R8, Z24;                  \
	VPMULLD      q40rows<>(SB), Z24, Z24;  \
	KXNORW       K1, K1, K1;               \
	VPGATHERDD   (R10)(Z24*1), K1, Z25;    \
	VPMOVDW      Z25, Y25;                 \
	VCVTPH2PS    Y25, Z20;                 \
	Q40_F(R0, R8_, R1, R9_, Z4, X4);       \
	Q40_F(R2, R10_, R3, R11_, Z6, X6);     \
	Q40_F(R4, R12_, R5, R13_, Z8, X8);     \
	Q40_F(R6, R14_, R7, R15_, Z10, X10);   \
	Q40_NIBBLES

// Q40_BIAS(YA, Zb): Zb = -8*sum(activations of the block at YA) in every
// lane (clobbers Z30).
#define Q40_BIAS(YA, Zb, Yb, Xb) \
	VPXORD        Yb, Yb, Yb;      \
	VPDPBUSD      YA, Y29, Yb;     \
	VEXTRACTI32X4 $1, Yb, X30;     \
	VPADDD        X30, Xb, Xb;     \
	VPSHUFD       $0x4e, Xb, X30;  \
	VPADDD        X30, Xb, Xb;     \
	VPSHUFD       $0xb1, Xb, X30;  \
	VPADDD        X30, Xb, Xb;     \
	VPBROADCASTD  Xb, Zb;          \
	VPSUBD        Zb, Z28, Zb

// Q40_POS: ACC = fma(float(block sum), dx*dy, ACC) for the sixteen rows
// of one position (activations at YA, scale at DA); clobbers Z21..Z23.
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

// Q40_BIAS4: -8*sum(activations) of four blocks, broadcast into B0..B3
// (clobbers Z4..Z7).
#define Q40_BIAS4(YA0, YA1, YA2, YA3, B0, B1, B2, B3) \
	VMOVDQU32    YA0, Y4;               \
	VINSERTI64X4 $1, YA1, Z4, Z4;       \
	VMOVDQU32    YA2, Y5;               \
	VINSERTI64X4 $1, YA3, Z5, Z5;       \
	VPXORD       Z6, Z6, Z6;            \
	VPDPBUSD     Z4, Z29, Z6;           \
	VPXORD       Z7, Z7, Z7;            \
	VPDPBUSD     Z5, Z29, Z7;           \
	VSHUFI64X2   $0x88, Z7, Z6, Z4;     \
	VSHUFI64X2   $0xdd, Z7, Z6, Z5;     \
	VPADDD       Z5, Z4, Z4;            \
	VPSHUFD      $0x4e, Z4, Z5;         \
	VPADDD       Z5, Z4, Z4;            \
	VPSHUFD      $0xb1, Z4, Z5;         \
	VPADDD       Z5, Z4, Z4;            \
	VPSUBD       Z4, Z28, Z4;           \
	VSHUFI32X4   $0x00, Z4, Z4, B0;     \
	VSHUFI32X4   $0x55, Z4, Z4, B1;     \
	VSHUFI32X4   $0xaa, Z4, Z4, B2;     \
	VSHUFI32X4   $0xff, Z4, Z4, B3

// Q40_POSB: Q40_POS with the bias already in ZB.
#define Q40_POSB(YA, DA, ACC, ZB) \
	VMOVDQA64     ZB, Z21;              \
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

#define Q40_BATCH_BLOCK \
	Q40_BIAS4((DI), (DI)(R14*1), (DI)(R14*2), (DI)(R15*1), Z8, Z9, Z10, Z11); \
	Q40_POSB((DI), (DX), Z0, Z8);                  \
	Q40_POSB((DI)(R14*1), (DX)(BX*1), Z1, Z9);     \
	Q40_POSB((DI)(R14*2), (DX)(BX*2), Z2, Z10);    \
	Q40_POSB((DI)(R15*1), (DX)(SI*1), Z3, Z11)

#define Q40_INDICES \
	VMOVDQU32    q40qidx<>(SB), Z24;    \
	VPBROADCASTQ q40w1<>(SB), Z25;      \
	VBROADCASTI32X4 q40w2<>(SB), Z26;   \
	VBROADCASTI64X4 q40w3<>(SB), Z27

#define Q40_SETUP \
	MOVQ         w+0(FP), R10;          \
	MOVQ         rs+8(FP), R8;          \
	LEAQ         (R8)(R8*2), R9;        \
	LEAQ         (R10)(R8*4), R11;      \
	LEAQ         (R11)(R8*4), R12;      \
	LEAQ         (R12)(R8*4), R13;      \
	VPBROADCASTD q0nib<>(SB), Z31;      \
	VPXORD       Z28, Z28, Z28;         \
	VBROADCASTI64X4 q0c08<>(SB), Z29;   \
	Q40_INDICES

// Q40_ADVANCE: the next block of every row (bs: the block stride).
#define Q40_ADVANCE(bs) \
	ADDQ bs, R10; \
	ADDQ bs, R11; \
	ADDQ bs, R12; \
	ADDQ bs, R13

// Q40_STORE: the sixteen rows of ACC in row order at off(AX); clobbers
// Z24 (the last block has been done).
#define Q40_STORE(ACC, off) \
	VMOVDQU32 q40inv<>(SB), Z24; \
	VPERMPS   ACC, Z24, ACC;     \
	VMOVUPS   ACC, off(AX)


// func q40Vec16s(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *float32)
TEXT ·q40Vec16s(SB), NOSPLIT, $0-64
	Q40_SETUP
	MOVQ   bs+16(FP), SI
	MOVQ   y+24(FP), DI
	MOVQ   d+32(FP), DX
	MOVQ   nb+40(FP), CX
	MOVQ   next+48(FP), BX
	// next is an offset from w (0: no prefetching).
	TESTQ BX, BX
	JZ    q40vnextok
	ADDQ  w+0(FP), BX
q40vnextok:
	VPXORD Z0, Z0, Z0
	DECQ   CX
	JLT    q40vdone

	// Four blocks at a time (their biases computed together), then one
	// at a time, then the last block. The data after the tile is read
	// linearly (16*18 bytes a block), as in q80Vec16s.
q40vloop4:
	CMPQ CX, $4
	JLT  q40vloop1
	TESTQ BX, BX
	JZ    q40vnopf4
	PREFETCH9(0, BX)
	PREFETCH9(576, BX)
	ADDQ $1152, BX

q40vnopf4:
	Q40_BIAS4((DI), 32(DI), 64(DI), 96(DI), Z1, Z2, Z3, Z30)
	Q40_WEIGHTS
	Q40_POSB((DI), (DX), Z0, Z1)
	Q40_ADVANCE(SI)
	ADDQ $32, DI
	ADDQ $4, DX
	Q40_WEIGHTS
	Q40_POSB((DI), (DX), Z0, Z2)
	Q40_ADVANCE(SI)
	ADDQ $32, DI
	ADDQ $4, DX
	Q40_WEIGHTS
	Q40_POSB((DI), (DX), Z0, Z3)
	Q40_ADVANCE(SI)
	ADDQ $32, DI
	ADDQ $4, DX
	Q40_WEIGHTS
	Q40_POSB((DI), (DX), Z0, Z30)
	Q40_ADVANCE(SI)
	ADDQ $32, DI
	ADDQ $4, DX
	SUBQ $4, CX
	JMP  q40vloop4

q40vloop1:
	TESTQ CX, CX
	JZ    q40vlast
	TESTQ BX, BX
	JZ    q40vnopf1
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	PREFETCHT0 128(BX)
	PREFETCHT0 192(BX)
	PREFETCHT0 256(BX)
	ADDQ $288, BX

q40vnopf1:
	Q40_WEIGHTS
	Q40_POS((DI), (DX), Z0)
	Q40_ADVANCE(SI)
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q40vloop1

q40vlast:
	Q40_WEIGHTS_LAST
	Q40_POS((DI), (DX), Z0)

q40vdone:
	MOVQ out+56(FP), AX
	Q40_STORE(Z0, 0)
	VZEROUPPER
	RET

// func q40Batch16x4s(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, pf int, out *float32)
TEXT ·q40Batch16x4s(SB), NOSPLIT, $0-80
	Q40_SETUP
	MOVQ   y+24(FP), DI
	MOVQ   ystride+32(FP), R14
	MOVQ   d+40(FP), DX
	MOVQ   dstride+48(FP), BX
	MOVQ   nb+56(FP), CX
	LEAQ   (R14)(R14*2), R15
	LEAQ   (BX)(BX*2), SI
	MOVQ   pf+64(FP), AX
	ADDQ   R10, AX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	DECQ   CX
	JLT    q40bdone
	JZ     q40blast

q40bloop:
	// On the first call for these rows, the next tile, as in q80Batch8x4.
	CMPQ       pf+64(FP), $0
	JEQ        q40bnopf
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 256(AX)
	ADDQ       $288, AX

q40bnopf:
	Q40_WEIGHTS
	Q40_BATCH_BLOCK
	Q40_ADVANCE(bs+16(FP))
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q40bloop

q40blast:
	Q40_WEIGHTS_LAST
	Q40_BATCH_BLOCK

q40bdone:
	MOVQ out+72(FP), AX
	Q40_STORE(Z0, 0)
	Q40_STORE(Z1, 64)
	Q40_STORE(Z2, 128)
	Q40_STORE(Z3, 192)
	VZEROUPPER
	RET

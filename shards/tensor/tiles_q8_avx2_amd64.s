//go:build amd64 && !purego

#include "textflag.h"

// AVX2 tile kernels for row-major Q8_0 (tiles_q8_avx2_amd64.go). Each row
// keeps llama.cpp's order of dotQ8_0: per block, lane l of an 8-lane
// accumulator takes fma(dx*dy, float(products of bytes 4l..4l+3), acc)
// (VPSIGNB/VPMADDUBSW/VPMADDWD as ggml's mul_sum_i8_pairs: magnitudes of
// the weights, so -128 is exact), then hsum8.

DATA q8avxOnes<>+0(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+8(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+16(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+24(SB)/8, $0x0001000100010001
GLOBL q8avxOnes<>(SB), RODATA|NOPTR, $32

// Q8V_ROW: the block at OFF+BASE (scale, then 32 quants) of one row
// against activations YA with activation scale YD (every lane), into ACC.
#define Q8V_ROW(OFF, BASE, YA, YD, ACC) \
	VMOVDQU      (OFF+2)BASE, Y8; \
	VPSIGNB      Y8, YA, Y9;      \
	VPSIGNB      Y8, Y8, Y8;      \
	VPMADDUBSW   Y9, Y8, Y8;      \
	VPMADDWD     Y15, Y8, Y8;     \
	VCVTDQ2PS    Y8, Y8;          \
	VPBROADCASTW (OFF)BASE, X10;  \
	VCVTPH2PS    X10, Y10;        \
	VMULPS       YD, Y10, Y10;    \
	VFMADD231PS  Y10, Y8, ACC

// Q8_FIN: hsum8 of ACC (canonical order) into X11, stored at DST.
#define Q8_FIN(ACC, XACC, DST) \
	VEXTRACTF128 $1, ACC, X11; \
	VADDPS       XACC, X11, X11; \
	VMOVHLPS     X11, X11, X12; \
	VADDPS       X12, X11, X11; \
	VMOVSHDUP    X11, X12;      \
	VADDSS       X12, X11, X11; \
	VMOVSS       X11, DST

// func q80Vec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)
// Four rows (rs bytes apart) for one position, two blocks per row and
// iteration (a row stream then advances a cache line at a time). next > 0:
// the bytes from w+next on (the rows after these) are prefetched at the
// pace these are read, as the hardware prefetchers follow four
// interleaved row streams badly.
TEXT ·q80Vec4AVX2(SB), NOSPLIT, $0-56
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  d+24(FP), DX
	MOVQ  nb+32(FP), CX
	MOVQ  next+40(FP), BX
	TESTQ BX, BX
	JZ    q8v4nextok
	ADDQ  SI, BX

q8v4nextok:
	LEAQ    (R8)(R8*2), R9
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2
	VPXOR   Y3, Y3, Y3
	VMOVDQU q8avxOnes<>(SB), Y15

q8v4loop2:
	CMPQ         CX, $2
	JLT          q8v4tail
	VMOVDQU      (DI), Y4
	VBROADCASTSS (DX), Y5
	VMOVDQU      32(DI), Y6
	VBROADCASTSS 4(DX), Y7
	Q8V_ROW(0, (SI), Y4, Y5, Y0)
	Q8V_ROW(34, (SI), Y6, Y7, Y0)
	Q8V_ROW(0, (SI)(R8*1), Y4, Y5, Y1)
	Q8V_ROW(34, (SI)(R8*1), Y6, Y7, Y1)
	Q8V_ROW(0, (SI)(R8*2), Y4, Y5, Y2)
	Q8V_ROW(34, (SI)(R8*2), Y6, Y7, Y2)
	Q8V_ROW(0, (SI)(R9*1), Y4, Y5, Y3)
	Q8V_ROW(34, (SI)(R9*1), Y6, Y7, Y3)
	TESTQ        BX, BX
	JZ           q8v4nopf
	// 4*68 = 272 bytes a step: five lines cover them whatever the
	// alignment.
	PREFETCHT0   0(BX)
	PREFETCHT0   64(BX)
	PREFETCHT0   128(BX)
	PREFETCHT0   192(BX)
	PREFETCHT0   256(BX)
	ADDQ         $272, BX

q8v4nopf:
	ADDQ $68, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q8v4loop2

q8v4tail:
	TESTQ        CX, CX
	JZ           q8v4done
	VMOVDQU      (DI), Y4
	VBROADCASTSS (DX), Y5
	Q8V_ROW(0, (SI), Y4, Y5, Y0)
	Q8V_ROW(0, (SI)(R8*1), Y4, Y5, Y1)
	Q8V_ROW(0, (SI)(R8*2), Y4, Y5, Y2)
	Q8V_ROW(0, (SI)(R9*1), Y4, Y5, Y3)

q8v4done:
	MOVQ out+48(FP), AX
	Q8_FIN(Y0, X0, 0(AX))
	Q8_FIN(Y1, X1, 4(AX))
	Q8_FIN(Y2, X2, 8(AX))
	Q8_FIN(Y3, X3, 12(AX))
	VZEROUPPER
	RET

// Q8B_P: the current block of both rows for one position (activations
// at YP), into A0 and A1 (rows 0 and 1); the two scale products dx*dy are
// at SPA and SPB (SP). Y8 and Y9 hold the rows' weight magnitudes, Y12 and
// Y13 their sign masks m (0 > w): the activations take the weights' signs
// as (a^m)-m, which on Zen 2 fits beside VCVTDQ2PS and VFMADD231PS better
// than VPSIGNB (3.11 against 3.20 cycles a unit, prefill 61.6 -> 62.9
// tok/s; products with w = 0 are 0 either way).
#define Q8B_P(YP, SPA, SPB, A0, A1) \
	VPXOR        YP, Y12, Y10;     \
	VPXOR        YP, Y13, Y11;     \
	VPSUBB       Y12, Y10, Y10;    \
	VPSUBB       Y13, Y11, Y11;    \
	VPMADDUBSW   Y10, Y8, Y10;     \
	VPMADDUBSW   Y11, Y9, Y11;     \
	VPMADDWD     Y15, Y10, Y10;    \
	VPMADDWD     Y15, Y11, Y11;    \
	VCVTDQ2PS    Y10, Y10;         \
	VCVTDQ2PS    Y11, Y11;         \
	VBROADCASTSS SPA(SP), Y14;     \
	VFMADD231PS  Y14, Y10, A0;     \
	VBROADCASTSS SPB(SP), Y14;     \
	VFMADD231PS  Y14, Y11, A1

// func q80Batch2xNAVX2(w *byte, rs int, y *int8, ystride int, d4 *float32, nb int, groups int, next int, out *float32, ostride int)
// Two rows (rs bytes apart) for groups×4 positions (quants ystride bytes
// apart), four positions at a time; out[ostride*p+r]. d4 holds the
// positions' activation scales four by four (acts.d4: per group of four
// positions, per block, the four scales), so that one VBROADCASTF128
// loads a block's from one sequential stream (gathering them with
// VINSERTPS from four strided streams cost little with everything in
// cache, but 12% of a whole TinyLlama prefill: 54 -> 61.6 tok/s). Per block, one VMULPS forms the eight scale products
// dx*dy (the bits of the scalar products) and stores them on the stack,
// where each pair broadcasts its own from memory: no shuffle per pair.
// Staying in the kernel for all the groups saves a call and a scatter per
// four positions. next as for q80Vec4AVX2, during the first group only.
//
// Cost on the Zen 2 EPYC (BenchmarkQ8BatchAVX2Cycles): 3.15 cycles per
// 32-element block of one row and one position, 25 a 2×4 tile block,
// where its 16 multiplies (VPMADDUBSW and VPMADDWD share one pipe) need
// 16 (3.22 with VPSIGNB and the scales gathered per block with
// VINSERTPS). The limit is the vector work beside the multiplies, not
// loads or latency: without the multiplies the loop still takes 2.25
// cycles a unit, and each further instruction costs about a third of a
// cycle. Measured and no faster (within 2%): the weights held in
// registers, the float step one position behind the integer step, two
// blocks an iteration, an exact int-to-float via VPADDD/VSUBPS of
// 0x4b400000 in place of VCVTDQ2PS, and lanes 0..3 and 4..7 of both rows
// in one register each (one VPERMILPS per position instead of two
// broadcasts: 3.66).
TEXT ·q80Batch2xNAVX2(SB), NOSPLIT, $40-80
	MOVQ  w+0(FP), R14
	MOVQ  rs+8(FP), R8
	MOVQ  ystride+24(FP), R10
	MOVQ  y+16(FP), AX
	MOVQ  AX, 32(SP) // the group's activations
	MOVQ  d4+32(FP), DX // runs on from group to group
	MOVQ  groups+48(FP), R9
	MOVQ  next+56(FP), BX
	TESTQ BX, BX
	JZ    q8n24nextok
	ADDQ  R14, BX

q8n24nextok:
	MOVQ    out+64(FP), AX
	VMOVDQU q8avxOnes<>(SB), Y15

q8n24group:
	MOVQ  R14, SI
	MOVQ  32(SP), DI
	LEAQ  (DI)(R10*2), R11
	ADDQ  R10, R11
	MOVQ  nb+40(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

q8n24loop:
	VPABSB       2(SI), Y8
	VPABSB       2(SI)(R8*1), Y9
	VPXOR        Y13, Y13, Y13
	VPCMPGTB     2(SI), Y13, Y12
	VPCMPGTB     2(SI)(R8*1), Y13, Y13
	// (dy0 dy1 dy2 dy3) in both halves times (dx0 x4, dx1 x4): lane
	// 4r+p is the scale product of row r and position p.
	VBROADCASTF128 (DX), Y14
	VPBROADCASTW (SI), X10
	VPBROADCASTW (SI)(R8*1), X11
	VPUNPCKLQDQ  X11, X10, X10
	VCVTPH2PS    X10, Y10
	VMULPS       Y14, Y10, Y10
	VMOVUPS      Y10, (SP)
	Q8B_P((DI), 0, 16, Y0, Y4)
	Q8B_P((DI)(R10*1), 4, 20, Y1, Y5)
	Q8B_P((DI)(R10*2), 8, 24, Y2, Y6)
	Q8B_P((R11), 12, 28, Y3, Y7)
	TESTQ        BX, BX
	JZ           q8n24nopf
	PREFETCHT0   0(BX)
	PREFETCHT0   64(BX)
	ADDQ         $68, BX

q8n24nopf:
	ADDQ $34, SI
	ADDQ $32, DI
	ADDQ $32, R11
	ADDQ $16, DX
	DECQ CX
	JNZ  q8n24loop

	MOVQ ostride+72(FP), CX
	SHLQ $2, CX
	LEAQ (AX)(CX*2), R11
	ADDQ CX, R11
	Q8_FIN(Y0, X0, 0(AX))
	Q8_FIN(Y4, X4, 4(AX))
	Q8_FIN(Y1, X1, 0(AX)(CX*1))
	Q8_FIN(Y5, X5, 4(AX)(CX*1))
	Q8_FIN(Y2, X2, 0(AX)(CX*2))
	Q8_FIN(Y6, X6, 4(AX)(CX*2))
	Q8_FIN(Y3, X3, 0(R11))
	Q8_FIN(Y7, X7, 4(R11))
	LEAQ (AX)(CX*4), AX
	XORQ BX, BX
	MOVQ 32(SP), DI
	LEAQ (DI)(R10*4), DI
	MOVQ DI, 32(SP)
	DECQ R9
	JNZ  q8n24group
	VZEROUPPER
	RET

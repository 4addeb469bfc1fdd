//go:build amd64 && !purego

#include "textflag.h"

// AVX2 tile kernels for row-major Q8_0 (tiles_q8_avx2_amd64.go). Each row
// keeps llama.cpp's order of dotQ8_0: per block, lane l of an 8-lane
// accumulator takes fma(dx*dy, float(products of bytes 4l..4l+3), acc)
// (integer products exact whatever the instructions: VPSIGNB/VPMADDUBSW/
// VPMADDWD as ggml's mul_sum_i8_pairs for one position, 16-bit VPMADDWD
// for the batch), then hsum8.

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

// Q8W_P: one position's 16-bit activations (even elements at YE, odd at
// YO) against both rows' widened weights (Y8/Y9 row 0 even/odd, Y10/Y11
// row 1), into A0 and A1; the scale products dx*dy at SPA and SPB (SP).
#define Q8W_P(YE, YO, SPA, SPB, A0, A1) \
	VPMADDWD     YE, Y8, Y12;       \
	VPMADDWD     YO, Y9, Y13;       \
	VPMADDWD     YE, Y10, Y14;      \
	VPMADDWD     YO, Y11, Y15;      \
	VPADDD       Y13, Y12, Y12;     \
	VPADDD       Y15, Y14, Y14;     \
	VCVTDQ2PS    Y12, Y12;          \
	VCVTDQ2PS    Y14, Y14;          \
	VBROADCASTSS SPA(SP), Y13;      \
	VFMADD231PS  Y13, Y12, A0;      \
	VBROADCASTSS SPB(SP), Y15;      \
	VFMADD231PS  Y15, Y14, A1

// func q80Batch2xNAVX2(w *byte, rs int, y *int16, ystride int, d4 *float32, nb int, groups int, next int, out *float32, ostride int)
// Two rows (rs bytes apart) for groups×4 positions, four positions at a
// time; out[ostride*p+r]. The activations are 16-bit (acts.w16: per
// block the 16 even elements, then the 16 odd ones; positions ystride
// bytes apart). Per block, each row's 32 quants are loaded once and
// sign-extended in place into their even and odd bytes (VPSLLW/VPSRAW),
// and a unit (one row, one position) is then VPMADDWD even, VPMADDWD odd,
// VPADDD: dword lane l is exactly the integer lane l (elements 4l..4l+3)
// of the canonical order, with no sign trick (VPSIGNB, or (a^m)-m) and no
// VPMADDWD by ones: one vector instruction a unit fewer than with 8-bit
// activations (VPMADDUBSW).
//
// d4 holds the positions' activation scales four by four (acts.d4: per
// group of four positions, per block, the four scales), so that one
// VBROADCASTF128 loads a block's from one sequential stream (gathering
// them with VINSERTPS from four strided streams cost little with
// everything in cache, but 12% of a whole TinyLlama prefill: 54 -> 61.6
// tok/s). Per block, one VMULPS forms the eight scale products dx*dy (the
// bits of the scalar products) and stores them on the stack, where each
// unit broadcasts its own from memory: no shuffle per unit. Staying in the
// kernel for all the groups saves a call and a scatter per four
// positions. next as for q80Vec4AVX2, during the first group only.
//
// Cost on the Zen 2 EPYC (BenchmarkQ8BatchAVX2Cycles): 3.04 cycles per
// 32-element block of one row and one position, where the two multiplies
// (VPMADDWD, one pipe) need 2; the 8-bit kernel this replaced, 3.15-3.2
// (VPSIGNB, or (a^m)-m, then VPMADDUBSW, VPMADDWD by ones). Every vector
// instruction beside the multiplies costs about a third of a cycle
// whichever pipe it takes (measured by leaving each out: VFMADD231PS ->
// VADDPS 0.15 a unit, VCVTDQ2PS 0.33, the scale VBROADCASTSS 0.23, the
// per-block scale products 0.17 a unit; without all of them 2.07). Also
// measured and no faster: the activations loaded once into registers for
// both rows (3.15: an explicit load costs like an instruction, a folded
// one does not), and, for the 8-bit kernel, the weights held in registers,
// the float step one position behind the integer step, two blocks an
// iteration, an exact int-to-float via VPADDD/VSUBPS of 0x4b400000 in
// place of VCVTDQ2PS, and lanes 0..3 and 4..7 of both rows in one register
// each. For this kernel, also no faster: the two rows' quants widened and
// their scales spread once per call (in chunks of 32 blocks, into the
// frame) instead of once per group, read back with four loads a block
// (3.12-3.37 against 3.07-3.15 alternated; an explicit load costs about
// as much as the shifts it saves), and the scales stored twice in d4 to
// be a VMULPS operand with the row scales spread by one VPSHUFB
// (BenchmarkQ8Prefill within 1%), and one row for eight positions (its
// block widened and its eight scale products formed once for eight
// units: about 2 shared instructions a unit instead of 2.75), 3.10-3.25
// against 3.10-3.26: what bounds the kernel is the six instructions of
// each unit, not the per-block work.
TEXT ·q80Batch2xNAVX2(SB), NOSPLIT, $40-80
	MOVQ  w+0(FP), R14
	MOVQ  rs+8(FP), R8
	MOVQ  ystride+24(FP), R10
	MOVQ  y+16(FP), AX
	MOVQ  AX, 32(SP)
	MOVQ  d4+32(FP), DX
	MOVQ  groups+48(FP), R9
	MOVQ  next+56(FP), BX
	TESTQ BX, BX
	JZ    q8w24nextok
	ADDQ  R14, BX

q8w24nextok:
	MOVQ out+64(FP), AX

q8w24group:
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

q8w24loop:
	VMOVDQU        2(SI), Y8
	VMOVDQU        2(SI)(R8*1), Y10
	VPSRAW         $8, Y8, Y9
	VPSRAW         $8, Y10, Y11
	VPSLLW         $8, Y8, Y8
	VPSLLW         $8, Y10, Y10
	VPSRAW         $8, Y8, Y8
	VPSRAW         $8, Y10, Y10
	VBROADCASTF128 (DX), Y14
	VPBROADCASTW   (SI), X12
	VPBROADCASTW   (SI)(R8*1), X13
	VPUNPCKLQDQ    X13, X12, X12
	VCVTPH2PS      X12, Y12
	VMULPS         Y14, Y12, Y12
	VMOVUPS        Y12, (SP)
	Q8W_P((DI), 32(DI), 0, 16, Y0, Y4)
	Q8W_P((DI)(R10*1), 32(DI)(R10*1), 4, 20, Y1, Y5)
	Q8W_P((DI)(R10*2), 32(DI)(R10*2), 8, 24, Y2, Y6)
	Q8W_P((R11), 32(R11), 12, 28, Y3, Y7)
	TESTQ          BX, BX
	JZ             q8w24nopf
	PREFETCHT0     0(BX)
	PREFETCHT0     64(BX)
	ADDQ           $68, BX

q8w24nopf:
	ADDQ $34, SI
	ADDQ $64, DI
	ADDQ $64, R11
	ADDQ $16, DX
	DECQ CX
	JNZ  q8w24loop

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
	JNZ  q8w24group
	VZEROUPPER
	RET

// func widenQ8AVX2(qs *int8, w *int16, nb int)
// Per block: word k of the even half is byte 2k sign-extended (shifted up
// and arithmetically back), of the odd half byte 2k+1 (shifted down).
TEXT ·widenQ8AVX2(SB), NOSPLIT, $0-24
	MOVQ qs+0(FP), SI
	MOVQ w+8(FP), DI
	MOVQ nb+16(FP), CX

q8wideloop:
	VMOVDQU (SI), Y0
	VPSLLW  $8, Y0, Y1
	VPSRAW  $8, Y0, Y0
	VPSRAW  $8, Y1, Y1
	VMOVDQU Y1, (DI)
	VMOVDQU Y0, 32(DI)
	ADDQ    $32, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     q8wideloop
	VZEROUPPER
	RET

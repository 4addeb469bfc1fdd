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

// Q8B_POS: the current block of both rows for one position (activations at
// YP, activation scale at DP), into ACC0 (row 0) and ACC1 (row 1). Y8 and
// Y9 hold the rows' weight magnitudes, X10 and X11 their scales as float.
#define Q8B_POS(YP, DP, ACC0, ACC1) \
	VMOVDQU      YP, Y12;           \
	VPSIGNB      2(SI), Y12, Y13;   \
	VPMADDUBSW   Y13, Y8, Y13;      \
	VPMADDWD     Y15, Y13, Y13;     \
	VCVTDQ2PS    Y13, Y13;          \
	VMULSS       DP, X10, X14;      \
	VBROADCASTSS X14, Y14;          \
	VFMADD231PS  Y14, Y13, ACC0;    \
	VPSIGNB      2(SI)(R8*1), Y12, Y13; \
	VPMADDUBSW   Y13, Y9, Y13;      \
	VPMADDWD     Y15, Y13, Y13;     \
	VCVTDQ2PS    Y13, Y13;          \
	VMULSS       DP, X11, X14;      \
	VBROADCASTSS X14, Y14;          \
	VFMADD231PS  Y14, Y13, ACC1

// func q80Batch2x4AVX2(w *byte, rs int, y *int8, ystride int, d *float32, dstride int, nb int, next int, out *[8]float32)
// Two rows (rs bytes apart) for four positions (quants ystride bytes,
// scales dstride floats apart); out[2*p+r]. Each block's weights are
// loaded once for the four positions. next as for q80Vec4AVX2.
TEXT ·q80Batch2x4AVX2(SB), NOSPLIT, $0-72
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  ystride+24(FP), R10
	LEAQ  (DI)(R10*2), R11
	ADDQ  R10, R11
	MOVQ  d+32(FP), DX
	MOVQ  dstride+40(FP), R12
	SHLQ  $2, R12
	LEAQ  (DX)(R12*2), R13
	ADDQ  R12, R13
	MOVQ  nb+48(FP), CX
	MOVQ  next+56(FP), BX
	TESTQ BX, BX
	JZ    q8b24nextok
	ADDQ  SI, BX

q8b24nextok:
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2
	VPXOR   Y3, Y3, Y3
	VPXOR   Y4, Y4, Y4
	VPXOR   Y5, Y5, Y5
	VPXOR   Y6, Y6, Y6
	VPXOR   Y7, Y7, Y7
	VMOVDQU q8avxOnes<>(SB), Y15

q8b24loop:
	TESTQ     CX, CX
	JZ        q8b24done
	VPABSB    2(SI), Y8
	VPABSB    2(SI)(R8*1), Y9
	MOVWLZX   (SI), AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	MOVWLZX   (SI)(R8*1), AX
	VMOVD     AX, X11
	VCVTPH2PS X11, X11
	Q8B_POS((DI), (DX), Y0, Y4)
	Q8B_POS((DI)(R10*1), (DX)(R12*1), Y1, Y5)
	Q8B_POS((DI)(R10*2), (DX)(R12*2), Y2, Y6)
	Q8B_POS((R11), (R13), Y3, Y7)
	TESTQ     BX, BX
	JZ        q8b24nopf
	PREFETCHT0 0(BX)
	PREFETCHT0 64(BX)
	ADDQ      $68, BX

q8b24nopf:
	ADDQ $34, SI
	ADDQ $32, DI
	ADDQ $32, R11
	ADDQ $4, DX
	ADDQ $4, R13
	DECQ CX
	JMP  q8b24loop

q8b24done:
	MOVQ out+64(FP), AX
	Q8_FIN(Y0, X0, 0(AX))
	Q8_FIN(Y4, X4, 4(AX))
	Q8_FIN(Y1, X1, 8(AX))
	Q8_FIN(Y5, X5, 12(AX))
	Q8_FIN(Y2, X2, 16(AX))
	Q8_FIN(Y6, X6, 20(AX))
	Q8_FIN(Y3, X3, 24(AX))
	Q8_FIN(Y7, X7, 28(AX))
	VZEROUPPER
	RET

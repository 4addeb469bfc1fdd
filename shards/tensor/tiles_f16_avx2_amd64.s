//go:build amd64 && !purego

#include "textflag.h"

// AVX2 tile kernels for F16 weights (tiles_f16_avx2_amd64.go). Each output
// keeps dotF16's order: element e of the first n (a multiple of 32) goes
// to lane e%32 of 32 float lanes with a separate multiply and add (the
// products of two f16 values are exact in float32), then v[l] =
// (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]) and hsum8; the Go wrapper adds
// the tail. The activations come as float32 (acts.hf), already rounded
// to f16, so no kernel widens them again for each row.

// F16_HSUM(ACC, XACC, DST): hsum8 of ACC (canonical order) into DST.
// Clobbers X15.
#define F16_HSUM(ACC, XACC, DST) \
	VEXTRACTF128 $1, ACC, X15;   \
	VADDPS       X15, XACC, XACC; \
	VMOVHLPS     XACC, XACC, X15; \
	VADDPS       X15, XACC, XACC; \
	VMOVSHDUP    XACC, X15;      \
	VADDSS       X15, XACC, XACC; \
	VMOVSS       XACC, DST

// F16_STEP4(ROW, A0, A1, A2, A3): 32 elements of one row (64 bytes at ROW)
// times x at DI into lanes 0-7, 8-15, 16-23, 24-31.
#define F16_STEP4(ROW, A0, A1, A2, A3) \
	VCVTPH2PS 0 ROW, Y8;    \
	VMULPS    0(DI), Y8, Y8; \
	VADDPS    Y8, A0, A0;   \
	VCVTPH2PS 16 ROW, Y9;   \
	VMULPS    32(DI), Y9, Y9; \
	VADDPS    Y9, A1, A1;   \
	VCVTPH2PS 32 ROW, Y10;  \
	VMULPS    64(DI), Y10, Y10; \
	VADDPS    Y10, A2, A2;  \
	VCVTPH2PS 48 ROW, Y11;  \
	VMULPS    96(DI), Y11, Y11; \
	VADDPS    Y11, A3, A3

// func f16Vec2AVX2(w *byte, rs int, x *float32, n int, next int, out *[2]float32)
// Two rows (rs bytes apart) for one position, n elements (a multiple of
// 32). next > 0: the bytes from w+next on (the rows after these) are
// prefetched at the pace these are read, two lines a step.
TEXT ·f16Vec2AVX2(SB), NOSPLIT, $0-48
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  x+16(FP), DI
	MOVQ  n+24(FP), CX
	SHRQ  $5, CX
	MOVQ  next+32(FP), BX
	TESTQ BX, BX
	JZ    f16v2nextok
	ADDQ  SI, BX

f16v2nextok:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

f16v2loop:
	TESTQ CX, CX
	JZ    f16v2done
	F16_STEP4((SI), Y0, Y1, Y2, Y3)
	F16_STEP4((SI)(R8*1), Y4, Y5, Y6, Y7)
	TESTQ BX, BX
	JZ    f16v2nopf
	PREFETCHT0 0(BX)
	PREFETCHT0 64(BX)
	ADDQ  $128, BX

f16v2nopf:
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JMP  f16v2loop

f16v2done:
	MOVQ   out+40(FP), AX
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VADDPS Y1, Y0, Y0
	F16_HSUM(Y0, X0, 0(AX))
	VADDPS Y6, Y4, Y4
	VADDPS Y7, Y5, Y5
	VADDPS Y5, Y4, Y4
	F16_HSUM(Y4, X4, 4(AX))
	VZEROUPPER
	RET

// F16_POS(XP, A, B): half h's 16 elements (weights widened in Y8, Y9)
// times position XP's x into lanes A (16h..16h+7) and B (16h+8..16h+15).
#define F16_POS(XP, OFF, A, B) \
	VMULPS (OFF)XP, Y8, Y10;    \
	VADDPS Y10, A, A;           \
	VMULPS (OFF+32)XP, Y9, Y11; \
	VADDPS Y11, B, B

// F16_PASS(h, loop, done): lanes 16h..16h+15 of the four positions into
// Y0-Y7 (A, B of position p in Y(2p), Y(2p+1)), for CX steps from the
// weights at SI and x at DI (positions R12 bytes apart).
#define F16_PASS(h, loop, done) \
	MOVQ   CX, R10;               \
	MOVQ   SI, R11;               \
	MOVQ   DI, R9;                \
	LEAQ   (DI)(R12*2), R13;      \
	ADDQ   R12, R13;              \
	VXORPS Y0, Y0, Y0;            \
	VXORPS Y1, Y1, Y1;            \
	VXORPS Y2, Y2, Y2;            \
	VXORPS Y3, Y3, Y3;            \
	VXORPS Y4, Y4, Y4;            \
	VXORPS Y5, Y5, Y5;            \
	VXORPS Y6, Y6, Y6;            \
	VXORPS Y7, Y7, Y7;            \
loop:                                 \
	TESTQ     R10, R10;           \
	JZ        done;               \
	VCVTPH2PS (32*h)(R11), Y8;    \
	VCVTPH2PS (32*h+16)(R11), Y9; \
	F16_POS((R9), 64*h, Y0, Y1);  \
	F16_POS((R9)(R12*1), 64*h, Y2, Y3); \
	F16_POS((R9)(R12*2), 64*h, Y4, Y5); \
	F16_POS((R13), 64*h, Y6, Y7); \
	ADDQ      $64, R11;           \
	ADDQ      $128, R9;           \
	ADDQ      $128, R13;          \
	DECQ      R10;                \
	JMP       loop;               \
done:

// F16_OUT(p, A, B, DST): out[p] from the first pass's lanes (frame) and
// the second's (A: 16-23, B: 24-31).
#define F16_OUT(p, A, XA, B, DST) \
	VADDPS (64*p)(SP), A, A;      \
	VADDPS (64*p+32)(SP), B, B;   \
	VADDPS B, A, A;               \
	F16_HSUM(A, XA, DST)

// func f16Batch4AVX2(w *byte, x *float32, xstride int, n int, out *[4]float32)
// One row for four positions (x rows xstride bytes apart), n elements (a
// multiple of 32), in two passes over the row so that the 32 lanes of
// four outputs fit the registers: lanes 0-15 (kept in the frame), then
// 16-31. Each half of the row is widened once for the four positions.
TEXT ·f16Batch4AVX2(SB), NOSPLIT, $256-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), R12
	MOVQ n+24(FP), CX
	SHRQ $5, CX
	F16_PASS(0, f16b4loop0, f16b4done0)
	VMOVUPS Y0, 0(SP)
	VMOVUPS Y1, 32(SP)
	VMOVUPS Y2, 64(SP)
	VMOVUPS Y3, 96(SP)
	VMOVUPS Y4, 128(SP)
	VMOVUPS Y5, 160(SP)
	VMOVUPS Y6, 192(SP)
	VMOVUPS Y7, 224(SP)
	F16_PASS(1, f16b4loop1, f16b4done1)
	MOVQ out+32(FP), AX
	// v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]).
	F16_OUT(0, Y0, X0, Y1, 0(AX))
	F16_OUT(1, Y2, X2, Y3, 4(AX))
	F16_OUT(2, Y4, X4, Y5, 8(AX))
	F16_OUT(3, Y6, X6, Y7, 12(AX))
	VZEROUPPER
	RET

//go:build amd64 && !purego

#include "textflag.h"

// AVX2 tile kernels for F16 weights (tiles_f16_avx2_amd64.go). Each output
// keeps dotF16's order: element e of the first n (a multiple of 32) goes
// to lane e%32 of 32 float lanes with a multiply and an add, or one fused
// multiply-add (the products of two f16 values are exact in float32, so
// both round once, to the same bits), then v[l] =
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

// The 16-row tile (f16TileAVX2): rows in pairs, positions in groups of
// up to six, and each output's 32 lanes in four passes of 8 (lane group
// g: elements 32c+8g..32c+8g+7 of every 32-element chunk c), so that the
// 2×P accumulators of one pass stay in registers (Y0-Y11; row 0 of
// position p in Y(2p), row 1 in Y(2p+1)) while the two rows' weights are
// widened once for all P positions. A pass runs over one K block of
// F16_KB chunks (whose activations stay in L1 for the eight row pairs)
// and keeps its lanes in acc between blocks: output (row R, position p)
// at acc[(R*P+p)*32:], lane group g at +8g. The products of two f16 values
// are exact in float32, so VFMADD231PS gives the bits of dotF16's separate
// multiply and add.

#define F16_KB 16

// F16_LD/F16_ST(O0, O1, A, B): the pass's accumulators of one position
// (row 0 at O0(AX), row 1 at O1(AX)) from/to A, B.
#define F16_LD(O0, O1, A, B) \
	VMOVUPS O0(AX), A; \
	VMOVUPS O1(AX), B
#define F16_ST(O0, O1, A, B) \
	VMOVUPS A, O0(AX); \
	VMOVUPS B, O1(AX)
#define F16_ZERO(O0, O1, A, B) \
	VXORPS A, A, A; \
	VXORPS B, B, B

// F16_ACCIN(ACC, g, skip): the pass's accumulators, zero in the first K
// block (R13 = all the chunks, 32(SP)), from acc after.
#define F16_ACCIN(ACC, g, skip) \
	ACC(F16_ZERO, g);       \
	CMPQ R13, 32(SP);       \
	JEQ  skip;              \
	ACC(F16_LD, g);         \
skip:

// F16_ACCn(OP, g): OP for the accumulators of lane group g, n positions.
#define F16_ACC1(OP, g) \
	OP((0*128+32*g), (1*128+32*g), Y0, Y1)
#define F16_ACC2(OP, g) \
	OP((0*128+32*g), (2*128+32*g), Y0, Y1); \
	OP((1*128+32*g), (3*128+32*g), Y2, Y3)
#define F16_ACC3(OP, g) \
	OP((0*128+32*g), (3*128+32*g), Y0, Y1); \
	OP((1*128+32*g), (4*128+32*g), Y2, Y3); \
	OP((2*128+32*g), (5*128+32*g), Y4, Y5)
#define F16_ACC4(OP, g) \
	OP((0*128+32*g), (4*128+32*g), Y0, Y1); \
	OP((1*128+32*g), (5*128+32*g), Y2, Y3); \
	OP((2*128+32*g), (6*128+32*g), Y4, Y5); \
	OP((3*128+32*g), (7*128+32*g), Y6, Y7)
#define F16_ACC5(OP, g) \
	OP((0*128+32*g), (5*128+32*g), Y0, Y1); \
	OP((1*128+32*g), (6*128+32*g), Y2, Y3); \
	OP((2*128+32*g), (7*128+32*g), Y4, Y5); \
	OP((3*128+32*g), (8*128+32*g), Y6, Y7); \
	OP((4*128+32*g), (9*128+32*g), Y8, Y9)
#define F16_ACC6(OP, g) \
	OP((0*128+32*g), (6*128+32*g), Y0, Y1); \
	OP((1*128+32*g), (7*128+32*g), Y2, Y3); \
	OP((2*128+32*g), (8*128+32*g), Y4, Y5); \
	OP((3*128+32*g), (9*128+32*g), Y6, Y7); \
	OP((4*128+32*g), (10*128+32*g), Y8, Y9); \
	OP((5*128+32*g), (11*128+32*g), Y10, Y11)

// F16_XFMA(XA, A, B): position's 8 activations at XA times both rows.
#define F16_XFMA(XA, A, B) \
	VMOVUPS     XA, Y12;     \
	VFMADD231PS Y14, Y12, A; \
	VFMADD231PS Y15, Y12, B

// F16_FMAn(o): one chunk's lane group for n positions (x of position p
// at o + DI + p*R10 for p < 3, o + R11 + (p-3)*R10 after).
#define F16_FMA1(o) \
	F16_XFMA(o(DI), Y0, Y1)
#define F16_FMA2(o) \
	F16_FMA1(o); \
	F16_XFMA(o(DI)(R10*1), Y2, Y3)
#define F16_FMA3(o) \
	F16_FMA2(o); \
	F16_XFMA(o(DI)(R10*2), Y4, Y5)
#define F16_FMA4(o) \
	F16_FMA3(o); \
	F16_XFMA(o(R11), Y6, Y7)
#define F16_FMA5(o) \
	F16_FMA4(o); \
	F16_XFMA(o(R11)(R10*1), Y8, Y9)
#define F16_FMA6(o) \
	F16_FMA5(o); \
	F16_XFMA(o(R11)(R10*2), Y10, Y11)

// F16_W2(o): the chunk's lane group of both rows (o bytes from SI),
// widened into Y14 and Y15.
#define F16_W2(o) \
	VMOVDQU   o(SI), X14;       \
	VCVTPH2PS X14, Y14;         \
	VMOVDQU   o(SI)(R8*1), X15; \
	VCVTPH2PS X15, Y15

// F16_PF(o) prefetches the lines R12 bytes on from the rows' lines at
// o(SI) (the next tile's rows; R15 = R12 + row bytes for the second
// row); F16_NOPF does not.
#define F16_PF(o) \
	PREFETCHT0 o(SI)(R12*1); \
	PREFETCHT0 o(SI)(R15*1)
#define F16_NOPF(o)

// F16_TPASS(g, ACC, FMAS, PF, loop, mid, in): lane group g of the row
// pair at R14 for the K block (0(SP) chunks, activations from DX), two
// chunks a step (an odd count enters at the second).
#define F16_TPASS(g, ACC, FMAS, PF, loop, mid, in) \
	LEAQ      (16*g)(R14), SI;  \
	LEAQ      (32*g)(DX), DI;   \
	LEAQ      (DI)(R10*2), R11; \
	ADDQ      R10, R11;         \
	MOVQ      0(SP), CX;        \
	F16_ACCIN(ACC, g, in);      \
	TESTQ     $1, CX;           \
	JZ        loop;             \
	SUBQ      $64, SI;          \
	SUBQ      $128, DI;         \
	SUBQ      $128, R11;        \
	INCQ      CX;               \
	JMP       mid;              \
loop:                               \
	F16_W2(0);                  \
	PF(0);                      \
	FMAS(0);                    \
mid:                                \
	F16_W2(64);                 \
	PF(64);                     \
	FMAS(128);                  \
	ADDQ      $128, SI;         \
	ADDQ      $256, DI;         \
	ADDQ      $256, R11;        \
	SUBQ      $2, CX;           \
	JNZ       loop;             \
	ACC(F16_ST, g)

// F16_TPAIR(ACC, FMAS, labels...): the four passes of one row pair; the
// first, which reads every line of the pair's rows first, also prefetches
// if the pair is in the range 40(SP)..48(SP) (acc addresses).
#define F16_TPAIR(ACC, FMAS, np, rest, l, m, i, l0, m0, i0, l1, m1, i1, l2, m2, i2, l3, m3, i3) \
	CMPQ AX, 40(SP);                                 \
	JB   np;                                         \
	CMPQ AX, 48(SP);                                 \
	JAE  np;                                         \
	F16_TPASS(0, ACC, FMAS, F16_PF, l, m, i);        \
	JMP  rest;                                       \
np:                                                      \
	F16_TPASS(0, ACC, FMAS, F16_NOPF, l0, m0, i0);   \
rest:                                                    \
	F16_TPASS(1, ACC, FMAS, F16_NOPF, l1, m1, i1);   \
	F16_TPASS(2, ACC, FMAS, F16_NOPF, l2, m2, i2);   \
	F16_TPASS(3, ACC, FMAS, F16_NOPF, l3, m3, i3);   \
	JMP  f16tpairdone

// func f16TileAVX2(w *byte, rs int, x *float32, xs int, n int, pairs int, p int, acc *float32, pf int, pfFrom int, pfTo int, out *float32, os int)
// Rows w + r*rs (r < 2*pairs) times positions x + q*xs bytes (q < p,
// 1 <= p <= 6) over n >= 1 chunks of 32 elements: out[q*os+r] = the
// canonical sum of the chunks (dotF16 before its tail). acc has room for
// 2*pairs*p outputs of 32 floats. The lines pf bytes after the row pairs
// pfFrom..pfTo-1 are prefetched as those are read.
TEXT ·f16TileAVX2(SB), NOSPLIT, $56-104
	MOVQ  w+0(FP), BX
	MOVQ  rs+8(FP), R8
	MOVQ  x+16(FP), DX
	MOVQ  xs+24(FP), R10
	MOVQ  n+32(FP), R13
	MOVQ  R13, 32(SP)
	MOVQ  p+48(FP), R9
	MOVQ  pf+64(FP), R12
	LEAQ  (R12)(R8*1), R15
	// 16(SP): acc; 24(SP): a row pair's accumulator bytes (p*256);
	// 8(SP): the end of acc.
	MOVQ  acc+56(FP), AX
	MOVQ  AX, 16(SP)
	MOVQ  R9, CX
	SHLQ  $8, CX
	MOVQ  CX, 24(SP)
	IMULQ pairs+40(FP), CX
	ADDQ  AX, CX
	MOVQ  CX, 8(SP)
	// 40(SP), 48(SP): the accumulators of pairs pfFrom and pfTo.
	MOVQ  24(SP), CX
	IMULQ pfFrom+72(FP), CX
	ADDQ  AX, CX
	MOVQ  CX, 40(SP)
	MOVQ  24(SP), CX
	IMULQ pfTo+80(FP), CX
	ADDQ  AX, CX
	MOVQ  CX, 48(SP)

f16tblock:
	// 0(SP): the chunks of this K block.
	MOVQ    $F16_KB, CX
	CMPQ    R13, CX
	CMOVQLT R13, CX
	MOVQ    CX, 0(SP)
	MOVQ    16(SP), AX
	MOVQ    BX, R14

f16tpair:
	CMPQ R9, $6
	JEQ  f16tp6
	CMPQ R9, $5
	JEQ  f16tp5
	CMPQ R9, $4
	JEQ  f16tp4
	CMPQ R9, $3
	JEQ  f16tp3
	CMPQ R9, $2
	JEQ  f16tp2
	F16_TPAIR(F16_ACC1, F16_FMA1, f16t1np, f16t1rest, f16t1l, f16t1m, f16t1i, f16t1l0, f16t1m0, f16t1i0, f16t1l1, f16t1m1, f16t1i1, f16t1l2, f16t1m2, f16t1i2, f16t1l3, f16t1m3, f16t1i3)

f16tp2:
	F16_TPAIR(F16_ACC2, F16_FMA2, f16t2np, f16t2rest, f16t2l, f16t2m, f16t2i, f16t2l0, f16t2m0, f16t2i0, f16t2l1, f16t2m1, f16t2i1, f16t2l2, f16t2m2, f16t2i2, f16t2l3, f16t2m3, f16t2i3)

f16tp3:
	F16_TPAIR(F16_ACC3, F16_FMA3, f16t3np, f16t3rest, f16t3l, f16t3m, f16t3i, f16t3l0, f16t3m0, f16t3i0, f16t3l1, f16t3m1, f16t3i1, f16t3l2, f16t3m2, f16t3i2, f16t3l3, f16t3m3, f16t3i3)

f16tp4:
	F16_TPAIR(F16_ACC4, F16_FMA4, f16t4np, f16t4rest, f16t4l, f16t4m, f16t4i, f16t4l0, f16t4m0, f16t4i0, f16t4l1, f16t4m1, f16t4i1, f16t4l2, f16t4m2, f16t4i2, f16t4l3, f16t4m3, f16t4i3)

f16tp5:
	F16_TPAIR(F16_ACC5, F16_FMA5, f16t5np, f16t5rest, f16t5l, f16t5m, f16t5i, f16t5l0, f16t5m0, f16t5i0, f16t5l1, f16t5m1, f16t5i1, f16t5l2, f16t5m2, f16t5i2, f16t5l3, f16t5m3, f16t5i3)

f16tp6:
	F16_TPAIR(F16_ACC6, F16_FMA6, f16t6np, f16t6rest, f16t6l, f16t6m, f16t6i, f16t6l0, f16t6m0, f16t6i0, f16t6l1, f16t6m1, f16t6i1, f16t6l2, f16t6m2, f16t6i2, f16t6l3, f16t6m3, f16t6i3)

f16tpairdone:
	ADDQ 24(SP), AX
	LEAQ (R14)(R8*2), R14
	CMPQ AX, 8(SP)
	JB   f16tpair

	// The next K block.
	MOVQ 0(SP), CX
	SUBQ CX, R13
	SHLQ $6, CX
	ADDQ CX, BX
	ADDQ CX, DX
	ADDQ CX, DX
	TESTQ R13, R13
	JNZ  f16tblock

	// out = hsum8((acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l])), row by row.
	MOVQ 16(SP), AX
	MOVQ out+88(FP), DI
	MOVQ os+96(FP), R11
	SHLQ $2, R11

f16trow:
	MOVQ DI, SI
	MOVQ R9, CX

f16tout:
	VMOVUPS 0(AX), Y0
	VADDPS  64(AX), Y0, Y0
	VMOVUPS 32(AX), Y1
	VADDPS  96(AX), Y1, Y1
	VADDPS  Y1, Y0, Y0
	F16_HSUM(Y0, X0, 0(SI))
	ADDQ    $128, AX
	ADDQ    R11, SI
	DECQ    CX
	JNZ     f16tout
	ADDQ    $4, DI
	CMPQ    AX, 8(SP)
	JB      f16trow
	VZEROUPPER
	RET

// F16_V2STEP: 32 elements of rows SI and SI+R8 times x at DI into Y0-Y3
// and Y4-Y7.
#define F16_V2STEP \
	VMOVUPS     (DI), Y12;        \
	VMOVDQU     (SI), X8;         \
	VCVTPH2PS   X8, Y8;           \
	VFMADD231PS Y12, Y8, Y0;      \
	VMOVDQU     (SI)(R8*1), X9;   \
	VCVTPH2PS   X9, Y9;           \
	VFMADD231PS Y12, Y9, Y4;      \
	VMOVUPS     32(DI), Y13;      \
	VMOVDQU     16(SI), X10;      \
	VCVTPH2PS   X10, Y10;         \
	VFMADD231PS Y13, Y10, Y1;     \
	VMOVDQU     16(SI)(R8*1), X11; \
	VCVTPH2PS   X11, Y11;         \
	VFMADD231PS Y13, Y11, Y5;     \
	VMOVUPS     64(DI), Y12;      \
	VMOVDQU     32(SI), X8;       \
	VCVTPH2PS   X8, Y8;           \
	VFMADD231PS Y12, Y8, Y2;      \
	VMOVDQU     32(SI)(R8*1), X9; \
	VCVTPH2PS   X9, Y9;           \
	VFMADD231PS Y12, Y9, Y6;      \
	VMOVUPS     96(DI), Y13;      \
	VMOVDQU     48(SI), X10;      \
	VCVTPH2PS   X10, Y10;         \
	VFMADD231PS Y13, Y10, Y3;     \
	VMOVDQU     48(SI)(R8*1), X11; \
	VCVTPH2PS   X11, Y11;         \
	VFMADD231PS Y13, Y11, Y7

// func f16VecAVX2(w *byte, rs int, pairs int, x *float32, n int, pf int, out *float32)
// 2*pairs rows (rs bytes apart) for one position, n >= 32 elements (a
// multiple of 32): out[r]. Two rows at a time, which share the loads of x;
// the lines pf bytes after those read are prefetched (pf = 0: the rows'
// own lines, which costs little).
TEXT ·f16VecAVX2(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), BX
	MOVQ rs+8(FP), R8
	MOVQ pairs+16(FP), R9
	MOVQ x+24(FP), DX
	MOVQ n+32(FP), R10
	SHRQ $5, R10
	MOVQ pf+40(FP), R12
	LEAQ (R12)(R8*1), R15
	MOVQ out+48(FP), AX

f16v2row:
	MOVQ   BX, SI
	MOVQ   DX, DI
	MOVQ   R10, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

f16v2pstep:
	PREFETCHT0 (SI)(R12*1)
	PREFETCHT0 (SI)(R15*1)
	F16_V2STEP
	ADDQ       $64, SI
	ADDQ       $128, DI
	DECQ       CX
	JNZ        f16v2pstep
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VADDPS Y1, Y0, Y0
	F16_HSUM(Y0, X0, 0(AX))
	VADDPS Y6, Y4, Y4
	VADDPS Y7, Y5, Y5
	VADDPS Y5, Y4, Y4
	F16_HSUM(Y4, X4, 4(AX))
	ADDQ   $8, AX
	LEAQ   (BX)(R8*2), BX
	DECQ   R9
	JNZ    f16v2row
	VZEROUPPER
	RET

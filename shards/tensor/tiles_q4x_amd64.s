//go:build amd64 && !purego && !avx512sim

#include "textflag.h"

// Q4_0 tile kernels over the x layout of packq4x.go: sixteen rows, one or
// several positions. Registers: Z0..Z3 low nibbles and Z4..Z7 high nibbles
// of the four 64-byte quant groups of a block (dword lane r = row r), Z8 the
// sixteen block scales as float32, Z31 the nibble mask, Z30 the affine
// matrix of the high nibbles (GFNI). Each VPDPBUSD
// multiplies the unsigned nibbles by one broadcast activation dword, so lane
// r collects row r's integer dot directly; the accumulator starts at the
// precomputed bias -8*sum(activations), which makes the sum that of (n-8)*a
// exactly. The float step is dotQ4_0's: acc = fma(float(sum), scale*d, acc).

// Q4X_W(QO, SO): unpack the quants at QO(SI) into Z0..Z7 and convert the
// scales at SO(SI) into Z8. The high nibbles take one GF(2) affine map
// each (Z30: shift each byte right by four), which is a shift and a mask
// in one instruction: fewer instructions per block let the out-of-order
// window span more bytes of the stream.
#define Q4X_W(QO, SO) \
	VMOVDQU64      QO+0(SI), Z0;    \
	VMOVDQU64      QO+64(SI), Z1;   \
	VMOVDQU64      QO+128(SI), Z2;  \
	VMOVDQU64      QO+192(SI), Z3;  \
	VGF2P8AFFINEQB $0, Z30, Z0, Z4; \
	VGF2P8AFFINEQB $0, Z30, Z1, Z5; \
	VGF2P8AFFINEQB $0, Z30, Z2, Z6; \
	VGF2P8AFFINEQB $0, Z30, Z3, Z7; \
	VPANDD         Z31, Z0, Z0;     \
	VPANDD         Z31, Z1, Z1;     \
	VPANDD         Z31, Z2, Z2;     \
	VPANDD         Z31, Z3, Z3;     \
	VCVTPH2PS      SO(SI), Z8

// Q4X_POS(YO, DA, BA, I, T, ACC): one position of one block: activations
// at YO(DI) (32 int8), activation scale at DA, bias at BA; I and T scratch.
// One integer chain: the unrolled loop's two blocks are independent, so
// the out-of-order core overlaps their VPDPBUSD latencies without a second
// chain per block (which cost a zeroing and an add).
#define Q4X_POS(YO, DA, BA, I, T, ACC) \
	VPBROADCASTD  BA, I;             \
	VPDPBUSD.BCST YO+0(DI), Z0, I;   \
	VPDPBUSD.BCST YO+16(DI), Z4, I;  \
	VPDPBUSD.BCST YO+4(DI), Z1, I;   \
	VPDPBUSD.BCST YO+20(DI), Z5, I;  \
	VPDPBUSD.BCST YO+8(DI), Z2, I;   \
	VPDPBUSD.BCST YO+24(DI), Z6, I;  \
	VPDPBUSD.BCST YO+12(DI), Z3, I;  \
	VPDPBUSD.BCST YO+28(DI), Z7, I;  \
	VCVTDQ2PS     I, I;              \
	VMULPS.BCST   DA, Z8, T;         \
	VFMADD231PS   T, I, ACC

// Q4X_MASK: Z31 the low-nibble mask, Z30 the affine matrix whose output
// bit i (row byte 7-i) is input bit i+4 for i < 4 and 0 above.
#define Q4X_MASK \
	MOVL         $0x0f0f0f0f, R15; \
	VPBROADCASTD R15, Z31; \
	MOVQ         $0x1020408000000000, R15; \
	VPBROADCASTQ R15, Z30

// Q4X_PREFETCH(skip): the pair of blocks R15 bytes ahead (nine cache
// lines), unless R15 is 0.
#define Q4X_PREFETCH(skip) \
	TESTQ R15, R15; \
	JZ skip; \
	PREFETCHT0 0(SI)(R15*1); \
	PREFETCHT0 64(SI)(R15*1); \
	PREFETCHT0 128(SI)(R15*1); \
	PREFETCHT0 192(SI)(R15*1); \
	PREFETCHT0 256(SI)(R15*1); \
	PREFETCHT0 320(SI)(R15*1); \
	PREFETCHT0 384(SI)(R15*1); \
	PREFETCHT0 448(SI)(R15*1); \
	PREFETCHT0 512(SI)(R15*1); \
skip:

// func q40xVec16(w *byte, nb int, y *int8, d *float32, bias *int32, out *float32, pf int)
TEXT ·q40xVec16(SB), NOSPLIT, $0-56
	MOVQ   w+0(FP), SI
	MOVQ   nb+8(FP), CX
	MOVQ   y+16(FP), DI
	MOVQ   d+24(FP), DX
	MOVQ   bias+32(FP), BX
	Q4X_MASK
	MOVQ   pf+48(FP), R15
	VPXORD Z16, Z16, Z16
	TESTQ  R15, R15
	JNZ    q4xvpairs

	// Without prefetches, four blocks (two pairs, 1152 bytes) per step:
	// less loop overhead per block.
	SUBQ $4, CX
	JLT  q4xvquadsdone

q4xvquads:
	Q4X_W(0, 512)
	Q4X_POS(0, (DX), (BX), Z9, Z11, Z16)
	Q4X_W(256, 544)
	Q4X_POS(32, 4(DX), 4(BX), Z12, Z14, Z16)
	Q4X_W(576, 1088)
	Q4X_POS(64, 8(DX), 8(BX), Z9, Z11, Z16)
	Q4X_W(832, 1120)
	Q4X_POS(96, 12(DX), 12(BX), Z12, Z14, Z16)
	ADDQ $1152, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, BX
	SUBQ $4, CX
	JGE  q4xvquads

q4xvquadsdone:
	ADDQ $4, CX

q4xvpairs:
	CMPQ CX, $2
	JLT  q4xvtail

	// Two blocks (576 bytes, nine cache lines) per step, the tile read
	// front to back with a software prefetch pf bytes ahead.
q4xvloop:
	Q4X_PREFETCH(q4xvnopf)
	Q4X_W(0, 512)
	Q4X_POS(0, (DX), (BX), Z9, Z11, Z16)
	Q4X_W(256, 544)
	Q4X_POS(32, 4(DX), 4(BX), Z12, Z14, Z16)
	ADDQ $576, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, BX
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xvloop

q4xvtail:
	TESTQ CX, CX
	JZ    q4xvdone
	Q4X_W(0, 256)
	Q4X_POS(0, (DX), (BX), Z9, Z11, Z16)

q4xvdone:
	MOVQ    out+40(FP), AX
	VMOVUPS Z16, (AX)
	VZEROUPPER
	RET

// Q4X_ADV: the activations, scales and biases of every position one
// block on.
#define Q4X_ADV \
	ADDQ $32, DI; \
	ADDQ $32, R8; \
	ADDQ $4, DX;  \
	ADDQ $4, R11; \
	ADDQ $4, AX;  \
	ADDQ $4, BX

// The kernels of q40xBatch16 for 1..8 positions (Q4X_Bn) are composed
// from per-position steps, so position k has the same registers and
// addresses in every count: its bias at (AX|BX)+, activations at
// (DI|R8)+, scale at (DX|R11)+, result in Z16+k-1. Positions 1..3 keep two
// integer chains each (one from the bias over the low-nibble groups, one
// from zero over the high ones, added at the end); from four on there are
// not registers enough and each position has one. The VPDPBUSDs of all
// positions are interleaved group by group.

// Q4X_F(ACC, D, T, OUT): the float step of one position,
// OUT += float(ACC) * (scale * D); T scratch.
#define Q4X_F(ACC, D, T, OUT) \
	VCVTDQ2PS   ACC, ACC;     \
	VMULPS.BCST D, Z8, T;     \
	VFMADD231PS T, ACC, OUT

// Q4X_GROUPS2(LO, HI): the eight 4-byte activation groups of a block with
// the quant registers that take them, in the kernels' order: LO for the
// low nibbles, HI for the high ones. Q4X_GROUPS(G) gives both to G.
#define Q4X_GROUPS2(LO, HI) \
	LO(0, Z0);  \
	HI(16, Z4); \
	LO(4, Z1);  \
	HI(20, Z5); \
	LO(8, Z2);  \
	HI(24, Z6); \
	LO(12, Z3); \
	HI(28, Z7)

#define Q4X_GROUPS(G) Q4X_GROUPS2(G, G)

// Two chains per position, positions 1..n: Q4X_I2_n starts them,
// Q4X_LO2_n / Q4X_HI2_n add one group, Q4X_E2_n ends them.

#define Q4X_I2_1 \
	VPBROADCASTD (AX), Z9; VPXORD Z10, Z10, Z10

#define Q4X_LO2_1(O, W) \
	VPDPBUSD.BCST O(DI), W, Z9

#define Q4X_HI2_1(O, W) \
	VPDPBUSD.BCST O(DI), W, Z10

#define Q4X_E2_1 \
	VPADDD Z10, Z9, Z9; Q4X_F(Z9, (DX), Z25, Z16)

#define Q4X_I2_2 \
	Q4X_I2_1; \
	VPBROADCASTD (AX)(R12*1), Z11; VPXORD Z12, Z12, Z12

#define Q4X_LO2_2(O, W) \
	Q4X_LO2_1(O, W); \
	VPDPBUSD.BCST O(DI)(R9*1), W, Z11

#define Q4X_HI2_2(O, W) \
	Q4X_HI2_1(O, W); \
	VPDPBUSD.BCST O(DI)(R9*1), W, Z12

#define Q4X_E2_2 \
	Q4X_E2_1; \
	VPADDD Z12, Z11, Z11; Q4X_F(Z11, (DX)(R12*1), Z26, Z17)

#define Q4X_I2_3 \
	Q4X_I2_2; \
	VPBROADCASTD (AX)(R12*2), Z13; VPXORD Z14, Z14, Z14

#define Q4X_LO2_3(O, W) \
	Q4X_LO2_2(O, W); \
	VPDPBUSD.BCST O(DI)(R9*2), W, Z13

#define Q4X_HI2_3(O, W) \
	Q4X_HI2_2(O, W); \
	VPDPBUSD.BCST O(DI)(R9*2), W, Z14

#define Q4X_E2_3 \
	Q4X_E2_2; \
	VPADDD Z14, Z13, Z13; Q4X_F(Z13, (DX)(R12*2), Z27, Z18)

// One chain per position, positions 1..n, likewise.

#define Q4X_I1_1 \
	VPBROADCASTD (AX), Z9

#define Q4X_G1_1(O, W) \
	VPDPBUSD.BCST O(DI), W, Z9

#define Q4X_E1_1 \
	Q4X_F(Z9, (DX), Z25, Z16)

#define Q4X_I1_2 \
	Q4X_I1_1; \
	VPBROADCASTD (AX)(R12*1), Z10

#define Q4X_G1_2(O, W) \
	Q4X_G1_1(O, W); \
	VPDPBUSD.BCST O(DI)(R9*1), W, Z10

#define Q4X_E1_2 \
	Q4X_E1_1; \
	Q4X_F(Z10, (DX)(R12*1), Z26, Z17)

#define Q4X_I1_3 \
	Q4X_I1_2; \
	VPBROADCASTD (AX)(R12*2), Z11

#define Q4X_G1_3(O, W) \
	Q4X_G1_2(O, W); \
	VPDPBUSD.BCST O(DI)(R9*2), W, Z11

#define Q4X_E1_3 \
	Q4X_E1_2; \
	Q4X_F(Z11, (DX)(R12*2), Z27, Z18)

#define Q4X_I1_4 \
	Q4X_I1_3; \
	VPBROADCASTD (AX)(R13*1), Z12

#define Q4X_G1_4(O, W) \
	Q4X_G1_3(O, W); \
	VPDPBUSD.BCST O(DI)(R10*1), W, Z12

#define Q4X_E1_4 \
	Q4X_E1_3; \
	Q4X_F(Z12, (DX)(R13*1), Z28, Z19)

#define Q4X_I1_5 \
	Q4X_I1_4; \
	VPBROADCASTD (BX), Z13

#define Q4X_G1_5(O, W) \
	Q4X_G1_4(O, W); \
	VPDPBUSD.BCST O(R8), W, Z13

#define Q4X_E1_5 \
	Q4X_E1_4; \
	Q4X_F(Z13, (R11), Z29, Z20)

#define Q4X_I1_6 \
	Q4X_I1_5; \
	VPBROADCASTD (BX)(R12*1), Z14

#define Q4X_G1_6(O, W) \
	Q4X_G1_5(O, W); \
	VPDPBUSD.BCST O(R8)(R9*1), W, Z14

#define Q4X_E1_6 \
	Q4X_E1_5; \
	Q4X_F(Z14, (R11)(R12*1), Z29, Z21)

#define Q4X_I1_7 \
	Q4X_I1_6; \
	VPBROADCASTD (BX)(R12*2), Z15

#define Q4X_G1_7(O, W) \
	Q4X_G1_6(O, W); \
	VPDPBUSD.BCST O(R8)(R9*2), W, Z15

#define Q4X_E1_7 \
	Q4X_E1_6; \
	Q4X_F(Z15, (R11)(R12*2), Z25, Z22)

#define Q4X_I1_8 \
	Q4X_I1_7; \
	VPBROADCASTD (BX)(R13*1), Z24

#define Q4X_G1_8(O, W) \
	Q4X_G1_7(O, W); \
	VPDPBUSD.BCST O(R8)(R10*1), W, Z24

#define Q4X_E1_8 \
	Q4X_E1_7; \
	Q4X_F(Z24, (R11)(R13*1), Z26, Z23)

// Q4X_Bn(QO, SO): one block (quants at QO(SI), scales at SO(SI)) for n
// positions.

#define Q4X_B1(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I2_1; \
	Q4X_GROUPS2(Q4X_LO2_1, Q4X_HI2_1); \
	Q4X_E2_1

#define Q4X_B2(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I2_2; \
	Q4X_GROUPS2(Q4X_LO2_2, Q4X_HI2_2); \
	Q4X_E2_2

#define Q4X_B3(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I2_3; \
	Q4X_GROUPS2(Q4X_LO2_3, Q4X_HI2_3); \
	Q4X_E2_3

#define Q4X_B4(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I1_4; \
	Q4X_GROUPS(Q4X_G1_4); \
	Q4X_E1_4

#define Q4X_B5(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I1_5; \
	Q4X_GROUPS(Q4X_G1_5); \
	Q4X_E1_5

#define Q4X_B6(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I1_6; \
	Q4X_GROUPS(Q4X_G1_6); \
	Q4X_E1_6

#define Q4X_B7(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I1_7; \
	Q4X_GROUPS(Q4X_G1_7); \
	Q4X_E1_7

#define Q4X_B8(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_I1_8; \
	Q4X_GROUPS(Q4X_G1_8); \
	Q4X_E1_8

// Q4X_RUN(B, loop, nopf, tail): the blocks of the tile for one position
// count: pairs of blocks with the prefetch, then a last odd block; then on
// to the stores.
#define Q4X_RUN(B, loop, nopf, tail) \
	CMPQ CX, $2;           \
	JLT  tail;             \
loop:                      \
	Q4X_PREFETCH(nopf);    \
	B(0, 512);             \
	Q4X_ADV;               \
	B(256, 544);           \
	Q4X_ADV;               \
	ADDQ $576, SI;         \
	SUBQ $2, CX;           \
	CMPQ CX, $2;           \
	JGE  loop;             \
tail:                      \
	TESTQ CX, CX;          \
	JZ    q4xbstore;       \
	B(0, 256);             \
	JMP   q4xbstore

// func q40xBatch16(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, p int, out *float32, pf int)
//
// Positions 0..3 are addressed from DI/DX/AX and 4..7 from R8/R11/BX, with
// the strides (R9, R12) and three times them (R10, R13) as index.
TEXT ·q40xBatch16(SB), NOSPLIT, $0-80
	MOVQ w+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), R9
	MOVQ d+32(FP), DX
	MOVQ bias+40(FP), AX
	MOVQ dstride+48(FP), R12
	SHLQ $2, R12
	LEAQ (R9)(R9*2), R10
	LEAQ (R12)(R12*2), R13
	LEAQ (DI)(R9*4), R8
	LEAQ (DX)(R12*4), R11
	LEAQ (AX)(R12*4), BX
	Q4X_MASK
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	MOVQ p+56(FP), R14
	MOVQ pf+72(FP), R15
	CMPQ R14, $1
	JEQ  q4xb1
	CMPQ R14, $2
	JEQ  q4xb2
	CMPQ R14, $3
	JEQ  q4xb3
	CMPQ R14, $4
	JEQ  q4xb4
	CMPQ R14, $5
	JEQ  q4xb5
	CMPQ R14, $6
	JEQ  q4xb6
	CMPQ R14, $7
	JEQ  q4xb7
	CMPQ R14, $8
	JEQ  q4xb8
	JMP q4xbstore

q4xb1:
	Q4X_RUN(Q4X_B1, q4xb1l, q4xb1nopf, q4xb1t)

q4xb2:
	Q4X_RUN(Q4X_B2, q4xb2l, q4xb2nopf, q4xb2t)

q4xb3:
	Q4X_RUN(Q4X_B3, q4xb3l, q4xb3nopf, q4xb3t)

q4xb4:
	Q4X_RUN(Q4X_B4, q4xb4l, q4xb4nopf, q4xb4t)

q4xb5:
	Q4X_RUN(Q4X_B5, q4xb5l, q4xb5nopf, q4xb5t)

q4xb6:
	Q4X_RUN(Q4X_B6, q4xb6l, q4xb6nopf, q4xb6t)

q4xb7:
	Q4X_RUN(Q4X_B7, q4xb7l, q4xb7nopf, q4xb7t)

q4xb8:
	Q4X_RUN(Q4X_B8, q4xb8l, q4xb8nopf, q4xb8t)

	// Stores all eight accumulators (zero past p) into the 16*p outputs.
q4xbstore:
	MOVQ out+64(FP), AX
	CMPQ R14, $0
	JLE  q4xbdone
	VMOVUPS Z16, 0(AX)
	CMPQ R14, $1
	JLE  q4xbdone
	VMOVUPS Z17, 64(AX)
	CMPQ R14, $2
	JLE  q4xbdone
	VMOVUPS Z18, 128(AX)
	CMPQ R14, $3
	JLE  q4xbdone
	VMOVUPS Z19, 192(AX)
	CMPQ R14, $4
	JLE  q4xbdone
	VMOVUPS Z20, 256(AX)
	CMPQ R14, $5
	JLE  q4xbdone
	VMOVUPS Z21, 320(AX)
	CMPQ R14, $6
	JLE  q4xbdone
	VMOVUPS Z22, 384(AX)
	CMPQ R14, $7
	JLE  q4xbdone
	VMOVUPS Z23, 448(AX)

q4xbdone:
	VZEROUPPER
	RET

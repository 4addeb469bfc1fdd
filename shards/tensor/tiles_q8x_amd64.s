//go:build amd64 && !purego && !avx512sim

#include "textflag.h"
#include "prefetch_amd64.h"

// AVX-512 VNNI kernels for Q8_0 weights in the interleaved layout of
// packq8x.go (see tiles_q8x_amd64.go). Per block and 4-element group g, one
// 64-byte load holds the (unsigned, quant+128) quants of all 16 rows,
// dword lane r = row r; VPDPBUSD with the broadcast activation dword,
// starting from the precomputed -128*sum of those four activations, gives
// every row's exact integer lane g of the canonical lanes8 order.
// Accumulator g (16 rows) then takes acc = fma(scale*d, float(lane), acc),
// and the end reduces the eight accumulators vertically in hsum8's order,
// so each output has the bits of dotQ8_0.
//
// Registers: SI weights, DI activations, DX activation scales, BX
// correction sums; for several positions R12, R13, R14 are the strides
// between positions of DI, DX, BX in bytes. Accumulator g of position p
// is Z(8p+g). R10 counts block pairs, CX is the block count, R11 the
// prefetch pointer (0: none).

// Q80X_PREFETCH fetches the 17 cache lines of one block pair at R11 and
// advances it, unless R11 is 0.
#define Q80X_PREFETCH(skip) \
	TESTQ      R11, R11;  \
	JZ         skip;      \
	PREFETCH9(0, R11);    \
	PREFETCH8(576, R11);  \
	ADDQ       $1088, R11

// Q80X_FIN stores hsum8 of the accumulators A0..A7 (one position, 16
// rows) at M: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)), lane by lane.
#define Q80X_FIN(A0, A1, A2, A3, A4, A5, A6, A7, M) \
	VADDPS  A4, A0, A0; \
	VADDPS  A5, A1, A1; \
	VADDPS  A6, A2, A2; \
	VADDPS  A7, A3, A3; \
	VADDPS  A2, A0, A0; \
	VADDPS  A3, A1, A1; \
	VADDPS  A1, A0, A0; \
	VMOVUPS A0, M

// ---------------------------------------------------------------------------
// One position. Z8 = the 16 row scales times the activation scale.

// Q80X_VG: group g (quants at Q, activation dword at Y, correction at S)
// into accumulator ACC, with W and T as scratch.
#define Q80X_VG(Q, Y, S, W, T, ACC) \
	VMOVDQU32     Q, W;    \
	VPBROADCASTD  S, T;    \
	VPDPBUSD.BCST Y, W, T; \
	VCVTDQ2PS     T, T;    \
	VFMADD231PS   T, Z8, ACC

// Q80X_VBLOCK: one block, scales at SC(SI), quants from QO(SI), its 32
// activations at YO(DI), scale at DO(DX), sums at YO(BX) (8 dwords, as
// many bytes as the activations).
#define Q80X_VBLOCK(SC, QO, YO, DO) \
	VCVTPH2PS   SC(SI), Z8;                                    \
	VMULPS.BCST DO(DX), Z8, Z8;                                \
	Q80X_VG(QO+0(SI), YO+0(DI), YO+0(BX), Z10, Z18, Z0);       \
	Q80X_VG(QO+64(SI), YO+4(DI), YO+4(BX), Z11, Z19, Z1);      \
	Q80X_VG(QO+128(SI), YO+8(DI), YO+8(BX), Z12, Z20, Z2);     \
	Q80X_VG(QO+192(SI), YO+12(DI), YO+12(BX), Z13, Z21, Z3);   \
	Q80X_VG(QO+256(SI), YO+16(DI), YO+16(BX), Z14, Z22, Z4);   \
	Q80X_VG(QO+320(SI), YO+20(DI), YO+20(BX), Z15, Z23, Z5);   \
	Q80X_VG(QO+384(SI), YO+24(DI), YO+24(BX), Z16, Z24, Z6);   \
	Q80X_VG(QO+448(SI), YO+28(DI), YO+28(BX), Z17, Z25, Z7)

// func q80xVec16(w *byte, nb int, y *int8, d *float32, s *int32, out *float32, pf uintptr)
TEXT ·q80xVec16(SB), NOSPLIT, $0-56
	MOVQ   w+0(FP), SI
	MOVQ   nb+8(FP), CX
	MOVQ   y+16(FP), DI
	MOVQ   d+24(FP), DX
	MOVQ   s+32(FP), BX
	MOVQ   pf+48(FP), R11
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	MOVQ   CX, R10
	SHRQ   $1, R10
	JZ     q80xv1tail

q80xv1loop:
	Q80X_PREFETCH(q80xv1nopf)

q80xv1nopf:
	// A pair: scales of both blocks, then the quants of each.
	Q80X_VBLOCK(0, 64, 0, 0)
	Q80X_VBLOCK(32, 576, 32, 4)
	ADDQ $1088, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $64, BX
	DECQ R10
	JNZ  q80xv1loop

q80xv1tail:
	// Odd nb: the last block stands alone (scales, then quants).
	TESTQ $1, CX
	JZ    q80xv1done
	Q80X_VBLOCK(0, 32, 0, 0)

q80xv1done:
	MOVQ out+40(FP), AX
	Q80X_FIN(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, (AX))
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Two or three positions. Z24, Z25, Z26 = row scales times position p's
// activation scale; Z27 = the group's quants; Z28..Z31 scratch.

// Q80X_PP: position p of a group: activation dword at Y, correction at S,
// scales DV, scratch T, accumulator ACC.
#define Q80X_PP(Y, S, DV, T, ACC) \
	VPBROADCASTD  S, T;      \
	VPDPBUSD.BCST Y, Z27, T; \
	VCVTDQ2PS     T, T;      \
	VFMADD231PS   T, DV, ACC

// Q80X_G2, Q80X_G3: group g (quants at Q, activations at YO(DI) + p*R12,
// sums at YO(BX) + p*R14) for two or three positions; Ap = Z(8p+g).
#define Q80X_G2(Q, YO, TA, TB, A0, A1) \
	VMOVDQU32 Q, Z27;                                 \
	Q80X_PP(YO(DI), YO(BX), Z24, TA, A0);             \
	Q80X_PP(YO(DI)(R12*1), YO(BX)(R14*1), Z25, TB, A1)

#define Q80X_G3(Q, YO, TA, TB, TC, A0, A1, A2) \
	VMOVDQU32 Q, Z27;                                  \
	Q80X_PP(YO(DI), YO(BX), Z24, TA, A0);              \
	Q80X_PP(YO(DI)(R12*1), YO(BX)(R14*1), Z25, TB, A1); \
	Q80X_PP(YO(DI)(R12*2), YO(BX)(R14*2), Z26, TC, A2)

#define Q80X_BLOCK2(SC, QO, YO, DO) \
	VCVTPH2PS   SC(SI), Z27;                                        \
	VMULPS.BCST DO(DX), Z27, Z24;                                   \
	VMULPS.BCST DO(DX)(R13*1), Z27, Z25;                            \
	Q80X_G2(QO+0(SI), YO+0, Z28, Z29, Z0, Z8);                      \
	Q80X_G2(QO+64(SI), YO+4, Z30, Z31, Z1, Z9);                     \
	Q80X_G2(QO+128(SI), YO+8, Z28, Z29, Z2, Z10);                   \
	Q80X_G2(QO+192(SI), YO+12, Z30, Z31, Z3, Z11);                  \
	Q80X_G2(QO+256(SI), YO+16, Z28, Z29, Z4, Z12);                  \
	Q80X_G2(QO+320(SI), YO+20, Z30, Z31, Z5, Z13);                  \
	Q80X_G2(QO+384(SI), YO+24, Z28, Z29, Z6, Z14);                  \
	Q80X_G2(QO+448(SI), YO+28, Z30, Z31, Z7, Z15)

#define Q80X_BLOCK3(SC, QO, YO, DO) \
	VCVTPH2PS   SC(SI), Z27;                                        \
	VMULPS.BCST DO(DX), Z27, Z24;                                   \
	VMULPS.BCST DO(DX)(R13*1), Z27, Z25;                            \
	VMULPS.BCST DO(DX)(R13*2), Z27, Z26;                            \
	Q80X_G3(QO+0(SI), YO+0, Z28, Z29, Z30, Z0, Z8, Z16);            \
	Q80X_G3(QO+64(SI), YO+4, Z31, Z28, Z29, Z1, Z9, Z17);           \
	Q80X_G3(QO+128(SI), YO+8, Z30, Z31, Z28, Z2, Z10, Z18);         \
	Q80X_G3(QO+192(SI), YO+12, Z29, Z30, Z31, Z3, Z11, Z19);        \
	Q80X_G3(QO+256(SI), YO+16, Z28, Z29, Z30, Z4, Z12, Z20);        \
	Q80X_G3(QO+320(SI), YO+20, Z31, Z28, Z29, Z5, Z13, Z21);        \
	Q80X_G3(QO+384(SI), YO+24, Z30, Z31, Z28, Z6, Z14, Z22);        \
	Q80X_G3(QO+448(SI), YO+28, Z29, Z30, Z31, Z7, Z15, Z23)

// Q80X_LOAD8, Q80X_STORE8: the eight accumulators of one position from
// or to the saved ones at O(AX) (O = 512*position).
#define Q80X_LOAD8(O, A0, A1, A2, A3, A4, A5, A6, A7) \
	VMOVUPS O+0(AX), A0;   \
	VMOVUPS O+64(AX), A1;  \
	VMOVUPS O+128(AX), A2; \
	VMOVUPS O+192(AX), A3; \
	VMOVUPS O+256(AX), A4; \
	VMOVUPS O+320(AX), A5; \
	VMOVUPS O+384(AX), A6; \
	VMOVUPS O+448(AX), A7

#define Q80X_STORE8(O, A0, A1, A2, A3, A4, A5, A6, A7) \
	VMOVUPS A0, O+0(AX);   \
	VMOVUPS A1, O+64(AX);  \
	VMOVUPS A2, O+128(AX); \
	VMOVUPS A3, O+192(AX); \
	VMOVUPS A4, O+256(AX); \
	VMOVUPS A5, O+320(AX); \
	VMOVUPS A6, O+384(AX); \
	VMOVUPS A7, O+448(AX)

#define Q80X_ZERO8(A0, A1, A2, A3, A4, A5, A6, A7) \
	VPXORD A0, A0, A0; \
	VPXORD A1, A1, A1; \
	VPXORD A2, A2, A2; \
	VPXORD A3, A3, A3; \
	VPXORD A4, A4, A4; \
	VPXORD A5, A5, A5; \
	VPXORD A6, A6, A6; \
	VPXORD A7, A7, A7

// Q80X_BLOCKS(BLOCK, loop, nopf, tail, done): the CX blocks of a pass,
// two per step with the prefetch, then an odd last one; on to done.
#define Q80X_BLOCKS(BLOCK, loop, nopf, tail, done) \
	MOVQ CX, R10;               \
	SHRQ $1, R10;               \
	JZ   tail;                  \
loop:                           \
	Q80X_PREFETCH(nopf);        \
nopf:                           \
	BLOCK(0, 64, 0, 0);         \
	BLOCK(32, 576, 32, 4);      \
	ADDQ $1088, SI;             \
	ADDQ $64, DI;               \
	ADDQ $8, DX;                \
	ADDQ $64, BX;               \
	DECQ R10;                   \
	JNZ  loop;                  \
tail:                           \
	TESTQ $1, CX;               \
	JZ    done;                 \
	BLOCK(0, 32, 0, 0)

// func q80xPass2(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, acc *float32, flags int, out *float32, pf uintptr)
TEXT ·q80xPass2(SB), NOSPLIT, $0-96
	MOVQ w+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), R12
	MOVQ d+32(FP), DX
	MOVQ dstride+40(FP), R13
	SHLQ $2, R13
	MOVQ s+48(FP), BX
	MOVQ sstride+56(FP), R14
	SHLQ $2, R14
	MOVQ acc+64(FP), AX
	MOVQ flags+72(FP), R15
	MOVQ pf+88(FP), R11

	// flags bit 0: continue from the accumulators saved at acc.
	TESTQ $1, R15
	JZ    q80xp2zero
	Q80X_LOAD8(0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_LOAD8(512, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	JMP   q80xp2start

q80xp2zero:
	Q80X_ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)

q80xp2start:
	Q80X_BLOCKS(Q80X_BLOCK2, q80xp2loop, q80xp2nopf, q80xp2tail, q80xp2done)

q80xp2done:
	// flags bit 1: the last blocks, finish; else save the accumulators.
	TESTQ $2, R15
	JNZ   q80xp2fin
	Q80X_STORE8(0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_STORE8(512, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	VZEROUPPER
	RET

q80xp2fin:
	MOVQ out+80(FP), AX
	Q80X_FIN(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, 0(AX))
	Q80X_FIN(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, 64(AX))
	VZEROUPPER
	RET

// func q80xPass3(w *byte, nb int, y *int8, ystride int, d *float32, dstride int, s *int32, sstride int, acc *float32, flags int, out *float32, pf uintptr)
TEXT ·q80xPass3(SB), NOSPLIT, $0-96
	MOVQ w+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), R12
	MOVQ d+32(FP), DX
	MOVQ dstride+40(FP), R13
	SHLQ $2, R13
	MOVQ s+48(FP), BX
	MOVQ sstride+56(FP), R14
	SHLQ $2, R14
	MOVQ acc+64(FP), AX
	MOVQ flags+72(FP), R15
	MOVQ pf+88(FP), R11

	TESTQ $1, R15
	JZ    q80xp3zero
	Q80X_LOAD8(0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_LOAD8(512, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	Q80X_LOAD8(1024, Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	JMP   q80xp3start

q80xp3zero:
	Q80X_ZERO8(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_ZERO8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	Q80X_ZERO8(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)

q80xp3start:
	Q80X_BLOCKS(Q80X_BLOCK3, q80xp3loop, q80xp3nopf, q80xp3tail, q80xp3done)

q80xp3done:
	TESTQ $2, R15
	JNZ   q80xp3fin
	Q80X_STORE8(0, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	Q80X_STORE8(512, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15)
	Q80X_STORE8(1024, Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23)
	VZEROUPPER
	RET

q80xp3fin:
	MOVQ out+80(FP), AX
	Q80X_FIN(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, 0(AX))
	Q80X_FIN(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, 64(AX))
	Q80X_FIN(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, 128(AX))
	VZEROUPPER
	RET

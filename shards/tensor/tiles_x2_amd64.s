//go:build amd64 && !purego

#include "textflag.h"

// One-position Q4_0 kernels over two or four consecutive x tiles
// (packq4x.go) at once: the blocks of the tiles are interleaved, so each
// thread keeps two or four sequential weight streams in flight instead of
// one. Every tile's arithmetic is q40xVec16's (Q4X_W, Q4X_POS2 from
// tiles_q4x_amd64.s; macros do not cross files, so they are restated here
// under other names): each row's blocks in order, the same float steps, so
// the results are bit for bit those of q40xVec16. Tile t starts t*ts bytes
// after w. Register use: SI w, R8/R9/R10 the offsets of tiles 1/2/3, Z16..Z19
// the accumulators of tiles 0..3; the weight registers Z0..Z8 are reused
// for every tile (renaming keeps the tiles independent).

#define X2_W(QO, SO) \
	VMOVDQU64 QO+0(SI), Z0;    \
	VMOVDQU64 QO+64(SI), Z1;   \
	VMOVDQU64 QO+128(SI), Z2;  \
	VMOVDQU64 QO+192(SI), Z3;  \
	VPSRLW    $4, Z0, Z4;      \
	VPSRLW    $4, Z1, Z5;      \
	VPSRLW    $4, Z2, Z6;      \
	VPSRLW    $4, Z3, Z7;      \
	VPANDD    Z31, Z0, Z0;     \
	VPANDD    Z31, Z1, Z1;     \
	VPANDD    Z31, Z2, Z2;     \
	VPANDD    Z31, Z3, Z3;     \
	VPANDD    Z31, Z4, Z4;     \
	VPANDD    Z31, Z5, Z5;     \
	VPANDD    Z31, Z6, Z6;     \
	VPANDD    Z31, Z7, Z7;     \
	VCVTPH2PS SO(SI), Z8

// X2_WI: X2_W for the tile IX bytes after SI.
#define X2_WI(QO, SO, IX) \
	VMOVDQU64 QO+0(SI)(IX*1), Z0;    \
	VMOVDQU64 QO+64(SI)(IX*1), Z1;   \
	VMOVDQU64 QO+128(SI)(IX*1), Z2;  \
	VMOVDQU64 QO+192(SI)(IX*1), Z3;  \
	VPSRLW    $4, Z0, Z4;      \
	VPSRLW    $4, Z1, Z5;      \
	VPSRLW    $4, Z2, Z6;      \
	VPSRLW    $4, Z3, Z7;      \
	VPANDD    Z31, Z0, Z0;     \
	VPANDD    Z31, Z1, Z1;     \
	VPANDD    Z31, Z2, Z2;     \
	VPANDD    Z31, Z3, Z3;     \
	VPANDD    Z31, Z4, Z4;     \
	VPANDD    Z31, Z5, Z5;     \
	VPANDD    Z31, Z6, Z6;     \
	VPANDD    Z31, Z7, Z7;     \
	VCVTPH2PS SO(SI)(IX*1), Z8

// X2_POS: one block of the weights in Z0..Z8 against the activations at
// (DI), scale (DX), bias (BX), added into ACC; I, J, T scratch.
#define X2_POS(I, J, T, ACC) \
	VPBROADCASTD  (BX), I;        \
	VPXORD        J, J, J;        \
	VPDPBUSD.BCST 0(DI), Z0, I;   \
	VPDPBUSD.BCST 16(DI), Z4, J;  \
	VPDPBUSD.BCST 4(DI), Z1, I;   \
	VPDPBUSD.BCST 20(DI), Z5, J;  \
	VPDPBUSD.BCST 8(DI), Z2, I;   \
	VPDPBUSD.BCST 24(DI), Z6, J;  \
	VPDPBUSD.BCST 12(DI), Z3, I;  \
	VPDPBUSD.BCST 28(DI), Z7, J;  \
	VPADDD        J, I, I;        \
	VCVTDQ2PS     I, I;           \
	VMULPS.BCST   (DX), Z8, T;    \
	VFMADD231PS   T, I, ACC

#define X2_ADV \
	ADDQ $32, DI; \
	ADDQ $4, DX;  \
	ADDQ $4, BX

#define X2_SETUP \
	MOVQ         w+0(FP), SI;       \
	MOVQ         ts+8(FP), R8;      \
	MOVQ         nb+16(FP), CX;     \
	MOVQ         y+24(FP), DI;      \
	MOVQ         d+32(FP), DX;      \
	MOVQ         bias+40(FP), BX;   \
	MOVL         $0x0f0f0f0f, R15;  \
	VPBROADCASTD R15, Z31;          \
	LEAQ         (R8)(R8*1), R9;    \
	LEAQ         (R9)(R8*1), R10;   \
	VPXORD       Z16, Z16, Z16;     \
	VPXORD       Z17, Z17, Z17;     \
	VPXORD       Z18, Z18, Z18;     \
	VPXORD       Z19, Z19, Z19

// func q40xVec2T(w *byte, ts, nb int, y *int8, d *float32, bias *int32, out *float32)
TEXT ·q40xVec2T(SB), NOSPLIT, $0-56
	X2_SETUP
	CMPQ CX, $2
	JLT  x2tail

	// A pair of blocks (576 bytes) of each tile per step.
x2loop:
	X2_W(0, 512)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(0, 512, R8)
	X2_POS(Z12, Z13, Z14, Z17)
	X2_ADV
	X2_W(256, 544)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(256, 544, R8)
	X2_POS(Z12, Z13, Z14, Z17)
	X2_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  x2loop

x2tail:
	TESTQ CX, CX
	JZ    x2done
	X2_W(0, 256)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(0, 256, R8)
	X2_POS(Z12, Z13, Z14, Z17)

x2done:
	MOVQ    out+48(FP), AX
	VMOVUPS Z16, (AX)
	VMOVUPS Z17, 64(AX)
	VZEROUPPER
	RET

// func q40xVec4T(w *byte, ts, nb int, y *int8, d *float32, bias *int32, out *float32)
TEXT ·q40xVec4T(SB), NOSPLIT, $0-56
	X2_SETUP
	CMPQ CX, $2
	JLT  x4tail

x4loop:
	X2_W(0, 512)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(0, 512, R8)
	X2_POS(Z12, Z13, Z14, Z17)
	X2_WI(0, 512, R9)
	X2_POS(Z20, Z21, Z22, Z18)
	X2_WI(0, 512, R10)
	X2_POS(Z23, Z24, Z25, Z19)
	X2_ADV
	X2_W(256, 544)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(256, 544, R8)
	X2_POS(Z12, Z13, Z14, Z17)
	X2_WI(256, 544, R9)
	X2_POS(Z20, Z21, Z22, Z18)
	X2_WI(256, 544, R10)
	X2_POS(Z23, Z24, Z25, Z19)
	X2_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  x4loop

x4tail:
	TESTQ CX, CX
	JZ    x4done
	X2_W(0, 256)
	X2_POS(Z9, Z10, Z11, Z16)
	X2_WI(0, 256, R8)
	X2_POS(Z12, Z13, Z14, Z17)
	X2_WI(0, 256, R9)
	X2_POS(Z20, Z21, Z22, Z18)
	X2_WI(0, 256, R10)
	X2_POS(Z23, Z24, Z25, Z19)

x4done:
	MOVQ    out+48(FP), AX
	VMOVUPS Z16, (AX)
	VMOVUPS Z17, 64(AX)
	VMOVUPS Z18, 128(AX)
	VMOVUPS Z19, 192(AX)
	VZEROUPPER
	RET

//go:build amd64 && !purego

#include "textflag.h"

// Q4_0 tile kernels over the x layout of packq4x.go: sixteen rows, one or
// several positions. Registers: Z0..Z3 low nibbles and Z4..Z7 high nibbles
// of the four 64-byte quant groups of a block (dword lane r = row r), Z8 the
// sixteen block scales as float32, Z31 the nibble mask. Each VPDPBUSD
// multiplies the unsigned nibbles by one broadcast activation dword, so lane
// r collects row r's integer dot directly; the accumulator starts at the
// precomputed bias -8*sum(activations), which makes the sum that of (n-8)*a
// exactly. The float step is dotQ4_0's: acc = fma(float(sum), scale*d, acc).

// Q4X_W(QO, SO): unpack the quants at QO(SI) into Z0..Z7 and convert the
// scales at SO(SI) into Z8.
#define Q4X_W(QO, SO) \
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

// Q4X_POS(YA, DA, BA, I, T, ACC): one position of one block: activations
// at YA (32 int8), activation scale at DA, bias at BA; I and T scratch.
#define Q4X_POS(YA, DA, BA, I, T, ACC) \
	VPBROADCASTD  BA, I;          \
	VPDPBUSD.BCST 0 YA, Z0, I;    \
	VPDPBUSD.BCST 16 YA, Z4, I;   \
	VPDPBUSD.BCST 4 YA, Z1, I;    \
	VPDPBUSD.BCST 20 YA, Z5, I;   \
	VPDPBUSD.BCST 8 YA, Z2, I;    \
	VPDPBUSD.BCST 24 YA, Z6, I;   \
	VPDPBUSD.BCST 12 YA, Z3, I;   \
	VPDPBUSD.BCST 28 YA, Z7, I;   \
	VCVTDQ2PS     I, I;           \
	VMULPS.BCST   DA, Z8, T;      \
	VFMADD231PS   T, I, ACC

// Q4X_POS2: Q4X_POS with the integer sum split over two chains (I, J) for
// the one-position kernel, whose blocks would otherwise wait on the
// latency of eight dependent VPDPBUSDs.
#define Q4X_POS2(YA, DA, BA, I, J, T, ACC) \
	VPBROADCASTD  BA, I;          \
	VPXORD        J, J, J;        \
	VPDPBUSD.BCST 0 YA, Z0, I;    \
	VPDPBUSD.BCST 16 YA, Z4, J;   \
	VPDPBUSD.BCST 4 YA, Z1, I;    \
	VPDPBUSD.BCST 20 YA, Z5, J;   \
	VPDPBUSD.BCST 8 YA, Z2, I;    \
	VPDPBUSD.BCST 24 YA, Z6, J;   \
	VPDPBUSD.BCST 12 YA, Z3, I;   \
	VPDPBUSD.BCST 28 YA, Z7, J;   \
	VPADDD        J, I, I;        \
	VCVTDQ2PS     I, I;           \
	VMULPS.BCST   DA, Z8, T;      \
	VFMADD231PS   T, I, ACC

#define Q4X_MASK \
	MOVL         $0x0f0f0f0f, R15; \
	VPBROADCASTD R15, Z31

#define Q4X_VPREFETCH \
	PREFETCHT0 1152(SI); \
	PREFETCHT0 1216(SI); \
	PREFETCHT0 1280(SI); \
	PREFETCHT0 1344(SI); \
	PREFETCHT0 1408(SI); \
	PREFETCHT0 1472(SI); \
	PREFETCHT0 1536(SI); \
	PREFETCHT0 1600(SI); \
	PREFETCHT0 1664(SI)

// func q40xVec16(w *byte, nb int, y *int8, d *float32, bias *int32, out *float32)
TEXT ·q40xVec16(SB), NOSPLIT, $0-48
	MOVQ   w+0(FP), SI
	MOVQ   nb+8(FP), CX
	MOVQ   y+16(FP), DI
	MOVQ   d+24(FP), DX
	MOVQ   bias+32(FP), BX
	Q4X_MASK
	VPXORD Z16, Z16, Z16
	CMPQ   CX, $2
	JLT    q4xvtail

	// Two blocks (576 bytes, nine cache lines) per step, the tile read
	// front to back with a software prefetch a fixed distance ahead.
q4xvloop:
	Q4X_VPREFETCH
	Q4X_W(0, 512)
	Q4X_POS2((DI), (DX), (BX), Z9, Z10, Z11, Z16)
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	Q4X_W(256, 544)
	Q4X_POS2((DI), (DX), (BX), Z12, Z13, Z14, Z16)
	ADDQ $576, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, BX
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xvloop

q4xvtail:
	TESTQ CX, CX
	JZ    q4xvdone
	Q4X_W(0, 256)
	Q4X_POS2((DI), (DX), (BX), Z9, Z10, Z11, Z16)

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

#define Q4X_B1(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16)

#define Q4X_B2(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17)

#define Q4X_B3(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18)

#define Q4X_B4(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18); \
	Q4X_POS((DI)(R10*1), (DX)(R13*1), (AX)(R13*1), Z12, Z28, Z19)

#define Q4X_B5(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18); \
	Q4X_POS((DI)(R10*1), (DX)(R13*1), (AX)(R13*1), Z12, Z28, Z19); \
	Q4X_POS((R8), (R11), (BX), Z13, Z29, Z20)

#define Q4X_B6(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18); \
	Q4X_POS((DI)(R10*1), (DX)(R13*1), (AX)(R13*1), Z12, Z28, Z19); \
	Q4X_POS((R8), (R11), (BX), Z13, Z29, Z20); \
	Q4X_POS((R8)(R9*1), (R11)(R12*1), (BX)(R12*1), Z14, Z30, Z21)

#define Q4X_B7(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18); \
	Q4X_POS((DI)(R10*1), (DX)(R13*1), (AX)(R13*1), Z12, Z28, Z19); \
	Q4X_POS((R8), (R11), (BX), Z13, Z29, Z20); \
	Q4X_POS((R8)(R9*1), (R11)(R12*1), (BX)(R12*1), Z14, Z30, Z21); \
	Q4X_POS((R8)(R9*2), (R11)(R12*2), (BX)(R12*2), Z15, Z25, Z22)

#define Q4X_B8(QO, SO) \
	Q4X_W(QO, SO); \
	Q4X_POS((DI), (DX), (AX), Z9, Z25, Z16); \
	Q4X_POS((DI)(R9*1), (DX)(R12*1), (AX)(R12*1), Z10, Z26, Z17); \
	Q4X_POS((DI)(R9*2), (DX)(R12*2), (AX)(R12*2), Z11, Z27, Z18); \
	Q4X_POS((DI)(R10*1), (DX)(R13*1), (AX)(R13*1), Z12, Z28, Z19); \
	Q4X_POS((R8), (R11), (BX), Z13, Z29, Z20); \
	Q4X_POS((R8)(R9*1), (R11)(R12*1), (BX)(R12*1), Z14, Z30, Z21); \
	Q4X_POS((R8)(R9*2), (R11)(R12*2), (BX)(R12*2), Z15, Z25, Z22); \
	Q4X_POS((R8)(R10*1), (R11)(R13*1), (BX)(R13*1), Z24, Z26, Z23)

// func q40xBatch16(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, p int, out *float32)
//
// Positions 0..3 are addressed from DI/DX/AX and 4..7 from R8/R11/BX, with
// the strides (R9, R12) and three times them (R10, R13) as index.
TEXT ·q40xBatch16(SB), NOSPLIT, $0-72
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
	CMPQ CX, $2
	JLT  q4xb1t

q4xb1l:
	Q4X_B1(0, 512)
	Q4X_ADV
	Q4X_B1(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb1l

q4xb1t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B1(0, 256)
	JMP   q4xbstore

q4xb2:
	CMPQ CX, $2
	JLT  q4xb2t

q4xb2l:
	Q4X_B2(0, 512)
	Q4X_ADV
	Q4X_B2(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb2l

q4xb2t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B2(0, 256)
	JMP   q4xbstore

q4xb3:
	CMPQ CX, $2
	JLT  q4xb3t

q4xb3l:
	Q4X_B3(0, 512)
	Q4X_ADV
	Q4X_B3(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb3l

q4xb3t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B3(0, 256)
	JMP   q4xbstore

q4xb4:
	CMPQ CX, $2
	JLT  q4xb4t

q4xb4l:
	Q4X_B4(0, 512)
	Q4X_ADV
	Q4X_B4(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb4l

q4xb4t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B4(0, 256)
	JMP   q4xbstore

q4xb5:
	CMPQ CX, $2
	JLT  q4xb5t

q4xb5l:
	Q4X_B5(0, 512)
	Q4X_ADV
	Q4X_B5(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb5l

q4xb5t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B5(0, 256)
	JMP   q4xbstore

q4xb6:
	CMPQ CX, $2
	JLT  q4xb6t

q4xb6l:
	Q4X_B6(0, 512)
	Q4X_ADV
	Q4X_B6(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb6l

q4xb6t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B6(0, 256)
	JMP   q4xbstore

q4xb7:
	CMPQ CX, $2
	JLT  q4xb7t

q4xb7l:
	Q4X_B7(0, 512)
	Q4X_ADV
	Q4X_B7(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb7l

q4xb7t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B7(0, 256)
	JMP   q4xbstore

q4xb8:
	CMPQ CX, $2
	JLT  q4xb8t

q4xb8l:
	Q4X_B8(0, 512)
	Q4X_ADV
	Q4X_B8(256, 544)
	Q4X_ADV
	ADDQ $576, SI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE  q4xb8l

q4xb8t:
	TESTQ CX, CX
	JZ    q4xbstore
	Q4X_B8(0, 256)
	JMP   q4xbstore

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

//go:build amd64 && !purego && !avx512sim

#include "textflag.h"

// AVX-512 kernels for the float weight types (F16 for one position, F32
// for four positions; F16 batches use the AVX2 tile, tiles_f16_avx2_amd64.s;
// BF16 has its own orders, bf16order.go). They keep the canonical
// 32-lane order of dot_generic.go (lanes 0..15 and 16..31 in two
// registers, separate multiply and add), so they give the bits of the Go
// and AVX2 kernels. The quantized types use the AVX2 kernels, which follow
// llama.cpp's order.

// FIN(Z, Y, X): X = hsum8(lanes 0..7 + 8..15 of Z); clobbers X1/Y1.
#define FIN(Zr, Yr, Xr) \
	VEXTRACTF32X8 $1, Zr, Y1; \
	VADDPS        Y1, Yr, Yr; \
	VEXTRACTF128  $1, Yr, X1; \
	VADDPS        X1, Xr, Xr; \
	VMOVHLPS      Xr, Xr, X1; \
	VADDPS        X1, Xr, Xr; \
	VMOVSHDUP     Xr, X1;     \
	VADDSS        X1, Xr, Xr

// Four-position float kernels: 32 lanes per position (two registers, lanes
// 0..15 and 16..31), separate multiply and add, reduced as
// v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]) then hsum8, exactly as
// the one-position kernels. n is a multiple of 32; the caller adds the tail.

#define LOAD_F16(addr, Zr) VCVTPH2PS addr, Zr
#define LOAD_F32(addr, Zr) VMOVUPS addr, Zr

#define FPOS(LOAD, half, xa, ZA, ZB) \
	LOAD(0 xa, Z18);        \
	VMULPS Z16, Z18, Z18;   \
	VADDPS Z18, ZA, ZA;     \
	LOAD(half xa, Z19);     \
	VMULPS Z17, Z19, Z19;   \
	VADDPS Z19, ZB, ZB

#define FSTORE(ZA, ZB, off) \
	VADDPS ZB, ZA, Z0;      \
	FIN(Z0, Y0, X0);        \
	MOVSS  X0, off(AX)

// FLOATX4 expects SI = w, DI = x, R9 = x stride in bytes, CX = n, AX = out.
#define FLOATX4(LOAD, half, step) \
	LEAQ (R9)(R9*2), R12;      \
	SHRQ $5, CX;               \
	VPXORD Z8, Z8, Z8;         \
	VPXORD Z9, Z9, Z9;         \
	VPXORD Z10, Z10, Z10;      \
	VPXORD Z11, Z11, Z11;      \
	VPXORD Z12, Z12, Z12;      \
	VPXORD Z13, Z13, Z13;      \
	VPXORD Z14, Z14, Z14;      \
	VPXORD Z15, Z15, Z15;      \
loop:                          \
	TESTQ CX, CX;              \
	JZ    done;                \
	LOAD(0(SI), Z16);          \
	LOAD(half(SI), Z17);       \
	FPOS(LOAD, half, (DI), Z8, Z9);         \
	FPOS(LOAD, half, (DI)(R9*1), Z10, Z11); \
	FPOS(LOAD, half, (DI)(R9*2), Z12, Z13); \
	FPOS(LOAD, half, (DI)(R12*1), Z14, Z15); \
	ADDQ  $step, SI;           \
	ADDQ  $step, DI;           \
	DECQ  CX;                  \
	JMP   loop;                \
done:                          \
	FSTORE(Z8, Z9, 0);         \
	FSTORE(Z10, Z11, 4);       \
	FSTORE(Z12, Z13, 8);       \
	FSTORE(Z14, Z15, 12);      \
	VZEROUPPER;                \
	RET

// func dotF32x4AVX512(w *byte, x *float32, xstride int, n int, out *[4]float32)
TEXT ·dotF32x4AVX512(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ out+32(FP), AX
	FLOATX4(LOAD_F32, 64, 128)

// FLOATX1: the one-position version of FLOATX4 (SI = w, DI = x, CX = n);
// returns the sum in X0.
#define FLOATX1(LOAD, half, step) \
	SHRQ $5, CX;               \
	VPXORD Z8, Z8, Z8;         \
	VPXORD Z9, Z9, Z9;         \
loop1:                         \
	TESTQ CX, CX;              \
	JZ    done1;               \
	LOAD(0(SI), Z16);          \
	LOAD(half(SI), Z17);       \
	FPOS(LOAD, half, (DI), Z8, Z9); \
	ADDQ  $step, SI;           \
	ADDQ  $step, DI;           \
	DECQ  CX;                  \
	JMP   loop1;               \
done1:                         \
	VADDPS Z9, Z8, Z0;         \
	FIN(Z0, Y0, X0)

// func dotF16AVX512(w *byte, x *uint16, n int) float32
TEXT ·dotF16AVX512(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	FLOATX1(LOAD_F16, 32, 64)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

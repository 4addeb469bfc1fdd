//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels. Each computes one canonical dot product (see
// dot_generic.go): integer sums are exact, and the float steps run in the
// same order as the Go code (llama.cpp's: fused multiply-adds into one
// 8-lane accumulator for the quantized types; separate multiply and add in
// 32 lanes for F32/F16), so the results are bit-identical to the pure-Go
// path.

DATA nibmask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibmask<>(SB), RODATA|NOPTR, $32
DATA ones16<>+0(SB)/8, $0x0001000100010001
DATA ones16<>+8(SB)/8, $0x0001000100010001
DATA ones16<>+16(SB)/8, $0x0001000100010001
DATA ones16<>+24(SB)/8, $0x0001000100010001
GLOBL ones16<>(SB), RODATA|NOPTR, $32
DATA eights<>+0(SB)/8, $0x0808080808080808
DATA eights<>+8(SB)/8, $0x0808080808080808
DATA eights<>+16(SB)/8, $0x0808080808080808
DATA eights<>+24(SB)/8, $0x0808080808080808
GLOBL eights<>(SB), RODATA|NOPTR, $32
DATA thirtytwo<>+0(SB)/8, $0x2020202020202020
DATA thirtytwo<>+8(SB)/8, $0x2020202020202020
DATA thirtytwo<>+16(SB)/8, $0x2020202020202020
DATA thirtytwo<>+24(SB)/8, $0x2020202020202020
GLOBL thirtytwo<>(SB), RODATA|NOPTR, $32
DATA hi4<>+0(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+8(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+16(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA hi4<>+24(SB)/8, $0xf0f0f0f0f0f0f0f0
GLOBL hi4<>(SB), RODATA|NOPTR, $32
DATA bit4<>+0(SB)/8, $0x1010101010101010
DATA bit4<>+8(SB)/8, $0x1010101010101010
DATA bit4<>+16(SB)/8, $0x1010101010101010
DATA bit4<>+24(SB)/8, $0x1010101010101010
GLOBL bit4<>(SB), RODATA|NOPTR, $32
DATA bitshuf<>+0(SB)/8, $0x0000000000000000
DATA bitshuf<>+8(SB)/8, $0x0101010101010101
DATA bitshuf<>+16(SB)/8, $0x0202020202020202
DATA bitshuf<>+24(SB)/8, $0x0303030303030303
GLOBL bitshuf<>(SB), RODATA|NOPTR, $32
DATA bitmask<>+0(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+8(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+16(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+24(SB)/8, $0x7fbfdfeff7fbfdfe
GLOBL bitmask<>(SB), RODATA|NOPTR, $32
DATA mask03<>+0(SB)/8, $0x0303030303030303
DATA mask03<>+8(SB)/8, $0x0303030303030303
DATA mask03<>+16(SB)/8, $0x0303030303030303
DATA mask03<>+24(SB)/8, $0x0303030303030303
GLOBL mask03<>(SB), RODATA|NOPTR, $32
DATA mask30<>+0(SB)/8, $0x3030303030303030
DATA mask30<>+8(SB)/8, $0x3030303030303030
DATA mask30<>+16(SB)/8, $0x3030303030303030
DATA mask30<>+24(SB)/8, $0x3030303030303030
GLOBL mask30<>(SB), RODATA|NOPTR, $32
DATA q6kshuf<>+0(SB)/8, $0x0000000000000000
DATA q6kshuf<>+8(SB)/8, $0x0101010101010101
DATA q6kshuf<>+16(SB)/8, $0x0202020202020202
DATA q6kshuf<>+24(SB)/8, $0x0303030303030303
DATA q6kshuf<>+32(SB)/8, $0x0404040404040404
DATA q6kshuf<>+40(SB)/8, $0x0505050505050505
DATA q6kshuf<>+48(SB)/8, $0x0606060606060606
DATA q6kshuf<>+56(SB)/8, $0x0707070707070707
DATA q6kshuf<>+64(SB)/8, $0x0808080808080808
DATA q6kshuf<>+72(SB)/8, $0x0909090909090909
DATA q6kshuf<>+80(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA q6kshuf<>+88(SB)/8, $0x0b0b0b0b0b0b0b0b
DATA q6kshuf<>+96(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA q6kshuf<>+104(SB)/8, $0x0d0d0d0d0d0d0d0d
DATA q6kshuf<>+112(SB)/8, $0x0e0e0e0e0e0e0e0e
DATA q6kshuf<>+120(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL q6kshuf<>(SB), RODATA|NOPTR, $128
DATA q4kshuf<>+0(SB)/8, $0x0100010001000100
DATA q4kshuf<>+8(SB)/8, $0x0100010001000100
DATA q4kshuf<>+16(SB)/8, $0x0100010001000100
DATA q4kshuf<>+24(SB)/8, $0x0100010001000100
DATA q4kshuf<>+32(SB)/8, $0x0302030203020302
DATA q4kshuf<>+40(SB)/8, $0x0302030203020302
DATA q4kshuf<>+48(SB)/8, $0x0302030203020302
DATA q4kshuf<>+56(SB)/8, $0x0302030203020302
DATA q4kshuf<>+64(SB)/8, $0x0504050405040504
DATA q4kshuf<>+72(SB)/8, $0x0504050405040504
DATA q4kshuf<>+80(SB)/8, $0x0504050405040504
DATA q4kshuf<>+88(SB)/8, $0x0504050405040504
DATA q4kshuf<>+96(SB)/8, $0x0706070607060706
DATA q4kshuf<>+104(SB)/8, $0x0706070607060706
DATA q4kshuf<>+112(SB)/8, $0x0706070607060706
DATA q4kshuf<>+120(SB)/8, $0x0706070607060706
DATA q4kshuf<>+128(SB)/8, $0x0908090809080908
DATA q4kshuf<>+136(SB)/8, $0x0908090809080908
DATA q4kshuf<>+144(SB)/8, $0x0908090809080908
DATA q4kshuf<>+152(SB)/8, $0x0908090809080908
DATA q4kshuf<>+160(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q4kshuf<>+168(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q4kshuf<>+176(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q4kshuf<>+184(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q4kshuf<>+192(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q4kshuf<>+200(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q4kshuf<>+208(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q4kshuf<>+216(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q4kshuf<>+224(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA q4kshuf<>+232(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA q4kshuf<>+240(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA q4kshuf<>+248(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL q4kshuf<>(SB), RODATA|NOPTR, $256
DATA fours<>+0(SB)/8, $0x0404040404040404
DATA fours<>+8(SB)/8, $0x0404040404040404
DATA fours<>+16(SB)/8, $0x0404040404040404
DATA fours<>+24(SB)/8, $0x0404040404040404
GLOBL fours<>(SB), RODATA|NOPTR, $32

// HSUM8 reduces the eight lanes of Y0 into X0 as hsum8 does:
// ((v0+v4)+(v2+v6)) + ((v1+v5)+(v3+v7)). Clobbers X1.
#define HSUM8 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVHLPS     X0, X0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVSHDUP    X0, X1;     \
	VADDSS       X1, X0, X0

// HSUMI32 adds the eight int32 lanes of Y(r) into the low dword of X(r),
// using X(t) as scratch.
#define HSUMI32(Yr, Xr, Xt) \
	VEXTRACTI128 $1, Yr, Xt; \
	VPADDD       Xt, Xr, Xr; \
	VPSHUFD      $0x4e, Xr, Xt; \
	VPADDD       Xt, Xr, Xr; \
	VPSHUFD      $0xb1, Xr, Xt; \
	VPADDD       Xt, Xr, Xr

// SCALE32 broadcasts float32(f16(w[woff]) * d[doff]) into Y2.
#define SCALE32(woff, doff) \
	MOVWLZX      woff(SI), AX; \
	VMOVD        AX, X2;       \
	VCVTPH2PS    X2, X2;       \
	VMULSS       doff(DX), X2, X2; \
	VBROADCASTSS X2, Y2

// SIGNED_LANES: Y3 holds 32 signed weights, y at yoff(DI); ACC = fma(Y2,
// float(lane sums of 4 products), ACC).
#define SIGNED_LANES(yoff, ACC) \
	VMOVDQU     yoff(DI), Y4; \
	VPSIGNB     Y3, Y3, Y5;   \
	VPSIGNB     Y3, Y4, Y6;   \
	VPMADDUBSW  Y6, Y5, Y7;   \
	VPMADDWD    Y15, Y7, Y7;  \
	VCVTDQ2PS   Y7, Y7;       \
	VFMADD231PS Y7, Y2, ACC

// UNSIGNED_LANES: as SIGNED_LANES for unsigned weights in Y3.
#define UNSIGNED_LANES(yoff, ACC) \
	VPMADDUBSW  yoff(DI), Y3, Y7; \
	VPMADDWD    Y15, Y7, Y7;  \
	VCVTDQ2PS   Y7, Y7;       \
	VFMADD231PS Y7, Y2, ACC

// NIBBLES loads 16 bytes at off(SI) and spreads them into Y3: low nibbles in
// the low 128 bits (elements 0..15), high nibbles in the high 128 bits.
#define NIBBLES(off) \
	VMOVDQU     off(SI), X3;  \
	VPSRLW      $4, X3, X4;   \
	VINSERTI128 $1, X4, Y3, Y3; \
	VPAND       Y14, Y3, Y3

// HIGHBITS spreads the 32 bits at off(SI) into Y5 bytes: 0xff where set.
#define HIGHBITS(off) \
	VPBROADCASTD off(SI), Y5; \
	VPSHUFB      Y12, Y5, Y5; \
	VPOR         Y11, Y5, Y5; \
	VPCMPEQB     Y10, Y5, Y5

#define Q8_0_BLOCK(woff, yoff, doff, ACC) \
	SCALE32(woff, doff); \
	VMOVDQU woff+2(SI), Y3; \
	SIGNED_LANES(yoff, ACC)

// func dotQ8_0AVX2(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ8_0AVX2(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXOR   Y0, Y0, Y0
	VPXOR   Y8, Y8, Y8
	VMOVDQU ones16<>(SB), Y15
q80loop:
	CMPQ CX, $2
	JLT  q80tail
	Q8_0_BLOCK(0, 0, 0, Y0)
	Q8_0_BLOCK(34, 32, 4, Y0)
	ADDQ $68, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q80loop
q80tail:
	TESTQ CX, CX
	JZ    q80done
	Q8_0_BLOCK(0, 0, 0, Y0)
q80done:
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// Q4_0_BLOCK: X0 = fma(float(sum of the 32 products), dx*dy, X0), the
// order of llama.cpp's repacked Q4_0 kernel.
#define Q4_0_BLOCK(woff, yoff, doff) \
	SCALE32(woff, doff);        \
	NIBBLES(woff+2);            \
	VPSUBB      Y13, Y3, Y3;    \
	VMOVDQU     yoff(DI), Y4;   \
	VPSIGNB     Y3, Y3, Y5;     \
	VPSIGNB     Y3, Y4, Y6;     \
	VPMADDUBSW  Y6, Y5, Y7;     \
	VPMADDWD    Y15, Y7, Y7;    \
	HSUMI32(Y7, X7, X8);        \
	VCVTDQ2PS   X7, X7;         \
	VFMADD231SS X2, X7, X0

// func dotQ4_0AVX2(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ4_0AVX2(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXOR   Y0, Y0, Y0
	VPXOR   Y8, Y8, Y8
	VMOVDQU ones16<>(SB), Y15
	VMOVDQU nibmask<>(SB), Y14
	VMOVDQU eights<>(SB), Y13
q40loop:
	CMPQ CX, $2
	JLT  q40tail
	Q4_0_BLOCK(0, 0, 0)
	Q4_0_BLOCK(18, 32, 4)
	ADDQ $36, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q40loop
q40tail:
	TESTQ CX, CX
	JZ    q40done
	Q4_0_BLOCK(0, 0, 0)
q40done:
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

#define Q5_0_BLOCK(woff, yoff, doff, ACC) \
	SCALE32(woff, doff); \
	NIBBLES(woff+6);     \
	HIGHBITS(woff+2);    \
	VPANDN Y9, Y5, Y5;   \
	VPOR   Y5, Y3, Y3;   \
	SIGNED_LANES(yoff, ACC)

// func dotQ5_0AVX2(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ5_0AVX2(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXOR    Y0, Y0, Y0
	VPXOR    Y8, Y8, Y8
	VMOVDQU  ones16<>(SB), Y15
	VMOVDQU  nibmask<>(SB), Y14
	VMOVDQU  bitshuf<>(SB), Y12
	VMOVDQU  bitmask<>(SB), Y11
	VPCMPEQB Y10, Y10, Y10
	VMOVDQU  hi4<>(SB), Y9
q50loop:
	CMPQ CX, $2
	JLT  q50tail
	Q5_0_BLOCK(0, 0, 0, Y0)
	Q5_0_BLOCK(22, 32, 4, Y0)
	ADDQ $44, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q50loop
q50tail:
	TESTQ CX, CX
	JZ    q50done
	Q5_0_BLOCK(0, 0, 0, Y0)
q50done:
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// MINTERM: MS = fma(f16(w[woff]), s[soff], MS).
#define MINTERM(woff, soff, MS) \
	MOVWLZX     woff(SI), AX; \
	VMOVD       AX, X6;       \
	VCVTPH2PS   X6, X6;       \
	VFMADD231SS soff(R8), X6, MS

#define Q4_1_BLOCK(woff, yoff, doff, ACC, MS) \
	SCALE32(woff, doff);      \
	MINTERM(woff+2, doff, MS); \
	NIBBLES(woff+4);          \
	UNSIGNED_LANES(yoff, ACC)

// func dotQ4_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ4_1AVX2(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ s+24(FP), R8
	MOVQ nb+32(FP), CX
	VPXOR   Y0, Y0, Y0
	VPXOR   Y8, Y8, Y8
	VXORPS  X9, X9, X9
	VMOVDQU ones16<>(SB), Y15
	VMOVDQU nibmask<>(SB), Y14
q41loop:
	CMPQ CX, $2
	JLT  q41tail
	Q4_1_BLOCK(0, 0, 0, Y0, X9)
	Q4_1_BLOCK(20, 32, 4, Y0, X9)
	ADDQ $40, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
	JMP  q41loop
q41tail:
	TESTQ CX, CX
	JZ    q41done
	Q4_1_BLOCK(0, 0, 0, Y0, X9)
q41done:
	HSUM8
	VADDSS X9, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

#define Q5_1_BLOCK(woff, yoff, doff, ACC, MS) \
	SCALE32(woff, doff);      \
	MINTERM(woff+2, doff, MS); \
	NIBBLES(woff+8);          \
	HIGHBITS(woff+4);         \
	VPAND Y13, Y5, Y5;        \
	VPOR  Y5, Y3, Y3;         \
	UNSIGNED_LANES(yoff, ACC)

// func dotQ5_1AVX2(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ5_1AVX2(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ s+24(FP), R8
	MOVQ nb+32(FP), CX
	VPXOR    Y0, Y0, Y0
	VPXOR    Y8, Y8, Y8
	VXORPS   X9, X9, X9
	VMOVDQU  ones16<>(SB), Y15
	VMOVDQU  nibmask<>(SB), Y14
	VMOVDQU  bit4<>(SB), Y13
	VMOVDQU  bitshuf<>(SB), Y12
	VMOVDQU  bitmask<>(SB), Y11
	VPCMPEQB Y10, Y10, Y10
q51loop:
	CMPQ CX, $2
	JLT  q51tail
	Q5_1_BLOCK(0, 0, 0, Y0, X9)
	Q5_1_BLOCK(24, 32, 4, Y0, X9)
	ADDQ $48, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
	JMP  q51loop
q51tail:
	TESTQ CX, CX
	JZ    q51done
	Q5_1_BLOCK(0, 0, 0, Y0, X9)
q51done:
	HSUM8
	VADDSS  X9, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// func dotF32AVX2(w *byte, x *float32, n int) float32
// n is a multiple of 32; 32 lanes in Y0, Y8, Y9, Y10.
TEXT ·dotF32AVX2(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
f32loop:
	TESTQ  CX, CX
	JZ     f32done
	VMOVUPS (SI), Y4
	VMULPS  (DI), Y4, Y4
	VADDPS  Y4, Y0, Y0
	VMOVUPS 32(SI), Y5
	VMULPS  32(DI), Y5, Y5
	VADDPS  Y5, Y8, Y8
	VMOVUPS 64(SI), Y6
	VMULPS  64(DI), Y6, Y6
	VADDPS  Y6, Y9, Y9
	VMOVUPS 96(SI), Y7
	VMULPS  96(DI), Y7, Y7
	VADDPS  Y7, Y10, Y10
	ADDQ   $128, SI
	ADDQ   $128, DI
	DECQ   CX
	JMP    f32loop
f32done:
	VADDPS Y9, Y0, Y0
	VADDPS Y10, Y8, Y8
	VADDPS Y8, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// F16_STEP: 8 products into ACC with one FMA (a product of two f16
// values is exact in float32, so this rounds as the multiply and add of
// dotF16 do); register-form conversions, which Zen 2 runs beside its FMAs.
#define F16_STEP(off, ACC) \
	VMOVDQU     off(SI), X4;  \
	VCVTPH2PS   X4, Y4;       \
	VMOVDQU     off(DI), X5;  \
	VCVTPH2PS   X5, Y5;       \
	VFMADD231PS Y5, Y4, ACC

// func dotF16AVX2(w *byte, x *uint16, n int) float32
TEXT ·dotF16AVX2(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
f16loop:
	TESTQ CX, CX
	JZ    f16done
	F16_STEP(0, Y0)
	F16_STEP(16, Y8)
	F16_STEP(32, Y9)
	F16_STEP(48, Y10)
	ADDQ  $64, SI
	ADDQ  $64, DI
	DECQ  CX
	JMP   f16loop
f16done:
	VADDPS Y9, Y0, Y0
	VADDPS Y10, Y8, Y8
	VADDPS Y8, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// DSCALE(woff, X): X = float32(f16(w[woff]) * d[0]) (scalar).
#define DSCALE(woff, Xr) \
	MOVWLZX    woff(SI), R10; \
	VMOVD      R10, Xr;       \
	VCVTPH2PS  Xr, Xr;        \
	VMULSS     (DX), Xr, Xr

// LANES_FMA(woff): Y0 = fma(dx*dy, float(Y8 int32 lanes), Y0), dx at woff.
#define LANES_FMA(woff) \
	VCVTDQ2PS    Y8, Y8;   \
	DSCALE(woff, X5);      \
	VBROADCASTSS X5, Y5;   \
	VFMADD231PS  Y8, Y5, Y0

// Q4K_CHUNK: 64 elements (c = chunk 0..3): low nibbles with scale 2c, high
// nibbles with scale 2c+1, accumulated as int32 into Y8.
#define Q4K_CHUNK(c) \
	VMOVDQU    16+32*c(SI), Y3;  \
	VPSRLW     $4, Y3, Y4;       \
	VPAND      Y14, Y4, Y4;      \
	VPAND      Y14, Y3, Y3;      \
	VPMADDUBSW 64*c(DI), Y3, Y3; \
	VPMADDUBSW 64*c+32(DI), Y4, Y4; \
	VPSHUFB    64*c(R9), Y7, Y5; \
	VPMADDWD   Y5, Y3, Y3;       \
	VPSHUFB    64*c+32(R9), Y7, Y5; \
	VPMADDWD   Y5, Y4, Y4;       \
	VPADDD     Y3, Y8, Y8;       \
	VPADDD     Y4, Y8, Y8

// func dotQ4_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ4_KAVX2(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS  Y0, Y0, Y0
	VXORPS  X10, X10, X10
	VPCMPEQD X12, X12, X12
	VPSLLD  $31, X12, X12
	VMOVDQU nibmask<>(SB), Y14
	LEAQ    q4kshuf<>(SB), R9
q4kloop:
	TESTQ CX, CX
	JZ    q4kdone
	MOVL  4(SI), AX
	MOVL  8(SI), BX
	MOVL  12(SI), R10
	// scales 0..3 = s0 & 0x3f; scales 4..7 = (s2 & 0x0f) | (s0 >> 6) << 4
	MOVL  AX, R11
	ANDL  $0x3f3f3f3f, R11
	MOVL  AX, R13
	SHRL  $6, R13
	ANDL  $0x03030303, R13
	SHLL  $4, R13
	MOVL  R10, R12
	ANDL  $0x0f0f0f0f, R12
	ORL   R13, R12
	VMOVD       R11, X7
	VPINSRD     $1, R12, X7, X7
	VPMOVZXBW   X7, X7
	VINSERTI128 $1, X7, Y7, Y7
	// mins 0..3 = s1 & 0x3f; mins 4..7 = (s2 >> 4) & 0x0f | (s1 >> 6) << 4
	MOVL  BX, R11
	ANDL  $0x3f3f3f3f, R11
	MOVL  BX, R13
	SHRL  $6, R13
	ANDL  $0x03030303, R13
	SHLL  $4, R13
	MOVL  R10, R12
	SHRL  $4, R12
	ANDL  $0x0f0f0f0f, R12
	ORL   R13, R12
	VMOVD     R11, X6
	VPINSRD   $1, R12, X6, X6
	VPMOVZXBW X6, X6
	// summs = sum over pairs of bsums times the min of their sub-block
	VMOVDQU  (R8), X4
	VMOVDQU  16(R8), X5
	VPHADDW  X5, X4, X4
	VPMADDWD X6, X4, X4
	// accm = fma(-dy*dminx, float(products), accm), four lanes
	VCVTDQ2PS X4, X4
	DSCALE(2, X5)
	VXORPS       X12, X5, X5
	VBROADCASTSS X5, X5
	VFMADD231PS  X4, X5, X10
	VPXOR    Y8, Y8, Y8
	Q4K_CHUNK(0)
	Q4K_CHUNK(1)
	Q4K_CHUNK(2)
	Q4K_CHUNK(3)
	LANES_FMA(0)
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q4kloop
q4kdone:
	HSUM8
	VMOVHLPS X10, X10, X11
	VADDPS   X11, X10, X10
	VMOVSHDUP X10, X11
	VADDSS   X11, X10, X10
	VADDSS   X10, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// Q6K_GROUP multiplies 32 unsigned 6-bit values in Q (biased by 32) with
// the activations at yoff(DI), scales by the two sub-block scales picked
// by the shuffle at soff(R9) and accumulates int32 lanes into Y8.
#define Q6K_GROUP(Q, yoff, soff) \
	VMOVDQU    yoff(DI), Y6;  \
	VPMADDUBSW Y6, Q, Q;      \
	VPMADDUBSW Y6, Y11, Y7;   \
	VPSUBW     Y7, Q, Q;      \
	VPSHUFB    soff(R9), X10, X7; \
	VPMOVSXBW  X7, Y7;        \
	VPMADDWD   Y7, Q, Q;      \
	VPADDD     Q, Y8, Y8

#define Q6K_HALF(h) \
	VMOVDQU 64*h(SI), Y1;      \
	VMOVDQU 64*h+32(SI), Y2;   \
	VMOVDQU 128+32*h(SI), Y3;  \
	VPAND   Y14, Y1, Y4;       \
	VPAND   Y13, Y3, Y5;       \
	VPSLLW  $4, Y5, Y5;        \
	VPOR    Y5, Y4, Y4;        \
	Q6K_GROUP(Y4, 128*h, 64*h); \
	VPAND   Y14, Y2, Y4;       \
	VPSLLW  $2, Y3, Y5;        \
	VPAND   Y12, Y5, Y5;       \
	VPOR    Y5, Y4, Y4;        \
	Q6K_GROUP(Y4, 128*h+32, 64*h+16); \
	VPSRLW  $4, Y1, Y4;        \
	VPAND   Y14, Y4, Y4;       \
	VPAND   Y12, Y3, Y5;       \
	VPOR    Y5, Y4, Y4;        \
	Q6K_GROUP(Y4, 128*h+64, 64*h+32); \
	VPSRLW  $4, Y2, Y4;        \
	VPAND   Y14, Y4, Y4;       \
	VPSRLW  $2, Y3, Y5;        \
	VPAND   Y12, Y5, Y5;       \
	VPOR    Y5, Y4, Y4;        \
	Q6K_GROUP(Y4, 128*h+96, 64*h+48)

// func dotQ6_KAVX2(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ6_KAVX2(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VXORPS  Y0, Y0, Y0
	VMOVDQU nibmask<>(SB), Y14
	VMOVDQU mask03<>(SB), Y13
	VMOVDQU mask30<>(SB), Y12
	VMOVDQU thirtytwo<>(SB), Y11
	LEAQ    q6kshuf<>(SB), R9
q6kloop:
	TESTQ CX, CX
	JZ    q6kdone
	VMOVDQU 192(SI), X10
	VPXOR   Y8, Y8, Y8
	Q6K_HALF(0)
	Q6K_HALF(1)
	LANES_FMA(208)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q6kloop
q6kdone:
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// Q5K_CHUNK: as Q4K_CHUNK with the fifth bits taken from qh (Y9): bit 2c
// for the low nibbles, bit 2c+1 for the high ones, moved to bit 4 by the
// given word shifts (bits never cross into the neighbouring byte's bit 4).
#define Q5K_CHUNK(c, SH1, A1, SH2, A2) \
	VMOVDQU    48+32*c(SI), Y3;  \
	VPSRLW     $4, Y3, Y4;       \
	VPAND      Y14, Y4, Y4;      \
	VPAND      Y14, Y3, Y3;      \
	SH1        A1, Y9, Y5;       \
	VPAND      Y13, Y5, Y5;      \
	VPOR       Y5, Y3, Y3;       \
	SH2        A2, Y9, Y5;       \
	VPAND      Y13, Y5, Y5;      \
	VPOR       Y5, Y4, Y4;       \
	VPMADDUBSW 64*c(DI), Y3, Y3; \
	VPMADDUBSW 64*c+32(DI), Y4, Y4; \
	VPSHUFB    64*c(R9), Y7, Y5; \
	VPMADDWD   Y5, Y3, Y3;       \
	VPSHUFB    64*c+32(R9), Y7, Y5; \
	VPMADDWD   Y5, Y4, Y4;       \
	VPADDD     Y3, Y8, Y8;       \
	VPADDD     Y4, Y8, Y8

// KSCALES_MINS unpacks the 6-bit scales (into Y7 as int16, both halves) and
// mins (into X6 as int16) of a Q4_K/Q5_K block at SI. Clobbers AX, BX,
// R10-R13.
#define KSCALES_MINS \
	MOVL  4(SI), AX;          \
	MOVL  8(SI), BX;          \
	MOVL  12(SI), R10;        \
	MOVL  AX, R11;            \
	ANDL  $0x3f3f3f3f, R11;   \
	MOVL  AX, R13;            \
	SHRL  $6, R13;            \
	ANDL  $0x03030303, R13;   \
	SHLL  $4, R13;            \
	MOVL  R10, R12;           \
	ANDL  $0x0f0f0f0f, R12;   \
	ORL   R13, R12;           \
	VMOVD       R11, X7;      \
	VPINSRD     $1, R12, X7, X7; \
	VPMOVZXBW   X7, X7;       \
	VINSERTI128 $1, X7, Y7, Y7; \
	MOVL  BX, R11;            \
	ANDL  $0x3f3f3f3f, R11;   \
	MOVL  BX, R13;            \
	SHRL  $6, R13;            \
	ANDL  $0x03030303, R13;   \
	SHLL  $4, R13;            \
	MOVL  R10, R12;           \
	SHRL  $4, R12;            \
	ANDL  $0x0f0f0f0f, R12;   \
	ORL   R13, R12;           \
	VMOVD     R11, X6;        \
	VPINSRD   $1, R12, X6, X6; \
	VPMOVZXBW X6, X6

// KSUMMS computes into BX the sum over the 8 sub-blocks of min times the sum
// of its 32 activations (bsums at R8, mins in X6).
#define KSUMMS \
	VMOVDQU  (R8), X4;        \
	VMOVDQU  16(R8), X5;      \
	VPHADDW  X5, X4, X4;      \
	VPMADDWD X6, X4, X4;      \
	VPSHUFD  $0x4e, X4, X5;   \
	VPADDD   X5, X4, X4;      \
	VPSHUFD  $0xb1, X4, X5;   \
	VPADDD   X5, X4, X4;      \
	VMOVD    X4, BX

// func dotQ5_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ5_KAVX2(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS  Y0, Y0, Y0
	VXORPS  X10, X10, X10
	VPCMPEQD X12, X12, X12
	VPSLLD  $31, X12, X12
	VMOVDQU nibmask<>(SB), Y14
	VMOVDQU bit4<>(SB), Y13
	LEAQ    q4kshuf<>(SB), R9
q5kloop:
	TESTQ CX, CX
	JZ    q5kdone
	KSCALES_MINS
	KSUMMS
	// summs = fma(-dy*dminx, float(total of the min products), summs)
	VCVTSI2SSL  BX, X11, X11
	DSCALE(2, X5)
	VXORPS      X12, X5, X5
	VFMADD231SS X11, X5, X10
	VMOVDQU 16(SI), Y9
	VPXOR   Y8, Y8, Y8
	Q5K_CHUNK(0, VPSLLW, $4, VPSLLW, $3)
	Q5K_CHUNK(1, VPSLLW, $2, VPSLLW, $1)
	Q5K_CHUNK(2, VPSRLW, $0, VPSRLW, $1)
	Q5K_CHUNK(3, VPSRLW, $2, VPSRLW, $3)
	LANES_FMA(0)
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q5kloop
q5kdone:
	HSUM8
	VADDSS X10, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// Q3K_GROUP: 32 values (q >> 2j) & 3 from Y1 plus 4 where hmask (Y2) has
// bit k, i.e. the signed value + 4; subtracts 4*y to remove the bias, scales
// by the sub-block scales picked by the shuffle at soff(R9), into Y8.
#define Q3K_GROUP(SHQ, AQ, SHH, AH, yoff, soff) \
	SHQ        AQ, Y1, Y3;     \
	VPAND      Y13, Y3, Y3;    \
	SHH        AH, Y2, Y4;     \
	VPAND      Y12, Y4, Y4;    \
	VPOR       Y4, Y3, Y3;     \
	VMOVDQU    yoff(DI), Y6;   \
	VPMADDUBSW Y6, Y3, Y3;     \
	VPMADDUBSW Y6, Y12, Y7;    \
	VPSUBW     Y7, Y3, Y3;     \
	VPSHUFB    soff(R9), X10, X7; \
	VPMOVSXBW  X7, Y7;         \
	VPMADDWD   Y7, Y3, Y3;     \
	VPADDD     Y3, Y8, Y8

// func dotQ3_KAVX2(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ3_KAVX2(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VXORPS  Y0, Y0, Y0
	VMOVDQU mask03<>(SB), Y13
	VMOVDQU fours<>(SB), Y12
	VMOVDQU thirtytwo<>(SB), Y11
	LEAQ    q6kshuf<>(SB), R9
q3kloop:
	TESTQ CX, CX
	JZ    q3kdone
	// 16 scales (6 bits, biased by 32) into X10 as signed bytes.
	MOVL  96(SI), AX
	MOVL  100(SI), BX
	MOVL  104(SI), R10
	MOVL  AX, R11
	ANDL  $0x0f0f0f0f, R11
	MOVL  R10, R12
	ANDL  $0x03030303, R12
	SHLL  $4, R12
	ORL   R12, R11
	VMOVD R11, X10
	MOVL  BX, R11
	ANDL  $0x0f0f0f0f, R11
	MOVL  R10, R12
	SHRL  $2, R12
	ANDL  $0x03030303, R12
	SHLL  $4, R12
	ORL   R12, R11
	VPINSRD $1, R11, X10, X10
	MOVL  AX, R11
	SHRL  $4, R11
	ANDL  $0x0f0f0f0f, R11
	MOVL  R10, R12
	SHRL  $4, R12
	ANDL  $0x03030303, R12
	SHLL  $4, R12
	ORL   R12, R11
	VPINSRD $2, R11, X10, X10
	MOVL  BX, R11
	SHRL  $4, R11
	ANDL  $0x0f0f0f0f, R11
	MOVL  R10, R12
	SHRL  $6, R12
	ANDL  $0x03030303, R12
	SHLL  $4, R12
	ORL   R12, R11
	VPINSRD $3, R11, X10, X10
	VPSUBB  X11, X10, X10
	VMOVDQU (SI), Y2
	VPXOR   Y8, Y8, Y8
	VMOVDQU 32(SI), Y1
	Q3K_GROUP(VPSRLW, $0, VPSLLW, $2, 0, 0)
	Q3K_GROUP(VPSRLW, $2, VPSLLW, $1, 32, 16)
	Q3K_GROUP(VPSRLW, $4, VPSRLW, $0, 64, 32)
	Q3K_GROUP(VPSRLW, $6, VPSRLW, $1, 96, 48)
	VMOVDQU 64(SI), Y1
	Q3K_GROUP(VPSRLW, $0, VPSRLW, $2, 128, 64)
	Q3K_GROUP(VPSRLW, $2, VPSRLW, $3, 160, 80)
	Q3K_GROUP(VPSRLW, $4, VPSRLW, $4, 192, 96)
	Q3K_GROUP(VPSRLW, $6, VPSRLW, $5, 224, 112)
	LANES_FMA(108)
	ADDQ $110, SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q3kloop
q3kdone:
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// Q2K_GROUP: 32 values (q >> 2j) & 3 from Y1 times the activations,
// scaled by the 4-bit sub-block scales (X10) picked at soff(R9), into Y8.
#define Q2K_GROUP(AQ, yoff, soff) \
	VPSRLW     AQ, Y1, Y3;     \
	VPAND      Y13, Y3, Y3;    \
	VPMADDUBSW yoff(DI), Y3, Y3; \
	VPSHUFB    soff(R9), X10, X7; \
	VPMOVZXBW  X7, Y7;         \
	VPMADDWD   Y7, Y3, Y3;     \
	VPADDD     Y3, Y8, Y8

// func dotQ2_KAVX2(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ2_KAVX2(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS  Y0, Y0, Y0
	VPCMPEQD X12, X12, X12
	VPSLLD  $31, X12, X12
	VMOVDQU mask03<>(SB), Y13
	VMOVDQU nibmask<>(SB), Y14
	LEAQ    q6kshuf<>(SB), R9
q2kloop:
	TESTQ CX, CX
	JZ    q2kdone
	VMOVDQU   (SI), X10
	VPSRLW    $4, X10, X11
	VPAND     X14, X11, X11
	VPAND     X14, X10, X10
	// summs = sum of bsums[j] * (scales[j] >> 4)
	VPMOVZXBW X11, Y11
	VPMADDWD  (R8), Y11, Y11
	// first acc = fma(-dy*dminx, float(min products), acc)
	VCVTDQ2PS    Y11, Y11
	DSCALE(82, X5)
	VXORPS       X12, X5, X5
	VBROADCASTSS X5, Y5
	VFMADD231PS  Y11, Y5, Y0
	VPXOR     Y8, Y8, Y8
	VMOVDQU   16(SI), Y1
	Q2K_GROUP($0, 0, 0)
	Q2K_GROUP($2, 32, 16)
	Q2K_GROUP($4, 64, 32)
	Q2K_GROUP($6, 96, 48)
	VMOVDQU   48(SI), Y1
	Q2K_GROUP($0, 128, 64)
	Q2K_GROUP($2, 160, 80)
	Q2K_GROUP($4, 192, 96)
	Q2K_GROUP($6, 224, 112)
	LANES_FMA(80)
	ADDQ $84, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q2kloop
q2kdone:
	HSUM8
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// Q40ROW(src, V): V = the eight int32 lanes of sum(u*y) for one Q4_0 block
// (u: unsigned nibbles at src, y in Y4). Clobbers Y2, Y7.
#define Q40ROW(src, V) \
	VMOVDQU     src, X7;        \
	VPSRLW      $4, X7, X2;     \
	VINSERTI128 $1, X2, Y7, Y7; \
	VPAND       Y14, Y7, Y7;    \
	VPMADDUBSW  Y4, Y7, Y7;     \
	VPMADDWD    Y15, Y7, V

// func dotQ4_0x8rowsAVX2(w *byte, rb int, y *int8, d *float32, nb int, out *[8]float32)
// Eight consecutive rows (rb bytes apart) with one activation row, each in
// the canonical Q4_0 order: per block acc_r = fma(float(sum_r), dx_r*dy,
// acc_r). The eight rows' block sums are reduced together (lane r = row r)
// so that one vector fma serves all of them.
TEXT ·dotQ4_0x8rowsAVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ rb+8(FP), R9
	MOVQ y+16(FP), DI
	MOVQ d+24(FP), DX
	MOVQ nb+32(FP), CX
	LEAQ (R9)(R9*2), R10
	LEAQ (R9)(R9*4), R11
	MOVQ R9, R12
	SHLQ $3, R12
	SUBQ R9, R12
	VPXOR   Y0, Y0, Y0
	VMOVDQU eights<>(SB), Y13
	VMOVDQU nibmask<>(SB), Y14
	VMOVDQU ones16<>(SB), Y15
q40r8loop:
	TESTQ CX, CX
	JZ    q40r8done
	// 8*sum(y) of the block, in every lane
	VMOVDQU    (DI), Y4
	VPMADDUBSW Y4, Y13, Y5
	VPMADDWD   Y15, Y5, Y5
	VPERM2I128 $1, Y5, Y5, Y6
	VPADDD     Y6, Y5, Y5
	VPSHUFD    $0x4e, Y5, Y6
	VPADDD     Y6, Y5, Y5
	VPSHUFD    $0xb1, Y5, Y6
	VPADDD     Y6, Y5, Y5
	Q40ROW(2(SI), Y1)
	Q40ROW(2(SI)(R9*1), Y3)
	VPHADDD    Y3, Y1, Y1
	Q40ROW(2(SI)(R9*2), Y3)
	Q40ROW(2(SI)(R10*1), Y6)
	VPHADDD    Y6, Y3, Y3
	VPHADDD    Y3, Y1, Y1
	Q40ROW(2(SI)(R9*4), Y3)
	Q40ROW(2(SI)(R11*1), Y6)
	VPHADDD    Y6, Y3, Y3
	Q40ROW(2(SI)(R10*2), Y6)
	Q40ROW(2(SI)(R12*1), Y8)
	VPHADDD    Y8, Y6, Y6
	VPHADDD    Y6, Y3, Y3
	VPERM2I128 $0x20, Y3, Y1, Y6
	VPERM2I128 $0x31, Y3, Y1, Y7
	VPADDD     Y7, Y6, Y6
	VPSUBD     Y5, Y6, Y6
	VCVTDQ2PS  Y6, Y6
	// dx of the eight rows
	MOVWLZX    (SI), AX
	VMOVD      AX, X9
	VPINSRW    $1, (SI)(R9*1), X9, X9
	VPINSRW    $2, (SI)(R9*2), X9, X9
	VPINSRW    $3, (SI)(R10*1), X9, X9
	VPINSRW    $4, (SI)(R9*4), X9, X9
	VPINSRW    $5, (SI)(R11*1), X9, X9
	VPINSRW    $6, (SI)(R10*2), X9, X9
	VPINSRW    $7, (SI)(R12*1), X9, X9
	VCVTPH2PS  X9, Y9
	VBROADCASTSS (DX), Y10
	VMULPS     Y10, Y9, Y9
	VFMADD231PS Y6, Y9, Y0
	ADDQ $18, SI
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q40r8loop
q40r8done:
	MOVQ    out+40(FP), AX
	VMOVUPS Y0, (AX)
	VZEROUPPER
	RET

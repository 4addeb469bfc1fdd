//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the one-position dot products of Q4_K, Q5_K and Q6_K
// weights with Q8_K activations, in the canonical float order of dot_generic.go
// (as dot_arm64.s does for Q8_0 and Q4_0). The integer lane sums (lane l:
// elements with (e%32)/4 == l, each product times its sub-block scale) are
// exact; per super-block acc[l] = fma(d, float(lane l), acc[l]) with acc in
// V2 (lanes 0-3) and V3 (4-7), result hsum8(acc), plus the mins for Q4_K
// and Q5_K.
// The ...SDOT kernels take the 4-byte lane sums from SDOT; the ...NEON ones
// from SMULL/SMULL2, SADDLP and ADDP. Each WORD is the encoding of the
// instruction in its comment (Go's assembler lacks them).

// func dotQ4_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ4_KSDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5ff // movi v31.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loop:
	// S20 = dd = dy*d, S21 = dmin = -(dy*dmin).
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	MOVWU (R0), R5
	MOVWU 4(R0), R6
	MOVWU 8(R0), R7
	ADD $12, R0
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	// The 6-bit scales (R8) and mins (R10) of the eight sub-blocks, a byte each.
	ANDW $0x3f3f3f3f, R5, R8
	LSRW $6, R5, R9
	ANDW $0x03030303, R9, R9
	ANDW $0x0f0f0f0f, R7, R10
	ORRW R9<<4, R10, R9
	ORR R9<<32, R8, R8
	ANDW $0x3f3f3f3f, R6, R10
	LSRW $6, R6, R11
	ANDW $0x03030303, R11, R11
	LSRW $4, R7, R12
	ANDW $0x0f0f0f0f, R12, R12
	ORRW R11<<4, R12, R11
	ORR R11<<32, R10, R10
	WORD $0x9e670117 // fmov d23, x8
	WORD $0x9e67015b // fmov d27, x10
	WORD $0x2f08a6f7 // uxtl v23.8h, v23.8b
	WORD $0x2f10a6f8 // uxtl v24.4s, v23.4h
	WORD $0x6f10a6f9 // uxtl2 v25.4s, v23.8h
	// Mins: prod[k] = m[2k]*s[2k] + m[2k+1]*s[2k+1] (s: sums of 32 activations,
	// pairs of bsums); accm[k] = fma(dmin, float(prod[k]), accm[k]) in V30.
	WORD $0x4cdfa47c // ld1 {v28.8h, v29.8h}, [x3], #32
	WORD $0x4e7dbf9c // addp v28.8h, v28.8h, v29.8h
	WORD $0x2f08a77b // uxtl v27.8h, v27.8b
	WORD $0x0e7bc39d // smull v29.4s, v28.4h, v27.4h
	WORD $0x4e7bc39a // smull2 v26.4s, v28.8h, v27.8h
	WORD $0x4ebabfbd // addp v29.4s, v29.4s, v26.4s
	WORD $0x4e21dbbd // scvtf v29.4s, v29.4s
	WORD $0x4f9513be // fmla v30.4s, v29.4s, v21.s[0]
	// Integer lanes 0-3 in V0, 4-7 in V1: per 64 elements, the low nibbles of
	// 32 bytes (sub-block 2c) and their high nibbles (2c+1), each lane sum
	// times its sub-block scale.
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f980180 // mla v0.4s, v12.4s, v24.s[0]
	WORD $0x6f9801a1 // mla v1.4s, v13.4s, v24.s[0]
	WORD $0x6fb801c0 // mla v0.4s, v14.4s, v24.s[1]
	WORD $0x6fb801e1 // mla v1.4s, v15.4s, v24.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f980980 // mla v0.4s, v12.4s, v24.s[2]
	WORD $0x6f9809a1 // mla v1.4s, v13.4s, v24.s[2]
	WORD $0x6fb809c0 // mla v0.4s, v14.4s, v24.s[3]
	WORD $0x6fb809e1 // mla v1.4s, v15.4s, v24.s[3]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f990180 // mla v0.4s, v12.4s, v25.s[0]
	WORD $0x6f9901a1 // mla v1.4s, v13.4s, v25.s[0]
	WORD $0x6fb901c0 // mla v0.4s, v14.4s, v25.s[1]
	WORD $0x6fb901e1 // mla v1.4s, v15.4s, v25.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f990980 // mla v0.4s, v12.4s, v25.s[2]
	WORD $0x6f9909a1 // mla v1.4s, v13.4s, v25.s[2]
	WORD $0x6fb909c0 // mla v0.4s, v14.4s, v25.s[3]
	WORD $0x6fb909e1 // mla v1.4s, v15.4s, v25.s[3]
	// acc[l] = fma(dd, float(lane l), acc[l]) in V2 (0-3) and V3 (4-7).
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	// + ((accm0+accm2) + (accm1+accm3))
	WORD $0x6e1e43c1 // ext v1.16b, v30.16b, v30.16b, #8
	WORD $0x4e21d7c1 // fadd v1.4s, v30.4s, v1.4s
	WORD $0x7e30d821 // faddp s1, v1.2s
	WORD $0x1e212800 // fadd s0, s0, s1
	FMOVS F0, ret+40(FP)
	RET

// func dotQ4_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ4_KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5ff // movi v31.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loop:
	// S20 = dd = dy*d, S21 = dmin = -(dy*dmin).
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	MOVWU (R0), R5
	MOVWU 4(R0), R6
	MOVWU 8(R0), R7
	ADD $12, R0
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	// The 6-bit scales (R8) and mins (R10) of the eight sub-blocks, a byte each.
	ANDW $0x3f3f3f3f, R5, R8
	LSRW $6, R5, R9
	ANDW $0x03030303, R9, R9
	ANDW $0x0f0f0f0f, R7, R10
	ORRW R9<<4, R10, R9
	ORR R9<<32, R8, R8
	ANDW $0x3f3f3f3f, R6, R10
	LSRW $6, R6, R11
	ANDW $0x03030303, R11, R11
	LSRW $4, R7, R12
	ANDW $0x0f0f0f0f, R12, R12
	ORRW R11<<4, R12, R11
	ORR R11<<32, R10, R10
	WORD $0x9e670117 // fmov d23, x8
	WORD $0x9e67015b // fmov d27, x10
	WORD $0x2f08a6f7 // uxtl v23.8h, v23.8b
	WORD $0x2f10a6f8 // uxtl v24.4s, v23.4h
	WORD $0x6f10a6f9 // uxtl2 v25.4s, v23.8h
	// Mins: prod[k] = m[2k]*s[2k] + m[2k+1]*s[2k+1] (s: sums of 32 activations,
	// pairs of bsums); accm[k] = fma(dmin, float(prod[k]), accm[k]) in V30.
	WORD $0x4cdfa47c // ld1 {v28.8h, v29.8h}, [x3], #32
	WORD $0x4e7dbf9c // addp v28.8h, v28.8h, v29.8h
	WORD $0x2f08a77b // uxtl v27.8h, v27.8b
	WORD $0x0e7bc39d // smull v29.4s, v28.4h, v27.4h
	WORD $0x4e7bc39a // smull2 v26.4s, v28.8h, v27.8h
	WORD $0x4ebabfbd // addp v29.4s, v29.4s, v26.4s
	WORD $0x4e21dbbd // scvtf v29.4s, v29.4s
	WORD $0x4f9513be // fmla v30.4s, v29.4s, v21.s[0]
	// Integer lanes 0-3 in V0, 4-7 in V1: per 64 elements, the low nibbles of
	// 32 bytes (sub-block 2c) and their high nibbles (2c+1), each lane sum
	// times its sub-block scale.
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f980180 // mla v0.4s, v12.4s, v24.s[0]
	WORD $0x6f9801a1 // mla v1.4s, v13.4s, v24.s[0]
	WORD $0x6fb801c0 // mla v0.4s, v14.4s, v24.s[1]
	WORD $0x6fb801e1 // mla v1.4s, v15.4s, v24.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f980980 // mla v0.4s, v12.4s, v24.s[2]
	WORD $0x6f9809a1 // mla v1.4s, v13.4s, v24.s[2]
	WORD $0x6fb809c0 // mla v0.4s, v14.4s, v24.s[3]
	WORD $0x6fb809e1 // mla v1.4s, v15.4s, v24.s[3]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f990180 // mla v0.4s, v12.4s, v25.s[0]
	WORD $0x6f9901a1 // mla v1.4s, v13.4s, v25.s[0]
	WORD $0x6fb901c0 // mla v0.4s, v14.4s, v25.s[1]
	WORD $0x6fb901e1 // mla v1.4s, v15.4s, v25.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f990980 // mla v0.4s, v12.4s, v25.s[2]
	WORD $0x6f9909a1 // mla v1.4s, v13.4s, v25.s[2]
	WORD $0x6fb909c0 // mla v0.4s, v14.4s, v25.s[3]
	WORD $0x6fb909e1 // mla v1.4s, v15.4s, v25.s[3]
	// acc[l] = fma(dd, float(lane l), acc[l]) in V2 (0-3) and V3 (4-7).
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	// + ((accm0+accm2) + (accm1+accm3))
	WORD $0x6e1e43c1 // ext v1.16b, v30.16b, v30.16b, #8
	WORD $0x4e21d7c1 // fadd v1.4s, v30.4s, v1.4s
	WORD $0x7e30d821 // faddp s1, v1.2s
	WORD $0x1e212800 // fadd s0, s0, s1
	FMOVS F0, ret+40(FP)
	RET

// func dotQ6_KSDOT(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ6_KSDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e5fd // movi v29.16b, #15
	WORD $0x4f01e61e // movi v30.16b, #48
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	// R4: ql, R5: qh, R6: scales, R7: d of this super-block.
	MOVD R0, R4
	ADD $128, R0, R5
	ADD $192, R0, R6
	ADD $208, R0, R7
	ADD $210, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: elements 0..127; scale g of group g of 16 elements in V26/V27.
	WORD $0xfc4084da // ldr d26, [x6], #8
	WORD $0x0f08a75a // sxtl v26.8h, v26.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2084 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x4], #64
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 0-3: ql&15 | (qh&3)<<4, then ql[32:]&15 | ((qh>>2)&3)<<4, minus 32.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0c5618 // shl v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x4e3d1cd8 // and v24.16b, v6.16b, v29.16b
	WORD $0x4f0a561c // shl v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0c5639 // shl v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x4e3d1cf9 // and v25.16b, v7.16b, v29.16b
	WORD $0x4f0a563c // shl v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e94970e // sdot v14.4s, v24.16b, v20.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e95972f // sdot v15.4s, v25.16b, v21.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	WORD $0x6f9a09c0 // mla v0.4s, v14.4s, v26.s[2]
	WORD $0x6fba09e1 // mla v1.4s, v15.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 4-7: ql>>4 | (qh&48), then ql[32:]>>4 | ((qh>>2)&48), minus 32.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x6f0c04d8 // ushr v24.16b, v6.16b, #4
	WORD $0x6f0e061c // ushr v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x6f0c04f9 // ushr v25.16b, v7.16b, #4
	WORD $0x6f0e063c // ushr v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e94970e // sdot v14.4s, v24.16b, v20.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e95972f // sdot v15.4s, v25.16b, v21.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	WORD $0x6f9b09c0 // mla v0.4s, v14.4s, v27.s[2]
	WORD $0x6fbb09e1 // mla v1.4s, v15.4s, v27.s[3]
	// Half 1: elements 128..255; scale g of group g of 16 elements in V26/V27.
	WORD $0xfc4084da // ldr d26, [x6], #8
	WORD $0x0f08a75a // sxtl v26.8h, v26.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2084 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x4], #64
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 0-3: ql&15 | (qh&3)<<4, then ql[32:]&15 | ((qh>>2)&3)<<4, minus 32.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0c5618 // shl v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x4e3d1cd8 // and v24.16b, v6.16b, v29.16b
	WORD $0x4f0a561c // shl v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0c5639 // shl v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x4e3d1cf9 // and v25.16b, v7.16b, v29.16b
	WORD $0x4f0a563c // shl v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e94970e // sdot v14.4s, v24.16b, v20.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e95972f // sdot v15.4s, v25.16b, v21.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	WORD $0x6f9a09c0 // mla v0.4s, v14.4s, v26.s[2]
	WORD $0x6fba09e1 // mla v1.4s, v15.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 4-7: ql>>4 | (qh&48), then ql[32:]>>4 | ((qh>>2)&48), minus 32.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x6f0c04d8 // ushr v24.16b, v6.16b, #4
	WORD $0x6f0e061c // ushr v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x6f0c04f9 // ushr v25.16b, v7.16b, #4
	WORD $0x6f0e063c // ushr v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e94970e // sdot v14.4s, v24.16b, v20.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e95972f // sdot v15.4s, v25.16b, v21.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	WORD $0x6f9b09c0 // mla v0.4s, v14.4s, v27.s[2]
	WORD $0x6fbb09e1 // mla v1.4s, v15.4s, v27.s[3]
	// acc[l] = fma(dy*d, float(lane l), acc[l]).
	WORD $0x7d4000f4 // ldr h20, [x7]
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e340ab4 // fmul s20, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ6_KNEON(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ6_KNEON(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e5fd // movi v29.16b, #15
	WORD $0x4f01e61e // movi v30.16b, #48
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	// R4: ql, R5: qh, R6: scales, R7: d of this super-block.
	MOVD R0, R4
	ADD $128, R0, R5
	ADD $192, R0, R6
	ADD $208, R0, R7
	ADD $210, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: elements 0..127; scale g of group g of 16 elements in V26/V27.
	WORD $0xfc4084da // ldr d26, [x6], #8
	WORD $0x0f08a75a // sxtl v26.8h, v26.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2084 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x4], #64
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 0-3: ql&15 | (qh&3)<<4, then ql[32:]&15 | ((qh>>2)&3)<<4, minus 32.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0c5618 // shl v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x4e3d1cd8 // and v24.16b, v6.16b, v29.16b
	WORD $0x4f0a561c // shl v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0c5639 // shl v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x4e3d1cf9 // and v25.16b, v7.16b, v29.16b
	WORD $0x4f0a563c // shl v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x0e32c2cc // smull v12.8h, v22.8b, v18.8b
	WORD $0x4e32c2c8 // smull2 v8.8h, v22.16b, v18.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e33c2ed // smull v13.8h, v23.8b, v19.8b
	WORD $0x4e33c2e9 // smull2 v9.8h, v23.16b, v19.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e34c30e // smull v14.8h, v24.8b, v20.8b
	WORD $0x4e34c30a // smull2 v10.8h, v24.16b, v20.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e35c32f // smull v15.8h, v25.8b, v21.8b
	WORD $0x4e35c32b // smull2 v11.8h, v25.16b, v21.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	WORD $0x6f9a09c0 // mla v0.4s, v14.4s, v26.s[2]
	WORD $0x6fba09e1 // mla v1.4s, v15.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 4-7: ql>>4 | (qh&48), then ql[32:]>>4 | ((qh>>2)&48), minus 32.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x6f0c04d8 // ushr v24.16b, v6.16b, #4
	WORD $0x6f0e061c // ushr v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x6f0c04f9 // ushr v25.16b, v7.16b, #4
	WORD $0x6f0e063c // ushr v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x0e32c2cc // smull v12.8h, v22.8b, v18.8b
	WORD $0x4e32c2c8 // smull2 v8.8h, v22.16b, v18.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e33c2ed // smull v13.8h, v23.8b, v19.8b
	WORD $0x4e33c2e9 // smull2 v9.8h, v23.16b, v19.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e34c30e // smull v14.8h, v24.8b, v20.8b
	WORD $0x4e34c30a // smull2 v10.8h, v24.16b, v20.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e35c32f // smull v15.8h, v25.8b, v21.8b
	WORD $0x4e35c32b // smull2 v11.8h, v25.16b, v21.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	WORD $0x6f9b09c0 // mla v0.4s, v14.4s, v27.s[2]
	WORD $0x6fbb09e1 // mla v1.4s, v15.4s, v27.s[3]
	// Half 1: elements 128..255; scale g of group g of 16 elements in V26/V27.
	WORD $0xfc4084da // ldr d26, [x6], #8
	WORD $0x0f08a75a // sxtl v26.8h, v26.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2084 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x4], #64
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 0-3: ql&15 | (qh&3)<<4, then ql[32:]&15 | ((qh>>2)&3)<<4, minus 32.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0c5618 // shl v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x4e3d1cd8 // and v24.16b, v6.16b, v29.16b
	WORD $0x4f0a561c // shl v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0c5639 // shl v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x4e3d1cf9 // and v25.16b, v7.16b, v29.16b
	WORD $0x4f0a563c // shl v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x0e32c2cc // smull v12.8h, v22.8b, v18.8b
	WORD $0x4e32c2c8 // smull2 v8.8h, v22.16b, v18.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e33c2ed // smull v13.8h, v23.8b, v19.8b
	WORD $0x4e33c2e9 // smull2 v9.8h, v23.16b, v19.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e34c30e // smull v14.8h, v24.8b, v20.8b
	WORD $0x4e34c30a // smull2 v10.8h, v24.16b, v20.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e35c32f // smull v15.8h, v25.8b, v21.8b
	WORD $0x4e35c32b // smull2 v11.8h, v25.16b, v21.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	WORD $0x6f9a09c0 // mla v0.4s, v14.4s, v26.s[2]
	WORD $0x6fba09e1 // mla v1.4s, v15.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Groups 4-7: ql>>4 | (qh&48), then ql[32:]>>4 | ((qh>>2)&48), minus 32.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3f86d6 // sub v22.16b, v22.16b, v31.16b
	WORD $0x6f0c04d8 // ushr v24.16b, v6.16b, #4
	WORD $0x6f0e061c // ushr v28.16b, v16.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f18 // orr v24.16b, v24.16b, v28.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3f86f7 // sub v23.16b, v23.16b, v31.16b
	WORD $0x6f0c04f9 // ushr v25.16b, v7.16b, #4
	WORD $0x6f0e063c // ushr v28.16b, v17.16b, #2
	WORD $0x4e3e1f9c // and v28.16b, v28.16b, v30.16b
	WORD $0x4ebc1f39 // orr v25.16b, v25.16b, v28.16b
	WORD $0x6e3f8739 // sub v25.16b, v25.16b, v31.16b
	WORD $0x0e32c2cc // smull v12.8h, v22.8b, v18.8b
	WORD $0x4e32c2c8 // smull2 v8.8h, v22.16b, v18.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e33c2ed // smull v13.8h, v23.8b, v19.8b
	WORD $0x4e33c2e9 // smull2 v9.8h, v23.16b, v19.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e34c30e // smull v14.8h, v24.8b, v20.8b
	WORD $0x4e34c30a // smull2 v10.8h, v24.16b, v20.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e35c32f // smull v15.8h, v25.8b, v21.8b
	WORD $0x4e35c32b // smull2 v11.8h, v25.16b, v21.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	WORD $0x6f9b09c0 // mla v0.4s, v14.4s, v27.s[2]
	WORD $0x6fbb09e1 // mla v1.4s, v15.4s, v27.s[3]
	// acc[l] = fma(dy*d, float(lane l), acc[l]).
	WORD $0x7d4000f4 // ldr h20, [x7]
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e340ab4 // fmul s20, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ5_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
// As dotQ4_K..., with the fifth bits (qh: bit j of byte i for element
// 32j+i) shifted out of V26/V27 one sub-block at a time, and the mins in
// one sum: summs = fma(dmin, float((p0+p1)+(p2+p3)), summs) in S30.
TEXT ·dotQ5_KSDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5ff // movi v31.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	MOVWU (R0), R5
	MOVWU 4(R0), R6
	MOVWU 8(R0), R7
	ADD $12, R0
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	WORD $0x4f00e616 // movi v22.16b, #16
	ANDW $0x3f3f3f3f, R5, R8
	LSRW $6, R5, R9
	ANDW $0x03030303, R9, R9
	ANDW $0x0f0f0f0f, R7, R10
	ORRW R9<<4, R10, R9
	ORR R9<<32, R8, R8
	ANDW $0x3f3f3f3f, R6, R10
	LSRW $6, R6, R11
	ANDW $0x03030303, R11, R11
	LSRW $4, R7, R12
	ANDW $0x0f0f0f0f, R12, R12
	ORRW R11<<4, R12, R11
	ORR R11<<32, R10, R10
	WORD $0x9e670117 // fmov d23, x8
	WORD $0x9e67015b // fmov d27, x10
	WORD $0x2f08a6f7 // uxtl v23.8h, v23.8b
	WORD $0x2f10a6f8 // uxtl v24.4s, v23.4h
	WORD $0x6f10a6f9 // uxtl2 v25.4s, v23.8h
	WORD $0x4cdfa47c // ld1 {v28.8h, v29.8h}, [x3], #32
	WORD $0x4e7dbf9c // addp v28.8h, v28.8h, v29.8h
	WORD $0x2f08a77b // uxtl v27.8h, v27.8b
	WORD $0x0e7bc39d // smull v29.4s, v28.4h, v27.4h
	WORD $0x4e7bc39a // smull2 v26.4s, v28.8h, v27.8h
	WORD $0x4ebabfbd // addp v29.4s, v29.4s, v26.4s
	// (p0+p1)+(p2+p3) is exact in integers, so ADDV gives it.
	WORD $0x4eb1bbbd // addv s29, v29.4s
	WORD $0x5e21dbbd // scvtf s29, s29
	WORD $0x1f1d7abe // fmadd s30, s21, s29, s30
	WORD $0x4cdfa01a // ld1 {v26.16b, v27.16b}, [x0], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f980180 // mla v0.4s, v12.4s, v24.s[0]
	WORD $0x6f9801a1 // mla v1.4s, v13.4s, v24.s[0]
	WORD $0x6fb801c0 // mla v0.4s, v14.4s, v24.s[1]
	WORD $0x6fb801e1 // mla v1.4s, v15.4s, v24.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f980980 // mla v0.4s, v12.4s, v24.s[2]
	WORD $0x6f9809a1 // mla v1.4s, v13.4s, v24.s[2]
	WORD $0x6fb809c0 // mla v0.4s, v14.4s, v24.s[3]
	WORD $0x6fb809e1 // mla v1.4s, v15.4s, v24.s[3]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f990180 // mla v0.4s, v12.4s, v25.s[0]
	WORD $0x6f9901a1 // mla v1.4s, v13.4s, v25.s[0]
	WORD $0x6fb901c0 // mla v0.4s, v14.4s, v25.s[1]
	WORD $0x6fb901e1 // mla v1.4s, v15.4s, v25.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e84964c // sdot v12.4s, v18.16b, v4.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e85966d // sdot v13.4s, v19.16b, v5.16b
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4e86960e // sdot v14.4s, v16.16b, v6.16b
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4e87962f // sdot v15.4s, v17.16b, v7.16b
	WORD $0x6f990980 // mla v0.4s, v12.4s, v25.s[2]
	WORD $0x6f9909a1 // mla v1.4s, v13.4s, v25.s[2]
	WORD $0x6fb909c0 // mla v0.4s, v14.4s, v25.s[3]
	WORD $0x6fb909e1 // mla v1.4s, v15.4s, v25.s[3]
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
// As dotQ4_K..., with the fifth bits (qh: bit j of byte i for element
// 32j+i) shifted out of V26/V27 one sub-block at a time, and the mins in
// one sum: summs = fma(dmin, float((p0+p1)+(p2+p3)), summs) in S30.
TEXT ·dotQ5_KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5ff // movi v31.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	MOVWU (R0), R5
	MOVWU 4(R0), R6
	MOVWU 8(R0), R7
	ADD $12, R0
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	WORD $0x4f00e616 // movi v22.16b, #16
	ANDW $0x3f3f3f3f, R5, R8
	LSRW $6, R5, R9
	ANDW $0x03030303, R9, R9
	ANDW $0x0f0f0f0f, R7, R10
	ORRW R9<<4, R10, R9
	ORR R9<<32, R8, R8
	ANDW $0x3f3f3f3f, R6, R10
	LSRW $6, R6, R11
	ANDW $0x03030303, R11, R11
	LSRW $4, R7, R12
	ANDW $0x0f0f0f0f, R12, R12
	ORRW R11<<4, R12, R11
	ORR R11<<32, R10, R10
	WORD $0x9e670117 // fmov d23, x8
	WORD $0x9e67015b // fmov d27, x10
	WORD $0x2f08a6f7 // uxtl v23.8h, v23.8b
	WORD $0x2f10a6f8 // uxtl v24.4s, v23.4h
	WORD $0x6f10a6f9 // uxtl2 v25.4s, v23.8h
	WORD $0x4cdfa47c // ld1 {v28.8h, v29.8h}, [x3], #32
	WORD $0x4e7dbf9c // addp v28.8h, v28.8h, v29.8h
	WORD $0x2f08a77b // uxtl v27.8h, v27.8b
	WORD $0x0e7bc39d // smull v29.4s, v28.4h, v27.4h
	WORD $0x4e7bc39a // smull2 v26.4s, v28.8h, v27.8h
	WORD $0x4ebabfbd // addp v29.4s, v29.4s, v26.4s
	// (p0+p1)+(p2+p3) is exact in integers, so ADDV gives it.
	WORD $0x4eb1bbbd // addv s29, v29.4s
	WORD $0x5e21dbbd // scvtf s29, s29
	WORD $0x1f1d7abe // fmadd s30, s21, s29, s30
	WORD $0x4cdfa01a // ld1 {v26.16b, v27.16b}, [x0], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f980180 // mla v0.4s, v12.4s, v24.s[0]
	WORD $0x6f9801a1 // mla v1.4s, v13.4s, v24.s[0]
	WORD $0x6fb801c0 // mla v0.4s, v14.4s, v24.s[1]
	WORD $0x6fb801e1 // mla v1.4s, v15.4s, v24.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f980980 // mla v0.4s, v12.4s, v24.s[2]
	WORD $0x6f9809a1 // mla v1.4s, v13.4s, v24.s[2]
	WORD $0x6fb809c0 // mla v0.4s, v14.4s, v24.s[3]
	WORD $0x6fb809e1 // mla v1.4s, v15.4s, v24.s[3]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f990180 // mla v0.4s, v12.4s, v25.s[0]
	WORD $0x6f9901a1 // mla v1.4s, v13.4s, v25.s[0]
	WORD $0x6fb901c0 // mla v0.4s, v14.4s, v25.s[1]
	WORD $0x6fb901e1 // mla v1.4s, v15.4s, v25.s[1]
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2024 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
	WORD $0x4e3f1e12 // and v18.16b, v16.16b, v31.16b
	WORD $0x4e3f1e33 // and v19.16b, v17.16b, v31.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6f0c0631 // ushr v17.16b, v17.16b, #4
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e52 // orr v18.16b, v18.16b, v28.16b
	WORD $0x4ebd1e73 // orr v19.16b, v19.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x4f0c575c // shl v28.16b, v26.16b, #4
	WORD $0x4f0c577d // shl v29.16b, v27.16b, #4
	WORD $0x4e361f9c // and v28.16b, v28.16b, v22.16b
	WORD $0x4e361fbd // and v29.16b, v29.16b, v22.16b
	WORD $0x4ebc1e10 // orr v16.16b, v16.16b, v28.16b
	WORD $0x4ebd1e31 // orr v17.16b, v17.16b, v29.16b
	WORD $0x6f0f075a // ushr v26.16b, v26.16b, #1
	WORD $0x6f0f077b // ushr v27.16b, v27.16b, #1
	WORD $0x0e24c24c // smull v12.8h, v18.8b, v4.8b
	WORD $0x4e24c248 // smull2 v8.8h, v18.16b, v4.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e25c26d // smull v13.8h, v19.8b, v5.8b
	WORD $0x4e25c269 // smull2 v9.8h, v19.16b, v5.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x0e26c20e // smull v14.8h, v16.8b, v6.8b
	WORD $0x4e26c20a // smull2 v10.8h, v16.16b, v6.16b
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4e60294a // saddlp v10.4s, v10.8h
	WORD $0x4eaabdce // addp v14.4s, v14.4s, v10.4s
	WORD $0x0e27c22f // smull v15.8h, v17.8b, v7.8b
	WORD $0x4e27c22b // smull2 v11.8h, v17.16b, v7.16b
	WORD $0x4e6029ef // saddlp v15.4s, v15.8h
	WORD $0x4e60296b // saddlp v11.4s, v11.8h
	WORD $0x4eabbdef // addp v15.4s, v15.4s, v11.4s
	WORD $0x6f990980 // mla v0.4s, v12.4s, v25.s[2]
	WORD $0x6f9909a1 // mla v1.4s, v13.4s, v25.s[2]
	WORD $0x6fb909c0 // mla v0.4s, v14.4s, v25.s[3]
	WORD $0x6fb909e1 // mla v1.4s, v15.4s, v25.s[3]
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the one-position dot product of Q2_K weights with Q8_K
// activations, in the canonical order of dot_generic.go's dotQ2_K: per
// super-block first the mins, acc[k] = fma(dmin, float(m[2k]*bs[2k] +
// m[2k+1]*bs[2k+1]), acc[k]) (bs: the activations' sums of 16), then the
// integer lane sums (lane l: elements with (e%32)/4 == l, each product of a
// 2-bit quant times its 16-element group's scale), acc[l] = fma(dd,
// float(lane l), acc[l]), with acc in V2 (lanes 0-3) and V3 (4-7); result
// hsum8(acc). The SDOT kernel takes the 4-byte lane sums from SDOT, the
// NEON one from SMULL/SMULL2, SADDLP and ADDP. Each WORD is the
// instruction in its comment.

// func dotQ2_KSDOT(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ2_KSDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopS:
	// Scales and mins (V16), quants (V4-V7); S20 = dd = dy*d, S21 =
	// dmin = -(dy*dmin).
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x4cdf2004 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x0], #64
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	// Mins first: acc[k] = fma(dmin, float(m[2k]*bs[2k] + m[2k+1]*bs[2k+1]),
	// acc[k]), the products widened to 32 bits and added in pairs.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4cdfa46a // ld1 {v10.8h, v11.8h}, [x3], #32
	WORD $0x2f08a719 // uxtl v25.8h, v24.8b
	WORD $0x6f08a718 // uxtl2 v24.8h, v24.16b
	WORD $0x0e6ac32e // smull v14.4s, v25.4h, v10.4h
	WORD $0x4e6ac32f // smull2 v15.4s, v25.8h, v10.8h
	WORD $0x4eafbdce // addp v14.4s, v14.4s, v15.4s
	WORD $0x0e6bc30f // smull v15.4s, v24.4h, v11.4h
	WORD $0x4e6bc319 // smull2 v25.4s, v24.8h, v11.8h
	WORD $0x4eb9bdef // addp v15.4s, v15.4s, v25.4s
	WORD $0x4e21d9ce // scvtf v14.4s, v14.4s
	WORD $0x4e21d9ef // scvtf v15.4s, v15.4s
	WORD $0x4f9511c2 // fmla v2.4s, v14.4s, v21.s[0]
	WORD $0x4f9511e3 // fmla v3.4s, v15.4s, v21.s[0]
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: scale g of its groups of 16 elements in V26/V27.
	WORD $0x2f08a63a // uxtl v26.8h, v17.8b
	WORD $0x6f10a75b // uxtl2 v27.4s, v26.8h
	WORD $0x2f10a75a // uxtl v26.4s, v26.4h
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 0: bits 0-1 of the quants.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants.
	WORD $0x6f0e0496 // ushr v22.16b, v4.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0e04b7 // ushr v23.16b, v5.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9896cc // sdot v12.4s, v22.16b, v24.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9996ed // sdot v13.4s, v23.16b, v25.16b
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 2: bits 4-5 of the quants.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants.
	WORD $0x6f0a0496 // ushr v22.16b, v4.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0a04b7 // ushr v23.16b, v5.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9896cc // sdot v12.4s, v22.16b, v24.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9996ed // sdot v13.4s, v23.16b, v25.16b
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// Half 1: scale g of its groups of 16 elements in V26/V27.
	WORD $0x6f08a63a // uxtl2 v26.8h, v17.16b
	WORD $0x6f10a75b // uxtl2 v27.4s, v26.8h
	WORD $0x2f10a75a // uxtl v26.4s, v26.4h
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 0: bits 0-1 of the quants.
	WORD $0x4e3d1cd6 // and v22.16b, v6.16b, v29.16b
	WORD $0x4e3d1cf7 // and v23.16b, v7.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants.
	WORD $0x6f0e04d6 // ushr v22.16b, v6.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0e04f7 // ushr v23.16b, v7.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9896cc // sdot v12.4s, v22.16b, v24.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9996ed // sdot v13.4s, v23.16b, v25.16b
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 2: bits 4-5 of the quants.
	WORD $0x6f0c04d6 // ushr v22.16b, v6.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c04f7 // ushr v23.16b, v7.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants.
	WORD $0x6f0a04d6 // ushr v22.16b, v6.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0a04f7 // ushr v23.16b, v7.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9896cc // sdot v12.4s, v22.16b, v24.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9996ed // sdot v13.4s, v23.16b, v25.16b
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// acc[l] = fma(dd, float(lane l), acc[l]).
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loopS
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+40(FP)
	RET

// func dotQ2_KNEON(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ2_KNEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopN:
	// Scales and mins (V16), quants (V4-V7); S20 = dd = dy*d, S21 =
	// dmin = -(dy*dmin).
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x4cdf2004 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x0], #64
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402415 // ldr h21, [x0], #2
	WORD $0xbc404456 // ldr s22, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242b5 // fcvt s21, h21
	WORD $0x1e340ad4 // fmul s20, s22, s20
	WORD $0x1e350ad5 // fmul s21, s22, s21
	WORD $0x1e2142b5 // fneg s21, s21
	// Mins first: acc[k] = fma(dmin, float(m[2k]*bs[2k] + m[2k+1]*bs[2k+1]),
	// acc[k]), the products widened to 32 bits and added in pairs.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4cdfa46a // ld1 {v10.8h, v11.8h}, [x3], #32
	WORD $0x2f08a719 // uxtl v25.8h, v24.8b
	WORD $0x6f08a718 // uxtl2 v24.8h, v24.16b
	WORD $0x0e6ac32e // smull v14.4s, v25.4h, v10.4h
	WORD $0x4e6ac32f // smull2 v15.4s, v25.8h, v10.8h
	WORD $0x4eafbdce // addp v14.4s, v14.4s, v15.4s
	WORD $0x0e6bc30f // smull v15.4s, v24.4h, v11.4h
	WORD $0x4e6bc319 // smull2 v25.4s, v24.8h, v11.8h
	WORD $0x4eb9bdef // addp v15.4s, v15.4s, v25.4s
	WORD $0x4e21d9ce // scvtf v14.4s, v14.4s
	WORD $0x4e21d9ef // scvtf v15.4s, v15.4s
	WORD $0x4f9511c2 // fmla v2.4s, v14.4s, v21.s[0]
	WORD $0x4f9511e3 // fmla v3.4s, v15.4s, v21.s[0]
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: scale g of its groups of 16 elements in V26/V27.
	WORD $0x2f08a63a // uxtl v26.8h, v17.8b
	WORD $0x6f10a75b // uxtl2 v27.4s, v26.8h
	WORD $0x2f10a75a // uxtl v26.4s, v26.4h
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 0: bits 0-1 of the quants.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
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
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants.
	WORD $0x6f0e0496 // ushr v22.16b, v4.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0e04b7 // ushr v23.16b, v5.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x0e38c2cc // smull v12.8h, v22.8b, v24.8b
	WORD $0x4e38c2c8 // smull2 v8.8h, v22.16b, v24.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e39c2ed // smull v13.8h, v23.8b, v25.8b
	WORD $0x4e39c2e9 // smull2 v9.8h, v23.16b, v25.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 2: bits 4-5 of the quants.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
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
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants.
	WORD $0x6f0a0496 // ushr v22.16b, v4.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0a04b7 // ushr v23.16b, v5.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x0e38c2cc // smull v12.8h, v22.8b, v24.8b
	WORD $0x4e38c2c8 // smull2 v8.8h, v22.16b, v24.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e39c2ed // smull v13.8h, v23.8b, v25.8b
	WORD $0x4e39c2e9 // smull2 v9.8h, v23.16b, v25.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// Half 1: scale g of its groups of 16 elements in V26/V27.
	WORD $0x6f08a63a // uxtl2 v26.8h, v17.16b
	WORD $0x6f10a75b // uxtl2 v27.4s, v26.8h
	WORD $0x2f10a75a // uxtl v26.4s, v26.4h
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 0: bits 0-1 of the quants.
	WORD $0x4e3d1cd6 // and v22.16b, v6.16b, v29.16b
	WORD $0x4e3d1cf7 // and v23.16b, v7.16b, v29.16b
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
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants.
	WORD $0x6f0e04d6 // ushr v22.16b, v6.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0e04f7 // ushr v23.16b, v7.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x0e38c2cc // smull v12.8h, v22.8b, v24.8b
	WORD $0x4e38c2c8 // smull2 v8.8h, v22.16b, v24.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e39c2ed // smull v13.8h, v23.8b, v25.8b
	WORD $0x4e39c2e9 // smull2 v9.8h, v23.16b, v25.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	// Group 2: bits 4-5 of the quants.
	WORD $0x6f0c04d6 // ushr v22.16b, v6.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c04f7 // ushr v23.16b, v7.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
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
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants.
	WORD $0x6f0a04d6 // ushr v22.16b, v6.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0a04f7 // ushr v23.16b, v7.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x0e38c2cc // smull v12.8h, v22.8b, v24.8b
	WORD $0x4e38c2c8 // smull2 v8.8h, v22.16b, v24.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e39c2ed // smull v13.8h, v23.8b, v25.8b
	WORD $0x4e39c2e9 // smull2 v9.8h, v23.16b, v25.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// acc[l] = fma(dd, float(lane l), acc[l]).
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loopN
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+40(FP)
	RET

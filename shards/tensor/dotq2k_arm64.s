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

// The four-position kernels: one row against positions p = 0..3
// (activations ystride bytes apart, their scales dstride bytes apart, their
// block sums bstride bytes apart), each weight vector decoded once for the
// four, each position's mins, lanes and acc as dotQ2_K... computes them.

// func dotQ2_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ2_Kx4SDOT(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R19
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9,
	// R10; block sums at R3, R12, R13, R14.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R15, R2, R8
	ADD R15, R8, R9
	ADD R15, R9, R10
	ADD R19, R3, R12
	ADD R19, R12, R13
	ADD R19, R13, R14
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p).
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop4S:
	// R11: d and dmin of this super-block; scales and mins in V16, the
	// mins widened in V20 (0-7) and V21 (8-15); S31 = dmin.
	ADD $80, R0, R11
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x6f0c0614 // ushr v20.16b, v16.16b, #4
	WORD $0x6f08a695 // uxtl2 v21.8h, v20.16b
	WORD $0x2f08a694 // uxtl v20.8h, v20.8b
	WORD $0x7d40057f // ldr h31, [x11, #2]
	WORD $0x1ee243ff // fcvt s31, h31
	// Mins first, per position: acc[k] = fma(-(dy*dmin), float(m[2k]*bs[2k]
	// + m[2k+1]*bs[2k+1]), acc[k]).
	WORD $0x4cdfa47a // ld1 {v26.8h, v27.8h}, [x3], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40005a // ldr s26, [x2]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a1308 // fmla v8.4s, v24.4s, v26.s[0]
	WORD $0x4f9a1329 // fmla v9.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa59a // ld1 {v26.8h, v27.8h}, [x12], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40011a // ldr s26, [x8]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130a // fmla v10.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132b // fmla v11.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa5ba // ld1 {v26.8h, v27.8h}, [x13], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40013a // ldr s26, [x9]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130c // fmla v12.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132d // fmla v13.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa5da // ld1 {v26.8h, v27.8h}, [x14], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40015a // ldr s26, [x10]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130e // fmla v14.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132f // fmla v15.4s, v25.4s, v26.s[0]
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: its quants in V18, V19; scale g of its groups of 16 in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x2f08a636 // uxtl v22.8h, v17.8b
	WORD $0x6f10a6d7 // uxtl2 v23.4s, v22.8h
	WORD $0x2f10a6d6 // uxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// Half 1: its quants in V18, V19; scale g of its groups of 16 in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x6f08a636 // uxtl2 v22.8h, v17.16b
	WORD $0x6f10a6d7 // uxtl2 v23.4s, v22.8h
	WORD $0x2f10a6d6 // uxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x4f00e41b // movi v27.16b, #0
	WORD $0x4e9a971b // sdot v27.4s, v24.16b, v26.16b
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7c404418 // ldr h24, [x0], #4
	WORD $0x1ee24318 // fcvt s24, h24
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f991008 // fmla v8.4s, v0.4s, v25.s[0]
	WORD $0x4f991029 // fmla v9.4s, v1.4s, v25.s[0]
	WORD $0xbc404519 // ldr s25, [x8], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f99104a // fmla v10.4s, v2.4s, v25.s[0]
	WORD $0x4f99106b // fmla v11.4s, v3.4s, v25.s[0]
	WORD $0xbc404539 // ldr s25, [x9], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f99108c // fmla v12.4s, v4.4s, v25.s[0]
	WORD $0x4f9910ad // fmla v13.4s, v5.4s, v25.s[0]
	WORD $0xbc404559 // ldr s25, [x10], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9910ce // fmla v14.4s, v6.4s, v25.s[0]
	WORD $0x4f9910ef // fmla v15.4s, v7.4s, v25.s[0]
	SUBS $1, R4, R4
	BNE loop4S
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

// func dotQ2_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ2_Kx4NEON(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R19
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9,
	// R10; block sums at R3, R12, R13, R14.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R15, R2, R8
	ADD R15, R8, R9
	ADD R15, R9, R10
	ADD R19, R3, R12
	ADD R19, R12, R13
	ADD R19, R13, R14
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p).
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop4N:
	// R11: d and dmin of this super-block; scales and mins in V16, the
	// mins widened in V20 (0-7) and V21 (8-15); S31 = dmin.
	ADD $80, R0, R11
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x6f0c0614 // ushr v20.16b, v16.16b, #4
	WORD $0x6f08a695 // uxtl2 v21.8h, v20.16b
	WORD $0x2f08a694 // uxtl v20.8h, v20.8b
	WORD $0x7d40057f // ldr h31, [x11, #2]
	WORD $0x1ee243ff // fcvt s31, h31
	// Mins first, per position: acc[k] = fma(-(dy*dmin), float(m[2k]*bs[2k]
	// + m[2k+1]*bs[2k+1]), acc[k]).
	WORD $0x4cdfa47a // ld1 {v26.8h, v27.8h}, [x3], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40005a // ldr s26, [x2]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a1308 // fmla v8.4s, v24.4s, v26.s[0]
	WORD $0x4f9a1329 // fmla v9.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa59a // ld1 {v26.8h, v27.8h}, [x12], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40011a // ldr s26, [x8]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130a // fmla v10.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132b // fmla v11.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa5ba // ld1 {v26.8h, v27.8h}, [x13], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40013a // ldr s26, [x9]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130c // fmla v12.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132d // fmla v13.4s, v25.4s, v26.s[0]
	WORD $0x4cdfa5da // ld1 {v26.8h, v27.8h}, [x14], #32
	WORD $0x0e7ac298 // smull v24.4s, v20.4h, v26.4h
	WORD $0x4e7ac299 // smull2 v25.4s, v20.8h, v26.8h
	WORD $0x4eb9bf18 // addp v24.4s, v24.4s, v25.4s
	WORD $0x0e7bc2b9 // smull v25.4s, v21.4h, v27.4h
	WORD $0x4e7bc2bc // smull2 v28.4s, v21.8h, v27.8h
	WORD $0x4ebcbf39 // addp v25.4s, v25.4s, v28.4s
	WORD $0x4e21db18 // scvtf v24.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0xbd40015a // ldr s26, [x10]
	WORD $0x1e3f0b5a // fmul s26, s26, s31
	WORD $0x1e21435a // fneg s26, s26
	WORD $0x4f9a130e // fmla v14.4s, v24.4s, v26.s[0]
	WORD $0x4f9a132f // fmla v15.4s, v25.4s, v26.s[0]
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: its quants in V18, V19; scale g of its groups of 16 in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x2f08a636 // uxtl v22.8h, v17.8b
	WORD $0x6f10a6d7 // uxtl2 v23.4s, v22.8h
	WORD $0x2f10a6d6 // uxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// Half 1: its quants in V18, V19; scale g of its groups of 16 in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x6f08a636 // uxtl2 v22.8h, v17.16b
	WORD $0x6f10a6d7 // uxtl2 v23.4s, v22.8h
	WORD $0x2f10a6d6 // uxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac31c // smull2 v28.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602b9c // saddlp v28.4s, v28.8h
	WORD $0x4ebcbf7b // addp v27.4s, v27.4s, v28.4s
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7c404418 // ldr h24, [x0], #4
	WORD $0x1ee24318 // fcvt s24, h24
	WORD $0xbc404459 // ldr s25, [x2], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f991008 // fmla v8.4s, v0.4s, v25.s[0]
	WORD $0x4f991029 // fmla v9.4s, v1.4s, v25.s[0]
	WORD $0xbc404519 // ldr s25, [x8], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f99104a // fmla v10.4s, v2.4s, v25.s[0]
	WORD $0x4f99106b // fmla v11.4s, v3.4s, v25.s[0]
	WORD $0xbc404539 // ldr s25, [x9], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f99108c // fmla v12.4s, v4.4s, v25.s[0]
	WORD $0x4f9910ad // fmla v13.4s, v5.4s, v25.s[0]
	WORD $0xbc404559 // ldr s25, [x10], #4
	WORD $0x1e380b39 // fmul s25, s25, s24
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9910ce // fmla v14.4s, v6.4s, v25.s[0]
	WORD $0x4f9910ef // fmla v15.4s, v7.4s, v25.s[0]
	SUBS $1, R4, R4
	BNE loop4N
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

//go:build arm64 && !purego

#include "textflag.h"

// One-row, four-position NEON kernels for Q4_K, Q5_K and Q6_K weights
// (prompt batches): each super-block's scales are decoded and its quants unpacked
// once for four positions, and each position keeps its own integer lanes
// and float chain in the canonical order of dot_generic.go, as
// dotk_arm64.s's one-position kernels do. The ...SDOT kernels use SDOT,
// the ...NEON ones SMULL/SADDLP/ADDP. Strides are in bytes. Each WORD is
// the encoding of the instruction in its comment.

// func dotQ4_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ4_Kx4SDOT(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R13
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10; block sums at R3, R14, R15, R16.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	ADD R13, R3, R14
	ADD R13, R14, R15
	ADD R13, R15, R16
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p);
	// accm in V(16+p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
loop:
	MOVD R0, R17
	WORD $0x7d400415 // ldr h21, [x0, #2]
	ADD $4, R0
	MOVWU (R0), R19
	MOVWU 4(R0), R20
	MOVWU 8(R0), R21
	ADD $12, R0
	// Scales (R22) and mins (R23) of the eight sub-blocks, as dotQ4_KSDOT.
	ANDW $0x3f3f3f3f, R19, R22
	LSRW $6, R19, R24
	ANDW $0x03030303, R24, R24
	ANDW $0x0f0f0f0f, R21, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R22, R22
	ANDW $0x3f3f3f3f, R20, R23
	LSRW $6, R20, R24
	ANDW $0x03030303, R24, R24
	LSRW $4, R21, R25
	ANDW $0x0f0f0f0f, R25, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R23, R23
	WORD $0x9e6702dc // fmov d28, x22
	WORD $0x2f08a79c // uxtl v28.8h, v28.8b
	WORD $0x6f10a79d // uxtl2 v29.4s, v28.8h
	WORD $0x2f10a79c // uxtl v28.4s, v28.4h
	WORD $0x9e6702fa // fmov d26, x23
	WORD $0x2f08a75a // uxtl v26.8h, v26.8b
	WORD $0x1ee242b5 // fcvt s21, h21
	// Mins of position 0: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400056 // ldr s22, [x2]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa478 // ld1 {v24.8h, v25.8h}, [x3], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961330 // fmla v16.4s, v25.4s, v22.s[0]
	// Mins of position 1: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400116 // ldr s22, [x8]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5d8 // ld1 {v24.8h, v25.8h}, [x14], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961331 // fmla v17.4s, v25.4s, v22.s[0]
	// Mins of position 2: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400136 // ldr s22, [x9]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5f8 // ld1 {v24.8h, v25.8h}, [x15], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961332 // fmla v18.4s, v25.4s, v22.s[0]
	// Mins of position 3: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400156 // ldr s22, [x10]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa618 // ld1 {v24.8h, v25.8h}, [x16], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961333 // fmla v19.4s, v25.4s, v22.s[0]
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Elements 0..63: low nibbles V20, V21 (scale 0), high V22, V23 (scale 1).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0340 // mla v0.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0341 // mla v1.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0340 // mla v0.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0341 // mla v1.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0342 // mla v2.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0343 // mla v3.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0342 // mla v2.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0343 // mla v3.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0344 // mla v4.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0345 // mla v5.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0344 // mla v4.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0345 // mla v5.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0346 // mla v6.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0347 // mla v7.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0346 // mla v6.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0347 // mla v7.4s, v26.4s, v28.s[1]
	// Elements 64..127: low nibbles V20, V21 (scale 2), high V22, V23 (scale 3).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b40 // mla v0.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b41 // mla v1.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b40 // mla v0.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b41 // mla v1.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b42 // mla v2.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b43 // mla v3.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b42 // mla v2.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b43 // mla v3.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b44 // mla v4.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b45 // mla v5.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b44 // mla v4.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b45 // mla v5.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b46 // mla v6.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b47 // mla v7.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b46 // mla v6.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b47 // mla v7.4s, v26.4s, v28.s[3]
	// Elements 128..191: low nibbles V20, V21 (scale 4), high V22, V23 (scale 5).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0340 // mla v0.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0341 // mla v1.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0340 // mla v0.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0341 // mla v1.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0342 // mla v2.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0343 // mla v3.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0342 // mla v2.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0343 // mla v3.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0344 // mla v4.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0345 // mla v5.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0344 // mla v4.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0345 // mla v5.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0346 // mla v6.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0347 // mla v7.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0346 // mla v6.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0347 // mla v7.4s, v26.4s, v29.s[1]
	// Elements 192..255: low nibbles V20, V21 (scale 6), high V22, V23 (scale 7).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b40 // mla v0.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b41 // mla v1.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b40 // mla v0.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b41 // mla v1.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b42 // mla v2.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b43 // mla v3.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b42 // mla v2.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b43 // mla v3.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b44 // mla v4.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b45 // mla v5.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b44 // mla v4.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b45 // mla v5.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b46 // mla v6.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b47 // mla v7.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b46 // mla v6.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b47 // mla v7.4s, v26.4s, v29.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7d400234 // ldr h20, [x17]
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f951008 // fmla v8.4s, v0.4s, v21.s[0]
	WORD $0x4f951029 // fmla v9.4s, v1.4s, v21.s[0]
	WORD $0xbc404515 // ldr s21, [x8], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f95104a // fmla v10.4s, v2.4s, v21.s[0]
	WORD $0x4f95106b // fmla v11.4s, v3.4s, v21.s[0]
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f95108c // fmla v12.4s, v4.4s, v21.s[0]
	WORD $0x4f9510ad // fmla v13.4s, v5.4s, v21.s[0]
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9510ce // fmla v14.4s, v6.4s, v21.s[0]
	WORD $0x4f9510ef // fmla v15.4s, v7.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 0
	WORD $0x6e104219 // ext v25.16b, v16.16b, v16.16b, #8
	WORD $0x4e39d619 // fadd v25.4s, v16.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 1
	WORD $0x6e114239 // ext v25.16b, v17.16b, v17.16b, #8
	WORD $0x4e39d639 // fadd v25.4s, v17.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 2
	WORD $0x6e124259 // ext v25.16b, v18.16b, v18.16b, #8
	WORD $0x4e39d659 // fadd v25.4s, v18.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 3
	WORD $0x6e134279 // ext v25.16b, v19.16b, v19.16b, #8
	WORD $0x4e39d679 // fadd v25.4s, v19.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

// func dotQ4_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ4_Kx4NEON(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R13
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10; block sums at R3, R14, R15, R16.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	ADD R13, R3, R14
	ADD R13, R14, R15
	ADD R13, R15, R16
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p);
	// accm in V(16+p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
loop:
	MOVD R0, R17
	WORD $0x7d400415 // ldr h21, [x0, #2]
	ADD $4, R0
	MOVWU (R0), R19
	MOVWU 4(R0), R20
	MOVWU 8(R0), R21
	ADD $12, R0
	// Scales (R22) and mins (R23) of the eight sub-blocks, as dotQ4_KSDOT.
	ANDW $0x3f3f3f3f, R19, R22
	LSRW $6, R19, R24
	ANDW $0x03030303, R24, R24
	ANDW $0x0f0f0f0f, R21, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R22, R22
	ANDW $0x3f3f3f3f, R20, R23
	LSRW $6, R20, R24
	ANDW $0x03030303, R24, R24
	LSRW $4, R21, R25
	ANDW $0x0f0f0f0f, R25, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R23, R23
	WORD $0x9e6702dc // fmov d28, x22
	WORD $0x2f08a79c // uxtl v28.8h, v28.8b
	WORD $0x6f10a79d // uxtl2 v29.4s, v28.8h
	WORD $0x2f10a79c // uxtl v28.4s, v28.4h
	WORD $0x9e6702fa // fmov d26, x23
	WORD $0x2f08a75a // uxtl v26.8h, v26.8b
	WORD $0x1ee242b5 // fcvt s21, h21
	// Mins of position 0: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400056 // ldr s22, [x2]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa478 // ld1 {v24.8h, v25.8h}, [x3], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961330 // fmla v16.4s, v25.4s, v22.s[0]
	// Mins of position 1: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400116 // ldr s22, [x8]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5d8 // ld1 {v24.8h, v25.8h}, [x14], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961331 // fmla v17.4s, v25.4s, v22.s[0]
	// Mins of position 2: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400136 // ldr s22, [x9]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5f8 // ld1 {v24.8h, v25.8h}, [x15], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961332 // fmla v18.4s, v25.4s, v22.s[0]
	// Mins of position 3: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400156 // ldr s22, [x10]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa618 // ld1 {v24.8h, v25.8h}, [x16], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4e21db39 // scvtf v25.4s, v25.4s
	WORD $0x4f961333 // fmla v19.4s, v25.4s, v22.s[0]
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Elements 0..63: low nibbles V20, V21 (scale 0), high V22, V23 (scale 1).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0340 // mla v0.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0341 // mla v1.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0340 // mla v0.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0341 // mla v1.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0342 // mla v2.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0343 // mla v3.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0342 // mla v2.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0343 // mla v3.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0344 // mla v4.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0345 // mla v5.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0344 // mla v4.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0345 // mla v5.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0346 // mla v6.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0347 // mla v7.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0346 // mla v6.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0347 // mla v7.4s, v26.4s, v28.s[1]
	// Elements 64..127: low nibbles V20, V21 (scale 2), high V22, V23 (scale 3).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b40 // mla v0.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b41 // mla v1.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b40 // mla v0.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b41 // mla v1.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b42 // mla v2.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b43 // mla v3.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b42 // mla v2.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b43 // mla v3.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b44 // mla v4.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b45 // mla v5.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b44 // mla v4.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b45 // mla v5.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b46 // mla v6.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b47 // mla v7.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b46 // mla v6.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b47 // mla v7.4s, v26.4s, v28.s[3]
	// Elements 128..191: low nibbles V20, V21 (scale 4), high V22, V23 (scale 5).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0340 // mla v0.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0341 // mla v1.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0340 // mla v0.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0341 // mla v1.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0342 // mla v2.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0343 // mla v3.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0342 // mla v2.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0343 // mla v3.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0344 // mla v4.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0345 // mla v5.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0344 // mla v4.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0345 // mla v5.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0346 // mla v6.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0347 // mla v7.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0346 // mla v6.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0347 // mla v7.4s, v26.4s, v29.s[1]
	// Elements 192..255: low nibbles V20, V21 (scale 6), high V22, V23 (scale 7).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b40 // mla v0.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b41 // mla v1.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b40 // mla v0.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b41 // mla v1.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b42 // mla v2.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b43 // mla v3.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b42 // mla v2.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b43 // mla v3.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b44 // mla v4.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b45 // mla v5.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b44 // mla v4.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b45 // mla v5.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b46 // mla v6.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b47 // mla v7.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b46 // mla v6.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b47 // mla v7.4s, v26.4s, v29.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7d400234 // ldr h20, [x17]
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f951008 // fmla v8.4s, v0.4s, v21.s[0]
	WORD $0x4f951029 // fmla v9.4s, v1.4s, v21.s[0]
	WORD $0xbc404515 // ldr s21, [x8], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f95104a // fmla v10.4s, v2.4s, v21.s[0]
	WORD $0x4f95106b // fmla v11.4s, v3.4s, v21.s[0]
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f95108c // fmla v12.4s, v4.4s, v21.s[0]
	WORD $0x4f9510ad // fmla v13.4s, v5.4s, v21.s[0]
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9510ce // fmla v14.4s, v6.4s, v21.s[0]
	WORD $0x4f9510ef // fmla v15.4s, v7.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 0
	WORD $0x6e104219 // ext v25.16b, v16.16b, v16.16b, #8
	WORD $0x4e39d619 // fadd v25.4s, v16.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 1
	WORD $0x6e114239 // ext v25.16b, v17.16b, v17.16b, #8
	WORD $0x4e39d639 // fadd v25.4s, v17.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 2
	WORD $0x6e124259 // ext v25.16b, v18.16b, v18.16b, #8
	WORD $0x4e39d659 // fadd v25.4s, v18.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	// + ((accm0+accm2) + (accm1+accm3)) of position 3
	WORD $0x6e134279 // ext v25.16b, v19.16b, v19.16b, #8
	WORD $0x4e39d679 // fadd v25.4s, v19.4s, v25.4s
	WORD $0x7e30db39 // faddp s25, v25.2s
	WORD $0x1e392b18 // fadd s24, s24, s25
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

// func dotQ6_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ6_Kx4SDOT(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p).
	WORD $0x4f00e5fd // movi v29.16b, #15
	WORD $0x4f01e61e // movi v30.16b, #48
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop:
	// R19: ql, R20: qh, R21: scales, R22: d of this super-block.
	MOVD R0, R19
	ADD $128, R0, R20
	ADD $192, R0, R21
	ADD $208, R0, R22
	ADD $210, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: scales in V22 (groups 0-3) and V23 (4-7).
	WORD $0xfc4086b6 // ldr d22, [x21], #8
	WORD $0x0f08a6d6 // sxtl v22.8h, v22.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	WORD $0x4cdf2270 // ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x19], #64
	WORD $0x4cdfa294 // ld1 {v20.16b, v21.16b}, [x20], #32
	// Group 0 (elements 0..15) into V24.
	WORD $0x4e3d1e18 // and v24.16b, v16.16b, v29.16b
	WORD $0x4f0c5699 // shl v25.16b, v20.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 1 (elements 16..31) into V24.
	WORD $0x4e3d1e38 // and v24.16b, v17.16b, v29.16b
	WORD $0x4f0c56b9 // shl v25.16b, v21.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 2 (elements 32..47) into V24.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5699 // shl v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 3 (elements 48..63) into V24.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a56b9 // shl v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 4 (elements 64..79) into V24.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1e99 // and v25.16b, v20.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 5 (elements 80..95) into V24.
	WORD $0x6f0c0638 // ushr v24.16b, v17.16b, #4
	WORD $0x4e3e1eb9 // and v25.16b, v21.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 6 (elements 96..111) into V24.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x6f0e0699 // ushr v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 7 (elements 112..127) into V24.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x6f0e06b9 // ushr v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Half 1: scales in V22 (groups 0-3) and V23 (4-7).
	WORD $0xfc4086b6 // ldr d22, [x21], #8
	WORD $0x0f08a6d6 // sxtl v22.8h, v22.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	WORD $0x4cdf2270 // ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x19], #64
	WORD $0x4cdfa294 // ld1 {v20.16b, v21.16b}, [x20], #32
	// Group 0 (elements 128..143) into V24.
	WORD $0x4e3d1e18 // and v24.16b, v16.16b, v29.16b
	WORD $0x4f0c5699 // shl v25.16b, v20.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 1 (elements 144..159) into V24.
	WORD $0x4e3d1e38 // and v24.16b, v17.16b, v29.16b
	WORD $0x4f0c56b9 // shl v25.16b, v21.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 2 (elements 160..175) into V24.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5699 // shl v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 3 (elements 176..191) into V24.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a56b9 // shl v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 4 (elements 192..207) into V24.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1e99 // and v25.16b, v20.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 5 (elements 208..223) into V24.
	WORD $0x6f0c0638 // ushr v24.16b, v17.16b, #4
	WORD $0x4e3e1eb9 // and v25.16b, v21.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 6 (elements 224..239) into V24.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x6f0e0699 // ushr v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 7 (elements 240..255) into V24.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x6f0e06b9 // ushr v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	WORD $0x7d4002d8 // ldr h24, [x22]
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
	BNE loop
	MOVD out+48(FP), R19
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

// func dotQ6_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ6_Kx4NEON(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p).
	WORD $0x4f00e5fd // movi v29.16b, #15
	WORD $0x4f01e61e // movi v30.16b, #48
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop:
	// R19: ql, R20: qh, R21: scales, R22: d of this super-block.
	MOVD R0, R19
	ADD $128, R0, R20
	ADD $192, R0, R21
	ADD $208, R0, R22
	ADD $210, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: scales in V22 (groups 0-3) and V23 (4-7).
	WORD $0xfc4086b6 // ldr d22, [x21], #8
	WORD $0x0f08a6d6 // sxtl v22.8h, v22.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	WORD $0x4cdf2270 // ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x19], #64
	WORD $0x4cdfa294 // ld1 {v20.16b, v21.16b}, [x20], #32
	// Group 0 (elements 0..15) into V24.
	WORD $0x4e3d1e18 // and v24.16b, v16.16b, v29.16b
	WORD $0x4f0c5699 // shl v25.16b, v20.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 1 (elements 16..31) into V24.
	WORD $0x4e3d1e38 // and v24.16b, v17.16b, v29.16b
	WORD $0x4f0c56b9 // shl v25.16b, v21.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 2 (elements 32..47) into V24.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5699 // shl v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 3 (elements 48..63) into V24.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a56b9 // shl v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 4 (elements 64..79) into V24.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1e99 // and v25.16b, v20.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 5 (elements 80..95) into V24.
	WORD $0x6f0c0638 // ushr v24.16b, v17.16b, #4
	WORD $0x4e3e1eb9 // and v25.16b, v21.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 6 (elements 96..111) into V24.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x6f0e0699 // ushr v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 7 (elements 112..127) into V24.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x6f0e06b9 // ushr v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Half 1: scales in V22 (groups 0-3) and V23 (4-7).
	WORD $0xfc4086b6 // ldr d22, [x21], #8
	WORD $0x0f08a6d6 // sxtl v22.8h, v22.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	WORD $0x4cdf2270 // ld1 {v16.16b, v17.16b, v18.16b, v19.16b}, [x19], #64
	WORD $0x4cdfa294 // ld1 {v20.16b, v21.16b}, [x20], #32
	// Group 0 (elements 128..143) into V24.
	WORD $0x4e3d1e18 // and v24.16b, v16.16b, v29.16b
	WORD $0x4f0c5699 // shl v25.16b, v20.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 1 (elements 144..159) into V24.
	WORD $0x4e3d1e38 // and v24.16b, v17.16b, v29.16b
	WORD $0x4f0c56b9 // shl v25.16b, v21.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 2 (elements 160..175) into V24.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5699 // shl v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 3 (elements 176..191) into V24.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a56b9 // shl v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 4 (elements 192..207) into V24.
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1e99 // and v25.16b, v20.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 5 (elements 208..223) into V24.
	WORD $0x6f0c0638 // ushr v24.16b, v17.16b, #4
	WORD $0x4e3e1eb9 // and v25.16b, v21.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 6 (elements 224..239) into V24.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x6f0e0699 // ushr v25.16b, v20.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	// Group 7 (elements 240..255) into V24.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x6f0e06b9 // ushr v25.16b, v21.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3f8718 // sub v24.16b, v24.16b, v31.16b
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
	WORD $0x7d4002d8 // ldr h24, [x22]
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
	BNE loop
	MOVD out+48(FP), R19
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

// The Q5_K kernels are the Q4_K ones with the fifth bits (qh, at byte 16
// of a block) shifted in per sub-block and the mins in one sum per
// position: summs = fma(dmin, float((p0+p1)+(p2+p3)), summs) in S(16+p).

// func dotQ5_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ5_Kx4SDOT(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R13
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10; block sums at R3, R14, R15, R16.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	ADD R13, R3, R14
	ADD R13, R14, R15
	ADD R13, R15, R16
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p);
	// accm in V(16+p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
loop:
	MOVD R0, R17
	WORD $0x7d400415 // ldr h21, [x0, #2]
	ADD $4, R0
	MOVWU (R0), R19
	MOVWU 4(R0), R20
	MOVWU 8(R0), R21
	ADD $12, R0
	// Scales (R22) and mins (R23) of the eight sub-blocks, as dotQ4_KSDOT.
	ANDW $0x3f3f3f3f, R19, R22
	LSRW $6, R19, R24
	ANDW $0x03030303, R24, R24
	ANDW $0x0f0f0f0f, R21, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R22, R22
	ANDW $0x3f3f3f3f, R20, R23
	LSRW $6, R20, R24
	ANDW $0x03030303, R24, R24
	LSRW $4, R21, R25
	ANDW $0x0f0f0f0f, R25, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R23, R23
	WORD $0x9e6702dc // fmov d28, x22
	WORD $0x2f08a79c // uxtl v28.8h, v28.8b
	WORD $0x6f10a79d // uxtl2 v29.4s, v28.8h
	WORD $0x2f10a79c // uxtl v28.4s, v28.4h
	WORD $0x9e6702fa // fmov d26, x23
	WORD $0x2f08a75a // uxtl v26.8h, v26.8b
	WORD $0x1ee242b5 // fcvt s21, h21
	// Mins of position 0: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400056 // ldr s22, [x2]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa478 // ld1 {v24.8h, v25.8h}, [x3], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f1942d0 // fmadd s16, s22, s25, s16
	// Mins of position 1: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400116 // ldr s22, [x8]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5d8 // ld1 {v24.8h, v25.8h}, [x14], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f1946d1 // fmadd s17, s22, s25, s17
	// Mins of position 2: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400136 // ldr s22, [x9]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5f8 // ld1 {v24.8h, v25.8h}, [x15], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f194ad2 // fmadd s18, s22, s25, s18
	// Mins of position 3: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400156 // ldr s22, [x10]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa618 // ld1 {v24.8h, v25.8h}, [x16], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f194ed3 // fmadd s19, s22, s25, s19
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	ADD $16, R17, R24
	ADD $32, R0
	// Elements 0..63: low nibbles V20, V21 (scale 0), high V22, V23 (scale 1).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 0 of qh to bit 4 of the low quants, bit 1 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0340 // mla v0.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0341 // mla v1.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0340 // mla v0.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0341 // mla v1.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0342 // mla v2.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0343 // mla v3.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0342 // mla v2.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0343 // mla v3.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0344 // mla v4.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0345 // mla v5.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0344 // mla v4.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0345 // mla v5.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0346 // mla v6.4s, v26.4s, v28.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0347 // mla v7.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0346 // mla v6.4s, v26.4s, v28.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0347 // mla v7.4s, v26.4s, v28.s[1]
	// Elements 64..127: low nibbles V20, V21 (scale 2), high V22, V23 (scale 3).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 2 of qh to bit 4 of the low quants, bit 3 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0e0718 // ushr v24.16b, v24.16b, #2
	WORD $0x6f0e0739 // ushr v25.16b, v25.16b, #2
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b40 // mla v0.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b41 // mla v1.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b40 // mla v0.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b41 // mla v1.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b42 // mla v2.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b43 // mla v3.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b42 // mla v2.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b43 // mla v3.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b44 // mla v4.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b45 // mla v5.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b44 // mla v4.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b45 // mla v5.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9c0b46 // mla v6.4s, v26.4s, v28.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9c0b47 // mla v7.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbc0b46 // mla v6.4s, v26.4s, v28.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbc0b47 // mla v7.4s, v26.4s, v28.s[3]
	// Elements 128..191: low nibbles V20, V21 (scale 4), high V22, V23 (scale 5).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 4 of qh to bit 4 of the low quants, bit 5 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0c0718 // ushr v24.16b, v24.16b, #4
	WORD $0x6f0c0739 // ushr v25.16b, v25.16b, #4
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0340 // mla v0.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0341 // mla v1.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0340 // mla v0.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0341 // mla v1.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0342 // mla v2.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0343 // mla v3.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0342 // mla v2.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0343 // mla v3.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0344 // mla v4.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0345 // mla v5.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0344 // mla v4.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0345 // mla v5.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0346 // mla v6.4s, v26.4s, v29.s[0]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0347 // mla v7.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0346 // mla v6.4s, v26.4s, v29.s[1]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0347 // mla v7.4s, v26.4s, v29.s[1]
	// Elements 192..255: low nibbles V20, V21 (scale 6), high V22, V23 (scale 7).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 6 of qh to bit 4 of the low quants, bit 7 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0a0718 // ushr v24.16b, v24.16b, #6
	WORD $0x6f0a0739 // ushr v25.16b, v25.16b, #6
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b40 // mla v0.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b41 // mla v1.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b40 // mla v0.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b41 // mla v1.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b42 // mla v2.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b43 // mla v3.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b42 // mla v2.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b43 // mla v3.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b44 // mla v4.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b45 // mla v5.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b44 // mla v4.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b45 // mla v5.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e98969a // sdot v26.4s, v20.16b, v24.16b
	WORD $0x6f9d0b46 // mla v6.4s, v26.4s, v29.s[2]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996ba // sdot v26.4s, v21.16b, v25.16b
	WORD $0x6f9d0b47 // mla v7.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9896da // sdot v26.4s, v22.16b, v24.16b
	WORD $0x6fbd0b46 // mla v6.4s, v26.4s, v29.s[3]
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4e9996fa // sdot v26.4s, v23.16b, v25.16b
	WORD $0x6fbd0b47 // mla v7.4s, v26.4s, v29.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7d400234 // ldr h20, [x17]
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f951008 // fmla v8.4s, v0.4s, v21.s[0]
	WORD $0x4f951029 // fmla v9.4s, v1.4s, v21.s[0]
	WORD $0xbc404515 // ldr s21, [x8], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f95104a // fmla v10.4s, v2.4s, v21.s[0]
	WORD $0x4f95106b // fmla v11.4s, v3.4s, v21.s[0]
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f95108c // fmla v12.4s, v4.4s, v21.s[0]
	WORD $0x4f9510ad // fmla v13.4s, v5.4s, v21.s[0]
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9510ce // fmla v14.4s, v6.4s, v21.s[0]
	WORD $0x4f9510ef // fmla v15.4s, v7.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0x1e302b18 // fadd s24, s24, s16
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0x1e312b18 // fadd s24, s24, s17
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0x1e322b18 // fadd s24, s24, s18
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0x1e332b18 // fadd s24, s24, s19
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

// The Q5_K kernels are the Q4_K ones with the fifth bits (qh, at byte 16
// of a block) shifted in per sub-block and the mins in one sum per
// position: summs = fma(dmin, float((p0+p1)+(p2+p3)), summs) in S(16+p).

// func dotQ5_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ5_Kx4NEON(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD bsums+40(FP), R3
	MOVD bstride+48(FP), R13
	MOVD nb+56(FP), R4
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10; block sums at R3, R14, R15, R16.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	ADD R13, R3, R14
	ADD R13, R14, R15
	ADD R13, R15, R16
	// Integer lanes of position p in V(2p), V(2p+1); acc in V(8+2p), V(9+2p);
	// accm in V(16+p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
loop:
	MOVD R0, R17
	WORD $0x7d400415 // ldr h21, [x0, #2]
	ADD $4, R0
	MOVWU (R0), R19
	MOVWU 4(R0), R20
	MOVWU 8(R0), R21
	ADD $12, R0
	// Scales (R22) and mins (R23) of the eight sub-blocks, as dotQ4_KSDOT.
	ANDW $0x3f3f3f3f, R19, R22
	LSRW $6, R19, R24
	ANDW $0x03030303, R24, R24
	ANDW $0x0f0f0f0f, R21, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R22, R22
	ANDW $0x3f3f3f3f, R20, R23
	LSRW $6, R20, R24
	ANDW $0x03030303, R24, R24
	LSRW $4, R21, R25
	ANDW $0x0f0f0f0f, R25, R25
	ORRW R24<<4, R25, R24
	ORR R24<<32, R23, R23
	WORD $0x9e6702dc // fmov d28, x22
	WORD $0x2f08a79c // uxtl v28.8h, v28.8b
	WORD $0x6f10a79d // uxtl2 v29.4s, v28.8h
	WORD $0x2f10a79c // uxtl v28.4s, v28.4h
	WORD $0x9e6702fa // fmov d26, x23
	WORD $0x2f08a75a // uxtl v26.8h, v26.8b
	WORD $0x1ee242b5 // fcvt s21, h21
	// Mins of position 0: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400056 // ldr s22, [x2]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa478 // ld1 {v24.8h, v25.8h}, [x3], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f1942d0 // fmadd s16, s22, s25, s16
	// Mins of position 1: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400116 // ldr s22, [x8]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5d8 // ld1 {v24.8h, v25.8h}, [x14], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f1946d1 // fmadd s17, s22, s25, s17
	// Mins of position 2: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400136 // ldr s22, [x9]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa5f8 // ld1 {v24.8h, v25.8h}, [x15], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f194ad2 // fmadd s18, s22, s25, s18
	// Mins of position 3: accm = fma(-(dy*dmin), float(prod), accm).
	WORD $0xbd400156 // ldr s22, [x10]
	WORD $0x1e350ad6 // fmul s22, s22, s21
	WORD $0x1e2142d6 // fneg s22, s22
	WORD $0x4cdfa618 // ld1 {v24.8h, v25.8h}, [x16], #32
	WORD $0x4e79bf18 // addp v24.8h, v24.8h, v25.8h
	WORD $0x0e7ac319 // smull v25.4s, v24.4h, v26.4h
	WORD $0x4e7ac318 // smull2 v24.4s, v24.8h, v26.8h
	WORD $0x4eb8bf39 // addp v25.4s, v25.4s, v24.4s
	WORD $0x4eb1bb39 // addv s25, v25.4s
	WORD $0x5e21db39 // scvtf s25, s25
	WORD $0x1f194ed3 // fmadd s19, s22, s25, s19
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	ADD $16, R17, R24
	ADD $32, R0
	// Elements 0..63: low nibbles V20, V21 (scale 0), high V22, V23 (scale 1).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 0 of qh to bit 4 of the low quants, bit 1 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0340 // mla v0.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0341 // mla v1.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0340 // mla v0.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0341 // mla v1.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0342 // mla v2.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0343 // mla v3.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0342 // mla v2.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0343 // mla v3.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0344 // mla v4.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0345 // mla v5.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0344 // mla v4.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0345 // mla v5.4s, v26.4s, v28.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0346 // mla v6.4s, v26.4s, v28.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0347 // mla v7.4s, v26.4s, v28.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0346 // mla v6.4s, v26.4s, v28.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0347 // mla v7.4s, v26.4s, v28.s[1]
	// Elements 64..127: low nibbles V20, V21 (scale 2), high V22, V23 (scale 3).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 2 of qh to bit 4 of the low quants, bit 3 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0e0718 // ushr v24.16b, v24.16b, #2
	WORD $0x6f0e0739 // ushr v25.16b, v25.16b, #2
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b40 // mla v0.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b41 // mla v1.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b40 // mla v0.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b41 // mla v1.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b42 // mla v2.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b43 // mla v3.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b42 // mla v2.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b43 // mla v3.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b44 // mla v4.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b45 // mla v5.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b44 // mla v4.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b45 // mla v5.4s, v26.4s, v28.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b46 // mla v6.4s, v26.4s, v28.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9c0b47 // mla v7.4s, v26.4s, v28.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b46 // mla v6.4s, v26.4s, v28.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbc0b47 // mla v7.4s, v26.4s, v28.s[3]
	// Elements 128..191: low nibbles V20, V21 (scale 4), high V22, V23 (scale 5).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 4 of qh to bit 4 of the low quants, bit 5 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0c0718 // ushr v24.16b, v24.16b, #4
	WORD $0x6f0c0739 // ushr v25.16b, v25.16b, #4
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0340 // mla v0.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0341 // mla v1.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0340 // mla v0.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0341 // mla v1.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0342 // mla v2.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0343 // mla v3.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0342 // mla v2.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0343 // mla v3.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0344 // mla v4.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0345 // mla v5.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0344 // mla v4.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0345 // mla v5.4s, v26.4s, v29.s[1]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0346 // mla v6.4s, v26.4s, v29.s[0]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0347 // mla v7.4s, v26.4s, v29.s[0]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0346 // mla v6.4s, v26.4s, v29.s[1]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0347 // mla v7.4s, v26.4s, v29.s[1]
	// Elements 192..255: low nibbles V20, V21 (scale 6), high V22, V23 (scale 7).
	WORD $0x4cdfa016 // ld1 {v22.16b, v23.16b}, [x0], #32
	WORD $0x4e3e1ed4 // and v20.16b, v22.16b, v30.16b
	WORD $0x4e3e1ef5 // and v21.16b, v23.16b, v30.16b
	WORD $0x6f0c06d6 // ushr v22.16b, v22.16b, #4
	WORD $0x6f0c06f7 // ushr v23.16b, v23.16b, #4
	// Fifth bits: bit 6 of qh to bit 4 of the low quants, bit 7 to the high.
	WORD $0x4c40a318 // ld1 {v24.16b, v25.16b}, [x24]
	WORD $0x6f0a0718 // ushr v24.16b, v24.16b, #6
	WORD $0x6f0a0739 // ushr v25.16b, v25.16b, #6
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1e94 // orr v20.16b, v20.16b, v26.16b
	WORD $0x4ebb1eb5 // orr v21.16b, v21.16b, v27.16b
	WORD $0x6f0f0718 // ushr v24.16b, v24.16b, #1
	WORD $0x6f0f0739 // ushr v25.16b, v25.16b, #1
	WORD $0x4f0f571a // shl v26.16b, v24.16b, #7
	WORD $0x4f0f573b // shl v27.16b, v25.16b, #7
	WORD $0x6f0d075a // ushr v26.16b, v26.16b, #3
	WORD $0x6f0d077b // ushr v27.16b, v27.16b, #3
	WORD $0x4eba1ed6 // orr v22.16b, v22.16b, v26.16b
	WORD $0x4ebb1ef7 // orr v23.16b, v23.16b, v27.16b
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b40 // mla v0.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b41 // mla v1.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa038 // ld1 {v24.16b, v25.16b}, [x1], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b40 // mla v0.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b41 // mla v1.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b42 // mla v2.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b43 // mla v3.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0b8 // ld1 {v24.16b, v25.16b}, [x5], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b42 // mla v2.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b43 // mla v3.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b44 // mla v4.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b45 // mla v5.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0d8 // ld1 {v24.16b, v25.16b}, [x6], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b44 // mla v4.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b45 // mla v5.4s, v26.4s, v29.s[3]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c29a // smull v26.8h, v20.8b, v24.8b
	WORD $0x4e38c29b // smull2 v27.8h, v20.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b46 // mla v6.4s, v26.4s, v29.s[2]
	WORD $0x0e39c2ba // smull v26.8h, v21.8b, v25.8b
	WORD $0x4e39c2bb // smull2 v27.8h, v21.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6f9d0b47 // mla v7.4s, v26.4s, v29.s[2]
	WORD $0x4cdfa0f8 // ld1 {v24.16b, v25.16b}, [x7], #32
	WORD $0x0e38c2da // smull v26.8h, v22.8b, v24.8b
	WORD $0x4e38c2db // smull2 v27.8h, v22.16b, v24.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b46 // mla v6.4s, v26.4s, v29.s[3]
	WORD $0x0e39c2fa // smull v26.8h, v23.8b, v25.8b
	WORD $0x4e39c2fb // smull2 v27.8h, v23.16b, v25.16b
	WORD $0x4e602b5a // saddlp v26.4s, v26.8h
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4ebbbf5a // addp v26.4s, v26.4s, v27.4s
	WORD $0x6fbd0b47 // mla v7.4s, v26.4s, v29.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	WORD $0x7d400234 // ldr h20, [x17]
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f951008 // fmla v8.4s, v0.4s, v21.s[0]
	WORD $0x4f951029 // fmla v9.4s, v1.4s, v21.s[0]
	WORD $0xbc404515 // ldr s21, [x8], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d842 // scvtf v2.4s, v2.4s
	WORD $0x4e21d863 // scvtf v3.4s, v3.4s
	WORD $0x4f95104a // fmla v10.4s, v2.4s, v21.s[0]
	WORD $0x4f95106b // fmla v11.4s, v3.4s, v21.s[0]
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d884 // scvtf v4.4s, v4.4s
	WORD $0x4e21d8a5 // scvtf v5.4s, v5.4s
	WORD $0x4f95108c // fmla v12.4s, v4.4s, v21.s[0]
	WORD $0x4f9510ad // fmla v13.4s, v5.4s, v21.s[0]
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e340ab5 // fmul s21, s21, s20
	WORD $0x4e21d8c6 // scvtf v6.4s, v6.4s
	WORD $0x4e21d8e7 // scvtf v7.4s, v7.4s
	WORD $0x4f9510ce // fmla v14.4s, v6.4s, v21.s[0]
	WORD $0x4f9510ef // fmla v15.4s, v7.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop
	MOVD out+64(FP), R19
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0x1e302b18 // fadd s24, s24, s16
	WORD $0xbd000278 // str s24, [x19, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0x1e312b18 // fadd s24, s24, s17
	WORD $0xbd000678 // str s24, [x19, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0x1e322b18 // fadd s24, s24, s18
	WORD $0xbd000a78 // str s24, [x19, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0x1e332b18 // fadd s24, s24, s19
	WORD $0xbd000e78 // str s24, [x19, #12]
	RET

//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the one-position dot product of Q3_K weights with Q8_K
// activations, in the canonical order of dot_generic.go's dotQ3_K (as
// dotk_arm64.s does for Q4_K, Q5_K and Q6_K): a weight is two bits of its
// quant byte, minus 4 unless its hmask bit is set; the integer lane sums
// (lane l: elements with (e%32)/4 == l, each product times its 16-element
// group's scale) are exact, and per super-block acc[l] = fma(dy*d,
// float(lane l), acc[l]) with acc in V2 (lanes 0-3) and V3 (4-7), result
// hsum8(acc). The SDOT kernel takes the 4-byte lane sums from SDOT, the
// NEON one from SMULL/SMULL2, SADDLP and ADDP. Each WORD is the
// instruction in its comment.

// func dotQ3_KSDOT(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ3_KSDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e49e // movi v30.16b, #4
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopS:
	// The sixteen 6-bit scales, a byte each (low four bits from bytes
	// 0-7, two high bits from bytes 8-11), into V28, minus 32.
	MOVWU 96(R0), R4
	MOVWU 100(R0), R5
	MOVWU 104(R0), R6
	ANDW $0x0f0f0f0f, R4, R7
	LSLW $4, R6, R8
	ANDW $0x30303030, R8, R8
	ORRW R8, R7, R7 // scales 0-3
	ANDW $0x0f0f0f0f, R5, R8
	LSLW $2, R6, R9
	ANDW $0x30303030, R9, R9
	ORRW R9, R8, R8 // 4-7
	ORR R8<<32, R7, R7
	LSRW $4, R4, R8
	ANDW $0x0f0f0f0f, R8, R8
	ANDW $0x30303030, R6, R9
	ORRW R9, R8, R8 // 8-11
	LSRW $4, R5, R9
	ANDW $0x0f0f0f0f, R9, R9
	LSRW $2, R6, R10
	ANDW $0x30303030, R10, R10
	ORRW R10, R9, R9 // 12-15
	ORR R9<<32, R8, R8
	WORD $0x9e6700fc // fmov d28, x7
	WORD $0x4e181d1c // mov v28.d[1], x8
	WORD $0x6e3f879c // sub v28.16b, v28.16b, v31.16b
	// hmask (V16, V17), the quants of both halves (V4-V7).
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2004 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x0], #64
	ADD $12, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: scale g of its groups of 16 elements in V26/V27.
	WORD $0x0f08a79a // sxtl v26.8h, v28.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 0: bits 0-1 of the quants, hmask bit 0.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0a5618 // shl v24.16b, v16.16b, #2
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0a5639 // shl v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants, hmask bit 1.
	WORD $0x6f0e0496 // ushr v22.16b, v4.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x4f095618 // shl v24.16b, v16.16b, #1
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0e04b7 // ushr v23.16b, v5.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f095639 // shl v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9496cc // sdot v12.4s, v22.16b, v20.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9596ed // sdot v13.4s, v23.16b, v21.16b
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 2: bits 4-5 of the quants, hmask bit 2.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants, hmask bit 3.
	WORD $0x6f0a0496 // ushr v22.16b, v4.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0f0618 // ushr v24.16b, v16.16b, #1
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0a04b7 // ushr v23.16b, v5.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0f0639 // ushr v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9496cc // sdot v12.4s, v22.16b, v20.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9596ed // sdot v13.4s, v23.16b, v21.16b
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// Half 1: scale g of its groups of 16 elements in V26/V27.
	WORD $0x4f08a79a // sxtl2 v26.8h, v28.16b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 0: bits 0-1 of the quants, hmask bit 4.
	WORD $0x4e3d1cd6 // and v22.16b, v6.16b, v29.16b
	WORD $0x6f0e0618 // ushr v24.16b, v16.16b, #2
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x4e3d1cf7 // and v23.16b, v7.16b, v29.16b
	WORD $0x6f0e0639 // ushr v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9a0180 // mla v0.4s, v12.4s, v26.s[0]
	WORD $0x6fba01a1 // mla v1.4s, v13.4s, v26.s[1]
	// Group 1: bits 2-3 of the quants, hmask bit 5.
	WORD $0x6f0e04d6 // ushr v22.16b, v6.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0d0618 // ushr v24.16b, v16.16b, #3
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0e04f7 // ushr v23.16b, v7.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0d0639 // ushr v25.16b, v17.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9496cc // sdot v12.4s, v22.16b, v20.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9596ed // sdot v13.4s, v23.16b, v21.16b
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 2: bits 4-5 of the quants, hmask bit 6.
	WORD $0x6f0c04d6 // ushr v22.16b, v6.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0c04f7 // ushr v23.16b, v7.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0c0639 // ushr v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9296cc // sdot v12.4s, v22.16b, v18.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9396ed // sdot v13.4s, v23.16b, v19.16b
	WORD $0x6f9b0180 // mla v0.4s, v12.4s, v27.s[0]
	WORD $0x6fbb01a1 // mla v1.4s, v13.4s, v27.s[1]
	// Group 3: bits 6-7 of the quants, hmask bit 7.
	WORD $0x6f0a04d6 // ushr v22.16b, v6.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0b0618 // ushr v24.16b, v16.16b, #5
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0a04f7 // ushr v23.16b, v7.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0b0639 // ushr v25.16b, v17.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e9496cc // sdot v12.4s, v22.16b, v20.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e9596ed // sdot v13.4s, v23.16b, v21.16b
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// acc[l] = fma(dy*d, float(lane l), acc[l]).
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e340ab4 // fmul s20, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE loopS
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ3_KNEON(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ3_KNEON(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e49e // movi v30.16b, #4
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopN:
	// The sixteen 6-bit scales, a byte each (low four bits from bytes
	// 0-7, two high bits from bytes 8-11), into V28, minus 32.
	MOVWU 96(R0), R4
	MOVWU 100(R0), R5
	MOVWU 104(R0), R6
	ANDW $0x0f0f0f0f, R4, R7
	LSLW $4, R6, R8
	ANDW $0x30303030, R8, R8
	ORRW R8, R7, R7 // scales 0-3
	ANDW $0x0f0f0f0f, R5, R8
	LSLW $2, R6, R9
	ANDW $0x30303030, R9, R9
	ORRW R9, R8, R8 // 4-7
	ORR R8<<32, R7, R7
	LSRW $4, R4, R8
	ANDW $0x0f0f0f0f, R8, R8
	ANDW $0x30303030, R6, R9
	ORRW R9, R8, R8 // 8-11
	LSRW $4, R5, R9
	ANDW $0x0f0f0f0f, R9, R9
	LSRW $2, R6, R10
	ANDW $0x30303030, R10, R10
	ORRW R10, R9, R9 // 12-15
	ORR R9<<32, R8, R8
	WORD $0x9e6700fc // fmov d28, x7
	WORD $0x4e181d1c // mov v28.d[1], x8
	WORD $0x6e3f879c // sub v28.16b, v28.16b, v31.16b
	// hmask (V16, V17), the quants of both halves (V4-V7).
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4cdf2004 // ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x0], #64
	ADD $12, R0
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	// Half 0: scale g of its groups of 16 elements in V26/V27.
	WORD $0x0f08a79a // sxtl v26.8h, v28.8b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 0: bits 0-1 of the quants, hmask bit 0.
	WORD $0x4e3d1c96 // and v22.16b, v4.16b, v29.16b
	WORD $0x4f0a5618 // shl v24.16b, v16.16b, #2
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x4e3d1cb7 // and v23.16b, v5.16b, v29.16b
	WORD $0x4f0a5639 // shl v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
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
	// Group 1: bits 2-3 of the quants, hmask bit 1.
	WORD $0x6f0e0496 // ushr v22.16b, v4.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x4f095618 // shl v24.16b, v16.16b, #1
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0e04b7 // ushr v23.16b, v5.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4f095639 // shl v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x0e34c2cc // smull v12.8h, v22.8b, v20.8b
	WORD $0x4e34c2c8 // smull2 v8.8h, v22.16b, v20.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e35c2ed // smull v13.8h, v23.8b, v21.8b
	WORD $0x4e35c2e9 // smull2 v9.8h, v23.16b, v21.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 2: bits 4-5 of the quants, hmask bit 2.
	WORD $0x6f0c0496 // ushr v22.16b, v4.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x4e3e1e18 // and v24.16b, v16.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0c04b7 // ushr v23.16b, v5.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
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
	// Group 3: bits 6-7 of the quants, hmask bit 3.
	WORD $0x6f0a0496 // ushr v22.16b, v4.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0f0618 // ushr v24.16b, v16.16b, #1
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0a04b7 // ushr v23.16b, v5.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0f0639 // ushr v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x0e34c2cc // smull v12.8h, v22.8b, v20.8b
	WORD $0x4e34c2c8 // smull2 v8.8h, v22.16b, v20.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e35c2ed // smull v13.8h, v23.8b, v21.8b
	WORD $0x4e35c2e9 // smull2 v9.8h, v23.16b, v21.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// Half 1: scale g of its groups of 16 elements in V26/V27.
	WORD $0x4f08a79a // sxtl2 v26.8h, v28.16b
	WORD $0x4f10a75b // sxtl2 v27.4s, v26.8h
	WORD $0x0f10a75a // sxtl v26.4s, v26.4h
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 0: bits 0-1 of the quants, hmask bit 4.
	WORD $0x4e3d1cd6 // and v22.16b, v6.16b, v29.16b
	WORD $0x6f0e0618 // ushr v24.16b, v16.16b, #2
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x4e3d1cf7 // and v23.16b, v7.16b, v29.16b
	WORD $0x6f0e0639 // ushr v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
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
	// Group 1: bits 2-3 of the quants, hmask bit 5.
	WORD $0x6f0e04d6 // ushr v22.16b, v6.16b, #2
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0d0618 // ushr v24.16b, v16.16b, #3
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0e04f7 // ushr v23.16b, v7.16b, #2
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0d0639 // ushr v25.16b, v17.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x0e34c2cc // smull v12.8h, v22.8b, v20.8b
	WORD $0x4e34c2c8 // smull2 v8.8h, v22.16b, v20.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e35c2ed // smull v13.8h, v23.8b, v21.8b
	WORD $0x4e35c2e9 // smull2 v9.8h, v23.16b, v21.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9a0980 // mla v0.4s, v12.4s, v26.s[2]
	WORD $0x6fba09a1 // mla v1.4s, v13.4s, v26.s[3]
	WORD $0x4cdf2032 // ld1 {v18.16b, v19.16b, v20.16b, v21.16b}, [x1], #64
	// Group 2: bits 4-5 of the quants, hmask bit 6.
	WORD $0x6f0c04d6 // ushr v22.16b, v6.16b, #4
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0c0618 // ushr v24.16b, v16.16b, #4
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0c04f7 // ushr v23.16b, v7.16b, #4
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0c0639 // ushr v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
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
	// Group 3: bits 6-7 of the quants, hmask bit 7.
	WORD $0x6f0a04d6 // ushr v22.16b, v6.16b, #6
	WORD $0x4e3d1ed6 // and v22.16b, v22.16b, v29.16b
	WORD $0x6f0b0618 // ushr v24.16b, v16.16b, #5
	WORD $0x4e3e1f18 // and v24.16b, v24.16b, v30.16b
	WORD $0x4eb81ed6 // orr v22.16b, v22.16b, v24.16b
	WORD $0x6e3e86d6 // sub v22.16b, v22.16b, v30.16b
	WORD $0x6f0a04f7 // ushr v23.16b, v7.16b, #6
	WORD $0x4e3d1ef7 // and v23.16b, v23.16b, v29.16b
	WORD $0x6f0b0639 // ushr v25.16b, v17.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91ef7 // orr v23.16b, v23.16b, v25.16b
	WORD $0x6e3e86f7 // sub v23.16b, v23.16b, v30.16b
	WORD $0x0e34c2cc // smull v12.8h, v22.8b, v20.8b
	WORD $0x4e34c2c8 // smull2 v8.8h, v22.16b, v20.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e602908 // saddlp v8.4s, v8.8h
	WORD $0x4ea8bd8c // addp v12.4s, v12.4s, v8.4s
	WORD $0x0e35c2ed // smull v13.8h, v23.8b, v21.8b
	WORD $0x4e35c2e9 // smull2 v9.8h, v23.16b, v21.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e602929 // saddlp v9.4s, v9.8h
	WORD $0x4ea9bdad // addp v13.4s, v13.4s, v9.4s
	WORD $0x6f9b0980 // mla v0.4s, v12.4s, v27.s[2]
	WORD $0x6fbb09a1 // mla v1.4s, v13.4s, v27.s[3]
	// acc[l] = fma(dy*d, float(lane l), acc[l]).
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e340ab4 // fmul s20, s21, s20
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE loopN
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// The four-position kernels: one row against positions p = 0..3
// (activations ystride bytes apart, their scales dstride bytes apart), each
// weight vector decoded once for the four, each position's lanes and acc
// as dotQ3_K... computes them.

// func dotQ3_Kx4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ3_Kx4SDOT(SB), NOSPLIT, $0-56
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
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e49e // movi v30.16b, #4
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop4S:
	// The sixteen scales into V28, minus 32 (as dotQ3_K...).
	MOVWU 96(R0), R11
	MOVWU 100(R0), R12
	MOVWU 104(R0), R13
	ANDW $0x0f0f0f0f, R11, R14
	LSLW $4, R13, R15
	ANDW $0x30303030, R15, R15
	ORRW R15, R14, R14
	ANDW $0x0f0f0f0f, R12, R15
	LSLW $2, R13, R19
	ANDW $0x30303030, R19, R19
	ORRW R19, R15, R15
	ORR R15<<32, R14, R14
	LSRW $4, R11, R15
	ANDW $0x0f0f0f0f, R15, R15
	ANDW $0x30303030, R13, R19
	ORRW R19, R15, R15
	LSRW $4, R12, R19
	ANDW $0x0f0f0f0f, R19, R19
	LSRW $2, R13, R20
	ANDW $0x30303030, R20, R20
	ORRW R20, R19, R19
	ORR R19<<32, R15, R15
	WORD $0x9e6701dc // fmov d28, x14
	WORD $0x4e181dfc // mov v28.d[1], x15
	WORD $0x6e3f879c // sub v28.16b, v28.16b, v31.16b
	// hmask (V16, V17); the quants of a half in V18, V19.
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: scale g of its groups of 16 elements in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x0f08a796 // sxtl v22.8h, v28.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1, hmask bit 0.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5619 // shl v25.16b, v16.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 0 elements 16..31: bits 0-1, hmask bit 0.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a5639 // shl v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 1 elements 0..15: bits 2-3, hmask bit 1.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4f095619 // shl v25.16b, v16.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 1 elements 16..31: bits 2-3, hmask bit 1.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4f095639 // shl v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 2 elements 0..15: bits 4-5, hmask bit 2.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4e3e1e19 // and v25.16b, v16.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 2 elements 16..31: bits 4-5, hmask bit 2.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 3 elements 0..15: bits 6-7, hmask bit 3.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0f0619 // ushr v25.16b, v16.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 3 elements 16..31: bits 6-7, hmask bit 3.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0f0639 // ushr v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Half 1: scale g of its groups of 16 elements in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x4f08a796 // sxtl2 v22.8h, v28.16b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1, hmask bit 4.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x6f0e0619 // ushr v25.16b, v16.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 0 elements 16..31: bits 0-1, hmask bit 4.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x6f0e0639 // ushr v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 1 elements 0..15: bits 2-3, hmask bit 5.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0d0619 // ushr v25.16b, v16.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 1 elements 16..31: bits 2-3, hmask bit 5.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0d0639 // ushr v25.16b, v17.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 2 elements 0..15: bits 4-5, hmask bit 6.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0c0619 // ushr v25.16b, v16.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 2 elements 16..31: bits 4-5, hmask bit 6.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0c0639 // ushr v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 3 elements 0..15: bits 6-7, hmask bit 7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0b0619 // ushr v25.16b, v16.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	// Group 3 elements 16..31: bits 6-7, hmask bit 7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0b0639 // ushr v25.16b, v17.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
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
	ADD $12, R0
	WORD $0x7c402418 // ldr h24, [x0], #2
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

// func dotQ3_Kx4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ3_Kx4NEON(SB), NOSPLIT, $0-56
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
	WORD $0x4f00e47d // movi v29.16b, #3
	WORD $0x4f00e49e // movi v30.16b, #4
	WORD $0x4f01e41f // movi v31.16b, #32
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop4N:
	// The sixteen scales into V28, minus 32 (as dotQ3_K...).
	MOVWU 96(R0), R11
	MOVWU 100(R0), R12
	MOVWU 104(R0), R13
	ANDW $0x0f0f0f0f, R11, R14
	LSLW $4, R13, R15
	ANDW $0x30303030, R15, R15
	ORRW R15, R14, R14
	ANDW $0x0f0f0f0f, R12, R15
	LSLW $2, R13, R19
	ANDW $0x30303030, R19, R19
	ORRW R19, R15, R15
	ORR R15<<32, R14, R14
	LSRW $4, R11, R15
	ANDW $0x0f0f0f0f, R15, R15
	ANDW $0x30303030, R13, R19
	ORRW R19, R15, R15
	LSRW $4, R12, R19
	ANDW $0x0f0f0f0f, R19, R19
	LSRW $2, R13, R20
	ANDW $0x30303030, R20, R20
	ORRW R20, R19, R19
	ORR R19<<32, R15, R15
	WORD $0x9e6701dc // fmov d28, x14
	WORD $0x4e181dfc // mov v28.d[1], x15
	WORD $0x6e3f879c // sub v28.16b, v28.16b, v31.16b
	// hmask (V16, V17); the quants of a half in V18, V19.
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	// Half 0: scale g of its groups of 16 elements in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x0f08a796 // sxtl v22.8h, v28.8b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1, hmask bit 0.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x4f0a5619 // shl v25.16b, v16.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1, hmask bit 0.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x4f0a5639 // shl v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3, hmask bit 1.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4f095619 // shl v25.16b, v16.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3, hmask bit 1.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4f095639 // shl v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5, hmask bit 2.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4e3e1e19 // and v25.16b, v16.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5, hmask bit 2.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x4e3e1e39 // and v25.16b, v17.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7, hmask bit 3.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0f0619 // ushr v25.16b, v16.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7, hmask bit 3.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0f0639 // ushr v25.16b, v17.16b, #1
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// Half 1: scale g of its groups of 16 elements in V22/V23.
	WORD $0x4cdfa012 // ld1 {v18.16b, v19.16b}, [x0], #32
	WORD $0x4f08a796 // sxtl2 v22.8h, v28.16b
	WORD $0x4f10a6d7 // sxtl2 v23.4s, v22.8h
	WORD $0x0f10a6d6 // sxtl v22.4s, v22.4h
	// Group 0 elements 0..15: bits 0-1, hmask bit 4.
	WORD $0x4e3d1e58 // and v24.16b, v18.16b, v29.16b
	WORD $0x6f0e0619 // ushr v25.16b, v16.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960360 // mla v0.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960362 // mla v2.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960364 // mla v4.4s, v27.4s, v22.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960366 // mla v6.4s, v27.4s, v22.s[0]
	// Group 0 elements 16..31: bits 0-1, hmask bit 4.
	WORD $0x4e3d1e78 // and v24.16b, v19.16b, v29.16b
	WORD $0x6f0e0639 // ushr v25.16b, v17.16b, #2
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60361 // mla v1.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60363 // mla v3.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60365 // mla v5.4s, v27.4s, v22.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60367 // mla v7.4s, v27.4s, v22.s[1]
	// Group 1 elements 0..15: bits 2-3, hmask bit 5.
	WORD $0x6f0e0658 // ushr v24.16b, v18.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0d0619 // ushr v25.16b, v16.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b60 // mla v0.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b62 // mla v2.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b64 // mla v4.4s, v27.4s, v22.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f960b66 // mla v6.4s, v27.4s, v22.s[2]
	// Group 1 elements 16..31: bits 2-3, hmask bit 5.
	WORD $0x6f0e0678 // ushr v24.16b, v19.16b, #2
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0d0639 // ushr v25.16b, v17.16b, #3
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b61 // mla v1.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b63 // mla v3.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b65 // mla v5.4s, v27.4s, v22.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb60b67 // mla v7.4s, v27.4s, v22.s[3]
	// Group 2 elements 0..15: bits 4-5, hmask bit 6.
	WORD $0x6f0c0658 // ushr v24.16b, v18.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0c0619 // ushr v25.16b, v16.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970360 // mla v0.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970362 // mla v2.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970364 // mla v4.4s, v27.4s, v23.s[0]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970366 // mla v6.4s, v27.4s, v23.s[0]
	// Group 2 elements 16..31: bits 4-5, hmask bit 6.
	WORD $0x6f0c0678 // ushr v24.16b, v19.16b, #4
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0c0639 // ushr v25.16b, v17.16b, #4
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70361 // mla v1.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70363 // mla v3.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70365 // mla v5.4s, v27.4s, v23.s[1]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70367 // mla v7.4s, v27.4s, v23.s[1]
	// Group 3 elements 0..15: bits 6-7, hmask bit 7.
	WORD $0x6f0a0658 // ushr v24.16b, v18.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0b0619 // ushr v25.16b, v16.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b60 // mla v0.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b62 // mla v2.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b64 // mla v4.4s, v27.4s, v23.s[2]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6f970b66 // mla v6.4s, v27.4s, v23.s[2]
	// Group 3 elements 16..31: bits 6-7, hmask bit 7.
	WORD $0x6f0a0678 // ushr v24.16b, v19.16b, #6
	WORD $0x4e3d1f18 // and v24.16b, v24.16b, v29.16b
	WORD $0x6f0b0639 // ushr v25.16b, v17.16b, #5
	WORD $0x4e3e1f39 // and v25.16b, v25.16b, v30.16b
	WORD $0x4eb91f18 // orr v24.16b, v24.16b, v25.16b
	WORD $0x6e3e8718 // sub v24.16b, v24.16b, v30.16b
	WORD $0x4cdf703a // ld1 {v26.16b}, [x1], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b61 // mla v1.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70ba // ld1 {v26.16b}, [x5], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b63 // mla v3.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70da // ld1 {v26.16b}, [x6], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b65 // mla v5.4s, v27.4s, v23.s[3]
	WORD $0x4cdf70fa // ld1 {v26.16b}, [x7], #16
	WORD $0x0e3ac31b // smull v27.8h, v24.8b, v26.8b
	WORD $0x4e3ac315 // smull2 v21.8h, v24.16b, v26.16b
	WORD $0x4e602b7b // saddlp v27.4s, v27.8h
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4eb5bf7b // addp v27.4s, v27.4s, v21.4s
	WORD $0x6fb70b67 // mla v7.4s, v27.4s, v23.s[3]
	// acc = fma(dy*d, float(lanes), acc) per position.
	ADD $12, R0
	WORD $0x7c402418 // ldr h24, [x0], #2
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

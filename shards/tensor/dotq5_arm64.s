//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the one-position dot products of Q5_0 (with Q8_0
// activations), Q4_1 and Q5_1 (with Q8_1 activations) in the canonical
// order of dot_generic.go: per block, lane l (elements 4l..4l+3: low
// nibbles of bytes 0-15, then high nibbles, each with its fifth bit from
// qh for Q5_0/Q5_1, Q5_0's minus 16) is an exact integer sum, acc[l] =
// fma(dw*dy_b, float(lane l), acc[l]) with acc in V2 (lanes 0-3) and V3
// (4-7); Q4_1/Q5_1 add summs = fma(m, s_b, summs) per block; result
// hsum8(acc) (+ summs). The SDOT kernels take the 4-byte lane sums from
// SDOT, the NEON ones from SMULL/SMULL2, SADDLP and ADDP. Each WORD is the
// instruction in its comment.

// q5idx: the byte of qh that holds each element's fifth bit (TBL
// indices, elements 0-15 then 16-31); q5bit: its bit in that byte.
DATA q5idx<>+0(SB)/8, $0x0000000000000000
DATA q5idx<>+8(SB)/8, $0x0101010101010101
DATA q5idx<>+16(SB)/8, $0x0202020202020202
DATA q5idx<>+24(SB)/8, $0x0303030303030303
GLOBL q5idx<>(SB), RODATA|NOPTR, $32
DATA q5bit<>+0(SB)/8, $0x8040201008040201
DATA q5bit<>+8(SB)/8, $0x8040201008040201
GLOBL q5bit<>(SB), RODATA|NOPTR, $16

// func dotQ5_0SDOT(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ5_0SDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R4
	MOVD $q5idx<>(SB), R6
	WORD $0x4c40a0d9 // ld1 {v25.16b, v26.16b}, [x6]
	MOVD $q5bit<>(SB), R6
	WORD $0x4c4070d8 // ld1 {v24.16b}, [x6]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopQ5_0S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	// Bit e of qh to byte e: 0xff where set (V9: 0-15, V10: 16-31).
	WORD $0x1e2700a8 // fmov s8, w5
	WORD $0x4e190109 // tbl v9.16b, {v8.16b}, v25.16b
	WORD $0x4e1a010a // tbl v10.16b, {v8.16b}, v26.16b
	WORD $0x4e388d29 // cmtst v9.16b, v9.16b, v24.16b
	WORD $0x4e388d4a // cmtst v10.16b, v10.16b, v24.16b
	// nibble | bit<<4 - 16 = nibble - 16 where the bit is clear.
	WORD $0x4e691f89 // bic v9.16b, v28.16b, v9.16b
	WORD $0x4e6a1f8a // bic v10.16b, v28.16b, v10.16b
	WORD $0x6e298610 // sub v16.16b, v16.16b, v9.16b
	WORD $0x6e2a8631 // sub v17.16b, v17.16b, v10.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loopQ5_0S
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ5_0NEON(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ5_0NEON(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R4
	MOVD $q5idx<>(SB), R6
	WORD $0x4c40a0d9 // ld1 {v25.16b, v26.16b}, [x6]
	MOVD $q5bit<>(SB), R6
	WORD $0x4c4070d8 // ld1 {v24.16b}, [x6]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loopQ5_0N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	// Bit e of qh to byte e: 0xff where set (V9: 0-15, V10: 16-31).
	WORD $0x1e2700a8 // fmov s8, w5
	WORD $0x4e190109 // tbl v9.16b, {v8.16b}, v25.16b
	WORD $0x4e1a010a // tbl v10.16b, {v8.16b}, v26.16b
	WORD $0x4e388d29 // cmtst v9.16b, v9.16b, v24.16b
	WORD $0x4e388d4a // cmtst v10.16b, v10.16b, v24.16b
	// nibble | bit<<4 - 16 = nibble - 16 where the bit is clear.
	WORD $0x4e691f89 // bic v9.16b, v28.16b, v9.16b
	WORD $0x4e6a1f8a // bic v10.16b, v28.16b, v10.16b
	WORD $0x6e298610 // sub v16.16b, v16.16b, v9.16b
	WORD $0x6e2a8631 // sub v17.16b, v17.16b, v10.16b
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c20c // smull2 v12.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4eacbc00 // addp v0.4s, v0.4s, v12.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c22d // smull2 v13.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4eadbc21 // addp v1.4s, v1.4s, v13.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R4, R4
	BNE loopQ5_0N
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ4_1SDOT(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ4_1SDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD s+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loopQ4_1S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	// summs = fma(m, s_b, summs).
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x1f177ade // fmadd s30, s22, s23, s30
	SUBS $1, R4, R4
	BNE loopQ4_1S
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

// func dotQ4_1NEON(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ4_1NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD s+24(FP), R3
	MOVD nb+32(FP), R4
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loopQ4_1N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c20c // smull2 v12.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4eacbc00 // addp v0.4s, v0.4s, v12.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c22d // smull2 v13.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4eadbc21 // addp v1.4s, v1.4s, v13.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	// summs = fma(m, s_b, summs).
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x1f177ade // fmadd s30, s22, s23, s30
	SUBS $1, R4, R4
	BNE loopQ4_1N
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5_1SDOT(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ5_1SDOT(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD s+24(FP), R3
	MOVD nb+32(FP), R4
	MOVD $q5idx<>(SB), R6
	WORD $0x4c40a0d9 // ld1 {v25.16b, v26.16b}, [x6]
	MOVD $q5bit<>(SB), R6
	WORD $0x4c4070d8 // ld1 {v24.16b}, [x6]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loopQ5_1S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	// Bit e of qh to byte e: 0xff where set (V9: 0-15, V10: 16-31).
	WORD $0x1e2700a8 // fmov s8, w5
	WORD $0x4e190109 // tbl v9.16b, {v8.16b}, v25.16b
	WORD $0x4e1a010a // tbl v10.16b, {v8.16b}, v26.16b
	WORD $0x4e388d29 // cmtst v9.16b, v9.16b, v24.16b
	WORD $0x4e388d4a // cmtst v10.16b, v10.16b, v24.16b
	WORD $0x4e3c1d29 // and v9.16b, v9.16b, v28.16b
	WORD $0x4e3c1d4a // and v10.16b, v10.16b, v28.16b
	WORD $0x4ea91e10 // orr v16.16b, v16.16b, v9.16b
	WORD $0x4eaa1e31 // orr v17.16b, v17.16b, v10.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	// summs = fma(m, s_b, summs).
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x1f177ade // fmadd s30, s22, s23, s30
	SUBS $1, R4, R4
	BNE loopQ5_1S
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

// func dotQ5_1NEON(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ5_1NEON(SB), NOSPLIT, $0-44
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD s+24(FP), R3
	MOVD nb+32(FP), R4
	MOVD $q5idx<>(SB), R6
	WORD $0x4c40a0d9 // ld1 {v25.16b, v26.16b}, [x6]
	MOVD $q5bit<>(SB), R6
	WORD $0x4c4070d8 // ld1 {v24.16b}, [x6]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fb // movi v27.16b, #15
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
loopQ5_1N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	// Weights 0-15 (low nibbles) in V16, 16-31 (high) in V17.
	WORD $0x4e3b1c90 // and v16.16b, v4.16b, v27.16b
	WORD $0x6f0c0491 // ushr v17.16b, v4.16b, #4
	// Bit e of qh to byte e: 0xff where set (V9: 0-15, V10: 16-31).
	WORD $0x1e2700a8 // fmov s8, w5
	WORD $0x4e190109 // tbl v9.16b, {v8.16b}, v25.16b
	WORD $0x4e1a010a // tbl v10.16b, {v8.16b}, v26.16b
	WORD $0x4e388d29 // cmtst v9.16b, v9.16b, v24.16b
	WORD $0x4e388d4a // cmtst v10.16b, v10.16b, v24.16b
	WORD $0x4e3c1d29 // and v9.16b, v9.16b, v28.16b
	WORD $0x4e3c1d4a // and v10.16b, v10.16b, v28.16b
	WORD $0x4ea91e10 // orr v16.16b, v16.16b, v9.16b
	WORD $0x4eaa1e31 // orr v17.16b, v17.16b, v10.16b
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c20c // smull2 v12.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4eacbc00 // addp v0.4s, v0.4s, v12.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c22d // smull2 v13.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4eadbc21 // addp v1.4s, v1.4s, v13.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	// summs = fma(m, s_b, summs).
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x1f177ade // fmadd s30, s22, s23, s30
	SUBS $1, R4, R4
	BNE loopQ5_1N
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	WORD $0x1e3e2800 // fadd s0, s0, s30
	FMOVS F0, ret+40(FP)
	RET

// The four-position kernels: one row against positions p = 0..3
// (activations ystride bytes apart, their scales, and sums for Q4_1/Q5_1,
// dstride floats apart), each block's weights decoded once for the four,
// each position's lanes, acc and summs as the one-position kernels compute
// them.

// func dotQ5_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ5_0x4SDOT(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD nb+40(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	MOVD $q5idx<>(SB), R5
	WORD $0x4c40a0be // ld1 {v30.16b, v31.16b}, [x5]
	MOVD $q5bit<>(SB), R5
	WORD $0x4c4070af // ld1 {v15.16b}, [x5]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
loop4Q5_0S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x1e2700b1 // fmov s17, w5
	WORD $0x4e1e0232 // tbl v18.16b, {v17.16b}, v30.16b
	WORD $0x4e1f0233 // tbl v19.16b, {v17.16b}, v31.16b
	WORD $0x4e2f8e52 // cmtst v18.16b, v18.16b, v15.16b
	WORD $0x4e2f8e73 // cmtst v19.16b, v19.16b, v15.16b
	WORD $0x4e721f92 // bic v18.16b, v28.16b, v18.16b
	WORD $0x4e731f93 // bic v19.16b, v28.16b, v19.16b
	WORD $0x6e328508 // sub v8.16b, v8.16b, v18.16b
	WORD $0x6e338529 // sub v9.16b, v9.16b, v19.16b
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop4Q5_0S
	MOVD out+48(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

// func dotQ5_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ5_0x4NEON(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD nb+40(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	MOVD $q5idx<>(SB), R5
	WORD $0x4c40a0be // ld1 {v30.16b, v31.16b}, [x5]
	MOVD $q5bit<>(SB), R5
	WORD $0x4c4070af // ld1 {v15.16b}, [x5]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
loop4Q5_0N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x1e2700b1 // fmov s17, w5
	WORD $0x4e1e0232 // tbl v18.16b, {v17.16b}, v30.16b
	WORD $0x4e1f0233 // tbl v19.16b, {v17.16b}, v31.16b
	WORD $0x4e2f8e52 // cmtst v18.16b, v18.16b, v15.16b
	WORD $0x4e2f8e73 // cmtst v19.16b, v19.16b, v15.16b
	WORD $0x4e721f92 // bic v18.16b, v28.16b, v18.16b
	WORD $0x4e731f93 // bic v19.16b, v28.16b, v19.16b
	WORD $0x6e328508 // sub v8.16b, v8.16b, v18.16b
	WORD $0x6e338529 // sub v9.16b, v9.16b, v19.16b
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	SUBS $1, R4, R4
	BNE loop4Q5_0N
	MOVD out+48(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

// func dotQ4_1x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)
TEXT ·dotQ4_1x4SDOT(SB), NOSPLIT, $0-64
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD s+40(FP), R3
	MOVD nb+48(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11; block sums at R3, R12, R13, R14.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	ADD R15, R3, R12
	ADD R15, R12, R13
	ADD R15, R13, R14
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7); summs in S(24+p).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0x4f00e419 // movi v25.16b, #0
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4f00e41b // movi v27.16b, #0
loop4Q4_1S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242d6 // fcvt s22, h22
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1f1762d8 // fmadd s24, s22, s23, s24
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0xbc404597 // ldr s23, [x12], #4
	WORD $0x1f1766d9 // fmadd s25, s22, s23, s25
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0xbc4045b7 // ldr s23, [x13], #4
	WORD $0x1f176ada // fmadd s26, s22, s23, s26
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	WORD $0xbc4045d7 // ldr s23, [x14], #4
	WORD $0x1f176edb // fmadd s27, s22, s23, s27
	SUBS $1, R4, R4
	BNE loop4Q4_1S
	MOVD out+56(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e382800 // fadd s0, s0, s24
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0x1e392842 // fadd s2, s2, s25
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x1e3a2884 // fadd s4, s4, s26
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0x1e3b28c6 // fadd s6, s6, s27
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

// func dotQ4_1x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)
TEXT ·dotQ4_1x4NEON(SB), NOSPLIT, $0-64
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD s+40(FP), R3
	MOVD nb+48(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11; block sums at R3, R12, R13, R14.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	ADD R15, R3, R12
	ADD R15, R12, R13
	ADD R15, R13, R14
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7); summs in S(24+p).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0x4f00e419 // movi v25.16b, #0
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4f00e41b // movi v27.16b, #0
loop4Q4_1N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242d6 // fcvt s22, h22
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1f1762d8 // fmadd s24, s22, s23, s24
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0xbc404597 // ldr s23, [x12], #4
	WORD $0x1f1766d9 // fmadd s25, s22, s23, s25
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0xbc4045b7 // ldr s23, [x13], #4
	WORD $0x1f176ada // fmadd s26, s22, s23, s26
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	WORD $0xbc4045d7 // ldr s23, [x14], #4
	WORD $0x1f176edb // fmadd s27, s22, s23, s27
	SUBS $1, R4, R4
	BNE loop4Q4_1N
	MOVD out+56(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e382800 // fadd s0, s0, s24
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0x1e392842 // fadd s2, s2, s25
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x1e3a2884 // fadd s4, s4, s26
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0x1e3b28c6 // fadd s6, s6, s27
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

// func dotQ5_1x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)
TEXT ·dotQ5_1x4SDOT(SB), NOSPLIT, $0-64
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD s+40(FP), R3
	MOVD nb+48(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11; block sums at R3, R12, R13, R14.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	ADD R15, R3, R12
	ADD R15, R12, R13
	ADD R15, R13, R14
	MOVD $q5idx<>(SB), R5
	WORD $0x4c40a0be // ld1 {v30.16b, v31.16b}, [x5]
	MOVD $q5bit<>(SB), R5
	WORD $0x4c4070af // ld1 {v15.16b}, [x5]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7); summs in S(24+p).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0x4f00e419 // movi v25.16b, #0
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4f00e41b // movi v27.16b, #0
loop4Q5_1S:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242d6 // fcvt s22, h22
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x1e2700b1 // fmov s17, w5
	WORD $0x4e1e0232 // tbl v18.16b, {v17.16b}, v30.16b
	WORD $0x4e1f0233 // tbl v19.16b, {v17.16b}, v31.16b
	WORD $0x4e2f8e52 // cmtst v18.16b, v18.16b, v15.16b
	WORD $0x4e2f8e73 // cmtst v19.16b, v19.16b, v15.16b
	WORD $0x4e3c1e52 // and v18.16b, v18.16b, v28.16b
	WORD $0x4e3c1e73 // and v19.16b, v19.16b, v28.16b
	WORD $0x4eb21d08 // orr v8.16b, v8.16b, v18.16b
	WORD $0x4eb31d29 // orr v9.16b, v9.16b, v19.16b
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1f1762d8 // fmadd s24, s22, s23, s24
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0xbc404597 // ldr s23, [x12], #4
	WORD $0x1f1766d9 // fmadd s25, s22, s23, s25
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0xbc4045b7 // ldr s23, [x13], #4
	WORD $0x1f176ada // fmadd s26, s22, s23, s26
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4e8a950c // sdot v12.4s, v8.16b, v10.16b
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4e8b952d // sdot v13.4s, v9.16b, v11.16b
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	WORD $0xbc4045d7 // ldr s23, [x14], #4
	WORD $0x1f176edb // fmadd s27, s22, s23, s27
	SUBS $1, R4, R4
	BNE loop4Q5_1S
	MOVD out+56(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e382800 // fadd s0, s0, s24
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0x1e392842 // fadd s2, s2, s25
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x1e3a2884 // fadd s4, s4, s26
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0x1e3b28c6 // fadd s6, s6, s27
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

// func dotQ5_1x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, s *float32, nb int, out *[4]float32)
TEXT ·dotQ5_1x4NEON(SB), NOSPLIT, $0-64
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R5
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R15
	MOVD s+40(FP), R3
	MOVD nb+48(FP), R4
	// Position p: activations at R1, R6, R7, R8; scales at R2, R9, R10,
	// R11; block sums at R3, R12, R13, R14.
	ADD R5, R1, R6
	ADD R5, R6, R7
	ADD R5, R7, R8
	LSL $2, R15
	ADD R15, R2, R9
	ADD R15, R9, R10
	ADD R15, R10, R11
	ADD R15, R3, R12
	ADD R15, R12, R13
	ADD R15, R13, R14
	MOVD $q5idx<>(SB), R5
	WORD $0x4c40a0be // ld1 {v30.16b, v31.16b}, [x5]
	MOVD $q5bit<>(SB), R5
	WORD $0x4c4070af // ld1 {v15.16b}, [x5]
	WORD $0x4f00e61c // movi v28.16b, #16
	WORD $0x4f00e5fd // movi v29.16b, #15
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7); summs in S(24+p).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	WORD $0x4f00e418 // movi v24.16b, #0
	WORD $0x4f00e419 // movi v25.16b, #0
	WORD $0x4f00e41a // movi v26.16b, #0
	WORD $0x4f00e41b // movi v27.16b, #0
loop4Q5_1N:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0x7c402416 // ldr h22, [x0], #2
	MOVWU.P 4(R0), R5 // qh
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1ee242d6 // fcvt s22, h22
	// Weights 0-15 in V8, 16-31 in V9.
	WORD $0x4e3d1e08 // and v8.16b, v16.16b, v29.16b
	WORD $0x6f0c0609 // ushr v9.16b, v16.16b, #4
	WORD $0x1e2700b1 // fmov s17, w5
	WORD $0x4e1e0232 // tbl v18.16b, {v17.16b}, v30.16b
	WORD $0x4e1f0233 // tbl v19.16b, {v17.16b}, v31.16b
	WORD $0x4e2f8e52 // cmtst v18.16b, v18.16b, v15.16b
	WORD $0x4e2f8e73 // cmtst v19.16b, v19.16b, v15.16b
	WORD $0x4e3c1e52 // and v18.16b, v18.16b, v28.16b
	WORD $0x4e3c1e73 // and v19.16b, v19.16b, v28.16b
	WORD $0x4eb21d08 // orr v8.16b, v8.16b, v18.16b
	WORD $0x4eb31d29 // orr v9.16b, v9.16b, v19.16b
	WORD $0x4cdfa02a // ld1 {v10.16b, v11.16b}, [x1], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951180 // fmla v0.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a1 // fmla v1.4s, v13.4s, v21.s[0]
	WORD $0xbc404477 // ldr s23, [x3], #4
	WORD $0x1f1762d8 // fmadd s24, s22, s23, s24
	WORD $0x4cdfa0ca // ld1 {v10.16b, v11.16b}, [x6], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404535 // ldr s21, [x9], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951182 // fmla v2.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a3 // fmla v3.4s, v13.4s, v21.s[0]
	WORD $0xbc404597 // ldr s23, [x12], #4
	WORD $0x1f1766d9 // fmadd s25, s22, s23, s25
	WORD $0x4cdfa0ea // ld1 {v10.16b, v11.16b}, [x7], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404555 // ldr s21, [x10], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951184 // fmla v4.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a5 // fmla v5.4s, v13.4s, v21.s[0]
	WORD $0xbc4045b7 // ldr s23, [x13], #4
	WORD $0x1f176ada // fmadd s26, s22, s23, s26
	WORD $0x4cdfa10a // ld1 {v10.16b, v11.16b}, [x8], #32
	WORD $0x0e2ac10c // smull v12.8h, v8.8b, v10.8b
	WORD $0x4e2ac10e // smull2 v14.8h, v8.16b, v10.16b
	WORD $0x4e60298c // saddlp v12.4s, v12.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebd8c // addp v12.4s, v12.4s, v14.4s
	WORD $0x0e2bc12d // smull v13.8h, v9.8b, v11.8b
	WORD $0x4e2bc12e // smull2 v14.8h, v9.16b, v11.16b
	WORD $0x4e6029ad // saddlp v13.4s, v13.8h
	WORD $0x4e6029ce // saddlp v14.4s, v14.8h
	WORD $0x4eaebdad // addp v13.4s, v13.4s, v14.4s
	WORD $0xbc404575 // ldr s21, [x11], #4
	WORD $0x1e350a95 // fmul s21, s20, s21
	WORD $0x4e21d98c // scvtf v12.4s, v12.4s
	WORD $0x4e21d9ad // scvtf v13.4s, v13.4s
	WORD $0x4f951186 // fmla v6.4s, v12.4s, v21.s[0]
	WORD $0x4f9511a7 // fmla v7.4s, v13.4s, v21.s[0]
	WORD $0xbc4045d7 // ldr s23, [x14], #4
	WORD $0x1f176edb // fmadd s27, s22, s23, s27
	SUBS $1, R4, R4
	BNE loop4Q5_1N
	MOVD out+56(FP), R5
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e382800 // fadd s0, s0, s24
	WORD $0xbd0000a0 // str s0, [x5, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0x1e392842 // fadd s2, s2, s25
	WORD $0xbd0004a2 // str s2, [x5, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x1e3a2884 // fadd s4, s4, s26
	WORD $0xbd0008a4 // str s4, [x5, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) + summs.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0x1e3b28c6 // fadd s6, s6, s27
	WORD $0xbd000ca6 // str s6, [x5, #12]
	RET

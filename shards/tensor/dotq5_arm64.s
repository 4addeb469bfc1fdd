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

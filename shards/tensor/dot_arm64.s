//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for the one-position dot products of Q8_0 and Q4_0 weights
// with Q8_0 activations, in the canonical float order of dot_generic.go (the
// order of llama.cpp's x86 kernels, not of its ARM ones): the integer parts
// are exact, the float steps are the same fused multiply-adds. Go's arm64
// assembler lacks most of these vector instructions, so they are encoded
// as WORDs, each followed by its mnemonic. The ...SDOT kernels use SDOT
// (the dot-product extension, FEAT_DotProd); the ...NEON ones widen with
// SMULL and add pairs with SADDLP/ADDP to the same 4-byte lane sums.
//
// Registers: R0 weights, R1 activations, R2 activation scales, R3 blocks.

// func dotQ8_0SDOT(w *byte, y *int8, d *float32, nb int) float32
// Per block b: lane l (l = 0..7) of the block's 32 products is the sum of
// bytes 4l..4l+3, which is what SDOT leaves in 32-bit lane l; then
// acc[l] = fma(dw*dy_b, float(lane l), acc[l]) with acc in V2 (lanes 0-3)
// and V3 (lanes 4-7); result hsum8(acc).
TEXT ·dotQ8_0SDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdfa004 // ld1 {v4.16b, v5.16b}, [x0], #32
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e869480 // sdot v0.4s, v4.16b, v6.16b
	WORD $0x4e8794a1 // sdot v1.4s, v5.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE  loop
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ8_0NEON(w *byte, y *int8, d *float32, nb int) float32
// As dotQ8_0SDOT with the lane sums from SMULL/SMULL2 (16-bit products),
// SADDLP (pairs to 32 bits) and ADDP (pairs of pairs, in lane order).
TEXT ·dotQ8_0NEON(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdfa004 // ld1 {v4.16b, v5.16b}, [x0], #32
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	WORD $0x0e26c090 // smull v16.8h, v4.8b, v6.8b
	WORD $0x4e26c091 // smull2 v17.8h, v4.16b, v6.16b
	WORD $0x0e27c0b2 // smull v18.8h, v5.8b, v7.8b
	WORD $0x4e27c0b3 // smull2 v19.8h, v5.16b, v7.16b
	WORD $0x4e602a10 // saddlp v16.4s, v16.8h
	WORD $0x4e602a31 // saddlp v17.4s, v17.8h
	WORD $0x4e602a52 // saddlp v18.4s, v18.8h
	WORD $0x4e602a73 // saddlp v19.4s, v19.8h
	WORD $0x4eb1be00 // addp v0.4s, v16.4s, v17.4s
	WORD $0x4eb3be41 // addp v1.4s, v18.4s, v19.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941002 // fmla v2.4s, v0.4s, v20.s[0]
	WORD $0x4f941023 // fmla v3.4s, v1.4s, v20.s[0]
	SUBS $1, R3, R3
	BNE  loop
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d840 // faddp s0, v2.2s
	FMOVS F0, ret+32(FP)
	RET

// func dotQ4_0SDOT(w *byte, y *int8, d *float32, nb int) float32
// Per block: the exact integer sum of the 32 products (low nibbles - 8
// against activations 0..15, high nibbles - 8 against 16..31), then
// acc = fma(float(sum), dw*dy_b, acc) in S2.
TEXT ·dotQ4_0SDOT(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e402 // movi v2.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	WORD $0x4e3e1c85 // and v5.16b, v4.16b, v30.16b
	WORD $0x6f0c0484 // ushr v4.16b, v4.16b, #4
	WORD $0x6e3f84a5 // sub v5.16b, v5.16b, v31.16b
	WORD $0x6e3f8484 // sub v4.16b, v4.16b, v31.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e8694a0 // sdot v0.4s, v5.16b, v6.16b
	WORD $0x4e879480 // sdot v0.4s, v4.16b, v7.16b
	WORD $0x4eb1b800 // addv s0, v0.4s
	WORD $0x5e21d800 // scvtf s0, s0
	WORD $0x1f140802 // fmadd s2, s0, s20, s2
	SUBS $1, R3, R3
	BNE  loop
	FMOVS F2, ret+32(FP)
	RET

// func dotQ4_0NEON(w *byte, y *int8, d *float32, nb int) float32
// As dotQ4_0SDOT; the products (at most 8*128 in magnitude, two summed
// per 16-bit lane) come from SMULL/SMLAL and are widened by SADDLP/SADALP.
TEXT ·dotQ4_0NEON(SB), NOSPLIT, $0-36
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e402 // movi v2.16b, #0
loop:
	WORD $0x7c402414 // ldr h20, [x0], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x4cdf7004 // ld1 {v4.16b}, [x0], #16
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x1ee24294 // fcvt s20, h20
	WORD $0x1e350a94 // fmul s20, s20, s21
	WORD $0x4e3e1c85 // and v5.16b, v4.16b, v30.16b
	WORD $0x6f0c0484 // ushr v4.16b, v4.16b, #4
	WORD $0x6e3f84a5 // sub v5.16b, v5.16b, v31.16b
	WORD $0x6e3f8484 // sub v4.16b, v4.16b, v31.16b
	WORD $0x0e26c0b0 // smull v16.8h, v5.8b, v6.8b
	WORD $0x4e26c0b1 // smull2 v17.8h, v5.16b, v6.16b
	WORD $0x0e278090 // smlal v16.8h, v4.8b, v7.8b
	WORD $0x4e278091 // smlal2 v17.8h, v4.16b, v7.16b
	WORD $0x4e602a10 // saddlp v16.4s, v16.8h
	WORD $0x4e606a30 // sadalp v16.4s, v17.8h
	WORD $0x4eb1ba00 // addv s0, v16.4s
	WORD $0x5e21d800 // scvtf s0, s0
	WORD $0x1f140802 // fmadd s2, s0, s20, s2
	SUBS $1, R3, R3
	BNE  loop
	FMOVS F2, ret+32(FP)
	RET

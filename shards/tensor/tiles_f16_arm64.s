//go:build arm64 && !purego

#include "textflag.h"

// The NEON F16 tile for prompt batches, in dotF16's order: element i of
// the first n columns goes to acc[i%32] of its output (eight vectors of
// four lanes), acc += w*x with FMLA (a product of two f16 values is exact
// in float32, so one rounding is the Go kernel's multiply-then-add), then
// v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]) and hsum8(v); the Go
// wrapper adds the columns past n. The activations are read as float32
// (acts.hf), so only the weights are widened, once for three positions.
// Each WORD is the instruction in its comment.

// func f16TileNEON(w *byte, rs int, rows int, x *float32, xs int, k int, n int, out *float32, os int)
// rows rows rs bytes apart against k positions xs bytes apart, n > 0 a
// multiple of 32: out[p*os+r] for row r, position p. Register tiles of one
// row × three positions, positions in the outer loop (their activations
// stay in L1 while the rows stream by); a short last group of positions
// repeats one, whose results are not stored. Registers: V0-V23 the three
// accumulators (V0-V7 position 0, V8-V15 1, V16-V23 2), V24 eight
// weights, V25/V26 them widened, V27-V30 activations.
TEXT ·f16TileNEON(SB), NOSPLIT, $0-72
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R1
	MOVD rows+16(FP), R2
	MOVD x+24(FP), R3
	MOVD xs+32(FP), R4
	MOVD k+40(FP), R5
	MOVD n+48(FP), R6
	MOVD out+56(FP), R7
	MOVD os+64(FP), R8
	LSL $2, R8, R8 // bytes between positions in out
	MOVD $0, R24 // p
tilepos:
	MUL R24, R4, R21
	ADD R3, R21, R12 // x0
	ADD R4, R12, R13
	ADD $1, R24, R21
	CMP R5, R21
	CSEL LT, R13, R12, R13 // x1, or x0 past the last position
	ADD R4, R13, R14
	ADD $2, R24, R21
	CMP R5, R21
	CSEL LT, R14, R13, R14 // x2
	MOVD $0, R25 // r
tilerows:
	MUL R25, R1, R21
	ADD R0, R21, R10 // the row
	MOVD R12, R21
	MOVD R13, R22
	MOVD R14, R23
	MOVD R6, R15
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
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
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4f00e416 // movi v22.16b, #0
	WORD $0x4f00e417 // movi v23.16b, #0
tileloop:
	WORD $0x4cdf7558 // ld1 {v24.8h}, [x10], #16
	WORD $0x0e217b19 // fcvtl v25.4s, v24.4h
	WORD $0x4e217b1a // fcvtl2 v26.4s, v24.8h
	WORD $0x4cdfaabb // ld1 {v27.4s, v28.4s}, [x21], #32
	WORD $0x4e3bcf20 // fmla v0.4s, v25.4s, v27.4s
	WORD $0x4e3ccf41 // fmla v1.4s, v26.4s, v28.4s
	WORD $0x4cdfaadd // ld1 {v29.4s, v30.4s}, [x22], #32
	WORD $0x4e3dcf28 // fmla v8.4s, v25.4s, v29.4s
	WORD $0x4e3ecf49 // fmla v9.4s, v26.4s, v30.4s
	WORD $0x4cdfaafb // ld1 {v27.4s, v28.4s}, [x23], #32
	WORD $0x4e3bcf30 // fmla v16.4s, v25.4s, v27.4s
	WORD $0x4e3ccf51 // fmla v17.4s, v26.4s, v28.4s
	WORD $0x4cdf7558 // ld1 {v24.8h}, [x10], #16
	WORD $0x0e217b19 // fcvtl v25.4s, v24.4h
	WORD $0x4e217b1a // fcvtl2 v26.4s, v24.8h
	WORD $0x4cdfaabb // ld1 {v27.4s, v28.4s}, [x21], #32
	WORD $0x4e3bcf22 // fmla v2.4s, v25.4s, v27.4s
	WORD $0x4e3ccf43 // fmla v3.4s, v26.4s, v28.4s
	WORD $0x4cdfaadd // ld1 {v29.4s, v30.4s}, [x22], #32
	WORD $0x4e3dcf2a // fmla v10.4s, v25.4s, v29.4s
	WORD $0x4e3ecf4b // fmla v11.4s, v26.4s, v30.4s
	WORD $0x4cdfaafb // ld1 {v27.4s, v28.4s}, [x23], #32
	WORD $0x4e3bcf32 // fmla v18.4s, v25.4s, v27.4s
	WORD $0x4e3ccf53 // fmla v19.4s, v26.4s, v28.4s
	WORD $0x4cdf7558 // ld1 {v24.8h}, [x10], #16
	WORD $0x0e217b19 // fcvtl v25.4s, v24.4h
	WORD $0x4e217b1a // fcvtl2 v26.4s, v24.8h
	WORD $0x4cdfaabb // ld1 {v27.4s, v28.4s}, [x21], #32
	WORD $0x4e3bcf24 // fmla v4.4s, v25.4s, v27.4s
	WORD $0x4e3ccf45 // fmla v5.4s, v26.4s, v28.4s
	WORD $0x4cdfaadd // ld1 {v29.4s, v30.4s}, [x22], #32
	WORD $0x4e3dcf2c // fmla v12.4s, v25.4s, v29.4s
	WORD $0x4e3ecf4d // fmla v13.4s, v26.4s, v30.4s
	WORD $0x4cdfaafb // ld1 {v27.4s, v28.4s}, [x23], #32
	WORD $0x4e3bcf34 // fmla v20.4s, v25.4s, v27.4s
	WORD $0x4e3ccf55 // fmla v21.4s, v26.4s, v28.4s
	WORD $0x4cdf7558 // ld1 {v24.8h}, [x10], #16
	WORD $0x0e217b19 // fcvtl v25.4s, v24.4h
	WORD $0x4e217b1a // fcvtl2 v26.4s, v24.8h
	WORD $0x4cdfaabb // ld1 {v27.4s, v28.4s}, [x21], #32
	WORD $0x4e3bcf26 // fmla v6.4s, v25.4s, v27.4s
	WORD $0x4e3ccf47 // fmla v7.4s, v26.4s, v28.4s
	WORD $0x4cdfaadd // ld1 {v29.4s, v30.4s}, [x22], #32
	WORD $0x4e3dcf2e // fmla v14.4s, v25.4s, v29.4s
	WORD $0x4e3ecf4f // fmla v15.4s, v26.4s, v30.4s
	WORD $0x4cdfaafb // ld1 {v27.4s, v28.4s}, [x23], #32
	WORD $0x4e3bcf36 // fmla v22.4s, v25.4s, v27.4s
	WORD $0x4e3ccf57 // fmla v23.4s, v26.4s, v28.4s
	SUBS $32, R15, R15
	BNE tileloop
	// Position 0: (A0+A4)+(A2+A6) and (A1+A5)+(A3+A7), then hsum8, into S0.
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	// Position 1: (A0+A4)+(A2+A6) and (A1+A5)+(A3+A7), then hsum8, into S8.
	WORD $0x4e2cd508 // fadd v8.4s, v8.4s, v12.4s
	WORD $0x4e2ed54a // fadd v10.4s, v10.4s, v14.4s
	WORD $0x4e2ad508 // fadd v8.4s, v8.4s, v10.4s
	WORD $0x4e2dd529 // fadd v9.4s, v9.4s, v13.4s
	WORD $0x4e2fd56b // fadd v11.4s, v11.4s, v15.4s
	WORD $0x4e2bd529 // fadd v9.4s, v9.4s, v11.4s
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d908 // faddp s8, v8.2s
	// Position 2: (A0+A4)+(A2+A6) and (A1+A5)+(A3+A7), then hsum8, into S16.
	WORD $0x4e34d610 // fadd v16.4s, v16.4s, v20.4s
	WORD $0x4e36d652 // fadd v18.4s, v18.4s, v22.4s
	WORD $0x4e32d610 // fadd v16.4s, v16.4s, v18.4s
	WORD $0x4e35d631 // fadd v17.4s, v17.4s, v21.4s
	WORD $0x4e37d673 // fadd v19.4s, v19.4s, v23.4s
	WORD $0x4e33d631 // fadd v17.4s, v17.4s, v19.4s
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x6e104211 // ext v17.16b, v16.16b, v16.16b, #8
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x7e30da10 // faddp s16, v16.2s
	// Stores: position p always, p+1 and p+2 where they are positions.
	MUL R24, R8, R21
	ADD R21, R7, R21
	ADD R25<<2, R21, R21 // &out[p*os+r]
	FMOVS F0, (R21)
	ADD $1, R24, R23
	CMP R5, R23
	BGE tilestored
	ADD R8, R21, R21
	FMOVS F8, (R21)
	ADD $2, R24, R23
	CMP R5, R23
	BGE tilestored
	ADD R8, R21, R21
	FMOVS F16, (R21)
tilestored:
	ADD $1, R25, R25
	CMP R2, R25
	BLT tilerows
	ADD $3, R24, R24
	CMP R5, R24
	BLT tilepos
	RET

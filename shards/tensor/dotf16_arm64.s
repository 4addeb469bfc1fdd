//go:build arm64 && !purego

#include "textflag.h"

// The NEON kernel for the one-position F16 dot product (f16 weights and
// f16 activations), in the canonical order of dot_generic.go's dotF16.
// Each WORD is the encoding of the instruction in its comment.

// func dotF16NEON(w *byte, x *uint16, n int) float32
// n > 0 a multiple of 32. Element i goes to acc[i%32] (V0-V7, four lanes
// each), acc += w*x: the product of two f16 values is exact in float32,
// so FMLA rounds once as the Go kernel's multiply-then-add does. Then
// v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]) and hsum8(v).
TEXT ·dotF16NEON(SB), NOSPLIT, $0-28
	MOVD w+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
loop:
	WORD $0x4cdfa410 // ld1 {v16.8h, v17.8h}, [x0], #32
	WORD $0x4cdfa432 // ld1 {v18.8h, v19.8h}, [x1], #32
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x0e217a36 // fcvtl v22.4s, v17.4h
	WORD $0x4e217a37 // fcvtl2 v23.4s, v17.8h
	WORD $0x0e217a58 // fcvtl v24.4s, v18.4h
	WORD $0x4e217a59 // fcvtl2 v25.4s, v18.8h
	WORD $0x0e217a7a // fcvtl v26.4s, v19.4h
	WORD $0x4e217a7b // fcvtl2 v27.4s, v19.8h
	WORD $0x4e38ce80 // fmla v0.4s, v20.4s, v24.4s
	WORD $0x4e39cea1 // fmla v1.4s, v21.4s, v25.4s
	WORD $0x4e3acec2 // fmla v2.4s, v22.4s, v26.4s
	WORD $0x4e3bcee3 // fmla v3.4s, v23.4s, v27.4s
	WORD $0x4cdfa410 // ld1 {v16.8h, v17.8h}, [x0], #32
	WORD $0x4cdfa432 // ld1 {v18.8h, v19.8h}, [x1], #32
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x0e217a36 // fcvtl v22.4s, v17.4h
	WORD $0x4e217a37 // fcvtl2 v23.4s, v17.8h
	WORD $0x0e217a58 // fcvtl v24.4s, v18.4h
	WORD $0x4e217a59 // fcvtl2 v25.4s, v18.8h
	WORD $0x0e217a7a // fcvtl v26.4s, v19.4h
	WORD $0x4e217a7b // fcvtl2 v27.4s, v19.8h
	WORD $0x4e38ce84 // fmla v4.4s, v20.4s, v24.4s
	WORD $0x4e39cea5 // fmla v5.4s, v21.4s, v25.4s
	WORD $0x4e3acec6 // fmla v6.4s, v22.4s, v26.4s
	WORD $0x4e3bcee7 // fmla v7.4s, v23.4s, v27.4s
	SUBS $32, R2, R2
	BNE loop
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	FMOVS F0, ret+24(FP)
	RET

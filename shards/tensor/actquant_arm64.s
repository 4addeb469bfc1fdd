//go:build arm64 && !purego

#include "textflag.h"

// NEON quantization of activations to Q8_0 and Q8_K, giving the bits of
// actquant.go's Go converters (ggml's x86 rounding). Each WORD is the
// encoding of the instruction in its comment.

// func quantQ8_0NEON(x *float32, qs *int8, d *float32, nb int)
// Per block of 32: amax (NaNs skipped: masked to +0 before FABS/FMAX),
// d = f16(amax/127), id = 127/amax (0 when amax is 0), q = q8(x*id) with
// q8 as actquant.go: FCVTNS (ties to even), clamped to [-127, 127], and
// -127 where x*id is NaN or at least 2^31.
TEXT ·quantQ8_0NEON(SB), NOSPLIT, $0-32
	MOVD x+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD d+16(FP), R2
	MOVD nb+24(FP), R3
	// V24: 2^31 (float), V25: -127, V26: 127 (int32).
	MOVW $0x4f000000, R7
	WORD $0x4e040cf8 // dup v24.4s, w7
	WORD $0x6f0307d9 // mvni v25.4s, #126
	WORD $0x4f0307fa // movi v26.4s, #127
	MOVW $0x42fe0000, R7
	WORD $0x1e2700fc // fmov s28, w7
	WORD $0x4f00e41d // movi v29.16b, #0
loop:
	WORD $0x4cdf2800 // ld1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x0], #64
	WORD $0x4cdf2804 // ld1 {v4.4s, v5.4s, v6.4s, v7.4s}, [x0], #64
	WORD $0x4e20e410 // fcmeq v16.4s, v0.4s, v0.4s
	WORD $0x4e301c10 // and v16.16b, v0.16b, v16.16b
	WORD $0x4ea0fa10 // fabs v16.4s, v16.4s
	WORD $0x4e21e431 // fcmeq v17.4s, v1.4s, v1.4s
	WORD $0x4e311c31 // and v17.16b, v1.16b, v17.16b
	WORD $0x4ea0fa31 // fabs v17.4s, v17.4s
	WORD $0x4e22e452 // fcmeq v18.4s, v2.4s, v2.4s
	WORD $0x4e321c52 // and v18.16b, v2.16b, v18.16b
	WORD $0x4ea0fa52 // fabs v18.4s, v18.4s
	WORD $0x4e23e473 // fcmeq v19.4s, v3.4s, v3.4s
	WORD $0x4e331c73 // and v19.16b, v3.16b, v19.16b
	WORD $0x4ea0fa73 // fabs v19.4s, v19.4s
	WORD $0x4e24e494 // fcmeq v20.4s, v4.4s, v4.4s
	WORD $0x4e341c94 // and v20.16b, v4.16b, v20.16b
	WORD $0x4ea0fa94 // fabs v20.4s, v20.4s
	WORD $0x4e25e4b5 // fcmeq v21.4s, v5.4s, v5.4s
	WORD $0x4e351cb5 // and v21.16b, v5.16b, v21.16b
	WORD $0x4ea0fab5 // fabs v21.4s, v21.4s
	WORD $0x4e26e4d6 // fcmeq v22.4s, v6.4s, v6.4s
	WORD $0x4e361cd6 // and v22.16b, v6.16b, v22.16b
	WORD $0x4ea0fad6 // fabs v22.4s, v22.4s
	WORD $0x4e27e4f7 // fcmeq v23.4s, v7.4s, v7.4s
	WORD $0x4e371cf7 // and v23.16b, v7.16b, v23.16b
	WORD $0x4ea0faf7 // fabs v23.4s, v23.4s
	WORD $0x4e31f610 // fmax v16.4s, v16.4s, v17.4s
	WORD $0x4e33f652 // fmax v18.4s, v18.4s, v19.4s
	WORD $0x4e35f694 // fmax v20.4s, v20.4s, v21.4s
	WORD $0x4e37f6d6 // fmax v22.4s, v22.4s, v23.4s
	WORD $0x4e32f610 // fmax v16.4s, v16.4s, v18.4s
	WORD $0x4e36f694 // fmax v20.4s, v20.4s, v22.4s
	WORD $0x4e34f610 // fmax v16.4s, v16.4s, v20.4s
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	WORD $0x1e3c1a11 // fdiv s17, s16, s28
	WORD $0x1e23c231 // fcvt h17, s17
	WORD $0x1ee24231 // fcvt s17, h17
	WORD $0xbc004451 // str s17, [x2], #4
	WORD $0x1e301b92 // fdiv s18, s28, s16
	WORD $0x1e202208 // fcmp s16, #0.0
	WORD $0x1e320fb2 // fcsel s18, s29, s18, eq
	WORD $0x4f929000 // fmul v0.4s, v0.4s, v18.s[0]
	WORD $0x4f929021 // fmul v1.4s, v1.4s, v18.s[0]
	WORD $0x4f929042 // fmul v2.4s, v2.4s, v18.s[0]
	WORD $0x4f929063 // fmul v3.4s, v3.4s, v18.s[0]
	WORD $0x6ea0e714 // fcmgt v20.4s, v24.4s, v0.4s
	WORD $0x6ea1e715 // fcmgt v21.4s, v24.4s, v1.4s
	WORD $0x6ea2e716 // fcmgt v22.4s, v24.4s, v2.4s
	WORD $0x6ea3e717 // fcmgt v23.4s, v24.4s, v3.4s
	WORD $0x4e21a800 // fcvtns v0.4s, v0.4s
	WORD $0x4e21a821 // fcvtns v1.4s, v1.4s
	WORD $0x4e21a842 // fcvtns v2.4s, v2.4s
	WORD $0x4e21a863 // fcvtns v3.4s, v3.4s
	WORD $0x4eb96400 // smax v0.4s, v0.4s, v25.4s
	WORD $0x4eba6c00 // smin v0.4s, v0.4s, v26.4s
	WORD $0x6ef41f20 // bif v0.16b, v25.16b, v20.16b
	WORD $0x4eb96421 // smax v1.4s, v1.4s, v25.4s
	WORD $0x4eba6c21 // smin v1.4s, v1.4s, v26.4s
	WORD $0x6ef51f21 // bif v1.16b, v25.16b, v21.16b
	WORD $0x4eb96442 // smax v2.4s, v2.4s, v25.4s
	WORD $0x4eba6c42 // smin v2.4s, v2.4s, v26.4s
	WORD $0x6ef61f22 // bif v2.16b, v25.16b, v22.16b
	WORD $0x4eb96463 // smax v3.4s, v3.4s, v25.4s
	WORD $0x4eba6c63 // smin v3.4s, v3.4s, v26.4s
	WORD $0x6ef71f23 // bif v3.16b, v25.16b, v23.16b
	WORD $0x0e612810 // xtn v16.4h, v0.4s
	WORD $0x4e612830 // xtn2 v16.8h, v1.4s
	WORD $0x0e612851 // xtn v17.4h, v2.4s
	WORD $0x4e612871 // xtn2 v17.8h, v3.4s
	WORD $0x0e212a10 // xtn v16.8b, v16.8h
	WORD $0x4e212a30 // xtn2 v16.16b, v17.8h
	WORD $0x4c9f7030 // st1 {v16.16b}, [x1], #16
	WORD $0x4f929084 // fmul v4.4s, v4.4s, v18.s[0]
	WORD $0x4f9290a5 // fmul v5.4s, v5.4s, v18.s[0]
	WORD $0x4f9290c6 // fmul v6.4s, v6.4s, v18.s[0]
	WORD $0x4f9290e7 // fmul v7.4s, v7.4s, v18.s[0]
	WORD $0x6ea4e714 // fcmgt v20.4s, v24.4s, v4.4s
	WORD $0x6ea5e715 // fcmgt v21.4s, v24.4s, v5.4s
	WORD $0x6ea6e716 // fcmgt v22.4s, v24.4s, v6.4s
	WORD $0x6ea7e717 // fcmgt v23.4s, v24.4s, v7.4s
	WORD $0x4e21a884 // fcvtns v4.4s, v4.4s
	WORD $0x4e21a8a5 // fcvtns v5.4s, v5.4s
	WORD $0x4e21a8c6 // fcvtns v6.4s, v6.4s
	WORD $0x4e21a8e7 // fcvtns v7.4s, v7.4s
	WORD $0x4eb96484 // smax v4.4s, v4.4s, v25.4s
	WORD $0x4eba6c84 // smin v4.4s, v4.4s, v26.4s
	WORD $0x6ef41f24 // bif v4.16b, v25.16b, v20.16b
	WORD $0x4eb964a5 // smax v5.4s, v5.4s, v25.4s
	WORD $0x4eba6ca5 // smin v5.4s, v5.4s, v26.4s
	WORD $0x6ef51f25 // bif v5.16b, v25.16b, v21.16b
	WORD $0x4eb964c6 // smax v6.4s, v6.4s, v25.4s
	WORD $0x4eba6cc6 // smin v6.4s, v6.4s, v26.4s
	WORD $0x6ef61f26 // bif v6.16b, v25.16b, v22.16b
	WORD $0x4eb964e7 // smax v7.4s, v7.4s, v25.4s
	WORD $0x4eba6ce7 // smin v7.4s, v7.4s, v26.4s
	WORD $0x6ef71f27 // bif v7.16b, v25.16b, v23.16b
	WORD $0x0e612890 // xtn v16.4h, v4.4s
	WORD $0x4e6128b0 // xtn2 v16.8h, v5.4s
	WORD $0x0e6128d1 // xtn v17.4h, v6.4s
	WORD $0x4e6128f1 // xtn2 v17.8h, v7.4s
	WORD $0x0e212a10 // xtn v16.8b, v16.8h
	WORD $0x4e212a30 // xtn2 v16.16b, v17.8h
	WORD $0x4c9f7030 // st1 {v16.16b}, [x1], #16
	SUBS $1, R3, R3
	BNE loop
	RET

// func quantQ8_KBlockNEON(x *float32, qs *int8, d *float32, bsums *int16) bool
// One super-block of 256 as quantQ8_K: max = the value of largest magnitude
// (NaNs skipped), iscale = -127/max, q = q8(iscale*x) as quantQ8_0NEON,
// d = 1/iscale, bsums the sums of each 16 quants; an all-zero block gives
// zeros. It returns false, writing nothing, when +max and -max both occur
// (the first one decides, which the caller finds in Go).
TEXT ·quantQ8_KBlockNEON(SB), NOSPLIT, $0-33
	MOVD x+0(FP), R0
	MOVD qs+8(FP), R1
	MOVD d+16(FP), R2
	MOVD bsums+24(FP), R3
	// Pass 1: largest (V16-V19) and smallest (V20-V23) values, NaNs as +0.
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4f00e416 // movi v22.16b, #0
	WORD $0x4f00e417 // movi v23.16b, #0
	MOVD R0, R5
	MOVD $16, R6
max:
	WORD $0x4cdf28a0 // ld1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x5], #64
	WORD $0x4e20e404 // fcmeq v4.4s, v0.4s, v0.4s
	WORD $0x4e241c00 // and v0.16b, v0.16b, v4.16b
	WORD $0x4e20f610 // fmax v16.4s, v16.4s, v0.4s
	WORD $0x4ea0f694 // fmin v20.4s, v20.4s, v0.4s
	WORD $0x4e21e425 // fcmeq v5.4s, v1.4s, v1.4s
	WORD $0x4e251c21 // and v1.16b, v1.16b, v5.16b
	WORD $0x4e21f631 // fmax v17.4s, v17.4s, v1.4s
	WORD $0x4ea1f6b5 // fmin v21.4s, v21.4s, v1.4s
	WORD $0x4e22e446 // fcmeq v6.4s, v2.4s, v2.4s
	WORD $0x4e261c42 // and v2.16b, v2.16b, v6.16b
	WORD $0x4e22f652 // fmax v18.4s, v18.4s, v2.4s
	WORD $0x4ea2f6d6 // fmin v22.4s, v22.4s, v2.4s
	WORD $0x4e23e467 // fcmeq v7.4s, v3.4s, v3.4s
	WORD $0x4e271c63 // and v3.16b, v3.16b, v7.16b
	WORD $0x4e23f673 // fmax v19.4s, v19.4s, v3.4s
	WORD $0x4ea3f6f7 // fmin v23.4s, v23.4s, v3.4s
	SUBS $1, R6, R6
	BNE max
	WORD $0x4e31f610 // fmax v16.4s, v16.4s, v17.4s
	WORD $0x4e33f652 // fmax v18.4s, v18.4s, v19.4s
	WORD $0x4e32f610 // fmax v16.4s, v16.4s, v18.4s
	WORD $0x4eb5f694 // fmin v20.4s, v20.4s, v21.4s
	WORD $0x4eb7f6d6 // fmin v22.4s, v22.4s, v23.4s
	WORD $0x4eb6f694 // fmin v20.4s, v20.4s, v22.4s
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	WORD $0x6eb0fa94 // fminv s20, v20.4s
	WORD $0x1e214295 // fneg s21, s20
	WORD $0x1e352200 // fcmp s16, s21
	BNE signed
	WORD $0x1e202208 // fcmp s16, #0.0
	BEQ zero
	// Both signs reach the largest magnitude.
	MOVD $0, R7
	MOVB R7, ret+32(FP)
	RET
zero:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0xbd000040 // str s0, [x2]
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xac810020 // stp q0, q0, [x1], #32
	WORD $0xad000060 // stp q0, q0, [x3]
	MOVD $1, R7
	MOVB R7, ret+32(FP)
	RET
signed:
	WORD $0x1e34ce16 // fcsel s22, s16, s20, gt
	MOVW $0xc2fe0000, R7
	WORD $0x1e2700f7 // fmov s23, w7
	WORD $0x1e361afb // fdiv s27, s23, s22
	WORD $0x1e2e1017 // fmov s23, #1.0
	WORD $0x1e3b1af7 // fdiv s23, s23, s27
	WORD $0xbd000057 // str s23, [x2]
	// V24: 2^31 (float), V25: -127, V26: 127 (int32).
	MOVW $0x4f000000, R7
	WORD $0x4e040cf8 // dup v24.4s, w7
	WORD $0x6f0307d9 // mvni v25.4s, #126
	WORD $0x4f0307fa // movi v26.4s, #127
	MOVD $16, R6
quant:
	WORD $0x4cdf2800 // ld1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x0], #64
	WORD $0x4f9b9000 // fmul v0.4s, v0.4s, v27.s[0]
	WORD $0x4f9b9021 // fmul v1.4s, v1.4s, v27.s[0]
	WORD $0x4f9b9042 // fmul v2.4s, v2.4s, v27.s[0]
	WORD $0x4f9b9063 // fmul v3.4s, v3.4s, v27.s[0]
	WORD $0x6ea0e704 // fcmgt v4.4s, v24.4s, v0.4s
	WORD $0x6ea1e705 // fcmgt v5.4s, v24.4s, v1.4s
	WORD $0x6ea2e706 // fcmgt v6.4s, v24.4s, v2.4s
	WORD $0x6ea3e707 // fcmgt v7.4s, v24.4s, v3.4s
	WORD $0x4e21a800 // fcvtns v0.4s, v0.4s
	WORD $0x4e21a821 // fcvtns v1.4s, v1.4s
	WORD $0x4e21a842 // fcvtns v2.4s, v2.4s
	WORD $0x4e21a863 // fcvtns v3.4s, v3.4s
	WORD $0x4eb96400 // smax v0.4s, v0.4s, v25.4s
	WORD $0x4eba6c00 // smin v0.4s, v0.4s, v26.4s
	WORD $0x6ee41f20 // bif v0.16b, v25.16b, v4.16b
	WORD $0x4eb96421 // smax v1.4s, v1.4s, v25.4s
	WORD $0x4eba6c21 // smin v1.4s, v1.4s, v26.4s
	WORD $0x6ee51f21 // bif v1.16b, v25.16b, v5.16b
	WORD $0x4eb96442 // smax v2.4s, v2.4s, v25.4s
	WORD $0x4eba6c42 // smin v2.4s, v2.4s, v26.4s
	WORD $0x6ee61f22 // bif v2.16b, v25.16b, v6.16b
	WORD $0x4eb96463 // smax v3.4s, v3.4s, v25.4s
	WORD $0x4eba6c63 // smin v3.4s, v3.4s, v26.4s
	WORD $0x6ee71f23 // bif v3.16b, v25.16b, v7.16b
	WORD $0x0e612810 // xtn v16.4h, v0.4s
	WORD $0x4e612830 // xtn2 v16.8h, v1.4s
	WORD $0x0e612851 // xtn v17.4h, v2.4s
	WORD $0x4e612871 // xtn2 v17.8h, v3.4s
	WORD $0x0e212a10 // xtn v16.8b, v16.8h
	WORD $0x4e212a30 // xtn2 v16.16b, v17.8h
	WORD $0x4c9f7030 // st1 {v16.16b}, [x1], #16
	WORD $0x4e303a11 // saddlv h17, v16.16b
	WORD $0x7c002471 // str h17, [x3], #2
	SUBS $1, R6, R6
	BNE quant
	MOVD $1, R7
	MOVB R7, ret+32(FP)
	RET

//go:build arm64 && !purego

#include "textflag.h"

// Four-row, one-position NEON kernels for Q4_0 and Q8_0 weights (decode):
// the activation block and its scale are loaded once for four rows, the
// four rows' scales converted together, and for Q4_0 the four block sums
// reduced into one vector so that the rows' fused multiply-adds run as one
// FMLA, each lane its row's chain in the canonical order of
// dot_generic.go. The ...SDOT kernels use SDOT, the ...NEON ones SMULL
// and pairwise adds. Each WORD is the encoding of the instruction in its
// comment.

// func dotQ4_0x4rowsSDOT(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)
TEXT ·dotQ4_0x4rowsSDOT(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R4
	MOVD y+16(FP), R1
	MOVD d+24(FP), R2
	MOVD nb+32(FP), R3
	// Row r at R0, R5, R6, R7.
	ADD R4, R0, R5
	ADD R4, R5, R6
	ADD R4, R6, R7
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e41c // movi v28.16b, #0
loop:
	// V20: dx*dy of the four rows.
	WORD $0x0ddf4014 // ld1 {v20.h}[0], [x0], #2
	WORD $0x0ddf48b4 // ld1 {v20.h}[1], [x5], #2
	WORD $0x0ddf50d4 // ld1 {v20.h}[2], [x6], #2
	WORD $0x0ddf58f4 // ld1 {v20.h}[3], [x7], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x0e217a94 // fcvtl v20.4s, v20.4h
	WORD $0x4f959294 // fmul v20.4s, v20.4s, v21.s[0]
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869620 // sdot v0.4s, v17.16b, v6.16b
	WORD $0x4e879600 // sdot v0.4s, v16.16b, v7.16b
	WORD $0x4cdf70b0 // ld1 {v16.16b}, [x5], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e869621 // sdot v1.4s, v17.16b, v6.16b
	WORD $0x4e879601 // sdot v1.4s, v16.16b, v7.16b
	WORD $0x4cdf70d0 // ld1 {v16.16b}, [x6], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4e869622 // sdot v2.4s, v17.16b, v6.16b
	WORD $0x4e879602 // sdot v2.4s, v16.16b, v7.16b
	WORD $0x4cdf70f0 // ld1 {v16.16b}, [x7], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4e869623 // sdot v3.4s, v17.16b, v6.16b
	WORD $0x4e879603 // sdot v3.4s, v16.16b, v7.16b
	// The exact sums of the four rows' 32 products, one per lane; then
	// acc[r] = fma(float(sum r), dx*dy, acc[r]).
	WORD $0x4ea1bc00 // addp v0.4s, v0.4s, v1.4s
	WORD $0x4ea3bc42 // addp v2.4s, v2.4s, v3.4s
	WORD $0x4ea2bc00 // addp v0.4s, v0.4s, v2.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e34cc1c // fmla v28.4s, v0.4s, v20.4s
	SUBS $1, R3, R3
	BNE loop
	MOVD out+40(FP), R4
	WORD $0x4c00789c // st1 {v28.4s}, [x4]
	RET

// func dotQ4_0x4rowsNEON(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)
TEXT ·dotQ4_0x4rowsNEON(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R4
	MOVD y+16(FP), R1
	MOVD d+24(FP), R2
	MOVD nb+32(FP), R3
	// Row r at R0, R5, R6, R7.
	ADD R4, R0, R5
	ADD R4, R5, R6
	ADD R4, R6, R7
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e41c // movi v28.16b, #0
loop:
	// V20: dx*dy of the four rows.
	WORD $0x0ddf4014 // ld1 {v20.h}[0], [x0], #2
	WORD $0x0ddf48b4 // ld1 {v20.h}[1], [x5], #2
	WORD $0x0ddf50d4 // ld1 {v20.h}[2], [x6], #2
	WORD $0x0ddf58f4 // ld1 {v20.h}[3], [x7], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x0e217a94 // fcvtl v20.4s, v20.4h
	WORD $0x4f959294 // fmul v20.4s, v20.4s, v21.s[0]
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x0e26c220 // smull v0.8h, v17.8b, v6.8b
	WORD $0x4e26c232 // smull2 v18.8h, v17.16b, v6.16b
	WORD $0x0e278200 // smlal v0.8h, v16.8b, v7.8b
	WORD $0x4e278212 // smlal2 v18.8h, v16.16b, v7.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e606a40 // sadalp v0.4s, v18.8h
	WORD $0x4cdf70b0 // ld1 {v16.16b}, [x5], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x0e26c221 // smull v1.8h, v17.8b, v6.8b
	WORD $0x4e26c232 // smull2 v18.8h, v17.16b, v6.16b
	WORD $0x0e278201 // smlal v1.8h, v16.8b, v7.8b
	WORD $0x4e278212 // smlal2 v18.8h, v16.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e606a41 // sadalp v1.4s, v18.8h
	WORD $0x4cdf70d0 // ld1 {v16.16b}, [x6], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x0e26c222 // smull v2.8h, v17.8b, v6.8b
	WORD $0x4e26c232 // smull2 v18.8h, v17.16b, v6.16b
	WORD $0x0e278202 // smlal v2.8h, v16.8b, v7.8b
	WORD $0x4e278212 // smlal2 v18.8h, v16.16b, v7.16b
	WORD $0x4e602842 // saddlp v2.4s, v2.8h
	WORD $0x4e606a42 // sadalp v2.4s, v18.8h
	WORD $0x4cdf70f0 // ld1 {v16.16b}, [x7], #16
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x0e26c223 // smull v3.8h, v17.8b, v6.8b
	WORD $0x4e26c232 // smull2 v18.8h, v17.16b, v6.16b
	WORD $0x0e278203 // smlal v3.8h, v16.8b, v7.8b
	WORD $0x4e278212 // smlal2 v18.8h, v16.16b, v7.16b
	WORD $0x4e602863 // saddlp v3.4s, v3.8h
	WORD $0x4e606a43 // sadalp v3.4s, v18.8h
	// The exact sums of the four rows' 32 products, one per lane; then
	// acc[r] = fma(float(sum r), dx*dy, acc[r]).
	WORD $0x4ea1bc00 // addp v0.4s, v0.4s, v1.4s
	WORD $0x4ea3bc42 // addp v2.4s, v2.4s, v3.4s
	WORD $0x4ea2bc00 // addp v0.4s, v0.4s, v2.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e34cc1c // fmla v28.4s, v0.4s, v20.4s
	SUBS $1, R3, R3
	BNE loop
	MOVD out+40(FP), R4
	WORD $0x4c00789c // st1 {v28.4s}, [x4]
	RET

// func dotQ8_0x4rowsSDOT(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)
TEXT ·dotQ8_0x4rowsSDOT(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R4
	MOVD y+16(FP), R1
	MOVD d+24(FP), R2
	MOVD nb+32(FP), R3
	// Row r at R0, R5, R6, R7.
	ADD R4, R0, R5
	ADD R4, R5, R6
	ADD R4, R6, R7
	// acc of row r in V(8+2r) (lanes 0-3) and V(9+2r) (4-7).
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop:
	// V20: dx*dy of the four rows.
	WORD $0x0ddf4014 // ld1 {v20.h}[0], [x0], #2
	WORD $0x0ddf48b4 // ld1 {v20.h}[1], [x5], #2
	WORD $0x0ddf50d4 // ld1 {v20.h}[2], [x6], #2
	WORD $0x0ddf58f4 // ld1 {v20.h}[3], [x7], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x0e217a94 // fcvtl v20.4s, v20.4h
	WORD $0x4f959294 // fmul v20.4s, v20.4s, v21.s[0]
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941008 // fmla v8.4s, v0.4s, v20.s[0]
	WORD $0x4f941029 // fmla v9.4s, v1.4s, v20.s[0]
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4fb4100a // fmla v10.4s, v0.4s, v20.s[1]
	WORD $0x4fb4102b // fmla v11.4s, v1.4s, v20.s[1]
	WORD $0x4cdfa0d0 // ld1 {v16.16b, v17.16b}, [x6], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f94180c // fmla v12.4s, v0.4s, v20.s[2]
	WORD $0x4f94182d // fmla v13.4s, v1.4s, v20.s[2]
	WORD $0x4cdfa0f0 // ld1 {v16.16b, v17.16b}, [x7], #32
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4e869600 // sdot v0.4s, v16.16b, v6.16b
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4e879621 // sdot v1.4s, v17.16b, v7.16b
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4fb4180e // fmla v14.4s, v0.4s, v20.s[3]
	WORD $0x4fb4182f // fmla v15.4s, v1.4s, v20.s[3]
	SUBS $1, R3, R3
	BNE loop
	MOVD out+40(FP), R4
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0xbd000098 // str s24, [x4, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0xbd000498 // str s24, [x4, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0xbd000898 // str s24, [x4, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0xbd000c98 // str s24, [x4, #12]
	RET

// func dotQ8_0x4rowsNEON(w *byte, rs int, y *int8, d *float32, nb int, out *[4]float32)
TEXT ·dotQ8_0x4rowsNEON(SB), NOSPLIT, $0-48
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R4
	MOVD y+16(FP), R1
	MOVD d+24(FP), R2
	MOVD nb+32(FP), R3
	// Row r at R0, R5, R6, R7.
	ADD R4, R0, R5
	ADD R4, R5, R6
	ADD R4, R6, R7
	// acc of row r in V(8+2r) (lanes 0-3) and V(9+2r) (4-7).
	WORD $0x4f00e408 // movi v8.16b, #0
	WORD $0x4f00e409 // movi v9.16b, #0
	WORD $0x4f00e40a // movi v10.16b, #0
	WORD $0x4f00e40b // movi v11.16b, #0
	WORD $0x4f00e40c // movi v12.16b, #0
	WORD $0x4f00e40d // movi v13.16b, #0
	WORD $0x4f00e40e // movi v14.16b, #0
	WORD $0x4f00e40f // movi v15.16b, #0
loop:
	// V20: dx*dy of the four rows.
	WORD $0x0ddf4014 // ld1 {v20.h}[0], [x0], #2
	WORD $0x0ddf48b4 // ld1 {v20.h}[1], [x5], #2
	WORD $0x0ddf50d4 // ld1 {v20.h}[2], [x6], #2
	WORD $0x0ddf58f4 // ld1 {v20.h}[3], [x7], #2
	WORD $0xbc404455 // ldr s21, [x2], #4
	WORD $0x0e217a94 // fcvtl v20.4s, v20.4h
	WORD $0x4f959294 // fmul v20.4s, v20.4s, v21.s[0]
	WORD $0x4cdfa026 // ld1 {v6.16b, v7.16b}, [x1], #32
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c212 // smull2 v18.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e602a52 // saddlp v18.4s, v18.8h
	WORD $0x4eb2bc00 // addp v0.4s, v0.4s, v18.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c233 // smull2 v19.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e602a73 // saddlp v19.4s, v19.8h
	WORD $0x4eb3bc21 // addp v1.4s, v1.4s, v19.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f941008 // fmla v8.4s, v0.4s, v20.s[0]
	WORD $0x4f941029 // fmla v9.4s, v1.4s, v20.s[0]
	WORD $0x4cdfa0b0 // ld1 {v16.16b, v17.16b}, [x5], #32
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c212 // smull2 v18.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e602a52 // saddlp v18.4s, v18.8h
	WORD $0x4eb2bc00 // addp v0.4s, v0.4s, v18.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c233 // smull2 v19.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e602a73 // saddlp v19.4s, v19.8h
	WORD $0x4eb3bc21 // addp v1.4s, v1.4s, v19.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4fb4100a // fmla v10.4s, v0.4s, v20.s[1]
	WORD $0x4fb4102b // fmla v11.4s, v1.4s, v20.s[1]
	WORD $0x4cdfa0d0 // ld1 {v16.16b, v17.16b}, [x6], #32
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c212 // smull2 v18.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e602a52 // saddlp v18.4s, v18.8h
	WORD $0x4eb2bc00 // addp v0.4s, v0.4s, v18.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c233 // smull2 v19.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e602a73 // saddlp v19.4s, v19.8h
	WORD $0x4eb3bc21 // addp v1.4s, v1.4s, v19.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4f94180c // fmla v12.4s, v0.4s, v20.s[2]
	WORD $0x4f94182d // fmla v13.4s, v1.4s, v20.s[2]
	WORD $0x4cdfa0f0 // ld1 {v16.16b, v17.16b}, [x7], #32
	WORD $0x0e26c200 // smull v0.8h, v16.8b, v6.8b
	WORD $0x4e26c212 // smull2 v18.8h, v16.16b, v6.16b
	WORD $0x4e602800 // saddlp v0.4s, v0.8h
	WORD $0x4e602a52 // saddlp v18.4s, v18.8h
	WORD $0x4eb2bc00 // addp v0.4s, v0.4s, v18.4s
	WORD $0x0e27c221 // smull v1.8h, v17.8b, v7.8b
	WORD $0x4e27c233 // smull2 v19.8h, v17.16b, v7.16b
	WORD $0x4e602821 // saddlp v1.4s, v1.8h
	WORD $0x4e602a73 // saddlp v19.4s, v19.8h
	WORD $0x4eb3bc21 // addp v1.4s, v1.4s, v19.4s
	WORD $0x4e21d800 // scvtf v0.4s, v0.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x4fb4180e // fmla v14.4s, v0.4s, v20.s[3]
	WORD $0x4fb4182f // fmla v15.4s, v1.4s, v20.s[3]
	SUBS $1, R3, R3
	BNE loop
	MOVD out+40(FP), R4
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x6e084109 // ext v9.16b, v8.16b, v8.16b, #8
	WORD $0x4e29d508 // fadd v8.4s, v8.4s, v9.4s
	WORD $0x7e30d918 // faddp s24, v8.2s
	WORD $0xbd000098 // str s24, [x4, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x6e0a414b // ext v11.16b, v10.16b, v10.16b, #8
	WORD $0x4e2bd54a // fadd v10.4s, v10.4s, v11.4s
	WORD $0x7e30d958 // faddp s24, v10.2s
	WORD $0xbd000498 // str s24, [x4, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x6e0c418d // ext v13.16b, v12.16b, v12.16b, #8
	WORD $0x4e2dd58c // fadd v12.4s, v12.4s, v13.4s
	WORD $0x7e30d998 // faddp s24, v12.2s
	WORD $0xbd000898 // str s24, [x4, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S24.
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x6e0e41cf // ext v15.16b, v14.16b, v14.16b, #8
	WORD $0x4e2fd5ce // fadd v14.4s, v14.4s, v15.4s
	WORD $0x7e30d9d8 // faddp s24, v14.2s
	WORD $0xbd000c98 // str s24, [x4, #12]
	RET

//go:build arm64 && !purego

#include "textflag.h"

// One-row, four-position NEON kernels for Q8_0 and Q4_0 weights (prompt
// batches): each weight block is loaded (and, for Q4_0, unpacked) once for
// four positions, and each position keeps its own float chain in the
// canonical order of dot_generic.go, as dot_arm64.s's one-position kernels
// do. The ...SDOT kernels use SDOT, the ...NEON ones SMULL/SADDLP/ADDP.
// Each WORD is the encoding of the instruction in its comment.

// func dotQ8_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ8_0x4SDOT(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R3
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	LSL $2, R12
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
loop:
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0xbc404457 // ldr s23, [x2], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929614 // sdot v20.4s, v16.16b, v18.16b
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4e939635 // sdot v21.4s, v17.16b, v19.16b
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971280 // fmla v0.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a1 // fmla v1.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0b2 // ld1 {v18.16b, v19.16b}, [x5], #32
	WORD $0xbc404517 // ldr s23, [x8], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929614 // sdot v20.4s, v16.16b, v18.16b
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4e939635 // sdot v21.4s, v17.16b, v19.16b
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971282 // fmla v2.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a3 // fmla v3.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0d2 // ld1 {v18.16b, v19.16b}, [x6], #32
	WORD $0xbc404537 // ldr s23, [x9], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929614 // sdot v20.4s, v16.16b, v18.16b
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4e939635 // sdot v21.4s, v17.16b, v19.16b
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971284 // fmla v4.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a5 // fmla v5.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0f2 // ld1 {v18.16b, v19.16b}, [x7], #32
	WORD $0xbc404557 // ldr s23, [x10], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929614 // sdot v20.4s, v16.16b, v18.16b
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4e939635 // sdot v21.4s, v17.16b, v19.16b
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971286 // fmla v6.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a7 // fmla v7.4s, v21.4s, v23.s[0]
	SUBS $1, R3, R3
	BNE loop
	MOVD out+48(FP), R4
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0xbd000080 // str s0, [x4, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S2.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0xbd000482 // str s2, [x4, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S4.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0xbd000884 // str s4, [x4, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S6.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0xbd000c86 // str s6, [x4, #12]
	RET

// func dotQ8_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ8_0x4NEON(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R3
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	LSL $2, R12
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// acc of position p in V(2p) (lanes 0-3) and V(2p+1) (4-7).
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
loop:
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdfa010 // ld1 {v16.16b, v17.16b}, [x0], #32
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0xbc404457 // ldr s23, [x2], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c214 // smull v20.8h, v16.8b, v18.8b
	WORD $0x4e32c218 // smull2 v24.8h, v16.16b, v18.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e602b18 // saddlp v24.4s, v24.8h
	WORD $0x4eb8be94 // addp v20.4s, v20.4s, v24.4s
	WORD $0x0e33c235 // smull v21.8h, v17.8b, v19.8b
	WORD $0x4e33c239 // smull2 v25.8h, v17.16b, v19.16b
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4e602b39 // saddlp v25.4s, v25.8h
	WORD $0x4eb9beb5 // addp v21.4s, v21.4s, v25.4s
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971280 // fmla v0.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a1 // fmla v1.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0b2 // ld1 {v18.16b, v19.16b}, [x5], #32
	WORD $0xbc404517 // ldr s23, [x8], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c214 // smull v20.8h, v16.8b, v18.8b
	WORD $0x4e32c218 // smull2 v24.8h, v16.16b, v18.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e602b18 // saddlp v24.4s, v24.8h
	WORD $0x4eb8be94 // addp v20.4s, v20.4s, v24.4s
	WORD $0x0e33c235 // smull v21.8h, v17.8b, v19.8b
	WORD $0x4e33c239 // smull2 v25.8h, v17.16b, v19.16b
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4e602b39 // saddlp v25.4s, v25.8h
	WORD $0x4eb9beb5 // addp v21.4s, v21.4s, v25.4s
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971282 // fmla v2.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a3 // fmla v3.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0d2 // ld1 {v18.16b, v19.16b}, [x6], #32
	WORD $0xbc404537 // ldr s23, [x9], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c214 // smull v20.8h, v16.8b, v18.8b
	WORD $0x4e32c218 // smull2 v24.8h, v16.16b, v18.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e602b18 // saddlp v24.4s, v24.8h
	WORD $0x4eb8be94 // addp v20.4s, v20.4s, v24.4s
	WORD $0x0e33c235 // smull v21.8h, v17.8b, v19.8b
	WORD $0x4e33c239 // smull2 v25.8h, v17.16b, v19.16b
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4e602b39 // saddlp v25.4s, v25.8h
	WORD $0x4eb9beb5 // addp v21.4s, v21.4s, v25.4s
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971284 // fmla v4.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a5 // fmla v5.4s, v21.4s, v23.s[0]
	WORD $0x4cdfa0f2 // ld1 {v18.16b, v19.16b}, [x7], #32
	WORD $0xbc404557 // ldr s23, [x10], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c214 // smull v20.8h, v16.8b, v18.8b
	WORD $0x4e32c218 // smull2 v24.8h, v16.16b, v18.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e602b18 // saddlp v24.4s, v24.8h
	WORD $0x4eb8be94 // addp v20.4s, v20.4s, v24.4s
	WORD $0x0e33c235 // smull v21.8h, v17.8b, v19.8b
	WORD $0x4e33c239 // smull2 v25.8h, v17.16b, v19.16b
	WORD $0x4e602ab5 // saddlp v21.4s, v21.8h
	WORD $0x4e602b39 // saddlp v25.4s, v25.8h
	WORD $0x4eb9beb5 // addp v21.4s, v21.4s, v25.4s
	WORD $0x4e21da94 // scvtf v20.4s, v20.4s
	WORD $0x4e21dab5 // scvtf v21.4s, v21.4s
	WORD $0x4f971286 // fmla v6.4s, v20.4s, v23.s[0]
	WORD $0x4f9712a7 // fmla v7.4s, v21.4s, v23.s[0]
	SUBS $1, R3, R3
	BNE loop
	MOVD out+48(FP), R4
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S0.
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0xbd000080 // str s0, [x4, #0]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S2.
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x6e024043 // ext v3.16b, v2.16b, v2.16b, #8
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x7e30d842 // faddp s2, v2.2s
	WORD $0xbd000482 // str s2, [x4, #4]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S4.
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x6e044085 // ext v5.16b, v4.16b, v4.16b, #8
	WORD $0x4e25d484 // fadd v4.4s, v4.4s, v5.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0xbd000884 // str s4, [x4, #8]
	// hsum8: ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)) into S6.
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x6e0640c7 // ext v7.16b, v6.16b, v6.16b, #8
	WORD $0x4e27d4c6 // fadd v6.4s, v6.4s, v7.4s
	WORD $0x7e30d8c6 // faddp s6, v6.2s
	WORD $0xbd000c86 // str s6, [x4, #12]
	RET

// func dotQ4_0x4SDOT(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ4_0x4SDOT(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R3
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	LSL $2, R12
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// acc of position p in S(p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0xbc404457 // ldr s23, [x2], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929634 // sdot v20.4s, v17.16b, v18.16b
	WORD $0x4e939614 // sdot v20.4s, v16.16b, v19.16b
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170280 // fmadd s0, s20, s23, s0
	WORD $0x4cdfa0b2 // ld1 {v18.16b, v19.16b}, [x5], #32
	WORD $0xbc404517 // ldr s23, [x8], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929634 // sdot v20.4s, v17.16b, v18.16b
	WORD $0x4e939614 // sdot v20.4s, v16.16b, v19.16b
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170681 // fmadd s1, s20, s23, s1
	WORD $0x4cdfa0d2 // ld1 {v18.16b, v19.16b}, [x6], #32
	WORD $0xbc404537 // ldr s23, [x9], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929634 // sdot v20.4s, v17.16b, v18.16b
	WORD $0x4e939614 // sdot v20.4s, v16.16b, v19.16b
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170a82 // fmadd s2, s20, s23, s2
	WORD $0x4cdfa0f2 // ld1 {v18.16b, v19.16b}, [x7], #32
	WORD $0xbc404557 // ldr s23, [x10], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4e929634 // sdot v20.4s, v17.16b, v18.16b
	WORD $0x4e939614 // sdot v20.4s, v16.16b, v19.16b
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170e83 // fmadd s3, s20, s23, s3
	SUBS $1, R3, R3
	BNE loop
	MOVD out+48(FP), R4
	WORD $0xbd000080 // str s0, [x4, #0]
	WORD $0xbd000481 // str s1, [x4, #4]
	WORD $0xbd000882 // str s2, [x4, #8]
	WORD $0xbd000c83 // str s3, [x4, #12]
	RET

// func dotQ4_0x4NEON(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ4_0x4NEON(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD y+8(FP), R1
	MOVD ystride+16(FP), R11
	MOVD d+24(FP), R2
	MOVD dstride+32(FP), R12
	MOVD nb+40(FP), R3
	// Position p: activations at R1, R5, R6, R7; scales at R2, R8, R9, R10.
	ADD R11, R1, R5
	ADD R11, R5, R6
	ADD R11, R6, R7
	LSL $2, R12
	ADD R12, R2, R8
	ADD R12, R8, R9
	ADD R12, R9, R10
	// acc of position p in S(p).
	WORD $0x4f00e5fe // movi v30.16b, #15
	WORD $0x4f00e51f // movi v31.16b, #8
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
loop:
	WORD $0x7c402416 // ldr h22, [x0], #2
	WORD $0x4cdf7010 // ld1 {v16.16b}, [x0], #16
	WORD $0x1ee242d6 // fcvt s22, h22
	WORD $0x4e3e1e11 // and v17.16b, v16.16b, v30.16b
	WORD $0x6f0c0610 // ushr v16.16b, v16.16b, #4
	WORD $0x6e3f8631 // sub v17.16b, v17.16b, v31.16b
	WORD $0x6e3f8610 // sub v16.16b, v16.16b, v31.16b
	WORD $0x4cdfa032 // ld1 {v18.16b, v19.16b}, [x1], #32
	WORD $0xbc404457 // ldr s23, [x2], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c234 // smull v20.8h, v17.8b, v18.8b
	WORD $0x4e32c235 // smull2 v21.8h, v17.16b, v18.16b
	WORD $0x0e338214 // smlal v20.8h, v16.8b, v19.8b
	WORD $0x4e338215 // smlal2 v21.8h, v16.16b, v19.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e606ab4 // sadalp v20.4s, v21.8h
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170280 // fmadd s0, s20, s23, s0
	WORD $0x4cdfa0b2 // ld1 {v18.16b, v19.16b}, [x5], #32
	WORD $0xbc404517 // ldr s23, [x8], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c234 // smull v20.8h, v17.8b, v18.8b
	WORD $0x4e32c235 // smull2 v21.8h, v17.16b, v18.16b
	WORD $0x0e338214 // smlal v20.8h, v16.8b, v19.8b
	WORD $0x4e338215 // smlal2 v21.8h, v16.16b, v19.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e606ab4 // sadalp v20.4s, v21.8h
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170681 // fmadd s1, s20, s23, s1
	WORD $0x4cdfa0d2 // ld1 {v18.16b, v19.16b}, [x6], #32
	WORD $0xbc404537 // ldr s23, [x9], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c234 // smull v20.8h, v17.8b, v18.8b
	WORD $0x4e32c235 // smull2 v21.8h, v17.16b, v18.16b
	WORD $0x0e338214 // smlal v20.8h, v16.8b, v19.8b
	WORD $0x4e338215 // smlal2 v21.8h, v16.16b, v19.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e606ab4 // sadalp v20.4s, v21.8h
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170a82 // fmadd s2, s20, s23, s2
	WORD $0x4cdfa0f2 // ld1 {v18.16b, v19.16b}, [x7], #32
	WORD $0xbc404557 // ldr s23, [x10], #4
	WORD $0x1e370ad7 // fmul s23, s22, s23
	WORD $0x0e32c234 // smull v20.8h, v17.8b, v18.8b
	WORD $0x4e32c235 // smull2 v21.8h, v17.16b, v18.16b
	WORD $0x0e338214 // smlal v20.8h, v16.8b, v19.8b
	WORD $0x4e338215 // smlal2 v21.8h, v16.16b, v19.16b
	WORD $0x4e602a94 // saddlp v20.4s, v20.8h
	WORD $0x4e606ab4 // sadalp v20.4s, v21.8h
	WORD $0x4eb1ba94 // addv s20, v20.4s
	WORD $0x5e21da94 // scvtf s20, s20
	WORD $0x1f170e83 // fmadd s3, s20, s23, s3
	SUBS $1, R3, R3
	BNE loop
	MOVD out+48(FP), R4
	WORD $0xbd000080 // str s0, [x4, #0]
	WORD $0xbd000481 // str s1, [x4, #4]
	WORD $0xbd000882 // str s2, [x4, #8]
	WORD $0xbd000c83 // str s3, [x4, #12]
	RET

//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for BF16 weights in llama.cpp's two orders (bf16order.go).
// A bf16 pair (elements 2i, 2i+1) is one 32-bit lane: the odd element
// widened is the lane AND 0xffff0000, the even one the lane shifted left
// by 16, and each lane adds the odd product, then the even one, each
// product and sum rounded (FMUL, FADD: never fused). The kernels run with
// FPCR.FZ set, which flushes subnormal inputs to zeros of their sign, as
// the Go kernels' bf16DAZ does, and results that are tiny before rounding,
// setting FPSR.UFC. They return UFC: where it is clear, no product or sum
// was tiny, so every one is the Go kernels' (whose ftz then changes
// nothing). A flagged call (a tiny product, or a sum that would have been
// subnormal) is recomputed by the Go kernels. FPCR and FPSR are restored
// on return (an assembly function is never preempted asynchronously, so
// it runs on one thread throughout). Each WORD is the instruction in its
// comment.

// func bf16StepNEON(w *byte, rs int, x *uint16, n int, rows int, out *[16][2]float32) int
// The one-position order for rows 1..16 rows rs bytes apart and n > 0, a
// multiple of 64: out[k] = the two accumulators of row k, each reduced
// (finishBF16Sums adds them and the tail). Two rows at a time share the
// widened activations; an odd last row is computed twice (into out[k+1],
// unused). Registers: V0-V7 row A (V0-V3 elements [0,32) of each 64, V4-V7
// [32,64)), V8-V15 row B, V16 the mask, V17-V20 the activations' even
// elements, V21-V24 the odd ones, V25-V28 weights, V29 a product.
TEXT ·bf16StepNEON(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R1
	MOVD x+16(FP), R2
	MOVD n+24(FP), R3
	MOVD rows+32(FP), R4
	MOVD out+40(FP), R5
	MOVD FPCR, R10
	MOVD FPSR, R11
	ORR $(1<<24), R10, R12 // FZ
	MOVD R12, FPCR
	MOVD ZR, FPSR
	WORD $0x6f07c7f0 // mvni v16.4s, #0xff, msl #8
steprows:
	MOVD R0, R6
	ADD R1, R0, R7
	CMP $2, R4
	CSEL LT, R6, R7, R7 // one row left: compute it twice
	MOVD R2, R8
	MOVD R3, R9
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
steploop:
	WORD $0x4cdf2511 // ld1 {v17.8h, v18.8h, v19.8h, v20.8h}, [x8], #64
	WORD $0x4e301e35 // and v21.16b, v17.16b, v16.16b
	WORD $0x4f305631 // shl v17.4s, v17.4s, #16
	WORD $0x4e301e56 // and v22.16b, v18.16b, v16.16b
	WORD $0x4f305652 // shl v18.4s, v18.4s, #16
	WORD $0x4e301e77 // and v23.16b, v19.16b, v16.16b
	WORD $0x4f305673 // shl v19.4s, v19.4s, #16
	WORD $0x4e301e98 // and v24.16b, v20.16b, v16.16b
	WORD $0x4f305694 // shl v20.4s, v20.4s, #16
	WORD $0x4cdf24d9 // ld1 {v25.8h, v26.8h, v27.8h, v28.8h}, [x6], #64
	WORD $0x4e301f3d // and v29.16b, v25.16b, v16.16b
	WORD $0x4f305739 // shl v25.4s, v25.4s, #16
	WORD $0x6e35dfbd // fmul v29.4s, v29.4s, v21.4s
	WORD $0x6e31df39 // fmul v25.4s, v25.4s, v17.4s
	WORD $0x4e3dd400 // fadd v0.4s, v0.4s, v29.4s
	WORD $0x4e39d400 // fadd v0.4s, v0.4s, v25.4s
	WORD $0x4e301f5d // and v29.16b, v26.16b, v16.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x6e36dfbd // fmul v29.4s, v29.4s, v22.4s
	WORD $0x6e32df5a // fmul v26.4s, v26.4s, v18.4s
	WORD $0x4e3dd421 // fadd v1.4s, v1.4s, v29.4s
	WORD $0x4e3ad421 // fadd v1.4s, v1.4s, v26.4s
	WORD $0x4e301f7d // and v29.16b, v27.16b, v16.16b
	WORD $0x4f30577b // shl v27.4s, v27.4s, #16
	WORD $0x6e37dfbd // fmul v29.4s, v29.4s, v23.4s
	WORD $0x6e33df7b // fmul v27.4s, v27.4s, v19.4s
	WORD $0x4e3dd442 // fadd v2.4s, v2.4s, v29.4s
	WORD $0x4e3bd442 // fadd v2.4s, v2.4s, v27.4s
	WORD $0x4e301f9d // and v29.16b, v28.16b, v16.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x6e38dfbd // fmul v29.4s, v29.4s, v24.4s
	WORD $0x6e34df9c // fmul v28.4s, v28.4s, v20.4s
	WORD $0x4e3dd463 // fadd v3.4s, v3.4s, v29.4s
	WORD $0x4e3cd463 // fadd v3.4s, v3.4s, v28.4s
	WORD $0x4cdf24f9 // ld1 {v25.8h, v26.8h, v27.8h, v28.8h}, [x7], #64
	WORD $0x4e301f3d // and v29.16b, v25.16b, v16.16b
	WORD $0x4f305739 // shl v25.4s, v25.4s, #16
	WORD $0x6e35dfbd // fmul v29.4s, v29.4s, v21.4s
	WORD $0x6e31df39 // fmul v25.4s, v25.4s, v17.4s
	WORD $0x4e3dd508 // fadd v8.4s, v8.4s, v29.4s
	WORD $0x4e39d508 // fadd v8.4s, v8.4s, v25.4s
	WORD $0x4e301f5d // and v29.16b, v26.16b, v16.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x6e36dfbd // fmul v29.4s, v29.4s, v22.4s
	WORD $0x6e32df5a // fmul v26.4s, v26.4s, v18.4s
	WORD $0x4e3dd529 // fadd v9.4s, v9.4s, v29.4s
	WORD $0x4e3ad529 // fadd v9.4s, v9.4s, v26.4s
	WORD $0x4e301f7d // and v29.16b, v27.16b, v16.16b
	WORD $0x4f30577b // shl v27.4s, v27.4s, #16
	WORD $0x6e37dfbd // fmul v29.4s, v29.4s, v23.4s
	WORD $0x6e33df7b // fmul v27.4s, v27.4s, v19.4s
	WORD $0x4e3dd54a // fadd v10.4s, v10.4s, v29.4s
	WORD $0x4e3bd54a // fadd v10.4s, v10.4s, v27.4s
	WORD $0x4e301f9d // and v29.16b, v28.16b, v16.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x6e38dfbd // fmul v29.4s, v29.4s, v24.4s
	WORD $0x6e34df9c // fmul v28.4s, v28.4s, v20.4s
	WORD $0x4e3dd56b // fadd v11.4s, v11.4s, v29.4s
	WORD $0x4e3cd56b // fadd v11.4s, v11.4s, v28.4s
	WORD $0x4cdf2511 // ld1 {v17.8h, v18.8h, v19.8h, v20.8h}, [x8], #64
	WORD $0x4e301e35 // and v21.16b, v17.16b, v16.16b
	WORD $0x4f305631 // shl v17.4s, v17.4s, #16
	WORD $0x4e301e56 // and v22.16b, v18.16b, v16.16b
	WORD $0x4f305652 // shl v18.4s, v18.4s, #16
	WORD $0x4e301e77 // and v23.16b, v19.16b, v16.16b
	WORD $0x4f305673 // shl v19.4s, v19.4s, #16
	WORD $0x4e301e98 // and v24.16b, v20.16b, v16.16b
	WORD $0x4f305694 // shl v20.4s, v20.4s, #16
	WORD $0x4cdf24d9 // ld1 {v25.8h, v26.8h, v27.8h, v28.8h}, [x6], #64
	WORD $0x4e301f3d // and v29.16b, v25.16b, v16.16b
	WORD $0x4f305739 // shl v25.4s, v25.4s, #16
	WORD $0x6e35dfbd // fmul v29.4s, v29.4s, v21.4s
	WORD $0x6e31df39 // fmul v25.4s, v25.4s, v17.4s
	WORD $0x4e3dd484 // fadd v4.4s, v4.4s, v29.4s
	WORD $0x4e39d484 // fadd v4.4s, v4.4s, v25.4s
	WORD $0x4e301f5d // and v29.16b, v26.16b, v16.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x6e36dfbd // fmul v29.4s, v29.4s, v22.4s
	WORD $0x6e32df5a // fmul v26.4s, v26.4s, v18.4s
	WORD $0x4e3dd4a5 // fadd v5.4s, v5.4s, v29.4s
	WORD $0x4e3ad4a5 // fadd v5.4s, v5.4s, v26.4s
	WORD $0x4e301f7d // and v29.16b, v27.16b, v16.16b
	WORD $0x4f30577b // shl v27.4s, v27.4s, #16
	WORD $0x6e37dfbd // fmul v29.4s, v29.4s, v23.4s
	WORD $0x6e33df7b // fmul v27.4s, v27.4s, v19.4s
	WORD $0x4e3dd4c6 // fadd v6.4s, v6.4s, v29.4s
	WORD $0x4e3bd4c6 // fadd v6.4s, v6.4s, v27.4s
	WORD $0x4e301f9d // and v29.16b, v28.16b, v16.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x6e38dfbd // fmul v29.4s, v29.4s, v24.4s
	WORD $0x6e34df9c // fmul v28.4s, v28.4s, v20.4s
	WORD $0x4e3dd4e7 // fadd v7.4s, v7.4s, v29.4s
	WORD $0x4e3cd4e7 // fadd v7.4s, v7.4s, v28.4s
	WORD $0x4cdf24f9 // ld1 {v25.8h, v26.8h, v27.8h, v28.8h}, [x7], #64
	WORD $0x4e301f3d // and v29.16b, v25.16b, v16.16b
	WORD $0x4f305739 // shl v25.4s, v25.4s, #16
	WORD $0x6e35dfbd // fmul v29.4s, v29.4s, v21.4s
	WORD $0x6e31df39 // fmul v25.4s, v25.4s, v17.4s
	WORD $0x4e3dd58c // fadd v12.4s, v12.4s, v29.4s
	WORD $0x4e39d58c // fadd v12.4s, v12.4s, v25.4s
	WORD $0x4e301f5d // and v29.16b, v26.16b, v16.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x6e36dfbd // fmul v29.4s, v29.4s, v22.4s
	WORD $0x6e32df5a // fmul v26.4s, v26.4s, v18.4s
	WORD $0x4e3dd5ad // fadd v13.4s, v13.4s, v29.4s
	WORD $0x4e3ad5ad // fadd v13.4s, v13.4s, v26.4s
	WORD $0x4e301f7d // and v29.16b, v27.16b, v16.16b
	WORD $0x4f30577b // shl v27.4s, v27.4s, #16
	WORD $0x6e37dfbd // fmul v29.4s, v29.4s, v23.4s
	WORD $0x6e33df7b // fmul v27.4s, v27.4s, v19.4s
	WORD $0x4e3dd5ce // fadd v14.4s, v14.4s, v29.4s
	WORD $0x4e3bd5ce // fadd v14.4s, v14.4s, v27.4s
	WORD $0x4e301f9d // and v29.16b, v28.16b, v16.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x6e38dfbd // fmul v29.4s, v29.4s, v24.4s
	WORD $0x6e34df9c // fmul v28.4s, v28.4s, v20.4s
	WORD $0x4e3dd5ef // fadd v15.4s, v15.4s, v29.4s
	WORD $0x4e3cd5ef // fadd v15.4s, v15.4s, v28.4s
	SUBS $64, R9, R9
	BNE steploop
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e20d420 // fadd v0.4s, v1.4s, v0.4s
	WORD $0x6e00401d // ext v29.16b, v0.16b, v0.16b, #8
	WORD $0x4e3dd400 // fadd v0.4s, v0.4s, v29.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x4e26d484 // fadd v4.4s, v4.4s, v6.4s
	WORD $0x4e27d4a5 // fadd v5.4s, v5.4s, v7.4s
	WORD $0x4e24d4a4 // fadd v4.4s, v5.4s, v4.4s
	WORD $0x6e04409d // ext v29.16b, v4.16b, v4.16b, #8
	WORD $0x4e3dd484 // fadd v4.4s, v4.4s, v29.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x4e2ad508 // fadd v8.4s, v8.4s, v10.4s
	WORD $0x4e2bd529 // fadd v9.4s, v9.4s, v11.4s
	WORD $0x4e28d528 // fadd v8.4s, v9.4s, v8.4s
	WORD $0x6e08411d // ext v29.16b, v8.16b, v8.16b, #8
	WORD $0x4e3dd508 // fadd v8.4s, v8.4s, v29.4s
	WORD $0x7e30d908 // faddp s8, v8.2s
	WORD $0x4e2ed58c // fadd v12.4s, v12.4s, v14.4s
	WORD $0x4e2fd5ad // fadd v13.4s, v13.4s, v15.4s
	WORD $0x4e2cd5ac // fadd v12.4s, v13.4s, v12.4s
	WORD $0x6e0c419d // ext v29.16b, v12.16b, v12.16b, #8
	WORD $0x4e3dd58c // fadd v12.4s, v12.4s, v29.4s
	WORD $0x7e30d98c // faddp s12, v12.2s
	FMOVS F0, (R5)
	FMOVS F4, 4(R5)
	FMOVS F8, 8(R5)
	FMOVS F12, 12(R5)
	ADD $16, R5, R5
	ADD R1<<1, R0, R0
	SUBS $2, R4, R4
	BGT steprows
	MOVD FPSR, R12
	MOVD R10, FPCR
	MOVD R11, FPSR
	AND $0x08, R12, R12 // UFC
	MOVD R12, ret+48(FP)
	RET

// func bf16ManyNEON(w *byte, rs int, rows int, x *uint16, xs int, k int, n int, out *float32, os int) int
// The several-position order for rows 1..16 rows rs bytes apart and k
// positions xs bytes apart, n > 0 a multiple of 32: out[p*os+r] for row r,
// position p. Register tiles of two rows × three positions, positions in
// the outer loop (their activations stay in L1 while the rows stream by);
// an odd last row or a short last group of positions repeats a row or a
// position, whose results are not stored. Registers: V0-V23 the six
// accumulators (four vectors each: A p0, B p0, A p1, B p1, A p2, B p2),
// V24 the mask, V25/V26 row A's odd/even weights, V27/V28 row B's,
// V29/V30 an activation's even/odd elements, V31 a product.
TEXT ·bf16ManyNEON(SB), NOSPLIT, $0-80
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
	MOVD FPCR, R19
	MOVD FPSR, R20
	ORR $(1<<24), R19, R21 // FZ
	MOVD R21, FPCR
	MOVD ZR, FPSR
	WORD $0x6f07c7f8 // mvni v24.4s, #0xff, msl #8
	MOVD $0, R24 // p
manypos:
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
manyrows:
	MUL R25, R1, R21
	ADD R0, R21, R10 // row A
	ADD R1, R10, R11
	ADD $1, R25, R21
	CMP R2, R21
	CSEL LT, R11, R10, R11 // row B, or A past the last row
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
manyloop:
	WORD $0x4cdf755a // ld1 {v26.8h}, [x10], #16
	WORD $0x4e381f59 // and v25.16b, v26.16b, v24.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x4cdf757c // ld1 {v28.8h}, [x11], #16
	WORD $0x4e381f9b // and v27.16b, v28.16b, v24.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x4cdf76bd // ld1 {v29.8h}, [x21], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd400 // fadd v0.4s, v0.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd400 // fadd v0.4s, v0.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd484 // fadd v4.4s, v4.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd484 // fadd v4.4s, v4.4s, v31.4s
	WORD $0x4cdf76dd // ld1 {v29.8h}, [x22], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd508 // fadd v8.4s, v8.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd508 // fadd v8.4s, v8.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd58c // fadd v12.4s, v12.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd58c // fadd v12.4s, v12.4s, v31.4s
	WORD $0x4cdf76fd // ld1 {v29.8h}, [x23], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd610 // fadd v16.4s, v16.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd610 // fadd v16.4s, v16.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd694 // fadd v20.4s, v20.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd694 // fadd v20.4s, v20.4s, v31.4s
	WORD $0x4cdf755a // ld1 {v26.8h}, [x10], #16
	WORD $0x4e381f59 // and v25.16b, v26.16b, v24.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x4cdf757c // ld1 {v28.8h}, [x11], #16
	WORD $0x4e381f9b // and v27.16b, v28.16b, v24.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x4cdf76bd // ld1 {v29.8h}, [x21], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd421 // fadd v1.4s, v1.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd421 // fadd v1.4s, v1.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd4a5 // fadd v5.4s, v5.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd4a5 // fadd v5.4s, v5.4s, v31.4s
	WORD $0x4cdf76dd // ld1 {v29.8h}, [x22], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd529 // fadd v9.4s, v9.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd529 // fadd v9.4s, v9.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd5ad // fadd v13.4s, v13.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd5ad // fadd v13.4s, v13.4s, v31.4s
	WORD $0x4cdf76fd // ld1 {v29.8h}, [x23], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd631 // fadd v17.4s, v17.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd631 // fadd v17.4s, v17.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd6b5 // fadd v21.4s, v21.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd6b5 // fadd v21.4s, v21.4s, v31.4s
	WORD $0x4cdf755a // ld1 {v26.8h}, [x10], #16
	WORD $0x4e381f59 // and v25.16b, v26.16b, v24.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x4cdf757c // ld1 {v28.8h}, [x11], #16
	WORD $0x4e381f9b // and v27.16b, v28.16b, v24.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x4cdf76bd // ld1 {v29.8h}, [x21], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd442 // fadd v2.4s, v2.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd442 // fadd v2.4s, v2.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd4c6 // fadd v6.4s, v6.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd4c6 // fadd v6.4s, v6.4s, v31.4s
	WORD $0x4cdf76dd // ld1 {v29.8h}, [x22], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd54a // fadd v10.4s, v10.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd54a // fadd v10.4s, v10.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd5ce // fadd v14.4s, v14.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd5ce // fadd v14.4s, v14.4s, v31.4s
	WORD $0x4cdf76fd // ld1 {v29.8h}, [x23], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd652 // fadd v18.4s, v18.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd652 // fadd v18.4s, v18.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd6d6 // fadd v22.4s, v22.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd6d6 // fadd v22.4s, v22.4s, v31.4s
	WORD $0x4cdf755a // ld1 {v26.8h}, [x10], #16
	WORD $0x4e381f59 // and v25.16b, v26.16b, v24.16b
	WORD $0x4f30575a // shl v26.4s, v26.4s, #16
	WORD $0x4cdf757c // ld1 {v28.8h}, [x11], #16
	WORD $0x4e381f9b // and v27.16b, v28.16b, v24.16b
	WORD $0x4f30579c // shl v28.4s, v28.4s, #16
	WORD $0x4cdf76bd // ld1 {v29.8h}, [x21], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd463 // fadd v3.4s, v3.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd463 // fadd v3.4s, v3.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd4e7 // fadd v7.4s, v7.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd4e7 // fadd v7.4s, v7.4s, v31.4s
	WORD $0x4cdf76dd // ld1 {v29.8h}, [x22], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd56b // fadd v11.4s, v11.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd56b // fadd v11.4s, v11.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd5ef // fadd v15.4s, v15.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd5ef // fadd v15.4s, v15.4s, v31.4s
	WORD $0x4cdf76fd // ld1 {v29.8h}, [x23], #16
	WORD $0x4e381fbe // and v30.16b, v29.16b, v24.16b
	WORD $0x4f3057bd // shl v29.4s, v29.4s, #16
	WORD $0x6e3edf3f // fmul v31.4s, v25.4s, v30.4s
	WORD $0x4e3fd673 // fadd v19.4s, v19.4s, v31.4s
	WORD $0x6e3ddf5f // fmul v31.4s, v26.4s, v29.4s
	WORD $0x4e3fd673 // fadd v19.4s, v19.4s, v31.4s
	WORD $0x6e3edf7f // fmul v31.4s, v27.4s, v30.4s
	WORD $0x4e3fd6f7 // fadd v23.4s, v23.4s, v31.4s
	WORD $0x6e3ddf9f // fmul v31.4s, v28.4s, v29.4s
	WORD $0x4e3fd6f7 // fadd v23.4s, v23.4s, v31.4s
	SUBS $32, R15, R15
	BNE manyloop
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e20d420 // fadd v0.4s, v1.4s, v0.4s
	WORD $0x6e00401f // ext v31.16b, v0.16b, v0.16b, #8
	WORD $0x4e3fd400 // fadd v0.4s, v0.4s, v31.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x4e26d484 // fadd v4.4s, v4.4s, v6.4s
	WORD $0x4e27d4a5 // fadd v5.4s, v5.4s, v7.4s
	WORD $0x4e24d4a4 // fadd v4.4s, v5.4s, v4.4s
	WORD $0x6e04409f // ext v31.16b, v4.16b, v4.16b, #8
	WORD $0x4e3fd484 // fadd v4.4s, v4.4s, v31.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x4e2ad508 // fadd v8.4s, v8.4s, v10.4s
	WORD $0x4e2bd529 // fadd v9.4s, v9.4s, v11.4s
	WORD $0x4e28d528 // fadd v8.4s, v9.4s, v8.4s
	WORD $0x6e08411f // ext v31.16b, v8.16b, v8.16b, #8
	WORD $0x4e3fd508 // fadd v8.4s, v8.4s, v31.4s
	WORD $0x7e30d908 // faddp s8, v8.2s
	WORD $0x4e2ed58c // fadd v12.4s, v12.4s, v14.4s
	WORD $0x4e2fd5ad // fadd v13.4s, v13.4s, v15.4s
	WORD $0x4e2cd5ac // fadd v12.4s, v13.4s, v12.4s
	WORD $0x6e0c419f // ext v31.16b, v12.16b, v12.16b, #8
	WORD $0x4e3fd58c // fadd v12.4s, v12.4s, v31.4s
	WORD $0x7e30d98c // faddp s12, v12.2s
	WORD $0x4e32d610 // fadd v16.4s, v16.4s, v18.4s
	WORD $0x4e33d631 // fadd v17.4s, v17.4s, v19.4s
	WORD $0x4e30d630 // fadd v16.4s, v17.4s, v16.4s
	WORD $0x6e10421f // ext v31.16b, v16.16b, v16.16b, #8
	WORD $0x4e3fd610 // fadd v16.4s, v16.4s, v31.4s
	WORD $0x7e30da10 // faddp s16, v16.2s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e34d6b4 // fadd v20.4s, v21.4s, v20.4s
	WORD $0x6e14429f // ext v31.16b, v20.16b, v20.16b, #8
	WORD $0x4e3fd694 // fadd v20.4s, v20.4s, v31.4s
	WORD $0x7e30da94 // faddp s20, v20.2s
	// Stores: row A of position p always; B where r+1 < rows; p+1, p+2
	// where they are positions.
	MUL R24, R8, R21
	ADD R21, R7, R21
	ADD R25<<2, R21, R21 // &out[p*os+r]
	ADD $1, R25, R22
	CMP R2, R22
	CSET LT, R22 // row B is a row
	FMOVS F0, (R21)
	CBZ R22, 2(PC)
	FMOVS F4, 4(R21)
	ADD $1, R24, R23
	CMP R5, R23
	BGE manystored
	ADD R8, R21, R21
	FMOVS F8, (R21)
	CBZ R22, 2(PC)
	FMOVS F12, 4(R21)
	ADD $2, R24, R23
	CMP R5, R23
	BGE manystored
	ADD R8, R21, R21
	FMOVS F16, (R21)
	CBZ R22, 2(PC)
	FMOVS F20, 4(R21)
manystored:
	ADD $2, R25, R25
	CMP R2, R25
	BLT manyrows
	ADD $3, R24, R24
	CMP R5, R24
	BLT manypos
	MOVD FPSR, R21
	MOVD R19, FPCR
	MOVD R20, FPSR
	AND $0x08, R21, R21 // UFC
	MOVD R21, ret+72(FP)
	RET

// func bf16ManyFNEON(w *byte, rs int, rows int, xf *float32, xs int, k int, n int, xrange int, out *float32, os int) int
// The several-position order as bf16ManyNEON computes it, for the
// activations widened in splitBF16's order (xf, positions xs bytes apart;
// per 16 elements the 8 odd ones, then the 8 even ones) with one fused
// multiply-add per product, where that rounds as the separate multiply and
// add do: where every product of a weight and an activation is exact in
// float32. A first pass takes the weights' exponent range (as splitBF16
// gives the activations', xrange): every product of nonzero normal values
// is exact if the smallest exponents add up to at least 128 (no product
// below 2^-126) and the largest to at most 380 (none at 2^128 or above);
// zeros and flushed subnormals give zero products either way, and Inf or
// NaN give Inf or NaN either way. Where that fails it returns 2 at once
// (the caller runs bf16ManyNEON); otherwise FPSR.UFC as bf16ManyNEON.
// Register tiles of two rows × two positions, positions in the outer
// loop. Registers: V0-V15 the four accumulators (A p0, B p0, A p1, B p1),
// V16-V19 row A's even (V16, V17) and odd (V18, V19) weights of 16
// elements, V20-V23 row B's, V24-V27 16 activations (odd, then even),
// V28 the mask.
TEXT ·bf16ManyFNEON(SB), NOSPLIT, $0-88
	MOVD w+0(FP), R0
	MOVD rs+8(FP), R1
	MOVD rows+16(FP), R2
	MOVD xf+24(FP), R3
	MOVD xs+32(FP), R4
	MOVD k+40(FP), R5
	MOVD n+48(FP), R6
	MOVD out+64(FP), R7
	MOVD os+72(FP), R8
	LSL $2, R8, R8 // bytes between positions in out
	// The weights' exponent range: V20 the largest, V21 the smallest
	// nonzero minus one (0 - 1 wraps to 0xffff, above them all).
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4f07e7f5 // movi v21.16b, #0xff
	WORD $0x4f008436 // movi v22.8h, #1
	MOVD R0, R10
	MOVD R2, R11
rangerows:
	MOVD R10, R12
	MOVD R6, R13
rangeloop:
	WORD $0x4cdf2590 // ld1 {v16.8h, v17.8h, v18.8h, v19.8h}, [x12], #64
	WORD $0x6f190617 // ushr v23.8h, v16.8h, #7
	WORD $0x6f00b437 // bic v23.8h, #1, lsl #8
	WORD $0x6e776694 // umax v20.8h, v20.8h, v23.8h
	WORD $0x6e7686f7 // sub v23.8h, v23.8h, v22.8h
	WORD $0x6e776eb5 // umin v21.8h, v21.8h, v23.8h
	WORD $0x6f190637 // ushr v23.8h, v17.8h, #7
	WORD $0x6f00b437 // bic v23.8h, #1, lsl #8
	WORD $0x6e776694 // umax v20.8h, v20.8h, v23.8h
	WORD $0x6e7686f7 // sub v23.8h, v23.8h, v22.8h
	WORD $0x6e776eb5 // umin v21.8h, v21.8h, v23.8h
	WORD $0x6f190657 // ushr v23.8h, v18.8h, #7
	WORD $0x6f00b437 // bic v23.8h, #1, lsl #8
	WORD $0x6e776694 // umax v20.8h, v20.8h, v23.8h
	WORD $0x6e7686f7 // sub v23.8h, v23.8h, v22.8h
	WORD $0x6e776eb5 // umin v21.8h, v21.8h, v23.8h
	WORD $0x6f190677 // ushr v23.8h, v19.8h, #7
	WORD $0x6f00b437 // bic v23.8h, #1, lsl #8
	WORD $0x6e776694 // umax v20.8h, v20.8h, v23.8h
	WORD $0x6e7686f7 // sub v23.8h, v23.8h, v22.8h
	WORD $0x6e776eb5 // umin v21.8h, v21.8h, v23.8h
	SUBS $32, R13, R13
	BNE rangeloop
	ADD R1, R10, R10
	SUBS $1, R11, R11
	BNE rangerows
	WORD $0x6e70aa94 // umaxv h20, v20.8h
	WORD $0x6e71aab5 // uminv h21, v21.8h
	WORD $0x1e26028e // fmov w14, s20
	WORD $0x1e2602af // fmov w15, s21
	MOVD xrange+56(FP), R12
	LSR $16, R12, R13 // the activations' smallest nonzero exponent minus one
	AND $0xffff, R12, R12 // their largest
	ADD R13, R15, R15
	CMP $126, R15
	BLT inexact
	ADD R12, R14, R14
	CMP $380, R14
	BGT inexact
	MOVD FPCR, R19
	MOVD FPSR, R20
	ORR $(1<<24), R19, R21 // FZ
	MOVD R21, FPCR
	MOVD ZR, FPSR
	WORD $0x6f07c7fc // mvni v28.4s, #0xff, msl #8
	MOVD $0, R24 // p
fpos:
	MUL R24, R4, R21
	ADD R3, R21, R12 // x0
	ADD R4, R12, R13
	ADD $1, R24, R21
	CMP R5, R21
	CSEL LT, R13, R12, R13 // x1, or x0 past the last position
	MOVD $0, R25 // r
frows:
	MUL R25, R1, R21
	ADD R0, R21, R10 // row A
	ADD R1, R10, R11
	ADD $1, R25, R21
	CMP R2, R21
	CSEL LT, R11, R10, R11 // row B, or A past the last row
	MOVD R12, R21
	MOVD R13, R22
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
floop:
	WORD $0x4cdfa550 // ld1 {v16.8h, v17.8h}, [x10], #32
	WORD $0x4e3c1e12 // and v18.16b, v16.16b, v28.16b
	WORD $0x4e3c1e33 // and v19.16b, v17.16b, v28.16b
	WORD $0x4f305610 // shl v16.4s, v16.4s, #16
	WORD $0x4f305631 // shl v17.4s, v17.4s, #16
	WORD $0x4cdfa574 // ld1 {v20.8h, v21.8h}, [x11], #32
	WORD $0x4e3c1e96 // and v22.16b, v20.16b, v28.16b
	WORD $0x4e3c1eb7 // and v23.16b, v21.16b, v28.16b
	WORD $0x4f305694 // shl v20.4s, v20.4s, #16
	WORD $0x4f3056b5 // shl v21.4s, v21.4s, #16
	WORD $0x4cdf2ab8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x21], #64
	WORD $0x4e38ce40 // fmla v0.4s, v18.4s, v24.4s
	WORD $0x4e3ace00 // fmla v0.4s, v16.4s, v26.4s
	WORD $0x4e39ce61 // fmla v1.4s, v19.4s, v25.4s
	WORD $0x4e3bce21 // fmla v1.4s, v17.4s, v27.4s
	WORD $0x4e38cec4 // fmla v4.4s, v22.4s, v24.4s
	WORD $0x4e3ace84 // fmla v4.4s, v20.4s, v26.4s
	WORD $0x4e39cee5 // fmla v5.4s, v23.4s, v25.4s
	WORD $0x4e3bcea5 // fmla v5.4s, v21.4s, v27.4s
	WORD $0x4cdf2ad8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x22], #64
	WORD $0x4e38ce48 // fmla v8.4s, v18.4s, v24.4s
	WORD $0x4e3ace08 // fmla v8.4s, v16.4s, v26.4s
	WORD $0x4e39ce69 // fmla v9.4s, v19.4s, v25.4s
	WORD $0x4e3bce29 // fmla v9.4s, v17.4s, v27.4s
	WORD $0x4e38cecc // fmla v12.4s, v22.4s, v24.4s
	WORD $0x4e3ace8c // fmla v12.4s, v20.4s, v26.4s
	WORD $0x4e39ceed // fmla v13.4s, v23.4s, v25.4s
	WORD $0x4e3bcead // fmla v13.4s, v21.4s, v27.4s
	WORD $0x4cdfa550 // ld1 {v16.8h, v17.8h}, [x10], #32
	WORD $0x4e3c1e12 // and v18.16b, v16.16b, v28.16b
	WORD $0x4e3c1e33 // and v19.16b, v17.16b, v28.16b
	WORD $0x4f305610 // shl v16.4s, v16.4s, #16
	WORD $0x4f305631 // shl v17.4s, v17.4s, #16
	WORD $0x4cdfa574 // ld1 {v20.8h, v21.8h}, [x11], #32
	WORD $0x4e3c1e96 // and v22.16b, v20.16b, v28.16b
	WORD $0x4e3c1eb7 // and v23.16b, v21.16b, v28.16b
	WORD $0x4f305694 // shl v20.4s, v20.4s, #16
	WORD $0x4f3056b5 // shl v21.4s, v21.4s, #16
	WORD $0x4cdf2ab8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x21], #64
	WORD $0x4e38ce42 // fmla v2.4s, v18.4s, v24.4s
	WORD $0x4e3ace02 // fmla v2.4s, v16.4s, v26.4s
	WORD $0x4e39ce63 // fmla v3.4s, v19.4s, v25.4s
	WORD $0x4e3bce23 // fmla v3.4s, v17.4s, v27.4s
	WORD $0x4e38cec6 // fmla v6.4s, v22.4s, v24.4s
	WORD $0x4e3ace86 // fmla v6.4s, v20.4s, v26.4s
	WORD $0x4e39cee7 // fmla v7.4s, v23.4s, v25.4s
	WORD $0x4e3bcea7 // fmla v7.4s, v21.4s, v27.4s
	WORD $0x4cdf2ad8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x22], #64
	WORD $0x4e38ce4a // fmla v10.4s, v18.4s, v24.4s
	WORD $0x4e3ace0a // fmla v10.4s, v16.4s, v26.4s
	WORD $0x4e39ce6b // fmla v11.4s, v19.4s, v25.4s
	WORD $0x4e3bce2b // fmla v11.4s, v17.4s, v27.4s
	WORD $0x4e38cece // fmla v14.4s, v22.4s, v24.4s
	WORD $0x4e3ace8e // fmla v14.4s, v20.4s, v26.4s
	WORD $0x4e39ceef // fmla v15.4s, v23.4s, v25.4s
	WORD $0x4e3bceaf // fmla v15.4s, v21.4s, v27.4s
	SUBS $32, R15, R15
	BNE floop
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e20d420 // fadd v0.4s, v1.4s, v0.4s
	WORD $0x6e00401d // ext v29.16b, v0.16b, v0.16b, #8
	WORD $0x4e3dd400 // fadd v0.4s, v0.4s, v29.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x4e26d484 // fadd v4.4s, v4.4s, v6.4s
	WORD $0x4e27d4a5 // fadd v5.4s, v5.4s, v7.4s
	WORD $0x4e24d4a4 // fadd v4.4s, v5.4s, v4.4s
	WORD $0x6e04409d // ext v29.16b, v4.16b, v4.16b, #8
	WORD $0x4e3dd484 // fadd v4.4s, v4.4s, v29.4s
	WORD $0x7e30d884 // faddp s4, v4.2s
	WORD $0x4e2ad508 // fadd v8.4s, v8.4s, v10.4s
	WORD $0x4e2bd529 // fadd v9.4s, v9.4s, v11.4s
	WORD $0x4e28d528 // fadd v8.4s, v9.4s, v8.4s
	WORD $0x6e08411d // ext v29.16b, v8.16b, v8.16b, #8
	WORD $0x4e3dd508 // fadd v8.4s, v8.4s, v29.4s
	WORD $0x7e30d908 // faddp s8, v8.2s
	WORD $0x4e2ed58c // fadd v12.4s, v12.4s, v14.4s
	WORD $0x4e2fd5ad // fadd v13.4s, v13.4s, v15.4s
	WORD $0x4e2cd5ac // fadd v12.4s, v13.4s, v12.4s
	WORD $0x6e0c419d // ext v29.16b, v12.16b, v12.16b, #8
	WORD $0x4e3dd58c // fadd v12.4s, v12.4s, v29.4s
	WORD $0x7e30d98c // faddp s12, v12.2s
	// Stores: row A of position p always; B where r+1 < rows; p+1 where
	// it is a position.
	MUL R24, R8, R21
	ADD R21, R7, R21
	ADD R25<<2, R21, R21 // &out[p*os+r]
	ADD $1, R25, R22
	CMP R2, R22
	CSET LT, R22 // row B is a row
	FMOVS F0, (R21)
	CBZ R22, 2(PC)
	FMOVS F4, 4(R21)
	ADD $1, R24, R23
	CMP R5, R23
	BGE fstored
	ADD R8, R21, R21
	FMOVS F8, (R21)
	CBZ R22, 2(PC)
	FMOVS F12, 4(R21)
fstored:
	ADD $2, R25, R25
	CMP R2, R25
	BLT frows
	ADD $2, R24, R24
	CMP R5, R24
	BLT fpos
	MOVD FPSR, R21
	MOVD R19, FPCR
	MOVD R20, FPSR
	AND $0x08, R21, R21 // UFC
	MOVD R21, ret+80(FP)
	RET
inexact:
	MOVD $2, R21
	MOVD R21, ret+80(FP)
	RET

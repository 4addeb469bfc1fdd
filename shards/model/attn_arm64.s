//go:build arm64 && !purego

#include "textflag.h"

// NEON kernels for attention and SiLU (attn_kernels.go): the same float
// operations in the same order as the Go kernels, so the same bits. A
// 16-lane accumulator of the Go code is four 4-lane vectors. Strides are in
// bytes. Each WORD is the instruction in its comment.
//
// The kernels rely on FPCR as Go code does (round to nearest, no
// flush-to-zero, no default NaN, FPCR.AH clear): FCVTN and FCVTL then
// convert between half and single precision exactly as tensor.FP32ToFP16
// and FP16ToFP32 do, subnormals included. A product of two f16 values (or
// of an f16-rounded probability and an f16 value) is exact in float32, so
// FMLA there rounds once as the Go code's multiply-then-add does.
//
// The vector exponential (vexpf in ggmlmath.go) keeps its constants in
// V20-V31: V20 shift 0x1.8p23, V21 log2(e), V22 ln2 high, V23 ln2 low,
// V24-V28 the polynomial's c0..c4, V29 1.0, V30 192, V31 +Inf. Its fused
// steps are FMLA/FMLS; j·2^n, which ggml's scalef rounds once, is
// (j·2^⌊n/2⌋)·2^(n-⌊n/2⌋): both factors are normal for |n| <= 192 and the
// first product is exact. Larger |n| give 0 or +Inf as in ggml.

DATA attnNEONC<>+0(SB)/4, $0x4b400000
DATA attnNEONC<>+4(SB)/4, $0x4b400000
DATA attnNEONC<>+8(SB)/4, $0x4b400000
DATA attnNEONC<>+12(SB)/4, $0x4b400000
DATA attnNEONC<>+16(SB)/4, $0x3fb8aa3b
DATA attnNEONC<>+20(SB)/4, $0x3fb8aa3b
DATA attnNEONC<>+24(SB)/4, $0x3fb8aa3b
DATA attnNEONC<>+28(SB)/4, $0x3fb8aa3b
DATA attnNEONC<>+32(SB)/4, $0x3f317200
DATA attnNEONC<>+36(SB)/4, $0x3f317200
DATA attnNEONC<>+40(SB)/4, $0x3f317200
DATA attnNEONC<>+44(SB)/4, $0x3f317200
DATA attnNEONC<>+48(SB)/4, $0x35bfbe8e
DATA attnNEONC<>+52(SB)/4, $0x35bfbe8e
DATA attnNEONC<>+56(SB)/4, $0x35bfbe8e
DATA attnNEONC<>+60(SB)/4, $0x35bfbe8e
DATA attnNEONC<>+64(SB)/4, $0x3c072010
DATA attnNEONC<>+68(SB)/4, $0x3c072010
DATA attnNEONC<>+72(SB)/4, $0x3c072010
DATA attnNEONC<>+76(SB)/4, $0x3c072010
DATA attnNEONC<>+80(SB)/4, $0x3d2b9f17
DATA attnNEONC<>+84(SB)/4, $0x3d2b9f17
DATA attnNEONC<>+88(SB)/4, $0x3d2b9f17
DATA attnNEONC<>+92(SB)/4, $0x3d2b9f17
DATA attnNEONC<>+96(SB)/4, $0x3e2aaf33
DATA attnNEONC<>+100(SB)/4, $0x3e2aaf33
DATA attnNEONC<>+104(SB)/4, $0x3e2aaf33
DATA attnNEONC<>+108(SB)/4, $0x3e2aaf33
DATA attnNEONC<>+112(SB)/4, $0x3efffedb
DATA attnNEONC<>+116(SB)/4, $0x3efffedb
DATA attnNEONC<>+120(SB)/4, $0x3efffedb
DATA attnNEONC<>+124(SB)/4, $0x3efffedb
DATA attnNEONC<>+128(SB)/4, $0x3f7ffff6
DATA attnNEONC<>+132(SB)/4, $0x3f7ffff6
DATA attnNEONC<>+136(SB)/4, $0x3f7ffff6
DATA attnNEONC<>+140(SB)/4, $0x3f7ffff6
DATA attnNEONC<>+144(SB)/4, $0x3f800000
DATA attnNEONC<>+148(SB)/4, $0x3f800000
DATA attnNEONC<>+152(SB)/4, $0x3f800000
DATA attnNEONC<>+156(SB)/4, $0x3f800000
DATA attnNEONC<>+160(SB)/4, $0x43400000
DATA attnNEONC<>+164(SB)/4, $0x43400000
DATA attnNEONC<>+168(SB)/4, $0x43400000
DATA attnNEONC<>+172(SB)/4, $0x43400000
DATA attnNEONC<>+176(SB)/4, $0x7f800000
DATA attnNEONC<>+180(SB)/4, $0x7f800000
DATA attnNEONC<>+184(SB)/4, $0x7f800000
DATA attnNEONC<>+188(SB)/4, $0x7f800000
DATA attnNEONC<>+192(SB)/4, $0x00000000
DATA attnNEONC<>+196(SB)/4, $0x00000001
DATA attnNEONC<>+200(SB)/4, $0x00000002
DATA attnNEONC<>+204(SB)/4, $0x00000003
GLOBL attnNEONC<>(SB), RODATA|NOPTR, $208

// func attnToF16NEON(dst *uint16, x *float32, n int)
// dst[i] = x[i] rounded to f16, n > 0 a multiple of 8.
TEXT ·attnToF16NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
tof16:
	WORD $0x4cdfa820 // ld1 {v0.4s, v1.4s}, [x1], #32
	WORD $0x0e216802 // fcvtn v2.4h, v0.4s
	WORD $0x4e216822 // fcvtn2 v2.8h, v1.4s
	WORD $0x4c9f7402 // st1 {v2.8h}, [x0], #16
	SUBS $8, R2, R2
	BNE tof16
	RET

// func attnPrepQNEON(q *float32, q16 *uint16, qf *float32, n int)
// q16[i] = q[i] rounded to f16 and qf[i] its value, n > 0 a multiple of 8.
TEXT ·attnPrepQNEON(SB), NOSPLIT, $0-32
	MOVD q+0(FP), R0
	MOVD q16+8(FP), R1
	MOVD qf+16(FP), R2
	MOVD n+24(FP), R3
prepq:
	WORD $0x4cdfa800 // ld1 {v0.4s, v1.4s}, [x0], #32
	WORD $0x0e216802 // fcvtn v2.4h, v0.4s
	WORD $0x4e216822 // fcvtn2 v2.8h, v1.4s
	WORD $0x4c9f7422 // st1 {v2.8h}, [x1], #16
	WORD $0x0e217843 // fcvtl v3.4s, v2.4h
	WORD $0x4e217844 // fcvtl2 v4.4s, v2.8h
	WORD $0x4c9fa843 // st1 {v3.4s, v4.4s}, [x2], #32
	SUBS $8, R3, R3
	BNE prepq
	RET

// func attnExpNEON(x *float32, n int)
// x[i] = vexpf(x[i]) for n > 0, a multiple of 8; for the tests.
TEXT ·attnExpNEON(SB), NOSPLIT, $0-16
	MOVD x+0(FP), R0
	MOVD n+8(FP), R1
	MOVD $attnNEONC<>(SB), R9
	WORD $0x4cdf2934 // ld1 {v20.4s, v21.4s, v22.4s, v23.4s}, [x9], #64
	WORD $0x4cdf2938 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x9], #64
	WORD $0x4c40293c // ld1 {v28.4s, v29.4s, v30.4s, v31.4s}, [x9]
expl:
	WORD $0x4c40a800 // ld1 {v0.4s, v1.4s}, [x0]
	WORD $0x4eb41e82 // mov v2.16b, v20.16b
	WORD $0x4eb41e87 // mov v7.16b, v20.16b
	WORD $0x4e35cc02 // fmla v2.4s, v0.4s, v21.4s
	WORD $0x4e35cc27 // fmla v7.4s, v1.4s, v21.4s
	WORD $0x4eb4d442 // fsub v2.4s, v2.4s, v20.4s
	WORD $0x4eb4d4e7 // fsub v7.4s, v7.4s, v20.4s
	WORD $0x4ea01c03 // mov v3.16b, v0.16b
	WORD $0x4ea11c28 // mov v8.16b, v1.16b
	WORD $0x4eb6cc43 // fmls v3.4s, v2.4s, v22.4s
	WORD $0x4eb6cce8 // fmls v8.4s, v7.4s, v22.4s
	WORD $0x4eb7cc43 // fmls v3.4s, v2.4s, v23.4s
	WORD $0x4eb7cce8 // fmls v8.4s, v7.4s, v23.4s
	WORD $0x6e23dc64 // fmul v4.4s, v3.4s, v3.4s
	WORD $0x6e28dd09 // fmul v9.4s, v8.4s, v8.4s
	WORD $0x4eb91f25 // mov v5.16b, v25.16b
	WORD $0x4eb91f2a // mov v10.16b, v25.16b
	WORD $0x4e38cc65 // fmla v5.4s, v3.4s, v24.4s
	WORD $0x4e38cd0a // fmla v10.4s, v8.4s, v24.4s
	WORD $0x4ebb1f66 // mov v6.16b, v27.16b
	WORD $0x4ebb1f6b // mov v11.16b, v27.16b
	WORD $0x4e3acc66 // fmla v6.4s, v3.4s, v26.4s
	WORD $0x4e3acd0b // fmla v11.4s, v8.4s, v26.4s
	WORD $0x4e24cca6 // fmla v6.4s, v5.4s, v4.4s
	WORD $0x4e29cd4b // fmla v11.4s, v10.4s, v9.4s
	WORD $0x4ebd1fa0 // mov v0.16b, v29.16b
	WORD $0x4ebd1fa1 // mov v1.16b, v29.16b
	WORD $0x4e3ccc60 // fmla v0.4s, v3.4s, v28.4s
	WORD $0x4e3ccd01 // fmla v1.4s, v8.4s, v28.4s
	WORD $0x4e24ccc0 // fmla v0.4s, v6.4s, v4.4s
	WORD $0x4e29cd61 // fmla v1.4s, v11.4s, v9.4s
	WORD $0x4ea1b843 // fcvtzs v3.4s, v2.4s
	WORD $0x4ea1b8e8 // fcvtzs v8.4s, v7.4s
	WORD $0x4f3f0464 // sshr v4.4s, v3.4s, #1
	WORD $0x4f3f0509 // sshr v9.4s, v8.4s, #1
	WORD $0x6ea48463 // sub v3.4s, v3.4s, v4.4s
	WORD $0x6ea98508 // sub v8.4s, v8.4s, v9.4s
	WORD $0x4f375484 // shl v4.4s, v4.4s, #23
	WORD $0x4f375529 // shl v9.4s, v9.4s, #23
	WORD $0x4ebd8484 // add v4.4s, v4.4s, v29.4s
	WORD $0x4ebd8529 // add v9.4s, v9.4s, v29.4s
	WORD $0x4f375463 // shl v3.4s, v3.4s, #23
	WORD $0x4f375508 // shl v8.4s, v8.4s, #23
	WORD $0x4ebd8463 // add v3.4s, v3.4s, v29.4s
	WORD $0x4ebd8508 // add v8.4s, v8.4s, v29.4s
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e29dc21 // fmul v1.4s, v1.4s, v9.4s
	WORD $0x6e23dc00 // fmul v0.4s, v0.4s, v3.4s
	WORD $0x6e28dc21 // fmul v1.4s, v1.4s, v8.4s
	WORD $0x4ea0f844 // fabs v4.4s, v2.4s
	WORD $0x4ea0f8e9 // fabs v9.4s, v7.4s
	WORD $0x6ebee484 // fcmgt v4.4s, v4.4s, v30.4s
	WORD $0x6ebee529 // fcmgt v9.4s, v9.4s, v30.4s
	WORD $0x4ea0c845 // fcmgt v5.4s, v2.4s, #0.0
	WORD $0x4ea0c8ea // fcmgt v10.4s, v7.4s, #0.0
	WORD $0x4e3f1ca5 // and v5.16b, v5.16b, v31.16b
	WORD $0x4e3f1d4a // and v10.16b, v10.16b, v31.16b
	WORD $0x6ea41ca0 // bit v0.16b, v5.16b, v4.16b
	WORD $0x6ea91d41 // bit v1.16b, v10.16b, v9.16b
	WORD $0x4c9fa800 // st1 {v0.4s, v1.4s}, [x0], #32
	SUBS $8, R1, R1
	BNE expl
	RET

// func attnSiLUNEON(y, x *float32, n int)
// y[i] = x[i]/(1+vexpf(0-x[i])) for n > 0, a multiple of 8; y may be x.
TEXT ·attnSiLUNEON(SB), NOSPLIT, $0-24
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	MOVD $attnNEONC<>(SB), R9
	WORD $0x4cdf2934 // ld1 {v20.4s, v21.4s, v22.4s, v23.4s}, [x9], #64
	WORD $0x4cdf2938 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x9], #64
	WORD $0x4c40293c // ld1 {v28.4s, v29.4s, v30.4s, v31.4s}, [x9]
	WORD $0x4f00e413 // movi v19.16b, #0
silul:
	WORD $0x4cdfa830 // ld1 {v16.4s, v17.4s}, [x1], #32
	WORD $0x4eb0d660 // fsub v0.4s, v19.4s, v16.4s
	WORD $0x4eb1d661 // fsub v1.4s, v19.4s, v17.4s
	WORD $0x4eb41e82 // mov v2.16b, v20.16b
	WORD $0x4eb41e87 // mov v7.16b, v20.16b
	WORD $0x4e35cc02 // fmla v2.4s, v0.4s, v21.4s
	WORD $0x4e35cc27 // fmla v7.4s, v1.4s, v21.4s
	WORD $0x4eb4d442 // fsub v2.4s, v2.4s, v20.4s
	WORD $0x4eb4d4e7 // fsub v7.4s, v7.4s, v20.4s
	WORD $0x4ea01c03 // mov v3.16b, v0.16b
	WORD $0x4ea11c28 // mov v8.16b, v1.16b
	WORD $0x4eb6cc43 // fmls v3.4s, v2.4s, v22.4s
	WORD $0x4eb6cce8 // fmls v8.4s, v7.4s, v22.4s
	WORD $0x4eb7cc43 // fmls v3.4s, v2.4s, v23.4s
	WORD $0x4eb7cce8 // fmls v8.4s, v7.4s, v23.4s
	WORD $0x6e23dc64 // fmul v4.4s, v3.4s, v3.4s
	WORD $0x6e28dd09 // fmul v9.4s, v8.4s, v8.4s
	WORD $0x4eb91f25 // mov v5.16b, v25.16b
	WORD $0x4eb91f2a // mov v10.16b, v25.16b
	WORD $0x4e38cc65 // fmla v5.4s, v3.4s, v24.4s
	WORD $0x4e38cd0a // fmla v10.4s, v8.4s, v24.4s
	WORD $0x4ebb1f66 // mov v6.16b, v27.16b
	WORD $0x4ebb1f6b // mov v11.16b, v27.16b
	WORD $0x4e3acc66 // fmla v6.4s, v3.4s, v26.4s
	WORD $0x4e3acd0b // fmla v11.4s, v8.4s, v26.4s
	WORD $0x4e24cca6 // fmla v6.4s, v5.4s, v4.4s
	WORD $0x4e29cd4b // fmla v11.4s, v10.4s, v9.4s
	WORD $0x4ebd1fa0 // mov v0.16b, v29.16b
	WORD $0x4ebd1fa1 // mov v1.16b, v29.16b
	WORD $0x4e3ccc60 // fmla v0.4s, v3.4s, v28.4s
	WORD $0x4e3ccd01 // fmla v1.4s, v8.4s, v28.4s
	WORD $0x4e24ccc0 // fmla v0.4s, v6.4s, v4.4s
	WORD $0x4e29cd61 // fmla v1.4s, v11.4s, v9.4s
	WORD $0x4ea1b843 // fcvtzs v3.4s, v2.4s
	WORD $0x4ea1b8e8 // fcvtzs v8.4s, v7.4s
	WORD $0x4f3f0464 // sshr v4.4s, v3.4s, #1
	WORD $0x4f3f0509 // sshr v9.4s, v8.4s, #1
	WORD $0x6ea48463 // sub v3.4s, v3.4s, v4.4s
	WORD $0x6ea98508 // sub v8.4s, v8.4s, v9.4s
	WORD $0x4f375484 // shl v4.4s, v4.4s, #23
	WORD $0x4f375529 // shl v9.4s, v9.4s, #23
	WORD $0x4ebd8484 // add v4.4s, v4.4s, v29.4s
	WORD $0x4ebd8529 // add v9.4s, v9.4s, v29.4s
	WORD $0x4f375463 // shl v3.4s, v3.4s, #23
	WORD $0x4f375508 // shl v8.4s, v8.4s, #23
	WORD $0x4ebd8463 // add v3.4s, v3.4s, v29.4s
	WORD $0x4ebd8508 // add v8.4s, v8.4s, v29.4s
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e29dc21 // fmul v1.4s, v1.4s, v9.4s
	WORD $0x6e23dc00 // fmul v0.4s, v0.4s, v3.4s
	WORD $0x6e28dc21 // fmul v1.4s, v1.4s, v8.4s
	WORD $0x4ea0f844 // fabs v4.4s, v2.4s
	WORD $0x4ea0f8e9 // fabs v9.4s, v7.4s
	WORD $0x6ebee484 // fcmgt v4.4s, v4.4s, v30.4s
	WORD $0x6ebee529 // fcmgt v9.4s, v9.4s, v30.4s
	WORD $0x4ea0c845 // fcmgt v5.4s, v2.4s, #0.0
	WORD $0x4ea0c8ea // fcmgt v10.4s, v7.4s, #0.0
	WORD $0x4e3f1ca5 // and v5.16b, v5.16b, v31.16b
	WORD $0x4e3f1d4a // and v10.16b, v10.16b, v31.16b
	WORD $0x6ea41ca0 // bit v0.16b, v5.16b, v4.16b
	WORD $0x6ea91d41 // bit v1.16b, v10.16b, v9.16b
	WORD $0x4e3dd400 // fadd v0.4s, v0.4s, v29.4s
	WORD $0x4e3dd421 // fadd v1.4s, v1.4s, v29.4s
	WORD $0x6e20fe00 // fdiv v0.4s, v16.4s, v0.4s
	WORD $0x6e21fe21 // fdiv v1.4s, v17.4s, v1.4s
	WORD $0x4c9fa800 // st1 {v0.4s, v1.4s}, [x0], #32
	SUBS $8, R2, R2
	BNE silul
	RET

// func attnSoftmaxNEON(p *float32, span int)
// softmaxGo for span > 0 (p padded to a multiple of 16): the maximum (FMAX
// gives Go's max, NaN included), then per 16 scores the exponentials of
// p-max, zero past span, and hsum's tree added to a float64 total; then
// p·float32(1/total) rounded to f16 for the scores below span.
TEXT ·attnSoftmaxNEON(SB), NOSPLIT, $0-16
	MOVD p+0(FP), R0
	MOVD span+8(FP), R1
	MOVD $attnNEONC<>(SB), R9
	WORD $0x4cdf2934 // ld1 {v20.4s, v21.4s, v22.4s, v23.4s}, [x9], #64
	WORD $0x4cdf2938 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x9], #64
	WORD $0x4c40293c // ld1 {v28.4s, v29.4s, v30.4s, v31.4s}, [x9]
	WORD $0x6ea0fbf0 // fneg v16.4s, v31.4s
	MOVD R0, R4
	AND $~3, R1, R3
	CBZ R3, smaxtail
smax:
	WORD $0x4cdf7880 // ld1 {v0.4s}, [x4], #16
	WORD $0x4e20f610 // fmax v16.4s, v16.4s, v0.4s
	SUBS $4, R3, R3
	BNE smax
smaxtail:
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	AND $3, R1, R3
	CBZ R3, smaxdone
smaxt:
	WORD $0xbc404480 // ldr s0, [x4], #4
	WORD $0x1e204a10 // fmax s16, s16, s0
	SUBS $1, R3, R3
	BNE smaxt
smaxdone:
	WORD $0x4e040610 // dup v16.4s, v16.s[0]
	WORD $0x2f00e40f // movi d15, #0
	MOVD $attnNEONC<>+192(SB), R9
	WORD $0x4c407931 // ld1 {v17.4s}, [x9]
	WORD $0x4f000492 // movi v18.4s, #4
	MOVD R0, R4
	MOVD R1, R5
sexp:
	WORD $0x4c40a880 // ld1 {v0.4s, v1.4s}, [x4]
	ADD $32, R4, R6
	WORD $0x4c40a8cc // ld1 {v12.4s, v13.4s}, [x6]
	WORD $0x4eb0d400 // fsub v0.4s, v0.4s, v16.4s
	WORD $0x4eb0d421 // fsub v1.4s, v1.4s, v16.4s
	WORD $0x4eb0d58c // fsub v12.4s, v12.4s, v16.4s
	WORD $0x4eb0d5ad // fsub v13.4s, v13.4s, v16.4s
	WORD $0x4eb41e82 // mov v2.16b, v20.16b
	WORD $0x4eb41e87 // mov v7.16b, v20.16b
	WORD $0x4e35cc02 // fmla v2.4s, v0.4s, v21.4s
	WORD $0x4e35cc27 // fmla v7.4s, v1.4s, v21.4s
	WORD $0x4eb4d442 // fsub v2.4s, v2.4s, v20.4s
	WORD $0x4eb4d4e7 // fsub v7.4s, v7.4s, v20.4s
	WORD $0x4ea01c03 // mov v3.16b, v0.16b
	WORD $0x4ea11c28 // mov v8.16b, v1.16b
	WORD $0x4eb6cc43 // fmls v3.4s, v2.4s, v22.4s
	WORD $0x4eb6cce8 // fmls v8.4s, v7.4s, v22.4s
	WORD $0x4eb7cc43 // fmls v3.4s, v2.4s, v23.4s
	WORD $0x4eb7cce8 // fmls v8.4s, v7.4s, v23.4s
	WORD $0x6e23dc64 // fmul v4.4s, v3.4s, v3.4s
	WORD $0x6e28dd09 // fmul v9.4s, v8.4s, v8.4s
	WORD $0x4eb91f25 // mov v5.16b, v25.16b
	WORD $0x4eb91f2a // mov v10.16b, v25.16b
	WORD $0x4e38cc65 // fmla v5.4s, v3.4s, v24.4s
	WORD $0x4e38cd0a // fmla v10.4s, v8.4s, v24.4s
	WORD $0x4ebb1f66 // mov v6.16b, v27.16b
	WORD $0x4ebb1f6b // mov v11.16b, v27.16b
	WORD $0x4e3acc66 // fmla v6.4s, v3.4s, v26.4s
	WORD $0x4e3acd0b // fmla v11.4s, v8.4s, v26.4s
	WORD $0x4e24cca6 // fmla v6.4s, v5.4s, v4.4s
	WORD $0x4e29cd4b // fmla v11.4s, v10.4s, v9.4s
	WORD $0x4ebd1fa0 // mov v0.16b, v29.16b
	WORD $0x4ebd1fa1 // mov v1.16b, v29.16b
	WORD $0x4e3ccc60 // fmla v0.4s, v3.4s, v28.4s
	WORD $0x4e3ccd01 // fmla v1.4s, v8.4s, v28.4s
	WORD $0x4e24ccc0 // fmla v0.4s, v6.4s, v4.4s
	WORD $0x4e29cd61 // fmla v1.4s, v11.4s, v9.4s
	WORD $0x4ea1b843 // fcvtzs v3.4s, v2.4s
	WORD $0x4ea1b8e8 // fcvtzs v8.4s, v7.4s
	WORD $0x4f3f0464 // sshr v4.4s, v3.4s, #1
	WORD $0x4f3f0509 // sshr v9.4s, v8.4s, #1
	WORD $0x6ea48463 // sub v3.4s, v3.4s, v4.4s
	WORD $0x6ea98508 // sub v8.4s, v8.4s, v9.4s
	WORD $0x4f375484 // shl v4.4s, v4.4s, #23
	WORD $0x4f375529 // shl v9.4s, v9.4s, #23
	WORD $0x4ebd8484 // add v4.4s, v4.4s, v29.4s
	WORD $0x4ebd8529 // add v9.4s, v9.4s, v29.4s
	WORD $0x4f375463 // shl v3.4s, v3.4s, #23
	WORD $0x4f375508 // shl v8.4s, v8.4s, #23
	WORD $0x4ebd8463 // add v3.4s, v3.4s, v29.4s
	WORD $0x4ebd8508 // add v8.4s, v8.4s, v29.4s
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e29dc21 // fmul v1.4s, v1.4s, v9.4s
	WORD $0x6e23dc00 // fmul v0.4s, v0.4s, v3.4s
	WORD $0x6e28dc21 // fmul v1.4s, v1.4s, v8.4s
	WORD $0x4ea0f844 // fabs v4.4s, v2.4s
	WORD $0x4ea0f8e9 // fabs v9.4s, v7.4s
	WORD $0x6ebee484 // fcmgt v4.4s, v4.4s, v30.4s
	WORD $0x6ebee529 // fcmgt v9.4s, v9.4s, v30.4s
	WORD $0x4ea0c845 // fcmgt v5.4s, v2.4s, #0.0
	WORD $0x4ea0c8ea // fcmgt v10.4s, v7.4s, #0.0
	WORD $0x4e3f1ca5 // and v5.16b, v5.16b, v31.16b
	WORD $0x4e3f1d4a // and v10.16b, v10.16b, v31.16b
	WORD $0x6ea41ca0 // bit v0.16b, v5.16b, v4.16b
	WORD $0x6ea91d41 // bit v1.16b, v10.16b, v9.16b
	WORD $0x4eb41e82 // mov v2.16b, v20.16b
	WORD $0x4eb41e87 // mov v7.16b, v20.16b
	WORD $0x4e35cd82 // fmla v2.4s, v12.4s, v21.4s
	WORD $0x4e35cda7 // fmla v7.4s, v13.4s, v21.4s
	WORD $0x4eb4d442 // fsub v2.4s, v2.4s, v20.4s
	WORD $0x4eb4d4e7 // fsub v7.4s, v7.4s, v20.4s
	WORD $0x4eac1d83 // mov v3.16b, v12.16b
	WORD $0x4ead1da8 // mov v8.16b, v13.16b
	WORD $0x4eb6cc43 // fmls v3.4s, v2.4s, v22.4s
	WORD $0x4eb6cce8 // fmls v8.4s, v7.4s, v22.4s
	WORD $0x4eb7cc43 // fmls v3.4s, v2.4s, v23.4s
	WORD $0x4eb7cce8 // fmls v8.4s, v7.4s, v23.4s
	WORD $0x6e23dc64 // fmul v4.4s, v3.4s, v3.4s
	WORD $0x6e28dd09 // fmul v9.4s, v8.4s, v8.4s
	WORD $0x4eb91f25 // mov v5.16b, v25.16b
	WORD $0x4eb91f2a // mov v10.16b, v25.16b
	WORD $0x4e38cc65 // fmla v5.4s, v3.4s, v24.4s
	WORD $0x4e38cd0a // fmla v10.4s, v8.4s, v24.4s
	WORD $0x4ebb1f66 // mov v6.16b, v27.16b
	WORD $0x4ebb1f6b // mov v11.16b, v27.16b
	WORD $0x4e3acc66 // fmla v6.4s, v3.4s, v26.4s
	WORD $0x4e3acd0b // fmla v11.4s, v8.4s, v26.4s
	WORD $0x4e24cca6 // fmla v6.4s, v5.4s, v4.4s
	WORD $0x4e29cd4b // fmla v11.4s, v10.4s, v9.4s
	WORD $0x4ebd1fac // mov v12.16b, v29.16b
	WORD $0x4ebd1fad // mov v13.16b, v29.16b
	WORD $0x4e3ccc6c // fmla v12.4s, v3.4s, v28.4s
	WORD $0x4e3ccd0d // fmla v13.4s, v8.4s, v28.4s
	WORD $0x4e24cccc // fmla v12.4s, v6.4s, v4.4s
	WORD $0x4e29cd6d // fmla v13.4s, v11.4s, v9.4s
	WORD $0x4ea1b843 // fcvtzs v3.4s, v2.4s
	WORD $0x4ea1b8e8 // fcvtzs v8.4s, v7.4s
	WORD $0x4f3f0464 // sshr v4.4s, v3.4s, #1
	WORD $0x4f3f0509 // sshr v9.4s, v8.4s, #1
	WORD $0x6ea48463 // sub v3.4s, v3.4s, v4.4s
	WORD $0x6ea98508 // sub v8.4s, v8.4s, v9.4s
	WORD $0x4f375484 // shl v4.4s, v4.4s, #23
	WORD $0x4f375529 // shl v9.4s, v9.4s, #23
	WORD $0x4ebd8484 // add v4.4s, v4.4s, v29.4s
	WORD $0x4ebd8529 // add v9.4s, v9.4s, v29.4s
	WORD $0x4f375463 // shl v3.4s, v3.4s, #23
	WORD $0x4f375508 // shl v8.4s, v8.4s, #23
	WORD $0x4ebd8463 // add v3.4s, v3.4s, v29.4s
	WORD $0x4ebd8508 // add v8.4s, v8.4s, v29.4s
	WORD $0x6e24dd8c // fmul v12.4s, v12.4s, v4.4s
	WORD $0x6e29ddad // fmul v13.4s, v13.4s, v9.4s
	WORD $0x6e23dd8c // fmul v12.4s, v12.4s, v3.4s
	WORD $0x6e28ddad // fmul v13.4s, v13.4s, v8.4s
	WORD $0x4ea0f844 // fabs v4.4s, v2.4s
	WORD $0x4ea0f8e9 // fabs v9.4s, v7.4s
	WORD $0x6ebee484 // fcmgt v4.4s, v4.4s, v30.4s
	WORD $0x6ebee529 // fcmgt v9.4s, v9.4s, v30.4s
	WORD $0x4ea0c845 // fcmgt v5.4s, v2.4s, #0.0
	WORD $0x4ea0c8ea // fcmgt v10.4s, v7.4s, #0.0
	WORD $0x4e3f1ca5 // and v5.16b, v5.16b, v31.16b
	WORD $0x4e3f1d4a // and v10.16b, v10.16b, v31.16b
	WORD $0x6ea41cac // bit v12.16b, v5.16b, v4.16b
	WORD $0x6ea91d4d // bit v13.16b, v10.16b, v9.16b
	// Zero the lanes at or past span: lane index < span-j0.
	WORD $0x4e040cb3 // dup v19.4s, w5
	WORD $0x4eb11e22 // mov v2.16b, v17.16b
	WORD $0x4ea23663 // cmgt v3.4s, v19.4s, v2.4s
	WORD $0x4e231c00 // and v0.16b, v0.16b, v3.16b
	WORD $0x4eb28442 // add v2.4s, v2.4s, v18.4s
	WORD $0x4ea23663 // cmgt v3.4s, v19.4s, v2.4s
	WORD $0x4e231c21 // and v1.16b, v1.16b, v3.16b
	WORD $0x4eb28442 // add v2.4s, v2.4s, v18.4s
	WORD $0x4ea23663 // cmgt v3.4s, v19.4s, v2.4s
	WORD $0x4e231d8c // and v12.16b, v12.16b, v3.16b
	WORD $0x4eb28442 // add v2.4s, v2.4s, v18.4s
	WORD $0x4ea23663 // cmgt v3.4s, v19.4s, v2.4s
	WORD $0x4e231dad // and v13.16b, v13.16b, v3.16b
	WORD $0x4eb28442 // add v2.4s, v2.4s, v18.4s
	WORD $0x4c9fa880 // st1 {v0.4s, v1.4s}, [x4], #32
	WORD $0x4c9fa88c // st1 {v12.4s, v13.4s}, [x4], #32
	// hsum: (p0-3+p8-11)+(p4-7+p12-15), then (x0+x2)+(x1+x3).
	WORD $0x4e2cd400 // fadd v0.4s, v0.4s, v12.4s
	WORD $0x4e2dd421 // fadd v1.4s, v1.4s, v13.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e22c000 // fcvt d0, s0
	WORD $0x1e6029ef // fadd d15, d15, d0
	SUBS $16, R5, R5
	BGT sexp
	// inv = float32(1/total); p = f16(p·inv) below span.
	WORD $0x1e6e1000 // fmov d0, #1.0
	WORD $0x1e6f1800 // fdiv d0, d0, d15
	WORD $0x1e624000 // fcvt s0, d0
	WORD $0x4e040410 // dup v16.4s, v0.s[0]
	MOVD R0, R4
	AND $~3, R1, R3
	CBZ R3, snormt
snorm:
	WORD $0x4c407880 // ld1 {v0.4s}, [x4]
	WORD $0x6e30dc00 // fmul v0.4s, v0.4s, v16.4s
	WORD $0x0e216800 // fcvtn v0.4h, v0.4s
	WORD $0x0e217800 // fcvtl v0.4s, v0.4h
	WORD $0x4c9f7880 // st1 {v0.4s}, [x4], #16
	SUBS $4, R3, R3
	BNE snorm
snormt:
	AND $3, R1, R3
	CBZ R3, sdone
snorml:
	WORD $0xbd400080 // ldr s0, [x4]
	WORD $0x1e300800 // fmul s0, s0, s16
	WORD $0x1e23c000 // fcvt h0, s0
	WORD $0x1ee24000 // fcvt s0, h0
	WORD $0xbc004480 // str s0, [x4], #4
	SUBS $1, R3, R3
	BNE snorml
sdone:
	RET

// func attnGroupScoresNEON(qg *float32, k *uint16, stride int, span int, scale float32, sc *float32, nh int)
// For the first 0 < nh <= groupHeads of groupHeads heads of 64 (qg[64h:],
// f16-rounded) and span > 0 positions: sc[8j+h] = dotF16(q_h, k_j)·scale
// (for h >= nh, 0 or another head's score). A key is converted once
// (V0-V15) for the eight heads. The products are exact, so the first level
// of fold4, (P_l+P_32+l), is one FMLA onto the product P_l; then
// V_k = (P_k+P_8+k)+(P_4+k+P_12+k), hsum's (V0+V2)+(V1+V3) into X_h
// (V28-V31 for four heads), and (x0+x2)+(x1+x3) of four heads at once with
// UZP1/UZP2 and FADDP. Plain products can make a zero score -0 where Go's
// accumulator gives +0; that changes no probability.
TEXT ·attnGroupScoresNEON(SB), NOSPLIT, $0-56
	MOVD qg+0(FP), R0
	MOVD k+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVWU scale+32(FP), R4
	MOVD sc+40(FP), R5
	MOVD nh+48(FP), R8
	WORD $0x4f00e41c // movi v28.16b, #0
	WORD $0x4f00e41d // movi v29.16b, #0
	WORD $0x4f00e41e // movi v30.16b, #0
	WORD $0x4f00e41f // movi v31.16b, #0
gspos:
	ADD $64, R1, R6
	WORD $0x4c402430 // ld1 {v16.8h, v17.8h, v18.8h, v19.8h}, [x1]
	WORD $0x4c4024d4 // ld1 {v20.8h, v21.8h, v22.8h, v23.8h}, [x6]
	WORD $0x0e217a00 // fcvtl v0.4s, v16.4h
	WORD $0x4e217a01 // fcvtl2 v1.4s, v16.8h
	WORD $0x0e217a22 // fcvtl v2.4s, v17.4h
	WORD $0x4e217a23 // fcvtl2 v3.4s, v17.8h
	WORD $0x0e217a44 // fcvtl v4.4s, v18.4h
	WORD $0x4e217a45 // fcvtl2 v5.4s, v18.8h
	WORD $0x0e217a66 // fcvtl v6.4s, v19.4h
	WORD $0x4e217a67 // fcvtl2 v7.4s, v19.8h
	WORD $0x0e217a88 // fcvtl v8.4s, v20.4h
	WORD $0x4e217a89 // fcvtl2 v9.4s, v20.8h
	WORD $0x0e217aaa // fcvtl v10.4s, v21.4h
	WORD $0x4e217aab // fcvtl2 v11.4s, v21.8h
	WORD $0x0e217acc // fcvtl v12.4s, v22.4h
	WORD $0x4e217acd // fcvtl2 v13.4s, v22.8h
	WORD $0x0e217aee // fcvtl v14.4s, v23.4h
	WORD $0x4e217aef // fcvtl2 v15.4s, v23.8h
	MOVD R0, R7
	// head 0
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69c // fadd v28.4s, v20.4s, v21.4s
	CMP $1, R8
	BEQ gsred0
	// head 1
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69d // fadd v29.4s, v20.4s, v21.4s
	CMP $2, R8
	BEQ gsred0
	// head 2
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69e // fadd v30.4s, v20.4s, v21.4s
	CMP $3, R8
	BEQ gsred0
	// head 3
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69f // fadd v31.4s, v20.4s, v21.4s
gsred0:
	WORD $0x4e9d1b90 // uzp1 v16.4s, v28.4s, v29.4s
	WORD $0x4e9d5b91 // uzp2 v17.4s, v28.4s, v29.4s
	WORD $0x4e9f1bd2 // uzp1 v18.4s, v30.4s, v31.4s
	WORD $0x4e9f5bd3 // uzp2 v19.4s, v30.4s, v31.4s
	WORD $0x6e32d610 // faddp v16.4s, v16.4s, v18.4s
	WORD $0x6e33d631 // faddp v17.4s, v17.4s, v19.4s
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e040c91 // dup v17.4s, w4
	WORD $0x6e31de10 // fmul v16.4s, v16.4s, v17.4s
	WORD $0x4c9f78b0 // st1 {v16.4s}, [x5], #16
	CMP $4, R8
	BGT gshigh
	ADD $16, R5, R5
	B gsnext
gshigh:
	// head 4
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69c // fadd v28.4s, v20.4s, v21.4s
	CMP $5, R8
	BEQ gsred1
	// head 5
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69d // fadd v29.4s, v20.4s, v21.4s
	CMP $6, R8
	BEQ gsred1
	// head 6
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69e // fadd v30.4s, v20.4s, v21.4s
	CMP $7, R8
	BEQ gsred1
	// head 7
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e20de14 // fmul v20.4s, v16.4s, v0.4s
	WORD $0x6e21de35 // fmul v21.4s, v17.4s, v1.4s
	WORD $0x6e22de56 // fmul v22.4s, v18.4s, v2.4s
	WORD $0x6e23de77 // fmul v23.4s, v19.4s, v3.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x6e24de18 // fmul v24.4s, v16.4s, v4.4s
	WORD $0x6e25de39 // fmul v25.4s, v17.4s, v5.4s
	WORD $0x6e26de5a // fmul v26.4s, v18.4s, v6.4s
	WORD $0x6e27de7b // fmul v27.4s, v19.4s, v7.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e28ce14 // fmla v20.4s, v16.4s, v8.4s
	WORD $0x4e29ce35 // fmla v21.4s, v17.4s, v9.4s
	WORD $0x4e2ace56 // fmla v22.4s, v18.4s, v10.4s
	WORD $0x4e2bce77 // fmla v23.4s, v19.4s, v11.4s
	WORD $0x4cdf28f0 // ld1 {v16.4s, v17.4s, v18.4s, v19.4s}, [x7], #64
	WORD $0x4e2cce18 // fmla v24.4s, v16.4s, v12.4s
	WORD $0x4e2dce39 // fmla v25.4s, v17.4s, v13.4s
	WORD $0x4e2ece5a // fmla v26.4s, v18.4s, v14.4s
	WORD $0x4e2fce7b // fmla v27.4s, v19.4s, v15.4s
	WORD $0x4e38d694 // fadd v20.4s, v20.4s, v24.4s
	WORD $0x4e39d6b5 // fadd v21.4s, v21.4s, v25.4s
	WORD $0x4e3ad6d6 // fadd v22.4s, v22.4s, v26.4s
	WORD $0x4e3bd6f7 // fadd v23.4s, v23.4s, v27.4s
	WORD $0x4e36d694 // fadd v20.4s, v20.4s, v22.4s
	WORD $0x4e37d6b5 // fadd v21.4s, v21.4s, v23.4s
	WORD $0x4e35d69f // fadd v31.4s, v20.4s, v21.4s
gsred1:
	WORD $0x4e9d1b90 // uzp1 v16.4s, v28.4s, v29.4s
	WORD $0x4e9d5b91 // uzp2 v17.4s, v28.4s, v29.4s
	WORD $0x4e9f1bd2 // uzp1 v18.4s, v30.4s, v31.4s
	WORD $0x4e9f5bd3 // uzp2 v19.4s, v30.4s, v31.4s
	WORD $0x6e32d610 // faddp v16.4s, v16.4s, v18.4s
	WORD $0x6e33d631 // faddp v17.4s, v17.4s, v19.4s
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e040c91 // dup v17.4s, w4
	WORD $0x6e31de10 // fmul v16.4s, v16.4s, v17.4s
	WORD $0x4c9f78b0 // st1 {v16.4s}, [x5], #16
gsnext:
	ADD R2, R1, R1
	SUBS $1, R3, R3
	BNE gspos
	RET

// func attnGroupScores128NEON(qg *float32, k *uint16, stride int, span int, scale float32, sc *float32, nh int)
// For the first 0 < nh <= groupHeads of groupHeads heads of 128 and span > 0
// positions: sc[8j+h] = dotF16(q_h, k_j)·scale (0 for h >= nh). Vector i of a head (values 4i..4i+3) adds to
// accumulator A_(i%16), the products exact: A_i = q_i·k_i + q_(i+16)·k_(i+16)
// (FMUL, FMLA). fold4 and hsum then need (V0+V2)+(V1+V3) with
// V_c = (A_c+A_(c+8))+(A_(c+4)+A_(c+12)): V0 and V2 take the even vectors
// of the key, V1 and V3 the odd ones. So each position takes two passes
// over the eight heads: the even vectors of the key (the low halves of its
// eight-value loads) converted into V0-V15, then the odd ones (the high
// halves), each head's half sums kept in V16-V23; then (x0+x2)+(x1+x3) of
// four heads at once with UZP1/UZP2 and FADDP. qg holds each head's
// f16-rounded query in the order the passes read it (group128NEON): all
// heads' even vectors, then all heads' odd ones, each head's as
// 0,16,8,24, 4,20,12,28, 2,18,10,26, 6,22,14,30 (plus one for the odd).
// Plain products can make a zero score -0 where Go's accumulator gives
// +0; that changes no probability.
TEXT ·attnGroupScores128NEON(SB), NOSPLIT, $0-56
	MOVD qg+0(FP), R0
	MOVD k+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVWU scale+32(FP), R4
	MOVD sc+40(FP), R5
	MOVD nh+48(FP), R8
	WORD $0x4f00e410 // movi v16.16b, #0
	WORD $0x4f00e411 // movi v17.16b, #0
	WORD $0x4f00e412 // movi v18.16b, #0
	WORD $0x4f00e413 // movi v19.16b, #0
	WORD $0x4f00e414 // movi v20.16b, #0
	WORD $0x4f00e415 // movi v21.16b, #0
	WORD $0x4f00e416 // movi v22.16b, #0
	WORD $0x4f00e417 // movi v23.16b, #0
g128pos:
	MOVD R1, R6
	MOVD R0, R7
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x0e217b00 // fcvtl v0.4s, v24.4h
	WORD $0x0e217b21 // fcvtl v1.4s, v25.4h
	WORD $0x0e217b42 // fcvtl v2.4s, v26.4h
	WORD $0x0e217b63 // fcvtl v3.4s, v27.4h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x0e217b04 // fcvtl v4.4s, v24.4h
	WORD $0x0e217b25 // fcvtl v5.4s, v25.4h
	WORD $0x0e217b46 // fcvtl v6.4s, v26.4h
	WORD $0x0e217b67 // fcvtl v7.4s, v27.4h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x0e217b08 // fcvtl v8.4s, v24.4h
	WORD $0x0e217b29 // fcvtl v9.4s, v25.4h
	WORD $0x0e217b4a // fcvtl v10.4s, v26.4h
	WORD $0x0e217b6b // fcvtl v11.4s, v27.4h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x0e217b0c // fcvtl v12.4s, v24.4h
	WORD $0x0e217b2d // fcvtl v13.4s, v25.4h
	WORD $0x0e217b4e // fcvtl v14.4s, v26.4h
	WORD $0x0e217b6f // fcvtl v15.4s, v27.4h
	// head 0, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd790 // fadd v16.4s, v28.4s, v29.4s
	CMP $1, R8
	BEQ g128pass0
	// head 1, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd791 // fadd v17.4s, v28.4s, v29.4s
	CMP $2, R8
	BEQ g128pass0
	// head 2, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd792 // fadd v18.4s, v28.4s, v29.4s
	CMP $3, R8
	BEQ g128pass0
	// head 3, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd793 // fadd v19.4s, v28.4s, v29.4s
	CMP $4, R8
	BEQ g128pass0
	// head 4, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd794 // fadd v20.4s, v28.4s, v29.4s
	CMP $5, R8
	BEQ g128pass0
	// head 5, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd795 // fadd v21.4s, v28.4s, v29.4s
	CMP $6, R8
	BEQ g128pass0
	// head 6, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd796 // fadd v22.4s, v28.4s, v29.4s
	CMP $7, R8
	BEQ g128pass0
	// head 7, even vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd797 // fadd v23.4s, v28.4s, v29.4s
g128pass0:
	MOVD R1, R6
	ADD $2048, R0, R7
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x4e217b00 // fcvtl2 v0.4s, v24.8h
	WORD $0x4e217b21 // fcvtl2 v1.4s, v25.8h
	WORD $0x4e217b42 // fcvtl2 v2.4s, v26.8h
	WORD $0x4e217b63 // fcvtl2 v3.4s, v27.8h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x4e217b04 // fcvtl2 v4.4s, v24.8h
	WORD $0x4e217b25 // fcvtl2 v5.4s, v25.8h
	WORD $0x4e217b46 // fcvtl2 v6.4s, v26.8h
	WORD $0x4e217b67 // fcvtl2 v7.4s, v27.8h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x4e217b08 // fcvtl2 v8.4s, v24.8h
	WORD $0x4e217b29 // fcvtl2 v9.4s, v25.8h
	WORD $0x4e217b4a // fcvtl2 v10.4s, v26.8h
	WORD $0x4e217b6b // fcvtl2 v11.4s, v27.8h
	WORD $0x4cdf24d8 // ld1 {v24.8h, v25.8h, v26.8h, v27.8h}, [x6], #64
	WORD $0x4e217b0c // fcvtl2 v12.4s, v24.8h
	WORD $0x4e217b2d // fcvtl2 v13.4s, v25.8h
	WORD $0x4e217b4e // fcvtl2 v14.4s, v26.8h
	WORD $0x4e217b6f // fcvtl2 v15.4s, v27.8h
	// head 0, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd610 // fadd v16.4s, v16.4s, v28.4s
	CMP $1, R8
	BEQ g128pass1
	// head 1, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd631 // fadd v17.4s, v17.4s, v28.4s
	CMP $2, R8
	BEQ g128pass1
	// head 2, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd652 // fadd v18.4s, v18.4s, v28.4s
	CMP $3, R8
	BEQ g128pass1
	// head 3, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd673 // fadd v19.4s, v19.4s, v28.4s
	CMP $4, R8
	BEQ g128pass1
	// head 4, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd694 // fadd v20.4s, v20.4s, v28.4s
	CMP $5, R8
	BEQ g128pass1
	// head 5, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd6b5 // fadd v21.4s, v21.4s, v28.4s
	CMP $6, R8
	BEQ g128pass1
	// head 6, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd6d6 // fadd v22.4s, v22.4s, v28.4s
	CMP $7, R8
	BEQ g128pass1
	// head 7, odd vectors
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e20df1c // fmul v28.4s, v24.4s, v0.4s
	WORD $0x4e28cf3c // fmla v28.4s, v25.4s, v8.4s
	WORD $0x6e24df5d // fmul v29.4s, v26.4s, v4.4s
	WORD $0x4e2ccf7d // fmla v29.4s, v27.4s, v12.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e22df1d // fmul v29.4s, v24.4s, v2.4s
	WORD $0x4e2acf3d // fmla v29.4s, v25.4s, v10.4s
	WORD $0x6e26df5e // fmul v30.4s, v26.4s, v6.4s
	WORD $0x4e2ecf7e // fmla v30.4s, v27.4s, v14.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e21df1d // fmul v29.4s, v24.4s, v1.4s
	WORD $0x4e29cf3d // fmla v29.4s, v25.4s, v9.4s
	WORD $0x6e25df5e // fmul v30.4s, v26.4s, v5.4s
	WORD $0x4e2dcf7e // fmla v30.4s, v27.4s, v13.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4cdf28f8 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x7], #64
	WORD $0x6e23df1e // fmul v30.4s, v24.4s, v3.4s
	WORD $0x4e2bcf3e // fmla v30.4s, v25.4s, v11.4s
	WORD $0x6e27df5f // fmul v31.4s, v26.4s, v7.4s
	WORD $0x4e2fcf7f // fmla v31.4s, v27.4s, v15.4s
	WORD $0x4e3fd7de // fadd v30.4s, v30.4s, v31.4s
	WORD $0x4e3ed7bd // fadd v29.4s, v29.4s, v30.4s
	WORD $0x4e3dd79c // fadd v28.4s, v28.4s, v29.4s
	WORD $0x4e3cd6f7 // fadd v23.4s, v23.4s, v28.4s
g128pass1:
	WORD $0x4e911a18 // uzp1 v24.4s, v16.4s, v17.4s
	WORD $0x4e915a19 // uzp2 v25.4s, v16.4s, v17.4s
	WORD $0x4e931a5a // uzp1 v26.4s, v18.4s, v19.4s
	WORD $0x4e935a5b // uzp2 v27.4s, v18.4s, v19.4s
	WORD $0x6e3ad718 // faddp v24.4s, v24.4s, v26.4s
	WORD $0x6e3bd739 // faddp v25.4s, v25.4s, v27.4s
	WORD $0x4e951a9c // uzp1 v28.4s, v20.4s, v21.4s
	WORD $0x4e955a9d // uzp2 v29.4s, v20.4s, v21.4s
	WORD $0x4e971ade // uzp1 v30.4s, v22.4s, v23.4s
	WORD $0x4e975adf // uzp2 v31.4s, v22.4s, v23.4s
	WORD $0x6e3ed79c // faddp v28.4s, v28.4s, v30.4s
	WORD $0x6e3fd7bd // faddp v29.4s, v29.4s, v31.4s
	WORD $0x4e39d718 // fadd v24.4s, v24.4s, v25.4s
	WORD $0x4e3dd799 // fadd v25.4s, v28.4s, v29.4s
	WORD $0x4e040c9a // dup v26.4s, w4
	WORD $0x6e3adf18 // fmul v24.4s, v24.4s, v26.4s
	WORD $0x6e3adf39 // fmul v25.4s, v25.4s, v26.4s
	WORD $0x4c9fa8b8 // st1 {v24.4s, v25.4s}, [x5], #32
	ADD R2, R1, R1
	SUBS $1, R3, R3
	BNE g128pos
	RET

// func attnGroupSoftmaxNEON(sc *float32, span int)
// softmaxGo of each of the eight heads' scores sc[8j+h], j < span > 0,
// position-major, heads in the lanes (V0: heads 0-3, V1: 4-7): the maxima,
// the exponentials (zero for the padding up to a multiple of 16), hsum's
// tree over each 16 positions added to the float64 totals (V12-V15), then
// the f16-rounded probabilities.
TEXT ·attnGroupSoftmaxNEON(SB), NOSPLIT, $0-16
	MOVD sc+0(FP), R0
	MOVD span+8(FP), R1
	MOVD $attnNEONC<>(SB), R9
	WORD $0x4cdf2934 // ld1 {v20.4s, v21.4s, v22.4s, v23.4s}, [x9], #64
	WORD $0x4cdf2938 // ld1 {v24.4s, v25.4s, v26.4s, v27.4s}, [x9], #64
	WORD $0x4c40293c // ld1 {v28.4s, v29.4s, v30.4s, v31.4s}, [x9]
	WORD $0x6ea0fbf0 // fneg v16.4s, v31.4s
	WORD $0x6ea0fbf1 // fneg v17.4s, v31.4s
	MOVD R0, R4
	MOVD R1, R3
gmax:
	WORD $0x4cdfa880 // ld1 {v0.4s, v1.4s}, [x4], #32
	WORD $0x4e20f610 // fmax v16.4s, v16.4s, v0.4s
	WORD $0x4e21f631 // fmax v17.4s, v17.4s, v1.4s
	SUBS $1, R3, R3
	BNE gmax
	WORD $0x6f00e40c // movi v12.2d, #0
	WORD $0x6f00e40d // movi v13.2d, #0
	WORD $0x6f00e40e // movi v14.2d, #0
	WORD $0x6f00e40f // movi v15.2d, #0
	MOVD R0, R4
	MOVD R1, R5
gexp16:
	MOVD R4, R6
	MOVD $16, R3
gexp:
	CBZ R5, gzero
	WORD $0x4c40a880 // ld1 {v0.4s, v1.4s}, [x4]
	WORD $0x4eb0d400 // fsub v0.4s, v0.4s, v16.4s
	WORD $0x4eb1d421 // fsub v1.4s, v1.4s, v17.4s
	WORD $0x4eb41e82 // mov v2.16b, v20.16b
	WORD $0x4eb41e87 // mov v7.16b, v20.16b
	WORD $0x4e35cc02 // fmla v2.4s, v0.4s, v21.4s
	WORD $0x4e35cc27 // fmla v7.4s, v1.4s, v21.4s
	WORD $0x4eb4d442 // fsub v2.4s, v2.4s, v20.4s
	WORD $0x4eb4d4e7 // fsub v7.4s, v7.4s, v20.4s
	WORD $0x4ea01c03 // mov v3.16b, v0.16b
	WORD $0x4ea11c28 // mov v8.16b, v1.16b
	WORD $0x4eb6cc43 // fmls v3.4s, v2.4s, v22.4s
	WORD $0x4eb6cce8 // fmls v8.4s, v7.4s, v22.4s
	WORD $0x4eb7cc43 // fmls v3.4s, v2.4s, v23.4s
	WORD $0x4eb7cce8 // fmls v8.4s, v7.4s, v23.4s
	WORD $0x6e23dc64 // fmul v4.4s, v3.4s, v3.4s
	WORD $0x6e28dd09 // fmul v9.4s, v8.4s, v8.4s
	WORD $0x4eb91f25 // mov v5.16b, v25.16b
	WORD $0x4eb91f2a // mov v10.16b, v25.16b
	WORD $0x4e38cc65 // fmla v5.4s, v3.4s, v24.4s
	WORD $0x4e38cd0a // fmla v10.4s, v8.4s, v24.4s
	WORD $0x4ebb1f66 // mov v6.16b, v27.16b
	WORD $0x4ebb1f6b // mov v11.16b, v27.16b
	WORD $0x4e3acc66 // fmla v6.4s, v3.4s, v26.4s
	WORD $0x4e3acd0b // fmla v11.4s, v8.4s, v26.4s
	WORD $0x4e24cca6 // fmla v6.4s, v5.4s, v4.4s
	WORD $0x4e29cd4b // fmla v11.4s, v10.4s, v9.4s
	WORD $0x4ebd1fa0 // mov v0.16b, v29.16b
	WORD $0x4ebd1fa1 // mov v1.16b, v29.16b
	WORD $0x4e3ccc60 // fmla v0.4s, v3.4s, v28.4s
	WORD $0x4e3ccd01 // fmla v1.4s, v8.4s, v28.4s
	WORD $0x4e24ccc0 // fmla v0.4s, v6.4s, v4.4s
	WORD $0x4e29cd61 // fmla v1.4s, v11.4s, v9.4s
	WORD $0x4ea1b843 // fcvtzs v3.4s, v2.4s
	WORD $0x4ea1b8e8 // fcvtzs v8.4s, v7.4s
	WORD $0x4f3f0464 // sshr v4.4s, v3.4s, #1
	WORD $0x4f3f0509 // sshr v9.4s, v8.4s, #1
	WORD $0x6ea48463 // sub v3.4s, v3.4s, v4.4s
	WORD $0x6ea98508 // sub v8.4s, v8.4s, v9.4s
	WORD $0x4f375484 // shl v4.4s, v4.4s, #23
	WORD $0x4f375529 // shl v9.4s, v9.4s, #23
	WORD $0x4ebd8484 // add v4.4s, v4.4s, v29.4s
	WORD $0x4ebd8529 // add v9.4s, v9.4s, v29.4s
	WORD $0x4f375463 // shl v3.4s, v3.4s, #23
	WORD $0x4f375508 // shl v8.4s, v8.4s, #23
	WORD $0x4ebd8463 // add v3.4s, v3.4s, v29.4s
	WORD $0x4ebd8508 // add v8.4s, v8.4s, v29.4s
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e29dc21 // fmul v1.4s, v1.4s, v9.4s
	WORD $0x6e23dc00 // fmul v0.4s, v0.4s, v3.4s
	WORD $0x6e28dc21 // fmul v1.4s, v1.4s, v8.4s
	WORD $0x4ea0f844 // fabs v4.4s, v2.4s
	WORD $0x4ea0f8e9 // fabs v9.4s, v7.4s
	WORD $0x6ebee484 // fcmgt v4.4s, v4.4s, v30.4s
	WORD $0x6ebee529 // fcmgt v9.4s, v9.4s, v30.4s
	WORD $0x4ea0c845 // fcmgt v5.4s, v2.4s, #0.0
	WORD $0x4ea0c8ea // fcmgt v10.4s, v7.4s, #0.0
	WORD $0x4e3f1ca5 // and v5.16b, v5.16b, v31.16b
	WORD $0x4e3f1d4a // and v10.16b, v10.16b, v31.16b
	WORD $0x6ea41ca0 // bit v0.16b, v5.16b, v4.16b
	WORD $0x6ea91d41 // bit v1.16b, v10.16b, v9.16b
	WORD $0x4c9fa880 // st1 {v0.4s, v1.4s}, [x4], #32
	SUB $1, R5, R5
	B gnext
gzero:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4c9fa880 // st1 {v0.4s, v1.4s}, [x4], #32
gnext:
	SUBS $1, R3, R3
	BNE gexp
	// hsum over the 16 positions at R6 for both halves of the heads:
	// t_i = e_i+e_(i+8), then t_i+t_(i+4), then (t0+t2)+(t1+t3).
	WORD $0x3dc000c0 // ldr q0, [x6, #0]
	WORD $0x3dc040c1 // ldr q1, [x6, #256]
	WORD $0x4e21d402 // fadd v2.4s, v0.4s, v1.4s
	WORD $0x3dc008ca // ldr q10, [x6, #32]
	WORD $0x3dc048cb // ldr q11, [x6, #288]
	WORD $0x4e2bd543 // fadd v3.4s, v10.4s, v11.4s
	WORD $0x3dc010c0 // ldr q0, [x6, #64]
	WORD $0x3dc050c1 // ldr q1, [x6, #320]
	WORD $0x4e21d404 // fadd v4.4s, v0.4s, v1.4s
	WORD $0x3dc018ca // ldr q10, [x6, #96]
	WORD $0x3dc058cb // ldr q11, [x6, #352]
	WORD $0x4e2bd545 // fadd v5.4s, v10.4s, v11.4s
	WORD $0x3dc020c0 // ldr q0, [x6, #128]
	WORD $0x3dc060c1 // ldr q1, [x6, #384]
	WORD $0x4e21d406 // fadd v6.4s, v0.4s, v1.4s
	WORD $0x3dc028ca // ldr q10, [x6, #160]
	WORD $0x3dc068cb // ldr q11, [x6, #416]
	WORD $0x4e2bd547 // fadd v7.4s, v10.4s, v11.4s
	WORD $0x3dc030c0 // ldr q0, [x6, #192]
	WORD $0x3dc070c1 // ldr q1, [x6, #448]
	WORD $0x4e21d408 // fadd v8.4s, v0.4s, v1.4s
	WORD $0x3dc038ca // ldr q10, [x6, #224]
	WORD $0x3dc078cb // ldr q11, [x6, #480]
	WORD $0x4e2bd549 // fadd v9.4s, v10.4s, v11.4s
	WORD $0x4e26d440 // fadd v0.4s, v2.4s, v6.4s
	WORD $0x4e27d461 // fadd v1.4s, v3.4s, v7.4s
	WORD $0x4e28d482 // fadd v2.4s, v4.4s, v8.4s
	WORD $0x4e29d4a3 // fadd v3.4s, v5.4s, v9.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x0e617801 // fcvtl v1.2d, v0.2s
	WORD $0x4e617802 // fcvtl2 v2.2d, v0.4s
	WORD $0x4e61d58c // fadd v12.2d, v12.2d, v1.2d
	WORD $0x4e62d5ad // fadd v13.2d, v13.2d, v2.2d
	WORD $0x3dc004c0 // ldr q0, [x6, #16]
	WORD $0x3dc044c1 // ldr q1, [x6, #272]
	WORD $0x4e21d402 // fadd v2.4s, v0.4s, v1.4s
	WORD $0x3dc00cca // ldr q10, [x6, #48]
	WORD $0x3dc04ccb // ldr q11, [x6, #304]
	WORD $0x4e2bd543 // fadd v3.4s, v10.4s, v11.4s
	WORD $0x3dc014c0 // ldr q0, [x6, #80]
	WORD $0x3dc054c1 // ldr q1, [x6, #336]
	WORD $0x4e21d404 // fadd v4.4s, v0.4s, v1.4s
	WORD $0x3dc01cca // ldr q10, [x6, #112]
	WORD $0x3dc05ccb // ldr q11, [x6, #368]
	WORD $0x4e2bd545 // fadd v5.4s, v10.4s, v11.4s
	WORD $0x3dc024c0 // ldr q0, [x6, #144]
	WORD $0x3dc064c1 // ldr q1, [x6, #400]
	WORD $0x4e21d406 // fadd v6.4s, v0.4s, v1.4s
	WORD $0x3dc02cca // ldr q10, [x6, #176]
	WORD $0x3dc06ccb // ldr q11, [x6, #432]
	WORD $0x4e2bd547 // fadd v7.4s, v10.4s, v11.4s
	WORD $0x3dc034c0 // ldr q0, [x6, #208]
	WORD $0x3dc074c1 // ldr q1, [x6, #464]
	WORD $0x4e21d408 // fadd v8.4s, v0.4s, v1.4s
	WORD $0x3dc03cca // ldr q10, [x6, #240]
	WORD $0x3dc07ccb // ldr q11, [x6, #496]
	WORD $0x4e2bd549 // fadd v9.4s, v10.4s, v11.4s
	WORD $0x4e26d440 // fadd v0.4s, v2.4s, v6.4s
	WORD $0x4e27d461 // fadd v1.4s, v3.4s, v7.4s
	WORD $0x4e28d482 // fadd v2.4s, v4.4s, v8.4s
	WORD $0x4e29d4a3 // fadd v3.4s, v5.4s, v9.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x0e617801 // fcvtl v1.2d, v0.2s
	WORD $0x4e617802 // fcvtl2 v2.2d, v0.4s
	WORD $0x4e61d5ce // fadd v14.2d, v14.2d, v1.2d
	WORD $0x4e62d5ef // fadd v15.2d, v15.2d, v2.2d
	CBNZ R5, gexp16
	// inv_h = float32(1/total_h) in V16 (heads 0-3) and V17 (4-7).
	WORD $0x6f03f600 // fmov v0.2d, #1.0
	WORD $0x6e6cfc0c // fdiv v12.2d, v0.2d, v12.2d
	WORD $0x6e6dfc0d // fdiv v13.2d, v0.2d, v13.2d
	WORD $0x6e6efc0e // fdiv v14.2d, v0.2d, v14.2d
	WORD $0x6e6ffc0f // fdiv v15.2d, v0.2d, v15.2d
	WORD $0x0e616990 // fcvtn v16.2s, v12.2d
	WORD $0x4e6169b0 // fcvtn2 v16.4s, v13.2d
	WORD $0x0e6169d1 // fcvtn v17.2s, v14.2d
	WORD $0x4e6169f1 // fcvtn2 v17.4s, v15.2d
	MOVD R0, R4
	MOVD R1, R3
gnorm:
	WORD $0x4c40a880 // ld1 {v0.4s, v1.4s}, [x4]
	WORD $0x6e30dc00 // fmul v0.4s, v0.4s, v16.4s
	WORD $0x6e31dc21 // fmul v1.4s, v1.4s, v17.4s
	WORD $0x0e216800 // fcvtn v0.4h, v0.4s
	WORD $0x0e216821 // fcvtn v1.4h, v1.4s
	WORD $0x0e217800 // fcvtl v0.4s, v0.4h
	WORD $0x0e217821 // fcvtl v1.4s, v1.4h
	WORD $0x4c9fa880 // st1 {v0.4s, v1.4s}, [x4], #32
	SUBS $1, R3, R3
	BNE gnorm
	RET

// func attnGroupKQVNEON(sc *float32, v *uint16, stride int, span int, np int, scr *float32, out *float32)
// kqvVecGo for the eight heads of attnGroupSoftmaxNEON's probabilities
// (sc[8j+h], j < span > 0) and 64 values per position: out[64h+d] = o_h[d].
// The first np positions go to the 64 accumulator lanes j%64 in position
// order. For each 32 values (one 64-byte line of a cached row), each lane
// and each eight values e4 of the 32 (V20, V21: converted once for the
// eight heads), the sixteen accumulators V0-V15 (head h: V2h, V2h+1) run
// over the lane's positions and are stored to scr[4096·e4+64l+8h:] (per
// e4, 64 lanes · 8 heads · 8 floats); fold4's and hsum's trees then reduce
// the lanes of each head. Taking the lanes before the eights reads a line
// of the cache from memory once: its four eights follow each other. The
// positions from np to span are added in float64 per head (V0-V15: four
// heads' eight sums), as ggml_vec_dot_f16's tail.
TEXT ·attnGroupKQVNEON(SB), NOSPLIT, $0-56
	MOVD sc+0(FP), R0
	MOVD v+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVD np+32(FP), R4
	MOVD scr+40(FP), R5
	MOVD out+48(FP), R6
	LSL $6, R2, R7
	CBZ R4, kzero
	MOVD $0, R15
khalf:
	MOVD $0, R10
klane:
	MOVD $0, R16
keight:
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
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R15, R12, R12
	ADD R16, R12, R12
	LSL $5, R10, R13
	ADD R0, R13, R13
kpos:
	CMP R4, R11
	BGE kstore
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0x4c40a9b2 // ld1 {v18.4s, v19.4s}, [x13]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x4f921280 // fmla v0.4s, v20.4s, v18.s[0]
	WORD $0x4f9212a1 // fmla v1.4s, v21.4s, v18.s[0]
	WORD $0x4fb21282 // fmla v2.4s, v20.4s, v18.s[1]
	WORD $0x4fb212a3 // fmla v3.4s, v21.4s, v18.s[1]
	WORD $0x4f921a84 // fmla v4.4s, v20.4s, v18.s[2]
	WORD $0x4f921aa5 // fmla v5.4s, v21.4s, v18.s[2]
	WORD $0x4fb21a86 // fmla v6.4s, v20.4s, v18.s[3]
	WORD $0x4fb21aa7 // fmla v7.4s, v21.4s, v18.s[3]
	WORD $0x4f931288 // fmla v8.4s, v20.4s, v19.s[0]
	WORD $0x4f9312a9 // fmla v9.4s, v21.4s, v19.s[0]
	WORD $0x4fb3128a // fmla v10.4s, v20.4s, v19.s[1]
	WORD $0x4fb312ab // fmla v11.4s, v21.4s, v19.s[1]
	WORD $0x4f931a8c // fmla v12.4s, v20.4s, v19.s[2]
	WORD $0x4f931aad // fmla v13.4s, v21.4s, v19.s[2]
	WORD $0x4fb31a8e // fmla v14.4s, v20.4s, v19.s[3]
	WORD $0x4fb31aaf // fmla v15.4s, v21.4s, v19.s[3]
	ADD R7, R12, R12
	ADD $2048, R13, R13
	ADD $64, R11, R11
	B kpos
kstore:
	LSL $10, R16, R9
	ADD R5, R9, R9
	ADD R10<<8, R9, R9
	WORD $0x4c9f2920 // st1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x9], #64
	WORD $0x4c9f2924 // st1 {v4.4s, v5.4s, v6.4s, v7.4s}, [x9], #64
	WORD $0x4c9f2928 // st1 {v8.4s, v9.4s, v10.4s, v11.4s}, [x9], #64
	WORD $0x4c9f292c // st1 {v12.4s, v13.4s, v14.4s, v15.4s}, [x9], #64
	ADD $16, R16, R16
	CMP $64, R16
	BNE keight
	ADD $1, R10, R10
	CMP $64, R10
	BNE klane
	// Fold the 64 lanes of each eight values e4 and each head's two
	// vectors (i = 2h+half): v_l = (L_l+L_32+l)+(L_16+l+L_48+l), l < 16,
	// then hsum's tree.
	MOVD $0, R16
kfolde:
	MOVD $0, R10
kfold:
	LSL $10, R16, R11
	ADD R5, R11, R11
	ADD R10<<4, R11, R11
	LSR $1, R10, R12
	LSL $8, R12, R12
	AND $1, R10, R13
	LSL $4, R13, R13
	ADD R13, R12, R12
	ADD R15, R16, R8
	ADD R8<<1, R12, R12
	ADD R6, R12, R12
	WORD $0x3dc00170 // ldr q16, [x11, #0]
	WORD $0x3dc80171 // ldr q17, [x11, #8192]
	WORD $0x3dc40172 // ldr q18, [x11, #4096]
	WORD $0x3dcc0173 // ldr q19, [x11, #12288]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d600 // fadd v0.4s, v16.4s, v18.4s
	WORD $0x3dc04174 // ldr q20, [x11, #256]
	WORD $0x3dc84175 // ldr q21, [x11, #8448]
	WORD $0x3dc44176 // ldr q22, [x11, #4352]
	WORD $0x3dcc4177 // ldr q23, [x11, #12544]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d681 // fadd v1.4s, v20.4s, v22.4s
	WORD $0x3dc08170 // ldr q16, [x11, #512]
	WORD $0x3dc88171 // ldr q17, [x11, #8704]
	WORD $0x3dc48172 // ldr q18, [x11, #4608]
	WORD $0x3dcc8173 // ldr q19, [x11, #12800]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d602 // fadd v2.4s, v16.4s, v18.4s
	WORD $0x3dc0c174 // ldr q20, [x11, #768]
	WORD $0x3dc8c175 // ldr q21, [x11, #8960]
	WORD $0x3dc4c176 // ldr q22, [x11, #4864]
	WORD $0x3dccc177 // ldr q23, [x11, #13056]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d683 // fadd v3.4s, v20.4s, v22.4s
	WORD $0x3dc10170 // ldr q16, [x11, #1024]
	WORD $0x3dc90171 // ldr q17, [x11, #9216]
	WORD $0x3dc50172 // ldr q18, [x11, #5120]
	WORD $0x3dcd0173 // ldr q19, [x11, #13312]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d604 // fadd v4.4s, v16.4s, v18.4s
	WORD $0x3dc14174 // ldr q20, [x11, #1280]
	WORD $0x3dc94175 // ldr q21, [x11, #9472]
	WORD $0x3dc54176 // ldr q22, [x11, #5376]
	WORD $0x3dcd4177 // ldr q23, [x11, #13568]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d685 // fadd v5.4s, v20.4s, v22.4s
	WORD $0x3dc18170 // ldr q16, [x11, #1536]
	WORD $0x3dc98171 // ldr q17, [x11, #9728]
	WORD $0x3dc58172 // ldr q18, [x11, #5632]
	WORD $0x3dcd8173 // ldr q19, [x11, #13824]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d606 // fadd v6.4s, v16.4s, v18.4s
	WORD $0x3dc1c174 // ldr q20, [x11, #1792]
	WORD $0x3dc9c175 // ldr q21, [x11, #9984]
	WORD $0x3dc5c176 // ldr q22, [x11, #5888]
	WORD $0x3dcdc177 // ldr q23, [x11, #14080]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d687 // fadd v7.4s, v20.4s, v22.4s
	WORD $0x3dc20170 // ldr q16, [x11, #2048]
	WORD $0x3dca0171 // ldr q17, [x11, #10240]
	WORD $0x3dc60172 // ldr q18, [x11, #6144]
	WORD $0x3dce0173 // ldr q19, [x11, #14336]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d608 // fadd v8.4s, v16.4s, v18.4s
	WORD $0x3dc24174 // ldr q20, [x11, #2304]
	WORD $0x3dca4175 // ldr q21, [x11, #10496]
	WORD $0x3dc64176 // ldr q22, [x11, #6400]
	WORD $0x3dce4177 // ldr q23, [x11, #14592]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d689 // fadd v9.4s, v20.4s, v22.4s
	WORD $0x3dc28170 // ldr q16, [x11, #2560]
	WORD $0x3dca8171 // ldr q17, [x11, #10752]
	WORD $0x3dc68172 // ldr q18, [x11, #6656]
	WORD $0x3dce8173 // ldr q19, [x11, #14848]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60a // fadd v10.4s, v16.4s, v18.4s
	WORD $0x3dc2c174 // ldr q20, [x11, #2816]
	WORD $0x3dcac175 // ldr q21, [x11, #11008]
	WORD $0x3dc6c176 // ldr q22, [x11, #6912]
	WORD $0x3dcec177 // ldr q23, [x11, #15104]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68b // fadd v11.4s, v20.4s, v22.4s
	WORD $0x3dc30170 // ldr q16, [x11, #3072]
	WORD $0x3dcb0171 // ldr q17, [x11, #11264]
	WORD $0x3dc70172 // ldr q18, [x11, #7168]
	WORD $0x3dcf0173 // ldr q19, [x11, #15360]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60c // fadd v12.4s, v16.4s, v18.4s
	WORD $0x3dc34174 // ldr q20, [x11, #3328]
	WORD $0x3dcb4175 // ldr q21, [x11, #11520]
	WORD $0x3dc74176 // ldr q22, [x11, #7424]
	WORD $0x3dcf4177 // ldr q23, [x11, #15616]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68d // fadd v13.4s, v20.4s, v22.4s
	WORD $0x3dc38170 // ldr q16, [x11, #3584]
	WORD $0x3dcb8171 // ldr q17, [x11, #11776]
	WORD $0x3dc78172 // ldr q18, [x11, #7680]
	WORD $0x3dcf8173 // ldr q19, [x11, #15872]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60e // fadd v14.4s, v16.4s, v18.4s
	WORD $0x3dc3c174 // ldr q20, [x11, #3840]
	WORD $0x3dcbc175 // ldr q21, [x11, #12032]
	WORD $0x3dc7c176 // ldr q22, [x11, #7936]
	WORD $0x3dcfc177 // ldr q23, [x11, #16128]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68f // fadd v15.4s, v20.4s, v22.4s
	WORD $0x4e28d400 // fadd v0.4s, v0.4s, v8.4s
	WORD $0x4e29d421 // fadd v1.4s, v1.4s, v9.4s
	WORD $0x4e2ad442 // fadd v2.4s, v2.4s, v10.4s
	WORD $0x4e2bd463 // fadd v3.4s, v3.4s, v11.4s
	WORD $0x4e2cd484 // fadd v4.4s, v4.4s, v12.4s
	WORD $0x4e2dd4a5 // fadd v5.4s, v5.4s, v13.4s
	WORD $0x4e2ed4c6 // fadd v6.4s, v6.4s, v14.4s
	WORD $0x4e2fd4e7 // fadd v7.4s, v7.4s, v15.4s
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x3d800180 // str q0, [x12]
	ADD $1, R10, R10
	CMP $16, R10
	BNE kfold
	ADD $16, R16, R16
	CMP $64, R16
	BNE kfolde
	ADD $64, R15, R15
	CMP $128, R15
	BNE khalf
	B ktail
kzero:
	// No whole steps: the sums start at zero.
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	MOVD R6, R9
	MOVD $32, R10
kzerol:
	WORD $0x4c9f2920 // st1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x9], #64
	SUBS $1, R10, R10
	BNE kzerol
ktail:
	CMP R3, R4
	BEQ kdone
	// The positions np..span-1 in float64, for each eight values (R8 = 16e)
	// and each four heads (R10 = 0, 16: the heads' byte offset in sc).
	MOVD $0, R8
kteight:
	MOVD $0, R10
ktheads:
	LSL $4, R10, R11
	LSL $2, R11, R11
	ADD R6, R11, R11
	ADD R8<<1, R11, R11
	WORD $0x3dc00170 // ldr q16, [x11, #0]
	WORD $0x3dc00571 // ldr q17, [x11, #16]
	WORD $0x0e617a00 // fcvtl v0.2d, v16.2s
	WORD $0x4e617a01 // fcvtl2 v1.2d, v16.4s
	WORD $0x0e617a22 // fcvtl v2.2d, v17.2s
	WORD $0x4e617a23 // fcvtl2 v3.2d, v17.4s
	WORD $0x3dc04170 // ldr q16, [x11, #256]
	WORD $0x3dc04571 // ldr q17, [x11, #272]
	WORD $0x0e617a04 // fcvtl v4.2d, v16.2s
	WORD $0x4e617a05 // fcvtl2 v5.2d, v16.4s
	WORD $0x0e617a26 // fcvtl v6.2d, v17.2s
	WORD $0x4e617a27 // fcvtl2 v7.2d, v17.4s
	WORD $0x3dc08170 // ldr q16, [x11, #512]
	WORD $0x3dc08571 // ldr q17, [x11, #528]
	WORD $0x0e617a08 // fcvtl v8.2d, v16.2s
	WORD $0x4e617a09 // fcvtl2 v9.2d, v16.4s
	WORD $0x0e617a2a // fcvtl v10.2d, v17.2s
	WORD $0x4e617a2b // fcvtl2 v11.2d, v17.4s
	WORD $0x3dc0c170 // ldr q16, [x11, #768]
	WORD $0x3dc0c571 // ldr q17, [x11, #784]
	WORD $0x0e617a0c // fcvtl v12.2d, v16.2s
	WORD $0x4e617a0d // fcvtl2 v13.2d, v16.4s
	WORD $0x0e617a2e // fcvtl v14.2d, v17.2s
	WORD $0x4e617a2f // fcvtl2 v15.2d, v17.4s
	MOVD R4, R13
	MUL R2, R4, R12
	ADD R1, R12, R12
	ADD R8, R12, R12
	LSL $5, R4, R14
	ADD R0, R14, R14
	ADD R10, R14, R14
ktpos:
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0x3dc001d3 // ldr q19, [x14]
	WORD $0x0e217a11 // fcvtl v17.4s, v16.4h
	WORD $0x4e217a12 // fcvtl2 v18.4s, v16.8h
	WORD $0x4f939234 // fmul v20.4s, v17.4s, v19.s[0]
	WORD $0x4f939255 // fmul v21.4s, v18.4s, v19.s[0]
	WORD $0x0e617a96 // fcvtl v22.2d, v20.2s
	WORD $0x4e617a97 // fcvtl2 v23.2d, v20.4s
	WORD $0x0e617ab8 // fcvtl v24.2d, v21.2s
	WORD $0x4e617ab9 // fcvtl2 v25.2d, v21.4s
	WORD $0x4e76d400 // fadd v0.2d, v0.2d, v22.2d
	WORD $0x4e77d421 // fadd v1.2d, v1.2d, v23.2d
	WORD $0x4e78d442 // fadd v2.2d, v2.2d, v24.2d
	WORD $0x4e79d463 // fadd v3.2d, v3.2d, v25.2d
	WORD $0x4fb3923a // fmul v26.4s, v17.4s, v19.s[1]
	WORD $0x4fb3925b // fmul v27.4s, v18.4s, v19.s[1]
	WORD $0x0e617b5c // fcvtl v28.2d, v26.2s
	WORD $0x4e617b5d // fcvtl2 v29.2d, v26.4s
	WORD $0x0e617b7e // fcvtl v30.2d, v27.2s
	WORD $0x4e617b7f // fcvtl2 v31.2d, v27.4s
	WORD $0x4e7cd484 // fadd v4.2d, v4.2d, v28.2d
	WORD $0x4e7dd4a5 // fadd v5.2d, v5.2d, v29.2d
	WORD $0x4e7ed4c6 // fadd v6.2d, v6.2d, v30.2d
	WORD $0x4e7fd4e7 // fadd v7.2d, v7.2d, v31.2d
	WORD $0x4f939a34 // fmul v20.4s, v17.4s, v19.s[2]
	WORD $0x4f939a55 // fmul v21.4s, v18.4s, v19.s[2]
	WORD $0x0e617a96 // fcvtl v22.2d, v20.2s
	WORD $0x4e617a97 // fcvtl2 v23.2d, v20.4s
	WORD $0x0e617ab8 // fcvtl v24.2d, v21.2s
	WORD $0x4e617ab9 // fcvtl2 v25.2d, v21.4s
	WORD $0x4e76d508 // fadd v8.2d, v8.2d, v22.2d
	WORD $0x4e77d529 // fadd v9.2d, v9.2d, v23.2d
	WORD $0x4e78d54a // fadd v10.2d, v10.2d, v24.2d
	WORD $0x4e79d56b // fadd v11.2d, v11.2d, v25.2d
	WORD $0x4fb39a3a // fmul v26.4s, v17.4s, v19.s[3]
	WORD $0x4fb39a5b // fmul v27.4s, v18.4s, v19.s[3]
	WORD $0x0e617b5c // fcvtl v28.2d, v26.2s
	WORD $0x4e617b5d // fcvtl2 v29.2d, v26.4s
	WORD $0x0e617b7e // fcvtl v30.2d, v27.2s
	WORD $0x4e617b7f // fcvtl2 v31.2d, v27.4s
	WORD $0x4e7cd58c // fadd v12.2d, v12.2d, v28.2d
	WORD $0x4e7dd5ad // fadd v13.2d, v13.2d, v29.2d
	WORD $0x4e7ed5ce // fadd v14.2d, v14.2d, v30.2d
	WORD $0x4e7fd5ef // fadd v15.2d, v15.2d, v31.2d
	ADD R2, R12, R12
	ADD $32, R14, R14
	ADD $1, R13, R13
	CMP R3, R13
	BNE ktpos
	WORD $0x0e616810 // fcvtn v16.2s, v0.2d
	WORD $0x4e616830 // fcvtn2 v16.4s, v1.2d
	WORD $0x0e616851 // fcvtn v17.2s, v2.2d
	WORD $0x4e616871 // fcvtn2 v17.4s, v3.2d
	WORD $0x3d800170 // str q16, [x11, #0]
	WORD $0x3d800571 // str q17, [x11, #16]
	WORD $0x0e616890 // fcvtn v16.2s, v4.2d
	WORD $0x4e6168b0 // fcvtn2 v16.4s, v5.2d
	WORD $0x0e6168d1 // fcvtn v17.2s, v6.2d
	WORD $0x4e6168f1 // fcvtn2 v17.4s, v7.2d
	WORD $0x3d804170 // str q16, [x11, #256]
	WORD $0x3d804571 // str q17, [x11, #272]
	WORD $0x0e616910 // fcvtn v16.2s, v8.2d
	WORD $0x4e616930 // fcvtn2 v16.4s, v9.2d
	WORD $0x0e616951 // fcvtn v17.2s, v10.2d
	WORD $0x4e616971 // fcvtn2 v17.4s, v11.2d
	WORD $0x3d808170 // str q16, [x11, #512]
	WORD $0x3d808571 // str q17, [x11, #528]
	WORD $0x0e616990 // fcvtn v16.2s, v12.2d
	WORD $0x4e6169b0 // fcvtn2 v16.4s, v13.2d
	WORD $0x0e6169d1 // fcvtn v17.2s, v14.2d
	WORD $0x4e6169f1 // fcvtn2 v17.4s, v15.2d
	WORD $0x3d80c170 // str q16, [x11, #768]
	WORD $0x3d80c571 // str q17, [x11, #784]
	ADD $16, R10, R10
	CMP $32, R10
	BNE ktheads
	ADD $16, R8, R8
	CMP $128, R8
	BNE kteight
kdone:
	RET

// func attnGroupKQV4NEON(sc *float32, v *uint16, stride int, span int, np int, scr *float32, out *float32)
// attnGroupKQVNEON for the first four heads only (groups of up to four
// query heads, as Llama 3 8B's and Mistral 7B's): the same sums in the
// same order, but each lane's pass takes sixteen values (two eights e4,
// V20-V23) for the four heads, so no multiply-add is spent on absent
// heads. The accumulators, V(8e+2h) and V(8e+2h+1) for eight e of the
// pass, go to the same places of scr as attnGroupKQVNEON's, and its folds
// and tail run for heads 0-3; out[64h+d] for h < 4.
TEXT ·attnGroupKQV4NEON(SB), NOSPLIT, $0-56
	MOVD sc+0(FP), R0
	MOVD v+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVD np+32(FP), R4
	MOVD scr+40(FP), R5
	MOVD out+48(FP), R6
	LSL $6, R2, R7
	CBZ R4, k4zero
	MOVD $0, R15
k4half:
	MOVD $0, R10
k4lane:
	MOVD $0, R16
k4eight:
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
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R15, R12, R12
	ADD R16, R12, R12
	LSL $5, R10, R13
	ADD R0, R13, R13
k4pos:
	CMP R4, R11
	BGE k4store
	WORD $0x4c40a590 // ld1 {v16.8h, v17.8h}, [x12]
	WORD $0x3dc001b2 // ldr q18, [x13]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x0e217a36 // fcvtl v22.4s, v17.4h
	WORD $0x4e217a37 // fcvtl2 v23.4s, v17.8h
	WORD $0x4f921280 // fmla v0.4s, v20.4s, v18.s[0]
	WORD $0x4f9212a1 // fmla v1.4s, v21.4s, v18.s[0]
	WORD $0x4fb21282 // fmla v2.4s, v20.4s, v18.s[1]
	WORD $0x4fb212a3 // fmla v3.4s, v21.4s, v18.s[1]
	WORD $0x4f921a84 // fmla v4.4s, v20.4s, v18.s[2]
	WORD $0x4f921aa5 // fmla v5.4s, v21.4s, v18.s[2]
	WORD $0x4fb21a86 // fmla v6.4s, v20.4s, v18.s[3]
	WORD $0x4fb21aa7 // fmla v7.4s, v21.4s, v18.s[3]
	WORD $0x4f9212c8 // fmla v8.4s, v22.4s, v18.s[0]
	WORD $0x4f9212e9 // fmla v9.4s, v23.4s, v18.s[0]
	WORD $0x4fb212ca // fmla v10.4s, v22.4s, v18.s[1]
	WORD $0x4fb212eb // fmla v11.4s, v23.4s, v18.s[1]
	WORD $0x4f921acc // fmla v12.4s, v22.4s, v18.s[2]
	WORD $0x4f921aed // fmla v13.4s, v23.4s, v18.s[2]
	WORD $0x4fb21ace // fmla v14.4s, v22.4s, v18.s[3]
	WORD $0x4fb21aef // fmla v15.4s, v23.4s, v18.s[3]
	ADD R7, R12, R12
	ADD $2048, R13, R13
	ADD $64, R11, R11
	B k4pos
k4store:
	LSL $10, R16, R9
	ADD R5, R9, R9
	ADD R10<<8, R9, R9
	WORD $0x4c9f2920 // st1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x9], #64
	WORD $0x4c002924 // st1 {v4.4s, v5.4s, v6.4s, v7.4s}, [x9]
	ADD $16320, R9, R9
	WORD $0x4c9f2928 // st1 {v8.4s, v9.4s, v10.4s, v11.4s}, [x9], #64
	WORD $0x4c00292c // st1 {v12.4s, v13.4s, v14.4s, v15.4s}, [x9]
	ADD $32, R16, R16
	CMP $64, R16
	BNE k4eight
	ADD $1, R10, R10
	CMP $64, R10
	BNE k4lane
	// Fold the 64 lanes of each eight values e4 and each head's two
	// vectors (i = 2h+half, h < 4): v_l = (L_l+L_32+l)+(L_16+l+L_48+l), l < 16,
	// then hsum's tree.
	MOVD $0, R16
k4folde:
	MOVD $0, R10
k4fold:
	LSL $10, R16, R11
	ADD R5, R11, R11
	ADD R10<<4, R11, R11
	LSR $1, R10, R12
	LSL $8, R12, R12
	AND $1, R10, R13
	LSL $4, R13, R13
	ADD R13, R12, R12
	ADD R15, R16, R8
	ADD R8<<1, R12, R12
	ADD R6, R12, R12
	WORD $0x3dc00170 // ldr q16, [x11, #0]
	WORD $0x3dc80171 // ldr q17, [x11, #8192]
	WORD $0x3dc40172 // ldr q18, [x11, #4096]
	WORD $0x3dcc0173 // ldr q19, [x11, #12288]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d600 // fadd v0.4s, v16.4s, v18.4s
	WORD $0x3dc04174 // ldr q20, [x11, #256]
	WORD $0x3dc84175 // ldr q21, [x11, #8448]
	WORD $0x3dc44176 // ldr q22, [x11, #4352]
	WORD $0x3dcc4177 // ldr q23, [x11, #12544]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d681 // fadd v1.4s, v20.4s, v22.4s
	WORD $0x3dc08170 // ldr q16, [x11, #512]
	WORD $0x3dc88171 // ldr q17, [x11, #8704]
	WORD $0x3dc48172 // ldr q18, [x11, #4608]
	WORD $0x3dcc8173 // ldr q19, [x11, #12800]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d602 // fadd v2.4s, v16.4s, v18.4s
	WORD $0x3dc0c174 // ldr q20, [x11, #768]
	WORD $0x3dc8c175 // ldr q21, [x11, #8960]
	WORD $0x3dc4c176 // ldr q22, [x11, #4864]
	WORD $0x3dccc177 // ldr q23, [x11, #13056]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d683 // fadd v3.4s, v20.4s, v22.4s
	WORD $0x3dc10170 // ldr q16, [x11, #1024]
	WORD $0x3dc90171 // ldr q17, [x11, #9216]
	WORD $0x3dc50172 // ldr q18, [x11, #5120]
	WORD $0x3dcd0173 // ldr q19, [x11, #13312]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d604 // fadd v4.4s, v16.4s, v18.4s
	WORD $0x3dc14174 // ldr q20, [x11, #1280]
	WORD $0x3dc94175 // ldr q21, [x11, #9472]
	WORD $0x3dc54176 // ldr q22, [x11, #5376]
	WORD $0x3dcd4177 // ldr q23, [x11, #13568]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d685 // fadd v5.4s, v20.4s, v22.4s
	WORD $0x3dc18170 // ldr q16, [x11, #1536]
	WORD $0x3dc98171 // ldr q17, [x11, #9728]
	WORD $0x3dc58172 // ldr q18, [x11, #5632]
	WORD $0x3dcd8173 // ldr q19, [x11, #13824]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d606 // fadd v6.4s, v16.4s, v18.4s
	WORD $0x3dc1c174 // ldr q20, [x11, #1792]
	WORD $0x3dc9c175 // ldr q21, [x11, #9984]
	WORD $0x3dc5c176 // ldr q22, [x11, #5888]
	WORD $0x3dcdc177 // ldr q23, [x11, #14080]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d687 // fadd v7.4s, v20.4s, v22.4s
	WORD $0x3dc20170 // ldr q16, [x11, #2048]
	WORD $0x3dca0171 // ldr q17, [x11, #10240]
	WORD $0x3dc60172 // ldr q18, [x11, #6144]
	WORD $0x3dce0173 // ldr q19, [x11, #14336]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d608 // fadd v8.4s, v16.4s, v18.4s
	WORD $0x3dc24174 // ldr q20, [x11, #2304]
	WORD $0x3dca4175 // ldr q21, [x11, #10496]
	WORD $0x3dc64176 // ldr q22, [x11, #6400]
	WORD $0x3dce4177 // ldr q23, [x11, #14592]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d689 // fadd v9.4s, v20.4s, v22.4s
	WORD $0x3dc28170 // ldr q16, [x11, #2560]
	WORD $0x3dca8171 // ldr q17, [x11, #10752]
	WORD $0x3dc68172 // ldr q18, [x11, #6656]
	WORD $0x3dce8173 // ldr q19, [x11, #14848]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60a // fadd v10.4s, v16.4s, v18.4s
	WORD $0x3dc2c174 // ldr q20, [x11, #2816]
	WORD $0x3dcac175 // ldr q21, [x11, #11008]
	WORD $0x3dc6c176 // ldr q22, [x11, #6912]
	WORD $0x3dcec177 // ldr q23, [x11, #15104]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68b // fadd v11.4s, v20.4s, v22.4s
	WORD $0x3dc30170 // ldr q16, [x11, #3072]
	WORD $0x3dcb0171 // ldr q17, [x11, #11264]
	WORD $0x3dc70172 // ldr q18, [x11, #7168]
	WORD $0x3dcf0173 // ldr q19, [x11, #15360]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60c // fadd v12.4s, v16.4s, v18.4s
	WORD $0x3dc34174 // ldr q20, [x11, #3328]
	WORD $0x3dcb4175 // ldr q21, [x11, #11520]
	WORD $0x3dc74176 // ldr q22, [x11, #7424]
	WORD $0x3dcf4177 // ldr q23, [x11, #15616]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68d // fadd v13.4s, v20.4s, v22.4s
	WORD $0x3dc38170 // ldr q16, [x11, #3584]
	WORD $0x3dcb8171 // ldr q17, [x11, #11776]
	WORD $0x3dc78172 // ldr q18, [x11, #7680]
	WORD $0x3dcf8173 // ldr q19, [x11, #15872]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60e // fadd v14.4s, v16.4s, v18.4s
	WORD $0x3dc3c174 // ldr q20, [x11, #3840]
	WORD $0x3dcbc175 // ldr q21, [x11, #12032]
	WORD $0x3dc7c176 // ldr q22, [x11, #7936]
	WORD $0x3dcfc177 // ldr q23, [x11, #16128]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68f // fadd v15.4s, v20.4s, v22.4s
	WORD $0x4e28d400 // fadd v0.4s, v0.4s, v8.4s
	WORD $0x4e29d421 // fadd v1.4s, v1.4s, v9.4s
	WORD $0x4e2ad442 // fadd v2.4s, v2.4s, v10.4s
	WORD $0x4e2bd463 // fadd v3.4s, v3.4s, v11.4s
	WORD $0x4e2cd484 // fadd v4.4s, v4.4s, v12.4s
	WORD $0x4e2dd4a5 // fadd v5.4s, v5.4s, v13.4s
	WORD $0x4e2ed4c6 // fadd v6.4s, v6.4s, v14.4s
	WORD $0x4e2fd4e7 // fadd v7.4s, v7.4s, v15.4s
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x3d800180 // str q0, [x12]
	ADD $1, R10, R10
	CMP $8, R10
	BNE k4fold
	ADD $16, R16, R16
	CMP $64, R16
	BNE k4folde
	ADD $64, R15, R15
	CMP $128, R15
	BNE k4half
	B k4tail
k4zero:
	// No whole steps: the sums start at zero.
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	MOVD R6, R9
	MOVD $16, R10
k4zerol:
	WORD $0x4c9f2920 // st1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x9], #64
	SUBS $1, R10, R10
	BNE k4zerol
k4tail:
	CMP R3, R4
	BEQ k4done
	// The positions np..span-1 in float64, for each eight values (R8 = 16e)
	// and each four heads (R10 = 0, 16: the heads' byte offset in sc).
	MOVD $0, R8
k4teight:
	MOVD $0, R10
k4theads:
	LSL $4, R10, R11
	LSL $2, R11, R11
	ADD R6, R11, R11
	ADD R8<<1, R11, R11
	WORD $0x3dc00170 // ldr q16, [x11, #0]
	WORD $0x3dc00571 // ldr q17, [x11, #16]
	WORD $0x0e617a00 // fcvtl v0.2d, v16.2s
	WORD $0x4e617a01 // fcvtl2 v1.2d, v16.4s
	WORD $0x0e617a22 // fcvtl v2.2d, v17.2s
	WORD $0x4e617a23 // fcvtl2 v3.2d, v17.4s
	WORD $0x3dc04170 // ldr q16, [x11, #256]
	WORD $0x3dc04571 // ldr q17, [x11, #272]
	WORD $0x0e617a04 // fcvtl v4.2d, v16.2s
	WORD $0x4e617a05 // fcvtl2 v5.2d, v16.4s
	WORD $0x0e617a26 // fcvtl v6.2d, v17.2s
	WORD $0x4e617a27 // fcvtl2 v7.2d, v17.4s
	WORD $0x3dc08170 // ldr q16, [x11, #512]
	WORD $0x3dc08571 // ldr q17, [x11, #528]
	WORD $0x0e617a08 // fcvtl v8.2d, v16.2s
	WORD $0x4e617a09 // fcvtl2 v9.2d, v16.4s
	WORD $0x0e617a2a // fcvtl v10.2d, v17.2s
	WORD $0x4e617a2b // fcvtl2 v11.2d, v17.4s
	WORD $0x3dc0c170 // ldr q16, [x11, #768]
	WORD $0x3dc0c571 // ldr q17, [x11, #784]
	WORD $0x0e617a0c // fcvtl v12.2d, v16.2s
	WORD $0x4e617a0d // fcvtl2 v13.2d, v16.4s
	WORD $0x0e617a2e // fcvtl v14.2d, v17.2s
	WORD $0x4e617a2f // fcvtl2 v15.2d, v17.4s
	MOVD R4, R13
	MUL R2, R4, R12
	ADD R1, R12, R12
	ADD R8, R12, R12
	LSL $5, R4, R14
	ADD R0, R14, R14
	ADD R10, R14, R14
k4tpos:
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0x3dc001d3 // ldr q19, [x14]
	WORD $0x0e217a11 // fcvtl v17.4s, v16.4h
	WORD $0x4e217a12 // fcvtl2 v18.4s, v16.8h
	WORD $0x4f939234 // fmul v20.4s, v17.4s, v19.s[0]
	WORD $0x4f939255 // fmul v21.4s, v18.4s, v19.s[0]
	WORD $0x0e617a96 // fcvtl v22.2d, v20.2s
	WORD $0x4e617a97 // fcvtl2 v23.2d, v20.4s
	WORD $0x0e617ab8 // fcvtl v24.2d, v21.2s
	WORD $0x4e617ab9 // fcvtl2 v25.2d, v21.4s
	WORD $0x4e76d400 // fadd v0.2d, v0.2d, v22.2d
	WORD $0x4e77d421 // fadd v1.2d, v1.2d, v23.2d
	WORD $0x4e78d442 // fadd v2.2d, v2.2d, v24.2d
	WORD $0x4e79d463 // fadd v3.2d, v3.2d, v25.2d
	WORD $0x4fb3923a // fmul v26.4s, v17.4s, v19.s[1]
	WORD $0x4fb3925b // fmul v27.4s, v18.4s, v19.s[1]
	WORD $0x0e617b5c // fcvtl v28.2d, v26.2s
	WORD $0x4e617b5d // fcvtl2 v29.2d, v26.4s
	WORD $0x0e617b7e // fcvtl v30.2d, v27.2s
	WORD $0x4e617b7f // fcvtl2 v31.2d, v27.4s
	WORD $0x4e7cd484 // fadd v4.2d, v4.2d, v28.2d
	WORD $0x4e7dd4a5 // fadd v5.2d, v5.2d, v29.2d
	WORD $0x4e7ed4c6 // fadd v6.2d, v6.2d, v30.2d
	WORD $0x4e7fd4e7 // fadd v7.2d, v7.2d, v31.2d
	WORD $0x4f939a34 // fmul v20.4s, v17.4s, v19.s[2]
	WORD $0x4f939a55 // fmul v21.4s, v18.4s, v19.s[2]
	WORD $0x0e617a96 // fcvtl v22.2d, v20.2s
	WORD $0x4e617a97 // fcvtl2 v23.2d, v20.4s
	WORD $0x0e617ab8 // fcvtl v24.2d, v21.2s
	WORD $0x4e617ab9 // fcvtl2 v25.2d, v21.4s
	WORD $0x4e76d508 // fadd v8.2d, v8.2d, v22.2d
	WORD $0x4e77d529 // fadd v9.2d, v9.2d, v23.2d
	WORD $0x4e78d54a // fadd v10.2d, v10.2d, v24.2d
	WORD $0x4e79d56b // fadd v11.2d, v11.2d, v25.2d
	WORD $0x4fb39a3a // fmul v26.4s, v17.4s, v19.s[3]
	WORD $0x4fb39a5b // fmul v27.4s, v18.4s, v19.s[3]
	WORD $0x0e617b5c // fcvtl v28.2d, v26.2s
	WORD $0x4e617b5d // fcvtl2 v29.2d, v26.4s
	WORD $0x0e617b7e // fcvtl v30.2d, v27.2s
	WORD $0x4e617b7f // fcvtl2 v31.2d, v27.4s
	WORD $0x4e7cd58c // fadd v12.2d, v12.2d, v28.2d
	WORD $0x4e7dd5ad // fadd v13.2d, v13.2d, v29.2d
	WORD $0x4e7ed5ce // fadd v14.2d, v14.2d, v30.2d
	WORD $0x4e7fd5ef // fadd v15.2d, v15.2d, v31.2d
	ADD R2, R12, R12
	ADD $32, R14, R14
	ADD $1, R13, R13
	CMP R3, R13
	BNE k4tpos
	WORD $0x0e616810 // fcvtn v16.2s, v0.2d
	WORD $0x4e616830 // fcvtn2 v16.4s, v1.2d
	WORD $0x0e616851 // fcvtn v17.2s, v2.2d
	WORD $0x4e616871 // fcvtn2 v17.4s, v3.2d
	WORD $0x3d800170 // str q16, [x11, #0]
	WORD $0x3d800571 // str q17, [x11, #16]
	WORD $0x0e616890 // fcvtn v16.2s, v4.2d
	WORD $0x4e6168b0 // fcvtn2 v16.4s, v5.2d
	WORD $0x0e6168d1 // fcvtn v17.2s, v6.2d
	WORD $0x4e6168f1 // fcvtn2 v17.4s, v7.2d
	WORD $0x3d804170 // str q16, [x11, #256]
	WORD $0x3d804571 // str q17, [x11, #272]
	WORD $0x0e616910 // fcvtn v16.2s, v8.2d
	WORD $0x4e616930 // fcvtn2 v16.4s, v9.2d
	WORD $0x0e616951 // fcvtn v17.2s, v10.2d
	WORD $0x4e616971 // fcvtn2 v17.4s, v11.2d
	WORD $0x3d808170 // str q16, [x11, #512]
	WORD $0x3d808571 // str q17, [x11, #528]
	WORD $0x0e616990 // fcvtn v16.2s, v12.2d
	WORD $0x4e6169b0 // fcvtn2 v16.4s, v13.2d
	WORD $0x0e6169d1 // fcvtn v17.2s, v14.2d
	WORD $0x4e6169f1 // fcvtn2 v17.4s, v15.2d
	WORD $0x3d80c170 // str q16, [x11, #768]
	WORD $0x3d80c571 // str q17, [x11, #784]
	ADD $16, R10, R10
	CMP $16, R10
	BNE k4theads
	ADD $16, R8, R8
	CMP $128, R8
	BNE k4teight
k4done:
	RET

// func attnScoresVecNEON(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)
// s[j] = dotF16(q16, k_j)·scale for span > 0 positions, hd > 0: the whole
// 64-element steps into V0-V15 (lane l of the Go accumulator is lane l%4
// of V(l/4)), fold4 and hsum, then the other elements added one by one in
// float64.
TEXT ·attnScoresVecNEON(SB), NOSPLIT, $0-56
	MOVD qf+0(FP), R0
	MOVD k+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD hd+24(FP), R3
	MOVD span+32(FP), R4
	FMOVS scale+40(FP), F30
	MOVD s+48(FP), R5
	LSR $6, R3, R6
svpos:
	MOVD R0, R10
	MOVD R1, R11
	AND $63, R3, R12
	CBZ R6, svnovec
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
	MOVD R6, R13
svstep:
	WORD $0x4cdfa570 // ld1 {v16.8h, v17.8h}, [x11], #32
	WORD $0x4cdf2956 // ld1 {v22.4s, v23.4s, v24.4s, v25.4s}, [x10], #64
	WORD $0x0e217a12 // fcvtl v18.4s, v16.4h
	WORD $0x4e217a13 // fcvtl2 v19.4s, v16.8h
	WORD $0x0e217a34 // fcvtl v20.4s, v17.4h
	WORD $0x4e217a35 // fcvtl2 v21.4s, v17.8h
	WORD $0x4e32cec0 // fmla v0.4s, v22.4s, v18.4s
	WORD $0x4e33cee1 // fmla v1.4s, v23.4s, v19.4s
	WORD $0x4e34cf02 // fmla v2.4s, v24.4s, v20.4s
	WORD $0x4e35cf23 // fmla v3.4s, v25.4s, v21.4s
	WORD $0x4cdfa570 // ld1 {v16.8h, v17.8h}, [x11], #32
	WORD $0x4cdf2956 // ld1 {v22.4s, v23.4s, v24.4s, v25.4s}, [x10], #64
	WORD $0x0e217a12 // fcvtl v18.4s, v16.4h
	WORD $0x4e217a13 // fcvtl2 v19.4s, v16.8h
	WORD $0x0e217a34 // fcvtl v20.4s, v17.4h
	WORD $0x4e217a35 // fcvtl2 v21.4s, v17.8h
	WORD $0x4e32cec4 // fmla v4.4s, v22.4s, v18.4s
	WORD $0x4e33cee5 // fmla v5.4s, v23.4s, v19.4s
	WORD $0x4e34cf06 // fmla v6.4s, v24.4s, v20.4s
	WORD $0x4e35cf27 // fmla v7.4s, v25.4s, v21.4s
	WORD $0x4cdfa570 // ld1 {v16.8h, v17.8h}, [x11], #32
	WORD $0x4cdf2956 // ld1 {v22.4s, v23.4s, v24.4s, v25.4s}, [x10], #64
	WORD $0x0e217a12 // fcvtl v18.4s, v16.4h
	WORD $0x4e217a13 // fcvtl2 v19.4s, v16.8h
	WORD $0x0e217a34 // fcvtl v20.4s, v17.4h
	WORD $0x4e217a35 // fcvtl2 v21.4s, v17.8h
	WORD $0x4e32cec8 // fmla v8.4s, v22.4s, v18.4s
	WORD $0x4e33cee9 // fmla v9.4s, v23.4s, v19.4s
	WORD $0x4e34cf0a // fmla v10.4s, v24.4s, v20.4s
	WORD $0x4e35cf2b // fmla v11.4s, v25.4s, v21.4s
	WORD $0x4cdfa570 // ld1 {v16.8h, v17.8h}, [x11], #32
	WORD $0x4cdf2956 // ld1 {v22.4s, v23.4s, v24.4s, v25.4s}, [x10], #64
	WORD $0x0e217a12 // fcvtl v18.4s, v16.4h
	WORD $0x4e217a13 // fcvtl2 v19.4s, v16.8h
	WORD $0x0e217a34 // fcvtl v20.4s, v17.4h
	WORD $0x4e217a35 // fcvtl2 v21.4s, v17.8h
	WORD $0x4e32cecc // fmla v12.4s, v22.4s, v18.4s
	WORD $0x4e33ceed // fmla v13.4s, v23.4s, v19.4s
	WORD $0x4e34cf0e // fmla v14.4s, v24.4s, v20.4s
	WORD $0x4e35cf2f // fmla v15.4s, v25.4s, v21.4s
	SUBS $1, R13, R13
	BNE svstep
	WORD $0x4e28d400 // fadd v0.4s, v0.4s, v8.4s
	WORD $0x4e2cd484 // fadd v4.4s, v4.4s, v12.4s
	WORD $0x4e29d421 // fadd v1.4s, v1.4s, v9.4s
	WORD $0x4e2dd4a5 // fadd v5.4s, v5.4s, v13.4s
	WORD $0x4e2ad442 // fadd v2.4s, v2.4s, v10.4s
	WORD $0x4e2ed4c6 // fadd v6.4s, v6.4s, v14.4s
	WORD $0x4e2bd463 // fadd v3.4s, v3.4s, v11.4s
	WORD $0x4e2fd4e7 // fadd v7.4s, v7.4s, v15.4s
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	// No other elements: float32(float64(x)) is x.
	CBZ R12, svscale
	WORD $0x1e22c01f // fcvt d31, s0
	B svt
svnovec:
	WORD $0x2f00e41f // movi d31, #0
svt:
	WORD $0x7c402570 // ldr h16, [x11], #2
	WORD $0xbc404551 // ldr s17, [x10], #4
	WORD $0x1ee24210 // fcvt s16, h16
	WORD $0x1e310a10 // fmul s16, s16, s17
	WORD $0x1e22c210 // fcvt d16, s16
	WORD $0x1e702bff // fadd d31, d31, d16
	SUBS $1, R12, R12
	BNE svt
	WORD $0x1e6243e0 // fcvt s0, d31
svscale:
	WORD $0x1e3e0800 // fmul s0, s0, s30
	WORD $0xbc0044a0 // str s0, [x5], #4
	ADD R2, R1, R1
	SUBS $1, R4, R4
	BNE svpos
	RET

// func attnScoresTinyNEON(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)
// s[j] = dotF16Tiny(q16, k_j)·scale for span > 0 positions of 16·chunks
// elements: one 16-lane accumulator (V0-V3), then hsum.
TEXT ·attnScoresTinyNEON(SB), NOSPLIT, $0-56
	MOVD qf+0(FP), R0
	MOVD k+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD chunks+24(FP), R3
	MOVD span+32(FP), R4
	FMOVS scale+40(FP), F30
	MOVD s+48(FP), R5
stpos:
	MOVD R0, R10
	MOVD R1, R11
	MOVD R3, R12
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
stchunk:
	WORD $0x4cdfa570 // ld1 {v16.8h, v17.8h}, [x11], #32
	WORD $0x4cdf2956 // ld1 {v22.4s, v23.4s, v24.4s, v25.4s}, [x10], #64
	WORD $0x0e217a12 // fcvtl v18.4s, v16.4h
	WORD $0x4e217a13 // fcvtl2 v19.4s, v16.8h
	WORD $0x0e217a34 // fcvtl v20.4s, v17.4h
	WORD $0x4e217a35 // fcvtl2 v21.4s, v17.8h
	WORD $0x4e32cec0 // fmla v0.4s, v22.4s, v18.4s
	WORD $0x4e33cee1 // fmla v1.4s, v23.4s, v19.4s
	WORD $0x4e34cf02 // fmla v2.4s, v24.4s, v20.4s
	WORD $0x4e35cf23 // fmla v3.4s, v25.4s, v21.4s
	SUBS $1, R12, R12
	BNE stchunk
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x6e004001 // ext v1.16b, v0.16b, v0.16b, #8
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x7e30d800 // faddp s0, v0.2s
	WORD $0x1e3e0800 // fmul s0, s0, s30
	WORD $0xbc0044a0 // str s0, [x5], #4
	ADD R2, R1, R1
	SUBS $1, R4, R4
	BNE stpos
	RET

// func attnKQVVecNEON(p *float32, v *uint16, stride int, span int, np int, hd int, scr *float32, o *float32)
// kqvVecGo for hd > 0 a multiple of 8 and span > 0: the first np
// positions into the 64 accumulator lanes j%64 (values d..d+3 of lane l,
// d a multiple of 4, at scr[4·(64·(d/4)+l):], so that fold4's and hsum's
// trees add whole vectors of four values), the others added in float64.
// The values are taken 32 at a time (a 64-byte line of a cached row, one
// pass over the lanes), then 8 at a time.
TEXT ·attnKQVVecNEON(SB), NOSPLIT, $0-64
	MOVD p+0(FP), R0
	MOVD v+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVD np+32(FP), R4
	MOVD hd+40(FP), R5
	MOVD scr+48(FP), R6
	MOVD o+56(FP), R7
	MOVD $64, R8
	MUL R2, R8, R8
	CBZ R4, attnKQVVecNEONzero
	MOVD $0, R9
attnKQVVecNEONchunk:
	SUB R9, R5, R14
	CMP $32, R14
	BLT attnKQVVecNEONnarrow
	MOVD $0, R10
attnKQVVecNEONwlane:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R9<<1, R12, R12
	ADD R10<<2, R0, R13
attnKQVVecNEONwpos:
	CMP R4, R11
	BGE attnKQVVecNEONwstore
	WORD $0x4c402590 // ld1 {v16.8h, v17.8h, v18.8h, v19.8h}, [x12]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x0e217a36 // fcvtl v22.4s, v17.4h
	WORD $0x4e217a37 // fcvtl2 v23.4s, v17.8h
	WORD $0x0e217a58 // fcvtl v24.4s, v18.4h
	WORD $0x4e217a59 // fcvtl2 v25.4s, v18.8h
	WORD $0x0e217a7a // fcvtl v26.4s, v19.4h
	WORD $0x4e217a7b // fcvtl2 v27.4s, v19.8h
	WORD $0xbd4001bc // ldr s28, [x13]
	WORD $0x4f9c1280 // fmla v0.4s, v20.4s, v28.s[0]
	WORD $0x4f9c12a1 // fmla v1.4s, v21.4s, v28.s[0]
	WORD $0x4f9c12c2 // fmla v2.4s, v22.4s, v28.s[0]
	WORD $0x4f9c12e3 // fmla v3.4s, v23.4s, v28.s[0]
	WORD $0x4f9c1304 // fmla v4.4s, v24.4s, v28.s[0]
	WORD $0x4f9c1325 // fmla v5.4s, v25.4s, v28.s[0]
	WORD $0x4f9c1346 // fmla v6.4s, v26.4s, v28.s[0]
	WORD $0x4f9c1367 // fmla v7.4s, v27.4s, v28.s[0]
	ADD R8, R12, R12
	ADD $256, R13, R13
	ADD $64, R11, R11
	B attnKQVVecNEONwpos
attnKQVVecNEONwstore:
	MOVD $256, R14
	MUL R9, R14, R14
	ADD R6, R14, R14
	ADD R10<<4, R14, R14
	WORD $0x3d8001c0 // str q0, [x14, #0]
	WORD $0x3d8101c1 // str q1, [x14, #1024]
	WORD $0x3d8201c2 // str q2, [x14, #2048]
	WORD $0x3d8301c3 // str q3, [x14, #3072]
	WORD $0x3d8401c4 // str q4, [x14, #4096]
	WORD $0x3d8501c5 // str q5, [x14, #5120]
	WORD $0x3d8601c6 // str q6, [x14, #6144]
	WORD $0x3d8701c7 // str q7, [x14, #7168]
	ADD $1, R10, R10
	CMP $64, R10
	BNE attnKQVVecNEONwlane
	ADD $32, R9, R9
	B attnKQVVecNEONnext
attnKQVVecNEONnarrow:
	MOVD $0, R10
attnKQVVecNEONnlane:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R9<<1, R12, R12
	ADD R10<<2, R0, R13
attnKQVVecNEONnpos:
	CMP R4, R11
	BGE attnKQVVecNEONnstore
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0xbd4001bc // ldr s28, [x13]
	WORD $0x4f9c1280 // fmla v0.4s, v20.4s, v28.s[0]
	WORD $0x4f9c12a1 // fmla v1.4s, v21.4s, v28.s[0]
	ADD R8, R12, R12
	ADD $256, R13, R13
	ADD $64, R11, R11
	B attnKQVVecNEONnpos
attnKQVVecNEONnstore:
	MOVD $256, R14
	MUL R9, R14, R14
	ADD R6, R14, R14
	ADD R10<<4, R14, R14
	WORD $0x3d8001c0 // str q0, [x14, #0]
	WORD $0x3d8101c1 // str q1, [x14, #1024]
	ADD $1, R10, R10
	CMP $64, R10
	BNE attnKQVVecNEONnlane
	ADD $8, R9, R9
attnKQVVecNEONnext:
	CMP R5, R9
	BLT attnKQVVecNEONchunk
	// Reduce the lanes of each four values.
	MOVD R6, R11
	MOVD R7, R12
	LSR $2, R5, R10
attnKQVVecNEONfold:
	WORD $0x3dc00170 // ldr q16, [x11, #0]
	WORD $0x3dc08171 // ldr q17, [x11, #512]
	WORD $0x3dc04172 // ldr q18, [x11, #256]
	WORD $0x3dc0c173 // ldr q19, [x11, #768]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d600 // fadd v0.4s, v16.4s, v18.4s
	WORD $0x3dc00574 // ldr q20, [x11, #16]
	WORD $0x3dc08575 // ldr q21, [x11, #528]
	WORD $0x3dc04576 // ldr q22, [x11, #272]
	WORD $0x3dc0c577 // ldr q23, [x11, #784]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d681 // fadd v1.4s, v20.4s, v22.4s
	WORD $0x3dc00970 // ldr q16, [x11, #32]
	WORD $0x3dc08971 // ldr q17, [x11, #544]
	WORD $0x3dc04972 // ldr q18, [x11, #288]
	WORD $0x3dc0c973 // ldr q19, [x11, #800]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d602 // fadd v2.4s, v16.4s, v18.4s
	WORD $0x3dc00d74 // ldr q20, [x11, #48]
	WORD $0x3dc08d75 // ldr q21, [x11, #560]
	WORD $0x3dc04d76 // ldr q22, [x11, #304]
	WORD $0x3dc0cd77 // ldr q23, [x11, #816]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d683 // fadd v3.4s, v20.4s, v22.4s
	WORD $0x3dc01170 // ldr q16, [x11, #64]
	WORD $0x3dc09171 // ldr q17, [x11, #576]
	WORD $0x3dc05172 // ldr q18, [x11, #320]
	WORD $0x3dc0d173 // ldr q19, [x11, #832]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d604 // fadd v4.4s, v16.4s, v18.4s
	WORD $0x3dc01574 // ldr q20, [x11, #80]
	WORD $0x3dc09575 // ldr q21, [x11, #592]
	WORD $0x3dc05576 // ldr q22, [x11, #336]
	WORD $0x3dc0d577 // ldr q23, [x11, #848]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d685 // fadd v5.4s, v20.4s, v22.4s
	WORD $0x3dc01970 // ldr q16, [x11, #96]
	WORD $0x3dc09971 // ldr q17, [x11, #608]
	WORD $0x3dc05972 // ldr q18, [x11, #352]
	WORD $0x3dc0d973 // ldr q19, [x11, #864]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d606 // fadd v6.4s, v16.4s, v18.4s
	WORD $0x3dc01d74 // ldr q20, [x11, #112]
	WORD $0x3dc09d75 // ldr q21, [x11, #624]
	WORD $0x3dc05d76 // ldr q22, [x11, #368]
	WORD $0x3dc0dd77 // ldr q23, [x11, #880]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d687 // fadd v7.4s, v20.4s, v22.4s
	WORD $0x3dc02170 // ldr q16, [x11, #128]
	WORD $0x3dc0a171 // ldr q17, [x11, #640]
	WORD $0x3dc06172 // ldr q18, [x11, #384]
	WORD $0x3dc0e173 // ldr q19, [x11, #896]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d608 // fadd v8.4s, v16.4s, v18.4s
	WORD $0x3dc02574 // ldr q20, [x11, #144]
	WORD $0x3dc0a575 // ldr q21, [x11, #656]
	WORD $0x3dc06576 // ldr q22, [x11, #400]
	WORD $0x3dc0e577 // ldr q23, [x11, #912]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d689 // fadd v9.4s, v20.4s, v22.4s
	WORD $0x3dc02970 // ldr q16, [x11, #160]
	WORD $0x3dc0a971 // ldr q17, [x11, #672]
	WORD $0x3dc06972 // ldr q18, [x11, #416]
	WORD $0x3dc0e973 // ldr q19, [x11, #928]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60a // fadd v10.4s, v16.4s, v18.4s
	WORD $0x3dc02d74 // ldr q20, [x11, #176]
	WORD $0x3dc0ad75 // ldr q21, [x11, #688]
	WORD $0x3dc06d76 // ldr q22, [x11, #432]
	WORD $0x3dc0ed77 // ldr q23, [x11, #944]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68b // fadd v11.4s, v20.4s, v22.4s
	WORD $0x3dc03170 // ldr q16, [x11, #192]
	WORD $0x3dc0b171 // ldr q17, [x11, #704]
	WORD $0x3dc07172 // ldr q18, [x11, #448]
	WORD $0x3dc0f173 // ldr q19, [x11, #960]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60c // fadd v12.4s, v16.4s, v18.4s
	WORD $0x3dc03574 // ldr q20, [x11, #208]
	WORD $0x3dc0b575 // ldr q21, [x11, #720]
	WORD $0x3dc07576 // ldr q22, [x11, #464]
	WORD $0x3dc0f577 // ldr q23, [x11, #976]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68d // fadd v13.4s, v20.4s, v22.4s
	WORD $0x3dc03970 // ldr q16, [x11, #224]
	WORD $0x3dc0b971 // ldr q17, [x11, #736]
	WORD $0x3dc07972 // ldr q18, [x11, #480]
	WORD $0x3dc0f973 // ldr q19, [x11, #992]
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d60e // fadd v14.4s, v16.4s, v18.4s
	WORD $0x3dc03d74 // ldr q20, [x11, #240]
	WORD $0x3dc0bd75 // ldr q21, [x11, #752]
	WORD $0x3dc07d76 // ldr q22, [x11, #496]
	WORD $0x3dc0fd77 // ldr q23, [x11, #1008]
	WORD $0x4e35d694 // fadd v20.4s, v20.4s, v21.4s
	WORD $0x4e37d6d6 // fadd v22.4s, v22.4s, v23.4s
	WORD $0x4e36d68f // fadd v15.4s, v20.4s, v22.4s
	WORD $0x4e28d400 // fadd v0.4s, v0.4s, v8.4s
	WORD $0x4e29d421 // fadd v1.4s, v1.4s, v9.4s
	WORD $0x4e2ad442 // fadd v2.4s, v2.4s, v10.4s
	WORD $0x4e2bd463 // fadd v3.4s, v3.4s, v11.4s
	WORD $0x4e2cd484 // fadd v4.4s, v4.4s, v12.4s
	WORD $0x4e2dd4a5 // fadd v5.4s, v5.4s, v13.4s
	WORD $0x4e2ed4c6 // fadd v6.4s, v6.4s, v14.4s
	WORD $0x4e2fd4e7 // fadd v7.4s, v7.4s, v15.4s
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x4c9f7980 // st1 {v0.4s}, [x12], #16
	ADD $1024, R11, R11
	SUBS $1, R10, R10
	BNE attnKQVVecNEONfold
	B attnKQVVecNEONtail
attnKQVVecNEONzero:
	// No whole steps: the sums start at zero.
	WORD $0x4f00e400 // movi v0.16b, #0
	MOVD R7, R12
	LSR $2, R5, R10
attnKQVVecNEONzerol:
	WORD $0x4c9f7980 // st1 {v0.4s}, [x12], #16
	SUBS $1, R10, R10
	BNE attnKQVVecNEONzerol
attnKQVVecNEONtail:
	CMP R3, R4
	BEQ attnKQVVecNEONdone
	// The positions np..span-1 in float64, eight values at a time.
	MOVD $0, R9
attnKQVVecNEONteight:
	ADD R9<<2, R7, R11
	WORD $0x4c40a970 // ld1 {v16.4s, v17.4s}, [x11]
	WORD $0x0e617a00 // fcvtl v0.2d, v16.2s
	WORD $0x4e617a01 // fcvtl2 v1.2d, v16.4s
	WORD $0x0e617a22 // fcvtl v2.2d, v17.2s
	WORD $0x4e617a23 // fcvtl2 v3.2d, v17.4s
	MOVD R4, R13
	MUL R2, R4, R12
	ADD R1, R12, R12
	ADD R9<<1, R12, R12
	ADD R4<<2, R0, R14
attnKQVVecNEONtpos:
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0xbc4045d3 // ldr s19, [x14], #4
	WORD $0x0e217a11 // fcvtl v17.4s, v16.4h
	WORD $0x4e217a12 // fcvtl2 v18.4s, v16.8h
	WORD $0x4f939231 // fmul v17.4s, v17.4s, v19.s[0]
	WORD $0x4f939252 // fmul v18.4s, v18.4s, v19.s[0]
	WORD $0x0e617a34 // fcvtl v20.2d, v17.2s
	WORD $0x4e617a35 // fcvtl2 v21.2d, v17.4s
	WORD $0x0e617a56 // fcvtl v22.2d, v18.2s
	WORD $0x4e617a57 // fcvtl2 v23.2d, v18.4s
	WORD $0x4e74d400 // fadd v0.2d, v0.2d, v20.2d
	WORD $0x4e75d421 // fadd v1.2d, v1.2d, v21.2d
	WORD $0x4e76d442 // fadd v2.2d, v2.2d, v22.2d
	WORD $0x4e77d463 // fadd v3.2d, v3.2d, v23.2d
	ADD R2, R12, R12
	ADD $1, R13, R13
	CMP R3, R13
	BNE attnKQVVecNEONtpos
	WORD $0x0e616810 // fcvtn v16.2s, v0.2d
	WORD $0x4e616830 // fcvtn2 v16.4s, v1.2d
	WORD $0x0e616851 // fcvtn v17.2s, v2.2d
	WORD $0x4e616871 // fcvtn2 v17.4s, v3.2d
	WORD $0x4c00a970 // st1 {v16.4s, v17.4s}, [x11]
	ADD $8, R9, R9
	CMP R5, R9
	BLT attnKQVVecNEONteight
attnKQVVecNEONdone:
	RET

// func attnKQVTinyNEON(p *float32, v *uint16, stride int, span int, np int, hd int, scr *float32, o *float32)
// kqvTinyGo for hd > 0 a multiple of 8 and np = span > 0: positions into
// the 16 accumulator lanes j%16 (values d..d+3 of lane l at
// scr[4·(16·(d/4)+l):]), then hsum's tree over the lanes.
TEXT ·attnKQVTinyNEON(SB), NOSPLIT, $0-64
	MOVD p+0(FP), R0
	MOVD v+8(FP), R1
	MOVD stride+16(FP), R2
	MOVD span+24(FP), R3
	MOVD np+32(FP), R4
	MOVD hd+40(FP), R5
	MOVD scr+48(FP), R6
	MOVD o+56(FP), R7
	MOVD $16, R8
	MUL R2, R8, R8
	MOVD $0, R9
attnKQVTinyNEONchunk:
	SUB R9, R5, R14
	CMP $32, R14
	BLT attnKQVTinyNEONnarrow
	MOVD $0, R10
attnKQVTinyNEONwlane:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	WORD $0x4f00e402 // movi v2.16b, #0
	WORD $0x4f00e403 // movi v3.16b, #0
	WORD $0x4f00e404 // movi v4.16b, #0
	WORD $0x4f00e405 // movi v5.16b, #0
	WORD $0x4f00e406 // movi v6.16b, #0
	WORD $0x4f00e407 // movi v7.16b, #0
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R9<<1, R12, R12
	ADD R10<<2, R0, R13
attnKQVTinyNEONwpos:
	CMP R4, R11
	BGE attnKQVTinyNEONwstore
	WORD $0x4c402590 // ld1 {v16.8h, v17.8h, v18.8h, v19.8h}, [x12]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0x0e217a36 // fcvtl v22.4s, v17.4h
	WORD $0x4e217a37 // fcvtl2 v23.4s, v17.8h
	WORD $0x0e217a58 // fcvtl v24.4s, v18.4h
	WORD $0x4e217a59 // fcvtl2 v25.4s, v18.8h
	WORD $0x0e217a7a // fcvtl v26.4s, v19.4h
	WORD $0x4e217a7b // fcvtl2 v27.4s, v19.8h
	WORD $0xbd4001bc // ldr s28, [x13]
	WORD $0x4f9c1280 // fmla v0.4s, v20.4s, v28.s[0]
	WORD $0x4f9c12a1 // fmla v1.4s, v21.4s, v28.s[0]
	WORD $0x4f9c12c2 // fmla v2.4s, v22.4s, v28.s[0]
	WORD $0x4f9c12e3 // fmla v3.4s, v23.4s, v28.s[0]
	WORD $0x4f9c1304 // fmla v4.4s, v24.4s, v28.s[0]
	WORD $0x4f9c1325 // fmla v5.4s, v25.4s, v28.s[0]
	WORD $0x4f9c1346 // fmla v6.4s, v26.4s, v28.s[0]
	WORD $0x4f9c1367 // fmla v7.4s, v27.4s, v28.s[0]
	ADD R8, R12, R12
	ADD $64, R13, R13
	ADD $16, R11, R11
	B attnKQVTinyNEONwpos
attnKQVTinyNEONwstore:
	MOVD $64, R14
	MUL R9, R14, R14
	ADD R6, R14, R14
	ADD R10<<4, R14, R14
	WORD $0x3d8001c0 // str q0, [x14, #0]
	WORD $0x3d8041c1 // str q1, [x14, #256]
	WORD $0x3d8081c2 // str q2, [x14, #512]
	WORD $0x3d80c1c3 // str q3, [x14, #768]
	WORD $0x3d8101c4 // str q4, [x14, #1024]
	WORD $0x3d8141c5 // str q5, [x14, #1280]
	WORD $0x3d8181c6 // str q6, [x14, #1536]
	WORD $0x3d81c1c7 // str q7, [x14, #1792]
	ADD $1, R10, R10
	CMP $16, R10
	BNE attnKQVTinyNEONwlane
	ADD $32, R9, R9
	B attnKQVTinyNEONnext
attnKQVTinyNEONnarrow:
	MOVD $0, R10
attnKQVTinyNEONnlane:
	WORD $0x4f00e400 // movi v0.16b, #0
	WORD $0x4f00e401 // movi v1.16b, #0
	MOVD R10, R11
	MUL R2, R10, R12
	ADD R1, R12, R12
	ADD R9<<1, R12, R12
	ADD R10<<2, R0, R13
attnKQVTinyNEONnpos:
	CMP R4, R11
	BGE attnKQVTinyNEONnstore
	WORD $0x4c407590 // ld1 {v16.8h}, [x12]
	WORD $0x0e217a14 // fcvtl v20.4s, v16.4h
	WORD $0x4e217a15 // fcvtl2 v21.4s, v16.8h
	WORD $0xbd4001bc // ldr s28, [x13]
	WORD $0x4f9c1280 // fmla v0.4s, v20.4s, v28.s[0]
	WORD $0x4f9c12a1 // fmla v1.4s, v21.4s, v28.s[0]
	ADD R8, R12, R12
	ADD $64, R13, R13
	ADD $16, R11, R11
	B attnKQVTinyNEONnpos
attnKQVTinyNEONnstore:
	MOVD $64, R14
	MUL R9, R14, R14
	ADD R6, R14, R14
	ADD R10<<4, R14, R14
	WORD $0x3d8001c0 // str q0, [x14, #0]
	WORD $0x3d8041c1 // str q1, [x14, #256]
	ADD $1, R10, R10
	CMP $16, R10
	BNE attnKQVTinyNEONnlane
	ADD $8, R9, R9
attnKQVTinyNEONnext:
	CMP R5, R9
	BLT attnKQVTinyNEONchunk
	// Reduce the lanes of each four values.
	MOVD R6, R11
	MOVD R7, R12
	LSR $2, R5, R10
attnKQVTinyNEONfold:
	WORD $0x4c402960 // ld1 {v0.4s, v1.4s, v2.4s, v3.4s}, [x11]
	ADD $64, R11, R13
	WORD $0x4cdf29a4 // ld1 {v4.4s, v5.4s, v6.4s, v7.4s}, [x13], #64
	WORD $0x4cdf29a8 // ld1 {v8.4s, v9.4s, v10.4s, v11.4s}, [x13], #64
	WORD $0x4c4029ac // ld1 {v12.4s, v13.4s, v14.4s, v15.4s}, [x13]
	WORD $0x4e28d400 // fadd v0.4s, v0.4s, v8.4s
	WORD $0x4e29d421 // fadd v1.4s, v1.4s, v9.4s
	WORD $0x4e2ad442 // fadd v2.4s, v2.4s, v10.4s
	WORD $0x4e2bd463 // fadd v3.4s, v3.4s, v11.4s
	WORD $0x4e2cd484 // fadd v4.4s, v4.4s, v12.4s
	WORD $0x4e2dd4a5 // fadd v5.4s, v5.4s, v13.4s
	WORD $0x4e2ed4c6 // fadd v6.4s, v6.4s, v14.4s
	WORD $0x4e2fd4e7 // fadd v7.4s, v7.4s, v15.4s
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	WORD $0x4e22d400 // fadd v0.4s, v0.4s, v2.4s
	WORD $0x4e23d421 // fadd v1.4s, v1.4s, v3.4s
	WORD $0x4e21d400 // fadd v0.4s, v0.4s, v1.4s
	WORD $0x4c9f7980 // st1 {v0.4s}, [x12], #16
	ADD $256, R11, R11
	SUBS $1, R10, R10
	BNE attnKQVTinyNEONfold
	RET

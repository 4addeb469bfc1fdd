//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels for attention and SiLU (attn_kernels.go), for CPUs without
// AVX-512: the same float operations in the same order as the Go kernels
// and attn_amd64.s, a 16-lane accumulator of the Go code being two Y
// registers or two 8-float halves of a scratch row. They take the common
// shapes (head sizes a multiple of 8 or 16); the Go wrappers hand other
// shapes to the Go kernels, which give the same bits. Strides are in bytes.

#define SHIFT attnC2<>+0(SB)
#define LOG2E attnC2<>+32(SB)
#define LN2HI attnC2<>+64(SB)
#define LN2LO attnC2<>+96(SB)
#define C0 attnC2<>+128(SB)
#define C1 attnC2<>+160(SB)
#define C2 attnC2<>+192(SB)
#define C3 attnC2<>+224(SB)
#define C4 attnC2<>+256(SB)
#define ONE attnC2<>+288(SB)
#define F192 attnC2<>+320(SB)
#define ABS attnC2<>+352(SB)
#define INF attnC2<>+384(SB)
#define I127 attnC2<>+416(SB)
#define NINF attnC2<>+448(SB)
#define IDX attnC2<>+480(SB)

DATA attnC2<>+0(SB)/4, $0x4b400000
DATA attnC2<>+4(SB)/4, $0x4b400000
DATA attnC2<>+8(SB)/4, $0x4b400000
DATA attnC2<>+12(SB)/4, $0x4b400000
DATA attnC2<>+16(SB)/4, $0x4b400000
DATA attnC2<>+20(SB)/4, $0x4b400000
DATA attnC2<>+24(SB)/4, $0x4b400000
DATA attnC2<>+28(SB)/4, $0x4b400000
DATA attnC2<>+32(SB)/4, $0x3fb8aa3b
DATA attnC2<>+36(SB)/4, $0x3fb8aa3b
DATA attnC2<>+40(SB)/4, $0x3fb8aa3b
DATA attnC2<>+44(SB)/4, $0x3fb8aa3b
DATA attnC2<>+48(SB)/4, $0x3fb8aa3b
DATA attnC2<>+52(SB)/4, $0x3fb8aa3b
DATA attnC2<>+56(SB)/4, $0x3fb8aa3b
DATA attnC2<>+60(SB)/4, $0x3fb8aa3b
DATA attnC2<>+64(SB)/4, $0x3f317200
DATA attnC2<>+68(SB)/4, $0x3f317200
DATA attnC2<>+72(SB)/4, $0x3f317200
DATA attnC2<>+76(SB)/4, $0x3f317200
DATA attnC2<>+80(SB)/4, $0x3f317200
DATA attnC2<>+84(SB)/4, $0x3f317200
DATA attnC2<>+88(SB)/4, $0x3f317200
DATA attnC2<>+92(SB)/4, $0x3f317200
DATA attnC2<>+96(SB)/4, $0x35bfbe8e
DATA attnC2<>+100(SB)/4, $0x35bfbe8e
DATA attnC2<>+104(SB)/4, $0x35bfbe8e
DATA attnC2<>+108(SB)/4, $0x35bfbe8e
DATA attnC2<>+112(SB)/4, $0x35bfbe8e
DATA attnC2<>+116(SB)/4, $0x35bfbe8e
DATA attnC2<>+120(SB)/4, $0x35bfbe8e
DATA attnC2<>+124(SB)/4, $0x35bfbe8e
DATA attnC2<>+128(SB)/4, $0x3c072010
DATA attnC2<>+132(SB)/4, $0x3c072010
DATA attnC2<>+136(SB)/4, $0x3c072010
DATA attnC2<>+140(SB)/4, $0x3c072010
DATA attnC2<>+144(SB)/4, $0x3c072010
DATA attnC2<>+148(SB)/4, $0x3c072010
DATA attnC2<>+152(SB)/4, $0x3c072010
DATA attnC2<>+156(SB)/4, $0x3c072010
DATA attnC2<>+160(SB)/4, $0x3d2b9f17
DATA attnC2<>+164(SB)/4, $0x3d2b9f17
DATA attnC2<>+168(SB)/4, $0x3d2b9f17
DATA attnC2<>+172(SB)/4, $0x3d2b9f17
DATA attnC2<>+176(SB)/4, $0x3d2b9f17
DATA attnC2<>+180(SB)/4, $0x3d2b9f17
DATA attnC2<>+184(SB)/4, $0x3d2b9f17
DATA attnC2<>+188(SB)/4, $0x3d2b9f17
DATA attnC2<>+192(SB)/4, $0x3e2aaf33
DATA attnC2<>+196(SB)/4, $0x3e2aaf33
DATA attnC2<>+200(SB)/4, $0x3e2aaf33
DATA attnC2<>+204(SB)/4, $0x3e2aaf33
DATA attnC2<>+208(SB)/4, $0x3e2aaf33
DATA attnC2<>+212(SB)/4, $0x3e2aaf33
DATA attnC2<>+216(SB)/4, $0x3e2aaf33
DATA attnC2<>+220(SB)/4, $0x3e2aaf33
DATA attnC2<>+224(SB)/4, $0x3efffedb
DATA attnC2<>+228(SB)/4, $0x3efffedb
DATA attnC2<>+232(SB)/4, $0x3efffedb
DATA attnC2<>+236(SB)/4, $0x3efffedb
DATA attnC2<>+240(SB)/4, $0x3efffedb
DATA attnC2<>+244(SB)/4, $0x3efffedb
DATA attnC2<>+248(SB)/4, $0x3efffedb
DATA attnC2<>+252(SB)/4, $0x3efffedb
DATA attnC2<>+256(SB)/4, $0x3f7ffff6
DATA attnC2<>+260(SB)/4, $0x3f7ffff6
DATA attnC2<>+264(SB)/4, $0x3f7ffff6
DATA attnC2<>+268(SB)/4, $0x3f7ffff6
DATA attnC2<>+272(SB)/4, $0x3f7ffff6
DATA attnC2<>+276(SB)/4, $0x3f7ffff6
DATA attnC2<>+280(SB)/4, $0x3f7ffff6
DATA attnC2<>+284(SB)/4, $0x3f7ffff6
DATA attnC2<>+288(SB)/4, $0x3f800000
DATA attnC2<>+292(SB)/4, $0x3f800000
DATA attnC2<>+296(SB)/4, $0x3f800000
DATA attnC2<>+300(SB)/4, $0x3f800000
DATA attnC2<>+304(SB)/4, $0x3f800000
DATA attnC2<>+308(SB)/4, $0x3f800000
DATA attnC2<>+312(SB)/4, $0x3f800000
DATA attnC2<>+316(SB)/4, $0x3f800000
DATA attnC2<>+320(SB)/4, $0x43400000
DATA attnC2<>+324(SB)/4, $0x43400000
DATA attnC2<>+328(SB)/4, $0x43400000
DATA attnC2<>+332(SB)/4, $0x43400000
DATA attnC2<>+336(SB)/4, $0x43400000
DATA attnC2<>+340(SB)/4, $0x43400000
DATA attnC2<>+344(SB)/4, $0x43400000
DATA attnC2<>+348(SB)/4, $0x43400000
DATA attnC2<>+352(SB)/4, $0x7fffffff
DATA attnC2<>+356(SB)/4, $0x7fffffff
DATA attnC2<>+360(SB)/4, $0x7fffffff
DATA attnC2<>+364(SB)/4, $0x7fffffff
DATA attnC2<>+368(SB)/4, $0x7fffffff
DATA attnC2<>+372(SB)/4, $0x7fffffff
DATA attnC2<>+376(SB)/4, $0x7fffffff
DATA attnC2<>+380(SB)/4, $0x7fffffff
DATA attnC2<>+384(SB)/4, $0x7f800000
DATA attnC2<>+388(SB)/4, $0x7f800000
DATA attnC2<>+392(SB)/4, $0x7f800000
DATA attnC2<>+396(SB)/4, $0x7f800000
DATA attnC2<>+400(SB)/4, $0x7f800000
DATA attnC2<>+404(SB)/4, $0x7f800000
DATA attnC2<>+408(SB)/4, $0x7f800000
DATA attnC2<>+412(SB)/4, $0x7f800000
DATA attnC2<>+416(SB)/4, $0x7f
DATA attnC2<>+420(SB)/4, $0x7f
DATA attnC2<>+424(SB)/4, $0x7f
DATA attnC2<>+428(SB)/4, $0x7f
DATA attnC2<>+432(SB)/4, $0x7f
DATA attnC2<>+436(SB)/4, $0x7f
DATA attnC2<>+440(SB)/4, $0x7f
DATA attnC2<>+444(SB)/4, $0x7f
DATA attnC2<>+448(SB)/4, $0xff800000
DATA attnC2<>+452(SB)/4, $0xff800000
DATA attnC2<>+456(SB)/4, $0xff800000
DATA attnC2<>+460(SB)/4, $0xff800000
DATA attnC2<>+464(SB)/4, $0xff800000
DATA attnC2<>+468(SB)/4, $0xff800000
DATA attnC2<>+472(SB)/4, $0xff800000
DATA attnC2<>+476(SB)/4, $0xff800000
DATA attnC2<>+480(SB)/4, $0
DATA attnC2<>+484(SB)/4, $1
DATA attnC2<>+488(SB)/4, $2
DATA attnC2<>+492(SB)/4, $3
DATA attnC2<>+496(SB)/4, $4
DATA attnC2<>+500(SB)/4, $5
DATA attnC2<>+504(SB)/4, $6
DATA attnC2<>+508(SB)/4, $7
GLOBL attnC2<>(SB), RODATA|NOPTR, $512

// HSUM8(Y, X, Xt): X[0] = the last steps of hsum's tree (lanes l and l+4,
// then (0+2)+(1+3)) over the 8 lanes of Y, which already hold t[l]+t[l+8].
#define HSUM8(Yr, Xr, Xt) \
	VEXTRACTF128 $1, Yr, Xt; \
	VADDPS       Xt, Xr, Xr; \
	VMOVHLPS     Xr, Xr, Xt; \
	VADDPS       Xt, Xr, Xr; \
	VMOVSHDUP    Xr, Xt;     \
	VADDSS       Xt, Xr, Xr

// func attnPrepQ2(q *float32, q16 *uint16, qf *float32, n int)
//
// n is a multiple of 8.
TEXT ·attnPrepQ2(SB), NOSPLIT, $0-32
	MOVQ  q+0(FP), SI
	MOVQ  q16+8(FP), DI
	MOVQ  qf+16(FP), DX
	MOVQ  n+24(FP), CX
	SHRQ  $3, CX
	JZ    prep2_done

prep2_loop:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VMOVDQU   X1, (DI)
	VCVTPH2PS X1, Y2
	VMOVUPS   Y2, (DX)
	ADDQ      $32, SI
	ADDQ      $16, DI
	ADDQ      $32, DX
	DECQ      CX
	JNZ       prep2_loop

prep2_done:
	VZEROUPPER
	RET

// func attnToF16_2(dst *uint16, x *float32, n int)
//
// n is a multiple of 8.
TEXT ·attnToF16_2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   tof16_2_done

tof16_2_loop:
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	DECQ      CX
	JNZ       tof16_2_loop

tof16_2_done:
	VZEROUPPER
	RET

// func attnScoresTiny2(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)
//
// The 16-lane accumulator is Y0 (lanes 0..7) and Y1 (lanes 8..15).
TEXT ·attnScoresTiny2(SB), NOSPLIT, $0-56
	MOVQ   qf+0(FP), SI
	MOVQ   k+8(FP), DI
	MOVQ   stride+16(FP), R8
	MOVQ   chunks+24(FP), R9
	MOVQ   span+32(FP), DX
	VMOVSS scale+40(FP), X14
	MOVQ   s+48(FP), AX

tiny2_pos:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ   SI, R10
	MOVQ   DI, R11
	MOVQ   R9, R12

tiny2_chunk:
	VCVTPH2PS   (R11), Y2
	VFMADD231PS (R10), Y2, Y0
	VCVTPH2PS   16(R11), Y3
	VFMADD231PS 32(R10), Y3, Y1
	ADDQ        $32, R11
	ADDQ        $64, R10
	DECQ        R12
	JNZ         tiny2_chunk

	VADDPS Y1, Y0, Y0
	HSUM8(Y0, X0, X1)
	VMULSS X14, X0, X0
	VMOVSS X0, (AX)
	ADDQ   $4, AX
	ADDQ   R8, DI
	DECQ   DX
	JNZ    tiny2_pos
	VZEROUPPER
	RET

// func attnScoresVec2(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)
//
// Accumulator a_k is Y(4+2k) (lanes 0..7) and Y(5+2k) (lanes 8..15).
TEXT ·attnScoresVec2(SB), NOSPLIT, $0-56
	MOVQ   qf+0(FP), SI
	MOVQ   k+8(FP), DI
	MOVQ   stride+16(FP), R8
	MOVQ   hd+24(FP), R9
	MOVQ   span+32(FP), DX
	VMOVSS scale+40(FP), X14
	MOVQ   s+48(FP), AX
	MOVQ   R9, R13
	ANDQ   $63, R13
	SHRQ   $6, R9

vec2_pos:
	MOVQ   SI, R10
	MOVQ   DI, R11
	VXORPD X2, X2, X2
	TESTQ  R9, R9
	JZ     vec2_tail
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	MOVQ   R9, R12

vec2_chunk:
	VCVTPH2PS   (R11), Y12
	VFMADD231PS (R10), Y12, Y4
	VCVTPH2PS   16(R11), Y13
	VFMADD231PS 32(R10), Y13, Y5
	VCVTPH2PS   32(R11), Y12
	VFMADD231PS 64(R10), Y12, Y6
	VCVTPH2PS   48(R11), Y13
	VFMADD231PS 96(R10), Y13, Y7
	VCVTPH2PS   64(R11), Y12
	VFMADD231PS 128(R10), Y12, Y8
	VCVTPH2PS   80(R11), Y13
	VFMADD231PS 160(R10), Y13, Y9
	VCVTPH2PS   96(R11), Y12
	VFMADD231PS 192(R10), Y12, Y10
	VCVTPH2PS   112(R11), Y13
	VFMADD231PS 224(R10), Y13, Y11
	ADDQ        $128, R11
	ADDQ        $256, R10
	DECQ        R12
	JNZ         vec2_chunk

	// (a0+a2)+(a1+a3) for each half, then hsum, then to float64.
	VADDPS    Y8, Y4, Y4
	VADDPS    Y10, Y6, Y6
	VADDPS    Y6, Y4, Y4
	VADDPS    Y9, Y5, Y5
	VADDPS    Y11, Y7, Y7
	VADDPS    Y7, Y5, Y5
	VADDPS    Y5, Y4, Y0
	HSUM8(Y0, X0, X1)
	VCVTSS2SD X0, X0, X2

vec2_tail:
	MOVQ  R13, R12
	TESTQ R12, R12
	JZ    vec2_store

vec2_tail_loop:
	MOVWQZX   (R11), BX
	MOVQ      BX, X3
	VCVTPH2PS X3, X3
	VMULSS    (R10), X3, X3
	VCVTSS2SD X3, X3, X3
	VADDSD    X3, X2, X2
	ADDQ      $2, R11
	ADDQ      $4, R10
	DECQ      R12
	JNZ       vec2_tail_loop

vec2_store:
	VCVTSD2SS X2, X2, X0
	VMULSS    X14, X0, X0
	VMOVSS    X0, (AX)
	ADDQ      $4, AX
	ADDQ      R8, DI
	DECQ      DX
	JNZ       vec2_pos
	VZEROUPPER
	RET

// VEXP2: Y5 = vexpf(Y1), clobbers Y2..Y8. Without VSCALEFPS, j·2^n is
// (j·2^⌊n/2⌋)·2^(n-⌊n/2⌋): for |n| <= 192 both factors are normal and the
// first product is exact, so the result is rounded once, as scalef's.
// Larger |n| are replaced by 0 or +Inf as in ggml.
#define VEXP2 \
	VMOVUPS      SHIFT, Y2;          \
	VFMADD231PS  LOG2E, Y1, Y2;      \
	VSUBPS       SHIFT, Y2, Y2;      \
	VMOVAPS      Y1, Y3;             \
	VFNMADD231PS LN2HI, Y2, Y3;      \
	VFNMADD231PS LN2LO, Y2, Y3;      \
	VMULPS       Y3, Y3, Y4;         \
	VMOVUPS      C1, Y5;             \
	VFMADD231PS  C0, Y3, Y5;         \
	VMOVUPS      C3, Y6;             \
	VFMADD231PS  C2, Y3, Y6;         \
	VFMADD213PS  Y6, Y4, Y5;         \
	VMOVUPS      ONE, Y7;            \
	VFMADD231PS  C4, Y3, Y7;         \
	VFMADD213PS  Y7, Y4, Y5;         \
	VCVTPS2DQ    Y2, Y6;             \
	VPSRAD       $1, Y6, Y7;         \
	VPSUBD       Y7, Y6, Y6;         \
	VPADDD       I127, Y7, Y7;       \
	VPSLLD       $23, Y7, Y7;        \
	VPADDD       I127, Y6, Y6;       \
	VPSLLD       $23, Y6, Y6;        \
	VMULPS       Y7, Y5, Y5;         \
	VMULPS       Y6, Y5, Y5;         \
	VANDPS       ABS, Y2, Y7;        \
	VCMPPS       $0x1e, F192, Y7, Y7; \
	VXORPS       Y8, Y8, Y8;         \
	VCMPPS       $0x12, Y8, Y2, Y8;  \
	VANDNPS      INF, Y8, Y8;        \
	VBLENDVPS    Y7, Y8, Y5, Y5

// LANEMASK(n, Y): Y = all ones in the lanes i < n (n in a GP register),
// zero elsewhere; clobbers X13.
#define LANEMASK(nr, Yr) \
	MOVQ         nr, X13;  \
	VPBROADCASTD X13, Y13; \
	VMOVDQU      IDX, Yr;  \
	VPCMPGTD     Yr, Y13, Yr

// func attnExp2(x *float32, n int)
//
// x[i] = vexpf(x[i]) for n (a multiple of 8) values; for the tests.
TEXT ·attnExp2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), DX
	SHRQ $3, DX
	JZ   exp2o_done

exp2o_loop:
	VMOVUPS (SI), Y1
	VEXP2
	VMOVUPS Y5, (SI)
	ADDQ    $32, SI
	DECQ    DX
	JNZ     exp2o_loop

exp2o_done:
	VZEROUPPER
	RET

// func attnSiLU2(y, x *float32, n int)
//
// y = x/(1+vexpf(0-x)) for n (a multiple of 8) values; y may be x.
TEXT ·attnSiLU2(SB), NOSPLIT, $0-24
	MOVQ   y+0(FP), DI
	MOVQ   x+8(FP), SI
	MOVQ   n+16(FP), DX
	SHRQ   $3, DX
	JZ     silu2_done
	VXORPS Y10, Y10, Y10

silu2_loop:
	VMOVUPS (SI), Y9
	VSUBPS  Y9, Y10, Y1
	VEXP2
	VADDPS  ONE, Y5, Y5
	VDIVPS  Y5, Y9, Y9
	VMOVUPS Y9, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     silu2_loop

silu2_done:
	VZEROUPPER
	RET

// func attnSoftmax2(p *float32, span int)
//
// As attnSoftmax512, in 8-lane halves; partial vectors are handled with
// lane masks (p is padded to a multiple of 16, so whole vectors can be
// loaded and stored).
TEXT ·attnSoftmax2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ span+8(FP), DX

	// Maximum in Y0; Y12 collects NaN lanes.
	VMOVUPS NINF, Y0
	VXORPS  Y12, Y12, Y12
	MOVQ    SI, DI
	MOVQ    DX, CX

max2_loop:
	CMPQ    CX, $8
	JLT     max2_tail
	VMOVUPS (DI), Y1
	VMAXPS  Y1, Y0, Y0
	VCMPPS  $3, Y1, Y1, Y2
	VORPS   Y2, Y12, Y12
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     max2_loop

max2_tail:
	TESTQ     CX, CX
	JZ        max2_fold
	LANEMASK(CX, Y3)
	VMOVUPS   (DI), Y1
	VMOVUPS   NINF, Y2
	VBLENDVPS Y3, Y1, Y2, Y1
	VMAXPS    Y1, Y0, Y0
	VCMPPS    $3, Y1, Y1, Y2
	VORPS     Y2, Y12, Y12

max2_fold:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VMAXPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VMAXSS       X1, X0, X0
	VMOVMSKPS    Y12, AX
	TESTL        AX, AX
	JZ           max2_ok
	MOVL         $0x7fc00000, AX
	VMOVD        AX, X0

max2_ok:
	VBROADCASTSS X0, Y15

	// Exponentials by 16-lane vectors (Y9 lanes 0..7, Y5 lanes 8..15)
	// and the float64 total in X10.
	VXORPD X10, X10, X10
	MOVQ   SI, DI
	MOVQ   DX, CX

exp2_loop:
	CMPQ    CX, $0
	JLE     norm2
	VMOVUPS (DI), Y1
	VSUBPS  Y15, Y1, Y1
	VEXP2
	VMOVAPS Y5, Y9
	VMOVUPS 32(DI), Y1
	VSUBPS  Y15, Y1, Y1
	VEXP2
	CMPQ    CX, $16
	JGE     exp2_whole
	LANEMASK(CX, Y3)
	VANDPS  Y3, Y9, Y9
	LEAQ    -8(CX), AX
	LANEMASK(AX, Y3)
	VANDPS  Y3, Y5, Y5

exp2_whole:
	VMOVUPS   Y9, (DI)
	VMOVUPS   Y5, 32(DI)
	VADDPS    Y5, Y9, Y9
	HSUM8(Y9, X9, X1)
	VCVTSS2SD X9, X9, X9
	VADDSD    X9, X10, X10
	ADDQ      $64, DI
	SUBQ      $16, CX
	JMP       exp2_loop

norm2:
	// inv = float32(1/total); p = f16(p·inv) for the span positions.
	MOVQ         $0x3ff0000000000000, AX
	MOVQ         AX, X11
	VDIVSD       X10, X11, X11
	VCVTSD2SS    X11, X11, X11
	VBROADCASTSS X11, Y11
	MOVQ         SI, DI
	MOVQ         DX, CX

norm2_loop:
	CMPQ      CX, $8
	JLT       norm2_tail
	VMOVUPS   (DI), Y1
	VMULPS    Y11, Y1, Y1
	VCVTPS2PH $0, Y1, X1
	VCVTPH2PS X1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $32, DI
	SUBQ      $8, CX
	JMP       norm2_loop

norm2_tail:
	TESTQ     CX, CX
	JZ        softmax2_done
	LANEMASK(CX, Y3)
	VMOVUPS   (DI), Y2
	VMULPS    Y11, Y2, Y1
	VCVTPS2PH $0, Y1, X1
	VCVTPH2PS X1, Y1
	VBLENDVPS Y3, Y1, Y2, Y1
	VMOVUPS   Y1, (DI)

softmax2_done:
	VZEROUPPER
	RET

// ACCUM2(mask): adds p[j]·v_j into accumulator row j&mask for j in
// [0, DX): SI = p, R8 = v, R9 = stride, R10 = acc, R11 = row bytes,
// R12 = 8-output chunks. Clobbers AX, BX, CX, DI, Y0, Y1.
#define ACCUM2(mask, lbl_pos, lbl_chunk, lbl_next) \
	XORQ AX, AX;                  \
lbl_pos:                          \
	CMPQ AX, DX;                  \
	JGE  lbl_next;                \
	VBROADCASTSS (SI)(AX*4), Y0;  \
	MOVQ AX, CX;                  \
	ANDQ $mask, CX;               \
	IMULQ R11, CX;                \
	ADDQ R10, CX;                 \
	MOVQ R8, DI;                  \
	MOVQ R12, BX;                 \
lbl_chunk:                        \
	VCVTPH2PS (DI), Y1;           \
	VFMADD213PS (CX), Y0, Y1;     \
	VMOVUPS Y1, (CX);             \
	ADDQ $16, DI;                 \
	ADDQ $32, CX;                 \
	DECQ BX;                      \
	JNZ  lbl_chunk;               \
	ADDQ R9, R8;                  \
	INCQ AX;                      \
	JMP  lbl_pos;                 \
lbl_next:

// CLEAR2(rows): zeroes rows accumulator rows of R11 bytes at R10;
// clobbers AX, DI, Y0.
#define CLEAR2(rows, lbl) \
	VXORPS Y0, Y0, Y0;   \
	MOVQ   R11, AX;      \
	IMULQ  $rows, AX;    \
	SHRQ   $5, AX;       \
	MOVQ   R10, DI;      \
lbl:                     \
	VMOVUPS Y0, (DI);    \
	ADDQ   $32, DI;      \
	DECQ   AX;           \
	JNZ    lbl

#define LOADROW2(base, Yr) \
	VMOVUPS (base), Yr; \
	ADDQ    R11, base

// TREE8: the rest of hsum's tree over Y0..Y7 (which hold t[l]+t[l+8]).
#define TREE8 \
	VADDPS Y4, Y0, Y0;   \
	VADDPS Y5, Y1, Y1;   \
	VADDPS Y6, Y2, Y2;   \
	VADDPS Y7, Y3, Y3;   \
	VADDPS Y2, Y0, Y0;   \
	VADDPS Y3, Y1, Y1;   \
	VADDPS Y1, Y0, Y0

// func attnKQVTiny2(p *float32, v *uint16, stride int, span int, hd int, acc *float32, o *float32)
//
// As attnKQVTiny512 with hd a multiple of 8 and 8-output chunks.
TEXT ·attnKQVTiny2(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), R8
	MOVQ stride+16(FP), R9
	MOVQ span+24(FP), DX
	MOVQ hd+32(FP), R12
	MOVQ acc+40(FP), R10
	MOVQ R12, R11
	SHLQ $2, R11
	SHRQ $3, R12
	CLEAR2(16, tiny2_clear)
	ACCUM2(15, tiny2_acc_pos, tiny2_acc_chunk, tiny2_acc_done)

	MOVQ o+48(FP), DX
	MOVQ R10, DI
	MOVQ R12, BX

tiny2_red:
	MOVQ DI, AX
	LOADROW2(AX, Y0)
	LOADROW2(AX, Y1)
	LOADROW2(AX, Y2)
	LOADROW2(AX, Y3)
	LOADROW2(AX, Y4)
	LOADROW2(AX, Y5)
	LOADROW2(AX, Y6)
	LOADROW2(AX, Y7)
	VADDPS  (AX), Y0, Y0
	ADDQ    R11, AX
	VADDPS  (AX), Y1, Y1
	ADDQ    R11, AX
	VADDPS  (AX), Y2, Y2
	ADDQ    R11, AX
	VADDPS  (AX), Y3, Y3
	ADDQ    R11, AX
	VADDPS  (AX), Y4, Y4
	ADDQ    R11, AX
	VADDPS  (AX), Y5, Y5
	ADDQ    R11, AX
	VADDPS  (AX), Y6, Y6
	ADDQ    R11, AX
	VADDPS  (AX), Y7, Y7
	TREE8
	VMOVUPS Y0, (DX)
	ADDQ    $32, DI
	ADDQ    $32, DX
	DECQ    BX
	JNZ     tiny2_red
	VZEROUPPER
	RET

// FOLD2(Yr): Yr = (row l + row l+32) + (row l+16 + row l+48) with AX at
// row l, CX = 16 rows in bytes, R8 = 48 rows; advances AX by one row.
#define FOLD2(Yr, Yt) \
	VMOVUPS (AX), Yr;              \
	VADDPS  (AX)(CX*2), Yr, Yr;    \
	VMOVUPS (AX)(CX*1), Yt;        \
	VADDPS  (AX)(R8*1), Yt, Yt;    \
	VADDPS  Yt, Yr, Yr;            \
	ADDQ    R11, AX

// FOLDADD2(Yr): Yr += the fold of row l+8 (see FOLD2), using Y8, Y9.
#define FOLDADD2(Yr) \
	FOLD2(Y8, Y9); \
	VADDPS Y8, Yr, Yr

// func attnKQVAcc2(p *float32, v *uint16, stride int, np int, hd int, acc *float32)
//
// The accumulation of attnKQVVec512 with hd a multiple of 8 and 8-output
// chunks: acc row l (hd floats) = Σ p[j]·v_j over j < np, j ≡ l mod 64,
// each row's chain in position order. np > 0.
TEXT ·attnKQVAcc2(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), R8
	MOVQ stride+16(FP), R9
	MOVQ np+24(FP), DX
	MOVQ hd+32(FP), R12
	MOVQ acc+40(FP), R10
	MOVQ R12, R11
	SHLQ $2, R11
	SHRQ $3, R12
	CLEAR2(64, acc2_clear)
	ACCUM2(63, acc2_pos, acc2_chunk, acc2_done)
	VZEROUPPER
	RET

// func attnKQVFold2(acc *float32, np int, p *float32, pstride int, v *uint16, vstride int, ntail int, hd int, o *float32)
//
// The rest of ggml_vec_dot_f16's order for one head: o = float32(the
// fold of acc's 64 rows (attnKQVAcc2, none when np = 0) in float64, plus
// p_t·v_t in float64 for the ntail positions t after them), with p_t at
// p + t·pstride and v_t at v + t·vstride (bytes). hd is a multiple of 8.
TEXT ·attnKQVFold2(SB), NOSPLIT, $0-72
	MOVQ acc+0(FP), DI
	MOVQ v+32(FP), SI
	MOVQ vstride+40(FP), R9
	MOVQ hd+56(FP), R12
	MOVQ o+64(FP), DX
	MOVQ R12, R11
	SHLQ $2, R11
	SHRQ $3, R12
	MOVQ R12, BX

	// Per chunk of 8 outputs: DI = its column in row 0 of acc, DX = its
	// place in o, SI = its place in the first tail row, BX = chunks left.
fold2_chunks:
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	MOVQ   np+8(FP), AX
	TESTQ  AX, AX
	JZ     fold2_tail
	MOVQ   R11, CX
	SHLQ   $4, CX
	LEAQ   (CX)(CX*2), R8
	MOVQ   DI, AX
	FOLD2(Y0, Y8)
	FOLD2(Y1, Y8)
	FOLD2(Y2, Y8)
	FOLD2(Y3, Y8)
	FOLD2(Y4, Y8)
	FOLD2(Y5, Y8)
	FOLD2(Y6, Y8)
	FOLD2(Y7, Y8)
	FOLDADD2(Y0)
	FOLDADD2(Y1)
	FOLDADD2(Y2)
	FOLDADD2(Y3)
	FOLDADD2(Y4)
	FOLDADD2(Y5)
	FOLDADD2(Y6)
	FOLDADD2(Y7)
	TREE8
	VCVTPS2PD    X0, Y10
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y11

fold2_tail:
	// The tail positions in float64: AX = left, CX = &p_t, R8 = &v_t's chunk.
	MOVQ ntail+48(FP), AX
	MOVQ p+16(FP), CX
	MOVQ pstride+24(FP), R13
	MOVQ SI, R8

fold2_tailloop:
	TESTQ        AX, AX
	JZ           fold2_out
	VBROADCASTSS (CX), Y0
	VCVTPH2PS    (R8), Y1
	VMULPS       Y0, Y1, Y1
	VCVTPS2PD    X1, Y2
	VEXTRACTF128 $1, Y1, X1
	VCVTPS2PD    X1, Y3
	VADDPD       Y2, Y10, Y10
	VADDPD       Y3, Y11, Y11
	ADDQ         R9, R8
	ADDQ         R13, CX
	DECQ         AX
	JMP          fold2_tailloop

fold2_out:
	VCVTPD2PSY  Y10, X0
	VCVTPD2PSY  Y11, X1
	VINSERTF128 $1, X1, Y0, Y0
	VMOVUPS     Y0, (DX)
	ADDQ        $32, DI
	ADDQ        $32, DX
	ADDQ        $16, SI
	DECQ        BX
	JNZ         fold2_chunks
	VZEROUPPER
	RET

// The grouped decoding kernels below compute one position's attention for
// the eight query heads (slots) that share a key/value head, with a head
// size of 64, converting each cached key and value to float32 once for all
// eight instead of once per head. Scores and probabilities are kept
// position-major, eight floats (one per head) a position, so that the
// reductions that ggml does within one head's vector become lane-wise
// operations across heads; every float operation of the per-head kernels
// (attnScoresVec2, attnSoftmax2, attnKQVAcc2) happens on the same operands
// in the same order, so the bits are theirs (but for a zero score's sign,
// which reaches no probability: see GHEAD).

// GHEAD(W): W = the first steps of dotF16's tree, t[l] = v[l]+v[l+8] with
// v[l] = (a0+a2)+(a1+a3) over the 8 lanes l, for the slot whose query is
// at R10, against the key in Y8..Y15 (dimensions 8i..8i+7 in Y(8+i)).
// a_k is the product, exact in float32, where the Go code adds it to +0:
// the two differ only when the product is -0 (the Go code has +0). a0+a2
// is one more fused multiply-add into a0, which rounds the same sum once.
// A -0 can reach a score only where every term is a zero, making it -0
// where the per-head kernels have +0, and that changes no probability:
// e^(s-max) is 1 for either zero whatever the maximum's sign, and a zero
// maximum's sign changes no other s-max. Plain products save the zeroing
// instructions (10% of the scores' time on Zen 2). Clobbers Y0..Y2.
#define GHEAD(W) \
	VMULPS      (R10), Y8, Y0;   \
	VFMADD231PS 128(R10), Y12, Y0; \
	VMULPS      64(R10), Y10, Y1; \
	VFMADD231PS 192(R10), Y14, Y1; \
	VADDPS      Y1, Y0, Y0;      \
	VMULPS      32(R10), Y9, Y1; \
	VFMADD231PS 160(R10), Y13, Y1; \
	VMULPS      96(R10), Y11, Y2; \
	VFMADD231PS 224(R10), Y15, Y2; \
	VADDPS      Y2, Y1, Y1;      \
	VADDPS      Y1, Y0, W;       \
	ADDQ        $256, R10

// GPAIR(U): two slots' GHEAD, then U = [t+t>>4 of the first | of the
// second]: the step of hsum's tree that adds lanes l and l+4.
#define GPAIR(U) \
	GHEAD(Y3);                    \
	GHEAD(Y0);                    \
	VPERM2F128 $0x20, Y0, Y3, Y1; \
	VPERM2F128 $0x31, Y0, Y3, Y2; \
	VADDPS     Y2, Y1, U

// func attnGroupScores2(qg *float32, k *uint16, v *uint16, stride int, span int, scale float32, s *float32)
//
// s[8j+h] = dotF16(q_h, k_j)·scale for j < span (span > 0), where qg holds
// the eight rounded queries (64 floats each) in the slot order 0, 4, 1, 5,
// 2, 6, 3, 7 of the heads h, which the final shuffles put back in order.
// The values v (same stride) are only prefetched, for attnGroupKQV2.
TEXT ·attnGroupScores2(SB), NOSPLIT, $0-56
	MOVQ qg+0(FP), SI
	MOVQ k+8(FP), DI
	MOVQ v+16(FP), R9
	MOVQ stride+24(FP), R8
	MOVQ span+32(FP), DX
	MOVQ s+48(FP), AX
	LEAQ (R8)(R8*2), R11
	SHLQ $2, R11

gs2_pos:
	// The key and the value 12 positions ahead: a layer's cache has
	// usually left the caches while the weights streamed through them.
	// The values go to L2, where attnGroupKQV2's out-of-order reads find
	// them.
	PREFETCHT0 (DI)(R11*1)
	PREFETCHT0 64(DI)(R11*1)
	PREFETCHT1 (R9)(R11*1)
	PREFETCHT1 64(R9)(R11*1)
	VCVTPH2PS (DI), Y8
	VCVTPH2PS 16(DI), Y9
	VCVTPH2PS 32(DI), Y10
	VCVTPH2PS 48(DI), Y11
	VCVTPH2PS 64(DI), Y12
	VCVTPH2PS 80(DI), Y13
	VCVTPH2PS 96(DI), Y14
	VCVTPH2PS 112(DI), Y15
	MOVQ      SI, R10
	GPAIR(Y4)
	GPAIR(Y5)
	GPAIR(Y6)
	GPAIR(Y7)

	// (u0+u2) and (u1+u3) of slots 0, 2 (low lanes) and 1, 3 (high) in
	// Y4, of slots 4, 6 and 5, 7 in Y6; then their sums, lane h = head h.
	VSHUFPS      $0x44, Y5, Y4, Y0
	VSHUFPS      $0xee, Y5, Y4, Y1
	VADDPS       Y1, Y0, Y4
	VSHUFPS      $0x44, Y7, Y6, Y0
	VSHUFPS      $0xee, Y7, Y6, Y1
	VADDPS       Y1, Y0, Y6
	VSHUFPS      $0x88, Y6, Y4, Y0
	VSHUFPS      $0xdd, Y6, Y4, Y1
	VADDPS       Y1, Y0, Y0
	VBROADCASTSS scale+40(FP), Y1
	VMULPS       Y1, Y0, Y0
	VMOVUPS      Y0, (AX)
	ADDQ         $32, AX
	ADDQ         R8, DI
	ADDQ         R8, R9
	DECQ         DX
	JNZ          gs2_pos
	VZEROUPPER
	RET

// func attnGroupSoftmax2(s *float32, span int)
//
// attnSoftmax2 for eight heads at once, lane h of row j being head h's
// score j: the maximum, exponentials, sums (hsum's tree over 16 rows, then
// float64) and f16 rounding per lane. Rows [span, roundUp(span, 16)) are
// set to 0. span > 0.
TEXT ·attnGroupSoftmax2(SB), NOSPLIT, $0-16
	MOVQ s+0(FP), SI
	MOVQ span+8(FP), DX

	// Maximum in Y15; Y12 collects NaN lanes, whose maximum is NaN.
	VMOVUPS NINF, Y0
	VXORPS  Y12, Y12, Y12
	MOVQ    SI, DI
	MOVQ    DX, CX

gsm2_max:
	VMOVUPS   (DI), Y1
	VMAXPS    Y1, Y0, Y0
	VCMPPS    $3, Y1, Y1, Y2
	VORPS     Y2, Y12, Y12
	ADDQ      $32, DI
	DECQ      CX
	JNZ       gsm2_max
	MOVL      $0x7fc00000, AX
	VMOVD     AX, X3
	VBROADCASTSS X3, Y3
	VBLENDVPS Y12, Y3, Y0, Y15

	// Exponentials by groups of 16 rows; float64 totals in Y10 (heads
	// 0..3) and Y11 (4..7). CX = rows left, DI = the group's first row.
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	MOVQ   SI, DI
	MOVQ   DX, CX

gsm2_group:
	CMPQ CX, $0
	JLE  gsm2_norm
	MOVQ $16, BX
	MOVQ DI, R8

gsm2_row:
	CMPQ    CX, $0
	JLE     gsm2_zero
	VMOVUPS (R8), Y1
	VSUBPS  Y15, Y1, Y1
	VEXP2
	VMOVUPS Y5, (R8)
	JMP     gsm2_next

gsm2_zero:
	VXORPS  Y5, Y5, Y5
	VMOVUPS Y5, (R8)

gsm2_next:
	ADDQ $32, R8
	DECQ CX
	DECQ BX
	JNZ  gsm2_row

	VMOVUPS      (DI), Y0
	VADDPS       256(DI), Y0, Y0
	VMOVUPS      32(DI), Y1
	VADDPS       288(DI), Y1, Y1
	VMOVUPS      64(DI), Y2
	VADDPS       320(DI), Y2, Y2
	VMOVUPS      96(DI), Y3
	VADDPS       352(DI), Y3, Y3
	VMOVUPS      128(DI), Y4
	VADDPS       384(DI), Y4, Y4
	VMOVUPS      160(DI), Y5
	VADDPS       416(DI), Y5, Y5
	VMOVUPS      192(DI), Y6
	VADDPS       448(DI), Y6, Y6
	VMOVUPS      224(DI), Y7
	VADDPS       480(DI), Y7, Y7
	TREE8
	VCVTPS2PD    X0, Y1
	VADDPD       Y1, Y10, Y10
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y1
	VADDPD       Y1, Y11, Y11
	ADDQ         $512, DI
	JMP          gsm2_group

gsm2_norm:
	// inv = float32(1/total) per lane; p = f16(p·inv) for the span rows.
	MOVQ         $0x3ff0000000000000, AX
	MOVQ         AX, X12
	VBROADCASTSD X12, Y12
	VDIVPD       Y10, Y12, Y13
	VDIVPD       Y11, Y12, Y14
	VCVTPD2PSY   Y13, X13
	VCVTPD2PSY   Y14, X14
	VINSERTF128  $1, X14, Y13, Y13
	MOVQ         SI, DI
	MOVQ         DX, CX

gsm2_normloop:
	VMOVUPS   (DI), Y1
	VMULPS    Y13, Y1, Y1
	VCVTPS2PH $0, Y1, X1
	VCVTPH2PS X1, Y1
	VMOVUPS   Y1, (DI)
	ADDQ      $32, DI
	DECQ      CX
	JNZ       gsm2_normloop
	VZEROUPPER
	RET

// GBLOCK3(h, c, lbl) accumulates heads h..h+3 and 8-output chunks
// c..c+2 of lane l over its positions (p at R12 = BX+4h, stepping 64
// positions; values at R13 = vs, up to DX), each chain in position
// order, then stores them to the heads' acc rows at R14. Twelve chains
// in registers cover the fused multiply-add's latency (the previous
// kernel's eight chains of one head left it waiting), and each value
// chunk is loaded once for four heads. GBLOCK2 is the same with chunks
// c, c+1 (eight chains: 64 outputs are not a multiple of 12). Clobbers
// R12, R13, Y0..Y15.
#define GBLOCK3(h, c, lbl) \
	VXORPS Y0, Y0, Y0;   \
	VXORPS Y1, Y1, Y1;   \
	VXORPS Y2, Y2, Y2;   \
	VXORPS Y3, Y3, Y3;   \
	VXORPS Y4, Y4, Y4;   \
	VXORPS Y5, Y5, Y5;   \
	VXORPS Y6, Y6, Y6;   \
	VXORPS Y7, Y7, Y7;   \
	VXORPS Y8, Y8, Y8;   \
	VXORPS Y9, Y9, Y9;   \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11; \
	LEAQ   (4*h)(BX), R12; \
	MOVQ   R10, R13;     \
lbl:                     \
	VMOVUPS      (32*c)(R13), Y12;    \
	VMOVUPS      (32*c+32)(R13), Y13; \
	VMOVUPS      (32*c+64)(R13), Y14; \
	VBROADCASTSS (R12), Y15;          \
	VFMADD231PS  Y12, Y15, Y0;        \
	VFMADD231PS  Y13, Y15, Y1;        \
	VFMADD231PS  Y14, Y15, Y2;        \
	VBROADCASTSS 4(R12), Y15;         \
	VFMADD231PS  Y12, Y15, Y3;        \
	VFMADD231PS  Y13, Y15, Y4;        \
	VFMADD231PS  Y14, Y15, Y5;        \
	VBROADCASTSS 8(R12), Y15;         \
	VFMADD231PS  Y12, Y15, Y6;        \
	VFMADD231PS  Y13, Y15, Y7;        \
	VFMADD231PS  Y14, Y15, Y8;        \
	VBROADCASTSS 12(R12), Y15;        \
	VFMADD231PS  Y12, Y15, Y9;        \
	VFMADD231PS  Y13, Y15, Y10;       \
	VFMADD231PS  Y14, Y15, Y11;       \
	ADDQ         $2048, R12;          \
	ADDQ         $256, R13;           \
	CMPQ         R13, DX;             \
	JLT          lbl;                 \
	VMOVUPS Y0, (16384*h+32*c)(R14);        \
	VMOVUPS Y1, (16384*h+32*c+32)(R14);     \
	VMOVUPS Y2, (16384*h+32*c+64)(R14);     \
	VMOVUPS Y3, (16384*h+16384+32*c)(R14);    \
	VMOVUPS Y4, (16384*h+16384+32*c+32)(R14); \
	VMOVUPS Y5, (16384*h+16384+32*c+64)(R14); \
	VMOVUPS Y6, (16384*h+32768+32*c)(R14);    \
	VMOVUPS Y7, (16384*h+32768+32*c+32)(R14); \
	VMOVUPS Y8, (16384*h+32768+32*c+64)(R14); \
	VMOVUPS Y9, (16384*h+49152+32*c)(R14);    \
	VMOVUPS Y10, (16384*h+49152+32*c+32)(R14); \
	VMOVUPS Y11, (16384*h+49152+32*c+64)(R14)

#define GBLOCK2(h, c, lbl) \
	VXORPS Y0, Y0, Y0;   \
	VXORPS Y1, Y1, Y1;   \
	VXORPS Y3, Y3, Y3;   \
	VXORPS Y4, Y4, Y4;   \
	VXORPS Y6, Y6, Y6;   \
	VXORPS Y7, Y7, Y7;   \
	VXORPS Y9, Y9, Y9;   \
	VXORPS Y10, Y10, Y10; \
	LEAQ   (4*h)(BX), R12; \
	MOVQ   R10, R13;     \
lbl:                     \
	VMOVUPS      (32*c)(R13), Y12;    \
	VMOVUPS      (32*c+32)(R13), Y13; \
	VBROADCASTSS (R12), Y15;          \
	VFMADD231PS  Y12, Y15, Y0;        \
	VFMADD231PS  Y13, Y15, Y1;        \
	VBROADCASTSS 4(R12), Y15;         \
	VFMADD231PS  Y12, Y15, Y3;        \
	VFMADD231PS  Y13, Y15, Y4;        \
	VBROADCASTSS 8(R12), Y15;         \
	VFMADD231PS  Y12, Y15, Y6;        \
	VFMADD231PS  Y13, Y15, Y7;        \
	VBROADCASTSS 12(R12), Y15;        \
	VFMADD231PS  Y12, Y15, Y9;        \
	VFMADD231PS  Y13, Y15, Y10;       \
	ADDQ         $2048, R12;          \
	ADDQ         $256, R13;           \
	CMPQ         R13, DX;             \
	JLT          lbl;                 \
	VMOVUPS Y0, (16384*h+32*c)(R14);        \
	VMOVUPS Y1, (16384*h+32*c+32)(R14);     \
	VMOVUPS Y3, (16384*h+16384+32*c)(R14);    \
	VMOVUPS Y4, (16384*h+16384+32*c+32)(R14); \
	VMOVUPS Y6, (16384*h+32768+32*c)(R14);    \
	VMOVUPS Y7, (16384*h+32768+32*c+32)(R14); \
	VMOVUPS Y9, (16384*h+49152+32*c)(R14);    \
	VMOVUPS Y10, (16384*h+49152+32*c+32)(R14)

// func attnGroupKQV2(p *float32, v *uint16, stride int, np int, heads int, cols int, acc *float32, vs *float32)
//
// attnKQVAcc2 for the first heads (4 or 8) of the eight of p
// (position-major, as attnGroupSoftmax2 leaves it) and 64·cols outputs (a
// head size of 64 or 128), in blocks of 64 columns: head h's row l of
// block c goes to acc[c·32768 + h·4096 + 64l ...]. Lane l's chain
// (positions l, l+64, ... < np) of a block stays in registers: its values
// are converted once into vs (64 floats a position, up to ceil(np/64)
// positions) by the first block of heads and outputs, which multiplies
// them as it goes; the other blocks read them from vs. A lane's column
// blocks follow each other, so the cache is read once, row by row, in
// lane order. The chains are independent, so their order changes no
// bit. Rows of lanes l >= np are zero. np > 0.
TEXT ·attnGroupKQV2(SB), NOSPLIT, $0-64
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ stride+16(FP), R8
	MOVQ acc+48(FP), R9
	MOVQ vs+56(FP), R10
	XORQ AX, AX

gk2_lane:
	CMPQ AX, $64
	JGE  gk2_done
	MOVQ AX, R14
	SHLQ $8, R14
	ADDQ R9, R14
	CMPQ AX, np+24(FP)
	JGE  gk2_zero

	// CX = positions of lane l, DX = the end of their values in vs,
	// BX = v_l, R11 = 64 rows.
	MOVQ np+24(FP), CX
	SUBQ AX, CX
	ADDQ $63, CX
	SHRQ $6, CX
	MOVQ CX, DX
	SHLQ $8, DX
	ADDQ R10, DX
	MOVQ AX, BX
	IMULQ R8, BX
	ADDQ DI, BX
	MOVQ R8, R11
	SHLQ $6, R11
	MOVQ R10, R12
	MOVQ AX, CX
	SHLQ $5, CX
	ADDQ SI, CX

	// The first block (heads 0..3, chunks 0..2, see GBLOCK3) converts
	// the lane's values into vs as it goes: BX = v_j, R12 = its place
	// in vs, CX = &p[8j].
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

gk2_cvt:
	// The next lane's value at this position (the next row in memory):
	// lanes read the cache 64 rows apart, which the hardware does not
	// prefetch.
	PREFETCHT0   (BX)(R8*1)
	PREFETCHT0   64(BX)(R8*1)
	VCVTPH2PS    (BX), Y12
	VCVTPH2PS    16(BX), Y13
	VCVTPH2PS    32(BX), Y14
	VMOVUPS      Y12, (R12)
	VMOVUPS      Y13, 32(R12)
	VMOVUPS      Y14, 64(R12)
	VCVTPH2PS    48(BX), Y15
	VMOVUPS      Y15, 96(R12)
	VCVTPH2PS    64(BX), Y15
	VMOVUPS      Y15, 128(R12)
	VCVTPH2PS    80(BX), Y15
	VMOVUPS      Y15, 160(R12)
	VCVTPH2PS    96(BX), Y15
	VMOVUPS      Y15, 192(R12)
	VCVTPH2PS    112(BX), Y15
	VMOVUPS      Y15, 224(R12)
	VBROADCASTSS (CX), Y15
	VFMADD231PS  Y12, Y15, Y0
	VFMADD231PS  Y13, Y15, Y1
	VFMADD231PS  Y14, Y15, Y2
	VBROADCASTSS 4(CX), Y15
	VFMADD231PS  Y12, Y15, Y3
	VFMADD231PS  Y13, Y15, Y4
	VFMADD231PS  Y14, Y15, Y5
	VBROADCASTSS 8(CX), Y15
	VFMADD231PS  Y12, Y15, Y6
	VFMADD231PS  Y13, Y15, Y7
	VFMADD231PS  Y14, Y15, Y8
	VBROADCASTSS 12(CX), Y15
	VFMADD231PS  Y12, Y15, Y9
	VFMADD231PS  Y13, Y15, Y10
	VFMADD231PS  Y14, Y15, Y11
	ADDQ         R11, BX
	ADDQ         $256, R12
	ADDQ         $2048, CX
	CMPQ         R12, DX
	JLT          gk2_cvt
	VMOVUPS      Y0, (R14)
	VMOVUPS      Y1, 32(R14)
	VMOVUPS      Y2, 64(R14)
	VMOVUPS      Y3, 16384(R14)
	VMOVUPS      Y4, 16416(R14)
	VMOVUPS      Y5, 16448(R14)
	VMOVUPS      Y6, 32768(R14)
	VMOVUPS      Y7, 32800(R14)
	VMOVUPS      Y8, 32832(R14)
	VMOVUPS      Y9, 49152(R14)
	VMOVUPS      Y10, 49184(R14)
	VMOVUPS      Y11, 49216(R14)

	// The other blocks. BX = &p[8l], R14 = head 0's acc row l.
	MOVQ AX, BX
	SHLQ $5, BX
	ADDQ SI, BX
	GBLOCK3(0, 3, gk2_b2)
	GBLOCK2(0, 6, gk2_b4)
	CMPQ heads+32(FP), $4
	JLE  gk2_next
	GBLOCK3(4, 0, gk2_b1)
	GBLOCK3(4, 3, gk2_b3)
	GBLOCK2(4, 6, gk2_b5)

gk2_next:
	// The lane's next column block: DI and R9 move to it; after the
	// last, back to block 0 and the next lane.
	ADDQ $128, DI
	ADDQ $32768*4, R9
	MOVQ DI, R11
	SUBQ v+8(FP), R11
	MOVQ cols+40(FP), R12
	SHLQ $7, R12
	CMPQ R11, R12
	JLT  gk2_lane
	MOVQ v+8(FP), DI
	MOVQ acc+48(FP), R9
	INCQ AX
	JMP  gk2_lane

gk2_zero:
	VXORPS Y0, Y0, Y0
	MOVQ   $8, R11

gk2_zerohead:
	VMOVUPS Y0, (R14)
	VMOVUPS Y0, 32(R14)
	VMOVUPS Y0, 64(R14)
	VMOVUPS Y0, 96(R14)
	VMOVUPS Y0, 128(R14)
	VMOVUPS Y0, 160(R14)
	VMOVUPS Y0, 192(R14)
	VMOVUPS Y0, 224(R14)
	ADDQ    $16384, R14
	DECQ    R11
	JNZ     gk2_zerohead
	JMP     gk2_next

gk2_done:
	VZEROUPPER
	RET

// GHALF128(off, W): W = v[l] of dotF16's tree (see GHEAD) for the lanes
// l of one 8-lane half of the 16-lane accumulators (off = 0: lanes 0..7,
// off = 32: lanes 8..15), for the slot whose query (128 floats) is at
// R10, against that half of the key in Y8..Y15 (Y(8+i) holds dimensions
// 16i+off/4 .. 16i+off/4+7). Accumulator a_k takes the products of
// dimensions 16k+l and 64+16k+l in that order: a plain product (see
// GHEAD for its zero's sign) and a fused multiply-add. Clobbers Y0..Y2.
#define GHALF128(off, W) \
	VMULPS      (off)(R10), Y8, Y0;      \
	VFMADD231PS (256+off)(R10), Y12, Y0; \
	VMULPS      (128+off)(R10), Y10, Y1; \
	VFMADD231PS (384+off)(R10), Y14, Y1; \
	VADDPS      Y1, Y0, Y0;              \
	VMULPS      (64+off)(R10), Y9, Y1;   \
	VFMADD231PS (320+off)(R10), Y13, Y1; \
	VMULPS      (192+off)(R10), Y11, Y2; \
	VFMADD231PS (448+off)(R10), Y15, Y2; \
	VADDPS      Y2, Y1, Y1;              \
	VADDPS      Y1, Y0, W

// GKEY128(off): Y8..Y15 = one half of the key at DI (see GHALF128), off
// in bytes of f16 (0 or 16).
#define GKEY128(off) \
	VCVTPH2PS (off)(DI), Y8;     \
	VCVTPH2PS (32+off)(DI), Y9;  \
	VCVTPH2PS (64+off)(DI), Y10; \
	VCVTPH2PS (96+off)(DI), Y11; \
	VCVTPH2PS (128+off)(DI), Y12; \
	VCVTPH2PS (160+off)(DI), Y13; \
	VCVTPH2PS (192+off)(DI), Y14; \
	VCVTPH2PS (224+off)(DI), Y15

// func attnGroupScores128(qg *float32, k *uint16, v *uint16, stride int, span int, rounds int, scale float32, s *float32)
//
// attnGroupScores2 for a head size of 128 and 4·rounds heads (rounds 1 or
// 2): s[8j+h] = dotF16(q_h, k_j)·scale for j < span (span > 0), and
// s[8j+h] = 0 for the heads 4 <= h < 8 of one round. A key does not fit
// the registers beside the queries' sums, so each round of four heads
// takes it in two halves of eight vectors, the 16-lane accumulators' lanes
// 0..7 then 8..15, and adds the halves (v[l]+v[l+8], the first step of
// hsum's tree); the rest of the tree runs lane-wise across the four
// heads. qg holds the rounded queries (128 floats each) in the slot order
// 0, 2, 1, 3 (4, 6, 5, 7) of the heads, which the final shuffles put back
// in order. The values v (same stride) are only prefetched, as by
// attnGroupScores2, but 24 positions ahead: a position takes about twice
// as long as there and the prefetches need the time (cold caches of
// 2000 positions: scores 56 against 64 cpu-ns a position, the value
// products after them 79 against 95).
TEXT ·attnGroupScores128(SB), NOSPLIT, $0-64
	MOVQ         qg+0(FP), SI
	MOVQ         k+8(FP), DI
	MOVQ         v+16(FP), R9
	MOVQ         stride+24(FP), R8
	MOVQ         span+32(FP), DX
	MOVQ         rounds+40(FP), BX
	VBROADCASTSS scale+48(FP), Y7
	MOVQ         s+56(FP), AX
	LEAQ         (R8)(R8*2), R11
	SHLQ         $3, R11

gs128_pos:
	PREFETCHT0 (DI)(R11*1)
	PREFETCHT0 64(DI)(R11*1)
	PREFETCHT0 128(DI)(R11*1)
	PREFETCHT0 192(DI)(R11*1)
	PREFETCHT1 (R9)(R11*1)
	PREFETCHT1 64(R9)(R11*1)
	PREFETCHT1 128(R9)(R11*1)
	PREFETCHT1 192(R9)(R11*1)
	VXORPS     X0, X0, X0
	VMOVUPS    X0, 16(AX)
	MOVQ       SI, R10
	MOVQ       AX, R12
	MOVQ       BX, R13

gs128_round:
	// Lanes 0..7 of the four heads' accumulators into Y3..Y6, then
	// lanes 8..15 added to them.
	GKEY128(0)
	GHALF128(0, Y3)
	ADDQ     $512, R10
	GHALF128(0, Y4)
	ADDQ     $512, R10
	GHALF128(0, Y5)
	ADDQ     $512, R10
	GHALF128(0, Y6)
	SUBQ     $1536, R10
	GKEY128(16)
	GHALF128(32, Y0)
	VADDPS   Y0, Y3, Y3
	ADDQ     $512, R10
	GHALF128(32, Y0)
	VADDPS   Y0, Y4, Y4
	ADDQ     $512, R10
	GHALF128(32, Y0)
	VADDPS   Y0, Y5, Y5
	ADDQ     $512, R10
	GHALF128(32, Y0)
	VADDPS   Y0, Y6, Y6
	ADDQ     $512, R10

	// u = t[l]+t[l+4] of slots 0 | 1 in Y3 and 2 | 3 in Y5, then
	// (u0+u2) and (u1+u3), then their sum: [h0, h1, 0, 0 | h2, h3, 0, 0].
	VPERM2F128 $0x20, Y4, Y3, Y0
	VPERM2F128 $0x31, Y4, Y3, Y1
	VADDPS     Y1, Y0, Y3
	VPERM2F128 $0x20, Y6, Y5, Y0
	VPERM2F128 $0x31, Y6, Y5, Y1
	VADDPS     Y1, Y0, Y5
	VSHUFPS    $0x44, Y5, Y3, Y0
	VSHUFPS    $0xee, Y5, Y3, Y1
	VADDPS     Y1, Y0, Y3
	VXORPS     Y4, Y4, Y4
	VSHUFPS    $0x88, Y4, Y3, Y0
	VSHUFPS    $0xdd, Y4, Y3, Y1
	VADDPS     Y1, Y0, Y0
	VPERMQ     $0xd8, Y0, Y0
	VMULPS     X7, X0, X0
	VMOVUPS    X0, (R12)
	ADDQ       $16, R12
	DECQ       R13
	JNZ        gs128_round

	ADDQ $32, AX
	ADDQ R8, DI
	ADDQ R8, R9
	DECQ DX
	JNZ  gs128_pos
	VZEROUPPER
	RET

// The tile kernels below compute several positions' attention (a
// prompt's prefill, in tinyBLAS's order) for a tile of (row, query head)
// pairs that share a key/value head, converting each cached key and value
// once for several pairs instead of once per pair. Pairs are kept in
// octets: an octet's scores and probabilities are position-major, eight
// floats (one per pair) a position, as attnGroupSoftmax2 takes them. Every
// pair's dot products keep attnScoresTiny2's and attnKQVTiny2's operations
// in their order: the accumulators start at +0, take the same fused
// multiply-adds in the same order and are reduced by hsum's tree.

// func attnTileKeys2(k *uint16, kstride int, npos int, hd int, kf *float32)
//
// kf[j·hd ...] = the key at k + j·kstride (bytes) converted to float32,
// for j < npos; hd is a multiple of 16. attnTileScores2 then reads the
// keys of a block in order: in the cache they are a row apart (1 KiB to 2
// KiB for common models), a stride that maps a block to few sets of the
// L1 cache.
TEXT ·attnTileKeys2(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), SI
	MOVQ kstride+8(FP), AX
	MOVQ npos+16(FP), DX
	MOVQ kf+32(FP), DI

tkey2_pos:
	MOVQ SI, CX
	MOVQ hd+24(FP), BX
	SHRQ $4, BX

tkey2_chunk:
	VCVTPH2PS (CX), Y0
	VCVTPH2PS 16(CX), Y1
	VMOVUPS   Y0, (DI)
	VMOVUPS   Y1, 32(DI)
	ADDQ      $32, CX
	ADDQ      $64, DI
	DECQ      BX
	JNZ       tkey2_chunk
	ADDQ      AX, SI
	DECQ      DX
	JNZ       tkey2_pos
	VZEROUPPER
	RET

// func attnTileScores2(qt *float32, kf *float32, kstride int, chunks int, triples int, pairs int, scale float32, s *float32, ostride int)
//
// For the pairs p < pairs (even) with rounded queries at qt + p·64·chunks
// bytes (head size 16·chunks) and the positions j < 3·triples with keys
// (converted by attnTileKeys2) at kf + j·kstride: s[o·ostride + 32j +
// 4(p%8)] (bytes, o = p/8) = dotF16Tiny(q_p, k_j)·scale. Blocks of two
// pairs and three positions keep their twelve 8-lane halves of 16-lane
// accumulators in registers, each key chunk loaded once for both pairs
// and each query chunk once for the three positions; the twelve
// reductions then run lane-wise across the six sums.
TEXT ·attnTileScores2(SB), NOSPLIT, $0-72
	MOVQ qt+0(FP), SI
	MOVQ chunks+24(FP), R13
	MOVQ R13, R14
	SHLQ $6, R14
	MOVQ kstride+16(FP), R12
	XORQ R15, R15

ts2_pair:
	CMPQ  R15, pairs+40(FP)
	JGE   ts2_done
	MOVQ  R15, AX
	SHRQ  $3, AX
	IMULQ ostride+64(FP), AX
	ADDQ  s+56(FP), AX
	MOVQ  R15, BX
	ANDQ  $7, BX
	LEAQ  (AX)(BX*4), DI
	LEAQ  (SI)(R14*1), R11
	MOVQ  kf+8(FP), R8
	MOVQ  triples+32(FP), DX

ts2_triple:
	LEAQ   (R8)(R12*1), R9
	LEAQ   (R9)(R12*1), R10
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	XORQ   CX, CX
	MOVQ   R13, BX

ts2_chunk:
	// Lanes 0..7 of the chunk: pair 0 into Y0, Y2, Y4 (positions 0, 1,
	// 2), pair 1 into Y6, Y8, Y10; then lanes 8..15 into the odd ones.
	VMOVUPS     (R8)(CX*2), Y12
	VMOVUPS     (R9)(CX*2), Y13
	VMOVUPS     (R10)(CX*2), Y14
	VMOVUPS     (SI)(CX*2), Y15
	VFMADD231PS Y12, Y15, Y0
	VFMADD231PS Y13, Y15, Y2
	VFMADD231PS Y14, Y15, Y4
	VMOVUPS     (R11)(CX*2), Y15
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y8
	VFMADD231PS Y14, Y15, Y10
	VMOVUPS     32(R8)(CX*2), Y12
	VMOVUPS     32(R9)(CX*2), Y13
	VMOVUPS     32(R10)(CX*2), Y14
	VMOVUPS     32(SI)(CX*2), Y15
	VFMADD231PS Y12, Y15, Y1
	VFMADD231PS Y13, Y15, Y3
	VFMADD231PS Y14, Y15, Y5
	VMOVUPS     32(R11)(CX*2), Y15
	VFMADD231PS Y12, Y15, Y7
	VFMADD231PS Y13, Y15, Y9
	VFMADD231PS Y14, Y15, Y11
	ADDQ        $32, CX
	DECQ        BX
	JNZ         ts2_chunk

	// t[l] = a[l]+a[l+8] of the six sums: A, B, C (pair 0, positions
	// 0, 1, 2) in Y0, Y2, Y4 and D, E, F (pair 1) in Y6, Y8, Y10.
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	VADDPS Y9, Y8, Y8
	VADDPS Y11, Y10, Y10

	// u = t[l]+t[l+4]: [A | C] in Y1, [D | F] in Y3, [B | 0] in Y5,
	// [E | 0] in Y7 (one sum's four lanes in each 128-bit half).
	VPERM2F128   $0x20, Y4, Y0, Y12
	VPERM2F128   $0x31, Y4, Y0, Y13
	VADDPS       Y13, Y12, Y1
	VPERM2F128   $0x20, Y10, Y6, Y12
	VPERM2F128   $0x31, Y10, Y6, Y13
	VADDPS       Y13, Y12, Y3
	VEXTRACTF128 $1, Y2, X12
	VADDPS       X12, X2, X5
	VEXTRACTF128 $1, Y8, X12
	VADDPS       X12, X8, X7

	// (u0+u2) and (u1+u3), then their sum: [A, D, B, E | C, F, 0, 0].
	VSHUFPS      $0x44, Y3, Y1, Y12
	VSHUFPS      $0xee, Y3, Y1, Y13
	VADDPS       Y13, Y12, Y1
	VSHUFPS      $0x44, Y7, Y5, Y12
	VSHUFPS      $0xee, Y7, Y5, Y13
	VADDPS       Y13, Y12, Y5
	VSHUFPS      $0x88, Y5, Y1, Y12
	VSHUFPS      $0xdd, Y5, Y1, Y13
	VADDPS       Y13, Y12, Y0
	VBROADCASTSS scale+48(FP), Y15
	VMULPS       Y15, Y0, Y0
	VMOVLPS      X0, (DI)
	VMOVHPS      X0, 32(DI)
	VEXTRACTF128 $1, Y0, X12
	VMOVLPS      X12, 64(DI)
	ADDQ         $96, DI
	LEAQ         (R10)(R12*1), R8
	DECQ         DX
	JNZ          ts2_triple

	LEAQ (R11)(R14*1), SI
	ADDQ $2, R15
	JMP  ts2_pair

ts2_done:
	VZEROUPPER
	RET

// func attnTileGather2(s *float32, ostride int, v *uint16, vstride int, npos int, octets int, blocks int, vs *float32, ps *float32)
//
// Gathers one lane's positions for attnTileKQV2: for the npos positions t
// of the lane, with probabilities at s + o·ostride + 512t (bytes, eight
// pairs of octet o) and values at v + t·vstride, ps[t·8·octets + 8o ...]
// = the octet's eight probabilities and vs[(c·npos + t)·16 ...] = the
// value's 16 outputs of block c, converted to float32. The lane's
// positions are 16 rows apart in the cache and the scores, a stride that
// maps them to few sets of the L1 cache; gathered, the value products
// read them in order.
TEXT ·attnTileGather2(SB), NOSPLIT, $0-72
	MOVQ  s+0(FP), SI
	MOVQ  v+16(FP), R8
	MOVQ  vstride+24(FP), AX
	MOVQ  npos+32(FP), DX
	MOVQ  npos+32(FP), R11
	SHLQ  $6, R11
	MOVQ  vs+56(FP), R10
	MOVQ  ps+64(FP), DI
	TESTQ DX, DX
	JZ    tg2_done

tg2_pos:
	PREFETCHT0 (R8)(AX*4)
	MOVQ       R8, CX
	MOVQ       R10, R9
	MOVQ       blocks+48(FP), BX

tg2_block:
	VCVTPH2PS (CX), Y0
	VCVTPH2PS 16(CX), Y1
	VMOVUPS   Y0, (R9)
	VMOVUPS   Y1, 32(R9)
	ADDQ      $32, CX
	ADDQ      R11, R9
	DECQ      BX
	JNZ       tg2_block

	MOVQ SI, CX
	MOVQ octets+40(FP), BX

tg2_oct:
	VMOVUPS (CX), Y0
	VMOVUPS Y0, (DI)
	ADDQ    ostride+8(FP), CX
	ADDQ    $32, DI
	DECQ    BX
	JNZ     tg2_oct

	ADDQ AX, R8
	ADDQ $512, SI
	ADDQ $64, R10
	DECQ DX
	JNZ  tg2_pos

tg2_done:
	VZEROUPPER
	RET

// func attnTileKQV2(ps *float32, vs *float32, npos int, pairs int, blocks int, acc *float32, astride int, load int)
//
// One lane l of attnKQVTiny2's accumulators for every pair, from the
// lane's npos positions gathered by attnTileGather2 (pairs = 8·octets):
// pair p's accumulator row acc + p·astride (bytes; hd = 16·blocks floats)
// gets p_t·v_t added in position order, starting from the row's floats
// (load != 0) or from +0. Blocks of four pairs and 16 outputs keep their
// eight chains in registers; each value chunk is loaded once for the four.
TEXT ·attnTileKQV2(SB), NOSPLIT, $0-64
	MOVQ astride+48(FP), R11
	MOVQ pairs+24(FP), AX
	SHLQ $2, AX
	MOVQ npos+16(FP), R14
	SHLQ $6, R14
	MOVQ blocks+32(FP), BX
	MOVQ vs+8(FP), R13
	MOVQ acc+40(FP), R10

tk2_block:
	MOVQ R10, SI
	MOVQ ps+0(FP), DI
	MOVQ pairs+24(FP), R15
	SHRQ $2, R15

tk2_quad:
	LEAQ    (SI)(R11*2), R12
	CMPQ    load+56(FP), $0
	JEQ     tk2_zero
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS (SI)(R11*1), Y2
	VMOVUPS 32(SI)(R11*1), Y3
	VMOVUPS (R12), Y4
	VMOVUPS 32(R12), Y5
	VMOVUPS (R12)(R11*1), Y6
	VMOVUPS 32(R12)(R11*1), Y7
	JMP     tk2_walk0

tk2_zero:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

tk2_walk0:
	MOVQ  R13, R8
	LEAQ  (R13)(R14*1), DX
	MOVQ  DI, R9
	TESTQ R14, R14
	JZ    tk2_store

tk2_walk:
	VMOVUPS      (R8), Y8
	VMOVUPS      32(R8), Y9
	VBROADCASTSS (R9), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS 4(R9), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS 8(R9), Y12
	VFMADD231PS  Y8, Y12, Y4
	VFMADD231PS  Y9, Y12, Y5
	VBROADCASTSS 12(R9), Y13
	VFMADD231PS  Y8, Y13, Y6
	VFMADD231PS  Y9, Y13, Y7
	ADDQ         $64, R8
	ADDQ         AX, R9
	CMPQ         R8, DX
	JLT          tk2_walk

tk2_store:
	VMOVUPS Y0, (SI)
	VMOVUPS Y1, 32(SI)
	VMOVUPS Y2, (SI)(R11*1)
	VMOVUPS Y3, 32(SI)(R11*1)
	VMOVUPS Y4, (R12)
	VMOVUPS Y5, 32(R12)
	VMOVUPS Y6, (R12)(R11*1)
	VMOVUPS Y7, 32(R12)(R11*1)
	LEAQ    (R12)(R11*2), SI
	ADDQ    $16, DI
	DECQ    R15
	JNZ     tk2_quad
	ADDQ    R14, R13
	ADDQ    $64, R10
	DECQ    BX
	JNZ     tk2_block
	VZEROUPPER
	RET

// func attnTileTail2(p *float32, pstride int, v *uint16, vstride int, count int, lane int, hd8 int, acc *float32)
//
// ACCUM2 for one pair from position lane on: for count positions t,
// accumulator row (lane+t)&15 (8·hd8 floats at acc) += p_t·v_t, with p_t
// at p + t·pstride and v_t at v + t·vstride (bytes).
TEXT ·attnTileTail2(SB), NOSPLIT, $0-64
	MOVQ  p+0(FP), SI
	MOVQ  v+16(FP), R8
	MOVQ  count+32(FP), DX
	MOVQ  lane+40(FP), AX
	MOVQ  hd8+48(FP), R12
	MOVQ  R12, R11
	SHLQ  $5, R11
	MOVQ  acc+56(FP), R10
	TESTQ DX, DX
	JZ    tt2_done

tt2_pos:
	VBROADCASTSS (SI), Y0
	MOVQ         AX, CX
	ANDQ         $15, CX
	IMULQ        R11, CX
	ADDQ         R10, CX
	MOVQ         R8, DI
	MOVQ         R12, BX

tt2_chunk:
	VCVTPH2PS   (DI), Y1
	VFMADD213PS (CX), Y0, Y1
	VMOVUPS     Y1, (CX)
	ADDQ        $16, DI
	ADDQ        $32, CX
	DECQ        BX
	JNZ         tt2_chunk
	ADDQ        pstride+8(FP), SI
	ADDQ        vstride+24(FP), R8
	INCQ        AX
	DECQ        DX
	JNZ         tt2_pos

tt2_done:
	VZEROUPPER
	RET

// func attnTileReduce2(acc *float32, hd int, o *float32)
//
// attnKQVTiny2's reduction: o[d] = hsum of the 16 accumulator rows (hd
// floats each, hd a multiple of 8) at column d.
TEXT ·attnTileReduce2(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ hd+8(FP), R12
	MOVQ o+16(FP), DX
	MOVQ R12, R11
	SHLQ $2, R11
	SHRQ $3, R12

tr2_red:
	MOVQ DI, AX
	LOADROW2(AX, Y0)
	LOADROW2(AX, Y1)
	LOADROW2(AX, Y2)
	LOADROW2(AX, Y3)
	LOADROW2(AX, Y4)
	LOADROW2(AX, Y5)
	LOADROW2(AX, Y6)
	LOADROW2(AX, Y7)
	VADDPS  (AX), Y0, Y0
	ADDQ    R11, AX
	VADDPS  (AX), Y1, Y1
	ADDQ    R11, AX
	VADDPS  (AX), Y2, Y2
	ADDQ    R11, AX
	VADDPS  (AX), Y3, Y3
	ADDQ    R11, AX
	VADDPS  (AX), Y4, Y4
	ADDQ    R11, AX
	VADDPS  (AX), Y5, Y5
	ADDQ    R11, AX
	VADDPS  (AX), Y6, Y6
	ADDQ    R11, AX
	VADDPS  (AX), Y7, Y7
	TREE8
	VMOVUPS Y0, (DX)
	ADDQ    $32, DI
	ADDQ    $32, DX
	DECQ    R12
	JNZ     tr2_red
	VZEROUPPER
	RET

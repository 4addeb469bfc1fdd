//go:build amd64 && !purego && !avx512sim

#include "textflag.h"

// AVX-512 kernels for attention (attn_kernels.go). Each one performs the
// float operations of its pure-Go counterpart in the same order: a 16-lane
// accumulator of the Go code is one Z register (or one 16-float row of the
// scratch memory), and its reduction is done pairwise in the same tree
// (lanes l and l+8, then l and l+4, then (0+2)+(1+3)). Products of two f16
// values are exact in float32, so a fused multiply-add gives the bits of the
// Go code's multiply then add. Strides are in bytes.

// HSUM(Z, Y, X, Yt, Xt): X[0] = hsum of the 16 lanes of Z, in hsum's tree.
#define HSUM(Zr, Yr, Xr, Yt, Xt) \
	VEXTRACTF32X8 $1, Zr, Yt; \
	VADDPS        Yt, Yr, Yr; \
	VEXTRACTF128  $1, Yr, Xt; \
	VADDPS        Xt, Xr, Xr; \
	VMOVHLPS      Xr, Xr, Xt; \
	VADDPS        Xt, Xr, Xr; \
	VMOVSHDUP     Xr, Xt;     \
	VADDSS        Xt, Xr, Xr

// TAILMASK(n, K): K = the low n bits (n in CX, 1..15); clobbers BX.
#define TAILMASK(Kr) \
	MOVL  $1, BX;  \
	SHLL  CX, BX;  \
	DECL  BX;      \
	KMOVW BX, Kr

// func attnPrepQ512(q *float32, q16 *uint16, qf *float32, n int)
TEXT ·attnPrepQ512(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), SI
	MOVQ q16+8(FP), DI
	MOVQ qf+16(FP), DX
	MOVQ n+24(FP), CX

prep_loop:
	CMPQ      CX, $16
	JLT       prep_tail
	VMOVUPS   (SI), Z0
	VCVTPS2PH $0, Z0, Y1
	VMOVDQU   Y1, (DI)
	VCVTPH2PS Y1, Z2
	VMOVUPS   Z2, (DX)
	ADDQ      $64, SI
	ADDQ      $32, DI
	ADDQ      $64, DX
	SUBQ      $16, CX
	JMP       prep_loop

prep_tail:
	TESTQ CX, CX
	JZ    prep_done
	TAILMASK(K1)
	VMOVUPS.Z (SI), K1, Z0
	VCVTPS2PH $0, Z0, Y1
	VCVTPS2PH $0, Z0, K1, (DI)
	VCVTPH2PS Y1, Z2
	VMOVUPS   Z2, (DX)

prep_done:
	VZEROUPPER
	RET

// func attnToF16_512(dst *uint16, x *float32, n int)
TEXT ·attnToF16_512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX

tof16_loop:
	CMPQ      CX, $16
	JLT       tof16_tail
	VMOVUPS   (SI), Z0
	VCVTPS2PH $0, Z0, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	SUBQ      $16, CX
	JMP       tof16_loop

tof16_tail:
	TESTQ CX, CX
	JZ    tof16_done
	TAILMASK(K1)
	VMOVUPS.Z (SI), K1, Z0
	VCVTPS2PH $0, Z0, K1, (DI)

tof16_done:
	VZEROUPPER
	RET

// func attnScoresTiny512(qf *float32, k *uint16, stride int, chunks int, span int, scale float32, s *float32)
//
// s[j] = (one 16-lane accumulator over chunks·16 elements, hsum)·scale.
TEXT ·attnScoresTiny512(SB), NOSPLIT, $0-56
	MOVQ   qf+0(FP), SI
	MOVQ   k+8(FP), DI
	MOVQ   stride+16(FP), R8
	MOVQ   chunks+24(FP), R9
	MOVQ   span+32(FP), DX
	VMOVSS scale+40(FP), X14
	MOVQ   s+48(FP), AX

tiny_pos:
	VPXORD Z0, Z0, Z0
	MOVQ   SI, R10
	MOVQ   DI, R11
	MOVQ   R9, R12

tiny_chunk:
	VCVTPH2PS   (R11), Z1
	VFMADD231PS (R10), Z1, Z0
	ADDQ        $32, R11
	ADDQ        $64, R10
	DECQ        R12
	JNZ         tiny_chunk

	HSUM(Z0, Y0, X0, Y1, X1)
	VMULSS X14, X0, X0
	VMOVSS X0, (AX)
	ADDQ   $4, AX
	ADDQ   R8, DI
	DECQ   DX
	JNZ    tiny_pos
	VZEROUPPER
	RET

// func attnScoresVec512(qf *float32, k *uint16, stride int, hd int, span int, scale float32, s *float32)
//
// s[j] = float32(float64(fold4 of four accumulators over 64-element steps)
// + the remaining products one by one in float64)·scale.
TEXT ·attnScoresVec512(SB), NOSPLIT, $0-56
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

vec_pos:
	MOVQ   SI, R10
	MOVQ   DI, R11
	VXORPD X2, X2, X2
	TESTQ  R9, R9
	JZ     vec_tail
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	MOVQ   R9, R12

vec_chunk:
	VCVTPH2PS   (R11), Z8
	VFMADD231PS (R10), Z8, Z4
	VCVTPH2PS   32(R11), Z9
	VFMADD231PS 64(R10), Z9, Z5
	VCVTPH2PS   64(R11), Z10
	VFMADD231PS 128(R10), Z10, Z6
	VCVTPH2PS   96(R11), Z11
	VFMADD231PS 192(R10), Z11, Z7
	ADDQ        $128, R11
	ADDQ        $256, R10
	DECQ        R12
	JNZ         vec_chunk

	// (a0+a2)+(a1+a3), then hsum, then to float64.
	VADDPS    Z6, Z4, Z4
	VADDPS    Z7, Z5, Z5
	VADDPS    Z5, Z4, Z0
	HSUM(Z0, Y0, X0, Y1, X1)
	VCVTSS2SD X0, X0, X2

vec_tail:
	MOVQ  R13, R12
	TESTQ R12, R12
	JZ    vec_store

vec_tail_loop:
	MOVWQZX   (R11), BX
	MOVQ      BX, X3
	VCVTPH2PS X3, X3
	VMULSS    (R10), X3, X3
	VCVTSS2SD X3, X3, X3
	VADDSD    X3, X2, X2
	ADDQ      $2, R11
	ADDQ      $4, R10
	DECQ      R12
	JNZ       vec_tail_loop

vec_store:
	VCVTSD2SS X2, X2, X0
	VMULSS    X14, X0, X0
	VMOVSS    X0, (AX)
	ADDQ      $4, AX
	ADDQ      R8, DI
	DECQ      DX
	JNZ       vec_pos
	VZEROUPPER
	RET

// VEXP: Z5 = vexpf(Z1) with ggml's AVX-512 steps; constants in Z17..Z30,
// clobbers Z2..Z8, K2, K3.
#define VEXP \
	VMOVAPS      Z17, Z2;      \
	VFMADD231PS  Z18, Z1, Z2;  \
	VSUBPS       Z17, Z2, Z2;  \
	VMOVAPS      Z1, Z3;       \
	VFNMADD231PS Z19, Z2, Z3;  \
	VFNMADD231PS Z20, Z2, Z3;  \
	VMULPS       Z3, Z3, Z4;   \
	VMOVAPS      Z22, Z5;      \
	VFMADD231PS  Z21, Z3, Z5;  \
	VMOVAPS      Z24, Z6;      \
	VFMADD231PS  Z23, Z3, Z6;  \
	VFMADD213PS  Z6, Z4, Z5;   \
	VMOVAPS      Z26, Z7;      \
	VFMADD231PS  Z25, Z3, Z7;  \
	VFMADD213PS  Z7, Z4, Z5;   \
	VSCALEFPS    Z2, Z5, Z5;   \
	VPANDD       Z28, Z2, Z8;  \
	VCMPPS       $0x1e, Z27, Z8, K2; \
	VMOVAPS      Z29, K2, Z5;  \
	VCMPPS       $0x12, Z30, Z2, K3; \
	KANDW        K3, K2, K3;   \
	VMOVAPS      Z30, K3, Z5

#define BCAST(imm, Zr) \
	MOVL         $imm, AX; \
	VPBROADCASTD AX, Zr

// EXPCONST: the constants of VEXP.
#define EXPCONST \
	BCAST(0x4b400000, Z17); \
	BCAST(0x3fb8aa3b, Z18); \
	BCAST(0x3f317200, Z19); \
	BCAST(0x35bfbe8e, Z20); \
	BCAST(0x3c072010, Z21); \
	BCAST(0x3d2b9f17, Z22); \
	BCAST(0x3e2aaf33, Z23); \
	BCAST(0x3efffedb, Z24); \
	BCAST(0x3f7ffff6, Z25); \
	BCAST(0x3f800000, Z26); \
	BCAST(0x43400000, Z27); \
	BCAST(0x7fffffff, Z28); \
	BCAST(0x7f800000, Z29); \
	VPXORD Z30, Z30, Z30

// func attnExp512(x *float32, n int)
//
// x[i] = vexpf(x[i]) for n (a multiple of 16) values; the tests check VEXP
// with it over the whole float range.
TEXT ·attnExp512(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), DX
	EXPCONST
	SHRQ $4, DX
	JZ   exp_only_done

exp_only:
	VMOVUPS (SI), Z1
	VEXP
	VMOVUPS Z5, (SI)
	ADDQ    $64, SI
	DECQ    DX
	JNZ     exp_only

exp_only_done:
	VZEROUPPER
	RET

// func attnSiLU512(y, x *float32, n int)
//
// y = x/(1+vexpf(0-x)) for n (a multiple of 16) values; y may be x.
TEXT ·attnSiLU512(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), DX
	EXPCONST
	SHRQ $4, DX
	JZ   silu_done

silu_loop:
	VMOVUPS (SI), Z9
	VSUBPS  Z9, Z30, Z1
	VEXP
	VADDPS  Z26, Z5, Z5
	VDIVPS  Z5, Z9, Z9
	VMOVUPS Z9, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	DECQ    DX
	JNZ     silu_loop

silu_done:
	VZEROUPPER
	RET

// func attnSoftmax512(p *float32, span int)
//
// The maximum (NaN if any score is NaN, like Go's max), then per 16-lane
// vector e^(p-max) with the padding lanes zeroed, the vector's hsum added
// to a float64 total in order, then p·float32(1/total) rounded to f16.
TEXT ·attnSoftmax512(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ span+8(FP), DX
	BCAST(0xff800000, Z16)
	EXPCONST

	// Maximum; K2 collects NaN lanes.
	VMOVAPS Z16, Z0
	KXORW   K2, K2, K2
	MOVQ    SI, DI
	MOVQ    DX, CX

max_loop:
	CMPQ    CX, $16
	JLT     max_tail
	VMOVUPS (DI), Z1
	VMAXPS  Z1, Z0, Z0
	VCMPPS  $3, Z1, Z1, K3
	KORW    K3, K2, K2
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     max_loop

max_tail:
	TESTQ   CX, CX
	JZ      max_fold
	TAILMASK(K1)
	VMOVAPS Z16, Z1
	VMOVUPS (DI), K1, Z1
	VMAXPS  Z1, Z0, Z0
	VCMPPS  $3, Z1, Z1, K3
	KORW    K3, K2, K2

max_fold:
	VEXTRACTF32X8 $1, Z0, Y1
	VMAXPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPS        X1, X0, X0
	VMOVHLPS      X0, X0, X1
	VMAXPS        X1, X0, X0
	VMOVSHDUP     X0, X1
	VMAXSS        X1, X0, X0
	KORTESTW      K2, K2
	JZ            max_ok
	MOVL          $0x7fc00000, AX
	VMOVD         AX, X0

max_ok:
	VBROADCASTSS X0, Z0

	// Exponentials and the float64 total (X10).
	VXORPD X10, X10, X10
	MOVQ   SI, DI
	MOVQ   DX, CX

exp_loop:
	CMPQ    CX, $16
	JLT     exp_tail
	VMOVUPS (DI), Z1
	VSUBPS  Z0, Z1, Z1
	VEXP
	VMOVUPS Z5, (DI)
	HSUM(Z5, Y5, X5, Y6, X6)
	VCVTSS2SD X5, X5, X5
	VADDSD  X5, X10, X10
	ADDQ    $64, DI
	SUBQ    $16, CX
	JMP     exp_loop

exp_tail:
	TESTQ     CX, CX
	JZ        norm
	TAILMASK(K1)
	VMOVUPS   (DI), Z1
	VSUBPS    Z0, Z1, Z1
	VEXP
	VMOVAPS.Z Z5, K1, Z5
	VMOVUPS   Z5, (DI)
	HSUM(Z5, Y5, X5, Y6, X6)
	VCVTSS2SD X5, X5, X5
	VADDSD    X5, X10, X10

norm:
	// inv = float32(1/total); p = f16(p·inv) for the span positions.
	MOVQ         $0x3ff0000000000000, AX
	MOVQ         AX, X11
	VDIVSD       X10, X11, X11
	VCVTSD2SS    X11, X11, X11
	VBROADCASTSS X11, Z11
	MOVQ         SI, DI
	MOVQ         DX, CX

norm_loop:
	CMPQ      CX, $16
	JLT       norm_tail
	VMOVUPS   (DI), Z1
	VMULPS    Z11, Z1, Z1
	VCVTPS2PH $0, Z1, Y1
	VCVTPH2PS Y1, Z1
	VMOVUPS   Z1, (DI)
	ADDQ      $64, DI
	SUBQ      $16, CX
	JMP       norm_loop

norm_tail:
	TESTQ     CX, CX
	JZ        softmax_done
	TAILMASK(K1)
	VMOVUPS   (DI), Z1
	VMULPS    Z11, Z1, Z1
	VCVTPS2PH $0, Z1, Y1
	VCVTPH2PS Y1, Z1
	VMOVUPS   Z1, K1, (DI)

softmax_done:
	VZEROUPPER
	RET

// ACCUM(mask): adds p[j]·v_j into accumulator row j&mask for j in
// [0, DX): SI = p, R8 = v, R9 = stride, R10 = acc, R11 = row bytes,
// R12 = whole 16-output chunks, R13 = outputs after them (mask in K1).
// Clobbers AX, BX, CX, DI, Z0, Z1.
#define ACCUM(mask, lbl_pos, lbl_chunk, lbl_tail, lbl_skip, lbl_next) \
	XORQ AX, AX;                  \
lbl_pos:                          \
	CMPQ AX, DX;                  \
	JGE  lbl_next;                \
	VBROADCASTSS (SI)(AX*4), Z0;  \
	MOVQ AX, CX;                  \
	ANDQ $mask, CX;               \
	IMULQ R11, CX;                \
	ADDQ R10, CX;                 \
	MOVQ R8, DI;                  \
	MOVQ R12, BX;                 \
	TESTQ BX, BX;                 \
	JZ   lbl_tail;           \
lbl_chunk:                        \
	VCVTPH2PS (DI), Z1;           \
	VFMADD213PS (CX), Z0, Z1;     \
	VMOVUPS Z1, (CX);             \
	ADDQ $32, DI;                 \
	ADDQ $64, CX;                 \
	DECQ BX;                      \
	JNZ  lbl_chunk;               \
lbl_tail:                    \
	TESTQ R13, R13;               \
	JZ   lbl_skip;           \
	VCVTPH2PS.Z (DI), K1, Z1;     \
	VFMADD213PS (CX), Z0, Z1;     \
	VMOVUPS Z1, (CX);             \
lbl_skip:                    \
	ADDQ R9, R8;                  \
	INCQ AX;                      \
	JMP  lbl_pos;                 \
lbl_next:

// CLEAR(rows): zeroes rows accumulator rows of R11 bytes at R10; clobbers
// AX, DI, Z0.
#define CLEAR(rows, lbl) \
	VPXORD Z0, Z0, Z0;   \
	MOVQ   R11, AX;      \
	IMULQ  $rows, AX;    \
	SHRQ   $6, AX;       \
	MOVQ   R10, DI;      \
lbl:                     \
	VMOVUPS Z0, (DI);    \
	ADDQ   $64, DI;      \
	DECQ   AX;           \
	JNZ    lbl

// LOADROW(base, Z): loads the row at base (a register) and advances base
// by one row (R11 bytes).
#define LOADROW(base, Zr) \
	VMOVUPS (base), Zr; \
	ADDQ    R11, base

// TREE16: Z0 = hsum's tree over Z0..Z15 lane by lane.
#define TREE16 \
	VADDPS Z8, Z0, Z0;   \
	VADDPS Z9, Z1, Z1;   \
	VADDPS Z10, Z2, Z2;  \
	VADDPS Z11, Z3, Z3;  \
	VADDPS Z12, Z4, Z4;  \
	VADDPS Z13, Z5, Z5;  \
	VADDPS Z14, Z6, Z6;  \
	VADDPS Z15, Z7, Z7;  \
	VADDPS Z4, Z0, Z0;   \
	VADDPS Z5, Z1, Z1;   \
	VADDPS Z6, Z2, Z2;   \
	VADDPS Z7, Z3, Z3;   \
	VADDPS Z2, Z0, Z0;   \
	VADDPS Z3, Z1, Z1;   \
	VADDPS Z1, Z0, Z0

// SETUP: common registers of the kqv kernels from hd in R12: R11 = row
// bytes (hd rounded up to 16 floats), R12 = whole chunks, R13 = the rest,
// K1 = its mask.
#define SETUP \
	MOVQ R12, R13;  \
	ANDQ $15, R13;  \
	SHRQ $4, R12;   \
	MOVQ R12, R11;  \
	SHLQ $6, R11;   \
	TESTQ R13, R13; \
	JZ   setup_done; \
	ADDQ $64, R11;  \
	MOVQ R13, CX;   \
	TAILMASK(K1);   \
setup_done:

// func attnKQVTiny512(p *float32, v *uint16, stride int, span int, hd int, acc *float32, o *float32)
//
// 16 accumulator rows: row l holds, for every output, the sum over the
// positions j ≡ l (mod 16) in order; then o = hsum's tree over the rows.
TEXT ·attnKQVTiny512(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), R8
	MOVQ stride+16(FP), R9
	MOVQ span+24(FP), DX
	MOVQ hd+32(FP), R12
	MOVQ acc+40(FP), R10
	SETUP
	CLEAR(16, tiny_clear)
	ACCUM(15, tiny_acc_pos, tiny_acc_chunk, tiny_acc_tail, tiny_acc_skip, tiny_acc_done)

	// Reduce chunk by chunk: DI walks the chunks of row 0, DX of o.
	MOVQ o+48(FP), DX
	MOVQ R10, DI
	MOVQ R12, BX

tiny_red:
	TESTQ BX, BX
	JZ    tiny_red_tail
	MOVQ  DI, AX
	LOADROW(AX, Z0)
	LOADROW(AX, Z1)
	LOADROW(AX, Z2)
	LOADROW(AX, Z3)
	LOADROW(AX, Z4)
	LOADROW(AX, Z5)
	LOADROW(AX, Z6)
	LOADROW(AX, Z7)
	LOADROW(AX, Z8)
	LOADROW(AX, Z9)
	LOADROW(AX, Z10)
	LOADROW(AX, Z11)
	LOADROW(AX, Z12)
	LOADROW(AX, Z13)
	LOADROW(AX, Z14)
	LOADROW(AX, Z15)
	TREE16
	VMOVUPS Z0, (DX)
	ADDQ    $64, DI
	ADDQ    $64, DX
	DECQ    BX
	JMP     tiny_red

tiny_red_tail:
	TESTQ R13, R13
	JZ    tiny_done
	MOVQ  DI, AX
	LOADROW(AX, Z0)
	LOADROW(AX, Z1)
	LOADROW(AX, Z2)
	LOADROW(AX, Z3)
	LOADROW(AX, Z4)
	LOADROW(AX, Z5)
	LOADROW(AX, Z6)
	LOADROW(AX, Z7)
	LOADROW(AX, Z8)
	LOADROW(AX, Z9)
	LOADROW(AX, Z10)
	LOADROW(AX, Z11)
	LOADROW(AX, Z12)
	LOADROW(AX, Z13)
	LOADROW(AX, Z14)
	LOADROW(AX, Z15)
	TREE16
	VMOVUPS Z0, K1, (DX)

tiny_done:
	VZEROUPPER
	RET

// FOLDROW(Zr): Zr = (row l + row l+32) + (row l+16 + row l+48) with AX at
// row l, CX = 16 rows in bytes, R8 = 48 rows; advances AX by one row.
#define FOLDROW(Zr) \
	VMOVUPS (AX), Zr;              \
	VADDPS  (AX)(CX*2), Zr, Zr;    \
	VMOVUPS (AX)(CX*1), Z16;       \
	VADDPS  (AX)(R8*1), Z16, Z16;  \
	VADDPS  Z16, Zr, Zr;           \
	ADDQ    R11, AX

// func attnKQVVec512(p *float32, v *uint16, stride int, span int, np int, hd int, acc *float32, o *float32)
//
// Positions [0, np) go into 64 accumulator rows (row j%64), folded as
// (a0+a2)+(a1+a3) over the four 16-row groups and reduced in hsum's tree;
// that float32 sum, in float64, then gets the float32 products of the
// positions [np, span) added one by one, and is rounded to float32.
TEXT ·attnKQVVec512(SB), NOSPLIT, $0-64
	MOVQ p+0(FP), SI
	MOVQ v+8(FP), R8
	MOVQ stride+16(FP), R9
	MOVQ np+32(FP), DX
	MOVQ hd+40(FP), R12
	MOVQ acc+48(FP), R10
	SETUP
	TESTQ DX, DX
	JZ    vec_folded
	CLEAR(64, vec_clear)
	ACCUM(63, vec_acc_pos, vec_acc_chunk, vec_acc_tail, vec_acc_skip, vec_folded)

	// Per chunk of 16 outputs: DI = its column in row 0 of acc, DX = its
	// place in o, SI = its place in v at position np, BX = chunks left
	// including a partial one.
	MOVQ o+56(FP), DX
	MOVQ acc+48(FP), DI
	MOVQ np+32(FP), AX
	MOVQ stride+16(FP), R9
	MOVQ v+8(FP), SI
	IMULQ R9, AX
	ADDQ AX, SI
	MOVQ R12, BX
	TESTQ R13, R13
	JZ   vec_chunks
	INCQ BX

vec_chunks:
	TESTQ BX, BX
	JZ    vec_done
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	MOVQ  np+32(FP), AX
	TESTQ AX, AX
	JZ    vec_tailpos
	MOVQ  R11, CX
	SHLQ  $4, CX
	LEAQ  (CX)(CX*2), R8
	MOVQ  DI, AX
	FOLDROW(Z0)
	FOLDROW(Z1)
	FOLDROW(Z2)
	FOLDROW(Z3)
	FOLDROW(Z4)
	FOLDROW(Z5)
	FOLDROW(Z6)
	FOLDROW(Z7)
	FOLDROW(Z8)
	FOLDROW(Z9)
	FOLDROW(Z10)
	FOLDROW(Z11)
	FOLDROW(Z12)
	FOLDROW(Z13)
	FOLDROW(Z14)
	FOLDROW(Z15)
	TREE16
	VCVTPS2PD      Y0, Z20
	VEXTRACTF64X4  $1, Z0, Y0
	VCVTPS2PD      Y0, Z21

vec_tailpos:
	// Positions [np, span) in float64: AX = j, R8 = &v_j's chunk.
	MOVQ np+32(FP), AX
	MOVQ SI, R8

vec_tailloop:
	CMPQ         AX, span+24(FP)
	JGE          vec_out
	MOVQ         p+0(FP), CX
	VBROADCASTSS (CX)(AX*4), Z0
	CMPQ         BX, $1
	JNE          vec_full
	TESTQ        R13, R13
	JZ           vec_full
	VCVTPH2PS.Z  (R8), K1, Z1
	JMP          vec_mul

vec_full:
	VCVTPH2PS (R8), Z1

vec_mul:
	VMULPS        Z0, Z1, Z1
	VCVTPS2PD     Y1, Z2
	VEXTRACTF64X4 $1, Z1, Y1
	VCVTPS2PD     Y1, Z3
	VADDPD        Z2, Z20, Z20
	VADDPD        Z3, Z21, Z21
	ADDQ          R9, R8
	INCQ          AX
	JMP           vec_tailloop

vec_out:
	VCVTPD2PS     Z20, Y0
	VCVTPD2PS     Z21, Y1
	VINSERTF64X4  $1, Y1, Z0, Z0
	CMPQ          BX, $1
	JNE           vec_store_full
	TESTQ         R13, R13
	JZ            vec_store_full
	VMOVUPS       Z0, K1, (DX)
	JMP           vec_next

vec_store_full:
	VMOVUPS Z0, (DX)

vec_next:
	ADDQ $64, DI
	ADDQ $64, DX
	ADDQ $32, SI
	DECQ BX
	JMP  vec_chunks

vec_done:
	VZEROUPPER
	RET

//go:build amd64 && !purego

#include "textflag.h"

// AVX2 activation quantizers, bit-identical to actquant.go: the block
// maximum of |x| (NaN ignored), scales computed in float32, rounding by
// cvtps2dq (nearest, ties to even) and clamping to [-127, 127].

DATA absmask<>+0(SB)/8, $0x7fffffff7fffffff
DATA absmask<>+8(SB)/8, $0x7fffffff7fffffff
DATA absmask<>+16(SB)/8, $0x7fffffff7fffffff
DATA absmask<>+24(SB)/8, $0x7fffffff7fffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $32
DATA p127<>+0(SB)/8, $0x0000007f0000007f
DATA p127<>+8(SB)/8, $0x0000007f0000007f
DATA p127<>+16(SB)/8, $0x0000007f0000007f
DATA p127<>+24(SB)/8, $0x0000007f0000007f
GLOBL p127<>(SB), RODATA|NOPTR, $32
DATA m127<>+0(SB)/8, $0xffffff81ffffff81
DATA m127<>+8(SB)/8, $0xffffff81ffffff81
DATA m127<>+16(SB)/8, $0xffffff81ffffff81
DATA m127<>+24(SB)/8, $0xffffff81ffffff81
GLOBL m127<>(SB), RODATA|NOPTR, $32
DATA packperm<>+0(SB)/8, $0x0000000400000000
DATA packperm<>+8(SB)/8, $0x0000000500000001
DATA packperm<>+16(SB)/8, $0x0000000600000002
DATA packperm<>+24(SB)/8, $0x0000000700000003
GLOBL packperm<>(SB), RODATA|NOPTR, $32
DATA f127<>+0(SB)/4, $0x42fe0000
GLOBL f127<>(SB), RODATA|NOPTR, $4
DATA f1<>+0(SB)/4, $0x3f800000
GLOBL f1<>(SB), RODATA|NOPTR, $4
DATA bfround<>+0(SB)/8, $0x00007fff00007fff
DATA bfround<>+8(SB)/8, $0x00007fff00007fff
DATA bfround<>+16(SB)/8, $0x00007fff00007fff
DATA bfround<>+24(SB)/8, $0x00007fff00007fff
GLOBL bfround<>(SB), RODATA|NOPTR, $32
DATA bfone<>+0(SB)/8, $0x0000000100000001
DATA bfone<>+8(SB)/8, $0x0000000100000001
DATA bfone<>+16(SB)/8, $0x0000000100000001
DATA bfone<>+24(SB)/8, $0x0000000100000001
GLOBL bfone<>(SB), RODATA|NOPTR, $32
DATA bfinf<>+0(SB)/8, $0x7f8000007f800000
DATA bfinf<>+8(SB)/8, $0x7f8000007f800000
DATA bfinf<>+16(SB)/8, $0x7f8000007f800000
DATA bfinf<>+24(SB)/8, $0x7f8000007f800000
GLOBL bfinf<>(SB), RODATA|NOPTR, $32
DATA bfquiet<>+0(SB)/8, $0x0000004000000040
DATA bfquiet<>+8(SB)/8, $0x0000004000000040
DATA bfquiet<>+16(SB)/8, $0x0000004000000040
DATA bfquiet<>+24(SB)/8, $0x0000004000000040
GLOBL bfquiet<>(SB), RODATA|NOPTR, $32

// ABSMAX32: X4 = max |x| over the 32 floats at (SI) (loaded into Y0..Y3).
#define ABSMAX32 \
	VMOVUPS (SI), Y0;        \
	VMOVUPS 32(SI), Y1;      \
	VMOVUPS 64(SI), Y2;      \
	VMOVUPS 96(SI), Y3;      \
	VXORPS  Y4, Y4, Y4;      \
	VANDPS  Y15, Y0, Y5;     \
	VMAXPS  Y4, Y5, Y4;      \
	VANDPS  Y15, Y1, Y5;     \
	VMAXPS  Y4, Y5, Y4;      \
	VANDPS  Y15, Y2, Y5;     \
	VMAXPS  Y4, Y5, Y4;      \
	VANDPS  Y15, Y3, Y5;     \
	VMAXPS  Y4, Y5, Y4;      \
	VEXTRACTF128 $1, Y4, X5; \
	VMAXPS  X5, X4, X4;      \
	VMOVHLPS X4, X4, X5;     \
	VMAXPS  X5, X4, X4;      \
	VMOVSHDUP X4, X5;        \
	VMAXSS  X5, X4, X4

// QUANT32: Y6 = broadcast multiplier; rounds Y0..Y3 * Y6 into 32 int8 at
// (DI), leaving the int32 values in Y0..Y3.
#define QUANT32 \
	VMULPS    Y6, Y0, Y0;   \
	VMULPS    Y6, Y1, Y1;   \
	VMULPS    Y6, Y2, Y2;   \
	VMULPS    Y6, Y3, Y3;   \
	VCVTPS2DQ Y0, Y0;       \
	VCVTPS2DQ Y1, Y1;       \
	VCVTPS2DQ Y2, Y2;       \
	VCVTPS2DQ Y3, Y3;       \
	VPMAXSD   Y13, Y0, Y0;  \
	VPMAXSD   Y13, Y1, Y1;  \
	VPMAXSD   Y13, Y2, Y2;  \
	VPMAXSD   Y13, Y3, Y3;  \
	VPMINSD   Y14, Y0, Y0;  \
	VPMINSD   Y14, Y1, Y1;  \
	VPMINSD   Y14, Y2, Y2;  \
	VPMINSD   Y14, Y3, Y3;  \
	VPACKSSDW Y1, Y0, Y7;   \
	VPACKSSDW Y3, Y2, Y8;   \
	VPACKSSWB Y8, Y7, Y7;   \
	VPERMD    Y7, Y12, Y7;  \
	VMOVDQU   Y7, (DI)

// func quantQ8_0AVX2(x *float32, qs *int8, d *float32, nb int)
TEXT ·quantQ8_0AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VMOVDQU absmask<>(SB), Y15
	VMOVDQU p127<>(SB), Y14
	VMOVDQU m127<>(SB), Y13
	VMOVDQU packperm<>(SB), Y12
	VMOVSS  f127<>(SB), X11
	VXORPS  X10, X10, X10
q80qloop:
	TESTQ CX, CX
	JZ    q80qdone
	ABSMAX32
	// d = f16(amax/127) as float32
	VDIVSS    X11, X4, X5
	VCVTPS2PH $0, X5, X5
	VCVTPH2PS X5, X5
	VMOVSS    X5, (DX)
	// multiplier 127/amax, or 0 for an all-zero block
	VXORPS    X6, X6, X6
	VUCOMISS  X10, X4
	JEQ       q80qzero
	VDIVSS    X4, X11, X6
q80qzero:
	VBROADCASTSS X6, Y6
	QUANT32
	ADDQ $128, SI
	ADDQ $32, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q80qloop
q80qdone:
	VZEROUPPER
	RET

// func quantQ8_1AVX2(x *float32, qs *int8, d *float32, s *float32, nb int)
TEXT ·quantQ8_1AVX2(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ s+24(FP), R8
	MOVQ nb+32(FP), CX
	VMOVDQU absmask<>(SB), Y15
	VMOVDQU p127<>(SB), Y14
	VMOVDQU m127<>(SB), Y13
	VMOVDQU packperm<>(SB), Y12
	VMOVSS  f127<>(SB), X11
	VXORPS  X10, X10, X10
q81qloop:
	TESTQ CX, CX
	JZ    q81qdone
	ABSMAX32
	VDIVSS    X11, X4, X9
	VCVTPS2PH $0, X9, X5
	VCVTPH2PS X5, X5
	VMOVSS    X5, (DX)
	VXORPS    X6, X6, X6
	VUCOMISS  X10, X4
	JEQ       q81qzero
	VDIVSS    X4, X11, X6
q81qzero:
	VBROADCASTSS X6, Y6
	QUANT32
	// s = f16(d * sum(q)) with the unrounded d (X9)
	VPADDD  Y1, Y0, Y0
	VPADDD  Y3, Y2, Y2
	VPADDD  Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD  X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD  X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD  X1, X0, X0
	VCVTDQ2PS X0, X0
	VMULSS    X0, X9, X0
	VCVTPS2PH $0, X0, X0
	VCVTPH2PS X0, X0
	VMOVSS    X0, (R8)
	ADDQ $128, SI
	ADDQ $32, DI
	ADDQ $4, DX
	ADDQ $4, R8
	DECQ CX
	JMP  q81qloop
q81qdone:
	VZEROUPPER
	RET

// func quantQ8_KAVX2(x *float32, qs *int8, d *float32, bsums *int16, nb int)
TEXT ·quantQ8_KAVX2(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ qs+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VMOVDQU absmask<>(SB), Y15
	VMOVDQU p127<>(SB), Y14
	VMOVDQU m127<>(SB), Y13
	VMOVDQU packperm<>(SB), Y12
	VMOVSS  f127<>(SB), X11
	VXORPS  X10, X10, X10
q8kqloop:
	TESTQ CX, CX
	JZ    q8kqdone
	// amax over 256 values, NaN ignored
	VXORPS Y4, Y4, Y4
	MOVQ   $0, AX
q8kmax:
	VANDPS (SI)(AX*4), Y15, Y5
	VMAXPS Y4, Y5, Y4
	ADDQ   $8, AX
	CMPQ   AX, $256
	JLT    q8kmax
	VEXTRACTF128 $1, Y4, X5
	VMAXPS  X5, X4, X4
	VMOVHLPS X4, X4, X5
	VMAXPS  X5, X4, X4
	VMOVSHDUP X4, X5
	VMAXSS  X5, X4, X4
	VUCOMISS X10, X4
	JNE     q8knonzero
	// all zero (or all NaN): d = 0, quants 0
	MOVL    $0, (DX)
	VPXOR   Y0, Y0, Y0
	MOVQ    $0, AX
q8kzloop:
	VMOVDQU Y0, (DI)(AX*1)
	ADDQ    $32, AX
	CMPQ    AX, $256
	JLT     q8kzloop
	VMOVDQU Y0, (R8)
	ADDQ    $1024, SI
	ADDQ    $256, DI
	ADDQ    $32, R8
	JMP     q8knext
q8knonzero:
	// the first element whose magnitude is amax gives the sign
	VBROADCASTSS X4, Y6
	MOVQ   $0, AX
q8kfind:
	VANDPS   (SI)(AX*4), Y15, Y5
	VCMPPS   $0, Y6, Y5, Y5
	VMOVMSKPS Y5, BX
	TESTL    BX, BX
	JNZ      q8kfound
	ADDQ     $8, AX
	JMP      q8kfind
q8kfound:
	BSFL     BX, BX
	ADDQ     BX, AX
	VMOVSS   (SI)(AX*4), X5
	// iscale = -127/max, d = 1/iscale
	VXORPS   X7, X7, X7
	VSUBSS   X11, X7, X7
	VDIVSS   X5, X7, X6
	VMOVSS   f1<>(SB), X7
	VDIVSS   X6, X7, X7
	VMOVSS   X7, (DX)
	VBROADCASTSS X6, Y6
	MOVQ   $8, R9
q8kq:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	QUANT32
	// bsums of the two groups of 16 just written
	VPADDD  Y1, Y0, Y0
	VPADDD  Y3, Y2, Y2
	VPHADDD Y2, Y0, Y0
	VPHADDD Y0, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD  X1, X0, X0
	VPACKSSDW X0, X0, X0
	VMOVD   X0, (R8)
	ADDQ $128, SI
	ADDQ $32, DI
	ADDQ $4, R8
	DECQ R9
	JNZ  q8kq
q8knext:
	ADDQ $4, DX
	DECQ CX
	JMP  q8kqloop
q8kqdone:
	VZEROUPPER
	RET

// func toF16AVX2(x *float32, h *uint16, n int)
// n is a multiple of 8.
TEXT ·toF16AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ h+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
f16cloop:
	TESTQ CX, CX
	JZ    f16cdone
	VMOVUPS   (SI), Y0
	VCVTPS2PH $0, Y0, X0
	VMOVDQU   X0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JMP  f16cloop
f16cdone:
	VZEROUPPER
	RET

// func toBF16AVX2(x *float32, h *uint16, n int)
// n is a multiple of 16. Round to nearest even by integer arithmetic as
// FP32ToBF16; NaNs become (bits>>16)|64.
TEXT ·toBF16AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ h+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	VMOVDQU absmask<>(SB), Y15
	VMOVDQU bfround<>(SB), Y14
	VMOVDQU bfone<>(SB), Y13
	VMOVDQU bfinf<>(SB), Y12
	VMOVDQU bfquiet<>(SB), Y11
bf16cloop:
	TESTQ CX, CX
	JZ    bf16cdone
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	// rounded = (b + 0x7fff + ((b >> 16) & 1)) >> 16
	VPSRLD  $16, Y0, Y2
	VPAND   Y13, Y2, Y3
	VPADDD  Y14, Y0, Y4
	VPADDD  Y3, Y4, Y4
	VPSRLD  $16, Y4, Y4
	// NaN: (b & 0x7fffffff) > 0x7f800000 -> (b >> 16) | 64
	VPAND   Y15, Y0, Y5
	VPCMPGTD Y12, Y5, Y5
	VPOR    Y11, Y2, Y2
	VPBLENDVB Y5, Y2, Y4, Y0
	VPSRLD  $16, Y1, Y2
	VPAND   Y13, Y2, Y3
	VPADDD  Y14, Y1, Y4
	VPADDD  Y3, Y4, Y4
	VPSRLD  $16, Y4, Y4
	VPAND   Y15, Y1, Y5
	VPCMPGTD Y12, Y5, Y5
	VPOR    Y11, Y2, Y2
	VPBLENDVB Y5, Y2, Y4, Y1
	VPACKUSDW Y1, Y0, Y0
	VPERMQ  $0xd8, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JMP  bf16cloop
bf16cdone:
	VZEROUPPER
	RET

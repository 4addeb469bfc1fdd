//go:build amd64 && !purego && !avx512sim

#include "textflag.h"

// BF16 kernels on VDPBF16PS, the instruction llama.cpp's two BF16 orders are
// built on (bf16order.go). The Go assembler does not know it, so it is
// spelled out: EVEX.512.F3.0F38.W0 52 /r with every register below Z8,
// bytes 62 F2 P1 48 52 ModRM, where P1 = (^src1&15)<<3 | 6 and
// ModRM = 0xC0 | dst<<3 | src2 (dst += pairwise products of src1 and src2).

// Z0 += Z4·Z6
#define DP_0_4_6 BYTE $0x62; BYTE $0xF2; BYTE $0x5E; BYTE $0x48; BYTE $0x52; BYTE $0xC6
// Z1 += Z5·Z7
#define DP_1_5_7 BYTE $0x62; BYTE $0xF2; BYTE $0x56; BYTE $0x48; BYTE $0x52; BYTE $0xCF
// Z0 += Z4·Z5, Z1 += Z4·Z6, Z2 += Z4·Z7, Z3 += Z4·Z5
#define DP_0_4_5 BYTE $0x62; BYTE $0xF2; BYTE $0x5E; BYTE $0x48; BYTE $0x52; BYTE $0xC5
#define DP_1_4_6 BYTE $0x62; BYTE $0xF2; BYTE $0x5E; BYTE $0x48; BYTE $0x52; BYTE $0xCE
#define DP_2_4_7 BYTE $0x62; BYTE $0xF2; BYTE $0x5E; BYTE $0x48; BYTE $0x52; BYTE $0xD7
#define DP_3_4_5 BYTE $0x62; BYTE $0xF2; BYTE $0x5E; BYTE $0x48; BYTE $0x52; BYTE $0xDD

// func bf16StepAVX512(w *byte, x *uint16, n int, acc *[32]float32)
// ggml_vec_dot_bf16's accumulators over n elements (a multiple of 64):
// elements [0,32) of each 64 into acc[0:16], [32,64) into acc[16:32].
TEXT ·bf16StepAVX512(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ acc+24(FP), DX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	SHRQ $6, CX
	JZ   stepdone
steploop:
	VMOVDQU64 (SI), Z4
	VMOVDQU64 64(SI), Z5
	VMOVDQU64 (DI), Z6
	VMOVDQU64 64(DI), Z7
	DP_0_4_6
	DP_1_5_7
	ADDQ $128, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  steploop
stepdone:
	VMOVDQU64 Z0, (DX)
	VMOVDQU64 Z1, 64(DX)
	VZEROUPPER
	RET

// func bf16Batch4AVX512(w *byte, x *uint16, xstride int, n int, acc *[64]float32)
// tinyBLAS's accumulator of one weight row against four positions (xstride
// bytes apart) over n elements (a multiple of 32): acc[16p:16p+16] for
// position p.
TEXT ·bf16Batch4AVX512(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ acc+32(FP), DX
	LEAQ (DI)(BX*2), R8
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	SHRQ $5, CX
	JZ   b4done
b4loop:
	VMOVDQU64 (SI), Z4
	VMOVDQU64 (DI), Z5
	VMOVDQU64 (DI)(BX*1), Z6
	VMOVDQU64 (R8), Z7
	DP_0_4_5
	DP_1_4_6
	VMOVDQU64 (R8)(BX*1), Z5
	DP_2_4_7
	DP_3_4_5
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, R8
	DECQ CX
	JNZ  b4loop
b4done:
	VMOVDQU64 Z0, (DX)
	VMOVDQU64 Z1, 64(DX)
	VMOVDQU64 Z2, 128(DX)
	VMOVDQU64 Z3, 192(DX)
	VZEROUPPER
	RET

// func bf16BatchAVX512(w *byte, x *uint16, n int, acc *[16]float32)
// tinyBLAS's accumulator of one weight row against one position.
TEXT ·bf16BatchAVX512(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ acc+24(FP), DX
	VPXORD Z0, Z0, Z0
	SHRQ $5, CX
	JZ   b1done
b1loop:
	VMOVDQU64 (SI), Z4
	VMOVDQU64 (DI), Z6
	DP_0_4_6
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  b1loop
b1done:
	VMOVDQU64 Z0, (DX)
	VZEROUPPER
	RET

#include "textflag.h"

// func Double(x, y *[16]float32, out *[48]float32)
// The float64 sums of the attention kernels in their EVEX forms (float32
// halves widened to Z registers, added, narrowed into a Y register whose
// Z upper half is then zero), VSCALEFPS, and VCVTPS2PD from memory;
// x86sim's tests check the results against Go (no AVX-512 CPU to run it on).
TEXT ·Double(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ out+16(FP), DX
	VMOVUPS (SI), Z1
	VMOVUPS (DI), Z2
	VEXTRACTF64X4 $1, Z1, Y3
	VCVTPS2PD Y1, Z4
	VCVTPS2PD Y3, Z5
	VADDPD Z5, Z4, Z6
	VCVTPD2PS Z6, Y7
	VMOVUPS Z7, (DX)
	VSCALEFPS Z2, Z1, Z8
	VMOVUPS Z8, 64(DX)
	VCVTPS2PD 32(SI), Z9
	VCVTPD2PS Z9, Y10
	VMOVUPS Z10, 128(DX)
	VZEROUPPER
	RET

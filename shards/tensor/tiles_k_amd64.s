//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 (BW, VL, VNNI) tile kernels for Q4_K and Q6_K. Each output is the
// canonical dot product of dot_generic.go: the integer lanes of a
// super-block are exact whatever instructions form them (here VPMADDUBSW
// products, scaled and summed by VPDPWSSD), and the float steps of one
// (row, position) run in the order of the Go code: acc = fma(dx*dy,
// float(lanes), acc) per super-block into one 8-lane accumulator, the Q4_K
// mins into a 4-lane accumulator, then hsum8 (+ the mins' sum). Several
// rows are interleaved so that many independent accumulators are in flight
// and the activations are loaded once for all of them.

// Constants. 64-byte tables hold the same 16 bytes in each 128-bit lane
// (VPSHUFB works within lanes); 0x80 selects a zero byte.
//
// Q4_K: one lane per row holds the block's first 16 bytes (d, dmin,
// scales[12]). k4shufa/k4shufb/k4mask* turn them into
// [sc0..3, m0..3, sc4..7, m4..7] (see kScaleMin); k4sclo/k4schi spread the
// scales into (sc, sc) word pairs for VPDPWSSD, k4mins the mins into words;
// k4idxd/k4idxm (VPERMW) gather d resp. dmin of the four rows, four copies
// each.
DATA k4shufa<>+0(SB)/8, $0x0b0a090807060504
DATA k4shufa<>+8(SB)/8, $0x0f0e0d0c0f0e0d0c
DATA k4shufa<>+16(SB)/8, $0x0b0a090807060504
DATA k4shufa<>+24(SB)/8, $0x0f0e0d0c0f0e0d0c
DATA k4shufa<>+32(SB)/8, $0x0b0a090807060504
DATA k4shufa<>+40(SB)/8, $0x0f0e0d0c0f0e0d0c
DATA k4shufa<>+48(SB)/8, $0x0b0a090807060504
DATA k4shufa<>+56(SB)/8, $0x0f0e0d0c0f0e0d0c
GLOBL k4shufa<>(SB), RODATA|NOPTR, $64
DATA k4shufb<>+0(SB)/8, $0x8080808080808080
DATA k4shufb<>+8(SB)/8, $0x0b0a090807060504
DATA k4shufb<>+16(SB)/8, $0x8080808080808080
DATA k4shufb<>+24(SB)/8, $0x0b0a090807060504
DATA k4shufb<>+32(SB)/8, $0x8080808080808080
DATA k4shufb<>+40(SB)/8, $0x0b0a090807060504
DATA k4shufb<>+48(SB)/8, $0x8080808080808080
DATA k4shufb<>+56(SB)/8, $0x0b0a090807060504
GLOBL k4shufb<>(SB), RODATA|NOPTR, $64
DATA k4maska<>+0(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA k4maska<>+8(SB)/8, $0x000000000f0f0f0f
DATA k4maska<>+16(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA k4maska<>+24(SB)/8, $0x000000000f0f0f0f
DATA k4maska<>+32(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA k4maska<>+40(SB)/8, $0x000000000f0f0f0f
DATA k4maska<>+48(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA k4maska<>+56(SB)/8, $0x000000000f0f0f0f
GLOBL k4maska<>(SB), RODATA|NOPTR, $64
DATA k4maskb<>+0(SB)/8, $0x0000000000000000
DATA k4maskb<>+8(SB)/8, $0x0f0f0f0f00000000
DATA k4maskb<>+16(SB)/8, $0x0000000000000000
DATA k4maskb<>+24(SB)/8, $0x0f0f0f0f00000000
DATA k4maskb<>+32(SB)/8, $0x0000000000000000
DATA k4maskb<>+40(SB)/8, $0x0f0f0f0f00000000
DATA k4maskb<>+48(SB)/8, $0x0000000000000000
DATA k4maskb<>+56(SB)/8, $0x0f0f0f0f00000000
GLOBL k4maskb<>(SB), RODATA|NOPTR, $64
DATA k4maskc<>+0(SB)/8, $0x0000000000000000
DATA k4maskc<>+8(SB)/8, $0x3030303030303030
DATA k4maskc<>+16(SB)/8, $0x0000000000000000
DATA k4maskc<>+24(SB)/8, $0x3030303030303030
DATA k4maskc<>+32(SB)/8, $0x0000000000000000
DATA k4maskc<>+40(SB)/8, $0x3030303030303030
DATA k4maskc<>+48(SB)/8, $0x0000000000000000
DATA k4maskc<>+56(SB)/8, $0x3030303030303030
GLOBL k4maskc<>(SB), RODATA|NOPTR, $64
DATA k4sclo<>+0(SB)/8, $0x8001800180008000
DATA k4sclo<>+8(SB)/8, $0x8003800380028002
DATA k4sclo<>+16(SB)/8, $0x8001800180008000
DATA k4sclo<>+24(SB)/8, $0x8003800380028002
DATA k4sclo<>+32(SB)/8, $0x8001800180008000
DATA k4sclo<>+40(SB)/8, $0x8003800380028002
DATA k4sclo<>+48(SB)/8, $0x8001800180008000
DATA k4sclo<>+56(SB)/8, $0x8003800380028002
GLOBL k4sclo<>(SB), RODATA|NOPTR, $64
DATA k4schi<>+0(SB)/8, $0x8009800980088008
DATA k4schi<>+8(SB)/8, $0x800b800b800a800a
DATA k4schi<>+16(SB)/8, $0x8009800980088008
DATA k4schi<>+24(SB)/8, $0x800b800b800a800a
DATA k4schi<>+32(SB)/8, $0x8009800980088008
DATA k4schi<>+40(SB)/8, $0x800b800b800a800a
DATA k4schi<>+48(SB)/8, $0x8009800980088008
DATA k4schi<>+56(SB)/8, $0x800b800b800a800a
GLOBL k4schi<>(SB), RODATA|NOPTR, $64
DATA k4mins<>+0(SB)/8, $0x8007800680058004
DATA k4mins<>+8(SB)/8, $0x800f800e800d800c
DATA k4mins<>+16(SB)/8, $0x8007800680058004
DATA k4mins<>+24(SB)/8, $0x800f800e800d800c
DATA k4mins<>+32(SB)/8, $0x8007800680058004
DATA k4mins<>+40(SB)/8, $0x800f800e800d800c
DATA k4mins<>+48(SB)/8, $0x8007800680058004
DATA k4mins<>+56(SB)/8, $0x800f800e800d800c
GLOBL k4mins<>(SB), RODATA|NOPTR, $64
DATA k4idxd<>+0(SB)/8, $0x0000000000000000
DATA k4idxd<>+8(SB)/8, $0x0008000800080008
DATA k4idxd<>+16(SB)/8, $0x0010001000100010
DATA k4idxd<>+24(SB)/8, $0x0018001800180018
DATA k4idxd<>+32(SB)/8, $0x0000000000000000
DATA k4idxd<>+40(SB)/8, $0x0000000000000000
DATA k4idxd<>+48(SB)/8, $0x0000000000000000
DATA k4idxd<>+56(SB)/8, $0x0000000000000000
GLOBL k4idxd<>(SB), RODATA|NOPTR, $64
DATA k4idxm<>+0(SB)/8, $0x0001000100010001
DATA k4idxm<>+8(SB)/8, $0x0009000900090009
DATA k4idxm<>+16(SB)/8, $0x0011001100110011
DATA k4idxm<>+24(SB)/8, $0x0019001900190019
DATA k4idxm<>+32(SB)/8, $0x0000000000000000
DATA k4idxm<>+40(SB)/8, $0x0000000000000000
DATA k4idxm<>+48(SB)/8, $0x0000000000000000
DATA k4idxm<>+56(SB)/8, $0x0000000000000000
GLOBL k4idxm<>(SB), RODATA|NOPTR, $64
DATA k6sc0<>+0(SB)/8, $0x0100010001000100
DATA k6sc0<>+8(SB)/8, $0x0100010001000100
DATA k6sc0<>+16(SB)/8, $0x0302030203020302
DATA k6sc0<>+24(SB)/8, $0x0302030203020302
GLOBL k6sc0<>(SB), RODATA|NOPTR, $32
DATA k6sc1<>+0(SB)/8, $0x0504050405040504
DATA k6sc1<>+8(SB)/8, $0x0504050405040504
DATA k6sc1<>+16(SB)/8, $0x0706070607060706
DATA k6sc1<>+24(SB)/8, $0x0706070607060706
GLOBL k6sc1<>(SB), RODATA|NOPTR, $32
DATA k6sc2<>+0(SB)/8, $0x0908090809080908
DATA k6sc2<>+8(SB)/8, $0x0908090809080908
DATA k6sc2<>+16(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA k6sc2<>+24(SB)/8, $0x0b0a0b0a0b0a0b0a
GLOBL k6sc2<>(SB), RODATA|NOPTR, $32
DATA k6sc3<>+0(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA k6sc3<>+8(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA k6sc3<>+16(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA k6sc3<>+24(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL k6sc3<>(SB), RODATA|NOPTR, $32
DATA kmask0f<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL kmask0f<>(SB), RODATA|NOPTR, $32
DATA kmask30<>+0(SB)/8, $0x3030303030303030
DATA kmask30<>+8(SB)/8, $0x3030303030303030
DATA kmask30<>+16(SB)/8, $0x3030303030303030
DATA kmask30<>+24(SB)/8, $0x3030303030303030
GLOBL kmask30<>(SB), RODATA|NOPTR, $32
DATA kthirty2<>+0(SB)/8, $0x2020202020202020
DATA kthirty2<>+8(SB)/8, $0x2020202020202020
DATA kthirty2<>+16(SB)/8, $0x2020202020202020
DATA kthirty2<>+24(SB)/8, $0x2020202020202020
GLOBL kthirty2<>(SB), RODATA|NOPTR, $32

// HSUM8X(Y, X): X = hsum8(Y) as dot_generic.go's hsum8. Clobbers X15.
#define HSUM8X(Yr, Xr) \
	VEXTRACTF128 $1, Yr, X15; \
	VADDPS       X15, Xr, Xr; \
	VMOVHLPS     Xr, Xr, X15; \
	VADDPS       X15, Xr, Xr; \
	VMOVSHDUP    Xr, X15;     \
	VADDSS       X15, Xr, Xr

// ---------------------------------------------------------------------
// Q4_K, 8 rows x 1 position.
//
// Registers: Y0..Y7 float accumulators of rows 0..7; Z8 (rows 0..3) and Z9
// (rows 4..7) the min accumulators, one 128-bit lane (4 floats) per row;
// Y16..Y23 the eight 32-byte activation groups of the block; Y24 nibble
// mask; Z25 the eight sums of 32 activations (words, in every lane); Z26,
// Z27 VPERMW indexes; Y28..Y31 and Z10..Z15 scratch.
// Stack: 0..127 (sc, sc) word pairs of the current four rows (row i,
// scale j at 64*(j/4) + 16*i + 4*(j%4)); 128..191 dx*dy of row i at
// 128+16*i (four copies).

// K4HDR unpacks the headers of the four rows at P, P+rb, P+2rb, P+3rb:
// scales to the stack, dx*dy to the stack, and adds the min terms into
// ACCM: accm = fma(-(dy*dmin), float(m0*s0+m1*s1, ...), accm), written as
// fnmadd(dy*dmin, ...), the same rounding.
#define K4HDR(P, ACCM) \
	VMOVDQU      (P), X10;                    \
	VINSERTI32X4 $1, (P)(R9*1), Z10, Z10;     \
	VINSERTI32X4 $2, (P)(R9*2), Z10, Z10;     \
	VINSERTI32X4 $3, (P)(R10*1), Z10, Z10;    \
	VPSHUFB      k4shufa<>(SB), Z10, Z11;     \
	VPSHUFB      k4shufb<>(SB), Z10, Z12;     \
	VPSRLW       $4, Z11, Z13;                \
	VPANDD       k4maska<>(SB), Z11, Z11;     \
	VPANDD       k4maskb<>(SB), Z13, Z13;     \
	VPSRLW       $2, Z12, Z12;                \
	VPANDD       k4maskc<>(SB), Z12, Z12;     \
	VPTERNLOGD   $0xfe, Z13, Z12, Z11;        \
	VPSHUFB      k4sclo<>(SB), Z11, Z12;      \
	VMOVDQU64    Z12, 0(SP);                  \
	VPSHUFB      k4schi<>(SB), Z11, Z12;      \
	VMOVDQU64    Z12, 64(SP);                 \
	VPSHUFB      k4mins<>(SB), Z11, Z12;      \
	VPMADDWD     Z25, Z12, Z12;               \
	VCVTDQ2PS    Z12, Z12;                    \
	VPERMW       Z10, Z27, Z13;               \
	VCVTPH2PS    Y13, Z13;                    \
	VMULPS.BCST  (DX), Z13, Z13;              \
	VFNMADD231PS Z12, Z13, ACCM;              \
	VPERMW       Z10, Z26, Z13;               \
	VCVTPH2PS    Y13, Z13;                    \
	VMULPS.BCST  (DX), Z13, Z13;              \
	VMOVUPS      Z13, 128(SP)

// K4CH: chunk c of the row at P (32 bytes: low nibbles = sub-block 2c with
// activations AL, high nibbles = 2c+1 with AH), products scaled by the
// sub-block scales at SLO/SHI(SP) into the int32 lanes Y30 (even
// sub-blocks) and Y31 (odd).
#define K4CH(P, c, SLO, SHI, AL, AH) \
	VMOVDQU64     16+32*c(P), Y28;  \
	VPSRLW        $4, Y28, Y29;     \
	VPANDD        Y24, Y28, Y28;    \
	VPANDD        Y24, Y29, Y29;    \
	VPMADDUBSW    AL, Y28, Y28;     \
	VPMADDUBSW    AH, Y29, Y29;     \
	VPDPWSSD.BCST SLO(SP), Y28, Y30; \
	VPDPWSSD.BCST SHI(SP), Y29, Y31

// K4ROW: row i (0..3 within its group) at P: ACC = fma(dx*dy, float(lanes), ACC).
#define K4ROW(P, i, ACC) \
	VPXORD Y30, Y30, Y30; \
	VPXORD Y31, Y31, Y31; \
	K4CH(P, 0, 16*i, 16*i+4, Y16, Y17);   \
	K4CH(P, 1, 16*i+8, 16*i+12, Y18, Y19); \
	K4CH(P, 2, 64+16*i, 68+16*i, Y20, Y21); \
	K4CH(P, 3, 72+16*i, 76+16*i, Y22, Y23); \
	VPADDD           Y31, Y30, Y30; \
	VCVTDQ2PS        Y30, Y30;      \
	VFMADD231PS.BCST 128+16*i(SP), Y30, ACC

// K4OUT: out[off] = hsum8(ACC) + ((m0+m2)+(m1+m3)), m = lane L of ACCM.
#define K4OUT(ACCY, ACCX, ACCM, L, off) \
	VEXTRACTF32X4 $L, ACCM, X14;  \
	VMOVHLPS      X14, X14, X15;  \
	VADDPS        X15, X14, X14;  \
	VMOVSHDUP     X14, X15;       \
	VADDSS        X15, X14, X14;  \
	HSUM8X(ACCY, ACCX);           \
	VADDSS        X14, ACCX, ACCX; \
	MOVSS         ACCX, off(AX)

// func q4kVec8(w *byte, rb int, y *int8, d *float32, bsums *int16, nb int, out *[8]float32)
TEXT ·q4kVec8(SB), NOSPLIT, $192-56
	MOVQ w+0(FP), SI
	MOVQ rb+8(FP), R9
	MOVQ y+16(FP), DI
	MOVQ d+24(FP), DX
	MOVQ bsums+32(FP), R8
	MOVQ nb+40(FP), CX
	LEAQ (R9)(R9*2), R10
	LEAQ (SI)(R9*8), R12 // the next tile, prefetched a block's share at a time
	VPXORD   Z8, Z8, Z8
	VPXORD   Z9, Z9, Z9
	VXORPS   Y0, Y0, Y0
	VXORPS   Y1, Y1, Y1
	VXORPS   Y2, Y2, Y2
	VXORPS   Y3, Y3, Y3
	VXORPS   Y4, Y4, Y4
	VXORPS   Y5, Y5, Y5
	VXORPS   Y6, Y6, Y6
	VXORPS   Y7, Y7, Y7
	VMOVDQU64 kmask0f<>(SB), Y24
	VMOVDQU64 k4idxd<>(SB), Z26
	VMOVDQU64 k4idxm<>(SB), Z27
q4kv8loop:
	VMOVDQU64 0(DI), Y16
	VMOVDQU64 32(DI), Y17
	VMOVDQU64 64(DI), Y18
	VMOVDQU64 96(DI), Y19
	VMOVDQU64 128(DI), Y20
	VMOVDQU64 160(DI), Y21
	VMOVDQU64 192(DI), Y22
	VMOVDQU64 224(DI), Y23
	// sums of each 32 activations (exact in int16: at most 32*127)
	VMOVDQU    (R8), X14
	VPHADDW    16(R8), X14, X14
	VSHUFI64X2 $0, Z14, Z14, Z25
	K4HDR(SI, Z8)
	K4ROW(SI, 0, Y0)
	LEAQ (SI)(R9*1), AX
	K4ROW(AX, 1, Y1)
	LEAQ (SI)(R9*2), AX
	K4ROW(AX, 2, Y2)
	LEAQ (SI)(R10*1), AX
	K4ROW(AX, 3, Y3)
	LEAQ (SI)(R9*4), BX
	K4HDR(BX, Z9)
	K4ROW(BX, 0, Y4)
	LEAQ (BX)(R9*1), AX
	K4ROW(AX, 1, Y5)
	LEAQ (BX)(R9*2), AX
	K4ROW(AX, 2, Y6)
	LEAQ (BX)(R10*1), AX
	K4ROW(AX, 3, Y7)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	PREFETCHT0 512(R12)
	PREFETCHT0 576(R12)
	PREFETCHT0 640(R12)
	PREFETCHT0 704(R12)
	PREFETCHT0 768(R12)
	PREFETCHT0 832(R12)
	PREFETCHT0 896(R12)
	PREFETCHT0 960(R12)
	PREFETCHT0 1024(R12)
	PREFETCHT0 1088(R12)
	ADDQ $1152, R12
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JNZ  q4kv8loop
	MOVQ out+48(FP), AX
	K4OUT(Y0, X0, Z8, 0, 0)
	K4OUT(Y1, X1, Z8, 1, 4)
	K4OUT(Y2, X2, Z8, 2, 8)
	K4OUT(Y3, X3, Z8, 3, 12)
	K4OUT(Y4, X4, Z9, 0, 16)
	K4OUT(Y5, X5, Z9, 1, 20)
	K4OUT(Y6, X6, Z9, 2, 24)
	K4OUT(Y7, X7, Z9, 3, 28)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// Q6_K, 8 rows x 1 position.
//
// Registers: Y0..Y7 float accumulators of rows 0..7; Y16..Y23 the eight
// 32-byte activation groups; Y24 0x0f bytes, Y25 0x30 bytes; the rest
// scratch. Stack: 0..255 the products of 32 with each activation pair
// (VPMADDUBSW words) per group, subtracted from the products with the
// unsigned 6-bit quants to give those with quants-32.

// K6G: group Q (32 unsigned quants, elements 32g'..32g'+31 of the block)
// times activations A, minus the bias term at CORR(SP), scaled per 16
// elements by the words picked from SH by CTRL, into the int32 lanes ACCI.
#define K6G(Q, A, CORR, CTRL, SH, ACCI) \
	VPMADDUBSW A, Q, Q;           \
	VPSUBW     CORR(SP), Q, Q;    \
	VPSHUFB    CTRL<>(SB), SH, Y15; \
	VPDPWSSD   Y15, Q, ACCI

// K6HALF: elements 128h..128h+127 of the row at P (ql at QL, qh at QH),
// scales of that half (words, in both lanes) in SH.
#define K6HALF(P, QL, QH, SH, A0, A1, A2, A3, C0) \
	VMOVDQU64  QL(P), Y12;                 \
	VMOVDQU64  QL+32(P), Y13;              \
	VMOVDQU64  QH(P), Y14;                 \
	VPSLLW     $4, Y14, Y26;               \
	VPANDD     Y25, Y26, Y26;              \
	VPTERNLOGD $0xf8, Y24, Y12, Y26;       \
	K6G(Y26, A0, C0, k6sc0, SH, Y30);      \
	VPSLLW     $2, Y14, Y27;               \
	VPANDD     Y25, Y27, Y27;              \
	VPTERNLOGD $0xf8, Y24, Y13, Y27;       \
	K6G(Y27, A1, C0+32, k6sc1, SH, Y31);   \
	VPSRLW     $4, Y12, Y12;               \
	VPANDD     Y25, Y14, Y28;              \
	VPTERNLOGD $0xf8, Y24, Y12, Y28;       \
	K6G(Y28, A2, C0+64, k6sc2, SH, Y30);   \
	VPSRLW     $4, Y13, Y13;               \
	VPSRLW     $2, Y14, Y29;               \
	VPANDD     Y25, Y29, Y29;              \
	VPTERNLOGD $0xf8, Y24, Y13, Y29;       \
	K6G(Y29, A3, C0+96, k6sc3, SH, Y31)

// K6ROW: the row at P: ACC = fma(dy*dx, float(lanes), ACC).
#define K6ROW(P, ACC) \
	MOVWLZX      208(P), R11;   \
	VMOVD        R11, X8;       \
	VCVTPH2PS    X8, X8;        \
	VMULSS       (DX), X8, X8;  \
	VBROADCASTSS X8, Y8;        \
	VPMOVSXBW    192(P), Y9;    \
	VPERMQ       $0x44, Y9, Y10; \
	VPERMQ       $0xee, Y9, Y11; \
	VPXORD       Y30, Y30, Y30; \
	VPXORD       Y31, Y31, Y31; \
	K6HALF(P, 0, 128, Y10, Y16, Y17, Y18, Y19, 0);   \
	K6HALF(P, 64, 160, Y11, Y20, Y21, Y22, Y23, 128); \
	VPADDD       Y31, Y30, Y30; \
	VCVTDQ2PS    Y30, Y30;      \
	VFMADD231PS  Y30, Y8, ACC

// func q6kVec8(w *byte, rb int, y *int8, d *float32, nb int, out *[8]float32)
TEXT ·q6kVec8(SB), NOSPLIT, $256-48
	MOVQ w+0(FP), SI
	MOVQ rb+8(FP), R9
	MOVQ y+16(FP), DI
	MOVQ d+24(FP), DX
	MOVQ nb+32(FP), CX
	LEAQ (R9)(R9*2), R10
	LEAQ (SI)(R9*8), R12 // the next tile, prefetched a block's share at a time
	VXORPS   Y0, Y0, Y0
	VXORPS   Y1, Y1, Y1
	VXORPS   Y2, Y2, Y2
	VXORPS   Y3, Y3, Y3
	VXORPS   Y4, Y4, Y4
	VXORPS   Y5, Y5, Y5
	VXORPS   Y6, Y6, Y6
	VXORPS   Y7, Y7, Y7
	VMOVDQU64 kmask0f<>(SB), Y24
	VMOVDQU64 kmask30<>(SB), Y25
q6kv8loop:
	VMOVDQU64 kthirty2<>(SB), Y26
	VMOVDQU64 0(DI), Y16
	VPMADDUBSW Y16, Y26, Y27
	VMOVDQU64 Y27, 0(SP)
	VMOVDQU64 32(DI), Y17
	VPMADDUBSW Y17, Y26, Y27
	VMOVDQU64 Y27, 32(SP)
	VMOVDQU64 64(DI), Y18
	VPMADDUBSW Y18, Y26, Y27
	VMOVDQU64 Y27, 64(SP)
	VMOVDQU64 96(DI), Y19
	VPMADDUBSW Y19, Y26, Y27
	VMOVDQU64 Y27, 96(SP)
	VMOVDQU64 128(DI), Y20
	VPMADDUBSW Y20, Y26, Y27
	VMOVDQU64 Y27, 128(SP)
	VMOVDQU64 160(DI), Y21
	VPMADDUBSW Y21, Y26, Y27
	VMOVDQU64 Y27, 160(SP)
	VMOVDQU64 192(DI), Y22
	VPMADDUBSW Y22, Y26, Y27
	VMOVDQU64 Y27, 192(SP)
	VMOVDQU64 224(DI), Y23
	VPMADDUBSW Y23, Y26, Y27
	VMOVDQU64 Y27, 224(SP)
	K6ROW(SI, Y0)
	LEAQ (SI)(R9*1), AX
	K6ROW(AX, Y1)
	LEAQ (SI)(R9*2), AX
	K6ROW(AX, Y2)
	LEAQ (SI)(R10*1), AX
	K6ROW(AX, Y3)
	LEAQ (SI)(R9*4), BX
	K6ROW(BX, Y4)
	LEAQ (BX)(R9*1), AX
	K6ROW(AX, Y5)
	LEAQ (BX)(R9*2), AX
	K6ROW(AX, Y6)
	LEAQ (BX)(R10*1), AX
	K6ROW(AX, Y7)
	PREFETCHT0 0(R12)
	PREFETCHT0 64(R12)
	PREFETCHT0 128(R12)
	PREFETCHT0 192(R12)
	PREFETCHT0 256(R12)
	PREFETCHT0 320(R12)
	PREFETCHT0 384(R12)
	PREFETCHT0 448(R12)
	PREFETCHT0 512(R12)
	PREFETCHT0 576(R12)
	PREFETCHT0 640(R12)
	PREFETCHT0 704(R12)
	PREFETCHT0 768(R12)
	PREFETCHT0 832(R12)
	PREFETCHT0 896(R12)
	PREFETCHT0 960(R12)
	PREFETCHT0 1024(R12)
	PREFETCHT0 1088(R12)
	PREFETCHT0 1152(R12)
	PREFETCHT0 1216(R12)
	PREFETCHT0 1280(R12)
	PREFETCHT0 1344(R12)
	PREFETCHT0 1408(R12)
	PREFETCHT0 1472(R12)
	PREFETCHT0 1536(R12)
	PREFETCHT0 1600(R12)
	PREFETCHT0 1664(R12)
	ADDQ $1680, R12
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q6kv8loop
	MOVQ out+40(FP), AX
	HSUM8X(Y0, X0)
	MOVSS X0, 0(AX)
	HSUM8X(Y1, X1)
	MOVSS X1, 4(AX)
	HSUM8X(Y2, X2)
	MOVSS X2, 8(AX)
	HSUM8X(Y3, X3)
	MOVSS X3, 12(AX)
	HSUM8X(Y4, X4)
	MOVSS X4, 16(AX)
	HSUM8X(Y5, X5)
	MOVSS X5, 20(AX)
	HSUM8X(Y6, X6)
	MOVSS X6, 24(AX)
	HSUM8X(Y7, X7)
	MOVSS X7, 28(AX)
	VZEROUPPER
	RET

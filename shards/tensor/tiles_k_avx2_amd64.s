//go:build amd64 && !purego

#include "textflag.h"
#include "prefetch_amd64.h"

// AVX2 tile kernels for row-major Q4_K, Q5_K and Q6_K
// (tiles_k_avx2_amd64.go).
// Each (row, position) keeps the canonical order of dotQ4_K / dotQ5_K /
// dotQ6_K: the integer lanes of a super-block are exact, then acc =
// fma(dx*dy, float(lanes), acc) into one 8-lane accumulator per
// super-block (Q4_K: the mins into a 4-lane accumulator with
// fma(-dy*dminx, float(products), accm), written here as VFNMADD231PS with
// dy*dminx, the same bits; Q5_K: one mins term), and hsum8 at the end (+
// the mins). The one-position kernels run four rows interleaved, so many
// independent chains are in flight and what depends on the activations
// alone (Q8_K block sums, Q6_K's bias products) is computed once for the
// four; the batch kernels unpack each block of one row once for four
// positions.

DATA kavxNib<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kavxNib<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kavxNib<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kavxNib<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL kavxNib<>(SB), RODATA|NOPTR, $32
DATA kavx03<>+0(SB)/8, $0x0303030303030303
DATA kavx03<>+8(SB)/8, $0x0303030303030303
DATA kavx03<>+16(SB)/8, $0x0303030303030303
DATA kavx03<>+24(SB)/8, $0x0303030303030303
GLOBL kavx03<>(SB), RODATA|NOPTR, $32
DATA kavx30<>+0(SB)/8, $0x3030303030303030
DATA kavx30<>+8(SB)/8, $0x3030303030303030
DATA kavx30<>+16(SB)/8, $0x3030303030303030
DATA kavx30<>+24(SB)/8, $0x3030303030303030
GLOBL kavx30<>(SB), RODATA|NOPTR, $32
DATA kavx32<>+0(SB)/8, $0x2020202020202020
DATA kavx32<>+8(SB)/8, $0x2020202020202020
DATA kavx32<>+16(SB)/8, $0x2020202020202020
DATA kavx32<>+24(SB)/8, $0x2020202020202020
GLOBL kavx32<>(SB), RODATA|NOPTR, $32

// kavxS4: VPSHUFB indexes that broadcast scale word k (k = 0..7, two
// copies of the eight words, one per 128-bit half) across a register, 32
// bytes per k: the scale of the 32 quants that k's sub-block holds.
DATA kavxS4<>+0(SB)/8, $0x0100010001000100
DATA kavxS4<>+8(SB)/8, $0x0100010001000100
DATA kavxS4<>+16(SB)/8, $0x0100010001000100
DATA kavxS4<>+24(SB)/8, $0x0100010001000100
DATA kavxS4<>+32(SB)/8, $0x0302030203020302
DATA kavxS4<>+40(SB)/8, $0x0302030203020302
DATA kavxS4<>+48(SB)/8, $0x0302030203020302
DATA kavxS4<>+56(SB)/8, $0x0302030203020302
DATA kavxS4<>+64(SB)/8, $0x0504050405040504
DATA kavxS4<>+72(SB)/8, $0x0504050405040504
DATA kavxS4<>+80(SB)/8, $0x0504050405040504
DATA kavxS4<>+88(SB)/8, $0x0504050405040504
DATA kavxS4<>+96(SB)/8, $0x0706070607060706
DATA kavxS4<>+104(SB)/8, $0x0706070607060706
DATA kavxS4<>+112(SB)/8, $0x0706070607060706
DATA kavxS4<>+120(SB)/8, $0x0706070607060706
DATA kavxS4<>+128(SB)/8, $0x0908090809080908
DATA kavxS4<>+136(SB)/8, $0x0908090809080908
DATA kavxS4<>+144(SB)/8, $0x0908090809080908
DATA kavxS4<>+152(SB)/8, $0x0908090809080908
DATA kavxS4<>+160(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS4<>+168(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS4<>+176(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS4<>+184(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS4<>+192(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS4<>+200(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS4<>+208(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS4<>+216(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS4<>+224(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kavxS4<>+232(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kavxS4<>+240(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kavxS4<>+248(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL kavxS4<>(SB), RODATA|NOPTR, $256

// kavxS6: VPSHUFB indexes that pick Q6_K scale bytes k, k+1 (eight copies
// each) for the group at 16*(k/2) bytes: the scales of its two 16-quant
// sub-blocks, widened to words by VPMOVSXBW.
DATA kavxS6<>+0(SB)/8, $0x0000000000000000
DATA kavxS6<>+8(SB)/8, $0x0101010101010101
DATA kavxS6<>+16(SB)/8, $0x0202020202020202
DATA kavxS6<>+24(SB)/8, $0x0303030303030303
DATA kavxS6<>+32(SB)/8, $0x0404040404040404
DATA kavxS6<>+40(SB)/8, $0x0505050505050505
DATA kavxS6<>+48(SB)/8, $0x0606060606060606
DATA kavxS6<>+56(SB)/8, $0x0707070707070707
DATA kavxS6<>+64(SB)/8, $0x0808080808080808
DATA kavxS6<>+72(SB)/8, $0x0909090909090909
DATA kavxS6<>+80(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA kavxS6<>+88(SB)/8, $0x0b0b0b0b0b0b0b0b
DATA kavxS6<>+96(SB)/8, $0x0c0c0c0c0c0c0c0c
DATA kavxS6<>+104(SB)/8, $0x0d0d0d0d0d0d0d0d
DATA kavxS6<>+112(SB)/8, $0x0e0e0e0e0e0e0e0e
DATA kavxS6<>+120(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL kavxS6<>(SB), RODATA|NOPTR, $128

// K4_SCALES(ROW): the 6-bit scales of the Q4_K block at ROW as words in Y9
// (the same eight in both halves) and its mins as words in X10 (see
// kScaleMin). Clobbers AX, R12, R13.
#define K4_SCALES(ROW) \
	MOVL        4 ROW, AX;          \
	MOVL        12 ROW, R12;        \
	MOVL        AX, R13;            \
	SHRL        $6, R13;            \
	ANDL        $0x03030303, R13;   \
	SHLL        $4, R13;            \
	ANDL        $0x3f3f3f3f, AX;    \
	VMOVD       AX, X9;             \
	MOVL        R12, AX;            \
	ANDL        $0x0f0f0f0f, AX;    \
	ORL         R13, AX;            \
	VPINSRD     $1, AX, X9, X9;     \
	VPMOVZXBW   X9, X9;             \
	VINSERTI128 $1, X9, Y9, Y9;     \
	MOVL        8 ROW, AX;          \
	MOVL        AX, R13;            \
	SHRL        $6, R13;            \
	ANDL        $0x03030303, R13;   \
	SHLL        $4, R13;            \
	ANDL        $0x3f3f3f3f, AX;    \
	VMOVD       AX, X10;            \
	SHRL        $4, R12;            \
	ANDL        $0x0f0f0f0f, R12;   \
	ORL         R13, R12;           \
	VPINSRD     $1, R12, X10, X10;  \
	VPMOVZXBW   X10, X10

// K4_CHUNK(c, ROW): the 64 quants of chunk c of the block at ROW (low
// nibbles: sub-block 2c, high: 2c+1) times the activations at DI, scaled
// by the words of Y9, as int32 lanes added into Y8.
#define K4_CHUNK(c, ROW) \
	VMOVDQU    (16+32*c)ROW, Y11;     \
	VPSRLW     $4, Y11, Y12;          \
	VPAND      Y14, Y12, Y12;         \
	VPAND      Y14, Y11, Y11;         \
	VPMADDUBSW (64*c)(DI), Y11, Y11;  \
	VPMADDUBSW (64*c+32)(DI), Y12, Y12; \
	VPSHUFB    (64*c)(R11), Y9, Y13;  \
	VPMADDWD   Y13, Y11, Y11;         \
	VPSHUFB    (64*c+32)(R11), Y9, Y13; \
	VPMADDWD   Y13, Y12, Y12;         \
	VPADDD     Y11, Y8, Y8;           \
	VPADDD     Y12, Y8, Y8

// KV_SCALES(ROW): K4_SCALES for the one-position Q4_K and Q5_K kernels: the
// scales as words in Y9 (both halves), the eight min bytes in AX (each
// half assembled in a general register, one VMOVQ instead of VMOVD and
// VPINSRD). Clobbers R12, R13.
#define KV_SCALES(ROW) \
	MOVL        4 ROW, AX;          \
	MOVL        AX, R13;            \
	SHRL        $6, R13;            \
	ANDL        $0x03030303, R13;   \
	SHLL        $4, R13;            \
	ANDL        $0x3f3f3f3f, AX;    \
	MOVL        12 ROW, R12;        \
	ANDL        $0x0f0f0f0f, R12;   \
	ORL         R13, R12;           \
	SHLQ        $32, R12;           \
	ORQ         R12, AX;            \
	VMOVQ       AX, X9;             \
	VPMOVZXBW   X9, X9;             \
	VINSERTI128 $1, X9, Y9, Y9;     \
	MOVL        8 ROW, AX;          \
	MOVL        AX, R13;            \
	SHRL        $6, R13;            \
	ANDL        $0x03030303, R13;   \
	SHLL        $4, R13;            \
	ANDL        $0x3f3f3f3f, AX;    \
	MOVL        12 ROW, R12;        \
	SHRL        $4, R12;            \
	ANDL        $0x0f0f0f0f, R12;   \
	ORL         R13, R12;           \
	SHLQ        $32, R12;           \
	ORQ         R12, AX

// k5vPerm: VPSHUFB indexes that turn the words d0 m0 d1 m1 d2 m2 d3 m3
// into d0 d1 d2 d3 m0 m1 m2 m3.
DATA k5vPerm<>+0(SB)/8, $0x0d0c090805040100
DATA k5vPerm<>+8(SB)/8, $0x0f0e0b0a07060302
GLOBL k5vPerm<>(SB), RODATA|NOPTR, $16

// kavxDM: VPERMPS indexes that broadcast lane 4 (dy*dminx of row 0 of the
// scale products) into lanes 0-3 and lane 5 (row 1) into lanes 4-7, then
// lanes 6 and 7 (rows 2 and 3) likewise.
DATA kavxDM<>+0(SB)/8, $0x0000000400000004
DATA kavxDM<>+8(SB)/8, $0x0000000400000004
DATA kavxDM<>+16(SB)/8, $0x0000000500000005
DATA kavxDM<>+24(SB)/8, $0x0000000500000005
DATA kavxDM<>+32(SB)/8, $0x0000000600000006
DATA kavxDM<>+40(SB)/8, $0x0000000600000006
DATA kavxDM<>+48(SB)/8, $0x0000000700000007
DATA kavxDM<>+56(SB)/8, $0x0000000700000007
GLOBL kavxDM<>(SB), RODATA|NOPTR, $64

// KV_DSCALES: the four rows' (SI, +R8, +2*R8, +R9) d and dmin (the f16
// pair at the start of a block) converted and multiplied by dy (DX) in
// one VCVTPH2PS and one VMULPS (the bits of the scalar products): dx*dy of
// rows 0-3 at 0(SP), dy*dminx at 16(SP). Clobbers AX, R12, R13.
#define KV_DSCALES \
	MOVL         (SI), AX;           \
	MOVL         (SI)(R8*1), R12;    \
	SHLQ         $32, R12;           \
	ORQ          R12, AX;            \
	MOVL         (SI)(R8*2), R12;    \
	MOVL         (SI)(R9*1), R13;    \
	SHLQ         $32, R13;           \
	ORQ          R13, R12;           \
	VMOVQ        AX, X12;            \
	VPINSRQ      $1, R12, X12, X12;  \
	VPSHUFB      k5vPerm<>(SB), X12, X12; \
	VCVTPH2PS    X12, Y12;           \
	VBROADCASTSS (DX), Y13;          \
	VMULPS       Y13, Y12, Y12;      \
	VMOVUPS      Y12, (SP)

// K4V_ROW(ROW, FACC, SPD): one Q4_K block of one row: its integer lanes
// into FACC with dx*dy from SPD(SP); leaves its min bytes in AX.
#define K4V_ROW(ROW, FACC, SPD) \
	KV_SCALES(ROW);                   \
	VPXOR        Y8, Y8, Y8;          \
	K4_CHUNK(0, ROW);                 \
	K4_CHUNK(1, ROW);                 \
	K4_CHUNK(2, ROW);                 \
	K4_CHUNK(3, ROW);                 \
	VCVTDQ2PS    Y8, Y8;              \
	VBROADCASTSS SPD(SP), Y11;        \
	VFMADD231PS  Y8, Y11, FACC

// K4V_MINS(IDX, ACCM): the mins of two rows (bytes in R14 and AX) times
// the pair sums of the activation sums (both halves of Y15), four lanes a
// row, into ACCM (rows r | r+1) as fma(-dy*dminx, float(products), accm),
// dy*dminx picked from the scale products by the indexes at IDX.
#define K4V_MINS(IDX, ACCM) \
	VMOVQ        R14, X10;            \
	VPINSRQ      $1, AX, X10, X10;    \
	VPMOVZXBW    X10, Y10;            \
	VPMADDWD     Y15, Y10, Y10;       \
	VCVTDQ2PS    Y10, Y10;            \
	VMOVDQU      IDX, Y11;            \
	VPERMPS      (SP), Y11, Y11;      \
	VFNMADD231PS Y10, Y11, ACCM

// K_HSUM8(ACC, XACC): hsum8 of ACC into the low lane of XACC (canonical
// order). Clobbers X11.
#define K_HSUM8(ACC, XACC) \
	VEXTRACTF128 $1, ACC, X11;   \
	VADDPS       X11, XACC, XACC; \
	VMOVHLPS     XACC, XACC, X11; \
	VADDPS       X11, XACC, XACC; \
	VMOVSHDUP    XACC, X11;      \
	VADDSS       X11, XACC, XACC

// K4_OUT: DST = hsum8(FACC) + ((m0+m2) + (m1+m3)) of ACCM.
#define K4_OUT(FACC, XFACC, ACCM, DST) \
	K_HSUM8(FACC, XFACC);           \
	VMOVHLPS  ACCM, ACCM, X11;      \
	VADDPS    X11, ACCM, ACCM;      \
	VMOVSHDUP ACCM, X11;            \
	VADDSS    X11, ACCM, ACCM;      \
	VADDSS    ACCM, XFACC, XFACC;   \
	VMOVSS    XFACC, DST

// func q4kVec4AVX2(w *byte, rs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[4]float32)
// Four rows (rs bytes apart) for one position. next > 0: the bytes from
// w+next on (the rows after these) are prefetched at the pace these are
// read (576 bytes a block), as the hardware prefetchers follow four
// interleaved row streams badly.
TEXT ·q4kVec4AVX2(SB), NOSPLIT, $32-64
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  d+24(FP), DX
	MOVQ  bsums+32(FP), R10
	MOVQ  nb+40(FP), CX
	MOVQ  next+48(FP), BX
	TESTQ BX, BX
	JZ    q4kv4nextok
	ADDQ  SI, BX

q4kv4nextok:
	LEAQ    (R8)(R8*2), R9
	LEAQ    kavxS4<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	VXORPS  Y4, Y4, Y4
	VXORPS  Y5, Y5, Y5

q4kv4loop:
	TESTQ       CX, CX
	JZ          q4kv4done
	KV_DSCALES
	// Sums of the 32 activations of each sub-block (words), for the
	// mins, in both halves.
	VMOVDQU     (R10), X15
	VPHADDW     16(R10), X15, X15
	VINSERTI128 $1, X15, Y15, Y15
	K4V_ROW((SI), Y0, 0)
	MOVQ        AX, R14
	K4V_ROW((SI)(R8*1), Y1, 4)
	K4V_MINS(kavxDM<>(SB), Y4)
	K4V_ROW((SI)(R8*2), Y2, 8)
	MOVQ        AX, R14
	K4V_ROW((SI)(R9*1), Y3, 12)
	K4V_MINS(kavxDM<>+32(SB), Y5)
	TESTQ       BX, BX
	JZ          q4kv4nopf
	PREFETCH9(0, BX)
	ADDQ        $576, BX

q4kv4nopf:
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R10
	DECQ CX
	JMP  q4kv4loop

q4kv4done:
	MOVQ         out+56(FP), AX
	VEXTRACTF128 $1, Y4, X6
	VEXTRACTF128 $1, Y5, X7
	K4_OUT(Y0, X0, X4, 0(AX))
	K4_OUT(Y1, X1, X6, 4(AX))
	K4_OUT(Y2, X2, X5, 8(AX))
	K4_OUT(Y3, X3, X7, 12(AX))
	VZEROUPPER
	RET

// Q6_K. The 32 activations of group g (bytes 32g..32g+31 of a block)
// times the bias 32, as VPMADDUBSW word pairs, are the same for every
// row: computed once a block into the frame (0(SP) on, 32 bytes a
// group) and subtracted from each row's products, which leaves
// (q-32)*y exactly (every word fits).

// kavxS6W: VPSHUFB indexes for the one-position Q6_K kernel that pick,
// from the words of eight scales (the same in both halves), word 2j in
// every word of the low half and word 2j+1 in the high one (32 bytes a
// j): the scales of the two 16-quant sub-blocks of group j of a half.
DATA kavxS6W<>+0(SB)/8, $0x0100010001000100
DATA kavxS6W<>+8(SB)/8, $0x0100010001000100
DATA kavxS6W<>+16(SB)/8, $0x0302030203020302
DATA kavxS6W<>+24(SB)/8, $0x0302030203020302
DATA kavxS6W<>+32(SB)/8, $0x0504050405040504
DATA kavxS6W<>+40(SB)/8, $0x0504050405040504
DATA kavxS6W<>+48(SB)/8, $0x0706070607060706
DATA kavxS6W<>+56(SB)/8, $0x0706070607060706
DATA kavxS6W<>+64(SB)/8, $0x0908090809080908
DATA kavxS6W<>+72(SB)/8, $0x0908090809080908
DATA kavxS6W<>+80(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS6W<>+88(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kavxS6W<>+96(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS6W<>+104(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kavxS6W<>+112(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kavxS6W<>+120(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL kavxS6W<>(SB), RODATA|NOPTR, $128

// K6_GROUP(Q, g, soff): group g's unsigned quants in Q times the
// activations, minus the bias, scaled by the two sub-block scales picked
// from the words of Y10 by the shuffle at soff(R11), into the int32 lanes
// of Y8.
#define K6_GROUP(Q, g, soff) \
	VPMADDUBSW (32*(g))(DI), Q, Q;        \
	VPSUBW     (32*(g))(SP), Q, Q;        \
	VPSHUFB    soff(R11), Y10, Y7;      \
	VPMADDWD   Y7, Q, Q;                \
	VPADDD     Q, Y8, Y8

// K6_HALF(h, ROW): the 128 quants of half h of the block at ROW, whose
// eight scales are widened to words once (in both halves of Y10).
#define K6_HALF(h, ROW) \
	VPBROADCASTQ (192+8*h)ROW, X10;   \
	VPMOVSXBW X10, Y10;               \
	VMOVDQU (64*h)ROW, Y1;            \
	VMOVDQU (64*h+32)ROW, Y2;         \
	VMOVDQU (128+32*h)ROW, Y3;        \
	VPAND   Y14, Y1, Y4;              \
	VPAND   Y13, Y3, Y5;              \
	VPSLLW  $4, Y5, Y5;               \
	VPOR    Y5, Y4, Y4;               \
	K6_GROUP(Y4, 4*h, 0); \
	VPAND   Y14, Y2, Y4;              \
	VPSLLW  $2, Y3, Y5;               \
	VPAND   Y12, Y5, Y5;              \
	VPOR    Y5, Y4, Y4;               \
	K6_GROUP(Y4, 4*h+1, 32); \
	VPSRLW  $4, Y1, Y4;               \
	VPAND   Y14, Y4, Y4;              \
	VPAND   Y12, Y3, Y5;              \
	VPOR    Y5, Y4, Y4;               \
	K6_GROUP(Y4, 4*h+2, 64); \
	VPSRLW  $4, Y2, Y4;               \
	VPAND   Y14, Y4, Y4;              \
	VPSRLW  $2, Y3, Y5;               \
	VPAND   Y12, Y5, Y5;              \
	VPOR    Y5, Y4, Y4;               \
	K6_GROUP(Y4, 4*h+3, 96)

// K6_ROW(ROW, FACC, SPD): one Q6_K block of one row into FACC, its dx*dy
// at SPD(SP).
#define K6_ROW(ROW, FACC, SPD) \
	VPXOR        Y8, Y8, Y8;         \
	K6_HALF(0, ROW);                 \
	K6_HALF(1, ROW);                 \
	VCVTDQ2PS    Y8, Y8;             \
	VBROADCASTSS SPD(SP), Y5;        \
	VFMADD231PS  Y8, Y5, FACC

// K6_BIAS(g): the bias products of group g into the frame.
#define K6_BIAS(g) \
	VPMADDUBSW (32*(g))(DI), Y11, Y4; \
	VMOVDQU    Y4, (32*(g))(SP)

// func q6kVec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)
// Four rows (rs bytes apart) for one position; next as for q4kVec4AVX2
// (840 bytes a block, fourteen lines cover them whatever the alignment).
// The four rows' d are converted and multiplied by dy together (one
// VCVTPH2PS, one VMULPS: the bits of the scalar products), into the frame
// at 256(SP); with the scales widened once a half (K6_HALF) instead of once
// a group, Kernels/n=1/Q6_K/avx2 (best of five, alternated x3, load 3-4)
// went 16.8-17.5 -> 19.2-19.6 GB/cpu-s.
TEXT ·q6kVec4AVX2(SB), NOSPLIT, $272-56
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  d+24(FP), DX
	MOVQ  nb+32(FP), CX
	MOVQ  next+40(FP), BX
	TESTQ BX, BX
	JZ    q6kv4nextok
	ADDQ  SI, BX

q6kv4nextok:
	LEAQ    (R8)(R8*2), R9
	LEAQ    kavxS6W<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VMOVDQU kavx03<>(SB), Y13
	VMOVDQU kavx30<>(SB), Y12
	VMOVDQU kavx32<>(SB), Y11
	VXORPS  Y0, Y0, Y0
	VXORPS  Y6, Y6, Y6
	VXORPS  Y9, Y9, Y9
	VXORPS  Y15, Y15, Y15

q6kv4loop:
	TESTQ CX, CX
	JZ    q6kv4done
	K6_BIAS(0)
	K6_BIAS(1)
	K6_BIAS(2)
	K6_BIAS(3)
	K6_BIAS(4)
	K6_BIAS(5)
	K6_BIAS(6)
	K6_BIAS(7)
	MOVWLZX      208(SI), AX
	MOVWLZX      208(SI)(R8*1), R12
	SHLL         $16, R12
	ORL          R12, AX
	MOVWLZX      208(SI)(R8*2), R12
	MOVWLZX      208(SI)(R9*1), R13
	SHLL         $16, R13
	ORL          R13, R12
	SHLQ         $32, R12
	ORQ          R12, AX
	VMOVQ        AX, X5
	VCVTPH2PS    X5, X5
	VBROADCASTSS (DX), X7
	VMULPS       X7, X5, X5
	VMOVUPS      X5, 256(SP)
	K6_ROW((SI), Y0, 256)
	K6_ROW((SI)(R8*1), Y6, 260)
	K6_ROW((SI)(R8*2), Y9, 264)
	K6_ROW((SI)(R9*1), Y15, 268)
	TESTQ BX, BX
	JZ    q6kv4nopf
	PREFETCH8(0, BX)
	PREFETCH8(512, BX)
	ADDQ  $840, BX

q6kv4nopf:
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JMP  q6kv4loop

q6kv4done:
	MOVQ out+48(FP), AX
	K_HSUM8(Y0, X0)
	VMOVSS X0, 0(AX)
	K_HSUM8(Y6, X6)
	VMOVSS X6, 4(AX)
	K_HSUM8(Y9, X9)
	VMOVSS X9, 8(AX)
	K_HSUM8(Y15, X15)
	VMOVSS X15, 12(AX)
	VZEROUPPER
	RET

DATA kavxBit4<>+0(SB)/8, $0x1010101010101010
DATA kavxBit4<>+8(SB)/8, $0x1010101010101010
DATA kavxBit4<>+16(SB)/8, $0x1010101010101010
DATA kavxBit4<>+24(SB)/8, $0x1010101010101010
GLOBL kavxBit4<>(SB), RODATA|NOPTR, $32

// Q5_K: as Q4_K with each quant's fifth bit from qh (bit 2c for the low
// nibbles of chunk c, 2c+1 for the high ones, held in Y15 for the row and
// moved to bit 4 by word shifts that never carry a bit into a
// neighbouring byte's bit 4), and the mins summed into one term per block
// (summs = fma(-dy*dminx, float(total of the products), summs)).

// K5_CHUNK(c, ROW, SH1, A1, SH2, A2): as K4_CHUNK with the fifth bits.
#define K5_CHUNK(c, ROW, SH1, A1, SH2, A2) \
	VMOVDQU    (48+32*c)ROW, Y11;     \
	VPSRLW     $4, Y11, Y12;          \
	VPAND      Y14, Y12, Y12;         \
	VPAND      Y14, Y11, Y11;         \
	SH1        A1, Y15, Y13;          \
	VPAND      kavxBit4<>(SB), Y13, Y13; \
	VPOR       Y13, Y11, Y11;         \
	SH2        A2, Y15, Y13;          \
	VPAND      kavxBit4<>(SB), Y13, Y13; \
	VPOR       Y13, Y12, Y12;         \
	VPMADDUBSW (64*c)(DI), Y11, Y11;  \
	VPMADDUBSW (64*c+32)(DI), Y12, Y12; \
	VPSHUFB    (64*c)(R11), Y9, Y13;  \
	VPMADDWD   Y13, Y11, Y11;         \
	VPSHUFB    (64*c+32)(R11), Y9, Y13; \
	VPMADDWD   Y13, Y12, Y12;         \
	VPADDD     Y11, Y8, Y8;           \
	VPADDD     Y12, Y8, Y8

// The one-position Q5_K kernel does the per-block scalar work of its four
// rows together: the four rows' d and dmin (f16 pairs at the start of each
// block) are converted and multiplied by dy in one VCVTPH2PS and one
// VMULPS (the bits of the scalar products), their dx*dy broadcast from the
// frame; the mins' products of the four rows are summed with two
// VPMADDWD and two VPHADDD into one register (exact integers, so the
// order does not matter), and summs = fma(-dy*dminx, float(total), summs)
// is one VFNMADD231PS for the four, lane r of X4 for row r. Kernels/n=1/
// Q5_K/avx2 (best of five, alternated x3, load 6-7): 14.5-15.0 -> 15.9-16.0
// GB/cpu-s with this and K5_CHUNK2 (14.6-14.7 -> 15.5-15.7 without), and
// 15.4-16.1 -> 16.1-16.7 with KV_SCALES and the mins of two rows widened
// in one VPMOVZXBW.


// K5_CHUNK2(ROW): K5_CHUNK(2, ...), whose low nibbles' fifth bits (bit 4)
// need no shift.
#define K5_CHUNK2(ROW) \
	VMOVDQU    (48+64)ROW, Y11;       \
	VPSRLW     $4, Y11, Y12;          \
	VPAND      Y14, Y12, Y12;         \
	VPAND      Y14, Y11, Y11;         \
	VPAND      kavxBit4<>(SB), Y15, Y13; \
	VPOR       Y13, Y11, Y11;         \
	VPSRLW     $1, Y15, Y13;          \
	VPAND      kavxBit4<>(SB), Y13, Y13; \
	VPOR       Y13, Y12, Y12;         \
	VPMADDUBSW 128(DI), Y11, Y11;     \
	VPMADDUBSW 160(DI), Y12, Y12;     \
	VPSHUFB    128(R11), Y9, Y13;     \
	VPMADDWD   Y13, Y11, Y11;         \
	VPSHUFB    160(R11), Y9, Y13;     \
	VPMADDWD   Y13, Y12, Y12;         \
	VPADDD     Y11, Y8, Y8;           \
	VPADDD     Y12, Y8, Y8

// K5V_ROW(ROW, FACC, SPD): one Q5_K block of one row: its integer lanes
// into FACC with dx*dy from SPD(SP); leaves its min bytes in AX.
#define K5V_ROW(ROW, FACC, SPD) \
	KV_SCALES(ROW);                   \
	VMOVDQU      16 ROW, Y15;         \
	VPXOR        Y8, Y8, Y8;          \
	K5_CHUNK(0, ROW, VPSLLW, $4, VPSLLW, $3); \
	K5_CHUNK(1, ROW, VPSLLW, $2, VPSLLW, $1); \
	K5_CHUNK2(ROW);                   \
	K5_CHUNK(3, ROW, VPSRLW, $2, VPSRLW, $3); \
	VCVTDQ2PS    Y8, Y8;              \
	VBROADCASTSS SPD(SP), Y11;        \
	VFMADD231PS  Y8, Y11, FACC

// K5V_OUT: DST = hsum8(FACC) + summs, summs in the low lane of XS.
#define K5V_OUT(FACC, XFACC, XS, DST) \
	K_HSUM8(FACC, XFACC);         \
	VADDSS XS, XFACC, XFACC;      \
	VMOVSS XFACC, DST

// func q5kVec4AVX2(w *byte, rs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[4]float32)
// As q4kVec4AVX2 (704 bytes a block; twelve lines cover them). Frame: the
// four rows' dx*dy at 0(SP), their dy*dminx at 16(SP).
TEXT ·q5kVec4AVX2(SB), NOSPLIT, $32-64
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  d+24(FP), DX
	MOVQ  bsums+32(FP), R10
	MOVQ  nb+40(FP), CX
	MOVQ  next+48(FP), BX
	TESTQ BX, BX
	JZ    q5kv4nextok
	ADDQ  SI, BX

q5kv4nextok:
	LEAQ    (R8)(R8*2), R9
	LEAQ    kavxS4<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	VXORPS  X4, X4, X4

q5kv4loop:
	TESTQ        CX, CX
	JZ           q5kv4done
	KV_DSCALES
	// The pair sums of the block's activation sums, in both halves of Y7.
	VMOVDQU      (R10), X15
	VPHADDW      16(R10), X15, X15
	VINSERTI128  $1, X15, Y15, Y7
	K5V_ROW((SI), Y0, 0)
	MOVQ         AX, R14
	K5V_ROW((SI)(R8*1), Y1, 4)
	VMOVQ        R14, X5
	VPINSRQ      $1, AX, X5, X5
	VPMOVZXBW    X5, Y5
	K5V_ROW((SI)(R8*2), Y2, 8)
	MOVQ         AX, R14
	K5V_ROW((SI)(R9*1), Y3, 12)
	VMOVQ        R14, X6
	VPINSRQ      $1, AX, X6, X6
	VPMOVZXBW    X6, Y6
	// Y5 = the mins of rows 0 | 1, Y6 of rows 2 | 3: the four totals.
	VPMADDWD     Y7, Y5, Y5
	VPMADDWD     Y7, Y6, Y6
	VPHADDD      Y6, Y5, Y5
	VPHADDD      Y5, Y5, Y5
	VEXTRACTI128 $1, Y5, X6
	VPUNPCKLDQ   X6, X5, X5
	VCVTDQ2PS    X5, X5
	VMOVUPS      16(SP), X6
	VFNMADD231PS X5, X6, X4
	TESTQ        BX, BX
	JZ           q5kv4nopf
	PREFETCH8(0, BX)
	PREFETCHT0 512(BX)
	PREFETCHT0 576(BX)
	PREFETCHT0 640(BX)
	ADDQ    $704, BX

q5kv4nopf:
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R10
	DECQ CX
	JMP  q5kv4loop

q5kv4done:
	MOVQ      out+56(FP), AX
	K5V_OUT(Y0, X0, X4, 0(AX))
	VMOVSHDUP X4, X5
	K5V_OUT(Y1, X1, X5, 4(AX))
	VMOVHLPS  X4, X4, X5
	K5V_OUT(Y2, X2, X5, 8(AX))
	VPSHUFD   $3, X4, X5
	K5V_OUT(Y3, X3, X5, 12(AX))
	VZEROUPPER
	RET

// K5B_POS(c, YP, ACC): chunk c's low (Y10, scales Y12) and high (Y11,
// scales Y8) quants times the activations of one position at YP, into the
// int32 lanes of ACC.
#define K5B_POS(c, YP, ACC) \
	VPMADDUBSW (64*c)YP, Y10, Y13;    \
	VPMADDWD   Y12, Y13, Y13;         \
	VPADDD     Y13, ACC, ACC;         \
	VPMADDUBSW (64*c+32)YP, Y11, Y13; \
	VPMADDWD   Y8, Y13, Y13;          \
	VPADDD     Y13, ACC, ACC

// K5B_CHUNK(c, SH1, A1, SH2, A2): chunk c of the block at SI (quants with
// their fifth bits from Y15) for the four positions (DI, DI+R8, DI+2*R8,
// R9) into Y4-Y7.
#define K5B_CHUNK(c, SH1, A1, SH2, A2) \
	VMOVDQU    (48+32*c)(SI), Y10;    \
	VPSRLW     $4, Y10, Y11;          \
	VPAND      Y14, Y11, Y11;         \
	VPAND      Y14, Y10, Y10;         \
	SH1        A1, Y15, Y13;          \
	VPAND      kavxBit4<>(SB), Y13, Y13; \
	VPOR       Y13, Y10, Y10;         \
	SH2        A2, Y15, Y13;          \
	VPAND      kavxBit4<>(SB), Y13, Y13; \
	VPOR       Y13, Y11, Y11;         \
	VPSHUFB    (64*c)(R11), Y9, Y12;  \
	VPSHUFB    (64*c+32)(R11), Y9, Y8; \
	K5B_POS(c, (DI), Y4);             \
	K5B_POS(c, (DI)(R8*1), Y5);       \
	K5B_POS(c, (DI)(R8*2), Y6);       \
	K5B_POS(c, (R9), Y7)

// K5B_MINS(BS, XP): the four min products of one position (block sums at
// BS) into XP (mins in X10).
#define K5B_MINS(BS, XP) \
	VMOVDQU  BS, X11;          \
	VPHADDW  16 BS, X11, X11;  \
	VPMADDWD X10, X11, XP

// K5B_FMA(p, ACC, FACC): FACC = fma(dx*dy_p, float(ACC), FACC), dx*dy_p
// at 16+4p(SP).
#define K5B_FMA(p, ACC, FACC) \
	VCVTDQ2PS    ACC, ACC;           \
	VBROADCASTSS (16+4*p)(SP), Y13;  \
	VFMADD231PS  ACC, Y13, FACC

// K5B_OUT(p, FACC, XFACC, DST): DST = hsum8(FACC) + summs of position p.
#define K5B_OUT(p, FACC, XFACC, DST) \
	K_HSUM8(FACC, XFACC);        \
	VADDSS (4*p)(SP), XFACC, XFACC; \
	VMOVSS XFACC, DST

// func q5kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
// One Q5_K row for four positions (quants ystride bytes, scales dstride
// bytes, block sums bstride bytes apart). Each block's weights and scales
// are unpacked once for the four; the four positions' mins terms go
// through one vector fma (lane p: position p's summs, in the frame at
// 0(SP)), and their dx*dy at 16(SP).
TEXT ·q5kBatch4AVX2(SB), NOSPLIT, $32-72
	MOVQ    w+0(FP), SI
	MOVQ    y+8(FP), DI
	MOVQ    ystride+16(FP), R8
	LEAQ    (DI)(R8*2), R9
	ADDQ    R8, R9
	MOVQ    d+24(FP), DX
	MOVQ    dstride+32(FP), R10
	MOVQ    bsums+40(FP), BX
	MOVQ    bstride+48(FP), R14
	MOVQ    nb+56(FP), CX
	LEAQ    kavxS4<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	VMOVUPS X0, (SP)

q5kb4loop:
	TESTQ CX, CX
	JZ    q5kb4done
	K4_SCALES((SI))
	// Mins: the four positions' totals in the lanes of X4.
	K5B_MINS((BX), X4)
	K5B_MINS((BX)(R14*1), X5)
	K5B_MINS((BX)(R14*2), X6)
	LEAQ    (BX)(R14*2), R13
	K5B_MINS((R13)(R14*1), X7)
	VPHADDD X5, X4, X4
	VPHADDD X7, X6, X6
	VPHADDD X6, X4, X4
	VCVTDQ2PS X4, X4
	// dy of the four positions in X11.
	VMOVSS   (DX), X11
	VINSERTPS $0x10, (DX)(R10*1), X11, X11
	VINSERTPS $0x20, (DX)(R10*2), X11, X11
	LEAQ     (DX)(R10*2), R13
	VINSERTPS $0x30, (R13)(R10*1), X11, X11
	// summs = fma(-dy*dminx, float(total), summs), lane p for position p.
	MOVWLZX      2(SI), AX
	VMOVD        AX, X12
	VCVTPH2PS    X12, X12
	VBROADCASTSS X12, X12
	VMULPS       X11, X12, X12
	VMOVUPS      (SP), X13
	VFNMADD231PS X4, X12, X13
	VMOVUPS      X13, (SP)
	// dx*dy of the four positions.
	MOVWLZX      (SI), AX
	VMOVD        AX, X12
	VCVTPH2PS    X12, X12
	VBROADCASTSS X12, X12
	VMULPS       X11, X12, X12
	VMOVUPS      X12, 16(SP)
	VMOVDQU 16(SI), Y15
	VPXOR   Y4, Y4, Y4
	VPXOR   Y5, Y5, Y5
	VPXOR   Y6, Y6, Y6
	VPXOR   Y7, Y7, Y7
	K5B_CHUNK(0, VPSLLW, $4, VPSLLW, $3)
	K5B_CHUNK(1, VPSLLW, $2, VPSLLW, $1)
	K5B_CHUNK(2, VPSRLW, $0, VPSRLW, $1)
	K5B_CHUNK(3, VPSRLW, $2, VPSRLW, $3)
	K5B_FMA(0, Y4, Y0)
	K5B_FMA(1, Y5, Y1)
	K5B_FMA(2, Y6, Y2)
	K5B_FMA(3, Y7, Y3)
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $256, R9
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JMP  q5kb4loop

q5kb4done:
	MOVQ out+64(FP), AX
	K5B_OUT(0, Y0, X0, 0(AX))
	K5B_OUT(1, Y1, X1, 4(AX))
	K5B_OUT(2, Y2, X2, 8(AX))
	K5B_OUT(3, Y3, X3, 12(AX))
	VZEROUPPER
	RET

// K4B_CHUNK(c): chunk c of the Q4_K block at SI for the four positions
// (DI, DI+R8, DI+2*R8, R9) into Y4-Y7.
#define K4B_CHUNK(c) \
	VMOVDQU    (16+32*c)(SI), Y10;    \
	VPSRLW     $4, Y10, Y11;          \
	VPAND      Y14, Y11, Y11;         \
	VPAND      Y14, Y10, Y10;         \
	VPSHUFB    (64*c)(R11), Y9, Y12;  \
	VPSHUFB    (64*c+32)(R11), Y9, Y8; \
	K5B_POS(c, (DI), Y4);             \
	K5B_POS(c, (DI)(R8*1), Y5);       \
	K5B_POS(c, (DI)(R8*2), Y6);       \
	K5B_POS(c, (R9), Y7)

// K4B_MINS(p, XP): accm of position p (frame, 32+16p(SP)) = fma(-dy_p *
// dminx, float(min products XP), accm), dy_p*dminx at 4p(SP).
#define K4B_MINS(p, XP) \
	VCVTDQ2PS    XP, XP;               \
	VBROADCASTSS (4*p)(SP), X12;       \
	VMOVUPS      (32+16*p)(SP), X13;   \
	VFNMADD231PS XP, X12, X13;         \
	VMOVUPS      X13, (32+16*p)(SP)

// K4B_OUT(p, FACC, XFACC, DST): DST = hsum8(FACC) + ((m0+m2) + (m1+m3))
// of position p's accm.
#define K4B_OUT(p, FACC, XFACC, DST) \
	K_HSUM8(FACC, XFACC);              \
	VMOVUPS   (32+16*p)(SP), X12;      \
	VMOVHLPS  X12, X12, X11;           \
	VADDPS    X11, X12, X12;           \
	VMOVSHDUP X12, X11;                \
	VADDSS    X11, X12, X12;           \
	VADDSS    X12, XFACC, XFACC;       \
	VMOVSS    XFACC, DST

// func q4kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
// One Q4_K row for four positions, as q5kBatch4AVX2: per block, the
// scales and the dx, dminx products with the four dy are formed once
// (dy*dminx at 0(SP), dy*dx at 16(SP)); each position's 4-lane mins
// accumulator lives in the frame at 32+16p(SP).
TEXT ·q4kBatch4AVX2(SB), NOSPLIT, $96-72
	MOVQ    w+0(FP), SI
	MOVQ    y+8(FP), DI
	MOVQ    ystride+16(FP), R8
	LEAQ    (DI)(R8*2), R9
	ADDQ    R8, R9
	MOVQ    d+24(FP), DX
	MOVQ    dstride+32(FP), R10
	MOVQ    bsums+40(FP), BX
	MOVQ    bstride+48(FP), R14
	MOVQ    nb+56(FP), CX
	LEAQ    kavxS4<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	VMOVUPS Y0, 32(SP)
	VMOVUPS Y0, 64(SP)

q4kb4loop:
	TESTQ CX, CX
	JZ    q4kb4done
	K4_SCALES((SI))
	// dy of the four positions in X11; dy*dminx, dy*dx into the frame.
	VMOVSS   (DX), X11
	VINSERTPS $0x10, (DX)(R10*1), X11, X11
	VINSERTPS $0x20, (DX)(R10*2), X11, X11
	LEAQ     (DX)(R10*2), R13
	VINSERTPS $0x30, (R13)(R10*1), X11, X11
	MOVWLZX      2(SI), AX
	VMOVD        AX, X12
	VCVTPH2PS    X12, X12
	VBROADCASTSS X12, X12
	VMULPS       X11, X12, X12
	VMOVUPS      X12, (SP)
	MOVWLZX      (SI), AX
	VMOVD        AX, X12
	VCVTPH2PS    X12, X12
	VBROADCASTSS X12, X12
	VMULPS       X11, X12, X12
	VMOVUPS      X12, 16(SP)
	K5B_MINS((BX), X4)
	K4B_MINS(0, X4)
	K5B_MINS((BX)(R14*1), X5)
	K4B_MINS(1, X5)
	K5B_MINS((BX)(R14*2), X6)
	K4B_MINS(2, X6)
	LEAQ    (BX)(R14*2), R13
	K5B_MINS((R13)(R14*1), X7)
	K4B_MINS(3, X7)
	VPXOR   Y4, Y4, Y4
	VPXOR   Y5, Y5, Y5
	VPXOR   Y6, Y6, Y6
	VPXOR   Y7, Y7, Y7
	K4B_CHUNK(0)
	K4B_CHUNK(1)
	K4B_CHUNK(2)
	K4B_CHUNK(3)
	K5B_FMA(0, Y4, Y0)
	K5B_FMA(1, Y5, Y1)
	K5B_FMA(2, Y6, Y2)
	K5B_FMA(3, Y7, Y3)
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $256, R9
	ADDQ $4, DX
	ADDQ $32, BX
	DECQ CX
	JMP  q4kb4loop

q4kb4done:
	MOVQ out+64(FP), AX
	K4B_OUT(0, Y0, X0, 0(AX))
	K4B_OUT(1, Y1, X1, 4(AX))
	K4B_OUT(2, Y2, X2, 8(AX))
	K4B_OUT(3, Y3, X3, 12(AX))
	VZEROUPPER
	RET

// Q6_K for four positions. The quants are made signed once a group (q -
// 32, in -32..31) and multiplied as ggml's mul_sum_i8_pairs does: |y|
// (unsigned, 128 included) times the weight with y's sign, which is
// exactly w*y; that costs one VPMADDUBSW a position where subtracting the
// bias products would cost two.

// K6B_POS(YP, ACC): the signed weights in Y4 times the activations at YP,
// scaled by the words of Y7, into the int32 lanes of ACC.
#define K6B_POS(YP, ACC) \
	VPABSB     YP, Y5;     \
	VPSIGNB    YP, Y4, Y6; \
	VPMADDUBSW Y6, Y5, Y6; \
	VPMADDWD   Y7, Y6, Y6; \
	VPADDD     Y6, ACC, ACC

// K6B_GROUP(g, soff): group g (unsigned quants in Y4) for the four
// positions (DI, DI+R12, DI+2*R12, R13) into Y0, Y8, Y9, Y15.
#define K6B_GROUP(g, soff) \
	VPSUBB    Y11, Y4, Y4;         \
	VPSHUFB   soff(R11), X10, X7;  \
	VPMOVSXBW X7, Y7;              \
	K6B_POS((32*(g))(DI), Y0);     \
	K6B_POS((32*(g))(DI)(R12*1), Y8); \
	K6B_POS((32*(g))(DI)(R12*2), Y9); \
	K6B_POS((32*(g))(R13), Y15)

#define K6B_HALF(h) \
	VMOVDQU (64*h)(SI), Y1;      \
	VMOVDQU (64*h+32)(SI), Y2;   \
	VMOVDQU (128+32*h)(SI), Y3;  \
	VPAND   Y14, Y1, Y4;         \
	VPAND   Y13, Y3, Y5;         \
	VPSLLW  $4, Y5, Y5;          \
	VPOR    Y5, Y4, Y4;          \
	K6B_GROUP(4*h, 64*h);        \
	VPAND   Y14, Y2, Y4;         \
	VPSLLW  $2, Y3, Y5;          \
	VPAND   Y12, Y5, Y5;         \
	VPOR    Y5, Y4, Y4;          \
	K6B_GROUP(4*h+1, 64*h+16);   \
	VPSRLW  $4, Y1, Y4;          \
	VPAND   Y14, Y4, Y4;         \
	VPAND   Y12, Y3, Y5;         \
	VPOR    Y5, Y4, Y4;          \
	K6B_GROUP(4*h+2, 64*h+32);   \
	VPSRLW  $4, Y2, Y4;          \
	VPAND   Y14, Y4, Y4;         \
	VPSRLW  $2, Y3, Y5;          \
	VPAND   Y12, Y5, Y5;         \
	VPOR    Y5, Y4, Y4;          \
	K6B_GROUP(4*h+3, 64*h+48)

// K6B_FMA(p, ACC): position p's float accumulator (frame, 32p(SP)) =
// fma(dx*dy_p, float(ACC), acc), dx in X10's low lane, dy_p at DA.
#define K6B_FMA(p, DA, ACC) \
	VCVTDQ2PS    ACC, ACC;         \
	VMULSS       DA, X10, X3;      \
	VBROADCASTSS X3, Y3;           \
	VMOVUPS      (32*p)(SP), Y4;   \
	VFMADD231PS  ACC, Y3, Y4;      \
	VMOVUPS      Y4, (32*p)(SP)

// func q6kBatch4AVX2(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
// One Q6_K row for four positions (quants ystride bytes, scales dstride
// bytes apart); the float accumulators live in the frame.
TEXT ·q6kBatch4AVX2(SB), NOSPLIT, $128-56
	MOVQ    w+0(FP), SI
	MOVQ    y+8(FP), DI
	MOVQ    ystride+16(FP), R12
	MOVQ    d+24(FP), DX
	MOVQ    dstride+32(FP), R10
	MOVQ    nb+40(FP), CX
	LEAQ    (DI)(R12*2), R13
	ADDQ    R12, R13
	LEAQ    (DX)(R10*2), R9
	ADDQ    R10, R9
	LEAQ    kavxS6<>(SB), R11
	VMOVDQU kavxNib<>(SB), Y14
	VMOVDQU kavx03<>(SB), Y13
	VMOVDQU kavx30<>(SB), Y12
	VMOVDQU kavx32<>(SB), Y11
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, (SP)
	VMOVUPS Y0, 32(SP)
	VMOVUPS Y0, 64(SP)
	VMOVUPS Y0, 96(SP)

q6kb4loop:
	TESTQ   CX, CX
	JZ      q6kb4done
	VMOVDQU 192(SI), X10
	VPXOR   Y0, Y0, Y0
	VPXOR   Y8, Y8, Y8
	VPXOR   Y9, Y9, Y9
	VPXOR   Y15, Y15, Y15
	K6B_HALF(0)
	K6B_HALF(1)
	MOVWLZX   208(SI), AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	K6B_FMA(0, (DX), Y0)
	K6B_FMA(1, (DX)(R10*1), Y8)
	K6B_FMA(2, (DX)(R10*2), Y9)
	K6B_FMA(3, (R9), Y15)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $256, R13
	ADDQ $4, DX
	ADDQ $4, R9
	DECQ CX
	JMP  q6kb4loop

q6kb4done:
	MOVQ    out+48(FP), AX
	VMOVUPS (SP), Y0
	K_HSUM8(Y0, X0)
	VMOVSS  X0, 0(AX)
	VMOVUPS 32(SP), Y0
	K_HSUM8(Y0, X0)
	VMOVSS  X0, 4(AX)
	VMOVUPS 64(SP), Y0
	K_HSUM8(Y0, X0)
	VMOVSS  X0, 8(AX)
	VMOVUPS 96(SP), Y0
	K_HSUM8(Y0, X0)
	VMOVSS  X0, 12(AX)
	VZEROUPPER
	RET

DATA kavx80<>+0(SB)/8, $0x8080808080808080
DATA kavx80<>+8(SB)/8, $0x8080808080808080
DATA kavx80<>+16(SB)/8, $0x8080808080808080
DATA kavx80<>+24(SB)/8, $0x8080808080808080
GLOBL kavx80<>(SB), RODATA|NOPTR, $32

// Q6_K for eight positions, with the activations offset to unsigned
// (acts.u8: y+128, computed once per product): VPMADDUBSW multiplies them,
// as its unsigned operand, with the signed quants q-32, and subtracting
// 128 times each pair of quants (one VPMADDUBSW a group, shared by the
// eight positions) leaves exactly the word pair sums of (q-32)*y: four
// instructions a position and group where the four-position kernel's
// sign handling takes five, and no more activation bytes to read. The
// integer lanes are those of q6kBatch4AVX2 (and dotQ6_K), so the float
// steps are too. Eight int32 accumulators fill half the registers; the
// float ones live in the frame.

// K6E_POS(YP, ACC): the signed quants in Y0 times the offset activations
// at YP, less the pair terms in Y6, scaled by the words of Y1, into ACC.
#define K6E_POS(YP, ACC) \
	VMOVDQU    YP, Y2;     \
	VPMADDUBSW Y0, Y2, Y2; \
	VPSUBW     Y6, Y2, Y2; \
	VPMADDWD   Y1, Y2, Y2; \
	VPADDD     Y2, ACC, ACC

// K6E_GROUP(g, soff): group g (unsigned quants in Y0) for the eight
// positions, activations at DI and R13 (+0..3 strides AX), into Y8-Y15.
#define K6E_GROUP(g, soff) \
	VPSUBB     kavx32<>(SB), Y0, Y0;   \
	VMOVDQU    kavx80<>(SB), Y6;       \
	VPMADDUBSW Y0, Y6, Y6;             \
	VPSHUFB    soff(R11), X7, X1;      \
	VPMOVSXBW  X1, Y1;                 \
	K6E_POS((32*(g))(DI), Y8);         \
	K6E_POS((32*(g))(DI)(AX*1), Y9);   \
	K6E_POS((32*(g))(DI)(AX*2), Y10);  \
	K6E_POS((32*(g))(DI)(R8*1), Y11);  \
	K6E_POS((32*(g))(R13), Y12);       \
	K6E_POS((32*(g))(R13)(AX*1), Y13); \
	K6E_POS((32*(g))(R13)(AX*2), Y14); \
	K6E_POS((32*(g))(R13)(R8*1), Y15)

// K6E_HALF(h): the four groups of half h of the block at SI, unpacked as
// in K6B_HALF.
#define K6E_HALF(h) \
	VMOVDQU (64*h)(SI), Y3;        \
	VMOVDQU (64*h+32)(SI), Y4;     \
	VMOVDQU (128+32*h)(SI), Y5;    \
	VPAND   kavxNib<>(SB), Y3, Y0; \
	VPAND   kavx03<>(SB), Y5, Y6;  \
	VPSLLW  $4, Y6, Y6;            \
	VPOR    Y6, Y0, Y0;            \
	K6E_GROUP(4*h, 64*h);          \
	VPAND   kavxNib<>(SB), Y4, Y0; \
	VPSLLW  $2, Y5, Y6;            \
	VPAND   kavx30<>(SB), Y6, Y6;  \
	VPOR    Y6, Y0, Y0;            \
	K6E_GROUP(4*h+1, 64*h+16);     \
	VPSRLW  $4, Y3, Y0;            \
	VPAND   kavxNib<>(SB), Y0, Y0; \
	VPAND   kavx30<>(SB), Y5, Y6;  \
	VPOR    Y6, Y0, Y0;            \
	K6E_GROUP(4*h+2, 64*h+32);     \
	VPSRLW  $4, Y4, Y0;            \
	VPAND   kavxNib<>(SB), Y0, Y0; \
	VPSRLW  $2, Y5, Y6;            \
	VPAND   kavx30<>(SB), Y6, Y6;  \
	VPOR    Y6, Y0, Y0;            \
	K6E_GROUP(4*h+3, 64*h+48)

// K6E_FMA(p, DA, ACC): position p's float accumulator (frame, 32p(SP)) =
// fma(dx*dy_p, float(ACC), acc), dx in X0's low lane, dy_p at DA.
#define K6E_FMA(p, DA, ACC) \
	VCVTDQ2PS    ACC, ACC;       \
	VMULSS       DA, X0, X1;     \
	VBROADCASTSS X1, Y1;         \
	VMOVUPS      (32*p)(SP), Y2; \
	VFMADD231PS  ACC, Y1, Y2;    \
	VMOVUPS      Y2, (32*p)(SP)

// K6E_OUT(p): hsum8 of position p's float accumulator into out[p] (AX).
#define K6E_OUT(p) \
	VMOVUPS (32*p)(SP), Y0; \
	K_HSUM8(Y0, X0);        \
	VMOVSS  X0, (4*p)(AX)

// func q6kBatch8AVX2(w *byte, u *int8, ustride int, d *float32, dstride int, nb int, out *[8]float32)
// One Q6_K row for eight positions (offset activations ustride bytes
// apart, scales dstride bytes apart).
TEXT ·q6kBatch8AVX2(SB), NOSPLIT, $256-56
	MOVQ    w+0(FP), SI
	MOVQ    u+8(FP), DI
	MOVQ    ustride+16(FP), AX
	MOVQ    d+24(FP), DX
	MOVQ    dstride+32(FP), R10
	MOVQ    nb+40(FP), CX
	LEAQ    (AX)(AX*2), R8
	LEAQ    (DI)(AX*4), R13
	LEAQ    (R10)(R10*2), R9
	LEAQ    (DX)(R10*4), R14
	LEAQ    kavxS6<>(SB), R11
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, (SP)
	VMOVUPS Y0, 32(SP)
	VMOVUPS Y0, 64(SP)
	VMOVUPS Y0, 96(SP)
	VMOVUPS Y0, 128(SP)
	VMOVUPS Y0, 160(SP)
	VMOVUPS Y0, 192(SP)
	VMOVUPS Y0, 224(SP)

q6kb8loop:
	TESTQ   CX, CX
	JZ      q6kb8done
	VMOVDQU 192(SI), X7
	VPXOR   Y8, Y8, Y8
	VPXOR   Y9, Y9, Y9
	VPXOR   Y10, Y10, Y10
	VPXOR   Y11, Y11, Y11
	VPXOR   Y12, Y12, Y12
	VPXOR   Y13, Y13, Y13
	VPXOR   Y14, Y14, Y14
	VPXOR   Y15, Y15, Y15
	K6E_HALF(0)
	K6E_HALF(1)
	VPBROADCASTW 208(SI), X0
	VCVTPH2PS    X0, X0
	K6E_FMA(0, (DX), Y8)
	K6E_FMA(1, (DX)(R10*1), Y9)
	K6E_FMA(2, (DX)(R10*2), Y10)
	K6E_FMA(3, (DX)(R9*1), Y11)
	K6E_FMA(4, (R14), Y12)
	K6E_FMA(5, (R14)(R10*1), Y13)
	K6E_FMA(6, (R14)(R10*2), Y14)
	K6E_FMA(7, (R14)(R9*1), Y15)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $256, R13
	ADDQ $4, DX
	ADDQ $4, R14
	DECQ CX
	JMP  q6kb8loop

q6kb8done:
	MOVQ out+48(FP), AX
	K6E_OUT(0)
	K6E_OUT(1)
	K6E_OUT(2)
	K6E_OUT(3)
	K6E_OUT(4)
	K6E_OUT(5)
	K6E_OUT(6)
	K6E_OUT(7)
	VZEROUPPER
	RET

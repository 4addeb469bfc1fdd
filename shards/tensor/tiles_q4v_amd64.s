//go:build amd64 && !purego && !avx512sim

#include "textflag.h"
#include "prefetch_amd64.h"

// q40Vec16x2: sixteen Q4_0 rows × one position, weights addressed by a
// row stride and a block stride (see tiles_q4v_amd64.go). Every output
// keeps the canonical order of dotQ4_0: per block acc = fma(float(sum),
// dx*dy, acc), with only the exact integer block sums computed
// differently. It uses AVX-512 F/BW/VL, VBMI (VPERMT2B), VNNI (VPDPBUSD)
// and GFNI (VGF2P8AFFINEQB), hence hasQ40Vec16x2. Three paths share the
// arithmetic:
//
//   - general strides (and the last one or two blocks of a row-major
//     tile): two blocks per iteration, row k loaded as R_k = [32 bytes at
//     block j - 2(k%8) | 32 bytes at block j+1 - 2(k%8)];
//   - row-major (blockStride 18): the same with R_k one 64-byte load at
//     block j - 2(k%8), blocks j and j+1 being adjacent (no inserts);
//   - block-interleaved (rowStride 18, blockStride 288): see q4vil below.
//
// The shift by 2(k%8) puts row k's scales at words k%8 and 16+k%8 (9+k%8
// row-major), apart from those of the other rows of its half, so that
// masked word blends (K1..K3, one per pair of rows and three per half)
// collect the scales of eight rows in one register without shuffles.
// Shifted loads stay inside the tile: a row other than 0 and 8 only reads
// back into the row (or block) before it, rows 0..6 and 8..14 at most 14
// bytes past their block in the general path (into the next row's or
// block's data) and row 15 not at all; the row-major path, whose loads
// reach 28 bytes past the second block, leaves the last two blocks to the
// general one.
//
// Rows a = 2i, b = 2i+1 are combined by one VPERMT2B into
// P_i = [a.q_j | b.q_j | a.q_j+1 | b.q_j+1] (16 quant bytes per 128-bit
// lane), split into nibbles (AND for the low ones, a GF(2) affine shift for
// the high ones) and multiplied by VPDPBUSD with the activations of the
// lane's block, starting from -8*(activation sums) of the dword: each
// 128-bit lane then holds four dwords that add up to one row's block sum.
// Two 4×4 dword transposes with adds reduce four pairs at a time, so the
// block sums come out in lane order ord = 0,2,4,6, 1,3,5,7, 8,10,12,14,
// 9,11,13,15; the scales are permuted to the same order and q4vinv puts
// the results back in row order at the end. The two blocks' fmas run one
// after the other on the one accumulator, as the canonical order asks;
// everything else of an iteration is independent of the previous one.
//
// On Zen 5 the loop is bound by the number of vector instructions (about
// four a cycle), not by one unit or by the fma chain; per two blocks it
// issues 16 row loads, 8 VPERMT2B, 16 nibble ops, 16 VPDPBUSD, 18 for the
// reductions and about 30 for scales, biases and the float steps.
//
// Registers: Z0 accumulator, Z1..Z4 VPERMT2B indices (row offsets 0, 4, 8,
// 12), Z5 scale word indices, Z6 0x0f bytes, Z7 the affine matrix of
// x>>4, Z8 0x08 bytes, Z9/Z10 activations for the low/high nibbles, Z11
// bias, Z12/Z13 rows of a pair, Z14 low nibbles, Z16..Z19 pair
// accumulators, Z20/Z21 block sums of rows 0..7 / 8..15, Z22..Z26 scale
// blends, Z27..Z30 temporaries, Z31 zero.

// Quant bytes of rows 2i (offset 0) and 2i+1 (offset 2): lanes 0, 2 from
// table 1 (blocks j, j+1 of row a), lanes 1, 3 from table 2 (row b).
DATA q4vq0<>+0(SB)/8, $0x0908070605040302
DATA q4vq0<>+8(SB)/8, $0x11100f0e0d0c0b0a
DATA q4vq0<>+16(SB)/8, $0x4b4a494847464544
DATA q4vq0<>+24(SB)/8, $0x535251504f4e4d4c
DATA q4vq0<>+32(SB)/8, $0x2928272625242322
DATA q4vq0<>+40(SB)/8, $0x31302f2e2d2c2b2a
DATA q4vq0<>+48(SB)/8, $0x6b6a696867666564
DATA q4vq0<>+56(SB)/8, $0x737271706f6e6d6c
GLOBL q4vq0<>(SB), RODATA|NOPTR, $64

// The same for the row-major path, whose row registers are one 64-byte
// load (block j+1 18 bytes after block j instead of 32).
DATA q4vr0<>+0(SB)/8, $0x0908070605040302
DATA q4vr0<>+8(SB)/8, $0x11100f0e0d0c0b0a
DATA q4vr0<>+16(SB)/8, $0x4b4a494847464544
DATA q4vr0<>+24(SB)/8, $0x535251504f4e4d4c
DATA q4vr0<>+32(SB)/8, $0x1b1a191817161514
DATA q4vr0<>+40(SB)/8, $0x232221201f1e1d1c
DATA q4vr0<>+48(SB)/8, $0x5d5c5b5a59585756
DATA q4vr0<>+56(SB)/8, $0x6564636261605f5e
GLOBL q4vr0<>(SB), RODATA|NOPTR, $64

// Scale words in lane order ord: s_j of row r is word r of the rows 0..7
// blend (32+r-8 for rows 8..15, the second table), s_j+1 16 words up.
DATA q4vs<>+0(SB)/8, $0x0006000400020000
DATA q4vs<>+8(SB)/8, $0x0007000500030001
DATA q4vs<>+16(SB)/8, $0x0026002400220020
DATA q4vs<>+24(SB)/8, $0x0027002500230021
DATA q4vs<>+32(SB)/8, $0x0016001400120010
DATA q4vs<>+40(SB)/8, $0x0017001500130011
DATA q4vs<>+48(SB)/8, $0x0036003400320030
DATA q4vs<>+56(SB)/8, $0x0037003500330031
GLOBL q4vs<>(SB), RODATA|NOPTR, $64

// The same for the row-major path: s_j+1 of row r at word 9+r.
DATA q4vrs<>+0(SB)/8, $0x0006000400020000
DATA q4vrs<>+8(SB)/8, $0x0007000500030001
DATA q4vrs<>+16(SB)/8, $0x0026002400220020
DATA q4vrs<>+24(SB)/8, $0x0027002500230021
DATA q4vrs<>+32(SB)/8, $0x000f000d000b0009
DATA q4vrs<>+40(SB)/8, $0x0010000e000c000a
DATA q4vrs<>+48(SB)/8, $0x002f002d002b0029
DATA q4vrs<>+56(SB)/8, $0x0030002e002c002a
GLOBL q4vrs<>(SB), RODATA|NOPTR, $64

// Lane of each output row: the inverse of ord.
DATA q4vinv<>+0(SB)/8, $0x0000000400000000
DATA q4vinv<>+8(SB)/8, $0x0000000500000001
DATA q4vinv<>+16(SB)/8, $0x0000000600000002
DATA q4vinv<>+24(SB)/8, $0x0000000700000003
DATA q4vinv<>+32(SB)/8, $0x0000000c00000008
DATA q4vinv<>+40(SB)/8, $0x0000000d00000009
DATA q4vinv<>+48(SB)/8, $0x0000000e0000000a
DATA q4vinv<>+56(SB)/8, $0x0000000f0000000b
GLOBL q4vinv<>(SB), RODATA|NOPTR, $64

// q4vil, the block-interleaved path (rowStride 18, blockStride 288): a
// block's sixteen rows are 288 contiguous bytes, loaded as A0..A4 = bytes
// [0,64), [64,128), [128,192), [192,256), [224,288). Group g (rows
// 4g..4g+3, bytes [72g, 72g+72)) lies in two of them, so one VPERMT2B per
// group makes [row 4g quants | 4g+1 | 4g+2 | 4g+3]; the multiplication and
// the dword reduction are those of the other paths, with one block per
// 128-bit lane and the block sums in lane order 4(d%4)+d/4 (a 4×4
// transpose, its own inverse). The scales come from A0:A1 (rows 0..7),
// A2:A3 (rows 8..14) and A4 (row 15) by word permutes. Registers as above
// except Z17 (row 8..15 scale indices), Z19..Z23 (A0..A4), Z24/Z25 (scales)
// and Z26..Z29 (group accumulators).

// Quant bytes of group 0 (tables A0, A1); groups 1, 2 add 8 and 16.
DATA q4vi0<>+0(SB)/8, $0x0908070605040302
DATA q4vi0<>+8(SB)/8, $0x11100f0e0d0c0b0a
DATA q4vi0<>+16(SB)/8, $0x1b1a191817161514
DATA q4vi0<>+24(SB)/8, $0x232221201f1e1d1c
DATA q4vi0<>+32(SB)/8, $0x2d2c2b2a29282726
DATA q4vi0<>+40(SB)/8, $0x3534333231302f2e
DATA q4vi0<>+48(SB)/8, $0x3f3e3d3c3b3a3938
DATA q4vi0<>+56(SB)/8, $0x4746454443424140
GLOBL q4vi0<>(SB), RODATA|NOPTR, $64

// Quant bytes of group 3 (tables A3, A4).
DATA q4vi3<>+0(SB)/8, $0x21201f1e1d1c1b1a
DATA q4vi3<>+8(SB)/8, $0x2928272625242322
DATA q4vi3<>+16(SB)/8, $0x333231302f2e2d2c
DATA q4vi3<>+24(SB)/8, $0x3b3a393837363534
DATA q4vi3<>+32(SB)/8, $0x6564636261603f3e
DATA q4vi3<>+40(SB)/8, $0x6d6c6b6a69686766
DATA q4vi3<>+48(SB)/8, $0x7776757473727170
DATA q4vi3<>+56(SB)/8, $0x7f7e7d7c7b7a7978
GLOBL q4vi3<>(SB), RODATA|NOPTR, $64

// Scale words in lane order: rows 0..7 from A0:A1, rows 8..14 from
// A2:A3 (and row 15, lane 15, word 23 of A4).
DATA q4vis<>+0(SB)/8, $0x0000000000240000
DATA q4vis<>+8(SB)/8, $0x00000000002d0009
DATA q4vis<>+16(SB)/8, $0x0000000000360012
DATA q4vis<>+24(SB)/8, $0x00000000003f001b
GLOBL q4vis<>(SB), RODATA|NOPTR, $32
DATA q4vit<>+0(SB)/8, $0x002c000800000000
DATA q4vit<>+8(SB)/8, $0x0035001100000000
DATA q4vit<>+16(SB)/8, $0x003e001a00000000
DATA q4vit<>+24(SB)/8, $0x0017002300000000
GLOBL q4vit<>(SB), RODATA|NOPTR, $32

// Lane of each output row.
DATA q4viinv<>+0(SB)/8, $0x0000000400000000
DATA q4viinv<>+8(SB)/8, $0x0000000c00000008
DATA q4viinv<>+16(SB)/8, $0x0000000500000001
DATA q4viinv<>+24(SB)/8, $0x0000000d00000009
DATA q4viinv<>+32(SB)/8, $0x0000000600000002
DATA q4viinv<>+40(SB)/8, $0x0000000e0000000a
DATA q4viinv<>+48(SB)/8, $0x0000000700000003
DATA q4viinv<>+56(SB)/8, $0x0000000f0000000b
GLOBL q4viinv<>(SB), RODATA|NOPTR, $64

// Q4V_IGROUP: group with tables TA (destroyed), TB and indices IDX into ACC.
#define Q4V_IGROUP(TA, TB, IDX, ACC) \
	VPERMT2B       TB, IDX, TA;    \
	VPANDD         Z6, TA, Z13;    \
	VGF2P8AFFINEQB $0, Z7, TA, TA; \
	VMOVDQA64      Z11, ACC;       \
	VPDPBUSD       Z9, Z13, ACC;   \
	VPDPBUSD       Z10, TA, ACC

// Q4V_RED4: four accumulators (one block per 128-bit lane, four dwords
// each) summed per lane and transposed: dword 4l+g of OUT is lane l of
// accumulator g. T1..T3 are clobbered.
#define Q4V_RED4(A, B, C, D, T1, T2, T3, OUT) \
	VPUNPCKLDQ  B, A, T1;   \
	VPUNPCKHDQ  B, A, T2;   \
	VPADDD      T2, T1, T1; \
	VPUNPCKLDQ  D, C, T2;   \
	VPUNPCKHDQ  D, C, T3;   \
	VPADDD      T3, T2, T2; \
	VPUNPCKLQDQ T2, T1, T3; \
	VPUNPCKHQDQ T2, T1, T1; \
	VPADDD      T1, T3, OUT

// Q4V_IBLOCK: the block at off(R10), activations at yo(DI), scale at
// do(DX), into Z0.
#define Q4V_IBLOCK(off, yo, do) \
	VBROADCASTI32X4 yo(DI), Z9;              \
	VBROADCASTI32X4 yo+16(DI), Z10;          \
	VPXORD          Z13, Z13, Z13;           \
	VPDPBUSD        Z9, Z8, Z13;             \
	VPDPBUSD        Z10, Z8, Z13;            \
	VPSUBD          Z13, Z31, Z11;           \
	VMOVDQU64       off(R10), Z19;           \
	VMOVDQU64       off+64(R10), Z20;        \
	VMOVDQU64       off+128(R10), Z21;       \
	VMOVDQU64       off+192(R10), Z22;       \
	VMOVDQU64       off+224(R10), Z23;       \
	VMOVDQA64       Z5, Z24;                 \
	VPERMI2W        Z20, Z19, Z24;           \
	VMOVDQA64       Z17, Z25;                \
	VPERMI2W        Z22, Z21, Z25;           \
	VPERMW          Z23, Z17, K2, Z25;       \
	VPBLENDMW       Z25, Z24, K1, Z24;       \
	VCVTPH2PS       Y24, Z24;                \
	VMULPS.BCST     do(DX), Z24, Z24;        \
	Q4V_IGROUP(Z19, Z20, Z1, Z26);           \
	Q4V_IGROUP(Z20, Z21, Z2, Z27);           \
	Q4V_IGROUP(Z21, Z22, Z3, Z28);           \
	Q4V_IGROUP(Z22, Z23, Z4, Z29);           \
	Q4V_RED4(Z26, Z27, Z28, Z29, Z19, Z20, Z21, Z12); \
	VCVTDQ2PS       Z12, Z12;                \
	VFMADD231PS     Z24, Z12, Z0

// Q4V_LOAD: row register Zr (Yr its low half) from block j at A and
// block j+1 at B (both already shifted).
#define Q4V_LOAD(A, B, Yr, Zr) \
	VMOVDQU64    A, Yr; \
	VINSERTI64X4 $1, B, Zr, Zr

// Q4V_PAIR: rows a (at AJ/AJ1) and b (BJ/BJ1) into accumulator ACC with
// VPERMT2B indices IDX; their scale blend goes to T.
#define Q4V_PAIR(AJ, AJ1, BJ, BJ1, IDX, ACC, T) \
	Q4V_LOAD(AJ, AJ1, Y12, Z12); \
	Q4V_LOAD(BJ, BJ1, Y13, Z13); \
	Q4V_PAIRDO(IDX, ACC, T)

// Q4V_PAIRR: Q4V_PAIR for row-major tiles, one 64-byte load per row.
#define Q4V_PAIRR(AJ, AJ1, BJ, BJ1, IDX, ACC, T) \
	VMOVDQU64 AJ, Z12; \
	VMOVDQU64 BJ, Z13; \
	Q4V_PAIRDO(IDX, ACC, T)

#define Q4V_PAIRDO(IDX, ACC, T) \
	VPBLENDMW      Z13, Z12, K1, T;  \
	VPERMT2B       Z13, IDX, Z12;    \
	VPANDD         Z6, Z12, Z14;     \
	VGF2P8AFFINEQB $0, Z7, Z12, Z12; \
	VMOVDQA64      Z11, ACC;         \
	VPDPBUSD       Z9, Z14, ACC;     \
	VPDPBUSD       Z10, Z12, ACC

// Q4V_REDUCE: the four pair accumulators Z16..Z19 (rows 0..7 or 8..15)
// summed to one dword per row and block, into OUT.
#define Q4V_REDUCE(OUT) \
	VPUNPCKLDQ  Z17, Z16, Z27; \
	VPUNPCKHDQ  Z17, Z16, Z28; \
	VPADDD      Z28, Z27, Z27; \
	VPUNPCKLDQ  Z19, Z18, Z28; \
	VPUNPCKHDQ  Z19, Z18, Z29; \
	VPADDD      Z29, Z28, Z28; \
	VPUNPCKLQDQ Z28, Z27, Z29; \
	VPUNPCKHQDQ Z28, Z27, Z30; \
	VPADDD      Z30, Z29, OUT

// Q4V_HALF: with PAIR (Q4V_PAIR or Q4V_PAIRR), rows 4g..4g+7 from the block j bases G0 (rows 4g..4g+3), G1
// and the block j+1 bases H0, H1, their block sums into SUMS and their
// scale words into S.
#define Q4V_HALF(PAIR, G0, G1, H0, H1, SUMS, S) \
	PAIR((G0), (H0), -2(G0)(R8*1), -2(H0)(R8*1), Z1, Z16, Z22);               \
	PAIR(-4(G0)(R8*2), -4(H0)(R8*2), -6(G0)(R9*1), -6(H0)(R9*1), Z2, Z17, Z23); \
	VPBLENDMW Z23, Z22, K2, Z24;                                                  \
	PAIR(-8(G1), -8(H1), -10(G1)(R8*1), -10(H1)(R8*1), Z3, Z18, Z22);         \
	PAIR(-12(G1)(R8*2), -12(H1)(R8*2), -14(G1)(R9*1), -14(H1)(R9*1), Z4, Z19, Z23); \
	VPBLENDMW Z23, Z22, K2, Z22;                                                  \
	VPBLENDMW Z22, Z24, K3, S;                                                    \
	Q4V_REDUCE(SUMS)

// Q4V_ACTS: Z9, Z10 and the bias Z11 from the activations in Z27
// (blocks j, j+1: 16 low-nibble and 16 high-nibble activations each).
#define Q4V_ACTS \
	VSHUFI64X2 $0xa0, Z27, Z27, Z9;  \
	VSHUFI64X2 $0xf5, Z27, Z27, Z10; \
	VPXORD     Z28, Z28, Z28;        \
	VPDPBUSD   Z9, Z8, Z28;          \
	VPDPBUSD   Z10, Z8, Z28;         \
	VPSUBD     Z28, Z31, Z11

// Q4V_BLOCKS: with PAIR, both blocks of the sixteen rows; leaves the block sums
// (lane order) in Z27 (block j) and Z28 (j+1), the scale products in
// Z29 (j) and Z30 (j+1).
#define Q4V_BLOCKS(PAIR) \
	Q4V_HALF(PAIR, R10, R11, R14, R15, Z20, Z25); \
	Q4V_HALF(PAIR, R12, R13, SI, AX, Z21, Z26);   \
	VPERMT2W    Z26, Z5, Z25;               \
	VCVTPH2PS   Y25, Z29;                   \
	VEXTRACTI64X4 $1, Z25, Y25;             \
	VCVTPH2PS   Y25, Z30;                   \
	VMULPS.BCST (DX), Z29, Z29;             \
	VSHUFI64X2  $0x44, Z21, Z20, Z27;       \
	VSHUFI64X2  $0xee, Z21, Z20, Z28;       \
	VCVTDQ2PS   Z27, Z27;                   \
	VCVTDQ2PS   Z28, Z28

// Q4V_CONSTS: the VPERMT2B indices (IDX0 for rows at offset 0, then +4
// per pair), the scale word indices and the blend masks of a path.
#define Q4V_CONSTS(IDX0, SIDX, M1, M2, M3) \
	VMOVDQU64    IDX0, Z1;         \
	MOVL         $0x04040404, R8;  \
	VPBROADCASTD R8, Z27;          \
	VPADDB       Z27, Z1, Z2;      \
	VPADDB       Z27, Z2, Z3;      \
	VPADDB       Z27, Z3, Z4;      \
	VMOVDQU64    SIDX, Z5;         \
	MOVL         M1, R8;           \
	KMOVD        R8, K1;           \
	MOVL         M2, R8;           \
	KMOVD        R8, K2;           \
	MOVL         M3, R8;           \
	KMOVD        R8, K3;           \
	MOVQ         rowStride+8(FP), R8

// Q4V_STEP: the two fmas of an iteration, the prefetch of the next tile
// and the step to the next two blocks.
#define Q4V_STEP \
	VMULPS.BCST 4(DX), Z30, Z30; \
	VFMADD231PS Z29, Z27, Z0;    \
	VFMADD231PS Z30, Z28, Z0;    \
	PREFETCH9(0, BX);            \
	ADDQ        $576, BX;        \
	ADDQ        bs2-8(SP), R10;  \
	ADDQ        bs2-8(SP), R11;  \
	ADDQ        bs2-8(SP), R12;  \
	ADDQ        bs2-8(SP), R13;  \
	ADDQ        bs2-8(SP), R14;  \
	ADDQ        bs2-8(SP), R15;  \
	ADDQ        bs2-8(SP), SI;   \
	ADDQ        bs2-8(SP), AX;   \
	ADDQ        $64, DI;         \
	ADDQ        $8, DX;          \
	SUBQ        $2, CX

// func q40Vec16x2(w *byte, rowStride, blockStride int, y *int8, d *float32, nb int, out *float32)
TEXT ·q40Vec16x2(SB), NOSPLIT, $8-56
	MOVQ w+0(FP), R10
	MOVQ rowStride+8(FP), R8
	MOVQ blockStride+16(FP), AX
	MOVQ y+24(FP), DI
	MOVQ d+32(FP), DX
	MOVQ nb+40(FP), CX
	LEAQ (AX)(AX*1), BX
	MOVQ BX, bs2-8(SP)
	LEAQ (R8)(R8*2), R9
	LEAQ (R10)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	LEAQ (R12)(R8*4), R13
	LEAQ (R10)(AX*1), R14
	LEAQ (R11)(AX*1), R15
	LEAQ (R12)(AX*1), SI
	ADDQ R13, AX
	// The next tile in either layout starts 16*18*nb bytes on; it is
	// fetched at the pace this one is consumed (the hardware prefetchers
	// do not follow sixteen interleaved row streams well).
	IMUL3Q $288, CX, BX
	ADDQ  R10, BX

	MOVL         $0x0f0f0f0f, R8
	VPBROADCASTD R8, Z6
	MOVQ         $0x1020408000000000, R8
	VPBROADCASTQ R8, Z7
	MOVL         $0x08080808, R8
	VPBROADCASTD R8, Z8
	MOVQ         rowStride+8(FP), R8
	VPXORD       Z31, Z31, Z31
	VPXORD       Z0, Z0, Z0
	CMPQ         blockStride+16(FP), $288
	JNE          q4vnotil
	CMPQ         R8, $18
	JEQ          q4vil

q4vnotil:
	CMPQ blockStride+16(FP), $18
	JNE  q4vgeneric
	Q4V_CONSTS(q4vr0<>(SB), q4vrs<>(SB), $0x000154aa, $0x000198cc, $0x0001e0f0)

q4vrloop:
	// Row-major: all but the last one or two blocks, whose 64-byte row
	// loads would run past the tile.
	CMPQ CX, $2
	JLE  q4vgeneric
	VMOVDQU64 (DI), Z27
	Q4V_ACTS
	Q4V_BLOCKS(Q4V_PAIRR)
	Q4V_STEP
	JMP  q4vrloop

q4vgeneric:
	Q4V_CONSTS(q4vq0<>(SB), q4vs<>(SB), $0x00aa00aa, $0x00cc00cc, $0x00f000f0)

q4vloop:
	CMPQ CX, $2
	JLT  q4vtail
	VMOVDQU64 (DI), Z27
	Q4V_ACTS
	Q4V_BLOCKS(Q4V_PAIR)
	Q4V_STEP
	JMP  q4vloop

q4vtail:
	// An odd last block: the same code with block j as its own "j+1"
	// (so that nothing past the tile or the activations is read), of
	// which only the first result is used.
	TESTQ CX, CX
	JZ    q4vdone
	MOVQ  R10, R14
	MOVQ  R11, R15
	MOVQ  R12, SI
	MOVQ  R13, AX
	VBROADCASTI64X4 (DI), Z27
	Q4V_ACTS
	Q4V_BLOCKS(Q4V_PAIR)
	VFMADD231PS Z29, Z27, Z0

q4vdone:
	MOVQ      out+48(FP), AX
	VMOVDQU64 q4vinv<>(SB), Z1
	VPERMPS   Z0, Z1, Z0
	VMOVUPS   Z0, (AX)
	VZEROUPPER
	RET

q4vil:
	VMOVDQU64    q4vi0<>(SB), Z1
	MOVL         $0x08080808, R8
	VPBROADCASTD R8, Z27
	VPADDB       Z27, Z1, Z2
	VPADDB       Z27, Z2, Z3
	VMOVDQU64    q4vi3<>(SB), Z4
	VMOVDQU64    q4vis<>(SB), Y5
	VMOVDQU64    q4vit<>(SB), Y17
	MOVL         $0xcccc, R8
	KMOVD        R8, K1
	MOVL         $0x8000, R8
	KMOVD        R8, K2

q4viloop:
	CMPQ CX, $2
	JLT  q4vitail
	Q4V_IBLOCK(0, 0, 0)
	Q4V_IBLOCK(288, 32, 4)
	PREFETCH9(0, BX)
	ADDQ $576, BX
	ADDQ $576, R10
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q4viloop

q4vitail:
	TESTQ CX, CX
	JZ    q4vidone
	Q4V_IBLOCK(0, 0, 0)

q4vidone:
	MOVQ      out+48(FP), AX
	VMOVDQU64 q4viinv<>(SB), Z1
	VPERMPS   Z0, Z1, Z0
	VMOVUPS   Z0, (AX)
	VZEROUPPER
	RET

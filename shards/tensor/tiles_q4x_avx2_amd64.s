//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels for Q4_0 tiles in the x layout (packq4x.go). Without
// VPDPBUSD, VPMADDUBSW multiplies the unsigned nibbles (0..15) with the
// signed activation bytes into 16-bit pair sums; the four quant groups of
// a block (low and high nibbles) add up in 16 bits without overflow (eight
// pair sums of at most 2*15*128 each: 30720), and one VPMADDWD by ones turns
// the pairs of row r (bytes 4r..4r+3 of a 32-byte load) into dword lane r.
// With the block's bias (-8*sum of its activations, biasQ4_0x) that is the
// exact signed block sum of dotQ4_0, and each row then takes the canonical
// acc = fma(float(sum), dx*dy, acc) in its own lane: bit-identical.

DATA q4xavxMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4xavxMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4xavxMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4xavxMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL q4xavxMask<>(SB), RODATA|NOPTR, $32

DATA q4xavxOnes<>+0(SB)/8, $0x0001000100010001
DATA q4xavxOnes<>+8(SB)/8, $0x0001000100010001
DATA q4xavxOnes<>+16(SB)/8, $0x0001000100010001
DATA q4xavxOnes<>+24(SB)/8, $0x0001000100010001
GLOBL q4xavxOnes<>(SB), RODATA|NOPTR, $32

// Q4XV_K: quant group K of the block whose quants start at Q(SI) and whose
// activations at YO(DI): the 16-bit pair sums of rows 0-7 added to Y2,
// rows 8-15 to Y3 (Q4XV_K0: group 0, which sets them).
#define Q4XV_K0(Q, YO) \
	VPBROADCASTD (YO)(DI), Y8;         \
	VPBROADCASTD (YO+16)(DI), Y9;      \
	VMOVDQU      (Q)(SI), Y4;          \
	VMOVDQU      (Q+32)(SI), Y5;       \
	VPSRLW       $4, Y4, Y6;           \
	VPSRLW       $4, Y5, Y7;           \
	VPAND        Y14, Y4, Y4;          \
	VPAND        Y14, Y5, Y5;          \
	VPAND        Y14, Y6, Y6;          \
	VPAND        Y14, Y7, Y7;          \
	VPMADDUBSW   Y8, Y4, Y4;           \
	VPMADDUBSW   Y8, Y5, Y5;           \
	VPMADDUBSW   Y9, Y6, Y6;           \
	VPMADDUBSW   Y9, Y7, Y7;           \
	VPADDW       Y6, Y4, Y2;           \
	VPADDW       Y7, Y5, Y3

#define Q4XV_K(Q, YO, K) \
	VPBROADCASTD (YO+4*K)(DI), Y8;     \
	VPBROADCASTD (YO+16+4*K)(DI), Y9;  \
	VMOVDQU      (Q+64*K)(SI), Y4;     \
	VMOVDQU      (Q+64*K+32)(SI), Y5;  \
	VPSRLW       $4, Y4, Y6;           \
	VPSRLW       $4, Y5, Y7;           \
	VPAND        Y14, Y4, Y4;          \
	VPAND        Y14, Y5, Y5;          \
	VPAND        Y14, Y6, Y6;          \
	VPAND        Y14, Y7, Y7;          \
	VPMADDUBSW   Y8, Y4, Y4;           \
	VPMADDUBSW   Y8, Y5, Y5;           \
	VPMADDUBSW   Y9, Y6, Y6;           \
	VPMADDUBSW   Y9, Y7, Y7;           \
	VPADDW       Y6, Y4, Y4;           \
	VPADDW       Y7, Y5, Y5;           \
	VPADDW       Y4, Y2, Y2;           \
	VPADDW       Y5, Y3, Y3

// Q4XV_BLOCK: one block of sixteen rows, quants at Q(SI), scales at
// S(SI), activations at YO(DI), its activation scale and bias at DO(DX)
// and DO(BX); accumulates rows 0-7 into Y0, 8-15 into Y1.
#define Q4XV_BLOCK(Q, S, YO, DO) \
	Q4XV_K0(Q, YO);                   \
	Q4XV_K(Q, YO, 1);                 \
	Q4XV_K(Q, YO, 2);                 \
	Q4XV_K(Q, YO, 3);                 \
	VPMADDWD     Y15, Y2, Y2;         \
	VPMADDWD     Y15, Y3, Y3;         \
	VPBROADCASTD DO(BX), Y8;          \
	VPADDD       Y8, Y2, Y2;          \
	VPADDD       Y8, Y3, Y3;          \
	VCVTDQ2PS    Y2, Y2;              \
	VCVTDQ2PS    Y3, Y3;              \
	VCVTPH2PS    S(SI), Y4;           \
	VCVTPH2PS    (S+16)(SI), Y5;      \
	VBROADCASTSS DO(DX), Y8;          \
	VMULPS       Y8, Y4, Y4;          \
	VMULPS       Y8, Y5, Y5;          \
	VFMADD231PS  Y2, Y4, Y0;          \
	VFMADD231PS  Y3, Y5, Y1

// Q4XV_PREFETCH: the pair of blocks R8 bytes ahead (nine cache lines).
#define Q4XV_PREFETCH \
	PREFETCHT0 0(SI)(R8*1);   \
	PREFETCHT0 64(SI)(R8*1);  \
	PREFETCHT0 128(SI)(R8*1); \
	PREFETCHT0 192(SI)(R8*1); \
	PREFETCHT0 256(SI)(R8*1); \
	PREFETCHT0 320(SI)(R8*1); \
	PREFETCHT0 384(SI)(R8*1); \
	PREFETCHT0 448(SI)(R8*1); \
	PREFETCHT0 512(SI)(R8*1)

// func q40xVecAVX2(w *byte, nb int, tiles int, y *int8, d *float32, bias *int32, out *float32, pf int)
// Consecutive tiles (one stream of tiles*nb*288 bytes) for one position:
// out[16*t+r] for row r of tile t. Looping over the tiles here instead of
// in Go saves a call, its checks and a copy per tile.
TEXT ·q40xVecAVX2(SB), NOSPLIT, $0-64
	MOVQ    w+0(FP), SI
	MOVQ    tiles+16(FP), R9
	MOVQ    out+48(FP), AX
	MOVQ    pf+56(FP), R8
	VMOVDQU q4xavxMask<>(SB), Y14
	VMOVDQU q4xavxOnes<>(SB), Y15

q4xv2tile:
	MOVQ  nb+8(FP), CX
	MOVQ  y+24(FP), DI
	MOVQ  d+32(FP), DX
	MOVQ  bias+40(FP), BX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	TESTQ R8, R8
	JZ    q4xv2pair

q4xv2pfpair:
	CMPQ CX, $2
	JLT  q4xv2single
	Q4XV_PREFETCH
	Q4XV_BLOCK(0, 512, 0, 0)
	Q4XV_BLOCK(256, 544, 32, 4)
	ADDQ $576, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, BX
	SUBQ $2, CX
	JMP  q4xv2pfpair

q4xv2pair:
	CMPQ CX, $2
	JLT  q4xv2single
	Q4XV_BLOCK(0, 512, 0, 0)
	Q4XV_BLOCK(256, 544, 32, 4)
	ADDQ $576, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, BX
	SUBQ $2, CX
	JMP  q4xv2pair

q4xv2single:
	TESTQ CX, CX
	JZ    q4xv2done
	Q4XV_BLOCK(0, 256, 0, 0)
	ADDQ  $288, SI

q4xv2done:
	VMOVUPS Y0, (AX)
	VMOVUPS Y1, 32(AX)
	ADDQ    $64, AX
	DECQ    R9
	JNZ     q4xv2tile
	VZEROUPPER
	RET

// The multi-position kernel computes all sixteen rows of a tile for two to
// four positions: the weights are loaded and unpacked once per block for
// all the positions, each broadcast activation dword serves sixteen rows,
// and the float accumulators live in out (one load and store per block and
// position), which leaves eight registers for the 16-bit sums. On a Zen 2
// EPYC the multiplies (VPMADDUBSW, VPMADDWD) share one pipe and the adds,
// ands, float multiplies and conversions the others: four positions cost
// 85 cycles a 16-row block where the multiplies alone need 72 (without the
// float step, 67 where they need 64), and the former eight-row kernel, run
// twice, 94. Rotating the next block's loads ahead of the float step,
// interleaving the float steps with the last products, the mask and ones
// in registers, short encodings, and the bias added in 16 bits with shifts
// in place of VPMADDWD all measured within two cycles of this.

// Q4XB_LOAD: quant group K of the block at Q(SI), unpacked: Y8 low
// nibbles of rows 0-7, Y9 of rows 8-15, Y10 and Y11 the high nibbles.
#define Q4XB_LOAD(Q, K) \
	VMOVDQU (Q+64*K)(SI), Y8;         \
	VMOVDQU (Q+64*K+32)(SI), Y9;      \
	VPSRLW  $4, Y8, Y10;              \
	VPSRLW  $4, Y9, Y11;              \
	VPAND   q4xavxMask<>(SB), Y8, Y8;   \
	VPAND   q4xavxMask<>(SB), Y9, Y9;   \
	VPAND   q4xavxMask<>(SB), Y10, Y10; \
	VPAND   q4xavxMask<>(SB), Y11, Y11

// Q4XB_P0: group 0 against one position's activations at YO M (M is its
// address form): sets its 16-bit sums A0 (rows 0-7) and A1 (rows 8-15).
#define Q4XB_P0(YO, M, A0, A1) \
	VPBROADCASTD (YO)M, Y12;    \
	VPBROADCASTD (YO+16)M, Y13; \
	VPMADDUBSW   Y12, Y8, Y14;  \
	VPMADDUBSW   Y12, Y9, Y12;  \
	VPMADDUBSW   Y13, Y10, Y15; \
	VPMADDUBSW   Y13, Y11, Y13; \
	VPADDW       Y15, Y14, A0;  \
	VPADDW       Y13, Y12, A1

// Q4XB_P: group K (1-3), added to A0 and A1.
#define Q4XB_P(YO, K, M, A0, A1) \
	VPBROADCASTD (YO+4*K)M, Y12;    \
	VPBROADCASTD (YO+16+4*K)M, Y13; \
	VPMADDUBSW   Y12, Y8, Y14;      \
	VPMADDUBSW   Y12, Y9, Y12;      \
	VPMADDUBSW   Y13, Y10, Y15;     \
	VPMADDUBSW   Y13, Y11, Y13;     \
	VPADDW       Y14, A0, A0;       \
	VPADDW       Y12, A1, A1;       \
	VPADDW       Y15, A0, A0;       \
	VPADDW       Y13, A1, A1

// Q4XB_END: the block's float step for one position: its sums A0/A1, its
// bias at DO BM and scale at DO DM, the rows' scales in Y8 (rows 0-7) and
// Y9, its accumulators at OO(R11) (rows 0-7) and OO+32(R11).
#define Q4XB_END(DO, DM, BM, A0, A1, OO) \
	VPMADDWD     q4xavxOnes<>(SB), A0, A0; \
	VPMADDWD     q4xavxOnes<>(SB), A1, A1; \
	VPBROADCASTD DO BM, Y12;               \
	VPADDD       Y12, A0, A0;              \
	VPADDD       Y12, A1, A1;              \
	VCVTDQ2PS    A0, A0;                   \
	VCVTDQ2PS    A1, A1;                   \
	VBROADCASTSS DO DM, Y13;               \
	VMULPS       Y13, Y8, Y14;             \
	VMULPS       Y13, Y9, Y15;             \
	VFMADD213PS  OO(R11), Y14, A0;         \
	VFMADD213PS  OO+32(R11), Y15, A1;      \
	VMOVUPS      A0, OO(R11);              \
	VMOVUPS      A1, OO+32(R11)

// Position k's activations, scale and bias (address forms).
#define Q4XB_Y0 (DI)
#define Q4XB_Y1 (DI)(AX*1)
#define Q4XB_Y2 (DI)(AX*2)
#define Q4XB_Y3 (DI)(R8*1)
#define Q4XB_D0 (DX)
#define Q4XB_D1 (DX)(R9*1)
#define Q4XB_D2 (DX)(R9*2)
#define Q4XB_D3 (DX)(R10*1)
#define Q4XB_B0 (BX)
#define Q4XB_B1 (BX)(R9*1)
#define Q4XB_B2 (BX)(R9*2)
#define Q4XB_B3 (BX)(R10*1)

// Q4XB_G2, Q4XB_G3, Q4XB_G4: group K of the block at Q for the first two,
// three or four positions (Q4XB_G*0: group 0).
#define Q4XB_G20(Q, YO) \
	Q4XB_LOAD(Q, 0);                  \
	Q4XB_P0(YO, Q4XB_Y0, Y0, Y1);     \
	Q4XB_P0(YO, Q4XB_Y1, Y2, Y3)

#define Q4XB_G2(Q, YO, K) \
	Q4XB_LOAD(Q, K);                  \
	Q4XB_P(YO, K, Q4XB_Y0, Y0, Y1);   \
	Q4XB_P(YO, K, Q4XB_Y1, Y2, Y3)

#define Q4XB_G30(Q, YO) \
	Q4XB_G20(Q, YO);                  \
	Q4XB_P0(YO, Q4XB_Y2, Y4, Y5)

#define Q4XB_G3(Q, YO, K) \
	Q4XB_G2(Q, YO, K);                \
	Q4XB_P(YO, K, Q4XB_Y2, Y4, Y5)

#define Q4XB_G40(Q, YO) \
	Q4XB_G30(Q, YO);                  \
	Q4XB_P0(YO, Q4XB_Y3, Y6, Y7)

#define Q4XB_G4(Q, YO, K) \
	Q4XB_G3(Q, YO, K);                \
	Q4XB_P(YO, K, Q4XB_Y3, Y6, Y7)

// Q4XB_SCALES: the rows' scales of the block whose scales are at S(SI).
#define Q4XB_SCALES(S) \
	VCVTPH2PS S(SI), Y8; \
	VCVTPH2PS (S+16)(SI), Y9

#define Q4XB_END2(DO) \
	Q4XB_END(DO, Q4XB_D0, Q4XB_B0, Y0, Y1, 0); \
	Q4XB_END(DO, Q4XB_D1, Q4XB_B1, Y2, Y3, 64)

#define Q4XB_END3(DO) \
	Q4XB_END2(DO);                              \
	Q4XB_END(DO, Q4XB_D2, Q4XB_B2, Y4, Y5, 128)

#define Q4XB_END4(DO) \
	Q4XB_END3(DO);                              \
	Q4XB_END(DO, Q4XB_D3, Q4XB_B3, Y6, Y7, 192)

// Q4XB_BLOCKn: one block (quants at Q(SI), scales at S(SI), activations
// at YO, scales and biases at DO) for n positions.
#define Q4XB_BLOCK2(Q, S, YO, DO) \
	Q4XB_G20(Q, YO);    \
	Q4XB_G2(Q, YO, 1);  \
	Q4XB_G2(Q, YO, 2);  \
	Q4XB_G2(Q, YO, 3);  \
	Q4XB_SCALES(S);     \
	Q4XB_END2(DO)

#define Q4XB_BLOCK3(Q, S, YO, DO) \
	Q4XB_G30(Q, YO);    \
	Q4XB_G3(Q, YO, 1);  \
	Q4XB_G3(Q, YO, 2);  \
	Q4XB_G3(Q, YO, 3);  \
	Q4XB_SCALES(S);     \
	Q4XB_END3(DO)

#define Q4XB_BLOCK4(Q, S, YO, DO) \
	Q4XB_G40(Q, YO);    \
	Q4XB_G4(Q, YO, 1);  \
	Q4XB_G4(Q, YO, 2);  \
	Q4XB_G4(Q, YO, 3);  \
	Q4XB_SCALES(S);     \
	Q4XB_END4(DO)

// Q4XB_NEXT: past a pair of blocks.
#define Q4XB_NEXT \
	ADDQ $576, SI; \
	ADDQ $64, DI;  \
	ADDQ $8, DX;   \
	ADDQ $8, BX;   \
	SUBQ $2, CX

// Q4XB_PF: prefetch the pair of blocks R12 bytes ahead, if R12 > 0.
#define Q4XB_PF(L) \
	TESTQ      R12, R12;           \
	JZ         L;                  \
	PREFETCHT0 0(SI)(R12*1);       \
	PREFETCHT0 64(SI)(R12*1);      \
	PREFETCHT0 128(SI)(R12*1);     \
	PREFETCHT0 192(SI)(R12*1);     \
	PREFETCHT0 256(SI)(R12*1);     \
	PREFETCHT0 320(SI)(R12*1);     \
	PREFETCHT0 384(SI)(R12*1);     \
	PREFETCHT0 448(SI)(R12*1);     \
	PREFETCHT0 512(SI)(R12*1)

// func q40xBatchAVX2(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, p int, out *float32, pf int)
// The sixteen rows of a tile (w, nb blocks) for p = 2, 3 or 4 positions:
// position k's quants at y + k*ystride, its scales and biases at d +
// k*dstride and bias + k*dstride (elements); out[16*k+r] for row r. pf > 0
// prefetches the bytes pf ahead of those read, pf = 0 none.
TEXT ·q40xBatchAVX2(SB), NOSPLIT, $0-80
	MOVQ w+0(FP), SI
	MOVQ nb+8(FP), CX
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), AX
	LEAQ (AX)(AX*2), R8
	MOVQ d+32(FP), DX
	MOVQ bias+40(FP), BX
	MOVQ dstride+48(FP), R9
	SHLQ $2, R9          // bytes
	LEAQ (R9)(R9*2), R10
	MOVQ p+56(FP), R13
	MOVQ out+64(FP), R11
	MOVQ pf+72(FP), R12
	VPXOR   Y0, Y0, Y0
	VMOVUPS Y0, (R11)
	VMOVUPS Y0, 32(R11)
	VMOVUPS Y0, 64(R11)
	VMOVUPS Y0, 96(R11)
	CMPQ    R13, $3
	JLT     q4xb2pair
	VMOVUPS Y0, 128(R11)
	VMOVUPS Y0, 160(R11)
	JEQ     q4xb3pair
	VMOVUPS Y0, 192(R11)
	VMOVUPS Y0, 224(R11)

q4xb4pair:
	CMPQ CX, $2
	JLT  q4xb4single
	Q4XB_PF(q4xb4nopf)

q4xb4nopf:
	Q4XB_BLOCK4(0, 512, 0, 0)
	Q4XB_BLOCK4(256, 544, 32, 4)
	Q4XB_NEXT
	JMP q4xb4pair

q4xb4single:
	TESTQ CX, CX
	JZ    q4xbdone
	Q4XB_BLOCK4(0, 256, 0, 0)
	JMP   q4xbdone

q4xb3pair:
	CMPQ CX, $2
	JLT  q4xb3single
	Q4XB_PF(q4xb3nopf)

q4xb3nopf:
	Q4XB_BLOCK3(0, 512, 0, 0)
	Q4XB_BLOCK3(256, 544, 32, 4)
	Q4XB_NEXT
	JMP q4xb3pair

q4xb3single:
	TESTQ CX, CX
	JZ    q4xbdone
	Q4XB_BLOCK3(0, 256, 0, 0)
	JMP   q4xbdone

q4xb2pair:
	CMPQ CX, $2
	JLT  q4xb2single
	Q4XB_PF(q4xb2nopf)

q4xb2nopf:
	Q4XB_BLOCK2(0, 512, 0, 0)
	Q4XB_BLOCK2(256, 544, 32, 4)
	Q4XB_NEXT
	JMP q4xb2pair

q4xb2single:
	TESTQ CX, CX
	JZ    q4xbdone
	Q4XB_BLOCK2(0, 256, 0, 0)

q4xbdone:
	VZEROUPPER
	RET

// The eight-position kernel runs the four-position block twice per block,
// for positions 0-3 and then 4-7, so that it reads the tile in one pass:
// the second four find the block in L1, and the stream from memory, which
// the prefetches keep ahead, overlaps the work of all eight. Two passes of
// the four-position kernel over the tile leave memory idle during the
// second (5632×2048 from DRAM, two threads, Zen 4 EPYC, AVX2 set: 0.45-0.46
// ms two passes, 0.38-0.39 one, 0.35 with the matrix in cache). Unpacking
// the weights once for all eight (eight rows at a time, to free registers
// for eight positions' sums) measured slower than unpacking them twice:
// each broadcast activation then serves eight rows instead of sixteen.

// Q4XB_SWAP: exchanges the first four positions' bases with the second
// four's, and moves out between their accumulators (by +256 or -256).
#define Q4XB_SWAP(OFF) \
	XCHGQ DI, R13; \
	XCHGQ DX, R14; \
	XCHGQ BX, R12; \
	ADDQ  $OFF, R11

// func q40xBatch8AVX2(w *byte, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, out *float32, pf int)
// The sixteen rows of a tile (w, nb blocks) for eight positions, laid out
// as for q40xBatchAVX2: out[16*k+r]. pf > 0 prefetches the bytes pf ahead
// of those read, pf = 0 none. The block count is kept in its argument slot:
// the pointers of both fours take every other general register.
TEXT ·q40xBatch8AVX2(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+16(FP), DI
	MOVQ ystride+24(FP), AX
	LEAQ (AX)(AX*2), R8
	LEAQ (DI)(AX*4), R13
	MOVQ d+32(FP), DX
	MOVQ bias+40(FP), BX
	MOVQ dstride+48(FP), R9
	SHLQ $2, R9          // bytes
	LEAQ (R9)(R9*2), R10
	LEAQ (DX)(R9*4), R14
	LEAQ (BX)(R9*4), R12
	MOVQ out+56(FP), R11
	MOVQ pf+64(FP), CX
	VPXOR   Y0, Y0, Y0
	VMOVUPS Y0, (R11)
	VMOVUPS Y0, 32(R11)
	VMOVUPS Y0, 64(R11)
	VMOVUPS Y0, 96(R11)
	VMOVUPS Y0, 128(R11)
	VMOVUPS Y0, 160(R11)
	VMOVUPS Y0, 192(R11)
	VMOVUPS Y0, 224(R11)
	VMOVUPS Y0, 256(R11)
	VMOVUPS Y0, 288(R11)
	VMOVUPS Y0, 320(R11)
	VMOVUPS Y0, 352(R11)
	VMOVUPS Y0, 384(R11)
	VMOVUPS Y0, 416(R11)
	VMOVUPS Y0, 448(R11)
	VMOVUPS Y0, 480(R11)

q4x8pair:
	CMPQ nb+8(FP), $2
	JLT  q4x8single
	TESTQ      CX, CX
	JZ         q4x8nopf
	PREFETCHT0 0(SI)(CX*1)
	PREFETCHT0 64(SI)(CX*1)
	PREFETCHT0 128(SI)(CX*1)
	PREFETCHT0 192(SI)(CX*1)
	PREFETCHT0 256(SI)(CX*1)
	PREFETCHT0 320(SI)(CX*1)
	PREFETCHT0 384(SI)(CX*1)
	PREFETCHT0 448(SI)(CX*1)
	PREFETCHT0 512(SI)(CX*1)

q4x8nopf:
	Q4XB_BLOCK4(0, 512, 0, 0)
	Q4XB_SWAP(256)
	Q4XB_BLOCK4(0, 512, 0, 0)
	Q4XB_SWAP(-256)
	Q4XB_BLOCK4(256, 544, 32, 4)
	Q4XB_SWAP(256)
	Q4XB_BLOCK4(256, 544, 32, 4)
	Q4XB_SWAP(-256)
	ADDQ $576, SI
	ADDQ $64, DI
	ADDQ $64, R13
	ADDQ $8, DX
	ADDQ $8, R14
	ADDQ $8, BX
	ADDQ $8, R12
	SUBQ $2, nb+8(FP)
	JMP  q4x8pair

q4x8single:
	CMPQ nb+8(FP), $0
	JEQ  q4x8done
	Q4XB_BLOCK4(0, 256, 0, 0)
	Q4XB_SWAP(256)
	Q4XB_BLOCK4(0, 256, 0, 0)

q4x8done:
	VZEROUPPER
	RET

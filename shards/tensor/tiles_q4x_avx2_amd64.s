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

// Q4XH_P: quant group K (low nibbles in Y8, high in Y9) against the
// activations at YO(YP) of one position, into its 16-bit sums ACC.
#define Q4XH_P(YO, K, YP, ACC) \
	VPBROADCASTD (YO+4*K)(YP), Y10;    \
	VPBROADCASTD (YO+16+4*K)(YP), Y11; \
	VPMADDUBSW   Y10, Y8, Y10;         \
	VPMADDUBSW   Y11, Y9, Y11;         \
	VPADDW       Y10, ACC, ACC;        \
	VPADDW       Y11, ACC, ACC

// Q4XH_K: quant group K of eight rows (quants at Q(SI)) for four positions.
#define Q4XH_K(Q, YO, K) \
	VMOVDQU (Q+64*K)(SI), Y8;  \
	VPSRLW  $4, Y8, Y9;        \
	VPAND   Y14, Y8, Y8;       \
	VPAND   Y14, Y9, Y9;       \
	Q4XH_P(YO, K, DI, Y4);     \
	Q4XH_P(YO, K, R8, Y5);     \
	Q4XH_P(YO, K, R9, Y6);     \
	Q4XH_P(YO, K, R10, Y7)

// Q4XH_END: the block's float step for one position: its sums ACCW (reset
// for the next block), its scale and bias at DO(DP) and DO(DP)(R15*1), the
// rows' scales in Y12, the accumulator ACC.
#define Q4XH_END(DO, DP, ACCW, ACC) \
	VPMADDWD     Y15, ACCW, ACCW;       \
	VPBROADCASTD DO(DP)(R15*1), Y10;    \
	VPADDD       Y10, ACCW, ACCW;       \
	VCVTDQ2PS    ACCW, ACCW;            \
	VBROADCASTSS DO(DP), Y11;           \
	VMULPS       Y11, Y12, Y11;         \
	VFMADD231PS  ACCW, Y11, ACC;        \
	VPXOR        ACCW, ACCW, ACCW

// Q4XH_BLOCK: one block of eight rows (quants at Q(SI), scales at S(R11))
// for the four positions.
#define Q4XH_BLOCK(Q, S, YO, DO) \
	Q4XH_K(Q, YO, 0);                  \
	Q4XH_K(Q, YO, 1);                  \
	Q4XH_K(Q, YO, 2);                  \
	Q4XH_K(Q, YO, 3);                  \
	VCVTPH2PS S(R11), Y12;             \
	Q4XH_END(DO, DX, Y4, Y0);          \
	Q4XH_END(DO, R12, Y5, Y1);         \
	Q4XH_END(DO, R13, Y6, Y2);         \
	Q4XH_END(DO, R14, Y7, Y3)

// func q40xHalf4AVX2(w *byte, half int, nb int, y *int8, ystride int, d *float32, bias *int32, dstride int, out *float32, pf int)
// Rows 8*half..8*half+7 of a tile (w, nb blocks) for four positions:
// position k's quants at y + k*ystride, its scales and biases at d +
// k*dstride and bias + k*dstride (elements); out[k*16+8*half+r].
TEXT ·q40xHalf4AVX2(SB), NOSPLIT, $0-80
	MOVQ w+0(FP), SI
	MOVQ half+8(FP), AX
	MOVQ SI, R11
	SHLQ $4, AX
	ADDQ AX, R11 // scales of the half: 16 bytes in
	ADDQ AX, SI
	ADDQ AX, SI  // quants of the half: 32 bytes in
	MOVQ nb+16(FP), CX
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), AX
	LEAQ (DI)(AX*1), R8
	LEAQ (R8)(AX*1), R9
	LEAQ (R9)(AX*1), R10
	MOVQ d+40(FP), DX
	MOVQ bias+48(FP), R15
	SUBQ DX, R15 // bias - d: the biases sit at the same offsets
	MOVQ pf+72(FP), BX
	MOVQ dstride+56(FP), AX
	LEAQ (DX)(AX*4), R12
	LEAQ (R12)(AX*4), R13
	LEAQ (R13)(AX*4), R14
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2
	VPXOR   Y3, Y3, Y3
	VPXOR   Y4, Y4, Y4
	VPXOR   Y5, Y5, Y5
	VPXOR   Y6, Y6, Y6
	VPXOR   Y7, Y7, Y7
	VMOVDQU q4xavxMask<>(SB), Y14
	VMOVDQU q4xavxOnes<>(SB), Y15

q4xh2pair:
	CMPQ  CX, $2
	JLT   q4xh2single
	TESTQ BX, BX
	JZ    q4xh2nopf
	PREFETCHT0 0(SI)(BX*1)
	PREFETCHT0 64(SI)(BX*1)
	PREFETCHT0 128(SI)(BX*1)
	PREFETCHT0 192(SI)(BX*1)
	PREFETCHT0 256(SI)(BX*1)
	PREFETCHT0 320(SI)(BX*1)
	PREFETCHT0 384(SI)(BX*1)
	PREFETCHT0 448(SI)(BX*1)
	PREFETCHT0 512(SI)(BX*1)

q4xh2nopf:
	Q4XH_BLOCK(0, 512, 0, 0)
	Q4XH_BLOCK(256, 544, 32, 4)
	ADDQ $576, SI
	ADDQ $576, R11
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $8, DX
	ADDQ $8, R12
	ADDQ $8, R13
	ADDQ $8, R14
	SUBQ $2, CX
	JMP  q4xh2pair

q4xh2single:
	TESTQ CX, CX
	JZ    q4xh2done
	Q4XH_BLOCK(0, 256, 0, 0)

q4xh2done:
	MOVQ    out+64(FP), AX
	MOVQ    half+8(FP), CX
	SHLQ    $5, CX
	ADDQ    CX, AX
	VMOVUPS Y0, (AX)
	VMOVUPS Y1, 64(AX)
	VMOVUPS Y2, 128(AX)
	VMOVUPS Y3, 192(AX)
	VZEROUPPER
	RET

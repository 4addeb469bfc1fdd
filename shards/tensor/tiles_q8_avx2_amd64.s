//go:build amd64 && !purego

#include "textflag.h"

// AVX2 tile kernels for row-major Q8_0 (tiles_q8_avx2_amd64.go). Each row
// keeps llama.cpp's order of dotQ8_0: per block, lane l of an 8-lane
// accumulator takes fma(dx*dy, float(products of bytes 4l..4l+3), acc)
// (integer products exact whatever the instructions: VPSIGNB/VPMADDUBSW/
// VPMADDWD as ggml's mul_sum_i8_pairs for one position, 16-bit VPMADDWD
// for the batch), then hsum8.

DATA q8avxOnes<>+0(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+8(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+16(SB)/8, $0x0001000100010001
DATA q8avxOnes<>+24(SB)/8, $0x0001000100010001
GLOBL q8avxOnes<>(SB), RODATA|NOPTR, $32

// Q8V_ROW: the block at OFF+BASE (scale, then 32 quants) of one row
// against activations YA with activation scale YD (every lane), into ACC.
#define Q8V_ROW(OFF, BASE, YA, YD, ACC) \
	VMOVDQU      (OFF+2)BASE, Y8; \
	VPSIGNB      Y8, YA, Y9;      \
	VPSIGNB      Y8, Y8, Y8;      \
	VPMADDUBSW   Y9, Y8, Y8;      \
	VPMADDWD     Y15, Y8, Y8;     \
	VCVTDQ2PS    Y8, Y8;          \
	VPBROADCASTW (OFF)BASE, X10;  \
	VCVTPH2PS    X10, Y10;        \
	VMULPS       YD, Y10, Y10;    \
	VFMADD231PS  Y10, Y8, ACC

// Q8_FIN: hsum8 of ACC (canonical order) into X11, stored at DST.
#define Q8_FIN(ACC, XACC, DST) \
	VEXTRACTF128 $1, ACC, X11; \
	VADDPS       XACC, X11, X11; \
	VMOVHLPS     X11, X11, X12; \
	VADDPS       X12, X11, X11; \
	VMOVSHDUP    X11, X12;      \
	VADDSS       X12, X11, X11; \
	VMOVSS       X11, DST

// func q80Vec4AVX2(w *byte, rs int, y *int8, d *float32, nb int, next int, out *[4]float32)
// Four rows (rs bytes apart) for one position, two blocks per row and
// iteration (a row stream then advances a cache line at a time). next > 0:
// the bytes from w+next on (the rows after these) are prefetched at the
// pace these are read, as the hardware prefetchers follow four
// interleaved row streams badly.
TEXT ·q80Vec4AVX2(SB), NOSPLIT, $0-56
	MOVQ  w+0(FP), SI
	MOVQ  rs+8(FP), R8
	MOVQ  y+16(FP), DI
	MOVQ  d+24(FP), DX
	MOVQ  nb+32(FP), CX
	MOVQ  next+40(FP), BX
	TESTQ BX, BX
	JZ    q8v4nextok
	ADDQ  SI, BX

q8v4nextok:
	LEAQ    (R8)(R8*2), R9
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2
	VPXOR   Y3, Y3, Y3
	VMOVDQU q8avxOnes<>(SB), Y15

q8v4loop2:
	CMPQ         CX, $2
	JLT          q8v4tail
	VMOVDQU      (DI), Y4
	VBROADCASTSS (DX), Y5
	VMOVDQU      32(DI), Y6
	VBROADCASTSS 4(DX), Y7
	Q8V_ROW(0, (SI), Y4, Y5, Y0)
	Q8V_ROW(34, (SI), Y6, Y7, Y0)
	Q8V_ROW(0, (SI)(R8*1), Y4, Y5, Y1)
	Q8V_ROW(34, (SI)(R8*1), Y6, Y7, Y1)
	Q8V_ROW(0, (SI)(R8*2), Y4, Y5, Y2)
	Q8V_ROW(34, (SI)(R8*2), Y6, Y7, Y2)
	Q8V_ROW(0, (SI)(R9*1), Y4, Y5, Y3)
	Q8V_ROW(34, (SI)(R9*1), Y6, Y7, Y3)
	TESTQ        BX, BX
	JZ           q8v4nopf
	// 4*68 = 272 bytes a step: five lines cover them whatever the
	// alignment.
	PREFETCHT0   0(BX)
	PREFETCHT0   64(BX)
	PREFETCHT0   128(BX)
	PREFETCHT0   192(BX)
	PREFETCHT0   256(BX)
	ADDQ         $272, BX

q8v4nopf:
	ADDQ $68, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q8v4loop2

q8v4tail:
	TESTQ        CX, CX
	JZ           q8v4done
	VMOVDQU      (DI), Y4
	VBROADCASTSS (DX), Y5
	Q8V_ROW(0, (SI), Y4, Y5, Y0)
	Q8V_ROW(0, (SI)(R8*1), Y4, Y5, Y1)
	Q8V_ROW(0, (SI)(R8*2), Y4, Y5, Y2)
	Q8V_ROW(0, (SI)(R9*1), Y4, Y5, Y3)

q8v4done:
	MOVQ out+48(FP), AX
	Q8_FIN(Y0, X0, 0(AX))
	Q8_FIN(Y1, X1, 4(AX))
	Q8_FIN(Y2, X2, 8(AX))
	Q8_FIN(Y3, X3, 12(AX))
	VZEROUPPER
	RET

// Q8W_P: one position's 16-bit activations (even elements at YE, odd at
// YO) against both rows' widened weights (Y8/Y9 row 0 even/odd, Y10/Y11
// row 1), into A0 and A1; the scale products dx*dy at SPA and SPB (SP).
#define Q8W_P(YE, YO, SPA, SPB, A0, A1) \
	VPMADDWD     YE, Y8, Y12;       \
	VPMADDWD     YO, Y9, Y13;       \
	VPMADDWD     YE, Y10, Y14;      \
	VPMADDWD     YO, Y11, Y15;      \
	VPADDD       Y13, Y12, Y12;     \
	VPADDD       Y15, Y14, Y14;     \
	VCVTDQ2PS    Y12, Y12;          \
	VCVTDQ2PS    Y14, Y14;          \
	VBROADCASTSS SPA(SP), Y13;      \
	VFMADD231PS  Y13, Y12, A0;      \
	VBROADCASTSS SPB(SP), Y15;      \
	VFMADD231PS  Y15, Y14, A1

// func q80Batch2xNAVX2(w *byte, rs int, y *int16, ystride int, d4 *float32, nb int, groups int, next int, out *float32, ostride int)
// Two rows (rs bytes apart) for groups×4 positions, four positions at a
// time; out[ostride*p+r]. The activations are 16-bit (acts.w16: per
// block the 16 even elements, then the 16 odd ones; positions ystride
// bytes apart). Per block, each row's 32 quants are loaded once and
// sign-extended in place into their even and odd bytes (VPSLLW/VPSRAW),
// and a unit (one row, one position) is then VPMADDWD even, VPMADDWD odd,
// VPADDD: dword lane l is exactly the integer lane l (elements 4l..4l+3)
// of the canonical order, with no sign trick (VPSIGNB, or (a^m)-m) and no
// VPMADDWD by ones: one vector instruction a unit fewer than with 8-bit
// activations (VPMADDUBSW).
//
// d4 holds the positions' activation scales four by four (acts.d4: per
// group of four positions, per block, the four scales), so that one
// VBROADCASTF128 loads a block's from one sequential stream (gathering
// them with VINSERTPS from four strided streams cost little with
// everything in cache, but 12% of a whole TinyLlama prefill: 54 -> 61.6
// tok/s). Per block, one VMULPS forms the eight scale products dx*dy (the
// bits of the scalar products) and stores them on the stack, where each
// unit broadcasts its own from memory: no shuffle per unit. Staying in the
// kernel for all the groups saves a call and a scatter per four
// positions. next as for q80Vec4AVX2, during the first group only.
//
// Cost on the Zen 2 EPYC (BenchmarkQ8BatchAVX2Cycles): 3.04 cycles per
// 32-element block of one row and one position, where the two multiplies
// (VPMADDWD, one pipe) need 2; the 8-bit kernel this replaced, 3.15-3.2
// (VPSIGNB, or (a^m)-m, then VPMADDUBSW, VPMADDWD by ones). Every vector
// instruction beside the multiplies costs about a third of a cycle
// whichever pipe it takes (measured by leaving each out: VFMADD231PS ->
// VADDPS 0.15 a unit, VCVTDQ2PS 0.33, the scale VBROADCASTSS 0.23, the
// per-block scale products 0.17 a unit; without all of them 2.07). Also
// measured and no faster: the activations loaded once into registers for
// both rows (3.15: an explicit load costs like an instruction, a folded
// one does not), and, for the 8-bit kernel, the weights held in registers,
// the float step one position behind the integer step, two blocks an
// iteration, an exact int-to-float via VPADDD/VSUBPS of 0x4b400000 in
// place of VCVTDQ2PS, and lanes 0..3 and 4..7 of both rows in one register
// each. For this kernel, also no faster: the two rows' quants widened and
// their scales spread once per call (in chunks of 32 blocks, into the
// frame) instead of once per group, read back with four loads a block
// (3.12-3.37 against 3.07-3.15 alternated; an explicit load costs about
// as much as the shifts it saves), and the scales stored twice in d4 to
// be a VMULPS operand with the row scales spread by one VPSHUFB
// (BenchmarkQ8Prefill within 1%), and one row for eight positions (its
// block widened and its eight scale products formed once for eight
// units: about 2 shared instructions a unit instead of 2.75), 3.10-3.25
// against 3.10-3.26: what bounds the kernel is the six instructions of
// each unit, not the per-block work.
TEXT ·q80Batch2xNAVX2(SB), NOSPLIT, $40-80
	MOVQ  w+0(FP), R14
	MOVQ  rs+8(FP), R8
	MOVQ  ystride+24(FP), R10
	MOVQ  y+16(FP), AX
	MOVQ  AX, 32(SP)
	MOVQ  d4+32(FP), DX
	MOVQ  groups+48(FP), R9
	MOVQ  next+56(FP), BX
	TESTQ BX, BX
	JZ    q8w24nextok
	ADDQ  R14, BX

q8w24nextok:
	MOVQ out+64(FP), AX

q8w24group:
	MOVQ  R14, SI
	MOVQ  32(SP), DI
	LEAQ  (DI)(R10*2), R11
	ADDQ  R10, R11
	MOVQ  nb+40(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

q8w24loop:
	VMOVDQU        2(SI), Y8
	VMOVDQU        2(SI)(R8*1), Y10
	VPSRAW         $8, Y8, Y9
	VPSRAW         $8, Y10, Y11
	VPSLLW         $8, Y8, Y8
	VPSLLW         $8, Y10, Y10
	VPSRAW         $8, Y8, Y8
	VPSRAW         $8, Y10, Y10
	VBROADCASTF128 (DX), Y14
	VPBROADCASTW   (SI), X12
	VPBROADCASTW   (SI)(R8*1), X13
	VPUNPCKLQDQ    X13, X12, X12
	VCVTPH2PS      X12, Y12
	VMULPS         Y14, Y12, Y12
	VMOVUPS        Y12, (SP)
	Q8W_P((DI), 32(DI), 0, 16, Y0, Y4)
	Q8W_P((DI)(R10*1), 32(DI)(R10*1), 4, 20, Y1, Y5)
	Q8W_P((DI)(R10*2), 32(DI)(R10*2), 8, 24, Y2, Y6)
	Q8W_P((R11), 32(R11), 12, 28, Y3, Y7)
	TESTQ          BX, BX
	JZ             q8w24nopf
	PREFETCHT0     0(BX)
	PREFETCHT0     64(BX)
	ADDQ           $68, BX

q8w24nopf:
	ADDQ $34, SI
	ADDQ $64, DI
	ADDQ $64, R11
	ADDQ $16, DX
	DECQ CX
	JNZ  q8w24loop

	MOVQ ostride+72(FP), CX
	SHLQ $2, CX
	LEAQ (AX)(CX*2), R11
	ADDQ CX, R11
	Q8_FIN(Y0, X0, 0(AX))
	Q8_FIN(Y4, X4, 4(AX))
	Q8_FIN(Y1, X1, 0(AX)(CX*1))
	Q8_FIN(Y5, X5, 4(AX)(CX*1))
	Q8_FIN(Y2, X2, 0(AX)(CX*2))
	Q8_FIN(Y6, X6, 4(AX)(CX*2))
	Q8_FIN(Y3, X3, 0(R11))
	Q8_FIN(Y7, X7, 4(R11))
	LEAQ (AX)(CX*4), AX
	XORQ BX, BX
	MOVQ 32(SP), DI
	LEAQ (DI)(R10*4), DI
	MOVQ DI, 32(SP)
	DECQ R9
	JNZ  q8w24group
	VZEROUPPER
	RET

// func widenQ8AVX2(qs *int8, w *int16, nb int)
// Per block: word k of the even half is byte 2k sign-extended (shifted up
// and arithmetically back), of the odd half byte 2k+1 (shifted down).
TEXT ·widenQ8AVX2(SB), NOSPLIT, $0-24
	MOVQ qs+0(FP), SI
	MOVQ w+8(FP), DI
	MOVQ nb+16(FP), CX

q8wideloop:
	VMOVDQU (SI), Y0
	VPSLLW  $8, Y0, Y1
	VPSRAW  $8, Y0, Y0
	VPSRAW  $8, Y1, Y1
	VMOVDQU Y1, (DI)
	VMOVDQU Y0, 32(DI)
	ADDQ    $32, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     q8wideloop
	VZEROUPPER
	RET

// func q80Batch2x32TAVX2(w *byte, rs int, y *int16, nb int, d8 *float32, next int, out *[64]float32)
// Two rows (rs bytes apart) for 32 positions, four groups of eight
// (acts.t16 and acts.d8 at the first group); out[32*r+p]. Transposed: a
// vector lane is a position, and the kernel takes the canonical lanes
// l = 0..7 one after the other (each is its own float chain over the
// blocks), so that per block and lane a unit (one row, eight positions)
// is two VPMADDWD of the positions' 16-bit pairs (acts.t16: per group,
// lane and block, for each position the dword (a[4l], a[4l+2]), then
// (a[4l+1], a[4l+3])) with the row's pair words (one VPBROADCASTD of the
// lane's four weight bytes, sign-extended by shifts, per row and block),
// VPADDD, VCVTDQ2PS and one VFMADD231PS whose scale operand, dx*dy for
// the eight positions, comes from a table (2 rows × 4 groups × 8 a
// block, in the frame) that lane 0's pass fills as it goes, per chunk of
// 32 blocks (acts.d8: per posTile, block and group the eight positions'
// dy): no broadcast of a scale and no per-block scale work in the units
// of lanes 1..7. Between chunks the lanes' accumulators wait in the
// frame; at the end the canonical hsum8 adds them vertically. next as
// for q80Vec4AVX2 (during lane 0's passes).
//
// Cost on the Zen 2 EPYC, everything in cache (BenchmarkQ8BatchAVX2Cycles,
// cycles per block of one row and one position): 2.74, against 3.03 for
// q80Batch2xNAVX2 (2.83 with the table built in a pass of its own, bound
// by its stores: 0.16 a unit). What bounds both: VPMADDWD has one pipe (two a unit:
// 2.0 alone, 2.26 with a VADDPS), and each VFMADD231PS lands on that
// pipe about half the time (+0.3-0.45 each); VPADDD, VCVTDQ2PS, shifts,
// logic and shuffles alone are nearly free (+0.03-0.1 each), but with
// the multiplies, VPADDD, VCVTDQ2PS and VFMADD231PS chained behind them
// the unit took 3.08 in program order and 2.62 with the chain's
// dependencies cut (the bound of this mix): the block's eight units are
// therefore issued as a pipeline (the multiplies of a unit two units
// before its VPADDD, VCVTDQ2PS and VFMADD231PS), row 0's four then row
// 1's, so that the row's weights need two registers and six are left
// for the units in flight (measured with the table's own pass: 2.83;
// other distances 2.83-2.94; four temporaries and both rows' weights
// held, 2.96-2.98); lane 0, whose rows' dx take two registers, runs its
// units one behind with four. Also measured: the
// weights widened once per chunk into the frame and broadcast from
// there (no shifts in the loop), 2.93; the units' float steps carried
// over into the next block's iteration, 2.85-2.95; a table of 64 blocks,
// slower in MatMul (it and the activations no longer fit L1 together);
// the table at an unaligned stack address, 2% slower in MatMul.
//
// Frame: seven 8-byte slots (the chunk's w, y, d8, blocks left, chunk
// length, a first-chunk flag, the table's address), then, 32-byte
// aligned, the table (8192 bytes) and the accumulators (2048: per lane,
// row and group eight floats).
TEXT ·q80Batch2x32TAVX2(SB), 0, $10336-56
	LEAQ 95(SP), AX
	ANDQ $~31, AX
	MOVQ AX, 48(SP)            // the table, 32-byte aligned
	MOVQ w+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ y+16(FP), AX
	MOVQ AX, 8(SP)
	MOVQ d8+32(FP), AX
	MOVQ AX, 16(SP)
	MOVQ nb+24(FP), AX
	MOVQ AX, 24(SP)
	MOVQ $1, 40(SP)
	MOVQ rs+8(FP), R8
	MOVQ next+40(FP), R12
	TESTQ R12, R12
	JZ   q8tchunk
	ADDQ w+0(FP), R12

q8tchunk:
	MOVQ 24(SP), CX
	CMPQ CX, $32
	JLE  q8tcb
	MOVQ $32, CX

q8tcb:
	MOVQ CX, 32(SP)

	MOVQ nb+24(FP), R10
	SHLQ $9, R10               // group stride: 8 positions × nb*32 int16
	LEAQ (R10)(R10*2), R11
	MOVQ nb+24(FP), R13
	SHLQ $6, R13               // lane stride: nb*64 bytes
	MOVQ 48(SP), AX
	ADDQ $8192, AX
	XORQ R9, R9                // lane l

q8tlane:
	CMPQ  40(SP), $0
	JEQ   q8tload
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	JMP   q8tlanego

q8tload:
	VMOVUPS 0(AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS 64(AX), Y2
	VMOVUPS 96(AX), Y3
	VMOVUPS 128(AX), Y4
	VMOVUPS 160(AX), Y5
	VMOVUPS 192(AX), Y6
	VMOVUPS 224(AX), Y7

q8tlanego:
	// SI: the lane's weight bytes in the chunk's first block of row 0;
	// DI: its activations in group 0; DX: the table.
	MOVQ  0(SP), SI
	LEAQ  2(SI)(R9*4), SI
	MOVQ  R13, DI
	IMULQ R9, DI
	ADDQ  8(SP), DI
	MOVQ  48(SP), DX
	MOVQ  32(SP), CX
	TESTQ R9, R9
	JNZ   q8tblock

	// Lane 0 also builds the table: per block, rows 0 and 1, the four
	// groups' dx*dy, each used at once and stored for lanes 1..7.
	MOVQ 16(SP), R14

q8t0block:
	VPBROADCASTD (SI), Y8
	VPSRAW       $8, Y8, Y9
	VPSLLW       $8, Y8, Y8
	VPSRAW       $8, Y8, Y8
	VPBROADCASTW -2(SI), X10
	VCVTPH2PS    X10, Y10
	VPMADDWD     (DI), Y8, Y12
	VPMADDWD     32(DI), Y9, Y13
	VPMADDWD     (DI)(R10*1), Y8, Y14
	VPMADDWD     32(DI)(R10*1), Y9, Y15
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VMULPS       0(R14), Y10, Y13
	VMOVUPS      Y13, 0(DX)
	VFMADD231PS  Y13, Y12, Y0
	VPMADDWD     (DI)(R10*2), Y8, Y12
	VPMADDWD     32(DI)(R10*2), Y9, Y13
	VPADDD       Y15, Y14, Y14
	VCVTDQ2PS    Y14, Y14
	VMULPS       32(R14), Y10, Y15
	VMOVUPS      Y15, 32(DX)
	VFMADD231PS  Y15, Y14, Y1
	VPMADDWD     (DI)(R11*1), Y8, Y14
	VPMADDWD     32(DI)(R11*1), Y9, Y15
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VMULPS       64(R14), Y10, Y13
	VMOVUPS      Y13, 64(DX)
	VFMADD231PS  Y13, Y12, Y2
	VPBROADCASTD (SI)(R8*1), Y8
	VPSRAW       $8, Y8, Y9
	VPSLLW       $8, Y8, Y8
	VPSRAW       $8, Y8, Y8
	VPBROADCASTW -2(SI)(R8*1), X11
	VCVTPH2PS    X11, Y11
	VPMADDWD     (DI), Y8, Y12
	VPMADDWD     32(DI), Y9, Y13
	VPADDD       Y15, Y14, Y14
	VCVTDQ2PS    Y14, Y14
	VMULPS       96(R14), Y10, Y15
	VMOVUPS      Y15, 96(DX)
	VFMADD231PS  Y15, Y14, Y3
	VPMADDWD     (DI)(R10*1), Y8, Y14
	VPMADDWD     32(DI)(R10*1), Y9, Y15
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VMULPS       0(R14), Y11, Y13
	VMOVUPS      Y13, 128(DX)
	VFMADD231PS  Y13, Y12, Y4
	VPMADDWD     (DI)(R10*2), Y8, Y12
	VPMADDWD     32(DI)(R10*2), Y9, Y13
	VPADDD       Y15, Y14, Y14
	VCVTDQ2PS    Y14, Y14
	VMULPS       32(R14), Y11, Y15
	VMOVUPS      Y15, 160(DX)
	VFMADD231PS  Y15, Y14, Y5
	VPMADDWD     (DI)(R11*1), Y8, Y14
	VPMADDWD     32(DI)(R11*1), Y9, Y15
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VMULPS       64(R14), Y11, Y13
	VMOVUPS      Y13, 192(DX)
	VFMADD231PS  Y13, Y12, Y6
	VPADDD       Y15, Y14, Y14
	VCVTDQ2PS    Y14, Y14
	VMULPS       96(R14), Y11, Y12
	VMOVUPS      Y12, 224(DX)
	VFMADD231PS  Y12, Y14, Y7
	TESTQ        R12, R12
	JZ           q8t0nopf
	PREFETCHT0   0(R12)
	PREFETCHT0   64(R12)
	ADDQ         $68, R12

q8t0nopf:
	ADDQ         $34, SI
	ADDQ         $64, DI
	ADDQ         $256, DX
	ADDQ         $128, R14
	DECQ         CX
	JNZ          q8t0block
	JMP          q8tlanedone

q8tblock:
	VPBROADCASTD (SI), Y8
	VPSRAW       $8, Y8, Y9
	VPSLLW       $8, Y8, Y8
	VPSRAW       $8, Y8, Y8
	VPMADDWD     (DI), Y8, Y10
	VPMADDWD     32(DI), Y9, Y11
	VPMADDWD     (DI)(R10*1), Y8, Y12
	VPMADDWD     32(DI)(R10*1), Y9, Y13
	VPMADDWD     (DI)(R10*2), Y8, Y14
	VPMADDWD     32(DI)(R10*2), Y9, Y15
	VPADDD       Y11, Y10, Y10
	VCVTDQ2PS    Y10, Y10
	VFMADD231PS  0(DX), Y10, Y0
	VPMADDWD     (DI)(R11*1), Y8, Y11
	VPMADDWD     32(DI)(R11*1), Y9, Y10
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VFMADD231PS  32(DX), Y12, Y1
	VPBROADCASTD (SI)(R8*1), Y8
	VPSRAW       $8, Y8, Y9
	VPSLLW       $8, Y8, Y8
	VPSRAW       $8, Y8, Y8
	VPMADDWD     (DI), Y8, Y13
	VPMADDWD     32(DI), Y9, Y12
	VPADDD       Y15, Y14, Y14
	VCVTDQ2PS    Y14, Y14
	VFMADD231PS  64(DX), Y14, Y2
	VPMADDWD     (DI)(R10*1), Y8, Y15
	VPMADDWD     32(DI)(R10*1), Y9, Y14
	VPADDD       Y10, Y11, Y11
	VCVTDQ2PS    Y11, Y11
	VFMADD231PS  96(DX), Y11, Y3
	VPMADDWD     (DI)(R10*2), Y8, Y10
	VPMADDWD     32(DI)(R10*2), Y9, Y11
	VPADDD       Y12, Y13, Y13
	VCVTDQ2PS    Y13, Y13
	VFMADD231PS  128(DX), Y13, Y4
	VPMADDWD     (DI)(R11*1), Y8, Y12
	VPMADDWD     32(DI)(R11*1), Y9, Y13
	VPADDD       Y14, Y15, Y15
	VCVTDQ2PS    Y15, Y15
	VFMADD231PS  160(DX), Y15, Y5
	VPADDD       Y11, Y10, Y10
	VCVTDQ2PS    Y10, Y10
	VFMADD231PS  192(DX), Y10, Y6
	VPADDD       Y13, Y12, Y12
	VCVTDQ2PS    Y12, Y12
	VFMADD231PS  224(DX), Y12, Y7
	ADDQ                 $34, SI
	ADDQ                 $64, DI
	ADDQ                 $256, DX
	DECQ                 CX
	JNZ          q8tblock

q8tlanedone:
	VMOVUPS Y0, 0(AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, 64(AX)
	VMOVUPS Y3, 96(AX)
	VMOVUPS Y4, 128(AX)
	VMOVUPS Y5, 160(AX)
	VMOVUPS Y6, 192(AX)
	VMOVUPS Y7, 224(AX)
	ADDQ    $256, AX
	INCQ    R9
	CMPQ    R9, $8
	JLT     q8tlane

	// Next chunk.
	MOVQ $0, 40(SP)
	MOVQ 32(SP), CX
	IMUL3Q $34, CX, AX
	ADDQ AX, 0(SP)
	MOVQ CX, AX
	SHLQ $6, AX
	ADDQ AX, 8(SP)
	MOVQ CX, AX
	SHLQ $7, AX
	ADDQ AX, 16(SP)
	SUBQ CX, 24(SP)
	JNZ  q8tchunk

	// hsum8 in the canonical order, ((l0+l4)+(l2+l6))+((l1+l5)+(l3+l7)),
	// for the eight row-group vectors.
	MOVQ 48(SP), AX
	ADDQ $8192, AX
	MOVQ out+48(FP), DI
	MOVQ $8, CX

q8tfin:
	VMOVUPS 0(AX), Y0
	VMOVUPS 256(AX), Y1
	VMOVUPS 512(AX), Y2
	VMOVUPS 768(AX), Y3
	VADDPS  1024(AX), Y0, Y0
	VADDPS  1280(AX), Y1, Y1
	VADDPS  1536(AX), Y2, Y2
	VADDPS  1792(AX), Y3, Y3
	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS Y0, 0(DI)
	ADDQ    $32, AX
	ADDQ    $32, DI
	DECQ    CX
	JNZ     q8tfin
	VZEROUPPER
	RET

// func transposeQ8TAVX2(qs *int8, t *int16, nb int, j int)
// transposeQ8TGo: per block the 32 bytes as eight dwords (dword l = bytes
// 4l..4l+3) give, shifted as in q80Batch2xNAVX2, the pairs (a[4l], a[4l+2])
// (even bytes) and (a[4l+1], a[4l+3]) (odd bytes) in dword l, which go to
// lane l's rows, nb*64 bytes apart.
TEXT ·transposeQ8TAVX2(SB), NOSPLIT, $0-32
	MOVQ qs+0(FP), SI
	MOVQ t+8(FP), DI
	MOVQ nb+16(FP), CX
	MOVQ j+24(FP), AX
	LEAQ (DI)(AX*4), DI
	MOVQ CX, R8
	SHLQ $6, R8
	LEAQ (R8)(R8*2), R9
	LEAQ (DI)(R8*4), R10

q8tqloop:
	VMOVDQU      (SI), Y0
	VPSRAW       $8, Y0, Y1
	VPSLLW       $8, Y0, Y0
	VPSRAW       $8, Y0, Y0
	VEXTRACTI128 $1, Y0, X2
	VEXTRACTI128 $1, Y1, X3
	VMOVD        X0, (DI)
	VPEXTRD      $1, X0, (DI)(R8*1)
	VPEXTRD      $2, X0, (DI)(R8*2)
	VPEXTRD      $3, X0, (DI)(R9*1)
	VMOVD        X1, 32(DI)
	VPEXTRD      $1, X1, 32(DI)(R8*1)
	VPEXTRD      $2, X1, 32(DI)(R8*2)
	VPEXTRD      $3, X1, 32(DI)(R9*1)
	VMOVD        X2, (R10)
	VPEXTRD      $1, X2, (R10)(R8*1)
	VPEXTRD      $2, X2, (R10)(R8*2)
	VPEXTRD      $3, X2, (R10)(R9*1)
	VMOVD        X3, 32(R10)
	VPEXTRD      $1, X3, 32(R10)(R8*1)
	VPEXTRD      $2, X3, 32(R10)(R8*2)
	VPEXTRD      $3, X3, 32(R10)(R9*1)
	ADDQ         $32, SI
	ADDQ         $64, DI
	ADDQ         $64, R10
	DECQ         CX
	JNZ          q8tqloop
	VZEROUPPER
	RET

//go:build amd64 && !purego && !avx512sim

#include "textflag.h"
#include "prefetch_amd64.h"

// AVX-512 (BW, VL, VNNI) tile kernels for Q4_K and Q6_K. Each output is the
// canonical dot product of dot_generic.go: the integer lanes of a
// super-block are exact whatever instructions form them (here VPMADDUBSW
// or VPDPBUSD products, scaled and summed by VPDPWSSD), and the float steps of one
// (row, position) run in the order of the Go code: acc = fma(dx*dy,
// float(lanes), acc) per super-block into one 8-lane accumulator, the Q4_K
// mins into a 4-lane accumulator, then hsum8 (+ the mins' sum). Several
// rows are interleaved so that many independent accumulators are in flight
// and the activations are loaded once for all of them: zmm registers hold
// two rows, one per 256-bit half, each half following its own row's order.
// The one-position kernels (8 rows) prefetch the next 8 rows while they
// work; the batch kernels (2 rows x 8 positions) unpack each block's
// weights once for the eight positions.

// Constants. 64-byte tables hold the same 16 bytes in each 128-bit lane
// (VPSHUFB works within lanes); 0x80 selects a zero byte.
//
// Q4_K: one lane per row holds the block's first 16 bytes (d, dmin,
// scales[12]). k4shufa/k4shufb/k4mask* turn them into
// [sc0..3, m0..3, sc4..7, m4..7] (see kScaleMin), k4mins the mins into
// words; k4idxd/k4idxm (VPERMW) gather d resp. dmin of the four rows, four
// copies each.
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

// Batch tables (two rows, one per 256-bit half): kbsc<j> spreads scale j
// of each row into 16 words; kbmdup gives each row's mins as word pairs
// (m0,m0,m1,m1,...) to pair with the 16 bsums; kbidxd/kbidxm (VPERMW) give
// d resp. dmin of the two rows, eight copies each.
DATA kbsc0<>+0(SB)/8, $0x8000800080008000
DATA kbsc0<>+8(SB)/8, $0x8000800080008000
DATA kbsc0<>+16(SB)/8, $0x8000800080008000
DATA kbsc0<>+24(SB)/8, $0x8000800080008000
DATA kbsc0<>+32(SB)/8, $0x8000800080008000
DATA kbsc0<>+40(SB)/8, $0x8000800080008000
DATA kbsc0<>+48(SB)/8, $0x8000800080008000
DATA kbsc0<>+56(SB)/8, $0x8000800080008000
GLOBL kbsc0<>(SB), RODATA|NOPTR, $64
DATA kbsc1<>+0(SB)/8, $0x8001800180018001
DATA kbsc1<>+8(SB)/8, $0x8001800180018001
DATA kbsc1<>+16(SB)/8, $0x8001800180018001
DATA kbsc1<>+24(SB)/8, $0x8001800180018001
DATA kbsc1<>+32(SB)/8, $0x8001800180018001
DATA kbsc1<>+40(SB)/8, $0x8001800180018001
DATA kbsc1<>+48(SB)/8, $0x8001800180018001
DATA kbsc1<>+56(SB)/8, $0x8001800180018001
GLOBL kbsc1<>(SB), RODATA|NOPTR, $64
DATA kbsc2<>+0(SB)/8, $0x8002800280028002
DATA kbsc2<>+8(SB)/8, $0x8002800280028002
DATA kbsc2<>+16(SB)/8, $0x8002800280028002
DATA kbsc2<>+24(SB)/8, $0x8002800280028002
DATA kbsc2<>+32(SB)/8, $0x8002800280028002
DATA kbsc2<>+40(SB)/8, $0x8002800280028002
DATA kbsc2<>+48(SB)/8, $0x8002800280028002
DATA kbsc2<>+56(SB)/8, $0x8002800280028002
GLOBL kbsc2<>(SB), RODATA|NOPTR, $64
DATA kbsc3<>+0(SB)/8, $0x8003800380038003
DATA kbsc3<>+8(SB)/8, $0x8003800380038003
DATA kbsc3<>+16(SB)/8, $0x8003800380038003
DATA kbsc3<>+24(SB)/8, $0x8003800380038003
DATA kbsc3<>+32(SB)/8, $0x8003800380038003
DATA kbsc3<>+40(SB)/8, $0x8003800380038003
DATA kbsc3<>+48(SB)/8, $0x8003800380038003
DATA kbsc3<>+56(SB)/8, $0x8003800380038003
GLOBL kbsc3<>(SB), RODATA|NOPTR, $64
DATA kbsc4<>+0(SB)/8, $0x8008800880088008
DATA kbsc4<>+8(SB)/8, $0x8008800880088008
DATA kbsc4<>+16(SB)/8, $0x8008800880088008
DATA kbsc4<>+24(SB)/8, $0x8008800880088008
DATA kbsc4<>+32(SB)/8, $0x8008800880088008
DATA kbsc4<>+40(SB)/8, $0x8008800880088008
DATA kbsc4<>+48(SB)/8, $0x8008800880088008
DATA kbsc4<>+56(SB)/8, $0x8008800880088008
GLOBL kbsc4<>(SB), RODATA|NOPTR, $64
DATA kbsc5<>+0(SB)/8, $0x8009800980098009
DATA kbsc5<>+8(SB)/8, $0x8009800980098009
DATA kbsc5<>+16(SB)/8, $0x8009800980098009
DATA kbsc5<>+24(SB)/8, $0x8009800980098009
DATA kbsc5<>+32(SB)/8, $0x8009800980098009
DATA kbsc5<>+40(SB)/8, $0x8009800980098009
DATA kbsc5<>+48(SB)/8, $0x8009800980098009
DATA kbsc5<>+56(SB)/8, $0x8009800980098009
GLOBL kbsc5<>(SB), RODATA|NOPTR, $64
DATA kbsc6<>+0(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+8(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+16(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+24(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+32(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+40(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+48(SB)/8, $0x800a800a800a800a
DATA kbsc6<>+56(SB)/8, $0x800a800a800a800a
GLOBL kbsc6<>(SB), RODATA|NOPTR, $64
DATA kbsc7<>+0(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+8(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+16(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+24(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+32(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+40(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+48(SB)/8, $0x800b800b800b800b
DATA kbsc7<>+56(SB)/8, $0x800b800b800b800b
GLOBL kbsc7<>(SB), RODATA|NOPTR, $64
DATA kbmdup<>+0(SB)/8, $0x8005800580048004
DATA kbmdup<>+8(SB)/8, $0x8007800780068006
DATA kbmdup<>+16(SB)/8, $0x800d800d800c800c
DATA kbmdup<>+24(SB)/8, $0x800f800f800e800e
DATA kbmdup<>+32(SB)/8, $0x8005800580048004
DATA kbmdup<>+40(SB)/8, $0x8007800780068006
DATA kbmdup<>+48(SB)/8, $0x800d800d800c800c
DATA kbmdup<>+56(SB)/8, $0x800f800f800e800e
GLOBL kbmdup<>(SB), RODATA|NOPTR, $64
DATA kbidxd<>+0(SB)/8, $0x0000000000000000
DATA kbidxd<>+8(SB)/8, $0x0000000000000000
DATA kbidxd<>+16(SB)/8, $0x0008000800080008
DATA kbidxd<>+24(SB)/8, $0x0008000800080008
DATA kbidxd<>+32(SB)/8, $0x0000000000000000
DATA kbidxd<>+40(SB)/8, $0x0000000000000000
DATA kbidxd<>+48(SB)/8, $0x0000000000000000
DATA kbidxd<>+56(SB)/8, $0x0000000000000000
GLOBL kbidxd<>(SB), RODATA|NOPTR, $64
DATA kbidxm<>+0(SB)/8, $0x0001000100010001
DATA kbidxm<>+8(SB)/8, $0x0001000100010001
DATA kbidxm<>+16(SB)/8, $0x0009000900090009
DATA kbidxm<>+24(SB)/8, $0x0009000900090009
DATA kbidxm<>+32(SB)/8, $0x0000000000000000
DATA kbidxm<>+40(SB)/8, $0x0000000000000000
DATA kbidxm<>+48(SB)/8, $0x0000000000000000
DATA kbidxm<>+56(SB)/8, $0x0000000000000000
GLOBL kbidxm<>(SB), RODATA|NOPTR, $64
DATA kmask0f64<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+32(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+40(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+48(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kmask0f64<>+56(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL kmask0f64<>(SB), RODATA|NOPTR, $64

// Q6_K batch tables: kbq6sc<g> picks, for one half of the block (scales
// as words, lanes: row r twice, row r+1 twice), the scale of elements
// 32g..32g+15 and 32g+16..32g+31 of each row; k80x64 flips activations to
// unsigned (a+128); kmask30x64 and k32x64 unpack the 6-bit quants.
DATA kbq6sc0<>+0(SB)/8, $0x0100010001000100
DATA kbq6sc0<>+8(SB)/8, $0x0100010001000100
DATA kbq6sc0<>+16(SB)/8, $0x0302030203020302
DATA kbq6sc0<>+24(SB)/8, $0x0302030203020302
DATA kbq6sc0<>+32(SB)/8, $0x0100010001000100
DATA kbq6sc0<>+40(SB)/8, $0x0100010001000100
DATA kbq6sc0<>+48(SB)/8, $0x0302030203020302
DATA kbq6sc0<>+56(SB)/8, $0x0302030203020302
GLOBL kbq6sc0<>(SB), RODATA|NOPTR, $64
DATA kbq6sc1<>+0(SB)/8, $0x0504050405040504
DATA kbq6sc1<>+8(SB)/8, $0x0504050405040504
DATA kbq6sc1<>+16(SB)/8, $0x0706070607060706
DATA kbq6sc1<>+24(SB)/8, $0x0706070607060706
DATA kbq6sc1<>+32(SB)/8, $0x0504050405040504
DATA kbq6sc1<>+40(SB)/8, $0x0504050405040504
DATA kbq6sc1<>+48(SB)/8, $0x0706070607060706
DATA kbq6sc1<>+56(SB)/8, $0x0706070607060706
GLOBL kbq6sc1<>(SB), RODATA|NOPTR, $64
DATA kbq6sc2<>+0(SB)/8, $0x0908090809080908
DATA kbq6sc2<>+8(SB)/8, $0x0908090809080908
DATA kbq6sc2<>+16(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kbq6sc2<>+24(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kbq6sc2<>+32(SB)/8, $0x0908090809080908
DATA kbq6sc2<>+40(SB)/8, $0x0908090809080908
DATA kbq6sc2<>+48(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA kbq6sc2<>+56(SB)/8, $0x0b0a0b0a0b0a0b0a
GLOBL kbq6sc2<>(SB), RODATA|NOPTR, $64
DATA kbq6sc3<>+0(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kbq6sc3<>+8(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kbq6sc3<>+16(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kbq6sc3<>+24(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kbq6sc3<>+32(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kbq6sc3<>+40(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA kbq6sc3<>+48(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA kbq6sc3<>+56(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL kbq6sc3<>(SB), RODATA|NOPTR, $64
DATA k80x64<>+0(SB)/8, $0x8080808080808080
DATA k80x64<>+8(SB)/8, $0x8080808080808080
DATA k80x64<>+16(SB)/8, $0x8080808080808080
DATA k80x64<>+24(SB)/8, $0x8080808080808080
DATA k80x64<>+32(SB)/8, $0x8080808080808080
DATA k80x64<>+40(SB)/8, $0x8080808080808080
DATA k80x64<>+48(SB)/8, $0x8080808080808080
DATA k80x64<>+56(SB)/8, $0x8080808080808080
GLOBL k80x64<>(SB), RODATA|NOPTR, $64
DATA kmask30x64<>+0(SB)/8, $0x3030303030303030
DATA kmask30x64<>+8(SB)/8, $0x3030303030303030
DATA kmask30x64<>+16(SB)/8, $0x3030303030303030
DATA kmask30x64<>+24(SB)/8, $0x3030303030303030
DATA kmask30x64<>+32(SB)/8, $0x3030303030303030
DATA kmask30x64<>+40(SB)/8, $0x3030303030303030
DATA kmask30x64<>+48(SB)/8, $0x3030303030303030
DATA kmask30x64<>+56(SB)/8, $0x3030303030303030
GLOBL kmask30x64<>(SB), RODATA|NOPTR, $64
DATA k32x64<>+0(SB)/8, $0x2020202020202020
DATA k32x64<>+8(SB)/8, $0x2020202020202020
DATA k32x64<>+16(SB)/8, $0x2020202020202020
DATA k32x64<>+24(SB)/8, $0x2020202020202020
DATA k32x64<>+32(SB)/8, $0x2020202020202020
DATA k32x64<>+40(SB)/8, $0x2020202020202020
DATA k32x64<>+48(SB)/8, $0x2020202020202020
DATA k32x64<>+56(SB)/8, $0x2020202020202020
GLOBL k32x64<>(SB), RODATA|NOPTR, $64

// kbscp<c>: (sc_2c, sc_2c+1) word pairs of each row for the packed
// Q4_K batch sums; kbias16 puts 8192 in the low word (VPSHLDD); kneg8192
// is the word pair (-8192, 0).
DATA kbscp0<>+0(SB)/8, $0x8001800080018000
DATA kbscp0<>+8(SB)/8, $0x8001800080018000
DATA kbscp0<>+16(SB)/8, $0x8001800080018000
DATA kbscp0<>+24(SB)/8, $0x8001800080018000
DATA kbscp0<>+32(SB)/8, $0x8001800080018000
DATA kbscp0<>+40(SB)/8, $0x8001800080018000
DATA kbscp0<>+48(SB)/8, $0x8001800080018000
DATA kbscp0<>+56(SB)/8, $0x8001800080018000
GLOBL kbscp0<>(SB), RODATA|NOPTR, $64
DATA kbscp1<>+0(SB)/8, $0x8003800280038002
DATA kbscp1<>+8(SB)/8, $0x8003800280038002
DATA kbscp1<>+16(SB)/8, $0x8003800280038002
DATA kbscp1<>+24(SB)/8, $0x8003800280038002
DATA kbscp1<>+32(SB)/8, $0x8003800280038002
DATA kbscp1<>+40(SB)/8, $0x8003800280038002
DATA kbscp1<>+48(SB)/8, $0x8003800280038002
DATA kbscp1<>+56(SB)/8, $0x8003800280038002
GLOBL kbscp1<>(SB), RODATA|NOPTR, $64
DATA kbscp2<>+0(SB)/8, $0x8009800880098008
DATA kbscp2<>+8(SB)/8, $0x8009800880098008
DATA kbscp2<>+16(SB)/8, $0x8009800880098008
DATA kbscp2<>+24(SB)/8, $0x8009800880098008
DATA kbscp2<>+32(SB)/8, $0x8009800880098008
DATA kbscp2<>+40(SB)/8, $0x8009800880098008
DATA kbscp2<>+48(SB)/8, $0x8009800880098008
DATA kbscp2<>+56(SB)/8, $0x8009800880098008
GLOBL kbscp2<>(SB), RODATA|NOPTR, $64
DATA kbscp3<>+0(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+8(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+16(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+24(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+32(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+40(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+48(SB)/8, $0x800b800a800b800a
DATA kbscp3<>+56(SB)/8, $0x800b800a800b800a
GLOBL kbscp3<>(SB), RODATA|NOPTR, $64
DATA kbias16<>+0(SB)/8, $0x2000000020000000
DATA kbias16<>+8(SB)/8, $0x2000000020000000
DATA kbias16<>+16(SB)/8, $0x2000000020000000
DATA kbias16<>+24(SB)/8, $0x2000000020000000
DATA kbias16<>+32(SB)/8, $0x2000000020000000
DATA kbias16<>+40(SB)/8, $0x2000000020000000
DATA kbias16<>+48(SB)/8, $0x2000000020000000
DATA kbias16<>+56(SB)/8, $0x2000000020000000
GLOBL kbias16<>(SB), RODATA|NOPTR, $64
DATA kneg8192<>+0(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+8(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+16(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+24(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+32(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+40(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+48(SB)/8, $0x0000e0000000e000
DATA kneg8192<>+56(SB)/8, $0x0000e0000000e000
GLOBL kneg8192<>(SB), RODATA|NOPTR, $64

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
// Rows are taken in pairs, row r in the low and row r+1 in the high 256
// bits of each zmm (two independent 8-lane float chains per accumulator);
// the activations are broadcast to both halves once per block.
//
// Registers: Z0..Z3 float accumulators of row pairs (0,1) .. (6,7); Z8
// (rows 0..3) and Z9 (rows 4..7) the min accumulators, one 128-bit lane
// (4 floats) per row; Z16..Z23 the eight 32-byte activation groups of the
// block, in both halves; Z24 nibble mask; Z25 the eight sums of 32
// activations (words, in every lane); Z26, Z27 VPERMW indexes; Z11 the
// unpacked scales and Z12 dx*dy of the current four rows; Z4..Z7, Z10,
// Z13..Z15, Z28..Z31 scratch.

// K4HDR unpacks the headers of the four rows at P, P+rb, P+2rb, P+3rb:
// into Z11 per row (lane) [sc0..3, m0..3, sc4..7, m4..7], into Z12 dx*dy
// (four copies per lane), and adds the min terms into ACCM:
// accm = fma(-(dy*dmin), float(m0*s0+m1*s1, ...), accm), written as
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
	VPSHUFB      k4mins<>(SB), Z11, Z12;      \
	VPMADDWD     Z25, Z12, Z12;               \
	VCVTDQ2PS    Z12, Z12;                    \
	VPERMW       Z10, Z27, Z13;               \
	VCVTPH2PS    Y13, Z13;                    \
	VMULPS.BCST  (DX), Z13, Z13;              \
	VFNMADD231PS Z12, Z13, ACCM;              \
	VPERMW       Z10, Z26, Z13;               \
	VCVTPH2PS    Y13, Z13;                    \
	VMULPS.BCST  (DX), Z13, Z12

// K4PCH: chunk c of the row pair at P, P+rb (32 bytes each: low nibbles
// = sub-block 2c with activations AL, high nibbles = 2c+1 with AH),
// products scaled by the sub-block scales (picked from Z4 by SLO/SHI)
// into the int32 lanes Z6 (even sub-blocks) and Z7 (odd).
#define K4PCH(P, c, AL, AH, SLO, SHI) \
	VMOVDQU64    16+32*c(P), Y28;               \
	VINSERTI64X4 $1, 16+32*c(P)(R9*1), Z28, Z28; \
	VPSRLW       $4, Z28, Z29;                  \
	VPANDD       Z24, Z28, Z28;                 \
	VPANDD       Z24, Z29, Z29;                 \
	VPMADDUBSW   AL, Z28, Z28;                  \
	VPMADDUBSW   AH, Z29, Z29;                  \
	VPSHUFB      SLO<>(SB), Z4, Z30;            \
	VPDPWSSD     Z30, Z28, Z6;                  \
	VPSHUFB      SHI<>(SB), Z4, Z31;            \
	VPDPWSSD     Z31, Z29, Z7

// K4PAIR: rows k, k+1 of the current four (lanes picked by IMM: 0x50 for
// rows 0,1, 0xfa for rows 2,3) at P, P+rb: ACC = fma(dx*dy, float(lanes), ACC).
#define K4PAIR(P, IMM, ACC) \
	VSHUFI64X2  $IMM, Z11, Z11, Z4; \
	VSHUFF32X4  $IMM, Z12, Z12, Z5; \
	VPXORD      Z6, Z6, Z6;         \
	VPXORD      Z7, Z7, Z7;         \
	K4PCH(P, 0, Z16, Z17, kbsc0, kbsc1); \
	K4PCH(P, 1, Z18, Z19, kbsc2, kbsc3); \
	K4PCH(P, 2, Z20, Z21, kbsc4, kbsc5); \
	K4PCH(P, 3, Z22, Z23, kbsc6, kbsc7); \
	VPADDD      Z7, Z6, Z6;         \
	VCVTDQ2PS   Z6, Z6;             \
	VFMADD231PS Z5, Z6, ACC

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

// K4OUT2: both rows of a pair (the high half first: the VEX-encoded
// reduction of the low half clears the high bits).
#define K4OUT2(ACC, ACCY, ACCX, ACCM, L, off) \
	VEXTRACTF32X8 $1, ACC, Y4;              \
	K4OUT(Y4, X4, ACCM, L+1, off+4);        \
	K4OUT(ACCY, ACCX, ACCM, L, off)

// func q4kVec8(w *byte, rs, bs int, y *int8, d *float32, bsums *int16, nb int, next int, out *[8]float32)
TEXT ·q4kVec8(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ bs+16(FP), R11
	MOVQ y+24(FP), DI
	MOVQ d+32(FP), DX
	MOVQ bsums+40(FP), R8
	MOVQ nb+48(FP), CX
	LEAQ (R9)(R9*2), R10
	MOVQ next+56(FP), R13
	LEAQ (SI)(R13*1), R12 // the data after the tile, prefetched a block's share at a time (next > 0)
	VPXORD    Z0, Z0, Z0
	VPXORD    Z1, Z1, Z1
	VPXORD    Z2, Z2, Z2
	VPXORD    Z3, Z3, Z3
	VPXORD    Z8, Z8, Z8
	VPXORD    Z9, Z9, Z9
	VMOVDQU64 kmask0f64<>(SB), Z24
	VMOVDQU64 k4idxd<>(SB), Z26
	VMOVDQU64 k4idxm<>(SB), Z27
q4kv8loop:
	VBROADCASTI64X4 0(DI), Z16
	VBROADCASTI64X4 32(DI), Z17
	VBROADCASTI64X4 64(DI), Z18
	VBROADCASTI64X4 96(DI), Z19
	VBROADCASTI64X4 128(DI), Z20
	VBROADCASTI64X4 160(DI), Z21
	VBROADCASTI64X4 192(DI), Z22
	VBROADCASTI64X4 224(DI), Z23
	// sums of each 32 activations (exact in int16: at most 32*127)
	VMOVDQU    (R8), X14
	VPHADDW    16(R8), X14, X14
	VSHUFI64X2 $0, Z14, Z14, Z25
	K4HDR(SI, Z8)
	K4PAIR(SI, 0x50, Z0)
	LEAQ (SI)(R9*2), AX
	K4PAIR(AX, 0xfa, Z1)
	LEAQ (SI)(R9*4), BX
	K4HDR(BX, Z9)
	K4PAIR(BX, 0x50, Z2)
	LEAQ (BX)(R9*2), AX
	K4PAIR(AX, 0xfa, Z3)
	TESTQ R13, R13
	JZ    q4kv8nopf
	PREFETCH9(0, R12)
	PREFETCH9(576, R12)
	ADDQ $1152, R12

q4kv8nopf:
	ADDQ R11, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JNZ  q4kv8loop
	MOVQ out+64(FP), AX
	K4OUT2(Z0, Y0, X0, Z8, 0, 0)
	K4OUT2(Z1, Y1, X1, Z8, 2, 8)
	K4OUT2(Z2, Y2, X2, Z9, 0, 16)
	K4OUT2(Z3, Y3, X3, Z9, 2, 24)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// Q6_K, 8 rows x 1 position, in row pairs as the Q4_K kernel.
//
// Registers: Z0..Z3 float accumulators of row pairs (0,1) .. (6,7);
// Z16..Z23 the eight 32-byte activation groups, in both halves; Z24 0x0f
// bytes, Z25 0x30 bytes; the rest scratch. Stack: 64*g holds the products
// of 32 with activation group g (VPMADDUBSW words), subtracted from the
// products with the unsigned 6-bit quants to give those with quants-32.

// K6PG: group Q (32 unsigned quants of each row) times activations A,
// minus the bias at CORR(SP), scaled per 16 elements by the words picked
// from SH by CTRL, into the int32 lanes ACCI.
#define K6PG(Q, A, CORR, CTRL, SH, ACCI) \
	VPMADDUBSW A, Q, Q;           \
	VPSUBW     CORR(SP), Q, Q;    \
	VPSHUFB    CTRL<>(SB), SH, Z15; \
	VPDPWSSD   Z15, Q, ACCI

// K6PHALF: elements 128h..128h+127 of the rows at P, P+rb (ql at QL, qh
// at QH), scales of that half (words; lanes: row r twice, row r+1 twice)
// in SH.
#define K6PHALF(P, QL, QH, SH, A0, A1, A2, A3, C0) \
	VMOVDQU64    QL(P), Y8;                    \
	VINSERTI64X4 $1, QL(P)(R9*1), Z8, Z8;      \
	VMOVDQU64    QL+32(P), Y9;                 \
	VINSERTI64X4 $1, QL+32(P)(R9*1), Z9, Z9;   \
	VMOVDQU64    QH(P), Y10;                   \
	VINSERTI64X4 $1, QH(P)(R9*1), Z10, Z10;    \
	VPSLLW       $4, Z10, Z11;                 \
	VPANDD       Z25, Z11, Z11;                \
	VPTERNLOGD   $0xf8, Z24, Z8, Z11;          \
	K6PG(Z11, A0, C0, kbq6sc0, SH, Z30);       \
	VPSLLW       $2, Z10, Z12;                 \
	VPANDD       Z25, Z12, Z12;                \
	VPTERNLOGD   $0xf8, Z24, Z9, Z12;          \
	K6PG(Z12, A1, C0+64, kbq6sc1, SH, Z31);    \
	VPSRLW       $4, Z8, Z8;                   \
	VPANDD       Z25, Z10, Z13;                \
	VPTERNLOGD   $0xf8, Z24, Z8, Z13;          \
	K6PG(Z13, A2, C0+128, kbq6sc2, SH, Z30);   \
	VPSRLW       $4, Z9, Z9;                   \
	VPSRLW       $2, Z10, Z14;                 \
	VPANDD       Z25, Z14, Z14;                \
	VPTERNLOGD   $0xf8, Z24, Z9, Z14;          \
	K6PG(Z14, A3, C0+192, kbq6sc3, SH, Z31)

// K6PAIR: the rows at P, P+rb: ACC = fma(dy*dx, float(lanes), ACC).
#define K6PAIR(P, ACC) \
	VPBROADCASTW 208(P), X4;                 \
	VPBROADCASTW 208(P)(R9*1), X5;           \
	VINSERTI32X4 $1, X5, Y4, Y4;             \
	VCVTPH2PS    Y4, Z4;                     \
	VMULPS.BCST  (DX), Z4, Z4;               \
	VMOVDQU64    192(P), X5;                 \
	VINSERTI32X4 $1, 192(P)(R9*1), Y5, Y5;   \
	VPMOVSXBW    Y5, Z5;                     \
	VSHUFI64X2   $0xa0, Z5, Z5, Z6;          \
	VSHUFI64X2   $0xf5, Z5, Z5, Z7;          \
	VPXORD       Z30, Z30, Z30;              \
	VPXORD       Z31, Z31, Z31;              \
	K6PHALF(P, 0, 128, Z6, Z16, Z17, Z18, Z19, 0);   \
	K6PHALF(P, 64, 160, Z7, Z20, Z21, Z22, Z23, 256); \
	VPADDD       Z31, Z30, Z30;              \
	VCVTDQ2PS    Z30, Z30;                   \
	VFMADD231PS  Z4, Z30, ACC

// K6OUT2: out[off], out[off+4] = hsum8 of the low and high halves of ACC.
#define K6OUT2(ACC, ACCY, ACCX, off) \
	VEXTRACTF32X8 $1, ACC, Y4; \
	HSUM8X(Y4, X4);            \
	MOVSS         X4, off+4(AX); \
	HSUM8X(ACCY, ACCX);        \
	MOVSS         ACCX, off(AX)

// func q6kVec8(w *byte, rs, bs int, y *int8, d *float32, nb int, next int, out *[8]float32)
TEXT ·q6kVec8(SB), NOSPLIT, $512-64
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ bs+16(FP), R11
	MOVQ y+24(FP), DI
	MOVQ d+32(FP), DX
	MOVQ nb+40(FP), CX
	MOVQ next+48(FP), R13
	LEAQ (SI)(R13*1), R12 // the data after the tile, prefetched a block's share at a time (next > 0)
	VPXORD    Z0, Z0, Z0
	VPXORD    Z1, Z1, Z1
	VPXORD    Z2, Z2, Z2
	VPXORD    Z3, Z3, Z3
	VMOVDQU64 kmask0f64<>(SB), Z24
	VMOVDQU64 kmask30x64<>(SB), Z25
q6kv8loop:
	VMOVDQU64 k32x64<>(SB), Z26
	VBROADCASTI64X4 0(DI), Z16
	VPMADDUBSW Z16, Z26, Z27
	VMOVDQU64 Z27, 0(SP)
	VBROADCASTI64X4 32(DI), Z17
	VPMADDUBSW Z17, Z26, Z27
	VMOVDQU64 Z27, 64(SP)
	VBROADCASTI64X4 64(DI), Z18
	VPMADDUBSW Z18, Z26, Z27
	VMOVDQU64 Z27, 128(SP)
	VBROADCASTI64X4 96(DI), Z19
	VPMADDUBSW Z19, Z26, Z27
	VMOVDQU64 Z27, 192(SP)
	VBROADCASTI64X4 128(DI), Z20
	VPMADDUBSW Z20, Z26, Z27
	VMOVDQU64 Z27, 256(SP)
	VBROADCASTI64X4 160(DI), Z21
	VPMADDUBSW Z21, Z26, Z27
	VMOVDQU64 Z27, 320(SP)
	VBROADCASTI64X4 192(DI), Z22
	VPMADDUBSW Z22, Z26, Z27
	VMOVDQU64 Z27, 384(SP)
	VBROADCASTI64X4 224(DI), Z23
	VPMADDUBSW Z23, Z26, Z27
	VMOVDQU64 Z27, 448(SP)
	K6PAIR(SI, Z0)
	LEAQ (SI)(R9*2), AX
	K6PAIR(AX, Z1)
	LEAQ (SI)(R9*4), AX
	K6PAIR(AX, Z2)
	LEAQ (AX)(R9*2), AX
	K6PAIR(AX, Z3)
	TESTQ R13, R13
	JZ    q6kv8nopf
	PREFETCH9(0, R12)
	PREFETCH9(576, R12)
	PREFETCH9(1152, R12)
	ADDQ $1680, R12

q6kv8nopf:
	ADDQ R11, SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q6kv8loop
	MOVQ out+56(FP), AX
	K6OUT2(Z0, Y0, X0, 0)
	K6OUT2(Z1, Y1, X1, 8)
	K6OUT2(Z2, Y2, X2, 16)
	K6OUT2(Z3, Y3, X3, 24)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// Q4_K, 2 rows x 8 positions.
//
// Each zmm holds row r in its low 256 bits and row r+1 in its high 256
// bits (the float accumulators: two independent 8-lane chains). The
// block's weights are unpacked once into Z0..Z7 (sub-block j in Zj, 32
// nibbles of each row) and its scales into 16-word vectors on the stack
// (sub-block j at 64*j), then reused for the eight positions, whose
// activations are broadcast to both halves.
//
// Registers: Z0..Z7 weights; Z8..Z15 float accumulators of positions
// 0..7; Z16..Z23 their min accumulators (per row: lanes 2k and 2k+1 both
// hold accm[k]); Z24 dx of the two rows, Z25 dmin, Z31 the mins as word
// pairs; Z26..Z30 scratch.

// KBCH: sub-blocks 2c (WL) and 2c+1 (WH) of both rows for the position
// at AX, into the int32 lanes Z26 and Z27.
#define KBCH(c, WL, WH) \
	VBROADCASTI64X4 64*c(AX), Z28;    \
	VBROADCASTI64X4 64*c+32(AX), Z29; \
	VPMADDUBSW      Z28, WL, Z28;      \
	VPMADDUBSW      Z29, WH, Z29;      \
	VPDPWSSD        128*c(SP), Z28, Z26; \
	VPDPWSSD        128*c+64(SP), Z29, Z27

// KBPOS: one position (activations at AX, bsums at BX, dy at R13):
// ACC = fma(dx*dy, float(lanes), ACC); ACCM = fnmadd(dmin*dy, float(prod), ACCM).
#define KBCH2(c, WL, WH, ACCI) \
	VBROADCASTI64X4 64*c+32(AX), Z28;   \
	VPXORD          Z29, Z29, Z29;      \
	VPDPBUSD        Z28, WH, Z29;       \
	VPSHLDD         $16, Z30, Z29, Z29; \
	VBROADCASTI64X4 64*c(AX), Z28;      \
	VPDPBUSD        Z28, WL, Z29;       \
	VPDPWSSD        64*c(SP), Z29, ACCI

#define KBPOS(ACC, ACCM) \
	VMOVDQU64       256(SP), Z26;   \
	VPXORD          Z27, Z27, Z27;  \
	KBCH2(0, Z0, Z1, Z26);          \
	KBCH2(1, Z2, Z3, Z27);          \
	KBCH2(2, Z4, Z5, Z26);          \
	KBCH2(3, Z6, Z7, Z27);          \
	VPADDD          Z27, Z26, Z26;  \
	VCVTDQ2PS       Z26, Z26;       \
	VMULPS.BCST     (R13), Z24, Z28; \
	VFMADD231PS     Z28, Z26, ACC;  \
	VBROADCASTI64X4 (BX), Z28;      \
	VPMADDWD        Z31, Z28, Z28;  \
	VPSHUFD         $0xb1, Z28, Z29; \
	VPADDD          Z29, Z28, Z28;  \
	VCVTDQ2PS       Z28, Z28;       \
	VMULPS.BCST     (R13), Z25, Z29; \
	VFNMADD231PS    Z28, Z29, ACCM

// KBW: chunk c of both rows' quants: low nibbles into WL, high into WH.
#define KBW(c, WL, WLY, WH) \
	VMOVDQU64    16+32*c(SI), WLY; \
	VINSERTI64X4 $1, 16+32*c(SI)(R9*1), WL, WL; \
	VPSRLW       $4, WL, WH;          \
	VPANDD       kmask0f64<>(SB), WL, WL; \
	VPANDD       kmask0f64<>(SB), WH, WH

// KBOUT: out[2p] and out[2p+1] (rows r and r+1 of position p) =
// hsum8(acc) + ((m0+m2)+(m1+m3)). Clobbers X0..X3.
#define KBOUT1(off) \
	VEXTRACTF128 $1, Y0, X1;  \
	VADDPS       X1, X0, X0;  \
	VMOVHLPS     X0, X0, X1;  \
	VADDPS       X1, X0, X0;  \
	VMOVSHDUP    X0, X1;      \
	VADDSS       X1, X0, X0;  \
	VEXTRACTF128 $1, Y2, X3;  \
	VADDPS       X3, X2, X2;  \
	VMOVHLPS     X2, X2, X3;  \
	VADDSS       X3, X2, X2;  \
	VADDSS       X2, X0, X0;  \
	MOVSS        X0, off(R14)

#define KBOUT(ACC, ACCY, ACCM, ACCMY, p) \
	VMOVAPS       ACCY, Y0;     \
	VMOVAPS       ACCMY, Y2;    \
	KBOUT1(8*p);                \
	VEXTRACTF32X8 $1, ACC, Y0;  \
	VEXTRACTF32X8 $1, ACCM, Y2; \
	KBOUT1(8*p+4)

// func q4kBatch2x8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[16]float32)
TEXT ·q4kBatch2x8(SB), NOSPLIT, $320-88
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), R10
	MOVQ d+40(FP), DX
	MOVQ dstride+48(FP), R12
	SHLQ $2, R12
	MOVQ bsums+56(FP), R8
	MOVQ bstride+64(FP), R11
	SHLQ $1, R11
	MOVQ nb+72(FP), CX
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VMOVDQU64 kbias16<>(SB), Z30
q4kb28loop:
	// headers of the two rows: d, dmin, scales and mins
	VMOVDQU64    (SI), X26
	VINSERTI32X4 $1, (SI)(R9*1), Y26, Y26
	VMOVDQU64    kbidxd<>(SB), Z28
	VPERMW       Z26, Z28, Z28
	VCVTPH2PS    Y28, Z24
	VMOVDQU64    kbidxm<>(SB), Z28
	VPERMW       Z26, Z28, Z28
	VCVTPH2PS    Y28, Z25
	VPSHUFB      k4shufa<>(SB), Y26, Y27
	VPSHUFB      k4shufb<>(SB), Y26, Y28
	VPSRLW       $4, Y27, Y29
	VPANDD       k4maska<>(SB), Y27, Y27
	VPANDD       k4maskb<>(SB), Y29, Y29
	VPSRLW       $2, Y28, Y28
	VPANDD       k4maskc<>(SB), Y28, Y28
	VPTERNLOGD   $0xfe, Y29, Y28, Y27
	VSHUFI64X2   $0x50, Z27, Z27, Z27
	VPXORD       Z29, Z29, Z29
	VPSHUFB      kbscp0<>(SB), Z27, Z28
	VMOVDQU64    Z28, 0(SP)
	VPDPWSSD     kneg8192<>(SB), Z28, Z29
	VPSHUFB      kbscp1<>(SB), Z27, Z28
	VMOVDQU64    Z28, 64(SP)
	VPDPWSSD     kneg8192<>(SB), Z28, Z29
	VPSHUFB      kbscp2<>(SB), Z27, Z28
	VMOVDQU64    Z28, 128(SP)
	VPDPWSSD     kneg8192<>(SB), Z28, Z29
	VPSHUFB      kbscp3<>(SB), Z27, Z28
	VMOVDQU64    Z28, 192(SP)
	VPDPWSSD     kneg8192<>(SB), Z28, Z29
	VMOVDQU64    Z29, 256(SP)
	VPSHUFB      kbmdup<>(SB), Z27, Z31
	KBW(0, Z0, Y0, Z1)
	KBW(1, Z2, Y2, Z3)
	KBW(2, Z4, Y4, Z5)
	KBW(3, Z6, Y6, Z7)
	MOVQ DI, AX
	MOVQ R8, BX
	MOVQ DX, R13
	KBPOS(Z8, Z16)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z9, Z17)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z10, Z18)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z11, Z19)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z12, Z20)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z13, Z21)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z14, Z22)
	ADDQ R10, AX
	ADDQ R11, BX
	ADDQ R12, R13
	KBPOS(Z15, Z23)
	ADDQ bs+16(FP), SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JNZ  q4kb28loop
	MOVQ out+80(FP), R14
	KBOUT(Z8, Y8, Z16, Y16, 0)
	KBOUT(Z9, Y9, Z17, Y17, 1)
	KBOUT(Z10, Y10, Z18, Y18, 2)
	KBOUT(Z11, Y11, Z19, Y19, 3)
	KBOUT(Z12, Y12, Z20, Y20, 4)
	KBOUT(Z13, Y13, Z21, Y21, 5)
	KBOUT(Z14, Y14, Z22, Y22, 6)
	KBOUT(Z15, Y15, Z23, Y23, 7)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------
// Q6_K, 2 rows x 8 positions, laid out as the Q4_K batch kernel (row r in
// the low, row r+1 in the high 256 bits). The quants are made signed
// (q-32) once per block and the activations unsigned (a+128, an XOR), so
// that VPMADDUBSW gives sum (q-32)(a+128); the surplus 128*sum(q-32),
// scaled like the products, depends on the weights only: it is computed
// once per block (Z25, negated) and starts each position's int32 lanes.
//
// Registers: Z0..Z7 signed quants of element groups 0..7 (32 elements of
// each row); Z8..Z15 float accumulators of positions 0..7; Z24 dx of the
// two rows; Z25 minus the bias lanes; Z16..Z23, Z26..Z31 scratch. Stack:
// the scale words of group g (16 elements' scale per 128-bit lane) at 64*g.

// K6BW: half h of both rows: ql at QL, qh at QH, into groups W0..W3.
#define K6BW(QL, QH, W0, W1, W2, W3) \
	VMOVDQU64    QL(SI), Y16;                  \
	VINSERTI64X4 $1, QL(SI)(R9*1), Z16, Z16;   \
	VMOVDQU64    QL+32(SI), Y17;               \
	VINSERTI64X4 $1, QL+32(SI)(R9*1), Z17, Z17; \
	VMOVDQU64    QH(SI), Y18;                  \
	VINSERTI64X4 $1, QH(SI)(R9*1), Z18, Z18;   \
	VPSLLW       $4, Z18, W0;                  \
	VPANDD       Z20, W0, W0;                  \
	VPTERNLOGD   $0xf8, Z21, Z16, W0;          \
	VPSUBB       Z22, W0, W0;                  \
	VPSLLW       $2, Z18, W1;                  \
	VPANDD       Z20, W1, W1;                  \
	VPTERNLOGD   $0xf8, Z21, Z17, W1;          \
	VPSUBB       Z22, W1, W1;                  \
	VPSRLW       $4, Z16, Z16;                 \
	VPANDD       Z20, Z18, W2;                 \
	VPTERNLOGD   $0xf8, Z21, Z16, W2;          \
	VPSUBB       Z22, W2, W2;                  \
	VPSRLW       $4, Z17, Z17;                 \
	VPSRLW       $2, Z18, W3;                  \
	VPANDD       Z20, W3, W3;                  \
	VPTERNLOGD   $0xf8, Z21, Z17, W3;          \
	VPSUBB       Z22, W3, W3

// K6BSC: scale words of group gi (table CTRL, from the lane-doubled half in SRC) to
// the stack at 64*gi, and the group's bias 128*(w0+w1) scaled into Z25.
#define K6BSC(SRC, CTRL, gi, W) \
	VPSHUFB    CTRL<>(SB), SRC, Z17; \
	VMOVDQU64  Z17, 64*gi(SP);           \
	VPMADDUBSW W, Z23, Z18;              \
	VPDPWSSD   Z17, Z18, Z25

// K6BG: group gi for the position at AX into the int32 lanes ACCI.
#define K6BG(gi, W, ACCI) \
	VBROADCASTI64X4 32*gi(AX), Z28; \
	VPXORD          Z23, Z28, Z28;  \
	VPMADDUBSW      W, Z28, Z28;    \
	VPDPWSSD        64*gi(SP), Z28, ACCI

#define K6BPOS(ACC) \
	VMOVDQA64   Z25, Z26;      \
	VPXORD      Z27, Z27, Z27; \
	K6BG(0, Z0, Z26);          \
	K6BG(1, Z1, Z27);          \
	K6BG(2, Z2, Z26);          \
	K6BG(3, Z3, Z27);          \
	K6BG(4, Z4, Z26);          \
	K6BG(5, Z5, Z27);          \
	K6BG(6, Z6, Z26);          \
	K6BG(7, Z7, Z27);          \
	VPADDD      Z27, Z26, Z26; \
	VCVTDQ2PS   Z26, Z26;      \
	VMULPS.BCST (R13), Z24, Z28; \
	VFMADD231PS Z28, Z26, ACC

// K6BOUT: out[2p], out[2p+1] = hsum8 of the two halves of ACC.
#define K6BOUT1(off) \
	VEXTRACTF128 $1, Y0, X1;  \
	VADDPS       X1, X0, X0;  \
	VMOVHLPS     X0, X0, X1;  \
	VADDPS       X1, X0, X0;  \
	VMOVSHDUP    X0, X1;      \
	VADDSS       X1, X0, X0;  \
	MOVSS        X0, off(R14)

#define K6BOUT(ACC, ACCY, p) \
	VMOVAPS       ACCY, Y0;  \
	K6BOUT1(8*p);            \
	VEXTRACTF32X8 $1, ACC, Y0; \
	K6BOUT1(8*p+4)

// func q6kBatch2x8(w *byte, rs, bs int, y *int8, ystride int, d *float32, dstride int, nb int, out *[16]float32)
TEXT ·q6kBatch2x8(SB), NOSPLIT, $512-72
	MOVQ w+0(FP), SI
	MOVQ rs+8(FP), R9
	MOVQ y+24(FP), DI
	MOVQ ystride+32(FP), R10
	MOVQ d+40(FP), DX
	MOVQ dstride+48(FP), R12
	SHLQ $2, R12
	MOVQ nb+56(FP), CX
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
q6kb28loop:
	VMOVDQU64 kmask30x64<>(SB), Z20
	VMOVDQU64 kmask0f64<>(SB), Z21
	VMOVDQU64 k32x64<>(SB), Z22
	VMOVDQU64 k80x64<>(SB), Z23
	K6BW(0, 128, Z0, Z1, Z2, Z3)
	K6BW(64, 160, Z4, Z5, Z6, Z7)
	// dx of the two rows, eight copies each
	VPBROADCASTW 208(SI), X26
	VPBROADCASTW 208(SI)(R9*1), X27
	VINSERTI32X4 $1, X27, Y26, Y26
	VCVTPH2PS    Y26, Z24
	// scales: row r's 16 words in lanes 0-1, row r+1's in lanes 2-3
	VMOVDQU64    192(SI), X19
	VINSERTI32X4 $1, 192(SI)(R9*1), Y19, Y19
	VPMOVSXBW    Y19, Z19
	VPXORD       Z25, Z25, Z25
	VSHUFI64X2   $0xa0, Z19, Z19, Z16
	K6BSC(Z16, kbq6sc0, 0, Z0)
	K6BSC(Z16, kbq6sc1, 1, Z1)
	K6BSC(Z16, kbq6sc2, 2, Z2)
	K6BSC(Z16, kbq6sc3, 3, Z3)
	VSHUFI64X2   $0xf5, Z19, Z19, Z16
	K6BSC(Z16, kbq6sc0, 4, Z4)
	K6BSC(Z16, kbq6sc1, 5, Z5)
	K6BSC(Z16, kbq6sc2, 6, Z6)
	K6BSC(Z16, kbq6sc3, 7, Z7)
	VPXORD       Z26, Z26, Z26
	VPSUBD       Z25, Z26, Z25
	MOVQ DI, AX
	MOVQ DX, R13
	K6BPOS(Z8)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z9)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z10)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z11)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z12)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z13)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z14)
	ADDQ R10, AX
	ADDQ R12, R13
	K6BPOS(Z15)
	ADDQ bs+16(FP), SI
	ADDQ $256, DI
	ADDQ $4, DX
	DECQ CX
	JNZ  q6kb28loop
	MOVQ out+64(FP), R14
	K6BOUT(Z8, Y8, 0)
	K6BOUT(Z9, Y9, 1)
	K6BOUT(Z10, Y10, 2)
	K6BOUT(Z11, Y11, 3)
	K6BOUT(Z12, Y12, 4)
	K6BOUT(Z13, Y13, 5)
	K6BOUT(Z14, Y14, 6)
	K6BOUT(Z15, Y15, 7)
	VZEROUPPER
	RET

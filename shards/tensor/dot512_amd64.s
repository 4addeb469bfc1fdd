//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 (F, BW, VL, VNNI) kernels for the 32-element block types. Two
// blocks fill one 512-bit register: lanes 0..7 hold block b (even) and lanes
// 8..15 block b+1 (odd), which is exactly the canonical acc[16] layout of
// dot_generic.go, so results stay bit-identical to the other paths. An odd
// last block is added to lanes 0..7 only (mask K2).

DATA nibmask64<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+32(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+40(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+48(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibmask64<>+56(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibmask64<>(SB), RODATA|NOPTR, $64
DATA eights64<>+0(SB)/8, $0x0808080808080808
DATA eights64<>+8(SB)/8, $0x0808080808080808
DATA eights64<>+16(SB)/8, $0x0808080808080808
DATA eights64<>+24(SB)/8, $0x0808080808080808
DATA eights64<>+32(SB)/8, $0x0808080808080808
DATA eights64<>+40(SB)/8, $0x0808080808080808
DATA eights64<>+48(SB)/8, $0x0808080808080808
DATA eights64<>+56(SB)/8, $0x0808080808080808
GLOBL eights64<>(SB), RODATA|NOPTR, $64
DATA pair8idx<>+0(SB)/8, $0x0000000000000000
DATA pair8idx<>+8(SB)/8, $0x0000000000000000
DATA pair8idx<>+16(SB)/8, $0x0000000000000000
DATA pair8idx<>+24(SB)/8, $0x0000000000000000
DATA pair8idx<>+32(SB)/8, $0x0000000100000001
DATA pair8idx<>+40(SB)/8, $0x0000000100000001
DATA pair8idx<>+48(SB)/8, $0x0000000100000001
DATA pair8idx<>+56(SB)/8, $0x0000000100000001
GLOBL pair8idx<>(SB), RODATA|NOPTR, $64
DATA q2kshift<>+0(SB)/8, $0x0000000000000000
DATA q2kshift<>+8(SB)/8, $0x0000000000000000
DATA q2kshift<>+16(SB)/8, $0x0000000000000000
DATA q2kshift<>+24(SB)/8, $0x0000000000000000
DATA q2kshift<>+32(SB)/8, $0x0002000200020002
DATA q2kshift<>+40(SB)/8, $0x0002000200020002
DATA q2kshift<>+48(SB)/8, $0x0002000200020002
DATA q2kshift<>+56(SB)/8, $0x0002000200020002
DATA q2kshift<>+64(SB)/8, $0x0004000400040004
DATA q2kshift<>+72(SB)/8, $0x0004000400040004
DATA q2kshift<>+80(SB)/8, $0x0004000400040004
DATA q2kshift<>+88(SB)/8, $0x0004000400040004
DATA q2kshift<>+96(SB)/8, $0x0006000600060006
DATA q2kshift<>+104(SB)/8, $0x0006000600060006
DATA q2kshift<>+112(SB)/8, $0x0006000600060006
DATA q2kshift<>+120(SB)/8, $0x0006000600060006
DATA q2kshift<>+128(SB)/8, $0x0000000000000000
DATA q2kshift<>+136(SB)/8, $0x0000000000000000
DATA q2kshift<>+144(SB)/8, $0x0000000000000000
DATA q2kshift<>+152(SB)/8, $0x0000000000000000
DATA q2kshift<>+160(SB)/8, $0x0002000200020002
DATA q2kshift<>+168(SB)/8, $0x0002000200020002
DATA q2kshift<>+176(SB)/8, $0x0002000200020002
DATA q2kshift<>+184(SB)/8, $0x0002000200020002
DATA q2kshift<>+192(SB)/8, $0x0004000400040004
DATA q2kshift<>+200(SB)/8, $0x0004000400040004
DATA q2kshift<>+208(SB)/8, $0x0004000400040004
DATA q2kshift<>+216(SB)/8, $0x0004000400040004
DATA q2kshift<>+224(SB)/8, $0x0006000600060006
DATA q2kshift<>+232(SB)/8, $0x0006000600060006
DATA q2kshift<>+240(SB)/8, $0x0006000600060006
DATA q2kshift<>+248(SB)/8, $0x0006000600060006
GLOBL q2kshift<>(SB), RODATA|NOPTR, $256
DATA q3kbits<>+0(SB)/8, $0x0101010101010101
DATA q3kbits<>+8(SB)/8, $0x0101010101010101
DATA q3kbits<>+16(SB)/8, $0x0101010101010101
DATA q3kbits<>+24(SB)/8, $0x0101010101010101
DATA q3kbits<>+32(SB)/8, $0x0202020202020202
DATA q3kbits<>+40(SB)/8, $0x0202020202020202
DATA q3kbits<>+48(SB)/8, $0x0202020202020202
DATA q3kbits<>+56(SB)/8, $0x0202020202020202
DATA q3kbits<>+64(SB)/8, $0x0404040404040404
DATA q3kbits<>+72(SB)/8, $0x0404040404040404
DATA q3kbits<>+80(SB)/8, $0x0404040404040404
DATA q3kbits<>+88(SB)/8, $0x0404040404040404
DATA q3kbits<>+96(SB)/8, $0x0808080808080808
DATA q3kbits<>+104(SB)/8, $0x0808080808080808
DATA q3kbits<>+112(SB)/8, $0x0808080808080808
DATA q3kbits<>+120(SB)/8, $0x0808080808080808
DATA q3kbits<>+128(SB)/8, $0x1010101010101010
DATA q3kbits<>+136(SB)/8, $0x1010101010101010
DATA q3kbits<>+144(SB)/8, $0x1010101010101010
DATA q3kbits<>+152(SB)/8, $0x1010101010101010
DATA q3kbits<>+160(SB)/8, $0x2020202020202020
DATA q3kbits<>+168(SB)/8, $0x2020202020202020
DATA q3kbits<>+176(SB)/8, $0x2020202020202020
DATA q3kbits<>+184(SB)/8, $0x2020202020202020
DATA q3kbits<>+192(SB)/8, $0x4040404040404040
DATA q3kbits<>+200(SB)/8, $0x4040404040404040
DATA q3kbits<>+208(SB)/8, $0x4040404040404040
DATA q3kbits<>+216(SB)/8, $0x4040404040404040
DATA q3kbits<>+224(SB)/8, $0x8080808080808080
DATA q3kbits<>+232(SB)/8, $0x8080808080808080
DATA q3kbits<>+240(SB)/8, $0x8080808080808080
DATA q3kbits<>+248(SB)/8, $0x8080808080808080
GLOBL q3kbits<>(SB), RODATA|NOPTR, $256
DATA fours64<>+0(SB)/8, $0x0404040404040404
DATA fours64<>+8(SB)/8, $0x0404040404040404
DATA fours64<>+16(SB)/8, $0x0404040404040404
DATA fours64<>+24(SB)/8, $0x0404040404040404
DATA fours64<>+32(SB)/8, $0x0404040404040404
DATA fours64<>+40(SB)/8, $0x0404040404040404
DATA fours64<>+48(SB)/8, $0x0404040404040404
DATA fours64<>+56(SB)/8, $0x0404040404040404
GLOBL fours64<>(SB), RODATA|NOPTR, $64
DATA q3klo<>+0(SB)/8, $0x0000000000000000
DATA q3klo<>+8(SB)/8, $0x0000000400000004
GLOBL q3klo<>(SB), RODATA|NOPTR, $16
DATA q3khi<>+0(SB)/8, $0x0000000200000000
DATA q3khi<>+8(SB)/8, $0x0000000600000004
GLOBL q3khi<>(SB), RODATA|NOPTR, $16
DATA k20<>+0(SB)/8, $0x2020202020202020
DATA k20<>+8(SB)/8, $0x2020202020202020
GLOBL k20<>(SB), RODATA|NOPTR, $16
DATA bit4x64<>+0(SB)/8, $0x1010101010101010
DATA bit4x64<>+8(SB)/8, $0x1010101010101010
DATA bit4x64<>+16(SB)/8, $0x1010101010101010
DATA bit4x64<>+24(SB)/8, $0x1010101010101010
DATA bit4x64<>+32(SB)/8, $0x1010101010101010
DATA bit4x64<>+40(SB)/8, $0x1010101010101010
DATA bit4x64<>+48(SB)/8, $0x1010101010101010
DATA bit4x64<>+56(SB)/8, $0x1010101010101010
GLOBL bit4x64<>(SB), RODATA|NOPTR, $64
DATA permQ4_1<>+0(SB)/8, $0x0706050403020100
DATA permQ4_1<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ4_1<>+16(SB)/8, $0x0706050403020100
DATA permQ4_1<>+24(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ4_1<>+32(SB)/8, $0x1b1a191817161514
DATA permQ4_1<>+40(SB)/8, $0x232221201f1e1d1c
DATA permQ4_1<>+48(SB)/8, $0x1b1a191817161514
DATA permQ4_1<>+56(SB)/8, $0x232221201f1e1d1c
GLOBL permQ4_1<>(SB), RODATA|NOPTR, $64
DATA permQ5_0<>+0(SB)/8, $0x0706050403020100
DATA permQ5_0<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ5_0<>+16(SB)/8, $0x0706050403020100
DATA permQ5_0<>+24(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ5_0<>+32(SB)/8, $0x1d1c1b1a19181716
DATA permQ5_0<>+40(SB)/8, $0x2524232221201f1e
DATA permQ5_0<>+48(SB)/8, $0x1d1c1b1a19181716
DATA permQ5_0<>+56(SB)/8, $0x2524232221201f1e
GLOBL permQ5_0<>(SB), RODATA|NOPTR, $64
DATA permQ5_1<>+0(SB)/8, $0x0706050403020100
DATA permQ5_1<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ5_1<>+16(SB)/8, $0x0706050403020100
DATA permQ5_1<>+24(SB)/8, $0x0f0e0d0c0b0a0908
DATA permQ5_1<>+32(SB)/8, $0x1f1e1d1c1b1a1918
DATA permQ5_1<>+40(SB)/8, $0x2726252423222120
DATA permQ5_1<>+48(SB)/8, $0x1f1e1d1c1b1a1918
DATA permQ5_1<>+56(SB)/8, $0x2726252423222120
GLOBL permQ5_1<>(SB), RODATA|NOPTR, $64
DATA sixteens64<>+0(SB)/8, $0x1010101010101010
DATA sixteens64<>+8(SB)/8, $0x1010101010101010
DATA sixteens64<>+16(SB)/8, $0x1010101010101010
DATA sixteens64<>+24(SB)/8, $0x1010101010101010
DATA sixteens64<>+32(SB)/8, $0x1010101010101010
DATA sixteens64<>+40(SB)/8, $0x1010101010101010
DATA sixteens64<>+48(SB)/8, $0x1010101010101010
DATA sixteens64<>+56(SB)/8, $0x1010101010101010
GLOBL sixteens64<>(SB), RODATA|NOPTR, $64
DATA minexp<>+0(SB)/8, $0x0001000100000000
DATA minexp<>+8(SB)/8, $0x0003000300020002
DATA minexp<>+16(SB)/8, $0x0005000500040004
DATA minexp<>+24(SB)/8, $0x0007000700060006
DATA minexp<>+32(SB)/8, $0x0000000000000000
DATA minexp<>+40(SB)/8, $0x0000000000000000
DATA minexp<>+48(SB)/8, $0x0000000000000000
DATA minexp<>+56(SB)/8, $0x0000000000000000
GLOBL minexp<>(SB), RODATA|NOPTR, $64
DATA pair8idx2<>+0(SB)/8, $0x0000000200000002
DATA pair8idx2<>+8(SB)/8, $0x0000000200000002
DATA pair8idx2<>+16(SB)/8, $0x0000000200000002
DATA pair8idx2<>+24(SB)/8, $0x0000000200000002
DATA pair8idx2<>+32(SB)/8, $0x0000000300000003
DATA pair8idx2<>+40(SB)/8, $0x0000000300000003
DATA pair8idx2<>+48(SB)/8, $0x0000000300000003
DATA pair8idx2<>+56(SB)/8, $0x0000000300000003
GLOBL pair8idx2<>(SB), RODATA|NOPTR, $64
DATA q40perm<>+0(SB)/8, $0x0706050403020100
DATA q40perm<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA q40perm<>+16(SB)/8, $0x0706050403020100
DATA q40perm<>+24(SB)/8, $0x0f0e0d0c0b0a0908
DATA q40perm<>+32(SB)/8, $0x1918171615141312
DATA q40perm<>+40(SB)/8, $0x21201f1e1d1c1b1a
DATA q40perm<>+48(SB)/8, $0x1918171615141312
DATA q40perm<>+56(SB)/8, $0x21201f1e1d1c1b1a
GLOBL q40perm<>(SB), RODATA|NOPTR, $64
DATA q40shift<>+0(SB)/8, $0x0000000000000000
DATA q40shift<>+8(SB)/8, $0x0000000000000000
DATA q40shift<>+16(SB)/8, $0x0004000400040004
DATA q40shift<>+24(SB)/8, $0x0004000400040004
DATA q40shift<>+32(SB)/8, $0x0000000000000000
DATA q40shift<>+40(SB)/8, $0x0000000000000000
DATA q40shift<>+48(SB)/8, $0x0004000400040004
DATA q40shift<>+56(SB)/8, $0x0004000400040004
GLOBL q40shift<>(SB), RODATA|NOPTR, $64
DATA mask10x64<>+0(SB)/8, $0x1010101010101010
DATA mask10x64<>+8(SB)/8, $0x1010101010101010
DATA mask10x64<>+16(SB)/8, $0x1010101010101010
DATA mask10x64<>+24(SB)/8, $0x1010101010101010
DATA mask10x64<>+32(SB)/8, $0x1010101010101010
DATA mask10x64<>+40(SB)/8, $0x1010101010101010
DATA mask10x64<>+48(SB)/8, $0x1010101010101010
DATA mask10x64<>+56(SB)/8, $0x1010101010101010
GLOBL mask10x64<>(SB), RODATA|NOPTR, $64
DATA q5kshift<>+0(SB)/8, $0x0004000400040004
DATA q5kshift<>+8(SB)/8, $0x0004000400040004
DATA q5kshift<>+16(SB)/8, $0x0004000400040004
DATA q5kshift<>+24(SB)/8, $0x0004000400040004
DATA q5kshift<>+32(SB)/8, $0x0003000300030003
DATA q5kshift<>+40(SB)/8, $0x0003000300030003
DATA q5kshift<>+48(SB)/8, $0x0003000300030003
DATA q5kshift<>+56(SB)/8, $0x0003000300030003
DATA q5kshift<>+64(SB)/8, $0x0002000200020002
DATA q5kshift<>+72(SB)/8, $0x0002000200020002
DATA q5kshift<>+80(SB)/8, $0x0002000200020002
DATA q5kshift<>+88(SB)/8, $0x0002000200020002
DATA q5kshift<>+96(SB)/8, $0x0001000100010001
DATA q5kshift<>+104(SB)/8, $0x0001000100010001
DATA q5kshift<>+112(SB)/8, $0x0001000100010001
DATA q5kshift<>+120(SB)/8, $0x0001000100010001
DATA q5kshift<>+128(SB)/8, $0x0000000000000000
DATA q5kshift<>+136(SB)/8, $0x0000000000000000
DATA q5kshift<>+144(SB)/8, $0x0000000000000000
DATA q5kshift<>+152(SB)/8, $0x0000000000000000
DATA q5kshift<>+160(SB)/8, $0x0001000100010001
DATA q5kshift<>+168(SB)/8, $0x0001000100010001
DATA q5kshift<>+176(SB)/8, $0x0001000100010001
DATA q5kshift<>+184(SB)/8, $0x0001000100010001
DATA q5kshift<>+192(SB)/8, $0x0002000200020002
DATA q5kshift<>+200(SB)/8, $0x0002000200020002
DATA q5kshift<>+208(SB)/8, $0x0002000200020002
DATA q5kshift<>+216(SB)/8, $0x0002000200020002
DATA q5kshift<>+224(SB)/8, $0x0003000300030003
DATA q5kshift<>+232(SB)/8, $0x0003000300030003
DATA q5kshift<>+240(SB)/8, $0x0003000300030003
DATA q5kshift<>+248(SB)/8, $0x0003000300030003
GLOBL q5kshift<>(SB), RODATA|NOPTR, $256
DATA k3f<>+0(SB)/8, $0x3f3f3f3f3f3f3f3f
DATA k3f<>+8(SB)/8, $0x3f3f3f3f3f3f3f3f
GLOBL k3f<>(SB), RODATA|NOPTR, $16
DATA k03<>+0(SB)/8, $0x0303030303030303
DATA k03<>+8(SB)/8, $0x0303030303030303
GLOBL k03<>(SB), RODATA|NOPTR, $16
DATA k0f<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA k0f<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL k0f<>(SB), RODATA|NOPTR, $16
DATA kshift04<>+0(SB)/8, $0x0000000400000000
DATA kshift04<>+8(SB)/8, $0x0000000000000000
GLOBL kshift04<>(SB), RODATA|NOPTR, $16
DATA mask03x64<>+0(SB)/8, $0x0303030303030303
DATA mask03x64<>+8(SB)/8, $0x0303030303030303
DATA mask03x64<>+16(SB)/8, $0x0303030303030303
DATA mask03x64<>+24(SB)/8, $0x0303030303030303
DATA mask03x64<>+32(SB)/8, $0x0303030303030303
DATA mask03x64<>+40(SB)/8, $0x0303030303030303
DATA mask03x64<>+48(SB)/8, $0x0303030303030303
DATA mask03x64<>+56(SB)/8, $0x0303030303030303
GLOBL mask03x64<>(SB), RODATA|NOPTR, $64
DATA mask30x64<>+0(SB)/8, $0x3030303030303030
DATA mask30x64<>+8(SB)/8, $0x3030303030303030
DATA mask30x64<>+16(SB)/8, $0x3030303030303030
DATA mask30x64<>+24(SB)/8, $0x3030303030303030
DATA mask30x64<>+32(SB)/8, $0x3030303030303030
DATA mask30x64<>+40(SB)/8, $0x3030303030303030
DATA mask30x64<>+48(SB)/8, $0x3030303030303030
DATA mask30x64<>+56(SB)/8, $0x3030303030303030
GLOBL mask30x64<>(SB), RODATA|NOPTR, $64
DATA q4kperm<>+0(SB)/8, $0x0000000000000000
DATA q4kperm<>+8(SB)/8, $0x0000000000000000
DATA q4kperm<>+16(SB)/8, $0x0000000000000000
DATA q4kperm<>+24(SB)/8, $0x0000000000000000
DATA q4kperm<>+32(SB)/8, $0x0001000100010001
DATA q4kperm<>+40(SB)/8, $0x0001000100010001
DATA q4kperm<>+48(SB)/8, $0x0001000100010001
DATA q4kperm<>+56(SB)/8, $0x0001000100010001
DATA q4kperm<>+64(SB)/8, $0x0002000200020002
DATA q4kperm<>+72(SB)/8, $0x0002000200020002
DATA q4kperm<>+80(SB)/8, $0x0002000200020002
DATA q4kperm<>+88(SB)/8, $0x0002000200020002
DATA q4kperm<>+96(SB)/8, $0x0003000300030003
DATA q4kperm<>+104(SB)/8, $0x0003000300030003
DATA q4kperm<>+112(SB)/8, $0x0003000300030003
DATA q4kperm<>+120(SB)/8, $0x0003000300030003
DATA q4kperm<>+128(SB)/8, $0x0004000400040004
DATA q4kperm<>+136(SB)/8, $0x0004000400040004
DATA q4kperm<>+144(SB)/8, $0x0004000400040004
DATA q4kperm<>+152(SB)/8, $0x0004000400040004
DATA q4kperm<>+160(SB)/8, $0x0005000500050005
DATA q4kperm<>+168(SB)/8, $0x0005000500050005
DATA q4kperm<>+176(SB)/8, $0x0005000500050005
DATA q4kperm<>+184(SB)/8, $0x0005000500050005
DATA q4kperm<>+192(SB)/8, $0x0006000600060006
DATA q4kperm<>+200(SB)/8, $0x0006000600060006
DATA q4kperm<>+208(SB)/8, $0x0006000600060006
DATA q4kperm<>+216(SB)/8, $0x0006000600060006
DATA q4kperm<>+224(SB)/8, $0x0007000700070007
DATA q4kperm<>+232(SB)/8, $0x0007000700070007
DATA q4kperm<>+240(SB)/8, $0x0007000700070007
DATA q4kperm<>+248(SB)/8, $0x0007000700070007
GLOBL q4kperm<>(SB), RODATA|NOPTR, $256
DATA q6kperm<>+0(SB)/8, $0x0000000000000000
DATA q6kperm<>+8(SB)/8, $0x0000000000000000
DATA q6kperm<>+16(SB)/8, $0x0001000100010001
DATA q6kperm<>+24(SB)/8, $0x0001000100010001
DATA q6kperm<>+32(SB)/8, $0x0002000200020002
DATA q6kperm<>+40(SB)/8, $0x0002000200020002
DATA q6kperm<>+48(SB)/8, $0x0003000300030003
DATA q6kperm<>+56(SB)/8, $0x0003000300030003
DATA q6kperm<>+64(SB)/8, $0x0004000400040004
DATA q6kperm<>+72(SB)/8, $0x0004000400040004
DATA q6kperm<>+80(SB)/8, $0x0005000500050005
DATA q6kperm<>+88(SB)/8, $0x0005000500050005
DATA q6kperm<>+96(SB)/8, $0x0006000600060006
DATA q6kperm<>+104(SB)/8, $0x0006000600060006
DATA q6kperm<>+112(SB)/8, $0x0007000700070007
DATA q6kperm<>+120(SB)/8, $0x0007000700070007
DATA q6kperm<>+128(SB)/8, $0x0008000800080008
DATA q6kperm<>+136(SB)/8, $0x0008000800080008
DATA q6kperm<>+144(SB)/8, $0x0009000900090009
DATA q6kperm<>+152(SB)/8, $0x0009000900090009
DATA q6kperm<>+160(SB)/8, $0x000a000a000a000a
DATA q6kperm<>+168(SB)/8, $0x000a000a000a000a
DATA q6kperm<>+176(SB)/8, $0x000b000b000b000b
DATA q6kperm<>+184(SB)/8, $0x000b000b000b000b
DATA q6kperm<>+192(SB)/8, $0x000c000c000c000c
DATA q6kperm<>+200(SB)/8, $0x000c000c000c000c
DATA q6kperm<>+208(SB)/8, $0x000d000d000d000d
DATA q6kperm<>+216(SB)/8, $0x000d000d000d000d
DATA q6kperm<>+224(SB)/8, $0x000e000e000e000e
DATA q6kperm<>+232(SB)/8, $0x000e000e000e000e
DATA q6kperm<>+240(SB)/8, $0x000f000f000f000f
DATA q6kperm<>+248(SB)/8, $0x000f000f000f000f
GLOBL q6kperm<>(SB), RODATA|NOPTR, $256

// SCALE2(woff, bb): Z2 = [s_b x8 | s_b+1 x8], s = float32(f16(w) * d).
#define SCALE2(woff, bb) \
	MOVWLZX   woff(SI), AX;    \
	MOVWLZX   woff+bb(SI), BX; \
	SHLL      $16, BX;         \
	ORL       BX, AX;          \
	VMOVD     AX, X2;          \
	VCVTPH2PS X2, X2;          \
	VMOVQ     (DX), X3;        \
	VMULPS    X3, X2, X2;      \
	VPERMPS   Z2, Z31, Z2

// FLOAT_ACC: Z0 += float(Z7) * Z2.
#define FLOAT_ACC \
	VCVTDQ2PS Z7, Z7;     \
	VMULPS    Z2, Z7, Z7; \
	VADDPS    Z7, Z0, Z0

// FINISH16: X0 = hsum8(lanes 0..7 + lanes 8..15) of Z0.
#define FINISH16 \
	VEXTRACTF32X8 $1, Z0, Y1; \
	VADDPS        Y1, Y0, Y0; \
	VEXTRACTF128  $1, Y0, X1; \
	VADDPS        X1, X0, X0; \
	VMOVHLPS      X0, X0, X1; \
	VADDPS        X1, X0, X0; \
	VMOVSHDUP     X0, X1;     \
	VADDSS        X1, X0, X0

// TAIL_SCALE: Y2 = broadcast float32(f16(w[0]) * d[0]) for a single block.
#define TAIL_SCALE \
	MOVWLZX      (SI), AX; \
	VMOVD        AX, X2;   \
	VCVTPH2PS    X2, X2;   \
	VMULSS       (DX), X2, X2; \
	VBROADCASTSS X2, Y2

// func dotQ8_0AVX512(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ8_0AVX512(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXORD    Z0, Z0, Z0
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
q80loop:
	CMPQ CX, $2
	JLT  q80tail
	SCALE2(0, 34)
	VMOVDQU      2(SI), Y3
	VINSERTI64X4 $1, 36(SI), Z3, Z3
	VMOVDQU64    (DI), Z4
	VPABSB       Z3, Z5
	VPMOVB2M     Z3, K1
	VPSUBB       Z4, Z30, K1, Z4
	VPXORD       Z7, Z7, Z7
	VPDPBUSD     Z4, Z5, Z7
	FLOAT_ACC
	ADDQ $68, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q80loop
q80tail:
	TESTQ CX, CX
	JZ    q80done
	TAIL_SCALE
	VMOVDQU  2(SI), Y3
	VMOVDQU  (DI), Y4
	VPABSB   Y3, Y5
	VPSIGNB  Y3, Y4, Y6
	VPXOR    Y7, Y7, Y7
	VPDPBUSD Y6, Y5, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS   Y2, Y7, Y7
	MOVL     $0xff, AX
	KMOVW    AX, K2
	VADDPS   Z7, Z0, K2, Z0
q80done:
	FINISH16
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// Q40_STEP(woff, yoff, ZS): blocks b, b+1 at woff(SI): a masked 34-byte
// load (nothing past the pair is touched), VPERMB spreads the quants to
// [qs_b, qs_b, qs_b1, qs_b1] and the word shifts (0 or 4) plus the mask
// leave the nibbles in element order; then sum (u-8)*y per 4-byte lane and
// accumulate float(lane) * ZS into Z0.
#define Q40_STEP(woff, yoff, ZS) \
	VMOVDQU8.Z woff+2(SI), K3, Z4; \
	VPERMB    Z4, Z26, Z4;     \
	VPSRLVW   Z25, Z4, Z4;     \
	VPANDD    Z29, Z4, Z4;     \
	VMOVDQU64 yoff(DI), Z5;    \
	VPXORD    Z6, Z6, Z6;      \
	VPDPBUSD  Z5, Z28, Z6;     \
	VPSUBD    Z6, Z30, Z7;     \
	VPDPBUSD  Z5, Z4, Z7;      \
	VCVTDQ2PS Z7, Z7;          \
	VMULPS    ZS, Z7, Z7;      \
	VADDPS    Z7, Z0, Z0

// func dotQ4_0AVX512(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ4_0AVX512(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXORD    Z0, Z0, Z0
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU32 pair8idx2<>(SB), Z27
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 eights64<>(SB), Z28
	VMOVDQU64 q40perm<>(SB), Z26
	VMOVDQU64 q40shift<>(SB), Z25
	MOVQ      $0x3ffffffff, AX
	KMOVQ     AX, K3
q40loop4:
	CMPQ CX, $4
	JLT  q40loop2
	// scales of four blocks at once
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 18(SI), X2, X2
	VPINSRW   $2, 36(SI), X2, X2
	VPINSRW   $3, 54(SI), X2, X2
	VCVTPH2PS X2, X2
	VMULPS    (DX), X2, X2
	VPERMPS   Z2, Z31, Z3
	VPERMPS   Z2, Z27, Z2
	Q40_STEP(0, 0, Z3)
	Q40_STEP(36, 64, Z2)
	ADDQ $72, SI
	ADDQ $128, DI
	ADDQ $16, DX
	SUBQ $4, CX
	JMP  q40loop4
q40loop2:
	CMPQ CX, $2
	JLT  q40tail
	SCALE2(0, 18)
	Q40_STEP(0, 0, Z2)
	ADDQ $36, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
q40tail:
	TESTQ CX, CX
	JZ    q40done
	TAIL_SCALE
	VMOVDQU     2(SI), X3
	VPSRLW      $4, X3, X4
	VINSERTI128 $1, X4, Y3, Y3
	VPANDD      Y29, Y3, Y3
	VMOVDQU     (DI), Y4
	VPXORD      Y6, Y6, Y6
	VPDPBUSD    Y4, Y28, Y6
	VPSUBD      Y6, Y30, Y7
	VPDPBUSD    Y4, Y3, Y7
	VCVTDQ2PS   Y7, Y7
	VMULPS      Y2, Y7, Y7
	MOVL        $0xff, AX
	KMOVW       AX, K2
	VADDPS      Z7, Z0, K2, Z0
q40done:
	FINISH16
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// Four-position kernels: the weight blocks are loaded and unpacked once and
// multiplied with the activations of positions i..i+3 (rows y, y+S, y+2S,
// y+3S; block scales d, d+T, d+2T, d+3T). Each position's accumulator gets
// exactly the operations of the one-position kernel, so the bits agree.

// DXPAIR(woff, bb): X2 = [f16(w[woff]), f16(w[woff+bb])] as float32.
#define DXPAIR(woff, bb) \
	MOVWLZX   woff(SI), AX;    \
	MOVWLZX   woff+bb(SI), BX; \
	SHLL      $16, BX;         \
	ORL       BX, AX;          \
	VMOVD     AX, X2;          \
	VCVTPH2PS X2, X2

// POS_SCALE(daddr): Z8 = [dx_b*dy_b x8 | dx_b1*dy_b1 x8] for one position.
#define POS_SCALE(daddr) \
	VMOVQ   daddr, X8;      \
	VMULPS  X8, X2, X8;     \
	VPERMPS Z8, Z31, Z8

// Q80_POS(yaddr, daddr, ACC): one position of a Q8_0 block pair; Z5 = |w|,
// K1 = sign of w.
#define Q80_POS(yaddr, daddr, ACC) \
	POS_SCALE(daddr);           \
	VMOVDQU64 yaddr, Z4;        \
	VPSUBB    Z4, Z30, K1, Z4;  \
	VPXORD    Z7, Z7, Z7;       \
	VPDPBUSD  Z4, Z5, Z7;       \
	VCVTDQ2PS Z7, Z7;           \
	VMULPS    Z8, Z7, Z7;       \
	VADDPS    Z7, ACC, ACC

// Q80_TAILPOS: one position of a single trailing Q8_0 block (Y5 = |w|,
// K1 = sign, X2 = dx), added to lanes 0..7 only.
#define Q80_TAILPOS(yaddr, daddr, ACC) \
	VMULSS       daddr, X2, X8; \
	VBROADCASTSS X8, Y8;        \
	VMOVDQU      yaddr, Y4;     \
	VPSUBB       Y4, Y30, K1, Y4; \
	VPXORD       Y7, Y7, Y7;    \
	VPDPBUSD     Y4, Y5, Y7;    \
	VCVTDQ2PS    Y7, Y7;        \
	VMULPS       Y8, Y7, Y7;    \
	VADDPS       Z7, ACC, K2, ACC

// FIN(Z, Y, X): X = hsum8(lanes 0..7 + 8..15 of Z); clobbers X1/Y1.
#define FIN(Zr, Yr, Xr) \
	VEXTRACTF32X8 $1, Zr, Y1; \
	VADDPS        Y1, Yr, Yr; \
	VEXTRACTF128  $1, Yr, X1; \
	VADDPS        X1, Xr, Xr; \
	VMOVHLPS      Xr, Xr, X1; \
	VADDPS        X1, Xr, Xr; \
	VMOVSHDUP     Xr, X1;     \
	VADDSS        X1, Xr, Xr

// func dotQ8_0x4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ8_0x4AVX512(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ nb+40(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	VPXORD    Z0, Z0, Z0
	VPXORD    Z9, Z9, Z9
	VPXORD    Z10, Z10, Z10
	VPXORD    Z11, Z11, Z11
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU32 pair8idx2<>(SB), Z27
q80x4loop4:
	CMPQ CX, $4
	JLT  q80x4loop
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 34(SI), X2, X2
	VPINSRW   $2, 68(SI), X2, X2
	VPINSRW   $3, 102(SI), X2, X2
	VCVTPH2PS X2, X2
	VMOVDQU      2(SI), Y3
	VINSERTI64X4 $1, 36(SI), Z3, Z3
	VPABSB       Z3, Z5
	VPMOVB2M     Z3, K1
	VMOVDQU64    70(SI), Y12
	VINSERTI64X4 $1, 104(SI), Z12, Z12
	VPABSB       Z12, Z14
	VPMOVB2M     Z12, K4
	VMULPS    (DX), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI), Z4
	VPSUBB    Z4, Z30, K1, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z5, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVDQU64 64 (DI), Z4
	VPSUBB    Z4, Z30, K4, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z14, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMULPS    (DX)(R10*1), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R9*1), Z4
	VPSUBB    Z4, Z30, K1, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z5, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMOVDQU64 64 (DI)(R9*1), Z4
	VPSUBB    Z4, Z30, K4, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z14, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMULPS    (DX)(R10*2), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R9*2), Z4
	VPSUBB    Z4, Z30, K1, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z5, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMOVDQU64 64 (DI)(R9*2), Z4
	VPSUBB    Z4, Z30, K4, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z14, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMULPS    (DX)(R13*1), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R12*1), Z4
	VPSUBB    Z4, Z30, K1, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z5, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z11, Z11
	VMOVDQU64 64 (DI)(R12*1), Z4
	VPSUBB    Z4, Z30, K4, Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z14, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z11, Z11
	ADDQ $136, SI
	ADDQ $128, DI
	ADDQ $16, DX
	SUBQ $4, CX
	JMP  q80x4loop4
q80x4loop:
	CMPQ CX, $2
	JLT  q80x4tail
	DXPAIR(0, 34)
	VMOVDQU      2(SI), Y3
	VINSERTI64X4 $1, 36(SI), Z3, Z3
	VPABSB       Z3, Z5
	VPMOVB2M     Z3, K1
	Q80_POS((DI), (DX), Z0)
	Q80_POS((DI)(R9*1), (DX)(R10*1), Z9)
	Q80_POS((DI)(R9*2), (DX)(R10*2), Z10)
	Q80_POS((DI)(R12*1), (DX)(R13*1), Z11)
	ADDQ $68, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q80x4loop
q80x4tail:
	TESTQ CX, CX
	JZ    q80x4done
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	VMOVDQU   2(SI), Y3
	VPABSB    Y3, Y5
	VPMOVB2M  Y3, K1
	MOVL      $0xff, AX
	KMOVW     AX, K2
	Q80_TAILPOS((DI), (DX), Z0)
	Q80_TAILPOS((DI)(R9*1), (DX)(R10*1), Z9)
	Q80_TAILPOS((DI)(R9*2), (DX)(R10*2), Z10)
	Q80_TAILPOS((DI)(R12*1), (DX)(R13*1), Z11)
q80x4done:
	MOVQ out+48(FP), R8
	FIN(Z0, Y0, X0)
	MOVSS X0, (R8)
	FIN(Z9, Y9, X9)
	MOVSS X9, 4(R8)
	FIN(Z10, Y10, X10)
	MOVSS X10, 8(R8)
	FIN(Z11, Y11, X11)
	MOVSS X11, 12(R8)
	VZEROUPPER
	RET

// Q40_POS(yaddr, daddr, ACC): one position of a Q4_0 block pair (Z3 = the
// unsigned nibbles in element order).
#define Q40_POS(yaddr, daddr, ACC) \
	POS_SCALE(daddr);           \
	VMOVDQU64 yaddr, Z4;        \
	VPXORD    Z6, Z6, Z6;       \
	VPDPBUSD  Z4, Z28, Z6;      \
	VPSUBD    Z6, Z30, Z7;      \
	VPDPBUSD  Z4, Z3, Z7;       \
	VCVTDQ2PS Z7, Z7;           \
	VMULPS    Z8, Z7, Z7;       \
	VADDPS    Z7, ACC, ACC

#define Q40_TAILPOS(yaddr, daddr, ACC) \
	VMULSS       daddr, X2, X8; \
	VBROADCASTSS X8, Y8;        \
	VMOVDQU      yaddr, Y4;     \
	VPXORD       Y6, Y6, Y6;    \
	VPDPBUSD     Y4, Y28, Y6;   \
	VPSUBD       Y6, Y30, Y7;   \
	VPDPBUSD     Y4, Y3, Y7;    \
	VCVTDQ2PS    Y7, Y7;        \
	VMULPS       Y8, Y7, Y7;    \
	VADDPS       Z7, ACC, K2, ACC

// func dotQ4_0x4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ4_0x4AVX512(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ nb+40(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	VPXORD    Z0, Z0, Z0
	VPXORD    Z9, Z9, Z9
	VPXORD    Z10, Z10, Z10
	VPXORD    Z11, Z11, Z11
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 eights64<>(SB), Z28
	VMOVDQU32 pair8idx2<>(SB), Z27
	VMOVDQU64 q40perm<>(SB), Z26
	VMOVDQU64 q40shift<>(SB), Z25
	MOVQ      $0x3ffffffff, AX
	KMOVQ     AX, K3
q40x4loop4:
	CMPQ CX, $4
	JLT  q40x4loop
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 18(SI), X2, X2
	VPINSRW   $2, 36(SI), X2, X2
	VPINSRW   $3, 54(SI), X2, X2
	VCVTPH2PS X2, X2
	VMOVDQU8.Z 2(SI), K3, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	VMOVDQU8.Z 38(SI), K3, Z12
	VPERMB    Z12, Z26, Z12
	VPSRLVW   Z25, Z12, Z12
	VPANDD    Z29, Z12, Z12
	VMULPS    (DX), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVDQU64 64 (DI), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z12, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMULPS    (DX)(R10*1), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R9*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMOVDQU64 64 (DI)(R9*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z12, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMULPS    (DX)(R10*2), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R9*2), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMOVDQU64 64 (DI)(R9*2), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z12, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMULPS    (DX)(R13*1), X2, X8
	VPERMPS   Z8, Z31, Z13
	VPERMPS   Z8, Z27, Z8
	VMOVDQU64 (DI)(R12*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z13, Z7, Z7
	VADDPS    Z7, Z11, Z11
	VMOVDQU64 64 (DI)(R12*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z12, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z11, Z11
	ADDQ $72, SI
	ADDQ $128, DI
	ADDQ $16, DX
	SUBQ $4, CX
	JMP  q40x4loop4
q40x4loop:
	CMPQ CX, $2
	JLT  q40x4tail
	DXPAIR(0, 18)
	VMOVDQU      2(SI), X3
	VINSERTI128  $1, 20(SI), Y3, Y3
	VPSRLW       $4, Y3, Y4
	VINSERTI64X4 $1, Y4, Z3, Z3
	VSHUFI64X2   $0xd8, Z3, Z3, Z3
	VPANDD       Z29, Z3, Z3
	Q40_POS((DI), (DX), Z0)
	Q40_POS((DI)(R9*1), (DX)(R10*1), Z9)
	Q40_POS((DI)(R9*2), (DX)(R10*2), Z10)
	Q40_POS((DI)(R12*1), (DX)(R13*1), Z11)
	ADDQ $36, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q40x4loop
q40x4tail:
	TESTQ CX, CX
	JZ    q40x4done
	MOVWLZX     (SI), AX
	VMOVD       AX, X2
	VCVTPH2PS   X2, X2
	VMOVDQU     2(SI), X3
	VPSRLW      $4, X3, X4
	VINSERTI128 $1, X4, Y3, Y3
	VPANDD      Y29, Y3, Y3
	MOVL        $0xff, AX
	KMOVW       AX, K2
	Q40_TAILPOS((DI), (DX), Z0)
	Q40_TAILPOS((DI)(R9*1), (DX)(R10*1), Z9)
	Q40_TAILPOS((DI)(R9*2), (DX)(R10*2), Z10)
	Q40_TAILPOS((DI)(R12*1), (DX)(R13*1), Z11)
q40x4done:
	MOVQ out+48(FP), R8
	FIN(Z0, Y0, X0)
	MOVSS X0, (R8)
	FIN(Z9, Y9, X9)
	MOVSS X9, 4(R8)
	FIN(Z10, Y10, X10)
	MOVSS X10, 8(R8)
	FIN(Z11, Y11, X11)
	MOVSS X11, 12(R8)
	VZEROUPPER
	RET

// Four-position k-quant kernels. The integer total isum (and the min
// correction summs) of each super-block is exact, so any lane arrangement
// gives the canonical value; the float steps per position are those of
// dot_generic.go.

// HSUMZ(AX): AX = sum of the 16 int32 lanes of Z0; clobbers Z1.
#define HSUMZ \
	VEXTRACTI64X4 $1, Z0, Y1;  \
	VPADDD        Y1, Y0, Y0;  \
	VEXTRACTI128  $1, Y0, X1;  \
	VPADDD        X1, X0, X0;  \
	VPSHUFD       $0x4e, X0, X1; \
	VPADDD        X1, X0, X0;  \
	VPSHUFD       $0xb1, X0, X1; \
	VPADDD        X1, X0, X0;  \
	VMOVD         X0, AX

// KFLOAT(da, R, SCALEREG, OP, SUM): SUM = SUM OP float32(float32(SCALEREG*dy) * float32(R)).
#define KFLOAT(da, R, SCALEREG, OP, SUM) \
	VMULSS     da, SCALEREG, X1; \
	VCVTSI2SSL R, X4, X4;        \
	VMULSS     X4, X1, X1;       \
	OP         X1, SUM, SUM

// Q4K_POS: one position; weights in Z12..Z15 (64 elements each, element
// order), scales in Z20..Z23 (int16), mins repeated per 16 activations in
// Y6, [dx, dmin] in X2. The integer totals isum and summs are reduced
// together, then sum += float32(dx*dy)*isum; sum -= float32(dmin*dy)*summs.
#define Q4K_POS(ya, da, ba, SUM) \
	VPMADDUBSW 0 ya, Z12, Z1;    \
	VPMADDWD   Z20, Z1, Z0;      \
	VPMADDUBSW 64 ya, Z13, Z1;   \
	VPDPWSSD   Z1, Z21, Z0;      \
	VPMADDUBSW 128 ya, Z14, Z1;  \
	VPDPWSSD   Z1, Z22, Z0;      \
	VPMADDUBSW 192 ya, Z15, Z1;  \
	VPDPWSSD   Z1, Z23, Z0;      \
	VEXTRACTI64X4 $1, Z0, Y1;    \
	VPADDD     Y1, Y0, Y0;       \
	VPMADDWD   0 ba, Y6, Y1;     \
	VPHADDD    Y1, Y0, Y0;       \
	VPHADDD    Y0, Y0, Y0;       \
	VEXTRACTI128 $1, Y0, X1;     \
	VPADDD     X1, X0, X0;       \
	VCVTDQ2PS  X0, X0;           \
	VBROADCASTSS da, X1;         \
	VMULPS     X2, X1, X1;       \
	VMULPS     X1, X0, X0;       \
	VADDSS     X0, SUM, SUM;     \
	VMOVSHDUP  X0, X0;           \
	VSUBSS     X0, SUM, SUM

// Q4K_CHUNKW(c, Z): Z = the 64 nibbles of chunk c in element order.
#define Q4K_CHUNKW(c, Zr) \
	VMOVDQU64    16+32*c(SI), Y16; \
	VPSRLW       $4, Y16, Y17;     \
	VINSERTI64X4 $1, Y17, Z16, Zr; \
	VPANDD       Z29, Zr, Zr

// func dotQ4_Kx4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ4_Kx4AVX512(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ bsums+40(FP), R8
	MOVQ bstride+48(FP), R11
	MOVQ nb+56(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	LEAQ (R11)(R11*2), R14
	VXORPS    X8, X8, X8
	VXORPS    X9, X9, X9
	VXORPS    X10, X10, X10
	VXORPS    X11, X11, X11
	VMOVDQU64 minexp<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 q4kperm<>+0(SB), Z24
	VMOVDQU64 q4kperm<>+64(SB), Z25
	VMOVDQU64 q4kperm<>+128(SB), Z26
	VMOVDQU64 q4kperm<>+192(SB), Z27
q4kx4loop:
	TESTQ CX, CX
	JZ    q4kx4done
	// 6-bit scales and mins: [s0 s1 s2] -> scales (X7) and mins (X6) as int16
	VMOVDQU    4(SI), X4
	VPAND      k3f<>(SB), X4, X6
	VPSRLD     $6, X4, X5
	VPAND      k03<>(SB), X5, X5
	VPSLLD     $4, X5, X5
	VPSHUFD    $0xaa, X4, X7
	VPSRLVD    kshift04<>(SB), X7, X7
	VPAND      k0f<>(SB), X7, X7
	VPOR       X5, X7, X7
	VPUNPCKLDQ X7, X6, X6
	VPMOVZXBW  X6, X7
	VPSRLDQ    $8, X6, X6
	VPMOVZXBW  X6, X6
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	Q4K_CHUNKW(0, Z12)
	Q4K_CHUNKW(1, Z13)
	Q4K_CHUNKW(2, Z14)
	Q4K_CHUNKW(3, Z15)
	VMOVD     (SI), X2
	VCVTPH2PS X2, X2
	VPERMW    Y6, Y31, Y6
	Q4K_POS((DI), (DX), (R8), X8)
	Q4K_POS((DI)(R9*1), (DX)(R10*1), (R8)(R11*1), X9)
	Q4K_POS((DI)(R9*2), (DX)(R10*2), (R8)(R11*2), X10)
	Q4K_POS((DI)(R12*1), (DX)(R13*1), (R8)(R14*1), X11)
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q4kx4loop
q4kx4done:
	MOVQ  out+64(FP), AX
	MOVSS X8, (AX)
	MOVSS X9, 4(AX)
	MOVSS X10, 8(AX)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// Q6K_POS: one position; weights (6-bit, unsigned) in Z12..Z15, scales in
// Z20..Z23, the 16 scales as int16 in Y7, d in X2. The bias of 32 is
// removed with the activation block sums: isum -= 32 * sum(sc * bsums).
#define Q6K_POS(ya, da, ba, SUM) BIASK_POS(ya, da, ba, SUM, $5)

// BIASK_POS: Q6K_POS with the bias 2^B removed: isum -= 2^B * sum(sc*bsums).
#define BIASK_POS(ya, da, ba, SUM, B) \
	VPMADDUBSW 0 ya, Z12, Z1;    \
	VPMADDWD   Z20, Z1, Z0;      \
	VPMADDUBSW 64 ya, Z13, Z1;   \
	VPDPWSSD   Z1, Z21, Z0;      \
	VPMADDUBSW 128 ya, Z14, Z1;  \
	VPDPWSSD   Z1, Z22, Z0;      \
	VPMADDUBSW 192 ya, Z15, Z1;  \
	VPDPWSSD   Z1, Z23, Z0;      \
	VPMADDWD   0 ba, Y7, Y1;     \
	VPSLLD     B, Y1, Y1;        \
	VPSUBD     Z1, Z0, Z0;       \
	HSUMZ;                       \
	KFLOAT(da, AX, X2, VADDSS, SUM)

// Q6K_HALFW(h, ZA, ZB): ZA = elements 128h..128h+63, ZB = 128h+64..+127,
// as unsigned 6-bit values.
#define Q6K_HALFW(h, ZA, ZB) \
	VMOVDQU64    64*h(SI), Z16;    \
	VMOVDQU64    128+32*h(SI), Y17; \
	VPSRLW       $2, Y17, Y18;     \
	VINSERTI64X4 $1, Y18, Z17, Z17; \
	VPANDD       Z29, Z16, ZA;     \
	VPANDD       Z28, Z17, Z18;    \
	VPSLLW       $4, Z18, Z18;     \
	VPORD        Z18, ZA, ZA;      \
	VPSRLW       $4, Z16, ZB;      \
	VPANDD       Z29, ZB, ZB;      \
	VPANDD       Z30, Z17, Z18;    \
	VPORD        Z18, ZB, ZB

// func dotQ6_Kx4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ6_Kx4AVX512(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ bsums+40(FP), R8
	MOVQ bstride+48(FP), R11
	MOVQ nb+56(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	LEAQ (R11)(R11*2), R14
	VXORPS    X8, X8, X8
	VXORPS    X9, X9, X9
	VXORPS    X10, X10, X10
	VXORPS    X11, X11, X11
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 mask03x64<>(SB), Z28
	VMOVDQU64 mask30x64<>(SB), Z30
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q6kx4loop:
	TESTQ CX, CX
	JZ    q6kx4done
	VPMOVSXBW 192(SI), Y7
	VPERMW    Z7, Z24, Z20
	VPERMW    Z7, Z25, Z21
	VPERMW    Z7, Z26, Z22
	VPERMW    Z7, Z27, Z23
	Q6K_HALFW(0, Z12, Z13)
	Q6K_HALFW(1, Z14, Z15)
	MOVWLZX   208(SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	Q6K_POS((DI), (DX), (R8), X8)
	Q6K_POS((DI)(R9*1), (DX)(R10*1), (R8)(R11*1), X9)
	Q6K_POS((DI)(R9*2), (DX)(R10*2), (R8)(R11*2), X10)
	Q6K_POS((DI)(R12*1), (DX)(R13*1), (R8)(R14*1), X11)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q6kx4loop
q6kx4done:
	MOVQ  out+64(FP), AX
	MOVSS X8, (AX)
	MOVSS X9, 4(AX)
	MOVSS X10, 8(AX)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// Four-position float kernels: 32 lanes per position (two registers, lanes
// 0..15 and 16..31), separate multiply and add, reduced as
// v[l] = (acc[l]+acc[16+l]) + (acc[8+l]+acc[24+l]) then hsum8, exactly as
// the one-position kernels. n is a multiple of 32; the caller adds the tail.

#define LOAD_F16(addr, Zr) VCVTPH2PS addr, Zr
#define LOAD_BF16(addr, Zr) VPMOVZXWD addr, Zr; VPSLLD $16, Zr, Zr
#define LOAD_F32(addr, Zr) VMOVUPS addr, Zr

#define FPOS(LOAD, half, xa, ZA, ZB) \
	LOAD(0 xa, Z18);        \
	VMULPS Z16, Z18, Z18;   \
	VADDPS Z18, ZA, ZA;     \
	LOAD(half xa, Z19);     \
	VMULPS Z17, Z19, Z19;   \
	VADDPS Z19, ZB, ZB

#define FSTORE(ZA, ZB, off) \
	VADDPS ZB, ZA, Z0;      \
	FIN(Z0, Y0, X0);        \
	MOVSS  X0, off(AX)

// FLOATX4 expects SI = w, DI = x, R9 = x stride in bytes, CX = n, AX = out.
#define FLOATX4(LOAD, half, step) \
	LEAQ (R9)(R9*2), R12;      \
	SHRQ $5, CX;               \
	VPXORD Z8, Z8, Z8;         \
	VPXORD Z9, Z9, Z9;         \
	VPXORD Z10, Z10, Z10;      \
	VPXORD Z11, Z11, Z11;      \
	VPXORD Z12, Z12, Z12;      \
	VPXORD Z13, Z13, Z13;      \
	VPXORD Z14, Z14, Z14;      \
	VPXORD Z15, Z15, Z15;      \
loop:                          \
	TESTQ CX, CX;              \
	JZ    done;                \
	LOAD(0(SI), Z16);          \
	LOAD(half(SI), Z17);       \
	FPOS(LOAD, half, (DI), Z8, Z9);         \
	FPOS(LOAD, half, (DI)(R9*1), Z10, Z11); \
	FPOS(LOAD, half, (DI)(R9*2), Z12, Z13); \
	FPOS(LOAD, half, (DI)(R12*1), Z14, Z15); \
	ADDQ  $step, SI;           \
	ADDQ  $step, DI;           \
	DECQ  CX;                  \
	JMP   loop;                \
done:                          \
	FSTORE(Z8, Z9, 0);         \
	FSTORE(Z10, Z11, 4);       \
	FSTORE(Z12, Z13, 8);       \
	FSTORE(Z14, Z15, 12);      \
	VZEROUPPER;                \
	RET

// func dotF16x4AVX512(w *byte, x *uint16, xstride int, n int, out *[4]float32)
TEXT ·dotF16x4AVX512(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ out+32(FP), AX
	FLOATX4(LOAD_F16, 32, 64)

// func dotBF16x4AVX512(w *byte, x *uint16, xstride int, n int, out *[4]float32)
TEXT ·dotBF16x4AVX512(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ out+32(FP), AX
	FLOATX4(LOAD_BF16, 32, 64)

// func dotF32x4AVX512(w *byte, x *float32, xstride int, n int, out *[4]float32)
TEXT ·dotF32x4AVX512(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ xstride+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ out+32(FP), AX
	FLOATX4(LOAD_F32, 64, 128)

// Q5K_CHUNKW(c, Zr, SH, ZS): Z = the 64 5-bit values of chunk c in element
// order: nibbles, plus bit 2c (low half) or 2c+1 (high half) of qh (Z28 =
// [qh|qh]) moved to bit 4 by the word shift SH by the counts at ZS (bit 4
// of a byte never receives a bit of the neighbouring byte for these counts).
#define Q5K_CHUNKW(c, Zr, SH, ZS) \
	VMOVDQU64    48+32*c(SI), Y16; \
	VPSRLW       $4, Y16, Y17;     \
	VINSERTI64X4 $1, Y17, Z16, Zr; \
	VPANDD       Z29, Zr, Zr;      \
	SH           ZS, Z28, Z17;     \
	VPTERNLOGD   $0xf8, Z30, Z17, Zr

// func dotQ5_Kx4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ5_Kx4AVX512(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ bsums+40(FP), R8
	MOVQ bstride+48(FP), R11
	MOVQ nb+56(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	LEAQ (R11)(R11*2), R14
	VXORPS    X8, X8, X8
	VXORPS    X9, X9, X9
	VXORPS    X10, X10, X10
	VXORPS    X11, X11, X11
	VMOVDQU64 minexp<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 mask10x64<>(SB), Z30
	VMOVDQU64 q4kperm<>+0(SB), Z24
	VMOVDQU64 q4kperm<>+64(SB), Z25
	VMOVDQU64 q4kperm<>+128(SB), Z26
	VMOVDQU64 q4kperm<>+192(SB), Z27
q5kx4loop:
	TESTQ CX, CX
	JZ    q5kx4done
	VMOVDQU    4(SI), X4
	VPAND      k3f<>(SB), X4, X6
	VPSRLD     $6, X4, X7
	VPAND      k03<>(SB), X7, X7
	VPSLLD     $4, X7, X7
	VPSHUFD    $0xaa, X4, X1
	VPSRLVD    kshift04<>(SB), X1, X1
	VPAND      k0f<>(SB), X1, X1
	VPOR       X7, X1, X7
	VPUNPCKLDQ X7, X6, X6
	VPMOVZXBW  X6, X7
	VPSRLDQ    $8, X6, X6
	VPMOVZXBW  X6, X6
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	VBROADCASTI64X4 16(SI), Z28
	Q5K_CHUNKW(0, Z12, VPSLLVW, q5kshift<>+0(SB))
	Q5K_CHUNKW(1, Z13, VPSLLVW, q5kshift<>+64(SB))
	Q5K_CHUNKW(2, Z14, VPSRLVW, q5kshift<>+128(SB))
	Q5K_CHUNKW(3, Z15, VPSRLVW, q5kshift<>+192(SB))
	VMOVD     (SI), X2
	VCVTPH2PS X2, X2
	VPERMW    Y6, Y31, Y6
	Q4K_POS((DI), (DX), (R8), X8)
	Q4K_POS((DI)(R9*1), (DX)(R10*1), (R8)(R11*1), X9)
	Q4K_POS((DI)(R9*2), (DX)(R10*2), (R8)(R11*2), X10)
	Q4K_POS((DI)(R12*1), (DX)(R13*1), (R8)(R14*1), X11)
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q5kx4loop
q5kx4done:
	MOVQ  out+64(FP), AX
	MOVSS X8, (AX)
	MOVSS X9, 4(AX)
	MOVSS X10, 8(AX)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// One-position variants of the k-quant kernels above (same code, one
// position), faster than the AVX2 ones for decoding.

// func dotQ4_Kx1AVX512(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ4_Kx1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS    X8, X8, X8
	VMOVDQU64 minexp<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 q4kperm<>+0(SB), Z24
	VMOVDQU64 q4kperm<>+64(SB), Z25
	VMOVDQU64 q4kperm<>+128(SB), Z26
	VMOVDQU64 q4kperm<>+192(SB), Z27
q4kx1loop:
	TESTQ CX, CX
	JZ    q4kx1done
	// 6-bit scales and mins: [s0 s1 s2] -> scales (X7) and mins (X6) as int16
	VMOVDQU    4(SI), X4
	VPAND      k3f<>(SB), X4, X6
	VPSRLD     $6, X4, X5
	VPAND      k03<>(SB), X5, X5
	VPSLLD     $4, X5, X5
	VPSHUFD    $0xaa, X4, X7
	VPSRLVD    kshift04<>(SB), X7, X7
	VPAND      k0f<>(SB), X7, X7
	VPOR       X5, X7, X7
	VPUNPCKLDQ X7, X6, X6
	VPMOVZXBW  X6, X7
	VPSRLDQ    $8, X6, X6
	VPMOVZXBW  X6, X6
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	Q4K_CHUNKW(0, Z12)
	Q4K_CHUNKW(1, Z13)
	Q4K_CHUNKW(2, Z14)
	Q4K_CHUNKW(3, Z15)
	VMOVD     (SI), X2
	VCVTPH2PS X2, X2
	VPERMW    Y6, Y31, Y6
	Q4K_POS((DI), (DX), (R8), X8)
	ADDQ $144, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q4kx1loop
q4kx1done:
	VZEROUPPER
	MOVSS X8, ret+40(FP)
	RET

// func dotQ5_Kx1AVX512(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ5_Kx1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS    X8, X8, X8
	VMOVDQU64 minexp<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 mask10x64<>(SB), Z30
	VMOVDQU64 q4kperm<>+0(SB), Z24
	VMOVDQU64 q4kperm<>+64(SB), Z25
	VMOVDQU64 q4kperm<>+128(SB), Z26
	VMOVDQU64 q4kperm<>+192(SB), Z27
q5kx1loop:
	TESTQ CX, CX
	JZ    q5kx1done
	VMOVDQU    4(SI), X4
	VPAND      k3f<>(SB), X4, X6
	VPSRLD     $6, X4, X7
	VPAND      k03<>(SB), X7, X7
	VPSLLD     $4, X7, X7
	VPSHUFD    $0xaa, X4, X1
	VPSRLVD    kshift04<>(SB), X1, X1
	VPAND      k0f<>(SB), X1, X1
	VPOR       X7, X1, X7
	VPUNPCKLDQ X7, X6, X6
	VPMOVZXBW  X6, X7
	VPSRLDQ    $8, X6, X6
	VPMOVZXBW  X6, X6
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	VBROADCASTI64X4 16(SI), Z28
	Q5K_CHUNKW(0, Z12, VPSLLVW, q5kshift<>+0(SB))
	Q5K_CHUNKW(1, Z13, VPSLLVW, q5kshift<>+64(SB))
	Q5K_CHUNKW(2, Z14, VPSRLVW, q5kshift<>+128(SB))
	Q5K_CHUNKW(3, Z15, VPSRLVW, q5kshift<>+192(SB))
	VMOVD     (SI), X2
	VCVTPH2PS X2, X2
	VPERMW    Y6, Y31, Y6
	Q4K_POS((DI), (DX), (R8), X8)
	ADDQ $176, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q5kx1loop
q5kx1done:
	VZEROUPPER
	MOVSS X8, ret+40(FP)
	RET

// func dotQ6_Kx1AVX512(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ6_Kx1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS    X8, X8, X8
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 mask03x64<>(SB), Z28
	VMOVDQU64 mask30x64<>(SB), Z30
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q6kx1loop:
	TESTQ CX, CX
	JZ    q6kx1done
	VPMOVSXBW 192(SI), Y7
	VPERMW    Z7, Z24, Z20
	VPERMW    Z7, Z25, Z21
	VPERMW    Z7, Z26, Z22
	VPERMW    Z7, Z27, Z23
	Q6K_HALFW(0, Z12, Z13)
	Q6K_HALFW(1, Z14, Z15)
	MOVWLZX   208(SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	Q6K_POS((DI), (DX), (R8), X8)
	ADDQ $210, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q6kx1loop
q6kx1done:
	VZEROUPPER
	MOVSS X8, ret+40(FP)
	RET

// FLOATX1: the one-position version of FLOATX4 (SI = w, DI = x, CX = n);
// returns the sum in X0.
#define FLOATX1(LOAD, half, step) \
	SHRQ $5, CX;               \
	VPXORD Z8, Z8, Z8;         \
	VPXORD Z9, Z9, Z9;         \
loop1:                         \
	TESTQ CX, CX;              \
	JZ    done1;               \
	LOAD(0(SI), Z16);          \
	LOAD(half(SI), Z17);       \
	FPOS(LOAD, half, (DI), Z8, Z9); \
	ADDQ  $step, SI;           \
	ADDQ  $step, DI;           \
	DECQ  CX;                  \
	JMP   loop1;               \
done1:                         \
	VADDPS Z9, Z8, Z0;         \
	FIN(Z0, Y0, X0)

// func dotF16AVX512(w *byte, x *uint16, n int) float32
TEXT ·dotF16AVX512(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	FLOATX1(LOAD_F16, 32, 64)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotBF16AVX512(w *byte, x *uint16, n int) float32
TEXT ·dotBF16AVX512(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	FLOATX1(LOAD_BF16, 32, 64)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// One-position AVX-512 kernels for Q4_1, Q5_0 and Q5_1, built like the
// Q4_0 one: four blocks per iteration, masked loads that stay inside the
// block pair, VPERMB unpacking, the fifth bits added with a byte-masked add
// (mask = the 32 qh bits of each block), and for Q4_1/Q5_1 the offset terms
// m*s summed in two lanes (even and odd blocks) as the canonical ms[2].

// func dotQ4_1AVX512(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ4_1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ s+24(FP), R8
	MOVQ nb+32(FP), CX
	VPXORD    Z0, Z0, Z0
	VPXORD    Z30, Z30, Z30
	VXORPS    X9, X9, X9
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU32 pair8idx2<>(SB), Z27
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ4_1<>(SB), Z26
	MOVQ      $0xfffffffff, AX
	KMOVQ     AX, K3
q41loop4:
	CMPQ CX, $4
	JLT  q41loop2
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 20(SI), X2, X2
	VPINSRW   $2, 40(SI), X2, X2
	VPINSRW   $3, 60(SI), X2, X2
	VCVTPH2PS X2, X2
	VMULPS    (DX), X2, X2
	VPERMPS   Z2, Z31, Z3
	VPERMPS   Z2, Z27, Z2
	MOVWLZX   2(SI), AX
	VMOVD     AX, X10
	VPINSRW   $1, 22(SI), X10, X10
	VPINSRW   $2, 42(SI), X10, X10
	VPINSRW   $3, 62(SI), X10, X10
	VCVTPH2PS X10, X10
	VMULPS    (R8), X10, X10
	VMOVQ     X10, X11
	VADDPS    X11, X9, X9
	VMOVHLPS  X10, X10, X11
	VMOVQ     X11, X11
	VADDPS    X11, X9, X9
	VMOVDQU8.Z 4(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z3, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVDQU8.Z 44(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	VMOVDQU64 64(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $80, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, R8
	SUBQ $4, CX
	JMP  q41loop4
q41loop2:
	CMPQ CX, $2
	JLT  q41tail
	SCALE2(0, 20)
	MOVWLZX   2(SI), AX
	MOVWLZX   22(SI), BX
	SHLL      $16, BX
	ORL       BX, AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	VMOVQ     (R8), X11
	VMULPS    X11, X10, X10
	VMOVQ     X10, X10
	VADDPS    X10, X9, X9
	VMOVDQU8.Z 4(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $40, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
q41tail:
	TESTQ CX, CX
	JZ    q41done
	TAIL_SCALE
	MOVWLZX   2(SI), AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	VMULSS    (R8), X10, X10
	VADDSS    X10, X9, X9
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 4(SI), K4, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	VMOVDQU   (DI), Y5
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y5, Y4, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y2, Y7, Y7
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VADDPS    Z7, Z0, K2, Z0
q41done:
	FINISH16
	VMOVSHDUP X9, X10
	VADDSS    X10, X9, X9
	VADDSS    X9, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// func dotQ5_0AVX512(w *byte, y *int8, d *float32, nb int) float32
TEXT ·dotQ5_0AVX512(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXORD    Z0, Z0, Z0
	VPXORD    Z30, Z30, Z30
	VXORPS    X9, X9, X9
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU32 pair8idx2<>(SB), Z27
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ5_0<>(SB), Z26
	MOVQ      $0x3fffffffff, AX
	KMOVQ     AX, K3
q50loop4:
	CMPQ CX, $4
	JLT  q50loop2
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 22(SI), X2, X2
	VPINSRW   $2, 44(SI), X2, X2
	VPINSRW   $3, 66(SI), X2, X2
	VCVTPH2PS X2, X2
	VMULPS    (DX), X2, X2
	VPERMPS   Z2, Z31, Z3
	VPERMPS   Z2, Z27, Z2
	VMOVDQU8.Z 6(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      2(SI), AX
	MOVL      24(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z5, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z3, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVDQU8.Z 50(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      46(SI), AX
	MOVL      68(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 64(DI), Z5
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z5, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $88, SI
	ADDQ $128, DI
	ADDQ $16, DX
	SUBQ $4, CX
	JMP  q50loop4
q50loop2:
	CMPQ CX, $2
	JLT  q50tail
	SCALE2(0, 22)
	VMOVDQU8.Z 6(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      2(SI), AX
	MOVL      24(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z5, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $44, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
q50tail:
	TESTQ CX, CX
	JZ    q50done
	TAIL_SCALE
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 6(SI), K4, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      2(SI), AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU   (DI), Y5
	VPXORD    Y6, Y6, Y6
	VPDPBUSD  Y5, Y28, Y6
	VPSUBD    Y6, Y30, Y7
	VPDPBUSD  Y5, Y4, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y2, Y7, Y7
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VADDPS    Z7, Z0, K2, Z0
q50done:
	FINISH16
	VZEROUPPER
	MOVSS X0, ret+32(FP)
	RET

// func dotQ5_1AVX512(w *byte, y *int8, d *float32, s *float32, nb int) float32
TEXT ·dotQ5_1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ s+24(FP), R8
	MOVQ nb+32(FP), CX
	VPXORD    Z0, Z0, Z0
	VPXORD    Z30, Z30, Z30
	VXORPS    X9, X9, X9
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU32 pair8idx2<>(SB), Z27
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ5_1<>(SB), Z26
	MOVQ      $0xffffffffff, AX
	KMOVQ     AX, K3
q51loop4:
	CMPQ CX, $4
	JLT  q51loop2
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VPINSRW   $1, 24(SI), X2, X2
	VPINSRW   $2, 48(SI), X2, X2
	VPINSRW   $3, 72(SI), X2, X2
	VCVTPH2PS X2, X2
	VMULPS    (DX), X2, X2
	VPERMPS   Z2, Z31, Z3
	VPERMPS   Z2, Z27, Z2
	MOVWLZX   2(SI), AX
	VMOVD     AX, X10
	VPINSRW   $1, 26(SI), X10, X10
	VPINSRW   $2, 50(SI), X10, X10
	VPINSRW   $3, 74(SI), X10, X10
	VCVTPH2PS X10, X10
	VMULPS    (R8), X10, X10
	VMOVQ     X10, X11
	VADDPS    X11, X9, X9
	VMOVHLPS  X10, X10, X11
	VMOVQ     X11, X11
	VADDPS    X11, X9, X9
	VMOVDQU8.Z 8(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      4(SI), AX
	MOVL      28(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z3, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVDQU8.Z 56(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      52(SI), AX
	MOVL      76(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 64(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $96, SI
	ADDQ $128, DI
	ADDQ $16, DX
	ADDQ $16, R8
	SUBQ $4, CX
	JMP  q51loop4
q51loop2:
	CMPQ CX, $2
	JLT  q51tail
	SCALE2(0, 24)
	MOVWLZX   2(SI), AX
	MOVWLZX   26(SI), BX
	SHLL      $16, BX
	ORL       BX, AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	VMOVQ     (R8), X11
	VMULPS    X11, X10, X10
	VMOVQ     X10, X10
	VADDPS    X10, X9, X9
	VMOVDQU8.Z 8(SI), K3, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      4(SI), AX
	MOVL      28(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU64 0(DI), Z5
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z5, Z4, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z2, Z7, Z7
	VADDPS    Z7, Z0, Z0
	ADDQ $48, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
q51tail:
	TESTQ CX, CX
	JZ    q51done
	TAIL_SCALE
	MOVWLZX   2(SI), AX
	VMOVD     AX, X10
	VCVTPH2PS X10, X10
	VMULSS    (R8), X10, X10
	VADDSS    X10, X9, X9
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 8(SI), K4, Z4
	VPERMB    Z4, Z26, Z4
	VPSRLVW   Z25, Z4, Z4
	VPANDD    Z29, Z4, Z4
	MOVL      4(SI), AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z4, K1, Z4
	VMOVDQU   (DI), Y5
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y5, Y4, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y2, Y7, Y7
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VADDPS    Z7, Z0, K2, Z0
q51done:
	FINISH16
	VMOVSHDUP X9, X10
	VADDSS    X10, X9, X9
	VADDSS    X9, X0, X0
	VZEROUPPER
	MOVSS X0, ret+40(FP)
	RET

// Four-position AVX-512 kernels for Q2_K and Q3_K. Chunk k holds elements
// 64k..64k+63: the 2-bit fields j and j+1 (j = 2(k%2)) of qs[32(k/2):],
// taken from a doubled copy by per-half word shifts.

// Q2K_CHUNKW(k, Zr): Z28 = [qs_h | qs_h] for h = k/2.
#define Q2K_CHUNKW(k, Zr) \
	VPSRLVW q2kshift<>+64*k(SB), Z28, Zr; \
	VPANDD  Z30, Zr, Zr

// func dotQ2_Kx4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ2_Kx4AVX512(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ bsums+40(FP), R8
	MOVQ bstride+48(FP), R11
	MOVQ nb+56(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	LEAQ (R11)(R11*2), R14
	VXORPS    X8, X8, X8
	VXORPS    X9, X9, X9
	VXORPS    X10, X10, X10
	VXORPS    X11, X11, X11
	VMOVDQU64 mask03x64<>(SB), Z30
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q2kx4loop:
	TESTQ CX, CX
	JZ    q2kx4done
	// scales (low nibbles) per 16 as int16 in Y7, mins (high nibbles) in Y6
	VMOVDQU   (SI), X4
	VPSRLW    $4, X4, X5
	VPAND     k0f<>(SB), X4, X4
	VPAND     k0f<>(SB), X5, X5
	VPMOVZXBW X4, Y7
	VPMOVZXBW X5, Y6
	VPERMW    Z7, Z24, Z20
	VPERMW    Z7, Z25, Z21
	VPERMW    Z7, Z26, Z22
	VPERMW    Z7, Z27, Z23
	VBROADCASTI64X4 16(SI), Z28
	Q2K_CHUNKW(0, Z12)
	Q2K_CHUNKW(1, Z13)
	VBROADCASTI64X4 48(SI), Z28
	Q2K_CHUNKW(2, Z14)
	Q2K_CHUNKW(3, Z15)
	VMOVD     80(SI), X2
	VCVTPH2PS X2, X2
	Q4K_POS((DI), (DX), (R8), X8)
	Q4K_POS((DI)(R9*1), (DX)(R10*1), (R8)(R11*1), X9)
	Q4K_POS((DI)(R9*2), (DX)(R10*2), (R8)(R11*2), X10)
	Q4K_POS((DI)(R12*1), (DX)(R13*1), (R8)(R14*1), X11)
	ADDQ $84, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q2kx4loop
q2kx4done:
	MOVQ  out+64(FP), AX
	MOVSS X8, (AX)
	MOVSS X9, 4(AX)
	MOVSS X10, 8(AX)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// Q3K_CHUNKW(k, Zr): 2-bit fields as Q2_K plus 4 where the hmask bit of
// the element's field is set (Z29 = [hmask | hmask]), i.e. value + 4.
#define Q3K_CHUNKW(k, Zr) \
	VPSRLVW   q2kshift<>+64*k(SB), Z28, Zr; \
	VPANDD    Z30, Zr, Zr;      \
	VPTESTMB  q3kbits<>+64*k(SB), Z29, K1; \
	VPADDB    Z31, Zr, K1, Zr

// func dotQ3_Kx4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, bsums *int16, bstride int, nb int, out *[4]float32)
TEXT ·dotQ3_Kx4AVX512(SB), NOSPLIT, $0-72
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ bsums+40(FP), R8
	MOVQ bstride+48(FP), R11
	MOVQ nb+56(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	LEAQ (R11)(R11*2), R14
	VXORPS    X8, X8, X8
	VXORPS    X9, X9, X9
	VXORPS    X10, X10, X10
	VXORPS    X11, X11, X11
	VMOVDQU64 mask03x64<>(SB), Z30
	VMOVDQU64 fours64<>(SB), Z31
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q3kx4loop:
	TESTQ CX, CX
	JZ    q3kx4done
	// 16 6-bit scales (minus 32) as int16 in Y7
	VMOVQ      96(SI), X4
	VPINSRD    $2, 104(SI), X4, X4
	VPSHUFD    $0x44, X4, X5
	VPSRLVD    q3klo<>(SB), X5, X5
	VPAND      k0f<>(SB), X5, X5
	VPSHUFD    $0xaa, X4, X6
	VPSRLVD    q3khi<>(SB), X6, X6
	VPAND      k03<>(SB), X6, X6
	VPSLLD     $4, X6, X6
	VPOR       X6, X5, X5
	VPSUBB     k20<>(SB), X5, X5
	VPMOVSXBW  X5, Y7
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	VBROADCASTI64X4 (SI), Z29
	VBROADCASTI64X4 32(SI), Z28
	Q3K_CHUNKW(0, Z12)
	Q3K_CHUNKW(1, Z13)
	VBROADCASTI64X4 64(SI), Z28
	Q3K_CHUNKW(2, Z14)
	Q3K_CHUNKW(3, Z15)
	MOVWLZX   108(SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	BIASK_POS((DI), (DX), (R8), X8, $2)
	BIASK_POS((DI)(R9*1), (DX)(R10*1), (R8)(R11*1), X9, $2)
	BIASK_POS((DI)(R9*2), (DX)(R10*2), (R8)(R11*2), X10, $2)
	BIASK_POS((DI)(R12*1), (DX)(R13*1), (R8)(R14*1), X11, $2)
	ADDQ $110, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q3kx4loop
q3kx4done:
	MOVQ  out+64(FP), AX
	MOVSS X8, (AX)
	MOVSS X9, 4(AX)
	MOVSS X10, 8(AX)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// func dotQ2_Kx1AVX512(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ2_Kx1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS    X8, X8, X8
	VMOVDQU64 mask03x64<>(SB), Z30
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q2kx1loop:
	TESTQ CX, CX
	JZ    q2kx1done
	// scales (low nibbles) per 16 as int16 in Y7, mins (high nibbles) in Y6
	VMOVDQU   (SI), X4
	VPSRLW    $4, X4, X5
	VPAND     k0f<>(SB), X4, X4
	VPAND     k0f<>(SB), X5, X5
	VPMOVZXBW X4, Y7
	VPMOVZXBW X5, Y6
	VPERMW    Z7, Z24, Z20
	VPERMW    Z7, Z25, Z21
	VPERMW    Z7, Z26, Z22
	VPERMW    Z7, Z27, Z23
	VBROADCASTI64X4 16(SI), Z28
	Q2K_CHUNKW(0, Z12)
	Q2K_CHUNKW(1, Z13)
	VBROADCASTI64X4 48(SI), Z28
	Q2K_CHUNKW(2, Z14)
	Q2K_CHUNKW(3, Z15)
	VMOVD     80(SI), X2
	VCVTPH2PS X2, X2
	Q4K_POS((DI), (DX), (R8), X8)
	ADDQ $84, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q2kx1loop
q2kx1done:
	VZEROUPPER
	MOVSS X8, ret+40(FP)
	RET

// func dotQ3_Kx1AVX512(w *byte, y *int8, d *float32, bsums *int16, nb int) float32
TEXT ·dotQ3_Kx1AVX512(SB), NOSPLIT, $0-44
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ d+16(FP), DX
	MOVQ bsums+24(FP), R8
	MOVQ nb+32(FP), CX
	VXORPS    X8, X8, X8
	VMOVDQU64 mask03x64<>(SB), Z30
	VMOVDQU64 fours64<>(SB), Z31
	VMOVDQU64 q6kperm<>+0(SB), Z24
	VMOVDQU64 q6kperm<>+64(SB), Z25
	VMOVDQU64 q6kperm<>+128(SB), Z26
	VMOVDQU64 q6kperm<>+192(SB), Z27
q3kx1loop:
	TESTQ CX, CX
	JZ    q3kx1done
	// 16 6-bit scales (minus 32) as int16 in Y7
	VMOVQ      96(SI), X4
	VPINSRD    $2, 104(SI), X4, X4
	VPSHUFD    $0x44, X4, X5
	VPSRLVD    q3klo<>(SB), X5, X5
	VPAND      k0f<>(SB), X5, X5
	VPSHUFD    $0xaa, X4, X6
	VPSRLVD    q3khi<>(SB), X6, X6
	VPAND      k03<>(SB), X6, X6
	VPSLLD     $4, X6, X6
	VPOR       X6, X5, X5
	VPSUBB     k20<>(SB), X5, X5
	VPMOVSXBW  X5, Y7
	VPERMW     Z7, Z24, Z20
	VPERMW     Z7, Z25, Z21
	VPERMW     Z7, Z26, Z22
	VPERMW     Z7, Z27, Z23
	VBROADCASTI64X4 (SI), Z29
	VBROADCASTI64X4 32(SI), Z28
	Q3K_CHUNKW(0, Z12)
	Q3K_CHUNKW(1, Z13)
	VBROADCASTI64X4 64(SI), Z28
	Q3K_CHUNKW(2, Z14)
	Q3K_CHUNKW(3, Z15)
	MOVWLZX   108(SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	BIASK_POS((DI), (DX), (R8), X8, $2)
	ADDQ $110, SI
	ADDQ $256, DI
	ADDQ $4, DX
	ADDQ $32, R8
	DECQ CX
	JMP  q3kx1loop
q3kx1done:
	VZEROUPPER
	MOVSS X8, ret+40(FP)
	RET

// Four-position kernels for Q4_1, Q5_0 and Q5_1: the block pair is
// unpacked once (as in the one-position kernels) and multiplied with the
// activations of four positions; for Q4_1/Q5_1 each position keeps its
// offset sums m*s in two lanes (X16..X19), as the canonical ms[2].

// func dotQ4_1x4AVX512(w *byte, y *int8, ystride int, d *float32, s *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ4_1x4AVX512(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ s+32(FP), R8
	MOVQ dstride+40(FP), R10
	MOVQ nb+48(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	VPXORD    Z0, Z0, Z0
	VPXORD    Z9, Z9, Z9
	VPXORD    Z10, Z10, Z10
	VPXORD    Z11, Z11, Z11
	VXORPS    X16, X16, X16
	VXORPS    X17, X17, X17
	VXORPS    X18, X18, X18
	VXORPS    X19, X19, X19
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ4_1<>(SB), Z26
	MOVQ      $0xfffffffff, AX
	KMOVQ     AX, K3
q41x4loop:
	CMPQ CX, $2
	JLT  q41x4tail
	DXPAIR(0, 20)
	MOVWLZX   2(SI), AX
	MOVWLZX   22(SI), BX
	SHLL      $16, BX
	ORL       BX, AX
	VMOVD     AX, X12
	VCVTPH2PS X12, X12
	VMOVDQU8.Z 4(SI), K3, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	POS_SCALE((DX))
	VMOVDQU64 (DI), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVQ     (R8), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X16, X16
	POS_SCALE((DX)(R10*1))
	VMOVDQU64 (DI)(R9*1), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMOVQ     (R8)(R10*1), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X17, X17
	POS_SCALE((DX)(R10*2))
	VMOVDQU64 (DI)(R9*2), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMOVQ     (R8)(R10*2), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X18, X18
	POS_SCALE((DX)(R13*1))
	VMOVDQU64 (DI)(R12*1), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z11, Z11
	VMOVQ     (R8)(R13*1), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X19, X19
	ADDQ $40, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
	JMP  q41x4loop
q41x4tail:
	TESTQ CX, CX
	JZ    q41x4done
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	MOVWLZX   2(SI), AX
	VMOVD     AX, X12
	VCVTPH2PS X12, X12
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 4(SI), K4, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VMULSS    (DX), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z0, K2, Z0
	VMULSS    (R8), X12, X13
	VADDSS    X13, X16, X16
	VMULSS    (DX)(R10*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*1), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z9, K2, Z9
	VMULSS    (R8)(R10*1), X12, X13
	VADDSS    X13, X17, X17
	VMULSS    (DX)(R10*2), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*2), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z10, K2, Z10
	VMULSS    (R8)(R10*2), X12, X13
	VADDSS    X13, X18, X18
	VMULSS    (DX)(R13*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R12*1), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z11, K2, Z11
	VMULSS    (R8)(R13*1), X12, X13
	VADDSS    X13, X19, X19
q41x4done:
	MOVQ out+56(FP), AX
	FIN(Z0, Y0, X0)
	VMOVSHDUP X16, X13
	VADDSS    X13, X16, X13
	VADDSS    X13, X0, X0
	MOVSS X0, 0(AX)
	FIN(Z9, Y9, X9)
	VMOVSHDUP X17, X13
	VADDSS    X13, X17, X13
	VADDSS    X13, X9, X9
	MOVSS X9, 4(AX)
	FIN(Z10, Y10, X10)
	VMOVSHDUP X18, X13
	VADDSS    X13, X18, X13
	VADDSS    X13, X10, X10
	MOVSS X10, 8(AX)
	FIN(Z11, Y11, X11)
	VMOVSHDUP X19, X13
	VADDSS    X13, X19, X13
	VADDSS    X13, X11, X11
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// func dotQ5_0x4AVX512(w *byte, y *int8, ystride int, d *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ5_0x4AVX512(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ dstride+32(FP), R10
	MOVQ nb+40(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	VPXORD    Z0, Z0, Z0
	VPXORD    Z9, Z9, Z9
	VPXORD    Z10, Z10, Z10
	VPXORD    Z11, Z11, Z11
	VXORPS    X16, X16, X16
	VXORPS    X17, X17, X17
	VXORPS    X18, X18, X18
	VXORPS    X19, X19, X19
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ5_0<>(SB), Z26
	MOVQ      $0x3fffffffff, AX
	KMOVQ     AX, K3
q50x4loop:
	CMPQ CX, $2
	JLT  q50x4tail
	DXPAIR(0, 22)
	VMOVDQU8.Z 6(SI), K3, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	MOVL      2(SI), AX
	MOVL      24(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z3, K1, Z3
	POS_SCALE((DX))
	VMOVDQU64 (DI), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z0, Z0
	POS_SCALE((DX)(R10*1))
	VMOVDQU64 (DI)(R9*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z9, Z9
	POS_SCALE((DX)(R10*2))
	VMOVDQU64 (DI)(R9*2), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z10, Z10
	POS_SCALE((DX)(R13*1))
	VMOVDQU64 (DI)(R12*1), Z4
	VPXORD    Z6, Z6, Z6
	VPDPBUSD  Z4, Z28, Z6
	VPSUBD    Z6, Z30, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z11, Z11
	ADDQ $44, SI
	ADDQ $64, DI
	ADDQ $8, DX
	SUBQ $2, CX
	JMP  q50x4loop
q50x4tail:
	TESTQ CX, CX
	JZ    q50x4done
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 6(SI), K4, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	MOVL      2(SI), AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z3, K1, Z3
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VMULSS    (DX), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI), Y4
	VPXORD    Y6, Y6, Y6
	VPDPBUSD  Y4, Y28, Y6
	VPSUBD    Y6, Y30, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z0, K2, Z0
	VMULSS    (DX)(R10*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*1), Y4
	VPXORD    Y6, Y6, Y6
	VPDPBUSD  Y4, Y28, Y6
	VPSUBD    Y6, Y30, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z9, K2, Z9
	VMULSS    (DX)(R10*2), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*2), Y4
	VPXORD    Y6, Y6, Y6
	VPDPBUSD  Y4, Y28, Y6
	VPSUBD    Y6, Y30, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z10, K2, Z10
	VMULSS    (DX)(R13*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R12*1), Y4
	VPXORD    Y6, Y6, Y6
	VPDPBUSD  Y4, Y28, Y6
	VPSUBD    Y6, Y30, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z11, K2, Z11
q50x4done:
	MOVQ out+48(FP), AX
	FIN(Z0, Y0, X0)
	MOVSS X0, 0(AX)
	FIN(Z9, Y9, X9)
	MOVSS X9, 4(AX)
	FIN(Z10, Y10, X10)
	MOVSS X10, 8(AX)
	FIN(Z11, Y11, X11)
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

// func dotQ5_1x4AVX512(w *byte, y *int8, ystride int, d *float32, s *float32, dstride int, nb int, out *[4]float32)
TEXT ·dotQ5_1x4AVX512(SB), NOSPLIT, $0-64
	MOVQ w+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ ystride+16(FP), R9
	MOVQ d+24(FP), DX
	MOVQ s+32(FP), R8
	MOVQ dstride+40(FP), R10
	MOVQ nb+48(FP), CX
	LEAQ (R9)(R9*2), R12
	LEAQ (R10)(R10*2), R13
	VPXORD    Z0, Z0, Z0
	VPXORD    Z9, Z9, Z9
	VPXORD    Z10, Z10, Z10
	VPXORD    Z11, Z11, Z11
	VXORPS    X16, X16, X16
	VXORPS    X17, X17, X17
	VXORPS    X18, X18, X18
	VXORPS    X19, X19, X19
	VPXORD    Z30, Z30, Z30
	VMOVDQU32 pair8idx<>(SB), Z31
	VMOVDQU64 nibmask64<>(SB), Z29
	VMOVDQU64 sixteens64<>(SB), Z28
	VMOVDQU64 bit4x64<>(SB), Z24
	VMOVDQU64 q40shift<>(SB), Z25
	VMOVDQU64 permQ5_1<>(SB), Z26
	MOVQ      $0xffffffffff, AX
	KMOVQ     AX, K3
q51x4loop:
	CMPQ CX, $2
	JLT  q51x4tail
	DXPAIR(0, 24)
	MOVWLZX   2(SI), AX
	MOVWLZX   26(SI), BX
	SHLL      $16, BX
	ORL       BX, AX
	VMOVD     AX, X12
	VCVTPH2PS X12, X12
	VMOVDQU8.Z 8(SI), K3, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	MOVL      4(SI), AX
	MOVL      28(SI), BX
	SHLQ      $32, BX
	ORQ       BX, AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z3, K1, Z3
	POS_SCALE((DX))
	VMOVDQU64 (DI), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z0, Z0
	VMOVQ     (R8), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X16, X16
	POS_SCALE((DX)(R10*1))
	VMOVDQU64 (DI)(R9*1), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z9, Z9
	VMOVQ     (R8)(R10*1), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X17, X17
	POS_SCALE((DX)(R10*2))
	VMOVDQU64 (DI)(R9*2), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z10, Z10
	VMOVQ     (R8)(R10*2), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X18, X18
	POS_SCALE((DX)(R13*1))
	VMOVDQU64 (DI)(R12*1), Z4
	VPXORD    Z7, Z7, Z7
	VPDPBUSD  Z4, Z3, Z7
	VCVTDQ2PS Z7, Z7
	VMULPS    Z8, Z7, Z7
	VADDPS    Z7, Z11, Z11
	VMOVQ     (R8)(R13*1), X13
	VMULPS    X12, X13, X13
	VADDPS    X13, X19, X19
	ADDQ $48, SI
	ADDQ $64, DI
	ADDQ $8, DX
	ADDQ $8, R8
	SUBQ $2, CX
	JMP  q51x4loop
q51x4tail:
	TESTQ CX, CX
	JZ    q51x4done
	MOVWLZX   (SI), AX
	VMOVD     AX, X2
	VCVTPH2PS X2, X2
	MOVWLZX   2(SI), AX
	VMOVD     AX, X12
	VCVTPH2PS X12, X12
	MOVQ      $0xffff, AX
	KMOVQ     AX, K4
	VMOVDQU8.Z 8(SI), K4, Z3
	VPERMB    Z3, Z26, Z3
	VPSRLVW   Z25, Z3, Z3
	VPANDD    Z29, Z3, Z3
	MOVL      4(SI), AX
	KMOVQ     AX, K1
	VPADDB    Z24, Z3, K1, Z3
	MOVL      $0xff, AX
	KMOVW     AX, K2
	VMULSS    (DX), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z0, K2, Z0
	VMULSS    (R8), X12, X13
	VADDSS    X13, X16, X16
	VMULSS    (DX)(R10*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*1), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z9, K2, Z9
	VMULSS    (R8)(R10*1), X12, X13
	VADDSS    X13, X17, X17
	VMULSS    (DX)(R10*2), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R9*2), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z10, K2, Z10
	VMULSS    (R8)(R10*2), X12, X13
	VADDSS    X13, X18, X18
	VMULSS    (DX)(R13*1), X2, X8
	VBROADCASTSS X8, Y8
	VMOVDQU   (DI)(R12*1), Y4
	VPXORD    Y7, Y7, Y7
	VPDPBUSD  Y4, Y3, Y7
	VCVTDQ2PS Y7, Y7
	VMULPS    Y8, Y7, Y7
	VADDPS    Z7, Z11, K2, Z11
	VMULSS    (R8)(R13*1), X12, X13
	VADDSS    X13, X19, X19
q51x4done:
	MOVQ out+56(FP), AX
	FIN(Z0, Y0, X0)
	VMOVSHDUP X16, X13
	VADDSS    X13, X16, X13
	VADDSS    X13, X0, X0
	MOVSS X0, 0(AX)
	FIN(Z9, Y9, X9)
	VMOVSHDUP X17, X13
	VADDSS    X13, X17, X13
	VADDSS    X13, X9, X9
	MOVSS X9, 4(AX)
	FIN(Z10, Y10, X10)
	VMOVSHDUP X18, X13
	VADDSS    X13, X18, X13
	VADDSS    X13, X10, X10
	MOVSS X10, 8(AX)
	FIN(Z11, Y11, X11)
	VMOVSHDUP X19, X13
	VADDSS    X13, X19, X13
	VADDSS    X13, X11, X11
	MOVSS X11, 12(AX)
	VZEROUPPER
	RET

//go:build amd64

#include "textflag.h"

// func GPMix(a, b, n uint64) (r1, r2, r3, r4 uint64)
TEXT ·GPMix(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ AX, DX
	ADDQ BX, DX
	SUBQ CX, DX
	XORQ BX, DX
	MOVQ AX, SI
	SHLQ CX, SI
	ADDQ SI, DX
	MOVQ BX, SI
	SHRQ CX, SI
	XORQ SI, DX
	MOVQ AX, SI
	SARQ CX, SI
	ADDQ SI, DX
	MOVQ DX, r1+24(FP)
	IMUL3Q $-37, AX, DI
	MOVQ BX, R8
	IMULQ AX, R8
	ADDQ R8, DI
	LEAQ 12(DI)(BX*8), DI
	LEAQ -5(DI)(AX*2), DI
	MOVL AX, R9
	ADDQ R9, DI
	MOVL $-1, R10
	ADDQ R10, DI
	ANDQ $-64, DI
	ORQ $5, DI
	NEGQ DI
	MOVQ DI, r2+32(FP)
	MOVQ AX, R11
	NOTQ R11
	INCQ R11
	DECQ R11
	DECQ R11
	MOVBQZX AX, R12
	MOVWLZX BX, R13
	ADDQ R12, R11
	ADDQ R13, R11
	ADDL BX, R11
	SHLL $3, R11
	SHRL $1, R11
	MOVQ R11, r3+40(FP)
	XORQ R14, R14
	BSFQ AX, R14
	MOVQ $99, R15
	CMPQ AX, BX
	CMOVQLT R14, R15
	MOVQ AX, DX
	SHRQ $7, DX
	SHLQ $3, DX
	SARQ $2, DX
	XORQ R15, DX
	MOVQ DX, r4+48(FP)
	RET


// ALL appends one bit per condition to DX (whether its jump was taken)
// without touching the flags (LEAQ), so each jump reads the same flags.
#define ALL \
	LEAQ (DX)(DX*1), DX; JEQ 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JNE 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JLT 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JGE 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JLE 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JGT 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JLS 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JHI 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JCS 2(PC); JMP 2(PC); LEAQ 1(DX), DX; \
	LEAQ (DX)(DX*1), DX; JMI 2(PC); JMP 2(PC); LEAQ 1(DX), DX

// func Flags(a, b uint64) uint64
TEXT ·Flags(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	XORQ DX, DX
	CMPQ AX, BX
	ALL
	MOVQ AX, CX
	SUBQ BX, CX
	ALL
	MOVQ AX, CX
	ADDQ BX, CX
	ALL
	TESTQ AX, BX
	ALL
	MOVQ AX, CX
	DECQ CX
	ALL
	CMPL AX, BX
	ALL
	MOVQ DX, ret+16(FP)
	RET

// func LoopSum(p *uint64, n int) uint64
TEXT ·LoopSum(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ AX, AX
	XORQ BX, BX
	TESTQ CX, CX
	JEQ done
loop:
	ADDQ (SI)(BX*8), AX
	ADDQ BX, (SI)(BX*8)
	INCQ BX
	DECQ CX
	JNE loop
done:
	MOVQ AX, ret+16(FP)
	RET

// func Framed(a, b uint64) uint64
TEXT ·Framed(SB), $64-24
	MOVQ a+0(FP), AX
	MOVQ b+8(FP), BX
	MOVQ AX, x-8(SP)
	MOVQ BX, 8(SP)
	PUSHQ AX
	PUSHQ BX
	POPQ CX
	POPQ DX
	SUBQ CX, DX
	ADDQ x-8(SP), DX
	ADDQ 8(SP), DX
	LEAQ 16(SP), R8
	MOVQ DX, (R8)
	MOVQ 16(SP), AX
	MOVQ AX, ret+16(FP)
	RET

// func MovSS(x *float32, y *float32) float32
TEXT ·MovSS(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVSS (SI), X0
	MOVSS X0, (DI)
	MOVSS X0, ret+16(FP)
	RET

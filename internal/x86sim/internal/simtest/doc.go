// Package simtest holds small amd64 assembly functions that x86sim's tests
// run both natively and through the interpreter, comparing the results bit
// for bit: general-purpose arithmetic, flags and every conditional jump,
// memory operands, a framed function with the split-stack prologue, and
// legacy SSE moves.
package simtest

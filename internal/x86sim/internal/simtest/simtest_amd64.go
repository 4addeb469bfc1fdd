package simtest

// GPMix computes a spread of general-purpose operations of a, b and the
// shift count n (see simtest_amd64.s).
func GPMix(a, b, n uint64) (r1, r2, r3, r4 uint64)

// Flags returns one bit per (flag-setting operation, condition) pair:
// whether the conditional jump was taken.
func Flags(a, b uint64) uint64

// LoopSum adds i to p[i] for i < n and returns the old sum, through
// indexed memory operands and a DECQ/JNE loop.
func LoopSum(p *uint64, n int) uint64

// Framed uses a 64-byte frame (split-stack prologue, BP push, locals).
func Framed(a, b uint64) uint64

// MovSS returns *x through the legacy MOVSS and a float32 result slot.
func MovSS(x *float32, y *float32) float32

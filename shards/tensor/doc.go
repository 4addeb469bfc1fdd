// Package tensor holds the numeric core of svc's model shards: the GGUF/ggml
// tensor types and their exact block layouts, conversion to and from f16 and
// bf16, dequantization (Dequantize, Row), ggml's reference weight quantizers
// (Quantize), and matrix products of weights with float32 activations
// (MatMul) run on a persistent worker pool (Pool).
//
// Numerics follow llama.cpp's CPU backend: activations are quantized to the
// weight type's companion format (Q8_0 for Q4_0/Q5_0/Q8_0, Q8_1 for
// Q4_1/Q5_1, Q8_K for the k-quants, f16 for F16, bf16 for BF16) and
// multiplied with exact integer dot products, then scaled per block.
//
// Determinism: dot_generic.go defines, per weight type, the exact order of
// the float32 operations that produce one output element. The pure-Go
// kernels and the AVX2 and AVX-512 (VNNI) kernels in the *_amd64.s files all
// follow that order, so every path gives the same bits, and an element does
// not depend on the thread count, the split of rows among workers, the batch
// size or its position in the batch. The kernels are picked once at start-up
// from the CPU's features; building with -tags purego keeps the pure-Go ones.
package tensor

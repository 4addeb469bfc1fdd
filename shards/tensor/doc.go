// Package tensor holds the numeric core of svc's model shards: the GGUF/ggml
// tensor types and their exact block layouts, conversion to and from f16 and
// bf16, dequantization (Dequantize, Row), ggml's reference weight quantizers
// (Quantize, byte-identical to llama-quantize without an importance matrix),
// and matrix products of weights with float32 activations (MatMul) run on a
// persistent worker pool (Pool).
//
// Numerics follow llama.cpp's CPU backend: activations are converted to the
// weight type's companion format (Q8_0 for Q4_0/Q5_0/Q8_0, Q8_1 for
// Q4_1/Q5_1, Q8_K for the k-quants, f16 for F16, bf16 for BF16, kept for
// F32) with ggml's x86 rounding, multiplied with exact integer dot products,
// and scaled per block in the float order of llama.cpp's x86 kernels (fused
// multiply-adds into one 8-lane accumulator), so quantized products match
// llama.cpp's bit for bit.
//
// Determinism: dot_generic.go defines, per weight type, the exact sequence
// of float32 operations that produces one output element. The pure-Go
// kernels, the AVX2 kernels (dot_amd64.s, actquant_amd64.s) and the AVX-512
// kernels for the float types (dot512_amd64.s, including four-position
// kernels for prompt batches) all follow it, so every path gives the same
// bits, and an element does not depend on the thread count, the split of
// rows among workers, the batch size or its position in the batch. The
// kernel set is chosen once at start-up from the CPU's features
// (golang.org/x/sys/cpu); building with -tags purego keeps the Go kernels.
// kernels_test.go checks every SIMD kernel bit-for-bit against the Go ones.
//
// Benchmarks (weight bytes streamed per second):
//
//	go test -run x -bench 'MatVec|MatMul128' ./shards/tensor/  # 2048x2048, 5632x2048
//	go test -run x -bench MatVecCold ./shards/tensor/          # weights from DRAM
//	go test -run x -bench Kernels ./shards/tensor/             # one thread, per kernel set
package tensor

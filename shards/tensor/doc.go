// Package tensor holds the numeric core of svc's model shards: the GGUF/ggml
// tensor types and their exact block layouts, conversion to and from f16/bf16,
// dequantization, weight quantizers, and matrix products of quantized weights
// with float32 activations, run on a persistent worker pool.
//
// Numerics follow llama.cpp's CPU backend: activations are quantized to the
// weight type's companion 8-bit format (Q8_0, Q8_1 or Q8_K) and multiplied
// with integer dot products, then scaled per block. Every output element is
// computed by one worker with a fixed summation order, so results are
// bit-identical whatever the thread count, the split of rows among workers
// or the batch size (see MatMul).
package tensor

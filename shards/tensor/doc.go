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
// kernels, the AVX2 kernels (dot_amd64.s, actquant_amd64.s, and the tiles
// of tiles_q8_avx2, tiles_k_avx2 and tiles_f16_avx2_amd64.s), the AVX-512
// kernels for the float types (dot512_amd64.s), the VDPBF16PS kernels for
// BF16 (bf16_amd64.s; on AVX2 bf16_avx2_amd64.s, which widens bf16 pairs
// with VPAND/VPSLLD, fuses multiply and add only where the exponent ranges
// make every product exact, and hands a call — for prompts, the row pairs
// and positions — where a subnormal took part, flagged by MXCSR.DE, to the
// Go kernels) and the AVX-512 VNNI tile kernels for Q8_0/Q4_0
// (tiles_q0_amd64.s, tiles_q4v_amd64.s, and tiles_q4x/q8x_amd64.s for the
// x layouts) and Q4_K/Q6_K (tiles_k_amd64.s, tiles_q6b_amd64.s) all follow it: the
// integer parts are exact whatever the instructions, and each output keeps
// its own float chain in the canonical order, so a tile kernel computes
// many rows (and positions) at once without changing a bit. An element does
// not depend on the thread count, the split of rows among workers, or —
// except for BF16, whose llama.cpp order depends on the batch size
// (bf16order.go, BatchInvariant) — the batch size or its position in the
// batch. MatMul uses a type's tile kernels in rowTile-row units: "batch"
// tiles (rows × positions) for prompt batches, "vec" tiles (rows × one
// position) for single positions. The kernel set is chosen once at start-up
// from the CPU's features (golang.org/x/sys/cpu); building with -tags
// purego keeps the Go kernels. SVC_KERNELS=generic|avx2|avx512 caps the set
// (KernelSet names the one in use), so that the lower sets are tested and
// benchmarked on any CPU; a kernel test for a set the CPU cannot run skips
// and names the missing features. kernels_test.go and the tiles_*_test.go
// files check every SIMD kernel bit for bit against the Go ones; on a CPU
// without AVX-512, go test -tags avx512sim runs the AVX-512 kernels in
// internal/x86sim's interpreter (sim512run_amd64.go) for those checks. On arm64
// the sets are neon and neondot (SDOT, where the CPU has it), with NEON
// kernels for the one-position Q8_0, Q4_0 (dot_arm64.s), Q5_0, Q4_1, Q5_1
// (dotq5_arm64.s), Q4_K, Q5_K, Q6_K (dotk_arm64.s), Q3_K, Q2_K
// (dotq3k_arm64.s, dotq2k_arm64.s) and F16 (dotf16_arm64.s) products,
// BF16 tiles in both orders (bf16_arm64.s: flush-to-zero on, as the Go
// kernels flush, fused multiply-adds where the exponent ranges make every
// product exact, and a call where a product or sum was tiny, flagged by
// FPSR.UFC, handed to the Go kernels), a 16-row F16 tile for prompt
// batches (tiles_f16_arm64.s), four-row tiles for Q8_0 and Q4_0
// (dotrows_arm64.s), one-row, four-position tiles for Q8_0, Q4_0
// (dotx4_arm64.s), Q4_K, Q5_K, Q6_K (dotkx4_arm64.s) and the other
// quantized types, all in the same canonical order, not that of
// llama.cpp's ARM kernels, and the Q8_0/Q8_K activation converters
// (actquant_arm64.s); only F32 products stay in Go. .ci/run tests them
// under qemu-user (kernels_arm64_test.go calls each one directly).
//
// Pack copies a weight matrix, once at load, into the layout the CPU's
// kernels read fastest. For Q4_0 (AVX2 or AVX-512 VNNI) and Q8_0 (AVX-512
// VNNI) that is the x layout (xlayout.go, packq4x.go, packq8x.go): 16-row
// tiles whose quants are interleaved four bytes per row, so one VPDPBUSD
// (on AVX2: VPMADDUBSW, then one VPMADDWD per block) against a broadcast
// activation dword accumulates the dot products of all sixteen rows with
// no horizontal sums, and a tile is one sequential stream; its kernels
// serve one position (decode) and up to 8 (AVX2: 2-4 per pass over the
// tile), 8 or 9 positions per call (batched decode, prefill). The strided tiles also read a block-interleaved layout
// (pack.go), which Pack chooses for no type (those tiles were no faster on
// it than on row-major rows with their prefetching), so Q4_K, Q6_K and the
// rest stay row-major. Every function
// of the package accepts packed matrices with the same bits; a kernel set
// without kernels for a layout reads it through gathered rows, slowly.
//
// MatMulMany runs the products of one input (a block's q, k and v; gate and
// up) as one call: one activation conversion and one synchronisation of the
// pool's workers instead of one per matrix, which matters when decoding
// (about 150 products a token), with the same bits as separate calls.
//
// Benchmarks (weight bytes streamed per second):
//
//	go test -run x -bench 'MatVec|MatMul128' ./shards/tensor/  # 2048x2048, 5632x2048
//	go test -run x -bench MatVecCold ./shards/tensor/          # weights from DRAM
//	go test -run x -bench Kernels ./shards/tensor/             # one thread, per kernel set
//	go test -run x -bench DecodeStream ./shards/tensor/        # a decode step's products, 8 TinyLlama blocks
//	SVC_BENCH_FILE=model.gguf go test -run x -bench DecodeMemory ./shards/tensor/  # heap, 4K/huge pages, page cache
package tensor

// Package model runs transformer blocks of GGUF Llama and Qwen2 models on the
// CPU with llama.cpp's numerics.
//
// A Model is an mmap'ed GGUF file with its architecture configuration,
// checked for every tensor and shape before anything is computed. A Shard
// holds blocks [first,last) of a model (plus the token embedding when it is
// the first shard and the output norm and head when it is the last) and runs
// sessions, each with its own f16 KV cache. Generate drives a greedy decode
// through any chain of Hops, local or remote.
//
// Numbers depend on how positions are batched, exactly as in llama.cpp:
// a Forward of two or more positions computes attention in the order of
// llamafile's tinyBLAS (llama.cpp's prompt path), a Forward of one position
// in the order of ggml_vec_dot_f16 (its decode path), and package tensor's
// matrix products follow llama.cpp's kernel for the batch size wherever
// llama.cpp's does depend on it. So a prompt sent as
// one batch and then decoded token by token reproduces llama.cpp's
// log-probabilities, while the same tokens sent in other batches may differ
// in the last bits. What never changes the numbers: how the blocks are split
// into shards, the thread count, and other sessions. A chain and a replay of
// it (failover re-sends the past steps batch for batch) use the same batches
// and so give the same bits.
//
// Attention runs on the CPU's best kernel set within SVC_KERNELS
// (attn_kernels.go: pure Go; AVX2, AVX-512 on x86-64; NEON on arm64), all
// with the Go kernels' bits. On AVX2 and NEON a single position's
// attention takes the query heads that share a key/value head together
// (attnKernels.group, group128 for heads of 128): each cached key and
// value is read and converted from f16 once for up to eight heads, and
// the per-head reductions become lane-wise sums across heads in the same
// order, which keeps decoding at 2,000 positions of context within 20% of
// its speed at 128 (bench/RESULTS.md; the NEON kernels are checked under
// qemu, their speed not yet measured on ARM hardware). Several positions
// (prefill, batched decode) on AVX2 and AVX-512 are computed in tiles
// (attnKernels.tile): about 24 (row, query head) pairs of one key/value
// head against each cached key and value converted once, every pair in
// tinyBLAS's order, which takes 2.3 to 2.9 times less CPU time than the
// heads one at a time at 2,000 positions (BenchmarkAttentionPrefill) and
// about a fifth off a 2,000-token prefill's; on NEON they still take the
// heads one at a time.
//
// ForwardBatch computes one step of several sessions together: their rows
// share every weight product (one read of the weights for all of them),
// while RoPE, the KV cache and attention stay per session, with each
// session's own row count choosing attention's order. For batch-invariant
// weight types (tensor.BatchInvariant) the result is Forward's, bit for
// bit; for BF16 a one-row chunk runs alone so that it keeps the one-position
// order.
//
// A shard may hold LoRA adapters (AddAdapter: only its own blocks' pairs,
// and the token embedding's on the first shard and the output head's on
// the last, copied from the file) and each session names one or none
// (OpenSessionAdapter). An adapted product is W·x + scale·B·(A·x) before
// the bias, as llama.cpp's --lora computes it, without merging: the base
// weights stay shared, and in a ForwardBatch the base product runs once for
// every row while each session's low-rank product runs over its own rows
// (lora.go). The output head is adapted the same way; the token
// embedding's pair adds scale·B·A[t] to token t's row, as llama.cpp's
// llm_build_inp_embd does. A tied head (a model without output.weight) is
// not adapted by the embedding's pair: that is PEFT's forward pass, while
// llama.cpp at the references' commit aborts on such an adapter (lora.go).
// The block's tensors are declared once, in weights.go's blockTensors,
// which the checker, the loader and adapter matching read.
//
// A shard's prompt cache (promptcache.go; ShardOptions.PromptCacheBytes,
// 64 MiB by default, least recently used first out) answers a session's
// first step from an identical first step of an earlier session: the keys
// and values it wrote in every block and its Output are copied, not
// computed. The key is a sha256 of everything the step computes from (its
// tokens or hidden-state bits, logits mode, top-k, omitted logits, the
// session's adapter) and of the session's scope
// (SessionOptions.PromptCacheScope), so a hit has the computation's bits.
// Only whole first steps are reused, never a prefix: positions computed in
// another batch may take another attention order. Identical first steps in
// one ForwardBatch are computed once.
//
// The transformer block itself is in block.go and reads like the math.
package model

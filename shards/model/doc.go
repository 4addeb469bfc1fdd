// Package model runs transformer blocks of GGUF Llama and Qwen2 models on the
// CPU with llama.cpp's numerics.
//
// A Model is an mmap'ed GGUF file with its architecture configuration,
// checked for every tensor and shape before anything is computed. A Shard
// holds blocks [first,last) of a model (plus the token embedding when it is
// the first shard and the output norm and head when it is the last) and runs
// sessions, each with its own f16 KV cache. Chains of shards give logits
// bit-identical to one shard holding every block, and a position's numbers
// never depend on how positions were batched. Generate drives a greedy
// decode through any chain of Hops, local or remote.
//
// The transformer block itself is in block.go and reads like the math.
package model

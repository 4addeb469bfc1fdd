// Package lora reads, checks and writes LoRA adapters in llama.cpp's GGUF
// format, so that adapters made for llama.cpp (convert_lora_to_gguf.py,
// `llama-server --lora FILE`) load here and adapters made here load there.
//
// An adapter file has general.type = "adapter", adapter.type = "lora",
// general.architecture naming the base model's architecture, an optional
// float32 adapter.lora.alpha, and for each adapted base tensor W a pair
// "<W>.lora_a" (GGML shape [n_in, r]) and "<W>.lora_b" ([r, n_out]), so that
// the adapted product is W·x + scale·B·(A·x) with scale = user × alpha / r
// (user scale alone when alpha is 0 or absent), computed in float32 as
// llama.cpp does. The token embedding's pair is the exception, stored as
// llama.cpp's llm_build_inp_embd reads it: "token_embd.weight.lora_a" is
// [r, n_vocab] (a row of r per token; convert_lora_to_gguf.py transposes
// PEFT's lora_embedding_A) and ".lora_b" is [r, n_embd], so that token t's
// embedding row gains scale·B·A[t] (Pair.Embedding). Tensors may be F32,
// F16, BF16 or Q8_0. Tensors ending in "_norm.weight" are skipped, as
// llama.cpp skips them.
//
// Open and Parse check the file on its own (keys, types, pairs, shapes,
// sizes); CheckBase checks it against the base model it names. Every error
// names the key or tensor at fault. The engine (package model) applies the
// pairs of the blocks a shard holds, the token embedding's on the first
// shard and the output head's on the last; this package knows nothing of
// blocks.
package lora

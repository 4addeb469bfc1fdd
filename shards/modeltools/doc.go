// Package modeltools makes and converts GGUF model files for benchmarking:
// Synth writes a random-weight Llama-architecture model of a known shape
// (TinyLlama-1.1B, Llama-3.2-1B, ...) with a tokenizer copied from another
// GGUF, and Quantize converts an existing model to another tensor type or
// to one of llama.cpp's type mixes (Q4_K_M). Both stream tensor data to the
// output row block by row block, quantizing rows in parallel, so multi-GB
// models are written without holding them in memory. Type selection per
// tensor follows llama.cpp's llama-quantize rules, so files made here are
// laid out like the ones llama.cpp produces and are readable by it.
package modeltools

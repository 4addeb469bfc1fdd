// Package tokenizer turns text into token ids and back, using only the
// tokenizer.ggml.* metadata of a GGUF file, with the same results as
// llama.cpp's vocabulary code (llama-vocab.cpp / unicode.cpp).
//
// Two tokenizer models are supported:
//
//   - "llama": SentencePiece-style BPE driven by token scores, with byte
//     fallback (<0xNN> tokens), whitespace escaped as U+2581 and an optional
//     leading space (add_space_prefix).
//   - "gpt2": byte-level BPE with ranked merges, preceded by the pre-tokenizer
//     (word splitter) that tokenizer.ggml.pre names.
//
// Special tokens (control, user-defined, unknown) are split out of the text
// before the model runs, exactly as llama.cpp does; control tokens are only
// recognised when the caller asks for it (parseSpecial). Decoding follows
// llama.cpp's llama_detokenize, including its clean_spaces rules.
//
// A StreamDecoder hands out generated text in pieces that never split a
// UTF-8 character. By default the pieces add up to Decode of all ids; with
// StreamOptions{Raw: true, SkipSpecial: true} they are what llama-server
// streams (plain token pieces, control tokens hidden, ill-formed bytes as
// U+FFFD), which reproduces the completion_text of the reference outputs.
//
// Unknown tokenizer models or pre-tokenizers are load errors: a silent
// fallback would produce plausible but wrong ids.
package tokenizer

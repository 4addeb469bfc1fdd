// Package server is the OpenAI-compatible /v1 HTTP API of the local variant,
// on fasthttp. It validates requests, resolves the model name (or the
// deployment's default), renders the model's chat template, tokenizes, asks a
// router.Backend for a greedy generation and answers as one JSON body or as a
// Server-Sent Events stream. It owns SPEC.md §7's error table for the local
// variant and exposes Prometheus metrics on /metrics. It knows nothing of how
// a route through the swarm is found: that is the router's job.
//
// Endpoints: GET /v1/models, GET /v1/models/{id}, POST /v1/chat/completions,
// POST /v1/completions, GET /metrics, GET /health.
//
// Prompts are built as llama.cpp's server builds them: the chat template is
// rendered with add_generation_prompt (ChatML when the model has none), a
// leading bos_token text is removed when the tokenizer adds BOS itself, and
// the text is tokenized with special tokens parsed. Completion text is the
// concatenation of the generated tokens' pieces, streamed in pieces that are
// always valid UTF-8.
//
// Request fields:
//   - used: model, messages (role system, developer (= system), user,
//     assistant, tool, function; content a string or text parts; name,
//     tool_call_id), prompt (a string, one string in an array, or token ids),
//     max_tokens / max_completion_tokens (default 512, or what fits the
//     context), stream, stream_options.include_usage, stop (up to 4 strings).
//   - accepted and ignored, whatever their value: temperature, top_p, n,
//     presence_penalty, frequency_penalty, seed, user, logit_bias, metadata,
//     store, service_tier, parallel_tool_calls, best_of, any unknown field.
//     Decoding is greedy and there is one choice.
//   - refused with 400 invalid_request, because a client relies on their
//     effect: logprobs (true / non-zero), top_logprobs, non-empty tools or
//     functions, tool_choice other than none/auto, response_format other
//     than text, audio, prediction, and for completions echo and suffix.
package server

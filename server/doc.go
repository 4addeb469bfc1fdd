// Package server is the OpenAI-compatible /v1 HTTP API of both variants,
// on fasthttp. It validates requests, resolves the model name (or the
// deployment's default), renders the model's chat template, tokenizes, asks a
// router.Backend for a greedy generation and answers as one JSON body or as a
// Server-Sent Events stream. It owns SPEC.md §7's error table for the local
// variant and exposes Prometheus metrics on /metrics. It knows nothing of how
// a route through the swarm is found: that is the router's job.
//
// The managed variant (Config.Managed) is the same code with a few checks
// more (managed.go): every /v1 request carries a bearer key that a
// KeyChecker (an apikey.Ring) decides — 401 invalid_api_key or
// api_key_expired, 503 coordinator_unavailable when it cannot decide —
// then the licence grant (403 licence_expired); generations are counted
// against the key's rate in a sliding 60-second window (429
// rate_limit_exceeded, Retry-After = the seconds until the oldest request
// leaves the window, i.e. until the next one is accepted; listing models is
// not counted), the model against the key's scope (403 model_not_permitted)
// and the authority's placement (503 model_loading, model_unavailable), the
// API's own bound on concurrent generations (429 capacity) and the
// deployment's generation limit (504 timeout). Router failures map to 429
// capacity, 502 generation_interrupted (a machine failed once the
// generation had begun and none could take over; in a stream, an error
// event and the end), 503 node_unavailable or 500 server_error. Every
// refused or failed request is a Record — reference, key, model, code,
// public message, cause, machine label, peer, address and port, and the
// operator's fix — written to the journal (JSON lines) and handed to the
// audit sink. /metrics is not served on the API's listener: its series
// name keys.
//
// Errors (errors.go): an apiError's Message is public — fixed text and the
// request's own values — and its Cause is for the operator only, logged
// under the request's reference (a chat completion's id is the same
// string). In the managed variant every message ends with "Reference:
// chatcmpl-…", and one that looks as if it names a machine, an address, a
// port, a peer id or a command is replaced by its code's fixed text where
// the body is written, so no call site can leak one.
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
//     tool_call_id), prompt (below), max_tokens / max_completion_tokens
//     (default 512, or what fits the context), stream,
//     stream_options.include_usage, stop (up to MaxStops, 16, strings:
//     OpenAI allows 4, lm-evaluation-harness sends more),
//     log-probabilities (below).
//   - accepted and ignored, whatever their value: temperature, top_p, n,
//     presence_penalty, frequency_penalty, seed, user, logit_bias, metadata,
//     store, service_tier, parallel_tool_calls, best_of, any unknown field.
//     Decoding is greedy: there is one choice per prompt, whatever n says.
//   - refused with 400 invalid_request, because a client relies on their
//     effect: non-empty tools or functions, tool_choice other than
//     none/auto, response_format other than text, audio, prediction, and
//     for completions suffix. (In the managed variant these are 400
//     unsupported_parameter, naming the field.)
//   - completions' prompt, in OpenAI's four forms: a string, token ids, or
//     a batch — an array of strings or an array of token id arrays, of
//     1..MaxPrompts (64) items, strings only or token arrays only (a mix,
//     an empty item, an item of another type, or more items are 400
//     invalid_request naming the field, down to prompt[i] or
//     prompt[i][j]). A batch is answered with one choice per prompt,
//     choices[i].index = i, each exactly what the prompt gives alone (text,
//     finish_reason, logprobs, echo, stop, max_tokens 0 all apply per
//     choice), usage summed over the choices. The prompts' generations run
//     at once through the router (the nodes batch their steps); if one
//     fails the others are halted and the request fails with its error.
//     When the nodes' KV caches cannot hold them all at once (each
//     generation reserves its prompt and max_tokens when it starts), the
//     batch runs in waves (router.Waves): a prompt refused for want of room
//     while others of the batch run waits until one of them ends, then
//     tries again, in turn (one needing more room than came free lets a
//     few behind it go first, then they wait for it). A prompt whose
//     tokens and max_tokens need more positions than every holder of some
//     blocks has in its whole KV cache (wire.Served.max_length) is 400
//     invalid_request naming it (prompt[i]; when several are, the lowest
//     i, whichever the router refused first), as is a lone one (prompt)
//     and a chat (messages). A
//     batch's prompt starts only while fewer than four of its prompts are
//     being computed or their positions and its own are at most 1,024
//     (router.Waves), so that the nodes' queues stay within the steps'
//     deadlines. A stream carries each choice's chunks with its index,
//     interleaved as the generations progress, each choice ending with its
//     own finish_reason chunk; the usage chunk (the sums) and [DONE] come
//     once, after every choice ended. The stream begins once every prompt
//     gave its first token or waits (for room, or for its turn to start),
//     so a prompt failing before that is an HTTP error (a prompt's text is
//     buffered until then, and its stop strings end it at once as ever);
//     later, an error event ends the stream. In the managed variant a batch
//     counts once against the key's rate and holds one of the API's
//     generation slots (Managed.MaxGenerations) per prompt, taken all at
//     once or none: a batch of more prompts than the bound is 400
//     invalid_request naming prompt (retrying cannot help), one that finds
//     too few slots free is 429 capacity.
//   - completions' echo (a boolean) puts the prompt's text in front of the
//     completion, in the body or as the stream's first piece; with echo,
//     max_tokens may be 0: the answer is the prompt alone (finish_reason
//     length), scored when logprobs is set (the older way of scoring text
//     with the OpenAI API).
//
// Log-probabilities (logprobs.go), as OpenAI defines them; decoding is
// greedy, so the chosen token is always the most likely one:
//   - chat: logprobs (a boolean) and top_logprobs (0..20, only with
//     logprobs true) give choices[0].logprobs = {content: [{token,
//     logprob, bytes, top_logprobs: [{token, logprob, bytes}]}], refusal:
//     null}; in a stream, each chunk that carries text carries its tokens'.
//   - completions: logprobs (0..5; null: none) gives each choice's logprobs =
//     {tokens, token_logprobs, top_logprobs: [{token: logprob} most likely
//     first, plus the chosen token], text_offset (characters of the whole
//     text)}; with echo the prompt's tokens come first, the first with null
//     (the last node scores the prompt and returns a few numbers per
//     position, so such a prompt may hold router.MaxPromptLogprobs tokens,
//     over 50,000 at logprobs 5, 165,000 at 0 or 1, besides the context's
//     bound; a batch's prompts may hold as many together, so that a
//     request's log-probabilities take no more memory than the largest
//     prompt's: more is 400 invalid_request naming echo with logprobs);
//     streamed chunks carry their text's tokens. top_logprobs is refused
//     there.
//   - token is the token's piece (special tokens spelled out; bytes that
//     are not UTF-8 replaced by U+FFFD) and bytes its raw bytes. A token
//     whose text is held back (part of a character, or a possible stop
//     string) goes out with the text that releases it; the tokens of a
//     matched stop string are left out with it.
//   - Out-of-range values, a wrong type, or top_logprobs without logprobs
//     are 400 invalid_request naming the field, in both variants.
//
// Usage has OpenAI's prompt_tokens_details.cached_tokens besides SPEC's
// three counts: the prompt tokens every node of the chain answered from its
// prompt cache (router.GenerateResult.CachedTokens; 0 when any computed
// them), also counted in svc_api_cached_prompt_tokens_total.
package server

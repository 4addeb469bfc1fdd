// Package chattmpl renders a model's chat template (the GGUF key
// tokenizer.chat_template, a Jinja template) into the prompt text, the way
// Hugging Face transformers' apply_chat_template does.
//
// # Engine and environment
//
// Templates run on gonja (github.com/nikolalohinski/gonja/v2), set up like
// transformers' ImmutableSandboxedEnvironment:
//
//   - trim_blocks and lstrip_blocks on, keep_trailing_newline off, no
//     autoescaping;
//   - variables: messages, add_generation_prompt, tools (None unless given),
//     documents (None), bos_token and eos_token (left undefined when the
//     model has no such token, as transformers does for a null token), and
//     any extra Options.Vars;
//   - globals: raise_exception(msg), which aborts the render with an error
//     carrying msg (errors.Is(err, ErrRaised)); strftime_now(fmt), formatting
//     Options.Now (time.Now by default) like Python's strftime; range, dict,
//     namespace, cycler, joiner, lipsum;
//   - statements: Jinja2's core ones plus break/continue (loopcontrols) and
//     {% generation %} (rendered as its body);
//   - tojson is transformers' override: json.dumps(x, ensure_ascii=False)
//     with Python's separators and float formatting, keys in insertion
//     order, no HTML escaping; indent, separators, sort_keys and
//     ensure_ascii are accepted;
//   - only Python's non-mutating methods are available (the immutable
//     sandbox refuses list.append, dict.update, ...).
//
// # Closing gonja's gaps
//
// gonja makes no difference between None and an undefined variable and
// quietly treats both as an empty value. Jinja2 does, and chat templates
// rely on it: iterating None (tools=None) is a TypeError while iterating an
// undefined variable yields nothing; arithmetic on an undefined variable is
// an UndefinedError; None prints as "None". After parsing, a rewrite pass
// (rewrite.go) therefore
//
//   - turns the none/None literal into a distinct None value (a typed nil
//     that gonja's builtins still treat as nil);
//   - routes the operands of arithmetic and ordering operators, the object
//     of {% for %}, the operands of ~ and printed values through internal
//     filters that apply Jinja2's rules;
//   - replaces the filters and tests whose meaning depends on the
//     difference (default, defined, undefined, none) and the dict methods
//     (key order, None for a missing key).
//
// {% set %} and {% filter %} are our own implementations (controls.go)
// because gonja's keep their expressions out of the rewrite pass's reach.
// The template source itself is never modified.
//
// # Errors
//
// Parse reports syntax errors with gonja's line and column. A failed Render
// returns a *RenderError: Kind "TemplateError" with the template's own
// message for raise_exception, "UndefinedError"/"TypeError" with line and
// column for the checks above, "Error" for anything the engine reports.
//
// # Fallback for models without a template
//
// Fallback returns ChatML:
//
//	<|im_start|>system\nYou are terse.<|im_end|>\n
//	<|im_start|>user\nHi<|im_end|>\n
//	<|im_start|>assistant\n
//
// ChatML is what llama.cpp applies to a model without a template (our
// numerical reference, so prompts match it), it marks roles unambiguously
// and many instruction-tuned models have seen it. A model that was never
// chat-tuned has no format of its own to follow, so no choice is better for
// it; plain "role: content" lines would be easier to confuse with content.
//
// # Known differences from Jinja2
//
//   - Inline "a if b else c" works at the top of {{ }} and {% set %} only
//     (gonja's grammar), not nested inside other expressions.
//   - with, include, import, extends, from and block are not available;
//     transformers gives templates no loader, so the last five fail there too.
//   - Map values given as Go maps are seen with sorted keys (Go maps have no
//     order); use Object (or DecodeJSON / MessagesFromJSON) to keep order.
//   - Attribute access on an undefined value yields Undefined instead of
//     raising; string iteration and indexing are by byte.
package chattmpl

// Package chattmpl renders a model's chat template (the GGUF key
// tokenizer.chat_template, a Jinja template) into the prompt text, the way
// Hugging Face transformers' apply_chat_template does.
//
//	tpl, err := chattmpl.Parse(src)            // once per model
//	out, err := tpl.Render(msgs, chattmpl.Options{BOS: &bos, EOS: &eos, AddGenerationPrompt: true})
//
// FromGGUF reads the template and the BOS/EOS texts from a model file.
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
//     any extra Options.Vars (e.g. enable_thinking);
//   - globals: raise_exception(msg), which aborts the render with an error
//     carrying msg (errors.Is(err, ErrRaised)); strftime_now(fmt), formatting
//     Options.Now (time.Now by default) like Python's strftime on glibc;
//     range, dict, namespace, cycler, joiner, lipsum;
//   - statements: Jinja2's core ones plus break/continue (loopcontrols) and
//     {% generation %} (rendered as its body); no {% do %}, as in
//     transformers;
//   - tojson is transformers' override: json.dumps(x, ensure_ascii=False)
//     with Python's separators and float formatting, keys in insertion
//     order, no HTML escaping; indent, separators, sort_keys and
//     ensure_ascii are accepted;
//   - only Python's non-mutating methods are available (the immutable
//     sandbox refuses list.append, dict.update, ...).
//
// # Closing gonja's gaps
//
// gonja differs from Jinja2 in ways chat templates notice. Where gonja has
// an extension point the gap is closed there: filters, tests, methods and
// statements of our own replace or complement gonja's (Python's strip/split,
// replace, startswith/endswith, upper/lower with full case mapping, dict
// methods in insertion order, default, round, items, dictsort, string,
// tojson, range without a goroutine, the tests defined/undefined/none and
// "in" (which gonja uses for the in operator), set with
// unpacking, filter blocks).
//
// The largest gap is that gonja makes no difference between None and an
// undefined variable and quietly treats both as an empty value, and that its
// operators coerce freely. Jinja2 does not, and templates rely on it:
// iterating None (tools=None) is a TypeError while iterating an undefined
// variable yields nothing; arithmetic on an undefined variable is an
// UndefinedError; None prints as "None"; messages[-1] is the last message.
// After parsing, a pass over the syntax tree (rewrite.go) turns the
// none/None literal into a distinct None value and routes operators, item
// and attribute access, loop sources, calls and printed values through
// internal filters that apply Python's and Jinja2's rules (pyops.go,
// env.go, pystr.go).
//
// Four gaps sit in gonja's lexer and parser, before any extension point, and
// are closed by rewriting the template source in a fixed, documented way
// (only spaces and tabs are removed or characters inserted, never a
// newline, so reported line numbers stay right):
//
//   - lstrip_blocks (lstrip.go): gonja also strips blanks before a tag that
//     follows text on the same line; the source is scanned the way Jinja2's
//     lexer does and the blanks Jinja2 would strip are removed, with gonja's
//     own lstrip_blocks off.
//   - conditional expressions (condexpr.go): gonja parses "X if C else Y"
//     only as a whole {{ }} or {% set %} value; one nested in brackets is
//     rewritten to ((C) and [X] or [Y])[0], which evaluates the same way
//     and only the chosen branch.
//   - the "in" operator (condexpr.go): gonja takes a single variable or
//     literal as its right operand, so in 'user' in messages | map(...) the
//     filter would apply to the result; the operand is parenthesized up to
//     where Jinja2's grammar ends it.
//   - chained comparisons (condexpr.go): a < b < c becomes
//     (a < b) and (b < c) (gonja would compute (a < b) < c); b is then
//     evaluated twice, which matters only if it has side effects.
//
// # Errors and limits
//
// Parse reports syntax errors with line and column. A failed Render returns
// a *RenderError: Kind "TemplateError" with the template's own message for
// raise_exception; "UndefinedError" or "TypeError" with line and column
// where Jinja2 raises those; "RecursionError" past 200 nested macro calls;
// "Error" for anything else the engine reports, for more than 262144 loop
// iterations or 64 MiB of output in one render, and for an engine panic
// (recovered; templates come from model files and must not crash the
// process).
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
//   - with, include, import, extends, from and block are not available
//     (transformers gives templates no loader, so the last five fail there
//     too); {% raw %} drops a newline right after its tag.
//   - Macros see no varargs/kwargs variables; loop.depth counts nested
//     loops, not recursion levels; a chain mixing in/is with comparisons
//     (x in y == z) is not split.
//   - Values given as Go maps are seen with sorted keys (Go maps have no
//     order); use Object (or DecodeJSON / MessagesFromJSON) to keep order.
//   - Error messages name Jinja2's error class and position but are worded
//     differently.
package chattmpl

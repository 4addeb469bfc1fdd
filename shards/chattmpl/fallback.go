package chattmpl

// fallbackSource is the ChatML format, the same default llama.cpp applies to
// a model without a chat template (see doc.go for why).
const fallbackSource = `{%- for message in messages -%}
{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|im_start|>assistant\n' -}}
{%- endif -%}`

// Fallback returns the template used for a model that has no
// tokenizer.chat_template: ChatML,
//
//	<|im_start|>{role}\n{content}<|im_end|>\n   (per message)
//	<|im_start|>assistant\n                     (with add_generation_prompt)
//
// Content must be a string (null content is an error in this format).
func Fallback() *Template {
	t, err := parseNamed("fallback", fallbackSource)
	if err != nil {
		// The source is a constant covered by tests.
		panic(err)
	}
	return t
}

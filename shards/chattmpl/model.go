package chattmpl

import (
	"fmt"

	"svc/shards/gguf"
)

// Model is what a GGUF file says about formatting chats.
type Model struct {
	// Template is the model's tokenizer.chat_template, or Fallback() when
	// the file has none (HasTemplate false).
	Template    *Template
	HasTemplate bool
	// BOS and EOS are the texts of tokenizer.ggml.bos_token_id and
	// eos_token_id, nil when the file names no such token. As llama.cpp
	// does, the token's text is used whether or not the model adds BOS.
	BOS, EOS *string
}

// FromGGUF reads the chat template and the BOS/EOS token texts of a model.
func FromGGUF(f *gguf.File) (*Model, error) {
	m := &Model{}
	if src, ok := f.String("tokenizer.chat_template"); ok {
		t, err := parseNamed("tokenizer.chat_template", src)
		if err != nil {
			return nil, err
		}
		m.Template, m.HasTemplate = t, true
	} else if f.Has("tokenizer.chat_template") {
		return nil, fmt.Errorf("chat template: tokenizer.chat_template is not a string")
	} else {
		m.Template = Fallback()
	}
	tokens, _ := f.Strings("tokenizer.ggml.tokens")
	for _, sp := range []struct {
		key string
		dst **string
	}{{"tokenizer.ggml.bos_token_id", &m.BOS}, {"tokenizer.ggml.eos_token_id", &m.EOS}} {
		if !f.Has(sp.key) {
			continue
		}
		id, ok := f.Int(sp.key)
		if !ok || id < 0 || id >= int64(len(tokens)) {
			return nil, fmt.Errorf("chat template: %s is not a token id of the %d-token vocabulary", sp.key, len(tokens))
		}
		s := tokens[id]
		*sp.dst = &s
	}
	return m, nil
}

// Options returns render options carrying the model's BOS and EOS.
func (m *Model) Options() Options {
	return Options{BOS: m.BOS, EOS: m.EOS}
}

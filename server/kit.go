package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"svc/router"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

// modelKit is what turns requests for one model into tokens and back: its
// tokenizer, its chat template and the few header values around them. It is
// built from the GGUF header the router hands over and kept per digest.
type modelKit struct {
	tok *tokenizer.Tokenizer
	// tmpl is the model's own chat template, or chattmpl.Fallback() when
	// the model has none (llama.cpp's default is the same ChatML layout).
	tmpl    *chattmpl.Template
	tmplErr error // why tmpl is nil
	// bos and eos are the template's bos_token and eos_token: the text of
	// those tokens, or nil when the model has no such token.
	bos, eos *string
	// addsBOS reports whether Encode with addSpecial puts BOS in front.
	addsBOS bool
	vocab   int
	ctxLen  int // the model's context length in tokens, 0 if unknown
}

// newModelKit builds a kit from a header. A chat template that does not
// compile is kept as the reason chat requests fail: serving with a
// different template would silently change what the model sees.
func newModelKit(h *gguf.File) (*modelKit, error) {
	if h == nil {
		return nil, errors.New("model header missing")
	}
	tok, err := tokenizer.FromGGUF(h)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	k := &modelKit{tok: tok}
	k.vocab = tok.VocabSize()
	if arch, err := h.Architecture(); err == nil {
		if n, ok := h.Int(arch + ".context_length"); ok && n > 0 {
			k.ctxLen = int(n)
		}
	}
	k.addsBOS = tok.AddBOS() && tok.BOS() >= 0
	// A template this engine cannot compile only rules out chat requests:
	// text completions need the tokenizer alone.
	cm, err := chattmpl.FromGGUF(h)
	if err != nil {
		k.tmplErr = err
		return k, nil
	}
	k.tmpl = cm.Template
	k.bos, k.eos = cm.BOS, cm.EOS
	return k, nil
}

// renderChat renders a conversation with add_generation_prompt and removes
// a leading BOS text when the tokenizer adds BOS itself, so that the prompt
// does not start with two BOS tokens. llama.cpp's server does the same
// (common/chat.cpp strips bos_token from the rendered text when add_bos).
func (k *modelKit) renderChat(msgs []chattmpl.Message, now func() time.Time) (string, error) {
	if k.tmpl == nil {
		return "", errTemplate{k.tmplErr}
	}
	text, err := k.tmpl.Render(msgs, chattmpl.Options{BOS: k.bos, EOS: k.eos, AddGenerationPrompt: true, Now: now})
	if err != nil {
		return "", err
	}
	if k.addsBOS && k.bos != nil && *k.bos != "" {
		text = strings.TrimPrefix(text, *k.bos)
	}
	return text, nil
}

// errTemplate means the model's chat template could not be compiled: a
// fault on the serving side, not in the request.
type errTemplate struct{ err error }

func (e errTemplate) Error() string {
	return "the model's chat template cannot be used: " + e.err.Error()
}
func (e errTemplate) Unwrap() error { return e.err }

// encode tokenizes a prompt as llama.cpp's server does: special tokens are
// parsed, BOS is added when the model asks for it.
func (k *modelKit) encode(text string) ([]int32, error) {
	return k.tok.Encode(text, true, true)
}

// ChatPrompt renders messages with the chat template of the model whose
// header is h and tokenizes the result, exactly as the API does for
// POST /v1/chat/completions. It returns the rendered text (leading BOS text
// removed when the tokenizer adds BOS) and the prompt's token ids. It lets
// other programs and tests reproduce the API's prompts.
func ChatPrompt(h *gguf.File, msgs []chattmpl.Message, now func() time.Time) (string, []int32, error) {
	k, err := newModelKit(h)
	if err != nil {
		return "", nil, err
	}
	text, err := k.renderChat(msgs, now)
	if err != nil {
		return "", nil, err
	}
	ids, err := k.encode(text)
	if err != nil {
		return "", nil, fmt.Errorf("tokenize: %w", err)
	}
	return text, ids, nil
}

// kitCache builds each model's kit once, keyed by digest, so concurrent
// first requests for a model share one build.
type kitCache struct {
	mu   sync.Mutex
	kits map[string]*kitEntry
}

type kitEntry struct {
	ready chan struct{}
	kit   *modelKit
	err   error
}

// maxKits bounds the cache; a swarm serves a handful of models, and a kit
// dropped from the cache is simply rebuilt.
const maxKits = 64

func newKitCache() *kitCache { return &kitCache{kits: map[string]*kitEntry{}} }

func (c *kitCache) get(ctx context.Context, info *router.ModelInfo) (*modelKit, error) {
	key := info.Digest
	if key == "" {
		key = "name:" + info.Name
	}
	c.mu.Lock()
	e, ok := c.kits[key]
	if !ok {
		if len(c.kits) >= maxKits {
			for k := range c.kits {
				delete(c.kits, k)
				break
			}
		}
		e = &kitEntry{ready: make(chan struct{})}
		c.kits[key] = e
	}
	c.mu.Unlock()
	if !ok {
		e.kit, e.err = newModelKit(info.Header)
		if e.err != nil {
			// A failed build is not kept: the next request tries again.
			c.mu.Lock()
			if c.kits[key] == e {
				delete(c.kits, key)
			}
			c.mu.Unlock()
		}
		close(e.ready)
	}
	select {
	case <-e.ready:
		return e.kit, e.err
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for model %s's tokenizer: %w", info.Name, ctx.Err())
	}
}

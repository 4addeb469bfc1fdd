package tokenizer

import (
	"encoding/json"
	"os"
	"testing"

	"svc/internal/testenv"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
)

// TestReferenceChatPromptTokens renders each reference chat with the
// model's template (package chattmpl) and tokenizes it as llama-server does
// for chat requests (add_special and parse_special): the count must be the
// usage.prompt_tokens llama-server reported.
func TestReferenceChatPromptTokens(t *testing.T) {
	path := testenv.Path(t, "models", "mini-qwen2-chat-q8_0.gguf")
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := chattmpl.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	tok := load(t, path)
	raw, err := os.ReadFile(testenv.Path(t, "reference", "mini-qwen2-chat-q8_0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rf struct {
		Chat []struct {
			Messages json.RawMessage `json:"messages"`
			Usage    struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		} `json:"chat"`
	}
	if err := json.Unmarshal(raw, &rf); err != nil {
		t.Fatal(err)
	}
	if len(rf.Chat) == 0 {
		t.Fatal("no chat entries")
	}
	for i, c := range rf.Chat {
		msgs, err := chattmpl.MessagesFromJSON(c.Messages)
		if err != nil {
			t.Fatal(err)
		}
		opts := m.Options()
		opts.AddGenerationPrompt = true
		prompt, err := m.Template.Render(msgs, opts)
		if err != nil {
			t.Fatalf("chat %d: render: %v", i, err)
		}
		ids, err := tok.Encode(prompt, true, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != c.Usage.PromptTokens {
			t.Errorf("chat %d: %d prompt tokens, llama-server counted %d", i, len(ids), c.Usage.PromptTokens)
		}
	}
}

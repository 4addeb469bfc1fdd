package chattmpl

import (
	"os"
	"strings"
	"testing"

	"svc/internal/testenv"
)

// BenchmarkRenderLlama31 renders a 100-message conversation with the Llama
// 3.1 template, the per-request cost of chat completions.
func BenchmarkRenderLlama31(b *testing.B) {
	src, err := os.ReadFile(testenv.Path(b, "templates", "meta-llama-Llama-3.1-8B-Instruct.jinja"))
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := Parse(string(src))
	if err != nil {
		b.Fatal(err)
	}
	msgs := []Message{{Role: "system", Content: "You are terse."}}
	for i := 0; i < 50; i++ {
		msgs = append(msgs, Message{Role: "user", Content: strings.Repeat("question ", 20)},
			Message{Role: "assistant", Content: strings.Repeat("answer ", 30)})
	}
	o := Options{BOS: strp("<|begin_of_text|>"), AddGenerationPrompt: true, Now: frozenNow}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tpl.Render(msgs, o); err != nil {
			b.Fatal(err)
		}
	}
}

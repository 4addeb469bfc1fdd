package tokenizer

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// benchText builds about 1 MB of text: the fixture texts (Unicode, emoji,
// CJK, digits, whitespace runs) interleaved with random words, so the
// per-call word cache does not make it trivially repetitive.
func benchText(tb testing.TB) string {
	p := vocabPath(tb, "gpt-2") + ".inp"
	raw, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	fixture := strings.ReplaceAll(string(raw), "\n__ggml_vocab_test__\n", " ")
	r := rand.New(rand.NewPCG(7, 9))
	const letters = "abcdefghijklmnopqrstuvwxyzéüßабвгд"
	lr := []rune(letters)
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(fixture)
		for range 400 {
			n := 1 + r.IntN(9)
			for range n {
				b.WriteRune(lr[r.IntN(len(lr))])
			}
			switch r.IntN(12) {
			case 0:
				b.WriteString(", ")
			case 1:
				b.WriteString(".\n")
			case 2:
				b.WriteString(" 1234 ")
			default:
				b.WriteByte(' ')
			}
		}
	}
	return b.String()[:1<<20]
}

func benchEncode(b *testing.B, vocab string) {
	tok := load(b, vocabPath(b, vocab))
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		if _, err := tok.Encode(text, true, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode1MB_LlamaBPE(b *testing.B) { benchEncode(b, "llama-bpe") }
func BenchmarkEncode1MB_Qwen2(b *testing.B)    { benchEncode(b, "qwen2") }
func BenchmarkEncode1MB_GPT2(b *testing.B)     { benchEncode(b, "gpt-2") }
func BenchmarkEncode1MB_SPM(b *testing.B)      { benchEncode(b, "llama-spm") }
func BenchmarkEncode1MB_DeepseekLLM(b *testing.B) {
	benchEncode(b, "deepseek-llm")
}

// TestSPMWordSplitEquivalent checks that merging word by word gives the
// ids of llama.cpp's single pass over the whole text.
func TestSPMWordSplitEquivalent(t *testing.T) {
	text := benchText(t)[:200_000]
	for _, v := range []string{"llama-spm", "phi-3"} {
		tok := load(t, vocabPath(t, v))
		if !tok.spmWordSplit {
			t.Fatalf("%s: expected the word-split fast path", v)
		}
		whole := *tok
		whole.spmWordSplit = false
		a, err := tok.Encode(text, true, false)
		if err != nil {
			t.Fatal(err)
		}
		b, err := whole.Encode(text, true, false)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s: word-split and whole-text merging differ", v)
		}
	}
}

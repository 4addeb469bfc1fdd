package tokenizer

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// splitWith runs one step over the whole text and returns the pieces.
func splitWith(t *testing.T, s step, text string) []string {
	t.Helper()
	st := &splitText{cpts: decodeCpts(text)}
	if len(st.cpts) == 0 {
		return nil
	}
	lens, err := s.split(st, []int{len(st.cpts)})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	at := 0
	for _, n := range lens {
		out = append(out, string(st.cpts[at:at+n]))
		at += n
	}
	if at != len(st.cpts) {
		t.Fatalf("pieces cover %d of %d codepoints", at, len(st.cpts))
	}
	return out
}

// randomText mixes the character classes the split regexes distinguish.
func randomText(r *rand.Rand) string {
	parts := []string{" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u2028", "a", "Z", "é", "ß",
		"中", "文", "😁", "🦙", "1", "23", "٣", "½", "'", "'s", "'S", "'ll", "'Re", "'ve", "'x", "!", "?",
		".", ",", "$", "~", "-", "_", "(", "\u0301", "\u200d", "\x00", "\x1f", "\x7f", "\xff", "Hello", "world"}
	var b strings.Builder
	for range r.IntN(24) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// TestCustomSplittersMatchRegex checks the hand-written splitters against
// the general regex path (llama.cpp's std::regex fallback) on the fixture
// texts and on random mixes of tricky characters.
func TestCustomSplittersMatchRegex(t *testing.T) {
	pairs := []struct {
		name   string
		custom step
		expr   string
	}{
		{"qwen2", llama3Step{maxDigits: 1}, reQwen2},
		{"llama3", llama3Step{maxDigits: 3}, reLlama3},
		{"gpt2", gpt2Step{}, reGPT2},
	}
	p := vocabPath(t, "gpt-2")
	texts, _ := readVectors(t, p+".inp", p+".out")
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		texts = append(texts, randomText(r))
	}
	for _, pc := range pairs {
		rs, err := newRegexStep(pc.expr)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, text := range texts {
			a, b := splitWith(t, pc.custom, text), splitWith(t, rs, text)
			if !slices.Equal(a, b) {
				bad++
				if bad <= 5 {
					t.Errorf("%s %q:\n custom %q\n  regex %q", pc.name, text, a, b)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts split differently", pc.name, bad, len(texts))
		}
	}
}

func TestTranslateRegex(t *testing.T) {
	got, err := translateRegex(`[^\s\p{L}]+\s+(?!\S)|x$|[$]`, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `[^\x09-\x0D\x20\u00D2\x41-\x5A\x61-\x7A]+[\x09-\x0D\x20]+(?![^\x09-\x0D\x20])|x\z|[$]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := newRegexStep(`\p{L}é`); err == nil {
		t.Error("categories mixed with non-ASCII must be rejected, as in llama.cpp")
	}
	if _, err := newRegexStep(`\p{Han}+`); err == nil {
		t.Error("unsupported category must be an error")
	}
}

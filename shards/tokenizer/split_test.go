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
		".", ",", "$", "~", "-", "_", "(", "\u0301", "\u200d", "\x00", "\x1f", "\x7f", "\xff", "Hello", "world",
		"\u1f7d", "\u1fbe", "\u2126", "\u212a", "\ufb00", "\uff21", "\uff41", "\U00010400", "\uff01", "\u3001", "\u2018",
		"\u0900", "\u0964", "\u060c", "\u3042", "\u30a2", "\uac00", "\u0800", "\ufeff", "\u00b5", "\u0370"}
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

// TestSeqRegexMatchesRegexp2 checks the fast matcher against regexp2 for
// every simple split regex of every supported pre-tokenizer.
func TestSeqRegexMatchesRegexp2(t *testing.T) {
	p := vocabPath(t, "gpt-2")
	texts, _ := readVectors(t, p+".inp", p+".out")
	r := rand.New(rand.NewPCG(21, 22))
	for range 2000 {
		texts = append(texts, randomText(r))
	}
	extra := []string{"abc  \n", "  ", "x \u3000", "１２３", "ｈｅｌｌｏ！", "Ωmega Ꮳ", "한국어 日本語 ぁァ", "$+<=>^~|`", "12345678"}
	texts = append(texts, extra...)
	seen := map[string]bool{}
	nfast := 0
	for name, cfg := range preTokenizers {
		for _, e := range cfg.exprs {
			if seen[e] {
				continue
			}
			seen[e] = true
			st, err := newPreTokenizer([]string{e})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rs, ok := st.steps[0].(*regexStep)
			if !ok || rs.fast == nil {
				continue
			}
			nfast++
			slow := *rs
			slow.fast = nil
			for _, text := range texts {
				a, b := splitWith(t, rs, text), splitWith(t, &slow, text)
				if !slices.Equal(a, b) {
					t.Errorf("%s %q on %q:\n fast %q\n slow %q", name, e, text, a, b)
					break
				}
			}
		}
	}
	if nfast < 8 {
		t.Errorf("only %d regexes use the fast matcher", nfast)
	}
	t.Logf("%d simple regexes checked", nfast)
}

func TestParseSeqRegex(t *testing.T) {
	for _, e := range []string{`a|b`, `(ab)+`, `a+?`, `\d+`, `[a-z]+(?!x)`, `\S`, `[z-a]`} {
		if _, ok := parseSeqRegex(e, true); ok {
			t.Errorf("%q must not take the fast path", e)
		}
	}
	re, ok := parseSeqRegex(`\p{N}{1,3}`, true)
	if !ok || len(re.items) != 1 || re.items[0].min != 1 || re.items[0].max != 3 {
		t.Errorf("{1,3}: %+v %v", re, ok)
	}
}

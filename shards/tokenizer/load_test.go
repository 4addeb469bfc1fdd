package tokenizer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"svc/shards/gguf"
)

// synth builds an in-memory GGUF file holding only the given metadata.
func synth(t *testing.T, kvs ...gguf.KV) *gguf.File {
	t.Helper()
	var buf bytes.Buffer
	if err := gguf.Write(&buf, kvs, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func kvStr(k, v string) gguf.KV { return gguf.KV{Key: k, Type: gguf.ValString, Value: v} }
func kvStrs(k string, v ...string) gguf.KV {
	return gguf.KV{Key: k, Type: gguf.ValArray, Value: v}
}

func TestLoadErrors(t *testing.T) {
	tokens := kvStrs(keyTokens, "a", "b", "ab")
	merges := kvStrs(keyMerges, "a b")
	cases := []struct {
		name string
		kvs  []gguf.KV
		want []string // substrings of the error
	}{
		{"no model", []gguf.KV{tokens}, []string{keyModel}},
		{"unknown model", []gguf.KV{kvStr(keyModel, "wordpiece9"), tokens}, []string{keyModel, "wordpiece9"}},
		{"unknown pre", []gguf.KV{kvStr(keyModel, "gpt2"), kvStr(keyPre, "no-such-pre"), tokens, merges}, []string{keyPre, "no-such-pre"}},
		{"no tokens", []gguf.KV{kvStr(keyModel, "llama")}, []string{keyTokens}},
		{"no merges", []gguf.KV{kvStr(keyModel, "gpt2"), kvStr(keyPre, "gpt-2"), tokens}, []string{keyMerges}},
		{"duplicate token", []gguf.KV{kvStr(keyModel, "gpt2"), kvStr(keyPre, "gpt-2"), kvStrs(keyTokens, "a", "a"), merges}, []string{"duplicate", `"a"`}},
		{"tokens not strings", []gguf.KV{kvStr(keyModel, "llama"), {Key: keyTokens, Type: gguf.ValArray, Value: []int32{1, 2}}}, []string{keyTokens}},
		{"bad token types", []gguf.KV{kvStr(keyModel, "llama"), tokens, kvStrs(keyTypes, "x", "y", "z")}, []string{keyTypes}},
		{"short scores", []gguf.KV{kvStr(keyModel, "llama"), tokens, {Key: keyScores, Type: gguf.ValArray, Value: []float32{1}}}, []string{keyScores}},
		{"add_bos without bos", []gguf.KV{kvStr(keyModel, "gpt2"), kvStr(keyPre, "gpt-2"), tokens, merges,
			{Key: keyAddBOS, Type: gguf.ValBool, Value: true}}, []string{keyAddBOS}},
	}
	for _, c := range cases {
		_, err := FromGGUF(synth(t, c.kvs...))
		if err == nil {
			t.Errorf("%s: loaded without error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
	if _, err := FromGGUF(nil); err == nil {
		t.Error("nil file must be an error")
	}
}

func TestSynthBPE(t *testing.T) {
	// No tokenizer.ggml.pre: llama.cpp falls back to "default".
	f := synth(t, kvStr(keyModel, "gpt2"),
		kvStrs(keyTokens, "a", "b", "ab", "Ġ", "Ġab", "!"),
		kvStrs(keyMerges, "a b", "Ġ ab", "nospace"))
	tok, err := FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Pre() != "default" || tok.AddBOS() || tok.BOS() != -1 {
		t.Errorf("pre %q addBOS %v bos %d", tok.Pre(), tok.AddBOS(), tok.BOS())
	}
	ids, err := tok.Encode("ab ab!", true, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{2, 4, 5}; !slices.Equal(ids, want) {
		t.Errorf("got %v want %v", ids, want)
	}
	// A character with no token falls back to its single-byte tokens (none
	// here, so it disappears, as in llama.cpp).
	if ids, _ := tok.Encode("ac", false, false); !slices.Equal(ids, []int32{0}) {
		t.Errorf("unknown char: got %v", ids)
	}
}

func TestEOG(t *testing.T) {
	cases := []struct {
		vocab string
		eog   []string
		not   []string
	}{
		{"qwen2", []string{"<|im_end|>", "<|endoftext|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"}, []string{"<|im_start|>", "<think>", "hello", "</s>"}},
		{"llama-bpe", []string{"<|end_of_text|>", "<|eot_id|>"}, []string{"<|begin_of_text|>", "<|start_header_id|>"}},
		{"llama-spm", []string{"</s>"}, []string{"<s>", "<unk>"}},
		{"gpt-2", []string{"<|endoftext|>"}, []string{"hello"}},
	}
	for _, c := range cases {
		tok := load(t, vocabPath(t, c.vocab))
		for _, s := range c.eog {
			id, ok := tok.ID(s)
			if !ok || !tok.IsEOG(id) || !tok.IsControl(id) {
				t.Errorf("%s: %q (id %d, found %v) should be a control EOG token", c.vocab, s, id, ok)
			}
		}
		for _, s := range c.not {
			if id, ok := tok.ID(s); ok && tok.IsEOG(id) {
				t.Errorf("%s: %q must not end generation", c.vocab, s)
			}
		}
		if tok.IsEOG(-1) || tok.IsEOG(int32(tok.VocabSize())) {
			t.Errorf("%s: out-of-range ids are not EOG", c.vocab)
		}
	}
	bpe := load(t, vocabPath(t, "llama-bpe"))
	if !bpe.AddBOS() || bpe.BOS() != 128000 || bpe.EOS() != 128001 || bpe.EOT() != 128009 {
		t.Errorf("llama-bpe: addBOS %v bos %d eos %d eot %d", bpe.AddBOS(), bpe.BOS(), bpe.EOS(), bpe.EOT())
	}
	qw := load(t, vocabPath(t, "qwen2"))
	if qw.AddBOS() || qw.EOS() != 151645 {
		t.Errorf("qwen2: addBOS %v eos %d", qw.AddBOS(), qw.EOS())
	}
}

// TestRoundTrip: byte-level BPE without clean_spaces and SentencePiece with
// byte fallback give back the exact text (SPM even for invalid UTF-8).
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, v := range []string{"qwen2", "llama-spm", "deepseek-coder", "deepseek-llm"} {
		tok := load(t, vocabPath(t, v))
		for range 300 {
			text := randomText(r)
			if v != "llama-spm" {
				text = strings.ToValidUTF8(text, "?")
			}
			ids, err := tok.Encode(text, false, false)
			if err != nil {
				t.Fatalf("%s %q: %v", v, text, err)
			}
			if got := tok.Decode(ids); got != text {
				t.Fatalf("%s: round trip %q -> %v -> %q", v, text, ids, got)
			}
		}
	}
}

// TestEncodeArbitraryBytes: any input is tokenized without error or panic,
// and invalid UTF-8 becomes U+FFFD in byte-level vocabularies as in
// llama.cpp.
func TestEncodeArbitraryBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, v := range vocabs {
		tok := load(t, vocabPath(t, v))
		for range 100 {
			b := make([]byte, r.IntN(40))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			for _, special := range []bool{false, true} {
				ids, err := tok.Encode(string(b), true, special)
				if err != nil {
					t.Fatalf("%s %q: %v", v, b, err)
				}
				_ = tok.Decode(ids)
			}
		}
	}
	qw := load(t, vocabPath(t, "qwen2"))
	a, _ := qw.Encode("x\xffy", false, false)
	b, _ := qw.Encode("x\uFFFDy", false, false)
	if !slices.Equal(a, b) {
		t.Errorf("invalid byte: %v, U+FFFD: %v", a, b)
	}
}

func TestCleanSpaces(t *testing.T) {
	cases := map[string]string{
		"Hello , world !":    "Hello, world!",
		"a ? b . c":          "a? b. c",
		"it ' s":             "it's",
		"don 't it 's i 'm":  "don 't it's i'm",
		"we 're you 've 'll": "we're you've 'll",
		" ' ' ":              "'' ",
		"":                   "",
		" ":                  " ",
		"?":                  "?",
		" ?":                 "?", // even a leading space goes (total drops to 0)
		"x  ?":               "x ?",
		"a ' b":              "a'b",
		"😁 ?":                "😁?",
	}
	for in, want := range cases {
		b := []byte(in)
		src := make([]int, len(b))
		for i := range src {
			src[i] = i
		}
		if got := string(cleanSpaces(b, src)); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReplaceInvalid(t *testing.T) {
	cases := map[string]string{
		"ok":               "ok",
		"a\xffb":           "a\uFFFDb",
		"\xe4\xbd":         "\uFFFD",
		"\xe4\xbda":        "\uFFFDa",
		"\xc3\xe4\xbda":    "\uFFFD\uFFFDa",
		"\xe0\x80":         "\uFFFD\uFFFD",
		"\xed\xa0\x80":     "\uFFFD\uFFFD\uFFFD",
		"\xf0\x9f\x98":     "\uFFFD",
		"\xf0\x9f\x98\x81": "😁",
	}
	for in, want := range cases {
		if got := replaceInvalid([]byte(in)); got != want {
			t.Errorf("replaceInvalid(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(replaceInvalid([]byte(in))) {
			t.Errorf("replaceInvalid(%q) is not valid", in)
		}
	}
}

func TestByteTables(t *testing.T) {
	seen := map[rune]bool{}
	for b := 0; b < 256; b++ {
		r := byteRunes[b]
		if seen[r] {
			t.Fatalf("rune %U used twice", r)
		}
		seen[r] = true
		if got, ok := runeByte(r); !ok || got != byte(b) {
			t.Fatalf("runeByte(%U) = %d, %v; want %d", r, got, ok, b)
		}
	}
	if byteRunes[' '] != 'Ġ' || byteRunes['\n'] != 'Ċ' {
		t.Errorf("space %U newline %U", byteRunes[' '], byteRunes['\n'])
	}
	if _, ok := runeByte('中'); ok {
		t.Error("runeByte accepted a codepoint outside the table")
	}
}

func TestDecodeCpts(t *testing.T) {
	got := decodeCpts("a\xffé\xe4\xbd😁\xc0\x80\xed\xa0\x80")
	want := []rune{'a', 0xFFFD, 'é', 0xFFFD, 0xFFFD, '😁', 0 /* overlong accepted */, 0xD800}
	if !slices.Equal(got, want) {
		t.Errorf("got %U want %U", got, want)
	}
}

// TestUserDefinedAlwaysMatched: llama.cpp splits user-defined tokens out of
// the text even when special tokens are not parsed; control tokens only
// with parseSpecial.
func TestUserDefinedAlwaysMatched(t *testing.T) {
	qw := load(t, vocabPath(t, "qwen2"))
	think, _ := qw.ID("<think>")
	imEnd, _ := qw.ID("<|im_end|>")
	ids, err := qw.Encode("a<think>b<|im_end|>", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ids, think) || slices.Contains(ids, imEnd) {
		t.Errorf("parseSpecial=false: %v", ids)
	}
	ids, _ = qw.Encode("a<think>b<|im_end|>", false, true)
	if !slices.Contains(ids, think) || !slices.Contains(ids, imEnd) {
		t.Errorf("parseSpecial=true: %v", ids)
	}
	ds := load(t, vocabPath(t, "deepseek-llm"))
	pad, ok := ds.ID("[PAD100015]")
	if !ok {
		t.Fatal("fixture lacks [PAD100015]")
	}
	ids, _ = ds.Encode("x[PAD100015][PAD1000", false, false)
	if !slices.Contains(ids, pad) {
		t.Errorf("deepseek-llm user-defined token not matched: %v", ids)
	}
}

// TestPhi3RStrip: llama.cpp gives Phi-3's special tokens RSTRIP (by model
// name), and "</s>" is user-defined there, so it is split out even without
// parseSpecial and swallows the whitespace after it.
func TestPhi3RStrip(t *testing.T) {
	tok := load(t, vocabPath(t, "phi-3"))
	got, err := tok.Encode("Hello</s>   world", false, false)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tok.Encode("Hello", false, false)
	want = append(want, 2)
	w2, _ := tok.Encode("world", false, false)
	want = append(want, w2...)
	if !slices.Equal(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

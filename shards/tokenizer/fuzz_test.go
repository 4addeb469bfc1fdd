package tokenizer

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRoundTrip: any input tokenizes without error, and decoding gives the
// input back (SentencePiece with byte fallback: any bytes not containing
// its space marker; byte-level BPE without clean_spaces: valid UTF-8).
func FuzzRoundTrip(f *testing.F) {
	spm := load(f, vocabPath(f, "llama-spm"))
	bpe := load(f, vocabPath(f, "deepseek-coder"))
	p := vocabPath(f, "gpt-2")
	texts, _ := readVectors(f, p+".inp", p+".out")
	for _, s := range texts {
		f.Add(s)
	}
	f.Add("\xff\xfe<s></s><unk> \x00")
	f.Fuzz(func(t *testing.T, s string) {
		for _, special := range []bool{false, true} {
			ids, err := spm.Encode(s, false, special)
			if err != nil {
				t.Fatalf("spm %q: %v", s, err)
			}
			if !special && !strings.Contains(s, "▁") {
				if got := spm.Decode(ids); got != s {
					t.Fatalf("spm round trip %q -> %q", s, got)
				}
			}
			ids, err = bpe.Encode(s, false, special)
			if err != nil {
				t.Fatalf("bpe %q: %v", s, err)
			}
			if utf8.ValidString(s) {
				if got := bpe.Decode(ids); got != s {
					t.Fatalf("bpe round trip %q -> %q", s, got)
				}
			}
		}
	})
}

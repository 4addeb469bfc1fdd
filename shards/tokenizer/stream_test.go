package tokenizer

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// byteToken is the id whose piece is the single byte b.
func byteToken(t *testing.T, tok *Tokenizer, b byte) int32 {
	t.Helper()
	var s string
	if tok.kind == kindSPM {
		id := tok.spmByte[b]
		if id == null {
			t.Fatalf("no byte token for %#x", b)
		}
		return id
	}
	s = string(byteRunes[b])
	id, ok := tok.ids[s]
	if !ok {
		t.Fatalf("no byte-level token for %#x", b)
	}
	return id
}

// streamAll feeds ids to a fresh stream decoder and checks every piece.
func streamAll(t *testing.T, sd *StreamDecoder, ids []int32) string {
	t.Helper()
	var sb strings.Builder
	for _, id := range ids {
		p := sd.Add(id)
		if !utf8.ValidString(p) {
			t.Fatalf("piece %q is not valid UTF-8 (ids %v)", p, ids)
		}
		sb.WriteString(p)
	}
	p := sd.Flush()
	if !utf8.ValidString(p) {
		t.Fatalf("flush %q is not valid UTF-8", p)
	}
	sb.WriteString(p)
	return sb.String()
}

// validPieceIDs lists ids whose piece is non-empty valid UTF-8, plus the
// tokens that clean_spaces reacts to.
func validPieceIDs(tok *Tokenizer) []int32 {
	var ids []int32
	for id := range tok.texts {
		p := tok.pieces[id]
		if p != "" && utf8.ValidString(p) && tok.attrs[id]&attrNormal != 0 {
			ids = append(ids, int32(id))
		}
	}
	return ids
}

func TestStreamDecoderProperty(t *testing.T) {
	chars := []string{"é", "ß", "中", "文", "😁", "🦙", "€", "\u0301", "𝄞"}
	for _, v := range []string{"llama-spm", "gpt-2", "llama-bpe", "qwen2"} {
		t.Run(v, func(t *testing.T) {
			tok := load(t, vocabPath(t, v))
			normal := validPieceIDs(tok)
			var punct []int32 // pieces clean_spaces looks at
			for _, s := range []string{" ", "?", "!", ".", ",", "'", "'s", "'m", "'re", "'ve", "'t", " '", "s", "re"} {
				if ids, err := tok.Encode(s, false, false); err == nil {
					punct = append(punct, ids...)
				}
			}
			r := rand.New(rand.NewPCG(11, uint64(len(v))))
			for iter := range 400 {
				var ids []int32
				for range r.IntN(40) {
					switch k := r.IntN(10); {
					case k < 4:
						ids = append(ids, normal[r.IntN(len(normal))])
					case k < 7:
						ids = append(ids, punct[r.IntN(len(punct))])
					case k < 9:
						// A multi-byte character spelled as byte tokens.
						for _, b := range []byte(chars[r.IntN(len(chars))]) {
							ids = append(ids, byteToken(t, tok, b))
						}
					default:
						ids = append(ids, tok.bos)
					}
				}
				want := tok.Decode(ids)
				if !utf8.ValidString(want) {
					t.Fatalf("iteration %d: generator made invalid text %q", iter, want)
				}
				if got := streamAll(t, tok.NewStreamDecoder(), ids); got != want {
					t.Fatalf("iteration %d ids %v:\nstream %q\ndecode %q", iter, ids, got, want)
				}
				skip := DecodeOptions{SkipSpecial: true, RemoveSpecial: true}
				if got, want := streamAll(t, tok.NewStreamDecoderWith(StreamOptions{DecodeOptions: skip}), ids), tok.DecodeWith(ids, skip); got != want {
					t.Fatalf("iteration %d (skip special) ids %v:\nstream %q\ndecode %q", iter, ids, got, want)
				}
				var raw strings.Builder
				for _, id := range ids {
					raw.WriteString(tok.Piece(id))
				}
				if got := streamAll(t, tok.NewStreamDecoderWith(StreamOptions{Raw: true}), ids); got != raw.String() {
					t.Fatalf("iteration %d raw stream %q want %q", iter, got, raw.String())
				}
			}
		})
	}
}

// TestStreamDecoderArbitraryIDs feeds any ids, including lone bytes that
// never complete a character: pieces stay valid UTF-8, and whenever the
// full decode is valid the stream reproduces it.
func TestStreamDecoderArbitraryIDs(t *testing.T) {
	for _, v := range []string{"llama-spm", "gpt-2", "qwen2"} {
		tok := load(t, vocabPath(t, v))
		r := rand.New(rand.NewPCG(5, 6))
		for range 300 {
			ids := make([]int32, r.IntN(30))
			for i := range ids {
				if r.IntN(3) == 0 {
					ids[i] = byteToken(t, tok, byte(r.IntN(256)))
				} else {
					ids[i] = int32(r.IntN(tok.VocabSize()+10)) - 5 // some out of range
				}
			}
			got := streamAll(t, tok.NewStreamDecoder(), ids)
			if want := tok.Decode(ids); utf8.ValidString(want) && got != want {
				t.Fatalf("%s ids %v:\nstream %q\ndecode %q", v, ids, got, want)
			}
		}
	}
}

func TestStreamHoldsSplitCharacter(t *testing.T) {
	tok := load(t, vocabPath(t, "llama-spm"))
	sd := tok.NewStreamDecoder()
	b := []byte("😁")
	for i, c := range b[:3] {
		if p := sd.Add(tok.spmByte[c]); p != "" {
			t.Fatalf("byte %d: emitted %q before the character was complete", i, p)
		}
	}
	if p := sd.Add(tok.spmByte[b[3]]); p != "😁" {
		t.Fatalf("got %q, want the whole emoji", p)
	}
	// A dangling lead byte at the end is flushed as U+FFFD.
	sd = tok.NewStreamDecoder()
	sd.Add(tok.spmByte[0xE4])
	if p := sd.Flush(); p != "\uFFFD" {
		t.Fatalf("flush of a dangling byte = %q", p)
	}
}

// TestStreamLongText streams a long generation-like text: the result must
// match Decode and the working window must stay small (Add stays cheap).
func TestStreamLongText(t *testing.T) {
	tok := load(t, vocabPath(t, "llama-bpe"))
	text := strings.Repeat("Hello world, it's a test. Don't 're ' ? ok! 😁 中文 1234567\n", 400)
	ids, err := tok.Encode(text, false, false)
	if err != nil {
		t.Fatal(err)
	}
	sd := tok.NewStreamDecoder()
	var sb strings.Builder
	maxWin := 0
	for _, id := range ids {
		sb.WriteString(sd.Add(id))
		maxWin = max(maxWin, len(sd.window))
	}
	sb.WriteString(sd.Flush())
	if want := tok.Decode(ids); sb.String() != want {
		t.Fatalf("stream differs from decode")
	}
	if maxWin > 256 {
		t.Errorf("window grew to %d bytes; checkpoints are not working", maxWin)
	}
}

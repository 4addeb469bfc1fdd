package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// buildPieces precomputes every token's text (llama.cpp's token-to-piece
// cache, built with special=true).
func (t *Tokenizer) buildPieces() {
	t.pieces = make([]string, len(t.texts))
	for id := range t.texts {
		t.pieces[id] = t.piece(int32(id))
	}
}

func (t *Tokenizer) piece(id int32) string {
	text, a := t.texts[id], t.attrs[id]
	switch {
	case a&(attrUnknown|attrControl|attrUserDefined) != 0:
		return text
	case a&attrNormal != 0:
		if t.kind == kindSPM {
			return strings.ReplaceAll(text, "▁", " ")
		}
		return decodeByteLevel(text)
	case a&attrByte != 0:
		return string([]byte{tokenByte(text)})
	}
	return ""
}

// tokenByte parses the NN of a "<0xNN>" byte token like llama.cpp
// (strtol on text[3:5]; malformed digits give what strtol gives).
func tokenByte(text string) byte {
	if len(text) < 5 {
		return 0
	}
	var v byte
	for _, c := range []byte(text[3:5]) {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return v
		}
		v = v*16 + d
	}
	return v
}

// decodeByteLevel undoes the GPT-2 byte encoding of a token's text. A
// codepoint outside the byte table is spelled out the way llama.cpp does.
func decodeByteLevel(text string) string {
	out := make([]byte, 0, len(text))
	for _, r := range decodeCpts(text) {
		if b, ok := runeByte(r); ok {
			out = append(out, b)
			continue
		}
		out = append(out, "[UNK_BYTE_0x"...)
		for _, c := range appendCpt(nil, r) {
			out = fmt.Appendf(out, "%02x", c)
		}
		out = append(out, text...)
		out = append(out, ']')
	}
	return string(out)
}

// Piece is the text of one token, special tokens spelled out
// (llama.cpp token_to_piece with special=true). Out-of-range ids give "".
func (t *Tokenizer) Piece(id int32) string {
	if !t.valid(id) {
		return ""
	}
	return t.pieces[id]
}

// DecodeOptions selects llama_detokenize's flags.
type DecodeOptions struct {
	// RemoveSpecial drops a leading BOS / trailing EOS when the model adds
	// them itself (llama.cpp remove_special).
	RemoveSpecial bool
	// SkipSpecial renders control and unknown tokens as nothing instead of
	// their text (llama.cpp unparse_special=false).
	SkipSpecial bool
}

// Decode turns ids into text like llama.cpp's
// common_detokenize(vocab, ids, special=true): special tokens are spelled
// out, the SentencePiece leading space is dropped, and for vocabularies with
// clean_spaces the spaces before punctuation and contractions are removed.
// Out-of-range ids are skipped.
func (t *Tokenizer) Decode(ids []int32) string {
	return t.DecodeWith(ids, DecodeOptions{})
}

// DecodeWith is Decode with explicit options.
func (t *Tokenizer) DecodeWith(ids []int32, o DecodeOptions) string {
	return string(t.clean(t.rawDecode(nil, ids, o, true)))
}

// rawDecode concatenates pieces; first says whether ids starts the text
// (where llama.cpp strips one leading space when add_space_prefix is set).
func (t *Tokenizer) rawDecode(dst []byte, ids []int32, o DecodeOptions, first bool) []byte {
	removeSpace := first && t.addSpacePrefix
	if o.RemoveSpecial && first && t.addBOS && len(ids) > 0 && ids[0] == t.bos {
		removeSpace = false
		ids = ids[1:]
	}
	if o.RemoveSpecial && t.addEOS && len(ids) > 0 && ids[len(ids)-1] == t.eos {
		ids = ids[:len(ids)-1]
	}
	for _, id := range ids {
		p := t.pieceFor(id, o.SkipSpecial)
		if removeSpace && strings.HasPrefix(p, " ") {
			p = p[1:]
		}
		removeSpace = false
		dst = append(dst, p...)
	}
	return dst
}

func (t *Tokenizer) pieceFor(id int32, skipSpecial bool) string {
	if !t.valid(id) {
		return ""
	}
	if skipSpecial && t.attrs[id]&(attrUnknown|attrControl) != 0 {
		return ""
	}
	return t.pieces[id]
}

// clean applies llama.cpp's clean_spaces passes in place (when the vocab
// uses them): drop the space in " ?", " !", " .", " ,"; turn " ' " into
// "'"; and drop the space in " 's", " 'm", " 're", " 've".
func (t *Tokenizer) clean(b []byte) []byte {
	if !t.cleanSpaces {
		return b
	}
	return cleanSpaces(b, nil)
}

// cleanSpaces runs the three passes over b in place. If src is non-nil it
// holds, for each byte of b, its index in the original text and is
// compacted along with b, so callers can tell which input bytes survived.
func cleanSpaces(b []byte, src []int) []byte {
	keep := func(total, i int) {
		b[total] = b[i]
		if src != nil {
			src[total] = src[i]
		}
	}
	// Pass 1: space before ? ! . ,
	n := len(b)
	total := min(n, 1)
	for i := 1; i < n; i++ {
		x := b[i]
		if b[i-1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',') {
			total--
		}
		keep(total, i)
		total++
	}
	// Pass 2: a lone apostrophe between spaces loses both spaces.
	n = total
	total = min(n, 1)
	for i := 1; i < n; i++ {
		x := b[i]
		if x == '\'' && i+1 < n && b[i-1] == ' ' && b[i+1] == ' ' {
			total--
			i++
			b[i] = 0 // the space after is dropped (and no longer a space)
			b[total] = x
			if src != nil {
				src[total] = src[i-1]
			}
			total++
			continue
		}
		keep(total, i)
		total++
	}
	// Pass 3: contractions 's 'm 're 've attach to the previous word.
	n = total
	total = min(n, 1)
	for i := 1; i < n; i++ {
		x := b[i]
		if b[i-1] == ' ' && x == '\'' && i+1 < n {
			x1 := b[i+1]
			if x1 == 's' || x1 == 'm' {
				total--
			} else if i+2 < n {
				x2 := b[i+2]
				if (x1 == 'r' && x2 == 'e') || (x1 == 'v' && x2 == 'e') {
					total--
				}
			}
		}
		keep(total, i)
		total++
	}
	return b[:total]
}

// StreamDecoder turns generated ids into text pieces as they arrive. Every
// piece is valid UTF-8: bytes of a character split across tokens are held
// back until the character is complete. For output that is valid UTF-8 the
// pieces (including Flush) concatenate to exactly Decode (or DecodeWith with
// the same options) of all ids; bytes that can never form a character are
// replaced by U+FFFD. Not safe for concurrent use.
type StreamDecoder struct {
	t    *Tokenizer
	opts DecodeOptions
	raw  bool // plain piece concatenation, no llama_detokenize rules

	started bool
	// Text after the last checkpoint, before cleaning, and the index of the
	// first byte of its cleaned form not yet handed out.
	window  []byte
	emitted int
	src     []int
	scratch []byte
}

// StreamOptions configures a StreamDecoder.
type StreamOptions struct {
	DecodeOptions
	// Raw makes the stream the plain concatenation of token pieces, which is
	// what llama-server streams (no leading-space removal, no clean_spaces).
	Raw bool
}

// NewStreamDecoder streams Decode's text.
func (t *Tokenizer) NewStreamDecoder() *StreamDecoder {
	return t.NewStreamDecoderWith(StreamOptions{})
}

// NewStreamDecoderWith streams with explicit options.
func (t *Tokenizer) NewStreamDecoderWith(o StreamOptions) *StreamDecoder {
	return &StreamDecoder{t: t, opts: o.DecodeOptions, raw: o.Raw}
}

// streamMargin is how many trailing bytes clean_spaces may still change
// once more text arrives; its rules look a few bytes ahead in each pass.
const streamMargin = 16

// Add appends one generated id and returns the text that is now final, or
// "" if it has to wait for more ids.
func (s *StreamDecoder) Add(id int32) string {
	if s.raw {
		s.window = append(s.window, s.t.pieceFor(id, s.opts.SkipSpecial)...)
		return s.emit(s.window, len(s.window), false)
	}
	first := !s.started
	s.started = true
	if first && s.opts.RemoveSpecial && s.t.addBOS && id == s.t.bos {
		// llama.cpp drops a leading BOS and then keeps the next token's space.
		return ""
	}
	if s.opts.RemoveSpecial && s.t.addEOS && id == s.t.eos {
		// A trailing EOS is dropped by Decode; an EOS in the middle is not,
		// but generation stops at EOS anyway, so treat it as trailing.
		return ""
	}
	o := s.opts
	o.RemoveSpecial = false
	s.window = s.t.rawDecode(s.window, []int32{id}, o, first)
	if !s.t.cleanSpaces {
		return s.emit(s.window, len(s.window), false)
	}
	out, settled := s.cleanWindow()
	text := s.emit(out, settled, false)
	s.checkpoint()
	return text
}

// Flush returns whatever is still held back; the stream is then complete.
func (s *StreamDecoder) Flush() string {
	if s.raw || !s.t.cleanSpaces {
		return s.emit(s.window, len(s.window), true)
	}
	out, _ := s.cleanWindow()
	return s.emit(out, len(out), true)
}

// cleanWindow cleans the window and reports how many cleaned bytes come
// from input that later text can no longer affect.
func (s *StreamDecoder) cleanWindow() ([]byte, int) {
	s.scratch = append(s.scratch[:0], s.window...)
	s.src = s.src[:0]
	for i := range s.window {
		s.src = append(s.src, i)
	}
	out := cleanSpaces(s.scratch, s.src)
	limit := len(s.window) - streamMargin
	settled := 0
	for settled < len(out) && s.src[settled] < limit {
		settled++
	}
	return out, settled
}

// checkpoint drops the settled head of the window once it ends in a spot
// where cleaning cannot reach across: no space or apostrophe in the last
// five bytes before the cut. Cleaning the two halves separately then gives
// the same bytes as cleaning the whole, which keeps Add linear in practice.
func (s *StreamDecoder) checkpoint() {
	limit := len(s.window) - streamMargin
	cut := -1
	for p := limit; p >= 5; p-- {
		ok := true
		for _, c := range s.window[p-4 : p+1] {
			if c == ' ' || c == '\'' {
				ok = false
				break
			}
		}
		if ok {
			cut = p
			break
		}
	}
	if cut < 0 {
		return
	}
	// Bytes of the cleaned head already emitted: everything before cut has
	// been handed out only if emitted covers it.
	head := cleanSpaces(append([]byte(nil), s.window[:cut]...), nil)
	if s.emitted < len(head) {
		return
	}
	s.emitted -= len(head)
	s.window = append(s.window[:0], s.window[cut:]...)
}

// emit hands out out[s.emitted:upto], holding back a trailing incomplete
// UTF-8 sequence unless final.
func (s *StreamDecoder) emit(out []byte, upto int, final bool) string {
	if upto <= s.emitted {
		return ""
	}
	chunk := out[s.emitted:upto]
	if !final {
		chunk = chunk[:completeLen(chunk)]
	}
	s.emitted += len(chunk)
	text := replaceInvalid(chunk)
	if s.raw || !s.t.cleanSpaces {
		// Without cleaning, handed-out bytes are never looked at again.
		s.window = append(s.window[:0], s.window[s.emitted:]...)
		s.emitted = 0
	}
	return text
}

// replaceInvalid returns b as a string with every ill-formed sequence
// replaced by U+FFFD, one per maximal subpart (the lead byte and the
// continuation bytes that could still have completed it). This is what
// llama-server's JSON encoder (nlohmann::json, error_handler replace)
// produces, so streamed text matches llama-server's byte for byte.
func replaceInvalid(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += maximalSubpart(b[i:])
	}
	return string(out)
}

// maximalSubpart is the length of the ill-formed prefix of b that one
// U+FFFD stands for (at least 1).
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if x < lo || x > hi {
			break
		}
		n++
	}
	return n
}

// completeLen is len(b) minus a trailing sequence that is the valid start of
// a UTF-8 character still missing bytes.
func completeLen(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return len(b)
		}
		if c >= 0xC0 {
			if !utf8.FullRune(b[len(b)-k:]) {
				return len(b) - k
			}
			return len(b)
		}
	}
	return len(b)
}

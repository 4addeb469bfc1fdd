package tokenizer

import (
	"sync"
	"unicode"
)

// Codepoint classes as llama.cpp's unicode tables define them: one general
// category per codepoint (anything that is not L, N, Z, M, P or S counts as
// "control", unassigned codepoints included) plus the White_Space property.
const (
	fNumber uint8 = 1 << iota
	fLetter
	fSeparator
	fMark
	fPunct
	fSymbol
	fControl
	fSpace
)

// bmpFlags caches the classes of the Basic Multilingual Plane; it is built
// once on first use and never written afterwards.
var bmpFlags = sync.OnceValue(func() []uint8 {
	t := make([]uint8, 0x10000)
	for r := range t {
		t[r] = computeFlags(rune(r))
	}
	return t
})

func computeFlags(r rune) uint8 {
	var f uint8
	switch {
	case unicode.IsLetter(r):
		f = fLetter
	case unicode.IsNumber(r):
		f = fNumber
	case unicode.Is(unicode.Z, r):
		f = fSeparator
	case unicode.IsMark(r):
		f = fMark
	case unicode.IsPunct(r):
		f = fPunct
	case unicode.IsSymbol(r):
		f = fSymbol
	default:
		f = fControl
	}
	if unicode.Is(unicode.White_Space, r) {
		f |= fSpace
	}
	return f
}

// cptFlags returns the class bits of a codepoint; 0 means "no codepoint"
// (outside the Unicode range), which llama.cpp's splitters rely on.
func cptFlags(r rune) uint8 {
	if r < 0 || r > unicode.MaxRune {
		return 0
	}
	if r < 0x10000 {
		return bmpFlags()[r]
	}
	return computeFlags(r)
}

// decodeCpts splits text into codepoints the way llama.cpp's
// unicode_cpts_from_utf8 does: lead and continuation bits are checked, but
// overlong forms and surrogates are accepted; a byte that starts no valid
// sequence becomes U+FFFD and is consumed alone.
func decodeCpts(s string) []rune {
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, n := decodeOne(s, i)
		out = append(out, r)
		i += n
	}
	return out
}

func decodeOne(s string, i int) (rune, int) {
	b := s[i]
	cont := func(k int) bool { return i+k < len(s) && s[i+k]&0xC0 == 0x80 }
	switch {
	case b&0x80 == 0:
		return rune(b), 1
	case b&0x40 == 0:
		return 0xFFFD, 1
	case b&0x20 == 0:
		if !cont(1) {
			return 0xFFFD, 1
		}
		return rune(b&0x1F)<<6 | rune(s[i+1]&0x3F), 2
	case b&0x10 == 0:
		if !cont(1) || !cont(2) {
			return 0xFFFD, 1
		}
		return rune(b&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	case b&0x08 == 0:
		if !cont(1) || !cont(2) || !cont(3) {
			return 0xFFFD, 1
		}
		r := rune(b&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F)
		if r > unicode.MaxRune {
			// llama.cpp cannot re-encode these; treat them as invalid input.
			return 0xFFFD, 1
		}
		return r, 4
	}
	return 0xFFFD, 1
}

// appendCpt encodes a codepoint like llama.cpp's unicode_cpt_to_utf8, which
// (unlike Go) also encodes surrogate codepoints rather than replacing them.
func appendCpt(dst []byte, r rune) []byte {
	switch {
	case r <= 0x7F:
		return append(dst, byte(r))
	case r <= 0x7FF:
		return append(dst, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
	case r <= 0xFFFF:
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	default:
		return append(dst, 0xF0|byte(r>>18), 0x80|byte(r>>12&0x3F), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	}
}

// utf8Len is the sequence length announced by a lead byte (llama.cpp's
// unicode_len_utf8): continuation and invalid bytes count as length 1.
func utf8Len(b byte) int {
	return [16]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4}[b>>4]
}

// byteRunes is GPT-2's reversible byte-to-codepoint table: printable
// Latin-1 bytes map to themselves, the rest to U+0100 onwards.
var byteRunes = func() (t [256]rune) {
	n := rune(0)
	for b := 0; b < 256; b++ {
		if (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			t[b] = rune(b)
		} else {
			t[b] = 256 + n
			n++
		}
	}
	return t
}()

// runeByte inverts byteRunes; ok is false for codepoints outside the table.
func runeByte(r rune) (byte, bool) {
	switch {
	case r >= 0x21 && r <= 0x7E, r >= 0xA1 && r <= 0xAC, r >= 0xAE && r <= 0xFF:
		return byte(r), true
	case r >= 256 && r < 256+68:
		// 68 bytes are remapped: 0x00-0x20, 0x7F-0xA0 and 0xAD, in order.
		return remapped[r-256], true
	}
	return 0, false
}

var remapped = func() (t [68]byte) {
	n := 0
	for b := 0; b < 256; b++ {
		if byteRunes[b] >= 256 {
			t[n] = byte(b)
			n++
		}
	}
	return t
}()

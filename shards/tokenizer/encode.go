package tokenizer

import (
	"fmt"
	"strings"
)

// fragment is a piece of the input: raw text still to tokenize, or a
// special token already recognised (tok >= 0).
type fragment struct {
	tok      int32
	off, end int
}

// Encode tokenizes text. addSpecial adds BOS/EOS as the model's flags ask;
// parseSpecial lets control-token text such as "<|im_end|>" become that
// token (user-defined tokens are always matched, as in llama.cpp).
func (t *Tokenizer) Encode(text string, addSpecial, parseSpecial bool) ([]int32, error) {
	var frags []fragment
	if text != "" {
		frags = t.partition(text, parseSpecial)
	}
	out := make([]int32, 0, len(text)/3+2)
	var err error
	switch t.kind {
	case kindSPM:
		if addSpecial && t.addBOS {
			out = append(out, t.bos)
		}
		prevSpecial := true // the first text gets the leading space too
		var sb strings.Builder
		for _, fr := range frags {
			if fr.tok >= 0 {
				out = append(out, fr.tok)
				prevSpecial = true
				continue
			}
			sb.Reset()
			if t.addSpacePrefix && prevSpecial {
				sb.WriteString("▁")
			}
			sb.WriteString(strings.ReplaceAll(text[fr.off:fr.end], " ", "▁"))
			if out, err = t.spmEncode(sb.String(), out); err != nil {
				return nil, err
			}
			prevSpecial = false
		}
		if addSpecial && t.addEOS {
			out = append(out, t.eos)
		}
	case kindBPE:
		if addSpecial && t.addBOS {
			out = append(out, t.bos)
		}
		cache := map[string][]int32{}
		for _, fr := range frags {
			if fr.tok >= 0 {
				out = append(out, fr.tok)
				continue
			}
			if out, err = t.bpeEncode(text[fr.off:fr.end], out, cache); err != nil {
				return nil, err
			}
		}
		if addSpecial && t.addEOS {
			out = append(out, t.eos)
		}
	}
	return out, nil
}

// partition splits special-token text out of the input, longest special
// token first (llama.cpp tokenizer_st_partition).
func (t *Tokenizer) partition(text string, parseSpecial bool) []fragment {
	frags := []fragment{{tok: null, off: 0, end: len(text)}}
	var next []fragment
	for _, id := range t.special {
		a := t.attrs[id]
		if !parseSpecial && a&(attrControl|attrUnknown) != 0 {
			continue
		}
		word := t.texts[id]
		found := false
		for _, fr := range frags {
			if fr.tok < 0 && strings.Contains(text[fr.off:fr.end], word) {
				found = true
				break
			}
		}
		if !found {
			continue
		}
		next = next[:0]
		for _, fr := range frags {
			if fr.tok >= 0 {
				next = append(next, fr)
				continue
			}
			off, end := fr.off, fr.end
			for off < end {
				i := strings.Index(text[off:end], word)
				if i < 0 {
					break
				}
				m := off + i
				left := m
				if a&attrLStrip != 0 {
					for left > off && isCSpace(text[left-1]) {
						left--
					}
				}
				if left > off {
					next = append(next, fragment{tok: null, off: off, end: left})
				}
				next = append(next, fragment{tok: id, off: m, end: m + len(word)})
				off = m + len(word)
				if a&attrRStrip != 0 {
					for off < end && isCSpace(text[off]) {
						off++
					}
				}
			}
			if off < end {
				next = append(next, fragment{tok: null, off: off, end: end})
			}
		}
		frags, next = next, frags
	}
	return frags
}

// isCSpace is C's isspace in the "C" locale.
func isCSpace(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') }

// symbol is one node of the doubly linked list the merge loops work on.
type symbol struct {
	prev, next int
	off, n     int
}

// spmBigram is a candidate merge for the SentencePiece loop.
type spmBigram struct {
	left, right int
	score       float32
	size        int
}

// spmEncode is llama.cpp's llm_tokenizer_spm_session: repeatedly merge the
// adjacent pair whose concatenation is the best-scoring token (ties go to
// the leftmost), then fall back to byte tokens for what is left.
func (t *Tokenizer) spmEncode(text string, out []int32) ([]int32, error) {
	syms := make([]symbol, 0, len(text))
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		idx := len(syms)
		next := idx + 1
		if off+n == len(text) {
			next = -1
		}
		syms = append(syms, symbol{prev: idx - 1, next: next, off: off, n: n})
		off += n
	}
	h := heap[spmBigram]{less: func(a, b spmBigram) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return a.left < b.left
	}}
	try := func(l, r int) {
		if l < 0 || r < 0 {
			return
		}
		s := text[syms[l].off : syms[r].off+syms[r].n]
		id, ok := t.ids[s]
		if !ok {
			return
		}
		h.push(spmBigram{left: l, right: r, score: t.scores[id], size: len(s)})
	}
	for i := 1; i < len(syms); i++ {
		try(i-1, i)
	}
	for h.len() > 0 {
		bg := h.pop()
		l, r := &syms[bg.left], &syms[bg.right]
		if l.n == 0 || r.n == 0 || l.n+r.n != bg.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = bg.left
		}
		try(l.prev, bg.left)
		try(bg.left, l.next)
	}
	for i := 0; i != -1 && len(syms) > 0; i = syms[i].next {
		s := text[syms[i].off : syms[i].off+syms[i].n]
		if id, ok := t.ids[s]; ok {
			out = append(out, id)
			continue
		}
		for j := 0; j < len(s); j++ {
			id := t.spmByte[s[j]]
			if id == null {
				return nil, fmt.Errorf("tokenizer: no byte token for 0x%02X in vocabulary", s[j])
			}
			out = append(out, id)
		}
	}
	return out, nil
}

// bpeBigram is a candidate merge for the byte-level BPE loop.
type bpeBigram struct {
	left, right int
	rank        int32
	size        int
}

// bpeEncode pre-tokenizes text and runs ranked BPE merges on each word
// (llama.cpp llm_tokenizer_bpe_session). cache holds the ids of words seen
// earlier in the same call.
func (t *Tokenizer) bpeEncode(text string, out []int32, cache map[string][]int32) ([]int32, error) {
	words, err := t.pre.split(text)
	if err != nil {
		return nil, err
	}
	var buf, key []byte
	for _, w := range words {
		// GPT-2 byte encoding: UTF-8 bytes of the word, each mapped to a
		// printable codepoint.
		buf = buf[:0]
		for _, r := range w {
			var tmp [4]byte
			for _, b := range appendCpt(tmp[:0], r) {
				buf = appendCpt(buf, byteRunes[b])
			}
		}
		if ids, ok := cache[string(buf)]; ok {
			out = append(out, ids...)
			continue
		}
		word := string(buf)
		start := len(out)
		out, key = t.bpeWord(word, out, key)
		if len(cache) < 1<<16 {
			cache[word] = append([]int32(nil), out[start:]...)
		}
	}
	return out, nil
}

func (t *Tokenizer) bpeWord(word string, out []int32, key []byte) ([]int32, []byte) {
	if t.ignoreMerges {
		if id, ok := t.ids[word]; ok {
			return append(out, id), key
		}
	}
	syms := make([]symbol, 0, len(word))
	for off := 0; off < len(word); {
		n := min(utf8Len(word[off]), len(word)-off)
		idx := len(syms)
		next := idx + 1
		if off+n == len(word) {
			next = -1
		}
		syms = append(syms, symbol{prev: idx - 1, next: next, off: off, n: n})
		off += n
	}
	h := heap[bpeBigram]{less: func(a, b bpeBigram) bool {
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.left < b.left
	}}
	try := func(l, r int) {
		if l < 0 || r < 0 {
			return
		}
		key = append(key[:0], word[syms[l].off:syms[l].off+syms[l].n]...)
		key = append(key, ' ')
		key = append(key, word[syms[r].off:syms[r].off+syms[r].n]...)
		rank, ok := t.ranks[string(key)]
		if !ok {
			return
		}
		h.push(bpeBigram{left: l, right: r, rank: rank, size: syms[l].n + syms[r].n})
	}
	for i := 1; i < len(syms); i++ {
		try(i-1, i)
	}
	for h.len() > 0 {
		bg := h.pop()
		l, r := &syms[bg.left], &syms[bg.right]
		// The pair is stale unless both symbols still exist with the text
		// the bigram was made from; they share a start, so length decides.
		if l.n == 0 || r.n == 0 || l.n+r.n != bg.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = bg.left
		}
		try(l.prev, bg.left)
		try(bg.left, l.next)
	}
	for i := 0; i != -1 && len(syms) > 0; i = syms[i].next {
		s := word[syms[i].off : syms[i].off+syms[i].n]
		if id, ok := t.ids[s]; ok {
			out = append(out, id)
			continue
		}
		// No token: llama.cpp tries each byte of the encoded text alone.
		for j := 0; j < len(s); j++ {
			if id, ok := t.ids[s[j:j+1]]; ok {
				out = append(out, id)
			}
		}
	}
	return out, key
}

// heap is a binary min-heap ordered by less.
type heap[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (h *heap[T]) len() int { return len(h.items) }

func (h *heap[T]) push(x T) {
	h.items = append(h.items, x)
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.items[i], h.items[p]) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *heap[T]) pop() T {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.less(h.items[r], h.items[l]) {
			m = r
		}
		if !h.less(h.items[m], h.items[i]) {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top
}

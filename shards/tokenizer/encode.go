package tokenizer

import (
	"fmt"
	"slices"
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
		w := &work{}
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
			if out, err = t.spmEncode(sb.String(), out, w); err != nil {
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
		w := &work{cache: make(map[string][]int32, min(len(text)/16, 1<<14))}
		for _, fr := range frags {
			if fr.tok >= 0 {
				out = append(out, fr.tok)
				continue
			}
			if out, err = t.bpeEncode(text[fr.off:fr.end], out, w); err != nil {
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
	present := t.specialsIn(text, parseSpecial)
	if len(present) == 0 {
		return frags
	}
	var next []fragment
	for _, si := range present {
		id := t.special[si]
		a := t.attrs[id]
		word := t.texts[id]
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

// specialsIn lists (as indexes into t.special, in its longest-first order)
// the special tokens that occur in text and may be matched. Tokens absent
// from the text cannot split any fragment of it, so skipping them changes
// nothing; it saves one scan of the text per special token.
func (t *Tokenizer) specialsIn(text string, parseSpecial bool) []int {
	var hit []bool
	n := 0
	for i := 0; i < len(text); i++ {
		if !t.specialFirst[text[i]] {
			continue
		}
		cands := t.specialByPrefix[prefixKey(text[i:i+1])]
		if i+1 < len(text) {
			cands = append(cands[:len(cands):len(cands)], t.specialByPrefix[prefixKey(text[i:i+2])]...)
		}
		for _, si := range cands {
			id := t.special[si]
			if !parseSpecial && t.attrs[id]&(attrControl|attrUnknown) != 0 {
				continue
			}
			if hit != nil && hit[si] {
				continue
			}
			if strings.HasPrefix(text[i:], t.texts[id]) {
				if hit == nil {
					hit = make([]bool, len(t.special))
				}
				hit[si] = true
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]int, 0, n)
	for si, h := range hit {
		if h {
			out = append(out, si)
		}
	}
	return out
}

// isCSpace is C's isspace in the "C" locale.
func isCSpace(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') }

// work holds the scratch buffers of one Encode call, reused across words.
type work struct {
	syms  []symbol
	spm   spmHeap
	bpe   bpeHeap
	key   []byte
	buf   []byte
	enc   []byte
	bsyms []bpeSym
	cache map[string][]int32 // ids of BPE words already seen in this call
}

// symbol is one node of the doubly linked list the merge loops work on.
type symbol struct {
	prev, next int32
	off, n     int32
}

// splitSymbols makes one symbol per UTF-8 sequence (by lead byte, as
// llama.cpp does, without validating the continuation bytes).
func splitSymbols(syms []symbol, text string) []symbol {
	syms = slices.Grow(syms[:0], len(text))
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		idx := int32(len(syms))
		next := idx + 1
		if off+n == len(text) {
			next = -1
		}
		syms = append(syms, symbol{prev: idx - 1, next: next, off: int32(off), n: int32(n)})
		off += n
	}
	return syms
}

// spmEncode is llama.cpp's llm_tokenizer_spm_session: repeatedly merge the
// adjacent pair whose concatenation is the best-scoring token (ties go to
// the leftmost), then fall back to byte tokens for what is left.
func (t *Tokenizer) spmEncode(text string, out []int32, w *work) ([]int32, error) {
	if len(text) > 1<<31-1 {
		return nil, fmt.Errorf("tokenizer: text of %d bytes is too long", len(text))
	}
	if !t.spmWordSplit {
		return t.spmMerge(text, out, w)
	}
	// No token can span a "▁" that follows another character (checked at
	// load), so the pieces between such spots merge independently: the
	// result equals llama.cpp's one pass over the whole text, with small
	// heaps instead of one huge one.
	var err error
	start := 0
	for i := 1; i < len(text); {
		j := strings.Index(text[i:], "▁")
		if j < 0 {
			break
		}
		i += j
		if i > start && !strings.HasSuffix(text[:i], "▁") {
			if out, err = t.spmMerge(text[start:i], out, w); err != nil {
				return nil, err
			}
			start = i
		}
		i += len("▁")
	}
	return t.spmMerge(text[start:], out, w)
}

func (t *Tokenizer) spmMerge(text string, out []int32, w *work) ([]int32, error) {
	w.syms = splitSymbols(w.syms, text)
	syms := w.syms
	h := &w.spm
	h.items = h.items[:0]
	try := func(l, r int32) {
		if l < 0 || r < 0 {
			return
		}
		s := text[syms[l].off : syms[r].off+syms[r].n]
		id, ok := t.ids[s]
		if !ok {
			return
		}
		h.push(spmBigram{left: l, right: r, score: t.scores[id], size: int32(len(s))})
	}
	for i := int32(1); i < int32(len(syms)); i++ {
		try(i-1, i)
	}
	for len(h.items) > 0 {
		bg := h.pop()
		l, r := &syms[bg.left], &syms[bg.right]
		// A pair is stale once either side was merged elsewhere; symbols
		// keep their start, so the combined length tells.
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
	for i := int32(0); i != -1 && len(syms) > 0; i = syms[i].next {
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

// bpeEncode pre-tokenizes text and runs ranked BPE merges on each word
// (llama.cpp llm_tokenizer_bpe_session).
func (t *Tokenizer) bpeEncode(text string, out []int32, w *work) ([]int32, error) {
	if len(text) > 1<<31-1 {
		return nil, fmt.Errorf("tokenizer: text of %d bytes is too long", len(text))
	}
	words, err := t.pre.split(text)
	if err != nil {
		return nil, err
	}
	for _, wd := range words {
		// The word's UTF-8 bytes key the cache; the GPT-2 byte encoding
		// (each byte mapped to a printable codepoint) is what gets merged.
		w.buf = w.buf[:0]
		for _, r := range wd {
			w.buf = appendCpt(w.buf, r)
		}
		if ids, ok := w.cache[string(w.buf)]; ok {
			out = append(out, ids...)
			continue
		}
		start := len(out)
		out = t.bpeWord(w.buf, out, w)
		if len(w.cache) < 1<<16 {
			w.cache[string(w.buf)] = append([]int32(nil), out[start:]...)
		}
	}
	return out, nil
}

// bpeSym is a symbol of the BPE loop: a span of the encoded word and its
// token id (-1 when the span is not a token).
type bpeSym struct {
	symbol
	id int32
}

func (t *Tokenizer) bpeWord(raw []byte, out []int32, w *work) []int32 {
	w.enc = w.enc[:0]
	w.bsyms = w.bsyms[:0]
	for i, b := range raw {
		off := len(w.enc)
		w.enc = appendCpt(w.enc, byteRunes[b])
		next := int32(i + 1)
		if i == len(raw)-1 {
			next = -1
		}
		w.bsyms = append(w.bsyms, bpeSym{symbol{prev: int32(i) - 1, next: next, off: int32(off), n: int32(len(w.enc) - off)}, t.byteID[b]})
	}
	word := w.enc
	if t.ignoreMerges {
		if id, ok := t.ids[string(word)]; ok {
			return append(out, id)
		}
	}
	syms := w.bsyms
	h := &w.bpe
	h.items = h.items[:0]
	try := func(l, r int32) {
		if l < 0 || r < 0 {
			return
		}
		sl, sr := &syms[l], &syms[r]
		if sl.id >= 0 && sr.id >= 0 {
			pm, ok := t.pairs[pairKey(sl.id, sr.id)]
			if ok {
				h.push(bpeBigram{left: l, right: r, rank: pm.rank, size: sl.n + sr.n, merged: pm.merged})
			}
			return
		}
		// A symbol that is not a token: look the pair up by text.
		w.key = append(w.key[:0], word[sl.off:sl.off+sl.n]...)
		w.key = append(w.key, ' ')
		w.key = append(w.key, word[sr.off:sr.off+sr.n]...)
		rank, ok := t.ranks[string(w.key)]
		if !ok {
			return
		}
		merged, ok := t.ids[string(w.key[:sl.n])+string(w.key[sl.n+1:])]
		if !ok {
			merged = null
		}
		h.push(bpeBigram{left: l, right: r, rank: rank, size: sl.n + sr.n, merged: merged})
	}
	for i := int32(1); i < int32(len(syms)); i++ {
		try(i-1, i)
	}
	for len(h.items) > 0 {
		bg := h.pop()
		l, r := &syms[bg.left], &syms[bg.right]
		// llama.cpp compares the pair's current text with the bigram's;
		// both start at the left symbol, so comparing lengths is the same.
		if l.n == 0 || r.n == 0 || l.n+r.n != bg.size {
			continue
		}
		l.n += r.n
		l.id = bg.merged
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = bg.left
		}
		try(l.prev, bg.left)
		try(bg.left, l.next)
	}
	for i := int32(0); i != -1 && len(syms) > 0; i = syms[i].next {
		if syms[i].id >= 0 {
			out = append(out, syms[i].id)
			continue
		}
		// No token: llama.cpp tries each byte of the encoded text alone.
		s := word[syms[i].off : syms[i].off+syms[i].n]
		for j := range s {
			if id, ok := t.ids[string(s[j:j+1])]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// spmBigram is a candidate SentencePiece merge: best score first, then
// leftmost.
type spmBigram struct {
	left, right int32
	score       float32
	size        int32
}

func (a spmBigram) before(b spmBigram) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.left < b.left
}

// bpeBigram is a candidate BPE merge: lowest rank first, then leftmost.
type bpeBigram struct {
	left, right int32
	rank        int32
	size        int32
	merged      int32 // token id of the merged text, -1 if none
}

func (a bpeBigram) before(b bpeBigram) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.left < b.left
}

// The two heaps are written out per type so the comparisons inline; they
// are the hot loop of tokenization.
type spmHeap struct{ items []spmBigram }

func (h *spmHeap) push(x spmBigram) {
	h.items = append(h.items, x)
	it := h.items
	i := len(it) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !it[i].before(it[p]) {
			break
		}
		it[i], it[p] = it[p], it[i]
		i = p
	}
}

func (h *spmHeap) pop() spmBigram {
	it := h.items
	top := it[0]
	last := len(it) - 1
	it[0] = it[last]
	it = it[:last]
	h.items = it
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && it[r].before(it[l]) {
			m = r
		}
		if !it[m].before(it[i]) {
			break
		}
		it[i], it[m] = it[m], it[i]
		i = m
	}
	return top
}

type bpeHeap struct{ items []bpeBigram }

func (h *bpeHeap) push(x bpeBigram) {
	h.items = append(h.items, x)
	it := h.items
	i := len(it) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !it[i].before(it[p]) {
			break
		}
		it[i], it[p] = it[p], it[i]
		i = p
	}
}

func (h *bpeHeap) pop() bpeBigram {
	it := h.items
	top := it[0]
	last := len(it) - 1
	it[0] = it[last]
	it = it[:last]
	h.items = it
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && it[r].before(it[l]) {
			m = r
		}
		if !it[m].before(it[i]) {
			break
		}
		it[i], it[m] = it[m], it[i]
		i = m
	}
	return top
}

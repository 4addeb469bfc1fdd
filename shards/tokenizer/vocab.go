package tokenizer

import (
	"fmt"
	"sort"
	"strings"

	"svc/shards/gguf"
)

// Token attributes, as llama.cpp's llama_token_attr bits.
const (
	attrUnknown     uint16 = 1 << 0
	attrUnused      uint16 = 1 << 1
	attrNormal      uint16 = 1 << 2
	attrControl     uint16 = 1 << 3
	attrUserDefined uint16 = 1 << 4
	attrByte        uint16 = 1 << 5
	attrLStrip      uint16 = 1 << 7
	attrRStrip      uint16 = 1 << 8
)

// null is llama.cpp's LLAMA_TOKEN_NULL: "no such token".
const null int32 = -1

type modelKind int

const (
	kindSPM modelKind = iota // tokenizer.ggml.model = "llama"
	kindBPE                  // tokenizer.ggml.model = "gpt2"
)

// Tokenizer is an immutable vocabulary plus the rules to use it; it is safe
// for concurrent use.
type Tokenizer struct {
	kind    modelKind
	model   string
	preName string
	pre     *preTokenizer

	texts  []string
	scores []float32
	attrs  []uint16
	ids    map[string]int32
	ranks  map[string]int32 // "left right" -> rank, merges with a non-token side
	// pairs is ranks for merges of two tokens, keyed by their ids, with
	// the id of the merged text (-1 if it is not a token): the fast path.
	pairs  map[uint64]pairMerge
	byteID [256]int32 // token of each byte's GPT-2 codepoint (BPE), or -1
	pieces []string   // token_to_piece(special=true) for every id

	bos, eos, eot, eom, unk, sep, pad int32
	fimPre, fimSuf, fimMid            int32
	fimPad, fimRep, fimSep            int32

	addBOS, addEOS bool
	addSpacePrefix bool
	cleanSpaces    bool
	ignoreMerges   bool
	eog            map[int32]bool
	special        []int32 // control/user-defined/unknown ids, longest text first
	// specialByPrefix indexes t.special by the first two bytes of the
	// token text (one-byte tokens by their byte alone, under key 1<<16|b).
	specialByPrefix map[uint32][]int
	specialFirst    [256]bool
	spmByte         [256]int32
	spmWordSplit    bool // no token has "▁" right after another character
}

// Metadata keys read from the GGUF file.
const (
	keyModel    = "tokenizer.ggml.model"
	keyPre      = "tokenizer.ggml.pre"
	keyTokens   = "tokenizer.ggml.tokens"
	keyScores   = "tokenizer.ggml.scores"
	keyTypes    = "tokenizer.ggml.token_type"
	keyMerges   = "tokenizer.ggml.merges"
	keyAddBOS   = "tokenizer.ggml.add_bos_token"
	keyAddEOS   = "tokenizer.ggml.add_eos_token"
	keyAddSpace = "tokenizer.ggml.add_space_prefix"
)

// FromGGUF builds the tokenizer described by a GGUF file's metadata.
func FromGGUF(f *gguf.File) (*Tokenizer, error) {
	if f == nil {
		return nil, fmt.Errorf("tokenizer: nil GGUF file")
	}
	t := &Tokenizer{
		bos: null, eos: null, eot: null, eom: null, unk: null, sep: null, pad: null,
		fimPre: null, fimSuf: null, fimMid: null, fimPad: null, fimRep: null, fimSep: null,
	}
	model, ok := f.String(keyModel)
	if !ok {
		return nil, fmt.Errorf("tokenizer: metadata key %s missing or not a string", keyModel)
	}
	t.model = model
	pre, hasPre := f.String(keyPre)
	if f.Has(keyPre) && !hasPre {
		return nil, fmt.Errorf("tokenizer: metadata key %s is not a string", keyPre)
	}
	switch model {
	case "llama":
		t.kind = kindSPM
		t.bos, t.eos, t.unk = 1, 2, 0
		t.addSpacePrefix = true
		t.addBOS = true
		// SPM has no pre-tokenizer; llama.cpp ignores tokenizer.ggml.pre here.
		t.preName = pre
	case "gpt2":
		t.kind = kindBPE
		t.bos, t.eos = 11, 11
		t.preName = pre
		if !hasPre || pre == "" {
			// llama.cpp loads such files with the "default" splitter (and a
			// loud warning), so they still get llama.cpp's ids.
			t.preName = "default"
		}
		cfg, ok := preTokenizers[t.preName]
		if !ok {
			return nil, fmt.Errorf("tokenizer: unknown pre-tokenizer %s = %q (supported: %s)", keyPre, pre, strings.Join(PreTokenizers(), ", "))
		}
		p, err := newPreTokenizer(cfg.exprs)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: pre-tokenizer %q: %w", t.preName, err)
		}
		t.pre = p
		t.cleanSpaces = cfg.clean
		t.ignoreMerges = cfg.ignoreMerges
		t.addBOS = cfg.forceBOS
		if cfg.noBOS {
			t.bos = null
		}
	default:
		return nil, fmt.Errorf("tokenizer: unknown tokenizer model %s = %q", keyModel, model)
	}
	if v, ok := f.Bool(keyAddSpace); ok {
		t.addSpacePrefix = v
	}

	if err := t.loadTokens(f); err != nil {
		return nil, err
	}
	if t.kind == kindBPE {
		if err := t.loadMerges(f); err != nil {
			return nil, err
		}
	}
	if err := t.loadSpecialIDs(f); err != nil {
		return nil, err
	}
	t.detectSpecial()
	t.applyNameQuirks(f)
	t.buildSpecialCache()
	t.buildPieces()
	if t.kind == kindSPM {
		for b := 0; b < 256; b++ {
			t.spmByte[b] = t.findSPMByte(byte(b))
		}
		t.spmWordSplit = !t.anyTokenJoinsAtSpace()
	}
	return t, nil
}

func (t *Tokenizer) loadTokens(f *gguf.File) error {
	texts, ok := f.Strings(keyTokens)
	if !ok {
		return fmt.Errorf("tokenizer: metadata key %s missing or not a string array", keyTokens)
	}
	if len(texts) == 0 {
		return fmt.Errorf("tokenizer: %s is empty", keyTokens)
	}
	if len(texts) > 1<<31-1 {
		return fmt.Errorf("tokenizer: %s has %d entries, too many", keyTokens, len(texts))
	}
	n := len(texts)
	t.texts = make([]string, n)
	t.scores = make([]float32, n)
	t.attrs = make([]uint16, n)
	t.ids = make(map[string]int32, n)
	if f.Has(keyScores) {
		if sc, ok := f.Float32s(keyScores); ok {
			if len(sc) < n {
				return fmt.Errorf("tokenizer: %s has %d entries for %d tokens", keyScores, len(sc), n)
			}
			copy(t.scores, sc[:n])
		} else if isc, ok := f.Ints(keyScores); ok {
			if len(isc) < n {
				return fmt.Errorf("tokenizer: %s has %d entries for %d tokens", keyScores, len(isc), n)
			}
			for i := range n {
				t.scores[i] = float32(isc[i])
			}
		} else {
			return fmt.Errorf("tokenizer: %s is not a float32 or int32 array", keyScores)
		}
	}
	var types []int64
	if f.Has(keyTypes) {
		if types, ok = f.Ints(keyTypes); !ok {
			return fmt.Errorf("tokenizer: %s is not an integer array", keyTypes)
		}
		if len(types) < n {
			return fmt.Errorf("tokenizer: %s has %d entries for %d tokens", keyTypes, len(types), n)
		}
	}
	for i, w := range texts {
		if w == "" {
			w = fmt.Sprintf("[EMPTY_%d]", i)
		}
		if prev, dup := t.ids[w]; dup {
			return fmt.Errorf("tokenizer: duplicate token in vocabulary: %q has ids %d and %d", w, prev, i)
		}
		t.ids[w] = int32(i)
		t.texts[i] = w
		t.attrs[i] = attrNormal
		if types != nil {
			// GGUF token types: 1 normal, 2 unknown, 3 control,
			// 4 user-defined, 5 unused, 6 byte, anything else undefined.
			switch types[i] {
			case 1:
				t.attrs[i] = attrNormal
			case 2:
				t.attrs[i] = attrUnknown
			case 3:
				t.attrs[i] = attrControl
			case 4:
				t.attrs[i] = attrUserDefined
			case 5:
				t.attrs[i] = attrUnused
			case 6:
				t.attrs[i] = attrByte
			default:
				t.attrs[i] = 0
			}
		}
	}
	return nil
}

func (t *Tokenizer) loadMerges(f *gguf.File) error {
	merges, ok := f.Strings(keyMerges)
	if !ok {
		return fmt.Errorf("tokenizer: metadata key %s missing or not a string array (required by model %q)", keyMerges, t.model)
	}
	// Merges of two vocabulary tokens (nearly all) are keyed by the ids;
	// the rest, which only symbols that are not tokens can hit, by text.
	t.ranks = map[string]int32{}
	t.pairs = make(map[uint64]pairMerge, len(merges))
	for i, m := range merges {
		// llama.cpp splits at the first space after the first byte; a
		// merge without one can never match and is kept out. The first of
		// duplicate merges wins, as with llama.cpp's map emplace.
		if len(m) < 2 || strings.IndexByte(m[1:], ' ') < 0 {
			continue
		}
		pos := 1 + strings.IndexByte(m[1:], ' ')
		l, okl := t.ids[m[:pos]]
		r, okr := t.ids[m[pos+1:]]
		if !okl || !okr {
			if _, dup := t.ranks[m]; !dup {
				t.ranks[m] = int32(i)
			}
			continue
		}
		k := pairKey(l, r)
		if _, dup := t.pairs[k]; dup {
			continue
		}
		merged, ok := t.ids[m[:pos]+m[pos+1:]]
		if !ok {
			merged = null
		}
		t.pairs[k] = pairMerge{rank: int32(i), merged: merged}
	}
	for b := range 256 {
		t.byteID[b] = null
		if id, ok := t.ids[string(byteRunes[b])]; ok {
			t.byteID[b] = id
		}
	}
	return nil
}

type pairMerge struct {
	rank, merged int32
}

func pairKey(l, r int32) uint64 { return uint64(uint32(l))<<32 | uint64(uint32(r)) }

// loadSpecialIDs reads the special token ids; a value outside the
// vocabulary is ignored as llama.cpp does (it keeps the default).
func (t *Tokenizer) loadSpecialIDs(f *gguf.File) error {
	n := int64(len(t.texts))
	fields := []struct {
		key string
		id  *int32
	}{
		{"tokenizer.ggml.bos_token_id", &t.bos},
		{"tokenizer.ggml.eos_token_id", &t.eos},
		{"tokenizer.ggml.eot_token_id", &t.eot},
		{"tokenizer.ggml.eom_token_id", &t.eom},
		{"tokenizer.ggml.unknown_token_id", &t.unk},
		{"tokenizer.ggml.seperator_token_id", &t.sep},
		{"tokenizer.ggml.padding_token_id", &t.pad},
		{"tokenizer.ggml.fim_pre_token_id", &t.fimPre},
		{"tokenizer.ggml.fim_suf_token_id", &t.fimSuf},
		{"tokenizer.ggml.fim_mid_token_id", &t.fimMid},
		{"tokenizer.ggml.fim_pad_token_id", &t.fimPad},
		{"tokenizer.ggml.fim_rep_token_id", &t.fimRep},
		{"tokenizer.ggml.fim_sep_token_id", &t.fimSep},
		{"tokenizer.ggml.prefix_token_id", &t.fimPre},
		{"tokenizer.ggml.suffix_token_id", &t.fimSuf},
		{"tokenizer.ggml.middle_token_id", &t.fimMid},
	}
	for _, fl := range fields {
		if *fl.id >= 0 && int64(*fl.id) >= n {
			*fl.id = null
		}
		v, ok := f.Int(fl.key)
		if !ok {
			continue
		}
		if v >= 0 && v < n {
			*fl.id = int32(v)
		}
	}
	if v, ok := f.Bool(keyAddBOS); ok {
		t.addBOS = v
	}
	if v, ok := f.Bool(keyAddEOS); ok {
		t.addEOS = v
	}
	if t.addBOS && t.bos == null {
		return fmt.Errorf("tokenizer: %s is true, but tokenizer.ggml.bos_token_id is not set", keyAddBOS)
	}
	if t.addEOS && t.eos == null {
		return fmt.Errorf("tokenizer: %s is true, but tokenizer.ggml.eos_token_id is not set", keyAddEOS)
	}
	return nil
}

// Token texts llama.cpp's loader recognises as end-of-turn, FIM and
// end-of-generation markers when the metadata does not name them. The lists
// follow the llama.cpp build the fixtures come from (c392e509, Feb 2025),
// plus later additions that cannot change how any older vocabulary
// tokenizes (they only name tokens that are control tokens anyway).
var (
	eotTexts = []string{"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
		"<|end_of_text|>", "<EOT>", "_<EOT>", "<｜end▁of▁sentence｜>", "<end_of_utterance>"}
	eomTexts    = []string{"<|eom_id|>"}
	fimPreTexts = []string{"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>"}
	fimSufTexts = []string{"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>"}
	fimMidTexts = []string{"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>"}
	fimPadTexts = []string{"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>"}
	fimRepTexts = []string{"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"}
	fimSepTexts = []string{"<|file_sep|>"}
	// Deliberately not "</s>" or "<eos>": newer llama.cpp lists them, which
	// turns e.g. Qwen's ordinary "</s>" token into an end of generation and
	// changes how Phi-3 tokenizes "</s>" typed in text.
	eogTexts = []string{"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<end_of_turn>",
		"<|endoftext|>", "<|eom_id|>", "<EOT>", "_<EOT>", "<|end_of_text|>", "<end_of_utterance>"}
)

// detectSpecial fills in special ids the metadata left out, marks them as
// control tokens, and builds the end-of-generation set (llama-vocab.cpp
// load(): "auto-detect special tokens by text").
func (t *Tokenizer) detectSpecial() {
	// llama.cpp (at the fixtures' version) makes such a token a plain
	// control token, dropping its other attributes.
	mark := func(id int32) {
		if t.attrs[id]&attrControl == 0 {
			t.attrs[id] = attrControl
		}
	}
	find := func(dst *int32, texts []string) {
		if *dst != null {
			return
		}
		// llama.cpp takes whichever match its hash map yields first; we
		// take the first text of the list that exists, so loading is
		// deterministic and <|eot_id|> wins over <|end_of_text|>.
		for _, s := range texts {
			if id, ok := t.ids[s]; ok {
				*dst = id
				mark(id)
				return
			}
		}
	}
	find(&t.eot, eotTexts)
	find(&t.eom, eomTexts)
	find(&t.fimPre, fimPreTexts)
	find(&t.fimSuf, fimSufTexts)
	find(&t.fimMid, fimMidTexts)
	find(&t.fimPad, fimPadTexts)
	find(&t.fimRep, fimRepTexts)
	find(&t.fimSep, fimSepTexts)

	t.eog = map[int32]bool{}
	for _, id := range []int32{t.fimPad, t.fimRep, t.fimSep} {
		if id != null {
			t.eog[id] = true
		}
	}
	for _, s := range eogTexts {
		if id, ok := t.ids[s]; ok {
			t.eog[id] = true
			mark(id)
		}
	}
	for _, id := range []int32{t.eos, t.eot, t.eom} {
		if id != null {
			t.eog[id] = true
		}
	}
	// gpt-oss style vocabularies end a message with <|end|> but a generation
	// with <|return|>/<|call|>; there <|end|> is not an end of generation.
	if end, ok := t.ids["<|end|>"]; ok && t.eog[end] {
		_, hasReturn := t.ids["<|return|>"]
		_, hasCall := t.ids["<|call|>"]
		if hasReturn && hasCall {
			delete(t.eog, end)
			t.attrs[end] = attrUserDefined
		}
	}
}

// applyNameQuirks reproduces llama.cpp's per-model token attributes: Phi-3
// strips whitespace to the right of its special tokens.
func (t *Tokenizer) applyNameQuirks(f *gguf.File) {
	name, _ := f.String("general.name")
	name = strings.ToLower(name)
	if !strings.Contains(name, "phi-3") && !strings.Contains(name, "phi3") {
		return
	}
	for id, a := range t.attrs {
		if a&(attrControl|attrUserDefined|attrUnknown) != 0 {
			t.attrs[id] |= attrRStrip
		}
	}
	if id, ok := t.ids["</s>"]; ok {
		t.attrs[id] |= attrRStrip
	}
	for _, s := range []string{"<unk>", "<s>", "<|endoftext|>"} {
		if id, ok := t.ids[s]; ok {
			t.attrs[id] &^= attrRStrip
		}
	}
}

func (t *Tokenizer) buildSpecialCache() {
	for id, a := range t.attrs {
		if a&(attrControl|attrUserDefined|attrUnknown) != 0 {
			t.special = append(t.special, int32(id))
		}
	}
	// Longest first, so a special token that contains another wins;
	// ties by id keep the order deterministic.
	sort.SliceStable(t.special, func(i, j int) bool {
		return len(t.texts[t.special[i]]) > len(t.texts[t.special[j]])
	})
	t.specialByPrefix = map[uint32][]int{}
	for si, id := range t.special {
		w := t.texts[id]
		k := prefixKey(w)
		t.specialByPrefix[k] = append(t.specialByPrefix[k], si)
		t.specialFirst[w[0]] = true
	}
}

// anyTokenJoinsAtSpace reports whether some token contains "▁" preceded by
// a character other than "▁", i.e. could be merged across a word start.
func (t *Tokenizer) anyTokenJoinsAtSpace() bool {
	const sp = "▁"
	for _, s := range t.texts {
		for k := 1; k < len(s); {
			j := strings.Index(s[k:], sp)
			if j < 0 {
				break
			}
			k += j
			if !strings.HasSuffix(s[:k], sp) {
				return true
			}
			k += len(sp)
		}
	}
	return false
}

// prefixKey keys a string by its first two bytes (or its only byte).
func prefixKey(s string) uint32 {
	if len(s) == 1 {
		return 1<<16 | uint32(s[0])
	}
	return uint32(s[0])<<8 | uint32(s[1])
}

// findSPMByte is llama.cpp's byte_to_token for SPM: the <0xNN> token, or
// else a token whose text is that single byte.
func (t *Tokenizer) findSPMByte(b byte) int32 {
	if id, ok := t.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
		return id
	}
	if id, ok := t.ids[string([]byte{b})]; ok {
		return id
	}
	return null
}

// PreTokenizers lists the tokenizer.ggml.pre values this package supports.
func PreTokenizers() []string {
	names := make([]string, 0, len(preTokenizers))
	for n := range preTokenizers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// VocabSize is the number of tokens.
func (t *Tokenizer) VocabSize() int { return len(t.texts) }

// BOS is the beginning-of-sequence id, or -1 if the model has none.
func (t *Tokenizer) BOS() int32 { return t.bos }

// EOS is the end-of-sequence id, or -1 if the model has none.
func (t *Tokenizer) EOS() int32 { return t.eos }

// EOT is the end-of-turn id (from metadata or detected), or -1.
func (t *Tokenizer) EOT() int32 { return t.eot }

// AddBOS reports whether Encode with addSpecial prepends BOS.
func (t *Tokenizer) AddBOS() bool { return t.addBOS }

// AddEOS reports whether Encode with addSpecial appends EOS.
func (t *Tokenizer) AddEOS() bool { return t.addEOS }

// Model is the tokenizer.ggml.model value ("llama" or "gpt2").
func (t *Tokenizer) Model() string { return t.model }

// Pre is the pre-tokenizer in use ("default" when a gpt2 file names none).
func (t *Tokenizer) Pre() string { return t.preName }

// IsEOG reports whether generating id ends the generation.
func (t *Tokenizer) IsEOG(id int32) bool { return t.eog[id] }

// EOGs lists the end-of-generation ids in ascending order.
func (t *Tokenizer) EOGs() []int32 {
	out := make([]int32, 0, len(t.eog))
	for id := range t.eog {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (t *Tokenizer) valid(id int32) bool { return id >= 0 && int(id) < len(t.texts) }

// IsControl reports whether id is a control token (BOS, EOS, <|im_end|>...).
func (t *Tokenizer) IsControl(id int32) bool { return t.valid(id) && t.attrs[id]&attrControl != 0 }

// IsSpecial reports whether id is a control, user-defined or unknown token.
func (t *Tokenizer) IsSpecial(id int32) bool {
	return t.valid(id) && t.attrs[id]&(attrControl|attrUserDefined|attrUnknown) != 0
}

// Text is the raw vocabulary string of id ("" if out of range).
func (t *Tokenizer) Text(id int32) string {
	if !t.valid(id) {
		return ""
	}
	return t.texts[id]
}

// ID looks up the token whose vocabulary string is exactly s.
func (t *Tokenizer) ID(s string) (int32, bool) {
	id, ok := t.ids[s]
	return id, ok
}

package tokenizer

import (
	"fmt"
	"strings"

	"github.com/dlclark/regexp2"
)

// The word-splitting regexes below are the ones llama.cpp uses for each
// pre-tokenizer (llm_tokenizer_bpe in llama-vocab.cpp). A text is split by
// the first regex, then every piece is split again by the next one; matches
// and the gaps between them both become pieces.
const (
	reGPT2   = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)`
	reLlama3 = `(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	reQwen2  = `(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	reTekken = `[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	reGPT4o  = `[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	reBloom  = " ?[^(\\s|.,!?\u2026\u3002\uFF0C\u3001\u0964\u06D4\u060C)]+"
	reCJK    = "[\u4E00-\u9FA5\u0800-\u4E00\uAC00-\uD7FF]+"
)

// preTokenizers maps tokenizer.ggml.pre values to their regexes and the
// vocabulary flags llama.cpp sets for them.
var preTokenizers = map[string]preConfig{
	"default":          {exprs: defaultExprs, clean: true},
	"llama3":           {exprs: []string{reLlama3}, clean: true, ignoreMerges: true, forceBOS: true},
	"llama-v3":         {exprs: []string{reLlama3}, clean: true, ignoreMerges: true, forceBOS: true},
	"llama-bpe":        {exprs: []string{reLlama3}, clean: true, ignoreMerges: true, forceBOS: true},
	"falcon3":          {exprs: []string{reLlama3}, clean: true, ignoreMerges: true, forceBOS: true},
	"dbrx":             {exprs: []string{reLlama3}, clean: true},
	"smaug-bpe":        {exprs: []string{reLlama3}, clean: true},
	"chatglm-bpe":      {exprs: []string{reLlama3}, clean: true, noBOS: true},
	"glm4":             {exprs: []string{reLlama3}, clean: true, noBOS: true},
	"deepseek-llm":     {exprs: deepseekLLMExprs},
	"deepseek-coder":   {exprs: []string{"[\r\n]", `\s?\p{L}+`, `\s?\p{P}+`, reCJK, `\p{N}`}},
	"deepseek-v3":      {exprs: deepseekV3Exprs},
	"falcon":           {exprs: []string{"[\\p{P}\\$\\+<=>\\^~\\|`]+", reGPT2, `[0-9][0-9][0-9]`}, clean: true},
	"mpt":              {exprs: []string{reGPT2}, clean: true},
	"gpt-2":            {exprs: []string{reGPT2}, clean: true},
	"phi-2":            {exprs: []string{reGPT2}, clean: true},
	"gigachat":         {exprs: []string{reGPT2}, clean: true},
	"olmo":             {exprs: []string{reGPT2}, clean: true},
	"jais":             {exprs: []string{reGPT2}, clean: true},
	"starcoder":        {exprs: []string{`\p{N}`, reGPT2}, clean: true},
	"refact":           {exprs: []string{`\p{N}`, reGPT2}, clean: true},
	"codeshell":        {exprs: []string{`\p{N}`, reGPT2}, clean: true},
	"exaone":           {exprs: []string{`\p{N}`, reGPT2}, clean: true},
	"minerva-7b":       {exprs: []string{`\p{N}`, reGPT2}, clean: true},
	"command-r":        {exprs: []string{`\p{N}`, reGPT2}},
	"smollm":           {exprs: []string{`\p{N}`, reGPT2}},
	"qwen2":            {exprs: []string{reQwen2}},
	"deepseek-r1-qwen": {exprs: []string{reQwen2}},
	"stablelm2":        {exprs: []string{reQwen2}, clean: true},
	"megrez":           {exprs: []string{reQwen2}, clean: true},
	"tekken":           {exprs: []string{reTekken}, ignoreMerges: true, forceBOS: true},
	"gpt-4o":           {exprs: []string{reGPT4o}},
	"bloom":            {exprs: []string{reBloom}, clean: true},
	"gpt3-finnish":     {exprs: []string{reBloom}, clean: true},
	"poro-chat":        {exprs: []string{reBloom}},
	"viking":           {exprs: []string{reBloom, `\p{N}`}},
}

var defaultExprs = []string{`[\p{P}\$\+<=>\^~\|]+`, reGPT2, `\p{N}+`, `[0-9][0-9][0-9]`}

var deepseekLLMExprs = []string{
	"[\r\n]",
	"\\s?[A-Za-z\u00B5\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u01BA\u01BC-\u01BF\u01C4-\u0293\u0295-\u02AF\u0370-\u0373\u0376\u0377\u037B-\u037D\u037F\u0386\u0388-\u038A\u038C\u038E-\u03A1\u03A3-\u03F5\u03F7-\u0481\u048A-\u052F\u0531-\u0556\u10A0-\u10C5\u13A0-\u13F5\u13F8-\u13FD\u1C90-\u1CBA\u1CBD-\u1CBF\u1D00-\u1D2B\u1D6B-\u1D77\u1D79-\u1D9A\u1E00-\u1F15\u1F18-\u1F1D\u1F20-\u1F45\u1F48-\u1F4D\u1F50-\u1F57\u1F59\u1F5B\u1F5D\u1F5F-\u1F7D\u1F80-\u1FB4\u1FB6-\u1FBC\u1FBE\u1FC2-\u1FC4\u1FC6-\u1FCC\u1FD0-\u1FD3\u1FD6-\u1FDB\u1FE0-\u1FEC\u1FF2-\u1FF4\u1FF6-\u1FFC\u2102\u2107\u210A-\u2113\u2115\u2119-\u211D\u2124\u2126\u2128\u212A-\u212D\u212F-\u2134\u2139\u213C-\u213F\u2145-\u2149\u214E\u2183\u2184\u2C00-\u2C7B\u2C7E-\u2CE4\u2CEB-\u2CEE\u2CF2\u2CF3\uA640-\uA66D\uA680-\uA69B\uA722-\uA76F\uA771-\uA787\uA78B-\uA78E\uAB70-\uABBF\uFB00-\uFB06\uFB13-\uFB17\uFF21-\uFF3A\uFF41-\uFF5A\U00010400-\U0001044F\U000104B0-\U000104D3\U000104D8-\U000104FB\U00010C80-\U00010CB2\U00010CC0-\U00010CF2\U000118A0-\U000118DF\U0001E900-\U0001E943]+",
	"\\s?[!-/:-~\uFF01-\uFF0F\uFF1A-\uFF5E\u2018-\u201F\u3000-\u3002]+",
	`\s+$`,
	reCJK,
	`\p{N}+`,
}

var deepseekV3Exprs = []string{
	`\p{N}{1,3}`,
	"[\u4E00-\u9FA5\u3040-\u309F\u30A0-\u30FF]+",
	"[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
}

type preConfig struct {
	exprs        []string
	clean        bool // llama.cpp clean_spaces on decode
	ignoreMerges bool // a word that is a whole token skips merging
	forceBOS     bool // add_bos defaults to true
	noBOS        bool // no default BOS id
}

// step refines a split of cpts: it receives the current piece lengths (in
// codepoints) and returns finer ones that cover the same text.
type step interface {
	split(t *splitText, lens []int) ([]int, error)
}

// splitText holds the text once as codepoints and, when some regex needs
// them, in llama.cpp's two rewritten forms (see collapse and widen).
type splitText struct {
	cpts      []rune
	collapsed []rune
	wide      []rune
}

// preTokenizer is the compiled pipeline of one tokenizer.ggml.pre value.
type preTokenizer struct {
	steps []step
}

func newPreTokenizer(exprs []string) (*preTokenizer, error) {
	p := &preTokenizer{}
	for _, e := range exprs {
		switch e {
		case reGPT2:
			p.steps = append(p.steps, gpt2Step{})
		case reLlama3:
			p.steps = append(p.steps, llama3Step{maxDigits: 3})
		case reQwen2:
			// llama.cpp runs this one through std::regex; the hand-written
			// splitter gives the same pieces (checked in tests) far faster.
			p.steps = append(p.steps, llama3Step{maxDigits: 1})
		default:
			rs, err := newRegexStep(e)
			if err != nil {
				return nil, err
			}
			p.steps = append(p.steps, rs)
		}
	}
	return p, nil
}

// split returns the pieces of text as codepoint slices.
func (p *preTokenizer) split(text string) ([][]rune, error) {
	t := &splitText{cpts: decodeCpts(text)}
	if len(t.cpts) == 0 {
		return nil, nil
	}
	lens := []int{len(t.cpts)}
	for _, s := range p.steps {
		var err error
		if lens, err = s.split(t, lens); err != nil {
			return nil, err
		}
	}
	words := make([][]rune, 0, len(lens))
	start := 0
	for _, n := range lens {
		words = append(words, t.cpts[start:start+n])
		start += n
	}
	return words, nil
}

// pieceCursor walks the pieces of one chunk and records the new lengths.
type pieceCursor struct {
	out  []int
	prev int
}

func (c *pieceCursor) cut(end int) int {
	n := end - c.prev
	if n > 0 {
		c.out = append(c.out, n)
	}
	c.prev = end
	return n
}

// gpt2Step is llama.cpp's hand-written form of reGPT2
// (unicode_regex_split_custom_gpt2), quirks included.
type gpt2Step struct{}

func (gpt2Step) split(t *splitText, lens []int) ([]int, error) {
	cpts := t.cpts
	c := &pieceCursor{out: make([]int, 0, len(lens))}
	start := 0
	for _, n := range lens {
		ini, end := start, start+n
		start = end
		c.prev = ini
		cpt := func(i int) rune {
			if i >= ini && i < end {
				return cpts[i]
			}
			return -1
		}
		flags := func(i int) uint8 {
			if i >= ini && i < end {
				return cptFlags(cpts[i])
			}
			return 0
		}
		for pos := ini; pos < end; {
			r := cpts[pos]
			f := cptFlags(r)
			if r == '\'' && pos+1 < end {
				nx := cpt(pos + 1)
				if nx == 's' || nx == 't' || nx == 'm' || nx == 'd' {
					pos += c.cut(pos + 2)
					continue
				}
				if pos+2 < end {
					nn := cpt(pos + 2)
					if (nx == 'r' && nn == 'e') || (nx == 'v' && nn == 'e') || (nx == 'l' && nn == 'l') {
						pos += c.cut(pos + 3)
						continue
					}
				}
			}
			f2 := f
			if r == ' ' {
				f2 = flags(pos + 1)
			}
			if f2&fLetter != 0 { // ` ?\p{L}+`
				if r == ' ' {
					pos++
				}
				for f2&fLetter != 0 {
					pos++
					f2 = flags(pos)
				}
				c.cut(pos)
				continue
			}
			if f2&fNumber != 0 { // ` ?\p{N}+`
				if r == ' ' {
					pos++
				}
				for f2&fNumber != 0 {
					pos++
					f2 = flags(pos)
				}
				c.cut(pos)
				continue
			}
			if f2&(fSpace|fLetter|fNumber) == 0 && f2 != 0 { // ` ?[^\s\p{L}\p{N}]+`
				if r == ' ' {
					pos++
				}
				for f2&(fSpace|fLetter|fNumber) == 0 && f2 != 0 {
					pos++
					f2 = flags(pos)
				}
				c.cut(pos)
				continue
			}
			ws := 0
			for flags(pos+ws)&fSpace != 0 {
				ws++
			}
			if ws > 1 && cpt(pos+ws) != -1 { // `\s+(?!\S)`
				pos += ws - 1
				c.cut(pos)
				continue
			}
			if ws > 0 {
				pos += ws
				c.cut(pos)
				continue
			}
			pos++
			c.cut(pos)
		}
	}
	return c.out, nil
}

// llama3Step is llama.cpp's hand-written form of reLlama3
// (unicode_regex_split_custom_llama3); with maxDigits 1 it is reQwen2.
type llama3Step struct{ maxDigits int }

func (s llama3Step) split(t *splitText, lens []int) ([]int, error) {
	cpts := t.cpts
	c := &pieceCursor{out: make([]int, 0, len(lens))}
	start := 0
	for _, n := range lens {
		ini, end := start, start+n
		start = end
		c.prev = ini
		cpt := func(i int) rune {
			if i >= ini && i < end {
				return cpts[i]
			}
			return -1
		}
		flags := func(i int) uint8 {
			if i >= ini && i < end {
				return cptFlags(cpts[i])
			}
			return 0
		}
		for pos := ini; pos < end; {
			r := cpts[pos]
			f := cptFlags(r)
			if r == '\'' && pos+1 < end { // case-insensitive contractions
				nx := asciiLower(cpt(pos + 1))
				if nx == 's' || nx == 't' || nx == 'm' || nx == 'd' {
					pos += c.cut(pos + 2)
					continue
				}
				if pos+2 < end {
					nn := asciiLower(cpt(pos + 2))
					if (nx == 'r' && nn == 'e') || (nx == 'v' && nn == 'e') || (nx == 'l' && nn == 'l') {
						pos += c.cut(pos + 3)
						continue
					}
				}
			}
			// `[^\r\n\p{L}\p{N}]?\p{L}+`
			if !(r == '\r' || r == '\n' || f&fNumber != 0) {
				if f&fLetter != 0 || flags(pos+1)&fLetter != 0 {
					pos++
					for flags(pos)&fLetter != 0 {
						pos++
					}
					c.cut(pos)
					continue
				}
			}
			if f&fNumber != 0 { // `\p{N}{1,maxDigits}`
				ini2 := pos
				for flags(pos)&fNumber != 0 {
					pos++
					if pos-ini2 >= s.maxDigits {
						c.cut(pos)
						ini2 = pos
					}
				}
				c.cut(pos)
				continue
			}
			// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
			f2 := f
			if r == ' ' {
				f2 = flags(pos + 1)
			}
			if f2&(fSpace|fLetter|fNumber) == 0 && f != 0 {
				if r == ' ' {
					pos++
				}
				for f2&(fSpace|fLetter|fNumber) == 0 && f2 != 0 {
					pos++
					f2 = flags(pos)
				}
				for r2 := cpt(pos); r2 == '\r' || r2 == '\n'; r2 = cpt(pos) {
					pos++
				}
				c.cut(pos)
				continue
			}
			ws, lastNL := 0, 0
			for flags(pos+ws)&fSpace != 0 {
				if r2 := cpt(pos + ws); r2 == '\r' || r2 == '\n' {
					lastNL = pos + ws + 1
				}
				ws++
			}
			if lastNL > 0 { // `\s*[\r\n]+`
				pos = lastNL
				c.cut(pos)
				continue
			}
			if ws > 1 && cpt(pos+ws) != -1 { // `\s+(?!\S)`
				pos += ws - 1
				c.cut(pos)
				continue
			}
			if ws > 0 { // `\s+`
				pos += ws
				c.cut(pos)
				continue
			}
			pos++
			c.cut(pos)
		}
	}
	return c.out, nil
}

// asciiLower lowercases like unicode_tolower for the letters the
// contraction rules test; no non-ASCII codepoint lowercases to them.
func asciiLower(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 32
	}
	return r
}

// regexStep runs a general regex the way llama.cpp's std::regex fallback
// does. A regex using \p{..} classes runs on the "collapsed" text, where
// every non-ASCII codepoint is replaced by one marker per category; other
// regexes run on the codepoints with non-ASCII whitespace replaced by \v.
type regexStep struct {
	re        *regexp2.Regexp
	fast      *seqRegex // same matches, for the simple regexes
	collapsed bool
}

// Markers of the collapsed text, as in llama.cpp's unicode_regex_split.
const (
	markOther  = 0xD0
	markNumber = 0xD1
	markLetter = 0xD2
	markPunct  = 0xD3
	markMark   = 0xD4
	markSymbol = 0xD5
)

var categoryClass = map[string]string{
	"N": `\u00D1\x30-\x39`,
	"L": `\u00D2\x41-\x5A\x61-\x7A`,
	"P": `\u00D3\x21-\x23\x25-\x2A\x2C-\x2F\x3A-\x3B\x3F-\x40\x5B-\x5D\x5F\x7B\x7D`,
	"M": `\u00D4`,
	"S": `\u00D5\x24\x2B\x3C-\x3E\x5E\x60\x7C`,
}

func newRegexStep(expr string) (*regexStep, error) {
	collapsed := false
	for k := range categoryClass {
		if strings.Contains(expr, `\p{`+k+`}`) {
			collapsed = true
		}
	}
	if collapsed {
		for _, r := range expr {
			if r >= 128 {
				return nil, fmt.Errorf("tokenizer: regex %q mixes unicode categories and non-ASCII characters", expr)
			}
		}
	}
	tr, err := translateRegex(expr, collapsed)
	if err != nil {
		return nil, err
	}
	re, err := regexp2.Compile(tr, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: compile split regex %q: %w", expr, err)
	}
	fast, _ := parseSeqRegex(expr, collapsed)
	return &regexStep{re: re, fast: fast, collapsed: collapsed}, nil
}

// translateRegex rewrites a llama.cpp (ECMAScript std::regex) pattern for
// regexp2: \p{X} becomes the collapsed-marker class, \s and \S become the
// C-locale whitespace set std::regex uses, and $ means end of input only.
func translateRegex(expr string, collapsed bool) (string, error) {
	const space = `\x09-\x0D\x20`
	var b strings.Builder
	inside := false
	rs := []rune(expr)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			nx := rs[i+1]
			switch {
			case nx == 'p' && i+2 < len(rs) && rs[i+2] == '{':
				end := i + 3
				for end < len(rs) && rs[end] != '}' {
					end++
				}
				if end >= len(rs) {
					return "", fmt.Errorf("tokenizer: regex %q: unterminated \\p{", expr)
				}
				name := string(rs[i+3 : end])
				cls, ok := categoryClass[name]
				if !ok || !collapsed {
					return "", fmt.Errorf("tokenizer: regex %q: unsupported class \\p{%s}", expr, name)
				}
				if inside {
					b.WriteString(cls)
				} else {
					b.WriteString("[" + cls + "]")
				}
				i = end
			case nx == 's':
				if inside {
					b.WriteString(space)
				} else {
					b.WriteString("[" + space + "]")
				}
				i++
			case nx == 'S':
				if inside {
					return "", fmt.Errorf("tokenizer: regex %q: \\S inside a class is not supported", expr)
				}
				b.WriteString("[^" + space + "]")
				i++
			default:
				b.WriteRune(r)
				b.WriteRune(nx)
				i++
			}
		case r == '[' && !inside:
			inside = true
			b.WriteRune(r)
		case r == ']' && inside:
			inside = false
			b.WriteRune(r)
		case r == '$' && !inside:
			b.WriteString(`\z`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

func (s *regexStep) split(t *splitText, lens []int) ([]int, error) {
	var text []rune
	if s.collapsed {
		if t.collapsed == nil {
			t.collapsed = collapse(t.cpts)
		}
		text = t.collapsed
	} else {
		if t.wide == nil {
			t.wide = widen(t.cpts)
		}
		text = t.wide
	}
	out := make([]int, 0, len(lens))
	start := 0
	for _, n := range lens {
		chunk := text[start : start+n]
		start += n
		if s.fast != nil {
			out = s.fast.splitChunk(out, chunk)
			continue
		}
		at := 0
		m, err := s.re.FindRunesMatch(chunk)
		for ; err == nil && m != nil; m, err = s.re.FindNextMatch(m) {
			if m.Index > at {
				out = append(out, m.Index-at)
			}
			if m.Length > 0 {
				out = append(out, m.Length)
			}
			at = m.Index + m.Length
		}
		if err != nil {
			return nil, fmt.Errorf("tokenizer: split regex: %w", err)
		}
		if at < n {
			out = append(out, n-at)
		}
	}
	return out, nil
}

func collapse(cpts []rune) []rune {
	out := make([]rune, len(cpts))
	for i, r := range cpts {
		if r < 128 {
			out[i] = r
			continue
		}
		f := cptFlags(r)
		switch {
		case f&fSpace != 0:
			out[i] = 0x0B
		case f&fNumber != 0:
			out[i] = markNumber
		case f&fLetter != 0:
			out[i] = markLetter
		case f&fPunct != 0:
			out[i] = markPunct
		case f&fMark != 0:
			out[i] = markMark
		case f&fSymbol != 0:
			out[i] = markSymbol
		default:
			out[i] = markOther
		}
	}
	return out
}

func widen(cpts []rune) []rune {
	out := make([]rune, len(cpts))
	for i, r := range cpts {
		if r > 0x7F && cptFlags(r)&fSpace != 0 {
			r = 0x0B
		}
		out[i] = r
	}
	return out
}

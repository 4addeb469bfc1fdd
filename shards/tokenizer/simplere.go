package tokenizer

// seqRegex is a fast matcher for the split regexes that are just a sequence
// of quantified single-character atoms, optionally anchored at the end
// (e.g. `\s?[A-Za-z...]+`, `\p{N}{1,3}`, `\s+$`). It backtracks exactly like
// an ECMAScript engine (greedy, leftmost), so it finds the same matches as
// the general path, which tests check; it just avoids regexp2's per-call
// cost, which dominates when a regex runs over many small pieces.
type seqRegex struct {
	items     []seqItem
	anchorEnd bool
}

type seqItem struct {
	class    *runeClass
	min, max int // max < 0: unbounded
}

// runeClass is a set of codepoints: a bitmap for the BMP, ranges above.
type runeClass struct {
	bmp    []uint64
	high   [][2]rune
	negate bool
}

func (c *runeClass) has(r rune) bool {
	var in bool
	if r >= 0 && r < 0x10000 {
		in = c.bmp[r>>6]&(1<<(uint(r)&63)) != 0
	} else {
		for _, h := range c.high {
			if r >= h[0] && r <= h[1] {
				in = true
				break
			}
		}
	}
	return in != c.negate
}

func (c *runeClass) add(lo, hi rune) {
	for r := lo; r <= hi && r < 0x10000; r++ {
		c.bmp[r>>6] |= 1 << (uint(r) & 63)
	}
	if hi >= 0x10000 {
		c.high = append(c.high, [2]rune{max(lo, 0x10000), hi})
	}
}

func newClass() *runeClass { return &runeClass{bmp: make([]uint64, 0x10000/64)} }

// cSpace is std::regex's \s in the C locale.
var cSpaceRanges = [][2]rune{{0x09, 0x0D}, {0x20, 0x20}}

// collapsedRanges are the \p{X} classes over the collapsed text.
var collapsedRanges = map[string][][2]rune{
	"N": {{markNumber, markNumber}, {'0', '9'}},
	"L": {{markLetter, markLetter}, {'A', 'Z'}, {'a', 'z'}},
	"P": {{markPunct, markPunct}, {0x21, 0x23}, {0x25, 0x2A}, {0x2C, 0x2F}, {0x3A, 0x3B}, {0x3F, 0x40}, {0x5B, 0x5D}, {0x5F, 0x5F}, {0x7B, 0x7B}, {0x7D, 0x7D}},
	"M": {{markMark, markMark}},
	"S": {{markSymbol, markSymbol}, {0x24, 0x24}, {0x2B, 0x2B}, {0x3C, 0x3E}, {0x5E, 0x5E}, {0x60, 0x60}, {0x7C, 0x7C}},
}

var escapeRunes = map[rune]rune{'r': '\r', 'n': '\n', 't': '\t', 'v': '\v', 'f': '\f'}

// parseSeqRegex accepts only the simple form; ok is false for anything else
// (alternation, groups, lookaround, lazy quantifiers...).
func parseSeqRegex(expr string, collapsed bool) (*seqRegex, bool) {
	rs := []rune(expr)
	re := &seqRegex{}
	i := 0
	// escape parses the atom after a backslash at rs[i] into c (adding to
	// it); returns false if unsupported.
	escape := func(c *runeClass) bool {
		if i+1 >= len(rs) {
			return false
		}
		nx := rs[i+1]
		switch {
		case nx == 's':
			for _, r := range cSpaceRanges {
				c.add(r[0], r[1])
			}
			i += 2
		case nx == 'p':
			if !collapsed || i+4 >= len(rs) || rs[i+2] != '{' || rs[i+4] != '}' {
				return false
			}
			rg, ok := collapsedRanges[string(rs[i+3])]
			if !ok {
				return false
			}
			for _, r := range rg {
				c.add(r[0], r[1])
			}
			i += 5
		case escapeRunes[nx] != 0:
			c.add(escapeRunes[nx], escapeRunes[nx])
			i += 2
		case (nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9'):
			return false // \d, \w, \S, \b, \x.. and friends: leave to regexp2
		default:
			c.add(nx, nx)
			i += 2
		}
		return true
	}
	for i < len(rs) {
		var c *runeClass
		switch r := rs[i]; {
		case r == '$' && i == len(rs)-1:
			re.anchorEnd = true
			i++
			continue
		case r == '[':
			c = newClass()
			i++
			if i < len(rs) && rs[i] == '^' {
				c.negate = true
				i++
			}
			first := true
			for i < len(rs) && (rs[i] != ']' || first) {
				first = false
				var lo rune
				if rs[i] == '\\' {
					// Only single-rune escapes may start a range.
					if i+1 < len(rs) && (rs[i+1] == 's' || rs[i+1] == 'p') {
						if !escape(c) {
							return nil, false
						}
						continue
					}
					if i+1 >= len(rs) {
						return nil, false
					}
					nx := rs[i+1]
					if e := escapeRunes[nx]; e != 0 {
						lo = e
					} else if (nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') {
						return nil, false
					} else {
						lo = nx
					}
					i += 2
				} else if rs[i] == '[' {
					return nil, false
				} else {
					lo = rs[i]
					i++
				}
				hi := lo
				if i+1 < len(rs) && rs[i] == '-' && rs[i+1] != ']' {
					i++
					if rs[i] == '\\' {
						if i+1 >= len(rs) {
							return nil, false
						}
						nx := rs[i+1]
						if e := escapeRunes[nx]; e != 0 {
							hi = e
						} else if (nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') {
							return nil, false
						} else {
							hi = nx
						}
						i += 2
					} else {
						hi = rs[i]
						i++
					}
					if hi < lo {
						return nil, false
					}
				}
				c.add(lo, hi)
			}
			if i >= len(rs) {
				return nil, false
			}
			i++ // ']'
		case r == '\\':
			c = newClass()
			if !escape(c) {
				return nil, false
			}
		case r == '(' || r == ')' || r == '|' || r == '.' || r == '^' || r == '$' ||
			r == '?' || r == '*' || r == '+' || r == '{' || r == '}':
			return nil, false
		default:
			c = newClass()
			c.add(r, r)
			i++
		}
		it := seqItem{class: c, min: 1, max: 1}
		if i < len(rs) {
			switch rs[i] {
			case '?':
				it.min, it.max = 0, 1
				i++
			case '*':
				it.min, it.max = 0, -1
				i++
			case '+':
				it.min, it.max = 1, -1
				i++
			case '{':
				lo, hi, n, ok := parseBraces(rs[i:])
				if !ok {
					return nil, false
				}
				i += n
				it.min, it.max = lo, hi
			}
			if i < len(rs) && (rs[i] == '?' || rs[i] == '+' || rs[i] == '*' || rs[i] == '{') {
				return nil, false // lazy/possessive/stacked quantifiers
			}
		}
		re.items = append(re.items, it)
	}
	return re, len(re.items) > 0
}

// parseBraces reads "{n}", "{n,}" or "{n,m}" at the start of rs and
// returns the bounds (max -1 for unbounded) and the runes consumed.
func parseBraces(rs []rune) (lo, hi, n int, ok bool) {
	num := func(i int) (int, int) {
		v, j := 0, i
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' && j-i < 6 {
			v = v*10 + int(rs[j]-'0')
			j++
		}
		return v, j
	}
	lo, j := num(1)
	if j == 1 || j >= len(rs) {
		return 0, 0, 0, false
	}
	switch rs[j] {
	case '}':
		return lo, lo, j + 1, true
	case ',':
		if j+1 < len(rs) && rs[j+1] == '}' {
			return lo, -1, j + 2, true
		}
		hi, k := num(j + 1)
		if k == j+1 || k >= len(rs) || rs[k] != '}' || hi < lo {
			return 0, 0, 0, false
		}
		return lo, hi, k + 1, true
	}
	return 0, 0, 0, false
}

// find returns the leftmost match in text[from:] as [start, end), or ok
// false. Empty matches are possible only if every item may be empty.
func (re *seqRegex) find(text []rune, from int) (int, int, bool) {
	if re.anchorEnd && len(re.items) == 1 && re.items[0].max < 0 {
		// X+$ / X*$: the match is the longest run of X ending the text,
		// found from the right instead of retrying every start.
		s := len(text)
		for s > from && re.items[0].class.has(text[s-1]) {
			s--
		}
		if len(text)-s >= re.items[0].min {
			return s, len(text), true
		}
		return 0, 0, false
	}
	for s := from; s <= len(text); s++ {
		if e, ok := re.matchAt(text, s, 0); ok {
			return s, e, true
		}
		if len(re.items) > 0 && re.items[0].min > 0 {
			// Skip ahead to the next spot where the first atom fits.
			for s+1 < len(text) && !re.items[0].class.has(text[s+1]) {
				s++
			}
		}
	}
	return 0, 0, false
}

// matchAt tries items[k:] at pos, greedy with backtracking.
func (re *seqRegex) matchAt(text []rune, pos, k int) (int, bool) {
	if k == len(re.items) {
		if re.anchorEnd && pos != len(text) {
			return 0, false
		}
		return pos, true
	}
	it := re.items[k]
	n := 0
	for (it.max < 0 || n < it.max) && pos+n < len(text) && it.class.has(text[pos+n]) {
		n++
	}
	for ; n >= it.min; n-- {
		if e, ok := re.matchAt(text, pos+n, k+1); ok {
			return e, true
		}
	}
	return 0, false
}

// split is regexStep.split with the fast matcher.
func (re *seqRegex) splitChunk(out []int, chunk []rune) []int {
	at := 0
	for pos := 0; pos <= len(chunk); {
		s, e, ok := re.find(chunk, pos)
		if !ok {
			break
		}
		if s > at {
			out = append(out, s-at)
		}
		if e > s {
			out = append(out, e-s)
			pos = e
		} else {
			pos = e + 1 // an empty match: step past it, as regex iterators do
		}
		at = e
	}
	if at < len(chunk) {
		out = append(out, len(chunk)-at)
	}
	return out
}

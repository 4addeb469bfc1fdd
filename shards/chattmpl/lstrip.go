package chattmpl

import "strings"

// lstripBlocks applies Jinja2's lstrip_blocks to the template source and
// returns the source gonja then lexes with its own lstrip_blocks off.
//
// Why: gonja strips the blank run before every {% and {# tag, even when the
// run follows other text or a {{ }} on the same line ("{{ x }}  {% if %}"
// loses its two spaces). Jinja2 strips only the spaces and tabs between the
// start of a line and a {% or {# tag that is the first thing on that line,
// unless the tag opens with "{%+" / "{#+". The scan below follows Jinja2's
// lexer (jinja2/lexer.py, tokeniter): a data run counts as starting a line
// if it follows a newline inside the run, or if the text matched just before
// it (a tag, including the newline trim_blocks eats after it) ended with a
// newline, or at the start of the template. Inside tags it skips string
// literals and balanced brackets, as Jinja2 does, to find the tag's end.
//
// The rewrite only deletes spaces and tabs (never a newline), so line
// numbers in later error messages are unchanged. Newlines are normalized to
// "\n" first, as Jinja2 does. If the source is malformed (an unclosed tag)
// the rest is left as is for gonja to report.
func lstripBlocks(src string) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\r", "\n")

	var out strings.Builder
	out.Grow(len(src))
	pos := 0
	lineStarting := true
	for pos < len(src) {
		start, kind := nextTag(src, pos)
		if start < 0 {
			out.WriteString(src[pos:])
			break
		}
		text := src[pos:start]
		sign := byte(0)
		if start+2 < len(src) {
			sign = src[start+2]
		}
		if kind != '{' && sign != '+' && sign != '-' {
			text = lstripText(text, lineStarting)
		}
		out.WriteString(text)

		if kind == '%' && isRawBegin(src, start) {
			block, end := rawBlock(src, start)
			if end < 0 {
				out.WriteString(src[start:])
				break
			}
			out.WriteString(block)
			lineStarting = src[end-1] == '\n'
			pos = end
			continue
		}
		var end int
		switch kind {
		case '#':
			end = commentEnd(src, start)
		default:
			end = tagEnd(src, start, kind)
		}
		if end < 0 {
			out.WriteString(src[start:])
			break
		}
		out.WriteString(src[start:end])
		lineStarting = src[end-1] == '\n'
		pos = end
	}
	return out.String()
}

// lstripText drops the trailing spaces/tabs of text's last line when that
// line holds nothing else and really starts a line.
func lstripText(text string, lineStarting bool) string {
	lpos := strings.LastIndexByte(text, '\n') + 1
	if lpos == 0 && !lineStarting {
		return text
	}
	if lpos == len(text) || strings.Trim(text[lpos:], " \t\v\f") != "" {
		return text
	}
	return text[:lpos]
}

// nextTag finds the next "{%", "{{" or "{#" at or after pos and returns its
// offset and its second character.
func nextTag(src string, pos int) (int, byte) {
	for i := strings.IndexByte(src[pos:], '{'); i >= 0; {
		at := pos + i
		if at+1 < len(src) {
			switch c := src[at+1]; c {
			case '%', '{', '#':
				return at, c
			}
		}
		next := strings.IndexByte(src[at+1:], '{')
		if next < 0 {
			return -1, 0
		}
		i = at + 1 + next - pos
	}
	return -1, 0
}

// tagEnd returns the offset just past the {% %} or {{ }} tag starting at
// start, including the whitespace that "-%}" and (for blocks, trim_blocks)
// the newline that "%}" consume; -1 if it never closes.
func tagEnd(src string, start int, kind byte) int {
	closer := "}}"
	if kind == '%' {
		closer = "%}"
	}
	var stack []byte
	i := start + 2
	for i < len(src) {
		c := src[i]
		if len(stack) == 0 {
			switch {
			case c == '-' && strings.HasPrefix(src[i+1:], closer):
				return skipSpace(src, i+1+len(closer))
			case c == '+' && kind == '%' && strings.HasPrefix(src[i+1:], closer):
				return i + 1 + len(closer)
			case strings.HasPrefix(src[i:], closer):
				end := i + len(closer)
				if kind == '%' && end < len(src) && src[end] == '\n' {
					end++ // trim_blocks
				}
				return end
			}
		}
		switch c {
		case '\'', '"':
			j := stringEnd(src, i)
			if j < 0 {
				return -1
			}
			i = j
			continue
		case '(':
			stack = append(stack, ')')
		case '[':
			stack = append(stack, ']')
		case '{':
			stack = append(stack, '}')
		case ')', ']', '}':
			if len(stack) > 0 && stack[len(stack)-1] == c {
				stack = stack[:len(stack)-1]
			}
		}
		i++
	}
	return -1
}

// stringEnd returns the offset past the string literal opening at i.
func stringEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return -1
}

func skipSpace(src string, i int) int {
	for i < len(src) && strings.IndexByte(" \t\n\r\v\f", src[i]) >= 0 {
		i++
	}
	return i
}

// commentEnd returns the offset past the comment starting at start.
func commentEnd(src string, start int) int {
	for i := start + 2; i+1 < len(src); i++ {
		switch {
		case src[i] == '+' && strings.HasPrefix(src[i+1:], "#}"):
			return i + 3
		case src[i] == '-' && strings.HasPrefix(src[i+1:], "#}"):
			return skipSpace(src, i+3)
		case src[i] == '#' && src[i+1] == '}':
			end := i + 2
			if end < len(src) && src[end] == '\n' {
				end++ // trim_blocks
			}
			return end
		}
	}
	return -1
}

// isRawBegin reports whether the block tag at start is {% raw %}.
func isRawBegin(src string, start int) bool {
	i := start + 2
	if i < len(src) && (src[i] == '-' || src[i] == '+') {
		i++
	}
	i = skipSpace(src, i)
	if !strings.HasPrefix(src[i:], "raw") {
		return false
	}
	i = skipSpace(src, i+3)
	return strings.HasPrefix(src[i:], "%}") || strings.HasPrefix(src[i:], "-%}")
}

// rawBlock handles {% raw %}...{% endraw %} starting at start: it returns
// the block's text, with lstrip applied before {% endraw %}, and the offset
// past it (-1 if unclosed).
func rawBlock(src string, start int) (string, int) {
	open := strings.Index(src[start:], "%}")
	if open < 0 {
		return "", -1
	}
	bodyStart := start + open + 2
	if src[bodyStart-3] == '-' {
		bodyStart = skipSpace(src, bodyStart)
	}
	for i := bodyStart; ; {
		k := strings.Index(src[i:], "{%")
		if k < 0 {
			return "", -1
		}
		tag := i + k
		j := tag + 2
		sign := byte(0)
		if j < len(src) && (src[j] == '-' || src[j] == '+') {
			sign = src[j]
			j++
		}
		j = skipSpace(src, j)
		if !strings.HasPrefix(src[j:], "endraw") {
			i = tag + 2
			continue
		}
		end := tagEnd(src, tag, '%')
		if end < 0 {
			return "", -1
		}
		text := src[bodyStart:tag]
		if sign == 0 {
			text = lstripText(text, src[bodyStart-1] == '\n')
		}
		return src[start:bodyStart] + text + src[tag:end], end
	}
}

package chattmpl

import "strings"

// rewriteExpressions applies source rewrites to every {{ }} and {% %} tag,
// for expressions gonja's parser gets wrong: parenthesizeIn (the right
// operand of "in"), splitChains (a < b < c), then nested conditionals.
//
// gonja parses "X if C else Y" only as the whole of a {{ }} or a {% set %}
// value, not nested in other expressions, e.g. Gemma 3's
// '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "").
// Each conditional that sits inside brackets (parentheses, a list, a dict,
// call arguments) becomes
//
//	((C) and [X] or [Y])[0]
//
// which gonja parses and which evaluates exactly like the conditional:
// "and"/"or" short-circuit and return an operand, a one-element list is
// always true, so only the chosen branch is evaluated. A missing else
// branch yields Undefined, as in Jinja2. Conditionals at the top level of a
// tag are left to gonja. Only characters are inserted and spaces moved, no
// newline is added or removed, so line numbers stay right.
func rewriteExpressions(src string) string {
	var out strings.Builder
	pos := 0
	for pos < len(src) {
		start, kind := nextTag(src, pos)
		if start < 0 {
			break
		}
		var end int
		switch {
		case kind == '#':
			end = commentEnd(src, start)
		case kind == '%' && isRawBegin(src, start):
			_, end = rawBlock(src, start)
		default:
			end = tagEnd(src, start, kind)
		}
		if end < 0 {
			break
		}
		out.WriteString(src[pos:start])
		if kind == '#' || (kind == '%' && isRawBegin(src, start)) {
			out.WriteString(src[start:end])
		} else {
			out.WriteString(rewriteTag(src[start:end]))
		}
		pos = end
	}
	out.WriteString(src[pos:])
	return out.String()
}

// undefinedName is a variable no template sets; it stands for Undefined.
const undefinedName = "__chattmpl_undefined__"

// exprToken is a lexical token of a tag body; text keeps the original
// spelling, including whitespace tokens, so unchanged parts round-trip.
type exprToken struct {
	text string
	kind byte // 'w' space, 's' string, 'n' name/number, 'o' operator, or the bracket/punctuation itself
}

func lexTag(body string) []exprToken {
	var toks []exprToken
	for i := 0; i < len(body); {
		c := body[i]
		j := i + 1
		kind := byte('o')
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(body) && strings.IndexByte(" \t\n\r", body[j]) >= 0 {
				j++
			}
			kind = 'w'
		case c == '\'' || c == '"':
			if j = stringEnd(body, i); j < 0 {
				j = len(body)
			}
			kind = 's'
		case c == '_' || isAlnum(c):
			for j < len(body) && (body[j] == '_' || isAlnum(body[j])) {
				j++
			}
			kind = 'n'
		case strings.IndexByte("()[]{},:", c) >= 0:
			kind = c
		case c == '=' || c == '!' || c == '<' || c == '>':
			if j < len(body) && body[j] == '=' {
				j++
			} else if c == '=' {
				kind = '='
			}
		}
		toks = append(toks, exprToken{text: body[i:j], kind: kind})
		i = j
	}
	return toks
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// rewriteTag rewrites one {{ }} or {% %} tag (delimiters, whitespace-control
// signs and trailing text kept as they are): the right operand of "in" is
// parenthesized (parenthesizeIn), chained comparisons split (splitChains),
// then nested conditionals rewritten.
func rewriteTag(tag string) string {
	if len(tag) < 4 || !(strings.Contains(tag, "if") || strings.Contains(tag, "in") || strings.ContainsAny(tag[2:len(tag)-2], "<>=!")) {
		return tag
	}
	open := 2
	if tag[2] == '-' || tag[2] == '+' {
		open = 3
	}
	closer := "}}"
	if tag[1] == '%' {
		closer = "%}"
	}
	end := strings.LastIndex(tag, closer)
	if end < open {
		return tag
	}
	if end > open && (tag[end-1] == '-' || tag[end-1] == '+') {
		end--
	}
	return tag[:open] + rewriteBody(splitChains(parenthesizeIn(tag[open:end]))) + tag[end:]
}

// splitChains rewrites chained comparisons, at any bracket level:
// "a < b <= c" becomes "(a < b) and (b <= c)", Python's meaning; gonja
// would compute "(a < b) <= c". The middle operand is written (and
// evaluated) twice, which only matters for an operand with side effects.
func splitChains(body string) string {
	if !strings.ContainsAny(body, "<>=!") {
		return body
	}
	toks := lexTag(body)
	var b strings.Builder
	runStart := 0
	flush := func(end int) { b.WriteString(splitRun(toks[runStart:end])) }
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.kind == '(' || t.kind == '[' || t.kind == '{':
			inner, next := groupEnd(toks, k)
			flush(k)
			b.WriteString(t.text)
			b.WriteString(splitChains(joinTokens(toks[k+1 : inner])))
			if inner < len(toks) {
				b.WriteString(toks[inner].text)
			}
			runStart = next
			k = next - 1
		case t.kind == ',' || t.kind == ':' || t.kind == '=' ||
			t.kind == 'n' && (t.text == "and" || t.text == "or" || t.text == "not" || t.text == "if" || t.text == "else"):
			flush(k)
			b.WriteString(t.text)
			runStart = k + 1
		}
	}
	flush(len(toks))
	return b.String()
}

// splitRun rewrites one run of tokens without brackets or boolean
// operators if it holds two or more comparisons. Runs with "in" or "is"
// are left alone.
func splitRun(toks []exprToken) string {
	var ops []int
	for k, t := range toks {
		if t.kind == 'n' && (t.text == "in" || t.text == "is") {
			return joinTokens(toks)
		}
		if t.kind == 'o' {
			switch t.text {
			case "==", "!=", "<", ">", "<=", ">=":
				ops = append(ops, k)
			}
		}
	}
	if len(ops) < 2 {
		return joinTokens(toks)
	}
	// A middle operand holding a newline would be written twice and add a
	// line; such chains are left as they are.
	for i := 0; i+1 < len(ops); i++ {
		if strings.Contains(joinTokens(toks[ops[i]+1:ops[i+1]]), "\n") {
			return joinTokens(toks)
		}
	}
	all := joinTokens(toks)
	lead, _ := splitSpace(all)
	trail := all[len(strings.TrimRight(all, " \t\r\n")):]
	var parts []string
	prev := 0
	for i, op := range ops {
		next := len(toks)
		if i+1 < len(ops) {
			next = ops[i+1]
		}
		left := strings.TrimSpace(joinTokens(toks[prev:op]))
		right := strings.TrimSpace(joinTokens(toks[op+1 : next]))
		parts = append(parts, "("+left+" "+toks[op].text+" "+right+")")
		prev = op + 1
	}
	joined := strings.Join(parts, " and ")
	// Keep the run's line count: put back newlines trimmed from its ends.
	missing := strings.Count(all, "\n") - strings.Count(lead, "\n") - strings.Count(joined, "\n") - strings.Count(trail, "\n")
	return lead + joined + strings.Repeat("\n", max(missing, 0)) + trail
}

// parenthesizeIn puts the right operand of every "in" / "not in" of an
// expression tag in parentheses. gonja reads that operand as a single
// variable or literal, so "'user' in messages | map(attribute='role')"
// would apply the filter to the test's result; Jinja2 applies it to
// messages. The operand runs, as in Jinja2's grammar, to the next
// and/or/if/else, comparison, separator or closing bracket at its level.
// {% for %} tags are left alone: their "in" is not the operator.
func parenthesizeIn(body string) string {
	toks := lexTag(body)
	for _, t := range toks {
		if t.kind == 'n' {
			if t.text == "for" {
				return body
			}
			break
		}
	}
	var b strings.Builder
	for k := 0; k < len(toks); k++ {
		b.WriteString(toks[k].text)
		if toks[k].kind != 'n' || toks[k].text != "in" {
			continue
		}
		start := k + 1
		for start < len(toks) && toks[start].kind == 'w' {
			b.WriteString(toks[start].text)
			start++
		}
		end := operandEnd(toks, start)
		for end > start && toks[end-1].kind == 'w' {
			end--
		}
		if end <= start {
			k = start - 1
			continue
		}
		b.WriteString("(" + parenthesizeIn(joinTokens(toks[start:end])) + ")")
		k = end - 1
	}
	return b.String()
}

// operandEnd returns the index just past a comparison operand starting at
// toks[start].
func operandEnd(toks []exprToken, start int) int {
	prev := ""
	for k := start; k < len(toks); k++ {
		t := toks[k]
		switch t.kind {
		case '(', '[', '{':
			_, next := groupEnd(toks, k)
			k = next - 1
			prev = ")"
			continue
		case ')', ']', '}', ',', ':':
			return k
		case 'o':
			switch t.text {
			case "==", "!=", "<", ">", "<=", ">=":
				return k
			}
		case 'n':
			switch t.text {
			case "and", "or", "if", "else", "in", "recursive":
				return k
			case "not":
				if prev != "is" {
					return k
				}
			}
		}
		if t.kind != 'w' {
			prev = t.text
		}
	}
	return len(toks)
}

// rewriteBody copies an expression's top level and rewrites inside each
// bracket group.
func rewriteBody(body string) string {
	if !strings.Contains(body, "if") {
		return body
	}
	toks := lexTag(body)
	var b strings.Builder
	i := 0
	// Copy the tag's top level; rewrite inside each bracket group.
	for i < len(toks) {
		t := toks[i]
		if t.kind == '(' || t.kind == '[' || t.kind == '{' {
			inner, next := groupEnd(toks, i)
			b.WriteString(t.text)
			b.WriteString(rewriteGroup(toks[i+1 : inner]))
			if inner < len(toks) {
				b.WriteString(toks[inner].text)
			}
			i = next
			continue
		}
		b.WriteString(t.text)
		i++
	}
	return b.String()
}

// groupEnd returns the index of the bracket closing the group opened at
// toks[open] (len(toks) if unclosed) and the index after it.
func groupEnd(toks []exprToken, open int) (int, int) {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].kind {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return k, k + 1
			}
		}
	}
	return len(toks), len(toks)
}

// rewriteGroup rewrites the contents of one bracket group: it splits them
// at top-level ',' ':' and '=' (keyword arguments) and rewrites each part.
func rewriteGroup(toks []exprToken) string {
	var b strings.Builder
	partStart := 0
	flush := func(end int) {
		b.WriteString(rewriteSegment(toks[partStart:end]))
	}
	for k := 0; k < len(toks); {
		switch toks[k].kind {
		case '(', '[', '{':
			_, next := groupEnd(toks, k)
			k = next
			continue
		case ',', ':', '=':
			flush(k)
			b.WriteString(toks[k].text)
			partStart = k + 1
		}
		k++
	}
	flush(len(toks))
	return b.String()
}

// rewriteSegment rewrites one expression that has no top-level separator:
// "X if C else Y" becomes "((C) and [X] or [Y])[0]"; inner groups are
// rewritten too.
func rewriteSegment(toks []exprToken) string {
	ifAt, elseAt := -1, -1
	for k := 0; k < len(toks); {
		t := toks[k]
		switch {
		case t.kind == '(' || t.kind == '[' || t.kind == '{':
			_, next := groupEnd(toks, k)
			k = next
			continue
		case t.kind == 'n' && t.text == "if" && ifAt < 0:
			ifAt = k
		case t.kind == 'n' && t.text == "else" && ifAt >= 0 && elseAt < 0:
			elseAt = k
		}
		k++
	}
	if ifAt <= 0 {
		return rewriteBody(joinTokens(toks))
	}
	x := rewriteBody(joinTokens(toks[:ifAt]))
	var c, y string
	if elseAt < 0 {
		c, y = rewriteBody(joinTokens(toks[ifAt+1:])), undefinedName
	} else {
		// Y may itself be a conditional: "X if C else Y if D else Z".
		c, y = rewriteBody(joinTokens(toks[ifAt+1:elseAt])), rewriteSegment(toks[elseAt+1:])
	}
	// Spaces around the parts move outside the new expression; newlines
	// among them are kept so that later lines keep their numbers.
	lead, x := splitSpace(x)
	var moved strings.Builder
	trimmed := func(s string) string {
		l, rest := splitSpace(s)
		rest, r := trimTrailingSpace(rest)
		moved.WriteString(strings.Repeat("\n", strings.Count(l+r, "\n")))
		return rest
	}
	x, c, y = trimmed(x), trimmed(c), trimmed(y)
	return lead + "((" + c + ") and [" + x + "] or [" + y + "])[0]" + moved.String()
}

func joinTokens(toks []exprToken) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

func splitSpace(s string) (string, string) {
	t := strings.TrimLeft(s, " \t\r\n")
	return s[:len(s)-len(t)], t
}

func trimTrailingSpace(s string) (string, string) {
	t := strings.TrimRight(s, " \t\r\n")
	return t, s[len(t):]
}

package chattmpl

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// pyTuple is a Python tuple: a list that prints with parentheses. Dict
// items are tuples.
type pyTuple []any

// strMethods are gonja's str methods with Python's strip/split family put
// back: gonja's default separator is a rune, so "x".strip() and "a b".split()
// without arguments fail there.
func strMethods() *exec.MethodSet[string] {
	names := []string{"capitalize", "casefold", "center", "count", "endswith", "expandtabs", "find",
		"format", "format_map", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "islower",
		"isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower",
		"partition", "removeprefix", "removesuffix", "replace", "rfind", "rjust", "rpartition",
		"splitlines", "swapcase", "title", "upper", "zfill"}
	out := map[string]exec.Method[string]{}
	for _, n := range names {
		if fn, ok := builtins.Methods.Str.Get(n); ok {
			out[n] = fn
		}
	}
	out["strip"] = func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) { return pyStrip(s, a, true, true) }
	out["lstrip"] = func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) { return pyStrip(s, a, true, false) }
	out["rstrip"] = func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) { return pyStrip(s, a, false, true) }
	out["replace"] = pyReplace
	out["startswith"] = affixMethod(strings.HasPrefix)
	out["endswith"] = affixMethod(strings.HasSuffix)
	out["upper"] = caseMethod(upperCase)
	out["lower"] = caseMethod(lowerCase)
	out["split"] = func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) { return pySplit(s, a, false) }
	out["rsplit"] = func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) { return pySplit(s, a, true) }
	return exec.NewMethodSet(out)
}

// optString reads an optional str-or-None argument.
func optString(v *exec.Value, what string) (string, bool, error) {
	switch {
	case v == nil || isNone(v):
		return "", false, nil
	case v.IsString():
		return v.String(), true, nil
	}
	return "", false, fmt.Errorf("%s must be None or str, not %s", what, pyTypeName(v))
}

func pyStrip(s string, a *exec.VarArgs, left, right bool) (any, error) {
	if len(a.Args) > 1 || len(a.KwArgs) > 0 {
		return nil, fmt.Errorf("strip expected at most 1 argument")
	}
	var arg *exec.Value
	if len(a.Args) == 1 {
		arg = a.Args[0]
	}
	chars, given, err := optString(arg, "strip arg")
	if err != nil {
		return nil, err
	}
	cut := unicode.IsSpace
	if given {
		cut = func(r rune) bool { return strings.ContainsRune(chars, r) }
	}
	if left {
		s = strings.TrimLeftFunc(s, cut)
	}
	if right {
		s = strings.TrimRightFunc(s, cut)
	}
	return s, nil
}

func pySplit(s string, a *exec.VarArgs, fromRight bool) (any, error) {
	var sepV, maxV *exec.Value
	if len(a.Args) > 2 {
		return nil, fmt.Errorf("split expected at most 2 arguments")
	}
	if len(a.Args) > 0 {
		sepV = a.Args[0]
	}
	if len(a.Args) > 1 {
		maxV = a.Args[1]
	}
	for k, v := range a.KwArgs {
		switch k {
		case "sep":
			sepV = v
		case "maxsplit":
			maxV = v
		default:
			return nil, fmt.Errorf("split got an unexpected keyword argument %q", k)
		}
	}
	sep, given, err := optString(sepV, "sep")
	if err != nil {
		return nil, err
	}
	maxsplit := -1
	if maxV != nil {
		if !maxV.IsInteger() {
			return nil, fmt.Errorf("maxsplit must be an integer")
		}
		maxsplit = maxV.Integer()
	}
	var parts []string
	switch {
	case given && sep == "":
		return nil, fmt.Errorf("ValueError: empty separator")
	case given && !fromRight:
		parts = strings.SplitN(s, sep, nOf(maxsplit))
	case given:
		parts = rsplitN(s, sep, maxsplit)
	default:
		parts = whitespaceSplit(s, maxsplit, fromRight)
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

func nOf(maxsplit int) int {
	if maxsplit < 0 {
		return -1
	}
	return maxsplit + 1
}

func rsplitN(s, sep string, maxsplit int) []string {
	var rev []string
	for maxsplit != 0 {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		rev = append(rev, s[i+len(sep):])
		s = s[:i]
		maxsplit--
	}
	out := []string{s}
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

// whitespaceSplit is str.split() without a separator: runs of whitespace
// separate, and leading/trailing whitespace gives no empty strings.
func whitespaceSplit(s string, maxsplit int, fromRight bool) []string {
	if !fromRight {
		var out []string
		for maxsplit != 0 {
			s = strings.TrimLeftFunc(s, unicode.IsSpace)
			i := strings.IndexFunc(s, unicode.IsSpace)
			if s == "" {
				return nonNil(out)
			}
			if i < 0 {
				return append(out, s)
			}
			out = append(out, s[:i])
			s = s[i:]
			maxsplit--
		}
		if s = strings.TrimLeftFunc(s, unicode.IsSpace); s != "" {
			out = append(out, s)
		}
		return nonNil(out)
	}
	var rev []string
	for maxsplit != 0 {
		s = strings.TrimRightFunc(s, unicode.IsSpace)
		if s == "" {
			break
		}
		i := strings.LastIndexFunc(s, unicode.IsSpace)
		if i < 0 {
			rev = append(rev, s)
			s = ""
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		rev = append(rev, s[i+size:])
		s = s[:i]
		maxsplit--
	}
	var out []string
	if s = strings.TrimRightFunc(s, unicode.IsSpace); s != "" {
		out = append(out, s)
	}
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return nonNil(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// pyRepr is Python's repr() of a template value; pyStr (pyops.go) is str().
func pyRepr(v *exec.Value) string {
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

func writeRepr(b *strings.Builder, v *exec.Value, depth int) {
	if depth > maxJSONDepth {
		b.WriteString("...")
		return
	}
	if v == nil || !v.Val.IsValid() {
		// Undefined inside a container cannot happen in Python; gonja's
		// missing values are closest to None there.
		b.WriteString("None")
		return
	}
	switch x := v.Interface().(type) {
	case *exec.Value:
		writeRepr(b, x, depth+1)
		return
	case *exec.Dict:
		writeReprDict(b, x.Pairs, depth)
		return
	case exec.Dict:
		writeReprDict(b, x.Pairs, depth)
		return
	case pyTuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, exec.ToValue(e), depth+1)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
		return
	}
	switch {
	case isNone(v):
		b.WriteString("None")
	case v.IsString():
		b.WriteString(pyQuote(v.String()))
	case v.IsBool(), v.IsInteger(), v.IsFloat():
		b.WriteString(pyStr(v))
	case v.IsList():
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, v.Index(i), depth+1)
		}
		b.WriteByte(']')
	case v.IsDict():
		writeReprDict(b, dictPairs(v), depth)
	default:
		b.WriteString(v.String())
	}
}

func writeReprDict(b *strings.Builder, pairs []*exec.Pair, depth int) {
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeRepr(b, p.Key, depth+1)
		b.WriteString(": ")
		writeRepr(b, p.Value, depth+1)
	}
	b.WriteByte('}')
}

// pyQuote is repr() of a str: single quotes unless the text has a single
// quote and no double quote; backslash escapes for the quote, backslash,
// \n \r \t and other non-printable characters.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			switch {
			case r <= 0xff:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// printable turns a value into the text {{ }} and ~ produce: str() in
// Python terms.
func printable(v *exec.Value) *exec.Value {
	switch {
	case isNone(v):
		return exec.AsValue("None")
	case v.IsList() || v.IsDict():
		return exec.AsValue(pyRepr(v))
	case v.IsFloat():
		return exec.AsValue(pyFloatRepr(v.Float(), false))
	}
	return v
}

// itemsFilter is Jinja2's |items: the (key, value) pairs of a mapping.
func itemsFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	if len(params.Args)+len(params.KwArgs) > 0 {
		return exec.AsValue(fmt.Errorf("items takes no arguments"))
	}
	if isUndefined(in) {
		return exec.AsValue([]any{})
	}
	if !in.IsDict() {
		return exec.AsValue(fmt.Errorf("TypeError: can only get item pairs from a mapping, not %s", pyTypeName(in)))
	}
	pairs := dictPairs(in)
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = pyTuple{p.Key.Interface(), p.Value.Interface()}
	}
	return exec.AsValue(out)
}

// dictsortFilter is Jinja2's dictsort(case_sensitive=False, by='key',
// reverse=False).
func dictsortFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	if !in.IsDict() {
		return exec.AsValue(fmt.Errorf("TypeError: dictsort needs a mapping, not %s", pyTypeName(in)))
	}
	caseSensitive, by, reverse := false, "key", false
	names := []string{"case_sensitive", "by", "reverse"}
	args := map[string]*exec.Value{}
	for i, a := range params.Args {
		if i >= len(names) {
			return exec.AsValue(fmt.Errorf("dictsort: too many arguments"))
		}
		args[names[i]] = a
	}
	for k, a := range params.KwArgs {
		args[k] = a
	}
	for k, a := range args {
		switch k {
		case "case_sensitive":
			caseSensitive = a.IsTrue()
		case "by":
			by = a.String()
		case "reverse":
			reverse = a.IsTrue()
		default:
			return exec.AsValue(fmt.Errorf("dictsort: unexpected keyword argument %q", k))
		}
	}
	if by != "key" && by != "value" {
		return exec.AsValue(fmt.Errorf("FilterArgumentError: You can only sort by either \"key\" or \"value\""))
	}
	pairs := append([]*exec.Pair(nil), dictPairs(in)...)
	sortKey := func(p *exec.Pair) *exec.Value {
		v := p.Key
		if by == "value" {
			v = p.Value
		}
		if !caseSensitive && v.IsString() {
			return exec.AsValue(strings.ToLower(v.String()))
		}
		return v
	}
	var sortErr error
	sort.SliceStable(pairs, func(i, j int) bool {
		a, b := sortKey(pairs[i]), sortKey(pairs[j])
		if reverse {
			a, b = b, a
		}
		lt, err := binop("<", a, b)
		if err != nil {
			sortErr = err
			return false
		}
		return lt.Bool()
	})
	if sortErr != nil {
		return exec.AsValue(sortErr)
	}
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = pyTuple{p.Key.Interface(), p.Value.Interface()}
	}
	return exec.AsValue(out)
}

// stringFilter is |string: Python's str().
func stringFilter(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	p := printable(in)
	if p.IsString() {
		return p
	}
	if p.IsBool() || p.IsInteger() {
		return exec.AsValue(pyStr(p))
	}
	if isUndefined(p) {
		return exec.AsValue("")
	}
	return exec.AsValue(p.String())
}

// upperCase and lowerCase apply full Unicode case mapping, as Python's
// str.upper()/lower() do ("ß".upper() is "SS"); Go's strings.ToUpper maps
// rune by rune. A Caser is not safe for concurrent use, hence one per call.
func upperCase(s string) string { return cases.Upper(language.Und).String(s) }
func lowerCase(s string) string { return cases.Lower(language.Und).String(s) }

func caseFilter(f func(string) string) exec.FilterFunction {
	return func(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
		if in.IsError() {
			return in
		}
		if len(params.Args)+len(params.KwArgs) > 0 {
			return exec.AsValue(fmt.Errorf("takes no arguments"))
		}
		return exec.AsValue(f(printable(in).String()))
	}
}

func caseMethod(f func(string) string) exec.Method[string] {
	return func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args)+len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		return f(s), nil
	}
}

// tupleFilter turns the list gonja builds for a tuple literal into a tuple.
func tupleFilter(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if !in.IsList() {
		return in
	}
	t := make(pyTuple, in.Len())
	for i := range t {
		t[i] = in.Index(i).Interface()
	}
	return exec.AsValue(t)
}

// getitemFilter is obj[key] with Jinja2's rules: Python indexing (negative
// indices, strings by character), a missing item gives Undefined, then as
// Jinja2 does an attribute of that name is tried. In is obj; the arguments
// are key and the source text and position of obj.
func getitemFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	if len(params.Args) != 4 {
		return exec.AsValue(fmt.Errorf("chattmpl: internal: getitem arguments"))
	}
	key := params.Args[0]
	if key.IsError() {
		return key
	}
	switch {
	case isNone(in):
		return exec.AsValue(nil)
	case isUndefined(in):
		text, line, col := params.Args[1].String(), params.Args[2].Integer(), params.Args[3].Integer()
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "UndefinedError", Line: line, Col: col,
			Msg: fmt.Sprintf("'%s' is undefined", text)}))
	}
	if key.IsInteger() && (in.IsList() || in.IsString()) {
		i := key.Integer()
		if in.IsString() {
			runes := []rune(in.String())
			if i < 0 {
				i += len(runes)
			}
			if i < 0 || i >= len(runes) {
				return exec.AsValue(nil)
			}
			return exec.AsValue(string(runes[i]))
		}
		n := in.Len()
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return exec.AsValue(nil)
		}
		return in.Index(i)
	}
	if in.IsDict() {
		for _, p := range dictPairs(in) {
			if p.Key.EqualValueTo(key) {
				return p.Value
			}
		}
	}
	if !in.IsDict() && !in.IsList() && !in.IsString() {
		var k any
		switch {
		case key.IsString():
			k = key.String()
		case key.IsInteger():
			k = key.Integer()
		}
		if k != nil {
			if v, found := in.GetItem(k); found {
				return v
			}
		}
	}
	if key.IsString() {
		if v, found := in.GetAttribute(key.String()); found {
			return v
		}
	}
	return exec.AsValue(nil)
}

// pyReplace is str.replace(old, new, count=-1).
func pyReplace(s string, _ *exec.Value, a *exec.VarArgs) (any, error) {
	if len(a.Args) < 2 || len(a.Args) > 3 || len(a.KwArgs) > 0 {
		return nil, fmt.Errorf("replace expected 2 or 3 arguments")
	}
	if !a.Args[0].IsString() || !a.Args[1].IsString() {
		return nil, fmt.Errorf("replace arguments must be str")
	}
	n := -1
	if len(a.Args) == 3 {
		if !a.Args[2].IsInteger() {
			return nil, fmt.Errorf("replace count must be an integer")
		}
		n = a.Args[2].Integer()
	}
	return strings.Replace(s, a.Args[0].String(), a.Args[1].String(), n), nil
}

// roundFilter is Jinja2's round(value, precision=0, method='common'):
// 'common' is Python's round() (ties to even on the exact binary value),
// the result is always a float.
func roundFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	n, ok := asNum(in)
	if !ok {
		return exec.AsValue(fmt.Errorf("TypeError: round needs a number, not %s", pyTypeName(in)))
	}
	precision, method := 0, "common"
	names := []string{"precision", "method"}
	args := map[string]*exec.Value{}
	for i, a := range params.Args {
		if i >= len(names) {
			return exec.AsValue(fmt.Errorf("round: too many arguments"))
		}
		args[names[i]] = a
	}
	for k, a := range params.KwArgs {
		args[k] = a
	}
	for k, a := range args {
		switch k {
		case "precision":
			if !a.IsInteger() {
				return exec.AsValue(fmt.Errorf("round: precision must be an integer"))
			}
			precision = a.Integer()
		case "method":
			method = a.String()
		default:
			return exec.AsValue(fmt.Errorf("round: unexpected keyword argument %q", k))
		}
	}
	x := n.float()
	f := math.Pow(10, float64(precision))
	switch method {
	case "common":
		if precision >= 0 {
			r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', precision, 64), 64)
			if err != nil {
				return exec.AsValue(err)
			}
			return exec.AsValue(r)
		}
		return exec.AsValue(math.RoundToEven(x*f) / f)
	case "floor":
		return exec.AsValue(math.Floor(x*f) / f)
	case "ceil":
		return exec.AsValue(math.Ceil(x*f) / f)
	}
	return exec.AsValue(fmt.Errorf("FilterArgumentError: method must be common, ceil or floor"))
}

// affixMethod builds str.startswith / str.endswith: the affix is a str or a
// tuple/list of str; optional start and end slice the string first.
func affixMethod(has func(s, affix string) bool) exec.Method[string] {
	return func(s string, _ *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) < 1 || len(a.Args) > 3 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("expected 1 to 3 arguments")
		}
		runes := []rune(s)
		lo, hi := 0, len(runes)
		for i, p := range []*int{&lo, &hi} {
			if len(a.Args) > i+1 && !isNone(a.Args[i+1]) {
				if !a.Args[i+1].IsInteger() {
					return nil, fmt.Errorf("slice indices must be integers or None")
				}
				v := a.Args[i+1].Integer()
				if v < 0 {
					v += len(runes)
				}
				*p = min(max(v, 0), len(runes))
			}
		}
		if lo > hi {
			return false, nil
		}
		sub := string(runes[lo:hi])
		affix := a.Args[0]
		if affix.IsString() {
			return has(sub, affix.String()), nil
		}
		if !affix.IsList() {
			return nil, fmt.Errorf("TypeError: first arg must be str or a tuple of str, not %s", pyTypeName(affix))
		}
		for i := 0; i < affix.Len(); i++ {
			x := affix.Index(i)
			if !x.IsString() {
				return nil, fmt.Errorf("TypeError: tuple for startswith/endswith must only contain str, not %s", pyTypeName(x))
			}
			if has(sub, x.String()) {
				return true, nil
			}
		}
		return false, nil
	}
}

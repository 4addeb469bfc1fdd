package chattmpl

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// jsonOptions mirrors the keyword arguments of Python's json.dumps that
// Hugging Face's tojson override forwards.
type jsonOptions struct {
	indent      string // "" and !indented: compact one-line form
	indented    bool   // indent given (even 0 or "": newlines without spaces)
	itemSep     string
	keySep      string
	sortKeys    bool
	ensureASCII bool
}

// pyJSON renders v as Python's json.dumps(v, ensure_ascii=False) does by
// default: ", " and ": " separators, insertion key order, no HTML escaping,
// floats in Python repr form.
func pyJSON(v *exec.Value, o jsonOptions) (string, error) {
	var b strings.Builder
	if err := writeJSON(&b, v, o, 0, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

const maxJSONDepth = 200

func writeJSON(b *strings.Builder, v *exec.Value, o jsonOptions, level, depth int) error {
	if depth > maxJSONDepth {
		return fmt.Errorf("tojson: value nested deeper than %d levels", maxJSONDepth)
	}
	if v == nil || !v.Val.IsValid() || isNone(v) {
		// Undefined is not serialisable in Jinja2 either, but a missing key
		// inside gonja structures can surface as an invalid value; Python
		// would have held None there.
		if isUndefined(v) {
			return fmt.Errorf("tojson: Undefined is not JSON serializable")
		}
		b.WriteString("null")
		return nil
	}
	switch x := v.Interface().(type) {
	case *exec.Value:
		return writeJSON(b, x, o, level, depth+1)
	case *exec.Dict:
		return writeDict(b, x.Pairs, o, level, depth)
	case exec.Dict:
		return writeDict(b, x.Pairs, o, level, depth)
	case error:
		return x
	}
	rv := v.Val
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			b.WriteString("null")
			return nil
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		writeJSONString(b, rv.String(), o.ensureASCII)
	case reflect.Bool:
		if rv.Bool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(rv.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(pyFloatRepr(rv.Float(), true))
	case reflect.Slice, reflect.Array:
		n := rv.Len()
		if n == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(o.itemSep)
			}
			writeNewline(b, o, level+1)
			if err := writeJSON(b, exec.ToValue(rv.Index(i)), o, level+1, depth+1); err != nil {
				return err
			}
		}
		writeNewline(b, o, level)
		b.WriteByte(']')
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("tojson: map keys of type %s are not supported", rv.Type().Key())
		}
		keys := rv.MapKeys()
		// Go maps have no order; sorted keys at least make output stable.
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		pairs := make([]*exec.Pair, len(keys))
		for i, k := range keys {
			pairs[i] = &exec.Pair{Key: exec.AsValue(k.String()), Value: exec.ToValue(rv.MapIndex(k))}
		}
		return writeDict(b, pairs, o, level, depth)
	default:
		return fmt.Errorf("tojson: object of type %s is not JSON serializable", pyTypeName(v))
	}
	return nil
}

func writeDict(b *strings.Builder, pairs []*exec.Pair, o jsonOptions, level, depth int) error {
	if len(pairs) == 0 {
		b.WriteString("{}")
		return nil
	}
	if o.sortKeys {
		pairs = append([]*exec.Pair(nil), pairs...)
		sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key.String() < pairs[j].Key.String() })
	}
	b.WriteByte('{')
	for i, p := range pairs {
		if i > 0 {
			b.WriteString(o.itemSep)
		}
		writeNewline(b, o, level+1)
		k := p.Key
		switch {
		case k.IsString():
			writeJSONString(b, k.String(), o.ensureASCII)
		case k.IsInteger(), k.IsFloat(), k.IsBool(), isNone(k):
			// Python converts these keys to strings.
			var kb strings.Builder
			if err := writeJSON(&kb, k, o, 0, depth+1); err != nil {
				return err
			}
			writeJSONString(b, kb.String(), o.ensureASCII)
		default:
			return fmt.Errorf("tojson: keys must be str, int, float, bool or None, not %s", pyTypeName(k))
		}
		b.WriteString(o.keySep)
		if err := writeJSON(b, p.Value, o, level+1, depth+1); err != nil {
			return err
		}
	}
	writeNewline(b, o, level)
	b.WriteByte('}')
	return nil
}

func writeNewline(b *strings.Builder, o jsonOptions, level int) {
	if !o.indented {
		return
	}
	b.WriteByte('\n')
	for i := 0; i < level; i++ {
		b.WriteString(o.indent)
	}
}

// writeJSONString escapes like Python's json encoder: the two-character
// escapes for \" \\ \n \r \t \b \f, \u00XX for other control characters,
// and (only with ensure_ascii) \uXXXX / surrogate pairs for non-ASCII.
func writeJSONString(b *strings.Builder, s string, ensureASCII bool) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Invalid UTF-8 cannot come from a Python str; keep the
			// replacement character rather than failing the render.
			r = utf8.RuneError
		}
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || (ensureASCII && r == 0x7f):
				fmt.Fprintf(b, `\u%04x`, r)
			case ensureASCII && r > 0x7f:
				if r > 0xffff {
					r -= 0x10000
					fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
				} else {
					fmt.Fprintf(b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// pyFloatRepr formats f like Python's float.__repr__ (shortest round-trip
// digits; scientific notation below 1e-4 and from 1e16 on). For JSON,
// non-finite values are written as Python's json module writes them.
func pyFloatRepr(f float64, forJSON bool) string {
	switch {
	case math.IsNaN(f):
		if forJSON {
			return "NaN"
		}
		return "nan"
	case math.IsInf(f, 1):
		if forJSON {
			return "Infinity"
		}
		return "inf"
	case math.IsInf(f, -1):
		if forJSON {
			return "-Infinity"
		}
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// tojsonFilter is Hugging Face's tojson: json.dumps(x, ensure_ascii=False,
// indent=None, separators=None, sort_keys=False), with those keywords
// accepted from the template.
func tojsonFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	o := jsonOptions{itemSep: ", ", keySep: ": "}
	// Positional order of HF's wrapper after the value.
	names := []string{"ensure_ascii", "indent", "separators", "sort_keys"}
	if len(params.Args) > len(names) {
		return exec.AsValue(fmt.Errorf("tojson: too many positional arguments"))
	}
	args := map[string]*exec.Value{}
	for i, a := range params.Args {
		args[names[i]] = a
	}
	for k, a := range params.KwArgs {
		if _, dup := args[k]; dup {
			return exec.AsValue(fmt.Errorf("tojson: got multiple values for argument %q", k))
		}
		args[k] = a
	}
	customSeparators := false
	for k, a := range args {
		switch k {
		case "ensure_ascii":
			o.ensureASCII = a.IsTrue()
		case "indent":
			if err := setIndent(&o, a); err != nil {
				return exec.AsValue(err)
			}
		case "sort_keys":
			o.sortKeys = a.IsTrue()
		case "separators":
			if isNone(a) || isUndefined(a) {
				continue
			}
			if !a.IsList() || a.Len() != 2 {
				return exec.AsValue(fmt.Errorf("tojson: separators must be a pair of strings"))
			}
			o.itemSep, o.keySep = a.Index(0).String(), a.Index(1).String()
			customSeparators = true
		default:
			return exec.AsValue(fmt.Errorf("tojson: unexpected keyword argument %q", k))
		}
	}
	if o.indented && !customSeparators {
		// Python drops the space after "," when indenting.
		o.itemSep = ","
	}
	s, err := pyJSON(in, o)
	if err != nil {
		return exec.AsValue(err)
	}
	return exec.AsSafeValue(s)
}

func setIndent(o *jsonOptions, a *exec.Value) error {
	switch {
	case isNone(a) || isUndefined(a):
		o.indented = false
	case a.IsInteger():
		n := a.Integer()
		if n < 0 {
			n = 0
		}
		o.indented, o.indent = true, strings.Repeat(" ", n)
	case a.IsString():
		o.indented, o.indent = true, a.String()
	default:
		return fmt.Errorf("tojson: indent must be an int or a string, not %s", pyTypeName(a))
	}
	return nil
}

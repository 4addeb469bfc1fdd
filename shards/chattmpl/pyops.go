package chattmpl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// Python semantics for the arithmetic and ordering operators. gonja's own
// versions coerce freely ("a" + 1 gives "a1", an undefined operand counts
// as 0 or "") and panic on a string % tuple; the rewrite pass replaces
// every such operator by filterBinop, which applies the rules below.

// pyNum is a Python int or float (bool counts as int, as in Python).
type pyNum struct {
	isFloat bool
	i       int
	f       float64
}

func asNum(v *exec.Value) (pyNum, bool) {
	switch {
	case v.IsBool():
		if v.Bool() {
			return pyNum{i: 1}, true
		}
		return pyNum{}, true
	case v.IsInteger():
		return pyNum{i: v.Integer()}, true
	case v.IsFloat():
		return pyNum{isFloat: true, f: v.Float()}, true
	}
	return pyNum{}, false
}

func (n pyNum) float() float64 {
	if n.isFloat {
		return n.f
	}
	return float64(n.i)
}

// binop applies operator op to a and b. The error texts follow Python's.
func binop(op string, a, b *exec.Value) (*exec.Value, error) {
	switch op {
	case "~":
		// Jinja2's concatenation: str() of both sides, Undefined as "".
		return exec.AsValue(concatText(a) + concatText(b)), nil
	case "==":
		return exec.AsValue(pyEqual(a, b)), nil
	case "!=":
		return exec.AsValue(!pyEqual(a, b)), nil
	}
	an, aNum := asNum(a)
	bn, bNum := asNum(b)
	if aNum && bNum {
		return numOp(op, an, bn)
	}
	switch op {
	case "+":
		switch {
		case a.IsString() && b.IsString():
			return exec.AsValue(a.String() + b.String()), nil
		case a.IsList() && b.IsList():
			out := make([]any, 0, a.Len()+b.Len())
			for _, l := range []*exec.Value{a, b} {
				for i := 0; i < l.Len(); i++ {
					out = append(out, l.Index(i).Interface())
				}
			}
			return exec.AsValue(out), nil
		}
	case "*":
		seq, count := a, b
		if aNum && !bNum {
			seq, count = b, a
		}
		cn, ok := asNum(count)
		if ok && !cn.isFloat {
			n := max(cn.i, 0)
			if seq.IsString() {
				if len(seq.String())*n > maxRepeat {
					return nil, fmt.Errorf("OverflowError: repeated string too long")
				}
				return exec.AsValue(strings.Repeat(seq.String(), n)), nil
			}
			if seq.IsList() {
				if seq.Len()*n > maxRepeat {
					return nil, fmt.Errorf("OverflowError: repeated list too long")
				}
				out := make([]any, 0, seq.Len()*n)
				for r := 0; r < n; r++ {
					for i := 0; i < seq.Len(); i++ {
						out = append(out, seq.Index(i).Interface())
					}
				}
				return exec.AsValue(out), nil
			}
		}
	case "%":
		if a.IsString() {
			s, err := percentFormat(a.String(), b)
			if err != nil {
				return nil, err
			}
			return exec.AsValue(s), nil
		}
	case "<", "<=", ">", ">=":
		if a.IsString() && b.IsString() {
			c := strings.Compare(a.String(), b.String())
			return exec.AsValue(compareResult(op, c)), nil
		}
		if a.IsList() && b.IsList() {
			c, err := compareLists(a, b)
			if err != nil {
				return nil, err
			}
			return exec.AsValue(compareResult(op, c)), nil
		}
		return nil, fmt.Errorf("TypeError: '%s' not supported between instances of '%s' and '%s'", op, pyTypeName(a), pyTypeName(b))
	}
	return nil, fmt.Errorf("TypeError: unsupported operand type(s) for %s: '%s' and '%s'", op, pyTypeName(a), pyTypeName(b))
}

// pyEqual is Python's ==: Undefined equals only Undefined, None only None,
// numbers compare by value (True == 1).
func pyEqual(a, b *exec.Value) bool {
	switch {
	case isUndefined(a) || isUndefined(b):
		return isUndefined(a) && isUndefined(b)
	case isNone(a) || isNone(b):
		return isNone(a) && isNone(b)
	}
	an, aNum := asNum(a)
	bn, bNum := asNum(b)
	if aNum && bNum {
		if an.isFloat || bn.isFloat {
			return an.float() == bn.float()
		}
		return an.i == bn.i
	}
	return a.EqualValueTo(b)
}

// maxRepeat bounds "x" * n and [x] * n so a template cannot exhaust memory.
const maxRepeat = 1 << 22

func concatText(v *exec.Value) string {
	if isUndefined(v) {
		return ""
	}
	p := printable(v)
	if p.IsBool() || p.IsInteger() {
		return pyStr(p)
	}
	return p.String()
}

func compareResult(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func compareLists(a, b *exec.Value) (int, error) {
	for i := 0; i < a.Len() && i < b.Len(); i++ {
		x, y := a.Index(i), b.Index(i)
		if x.EqualValueTo(y) {
			continue
		}
		lt, err := binop("<", x, y)
		if err != nil {
			return 0, err
		}
		if lt.Bool() {
			return -1, nil
		}
		return 1, nil
	}
	return a.Len() - b.Len(), nil
}

func numOp(op string, a, b pyNum) (*exec.Value, error) {
	isFloat := a.isFloat || b.isFloat
	switch op {
	case "+":
		if isFloat {
			return exec.AsValue(a.float() + b.float()), nil
		}
		return exec.AsValue(a.i + b.i), nil
	case "-":
		if isFloat {
			return exec.AsValue(a.float() - b.float()), nil
		}
		return exec.AsValue(a.i - b.i), nil
	case "*":
		if isFloat {
			return exec.AsValue(a.float() * b.float()), nil
		}
		return exec.AsValue(a.i * b.i), nil
	case "/":
		if b.float() == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: division by zero")
		}
		return exec.AsValue(a.float() / b.float()), nil
	case "//":
		if b.float() == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: integer division or modulo by zero")
		}
		if isFloat {
			return exec.AsValue(math.Floor(a.float() / b.float())), nil
		}
		q := a.i / b.i
		if (a.i%b.i != 0) && ((a.i < 0) != (b.i < 0)) {
			q--
		}
		return exec.AsValue(q), nil
	case "%":
		if b.float() == 0 {
			return nil, fmt.Errorf("ZeroDivisionError: integer division or modulo by zero")
		}
		if isFloat {
			m := math.Mod(a.float(), b.float())
			if m != 0 && (m < 0) != (b.float() < 0) {
				m += b.float()
			}
			return exec.AsValue(m), nil
		}
		m := a.i % b.i
		if m != 0 && (m < 0) != (b.i < 0) {
			m += b.i
		}
		return exec.AsValue(m), nil
	case "**":
		if !isFloat && b.i >= 0 {
			r := 1
			for k := 0; k < b.i; k++ {
				r *= a.i
				if k > 4096 {
					return nil, fmt.Errorf("OverflowError: exponent too large")
				}
			}
			return exec.AsValue(r), nil
		}
		return exec.AsValue(math.Pow(a.float(), b.float())), nil
	case "<", "<=", ">", ">=":
		c := 0
		if isFloat {
			switch x, y := a.float(), b.float(); {
			case x < y:
				c = -1
			case x > y:
				c = 1
			}
		} else {
			switch {
			case a.i < b.i:
				c = -1
			case a.i > b.i:
				c = 1
			}
		}
		return exec.AsValue(compareResult(op, c)), nil
	}
	return nil, fmt.Errorf("unknown operator %s", op)
}

// percentFormat is Python's printf-style str % args for the conversions
// templates use: s r d i f F e g x X o c and %%, with flags, width and
// precision.
func percentFormat(format string, args *exec.Value) (string, error) {
	var list []*exec.Value
	_, isTuple := args.Interface().(pyTuple)
	if isTuple {
		for i := 0; i < args.Len(); i++ {
			list = append(list, args.Index(i))
		}
	} else {
		list = []*exec.Value{args}
	}
	next := 0
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		if j >= len(format) {
			return "", fmt.Errorf("ValueError: incomplete format")
		}
		spec, verb := format[i+1:j], format[j]
		i = j
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if next >= len(list) {
			return "", fmt.Errorf("TypeError: not enough arguments for format string")
		}
		arg := list[next]
		next++
		switch verb {
		case 's', 'r':
			s := pyStr(arg)
			if verb == 'r' && arg.IsString() {
				s = "'" + s + "'"
			}
			fmt.Fprintf(&b, "%"+spec+"s", s)
		case 'd', 'i':
			n, ok := asNum(arg)
			if !ok {
				return "", fmt.Errorf("TypeError: %%%c format: a real number is required, not %s", verb, pyTypeName(arg))
			}
			v := n.i
			if n.isFloat {
				v = int(n.f)
			}
			fmt.Fprintf(&b, "%"+spec+"d", v)
		case 'f', 'F', 'e', 'E', 'g', 'G':
			n, ok := asNum(arg)
			if !ok {
				return "", fmt.Errorf("TypeError: must be real number, not %s", pyTypeName(arg))
			}
			if !strings.Contains(spec, ".") && (verb == 'f' || verb == 'F' || verb == 'e' || verb == 'E') {
				spec += ".6"
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), n.float())
		case 'x', 'X', 'o':
			n, ok := asNum(arg)
			if !ok || n.isFloat {
				return "", fmt.Errorf("TypeError: %%%c format: an integer is required, not %s", verb, pyTypeName(arg))
			}
			fmt.Fprintf(&b, "%"+spec+string(verb), n.i)
		case 'c':
			switch {
			case arg.IsString() && len([]rune(arg.String())) == 1:
				b.WriteString(arg.String())
			case arg.IsInteger():
				b.WriteRune(rune(arg.Integer()))
			default:
				return "", fmt.Errorf("TypeError: %%c requires an int or a unicode character")
			}
		default:
			return "", fmt.Errorf("ValueError: unsupported format character '%c'", verb)
		}
	}
	if next < len(list) && isTuple {
		return "", fmt.Errorf("TypeError: not all arguments converted during string formatting")
	}
	return b.String(), nil
}

// pyStr is Python's str() of a template value.
func pyStr(v *exec.Value) string {
	switch {
	case isNone(v):
		return "None"
	case v.IsFloat():
		return pyFloatRepr(v.Float(), false)
	case v.IsBool():
		if v.Bool() {
			return "True"
		}
		return "False"
	case v.IsInteger():
		return strconv.Itoa(v.Integer())
	}
	return v.String()
}

// binopFilter evaluates "left op right": in is the left operand; the
// arguments are op, the right operand, and the operands' source text and
// position (for messages).
func binopFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	if len(params.Args) != 6 {
		return exec.AsValue(fmt.Errorf("chattmpl: internal: binop arguments"))
	}
	op, right := params.Args[0].String(), params.Args[1]
	leftText, rightText := params.Args[2].String(), params.Args[3].String()
	line, col := params.Args[4].Integer(), params.Args[5].Integer()
	if right.IsError() {
		return right
	}
	fail := func(kind, msg string) *exec.Value {
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: kind, Msg: msg, Line: line, Col: col}))
	}
	for _, side := range []struct {
		v    *exec.Value
		text string
	}{{in, leftText}, {right, rightText}} {
		if isUndefined(side.v) && op != "==" && op != "!=" && op != "~" {
			return fail("UndefinedError", fmt.Sprintf("'%s' is undefined (operand of %s)", side.text, op))
		}
	}
	out, err := binop(op, in, right)
	if err != nil {
		kind, msg, found := strings.Cut(err.Error(), ": ")
		if !found {
			kind, msg = "Error", err.Error()
		}
		return fail(kind, fmt.Sprintf("%s (in %s %s %s)", msg, leftText, op, rightText))
	}
	// Strings and lists built by operators count against a per-render
	// budget: appending in a loop copies the whole value each time.
	size := 0
	switch {
	case out.IsString():
		size = len(out.String())
	case out.IsList():
		size = 16 * out.Len()
	}
	if st := stateOf(e); size > 0 {
		if st.built += size; st.built > maxBuilt {
			return fail("Error", fmt.Sprintf("more than %d bytes of strings and lists built in one render", maxBuilt))
		}
	}
	return out
}

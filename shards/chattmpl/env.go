package chattmpl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/parser"
)

// newEnvironment builds a fresh gonja environment configured like
// transformers' ImmutableSandboxedEnvironment. Everything is copied into
// new sets: gonja's package-level defaults are never modified.
func newEnvironment() *exec.Environment {
	filters := exec.NewFilterSet(map[string]exec.FilterFunction{}).Update(builtins.Filters)
	// Overrides and internal filters; Replace/Register only fail on a
	// name clash, which would be a programming error caught by the tests.
	must(filters.Replace("tojson", tojsonFilter))
	must(filters.Replace("default", defaultFilter))
	must(filters.Replace("d", defaultFilter))
	must(filters.Replace("items", itemsFilter))
	must(filters.Replace("dictsort", dictsortFilter))
	must(filters.Replace("string", stringFilter))
	must(filters.Replace("round", roundFilter))
	must(filters.Replace("upper", caseFilter(upperCase)))
	must(filters.Replace("lower", caseFilter(lowerCase)))
	must(filters.Register(filterGetitem, getitemFilter))
	must(filters.Register(filterTuple, tupleFilter))
	must(filters.Register(filterCallee, calleeFilter))
	must(filters.Register(filterMethodOwner, methodOwnerFilter))
	must(filters.Replace("trim", trimFilter))
	must(filters.Register(filterBinop, binopFilter))
	must(filters.Register(filterSubject, subjectFilter))
	must(filters.Register(filterIterable, iterableFilter))
	must(filters.Register(filterPrint, printFilter))

	tests := exec.NewTestSet(map[string]exec.TestFunction{}).Update(builtins.Tests)
	must(tests.Replace("defined", testDefined))
	must(tests.Replace("undefined", testUndefined))
	must(tests.Replace("none", testNone))
	must(tests.Replace("in", testIn))

	// Statements: Jinja2's core set plus loop controls (jinja2.ext.
	// loopcontrols) and {% generation %}; no {% do %} (jinja2.ext.do is
	// not loaded by transformers). include/import/extends/from/
	// block need a loader, which transformers does not give; with and
	// trans are left out as well (see doc.go).
	stmts := map[string]parser.ControlStructureParser{
		"set":        parseSet,
		"filter":     parseFilterBlock,
		"generation": parseGeneration,
	}
	for _, name := range []string{"for", "if", "macro", "call", "raw", "break", "continue", "autoescape"} {
		p, ok := builtins.ControlStructures.Get(name)
		if !ok {
			panic(fmt.Sprintf("chattmpl: gonja has no %q statement", name))
		}
		stmts[name] = p
	}

	globals := map[string]any{}
	globals["range"] = pyRange
	for _, name := range []string{"dict", "namespace", "cycler", "joiner", "lipsum"} {
		fn, ok := builtins.GlobalFunctions.Get(name)
		if !ok {
			panic(fmt.Sprintf("chattmpl: gonja has no %q global", name))
		}
		globals[name] = fn
	}

	return &exec.Environment{
		Filters:           filters,
		Tests:             tests,
		ControlStructures: exec.NewControlStructureSet(stmts),
		Context:           exec.NewContext(globals),
		Methods:           sandboxMethods(),
	}
}

func must(err error) {
	if err != nil {
		panic("chattmpl: environment setup: " + err.Error())
	}
}

// sandboxMethods keeps Python's non-mutating methods only: the immutable
// sandbox refuses list.append, dict.update and the like. Dict methods are
// our own so that they keep key order and return None for a missing key.
func sandboxMethods() exec.Methods {
	m := builtins.Methods
	return exec.Methods{
		Bool:  m.Bool,
		Int:   m.Int,
		Float: m.Float,
		Str:   strMethods(),
		List:  pick(m.List, "copy"),
		Dict: exec.NewMethodSet(map[string]exec.Method[map[string]any]{
			"get":    dictGet,
			"items":  dictItems,
			"keys":   dictKeys,
			"values": dictValues,
			"copy":   dictCopy,
		}),
	}
}

func pick[I any](set *exec.MethodSet[I], names ...string) *exec.MethodSet[I] {
	out := map[string]exec.Method[I]{}
	for _, n := range names {
		if fn, ok := set.Get(n); ok {
			out[n] = fn
		}
	}
	return exec.NewMethodSet(out)
}

// dictPairs lists a dict's pairs in Python order: insertion order for
// ordered dicts, sorted keys for Go maps (which have no order).
func dictPairs(v *exec.Value) []*exec.Pair {
	switch d := v.Interface().(type) {
	case *exec.Dict:
		return d.Pairs
	case exec.Dict:
		return d.Pairs
	}
	var pairs []*exec.Pair
	v.Iterate(func(_, _ int, k, val *exec.Value) bool {
		pairs = append(pairs, &exec.Pair{Key: k, Value: val})
		return true
	}, func() {})
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key.String() < pairs[j].Key.String() })
	return pairs
}

func dictGet(_ map[string]any, self *exec.Value, args *exec.VarArgs) (any, error) {
	if len(args.Args) < 1 || len(args.Args) > 2 || len(args.KwArgs) > 0 {
		return nil, fmt.Errorf("get() takes 1 or 2 positional arguments")
	}
	for _, p := range dictPairs(self) {
		if p.Key.EqualValueTo(args.Args[0]) {
			return p.Value.Interface(), nil
		}
	}
	if len(args.Args) == 2 {
		return args.Args[1].Interface(), nil
	}
	return none(), nil
}

func dictItems(_ map[string]any, self *exec.Value, args *exec.VarArgs) (any, error) {
	if len(args.Args)+len(args.KwArgs) > 0 {
		return nil, fmt.Errorf("items() takes no arguments")
	}
	pairs := dictPairs(self)
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = pyTuple{p.Key.Interface(), p.Value.Interface()}
	}
	return out, nil
}

func dictKeys(_ map[string]any, self *exec.Value, args *exec.VarArgs) (any, error) {
	if len(args.Args)+len(args.KwArgs) > 0 {
		return nil, fmt.Errorf("keys() takes no arguments")
	}
	pairs := dictPairs(self)
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = p.Key
	}
	return out, nil
}

func dictValues(_ map[string]any, self *exec.Value, args *exec.VarArgs) (any, error) {
	if len(args.Args)+len(args.KwArgs) > 0 {
		return nil, fmt.Errorf("values() takes no arguments")
	}
	pairs := dictPairs(self)
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = p.Value
	}
	return out, nil
}

func dictCopy(_ map[string]any, self *exec.Value, args *exec.VarArgs) (any, error) {
	if len(args.Args)+len(args.KwArgs) > 0 {
		return nil, fmt.Errorf("copy() takes no arguments")
	}
	d := exec.NewDict()
	d.Pairs = append(d.Pairs, dictPairs(self)...)
	return d, nil
}

func stateOf(e *exec.Evaluator) *renderState {
	if v, ok := e.Environment.Context.Get(varState); ok {
		if s, ok := v.(*renderState); ok {
			return s
		}
	}
	// Only reachable if a caller executes the tree without Render.
	return &renderState{}
}

// position reads the (text, line, col, ...) arguments the rewrite pass
// gives internal filters.
func position(params *exec.VarArgs) (text string, line, col int) {
	if len(params.Args) >= 3 {
		return params.Args[0].String(), params.Args[1].Integer(), params.Args[2].Integer()
	}
	return "?", 0, 0
}

// noAttributes stands in for None as the object of an attribute or item
// access: Jinja2 gives Undefined for None.x where gonja would fail.
type noAttributes struct{}

func (noAttributes) GetAttribute(string) (*exec.Value, bool) { return exec.AsValue(nil), false }
func (noAttributes) GetItem(any) (*exec.Value, bool)         { return exec.AsValue(nil), false }

func subjectFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	switch {
	case in.IsError():
		return in
	case isNone(in):
		return exec.AsValue(noAttributes{})
	case isUndefined(in):
		text, line, col := position(params)
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "UndefinedError", Line: line, Col: col,
			Msg: fmt.Sprintf("'%s' is undefined", text)}))
	}
	return in
}

func calleeFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if isUndefined(in) {
		text, line, col := position(params)
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "UndefinedError", Line: line, Col: col,
			Msg: fmt.Sprintf("'%s' is undefined", text)}))
	}
	// Macros, caller() and loop() of recursive loops can recurse without
	// end; Go would die of stack exhaustion where Python raises.
	switch f := in.Interface().(type) {
	case exec.Macro:
		return exec.AsValue(exec.Macro(stateOf(e).guardCall(f)))
	case func(*exec.VarArgs) *exec.Value:
		return exec.AsValue(stateOf(e).guardCall(f))
	}
	return in
}

// methodOwnerFilter checks the object of a method call: Jinja2 raises
// UndefinedError for a method of None, of an undefined value, or one the
// object does not have.
func methodOwnerFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	text, line, col := position(params)
	method := "?"
	if len(params.Args) >= 4 {
		method = params.Args[3].String()
	}
	var msg string
	switch {
	case isNone(in):
		msg = fmt.Sprintf("'None' has no attribute '%s' (%s is None)", method, text)
	case isUndefined(in):
		msg = fmt.Sprintf("'%s' is undefined", text)
	case in.IsError() || hasMethod(e.Environment.Methods, in, method):
		return in
	default:
		msg = fmt.Sprintf("'%s object' has no attribute '%s'", pyTypeName(in), method)
	}
	return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "UndefinedError", Line: line, Col: col, Msg: msg}))
}

// hasMethod reports whether gonja will find the method for v (evalMethod
// picks the set by the value's kind in this order).
func hasMethod(m exec.Methods, v *exec.Value, name string) bool {
	switch {
	case v.IsString():
		return m.Str.Exists(name)
	case v.IsBool():
		return m.Bool.Exists(name)
	case v.IsFloat():
		return m.Float.Exists(name)
	case v.IsInteger():
		return m.Int.Exists(name)
	case v.IsDict():
		return m.Dict.Exists(name)
	case v.IsList():
		return m.List.Exists(name)
	}
	return false
}

// trimFilter is Jinja2's trim(value, chars=None) on str(value).
func trimFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	s := ""
	if !isUndefined(in) {
		s = printable(in).String()
		if p := printable(in); p.IsBool() || p.IsInteger() {
			s = pyStr(p)
		}
	}
	out, err := pyStrip(s, params, true, true)
	if err != nil {
		return exec.AsValue(err)
	}
	return exec.AsValue(out)
}

func printFilter(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	return printable(in)
}

func iterableFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() || isUndefined(in) {
		// Jinja2 iterates Undefined as an empty sequence.
		return in
	}
	if in.IsString() {
		// gonja iterates strings by byte; Python by character.
		var chars []any
		for _, r := range in.String() {
			chars = append(chars, string(r))
		}
		return exec.AsValue(chars)
	}
	if in.IsList() || in.IsDict() {
		st := stateOf(e)
		if st.iterations += in.Len(); st.iterations > maxIterations {
			text, line, col := position(params)
			return exec.AsValue(st.fail(&RenderError{Kind: "Error", Line: line, Col: col,
				Msg: fmt.Sprintf("more than %d loop iterations in one render (at %s)", maxIterations, text)}))
		}
		return in
	}
	text, line, col := position(params)
	return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "TypeError", Line: line, Col: col,
		Msg: fmt.Sprintf("'%s' object is not iterable (%s)", pyTypeName(in), text)}))
}

// defaultFilter is Jinja2's default(value, default_value=”, boolean=False):
// it replaces Undefined (and, with boolean, any false value) but keeps None.
func defaultFilter(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	def := exec.AsValue("")
	boolean := false
	names := []string{"default_value", "boolean"}
	if len(params.Args) > len(names) {
		return exec.AsValue(fmt.Errorf("default: too many arguments"))
	}
	for i, a := range params.Args {
		if i == 0 {
			def = a
		} else {
			boolean = a.IsTrue()
		}
	}
	for k, a := range params.KwArgs {
		switch k {
		case "default_value":
			def = a
		case "boolean":
			boolean = a.IsTrue()
		default:
			return exec.AsValue(fmt.Errorf("default: unexpected keyword argument %q", k))
		}
	}
	if isUndefined(in) || (boolean && !in.IsTrue()) {
		return def
	}
	return in
}

func testDefined(_ *exec.Context, in *exec.Value, _ *exec.VarArgs) (bool, error) {
	return !in.IsError() && !isUndefined(in), nil
}

func testUndefined(_ *exec.Context, in *exec.Value, _ *exec.VarArgs) (bool, error) {
	return in.IsError() || isUndefined(in), nil
}

func testNone(_ *exec.Context, in *exec.Value, _ *exec.VarArgs) (bool, error) {
	return isNone(in), nil
}

// maxRange is Jinja2's sandbox limit on range() (MAX_RANGE).
const maxRange = 100000

// pyRange is Python's range as a list (gonja's streams through a goroutine
// that leaks when a loop breaks early).
func pyRange(args *exec.VarArgs) *exec.Value {
	if len(args.KwArgs) > 0 || len(args.Args) < 1 || len(args.Args) > 3 {
		return exec.AsValue(fmt.Errorf("range expects 1 to 3 integer arguments"))
	}
	var n [3]int
	for i, a := range args.Args {
		if !a.IsInteger() {
			return exec.AsValue(fmt.Errorf("range: '%s' object cannot be interpreted as an integer", pyTypeName(a)))
		}
		n[i] = a.Integer()
	}
	start, stop, step := 0, n[0], 1
	if len(args.Args) >= 2 {
		start, stop = n[0], n[1]
	}
	if len(args.Args) == 3 {
		step = n[2]
	}
	if step == 0 {
		return exec.AsValue(fmt.Errorf("range() arg 3 must not be zero"))
	}
	var out []any
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		if len(out) >= maxRange {
			return exec.AsValue(fmt.Errorf("OverflowError: range too big, maximum size for range is %d", maxRange))
		}
		out = append(out, i)
	}
	if out == nil {
		out = []any{}
	}
	return exec.AsValue(out)
}

// testIn is "x in seq" (gonja parses the operator as the test "in"), with
// Python's rules: substring for strings, equality for list items and dict
// keys, False for Undefined, TypeError for None and other non-containers.
func testIn(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if len(params.Args) != 1 {
		return false, fmt.Errorf("'in' needs one right-hand operand")
	}
	seq := params.Args[0]
	switch {
	case seq.IsError():
		return false, seq
	case isUndefined(seq):
		return false, nil
	case seq.IsString():
		if !in.IsString() {
			return false, stateOf(e).fail(&RenderError{Kind: "TypeError",
				Msg: fmt.Sprintf("'in <string>' requires string as left operand, not %s", pyTypeName(in))})
		}
		return strings.Contains(seq.String(), in.String()), nil
	case seq.IsDict():
		for _, p := range dictPairs(seq) {
			if pyEqual(p.Key, in) {
				return true, nil
			}
		}
		return false, nil
	case seq.IsList():
		for i := 0; i < seq.Len(); i++ {
			if pyEqual(seq.Index(i), in) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, stateOf(e).fail(&RenderError{Kind: "TypeError",
		Msg: fmt.Sprintf("argument of type '%s' is not iterable", pyTypeName(seq))})
}

package chattmpl

import (
	"fmt"
	"sort"

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
	must(filters.Register(filterStrictOperand, strictOperandFilter))
	must(filters.Register(filterConcatOperand, concatOperandFilter))
	must(filters.Register(filterIterable, iterableFilter))
	must(filters.Register(filterPrint, printFilter))

	tests := exec.NewTestSet(map[string]exec.TestFunction{}).Update(builtins.Tests)
	must(tests.Replace("defined", testDefined))
	must(tests.Replace("undefined", testUndefined))
	must(tests.Replace("none", testNone))

	// Statements: Jinja2's core set plus loop controls (jinja2.ext.
	// loopcontrols) and {% generation %}. include/import/extends/from/
	// block need a loader, which transformers does not give; with and
	// trans are left out as well (see doc.go).
	stmts := map[string]parser.ControlStructureParser{
		"set":        parseSet,
		"filter":     parseFilterBlock,
		"generation": parseGeneration,
	}
	for _, name := range []string{"for", "if", "macro", "call", "raw", "do", "break", "continue", "autoescape"} {
		p, ok := builtins.ControlStructures.Get(name)
		if !ok {
			panic(fmt.Sprintf("chattmpl: gonja has no %q statement", name))
		}
		stmts[name] = p
	}

	globals := map[string]any{}
	for _, name := range []string{"range", "dict", "namespace", "cycler", "joiner", "lipsum"} {
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
		Str:   m.Str,
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
		out[i] = []any{p.Key, p.Value}
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

func strictOperandFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() {
		return in
	}
	text, line, col := position(params)
	op := "?"
	if len(params.Args) >= 4 {
		op = params.Args[3].String()
	}
	switch {
	case isNone(in):
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "TypeError", Line: line, Col: col,
			Msg: fmt.Sprintf("unsupported operand type for %s: 'NoneType' (%s is None)", op, text)}))
	case isUndefined(in):
		return exec.AsValue(stateOf(e).fail(&RenderError{Kind: "UndefinedError", Line: line, Col: col,
			Msg: fmt.Sprintf("'%s' is undefined (operand of %s)", text, op)}))
	}
	return in
}

func concatOperandFilter(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if isNone(in) {
		return exec.AsValue("None")
	}
	return in
}

func printFilter(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
	if isNone(in) {
		return exec.AsValue("None")
	}
	return in
}

func iterableFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
	if in.IsError() || isUndefined(in) {
		// Jinja2 iterates Undefined as an empty sequence.
		return in
	}
	if in.IsList() || in.IsDict() || in.IsString() {
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

package chattmpl

import (
	"fmt"
	"strings"

	controlStructures "github.com/nikolalohinski/gonja/v2/builtins/control_structures"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// The rewrite pass runs once on the parsed tree and closes the gaps where
// gonja's evaluation differs from Jinja2's in ways that change the output
// or hide errors. It only inserts calls to internal filters (whose names
// contain ':' and so cannot be written in a template) or references to
// internal variables (names containing ':'):
//
//   - the literals none/None become a reference to the None sentinel, so
//     None and Undefined stay different values (gonja reads "none" as a
//     variable name and "nil" as None; Jinja2 the other way round);
//   - a macro parameter without default becomes Undefined (gonja uses None);
//   - "a op b" for + - * / // % ** < <= > >= == != ~ becomes
//     "a | binop(op, b)", which applies Python's rules (pyops.go), raises
//     UndefinedError / TypeError where Jinja2 does, and counts the size of
//     the strings and lists it builds against a per-render budget;
//   - "obj[key]" becomes "obj | getitem(key)": Python indexing (negative
//     indices, strings by character), Undefined for a missing item,
//     UndefinedError when obj itself is undefined;
//   - the object of an attribute or slice access passes through
//     filterSubject: Undefined raises UndefinedError, None yields Undefined;
//   - a tuple literal becomes a tuple (gonja builds a list);
//   - calling an undefined name raises UndefinedError (filterCallee), so
//     does calling a method of None or of an undefined value
//     (filterMethodOwner);
//   - the object of {% for %} passes through filterIterable, which raises
//     TypeError for None and non-iterables (Undefined iterates as empty)
//     and iterates strings by character;
//   - the value of {{ ... }} passes through filterPrint: Python's str() of
//     None, lists, dicts and floats.

const (
	filterBinop       = "chattmpl:binop"
	filterSubject     = "chattmpl:subject"
	filterGetitem     = "chattmpl:getitem"
	filterTuple       = "chattmpl:tuple"
	filterCallee      = "chattmpl:callee"
	filterMethodOwner = "chattmpl:owner"
	filterIterable    = "chattmpl:iterable"
	filterPrint       = "chattmpl:print"
	varNone           = "chattmpl:none"
	varUndefined      = "chattmpl:undefined" // never set: evaluates to Undefined
	varState          = "chattmpl:state"
)

type rewriter struct {
	// seen maps an expression already rewritten to its replacement; gonja
	// shares some nodes between parents (a method call's Parent is also
	// the node of its GetAttribute).
	seen     map[nodes.Node]nodes.Node
	wrappers map[*nodes.Wrapper]bool
}

func rewriteTemplate(root *nodes.Template) error {
	w := &rewriter{seen: map[nodes.Node]nodes.Node{}, wrappers: map[*nodes.Wrapper]bool{}}
	for i, n := range root.Nodes {
		nn, err := w.node(n)
		if err != nil {
			return err
		}
		root.Nodes[i] = nn
	}
	for _, m := range root.Macros {
		if err := w.macro(m); err != nil {
			return err
		}
	}
	return nil
}

func (w *rewriter) wrapper(wr *nodes.Wrapper) error {
	if wr == nil || w.wrappers[wr] {
		return nil
	}
	w.wrappers[wr] = true
	for i, n := range wr.Nodes {
		nn, err := w.node(n)
		if err != nil {
			return err
		}
		wr.Nodes[i] = nn
	}
	return nil
}

func (w *rewriter) macro(m *nodes.Macro) error {
	if w.seen[m] != nil {
		return nil
	}
	w.seen[m] = m
	for _, kw := range m.Kwargs {
		if n, ok := kw.Value.(*nodes.None); ok {
			if key, ok := kw.Key.(*nodes.String); ok && key.Location == n.Location {
				// gonja's stand-in for "no default given".
				kw.Value = internalName(varUndefined, n.Location)
				continue
			}
		}
		var err error
		if kw.Value, err = w.expr(kw.Value); err != nil {
			return err
		}
	}
	return w.wrapper(m.Wrapper)
}

// node rewrites a document-level node.
func (w *rewriter) node(n nodes.Node) (nodes.Node, error) {
	var err error
	switch t := n.(type) {
	case *nodes.Data, *nodes.Comment:
	case *nodes.Output:
		if t.Expression, err = w.expr(t.Expression); err != nil {
			return nil, err
		}
		t.Expression = withFilter(t.Expression, filterPrint)
		if t.Condition, err = w.expr(t.Condition); err != nil {
			return nil, err
		}
		if t.Alternative, err = w.expr(t.Alternative); err != nil {
			return nil, err
		}
		if t.Alternative != nil {
			t.Alternative = withFilter(t.Alternative, filterPrint)
		}
	case *nodes.ControlStructureBlock:
		if err := w.control(t.ControlStructure); err != nil {
			return nil, err
		}
	case *nodes.Wrapper:
		if err := w.wrapper(t); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unsupported template node %T", n)
	}
	return n, nil
}

func (w *rewriter) control(c nodes.ControlStructure) error {
	var err error
	switch t := c.(type) {
	case *controlStructures.ForControlStructure:
		if t.ObjectEvaluator, err = w.expr(t.ObjectEvaluator); err != nil {
			return err
		}
		t.ObjectEvaluator = withFilter(t.ObjectEvaluator, filterIterable)
		if t.IfCondition, err = w.expr(t.IfCondition); err != nil {
			return err
		}
		if err := w.wrapper(t.BodyWrapper); err != nil {
			return err
		}
		return w.wrapper(t.EmptyWrapper)
	case *controlStructures.IfControlStructure:
		for i := range t.Conditions {
			if t.Conditions[i], err = w.expr(t.Conditions[i]); err != nil {
				return err
			}
		}
		for _, wr := range t.Wrappers {
			if err := w.wrapper(wr); err != nil {
				return err
			}
		}
	case *setStmt:
		if t.Target, err = w.target(t.Target); err != nil {
			return err
		}
		for _, e := range []*nodes.Expression{&t.Expr, &t.Cond, &t.Alt} {
			if *e, err = w.expr(*e); err != nil {
				return err
			}
		}
		return w.wrapper(t.Body)
	case *filterBlock:
		for _, f := range t.Filters {
			if err := w.call(f.Args, f.Kwargs); err != nil {
				return err
			}
		}
		return w.wrapper(t.Body)
	case *generationBlock:
		return w.wrapper(t.Body)
	case *controlStructures.MacroControlStructure:
		return w.macro(t.Macro)
	case *controlStructures.CallControlStructure:
		if _, err := w.expr(t.Call); err != nil {
			return err
		}
		return w.wrapper(t.Body)
	case *controlStructures.AutoescapeControlStructure:
		return w.wrapper(t.Wrapper)
	case *controlStructures.BreakControlStructure, *controlStructures.ContinueControlStructure,
		*controlStructures.RawControlStructure:
	default:
		return fmt.Errorf("unsupported statement %T", c)
	}
	return nil
}

// target rewrites the inside of an assignment target without touching the
// target itself (a Name must stay a Name).
func (w *rewriter) target(e nodes.Expression) (nodes.Expression, error) {
	var err error
	if t, ok := e.(*nodes.GetAttribute); ok {
		t.Node, err = w.expr(t.Node)
	}
	return e, err
}

func (w *rewriter) call(args []nodes.Expression, kwargs map[string]nodes.Expression) error {
	var err error
	for i := range args {
		if args[i], err = w.expr(args[i]); err != nil {
			return err
		}
	}
	for k, v := range kwargs {
		if kwargs[k], err = w.expr(v); err != nil {
			return err
		}
	}
	return nil
}

// expr rewrites an expression and returns its replacement.
func (w *rewriter) expr(e nodes.Node) (nodes.Expression, error) {
	if e == nil {
		return nil, nil
	}
	if r, ok := w.seen[e]; ok {
		return r, nil
	}
	out, err := w.exprOnce(e)
	if err != nil {
		return nil, err
	}
	w.seen[e] = out
	return out, nil
}

func (w *rewriter) exprOnce(e nodes.Node) (nodes.Expression, error) {
	var err error
	switch t := e.(type) {
	case *nodes.None:
		if t.Location.Val == "nil" {
			// Not a keyword in Jinja2: an ordinary variable name.
			return internalName("nil", t.Location), nil
		}
		return internalName(varNone, t.Location), nil
	case *nodes.Name:
		if t.Name.Val == "none" {
			return internalName(varNone, t.Name), nil
		}
	case *nodes.String, *nodes.Integer, *nodes.Float, *nodes.Bool, *nodes.Error:
	case *nodes.List:
		err = w.call(t.Val, nil)
	case *nodes.Tuple:
		if err = w.call(t.Val, nil); err != nil {
			return nil, err
		}
		return &nodes.FilteredExpression{
			Expression: t,
			Filters:    []*nodes.FilterCall{{Token: t.Location, Name: filterTuple}},
		}, nil
	case *nodes.Dict:
		for _, p := range t.Pairs {
			if p.Key, err = w.expr(p.Key); err != nil {
				return nil, err
			}
			if p.Value, err = w.expr(p.Value); err != nil {
				return nil, err
			}
		}
	case *nodes.Pair:
		if t.Key, err = w.expr(t.Key); err == nil {
			t.Value, err = w.expr(t.Value)
		}
	case *nodes.Call:
		if t.Func, err = w.expr(t.Func); err != nil {
			return nil, err
		}
		if _, isName := t.Func.(*nodes.Name); isName {
			t.Func = withFilter(t.Func, filterCallee)
		}
		if t.Parent != nil {
			if t.Parent, err = w.expr(t.Parent); err != nil {
				return nil, err
			}
			if ga, ok := t.Func.(*nodes.GetAttribute); ok {
				t.Parent = withFilter(t.Parent, filterMethodOwner, ga.Attribute)
			}
		}
		err = w.call(t.Args, t.Kwargs)
	case *nodes.GetItem:
		obj, err := w.expr(t.Node)
		if err != nil {
			return nil, err
		}
		key, err := w.expr(t.Arg)
		if err != nil {
			return nil, err
		}
		pos := obj.Position()
		return &nodes.FilteredExpression{
			Expression: obj,
			Filters: []*nodes.FilterCall{{Token: t.Location, Name: filterGetitem, Args: []nodes.Expression{
				key,
				&nodes.String{Location: pos, Val: exprText(obj)},
				&nodes.Integer{Location: pos, Val: pos.Line},
				&nodes.Integer{Location: pos, Val: pos.Col},
			}}},
		}, nil
	case *nodes.GetSlice:
		for _, p := range []*nodes.Node{&t.Node, &t.Start, &t.End, &t.Step} {
			if *p == nil {
				continue
			}
			if *p, err = w.expr(*p); err != nil {
				return nil, err
			}
		}
		t.Node = withFilter(t.Node, filterSubject)
	case *nodes.GetAttribute:
		if t.Node, err = w.expr(t.Node); err != nil {
			return nil, err
		}
		t.Node = withFilter(t.Node, filterSubject)
	case *nodes.Negation:
		t.Term, err = w.expr(t.Term)
	case *nodes.UnaryExpression:
		t.Term, err = w.expr(t.Term)
	case *nodes.FilteredExpression:
		if t.Expression, err = w.expr(t.Expression); err != nil {
			return nil, err
		}
		for _, f := range t.Filters {
			if err = w.call(f.Args, f.Kwargs); err != nil {
				return nil, err
			}
		}
	case *nodes.TestExpression:
		if t.Expression, err = w.expr(t.Expression); err != nil {
			return nil, err
		}
		err = w.call(t.Test.Args, t.Test.Kwargs)
	case *nodes.BinaryExpression:
		if t.Left, err = w.expr(t.Left); err != nil {
			return nil, err
		}
		if t.Right, err = w.expr(t.Right); err != nil {
			return nil, err
		}
		switch t.Operator.Token.Type {
		case tokens.Addition, tokens.Subtraction, tokens.Multiply, tokens.Division,
			tokens.FloorDivision, tokens.Modulo, tokens.Power,
			tokens.LowerThan, tokens.LowerThanOrEqual, tokens.GreaterThan, tokens.GreaterThanOrEqual,
			tokens.Equals, tokens.Ne, tokens.Tilde:
			pos := t.Operator.Token
			return &nodes.FilteredExpression{
				Expression: t.Left,
				Filters: []*nodes.FilterCall{{Token: pos, Name: filterBinop, Args: []nodes.Expression{
					&nodes.String{Location: pos, Val: pos.Val},
					t.Right,
					&nodes.String{Location: pos, Val: exprText(t.Left)},
					&nodes.String{Location: pos, Val: exprText(t.Right)},
					&nodes.Integer{Location: pos, Val: pos.Line},
					&nodes.Integer{Location: pos, Val: pos.Col},
				}}},
			}, nil
		}
	default:
		return nil, fmt.Errorf("unsupported expression %T", e)
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// withFilter wraps e in an internal filter call. The filter gets the
// source text of e and its position, for error messages.
func withFilter(e nodes.Expression, name string, extra ...string) nodes.Expression {
	pos := e.Position()
	args := []nodes.Expression{
		&nodes.String{Location: pos, Val: exprText(e)},
		&nodes.Integer{Location: pos, Val: pos.Line},
		&nodes.Integer{Location: pos, Val: pos.Col},
	}
	for _, x := range extra {
		args = append(args, &nodes.String{Location: pos, Val: x})
	}
	return &nodes.FilteredExpression{
		Expression: e,
		Filters:    []*nodes.FilterCall{{Token: pos, Name: name, Args: args}},
	}
}

func internalName(name string, at *tokens.Token) *nodes.Name {
	tok := *at
	tok.Type = tokens.Name
	tok.Val = name
	return &nodes.Name{Name: &tok}
}

// exprText gives a short readable form of an expression for messages.
func exprText(e nodes.Node) string {
	switch t := e.(type) {
	case *nodes.Name:
		switch t.Name.Val {
		case varNone:
			return "none"
		case varUndefined:
			return "undefined"
		}
		return t.Name.Val
	case *nodes.String:
		return fmt.Sprintf("%q", t.Val)
	case *nodes.Integer, *nodes.Float, *nodes.Bool:
		return t.String()
	case *nodes.GetAttribute:
		if t.Attribute != "" {
			return exprText(t.Node) + "." + t.Attribute
		}
		return fmt.Sprintf("%s.%d", exprText(t.Node), t.Index)
	case *nodes.GetItem:
		return exprText(t.Node) + "[" + exprText(t.Arg) + "]"
	case *nodes.FilteredExpression:
		if len(t.Filters) == 1 && t.Filters[0].Name == filterBinop {
			f := t.Filters[0]
			return exprText(t.Expression) + " " + f.Args[0].(*nodes.String).Val + " " + exprText(f.Args[1])
		}
		if len(t.Filters) == 1 && t.Filters[0].Name == filterGetitem {
			return exprText(t.Expression) + "[" + exprText(t.Filters[0].Args[0]) + "]"
		}
		if len(t.Filters) == 1 && strings.HasPrefix(t.Filters[0].Name, "chattmpl:") {
			return exprText(t.Expression)
		}
		s := exprText(t.Expression)
		for _, f := range t.Filters {
			s += " | " + f.Name
		}
		return s
	case *nodes.BinaryExpression:
		return exprText(t.Left) + " " + t.Operator.Token.Val + " " + exprText(t.Right)
	case *nodes.Call:
		return exprText(t.Func) + "(...)"
	case *nodes.List:
		return "[...]"
	case *nodes.Tuple:
		return "(...)"
	case *nodes.Dict:
		return "{...}"
	}
	return e.String()
}

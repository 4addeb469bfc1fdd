package chattmpl

import (
	"fmt"
	"io"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// Our own {% set %}, {% filter %} and {% generation %} statements. gonja's
// set and filter keep their expressions in unexported fields, which the
// rewrite pass (rewrite.go) could not reach; these keep them exported and
// otherwise behave as Jinja2 does.

// setStmt is {% set target = expr [if cond else alt] %} or the block form
// {% set target %}...{% endset %}.
type setStmt struct {
	Location *tokens.Token
	Target   nodes.Expression
	Unpack   []*nodes.Name // "set a, b = ...": the names, Target unused
	Expr     nodes.Expression
	Cond     nodes.Expression
	Alt      nodes.Expression
	Body     *nodes.Wrapper
}

func (s *setStmt) Position() *tokens.Token { return s.Location }
func (s *setStmt) String() string {
	return fmt.Sprintf("set(line %d col %d)", s.Location.Line, s.Location.Col)
}

func parseSet(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	s := &setStmt{Location: p.Current()}
	target, err := args.ParseVariableOrLiteral()
	if err != nil {
		return nil, fmt.Errorf("set: target: %w", err)
	}
	switch target.(type) {
	case *nodes.Name, *nodes.GetAttribute:
		// Jinja2 assigns to names and to namespace attributes only.
		s.Target = target
	default:
		return nil, args.Error("set: can only assign to a name or a namespace attribute", target.Position())
	}
	for args.Match(tokens.Comma) != nil {
		if len(s.Unpack) == 0 {
			first, ok := target.(*nodes.Name)
			if !ok {
				return nil, args.Error("set: can only unpack into names", target.Position())
			}
			s.Unpack = append(s.Unpack, first)
		}
		next, err := args.ParseVariableOrLiteral()
		if err != nil {
			return nil, fmt.Errorf("set: target: %w", err)
		}
		name, ok := next.(*nodes.Name)
		if !ok {
			return nil, args.Error("set: can only unpack into names", next.Position())
		}
		s.Unpack = append(s.Unpack, name)
	}
	if len(s.Unpack) > 0 && args.Current(tokens.Assign) == nil {
		return nil, args.Error("set: expected '=' after the names", args.Current())
	}
	if args.Match(tokens.Assign) == nil {
		if !args.End() {
			return nil, args.Error("set: expected '=' or the end of the tag", args.Current())
		}
		body, endArgs, err := p.WrapUntil("endset")
		if err != nil {
			return nil, err
		}
		if !endArgs.End() {
			return nil, endArgs.Error("endset takes no arguments", nil)
		}
		s.Body = body
		return s, nil
	}
	if s.Expr, err = args.ParseExpression(); err != nil {
		return nil, err
	}
	if comma := args.Current(tokens.Comma); comma != nil {
		// "set x = 1, 2" assigns a tuple.
		items := []nodes.Expression{s.Expr}
		for args.Match(tokens.Comma) != nil {
			if args.End() {
				break
			}
			e, err := args.ParseExpression()
			if err != nil {
				return nil, err
			}
			items = append(items, e)
		}
		s.Expr = &nodes.Tuple{Location: comma, Val: items}
	}
	if s.Cond, s.Alt, err = args.ParseCondition(); err != nil {
		return nil, err
	}
	if !args.End() {
		return nil, args.Error("set: unexpected tokens after the expression", args.Current())
	}
	return s, nil
}

func (s *setStmt) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	var value *exec.Value
	switch {
	case s.Body != nil:
		var buf strings.Builder
		sub := r.Inherit()
		sub.Output = &buf
		if err := sub.ExecuteWrapper(s.Body); err != nil {
			return err
		}
		value = exec.AsSafeValue(buf.String())
	case s.Cond != nil:
		c := r.Eval(s.Cond)
		if c.IsError() {
			return c
		}
		if c.IsTrue() {
			value = r.Eval(s.Expr)
		} else if s.Alt != nil {
			value = r.Eval(s.Alt)
		} else {
			// Jinja2: "x if c" without else yields Undefined.
			value = exec.AsValue(nil)
		}
	default:
		value = r.Eval(s.Expr)
	}
	if value.IsError() {
		return value
	}
	if len(s.Unpack) > 0 {
		if !value.IsList() {
			return fmt.Errorf("set: cannot unpack %s", pyTypeName(value))
		}
		if value.Len() != len(s.Unpack) {
			return fmt.Errorf("set: expected %d values to unpack, got %d", len(s.Unpack), value.Len())
		}
		for i, n := range s.Unpack {
			r.Environment.Context.Set(n.Name.Val, value.Index(i).Interface())
		}
		return nil
	}
	switch t := s.Target.(type) {
	case *nodes.Name:
		r.Environment.Context.Set(t.Name.Val, value.Interface())
	case *nodes.GetAttribute:
		obj := r.Eval(t.Node)
		if obj.IsError() {
			return obj
		}
		// namespace() objects are plain maps; anything else (messages,
		// tools, dict literals) is read-only, as in Jinja2's sandbox.
		if _, isNamespace := obj.Interface().(map[string]any); !isNamespace {
			return fmt.Errorf("set: cannot assign attribute %q on a non-namespace object (%s)", t.Attribute, pyTypeName(obj))
		}
		if err := obj.Set(exec.AsValue(t.Attribute), value.Interface()); err != nil {
			return fmt.Errorf("set %s: %w", t, err)
		}
	}
	return nil
}

// filterBlock is {% filter f1 | f2(args) %}...{% endfilter %}.
type filterBlock struct {
	Location *tokens.Token
	Body     *nodes.Wrapper
	Filters  []*nodes.FilterCall
}

func (f *filterBlock) Position() *tokens.Token { return f.Location }
func (f *filterBlock) String() string {
	return fmt.Sprintf("filter(line %d col %d)", f.Location.Line, f.Location.Col)
}

func parseFilterBlock(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	f := &filterBlock{Location: p.Current()}
	for !args.End() {
		call, err := args.ParseFilter()
		if err != nil {
			return nil, err
		}
		f.Filters = append(f.Filters, call)
		if args.Match(tokens.Pipe) == nil {
			break
		}
	}
	if len(f.Filters) == 0 {
		return nil, args.Error("filter: expected a filter name", nil)
	}
	if !args.End() {
		return nil, args.Error("filter: unexpected tokens after the filters", args.Current())
	}
	body, _, err := p.WrapUntil("endfilter")
	if err != nil {
		return nil, err
	}
	f.Body = body
	return f, nil
}

func (f *filterBlock) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	var buf strings.Builder
	sub := r.Inherit()
	sub.Output = &buf
	if err := sub.ExecuteWrapper(f.Body); err != nil {
		return err
	}
	value := exec.AsValue(buf.String())
	ev := r.Evaluator()
	for _, call := range f.Filters {
		value = ev.ExecuteFilter(call, value)
		if value.IsError() {
			return fmt.Errorf("filter %s (line %d col %d): %w", call.Name, call.Token.Line, call.Token.Col, value)
		}
	}
	_, err := io.WriteString(r.Output, value.String())
	return err
}

// generationBlock is transformers' {% generation %}...{% endgeneration %}
// (AssistantTracker): it marks assistant text for training masks and, when
// rendering a prompt, simply renders its body.
type generationBlock struct {
	Location *tokens.Token
	Body     *nodes.Wrapper
}

func (g *generationBlock) Position() *tokens.Token { return g.Location }
func (g *generationBlock) String() string {
	return fmt.Sprintf("generation(line %d col %d)", g.Location.Line, g.Location.Col)
}

func parseGeneration(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	if !args.End() {
		return nil, args.Error("generation takes no arguments", args.Current())
	}
	g := &generationBlock{Location: p.Current()}
	body, endArgs, err := p.WrapUntil("endgeneration")
	if err != nil {
		return nil, err
	}
	if !endArgs.End() {
		return nil, endArgs.Error("endgeneration takes no arguments", nil)
	}
	g.Body = body
	return g, nil
}

func (g *generationBlock) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	// transformers compiles the tag to a CallBlock, whose body is a
	// nested scope: assignments inside do not leak out.
	return r.ExecuteWrapper(g.Body)
}

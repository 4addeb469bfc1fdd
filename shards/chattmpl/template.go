package chattmpl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// Message is one chat message. Extra holds the other keys of an OpenAI
// message (name, tool_calls, tool_call_id, ...), passed through to the
// template; Extra["content"], if present, replaces Content (so content can
// be null or a list of parts). Values may be Go scalars, []any,
// map[string]any (seen with sorted keys), Object (key order kept) or nil
// (None).
type Message struct {
	Role    string
	Content string
	Extra   map[string]any
}

// Options are the render-time inputs besides the messages.
type Options struct {
	// BOS and EOS are bos_token and eos_token. nil leaves the variable
	// undefined, as transformers does for a token that is null.
	BOS, EOS *string
	// AddGenerationPrompt is add_generation_prompt: end with the header
	// that opens the assistant's turn.
	AddGenerationPrompt bool
	// Now is the clock behind strftime_now; nil means time.Now.
	Now func() time.Time
	// Tools is the tools list; nil passes tools=None, as transformers does.
	// Go maps have no key order, so templates see their keys sorted.
	Tools []map[string]any
	// ToolObjects, when non-nil, is used instead of Tools and keeps each
	// object's key order (e.g. from DecodeJSON), which shows in tojson.
	ToolObjects []Object
	// Vars are further template variables, like the extra keyword
	// arguments of apply_chat_template (e.g. enable_thinking). They cannot
	// replace the variables above.
	Vars map[string]any
}

// Template is a compiled chat template. It is safe for concurrent use.
type Template struct {
	tpl *exec.Template
}

// ErrRaised is matched (errors.Is) by the error of a render that the
// template aborted with raise_exception.
var ErrRaised = errors.New("template raised an exception")

// RenderError is the error of a failed render. Msg is the template's own
// message for raise_exception, otherwise a description in Jinja2's terms
// (UndefinedError, TypeError) with the position when known.
type RenderError struct {
	Kind string // "TemplateError" (raise_exception), "UndefinedError", "TypeError", "RecursionError" or "Error"
	Msg  string
	Line int // 0 when unknown
	Col  int
	// Cause is the engine's own error, with its call chain, when the
	// failure did not come from one of our checks.
	Cause error
}

func (e *RenderError) Error() string {
	var b strings.Builder
	b.WriteString("chat template: ")
	if e.Kind == "TemplateError" {
		b.WriteString("raise_exception: ")
	} else if e.Kind != "" && e.Kind != "Error" {
		b.WriteString(e.Kind + ": ")
	}
	b.WriteString(e.Msg)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d col %d)", e.Line, e.Col)
	}
	return b.String()
}

func (e *RenderError) Unwrap() []error {
	var errs []error
	if e.Kind == "TemplateError" {
		errs = append(errs, ErrRaised)
	}
	if e.Cause != nil {
		errs = append(errs, e.Cause)
	}
	return errs
}

// engineFailure starts the message of an error that comes from a panic
// inside the template engine.
const engineFailure = "template engine failure"

// renderState is per-render. err is the first error raised by
// raise_exception or by one of the internal checks (gonja flattens errors
// returned by functions and filters into strings, so the precise error is
// kept here); the counters enforce the limits below.
type renderState struct {
	err        *RenderError
	depth      int // macro / recursive-loop call depth
	iterations int // loop iterations so far
	built      int // bytes of strings/lists made by operators so far
}

// Limits that keep a hostile or broken template from exhausting the
// process: Jinja2 would stop infinite recursion with RecursionError; the
// others bound work and memory where Python would merely be slow.
const (
	maxCallDepth  = 200
	maxIterations = 1 << 18
	maxOutput     = 64 << 20
	maxBuilt      = 1 << 30
)

// guardCall wraps a macro or loop() callable with the recursion limit. A
// render runs on one goroutine, so the counter needs no lock.
func (s *renderState) guardCall(f func(*exec.VarArgs) *exec.Value) func(*exec.VarArgs) *exec.Value {
	return func(va *exec.VarArgs) *exec.Value {
		if s.depth >= maxCallDepth {
			return exec.AsValue(s.fail(&RenderError{Kind: "RecursionError",
				Msg: fmt.Sprintf("maximum call depth (%d) exceeded", maxCallDepth)}))
		}
		s.depth++
		defer func() { s.depth-- }()
		return f(va)
	}
}

// limitedBuilder is the render output, refusing to grow past maxOutput.
type limitedBuilder struct {
	strings.Builder
	state *renderState
}

func (b *limitedBuilder) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxOutput {
		return 0, b.state.fail(&RenderError{Kind: "Error", Msg: fmt.Sprintf("rendered prompt exceeds %d bytes", maxOutput)})
	}
	return b.Builder.Write(p)
}

func (b *limitedBuilder) WriteString(p string) (int, error) {
	if b.Len()+len(p) > maxOutput {
		return 0, b.state.fail(&RenderError{Kind: "Error", Msg: fmt.Sprintf("rendered prompt exceeds %d bytes", maxOutput)})
	}
	return b.Builder.WriteString(p)
}

func (s *renderState) fail(e *RenderError) error {
	if s.err == nil {
		s.err = e
	}
	return e
}

// Parse compiles a chat template. The error names the problem and its line
// and column (gonja's, or, where gonja's parser gives none, those of the
// first tag that does not parse alone).
func Parse(src string) (*Template, error) {
	return parseNamed("chat_template", src)
}

func parseNamed(name, src string) (t *Template, err error) {
	// A template comes from a model file: a parser bug must not take the
	// process down.
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("chat template: parse: %s: %v", engineFailure, p)
		}
	}()
	cfg := config.New()
	cfg.TrimBlocks = true
	cfg.LeftStripBlocks = false // done by lstripBlocks, see lstrip.go
	cfg.KeepTrailingNewline = false
	cfg.AutoEscape = false
	if err := checkTokens(src, cfg); err != nil {
		return nil, fmt.Errorf("chat template: parse: %w", err)
	}
	tpl, err := compile(name, src, cfg)
	if err != nil {
		if !strings.Contains(err.Error(), "Line:") {
			if at := locateBadTag(src, cfg); at != "" {
				err = fmt.Errorf("%w %s", err, at)
			}
		}
		return nil, fmt.Errorf("chat template: parse: %w", err)
	}
	if err := rewriteTemplate(tpl.Root()); err != nil {
		return nil, fmt.Errorf("chat template: %w", err)
	}
	return &Template{tpl: tpl}, nil
}

// badVariable checks the expression tag {{ ... }} that toks begins with,
// alone; it returns its position when that does not parse.
func badVariable(src string, toks []*tokens.Token, cfg *config.Config) string {
	t := toks[0]
	for _, u := range toks[1:] {
		switch u.Type {
		case tokens.VariableEnd:
			end := u.Pos + len(u.Val)
			if end <= len(src) && t.Pos <= end && !compiles(src[t.Pos:end], cfg) {
				return fmt.Sprintf("(Line: %d Col: %d, in this expression)", t.Line, t.Col)
			}
			return ""
		case tokens.VariableBegin, tokens.BlockBegin, tokens.EOF, tokens.Error:
			return fmt.Sprintf("(Line: %d Col: %d, the expression is not closed by %q)", t.Line, t.Col, cfg.VariableEndString)
		}
	}
	return ""
}

// compile runs gonja's parser over the rewritten source.
func compile(name, src string, cfg *config.Config) (*exec.Template, error) {
	tpl, err := exec.NewTemplate(name, cfg, &sourceLoader{name: name, src: rewriteExpressions(lstripBlocks(src))}, newEnvironment())
	if err != nil {
		// gonja's message quotes the whole source; keep only the cause.
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return nil, err
	}
	return tpl, nil
}

// compiles tells whether src parses; a panic of the parser counts as no.
func compiles(src string, cfg *config.Config) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_, err := compile("tag", src, cfg)
	return err == nil
}

// checkTokens refuses token sequences that gonja's parser does not check
// and walks past the end of the template on (a nil dereference): a test
// ("is", "is not") without a test name after it. It lexes the source as
// the author wrote it, so the position is theirs.
func checkTokens(src string, cfg *config.Config) error {
	var toks []*tokens.Token
	st := tokens.LexAll(src, cfg)
	for t := st.Current(); t != nil; t = st.Current() {
		toks = append(toks, t)
		if st.End() {
			break
		}
		st.Next()
	}
	for i, t := range toks {
		if t.Type != tokens.Is {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].Type == tokens.Not {
			j++
		}
		if j < len(toks) && (toks[j].Type == tokens.Name || toks[j].Type == tokens.In) {
			continue
		}
		at := t
		if j < len(toks) {
			at = toks[j]
		}
		return fmt.Errorf("expected a test name after %q (Line: %d Col: %d, near %q)", "is", at.Line, at.Col, at.Val)
	}
	return nil
}

// locateBadTag names the position of the first block tag that does not
// parse even alone (with its end tag), for the errors of gonja's parser
// that carry no position (a malformed "if" or "for" condition, mostly).
// It returns "" when no tag fails alone.
func locateBadTag(src string, cfg *config.Config) string {
	var toks []*tokens.Token
	st := tokens.LexAll(src, cfg)
	for t := st.Current(); t != nil; t = st.Current() {
		toks = append(toks, t)
		if st.End() {
			break
		}
		st.Next()
	}
	for i, t := range toks {
		if t.Type == tokens.VariableBegin {
			if at := badVariable(src, toks[i:], cfg); at != "" {
				return at
			}
			continue
		}
		if t.Type != tokens.BlockBegin || i+1 >= len(toks) || toks[i+1].Type != tokens.Name {
			continue
		}
		name := toks[i+1].Val
		end, args := -1, 0
		for j := i + 2; j < len(toks) && end < 0; j++ {
			switch toks[j].Type {
			case tokens.BlockEnd:
				end = toks[j].Pos + len(toks[j].Val)
			case tokens.BlockBegin, tokens.EOF, tokens.Error:
				j = len(toks)
			default:
				args++
			}
		}
		if end < 0 || end > len(src) || t.Pos > end {
			return fmt.Sprintf("(Line: %d Col: %d, the %q tag is not closed by %q)", t.Line, t.Col, name, cfg.BlockEndString)
		}
		tag := src[t.Pos:end]
		var tries []string
		switch name {
		case "if", "for", "macro", "call", "filter", "with", "block":
			tries = []string{tag + "{% end" + name + " %}"}
		case "elif", "else", "break", "continue":
			tries = []string{"{% if true %}" + tag + "{% endif %}", "{% for x in [] %}" + tag + "{% endfor %}"}
		case "set":
			tries = []string{tag, tag + "{% endset %}"}
		case "endif", "endfor", "endmacro", "endcall", "endfilter", "endwith", "endblock", "endset", "endraw", "raw":
			// Closers only make sense with their opener; they take no
			// arguments.
			if args > 0 && name != "raw" {
				return fmt.Sprintf("(Line: %d Col: %d, in the %q tag)", t.Line, t.Col, name)
			}
			continue
		default:
			tries = []string{tag}
		}
		ok := false
		for _, try := range tries {
			if compiles(try, cfg) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Sprintf("(Line: %d Col: %d, in the %q tag)", t.Line, t.Col, name)
		}
	}
	return ""
}

// Render renders the conversation. A template that calls raise_exception
// gives an error whose message contains the template's message and that
// matches ErrRaised.
func (t *Template) Render(msgs []Message, o Options) (out string, err error) {
	// Templates come from model files; a gonja bug reachable from one must
	// not take the process down.
	defer func() {
		if p := recover(); p != nil {
			out, err = "", &RenderError{Kind: "Error", Msg: fmt.Sprintf("%s: %v", engineFailure, p)}
		}
	}()
	state := &renderState{}
	data, err := renderVars(msgs, o, state)
	if err != nil {
		return "", err
	}
	b := &limitedBuilder{state: state}
	execErr := t.tpl.Execute(b, exec.NewContext(data))
	if state.err != nil {
		return "", state.err
	}
	if execErr != nil {
		return "", &RenderError{Kind: "Error", Msg: trimEngineError(execErr), Cause: execErr}
	}
	return b.String(), nil
}

// trimEngineError shortens gonja's nested message: it drops the wrappers
// our internal filters add (their names mean nothing to a template author)
// and keeps the first "at line N" as the position.
func trimEngineError(err error) string {
	full := err.Error()
	msg := strings.TrimPrefix(full, "unable to execute template: ")
	const internal = "invalid call to filter 'chattmpl:"
	cleaned := false
	if i := strings.LastIndex(msg, internal); i >= 0 {
		if j := strings.Index(msg[i:], "': "); j >= 0 {
			msg, cleaned = msg[i+j+3:], true
		}
	}
	for {
		i := strings.Index(msg, "unable to evaluate filter &{")
		if i < 0 {
			break
		}
		j := strings.Index(msg[i:], "]}: ")
		if j < 0 {
			break
		}
		msg, cleaned = msg[:i]+msg[i+j+4:], true
	}
	if cleaned {
		if i := strings.Index(full, " at line "); i >= 0 {
			n := full[i+len(" at line "):]
			if k := strings.IndexFunc(n, func(r rune) bool { return r < '0' || r > '9' }); k > 0 {
				msg += " (line " + n[:k] + ")"
			}
		}
	}
	return msg
}

func renderVars(msgs []Message, o Options, state *renderState) (map[string]any, error) {
	data := map[string]any{}
	for k, v := range o.Vars {
		cv, err := toTemplate(v)
		if err != nil {
			return nil, fmt.Errorf("chat template: variable %s: %w", k, err)
		}
		data[k] = cv
	}
	list := make([]any, len(msgs))
	for i, m := range msgs {
		d, err := messageDict(m)
		if err != nil {
			return nil, fmt.Errorf("chat template: messages[%d]: %w", i, err)
		}
		list[i] = d
	}
	data["messages"] = list
	data["add_generation_prompt"] = o.AddGenerationPrompt
	switch {
	case o.ToolObjects != nil:
		tools := make([]any, len(o.ToolObjects))
		for i, obj := range o.ToolObjects {
			cv, err := toTemplate(obj)
			if err != nil {
				return nil, fmt.Errorf("chat template: tools[%d]: %w", i, err)
			}
			tools[i] = cv
		}
		data["tools"] = tools
	case o.Tools == nil:
		data["tools"] = none()
	default:
		tools, err := toTemplate(o.Tools)
		if err != nil {
			return nil, fmt.Errorf("chat template: tools: %w", err)
		}
		data["tools"] = tools
	}
	if _, ok := data["documents"]; !ok {
		data["documents"] = none()
	}
	if o.BOS != nil {
		data["bos_token"] = *o.BOS
	}
	if o.EOS != nil {
		data["eos_token"] = *o.EOS
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	data["strftime_now"] = func(format string) string { return strftime(format, now()) }
	data["raise_exception"] = func(va *exec.VarArgs) *exec.Value {
		msg := ""
		if len(va.Args) > 0 {
			msg = va.Args[0].String()
		}
		return exec.AsValue(state.fail(&RenderError{Kind: "TemplateError", Msg: msg}))
	}
	data[varNone] = none()
	data[varState] = state
	return data, nil
}

// sourceLoader serves the template's own source and nothing else: chat
// templates come from model files and must not read the file system.
type sourceLoader struct {
	name, src string
}

func (l *sourceLoader) Read(path string) (io.Reader, error) {
	if path != l.name {
		return nil, fmt.Errorf("templates cannot load other templates (%q)", path)
	}
	return strings.NewReader(l.src), nil
}

func (l *sourceLoader) Resolve(path string) (string, error) { return path, nil }

func (l *sourceLoader) Inherit(string) (loaders.Loader, error) { return l, nil }

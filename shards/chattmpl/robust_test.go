package chattmpl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
)

// TestMalformedTemplates cuts every fixture template at many points and
// mangles it; parsing and rendering must give a result or an error, the
// engine must never panic (a recovered panic would show as
// engineFailure), and every parse error names a line.
func TestMalformedTemplates(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedDir(t), "templates", "*.jinja"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates: %v", err)
	}
	msgs := []Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}, {Role: "assistant", Content: "a"}, {Role: "user", Content: "v"}}
	tried, failures := 0, 0
	check := func(name, src string) {
		tried++
		tpl, err := Parse(src)
		if err != nil {
			failures++
			if strings.Contains(err.Error(), engineFailure) {
				t.Errorf("%s: parser panicked: %v", name, err)
			}
			if strings.HasPrefix(err.Error(), "chat template: parse:") && !strings.Contains(err.Error(), "(Line: ") {
				t.Errorf("%s: parse error names no line: %v", name, err)
			}
			return
		}
		if _, err := tpl.Render(msgs, Options{BOS: strp("<s>"), EOS: strp("</s>"), AddGenerationPrompt: true}); err != nil {
			failures++
			if strings.Contains(err.Error(), engineFailure) {
				t.Errorf("%s: engine panicked: %v", name, err)
			}
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		step := max(len(src)/60, 1)
		for cut := 0; cut < len(src); cut += step {
			check(filepath.Base(f)+" cut", src[:cut])
			check(filepath.Base(f)+" drop", src[:cut]+src[min(cut+7, len(src)):])
		}
	}
	t.Logf("%d variants, %d failed with an error, none panicked", tried, failures)
}

// TestRunawayTemplates: endless recursion and huge loops end in errors.
func TestRunawayTemplates(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "maximum call depth"},
		{"{% for x in [[1]] recursive %}{{ loop([x]) }}{% endfor %}", "maximum call depth"},
		{"{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}", "loop iterations"},
		{"{% set s = 'x' * 4000000 %}{% for i in range(100) %}{{ s }}{% endfor %}", "exceeds"},
		{"{% set ns = namespace(s='') %}{% for i in range(100000) %}{% set ns.s = ns.s ~ 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' %}{% endfor %}", "bytes of strings"},
		{"{{ 'x' * 100000000 }}", "too long"},
	} {
		tpl, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		_, err = tpl.Render(nil, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.src, err, c.want)
		}
	}
}

// TestTestWithoutName: a test with no name after "is" made gonja's parser
// walk past the end of the template (found by FuzzTemplate); it is a parse
// error naming the line and column, not a recovered panic.
func TestTestWithoutName(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{%if 0 is %}0", "(Line: 1 Col: 11"},
		{"{{ x }}\n{% if x is not %}y{% endif %}", "(Line: 2 Col: 16"},
	} {
		_, err := Parse(c.src)
		if err == nil || strings.Contains(err.Error(), engineFailure) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a parse error at %s", c.src, err, c.want)
		}
	}
	// Tests with names still parse.
	if _, err := Parse("{{ x is none }}{{ x is not in [1] }}{% if x is not defined %}{% endif %}"); err != nil {
		t.Errorf("valid tests refused: %v", err)
	}
}

// TestParseErrorPositions: where gonja's parser names no position, the
// error names the tag that does not parse alone.
func TestParseErrorPositions(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"a\n {% if x is\n %}", `(Line: 2 Col: 2, in the "if" tag)`},
		{"x\n\n  {% if a %}{% for in y %}{% endfor %}{% endif %}", `(Line: 3 Col: 13, in the "for" tag)`},
		{"{% for m in messages %}\n{% if m %}{{ m + }}{% endif %}{% endfor %}", "(Line: 2 Col: 18"},
		{"{% for m in messages %}{% endfor x %}", `in the "endfor" tag`},
		{"{% if a %}\n{% for m in b %}", "(Line: 2 Col: 1"},
	} {
		_, err := Parse(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.src, err, c.want)
		}
	}
}

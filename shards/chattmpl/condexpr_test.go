package chattmpl

import "testing"

func TestRewriteConditionals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Top-level conditionals are gonja's; text and comments untouched.
		{"{{ a if b else c }} (x if y else z) {# (p if q else r) #}", "{{ a if b else c }} (x if y else z) {# (p if q else r) #}"},
		{"{% for m in ms if m.ok %}{% endfor %}", "{% for m in ms if m.ok %}{% endfor %}"},
		{"{{ 'a' + (p if loop.first else \"\") }}", "{{ 'a' + (((loop.first) and [p] or [\"\"])[0]) }}"},
		{"{{ (a\nif b\nelse c) }}\n", "{{ (((b) and [a] or [c])[0]\n\n) }}\n"},
		{"{{- f(x if c else y, k=1 if d else 2) -}}", "{{- f(((c) and [x] or [y])[0], k=((d) and [1] or [2])[0]) -}}"},
		{"{% set v = [a if b else c] %}", "{% set v = [((b) and [a] or [c])[0]] %}"},
		{"{{ (a if b) }}", "{{ (((b) and [a] or [" + undefinedName + "])[0]) }}"},
		{"{{ (a if b else c if d else e) }}", "{{ (((b) and [a] or [((d) and [c] or [e])[0]])[0]) }}"},
		{"{{ ('if' if x else 'else') }}", "{{ (((x) and ['if'] or ['else'])[0]) }}"},
	} {
		if got := rewriteExpressions(c.in); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestNestedConditionals renders nested conditionals; expectations are
// jinja2's.
func TestNestedConditionals(t *testing.T) {
	msgs := []Message{{Role: "user", Content: "a"}, {Role: "user", Content: "b"}}
	for _, c := range []struct{ src, want string }{
		{"{% for m in messages %}{{ '<' + (m.content if loop.first else '-') + '>' }}{% endfor %}", "<a><->"},
		{"{{ ('a' if true else 'b') | upper }}", "A"},
		{"{{ [1 if false else 2, 3] }}", "[2, 3]"},
		{"{{ (0 if true else 1) }}|{{ ('' if true else 'x') }}|{{ (none if true else 1) }}", "0||None"},
		{"{{ (x if false) is defined }}", "False"},
		{"{{ (raise_exception('no') if false else 'ok') }}", "ok"},
		{"{{ f(1 if true else 2) if false else 'top' }}", "top"},
	} {
		if got := mustRender(t, c.src, msgs, Options{}); got != c.want {
			t.Errorf("%q: got %q want %q", c.src, got, c.want)
		}
	}
}

func TestParenthesizeIn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{{ 'user' in messages | map(attribute='role') | list }}", "{{ 'user' in (messages | map(attribute='role') | list) }}"},
		{"{% if 'x' not in a ~ b and c in d %}", "{% if 'x' not in (a ~ b) and c in (d) %}"},
		{"{{ f(x in y, 2) }}", "{{ f(x in (y), 2) }}"},
		{"{{ x in y is not none }}", "{{ x in (y is not none) }}"},
		{"{% for k in items if 'a' in k %}{% endfor %}", "{% for k in items if 'a' in k %}{% endfor %}"},
		{"{{ 'in' ~ index }}", "{{ 'in' ~ index }}"},
	} {
		if got := rewriteExpressions(c.in); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestSplitChains(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{{ 1 < 3 < 2 }}", "{{ (1 < 3) and (3 < 2) }}"},
		{"{% if a == b and 0 <= x < n %}", "{% if a == b and (0 <= x) and (x < n) %}"},
		{"{{ f(a < b < c) }}", "{{ f((a < b) and (b < c)) }}"},
		{"{{ a < b }}", "{{ a < b }}"},
	} {
		if got := rewriteExpressions(c.in); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	if got := mustRender(t, "{{ 1 < 3 < 2 }}|{{ 1 < 2 < 3 }}|{{ (1 < 3) < 2 }}|{{ 3 > 2 > 1 == 1 }}", nil, Options{}); got != "False|True|True|True" {
		t.Errorf("got %q", got)
	}
}

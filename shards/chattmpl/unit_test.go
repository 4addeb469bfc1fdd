package chattmpl

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func mustRender(t *testing.T, src string, msgs []Message, o Options) string {
	t.Helper()
	tpl, err := Parse(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	out, err := tpl.Render(msgs, o)
	if err != nil {
		t.Fatalf("render %q: %v", src, err)
	}
	return out
}

func strp(s string) *string { return &s }

// TestWhitespaceControl pins trim_blocks / lstrip_blocks / "-" / "+"
// behaviour; every expectation is what jinja2 3.1 renders with
// trim_blocks=True, lstrip_blocks=True.
func TestWhitespaceControl(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		// trim_blocks: the newline after a block tag goes.
		{"{% if true %}\nx\n{% endif %}\n", "x\n"},
		// lstrip_blocks: indentation before a tag alone on its line goes.
		{"a\n  {% if true %}\n  b\n  {% endif %}\nc\n", "a\n  b\nc"},
		// ...but not when text or an expression precedes it on the line.
		{"{% if true %}a {{ 1 }}  {% endif %}|", "a 1  |"},
		{"x  {% if true %}y{% endif %}  z", "x  y  z"},
		{"{{ 'a' }}  {% if true %}  b{% endif %}", "a    b"},
		// "+" keeps the indentation; "-" strips all whitespace, newlines too.
		{"line\n    {%+ if true %}x{% endif %}\n", "line\n    x"},
		{"a  {% if true -%}  \n  b{% endif %}", "a  b"},
		{"  {%- if true -%}  \n  x  \n  {%- endif -%}  \n  y", "xy"},
		// Comments get the same treatment.
		{"{# c #}\n  {# d #}\nz", "z"},
		// Variables are never lstripped; the trailing newline of the
		// template goes (keep_trailing_newline=False).
		{"  {{ 'x' }}\n  {% set y = 1 %}\n{{ y }}\n", "  x\n1"},
		{"end\n\n", "end\n"},
		// CRLF is normalised.
		{"x\r\n{% if true %}\r\ny{% endif %}\r\n", "x\ny"},
		// Whitespace inside tags and strings does not confuse the scan.
		{"{{ '%}' }}  {% if true %}x{% endif %}", "%}  x"},
		{"{% set d = {'a': {'b': 1}} %}\n  {% if d.a.b %}y{% endif %}", "y"},
	} {
		if got := mustRender(t, c.src, nil, Options{}); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

func TestRaiseException(t *testing.T) {
	tpl, err := Parse("{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}ok")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render([]Message{{Role: "system", Content: "x"}}, Options{})
	if err == nil {
		t.Fatalf("rendered %q", out)
	}
	if !errors.Is(err, ErrRaised) {
		t.Errorf("error does not match ErrRaised: %v", err)
	}
	var re *RenderError
	if !errors.As(err, &re) || re.Kind != "TemplateError" || re.Msg != "System role not supported" {
		t.Errorf("error %#v", err)
	}
	if !strings.Contains(err.Error(), "System role not supported") {
		t.Errorf("message %q lacks the template's text", err)
	}
	// The same template renders when it does not raise.
	if out, err := tpl.Render([]Message{{Role: "user", Content: "x"}}, Options{}); err != nil || out != "ok" {
		t.Errorf("got %q, %v", out, err)
	}
}

func TestStrftimeNow(t *testing.T) {
	tpl, err := Parse("{{ strftime_now('%d %b %Y') }}")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2024, 7, 26, 0, 0, 0, 0, time.UTC), "26 Jul 2024"},
		{time.Date(1999, 12, 31, 23, 0, 0, 0, time.UTC), "31 Dec 1999"},
	} {
		now := c.now
		got, err := tpl.Render(nil, Options{Now: func() time.Time { return now }})
		if err != nil || got != c.want {
			t.Errorf("clock %v: %q, %v; want %q", now, got, err, c.want)
		}
	}
	// Without a clock it uses the current date.
	got, err := tpl.Render(nil, Options{})
	if err != nil || got != time.Now().Format("02 Jan 2006") {
		t.Errorf("default clock: %q, %v", got, err)
	}
}

// TestStrftime checks the directives against Python's datetime.strftime
// (glibc) outputs.
func TestStrftime(t *testing.T) {
	for _, c := range []struct {
		t         time.Time
		fmt, want string
	}{
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%d %b %Y", "26 Jul 2024"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "2024-07-26 13:05:09"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%A %B %-d %I %p %j", "Friday July 26 01 PM 208"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%a %e %y", "Fri 26 24"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%U %W %w %u", "29 30 5 5"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%c", "Fri Jul 26 13:05:09 2024"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%D %F %T %R", "07/26/24 2024-07-26 13:05:09 13:05"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%-m/%-d %-H:%-M", "7/26 13:5"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%I %l %k", "01  1 13"},
		{time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC), "%%d %q", "%d %q"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%d %b %Y", "01 Jan 2025"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "2025-01-01 00:00:00"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%A %B %-d %I %p %j", "Wednesday January 1 12 AM 001"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%a %e %y", "Wed  1 25"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%U %W %w %u", "00 00 3 3"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%c", "Wed Jan  1 00:00:00 2025"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%D %F %T %R", "01/01/25 2025-01-01 00:00:00 00:00"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%-m/%-d %-H:%-M", "1/1 0:0"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%I %l %k", "12 12  0"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "%%d %q", "%d %q"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%d %b %Y", "31 Dec 2023"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "2023-12-31 23:59:59"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%A %B %-d %I %p %j", "Sunday December 31 11 PM 365"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%a %e %y", "Sun 31 23"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%U %W %w %u", "53 52 0 7"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%c", "Sun Dec 31 23:59:59 2023"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%D %F %T %R", "12/31/23 2023-12-31 23:59:59 23:59"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%-m/%-d %-H:%-M", "12/31 23:59"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%I %l %k", "11 11 23"},
		{time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC), "%%d %q", "%d %q"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%d %b %Y", "29 Feb 2024"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%Y-%m-%d %H:%M:%S", "2024-02-29 12:00:00"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%A %B %-d %I %p %j", "Thursday February 29 12 PM 060"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%a %e %y", "Thu 29 24"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%U %W %w %u", "08 09 4 4"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%c", "Thu Feb 29 12:00:00 2024"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%D %F %T %R", "02/29/24 2024-02-29 12:00:00 12:00"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%-m/%-d %-H:%-M", "2/29 12:0"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%I %l %k", "12 12 12"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "%%d %q", "%d %q"},
	} {
		if got := strftime(c.fmt, c.t); got != c.want {
			t.Errorf("%v %q: got %q want %q", c.t, c.fmt, got, c.want)
		}
	}
}

func TestUndefinedBOS(t *testing.T) {
	msgs := []Message{{Role: "user", Content: "hi"}}
	src := "[{{ bos_token }}]{{ bos_token is defined }}{{ eos_token is defined }}"
	if got := mustRender(t, src, msgs, Options{EOS: strp("</s>")}); got != "[]FalseTrue" {
		t.Errorf("nil BOS: %q", got)
	}
	if got := mustRender(t, src, msgs, Options{BOS: strp("<s>")}); got != "[<s>]TrueFalse" {
		t.Errorf("BOS set: %q", got)
	}
	// As in Jinja2, arithmetic on the undefined token is an error.
	tpl, err := Parse("{{ bos_token + 'x' }}")
	if err != nil {
		t.Fatal(err)
	}
	_, err = tpl.Render(msgs, Options{})
	var re *RenderError
	if !errors.As(err, &re) || re.Kind != "UndefinedError" || !strings.Contains(err.Error(), "'bos_token' is undefined") {
		t.Errorf("got %v", err)
	}
}

func TestToolsNoneVersusGiven(t *testing.T) {
	src := "{% if tools is not none %}{% for t in tools %}{{ t.function.name }};{% endfor %}{% else %}none{% endif %}"
	if got := mustRender(t, src, nil, Options{}); got != "none" {
		t.Errorf("no tools: %q", got)
	}
	tools := []map[string]any{{"type": "function", "function": map[string]any{"name": "f"}}}
	if got := mustRender(t, src, nil, Options{Tools: tools}); got != "f;" {
		t.Errorf("tools: %q", got)
	}
	// Iterating tools=None is Python's TypeError.
	tpl, err := Parse("{% for t in tools %}{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.Render(nil, Options{}); err == nil || !strings.Contains(err.Error(), "'NoneType' object is not iterable") {
		t.Errorf("got %v", err)
	}
}

func TestToolObjectsKeepOrder(t *testing.T) {
	v, err := DecodeJSON([]byte(`[{"type": "function", "function": {"name": "f", "parameters": {"z": 1, "a": [1.5, null, true]}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	var tools []Object
	for _, x := range v.([]any) {
		tools = append(tools, x.(Object))
	}
	got := mustRender(t, "{{ tools | tojson }}", nil, Options{ToolObjects: tools})
	want := `[{"type": "function", "function": {"name": "f", "parameters": {"z": 1, "a": [1.5, null, true]}}}]`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestFallback(t *testing.T) {
	msgs := []Message{{Role: "system", Content: "You are terse."}, {Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hello."}}
	got, err := Fallback().Render(msgs, Options{AddGenerationPrompt: true})
	want := "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n<|im_start|>assistant\n"
	if err != nil || got != want {
		t.Errorf("got %q, %v\nwant %q", got, err, want)
	}
	got, err = Fallback().Render(msgs[:2], Options{})
	if err != nil || strings.HasSuffix(got, "<|im_start|>assistant\n") {
		t.Errorf("without generation prompt: %q, %v", got, err)
	}
}

func TestPyFloatRepr(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0.1, "0.1"}, {1.0, "1.0"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{123456789.123, "123456789.123"}, {1e-5, "1e-05"}, {0.0001, "0.0001"}, {2.5, "2.5"},
		{1.0 / 3, "0.3333333333333333"}, {1e100, "1e+100"}, {5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"}, {100.0, "100.0"},
		{12345678901234567.0, "1.2345678901234568e+16"},
	} {
		if got := pyFloatRepr(c.f, true); got != c.want {
			t.Errorf("%v: got %s want %s", c.f, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{"{% if true %}", "{{ 'a' ", "{% endfor %}", "{% include 'x.jinja' %}", "{% do x %}"} {
		if _, err := Parse(src); err == nil || !strings.HasPrefix(err.Error(), "chat template: parse: ") {
			t.Errorf("%q: %v", src, err)
		}
	}
	// The position is reported.
	_, err := Parse("ok\n{{ 'a' ")
	if err == nil || !strings.Contains(err.Error(), "Line: 2") {
		t.Errorf("no line in %v", err)
	}
}

func TestMessagesFromJSON(t *testing.T) {
	msgs, err := MessagesFromJSON([]byte(`[{"role": "user", "content": "hi"},
		{"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	got := mustRender(t, "{% for m in messages %}{{ m.role }}:{{ m.content }}:{{ m.content is none }}:{{ m.tool_calls is defined }};{% endfor %}", msgs, Options{})
	if want := "user:hi:False:False;assistant:None:True:True;"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	for _, bad := range []string{`{}`, `[1]`, `[{"content": "x"}]`, `[{"role": 3}]`, `[{"role": "user"}] x`, `[`} {
		if _, err := MessagesFromJSON([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestConcurrentRender renders one template from several goroutines; run
// with -race to check that a Template is safe for concurrent use.
func TestConcurrentRender(t *testing.T) {
	tpl, err := Parse("{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}{{ m.content }}{% endfor %}{{ ns.n }}")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			msgs := make([]Message, g+1)
			want := ""
			for i := range msgs {
				msgs[i] = Message{Role: "user", Content: string(rune('a' + i))}
				want += msgs[i].Content
			}
			want += string(rune('0' + g + 1))
			for k := 0; k < 50; k++ {
				got, err := tpl.Render(msgs, Options{})
				if err != nil || got != want {
					errs <- errors.New("goroutine got " + got + ", want " + want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestSetTargets(t *testing.T) {
	msgs := []Message{{Role: "user", Content: "hi"}}
	if got := mustRender(t, "{% set ns = namespace(a=1) %}{% set ns.a = ns.a + 1 %}{{ ns.a }}", msgs, Options{}); got != "2" {
		t.Errorf("namespace: %q", got)
	}
	if _, err := Parse("{% set d['k'] = 1 %}"); err == nil {
		t.Error("item assignment parsed")
	}
	tpl, err := Parse("{% set messages[0].role = 'system' %}{{ messages[0].role }}")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tpl.Render(msgs, Options{}); err == nil || !strings.Contains(err.Error(), "non-namespace") {
		t.Errorf("assignment into a message: %q, %v", out, err)
	}
}

func TestGoValuesForTemplates(t *testing.T) {
	o := Options{Vars: map[string]any{
		"ints":  []int{1, 2},
		"names": map[string]string{"b": "2", "a": "1"},
		"i64":   int64(7),
		"f32":   float32(0.5),
		"nil":   nil,
	}}
	got := mustRender(t, "{{ ints }}|{{ names | tojson }}|{{ i64 + 1 }}|{{ f32 }}|{{ nil is none }}", nil, o)
	if want := `[1, 2]|{"a": "1", "b": "2"}|8|0.5|True`; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if _, err := Parse("x"); err != nil {
		t.Fatal(err)
	}
	tpl, _ := Parse("x")
	if _, err := tpl.Render(nil, Options{Vars: map[string]any{"c": make(chan int)}}); err == nil {
		t.Error("channel variable accepted")
	}
}

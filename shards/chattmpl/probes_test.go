package chattmpl

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// probe is one case of testdata/jinja2_probes.json: a small template and
// what Python jinja2, set up as transformers sets it up, made of it
// (testdata/jinja2_probes.py regenerates the file).
type probe struct {
	Src      string          `json:"src"`
	Messages json.RawMessage `json:"messages"`
	Tools    json.RawMessage `json:"tools"`
	Vars     json.RawMessage `json:"vars"`
	Want     *string         `json:"want"`
	Error    string          `json:"error"`
}

func probeOptions(t *testing.T, p probe) ([]Message, Options) {
	t.Helper()
	o := Options{AddGenerationPrompt: true, Now: func() time.Time { return time.Date(2024, 7, 26, 13, 5, 9, 0, time.UTC) }}
	var msgs []Message
	if p.Messages != nil {
		var err error
		if msgs, err = MessagesFromJSON(p.Messages); err != nil {
			t.Fatal(err)
		}
	}
	if p.Tools != nil {
		v, err := DecodeJSON(p.Tools)
		if err != nil {
			t.Fatal(err)
		}
		o.ToolObjects = []Object{}
		for _, x := range v.([]any) {
			o.ToolObjects = append(o.ToolObjects, x.(Object))
		}
	}
	if p.Vars != nil {
		v, err := DecodeJSON(p.Vars)
		if err != nil {
			t.Fatal(err)
		}
		o.Vars = map[string]any{}
		for _, m := range v.(Object) {
			o.Vars[m.Key] = m.Value
		}
	}
	return msgs, o
}

func TestJinja2Probes(t *testing.T) {
	b, err := os.ReadFile("testdata/jinja2_probes.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Jinja2 string  `json:"jinja2"`
		Cases  []probe `json:"cases"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 100 {
		t.Fatalf("only %d probes", len(file.Cases))
	}
	ok := 0
	for i, p := range file.Cases {
		msgs, o := probeOptions(t, p)
		tpl, err := Parse(p.Src)
		var got string
		if err == nil {
			got, err = tpl.Render(msgs, o)
		}
		switch {
		case p.Want != nil && err != nil:
			t.Errorf("#%d %q: jinja2 renders %q, we fail: %v", i, p.Src, *p.Want, err)
		case p.Want != nil && got != *p.Want:
			t.Errorf("#%d %q:\n got %q\nwant %q", i, p.Src, got, *p.Want)
		case p.Want == nil && err == nil:
			t.Errorf("#%d %q: jinja2 fails (%s), we render %q", i, p.Src, p.Error, got)
		case p.Want == nil:
			// Same failure class: raise_exception and Jinja2's
			// UndefinedError/TypeError come back as such.
			class, _, _ := strings.Cut(p.Error, ":")
			var re *RenderError
			switch class {
			case "TemplateSyntaxError":
				if errors.As(err, &re) {
					t.Errorf("#%d %q: want a parse error, got render error %v", i, p.Src, err)
					continue
				}
			case "TemplateError", "UndefinedError", "TypeError":
				want := class
				if !errors.As(err, &re) || re.Kind != want {
					t.Errorf("#%d %q: want %s (jinja2: %s), got %v", i, p.Src, want, p.Error, err)
					continue
				}
			}
			ok++
		default:
			ok++
		}
	}
	t.Logf("%d/%d probes agree with jinja2 %s", ok, len(file.Cases), file.Jinja2)
}

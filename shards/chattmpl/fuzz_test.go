package chattmpl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/testenv"
)

func addFixtureSeeds(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedDir(f), "templates", "*.jinja"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixture templates: %v", err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), "Hello!")
	}
	for _, s := range []string{
		"{{ (a if b else c) }}", "{% raw %}{{ x }}{% endraw %}", "a\n  {% if x %}\n{% endif %}",
		"{{ '%s' % (1,) }}", "{% for k, v in d | dictsort %}{{ k }}{% endfor %}", "{{ x[-1] }}",
		"{% set a, b = 1, 2 %}{{ a ~ b }}", "{{ messages | tojson(indent=2) }}",
	} {
		f.Add(s, "x")
	}
}

// FuzzTemplate: any template source and message text either renders or
// fails with an error; the engine never panics (a recovered panic would
// surface as engineFailure).
func FuzzTemplate(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, src, content string) {
		tpl, err := Parse(src)
		if err != nil {
			if strings.Contains(err.Error(), engineFailure) {
				t.Fatalf("parser panicked: %v", err)
			}
			return
		}
		msgs := []Message{{Role: "system", Content: content}, {Role: "user", Content: content}}
		_, err = tpl.Render(msgs, Options{BOS: strp("<s>"), AddGenerationPrompt: true})
		if err != nil && strings.Contains(err.Error(), engineFailure) {
			t.Fatalf("engine panicked: %v", err)
		}
	})
}

// FuzzSourceRewrites: the two source rewrites never add or remove a line,
// so line numbers in error messages stay right.
func FuzzSourceRewrites(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, src, _ string) {
		norm := strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
		out := lstripBlocks(src)
		if strings.Count(out, "\n") != strings.Count(norm, "\n") {
			t.Fatalf("lstripBlocks changed the line count of %q: %q", src, out)
		}
		if got := rewriteExpressions(out); strings.Count(got, "\n") != strings.Count(out, "\n") {
			t.Fatalf("rewriteExpressions changed the line count of %q: %q", out, got)
		}
	})
}

package chattmpl

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"svc/internal/testenv"
)

// frozenNow is the clock the fixtures were rendered with (see
// tokenizer-templates-PROVENANCE.md): strftime_now frozen at 2024-07-26.
func frozenNow() time.Time { return time.Date(2024, 7, 26, 0, 0, 0, 0, time.UTC) }

type expectedCase struct {
	TemplateFile      string          `json:"template_file"`
	BOS               *string         `json:"bos_token"`
	EOS               *string         `json:"eos_token"`
	ConversationIndex int             `json:"conversation_index"`
	Messages          json.RawMessage `json:"messages"`
	Rendered          string          `json:"rendered"`
}

type skippedCase struct {
	TemplateFile      string `json:"template_file"`
	ConversationIndex int    `json:"conversation_index"`
	Error             string `json:"error"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// templateCache parses each fixture template once.
type templateCache struct {
	dir  string
	tpls map[string]*Template
}

func (c *templateCache) get(t *testing.T, file string) *Template {
	t.Helper()
	if tpl, ok := c.tpls[file]; ok {
		return tpl
	}
	src, err := os.ReadFile(filepath.Join(c.dir, file))
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := Parse(string(src))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c.tpls[file] = tpl
	return tpl
}

func runExpected(t *testing.T, file string) int {
	dir := filepath.Dir(testenv.Path(t, "templates", file))
	var cases []expectedCase
	readJSON(t, filepath.Join(dir, file), &cases)
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	cache := &templateCache{dir: dir, tpls: map[string]*Template{}}
	passed := 0
	for _, c := range cases {
		name := strings.TrimSuffix(c.TemplateFile, ".jinja") + "/" + string(rune('0'+c.ConversationIndex))
		t.Run(name, func(t *testing.T) {
			tpl := cache.get(t, c.TemplateFile)
			msgs, err := MessagesFromJSON(c.Messages)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tpl.Render(msgs, Options{BOS: c.BOS, EOS: c.EOS, AddGenerationPrompt: true, Now: frozenNow})
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if got != c.Rendered {
				t.Fatalf("mismatch\n got: %q\nwant: %q", got, c.Rendered)
			}
			passed++
		})
	}
	t.Logf("%s: %d/%d renderings match byte for byte", file, passed, len(cases))
	return passed
}

func TestExpectedRenderings(t *testing.T) {
	runExpected(t, "expected.json")
}

func TestExpectedEmbeddedRenderings(t *testing.T) {
	runExpected(t, "expected-embedded.json")
}

// TestSkippedPairsFail checks that every (template, conversation) pair that
// raised in jinja2 fails here too, with the same kind of error.
func TestSkippedPairsFail(t *testing.T) {
	dir := filepath.Dir(testenv.Path(t, "templates", "skipped.json"))
	var skipped []skippedCase
	readJSON(t, filepath.Join(dir, "skipped.json"), &skipped)
	var expected []expectedCase
	readJSON(t, filepath.Join(dir, "expected.json"), &expected)
	convs := map[int]json.RawMessage{}
	for _, c := range expected {
		convs[c.ConversationIndex] = c.Messages
	}
	// bos/eos of the skipped templates' families (PROVENANCE table).
	tokens := map[string][2]string{
		"CohereForAI-c4ai-command-r-plus-tool_use.jinja":      {"<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>"},
		"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": {"<|begin_of_text|>", "<|im_end|>"},
		"NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja":   {"<|begin_of_text|>", "<|im_end|>"},
		"fireworks-ai-llama-3-firefunction-v2.jinja":          {"<|begin_of_text|>", "<|eot_id|>"},
		"google-gemma-2-2b-it.jinja":                          {"<bos>", "<eos>"},
	}
	cache := &templateCache{dir: dir, tpls: map[string]*Template{}}
	failed := 0
	for _, c := range skipped {
		name := strings.TrimSuffix(c.TemplateFile, ".jinja") + "/" + string(rune('0'+c.ConversationIndex))
		t.Run(name, func(t *testing.T) {
			tok, ok := tokens[c.TemplateFile]
			if !ok {
				t.Fatalf("no bos/eos known for %s", c.TemplateFile)
			}
			raw, ok := convs[c.ConversationIndex]
			if !ok {
				t.Fatalf("conversation %d not in expected.json", c.ConversationIndex)
			}
			msgs, err := MessagesFromJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			tpl := cache.get(t, c.TemplateFile)
			out, err := tpl.Render(msgs, Options{BOS: &tok[0], EOS: &tok[1], AddGenerationPrompt: true, Now: frozenNow})
			if err == nil {
				t.Fatalf("rendered without error (jinja2 raised %q):\n%q", c.Error, out)
			}
			var re *RenderError
			if !errors.As(err, &re) {
				t.Fatalf("error is %T, not *RenderError: %v", err, err)
			}
			// jinja2's "module.Class: message"; compare class and message.
			class, msg, _ := strings.Cut(c.Error, ": ")
			class = class[strings.LastIndex(class, ".")+1:]
			wantKind := map[string]string{"TypeError": "TypeError", "UndefinedError": "UndefinedError", "TemplateError": "TemplateError"}[class]
			if re.Kind != wantKind {
				t.Errorf("kind %q, want %q (jinja2: %s); error: %v", re.Kind, wantKind, c.Error, err)
			}
			if !strings.Contains(err.Error(), msg) {
				t.Errorf("error %q does not contain jinja2's message %q", err, msg)
			}
			t.Logf("error: %v", err)
			failed++
		})
	}
	t.Logf("%d/%d skipped pairs fail with the expected error", failed, len(skipped))
}

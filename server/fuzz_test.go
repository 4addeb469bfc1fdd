package server

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseRequest feeds arbitrary bodies to the request parsers of both
// completion endpoints: each body is either accepted as a well-formed
// request or refused with a 4xx error naming the problem; nothing panics.
func FuzzParseRequest(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `[]`, `null`, `{"messages":[]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":5,"stream":true}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`,
		`{"messages":[{"role":"wizard","content":"x"}]}`,
		`{"messages":[{"role":"user","content":"x"}],"max_tokens":-1}`,
		`{"messages":[{"role":"user","content":"x"}],"max_tokens":1e309}`,
		`{"messages":[{"role":"user","content":"x"}],"stop":["a","b"],"stream_options":{"include_usage":true}}`,
		`{"prompt":"hello","max_tokens":3}`, `{"prompt":[1,2,3]}`, `{"prompt":["a"]}`,
		`{"prompt":"x","max_tokens":5120e-1,"top_logprobs":0.0}`, `{"prompt":[1.0,2e0],"max_completion_tokens":-0}`,
		"{\"prompt\":\"\xff\xfe\"}", `{"messages":[{"role":"user","content":"x"}],"temperature":"hot"}`,
		`{"prompt":["a","b"],"n":2}`, `{"prompt":[[1,2],[3]]}`, `{"prompt":["a",[1]]}`, `{"prompt":[[1],"a"]}`,
		`{"prompt":[[[1]]]}`, `{"prompt":[[]]}`, `{"prompt":[""]}`, `{"prompt":["a",null]}`, `{"prompt":[{"a":1}]}`,
		`{"prompt":[[1],[2,true]]}`, `{"prompt":["` + strings.Repeat(`a","`, MaxPrompts) + `a"]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(name string, aerr *apiError) {
			if aerr == nil {
				return
			}
			if aerr.Status < 400 || aerr.Status > 499 || aerr.Code == "" || aerr.Message == "" {
				t.Fatalf("%s: body %q gave %d %q %q", name, body, aerr.Status, aerr.Code, aerr.Message)
			}
			if !utf8.ValidString(aerr.Message) {
				t.Fatalf("%s: error message is not UTF-8: %q", name, aerr.Message)
			}
		}
		req, aerr := parseChat(body)
		check("chat", aerr)
		if aerr == nil && len(req.Messages) == 0 {
			t.Fatalf("chat: body %q accepted with no messages", body)
		}
		comp, aerr := parseCompletion(body)
		check("completion", aerr)
		if aerr == nil {
			// One to MaxPrompts prompts; in a batch, none empty.
			if len(comp.Prompts) == 0 || len(comp.Prompts) > MaxPrompts {
				t.Fatalf("completion: body %q accepted with %d prompts", body, len(comp.Prompts))
			}
			for _, p := range comp.Prompts {
				if p.name != "prompt" && p.Text == "" && len(p.IDs) == 0 {
					t.Fatalf("completion: body %q accepted with %s empty", body, p.name)
				}
			}
		}
	})
}

package server

import (
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
		_, aerr = parseCompletion(body)
		check("completion", aerr)
	})
}

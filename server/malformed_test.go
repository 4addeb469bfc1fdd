package server

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// testMalformed sends every malformed request we could think of; each must
// get a 4xx in SPEC's error shape whose message names what is wrong, and the
// server must keep answering.
func testMalformed(t *testing.T, ts *testServer) {
	const okMsg = `[{"role":"user","content":"hi"}]`
	chat := ts.URL + "/v1/chat/completions"
	comp := ts.URL + "/v1/completions"
	cases := []struct {
		name   string
		url    string
		body   string
		status int
		code   string
		says   string // the message must contain this
	}{
		{"empty body", chat, "", 400, codeInvalidRequest, "empty"},
		{"blank body", chat, "  \n ", 400, codeInvalidRequest, "empty"},
		{"null body", chat, "null", 400, codeInvalidRequest, "object"},
		{"array body", chat, "[]", 400, codeInvalidRequest, "object"},
		{"string body", chat, `"hi"`, 400, codeInvalidRequest, "object"},
		{"number body", chat, `42`, 400, codeInvalidRequest, "object"},
		{"truncated JSON", chat, `{"messages":[`, 400, codeInvalidRequest, "malformed JSON"},
		{"bad JSON", chat, `{messages: 1}`, 400, codeInvalidRequest, "malformed JSON"},
		{"trailing data", chat, `{"messages":` + okMsg + `} {}`, 400, codeInvalidRequest, "after the top-level value"},
		{"trailing garbage", chat, `{"messages":` + okMsg + `}x`, 400, codeInvalidRequest, "malformed JSON"},
		{"non-UTF-8", chat, "{\"messages\":[{\"role\":\"user\",\"content\":\"\xff\xfe\"}]}", 400, codeInvalidRequest, "UTF-8"},
		{"model number", chat, `{"model":5,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "model must be a string"},
		{"model object", chat, `{"model":{},"messages":` + okMsg + `}`, 400, codeInvalidRequest, "model must be a string"},
		{"messages missing", chat, `{}`, 400, codeInvalidRequest, "messages is required"},
		{"messages null", chat, `{"messages":null}`, 400, codeInvalidRequest, "messages is required"},
		{"messages object", chat, `{"messages":{"role":"user"}}`, 400, codeInvalidRequest, "messages must be an array"},
		{"messages string", chat, `{"messages":"hi"}`, 400, codeInvalidRequest, "messages must be an array"},
		{"messages empty", chat, `{"messages":[]}`, 400, codeEmptyMessages, "at least one"},
		{"message number", chat, `{"messages":[5]}`, 400, codeInvalidRequest, "messages[0] must be an object"},
		{"message null", chat, `{"messages":[{"role":"user","content":"a"},null]}`, 400, codeInvalidRequest, "messages[1] must be an object"},
		{"role missing", chat, `{"messages":[{"content":"hi"}]}`, 400, codeInvalidRequest, "messages[0].role is required"},
		{"role number", chat, `{"messages":[{"role":1,"content":"hi"}]}`, 400, codeInvalidRequest, "messages[0].role must be a string"},
		{"role unknown", chat, `{"messages":[{"role":"wizard","content":"hi"}]}`, 400, codeInvalidRequest, "unknown role"},
		{"role empty", chat, `{"messages":[{"role":"","content":"hi"}]}`, 400, codeInvalidRequest, "unknown role"},
		{"content missing", chat, `{"messages":[{"role":"user"}]}`, 400, codeInvalidRequest, "messages[0].content is required"},
		{"content null", chat, `{"messages":[{"role":"user","content":null}]}`, 400, codeInvalidRequest, "messages[0].content is required"},
		{"content number", chat, `{"messages":[{"role":"user","content":5}]}`, 400, codeInvalidRequest, "messages[0].content must be"},
		{"content object", chat, `{"messages":[{"role":"user","content":{"text":"hi"}}]}`, 400, codeInvalidRequest, "messages[0].content must be"},
		{"content part number", chat, `{"messages":[{"role":"user","content":[5]}]}`, 400, codeInvalidRequest, "messages[0].content[0] must be an object"},
		{"content part no type", chat, `{"messages":[{"role":"user","content":[{"text":"hi"}]}]}`, 400, codeInvalidRequest, "content[0].type is required"},
		{"content part image", chat, `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, 400, codeInvalidRequest, "only text parts"},
		{"content part no text", chat, `{"messages":[{"role":"user","content":[{"type":"text"}]}]}`, 400, codeInvalidRequest, "content[0].text is required"},
		{"content part text number", chat, `{"messages":[{"role":"user","content":[{"type":"text","text":7}]}]}`, 400, codeInvalidRequest, "content[0].text must be a string"},
		{"name number", chat, `{"messages":[{"role":"user","content":"hi","name":3}]}`, 400, codeInvalidRequest, "messages[0].name must be a string"},
		{"max_tokens string", chat, `{"max_tokens":"10","messages":` + okMsg + `}`, 400, codeInvalidRequest, "max_tokens must be an integer"},
		{"max_tokens fraction", chat, `{"max_tokens":1.5,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "max_tokens must be an integer"},
		{"max_tokens bool", chat, `{"max_tokens":true,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "max_tokens must be an integer"},
		{"max_tokens zero", chat, `{"max_tokens":0,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "at least 1"},
		{"max_tokens negative", chat, `{"max_tokens":-1,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "at least 1"},
		{"max_tokens very negative", chat, `{"max_tokens":-1e300,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "at least 1"},
		{"max_tokens huge", chat, `{"max_tokens":1e300,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "too large"},
		{"max_tokens 2^63", chat, `{"max_tokens":9223372036854775808,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "too large"},
		{"max_tokens beyond context", chat, `{"max_tokens":100000,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "context"},
		{"max_completion_tokens negative", chat, `{"max_completion_tokens":-3,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "max_completion_tokens must be at least 1"},
		{"stream string", chat, `{"stream":"yes","messages":` + okMsg + `}`, 400, codeInvalidRequest, "stream must be a boolean"},
		{"stream number", chat, `{"stream":1,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "stream must be a boolean"},
		{"stream_options number", chat, `{"stream":true,"stream_options":5,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "stream_options must be an object"},
		{"include_usage string", chat, `{"stream":true,"stream_options":{"include_usage":"y"},"messages":` + okMsg + `}`, 400, codeInvalidRequest, "stream_options.include_usage"},
		{"stop number", chat, `{"stop":5,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "stop must be"},
		{"stop item number", chat, `{"stop":["a",1],"messages":` + okMsg + `}`, 400, codeInvalidRequest, "stop[1] must be a string"},
		{"stop too many", chat, `{"stop":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"],"messages":` + okMsg + `}`, 400, codeInvalidRequest, "at most 16 strings, got 17"},
		{"stop as lm-eval sends it", comp, `{"prompt":["a","b"],"stop":["\nclass","\ndef","\n#","\nif","\nprint","</s>"],"max_tokens":2,"model":"stories260K"}`, 200, "", ""},
		{"logprobs wrong type", chat, `{"logprobs":"yes","messages":` + okMsg + `}`, 400, codeInvalidRequest, "logprobs must be a boolean"},
		{"logprobs number", chat, `{"logprobs":1,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "logprobs must be a boolean"},
		{"top_logprobs without logprobs", chat, `{"top_logprobs":3,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs requires logprobs"},
		{"top_logprobs with logprobs false", chat, `{"logprobs":false,"top_logprobs":0,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs requires logprobs"},
		{"top_logprobs 21", chat, `{"logprobs":true,"top_logprobs":21,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs must be between 0 and 20, got 21"},
		{"top_logprobs negative", chat, `{"logprobs":true,"top_logprobs":-1,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs must be between 0 and 20"},
		{"top_logprobs string", chat, `{"logprobs":true,"top_logprobs":"5","messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs must be an integer, got string"},
		{"top_logprobs fraction", chat, `{"logprobs":true,"top_logprobs":2.5,"messages":` + okMsg + `}`, 400, codeInvalidRequest, "top_logprobs must be an integer"},
		{"logprobs with top_logprobs", chat, `{"logprobs":true,"top_logprobs":20,"max_tokens":2,"model":"stories260K","messages":` + okMsg + `}`, 200, "", ""},
		{"tools", chat, `{"tools":[{"type":"function","function":{"name":"f"}}],"messages":` + okMsg + `}`, 400, codeInvalidRequest, "tools"},
		{"tools wrong type", chat, `{"tools":"f","messages":` + okMsg + `}`, 400, codeInvalidRequest, "tools must be an array"},
		{"tool_choice required", chat, `{"tool_choice":"required","messages":` + okMsg + `}`, 400, codeInvalidRequest, "tool_choice"},
		{"response_format json", chat, `{"response_format":{"type":"json_object"},"messages":` + okMsg + `}`, 400, codeInvalidRequest, "response_format"},
		{"response_format string", chat, `{"response_format":"json","messages":` + okMsg + `}`, 400, codeInvalidRequest, "response_format must be an object"},
		{"audio", chat, `{"audio":{"voice":"x"},"messages":` + okMsg + `}`, 400, codeInvalidRequest, "audio"},

		{"deeply nested JSON", chat, `{"messages":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, 400, codeInvalidRequest, "malformed JSON"},
		{"NUL in JSON", chat, "{\"messages\":\x00[]}", 400, codeInvalidRequest, "malformed JSON"},
		{"prompt longer than the context", chat, `{"messages":[{"role":"user","content":"` + strings.Repeat("dog ", 5000) + `"}]}`, 400, codeInvalidRequest, "context"},
		{"prompt missing", comp, `{}`, 400, codeInvalidRequest, "prompt is required"},
		{"prompt number", comp, `{"prompt":5}`, 400, codeInvalidRequest, "prompt must be"},
		{"prompt object", comp, `{"prompt":{}}`, 400, codeInvalidRequest, "prompt must be"},
		{"prompt empty array", comp, `{"prompt":[]}`, 400, codeInvalidRequest, "empty"},
		{"prompt two strings", comp, `{"prompt":["a","b"],"max_tokens":2,"model":"stories260K"}`, 200, "", ""},
		{"prompt two token arrays", comp, `{"prompt":[[1,2],[3]],"max_tokens":2,"model":"stories260K"}`, 200, "", ""},
		{"prompt batch too large", comp, `{"prompt":[` + strings.Repeat(`"a",`, MaxPrompts) + `"a"]}`, 400, codeInvalidRequest, "prompt holds 65 prompts; at most 64"},
		{"prompt batch of token arrays too large", comp, `{"prompt":[` + strings.Repeat(`[1],`, MaxPrompts) + `[1]]}`, 400, codeInvalidRequest, "prompt holds 65 prompts"},
		{"prompt batch empty string", comp, `{"prompt":["a","b","c",""]}`, 400, codeInvalidRequest, "prompt[3] must not be empty"},
		{"prompt batch empty token array", comp, `{"prompt":[[1],[]]}`, 400, codeInvalidRequest, "prompt[1] must not be empty"},
		{"prompt batch string then array", comp, `{"prompt":["a",[1,2]]}`, 400, codeInvalidRequest, "prompt[1] must be a string, as prompt[0] is"},
		{"prompt batch array then string", comp, `{"prompt":[[1,2],"a"]}`, 400, codeInvalidRequest, "prompt[1] must be an array of token ids, as prompt[0] is"},
		{"prompt batch string then id", comp, `{"prompt":["a",1]}`, 400, codeInvalidRequest, "prompt[1] must be a string"},
		{"prompt ids then string", comp, `{"prompt":[1,"a"]}`, 400, codeInvalidRequest, "prompt[1] must be a token id"},
		{"prompt batch null item", comp, `{"prompt":["a",null]}`, 400, codeInvalidRequest, "prompt[1] must be a string, as prompt[0] is (a batch holds strings or token id arrays, not both), got null"},
		{"prompt batch object first", comp, `{"prompt":[{"text":"a"}]}`, 400, codeInvalidRequest, "prompt[0] must be a string, a token id or an array of token ids, got object"},
		{"prompt batch null first", comp, `{"prompt":[null,"a"]}`, 400, codeInvalidRequest, "prompt[0] must be a string, a token id or an array of token ids, got null"},
		{"prompt batch nested too deep", comp, `{"prompt":[[[1]]]}`, 400, codeInvalidRequest, "prompt[0][0] must be a token id"},
		{"prompt batch bad id", comp, `{"prompt":[[1],[2,true]]}`, 400, codeInvalidRequest, "prompt[1][1] must be a token id"},
		{"prompt batch id beyond vocab", comp, `{"prompt":[[1],[2,100000]],"model":"stories260K"}`, 400, codeInvalidRequest, "prompt[1][1]: token id 100000 is outside the vocabulary"},
		{"prompt batch item longer than the context", comp, `{"prompt":["a","` + strings.Repeat("dog ", 5000) + `"]}`, 400, codeInvalidRequest, "prompt[1]: the prompt has"},
		{"prompt batch max_tokens beyond the context", comp, `{"prompt":["a","b"],"max_tokens":100000}`, 400, codeInvalidRequest, "prompt[0]: max_tokens is 100000"},
		{"prompt fractional id", comp, `{"prompt":[1.5]}`, 400, codeInvalidRequest, "prompt[0] must be a token id"},
		{"prompt string id", comp, `{"prompt":[1,"a"]}`, 400, codeInvalidRequest, "prompt[1] must be a token id"},
		{"prompt null id", comp, `{"prompt":[1,null]}`, 400, codeInvalidRequest, "prompt[1] must be a token id"},
		{"prompt negative id", comp, `{"prompt":[-1]}`, 400, codeInvalidRequest, "out of range"},
		{"prompt id beyond vocab", comp, `{"prompt":[1,100000]}`, 400, codeInvalidRequest, "outside the vocabulary"},
		{"prompt empty text", comp, `{"prompt":"","max_tokens":3,"model":"stories260K","echo":false}`, 200, "", ""},
		{"echo wrong type", comp, `{"prompt":"a","echo":"no"}`, 400, codeInvalidRequest, "echo must be a boolean"},
		{"suffix", comp, `{"prompt":"a","suffix":"b"}`, 400, codeInvalidRequest, "suffix"},
		{"completion logprobs 6", comp, `{"prompt":"a","logprobs":6}`, 400, codeInvalidRequest, "logprobs must be between 0 and 5, got 6"},
		{"completion logprobs negative", comp, `{"prompt":"a","logprobs":-1}`, 400, codeInvalidRequest, "logprobs must be between 0 and 5"},
		{"completion logprobs string", comp, `{"prompt":"a","logprobs":"2"}`, 400, codeInvalidRequest, "logprobs must be an integer, got string"},
		{"completion logprobs boolean", comp, `{"prompt":"a","logprobs":true}`, 400, codeInvalidRequest, "logprobs must be an integer, got boolean"},
		{"completion top_logprobs", comp, `{"prompt":"a","logprobs":2,"top_logprobs":2}`, 400, codeInvalidRequest, "top_logprobs is a chat completions field"},
		{"completion logprobs 5", comp, `{"prompt":"a","logprobs":5,"echo":true,"max_tokens":2,"model":"stories260K"}`, 200, "", ""},
		{"completion max_tokens negative", comp, `{"prompt":"a","max_tokens":-7}`, 400, codeInvalidRequest, "at least 1"},
		{"completion max_tokens 0 without echo", comp, `{"prompt":"a","max_tokens":0}`, 400, codeInvalidRequest, "0 only with echo"},
		{"completion max_tokens negative with echo", comp, `{"prompt":"a","max_tokens":-1,"echo":true}`, 400, codeInvalidRequest, "max_tokens must be at least 0"},
		{"completion max_tokens 0 with echo", comp, `{"prompt":"a","max_tokens":0,"echo":true,"model":"stories260K"}`, 200, "", ""},
		{"completion non-UTF-8", comp, "{\"prompt\":\"\xc3\x28\"}", 400, codeInvalidRequest, "UTF-8"},
	}
	for _, c := range cases {
		r := postJSON(t, c.url, c.body)
		if c.status == 200 {
			if r.Status != 200 {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
			continue
		}
		d := checkError(t, c.name, r, c.status, c.code)
		if !strings.Contains(d.Message, c.says) {
			t.Errorf("%s: message %q does not say %q", c.name, d.Message, c.says)
		}
	}

	// Transport-level mistakes.
	checkError(t, "multipart body", do(t, "POST", chat, "multipart/form-data; boundary=x", []byte("--x--")), 415, codeInvalidRequest)
	checkError(t, "form body", do(t, "POST", comp, "application/x-www-form-urlencoded", []byte(`prompt=hi`)), 400, codeInvalidRequest)
	// curl -d labels a JSON body as a form: it is read as JSON all the same.
	if r := do(t, "POST", comp, "application/x-www-form-urlencoded", []byte(`{"prompt":"hi","max_tokens":2}`)); r.Status != 200 {
		t.Errorf("JSON labelled as a form: %d %s", r.Status, r.Body)
	}
	if r := do(t, "POST", comp, "", []byte(`{"prompt":"hi","max_tokens":2}`)); r.Status != 200 {
		t.Errorf("no Content-Type: %d %s", r.Status, r.Body)
	}
	if r := do(t, "POST", comp, "application/json; charset=utf-8", []byte(`{"prompt":"hi","max_tokens":2}`)); r.Status != 200 {
		t.Errorf("JSON with charset: %d %s", r.Status, r.Body)
	}
	big := `{"prompt":"` + strings.Repeat("a", 70<<10) + `"}`
	checkError(t, "oversize body", do(t, "POST", comp, "application/json", []byte(big)), 413, codeInvalidRequest)
	// Far beyond what the server reads at all: it may answer 413 or cut
	// the connection while the client is still sending; either way it
	// stays up.
	huge := bytes.Repeat([]byte("a"), 4<<20)
	if req, err := http.NewRequest("POST", comp, bytes.NewReader(huge)); err == nil {
		req.Header.Set("Content-Type", "application/json")
		if resp, err := httpClient.Do(req); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			checkError(t, "huge body", response{resp.StatusCode, resp.Header, body}, 413, codeInvalidRequest)
		}
	}
	checkError(t, "unknown path", do(t, "GET", ts.URL+"/v1/nothing", "", nil), 404, codeNotFound)
	checkError(t, "root path", do(t, "POST", ts.URL+"/", "application/json", []byte("{}")), 404, codeNotFound)
	for _, mc := range []struct{ method, url, allow string }{
		{"GET", chat, "POST"}, {"PUT", comp, "POST"}, {"DELETE", chat, "POST"},
		{"POST", ts.URL + "/v1/models", "GET, HEAD"}, {"PATCH", ts.URL + "/metrics", "GET, HEAD"},
	} {
		r := do(t, mc.method, mc.url, "", nil)
		checkError(t, mc.method+" "+mc.url, r, 405, codeMethodNotAllowed)
		if got := r.Header.Get("Allow"); got != mc.allow {
			t.Errorf("%s %s: Allow %q, want %q", mc.method, mc.url, got, mc.allow)
		}
	}
	if r := do(t, http.MethodGet, ts.URL+"/health", "", nil); r.Status != 200 {
		t.Errorf("health after malformed requests: %d", r.Status)
	}
}

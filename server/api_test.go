package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/router"
	"svc/shards/model"
	"svc/shards/tokenizer"
)

// The HTTP tests run against the real router over real in-process nodes
// (libp2p hosts on loopback) serving stories260K, split over three nodes.

const storiesName = "stories260K"

// reference generates in one process, without the swarm: what a chain
// through the API must reproduce token for token. The stop token is not
// part of the result.
func reference(t *testing.T, path string, prompt []int32, maxTokens int) ([]int32, string) {
	t.Helper()
	m, err := model.Open(path, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ch, err := m.NewChain([][2]int{{0, m.Config().Blocks}}, model.ShardOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	hops, err := ch.Open("ref", len(prompt)+maxTokens)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.CloseSession("ref")
	tok, err := tokenizer.FromGGUF(m.File())
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.Generate(context.Background(), hops, prompt, model.GenOptions{MaxTokens: maxTokens, Stop: tok.IsEOG}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := res.Completion
	reason := "length"
	if res.Finish == model.FinishStop {
		ids, reason = ids[:len(ids)-1], "stop"
	}
	return ids, reason
}

type chatResp struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int            `json:"index"`
		Message      map[string]any `json:"message"`
		Text         *string        `json:"text"`
		Delta        map[string]any `json:"delta"`
		FinishReason *string        `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage       `json:"usage"`
	Error *errorDetail `json:"error"`
}

func decodeResp(t *testing.T, b []byte) chatResp {
	t.Helper()
	var r chatResp
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return r
}

// decodeOK decodes a 200 answer with one choice.
func decodeOK(t *testing.T, r response) chatResp {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	c := decodeResp(t, r.Body)
	if len(c.Choices) != 1 {
		t.Fatalf("%d choices: %s", len(c.Choices), r.Body)
	}
	return c
}

func TestAPI(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 4}, {4, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName, MaxBodyBytes: 64 << 10})
	tok := swarmTokenizer(t, sw)

	t.Run("models", func(t *testing.T) {
		r := do(t, "GET", ts.URL+"/v1/models", "", nil)
		if r.Status != 200 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		var list struct {
			Object string           `json:"object"`
			Data   []map[string]any `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &list); err != nil {
			t.Fatal(err)
		}
		if list.Object != "list" || len(list.Data) != 1 {
			t.Fatalf("model list %s", r.Body)
		}
		e := list.Data[0]
		if e["id"] != storiesName || e["object"] != "model" || e["owned_by"] != DefaultOwnedBy {
			t.Errorf("entry %v", e)
		}
		if c, ok := e["created"].(float64); !ok || c < 1e9 || c != float64(int64(c)) {
			t.Errorf("created %v is not Unix seconds", e["created"])
		}
		r = do(t, "GET", ts.URL+"/v1/models/"+storiesName, "", nil)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"id":"stories260K"`) {
			t.Errorf("GET /v1/models/id: %d %s", r.Status, r.Body)
		}
		checkError(t, "unknown model entry", do(t, "GET", ts.URL+"/v1/models/nope", "", nil), 404, codeModelNotFound)
	})

	t.Run("completion equals one process", func(t *testing.T) {
		prompt := "Once upon a time"
		ids, err := tok.Encode(prompt, true, true)
		if err != nil {
			t.Fatal(err)
		}
		want, reason := reference(t, path, ids, 40)
		r := postJSON(t, ts.URL+"/v1/completions", fmt.Sprintf(`{"model":"stories260K","prompt":%q,"max_tokens":40}`, prompt))
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		c := decodeResp(t, r.Body)
		if c.Object != "text_completion" || !strings.HasPrefix(c.ID, "cmpl-") || c.Model != storiesName || len(c.Choices) != 1 {
			t.Fatalf("response %s", r.Body)
		}
		if got := *c.Choices[0].Text; got != completionText(tok, want) {
			t.Errorf("text %q\nwant %q", got, completionText(tok, want))
		}
		if *c.Choices[0].FinishReason != reason || c.Usage.PromptTokens != len(ids) || c.Usage.CompletionTokens != len(want) ||
			c.Usage.TotalTokens != len(ids)+len(want) {
			t.Errorf("finish %s usage %+v, want %s %d+%d", *c.Choices[0].FinishReason, c.Usage, reason, len(ids), len(want))
		}
		if !strings.HasPrefix(*c.Choices[0].Text, " there was") {
			t.Logf("note: stories260K continued with %q", *c.Choices[0].Text)
		}
	})

	chatBody := `{"messages":[{"role":"system","content":"Be kind."},{"role":"user","content":"Tell me a story."}],"max_tokens":30%s}`

	t.Run("chat equals one process", func(t *testing.T) {
		text, ids := swarmChatPrompt(t, sw, []map[string]string{{"role": "system", "content": "Be kind."}, {"role": "user", "content": "Tell me a story."}})
		if !strings.Contains(text, "Tell me a story.") {
			t.Fatalf("rendered prompt %q", text)
		}
		want, reason := reference(t, path, ids, 30)
		r := postJSON(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(chatBody, ""))
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		c := decodeResp(t, r.Body)
		if c.Object != "chat.completion" || !strings.HasPrefix(c.ID, "chatcmpl-") || c.Model != storiesName || len(c.Choices) != 1 || c.Choices[0].Index != 0 {
			t.Fatalf("response %s", r.Body)
		}
		msg := c.Choices[0].Message
		if msg["role"] != "assistant" || msg["content"] != completionText(tok, want) {
			t.Errorf("message %v, want content %q", msg, completionText(tok, want))
		}
		if *c.Choices[0].FinishReason != reason || c.Usage.PromptTokens != len(ids) || c.Usage.CompletionTokens != len(want) {
			t.Errorf("finish %s usage %+v, want %s %d+%d", *c.Choices[0].FinishReason, c.Usage, reason, len(ids), len(want))
		}

		// The same request streamed: same text, SPEC's event sequence.
		resp, events := streamPost(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(chatBody, `,"stream":true,"stream_options":{"include_usage":true}`))
		if resp.Status != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("stream: %d %q %s", resp.Status, resp.Header.Get("Content-Type"), resp.Body)
		}
		content := checkChatStream(t, events, "stop", true) // SPEC §4: stop whatever ended it
		if content != completionText(tok, want) {
			t.Errorf("streamed %q, want %q", content, completionText(tok, want))
		}
		u := decodeResp(t, []byte(events[len(events)-2].Data)).Usage
		if u == nil || u.PromptTokens != len(ids) || u.CompletionTokens != len(want) || u.TotalTokens != len(ids)+len(want) {
			t.Errorf("usage chunk %v", events[len(events)-2].Data)
		}
	})

	t.Run("streamed completion", func(t *testing.T) {
		resp, events := streamPost(t, ts.URL+"/v1/completions", `{"prompt":"Once upon a time","max_tokens":20,"stream":true}`)
		if resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		if events[len(events)-1].Data != "[DONE]" {
			t.Fatalf("last event %q", events[len(events)-1].Data)
		}
		var text strings.Builder
		for i, ev := range events[:len(events)-1] {
			c := decodeResp(t, []byte(ev.Data))
			if c.Object != "text_completion" || !strings.HasPrefix(c.ID, "cmpl-") || len(c.Choices) != 1 {
				t.Fatalf("event %d: %s", i, ev.Data)
			}
			last := i == len(events)-2
			if (c.Choices[0].FinishReason != nil) != last {
				t.Errorf("event %d: finish_reason %v", i, c.Choices[0].FinishReason)
			}
			text.WriteString(*c.Choices[0].Text)
		}
		r := postJSON(t, ts.URL+"/v1/completions", `{"prompt":"Once upon a time","max_tokens":20}`)
		if want := *decodeResp(t, r.Body).Choices[0].Text; text.String() != want {
			t.Errorf("streamed %q, whole %q", text.String(), want)
		}
	})

	t.Run("max_tokens reached", func(t *testing.T) {
		// A budget the model cannot finish in: non-streamed answers say
		// length; a chat stream's last chunk says stop (SPEC §2, §4). The
		// stream is asked for in raw HTTP/1.0, which has no chunked
		// encoding: it must arrive unchunked, ended by the server closing
		// the connection.
		_, ids := swarmChatPrompt(t, sw, []map[string]string{{"role": "system", "content": "Be kind."}, {"role": "user", "content": "Tell me a story."}})
		want, reason := reference(t, path, ids, 5)
		if reason != "length" {
			t.Fatalf("reference ended with %s in 5 tokens; the test needs a longer answer", reason)
		}
		body := strings.Replace(fmt.Sprintf(chatBody, ""), `"max_tokens":30`, `"max_tokens":5`, 1)
		c := decodeOK(t, postJSON(t, ts.URL+"/v1/chat/completions", body))
		if *c.Choices[0].FinishReason != "length" || c.Choices[0].Message["content"] != completionText(tok, want) {
			t.Fatalf("non-streamed: finish %s, content %v", *c.Choices[0].FinishReason, c.Choices[0].Message["content"])
		}
		streamBody := strings.Replace(body, `"max_tokens":5`, `"max_tokens":5,"stream":true`, 1)
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
		fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.0\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(streamBody), streamBody)
		raw, err := io.ReadAll(conn) // ends only when the server closes
		if err != nil {
			t.Fatalf("reading the HTTP/1.0 stream: %v (got %q)", err, raw)
		}
		head, payload, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
		if !ok || !bytes.HasPrefix(head, []byte("HTTP/1.1 200 ")) {
			t.Fatalf("HTTP/1.0 stream answered %q", raw)
		}
		h := strings.ToLower(string(head))
		if strings.Contains(h, "transfer-encoding") || strings.Contains(h, "content-length") || !strings.Contains(h, "connection: close") || !strings.Contains(h, "content-type: text/event-stream") {
			t.Fatalf("HTTP/1.0 stream headers %q", head)
		}
		events := readSSE(t, bytes.NewReader(payload))
		if got := checkChatStream(t, events, "stop", false); got != completionText(tok, want) {
			t.Errorf("HTTP/1.0 stream %q, want %q", got, completionText(tok, want))
		}
	})

	t.Run("stop strings", func(t *testing.T) {
		whole := *decodeOK(t, postJSON(t, ts.URL+"/v1/completions", `{"prompt":"Once upon a time","max_tokens":40}`)).Choices[0].Text
		word := " was"
		i := strings.Index(whole, word)
		if i < 0 {
			t.Fatalf("%q not in %q; pick another stop word", word, whole)
		}
		for _, stream := range []bool{false, true} {
			body := fmt.Sprintf(`{"prompt":"Once upon a time","max_tokens":40,"stop":["zzz",%q],"stream":%v}`, word, stream)
			var text, finish string
			if stream {
				_, events := streamPost(t, ts.URL+"/v1/completions", body)
				for _, ev := range events[:len(events)-1] {
					c := decodeResp(t, []byte(ev.Data))
					text += *c.Choices[0].Text
					if c.Choices[0].FinishReason != nil {
						finish = *c.Choices[0].FinishReason
					}
				}
			} else {
				c := decodeOK(t, postJSON(t, ts.URL+"/v1/completions", body))
				text, finish = *c.Choices[0].Text, *c.Choices[0].FinishReason
			}
			if text != whole[:i] || finish != "stop" {
				t.Errorf("stream=%v: %q finish %s, want %q stop", stream, text, finish, whole[:i])
			}
		}
	})

	t.Run("prompt as token ids", func(t *testing.T) {
		ids, _ := tok.Encode("Once upon a time", true, true)
		b, _ := json.Marshal(map[string]any{"prompt": ids, "max_tokens": 10})
		got := decodeOK(t, postJSON(t, ts.URL+"/v1/completions", string(b)))
		want := decodeOK(t, postJSON(t, ts.URL+"/v1/completions", `{"prompt":"Once upon a time","max_tokens":10}`))
		if *got.Choices[0].Text != *want.Choices[0].Text || got.Usage.PromptTokens != len(ids) {
			t.Errorf("ids %q / text %q", *got.Choices[0].Text, *want.Choices[0].Text)
		}
	})

	t.Run("content parts and ignored fields", func(t *testing.T) {
		plain := decodeResp(t, postJSON(t, ts.URL+"/v1/chat/completions",
			`{"messages":[{"role":"user","content":"Hello there"}],"max_tokens":8}`).Body)
		parts := postJSON(t, ts.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":[{"type":"text","text":"Hello"},{"type":"text","text":" there"}]}],
			"max_tokens":8,"temperature":"hot","top_p":[1],"n":3,"presence_penalty":null,"frequency_penalty":{"x":1},
			"seed":7,"user":"u","logit_bias":{"1":5},"metadata":{},"store":false,"parallel_tool_calls":true,"tool_choice":"none",
			"response_format":{"type":"text"},"logprobs":false,"unknown_field":[1,2,3],"model":null}`)
		if parts.Status != 200 {
			t.Fatalf("%d %s", parts.Status, parts.Body)
		}
		if got := decodeResp(t, parts.Body); got.Choices[0].Message["content"] != plain.Choices[0].Message["content"] {
			t.Errorf("parts gave %v, plain %v", got.Choices[0].Message, plain.Choices[0].Message)
		}
		// developer is the system role under its newer name.
		dev := decodeOK(t, postJSON(t, ts.URL+"/v1/chat/completions", `{"messages":[{"role":"developer","content":"Be kind."},{"role":"user","content":"Tell me a story."}],"max_tokens":30}`))
		sys := decodeOK(t, postJSON(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(chatBody, "")))
		if dev.Usage.PromptTokens != sys.Usage.PromptTokens || dev.Choices[0].Message["content"] != sys.Choices[0].Message["content"] {
			t.Errorf("developer role differs from system")
		}
	})

	t.Run("malformed requests", func(t *testing.T) {
		testMalformed(t, ts)
	})

	t.Run("model errors", func(t *testing.T) {
		checkError(t, "unknown model", postJSON(t, ts.URL+"/v1/chat/completions", `{"model":"gpt-4","messages":[{"role":"user","content":"hi"}]}`), 404, codeModelNotFound)
		checkError(t, "unknown model (completions)", postJSON(t, ts.URL+"/v1/completions", `{"model":"gpt-4","prompt":"hi"}`), 404, codeModelNotFound)
		checkError(t, "unknown model (stream)", postJSON(t, ts.URL+"/v1/chat/completions", `{"model":"gpt-4","stream":true,"messages":[{"role":"user","content":"hi"}]}`), 404, codeModelNotFound)

		noDefault := startServer(t, Config{Backend: sw.Router})
		checkError(t, "no model, no default", postJSON(t, noDefault.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`), 400, codeModelRequired)
		checkError(t, "no model, no default (completions)", postJSON(t, noDefault.URL+"/v1/completions", `{"prompt":"hi"}`), 400, codeModelRequired)
		if r := postJSON(t, noDefault.URL+"/v1/completions", `{"model":"stories260K","prompt":"hi","max_tokens":2}`); r.Status != 200 {
			t.Errorf("named model without default: %d %s", r.Status, r.Body)
		}

		// The router's error names peers and addresses: the client sees none of it.
		const detail = "dial 12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN at /ip4/127.0.0.1/tcp/4001"
		route := startServer(t, Config{Backend: &failingBackend{Backend: sw.Router, after: 0, err: fmt.Errorf("chain: %s: %w", detail, router.ErrRouteUnavailable)}, DefaultModel: storiesName})
		r := postJSON(t, route.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`)
		checkError(t, "route unavailable", r, 503, codeRouteUnavailable)
		if bytes.Contains(r.Body, []byte("12D3KooW")) || bytes.Contains(r.Body, []byte("127.0.0.1")) {
			t.Errorf("route unavailable: the body names a peer or an address: %s", r.Body)
		}
		checkError(t, "route unavailable (stream)", postJSON(t, route.URL+"/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`), 503, codeRouteUnavailable)
		checkError(t, "route unavailable (completions)", postJSON(t, route.URL+"/v1/completions", `{"prompt":"hi"}`), 503, codeRouteUnavailable)

		// The router's refusal says which blocks lack a holder and why,
		// and still names no peer.
		re := &router.RouteError{Model: storiesName, First: 3, Last: 5, Excluded: 2, Err: errors.New(detail)}
		why := startServer(t, Config{Backend: &failingBackend{Backend: sw.Router, after: 0, err: re}, DefaultModel: storiesName})
		r = postJSON(t, why.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`)
		d := checkError(t, "route unavailable with its reason", r, 503, codeRouteUnavailable)
		if !strings.Contains(d.Message, "blocks 3..4 have no usable holder: 2 holders are left out after failures") || bytes.Contains(r.Body, []byte("12D3KooW")) {
			t.Errorf("route unavailable with its reason: %s", r.Body)
		}
	})

	t.Run("failure mid-stream", func(t *testing.T) {
		broken := startServer(t, Config{Backend: &failingBackend{Backend: sw.Router, after: 3, err: errors.New("hop 2 of 3: stream reset")}, DefaultModel: storiesName})
		resp, events := streamPost(t, broken.URL+"/v1/chat/completions", `{"stream":true,"max_tokens":20,"messages":[{"role":"user","content":"hi"}]}`)
		if resp.Status != 200 || len(events) < 2 {
			t.Fatalf("%d, %d events", resp.Status, len(events))
		}
		last := events[len(events)-1].Data
		checkError(t, "error event", response{Status: 503, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(last)}, 503, codeRouteUnavailable)
		for _, ev := range events[:len(events)-1] {
			if c := decodeResp(t, []byte(ev.Data)); c.Object != "chat.completion.chunk" || c.Choices[0].FinishReason != nil {
				t.Errorf("event before the error: %s", ev.Data)
			}
		}
		if n := broken.inFlight(); n != 0 {
			t.Errorf("in flight after a broken stream: %v", n)
		}
		// The OpenAI SDK surfaces the event as the stream's error.
		c := openai.NewClient(option.WithBaseURL(broken.URL+"/v1/"), option.WithMaxRetries(0))
		st := c.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}, MaxTokens: openai.Int(20)})
		chunks := 0
		for st.Next() {
			chunks++
		}
		if err := st.Err(); err == nil || !strings.Contains(err.Error(), codeRouteUnavailable) || chunks == 0 {
			t.Errorf("SDK saw %d chunks and error %v, want chunks then a route_unavailable error", chunks, err)
		}
		st.Close()

		// The non-streamed answer to the same failure is a plain error.
		checkError(t, "failure, whole body", postJSON(t, broken.URL+"/v1/chat/completions", `{"max_tokens":20,"messages":[{"role":"user","content":"hi"}]}`), 503, codeRouteUnavailable)
	})

	t.Run("concurrent streams", func(t *testing.T) {
		want := decodeOK(t, postJSON(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(chatBody, ""))).Choices[0].Message["content"]
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, events := streamPost(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(chatBody, `,"stream":true`))
				if resp.Status != 200 {
					errs <- fmt.Errorf("status %d %s", resp.Status, resp.Body)
					return
				}
				if got := checkChatStream(t, events, "", false); got != want {
					errs <- fmt.Errorf("stream %q, want %q", got, want)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		sw.WaitNoSessions(t)
	})

	t.Run("client disconnect cancels", func(t *testing.T) {
		before := tokensOf(ts)
		for _, stream := range []bool{true, false} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"prompt":"Once upon a time","max_tokens":1900,"stream":%v}`, stream)
			fmt.Fprintf(conn, "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			if stream {
				buf := make([]byte, 512)
				if _, err := conn.Read(buf); err != nil {
					t.Fatal(err)
				}
			} else {
				time.Sleep(150 * time.Millisecond)
			}
			conn.Close()
			deadline := time.Now().Add(swarmtest.DefaultWaitTime)
			for ts.inFlight() != 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if ts.inFlight() != 0 {
				t.Fatalf("stream=%v: request still in flight after the client left", stream)
			}
		}
		sw.WaitNoSessions(t)
		n := tokensOf(ts) - before
		t.Logf("%v tokens generated for two abandoned requests of up to 1900 each", n)
		if n >= 1900 {
			t.Errorf("%v tokens generated for two abandoned requests: generation was not cancelled", n)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		r := do(t, "GET", ts.URL+"/metrics", "", nil)
		for _, want := range []string{`svc_api_requests_total{code="200",route="/v1/chat/completions"}`, "svc_api_generated_tokens_total", "svc_api_requests_in_flight 0"} {
			if !strings.Contains(string(r.Body), want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})

	t.Run("graceful shutdown lets a stream finish", func(t *testing.T) {
		gs := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
		req, _ := http.NewRequest("POST", gs.URL+"/v1/completions", strings.NewReader(`{"prompt":"Once upon a time","max_tokens":300,"stream":true}`))
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		first := make([]byte, 16)
		if _, err := io.ReadFull(resp.Body, first); err != nil {
			t.Fatal(err)
		}
		stopped := make(chan error, 1)
		go func() { stopped <- gs.stop() }()
		rest, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("stream cut by the shutdown: %v", err)
		}
		if !strings.HasSuffix(string(rest), "data: [DONE]\n\n") {
			t.Errorf("stream did not finish: ...%q", rest[max(0, len(rest)-80):])
		}
		select {
		case err := <-stopped:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("Serve did not return after the stream ended")
		}
		if _, err := http.Get(gs.URL + "/health"); err == nil {
			t.Error("server still accepts requests after shutdown")
		}
	})

	// After everything above, the server still answers and holds nothing.
	if r := postJSON(t, ts.URL+"/v1/completions", `{"prompt":"Once","max_tokens":3}`); r.Status != 200 {
		t.Errorf("server unwell after the tests: %d %s", r.Status, r.Body)
	}
	sw.WaitNoSessions(t)
}

func tokensOf(ts *testServer) float64 {
	var sum float64
	mfs, _ := ts.reg.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "svc_api_generated_tokens_total" {
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

// checkChatStream checks SPEC's sequence — role chunk, content chunks,
// final chunk with empty delta and finish_reason, optional usage chunk,
// [DONE] — and that every piece is valid UTF-8. It returns the content.
func checkChatStream(t *testing.T, events []sseEvent, reason string, withUsage bool) string {
	t.Helper()
	if len(events) < 3 || events[len(events)-1].Data != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %v", events)
	}
	body := events[:len(events)-1]
	if withUsage {
		u := decodeResp(t, []byte(body[len(body)-1].Data))
		if len(u.Choices) != 0 || u.Usage == nil {
			t.Errorf("usage chunk %s", body[len(body)-1].Data)
		}
		body = body[:len(body)-1]
	}
	var content strings.Builder
	id := ""
	for i, ev := range body {
		c := decodeResp(t, []byte(ev.Data))
		if c.Object != "chat.completion.chunk" || !strings.HasPrefix(c.ID, "chatcmpl-") || len(c.Choices) != 1 || c.Usage != nil {
			t.Fatalf("event %d: %s", i, ev.Data)
		}
		if id == "" {
			id = c.ID
		} else if c.ID != id {
			t.Errorf("event %d: id %s, first was %s", i, c.ID, id)
		}
		ch := c.Choices[0]
		switch {
		case i == 0:
			if len(ch.Delta) != 1 || ch.Delta["role"] != "assistant" || ch.FinishReason != nil {
				t.Errorf("first event %s", ev.Data)
			}
		case i == len(body)-1:
			if len(ch.Delta) != 0 || ch.FinishReason == nil || (reason != "" && *ch.FinishReason != reason) {
				t.Errorf("final event %s", ev.Data)
			}
		default:
			s, ok := ch.Delta["content"].(string)
			if len(ch.Delta) != 1 || !ok || s == "" || ch.FinishReason != nil {
				t.Errorf("content event %s", ev.Data)
			}
			if !utf8.ValidString(s) {
				t.Errorf("piece %q is not valid UTF-8", s)
			}
			content.WriteString(s)
		}
	}
	return content.String()
}

// TestIncompleteModel: a swarm holding only some blocks of a model. The
// model is not listed, and requests for it answer 503 model_incomplete.
func TestIncompleteModel(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 4}})
	swarmtest.WaitState(t, sw.Router, storiesName, router.StateIncomplete)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	r := do(t, "GET", ts.URL+"/v1/models", "", nil)
	if r.Status != 200 || strings.TrimSpace(string(r.Body)) != `{"object":"list","data":[]}` {
		t.Errorf("model list with an incomplete model: %d %s", r.Status, r.Body)
	}
	checkError(t, "chat", postJSON(t, ts.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"hi"}]}`), 503, codeModelIncomplete)
	checkError(t, "chat, stream", postJSON(t, ts.URL+"/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"hi"}]}`), 503, codeModelIncomplete)
	checkError(t, "completion", postJSON(t, ts.URL+"/v1/completions", `{"model":"stories260K","prompt":"hi"}`), 503, codeModelIncomplete)
	checkError(t, "entry", do(t, "GET", ts.URL+"/v1/models/stories260K", "", nil), 404, codeModelNotFound)
}

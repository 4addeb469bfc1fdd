package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/router"
	"svc/shards/model"
	"svc/shards/tokenizer"
)

// Log-probabilities through the HTTP API, over a chain of three real nodes,
// against one process's model.Generate with TopK (and, for an echoed
// prompt, one prefill of every position's logits): the numbers sent as
// JSON parse back to the same float32 bits.

type lpChatEntry struct {
	Token       string      `json:"token"`
	Logprob     json.Number `json:"logprob"`
	Bytes       []int       `json:"bytes"`
	TopLogprobs []struct {
		Token   string      `json:"token"`
		Logprob json.Number `json:"logprob"`
		Bytes   []int       `json:"bytes"`
	} `json:"top_logprobs"`
}

type lpChatLogprobs struct {
	Content []lpChatEntry    `json:"content"`
	Refusal *json.RawMessage `json:"refusal"`
}

type lpTextLogprobs struct {
	Tokens        []string          `json:"tokens"`
	TokenLogprobs []*json.Number    `json:"token_logprobs"`
	TopLogprobs   []json.RawMessage `json:"top_logprobs"`
	TextOffset    []int             `json:"text_offset"`
}

type lpResp struct {
	Choices []struct {
		Text     *string          `json:"text"`
		Message  map[string]any   `json:"message"`
		Delta    map[string]any   `json:"delta"`
		Logprobs *json.RawMessage `json:"logprobs"`
	} `json:"choices"`
}

func decodeLP(t *testing.T, b []byte) lpResp {
	t.Helper()
	var r lpResp
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return r
}

// f32 parses a JSON number as a float32 (rounded once, from the decimal).
func f32(t *testing.T, n json.Number) float32 {
	t.Helper()
	v, err := strconv.ParseFloat(string(n), 32)
	if err != nil {
		t.Fatalf("logprob %q: %v", n, err)
	}
	return float32(v)
}

// tokenName is what the API names a token: its piece, made valid UTF-8.
func tokenName(tok *tokenizer.Tokenizer, id int32) string {
	return strings.ToValidUTF8(tok.Piece(id), "\uFFFD")
}

func pieceBytes(tok *tokenizer.Tokenizer, id int32) []int {
	var b []int
	for _, c := range []byte(tok.Piece(id)) {
		b = append(b, int(c))
	}
	return b
}

// checkChatLogprobs compares chat logprobs.content with one process's steps.
func checkChatLogprobs(t *testing.T, what string, tok *tokenizer.Tokenizer, got []lpChatEntry, want []model.Step, k int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d logprobs entries, one process generated %d tokens", what, len(got), len(want))
	}
	for i, e := range got {
		w := want[i]
		if e.Token != tokenName(tok, w.ID) || !slices.Equal(e.Bytes, pieceBytes(tok, w.ID)) || f32(t, e.Logprob) != w.Top[0].Logprob || len(e.TopLogprobs) != k {
			t.Fatalf("%s: entry %d: %+v, one process %+v", what, i, e, w)
		}
		for j, tp := range e.TopLogprobs {
			if tp.Token != tokenName(tok, w.Top[j].ID) || f32(t, tp.Logprob) != w.Top[j].Logprob || !slices.Equal(tp.Bytes, pieceBytes(tok, w.Top[j].ID)) {
				t.Fatalf("%s: entry %d, top %d: %+v, one process %+v", what, i, j, tp, w.Top[j])
			}
		}
	}
}

// checkTopTable checks one position's {token: logprob} object: the k most
// likely tokens, then the chosen one if it is not among them, in order.
func checkTopTable(t *testing.T, what string, tok *tokenizer.Tokenizer, raw json.RawMessage, top []model.TokenLogprob, k int, chosen int32, lp float32) {
	t.Helper()
	want := slices.Clone(top[:k])
	if !slices.ContainsFunc(want, func(e model.TokenLogprob) bool { return e.ID == chosen }) {
		want = append(want, model.TokenLogprob{ID: chosen, Logprob: lp})
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if d, err := dec.Token(); err != nil || d != json.Delim('{') {
		t.Fatalf("%s: top_logprobs entry %s is not an object", what, raw)
	}
	i := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		val, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(want) || key != tokenName(tok, want[i].ID) || f32(t, val.(json.Number)) != want[i].Logprob {
			t.Fatalf("%s: top_logprobs %s, want %v (k %d, chosen %d)", what, raw, want, k, chosen)
		}
		i++
	}
	if i != len(want) {
		t.Fatalf("%s: top_logprobs %s, want %v", what, raw, want)
	}
}

func TestLogprobs(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 4}, {4, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	tok := swarmTokenizer(t, sw)

	t.Run("chat", func(t *testing.T) {
		_, ids := swarmChatPrompt(t, sw, []map[string]string{{"role": "user", "content": "Tell me a story."}})
		for _, k := range []int{0, 3, MaxChatTopLogprobs} {
			want := swarmtest.LocalLogprobs(t, path, ids, 24, max(k, 1))
			body := fmt.Sprintf(`{"messages":[{"role":"user","content":"Tell me a story."}],"max_tokens":24,"logprobs":true,"top_logprobs":%d%%s}`, k)
			r := decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(body, ""))))
			var lp lpChatLogprobs
			unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
			if lp.Refusal != nil && string(*lp.Refusal) != "null" {
				t.Errorf("refusal %s", *lp.Refusal)
			}
			checkChatLogprobs(t, fmt.Sprintf("chat top %d", k), tok, lp.Content, want.Steps, k)
			var joined strings.Builder
			for _, e := range lp.Content {
				joined.WriteString(e.Token)
			}
			if content := r.Choices[0].Message["content"]; joined.String() != content {
				t.Errorf("tokens join to %q, content %q", joined.String(), content)
			}

			// Streamed: every chunk that carries text carries its tokens'.
			resp, events := streamPost(t, ts.URL+"/v1/chat/completions", fmt.Sprintf(body, `,"stream":true`))
			if resp.Status != 200 {
				t.Fatalf("stream: %d %s", resp.Status, resp.Body)
			}
			var streamed []lpChatEntry
			for i, ev := range events[:len(events)-1] {
				c := decodeLP(t, []byte(ev.Data))
				_, hasText := c.Choices[0].Delta["content"]
				if (c.Choices[0].Logprobs != nil && string(*c.Choices[0].Logprobs) != "null") != hasText {
					t.Fatalf("event %d: logprobs %v with content %v: %s", i, c.Choices[0].Logprobs != nil, hasText, ev.Data)
				}
				if hasText {
					var l lpChatLogprobs
					unmarshalNumbers(t, *c.Choices[0].Logprobs, &l)
					if len(l.Content) == 0 {
						t.Errorf("event %d carries text and no token: %s", i, ev.Data)
					}
					streamed = append(streamed, l.Content...)
				}
			}
			checkChatLogprobs(t, fmt.Sprintf("streamed chat top %d", k), tok, streamed, want.Steps, k)
		}

		// The official SDK reads them.
		client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))
		want := swarmtest.LocalLogprobs(t, path, ids, 12, 4)
		cc, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
			Model:       storiesName,
			Messages:    []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Tell me a story.")},
			MaxTokens:   openai.Int(12),
			Logprobs:    openai.Bool(true),
			TopLogprobs: openai.Int(4),
		})
		if err != nil {
			t.Fatal(err)
		}
		content := cc.Choices[0].Logprobs.Content
		if len(content) != len(want.Steps) {
			t.Fatalf("SDK: %d entries, want %d", len(content), len(want.Steps))
		}
		for i, e := range content {
			w := want.Steps[i]
			if e.Token != tokenName(tok, w.ID) || float32(e.Logprob) != w.Top[0].Logprob || len(e.TopLogprobs) != 4 || float32(e.TopLogprobs[3].Logprob) != w.Top[3].Logprob {
				t.Fatalf("SDK entry %d: %+v, one process %+v", i, e, w)
			}
		}
	})

	t.Run("completions echo", func(t *testing.T) {
		const prompt = "Once upon a time"
		ids, err := tok.Encode(prompt, true, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 2, MaxCompletionLogprobs} {
			want := swarmtest.LocalLogprobs(t, path, ids, 16, max(k, 1))
			body := fmt.Sprintf(`{"prompt":%q,"max_tokens":16,"echo":true,"logprobs":%d%%s}`, prompt, k)
			r := decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/completions", fmt.Sprintf(body, ""))))
			var lp lpTextLogprobs
			unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
			text := *r.Choices[0].Text
			checkTextLogprobs(t, fmt.Sprintf("top %d", k), tok, lp, ids, want, k, text)

			// Streamed: the echo's chunk carries the prompt's, each
			// piece its tokens'; together, the whole answer's.
			resp, events := streamPost(t, ts.URL+"/v1/completions", fmt.Sprintf(body, `,"stream":true`))
			if resp.Status != 200 {
				t.Fatalf("stream: %d %s", resp.Status, resp.Body)
			}
			var all lpTextLogprobs
			var streamedText strings.Builder
			for i, ev := range events[:len(events)-1] {
				c := decodeLP(t, []byte(ev.Data))
				streamedText.WriteString(*c.Choices[0].Text)
				if c.Choices[0].Logprobs == nil || string(*c.Choices[0].Logprobs) == "null" {
					if *c.Choices[0].Text != "" {
						t.Fatalf("event %d carries text and no logprobs: %s", i, ev.Data)
					}
					continue
				}
				var l lpTextLogprobs
				unmarshalNumbers(t, *c.Choices[0].Logprobs, &l)
				all.Tokens = append(all.Tokens, l.Tokens...)
				all.TokenLogprobs = append(all.TokenLogprobs, l.TokenLogprobs...)
				all.TopLogprobs = append(all.TopLogprobs, l.TopLogprobs...)
				all.TextOffset = append(all.TextOffset, l.TextOffset...)
			}
			if streamedText.String() != text {
				t.Errorf("streamed %q, whole %q", streamedText.String(), text)
			}
			checkTextLogprobs(t, fmt.Sprintf("streamed top %d", k), tok, all, ids, want, k, text)
		}
	})

	t.Run("completions without echo", func(t *testing.T) {
		ids, err := tok.Encode("The dog", true, true)
		if err != nil {
			t.Fatal(err)
		}
		want := swarmtest.LocalLogprobs(t, path, ids, 10, 1)
		r := decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/completions", `{"prompt":"The dog","max_tokens":10,"logprobs":0}`)))
		var lp lpTextLogprobs
		unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
		checkTextLogprobs(t, "no echo", tok, lp, nil, want, 0, *r.Choices[0].Text)
		// Without logprobs, none.
		r = decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/completions", `{"prompt":"The dog","max_tokens":3}`)))
		if r.Choices[0].Logprobs != nil && string(*r.Choices[0].Logprobs) != "null" {
			t.Errorf("logprobs without asking: %s", *r.Choices[0].Logprobs)
		}
	})

	t.Run("lm-eval loglikelihood request", func(t *testing.T) {
		// What lm-evaluation-harness sends to score a continuation: token
		// ids in a batch of one, echo, one token, logprobs 1.
		ids := []int32{1, 403, 407, 261, 378}
		want := swarmtest.LocalLogprobs(t, path, ids, 1, 1)
		r := decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/completions", `{"model":"stories260K","prompt":[[1,403,407,261,378]],"max_tokens":1,"temperature":0,"echo":true,"logprobs":1}`)))
		var lp lpTextLogprobs
		unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
		checkTextLogprobs(t, "lm-eval", tok, lp, ids, want, 1, *r.Choices[0].Text)
	})

	t.Run("max_tokens 0 scores the prompt", func(t *testing.T) {
		// The older way of scoring text with the OpenAI API: echo, no
		// tokens, log-probabilities of the prompt alone.
		ids, err := tok.Encode("Once upon a time", true, true)
		if err != nil {
			t.Fatal(err)
		}
		want := swarmtest.LocalLogprobs(t, path, ids, 1, 3)
		want.Steps = nil
		body := `{"prompt":"Once upon a time","max_tokens":0,"echo":true,"logprobs":3%s}`
		b := okBody(t, postJSON(t, ts.URL+"/v1/completions", fmt.Sprintf(body, "")))
		c := decodeResp(t, b)
		r := decodeLP(t, b)
		if *c.Choices[0].Text != "Once upon a time" || *c.Choices[0].FinishReason != "length" || c.Usage.CompletionTokens != 0 || c.Usage.PromptTokens != len(ids) {
			t.Fatalf("answer %s", b)
		}
		var lp lpTextLogprobs
		unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
		checkTextLogprobs(t, "max_tokens 0", tok, lp, ids, want, 3, *c.Choices[0].Text)

		resp, events := streamPost(t, ts.URL+"/v1/completions", fmt.Sprintf(body, `,"stream":true`))
		if resp.Status != 200 || len(events) != 3 {
			t.Fatalf("stream: %d %v", resp.Status, events)
		}
		r = decodeLP(t, []byte(events[0].Data))
		var slp lpTextLogprobs
		unmarshalNumbers(t, *r.Choices[0].Logprobs, &slp)
		checkTextLogprobs(t, "streamed max_tokens 0", tok, slp, ids, want, 3, *r.Choices[0].Text)
	})

	t.Run("a stream of no tokens ends", func(t *testing.T) {
		// A generation whose first token is a stop token emits nothing
		// (stories260K never starts with one, so the real router's
		// tokens are held back): the stream still ends with its final
		// chunk, and the echo carries the prompt's log-probabilities.
		silent := startServer(t, Config{Backend: silentBackend{sw.Router}, DefaultModel: storiesName})
		for _, body := range []string{
			`{"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"logprobs":true,"stream":true}`,
			`{"prompt":"Once upon a time","max_tokens":4,"echo":true,"logprobs":1,"stream":true}`,
		} {
			path := "/v1/chat/completions"
			if strings.Contains(body, "prompt") {
				path = "/v1/completions"
			}
			resp, events := streamPost(t, silent.URL+path, body)
			if resp.Status != 200 || len(events) < 2 || events[len(events)-1].Data != "[DONE]" {
				t.Fatalf("%s: %d %v", body, resp.Status, events)
			}
			if path == "/v1/completions" && !strings.Contains(events[0].Data, `"token_logprobs":[null,`) {
				t.Errorf("echo chunk %s", events[0].Data)
			}
		}
	})

	t.Run("stop string", func(t *testing.T) {
		// The tokens of the stop string are left out with it: the
		// tokens' texts join to the text, up to the last token's tail.
		ids, _ := tok.Encode("Once upon a time", true, true)
		full := swarmtest.LocalLogprobs(t, path, ids, 20, 1)
		text := completionText(tok, func() []int32 {
			var out []int32
			for _, s := range full.Steps {
				out = append(out, s.ID)
			}
			return out
		}())
		if len(text) < 12 {
			t.Skipf("reference text %q too short", text)
		}
		stop := text[8:12]
		r := decodeLP(t, okBody(t, postJSON(t, ts.URL+"/v1/completions", fmt.Sprintf(`{"prompt":"Once upon a time","max_tokens":20,"logprobs":1,"stop":[%q]}`, stop))))
		var lp lpTextLogprobs
		unmarshalNumbers(t, *r.Choices[0].Logprobs, &lp)
		got := *r.Choices[0].Text
		joined := strings.Join(lp.Tokens, "")
		if !strings.HasPrefix(joined, got) || len(lp.Tokens) == 0 || strings.HasPrefix(strings.Join(lp.Tokens[:len(lp.Tokens)-1], ""), got+stop[:1]) {
			t.Errorf("stop %q: text %q, tokens %q", stop, got, lp.Tokens)
		}
	})
}

// silentBackend is the real router whose tokens are never handed on, as
// when a generation's first token is a stop token.
type silentBackend struct{ router.Backend }

func (b silentBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	res, err := b.Backend.Generate(ctx, req, func(router.Token) error { return nil })
	res.CompletionTokens, res.Finish = 0, router.FinishStop
	return res, err
}

// okBody is a 200 answer's body.
func okBody(t *testing.T, r response) []byte {
	t.Helper()
	decodeOK(t, r)
	return r.Body
}

func unmarshalNumbers(t *testing.T, raw []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}

// checkTextLogprobs compares legacy completions' logprobs with one
// process's: the prompt's positions first when prompt is given (the
// first null), then the generated tokens; offsets point at each token's
// text in the answer's text.
func checkTextLogprobs(t *testing.T, what string, tok *tokenizer.Tokenizer, lp lpTextLogprobs, prompt []int32, want swarmtest.Logprobs, k int, text string) {
	t.Helper()
	n := len(prompt) + len(want.Steps)
	if len(lp.Tokens) != n || len(lp.TokenLogprobs) != n || len(lp.TopLogprobs) != n || len(lp.TextOffset) != n {
		t.Fatalf("%s: %d tokens, %d logprobs, %d tops, %d offsets; want %d", what, len(lp.Tokens), len(lp.TokenLogprobs), len(lp.TopLogprobs), len(lp.TextOffset), n)
	}
	for i, id := range prompt {
		if lp.Tokens[i] != tokenName(tok, id) {
			t.Fatalf("%s: prompt token %d: %q, want %q", what, i, lp.Tokens[i], tokenName(tok, id))
		}
		if i == 0 {
			if lp.TokenLogprobs[0] != nil || string(lp.TopLogprobs[0]) != "null" {
				t.Fatalf("%s: the first prompt token has a log-probability: %v %s", what, *lp.TokenLogprobs[0], lp.TopLogprobs[0])
			}
			continue
		}
		if lp.TokenLogprobs[i] == nil || f32(t, *lp.TokenLogprobs[i]) != want.Prompt[i-1] {
			t.Fatalf("%s: prompt token %d: logprob %v, one process %v", what, i, lp.TokenLogprobs[i], want.Prompt[i-1])
		}
		checkTopTable(t, fmt.Sprintf("%s: prompt token %d", what, i), tok, lp.TopLogprobs[i], want.PromptTops[i-1], k, id, want.Prompt[i-1])
	}
	runes := []rune(text)
	prev := 0
	for j, s := range want.Steps {
		i := len(prompt) + j
		if lp.Tokens[i] != tokenName(tok, s.ID) || lp.TokenLogprobs[i] == nil || f32(t, *lp.TokenLogprobs[i]) != s.Top[0].Logprob {
			t.Fatalf("%s: token %d: %q %v, one process %q %v", what, j, lp.Tokens[i], lp.TokenLogprobs[i], tokenName(tok, s.ID), s.Top[0].Logprob)
		}
		checkTopTable(t, fmt.Sprintf("%s: token %d", what, j), tok, lp.TopLogprobs[i], s.Top, k, s.ID, s.Top[0].Logprob)
		off := lp.TextOffset[i]
		if off < prev || off > len(runes) || !strings.HasPrefix(string(runes[off:]), lp.Tokens[i]) {
			t.Fatalf("%s: token %d %q at offset %d of %q", what, j, lp.Tokens[i], off, text)
		}
		prev = off
	}
	if utf8.RuneCountInString(text) < prev {
		t.Fatalf("%s: offsets beyond the text", what)
	}
}

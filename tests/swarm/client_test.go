package swarm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/proctest"
	"svc/server"
	"svc/shards/chattmpl"
	"svc/shards/gguf"
	"svc/shards/tokenizer"
)

const modelName = "stories260K"

// prompt is one conversation the tests ask for, with its token budget.
type prompt struct {
	system, user string
	maxTokens    int
	// logprobs asks for the top logprobs tokens' log-probabilities at
	// every position (0: none).
	logprobs int
}

func (p prompt) messages() []chattmpl.Message {
	return []chattmpl.Message{{Role: "system", Content: p.system}, {Role: "user", Content: p.user}}
}

// params is the SDK request for p; streamed requests ask for usage.
func (p prompt) params(stream bool) openai.ChatCompletionNewParams {
	q := openai.ChatCompletionNewParams{
		Model: modelName,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(p.system),
			openai.UserMessage(p.user),
		},
		MaxTokens: openai.Int(int64(p.maxTokens)),
	}
	if stream {
		q.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	}
	if p.logprobs > 0 {
		q.Logprobs, q.TopLogprobs = openai.Bool(true), openai.Int(int64(p.logprobs))
	}
	return q
}

// answer is what a generation must give: its text, its completion token
// count (without a stop token) and its finish reason.
type answer struct {
	text   string
	tokens int
	finish string
	prompt int // prompt tokens
	// logprobs, when asked for, spells each token's log-probability and
	// its position's top ones as float32 (so equal strings, equal bits).
	logprobs string
}

// appendLogprob spells one log-probability for answer.logprobs.
func appendLogprob(b []byte, v float32) []byte {
	return append(strconv.AppendFloat(b, float64(v), 'g', -1, 32), ' ')
}

func (a answer) String() string {
	s := fmt.Sprintf("%q (%d+%d tokens, %s)", a.text, a.prompt, a.tokens, a.finish)
	if a.logprobs != "" {
		s += fmt.Sprintf(" logprobs %.60s… (%d bytes)", a.logprobs, len(a.logprobs))
	}
	return s
}

// reference renders the conversation as the API does and runs
// `svc generate --json` on it in one process: the ground truth a swarm must
// reproduce token for token.
func reference(ctx context.Context, bin, modelPath string, p prompt) (answer, error) {
	f, err := gguf.Open(modelPath)
	if err != nil {
		return answer{}, fmt.Errorf("reference: %w", err)
	}
	defer f.Close()
	text, ids, err := server.ChatPrompt(f, p.messages(), nil)
	if err != nil {
		return answer{}, fmt.Errorf("reference: render: %w", err)
	}
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		return answer{}, fmt.Errorf("reference: tokenizer: %w", err)
	}
	res, err := proctest.Run(ctx, proctest.Cmd{Path: bin, Args: []string{"generate", "--model", modelPath, "--prompt", text,
		"-n", strconv.Itoa(p.maxTokens), "--threads", "1", "--logprobs", strconv.Itoa(p.logprobs), "--json"}})
	if err == nil && res.Code != 0 {
		err = fmt.Errorf("exit code %d", res.Code)
	}
	if err != nil {
		return answer{}, fmt.Errorf("reference: svc generate: %w\n%s", err, res.Stderr)
	}
	out := []byte(res.Stdout)
	var g struct {
		PromptTokens     []int32 `json:"prompt_tokens"`
		CompletionTokens []int32 `json:"completion_tokens"`
		Text             string  `json:"text"`
		FinishReason     string  `json:"finish_reason"`
		TopLogprobs      [][]struct {
			Logprob float32 `json:"logprob"`
		} `json:"top_logprobs"`
	}
	if err := json.Unmarshal(out, &g); err != nil {
		return answer{}, fmt.Errorf("reference: svc generate --json: %w\n%s", err, out)
	}
	if fmt.Sprint(g.PromptTokens) != fmt.Sprint(ids) {
		return answer{}, fmt.Errorf("reference: svc generate tokenized the rendered prompt as %v, the API would use %v", g.PromptTokens, ids)
	}
	a := answer{text: g.Text, tokens: len(g.CompletionTokens), finish: g.FinishReason, prompt: len(ids)}
	if n := len(g.CompletionTokens); a.finish == "stop" && n > 0 && tok.IsEOG(g.CompletionTokens[n-1]) {
		a.tokens-- // the API does not count the stop token as completion
	}
	if p.logprobs > 0 {
		// Greedy: the chosen token's is the first of the top ones.
		var b []byte
		for _, top := range g.TopLogprobs[:a.tokens] {
			b = appendLogprob(b, top[0].Logprob)
			for _, t := range top {
				b = appendLogprob(b, t.Logprob)
			}
		}
		a.logprobs = string(b)
	}
	return a, nil
}

// newClient is the OpenAI SDK pointed at a gateway, without retries: every
// answer the test sees is the gateway's own.
func newClient(api string) openai.Client {
	return openai.NewClient(option.WithBaseURL(api+"/v1/"), option.WithAPIKey("none"), option.WithMaxRetries(0))
}

// streamChat streams one chat completion and checks the chunk sequence:
// the role first, then content, then one chunk with finish_reason, then the
// usage chunk. onContent, if set, is called after every content chunk with
// the number of content chunks so far. A stream that ends without a finish
// reason and without an error is an error too (a truncated stream).
func streamChat(ctx context.Context, c openai.Client, q openai.ChatCompletionNewParams, onContent func(n int)) (answer, error) {
	st := c.Chat.Completions.NewStreaming(ctx, q)
	defer st.Close()
	var a answer
	var text strings.Builder
	var lp []byte
	chunks, contents := 0, 0
	sawUsage := false
	for st.Next() {
		ch := st.Current()
		if !strings.HasPrefix(ch.ID, "chatcmpl-") || ch.Object != "chat.completion.chunk" {
			return a, fmt.Errorf("chunk %d is not a chat.completion.chunk: %s", chunks, ch.RawJSON())
		}
		chunks++
		if len(ch.Choices) == 0 {
			if a.finish == "" || sawUsage {
				return a, fmt.Errorf("usage chunk out of place: %s", ch.RawJSON())
			}
			sawUsage = true
			a.prompt, a.tokens = int(ch.Usage.PromptTokens), int(ch.Usage.CompletionTokens)
			if ch.Usage.TotalTokens != ch.Usage.PromptTokens+ch.Usage.CompletionTokens {
				return a, fmt.Errorf("usage does not add up: %s", ch.RawJSON())
			}
			continue
		}
		d := ch.Choices[0]
		switch {
		case chunks == 1 && d.Delta.Role != "assistant":
			return a, fmt.Errorf("first chunk has no assistant role: %s", ch.RawJSON())
		case a.finish != "":
			return a, fmt.Errorf("chunk after the finish reason: %s", ch.RawJSON())
		}
		for _, e := range d.Logprobs.Content {
			lp = appendLogprob(lp, float32(e.Logprob))
			for _, t := range e.TopLogprobs {
				lp = appendLogprob(lp, float32(t.Logprob))
			}
		}
		if d.Delta.Content != "" {
			text.WriteString(d.Delta.Content)
			contents++
			if onContent != nil {
				onContent(contents)
			}
		}
		a.finish = d.FinishReason
	}
	a.text, a.logprobs = text.String(), string(lp)
	if err := st.Err(); err != nil {
		return a, err
	}
	if a.finish == "" || !sawUsage {
		return a, fmt.Errorf("stream ended after %d chunks without a finish reason or usage (text so far %q)", chunks, a.text)
	}
	// SPEC §4: the final chunk says stop, also when max_tokens ended the
	// stream; a client tells the two apart by the usage, as done here to
	// compare with svc generate.
	if a.finish != "stop" {
		return a, fmt.Errorf("final chunk's finish_reason is %q, SPEC §4 says stop", a.finish)
	}
	if q.MaxTokens.Valid() && int64(a.tokens) == q.MaxTokens.Value {
		a.finish = "length"
	}
	return a, nil
}

// localErrors is SPEC §7's error table of the local variant: code → status.
var localErrors = map[string]int{
	"model_required":    400,
	"model_not_found":   404,
	"model_incomplete":  503,
	"route_unavailable": 503,
}

// specError is an error answer in SPEC's shape.
type specError struct {
	status    int // 200 for an error event in a stream that had begun
	code, typ string
	message   string
}

func (e specError) String() string {
	return fmt.Sprintf("%d %s (%s): %s", e.status, e.code, e.typ, e.message)
}

// errorObject is the inner object of SPEC's error body.
type errorObject struct {
	Message *string `json:"message"`
	Type    *string `json:"type"`
	Code    *string `json:"code"`
}

// parseErrorObject checks that raw is exactly {message, type, code}, all
// non-empty strings.
func parseErrorObject(raw []byte) (specError, error) {
	var o errorObject
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return specError{}, fmt.Errorf("error object %s is not {message, type, code}: %w", raw, err)
	}
	if o.Message == nil || o.Type == nil || o.Code == nil || *o.Message == "" || *o.Type == "" || *o.Code == "" {
		return specError{}, fmt.Errorf("error object %s lacks a non-empty message, type or code", raw)
	}
	return specError{code: *o.Code, typ: *o.Type, message: *o.Message}, nil
}

// parseErrorBody checks a whole body: exactly {"error": {…}}.
func parseErrorBody(body []byte) (specError, error) {
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(body, &outer); err != nil {
		return specError{}, fmt.Errorf("error body %q is not a JSON object: %w", body, err)
	}
	inner, ok := outer["error"]
	if !ok || len(outer) != 1 {
		return specError{}, fmt.Errorf("error body %s is not {\"error\": {…}}", body)
	}
	return parseErrorObject(inner)
}

// streamErrPrefix is how the SDK reports an SSE event that carries an
// "error" member: this prefix, then the member's JSON.
const streamErrPrefix = "received error while streaming: "

// classify turns an SDK error into SPEC's terms. It fails for anything
// else: a transport error, a truncated stream, a body or event in another
// shape, or a code outside the local variant's table (or with the wrong
// status).
func classify(err error) (specError, error) {
	var e specError
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		// The SDK keeps only the "error" member; it puts the whole body
		// back into the response for inspection, so check that.
		if apiErr.Response == nil || apiErr.Response.Body == nil {
			return e, fmt.Errorf("HTTP %d without a body: %w", apiErr.StatusCode, err)
		}
		body, rerr := io.ReadAll(apiErr.Response.Body)
		if rerr != nil {
			return e, fmt.Errorf("HTTP %d: reading the body: %w", apiErr.StatusCode, rerr)
		}
		var perr error
		if e, perr = parseErrorBody(body); perr != nil {
			return e, fmt.Errorf("HTTP %d: %w", apiErr.StatusCode, perr)
		}
		e.status = apiErr.StatusCode
	case strings.HasPrefix(err.Error(), streamErrPrefix):
		var perr error
		if e, perr = parseErrorObject([]byte(strings.TrimPrefix(err.Error(), streamErrPrefix))); perr != nil {
			return e, fmt.Errorf("error event: %w", perr)
		}
		e.status = 200
	default:
		return e, fmt.Errorf("not an error in SPEC's shape: %w", err)
	}
	want, ok := localErrors[e.code]
	if !ok {
		return e, fmt.Errorf("code %q is not in SPEC's local-variant table (%s)", e.code, e)
	}
	if e.status != 200 && e.status != want {
		return e, fmt.Errorf("code %q comes with status %d, SPEC says %d (%s)", e.code, e.status, want, e)
	}
	return e, nil
}

// rawChat posts a non-streamed chat completion with net/http, so that the
// exact status and body are seen.
func rawChat(ctx context.Context, api string, p prompt) (int, []byte, error) {
	body, err := json.Marshal(map[string]any{
		"model":      modelName,
		"messages":   []map[string]string{{"role": "system", "content": p.system}, {"role": "user", "content": p.user}},
		"max_tokens": p.maxTokens,
	})
	if err != nil {
		return 0, nil, fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, api+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("POST /v1/chat/completions: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, b, fmt.Errorf("read response: %w", err)
	}
	return resp.StatusCode, b, nil
}

// waitListed polls GET /v1/models until the model is (or is not) listed.
func waitListed(ctx context.Context, api string, listed bool, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var last error
	for {
		got, err := isListed(ctx, api)
		if err == nil && got == listed {
			return nil
		}
		last = err
		if time.Now().After(deadline) {
			return fmt.Errorf("%s listed=%v not reached within %s (last error: %v)", modelName, listed, limit, last)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for /v1/models: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// isListed reports whether GET /v1/models lists the test model.
func isListed(ctx context.Context, api string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, api+"/v1/models", nil)
	if err != nil {
		return false, fmt.Errorf("GET /v1/models: %w", err)
	}
	resp, err := httpc.Do(req)
	if err != nil {
		return false, fmt.Errorf("GET /v1/models: %w", err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return false, fmt.Errorf("GET /v1/models: %w", err)
	}
	for _, m := range list.Data {
		if m.ID == modelName {
			return true, nil
		}
	}
	return false, nil
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/router"
	"svc/shards/chattmpl"
)

// Request parsing is done field by field over the raw JSON so that a wrong
// type is answered with a message naming the field (encoding/json's own
// errors name Go types, not what the client sent).

// largeBody is the size from which a request body is parsed in one of the
// server's few preparation slots. Parsing costs time linear in the body,
// but 32 clients sending megabytes each at once would otherwise keep every
// CPU scanning JSON, and an ordinary request, whose generation hops
// between goroutines many times, would wait behind them at every hop.
const largeBody = 64 << 10

// prepSlots bounds how many large bodies are parsed at once.
type prepSlots chan struct{}

func newPrepSlots() prepSlots { return make(prepSlots, max(1, runtime.GOMAXPROCS(0)/2)) }

// take waits for a slot for a body of size bytes (small ones need none)
// and returns its release; it gives up when done closes or ctx ends.
func (p prepSlots) take(ctx context.Context, done <-chan struct{}, size int) (func(), error) {
	if size < largeBody {
		return func() {}, nil
	}
	select {
	case p <- struct{}{}:
		return func() { <-p }, nil
	case <-done:
		return nil, errors.New("the request ended while waiting to be read")
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// maxTokensCeiling bounds max_tokens before the model is known; the
// model's context length bounds it further once it is.
const maxTokensCeiling = 1 << 30

// fields is a JSON object, one raw value per key.
type fields map[string]json.RawMessage

// parseObject checks that body is one JSON object, in UTF-8, and nothing
// else. It reads the body in two linear passes (json.Unmarshal's check,
// then its decoding into one raw value per key).
func parseObject(body []byte) (fields, *apiError) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, invalidf("request body is empty; expected a JSON object")
	}
	if !utf8.Valid(body) {
		return nil, invalidf("request body is not valid UTF-8")
	}
	if k := kind(body); k != "object" {
		if !json.Valid(body) {
			return nil, invalidf("malformed JSON: %s", jsonErrText(json.Unmarshal(body, new(any))))
		}
		return nil, invalidf("request body must be a JSON object, got %s", k)
	}
	var f fields
	if err := json.Unmarshal(body, &f); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value") {
			return nil, invalidf("malformed JSON: unexpected data after the top-level value (at byte %d)", se.Offset)
		}
		return nil, invalidf("malformed JSON: %s", jsonErrText(err))
	}
	return f, nil
}

func jsonErrText(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	return err.Error()
}

// kind names the JSON type of a raw value, for error messages.
func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// present reports whether key is set to something other than null.
func (f fields) present(key string) bool {
	raw, ok := f[key]
	return ok && kind(raw) != "null"
}

func (f fields) str(key string) (string, bool, *apiError) {
	if !f.present(key) {
		return "", false, nil
	}
	return decodeString(f[key], key)
}

func decodeString(raw json.RawMessage, name string) (string, bool, *apiError) {
	if kind(raw) != "string" {
		return "", false, invalidf("%s must be a string, got %s", name, kind(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, invalidf("%s: %s", name, jsonErrText(err))
	}
	return s, true, nil
}

func (f fields) boolean(key string) (bool, bool, *apiError) {
	if !f.present(key) {
		return false, false, nil
	}
	raw := f[key]
	if kind(raw) != "boolean" {
		return false, false, invalidf("%s must be a boolean, got %s", key, kind(raw))
	}
	return bytes.Equal(bytes.TrimSpace(raw), []byte("true")), true, nil
}

// maxIntegerText bounds the text of an integer field: no count a client
// means is longer, and refusing longer ones keeps the cost of a number
// independent of what a hostile client sends.
const maxIntegerText = 64

// integer reads a JSON integer; 512.0 and 5.12e2 count as integers, 512.5
// and "512" do not. Values beyond int64 saturate. A literal longer than
// maxIntegerText characters is refused; the rest costs time linear in
// its length, without arbitrary-precision arithmetic.
func (f fields) integer(key string) (int64, bool, *apiError) {
	if !f.present(key) {
		return 0, false, nil
	}
	raw := f[key]
	if kind(raw) != "number" {
		return 0, false, invalidf("%s must be an integer, got %s", key, kind(raw))
	}
	text := bytes.TrimSpace(raw)
	if len(text) > maxIntegerText {
		return 0, false, invalidf("%s must be an integer of at most %d characters, got a number of %d characters", key, maxIntegerText, len(text))
	}
	n, ok := jsonInteger(text)
	if !ok {
		return 0, false, invalidf("%s must be an integer, got %s", key, text)
	}
	return n, true, nil
}

// jsonInteger reads a JSON number literal (already checked by the JSON
// decoder) exactly: the value is digits × 10^exp once the fraction's
// digits are moved into the exponent; it is an integer when, without its
// trailing zeros, exp is not negative. Magnitudes beyond int64 saturate.
func jsonInteger(text []byte) (int64, bool) {
	neg := len(text) > 0 && text[0] == '-'
	if neg {
		text = text[1:]
	}
	mant, exp := text, 0
	if i := bytes.IndexAny(text, "eE"); i >= 0 {
		mant = text[:i]
		e, err := strconv.Atoi(string(text[i+1:]))
		if err != nil {
			// An exponent too large for an int: the number is 0 or huge.
			if text[i+1] == '-' {
				e = math.MinInt32
			} else {
				e = math.MaxInt32
			}
		}
		exp = max(min(e, math.MaxInt32), math.MinInt32)
	}
	digits := mant
	if i := bytes.IndexByte(mant, '.'); i >= 0 {
		digits = append(append([]byte(nil), mant[:i]...), mant[i+1:]...)
		exp -= len(mant) - i - 1
	}
	digits = bytes.TrimLeft(digits, "0")
	if len(digits) == 0 {
		return 0, true
	}
	for digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if exp < 0 {
		return 0, false
	}
	saturated := int64(math.MaxInt64)
	if neg {
		saturated = math.MinInt64
	}
	if len(digits)+exp > 19 {
		return saturated, true
	}
	var u uint64
	for _, d := range digits {
		u = u*10 + uint64(d-'0')
	}
	for range exp {
		u *= 10
	}
	if neg {
		if u > 1<<63 {
			return saturated, true
		}
		return int64(-u), true
	}
	if u > math.MaxInt64 {
		return saturated, true
	}
	return int64(u), true
}

// maxTokens reads max_completion_tokens (the current OpenAI name) or
// max_tokens (the older one, which SPEC names); 0 means "not given". With
// zeroOK (a completions request with echo), 0 is allowed and reported as
// none: the prompt alone is answered, scored when logprobs asks.
func (f fields) maxTokens(zeroOK bool) (n int, none bool, aerr *apiError) {
	for _, key := range []string{"max_completion_tokens", "max_tokens"} {
		n, ok, aerr := f.integer(key)
		if aerr != nil {
			return 0, false, aerr
		}
		if !ok {
			continue
		}
		if n == 0 && zeroOK {
			return 0, true, nil
		}
		if n < 1 {
			if zeroOK {
				return 0, false, invalidf("%s must be at least 0, got %d", key, n)
			}
			return 0, false, invalidf("%s must be at least 1, got %d (0 only with echo, in /v1/completions)", key, n)
		}
		if n > maxTokensCeiling {
			return 0, false, invalidf("%s is too large (%d); the limit is the model's context length", key, n)
		}
		return int(n), false, nil
	}
	return 0, false, nil
}

// MaxStops bounds stop's strings. OpenAI allows 4, but
// lm-evaluation-harness's local-completions sends a task's every stop
// string and the end-of-text string (six for humaneval), as vLLM and
// llama.cpp's server accept; 16 covers its tasks and keeps the check of
// each piece of text cheap.
const MaxStops = 16

// stopStrings reads stop: a string, an array of up to MaxStops strings, or
// null.
func (f fields) stopStrings() ([]string, *apiError) {
	if !f.present("stop") {
		return nil, nil
	}
	raw := f["stop"]
	switch kind(raw) {
	case "string":
		s, _, aerr := decodeString(raw, "stop")
		if aerr != nil {
			return nil, aerr
		}
		if s == "" {
			return nil, nil
		}
		return []string{s}, nil
	case "array":
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, invalidf("stop: %s", jsonErrText(err))
		}
		if len(items) > MaxStops {
			return nil, invalidf("stop may hold at most %d strings, got %d", MaxStops, len(items))
		}
		var out []string
		for i, it := range items {
			s, _, aerr := decodeString(it, fmt.Sprintf("stop[%d]", i))
			if aerr != nil {
				return nil, aerr
			}
			if s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	default:
		return nil, invalidf("stop must be a string or an array of strings, got %s", kind(raw))
	}
}

// streamOptions reads stream and stream_options.include_usage.
func (f fields) streamOptions() (stream, includeUsage bool, aerr *apiError) {
	stream, _, aerr = f.boolean("stream")
	if aerr != nil {
		return false, false, aerr
	}
	if !f.present("stream_options") {
		return stream, false, nil
	}
	raw := f["stream_options"]
	if kind(raw) != "object" {
		return false, false, invalidf("stream_options must be an object, got %s", kind(raw))
	}
	var so fields
	if err := json.Unmarshal(raw, &so); err != nil {
		return false, false, invalidf("stream_options: %s", jsonErrText(err))
	}
	iu, _, aerr := so.boolean("include_usage")
	if aerr != nil {
		aerr.Message = "stream_options." + aerr.Message
		return false, false, aerr
	}
	return stream, iu && stream, nil
}

// refuseUnsupported answers 400 for fields whose effect a client would rely
// on and that a greedy, text-only swarm cannot honour. Sampling parameters
// (temperature, top_p, n, presence_penalty, frequency_penalty, seed, ...)
// are not here: SPEC says they are accepted and ignored, whatever their
// value, and so are unknown fields.
func (f fields) refuseUnsupported(chat bool) *apiError {
	for _, key := range []string{"tools", "functions"} {
		if f.present(key) {
			raw := f[key]
			if kind(raw) != "array" {
				return invalidf("%s must be an array, got %s", key, kind(raw))
			}
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil || len(items) > 0 {
				return unsupportedf(key, "%s (tool calling) is not supported by this server", key)
			}
		}
	}
	for _, key := range []string{"tool_choice", "function_call"} {
		if f.present(key) {
			s, ok, _ := f.str(key)
			if !ok || (s != "none" && s != "auto") {
				return unsupportedf(key, "%s: tool calling is not supported by this server", key)
			}
		}
	}
	if f.present("response_format") {
		raw := f["response_format"]
		var rf fields
		if kind(raw) != "object" || json.Unmarshal(raw, &rf) != nil {
			return invalidf("response_format must be an object, got %s", kind(raw))
		}
		if t, _, _ := rf.str("type"); t != "text" {
			return unsupportedf("response_format", "response_format: only {\"type\": \"text\"} is supported by this server")
		}
	}
	for _, key := range []string{"audio", "prediction"} {
		if f.present(key) {
			return unsupportedf(key, "%s is not supported by this server", key)
		}
	}
	if !chat {
		if s, ok, aerr := f.str("suffix"); aerr != nil {
			return aerr
		} else if ok && s != "" {
			return unsupportedf("suffix", "suffix is not supported by this server")
		}
	}
	return nil
}

// MaxChatTopLogprobs and MaxCompletionLogprobs are OpenAI's bounds on chat
// completions' top_logprobs and legacy completions' logprobs.
const (
	MaxChatTopLogprobs    = router.MaxTopLogprobs
	MaxCompletionLogprobs = 5
)

// chatLogprobs reads chat completions' logprobs (a boolean) and
// top_logprobs (0..20, only with logprobs true, as OpenAI requires).
func (f fields) chatLogprobs() (on bool, top int, aerr *apiError) {
	if on, _, aerr = f.boolean("logprobs"); aerr != nil {
		return false, 0, aerr
	}
	n, ok, aerr := f.integer("top_logprobs")
	if aerr != nil || !ok {
		return on, 0, aerr
	}
	if !on {
		return false, 0, invalidf("top_logprobs requires logprobs to be true")
	}
	if n < 0 || n > MaxChatTopLogprobs {
		return false, 0, invalidf("top_logprobs must be between 0 and %d, got %d", MaxChatTopLogprobs, n)
	}
	return on, int(n), nil
}

// completionLogprobs reads legacy completions' logprobs: null (none) or
// how many of the most likely tokens to list at each position, 0..5 (the
// chosen token's log-probability is given whatever the number).
// top_logprobs is chat's field: a legacy request that sets it is refused
// rather than answered without what it asked for.
func (f fields) completionLogprobs() (on bool, top int, aerr *apiError) {
	n, ok, aerr := f.integer("logprobs")
	if aerr != nil {
		return false, 0, aerr
	}
	if ok && (n < 0 || n > MaxCompletionLogprobs) {
		return false, 0, invalidf("logprobs must be between 0 and %d, got %d", MaxCompletionLogprobs, n)
	}
	if t, tok, aerr := f.integer("top_logprobs"); aerr != nil {
		return false, 0, aerr
	} else if tok && t != 0 {
		return false, 0, invalidf("top_logprobs is a chat completions field; /v1/completions takes logprobs (0..%d)", MaxCompletionLogprobs)
	}
	return ok, int(n), nil
}

// commonRequest is what both generation endpoints share.
type commonRequest struct {
	Model     string
	MaxTokens int // 0: not given
	// NoTokens: max_tokens 0 with echo (completions): the answer is the
	// prompt alone.
	NoTokens     bool
	Stream       bool
	IncludeUsage bool
	Stop         []string
	// Logprobs asks for the generated tokens' log-probabilities, with the
	// TopLogprobs most likely tokens at each position.
	Logprobs    bool
	TopLogprobs int
}

func parseCommon(f fields, chat bool) (commonRequest, *apiError) {
	var c commonRequest
	var aerr *apiError
	if c.Model, _, aerr = f.str("model"); aerr != nil {
		return c, aerr
	}
	// Whether echo is a boolean is checked with the rest of completions.
	echo, _, _ := f.boolean("echo")
	if c.MaxTokens, c.NoTokens, aerr = f.maxTokens(!chat && echo); aerr != nil {
		return c, aerr
	}
	if c.Stream, c.IncludeUsage, aerr = f.streamOptions(); aerr != nil {
		return c, aerr
	}
	if c.Stop, aerr = f.stopStrings(); aerr != nil {
		return c, aerr
	}
	if chat {
		c.Logprobs, c.TopLogprobs, aerr = f.chatLogprobs()
	} else {
		c.Logprobs, c.TopLogprobs, aerr = f.completionLogprobs()
	}
	if aerr != nil {
		return c, aerr
	}
	if aerr = f.refuseUnsupported(chat); aerr != nil {
		return c, aerr
	}
	return c, nil
}

// chatRequest is a validated POST /v1/chat/completions body.
type chatRequest struct {
	commonRequest
	Messages []chattmpl.Message
}

// Roles a message may have. "developer" is OpenAI's newer name for the
// system role; templates only know "system", so it is renamed.
var knownRoles = map[string]string{
	"system": "system", "developer": "system", "user": "user",
	"assistant": "assistant", "tool": "tool", "function": "function",
}

func parseChat(body []byte) (*chatRequest, *apiError) {
	f, aerr := parseObject(body)
	if aerr != nil {
		return nil, aerr
	}
	req := &chatRequest{}
	if req.commonRequest, aerr = parseCommon(f, true); aerr != nil {
		return nil, aerr
	}
	if !f.present("messages") {
		return nil, invalidf("messages is required: an array of {role, content} objects")
	}
	raw := f["messages"]
	if kind(raw) != "array" {
		return nil, invalidf("messages must be an array, got %s", kind(raw))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidf("messages: %s", jsonErrText(err))
	}
	if len(items) == 0 {
		return nil, &apiError{Status: 400, Code: codeEmptyMessages, Message: "messages must hold at least one message"}
	}
	for i, it := range items {
		m, aerr := parseMessage(it, fmt.Sprintf("messages[%d]", i))
		if aerr != nil {
			return nil, aerr
		}
		req.Messages = append(req.Messages, m)
	}
	return req, nil
}

func parseMessage(raw json.RawMessage, name string) (chattmpl.Message, *apiError) {
	var m chattmpl.Message
	if kind(raw) != "object" {
		return m, invalidf("%s must be an object, got %s", name, kind(raw))
	}
	var f fields
	if err := json.Unmarshal(raw, &f); err != nil {
		return m, invalidf("%s: %s", name, jsonErrText(err))
	}
	if !f.present("role") {
		return m, invalidf("%s.role is required", name)
	}
	role, _, aerr := decodeString(f["role"], name+".role")
	if aerr != nil {
		return m, aerr
	}
	mapped, ok := knownRoles[role]
	if !ok {
		return m, invalidf("%s.role: unknown role %q (expected system, developer, user, assistant or tool)", name, role)
	}
	m.Role = mapped
	switch {
	case !f.present("content"):
		// An assistant turn may carry no content (OpenAI allows it when it
		// made tool calls); every other role must say something.
		if mapped != "assistant" {
			return m, invalidf("%s.content is required for role %q", name, role)
		}
	case kind(f["content"]) == "string":
		if m.Content, _, aerr = decodeString(f["content"], name+".content"); aerr != nil {
			return m, aerr
		}
	case kind(f["content"]) == "array":
		if m.Content, aerr = textParts(f["content"], name+".content"); aerr != nil {
			return m, aerr
		}
	default:
		return m, invalidf("%s.content must be a string or an array of text parts, got %s", name, kind(f["content"]))
	}
	// A few standard keys go through to the template (some templates show
	// a speaker's name or a tool call id); their types are checked.
	for _, key := range []string{"name", "tool_call_id"} {
		if f.present(key) {
			s, _, aerr := decodeString(f[key], name+"."+key)
			if aerr != nil {
				return m, aerr
			}
			if m.Extra == nil {
				m.Extra = map[string]any{}
			}
			m.Extra[key] = s
		}
	}
	return m, nil
}

// textParts joins OpenAI content parts [{type:"text", text:...}] in order.
func textParts(raw json.RawMessage, name string) (string, *apiError) {
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", invalidf("%s: %s", name, jsonErrText(err))
	}
	var b strings.Builder
	for j, p := range parts {
		pn := fmt.Sprintf("%s[%d]", name, j)
		if kind(p) != "object" {
			return "", invalidf("%s must be an object, got %s", pn, kind(p))
		}
		var pf fields
		if err := json.Unmarshal(p, &pf); err != nil {
			return "", invalidf("%s: %s", pn, jsonErrText(err))
		}
		t, ok, aerr := pf.str("type")
		if aerr != nil {
			aerr.Message = pn + "." + aerr.Message
			return "", aerr
		}
		if !ok {
			return "", invalidf("%s.type is required", pn)
		}
		if t != "text" {
			return "", invalidf("%s.type: %q parts are not supported; only text parts are", pn, t)
		}
		if !pf.present("text") {
			return "", invalidf("%s.text is required", pn)
		}
		s, _, aerr := decodeString(pf["text"], pn+".text")
		if aerr != nil {
			return "", aerr
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// MaxPrompts bounds the prompts of one completions request (prompt as an
// array of strings or of token arrays). Each prompt is a generation of its
// own, all run at once, so the bound is one on a request's share of the
// swarm: lm-evaluation-harness's usual batch sizes fit, and it equals the
// managed API's default bound on concurrent generations. The managed
// variant bounds it further by Managed.MaxGenerations.
const MaxPrompts = 64

// promptItem is one prompt of a completions request: text, or token ids.
type promptItem struct {
	Text string
	IDs  []int32 // set when the prompt was given as token ids
	// name is how errors name it: "prompt", or "prompt[i]" in a batch.
	name string
}

// completionRequest is a validated POST /v1/completions body: one or more
// prompts (OpenAI's string, array of strings, token ids, or array of token
// arrays), each answered as a choice of its own, in order.
type completionRequest struct {
	commonRequest
	// Echo puts the prompt in front of the completion's text.
	Echo    bool
	Prompts []promptItem
}

func parseCompletion(body []byte) (*completionRequest, *apiError) {
	f, aerr := parseObject(body)
	if aerr != nil {
		return nil, aerr
	}
	req := &completionRequest{}
	if req.commonRequest, aerr = parseCommon(f, false); aerr != nil {
		return nil, aerr
	}
	if req.Echo, _, aerr = f.boolean("echo"); aerr != nil {
		return nil, aerr
	}
	if !f.present("prompt") {
		return nil, invalidf("prompt is required: a string, an array of strings, token ids, or an array of token id arrays")
	}
	req.Prompts, aerr = parsePrompts(f["prompt"])
	return req, aerr
}

// parsePrompts reads prompt in OpenAI's four forms. A batch holds strings
// only or token arrays only (OpenAI refuses a mix), none of them empty, and
// at most MaxPrompts of them; what is wrong is named down to the item.
func parsePrompts(raw json.RawMessage) ([]promptItem, *apiError) {
	switch kind(raw) {
	case "string":
		s, _, aerr := decodeString(raw, "prompt")
		return []promptItem{{Text: s, name: "prompt"}}, aerr
	case "array":
	default:
		return nil, invalidf("prompt must be a string, an array of strings, token ids, or an array of token id arrays, got %s", kind(raw))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidf("prompt: %s", jsonErrText(err))
	}
	if len(items) == 0 {
		return nil, invalidf("prompt must not be an empty array")
	}
	first := kind(items[0])
	switch first {
	case "number":
		ids, aerr := tokenIDs(raw, "prompt")
		return []promptItem{{IDs: ids, name: "prompt"}}, aerr
	case "string", "array":
	default:
		return nil, invalidf("prompt[0] must be a string, a token id or an array of token ids, got %s", first)
	}
	if len(items) > MaxPrompts {
		return nil, invalidf("prompt holds %d prompts; at most %d are answered in one request", len(items), MaxPrompts)
	}
	out := make([]promptItem, len(items))
	for i, it := range items {
		name := fmt.Sprintf("prompt[%d]", i)
		if k := kind(it); k != first {
			if first == "string" {
				return nil, invalidf("%s must be a string, as prompt[0] is (a batch holds strings or token id arrays, not both), got %s", name, k)
			}
			return nil, invalidf("%s must be an array of token ids, as prompt[0] is (a batch holds strings or token id arrays, not both), got %s", name, k)
		}
		out[i].name = name
		if first == "array" {
			ids, aerr := tokenIDs(it, name)
			if aerr != nil {
				return nil, aerr
			}
			out[i].IDs = ids
			continue
		}
		s, _, aerr := decodeString(it, name)
		if aerr != nil {
			return nil, aerr
		}
		if s == "" {
			return nil, invalidf("%s must not be empty", name)
		}
		out[i].Text = s
	}
	return out, nil
}

func tokenIDs(raw json.RawMessage, name string) ([]int32, *apiError) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidf("%s: %s", name, jsonErrText(err))
	}
	if len(items) == 0 {
		return nil, invalidf("%s must not be empty", name)
	}
	ids := make([]int32, len(items))
	for i, it := range items {
		key := fmt.Sprintf("%s[%d]", name, i)
		n, _, aerr := fields{key: it}.integer(key)
		if aerr != nil || kind(it) != "number" {
			return nil, invalidf("%s must be a token id (an integer), got %s", key, kind(it))
		}
		if n < 0 || n > math.MaxInt32 {
			return nil, invalidf("%s: token id %d is out of range", key, n)
		}
		ids[i] = int32(n)
	}
	return ids, nil
}

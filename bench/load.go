package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// LoadOptions configures RunLoad.
type LoadOptions struct {
	// URL is the server's base URL (http://host:port, with or without /v1)
	// or the full chat-completions URL.
	URL         string
	Model       string
	Concurrency []int // levels run one after the other; default 1, 4, 8
	// Requests per level; 0 means 2×concurrency, at least 4. A level never
	// sends fewer requests than its concurrency.
	Requests  int
	MaxTokens int    // 0 means 64
	Prompt    string // user message; a fixed default if empty
	// DistinctPrompts starts every request's message with its own number
	// ("Request 7. "), so that no two requests share a prompt, nor its
	// first tokens: a server's prompt or prefix cache cannot answer one
	// request's prompt from another's, and every prompt is computed.
	DistinctPrompts bool
	// Timeout bounds each request (connection to last byte); 0 means 2 min.
	Timeout time.Duration
	// Warmup requests are sent (one at a time) before the first level and
	// not counted, so a cold server's first-load cost is not measured.
	Warmup int
	APIKey string       // sent as a bearer token when set
	Client *http.Client // nil: a client sized for the highest concurrency
	// Progress, if set, is called after each counted request.
	Progress func(done, total int)
}

// DefaultPrompt is the user message sent when LoadOptions.Prompt is empty.
const DefaultPrompt = "Write a short story about a robot who learns to paint. Describe the colours it discovers."

// LoadLevel is the outcome of one concurrency level.
type LoadLevel struct {
	Concurrency int            `json:"concurrency"`
	Requests    int            `json:"requests"`
	Succeeded   int            `json:"succeeded"`
	Failed      int            `json:"failed"`
	Errors      map[string]int `json:"errors,omitempty"` // error code → count
	// Time to first token: from sending the request to the first chunk
	// that carries content.
	TTFTP50Ms float64 `json:"ttft_p50_ms"`
	TTFTP95Ms float64 `json:"ttft_p95_ms"`
	// Time per output token after the first, per request.
	TPOTMeanMs       float64 `json:"tpot_mean_ms"`
	TPOTP50Ms        float64 `json:"tpot_p50_ms"`
	OutputTokens     int     `json:"output_tokens"`
	WallSeconds      float64 `json:"wall_s"`
	OutputTokensPerS float64 `json:"output_tokens_per_s"` // all requests together
	// The prompt tokens of the successful requests whose server said how
	// many of them it answered from a cache (CacheReported requests), and
	// those it did (CachedTokens): OpenAI's
	// usage.prompt_tokens_details.cached_tokens, or llama-server's usage
	// prompt_tokens less its timings.prompt_n (the tokens it evaluated).
	CacheReported int `json:"cache_reported"`
	PromptTokens  int `json:"prompt_tokens"`
	CachedTokens  int `json:"cached_tokens"`
}

// CachedShare is the share of prompt tokens served from the server's
// cache, over the requests that reported it; ok is false when none did.
func (lv LoadLevel) CachedShare() (share float64, ok bool) {
	if lv.CacheReported == 0 || lv.PromptTokens == 0 {
		return 0, lv.CacheReported > 0
	}
	return float64(lv.CachedTokens) / float64(lv.PromptTokens), true
}

// LoadReport is RunLoad's result.
type LoadReport struct {
	URL       string      `json:"url"`
	Model     string      `json:"model"`
	MaxTokens int         `json:"max_tokens"`
	Levels    []LoadLevel `json:"levels"`
}

// requestResult is what one streamed request measured.
type requestResult struct {
	ttft   time.Duration // 0 when no token arrived
	tpot   time.Duration // 0 with fewer than two tokens
	tokens int
	err    string // error code; empty on success
	// prompt and cached: the server's usage, when it said how many prompt
	// tokens it served from its cache (cacheKnown).
	prompt, cached int
	cacheKnown     bool
}

// RunLoad drives the endpoint with streamed chat completions at each
// concurrency level in turn and returns the statistics. Failed requests
// are counted by error code, never retried (but a request on a kept-alive
// connection that the server closed without answering anything is sent
// again on a new connection). It returns an error only for bad options or
// a cancelled context.
func RunLoad(ctx context.Context, o LoadOptions) (*LoadReport, error) {
	endpoint, err := chatURL(o.URL)
	if err != nil {
		return nil, err
	}
	if len(o.Concurrency) == 0 {
		o.Concurrency = []int{1, 4, 8}
	}
	maxC := 0
	for _, c := range o.Concurrency {
		if c <= 0 || c > 4096 {
			return nil, fmt.Errorf("bench: concurrency %d out of range 1..4096", c)
		}
		maxC = max(maxC, c)
	}
	if o.Requests < 0 || o.MaxTokens < 0 || o.Timeout < 0 || o.Warmup < 0 {
		return nil, errors.New("bench: requests, max tokens, timeout and warmup must not be negative")
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = 64
	}
	if o.Prompt == "" {
		o.Prompt = DefaultPrompt
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	client := o.Client
	if client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = maxC
		tr.MaxConnsPerHost = 0
		client = &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
	}
	ld := &loader{client: client, url: endpoint, model: o.Model, prompt: o.Prompt, maxTokens: o.MaxTokens, distinct: o.DistinctPrompts, apiKey: o.APIKey, timeout: o.Timeout}
	if !ld.distinct {
		if ld.fixed, err = ld.encode(o.Prompt); err != nil {
			return nil, err
		}
	}

	for i := 0; i < o.Warmup; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ld.do(ctx)
	}
	counts := make([]int, len(o.Concurrency))
	total := 0
	for i, c := range o.Concurrency {
		n := o.Requests
		if n == 0 {
			n = max(4, 2*c)
		}
		counts[i] = max(n, c)
		total += counts[i]
	}
	rep := &LoadReport{URL: endpoint, Model: o.Model, MaxTokens: o.MaxTokens}
	var done atomic.Int64
	for i, c := range o.Concurrency {
		results, wall := ld.level(ctx, c, counts[i], func() {
			d := done.Add(1)
			if o.Progress != nil {
				o.Progress(int(d), total)
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rep.Levels = append(rep.Levels, summarize(c, results, wall))
	}
	return rep, nil
}

// chatURL turns a base URL into the chat-completions endpoint.
func chatURL(u string) (string, error) {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", fmt.Errorf("bench: URL %q must start with http:// or https://", u)
	}
	switch {
	case strings.HasSuffix(u, "/chat/completions"):
		return u, nil
	case strings.HasSuffix(u, "/v1"):
		return u + "/chat/completions", nil
	}
	return u + "/v1/chat/completions", nil
}

type loader struct {
	client    *http.Client
	url       string
	model     string
	prompt    string
	maxTokens int
	distinct  bool
	fixed     []byte       // every request's body, without distinct
	sent      atomic.Int64 // requests built so far (numbers distinct prompts)
	apiKey    string
	timeout   time.Duration
}

// body is the JSON of the next request: the same for every request, or
// with DistinctPrompts its own numbered message.
func (ld *loader) body() ([]byte, error) {
	if !ld.distinct {
		return ld.fixed, nil
	}
	return ld.encode(fmt.Sprintf("Request %d. %s", ld.sent.Add(1), ld.prompt))
}

// encode is a request's JSON with the given user message.
func (ld *loader) encode(prompt string) ([]byte, error) {
	b, err := json.Marshal(map[string]any{
		"model":      ld.model,
		"messages":   []map[string]string{{"role": "user", "content": prompt}},
		"max_tokens": ld.maxTokens,
		"stream":     true,
		// The usage chunk carries the prompt's cached tokens.
		"stream_options": map[string]bool{"include_usage": true},
	})
	if err != nil {
		return nil, fmt.Errorf("bench: encode request: %w", err)
	}
	return b, nil
}

// level runs n requests with c in flight at a time; it returns when all
// have finished (each is bounded by the request timeout).
func (ld *loader) level(ctx context.Context, c, n int, tick func()) ([]requestResult, time.Duration) {
	results := make([]requestResult, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				results[i] = ld.do(ctx)
				tick()
			}
		}()
	}
	wg.Wait()
	return results, time.Since(start)
}

// chunk is the part of a streamed chat.completion.chunk (or error event)
// that the benchmark reads.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokens        int `json:"prompt_tokens"`
		PromptTokensDetails *struct {
			CachedTokens *int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	// Timings is llama-server's: PromptN is the prompt tokens it
	// evaluated, the others came from its slot's cache.
	Timings *struct {
		PromptN *int `json:"prompt_n"`
	} `json:"timings"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"` // a string in OpenAI's shape, a number in some servers
}

func (e *apiError) code() string {
	var s string
	if json.Unmarshal(e.Code, &s) == nil && s != "" {
		return s
	}
	if len(e.Code) > 0 && string(e.Code) != "null" {
		return string(e.Code)
	}
	if e.Type != "" {
		return e.Type
	}
	return "error"
}

// do sends one streamed request and times its tokens.
func (ld *loader) do(ctx context.Context) requestResult {
	ctx, cancel := context.WithTimeout(ctx, ld.timeout)
	defer cancel()
	body, err := ld.body()
	if err != nil {
		return requestResult{err: "bad_request"}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ld.url, bytes.NewReader(body))
	if err != nil {
		return requestResult{err: "bad_request"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	// A server may close a kept-alive connection just as the next request
	// takes it (llama-server does) and answer nothing: the transport sends
	// the request again on a new connection only if it is marked
	// idempotent, which a nil value does without sending the header.
	req.Header["Idempotency-Key"] = nil
	if ld.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+ld.apiKey)
	}
	t0 := time.Now()
	resp, err := ld.client.Do(req)
	if err != nil {
		return requestResult{err: transportCode(ctx, err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error *apiError `json:"error"`
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		code := http.StatusText(resp.StatusCode)
		if json.Unmarshal(b, &e) == nil && e.Error != nil {
			code = e.Error.code()
		}
		return requestResult{err: fmt.Sprintf("http %d %s", resp.StatusCode, code)}
	}
	var res requestResult
	var first, last time.Time
	pieces, usage := 0, 0
	detailed, evaluated := -1, -1 // cached_tokens, timings.prompt_n
	sawDone := false
	err = readSSE(resp.Body, func(data []byte) bool {
		if bytes.Equal(bytes.TrimSpace(data), []byte("[DONE]")) {
			sawDone = true
			return false
		}
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			res.err = "bad_chunk"
			return false
		}
		if c.Error != nil {
			res.err = "stream " + c.Error.code()
			return false
		}
		if c.Usage != nil {
			if c.Usage.CompletionTokens > 0 {
				usage = c.Usage.CompletionTokens
			}
			if c.Usage.PromptTokens > 0 {
				res.prompt = c.Usage.PromptTokens
			}
			if d := c.Usage.PromptTokensDetails; d != nil && d.CachedTokens != nil {
				detailed = *d.CachedTokens
			}
		}
		if c.Timings != nil && c.Timings.PromptN != nil && *c.Timings.PromptN >= 0 {
			evaluated = *c.Timings.PromptN
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != "" || ch.Delta.ReasoningContent != "" {
				now := time.Now()
				if pieces == 0 {
					first = now
				}
				last = now
				pieces++
			}
		}
		return true
	})
	if res.err != "" {
		return res
	}
	if err != nil {
		return requestResult{err: transportCode(ctx, err)}
	}
	if !sawDone {
		return requestResult{err: "stream_truncated"}
	}
	// Servers may merge several tokens into one chunk; their usage count,
	// when they send it, is the truer number.
	res.tokens = max(pieces, usage)
	switch {
	case res.prompt == 0: // no usage: nothing to tell
	case detailed >= 0:
		res.cached, res.cacheKnown = min(detailed, res.prompt), true
	case evaluated >= 0:
		res.cached, res.cacheKnown = max(res.prompt-evaluated, 0), true
	}
	if pieces > 0 {
		res.ttft = first.Sub(t0)
		if res.tokens > 1 {
			res.tpot = last.Sub(first) / time.Duration(res.tokens-1)
		}
	}
	return res
}

// transportCode classifies a failure to send or read a request.
func transportCode(ctx context.Context, err error) string {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case ctx.Err() != nil:
		return "cancelled"
	}
	return "transport"
}

// maxEventBytes bounds one SSE line so that a misbehaving server cannot
// make the client buffer without limit.
const maxEventBytes = 1 << 20

// readSSE calls fn with the data of each Server-Sent Event in r until fn
// returns false or the stream ends. Multi-line data fields are joined with
// newlines; comments, event names and ids are ignored.
func readSSE(r io.Reader, fn func(data []byte) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEventBytes)
	var data []byte
	have := false
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if have {
				if !fn(data) {
					return nil
				}
				data, have = data[:0], false
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) == "data" {
			if have {
				data = append(data, '\n')
			}
			data = append(data, value...)
			have = true
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("bench: read event stream: %w", err)
	}
	if have {
		fn(data)
	}
	return nil
}

// summarize turns one level's request results into its statistics.
func summarize(c int, results []requestResult, wall time.Duration) LoadLevel {
	lv := LoadLevel{Concurrency: c, Requests: len(results), WallSeconds: wall.Seconds()}
	var ttfts, tpots []float64
	for _, r := range results {
		if r.err != "" {
			lv.Failed++
			if lv.Errors == nil {
				lv.Errors = map[string]int{}
			}
			lv.Errors[r.err]++
			continue
		}
		lv.Succeeded++
		lv.OutputTokens += r.tokens
		if r.cacheKnown {
			lv.CacheReported++
			lv.PromptTokens += r.prompt
			lv.CachedTokens += r.cached
		}
		if r.ttft > 0 {
			ttfts = append(ttfts, ms(r.ttft))
		}
		if r.tpot > 0 {
			tpots = append(tpots, ms(r.tpot))
		}
	}
	lv.TTFTP50Ms = percentile(ttfts, 50)
	lv.TTFTP95Ms = percentile(ttfts, 95)
	lv.TPOTP50Ms = percentile(tpots, 50)
	lv.TPOTMeanMs = mean(tpots)
	if wall > 0 {
		lv.OutputTokensPerS = float64(lv.OutputTokens) / wall.Seconds()
	}
	return lv
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile interpolates linearly between the closest ranks; 0 for no data.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := p / 100 * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	f := pos - float64(lo)
	return s[lo]*(1-f) + s[lo+1]*f
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

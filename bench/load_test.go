package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeChat is a small OpenAI-style streaming server: it sends one chunk per
// token with a fixed delay, refuses every failEvery-th request with 503, and
// breaks off every breakEvery-th stream with an error event.
type fakeChat struct {
	delay      time.Duration
	firstDelay time.Duration
	failEvery  int64
	breakEvery int64
	n          atomic.Int64
	inFlight   atomic.Int64
	maxFlight  atomic.Int64
	mu         sync.Mutex
	bad        []string
	prompts    []string // every request's message, in arrival order
	// usage, if set, gives request k's last chunk before [DONE] (its
	// usage), or "" for none.
	usage func(k int64) string
}

func (f *fakeChat) complain(format string, args ...any) {
	f.mu.Lock()
	f.bad = append(f.bad, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		f.complain("unexpected %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model     string `json:"model"`
		MaxTokens int    `json:"max_tokens"`
		Stream    bool   `json:"stream"`
		Messages  []struct {
			Role, Content string
		} `json:"messages"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || !req.Stream || req.Model != "m" || len(req.Messages) != 1 || req.Messages[0].Content == "" || !req.StreamOptions.IncludeUsage {
		f.complain("bad request %+v (%v)", req, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.prompts = append(f.prompts, req.Messages[0].Content)
	f.mu.Unlock()
	cur := f.inFlight.Add(1)
	// A request stops counting as in flight before the server sends what
	// lets the client finish it: otherwise the client's next request can
	// arrive while this handler is still returning, and the server would
	// see one more than the client's concurrency.
	release := sync.OnceFunc(func() { f.inFlight.Add(-1) })
	defer release()
	for {
		m := f.maxFlight.Load()
		if cur <= m || f.maxFlight.CompareAndSwap(m, cur) {
			break
		}
	}
	k := f.n.Add(1)
	if f.failEvery > 0 && k%f.failEvery == 0 {
		release()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"error":{"message":"no route","type":"unavailable","code":"route_unavailable"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	send := func(s string) {
		fmt.Fprintf(w, "data: %s\n\n", s)
		fl.Flush()
	}
	time.Sleep(f.firstDelay)
	send(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`)
	fmt.Fprint(w, ": keep-alive comment\n\n")
	for i := 0; i < req.MaxTokens; i++ {
		if i > 0 {
			time.Sleep(f.delay)
		}
		if f.breakEvery > 0 && k%f.breakEvery == 0 && i == 2 {
			release()
			send(`{"error":{"message":"peer lost","type":"server_error","code":"upstream_failed"}}`)
			return
		}
		send(fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"t%d "},"finish_reason":null}]}`, i))
	}
	release()
	send(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`)
	if f.usage != nil {
		if u := f.usage(k); u != "" {
			send(u)
		}
	}
	send("[DONE]")
}

func TestRunLoadAgainstStreamingServer(t *testing.T) {
	f := &fakeChat{delay: 3 * time.Millisecond, firstDelay: 20 * time.Millisecond}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var ticks atomic.Int64
	rep, err := RunLoad(context.Background(), LoadOptions{
		URL: srv.URL, Model: "m", Concurrency: []int{1, 4}, Requests: 8, MaxTokens: 10,
		Progress: func(done, total int) {
			ticks.Add(1)
			if total != 16 || done < 1 || done > 16 {
				t.Errorf("progress %d/%d", done, total)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.bad) > 0 {
		t.Fatalf("server saw bad requests: %v", f.bad)
	}
	if ticks.Load() != 16 {
		t.Errorf("%d progress calls, want 16", ticks.Load())
	}
	// The client must run requests side by side but never more than the
	// level's concurrency; on a crowded machine not all four may overlap.
	if got := f.maxFlight.Load(); got < 2 || got > 4 {
		t.Errorf("server saw at most %d concurrent requests, want 2 to 4", got)
	}
	if len(rep.Levels) != 2 {
		t.Fatalf("%d levels", len(rep.Levels))
	}
	for _, lv := range rep.Levels {
		if lv.Requests != 8 || lv.Succeeded != 8 || lv.Failed != 0 || lv.OutputTokens != 80 {
			t.Errorf("level %+v: want 8 requests, all succeeded, 80 tokens", lv)
		}
		// The first content chunk comes after firstDelay; tokens follow
		// every delay.
		if lv.TTFTP50Ms < 20 || lv.TTFTP95Ms < lv.TTFTP50Ms || lv.TTFTP95Ms > 2000 {
			t.Errorf("level %d: TTFT p50 %.1f ms p95 %.1f ms", lv.Concurrency, lv.TTFTP50Ms, lv.TTFTP95Ms)
		}
		if lv.TPOTMeanMs < 3 || lv.TPOTP50Ms < 3 || lv.TPOTMeanMs > 500 {
			t.Errorf("level %d: TPOT mean %.2f p50 %.2f ms", lv.Concurrency, lv.TPOTMeanMs, lv.TPOTP50Ms)
		}
		want := float64(lv.OutputTokens) / lv.WallSeconds
		if lv.OutputTokensPerS <= 0 || lv.OutputTokensPerS != want {
			t.Errorf("level %d: %.1f tok/s, want %.1f", lv.Concurrency, lv.OutputTokensPerS, want)
		}
	}
	// Four streams at once finish the same work in less wall time.
	if rep.Levels[1].OutputTokensPerS < 1.5*rep.Levels[0].OutputTokensPerS {
		t.Errorf("concurrency 4 gave %.0f tok/s, concurrency 1 %.0f", rep.Levels[1].OutputTokensPerS, rep.Levels[0].OutputTokensPerS)
	}
}

// TestRunLoadDistinctPrompts: by default every request (warm-up included)
// sends the same message; with DistinctPrompts no two share a message or
// its start, and each still ends with the prompt.
func TestRunLoadDistinctPrompts(t *testing.T) {
	for _, distinct := range []bool{false, true} {
		f := &fakeChat{}
		srv := httptest.NewServer(f)
		_, err := RunLoad(context.Background(), LoadOptions{URL: srv.URL, Model: "m", Concurrency: []int{1, 3}, Requests: 4, MaxTokens: 2, Warmup: 1, Prompt: "Tell a story.", DistinctPrompts: distinct})
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(f.prompts) != 9 {
			t.Fatalf("distinct %v: server saw %d requests, want 9", distinct, len(f.prompts))
		}
		seen := map[string]bool{}
		for _, p := range f.prompts {
			if !strings.HasSuffix(p, "Tell a story.") {
				t.Errorf("distinct %v: message %q does not end with the prompt", distinct, p)
			}
			// The words before the prompt must differ from the first one on.
			head, _, _ := strings.Cut(p, ".")
			seen[head] = true
		}
		if want := map[bool]int{false: 1, true: 9}[distinct]; len(seen) != want {
			t.Errorf("distinct %v: %d different message starts in %q, want %d", distinct, len(seen), f.prompts, want)
		}
	}
}

// TestRunLoadCachedShare reads the prompt tokens a server answered from its
// cache: OpenAI's usage.prompt_tokens_details.cached_tokens, llama-server's
// usage less timings.prompt_n, nothing from a server that says neither.
func TestRunLoadCachedShare(t *testing.T) {
	for _, c := range []struct {
		name  string
		usage func(k int64) string
		// want: reported requests, prompt and cached tokens, table cell
		reported, prompt, cached int
		cell                     string
	}{
		{"openai", func(k int64) string {
			// Every other request's 10-token prompt was cached.
			return fmt.Sprintf(`{"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":%d}}}`, 10*(k%2))
		}, 4, 40, 20, "50%"},
		{"llama-server", func(k int64) string {
			return `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"length"}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13},"timings":{"prompt_n":1,"predicted_n":3}}`
		}, 4, 40, 36, "90%"},
		{"usage without details", func(k int64) string {
			return `{"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`
		}, 0, 0, 0, "-"},
		{"no usage", nil, 0, 0, 0, "-"},
	} {
		f := &fakeChat{usage: c.usage}
		srv := httptest.NewServer(f)
		rep, err := RunLoad(context.Background(), LoadOptions{URL: srv.URL, Model: "m", Concurrency: []int{2}, Requests: 4, MaxTokens: 3, Warmup: 0})
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(f.bad) > 0 {
			t.Fatalf("%s: server saw bad requests: %v", c.name, f.bad)
		}
		lv := rep.Levels[0]
		if lv.Succeeded != 4 || lv.CacheReported != c.reported || lv.PromptTokens != c.prompt || lv.CachedTokens != c.cached {
			t.Errorf("%s: level %+v: want %d reported, %d prompt tokens, %d cached", c.name, lv, c.reported, c.prompt, c.cached)
		}
		var b strings.Builder
		if err := rep.WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if !strings.Contains(lines[1], "cached prompt") || !slices.Contains(strings.Fields(lines[2]), c.cell) {
			t.Errorf("%s: table\n%s\nwant the cached prompt cell %q", c.name, b.String(), c.cell)
		}
	}
}

func TestRunLoadCountsErrors(t *testing.T) {
	f := &fakeChat{failEvery: 3, breakEvery: 5}
	srv := httptest.NewServer(f)
	defer srv.Close()
	rep, err := RunLoad(context.Background(), LoadOptions{URL: srv.URL + "/v1", Model: "m", Concurrency: []int{2}, Requests: 15, MaxTokens: 4})
	if err != nil {
		t.Fatal(err)
	}
	lv := rep.Levels[0]
	// Requests 3,6,9,12,15 get 503; 5 and 10 break off (15 was refused first).
	if lv.Errors["http 503 route_unavailable"] != 5 || lv.Errors["stream upstream_failed"] != 2 || lv.Failed != 7 || lv.Succeeded != 8 {
		t.Errorf("errors %v, failed %d, succeeded %d", lv.Errors, lv.Failed, lv.Succeeded)
	}
	if lv.OutputTokens != 8*4 {
		t.Errorf("%d output tokens, want 32", lv.OutputTokens)
	}
}

func TestRunLoadTimeoutAndTransport(t *testing.T) {
	f := &fakeChat{firstDelay: 2 * time.Second}
	srv := httptest.NewServer(f)
	defer srv.Close()
	start := time.Now()
	rep, err := RunLoad(context.Background(), LoadOptions{URL: srv.URL, Model: "m", Concurrency: []int{2}, Requests: 2, MaxTokens: 2, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Levels[0].Errors["timeout"] != 2 {
		t.Errorf("errors %v, want 2 timeouts", rep.Levels[0].Errors)
	}
	if time.Since(start) > 1500*time.Millisecond {
		t.Errorf("timed-out level took %v", time.Since(start))
	}
	// Nothing listens here any more.
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	rep, err = RunLoad(context.Background(), LoadOptions{URL: url, Model: "m", Concurrency: []int{1}, Requests: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Levels[0].Errors["transport"] != 1 {
		t.Errorf("errors %v, want a transport error", rep.Levels[0].Errors)
	}
}

func TestRunLoadBadOptions(t *testing.T) {
	for _, o := range []LoadOptions{
		{URL: "localhost:8080"},
		{URL: "http://x", Concurrency: []int{0}},
		{URL: "http://x", Requests: -1},
	} {
		if _, err := RunLoad(context.Background(), o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

func TestReadSSE(t *testing.T) {
	in := ": comment\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\nid: 7\r\n\r\ndata:x\n\n\n\ndata: [DONE]\n\ndata: after\n\n"
	var got []string
	err := readSSE(strings.NewReader(in), func(d []byte) bool {
		got = append(got, string(d))
		return string(d) != "[DONE]"
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"{\"a\":\n1}", "x", "[DONE]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %q, want %q", got, want)
	}
	long := "data: " + strings.Repeat("x", maxEventBytes+10) + "\n\n"
	if err := readSSE(strings.NewReader(long), func([]byte) bool { return true }); err == nil {
		t.Error("oversized event accepted")
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {50, 3}, {100, 5}, {95, 4.8}, {25, 2}} {
		if got := percentile(xs, c.p); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 50) != 0 || mean(nil) != 0 {
		t.Error("empty input")
	}
	if xs[0] != 5 {
		t.Error("percentile sorted its input in place")
	}
}

// TestRunLoadServerClosedKeptAlive: a server that answers one request per
// connection and then closes the kept-alive connection on the next request
// without answering (what llama-server does now and then): that request
// goes again on a new connection and is not counted as failed.
func TestRunLoadServerClosedKeptAlive(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	defer ln.Close()
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n"
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			wg.Go(func() {
				defer c.Close()
				rd := bufio.NewReader(c)
				for i := 0; ; i++ {
					req, err := http.ReadRequest(rd)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					if i > 0 {
						return // the kept-alive connection closes unanswered
					}
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
				}
			})
		}
	})
	rep, err := RunLoad(context.Background(), LoadOptions{URL: "http://" + ln.Addr().String(), Model: "m", Concurrency: []int{1}, Requests: 4, MaxTokens: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if lv := rep.Levels[0]; lv.Succeeded != 4 || lv.Failed != 0 {
		t.Errorf("level %+v: want 4 requests, all succeeded", lv)
	}
	if n := conns.Load(); n < 4 {
		t.Errorf("%d connections for 4 requests answered one per connection", n)
	}
}

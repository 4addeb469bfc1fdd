package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/p2p"
	"svc/router"
)

// A prompt batch larger than the nodes' KV caches hold at once runs in
// waves: every choice is what its prompt gives alone, plain, streamed and
// at MaxPrompts; a prompt that cannot fit alone is refused by name; a
// client that leaves ends the waiting prompts with the running ones.
// (Before waves, such a batch failed as a whole with 503 "holders are
// full", 429 capacity in the managed variant.)
func TestBatchWaves(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	// Each node holds 90 positions over all its sessions: two
	// generations of a short prompt and 30 tokens at a time, never three.
	const cache, maxTokens = 90, 30
	sw := swarmtest.Start(t, swarmtest.Config{Model: path, Shared: true, Ranges: [][2]int{{0, 2}, {2, 5}},
		Node: p2p.NodeConfig{CacheTokens: cache}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	url := ts.URL + "/v1/completions"
	body := fmt.Sprintf(`{"max_tokens":%d}`, maxTokens)
	prompts := make([]string, 8)
	for i := range prompts {
		prompts[i] = fmt.Sprintf("%s %d", batchPrompts[i%len(batchPrompts)], i)
	}
	single := alone(t, url, body, prompts)
	waits := func() float64 { return counter(t, sw.Router, "svc_router_room_waits_total") }

	t.Run("plain", func(t *testing.T) {
		w0 := waits()
		b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, prompts)), len(prompts))
		sameAsAlone(t, "waves", b, single)
		if w := waits() - w0; w < 1 {
			t.Errorf("%v generations waited for room: the batch did not run in waves", w)
		}
		sw.WaitNoSessions(t)
	})

	t.Run("streamed through the SDK", func(t *testing.T) {
		client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))
		st := client.Completions.NewStreaming(t.Context(), openai.CompletionNewParams{
			Model:         storiesName,
			Prompt:        openai.CompletionNewParamsPromptUnion{OfArrayOfStrings: prompts},
			MaxTokens:     openai.Int(maxTokens),
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		})
		texts := make([]string, len(prompts))
		finishes := make([]string, len(prompts))
		var u openai.CompletionUsage
		for st.Next() {
			c := st.Current()
			if len(c.Choices) == 0 {
				u = c.Usage
				continue
			}
			ch := c.Choices[0]
			texts[ch.Index] += ch.Text
			if ch.FinishReason != "" {
				finishes[ch.Index] = string(ch.FinishReason)
			}
		}
		if err := st.Err(); err != nil {
			t.Fatal(err)
		}
		var sum usage
		for i, s := range single {
			if w := s.Choices[0]; texts[i] != w.Text || finishes[i] != *w.FinishReason {
				t.Errorf("choice %d: %q %s; alone %q %s", i, texts[i], finishes[i], w.Text, *w.FinishReason)
			}
			sum.add(*s.Usage)
		}
		if int(u.CompletionTokens) != sum.CompletionTokens || int(u.PromptTokens) != sum.PromptTokens {
			t.Errorf("usage %+v, alone %+v", u, sum)
		}
		sw.WaitNoSessions(t)
	})

	t.Run("a stream begins while prompts wait for room", func(t *testing.T) {
		// The first two prompts to start fill the nodes; the others'
		// first tokens are held until the client has read from the
		// stream, which must therefore begin while they wait.
		gate := &firstGate{Backend: sw.Router, pass: 2, open: make(chan struct{})}
		gs := startServer(t, Config{Backend: gate, DefaultModel: storiesName})
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, "POST", gs.URL+"/v1/completions",
			strings.NewReader(withPrompt(t, strings.Replace(body, "{", `{"stream":true,`, 1), prompts)))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("no answer while prompts wait for room: %v", err)
		}
		defer resp.Body.Close()
		var once sync.Once
		events := readSSE(t, &onRead{r: resp.Body, f: func() { once.Do(func() { close(gate.open) }) }})
		texts := make([]string, len(prompts))
		for _, ev := range events[:len(events)-1] {
			var c batchResp
			if err := json.Unmarshal([]byte(ev.Data), &c); err != nil || len(c.Choices) != 1 {
				t.Fatalf("event %s", ev.Data)
			}
			texts[c.Choices[0].Index] += c.Choices[0].Text
		}
		for i, s := range single {
			if texts[i] != s.Choices[0].Text {
				t.Errorf("choice %d: %q; alone %q", i, texts[i], s.Choices[0].Text)
			}
		}
		sw.WaitNoSessions(t)
	})

	t.Run("the largest batch", func(t *testing.T) {
		many := make([]string, MaxPrompts)
		want := make([]batchResp, MaxPrompts)
		for i := range many {
			many[i], want[i] = prompts[i%len(prompts)], single[i%len(prompts)]
		}
		sameAsAlone(t, "64 prompts", decodeBatch(t, postJSON(t, url, withPrompt(t, body, many)), MaxPrompts), want)
		sw.WaitNoSessions(t)
	})

	t.Run("a prompt that never fits", func(t *testing.T) {
		// Its tokens and max_tokens exceed a node's whole cache: refused
		// by name, whatever the others do, retrying cannot help.
		long := strings.Repeat("the dog ran ", 30)
		for _, stream := range []bool{false, true} {
			b := withPrompt(t, fmt.Sprintf(`{"max_tokens":%d,"stream":%v}`, maxTokens, stream), []string{prompts[0], long, prompts[1]})
			d := checkError(t, "too long", postJSON(t, url, b), 400, codeInvalidRequest)
			if !strings.HasPrefix(d.Message, "prompt[1]: ") || !strings.Contains(d.Message, fmt.Sprintf("at most %d", cache)) {
				t.Errorf("message %q", d.Message)
			}
		}
		// Alone, too; echo alone (max_tokens 0) says the max_tokens asked.
		d := checkError(t, "too long alone", postJSON(t, url, withPrompt(t, body, long)), 400, codeInvalidRequest)
		if !strings.HasPrefix(d.Message, "prompt: ") {
			t.Errorf("message %q", d.Message)
		}
		d = checkError(t, "too long to echo", postJSON(t, url, withPrompt(t, `{"max_tokens":0,"echo":true}`, long)), 400, codeInvalidRequest)
		if !strings.HasPrefix(d.Message, "prompt: ") || !strings.Contains(d.Message, "and max_tokens 0 need") {
			t.Errorf("message %q", d.Message)
		}
		// A chat names its messages.
		chat := fmt.Sprintf(`{"messages":[{"role":"user","content":%q}],"max_tokens":%d}`, long, maxTokens)
		d = checkError(t, "chat too long", postJSON(t, ts.URL+"/v1/chat/completions", chat), 400, codeInvalidRequest)
		if !strings.HasPrefix(d.Message, "messages: ") || !strings.Contains(d.Message, fmt.Sprintf("at most %d", cache)) {
			t.Errorf("message %q", d.Message)
		}
		sw.WaitNoSessions(t)
	})

	t.Run("managed", func(t *testing.T) {
		// The managed variant runs the batch in waves as well (one rate
		// count, a slot per prompt), and refuses the prompt that never
		// fits by name, journaled.
		k := newManagedKit(t, sw, sw.Router, nil)
		key := k.key(t, "w", []string{"*"}, 100, time.Hour)
		mb := withPrompt(t, fmt.Sprintf(`{"model":%q,"max_tokens":%d}`, storiesName, maxTokens), prompts)
		sameAsAlone(t, "managed waves", decodeBatch(t, k.call(t, "POST", "/v1/completions", key, mb), len(prompts)), single)
		long := strings.Repeat("the dog ran ", 30)
		mb = withPrompt(t, fmt.Sprintf(`{"model":%q,"max_tokens":%d}`, storiesName, maxTokens), []string{prompts[0], prompts[1], long})
		rec := k.refused(t, "never fits", k.call(t, "POST", "/v1/completions", key, mb), 400, codeInvalidRequest)
		if !strings.HasPrefix(rec.Message, "prompt[2]: ") {
			t.Errorf("message %q", rec.Message)
		}
		sw.WaitNoSessions(t)
		k.scan(t)
	})

	t.Run("a client that leaves ends the waves", func(t *testing.T) {
		httpClient.CloseIdleConnections()
		base, _ := settle()
		slow := &slowBackend{Backend: sw.Router, delay: 20 * time.Millisecond}
		ss := startServer(t, Config{Backend: slow, DefaultModel: storiesName})
		w0 := waits()
		ctx, cancel := context.WithCancel(t.Context())
		req, err := http.NewRequestWithContext(ctx, "POST", ss.URL+"/v1/completions", strings.NewReader(withPrompt(t, body, prompts)))
		if err != nil {
			t.Fatal(err)
		}
		left := make(chan struct{})
		go func() {
			// Leave once some prompts wait for room (the counter is read
			// without t: this is not the test's goroutine).
			defer close(left)
			for ctx.Err() == nil {
				if w, err := counterOf(sw.Router, "svc_router_room_waits_total"); err != nil || w > w0 {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
		}()
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			t.Fatalf("the request was answered (%d) although its client left", resp.StatusCode)
		}
		cancel()
		<-left
		sw.WaitNoSessions(t)
		http.DefaultClient.CloseIdleConnections()
		ss.stop()
		noLeak(t, base)
	})
}

// firstGate is the real router holding every generation's first token
// but the first pass ones' until open is closed.
type firstGate struct {
	router.Backend
	pass int32
	n    atomic.Int32
	open chan struct{}
}

func (g *firstGate) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	first := true
	return g.Backend.Generate(ctx, req, func(tk router.Token) error {
		if first {
			first = false
			if g.n.Add(1) > g.pass {
				select {
				case <-g.open:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			}
		}
		return emit(tk)
	})
}

// onRead calls f after each read that returned bytes.
type onRead struct {
	r io.Reader
	f func()
}

func (o *onRead) Read(p []byte) (int, error) {
	n, err := o.r.Read(p)
	if n > 0 {
		o.f()
	}
	return n, err
}

// counter is the value of one of the router's counters.
func counter(t *testing.T, r *router.Router, name string) float64 {
	t.Helper()
	v, err := counterOf(r, name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func counterOf(r *router.Router, name string) (float64, error) {
	mfs, err := r.Registry().Gather()
	if err != nil {
		return 0, err
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			v := 0.0
			for _, m := range mf.GetMetric() {
				v += m.GetCounter().GetValue()
			}
			return v, nil
		}
	}
	return 0, fmt.Errorf("no metric %s", name)
}

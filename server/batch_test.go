package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/router"
)

// A completions request whose prompt is an array of prompts, over a chain
// of three real nodes: one choice per prompt, in order, each what the
// prompt gives alone (text, finish_reason, log-probabilities to the bit),
// usage summed, streamed interleaved; a failing prompt fails the request
// and a client that leaves ends every generation.

var batchPrompts = []string{"Once upon a time", "The dog", "A little girl", "Tom and Sam", "The sun"}

// batchResp is a completions answer of several choices.
type batchResp struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Choices []struct {
		Index        int             `json:"index"`
		Text         string          `json:"text"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason *string         `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

func decodeBatch(t *testing.T, r response, n int) batchResp {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var b batchResp
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatalf("decoding %s: %v", r.Body, err)
	}
	if len(b.Choices) != n || b.Usage == nil {
		t.Fatalf("%d choices (want %d), usage %v: %s", len(b.Choices), n, b.Usage, r.Body)
	}
	for i, c := range b.Choices {
		if c.Index != i || c.FinishReason == nil {
			t.Fatalf("choice %d: index %d, finish_reason %v", i, c.Index, c.FinishReason)
		}
	}
	return b
}

// withPrompt is body (a JSON object without prompt) with prompt set.
func withPrompt(t *testing.T, body string, prompt any) string {
	t.Helper()
	p, err := json.Marshal(prompt)
	if err != nil {
		t.Fatal(err)
	}
	return `{"prompt":` + string(p) + `,` + strings.TrimPrefix(body, "{")
}

// alone answers each prompt in a request of its own.
func alone[P any](t *testing.T, url, body string, prompts []P) []batchResp {
	t.Helper()
	out := make([]batchResp, len(prompts))
	for i, p := range prompts {
		out[i] = decodeBatch(t, postJSON(t, url, withPrompt(t, body, p)), 1)
	}
	return out
}

// sameAsAlone checks a batch's choices against the prompts' answers alone,
// log-probabilities byte for byte, and the usage against their sum.
func sameAsAlone(t *testing.T, what string, b batchResp, single []batchResp) {
	t.Helper()
	var sum usage
	for i, s := range single {
		c, w := b.Choices[i], s.Choices[0]
		if c.Text != w.Text || *c.FinishReason != *w.FinishReason || !bytes.Equal(c.Logprobs, w.Logprobs) {
			t.Errorf("%s: choice %d: %q %s %s; alone %q %s %s", what, i, c.Text, *c.FinishReason, c.Logprobs, w.Text, *w.FinishReason, w.Logprobs)
		}
		sum.add(*s.Usage)
	}
	// Which prompt tokens the nodes' caches held depends on what came
	// before; the rest is the sum.
	got := *b.Usage
	if c := got.PromptTokensDetails.CachedTokens; c < 0 || c > got.PromptTokens {
		t.Errorf("%s: %d cached of %d prompt tokens", what, c, got.PromptTokens)
	}
	got.PromptTokensDetails, sum.PromptTokensDetails = promptTokensDetails{}, promptTokensDetails{}
	if got != sum {
		t.Errorf("%s: usage %+v, the prompts alone sum to %+v", what, *b.Usage, sum)
	}
}

func TestCompletionBatch(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 4}, {4, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	tok := swarmTokenizer(t, sw)
	url := ts.URL + "/v1/completions"
	ids := make([][]int32, len(batchPrompts))
	for i, p := range batchPrompts {
		var err error
		if ids[i], err = tok.Encode(p, true, true); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("a choice per prompt", func(t *testing.T) {
		const body = `{"max_tokens":24}`
		t0 := time.Now()
		single := alone(t, url, body, batchPrompts)
		one := time.Since(t0)
		t0 = time.Now()
		b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, batchPrompts)), len(batchPrompts))
		t.Logf("%d prompts: %s one after the other, %s as one request (noisy: a shared machine)", len(batchPrompts), one.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond))
		if b.Object != "text_completion" || !strings.HasPrefix(b.ID, "cmpl-") {
			t.Errorf("id %q object %q", b.ID, b.Object)
		}
		sameAsAlone(t, "strings", b, single)
		// As token arrays: the same answers.
		sameAsAlone(t, "token arrays", decodeBatch(t, postJSON(t, url, withPrompt(t, body, ids)), len(ids)), single)
		// A batch of one is a batch.
		sameAsAlone(t, "one", decodeBatch(t, postJSON(t, url, withPrompt(t, body, batchPrompts[1:2])), 1), single[1:2])
		// The same prompt twice, and n (accepted, ignored): one choice per prompt.
		twice := decodeBatch(t, postJSON(t, url, withPrompt(t, `{"max_tokens":24,"n":3}`, []string{batchPrompts[0], batchPrompts[0]})), 2)
		sameAsAlone(t, "twice", twice, []batchResp{single[0], single[0]})
		// Echo and a stop string, per choice: each prompt's own text
		// comes first, and the stop string cuts whichever reaches it.
		text := single[0].Choices[0].Text
		stop := text[len(text)/2 : len(text)/2+3]
		stopBody := fmt.Sprintf(`{"max_tokens":24,"echo":true,"stop":[%q]}`, stop)
		sameAsAlone(t, "echo and stop", decodeBatch(t, postJSON(t, url, withPrompt(t, stopBody, batchPrompts)), len(batchPrompts)), alone(t, url, stopBody, batchPrompts))
	})

	t.Run("the largest batch", func(t *testing.T) {
		// MaxPrompts prompts of one to MaxPrompts tokens, scored and
		// continued at once: each choice is its prompt's.
		prompts := make([][]int32, MaxPrompts)
		for i := range prompts {
			prompts[i] = ids[i%len(ids)][:1+i%len(ids[i%len(ids)])]
		}
		const body = `{"max_tokens":3,"echo":true,"logprobs":0}`
		b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, prompts)), MaxPrompts)
		sameAsAlone(t, "64 prompts", b, alone(t, url, body, prompts))
		sw.WaitNoSessions(t)
	})

	t.Run("lm-eval loglikelihood batch", func(t *testing.T) {
		// What lm-evaluation-harness sends to score continuations, a
		// batch at a time: token arrays, echo, logprobs, max_tokens 0 (or
		// 1, its older form). Each choice's numbers are the prompt's
		// alone, and one process's, to the bit.
		for _, mt := range []int{0, 1} {
			body := fmt.Sprintf(`{"model":"stories260K","max_tokens":%d,"temperature":0,"echo":true,"logprobs":1}`, mt)
			b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, ids)), len(ids))
			sameAsAlone(t, fmt.Sprintf("max_tokens %d", mt), b, alone(t, url, body, ids))
			for i, p := range ids {
				want := swarmtest.LocalLogprobs(t, path, p, 1, 1)
				if mt == 0 {
					want.Steps = nil
				}
				var lp lpTextLogprobs
				unmarshalNumbers(t, b.Choices[i].Logprobs, &lp)
				checkTextLogprobs(t, fmt.Sprintf("max_tokens %d, choice %d", mt, i), tok, lp, p, want, 1, b.Choices[i].Text)
			}
		}
	})

	t.Run("long prompts start a few at a time", func(t *testing.T) {
		// Eight prompts of 400 tokens are more than a batch sends the
		// nodes at once (router.Waves' pacing): some wait for others'
		// prompt steps, and each choice is still its prompt's alone.
		prompts := make([][]int32, 8)
		for i := range prompts {
			p := []int32{ids[i%len(ids)][0]}
			for len(p) < 400 {
				q := ids[(len(p)+i)%len(ids)]
				p = append(p, q[1:]...)
			}
			prompts[i] = p[:400]
		}
		const body = `{"max_tokens":2,"echo":true,"logprobs":1}`
		w0 := counter(t, sw.Router, "svc_router_prompt_waits_total")
		b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, prompts)), len(prompts))
		if w := counter(t, sw.Router, "svc_router_prompt_waits_total") - w0; w < 1 {
			t.Errorf("%v prompts waited: the batch's prompt steps were not paced", w)
		}
		sameAsAlone(t, "long prompts", b, alone(t, url, body, prompts))
		sw.WaitNoSessions(t)
	})

	t.Run("echo with logprobs is bounded per request", func(t *testing.T) {
		// 64 prompts of 900 tokens, each within the bound of one prompt
		// (router.MaxPromptLogprobs), are more together than one prompt
		// may hold at logprobs 5: refused, naming the fields, before any
		// generation.
		const n, each = MaxPrompts, 900
		limit := router.MaxPromptLogprobs(5)
		if n*each <= limit || each > limit {
			t.Fatalf("the test's sizes no longer straddle the bound %d", limit)
		}
		prompts := make([][]int32, n)
		for i := range prompts {
			prompts[i] = append([]int32{ids[0][0]}, slices.Repeat(ids[0][1:2], each-1)...)
		}
		for _, stream := range []bool{false, true} {
			body := withPrompt(t, fmt.Sprintf(`{"max_tokens":0,"echo":true,"logprobs":5,"stream":%v}`, stream), prompts)
			d := checkError(t, "over the bound", postJSON(t, url, body), 400, codeInvalidRequest)
			want := fmt.Sprintf("echo with logprobs: the %d prompts hold %d tokens together; with logprobs 5 the log-probabilities of at most %d prompt tokens can be returned by one request", n, n*each, limit)
			if !strings.HasPrefix(d.Message, want) {
				t.Errorf("message %q, want %q…", d.Message, want)
			}
		}
		if sw.Sessions() != 0 {
			t.Errorf("%d sessions open after a refused batch", sw.Sessions())
		}
	})

	t.Run("official SDK", func(t *testing.T) {
		client := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey("x"), option.WithMaxRetries(0))
		single := alone(t, url, `{"max_tokens":16}`, batchPrompts)
		params := openai.CompletionNewParams{
			Model:     storiesName,
			Prompt:    openai.CompletionNewParamsPromptUnion{OfArrayOfStrings: batchPrompts},
			MaxTokens: openai.Int(16),
		}
		cr, err := client.Completions.New(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		if len(cr.Choices) != len(batchPrompts) {
			t.Fatalf("SDK: %d choices", len(cr.Choices))
		}
		var sum usage
		for i, c := range cr.Choices {
			w := single[i].Choices[0]
			if int(c.Index) != i || c.Text != w.Text || string(c.FinishReason) != *w.FinishReason {
				t.Errorf("SDK choice %d: %d %q %s; alone %q %s", i, c.Index, c.Text, c.FinishReason, w.Text, *w.FinishReason)
			}
			sum.add(*single[i].Usage)
		}
		if int(cr.Usage.PromptTokens) != sum.PromptTokens || int(cr.Usage.CompletionTokens) != sum.CompletionTokens || int(cr.Usage.TotalTokens) != sum.TotalTokens {
			t.Errorf("SDK usage %+v, alone %+v", cr.Usage, sum)
		}

		// Streamed through the SDK, with the usage at the end.
		params.Prompt = openai.CompletionNewParamsPromptUnion{OfArrayOfTokenArrays: func() [][]int64 {
			var out [][]int64
			for _, p := range ids {
				var q []int64
				for _, id := range p {
					q = append(q, int64(id))
				}
				out = append(out, q)
			}
			return out
		}()}
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		st := client.Completions.NewStreaming(t.Context(), params)
		texts := make([]string, len(ids))
		finishes := make([]string, len(ids))
		var got openai.CompletionUsage
		for st.Next() {
			c := st.Current()
			if len(c.Choices) == 0 {
				got = c.Usage
				continue
			}
			ch := c.Choices[0]
			if len(c.Choices) != 1 || ch.Index < 0 || int(ch.Index) >= len(ids) || finishes[ch.Index] != "" {
				t.Fatalf("chunk %+v", c)
			}
			texts[ch.Index] += ch.Text
			finishes[ch.Index] = string(ch.FinishReason)
		}
		if err := st.Err(); err != nil {
			t.Fatal(err)
		}
		for i := range ids {
			if w := single[i].Choices[0]; texts[i] != w.Text || finishes[i] != *w.FinishReason {
				t.Errorf("SDK stream choice %d: %q %s; alone %q %s", i, texts[i], finishes[i], w.Text, *w.FinishReason)
			}
		}
		if int(got.PromptTokens) != sum.PromptTokens || int(got.CompletionTokens) != sum.CompletionTokens || int(got.TotalTokens) != sum.TotalTokens {
			t.Errorf("SDK stream usage %+v, alone %+v", got, sum)
		}
	})

	t.Run("stream", func(t *testing.T) {
		// Echo, logprobs and a stop string, streamed: each choice's
		// chunks join to its whole answer, its logprobs too, it ends
		// with one chunk carrying finish_reason; the usage chunk sums
		// them; [DONE] comes once, last.
		single := alone(t, url, `{"max_tokens":20}`, batchPrompts)
		text := single[2].Choices[0].Text
		stop := text[len(text)/3 : len(text)/3+3]
		body := fmt.Sprintf(`{"max_tokens":20,"echo":true,"logprobs":2,"stop":[%q]}`, stop)
		whole := decodeBatch(t, postJSON(t, url, withPrompt(t, body, batchPrompts)), len(batchPrompts))
		resp, events := streamPost(t, url, withPrompt(t, strings.Replace(body, "{", `{"stream":true,"stream_options":{"include_usage":true},`, 1), batchPrompts))
		if resp.Status != 200 || len(events) < 2*len(batchPrompts)+2 {
			t.Fatalf("stream: %d %s %v", resp.Status, resp.Body, events)
		}
		if events[len(events)-1].Data != "[DONE]" {
			t.Fatalf("last event %q", events[len(events)-1].Data)
		}
		var u struct {
			Choices []json.RawMessage `json:"choices"`
			Usage   *usage            `json:"usage"`
		}
		if err := json.Unmarshal([]byte(events[len(events)-2].Data), &u); err != nil || u.Choices == nil || len(u.Choices) != 0 || u.Usage == nil ||
			u.Usage.PromptTokens != whole.Usage.PromptTokens || u.Usage.CompletionTokens != whole.Usage.CompletionTokens || u.Usage.TotalTokens != whole.Usage.TotalTokens {
			t.Fatalf("usage chunk %s, whole usage %+v", events[len(events)-2].Data, *whole.Usage)
		}
		texts := make([]strings.Builder, len(batchPrompts))
		lps := make([]lpTextLogprobs, len(batchPrompts))
		finished := make([]string, len(batchPrompts))
		interleaved := false
		last := -1
		for i, ev := range events[:len(events)-2] {
			if ev.Data == "[DONE]" {
				t.Fatalf("event %d: [DONE] before the end", i)
			}
			var c batchResp
			if err := json.Unmarshal([]byte(ev.Data), &c); err != nil || len(c.Choices) != 1 || c.Usage != nil {
				t.Fatalf("event %d: %s", i, ev.Data)
			}
			ch := c.Choices[0]
			if ch.Index < 0 || ch.Index >= len(batchPrompts) || finished[ch.Index] != "" {
				t.Fatalf("event %d: a chunk of choice %d after its end: %s", i, ch.Index, ev.Data)
			}
			interleaved = interleaved || (last >= 0 && ch.Index < last)
			last = ch.Index
			texts[ch.Index].WriteString(ch.Text)
			if ch.FinishReason != nil {
				finished[ch.Index] = *ch.FinishReason
			}
			if len(ch.Logprobs) > 0 && string(ch.Logprobs) != "null" {
				var l lpTextLogprobs
				unmarshalNumbers(t, ch.Logprobs, &l)
				lp := &lps[ch.Index]
				lp.Tokens = append(lp.Tokens, l.Tokens...)
				lp.TokenLogprobs = append(lp.TokenLogprobs, l.TokenLogprobs...)
				lp.TopLogprobs = append(lp.TopLogprobs, l.TopLogprobs...)
				lp.TextOffset = append(lp.TextOffset, l.TextOffset...)
			}
		}
		t.Logf("%d events; chunks of the choices interleaved: %v", len(events), interleaved)
		for i, c := range whole.Choices {
			var wlp lpTextLogprobs
			unmarshalNumbers(t, c.Logprobs, &wlp)
			streamed, _ := json.Marshal(lps[i])
			wholeLP, _ := json.Marshal(wlp)
			if texts[i].String() != c.Text || finished[i] != *c.FinishReason || !bytes.Equal(streamed, wholeLP) {
				t.Errorf("choice %d streamed %q %q %s; whole %q %q %s", i, texts[i].String(), finished[i], streamed, c.Text, *c.FinishReason, wholeLP)
			}
		}
	})

	t.Run("a failing prompt fails the request", func(t *testing.T) {
		httpClient.CloseIdleConnections()
		base, _ := settle()
		fault := &router.RouteError{Model: storiesName, First: 2, Last: 5, Excluded: 1}
		for _, after := range []int{0, 3} {
			fb := &batchFault{Backend: sw.Router, victim: ids[2], after: after, err: fault, others: len(ids) - 1}
			fs := startServer(t, Config{Backend: fb, DefaultModel: storiesName})
			defer fs.stop()
			furl := fs.URL + "/v1/completions"
			body := withPrompt(t, `{"max_tokens":40}`, ids)
			checkError(t, fmt.Sprintf("fails after %d tokens", after), postJSON(t, furl, body), 503, codeRouteUnavailable)
			sw.WaitNoSessions(t)
			fb.reset()
			resp, events := streamPost(t, furl, strings.Replace(body, "{", `{"stream":true,"stream_options":{"include_usage":true},`, 1))
			if after == 0 {
				// Before the stream began: an HTTP error.
				checkError(t, "stream fails before its first token", resp, 503, codeRouteUnavailable)
			} else {
				// The others' first tokens had come: an error event, the end.
				var eb errorBody
				if resp.Status != 200 || len(events) == 0 || json.Unmarshal([]byte(events[len(events)-1].Data), &eb) != nil || eb.Error.Code != codeRouteUnavailable {
					t.Fatalf("stream failing partway: %d %v", resp.Status, events)
				}
				for _, ev := range events {
					if ev.Data == "[DONE]" || strings.Contains(ev.Data, `"usage"`) {
						t.Errorf("a failed stream sent %s", ev.Data)
					}
				}
			}
			sw.WaitNoSessions(t)
			fs.stop()
		}
		httpClient.CloseIdleConnections()
		noLeak(t, base)
	})

	t.Run("a client that leaves ends every generation", func(t *testing.T) {
		httpClient.CloseIdleConnections()
		base, _ := settle()
		slow := &slowBackend{Backend: sw.Router, delay: 20 * time.Millisecond}
		ss := startServer(t, Config{Backend: slow, DefaultModel: storiesName})
		for _, stream := range []bool{true, false} {
			ctx, cancel := context.WithCancel(t.Context())
			body := withPrompt(t, fmt.Sprintf(`{"max_tokens":400,"stream":%v}`, stream), batchPrompts)
			req, err := http.NewRequestWithContext(ctx, "POST", ss.URL+"/v1/completions", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if !stream {
				// The answer would take seconds; leave while the
				// generations run (a session is open).
				go func() {
					for sw.Sessions() == 0 && ctx.Err() == nil {
						time.Sleep(5 * time.Millisecond)
					}
					cancel()
				}()
			}
			resp, err := http.DefaultClient.Do(req)
			if stream {
				if err != nil || resp.StatusCode != 200 {
					t.Fatalf("stream: %v %v", resp, err)
				}
				// Read a few chunks, then leave.
				buf := make([]byte, 2048)
				for n := 0; n < 4096; {
					k, err := resp.Body.Read(buf)
					if err != nil {
						t.Fatalf("stream ended early: %v", err)
					}
					n += k
				}
				cancel()
				resp.Body.Close()
			} else if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				t.Fatalf("the request was answered (%d) although its client left", resp.StatusCode)
			}
			cancel()
			sw.WaitNoSessions(t)
		}
		http.DefaultClient.CloseIdleConnections()
		ss.stop()
		noLeak(t, base)
	})
}

// noLeak waits (30 s at most) until the goroutines are back to about base
// (a node's background work comes and goes).
func noLeak(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	n, _ := settle()
	for n > base+2 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		n, _ = settle()
	}
	if n > base+2 {
		t.Errorf("%d goroutines after the batches, %d before", n, base)
	}
}

// batchFault is the real router with one prompt's generation failing with
// err after `after` tokens; past its first token, only once `others` other
// generations have given theirs (so the stream has begun).
type batchFault struct {
	router.Backend
	victim []int32
	after  int
	others int
	err    error

	mu      sync.Mutex
	started int
	ready   chan struct{}
}

func (f *batchFault) reset() {
	f.mu.Lock()
	f.started, f.ready = 0, nil
	f.mu.Unlock()
}

func (f *batchFault) gate() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ready == nil {
		f.ready = make(chan struct{})
	}
	return f.ready
}

func (f *batchFault) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	ready := f.gate()
	victim := slices.Equal(req.Prompt, f.victim)
	var n atomic.Int64
	res, err := f.Backend.Generate(ctx, req, func(tk router.Token) error {
		k := n.Add(1)
		if victim && int(k) > f.after {
			if f.after > 0 {
				select {
				case <-ready:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			}
			return f.err
		}
		if err := emit(tk); err != nil {
			return err
		}
		if !victim && k == 1 {
			f.mu.Lock()
			f.started++
			if f.started == f.others {
				close(ready)
			}
			f.mu.Unlock()
		}
		return nil
	})
	if victim && err == nil {
		err = f.err
	}
	return res, err
}

// TestManagedBatch: in the managed variant a batch counts once against its
// key's rate, holds one of the API's generation slots per prompt (all or
// none), and every refusal is journaled.
func TestManagedBatch(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	batch := func(prompts []string, extra string) string {
		return withPrompt(t, `{"model":"stories260K","max_tokens":6`+extra+`}`, prompts)
	}

	t.Run("rate", func(t *testing.T) {
		k := newManagedKit(t, sw, sw.Router, nil)
		key := k.key(t, "r", []string{"*"}, 2, time.Hour)
		decodeBatch(t, k.call(t, "POST", "/v1/completions", key, batch(batchPrompts, "")), len(batchPrompts))
		resp, events := func() (*http.Response, []sseEvent) {
			req, _ := http.NewRequest("POST", k.ts.URL+"/v1/completions", strings.NewReader(batch(batchPrompts[:3], `,"stream":true,"stream_options":{"include_usage":true}`)))
			req.Header.Set("Authorization", "Bearer "+key)
			resp, err := httpClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			return resp, readSSE(t, resp.Body)
		}()
		if resp.StatusCode != 200 || len(events) < 8 || events[len(events)-1].Data != "[DONE]" || !strings.Contains(events[len(events)-2].Data, `"usage"`) {
			t.Fatalf("streamed batch: %d %v", resp.StatusCode, events)
		}
		// Two requests of 5 and 3 prompts: the key's rate of 2 is used up.
		k.refused(t, "third request", k.call(t, "POST", "/v1/completions", key, batch(batchPrompts[:1], "")), 429, codeRateLimitExceeded)
		k.scan(t)
	})

	t.Run("slots", func(t *testing.T) {
		gate := &gateBackend{Backend: sw.Router, entered: make(chan struct{}, 8), release: make(chan struct{})}
		k := newManagedKit(t, sw, gate, func(m *Managed) { m.MaxGenerations = 3 })
		key := k.key(t, "s", []string{"*"}, 100, time.Hour)
		// More prompts than the API ever runs at once: retrying cannot help.
		d := checkError(t, "batch beyond the bound", k.call(t, "POST", "/v1/completions", key, batch(batchPrompts[:4], "")), 400, codeInvalidRequest)
		if !strings.Contains(d.Message, "prompt holds 4 prompts") || !strings.Contains(d.Message, "at most 3") {
			t.Errorf("message %q", d.Message)
		}
		k.checkRecord(t, "batch beyond the bound", d, codeInvalidRequest)
		// One generation runs: a batch of three finds two slots free.
		done := make(chan response, 1)
		go func() { done <- k.call(t, "POST", "/v1/completions", key, batch(batchPrompts[:1], "")) }()
		<-gate.entered
		k.refused(t, "batch beyond the free slots", k.call(t, "POST", "/v1/completions", key, batch(batchPrompts[:3], "")), 429, codeCapacity)
		close(gate.release)
		decodeBatch(t, <-done, 1)
		// The refused batch took no slot: three prompts fit again.
		decodeBatch(t, k.call(t, "POST", "/v1/completions", key, batch(batchPrompts[:3], "")), 3)
		k.scan(t)
	})

	t.Run("a failing prompt", func(t *testing.T) {
		tok := swarmTokenizer(t, sw)
		victim, err := tok.Encode(batchPrompts[1], true, true)
		if err != nil {
			t.Fatal(err)
		}
		away := &router.RouteError{Model: storiesName, First: 2, Last: 5, Excluded: 1}
		k := newManagedKit(t, sw, &batchFault{Backend: sw.Router, victim: victim, err: away, others: len(batchPrompts) - 1}, nil)
		key := k.key(t, "f", []string{"*"}, 100, time.Hour)
		k.refused(t, "a prompt's generation fails", k.call(t, "POST", "/v1/completions", key, batch(batchPrompts, "")), 503, codeNodeUnavailable)
		sw.WaitNoSessions(t)
		k.scan(t)
	})
}

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"svc/internal/testenv"
	"svc/router"
)

// A batch's generation ends at its stop string, whatever the others do:
// also while its stream waits for a slower prompt's first token (its
// output buffered), and the answers stay what each prompt gives alone.
func TestBatchStopsAtStopString(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	ts := startServer(t, Config{Backend: sw.Router, DefaultModel: storiesName})
	tok := swarmTokenizer(t, sw)
	fast, held := batchPrompts[0], batchPrompts[1]
	const maxTokens = 40

	// The fast prompt's tokens, to pick a stop string spanning two of
	// their pieces.
	var lp struct {
		Choices []struct {
			Logprobs lpTextLogprobs `json:"logprobs"`
		} `json:"choices"`
	}
	r := postJSON(t, ts.URL+"/v1/completions", fmt.Sprintf(`{"prompt":%q,"max_tokens":%d,"logprobs":0}`, fast, maxTokens))
	if err := json.Unmarshal(r.Body, &lp); err != nil || len(lp.Choices) != 1 {
		t.Fatalf("%d %s: %v", r.Status, r.Body, err)
	}
	pieces := lp.Choices[0].Logprobs.Tokens
	k := -1
	for i := 3; i+1 < len(pieces)-5; i++ {
		if len(pieces[i]) >= 2 && len(pieces[i+1]) >= 2 {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatalf("no two pieces to span: %q", pieces)
	}
	stop := pieces[k][len(pieces[k])-1:] + pieces[k+1][:2]
	t.Logf("stop string %q spans pieces %q and %q", stop, pieces[k], pieces[k+1])
	body := fmt.Sprintf(`{"max_tokens":%d,"stop":[%q,"zzz"]}`, maxTokens, stop)
	single := alone(t, ts.URL+"/v1/completions", body, []string{fast, held})

	hb := &holdBackend{Backend: sw.Router, held: encode(t, tok, held)}
	hs := startServer(t, Config{Backend: hb, DefaultModel: storiesName})
	url := hs.URL + "/v1/completions"
	// Alone, non-streamed: the generation ends at the token completing
	// the stop string (as it always did).
	hb.reset(0)
	if b := decodeBatch(t, postJSON(t, url, withPrompt(t, body, fast)), 1); b.Choices[0].Text != single[0].Choices[0].Text {
		t.Fatalf("alone: %q, %q", b.Choices[0].Text, single[0].Choices[0].Text)
	}
	want := hb.count()
	if want >= maxTokens || *single[0].Choices[0].FinishReason != "stop" {
		t.Fatalf("the stop string did not end the generation: %d tokens, %s", want, *single[0].Choices[0].FinishReason)
	}
	for _, stream := range []bool{false, true} {
		// The held prompt starts only once the fast one's generation has
		// returned: before, a stream's writer saw none of its tokens.
		hb.reset(1)
		b := withPrompt(t, strings.Replace(body, "{", fmt.Sprintf(`{"stream":%v,`, stream), 1), []string{fast, held})
		texts := make([]string, 2)
		finishes := make([]string, 2)
		if stream {
			resp, events := streamPost(t, url, b)
			if resp.Status != 200 || events[len(events)-1].Data != "[DONE]" {
				t.Fatalf("stream: %d %s %v", resp.Status, resp.Body, events)
			}
			for _, ev := range events[:len(events)-1] {
				var c batchResp
				if err := json.Unmarshal([]byte(ev.Data), &c); err != nil || len(c.Choices) != 1 {
					t.Fatalf("event %s", ev.Data)
				}
				texts[c.Choices[0].Index] += c.Choices[0].Text
				if f := c.Choices[0].FinishReason; f != nil {
					finishes[c.Choices[0].Index] = *f
				}
			}
		} else {
			for i, c := range decodeBatch(t, postJSON(t, url, b), 2).Choices {
				texts[i], finishes[i] = c.Text, *c.FinishReason
			}
		}
		for i, s := range single {
			if texts[i] != s.Choices[0].Text || finishes[i] != *s.Choices[0].FinishReason {
				t.Errorf("stream %v, choice %d: %q %s; alone %q %s", stream, i, texts[i], finishes[i], s.Choices[0].Text, *s.Choices[0].FinishReason)
			}
		}
		if n := hb.count(); n != want {
			t.Errorf("stream %v: the fast prompt generated %d tokens; its stop string is complete at %d", stream, n, want)
		}
	}
	sw.WaitNoSessions(t)
}

func encode(t *testing.T, tok interface {
	Encode(string, bool, bool) ([]int32, error)
}, text string) []int32 {
	t.Helper()
	ids, err := tok.Encode(text, true, true)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// holdBackend is the real router holding back the generation of one
// prompt (held) until the others of its request (wait of them) have
// returned; made is the tokens the last of those generated.
type holdBackend struct {
	router.Backend
	held []int32

	mu   sync.Mutex
	wait int
	free chan struct{}
	made int
}

func (h *holdBackend) reset(others int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.wait, h.free, h.made = others, make(chan struct{}), -1
	if others == 0 {
		close(h.free)
	}
}

func (h *holdBackend) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.made
}

func (h *holdBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	h.mu.Lock()
	free := h.free
	h.mu.Unlock()
	if slices.Equal(req.Prompt, h.held) {
		select {
		case <-free:
		case <-ctx.Done():
			return router.GenerateResult{}, context.Cause(ctx)
		}
		return h.Backend.Generate(ctx, req, emit)
	}
	res, err := h.Backend.Generate(ctx, req, emit)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.made = res.CompletionTokens
	if h.wait--; h.wait == 0 {
		close(h.free)
	}
	return res, err
}

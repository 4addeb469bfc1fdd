package managed

import (
	"bufio"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/testenv"
)

// TestManagedAPIModels: three machines serve stories260K (one copy of each
// block); the API over TLS answers as svc generate does, token for token,
// and the rows of the error table that need a served model are caused for
// real: every machine busy (capacity), the deployment's time limit
// (timeout), a machine SIGKILLed mid-stream with no replacement
// (generation_interrupted), then away (node_unavailable), a machine
// removed (model_unavailable), a model being loaded (model_loading). Each
// reference leads to the machine and the cause in the journal and on the
// audit trail.
func TestManagedAPIModels(t *testing.T) {
	d := newDeployment(t)
	d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "8760h",
		"--features", "api", "--out", d.path("acme.licence"))
	d.mustCo("licence", "install", d.path("acme.licence"))
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	machines := []string{"m1", "m2", "m3"}
	for _, m := range machines {
		if r := d.enroll(m, d.token("--label", m)); r.Code != 0 {
			t.Fatalf("enroll %s: %d\n%s", m, r.Code, r.Stderr)
		}
	}
	procs := map[string]interface{ Kill() error }{}
	for _, m := range machines {
		p, _ := d.startAgent(m)
		procs[m] = p
	}
	waitFor(t, "three machines online", func() bool { return strings.Count(d.mustCo("node", "list"), " online ") == 3 })
	stories := testenv.Path(t, "models", "stories260K.gguf")
	d.mustCo("model", "serve", stories, "--replicas", "1")
	waitFor(t, "stories260K served", func() bool {
		return regexp.MustCompile(`(?m)^stories260K\s+served\s`).MatchString(d.mustCo("model", "list"))
	})

	a := d.startAPI("api-1")
	// A second API whose limits are tiny: one generation at a time, 50 ms each.
	tight := d.startAPI("api-2", "SVC_API_MAX_GENERATIONS=1", "SVC_API_GENERATION_LIMIT=50ms")
	key := a.key(t, "--models", "*", "--expires", "1d", "--rate", "1000/min", "--name", "web")
	tkey := key
	waitFor(t, "the APIs list stories260K", func() bool {
		return strings.Contains(string(a.call(t, "GET", "/v1/models", key, "").body), `"id":"stories260K"`) &&
			strings.Contains(string(tight.call(t, "GET", "/v1/models", tkey, "").body), `"id":"stories260K"`)
	})

	t.Run("equals svc generate", func(t *testing.T) {
		var want struct {
			Text string `json:"text"`
			Top  [][]struct {
				Logprob json.Number `json:"logprob"`
			} `json:"top_logprobs"`
		}
		out := d.svc("generate", "--model", stories, "--tokens", "1,403,407,261,378", "-n", "24", "--logprobs", "5", "--json")
		dec := json.NewDecoder(strings.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		c := openai.NewClient(option.WithBaseURL(a.base+"/v1/"), option.WithAPIKey(key), option.WithHTTPClient(a.client), option.WithMaxRetries(0))
		res, err := c.Completions.New(d.ctx(), openai.CompletionNewParams{
			Model:     "stories260K",
			Prompt:    openai.CompletionNewParamsPromptUnion{OfArrayOfTokens: []int64{1, 403, 407, 261, 378}},
			MaxTokens: openai.Int(24),
			Logprobs:  openai.Int(5),
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Choices[0].Text != want.Text {
			t.Fatalf("the API answers %q, svc generate %q", res.Choices[0].Text, want.Text)
		}
		// Log-probabilities through three machines have one process's
		// bits: the chosen token's is the first of svc generate's top 5,
		// and each position's five are svc generate's.
		lp := res.Choices[0].Logprobs
		if len(lp.TokenLogprobs) != 24 || len(lp.TopLogprobs) != 24 || len(want.Top) < 24 {
			t.Fatalf("%d logprobs, %d tops through the API, %d from svc generate", len(lp.TokenLogprobs), len(lp.TopLogprobs), len(want.Top))
		}
		f32 := func(n json.Number) float32 {
			v, err := strconv.ParseFloat(string(n), 32)
			if err != nil {
				t.Fatal(err)
			}
			return float32(v)
		}
		for i, top := range want.Top[:24] {
			var w, g []float32
			for _, e := range top {
				w = append(w, f32(e.Logprob))
			}
			for _, v := range lp.TopLogprobs[i] {
				g = append(g, float32(v))
			}
			slices.Sort(w)
			slices.Sort(g)
			if float32(lp.TokenLogprobs[i]) != f32(top[0].Logprob) || !slices.Equal(g, w) {
				t.Fatalf("position %d: the API gives %v %v, svc generate %v", i, lp.TokenLogprobs[i], lp.TopLogprobs[i], top)
			}
		}
		// The same prompt in a batch, as lm-evaluation-harness sends
		// them: one choice per prompt, each with the prompt's own answer
		// and numbers.
		batch, err := c.Completions.New(d.ctx(), openai.CompletionNewParams{
			Model:     "stories260K",
			Prompt:    openai.CompletionNewParamsPromptUnion{OfArrayOfTokenArrays: [][]int64{{1, 403}, {1, 403, 407, 261, 378}, {1, 403, 407}}},
			MaxTokens: openai.Int(24),
			Logprobs:  openai.Int(5),
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(batch.Choices) != 3 || batch.Choices[1].Index != 1 || batch.Choices[1].Text != want.Text ||
			!slices.Equal(batch.Choices[1].Logprobs.TokenLogprobs, lp.TokenLogprobs) || batch.Usage.PromptTokens != 10 {
			t.Fatalf("batch of three prompts: %+v", batch)
		}
		// More prompts than the tight API runs at once: refused, traced.
		tight.refused(t, "a batch beyond SVC_API_MAX_GENERATIONS", tight.call(t, "POST", "/v1/completions", tkey,
			`{"model":"stories260K","prompt":["a","b"],"max_tokens":2}`), 400, "invalid_request")
		// Streamed chat through the SDK ends normally.
		st := c.Chat.Completions.NewStreaming(d.ctx(), openai.ChatCompletionNewParams{Model: "stories260K",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Once upon a time")}, MaxTokens: openai.Int(16)})
		n := 0
		for st.Next() {
			n++
		}
		if err := st.Err(); err != nil || n < 2 {
			t.Fatalf("streamed chat: %d chunks, %v", n, err)
		}
	})

	body := func(n int, stream bool) string {
		s := `{"model":"stories260K","max_tokens":` + itoa(n) + `,"messages":[{"role":"user","content":"Tell me a story"}]`
		if stream {
			s += `,"stream":true`
		}
		return s + "}"
	}

	t.Run("timeout", func(t *testing.T) {
		r := tight.call(t, "POST", "/v1/chat/completions", tkey, body(400, false))
		tight.refused(t, "past the generation limit", r, 504, "timeout")
	})

	t.Run("capacity", func(t *testing.T) {
		// One generation at a time: a burst finds the slot taken.
		seen := false
		for round := 0; round < 20 && !seen; round++ {
			var wg sync.WaitGroup
			answers := make([]apiAnswer, 6)
			for i := range answers {
				wg.Go(func() { answers[i] = tight.call(t, "POST", "/v1/chat/completions", tkey, body(64, false)) })
			}
			wg.Wait()
			for _, r := range answers {
				if r.status == 429 && !seen {
					tight.refused(t, "every machine busy", r, 429, "capacity")
					seen = true
				}
			}
		}
		if !seen {
			t.Fatal("20 bursts of 6 requests never found the one generation slot taken")
		}
	})

	t.Run("machine lost mid-stream", func(t *testing.T) {
		victim := lastSliceHolder(t, d.mustCo("model", "list"))
		req, _ := http.NewRequestWithContext(d.ctx(), "POST", a.base+"/v1/chat/completions", strings.NewReader(body(400, true)))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("stream: %d", resp.StatusCode)
		}
		sc := bufio.NewScanner(resp.Body)
		var last string
		killed := false
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			last = strings.TrimPrefix(line, "data: ")
			if !killed && strings.Contains(last, `"content"`) {
				if err := procs[victim].Kill(); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		if !killed || !strings.Contains(last, `"code":"generation_interrupted"`) {
			t.Fatalf("the stream ended with %s (machine %s killed: %v)", last, victim, killed)
		}
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.Unmarshal([]byte(last), &e)
		ref := a.traced(t, "machine lost mid-stream", e.Error.Message, "generation_interrupted")
		if out := d.mustCo("audit", "show", "--reference", ref); !strings.Contains(out, "machine="+victim) || !strings.Contains(out, "port=") {
			t.Errorf("audit show --reference %s does not name machine %s and its port:\n%s", ref, victim, out)
		}
		// Until it is back, the model lacks a machine.
		waitFor(t, "a request finds the machine away", func() bool {
			r := a.call(t, "POST", "/v1/chat/completions", key, body(8, false))
			return r.status == 503
		})
		r := a.call(t, "POST", "/v1/chat/completions", key, body(8, false))
		if !strings.Contains(string(r.body), `"node_unavailable"`) && !strings.Contains(string(r.body), `"model_unavailable"`) {
			t.Fatalf("machine away: %d %s", r.status, r.body)
		}
		code := "node_unavailable"
		if strings.Contains(string(r.body), `"model_unavailable"`) {
			code = "model_unavailable"
		}
		t.Logf("with %s killed, a request gets %s", victim, code)
		a.refused(t, "machine away", r, 503, code)
		procs[victim], _ = d.startAgent(victim)
	})

	t.Run("machine removed", func(t *testing.T) {
		d.mustCo("node", "remove", "m2")
		waitFor(t, "stories260K unavailable", func() bool { return strings.Contains(d.mustCo("model", "list"), "unavailable") })
		r := a.call(t, "POST", "/v1/chat/completions", key, body(8, false))
		ref := a.refused(t, "machine removed", r, 503, "model_unavailable")
		if out := d.mustCo("audit", "show", "--reference", ref); !strings.Contains(out, "machine=m2") || !strings.Contains(out, "model serve stories260K") {
			t.Errorf("audit show --reference %s does not name m2 and the fix:\n%s", ref, out)
		}
	})

	t.Run("model loading", func(t *testing.T) {
		d.mustCo("model", "serve", "stories260K", "--replicas", "1")
		// The placement is loading from the moment serve returns until the
		// machines have fetched their slices.
		deadline := time.Now().Add(60 * time.Second)
		for {
			r := a.call(t, "POST", "/v1/chat/completions", key, body(4, false))
			if strings.Contains(string(r.body), `"model_loading"`) {
				a.refused(t, "model loading", r, 503, "model_loading")
				break
			}
			if r.status == 200 {
				t.Skip("the model was served again before a request saw it loading")
			}
			if time.Now().After(deadline) {
				t.Fatalf("no model_loading within 60 s: %d %s", r.status, r.body)
			}
		}
	})

	a.scan(append([]string{a.label}, machines...))
	tight.scan(append([]string{tight.label}, machines...))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// lastSliceHolder is the machine holding stories260K's last block range,
// as model list shows it (a line "stories260K … label[first:last]=state").
func lastSliceHolder(t *testing.T, list string) string {
	t.Helper()
	best, holder := -1, ""
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "stories260K ") {
			continue
		}
		for _, m := range sliceRE.FindAllStringSubmatch(line, -1) {
			last, err := strconv.Atoi(m[3])
			if err == nil && last > best {
				best, holder = last, m[1]
			}
		}
	}
	if holder == "" {
		t.Fatalf("no slice of stories260K in the model list:\n%s", list)
	}
	return holder
}

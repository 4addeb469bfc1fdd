package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"svc/apikey"
	"svc/internal/swarmtest"
	"svc/internal/testenv"
	"svc/router"
)

// keySource is the coordinator's side of the key set, held in memory; it
// can be made unreachable. (The swarm's implementation is p2p/apikeys.go,
// tested end to end in tests/managed.)
type keySource struct {
	mu   sync.Mutex
	set  apikey.Set
	down bool
}

func (s *keySource) Fetch(_ context.Context, have uint64) (apikey.Set, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return apikey.Set{}, false, errors.New("dial coordinator: connection refused")
	}
	if s.set.Version <= have {
		return apikey.Set{}, false, nil
	}
	return s.set, true, nil
}

func (s *keySource) change(f func(*apikey.Set)) {
	s.mu.Lock()
	f(&s.set)
	s.set.Version++
	s.mu.Unlock()
}

// deployment is the authority's view, held in memory (the roster's
// implementation is in the coordinator's packages).
type deployment struct {
	mu         sync.Mutex
	licence    time.Time
	placements map[string]Placement
	machines   map[string]Machine
}

func (d *deployment) Licence() (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.licence, !d.licence.IsZero()
}

func (d *deployment) Placement(model string) Placement {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.placements[model]
}

func (d *deployment) Machine(peer string) (Machine, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m, ok := d.machines[peer]
	return m, ok
}

func (d *deployment) set(f func(*deployment)) {
	d.mu.Lock()
	f(d)
	d.mu.Unlock()
}

// clock is a test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// journalBuf collects the journal's lines.
type journalBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (j *journalBuf) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.b.Write(p)
}

func (j *journalBuf) find(t *testing.T, ref string) (Record, bool) {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	sc := bufio.NewScanner(bytes.NewReader(j.b.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("journal line %q: %v", sc.Text(), err)
		}
		if r.Reference == ref {
			return r, true
		}
	}
	return Record{}, false
}

// auditBuf collects the records sent to the audit trail.
type auditBuf struct {
	mu   sync.Mutex
	recs []Record
}

func (a *auditBuf) Refused(r Record) {
	a.mu.Lock()
	a.recs = append(a.recs, r)
	a.mu.Unlock()
}

func (a *auditBuf) has(ref string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range a.recs {
		if r.Reference == ref {
			return true
		}
	}
	return false
}

// managedKit is a managed API over a real in-process swarm.
type managedKit struct {
	ts      *testServer
	sw      *swarmtest.Swarm
	src     *keySource
	ring    *apikey.Ring
	dep     *deployment
	clock   *clock
	journal *journalBuf
	audit   *auditBuf
	// secrets are what must never appear in a body: peer ids, addresses,
	// ports, labels, commands.
	secrets []string
	// errors seen, for the final scan.
	mu     sync.Mutex
	bodies []string
}

func newManagedKit(t *testing.T, sw *swarmtest.Swarm, backend router.Backend, mod func(*Managed)) *managedKit {
	t.Helper()
	k := &managedKit{sw: sw, src: &keySource{}, clock: &clock{now: time.Now().UTC()},
		journal: &journalBuf{}, audit: &auditBuf{},
		dep: &deployment{placements: map[string]Placement{}, machines: map[string]Machine{}}}
	k.dep.licence = k.clock.Now().Add(24 * time.Hour)
	k.secrets = []string{"127.0.0.1", "svc-coordinator", "svc-node-agent", "systemctl"}
	for i, n := range sw.Nodes {
		label := fmt.Sprintf("gpu-box-%d", i+1)
		addr := n.Addrs()[0]
		port := addr[strings.LastIndex(addr, "/")+1:]
		k.dep.machines[n.ID().String()] = Machine{Label: label, Peer: n.ID().String(), Address: "127.0.0.1:" + port}
		k.secrets = append(k.secrets, n.ID().String(), label, ":"+port)
	}
	var err error
	k.ring, err = apikey.NewRing(apikey.RingConfig{Source: k.src, Now: k.clock.Now, CacheFile: t.TempDir() + "/keys.json", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	m := &Managed{Keys: k.ring, Deployment: k.dep, Journal: k.journal, Audit: k.audit}
	if mod != nil {
		mod(m)
	}
	k.ts = startServer(t, Config{Backend: backend, Managed: m, Now: k.clock.Now, DefaultModel: storiesName})
	return k
}

// key issues a key and makes the API learn it.
func (k *managedKit) key(t *testing.T, name string, models []string, rate int, expires time.Duration) string {
	t.Helper()
	token, rec := apikey.Generate(k.clock.Now())
	rec.Name, rec.Models, rec.Rate, rec.Expires = name, models, rate, k.clock.Now().Add(expires)
	k.src.change(func(s *apikey.Set) { s.Keys = append(s.Keys, rec) })
	k.refresh(t)
	return token
}

func (k *managedKit) refresh(t *testing.T) {
	t.Helper()
	if err := k.ring.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func (k *managedKit) call(t *testing.T, method, path, key, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, k.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

// refused checks a managed error answer: status, code, the message's
// reference, what it must not say, and that the journal and the audit
// trail hold the reference. It returns the journal's record.
func (k *managedKit) refused(t *testing.T, what string, r response, status int, code string) Record {
	t.Helper()
	d := checkError(t, what, r, status, code)
	return k.checkRecord(t, what, d, code)
}

func (k *managedKit) checkRecord(t *testing.T, what string, d errorDetail, code string) Record {
	t.Helper()
	k.mu.Lock()
	k.bodies = append(k.bodies, d.Message)
	k.mu.Unlock()
	i := strings.LastIndex(d.Message, " Reference: chatcmpl-")
	if i < 0 || len(d.Message)-i != len(" Reference: chatcmpl-")+24 {
		t.Fatalf("%s: message %q does not end with its reference", what, d.Message)
	}
	ref := d.Message[i+len(" Reference: "):]
	rec, ok := k.journal.find(t, ref)
	if !ok {
		t.Fatalf("%s: reference %s is not in the journal", what, ref)
	}
	// A malformed request is the developer's to fix; everything else
	// tells the operator what to do.
	if rec.Code != code || rec.Message != d.Message || (rec.Fix == "") != (rec.Status == 400) {
		t.Errorf("%s: journal record %+v", what, rec)
	}
	if !k.audit.has(ref) {
		t.Errorf("%s: reference %s did not reach the audit trail", what, ref)
	}
	return rec
}

const chatReq = `{"model":"stories260K","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}`

func TestManaged(t *testing.T) {
	path := testenv.Path(t, "models", "stories260K.gguf")
	sw := startSwarm(t, path, [][2]int{{0, 2}, {2, 5}})
	sw.WaitServed(t, storiesName)
	k := newManagedKit(t, sw, sw.Router, nil)
	all := k.key(t, "app", []string{"*"}, 1000, time.Hour)

	t.Run("health needs no key, metrics are elsewhere", func(t *testing.T) {
		if r := k.call(t, "GET", "/health", "", ""); r.Status != 200 {
			t.Errorf("health: %d %s", r.Status, r.Body)
		}
		if r := k.call(t, "GET", "/metrics", "", ""); r.Status != 404 {
			t.Errorf("/metrics on the API listener: %d", r.Status)
		}
	})

	t.Run("keys", func(t *testing.T) {
		k.refused(t, "no key", k.call(t, "POST", "/v1/chat/completions", "", chatReq), 401, codeInvalidAPIKey)
		k.refused(t, "no key (models)", k.call(t, "GET", "/v1/models", "", ""), 401, codeInvalidAPIKey)
		k.refused(t, "garbage key", k.call(t, "POST", "/v1/chat/completions", "sk-not-ours", chatReq), 401, codeInvalidAPIKey)
		unknown, _ := apikey.Generate(k.clock.Now())
		k.refused(t, "unknown key", k.call(t, "POST", "/v1/chat/completions", unknown, chatReq), 401, codeInvalidAPIKey)

		short := k.key(t, "short", []string{"*"}, 100, time.Minute)
		if r := k.call(t, "POST", "/v1/chat/completions", short, chatReq); r.Status != 200 {
			t.Fatalf("valid key: %d %s", r.Status, r.Body)
		}
		k.clock.advance(time.Minute)
		rec := k.refused(t, "expired key", k.call(t, "POST", "/v1/chat/completions", short, chatReq), 401, codeAPIKeyExpired)
		if want := k.clock.Now().Format("2006-01-02 15:04:05 UTC"); !strings.Contains(rec.Message, want) || rec.KeyName != "short" {
			t.Errorf("expired key: %q does not give the date %s, or the key name is missing (%q)", rec.Message, want, rec.KeyName)
		}

		revoked := k.key(t, "gone", []string{"*"}, 100, time.Hour)
		if r := k.call(t, "POST", "/v1/chat/completions", revoked, chatReq); r.Status != 200 {
			t.Fatalf("before revocation: %d %s", r.Status, r.Body)
		}
		k.src.change(func(s *apikey.Set) {
			for i := range s.Keys {
				if s.Keys[i].Name == "gone" {
					s.Keys[i].Revoked = true
				}
			}
		})
		k.refresh(t)
		k.refused(t, "revoked key", k.call(t, "POST", "/v1/chat/completions", revoked, chatReq), 401, codeInvalidAPIKey)
	})

	t.Run("scope", func(t *testing.T) {
		other := k.key(t, "other", []string{"llama-3"}, 100, time.Hour)
		k.refused(t, "model outside the scope", k.call(t, "POST", "/v1/chat/completions", other, chatReq), 403, codeModelNotPermitted)
		r := k.call(t, "GET", "/v1/models", other, "")
		if r.Status != 200 || strings.Contains(string(r.Body), storiesName) {
			t.Errorf("models for a key without stories260K: %d %s", r.Status, r.Body)
		}
		r = k.call(t, "GET", "/v1/models", all, "")
		if r.Status != 200 || !strings.Contains(string(r.Body), `"id":"stories260K"`) {
			t.Errorf("models for *: %d %s", r.Status, r.Body)
		}
		k.refused(t, "unknown model", k.call(t, "POST", "/v1/chat/completions", all, `{"model":"nope","messages":[{"role":"user","content":"hi"}]}`), 404, codeModelNotFound)
		k.refused(t, "no model", k.call(t, "POST", "/v1/chat/completions", all, `{"messages":[{"role":"user","content":"hi"}]}`), 400, codeInvalidRequest)
	})

	t.Run("rate limit", func(t *testing.T) {
		const rate = 3
		key := k.key(t, "rated", []string{"*"}, rate, time.Hour)
		for i := range rate {
			if r := k.call(t, "POST", "/v1/completions", key, `{"model":"stories260K","prompt":"a","max_tokens":2}`); r.Status != 200 {
				t.Fatalf("request %d within the rate: %d %s", i, r.Status, r.Body)
			}
			k.clock.advance(10 * time.Second)
		}
		r := k.call(t, "POST", "/v1/completions", key, `{"model":"stories260K","prompt":"a","max_tokens":2}`)
		k.refused(t, "over the rate", r, 429, codeRateLimitExceeded)
		after, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if err != nil || after != 30 {
			t.Fatalf("Retry-After %q, want 30 (the first request leaves the window 30 s from now)", r.Header.Get("Retry-After"))
		}
		k.clock.advance(time.Duration(after)*time.Second - time.Millisecond)
		k.refused(t, "just before Retry-After", k.call(t, "POST", "/v1/completions", key, `{"model":"stories260K","prompt":"a","max_tokens":2}`), 429, codeRateLimitExceeded)
		k.clock.advance(time.Millisecond)
		if r := k.call(t, "POST", "/v1/completions", key, `{"model":"stories260K","prompt":"a","max_tokens":2}`); r.Status != 200 {
			t.Fatalf("at Retry-After: %d %s", r.Status, r.Body)
		}
	})

	t.Run("request errors", func(t *testing.T) {
		// Log-probabilities are served; out-of-range values are
		// invalid_request naming the field, in the managed shape.
		for _, c := range []struct{ path, body, field string }{
			{"/v1/completions", `{"model":"stories260K","prompt":"a","logprobs":6}`, "logprobs must be between 0 and 5, got 6"},
			{"/v1/completions", `{"model":"stories260K","prompt":"a","logprobs":"x"}`, "logprobs must be an integer"},
			{"/v1/chat/completions", `{"model":"stories260K","logprobs":true,"top_logprobs":21,"messages":[{"role":"user","content":"hi"}]}`, "top_logprobs must be between 0 and 20, got 21"},
			{"/v1/chat/completions", `{"model":"stories260K","top_logprobs":2,"messages":[{"role":"user","content":"hi"}]}`, "top_logprobs requires logprobs"},
		} {
			d := checkError(t, c.field, k.call(t, "POST", c.path, all, c.body), 400, codeInvalidRequest)
			if !strings.Contains(d.Message, c.field) || !strings.Contains(d.Message, "Reference: chatcmpl-") {
				t.Errorf("%s: message %q", c.body, d.Message)
			}
			k.checkRecord(t, c.field, d, codeInvalidRequest)
		}
		if r := k.call(t, "POST", "/v1/completions", all, `{"model":"stories260K","prompt":"a","logprobs":2,"echo":true,"max_tokens":2}`); r.Status != 200 || !strings.Contains(string(r.Body), `"token_logprobs":[null,`) {
			t.Errorf("completions with logprobs: %d %s", r.Status, r.Body)
		}
		d := checkError(t, "tools", k.call(t, "POST", "/v1/chat/completions", all, `{"model":"stories260K","tools":[{"type":"function"}],"messages":[{"role":"user","content":"hi"}]}`), 400, codeUnsupportedParameter)
		if !strings.Contains(d.Message, "tools") {
			t.Errorf("unsupported_parameter does not name the field: %q", d.Message)
		}
		k.checkRecord(t, "tools", d, codeUnsupportedParameter)
		k.refused(t, "prompt batch of strings and token ids", k.call(t, "POST", "/v1/completions", all, `{"model":"stories260K","prompt":["a",[1]]}`), 400, codeInvalidRequest)
		k.refused(t, "malformed", k.call(t, "POST", "/v1/chat/completions", all, `{"messages":`), 400, codeInvalidRequest)
		k.refused(t, "empty messages", k.call(t, "POST", "/v1/chat/completions", all, `{"model":"stories260K","messages":[]}`), 400, codeEmptyMessages)
	})

	t.Run("legacy completions", func(t *testing.T) {
		plain := k.call(t, "POST", "/v1/completions", all, `{"model":"stories260K","prompt":"Once upon a time","max_tokens":12}`)
		echo := k.call(t, "POST", "/v1/completions", all, `{"model":"stories260K","prompt":"Once upon a time","max_tokens":12,"echo":true}`)
		var p, e textCompletion
		if plain.Status != 200 || echo.Status != 200 || json.Unmarshal(plain.Body, &p) != nil || json.Unmarshal(echo.Body, &e) != nil {
			t.Fatalf("completions: %d %s / %d %s", plain.Status, plain.Body, echo.Status, echo.Body)
		}
		if e.Choices[0].Text != "Once upon a time"+p.Choices[0].Text || p.Object != "text_completion" || !strings.HasPrefix(p.ID, "cmpl-") {
			t.Errorf("echo gave %q, plain %q", e.Choices[0].Text, p.Choices[0].Text)
		}
		// The same prompt as an array of one string, streamed, with echo:
		// the pieces join to the same text.
		req, _ := http.NewRequest("POST", k.ts.URL+"/v1/completions", strings.NewReader(`{"model":"stories260K","prompt":["Once upon a time"],"max_tokens":12,"echo":true,"stream":true}`))
		req.Header.Set("Authorization", "Bearer "+all)
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		events := readSSE(t, resp.Body)
		resp.Body.Close()
		var joined strings.Builder
		for _, ev := range events[:len(events)-1] {
			var c textCompletion
			if err := json.Unmarshal([]byte(ev.Data), &c); err != nil {
				t.Fatal(err)
			}
			if len(c.Choices) > 0 {
				joined.WriteString(c.Choices[0].Text)
			}
		}
		if joined.String() != e.Choices[0].Text || events[len(events)-1].Data != "[DONE]" {
			t.Errorf("streamed echo %q, whole %q", joined.String(), e.Choices[0].Text)
		}
		// stop cuts the completion (not the echoed prompt).
		words := strings.Fields(p.Choices[0].Text)
		if len(words) > 1 {
			stop := k.call(t, "POST", "/v1/completions", all, fmt.Sprintf(`{"model":"stories260K","prompt":"Once upon a time","max_tokens":12,"stop":[%q]}`, " "+words[1]))
			var s textCompletion
			if stop.Status != 200 || json.Unmarshal(stop.Body, &s) != nil || s.Choices[0].Text != p.Choices[0].Text[:strings.Index(p.Choices[0].Text, " "+words[1])] || *s.Choices[0].FinishReason != "stop" {
				t.Errorf("stop %q: %s (plain %q)", words[1], stop.Body, p.Choices[0].Text)
			}
		}
	})

	t.Run("licence", func(t *testing.T) {
		k.dep.set(func(d *deployment) { d.licence = k.clock.Now().Add(-time.Second) })
		k.refused(t, "licence expired", k.call(t, "POST", "/v1/chat/completions", all, chatReq), 403, codeLicenceExpired)
		k.dep.set(func(d *deployment) { d.licence = k.clock.Now().Add(24 * time.Hour) })
		if r := k.call(t, "POST", "/v1/chat/completions", all, chatReq); r.Status != 200 {
			t.Errorf("renewed licence: %d %s", r.Status, r.Body)
		}
	})

	t.Run("placement", func(t *testing.T) {
		m1 := k.dep.machines[sw.Nodes[0].ID().String()]
		k.dep.set(func(d *deployment) {
			d.placements[storiesName] = Placement{State: PlacementLoading, Machine: m1}
		})
		k.refused(t, "loading", k.call(t, "POST", "/v1/chat/completions", all, chatReq), 503, codeModelLoading)
		k.dep.set(func(d *deployment) {
			d.placements[storiesName] = Placement{State: PlacementUnavailable, Reason: "machine removed", Machine: m1}
		})
		rec := k.refused(t, "unavailable", k.call(t, "POST", "/v1/chat/completions", all, chatReq), 503, codeModelUnavailable)
		if rec.Label != m1.Label || rec.Peer != m1.Peer || rec.Port == "" || !strings.Contains(rec.Cause, "machine removed") || !strings.Contains(rec.Fix, "model serve stories260K") {
			t.Errorf("journal for model_unavailable: %+v", rec)
		}
		k.dep.set(func(d *deployment) { d.placements[storiesName] = Placement{State: PlacementServed} })
	})

	t.Run("coordinator away", func(t *testing.T) {
		k.src.mu.Lock()
		k.src.down = true
		k.src.mu.Unlock()
		defer func() {
			k.src.mu.Lock()
			k.src.down = false
			k.src.mu.Unlock()
			k.refresh(t)
		}()
		unseen, rec := apikey.Generate(k.clock.Now())
		rec.Name, rec.Models, rec.Rate, rec.Expires = "late", []string{"*"}, 10, k.clock.Now().Add(time.Hour)
		k.src.change(func(s *apikey.Set) { s.Keys = append(s.Keys, rec) })
		if err := k.ring.Refresh(t.Context()); err == nil {
			t.Fatal("refresh succeeded while the source is down")
		}
		k.clock.advance(apikey.DefaultStaleAfter + time.Second)
		k.refused(t, "unknown key, coordinator away", k.call(t, "POST", "/v1/chat/completions", unseen, chatReq), 503, codeCoordinatorUnavailable)
		if r := k.call(t, "POST", "/v1/chat/completions", all, chatReq); r.Status != 200 {
			t.Errorf("known key while the coordinator is away: %d %s", r.Status, r.Body)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		slow := &slowBackend{Backend: sw.Router, delay: 50 * time.Millisecond}
		kt := newManagedKit(t, sw, slow, func(m *Managed) { m.GenerationLimit = 300 * time.Millisecond })
		key := kt.key(t, "t", []string{"*"}, 100, time.Hour)
		body := `{"model":"stories260K","max_tokens":200,"messages":[{"role":"user","content":"hi"}]}`
		rec := kt.refused(t, "timeout", kt.call(t, "POST", "/v1/chat/completions", key, body), 504, codeTimeout)
		if !strings.Contains(rec.Fix, "SVC_API_GENERATION_LIMIT") {
			t.Errorf("timeout fix: %q", rec.Fix)
		}
		ev := kt.streamError(t, key, strings.Replace(body, `"max_tokens"`, `"stream":true,"max_tokens"`, 1))
		kt.checkRecord(t, "timeout (stream)", ev, codeTimeout)
		kt.scan(t)
	})

	t.Run("capacity", func(t *testing.T) {
		gate := &gateBackend{Backend: sw.Router, entered: make(chan struct{}, 4), release: make(chan struct{})}
		kc := newManagedKit(t, sw, gate, func(m *Managed) { m.MaxGenerations = 1 })
		key := kc.key(t, "c", []string{"*"}, 100, time.Hour)
		done := make(chan response, 1)
		go func() { done <- kc.call(t, "POST", "/v1/chat/completions", key, chatReq) }()
		<-gate.entered
		kc.refused(t, "every slot busy", kc.call(t, "POST", "/v1/chat/completions", key, chatReq), 429, codeCapacity)
		close(gate.release)
		if r := <-done; r.Status != 200 {
			t.Errorf("the request holding the slot: %d %s", r.Status, r.Body)
		}
		kc.scan(t)
	})

	t.Run("every holder full", func(t *testing.T) {
		// The router's refusal when each holder of some blocks refused
		// for want of room: capacity, not a fault.
		full := &router.RouteError{Model: storiesName, First: 2, Last: 5, Busy: 1}
		kf := newManagedKit(t, sw, &failingBackend{Backend: sw.Router, err: full}, nil)
		key := kf.key(t, "f", []string{"*"}, 100, time.Hour)
		kf.refused(t, "every holder full", kf.call(t, "POST", "/v1/chat/completions", key, chatReq), 429, codeCapacity)
		away := &router.RouteError{Model: storiesName, First: 2, Last: 5, Excluded: 1}
		ka := newManagedKit(t, sw, &failingBackend{Backend: sw.Router, err: away}, nil)
		key = ka.key(t, "a", []string{"*"}, 100, time.Hour)
		ka.refused(t, "a holder away", ka.call(t, "POST", "/v1/chat/completions", key, chatReq), 503, codeNodeUnavailable)
		kf.scan(t)
		ka.scan(t)
	})

	t.Run("server error", func(t *testing.T) {
		ks := newManagedKit(t, sw, &failingBackend{Backend: sw.Router, err: errors.New("tokenizer table corrupt at 0x7f")}, nil)
		key := ks.key(t, "s", []string{"*"}, 100, time.Hour)
		rec := ks.refused(t, "server error", ks.call(t, "POST", "/v1/chat/completions", key, chatReq), 500, codeServerError)
		if !strings.Contains(rec.Cause, "corrupt") {
			t.Errorf("server_error cause: %+v", rec)
		}
		ks.scan(t)
	})

	t.Run("metrics by key", func(t *testing.T) {
		mfs, err := k.ts.reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, mf := range mfs {
			if mf.GetName() != "svc_api_key_requests_total" {
				continue
			}
			for _, m := range mf.GetMetric() {
				found[labelsOf(m)] = true
			}
		}
		for _, want := range []string{"app/stories260K/200", "rated/stories260K/200", "rated//429", "other//403"} {
			if !found[want] {
				t.Errorf("no series key/model/code = %s (have %v)", want, found)
			}
		}
	})

	// Last: a machine stops mid-generation with no replacement.
	t.Run("machine lost", func(t *testing.T) {
		gate := &gateBackend{Backend: sw.Router, entered: make(chan struct{}, 4), release: make(chan struct{}), afterFirst: true}
		kl := newManagedKit(t, sw, gate, nil)
		key := kl.key(t, "l", []string{"*"}, 100, time.Hour)
		kl.dep.set(func(d *deployment) { d.placements[storiesName] = Placement{State: PlacementServed} })
		done := make(chan response, 1)
		go func() {
			done <- kl.call(t, "POST", "/v1/chat/completions", key, `{"model":"stories260K","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`)
		}()
		<-gate.entered
		lost := sw.Nodes[1]
		if err := lost.Close(); err != nil {
			t.Fatal(err)
		}
		close(gate.release)
		rec := kl.refused(t, "machine lost mid-generation", <-done, 502, codeGenerationInterrupted)
		want := kl.dep.machines[lost.ID().String()]
		if rec.Label != want.Label || rec.Peer != want.Peer || rec.Port == "" || rec.Cause == "" || !strings.Contains(rec.Fix, want.Label) {
			t.Errorf("journal for generation_interrupted: %+v, want machine %+v", rec, want)
		}
		// Now the model lacks a machine: node_unavailable, until it is back.
		r := kl.call(t, "POST", "/v1/chat/completions", key, chatReq)
		if r.Status == 200 {
			t.Fatalf("a request with a block range gone succeeded: %s", r.Body)
		}
		kl.refused(t, "machine away", r, 503, codeNodeUnavailable)
		kl.scan(t)
	})

	k.scan(t)
}

// streamError reads a stream that fails after it began, returning its
// error event.
func (k *managedKit) streamError(t *testing.T, key, body string) errorDetail {
	t.Helper()
	req, _ := http.NewRequest("POST", k.ts.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		var eb errorBody
		_ = json.Unmarshal(b, &eb)
		return eb.Error
	}
	events := readSSE(t, resp.Body)
	var eb errorBody
	if len(events) == 0 || json.Unmarshal([]byte(events[len(events)-1].Data), &eb) != nil || eb.Error.Code == "" {
		t.Fatalf("stream did not end with an error event: %v", events)
	}
	return eb.Error
}

// scan checks every error message the kit saw for what it must not name.
func (k *managedKit) scan(t *testing.T) {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.bodies) == 0 {
		t.Error("no error bodies to scan")
	}
	for _, msg := range k.bodies {
		for _, s := range k.secrets {
			if strings.Contains(msg, s) {
				t.Errorf("error message %q names %q", msg, s)
			}
		}
		if revealing(strings.TrimSuffix(msg, msg[strings.LastIndex(msg, " Reference: "):])) {
			t.Errorf("error message %q reveals the deployment", msg)
		}
	}
}

func labelsOf(m *dto.Metric) string {
	v := map[string]string{}
	for _, l := range m.GetLabel() {
		v[l.GetName()] = l.GetValue()
	}
	return v["key"] + "/" + v["model"] + "/" + v["code"]
}

// slowBackend is the real router with every token held back a while: a
// generation that outlasts a short time limit.
type slowBackend struct {
	router.Backend
	delay time.Duration
}

func (s *slowBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	return s.Backend.Generate(ctx, req, func(tk router.Token) error {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		return emit(tk)
	})
}

// gateBackend is the real router held at a gate: before the generation
// (or after its first token) it says so on entered and waits for release.
type gateBackend struct {
	router.Backend
	afterFirst bool
	entered    chan struct{}
	release    chan struct{}
}

func (g *gateBackend) Generate(ctx context.Context, req router.GenerateRequest, emit func(router.Token) error) (router.GenerateResult, error) {
	wait := func() error {
		g.entered <- struct{}{}
		select {
		case <-g.release:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	if !g.afterFirst {
		if err := wait(); err != nil {
			return router.GenerateResult{}, err
		}
		return g.Backend.Generate(ctx, req, emit)
	}
	n := 0
	return g.Backend.Generate(ctx, req, func(tk router.Token) error {
		n++
		if n == 1 {
			if err := wait(); err != nil {
				return err
			}
		}
		return emit(tk)
	})
}

package managed

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"svc/internal/proctest"
)

// apiProc is an svc-api process of a deployment (apiProc).
type apiProc struct {
	d       *deployment
	bin     string
	env     []string
	proc    *proctest.Proc
	base    string // https://localhost:PORT
	metrics string // host:port
	journal string
	client  *http.Client
	label   string

	// Every error message seen, for the final scan.
	mu       sync.Mutex
	messages []string
}

// startAPI enrols an API member and runs it; extra is more of its
// environment (SVC_API_…=…).
func (d *deployment) startAPI(label string, extra ...string) *apiProc {
	d.t.Helper()
	a := &apiProc{d: d, bin: proctest.Build(d.t, "./cmd/svc-api"), label: label}
	dir := d.path(label)
	d.write(label+".env", "# empty: the environment sets everything\n")
	a.journal = dir + "/journal.jsonl"
	a.env = append(append([]string{}, d.env...),
		"SVC_API_CONFIG="+d.path(label+".env"),
		"SVC_API_STATE_DIR="+dir,
		"SVC_API_LISTEN=127.0.0.1:"+strconv.Itoa(freePort(d.t)),
		"SVC_API_HOSTS=localhost,127.0.0.1",
		"SVC_API_SWARM_LISTEN=/ip4/127.0.0.1/tcp/0",
		"SVC_API_METRICS_LISTEN=127.0.0.1:0",
		"SVC_API_JOURNAL="+a.journal,
	)
	a.env = append(a.env, extra...)
	tk := d.token("--role", "api", "--label", label)
	r, err := proctest.Run(d.ctx(), proctest.Cmd{Path: a.bin, Env: a.env,
		Args: []string{"enroll", "--coordinator", tk.addr, "--token", tk.token, "--ca-pin", tk.pin}})
	if err != nil || r.Code != 0 || !strings.Contains(r.Stdout, "enrolled as "+label+" (api)") {
		d.t.Fatalf("svc-api enroll: %v %d\n%s%s", err, r.Code, r.Stdout, r.Stderr)
	}
	a.proc = proctest.Start(d.t, proctest.Cmd{Path: a.bin, Args: []string{"run"}, Env: a.env, Name: label})
	line, err := a.proc.WaitLine(d.ctx(), regexp.MustCompile(`^ready https=(\S+) metrics=(\S*) plain=`))
	if err != nil {
		d.t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(line[1])
	a.base, a.metrics = "https://localhost:"+port, line[2]
	caPEM, err := os.ReadFile(d.path("ca.crt"))
	if err != nil {
		d.t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	a.client = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	return a
}

type apiAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (a *apiProc) call(t *testing.T, method, path, key, body string) apiAnswer {
	t.Helper()
	req, err := http.NewRequestWithContext(a.d.ctx(), method, a.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return apiAnswer{resp.StatusCode, resp.Header, b}
}

// rawCall is call for a goroutine that is not the test's: a transport
// failure comes back as status 0.
func (a *apiProc) rawCall(method, path, key, body string) apiAnswer {
	req, err := http.NewRequest(method, a.base+path, strings.NewReader(body))
	if err != nil {
		return apiAnswer{body: []byte(err.Error())}
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return apiAnswer{body: []byte(err.Error())}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return apiAnswer{resp.StatusCode, resp.Header, b}
}

var refRE = regexp.MustCompile(` Reference: (chatcmpl-[A-Za-z0-9]{24})$`)

// refused checks an error answer and that its reference leads the
// operator to the cause: in the journal and by audit show --reference.
func (a *apiProc) refused(t *testing.T, what string, r apiAnswer, status int, code string) string {
	t.Helper()
	var e struct {
		Error struct{ Message, Type, Code string } `json:"error"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil || r.status != status || e.Error.Code != code || e.Error.Type == "" {
		t.Fatalf("%s: %d %s, want %d %s", what, r.status, r.body, status, code)
	}
	return a.traced(t, what, e.Error.Message, code)
}

func (a *apiProc) traced(t *testing.T, what, msg, code string) string {
	t.Helper()
	a.mu.Lock()
	a.messages = append(a.messages, msg)
	a.mu.Unlock()
	m := refRE.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("%s: message %q does not end with its reference", what, msg)
	}
	ref := m[1]
	waitFor(t, what+": "+ref+" in the journal and on the audit trail", func() bool {
		j, _ := os.ReadFile(a.journal)
		if !bytes.Contains(j, []byte(`"reference":"`+ref+`"`)) {
			return false
		}
		r := a.d.co("audit", "show", "--reference", ref)
		// A malformed request is the developer's to fix; every other
		// refusal tells the operator what to do.
		fixed := strings.Contains(r.Stdout, "fix=") || code == "invalid_request" || code == "unsupported_parameter"
		return r.Code == 0 && strings.Contains(r.Stdout, "api.error") && strings.Contains(r.Stdout, code) &&
			strings.Contains(r.Stdout, "api:"+a.label) && fixed
	})
	return ref
}

// key issues an API key and waits until the API knows it.
func (a *apiProc) key(t *testing.T, args ...string) string {
	t.Helper()
	out := a.d.mustCo(append([]string{"apikey", "create"}, args...)...)
	k := strings.SplitN(out, "\n", 2)[0]
	if !strings.HasPrefix(k, "svc_") {
		t.Fatalf("apikey create printed %q first", k)
	}
	waitFor(t, "the API learns a new key", func() bool { return a.call(t, "GET", "/v1/models", k, "").status == 200 })
	return k
}

// scan checks every error message for what it must never name.
func (a *apiProc) scan(secrets []string) {
	t := a.d.t
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	peerRE := regexp.MustCompile(`12D3KooW|/ip4/|/tcp/|\b\d+\.\d+\.\d+\.\d+\b|localhost|(\b[A-Za-z][A-Za-z0-9.-]*|\]):\d{2,5}\b|svc-coordinator|svc-node-agent|systemctl`)
	for _, msg := range a.messages {
		body := refRE.ReplaceAllString(msg, "")
		if peerRE.MatchString(body) {
			t.Errorf("error message %q names a machine, address, peer or command", msg)
		}
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("error message %q names %q", msg, s)
			}
		}
	}
	if len(a.messages) == 0 {
		t.Error("no error message to scan")
	}
}

// TestManagedAPI: the API of a managed deployment over TLS, as developers
// reach it (curl --cacert, the official openai-go SDK), and each row of
// the error table that this deployment can produce without a served model,
// caused for real and traced by its reference.
func TestManagedAPI(t *testing.T) {
	d := newDeployment(t)
	d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "8760h",
		"--features", "api", "--out", d.path("acme.licence"))
	d.mustCo("licence", "install", d.path("acme.licence"))
	d.mustCo("firewall", "open", "--from", "127.0.0.0/8", "--for", "1h")
	a := d.startAPI("api-1")
	key := a.key(t, "--models", "*", "--expires", "1d", "--rate", "1000/min", "--name", "web")

	t.Run("curl --cacert", func(t *testing.T) {
		out, err := exec.CommandContext(d.ctx(), "curl", "-sS", "--cacert", d.path("ca.crt"),
			"-H", "Authorization: Bearer "+key, a.base+"/v1/models").CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"object":"list"`) {
			t.Fatalf("curl --cacert: %v\n%s", err, out)
		}
		out, err = exec.CommandContext(d.ctx(), "curl", "-sS", "--cacert", d.path("ca.crt"), a.base+"/v1/models").CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"code":"invalid_api_key"`) {
			t.Fatalf("curl without a key: %v\n%s", err, out)
		}
		var e struct{ Error struct{ Message string } }
		_ = json.Unmarshal(out, &e)
		a.traced(t, "curl without a key", e.Error.Message, "invalid_api_key")
		// Without the CA the certificate is not trusted.
		if out, err := exec.CommandContext(d.ctx(), "curl", "-sS", a.base+"/v1/models").CombinedOutput(); err == nil {
			t.Fatalf("curl trusted the API without --cacert:\n%s", out)
		}
	})

	t.Run("openai-go", func(t *testing.T) {
		c := openai.NewClient(option.WithBaseURL(a.base+"/v1/"), option.WithAPIKey(key),
			option.WithHTTPClient(a.client), option.WithMaxRetries(0))
		if _, err := c.Models.List(d.ctx()); err != nil {
			t.Fatalf("models: %v", err)
		}
		_, err := c.Chat.Completions.New(d.ctx(), openai.ChatCompletionNewParams{Model: "no-such-model",
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
		var oe *openai.Error
		if !errors.As(err, &oe) || oe.StatusCode != 404 || oe.Code != "model_not_found" {
			t.Fatalf("unknown model through the SDK: %v", err)
		}
		a.traced(t, "unknown model (SDK)", oe.Message, "model_not_found")
		bad := openai.NewClient(option.WithBaseURL(a.base+"/v1/"), option.WithAPIKey("svc_aaaaaaaa_"+strings.Repeat("a", 32)),
			option.WithHTTPClient(a.client), option.WithMaxRetries(0))
		_, err = bad.Models.List(d.ctx())
		if !errors.As(err, &oe) || oe.StatusCode != 401 || oe.Code != "invalid_api_key" {
			t.Fatalf("unknown key through the SDK: %v", err)
		}
		a.traced(t, "unknown key (SDK)", oe.Message, "invalid_api_key")
	})

	t.Run("keys", func(t *testing.T) {
		a.refused(t, "no key", a.call(t, "POST", "/v1/chat/completions", "", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`), 401, "invalid_api_key")
		short := a.key(t, "--models", "*", "--expires", "4s", "--rate", "10/min", "--name", "short")
		waitFor(t, "the short key expires", func() bool { return a.call(t, "GET", "/v1/models", short, "").status == 401 })
		r := a.call(t, "POST", "/v1/chat/completions", short, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
		a.refused(t, "expired key", r, 401, "api_key_expired")
		if !regexp.MustCompile(`expired on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC`).Match(r.body) {
			t.Errorf("expired key: the message gives no date: %s", r.body)
		}
		gone := a.key(t, "--models", "*", "--expires", "1d", "--rate", "10/min", "--name", "gone")
		d.mustCo("apikey", "revoke", "gone")
		revoked := time.Now()
		waitFor(t, "a revoked key is refused", func() bool { return a.call(t, "GET", "/v1/models", gone, "").status == 401 })
		t.Logf("a revoked key was refused %v after apikey revoke returned", time.Since(revoked).Round(time.Millisecond))
		a.refused(t, "revoked key", a.call(t, "GET", "/v1/models", gone, ""), 401, "invalid_api_key")
		narrow := a.key(t, "--models", "stories260K", "--expires", "1d", "--rate", "10/min", "--name", "narrow")
		a.refused(t, "model outside the scope", a.call(t, "POST", "/v1/chat/completions", narrow, `{"model":"llama","messages":[{"role":"user","content":"hi"}]}`), 403, "model_not_permitted")
	})

	// Retry-After is when the next request is accepted: a key at 2/min
	// makes two requests, the third is refused with Retry-After R; three
	// seconds before R another is still refused, at R one is accepted. The
	// wait (about a minute) runs beside the other subtests.
	exact := a.key(t, "--models", "*", "--expires", "1d", "--rate", "2/min", "--name", "exact")
	type retryCheck struct {
		retryAfter     int
		before, at     apiAnswer
		first, refused apiAnswer
	}
	retryDone := make(chan retryCheck, 1)
	{
		body := `{"model":"m","prompt":"hi"}`
		var rc retryCheck
		rc.first = a.call(t, "POST", "/v1/completions", exact, body)
		_ = a.call(t, "POST", "/v1/completions", exact, body)
		rc.refused = a.call(t, "POST", "/v1/completions", exact, body)
		sent := time.Now()
		rc.retryAfter, _ = strconv.Atoi(rc.refused.header.Get("Retry-After"))
		go func() {
			time.Sleep(time.Until(sent.Add(time.Duration(rc.retryAfter-3) * time.Second)))
			rc.before = a.rawCall("POST", "/v1/completions", exact, body)
			time.Sleep(time.Until(sent.Add(time.Duration(rc.retryAfter) * time.Second)))
			rc.at = a.rawCall("POST", "/v1/completions", exact, body)
			retryDone <- rc
		}()
	}

	t.Run("rate limit", func(t *testing.T) {
		rated := a.key(t, "--models", "*", "--expires", "1d", "--rate", "2/min", "--name", "rated")
		body := `{"model":"m","prompt":"hi"}`
		for i := range 2 {
			if r := a.call(t, "POST", "/v1/completions", rated, body); r.status == 429 {
				t.Fatalf("request %d within the rate refused: %s", i, r.body)
			}
		}
		r := a.call(t, "POST", "/v1/completions", rated, body)
		a.refused(t, "over the rate", r, 429, "rate_limit_exceeded")
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
			t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
		}
	})

	t.Run("malformed and unsupported", func(t *testing.T) {
		a.refused(t, "malformed", a.call(t, "POST", "/v1/chat/completions", key, `{"messages":`), 400, "invalid_request")
		r := a.call(t, "POST", "/v1/chat/completions", key, `{"model":"m","tools":[{"type":"function"}],"messages":[{"role":"user","content":"hi"}]}`)
		a.refused(t, "tools", r, 400, "unsupported_parameter")
		if !bytes.Contains(r.body, []byte("tools")) {
			t.Errorf("unsupported_parameter does not name the field: %s", r.body)
		}
		// Log-probabilities are served; a value out of OpenAI's range is
		// invalid_request naming the field.
		r = a.call(t, "POST", "/v1/completions", key, `{"model":"m","prompt":"hi","logprobs":6}`)
		a.refused(t, "logprobs 6", r, 400, "invalid_request")
		if !bytes.Contains(r.body, []byte("logprobs must be between 0 and 5")) {
			t.Errorf("invalid_request does not name the field: %s", r.body)
		}
	})

	// The coordinator goes away: a key the API knows is still served, one
	// it never saw cannot be decided; the refusals reach the audit trail
	// once the coordinator is back.
	t.Run("coordinator away", func(t *testing.T) {
		if err := d.coord.Terminate(10 * time.Second); err != nil {
			t.Fatal(err)
		}
		unknown := "svc_zzzzzzzz_" + strings.Repeat("9", 32)
		waitFor(t, "an unknown key is undecidable", func() bool { return a.call(t, "GET", "/v1/models", unknown, "").status == 503 })
		r := a.call(t, "GET", "/v1/models", unknown, "")
		if r.status != 503 || !bytes.Contains(r.body, []byte("coordinator_unavailable")) {
			t.Fatalf("unknown key, coordinator away: %d %s", r.status, r.body)
		}
		if r := a.call(t, "GET", "/v1/models", key, ""); r.status != 200 {
			t.Errorf("known key, coordinator away: %d %s", r.status, r.body)
		}
		d.startCoordinator()
		a.refused(t, "unknown key, coordinator away", r, 503, "coordinator_unavailable")
	})

	t.Run("Retry-After is when the next request is accepted", func(t *testing.T) {
		rc := <-retryDone
		if rc.first.status == 429 || rc.retryAfter < 4 || rc.retryAfter > 60 {
			t.Fatalf("first %d, Retry-After %q", rc.first.status, rc.refused.header.Get("Retry-After"))
		}
		a.refused(t, "third request in the window", rc.refused, 429, "rate_limit_exceeded")
		a.refused(t, "three seconds before Retry-After", rc.before, 429, "rate_limit_exceeded")
		if rc.at.status == 429 {
			t.Fatalf("at Retry-After (%d s) the request is still refused: %s", rc.retryAfter, rc.at.body)
		}
	})

	// Last: the licence expires.
	t.Run("licence expired", func(t *testing.T) {
		d.svc("licence", "issue", "--key", d.path("vendor.key"), "--licensee", "ACME", "--expires", "6s",
			"--features", "api", "--out", d.path("short.licence"))
		d.mustCo("licence", "install", d.path("short.licence"))
		waitFor(t, "the licence expires", func() bool { return a.call(t, "GET", "/v1/models", key, "").status == 403 })
		a.refused(t, "licence expired", a.call(t, "POST", "/v1/chat/completions", key, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`), 403, "licence_expired")
	})

	// Metrics by key name, on their own listener.
	page, err := proctest.Scrape(d.ctx(), "http://"+a.metrics+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`key="web"`, `key="rated"`, `code="429"`} {
		if !strings.Contains(page, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	sc := bufio.NewScanner(strings.NewReader(page))
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "svc_api_key_requests_total{") {
			n++
		}
	}
	if n == 0 {
		t.Error("no per-key request series")
	}
	a.scan([]string{a.label, d.path("")})
}

package apimember

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"svc/coordinator"
	"svc/coordinator/licence"
)

// coord is a coordinator daemon run in this process, restartable on the
// same ports.
type coord struct {
	t      *testing.T
	cfg    coordinator.Config
	d      *coordinator.Daemon
	cancel context.CancelFunc
	done   chan error
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func newCoord(t *testing.T) *coord {
	t.Helper()
	dir := t.TempDir()
	priv, pub, err := licence.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vendor.pub"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := coordinator.DefaultConfig()
	cfg.StateDir, cfg.CACert, cfg.Listen = filepath.Join(dir, "state"), filepath.Join(dir, "ca.crt"), "127.0.0.1"
	cfg.SwarmPort, cfg.EnrolPort = freePort(t), freePort(t)
	cfg.Endpoint = fmt.Sprintf("127.0.0.1:%d", cfg.SwarmPort)
	cfg.VendorKeys = []string{filepath.Join(dir, "vendor.pub")}
	if _, err := coordinator.Init(cfg, "tester", time.Now()); err != nil {
		t.Fatal(err)
	}
	c := &coord{t: t, cfg: cfg}
	c.start()
	t.Cleanup(c.stop)
	key, err := licence.ParsePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	file, err := licence.Sign(licence.Licence{Licensee: "ACME", Issued: time.Now(), Expires: time.Now().Add(24 * time.Hour), Features: []string{"api"}}, key)
	if err != nil {
		t.Fatal(err)
	}
	c.must("licence.install", coordinator.LicenceArgs{File: file, Name: "acme.licence"})
	c.must("firewall.open", coordinator.FirewallArgs{From: []string{"127.0.0.0/8"}, For: "1h"})
	return c
}

func (c *coord) start() {
	c.t.Helper()
	d, err := coordinator.Open(c.cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		c.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, func() { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		c.t.Fatalf("coordinator run: %v", err)
	case <-time.After(60 * time.Second):
		c.t.Fatal("coordinator not ready")
	}
	c.d, c.cancel, c.done = d, cancel, done
}

func (c *coord) stop() {
	if c.d == nil {
		return
	}
	c.cancel()
	<-c.done
	_ = c.d.Close()
	c.d = nil
}

func (c *coord) do(cmd string, args any) (string, error) {
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := coordinator.Send(ctx, c.cfg.SocketPath(), cmd, args, &out, nil)
	return out.String(), err
}

func (c *coord) must(cmd string, args any) string {
	c.t.Helper()
	out, err := c.do(cmd, args)
	if err != nil {
		c.t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return out
}

var enrollRE = regexp.MustCompile(`enroll --coordinator (\S+) --token (\S+) --ca-pin (\S+)`)

// The API process's life against a real coordinator: enrolment, its TLS
// certificate, keys created and revoked, a coordinator outage, refusals
// on the audit trail.
func TestRun(t *testing.T) {
	c := newCoord(t)
	out := c.must("token.create", coordinator.TokenCreateArgs{Label: "api-1", Role: "api"})
	m := enrollRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("token create printed no enroll command:\n%s", out)
	}
	dir := t.TempDir()
	ctx := t.Context()
	mem, err := Enroll(ctx, EnrollOptions{StateDir: dir, Coordinator: m[1], Token: m[2], Pin: m[3]})
	if err != nil || mem.Label != "api-1" {
		t.Fatalf("enroll: %+v %v", mem, err)
	}
	cfg := DefaultConfig()
	cfg.StateDir, cfg.Listen, cfg.Hosts, cfg.SwarmListen = dir, "127.0.0.1:0", []string{"localhost", "127.0.0.1"}, "/ip4/127.0.0.1/tcp/0"
	cfg.MetricsListen, cfg.Journal = "127.0.0.1:0", filepath.Join(dir, "journal.jsonl")
	type addrs struct{ https, metrics string }
	ready := make(chan addrs, 1)
	rctx, rcancel := context.WithCancel(ctx)
	runErr := make(chan error, 1)
	go func() {
		runErr <- Run(rctx, RunOptions{Config: cfg, Log: slog.New(slog.DiscardHandler),
			Ready: func(h, mt, _ string) { ready <- addrs{h, mt} }})
	}()
	defer func() {
		rcancel()
		if err := <-runErr; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	var a addrs
	select {
	case a = <-ready:
	case err := <-runErr:
		t.Fatalf("run: %v", err)
	case <-time.After(90 * time.Second):
		t.Fatal("the API did not become ready")
	}

	caPEM, err := os.ReadFile(c.cfg.CACert)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	_, port, _ := net.SplitHostPort(a.https)
	base := "https://localhost:" + port
	call := func(method, path, key, body string) (int, http.Header, []byte) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, b
	}
	codeOf := func(b []byte) (string, string) {
		var e struct {
			Error struct{ Message, Code string } `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		return e.Error.Code, e.Error.Message
	}
	// eventually polls for a condition the deployment reaches by itself
	// (a key or a revocation propagating), bounded.
	eventually := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 30 s", what)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	if st, _, b := call("GET", "/health", "", ""); st != 200 {
		t.Fatalf("health over TLS: %d %s", st, b)
	}
	if st, _, b := call("GET", "/v1/models", "", ""); st != 401 {
		t.Fatalf("no key: %d %s", st, b)
	}
	out = c.must("apikey.create", coordinator.APIKeyCreateArgs{Name: "web", Models: "*", Expires: "1d", Rate: "60/min"})
	key := strings.SplitN(out, "\n", 2)[0]
	eventually("a new key reaches the API", func() bool { st, _, _ := call("GET", "/v1/models", key, ""); return st == 200 })
	st, _, b := call("GET", "/v1/models", key, "")
	if !strings.Contains(string(b), `"object":"list"`) {
		t.Errorf("models: %d %s", st, b)
	}
	// A model the deployment does not serve: 404 with a reference that
	// the audit trail finds.
	st, _, b = call("POST", "/v1/chat/completions", key, `{"model":"nope","messages":[{"role":"user","content":"hi"}]}`)
	code, msg := codeOf(b)
	if st != 404 || code != "model_not_found" {
		t.Fatalf("unknown model: %d %s", st, b)
	}
	ref := msg[strings.LastIndex(msg, "chatcmpl-"):]
	eventually("the refusal reaches the audit trail", func() bool {
		out, err := c.do("audit.show", coordinator.AuditArgs{Reference: ref})
		return err == nil && strings.Contains(out, "api.error") && strings.Contains(out, "model_not_found") && strings.Contains(out, "api:api-1")
	})
	journal, _ := os.ReadFile(cfg.Journal)
	if !bytes.Contains(journal, []byte(ref)) {
		t.Errorf("the journal lacks %s", ref)
	}

	// Revoked: refused within seconds.
	c.must("apikey.revoke", coordinator.IDArgs{ID: "web"})
	eventually("a revocation reaches the API", func() bool { st, _, _ := call("GET", "/v1/models", key, ""); return st == 401 })

	// The coordinator goes away: a known key is still served, a key the
	// API never saw cannot be decided.
	out = c.must("apikey.create", coordinator.APIKeyCreateArgs{Name: "app", Models: "*", Expires: "1d", Rate: "60/min"})
	known := strings.SplitN(out, "\n", 2)[0]
	eventually("a second key reaches the API", func() bool { st, _, _ := call("GET", "/v1/models", known, ""); return st == 200 })
	out = c.must("apikey.create", coordinator.APIKeyCreateArgs{Name: "late", Models: "*", Expires: "1d", Rate: "60/min"})
	unseen := strings.SplitN(out, "\n", 2)[0]
	c.stop()
	eventually("an unknown key is undecidable once the key set is stale", func() bool {
		st, _, b := call("GET", "/v1/models", "svc_aaaaaaaa_"+strings.Repeat("b", 32), "")
		code, _ := codeOf(b)
		return st == 503 && code == "coordinator_unavailable"
	})
	_ = unseen
	if st, _, b := call("GET", "/v1/models", known, ""); st != 200 {
		t.Errorf("known key while the coordinator is away: %d %s", st, b)
	}
	st, _, b = call("GET", "/v1/models", "svc_aaaaaaaa_"+strings.Repeat("c", 32), "")
	_, msg = codeOf(b)
	outageRef := msg[strings.LastIndex(msg, "chatcmpl-"):]
	c.start()
	eventually("the API reaches the coordinator again", func() bool { st, _, _ := call("GET", "/v1/models", unseen, ""); return st == 200 })
	eventually("refusals of the outage reach the audit trail", func() bool {
		out, err := c.do("audit.show", coordinator.AuditArgs{Reference: outageRef})
		return err == nil && strings.Contains(out, "coordinator_unavailable")
	})

	// Metrics on their own listener, by key name.
	resp, err := http.Get("http://" + a.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	found := false
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "svc_api_key_requests_total") && strings.Contains(sc.Text(), `key="web"`) {
			found = true
		}
	}
	resp.Body.Close()
	if !found {
		t.Error("no svc_api_key_requests_total series for key web")
	}
}

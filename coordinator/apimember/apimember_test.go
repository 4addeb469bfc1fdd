package apimember

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/coordinator/ca"
	"svc/server"
)

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "api.env")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`# the API
SVC_API_STATE_DIR=/srv/api
SVC_API_HOSTS="api.example.internal, 10.0.0.5"
export SVC_API_GENERATION_LIMIT=90s
SVC_API_MAX_GENERATIONS='8'
SVC_API_METRICS_LISTEN=
`)
	c, err := LoadConfig(p, true, []string{"PATH=/bin", "SVC_API_LISTEN=127.0.0.1:9443", "SVC_API_MAX_GENERATIONS=16"})
	if err != nil {
		t.Fatal(err)
	}
	if c.StateDir != "/srv/api" || strings.Join(c.Hosts, "|") != "api.example.internal|10.0.0.5" || c.GenerationLimit != 90*time.Second ||
		c.MaxGenerations != 16 || c.Listen != "127.0.0.1:9443" || c.MetricsListen != "" || c.Journal != "/srv/api/journal.jsonl" ||
		c.OfflineGrace != DefaultOfflineGrace || c.MaxBodyBytes != DefaultMaxBodyBytes {
		t.Errorf("config %+v", c)
	}
	for _, bad := range []struct{ file, env, says string }{
		{"SVC_API_MAX_GENERATION=4\n", "", "unknown key SVC_API_MAX_GENERATION"},
		{"", "SVC_API_LISTN=:1", "unknown key SVC_API_LISTN"},
		{"SVC_API_LISTEN=8443\n", "", "SVC_API_LISTEN"},
		{"SVC_API_GENERATION_LIMIT=soon\n", "", "SVC_API_GENERATION_LIMIT"},
		{"SVC_API_MAX_BODY=0\n", "", "SVC_API_MAX_BODY"},
		{"SVC_API_PLAIN_LISTEN=0.0.0.0:8080\n", "", "loopback"},
		{"just words\n", "", "KEY=VALUE"},
	} {
		write(bad.file)
		var env []string
		if bad.env != "" {
			env = []string{bad.env}
		}
		if _, err := LoadConfig(p, true, env); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%q %q: %v, want an error saying %q", bad.file, bad.env, err, bad.says)
		}
	}
	// The example shipped beside the unit is a valid configuration.
	if c, err := LoadConfig(filepath.Join("..", "..", "deploy", "systemd", "api.env.example"), true, nil); err != nil || len(c.Hosts) == 0 {
		t.Errorf("deploy/systemd/api.env.example: %+v %v", c, err)
	}
	if _, err := LoadConfig(filepath.Join(dir, "absent.env"), true, nil); err == nil {
		t.Error("a missing file that was named is accepted")
	}
	if c, err := LoadConfig(filepath.Join(dir, "absent.env"), false, nil); err != nil || c.Listen != DefaultListen {
		t.Errorf("defaults: %+v %v", c, err)
	}
}

func TestEnsureTLS(t *testing.T) {
	now := time.Now()
	authority, err := ca.New(now, 90*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	f := Files{t.TempDir()}
	requests := 0
	issue := func(life time.Duration) func(context.Context, []byte) ([]byte, error) {
		return func(_ context.Context, csr []byte) ([]byte, error) {
			requests++
			return authority.IssueServer(now, "api-1", csr, now.Add(life))
		}
	}
	hosts := []string{"localhost", "127.0.0.1"}
	c1, err := ensureTLS(t.Context(), f, authority.Cert, hosts, now, issue(30*24*time.Hour))
	if err != nil || requests != 1 {
		t.Fatalf("first certificate: %v (%d requests)", err, requests)
	}
	fi, err := os.Stat(f.TLSKey())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("TLS key file: %v %v", fi, err)
	}
	// Kept while fresh and for the same hosts.
	c2, err := ensureTLS(t.Context(), f, authority.Cert, hosts, now.Add(24*time.Hour), issue(30*24*time.Hour))
	if err != nil || requests != 1 || !c2.Leaf.Equal(c1.Leaf) {
		t.Fatalf("fresh certificate not kept: %v (%d requests)", err, requests)
	}
	// Renewed when two thirds of its life are gone, and for new hosts;
	// the key stays the same.
	c3, err := ensureTLS(t.Context(), f, authority.Cert, hosts, now.Add(21*24*time.Hour), issue(30*24*time.Hour))
	if err != nil || requests != 2 {
		t.Fatalf("renewal: %v (%d requests)", err, requests)
	}
	if _, err := ensureTLS(t.Context(), f, authority.Cert, []string{"api.example.internal"}, now, issue(30*24*time.Hour)); err != nil || requests != 3 {
		t.Fatalf("new hosts: %v (%d requests)", err, requests)
	}
	if !c3.PrivateKey.(*ecdsa.PrivateKey).Equal(c1.PrivateKey) {
		t.Error("the TLS key changed on renewal")
	}
	// A certificate from another CA, or for another key, is refused.
	other, _ := ca.New(now, time.Hour)
	_ = os.Remove(f.TLSCert())
	if _, err := ensureTLS(t.Context(), f, authority.Cert, hosts, now, func(_ context.Context, csr []byte) ([]byte, error) {
		return other.IssueServer(now, "api-1", csr, now.Add(time.Hour))
	}); err == nil {
		t.Error("a certificate of another CA accepted")
	}
}

func TestAuditQueue(t *testing.T) {
	var mu sync.Mutex
	var got []string
	fail := true
	q := newAuditQueue(func(_ context.Context, batch []json.RawMessage) error {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			fail = false
			return errors.New("coordinator away")
		}
		for _, b := range batch {
			var r server.Record
			_ = json.Unmarshal(b, &r)
			got = append(got, r.Reference)
		}
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); q.run(ctx) }()
	for i := range 300 {
		q.Refused(server.Record{Reference: "chatcmpl-" + string(rune('a'+i%26))})
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 300 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 300 records delivered", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if got[0] != "chatcmpl-a" || got[299] != "chatcmpl-"+string(rune('a'+299%26)) || q.Dropped() != 0 {
		t.Errorf("order or drops: %s … %s, %d dropped", got[0], got[299], q.Dropped())
	}
	for range auditQueueMax + 5 {
		q.Refused(server.Record{Reference: "chatcmpl-x"})
	}
	if q.Dropped() != 5 || q.Pending() != auditQueueMax {
		t.Errorf("full queue: %d dropped, %d pending", q.Dropped(), q.Pending())
	}
}

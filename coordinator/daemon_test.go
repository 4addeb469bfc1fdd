package coordinator

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testDaemon initialises a deployment in a temp dir and runs it until the
// test ends.
func testDaemon(t *testing.T, adjust ...func(*Config)) (*Daemon, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.StateDir, cfg.CACert, cfg.Listen, cfg.SwarmPort, cfg.EnrolPort = filepath.Join(dir, "state"), filepath.Join(dir, "ca.crt"), "127.0.0.1", 0, 0
	for _, f := range adjust {
		f(&cfg)
	}
	if _, err := Init(cfg, "tester", time.Now()); err != nil {
		t.Fatal(err)
	}
	d, err := Open(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, func() { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("daemon not ready")
	}
	t.Cleanup(func() {
		cancel()
		<-done
		d.Close()
	})
	return d, cfg.SocketPath()
}

func send(t *testing.T, sock, cmd string, args any) (string, error) {
	t.Helper()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := Send(ctx, sock, cmd, args, &out, nil)
	return out.String(), err
}

func TestAdminCommands(t *testing.T) {
	d, sock := testDaemon(t)
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("admin socket mode: %v %v", fi.Mode(), err)
	}
	out, err := send(t, sock, "token.create", TokenCreateArgs{TTL: "1h", Label: "m1"})
	if err != nil || !strings.Contains(out, "svc-node-agent enroll --coordinator /ip4/127.0.0.1/tcp/") {
		t.Fatalf("token create: %v\n%s", err, out)
	}
	id := strings.Fields(strings.SplitN(out, "\n", 2)[0])[1][:6]
	if _, err := send(t, sock, "token.revoke", IDArgs{ID: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, sock, "token.revoke", IDArgs{ID: id}); err == nil || !strings.Contains(err.Error(), "already revoked") {
		t.Fatalf("second revoke: %v", err)
	}
	if _, err := send(t, sock, "token.create", TokenCreateArgs{TTL: "1s"}); err == nil {
		t.Fatal("ttl of 1s accepted")
	}
	if _, err := send(t, sock, "nonsense", nil); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := send(t, sock, "token.create", map[string]any{"colour": "red"}); err == nil {
		t.Fatal("unknown argument accepted")
	}
	out, err = send(t, sock, "audit.show", AuditArgs{Kind: "token"})
	if err != nil || strings.Count(out, "\n") != 5 || !strings.Contains(out, "refused") {
		t.Fatalf("audit show --kind token: %v\n%s", err, out)
	}
	if out, err := send(t, sock, "audit.verify", nil); err != nil || !strings.Contains(out, "intact") {
		t.Fatalf("audit verify: %v %s", err, out)
	}
	var bk bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := Send(ctx, sock, "backup", nil, nil, &bk); err != nil || bk.Len() < 4096 {
		t.Fatalf("backup: %v, %d bytes", err, bk.Len())
	}
	if len(d.Commands()) < 10 {
		t.Fatalf("commands %v", d.Commands())
	}
}

func TestConfigUnknownKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), "coordinator.toml")
	if err := os.WriteFile(p, []byte("swarm_port = 7400\n[pool]\nreplicas = 2\nreplica = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "unknown key pool.replica") {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := LoadConfig(filepath.Join(t.TempDir(), "absent.toml"), true); err == nil {
		t.Fatal("a named missing configuration accepted")
	}
	cfg, err := LoadConfig(filepath.Join(t.TempDir(), "absent.toml"), false)
	if err != nil || cfg.SwarmPort != 7400 {
		t.Fatalf("defaults: %v %+v", err, cfg)
	}
	if err := os.WriteFile(p, []byte("token_ttl = \"2h\"\nswarm_port = 7400\nenrol_port = 7400\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "must differ") {
		t.Fatalf("same ports: %v", err)
	}
}

// The example configurations in deploy/systemd parse.
func TestExampleConfig(t *testing.T) {
	if _, err := LoadConfig(filepath.Join("..", "deploy", "systemd", "coordinator.toml"), true); err != nil {
		t.Fatal(err)
	}
}

func TestFirewallAllows(t *testing.T) {
	now := time.Now()
	f := Firewall{Open: true, From: []string{"10.0.0.0/24", "::1/128"}, Until: now.Add(time.Minute)}
	for addr, want := range map[string]bool{"10.0.0.7": true, "10.0.1.7": false, "::1": true, "::ffff:10.0.0.9": true, "127.0.0.1": false} {
		if got := f.Allows(netip.MustParseAddr(addr), now); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
	if f.Allows(netip.MustParseAddr("10.0.0.7"), now.Add(2*time.Minute)) {
		t.Error("allowed after --for ran out")
	}
	if (Firewall{}).Allows(netip.MustParseAddr("10.0.0.7"), now) {
		t.Error("closed firewall allowed")
	}
}

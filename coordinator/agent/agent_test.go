package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	if _, err := LoadConfig(filepath.Join("..", "..", "deploy", "systemd", "agent.toml"), true); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "agent.toml")
	if err := os.WriteFile(p, []byte("label = \"m1\"\nlisten = \"/ip4/127.0.0.1/tcp/0\"\nlable = \"typo\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p, true); err == nil || !strings.Contains(err.Error(), "unknown key lable") {
		t.Fatalf("unknown key: %v", err)
	}
}

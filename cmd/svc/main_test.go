package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"svc/cmd/internal/cli"
)

// TestExitCodes runs the real command tree: a wrong flag on every command
// and an unknown command exit 2 with the usage, --help exits 0.
func TestExitCodes(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Runnable() {
			paths = append(paths, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(newRootCmd(), nil)
	if len(paths) < 10 {
		t.Fatalf("only %d runnable commands found: %v", len(paths), paths)
	}
	run := func(args ...string) (int, string) {
		var stderr bytes.Buffer
		root := newRootCmd()
		root.SetOut(new(bytes.Buffer))
		return cli.Run(t.Context(), root, args, &stderr), stderr.String()
	}
	for _, p := range paths {
		args := append(append([]string(nil), p...), "--no-such-flag")
		if code, stderr := run(args...); code != cli.ExitUsage || !strings.Contains(stderr, "unknown flag: --no-such-flag") || !strings.Contains(stderr, "Usage:") {
			t.Errorf("svc %s: exit %d, stderr %q; want 2 naming the flag, with the usage", strings.Join(args, " "), code, stderr)
		}
		if code, _ := run(append(p, "--help")...); code != cli.ExitOK {
			t.Errorf("svc %s --help: exit %d, want 0", strings.Join(p, " "), code)
		}
	}
	for _, args := range [][]string{{"srve"}, {"model", "inspekt"}} {
		if code, stderr := run(args...); code != cli.ExitUsage || !strings.Contains(stderr, "unknown command") {
			t.Errorf("svc %s: exit %d, stderr %q; want 2 for an unknown command", strings.Join(args, " "), code, stderr)
		}
	}
	if code, stderr := run("node", "--model", "m.gguf", "--blocks", "3:1"); code != cli.ExitUsage || !strings.Contains(stderr, "--blocks") {
		t.Errorf("svc node --blocks 3:1: exit %d, stderr %q; want 2 naming --blocks", code, stderr)
	}
	if code, stderr := run("node", "--model", "m.gguf", "--prompt-cache", "lots"); code != cli.ExitUsage || !strings.Contains(stderr, "--prompt-cache") {
		t.Errorf("svc node --prompt-cache lots: exit %d, stderr %q; want 2 naming --prompt-cache", code, stderr)
	}
	// svc serve's --prompt-cache takes what svc node's does, refused the
	// same way before any model is opened.
	for _, bad := range []string{"lots", "-1", "1.5GiB", "on", "99999999999TiB"} {
		if code, stderr := run("serve", "--model", "m.gguf", "--prompt-cache", bad); code != cli.ExitUsage || !strings.Contains(stderr, "--prompt-cache") || !strings.Contains(stderr, "Usage:") {
			t.Errorf("svc serve --prompt-cache %s: exit %d, stderr %q; want 2 naming --prompt-cache, with the usage", bad, code, stderr)
		}
	}
	if code, stderr := run("tokenize", "--model", t.TempDir()+"/missing.gguf", "hi"); code != cli.ExitRefused || strings.Contains(stderr, "Usage:") {
		t.Errorf("svc tokenize with a missing model: exit %d, stderr %q; want 1 without the usage", code, stderr)
	}
}

// Package clidoc keeps a program's command reference (docs/cli/*.md,
// generated from its cobra tree by cobra's doc generator) in the
// repository current: Check regenerates it and fails the test when the
// committed files differ, or rewrites them with -update.
package clidoc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

var update = flag.Bool("update", false, "rewrite docs/cli from the programs")

// Dir is docs/cli in the module.
func Dir(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("clidoc: no caller")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "docs", "cli")
}

// Generate writes root's reference (one Markdown file per command) into dir.
func Generate(root *cobra.Command, dir string) error {
	root.DisableAutoGenTag = true
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return doc.GenMarkdownTree(root, dir)
}

// Check compares root's generated reference with the files of docs/cli
// that belong to it (named after the program), or rewrites them with
// -update.
func Check(t *testing.T, root *cobra.Command) {
	t.Helper()
	tmp := t.TempDir()
	if err := Generate(root, tmp); err != nil {
		t.Fatal(err)
	}
	dir := Dir(t)
	prefix := strings.ReplaceAll(root.Name(), " ", "_")
	want, _ := filepath.Glob(filepath.Join(tmp, prefix+"*.md"))
	have, _ := filepath.Glob(filepath.Join(dir, prefix+"*.md"))
	if *update {
		for _, f := range have {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range want {
			b, _ := os.ReadFile(f)
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	names := func(fs []string) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = filepath.Base(f)
		}
		sort.Strings(out)
		return out
	}
	if w, h := strings.Join(names(want), " "), strings.Join(names(have), " "); w != h {
		t.Fatalf("docs/cli is stale: the program has %s, docs/cli has %s (go test ./%s -run TestDocs -update)", w, h, "cmd/"+root.Name())
	}
	for _, f := range want {
		w, _ := os.ReadFile(f)
		h, _ := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		if !bytes.Equal(w, h) {
			t.Errorf("docs/cli/%s is stale (go test ./cmd/%s -run TestDocs -update)", filepath.Base(f), root.Name())
		}
	}
}

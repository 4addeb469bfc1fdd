package apimember

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJournalRotation: the journal rotates by size into NAME.1 … NAME.keep,
// never splits a line, counts what the file held before it was opened,
// keeps its files private, and with keep 0 starts afresh.
func TestJournalRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	// A file left by an earlier run: 60 bytes.
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 59)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := openJournal(path, 110, 2, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	line := func(i int) []byte { return []byte(fmt.Sprintf(`{"ref":"chatcmpl-%05d","n":"%020d"}`+"\n", i, i)) } // 51 bytes
	for i := range 9 {
		if n, err := j.Write(line(i)); err != nil || n != len(line(i)) {
			t.Fatalf("line %d: %d, %v", i, n, err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Write(line(9)); err == nil {
		t.Fatal("a write after Close succeeded")
	}
	// 60 + 51 > 110: line 0 starts a new file; then two lines per file.
	// Files, newest first: lines 8 | 6 7 | 4 5; lines 0-3 and the old
	// file are beyond keep.
	want := map[string]string{
		"journal.jsonl":   string(line(8)),
		"journal.jsonl.1": string(line(6)) + string(line(7)),
		"journal.jsonl.2": string(line(4)) + string(line(5)),
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(want) {
		t.Fatalf("files %v, want %d", ents, len(want))
	}
	for name, w := range want {
		p := filepath.Join(dir, name)
		got, err := os.ReadFile(p)
		if err != nil || string(got) != w {
			t.Errorf("%s: %q, %v; want %q", name, got, err, w)
		}
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", name, st.Mode().Perm(), err)
		}
	}

	// keep 0: the full file is dropped; a line longer than the bound is
	// still written whole.
	path0 := filepath.Join(t.TempDir(), "j")
	j0, err := openJournal(path0, 50, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	long := append(bytes.Repeat([]byte("y"), 80), '\n')
	for _, l := range [][]byte{line(1), long, line(2)} {
		if _, err := j0.Write(l); err != nil {
			t.Fatal(err)
		}
	}
	j0.Close()
	if got, _ := os.ReadFile(path0); string(got) != string(line(2)) {
		t.Errorf("keep 0: %q, want only the last line", got)
	}
	if m, _ := filepath.Glob(path0 + ".*"); len(m) != 0 {
		t.Errorf("keep 0 left %v", m)
	}

	if _, err := openJournal(filepath.Join(t.TempDir(), "k"), 0, 1, nil); err == nil {
		t.Error("a zero bound was accepted")
	}
	if _, err := openJournal(filepath.Join(t.TempDir(), "no", "such", "dir", "k"), 10, 1, nil); err == nil || !strings.Contains(err.Error(), "journal") {
		t.Errorf("a journal in a missing directory: %v", err)
	}
}

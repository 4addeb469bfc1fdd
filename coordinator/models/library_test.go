package models

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/internal/testenv"
	"svc/shards/slice"
)

func open(t *testing.T, o Options) *Library {
	t.Helper()
	l, err := Open(filepath.Join(t.TempDir(), "models"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func TestImportFile(t *testing.T) {
	src := testenv.Path(t, "models", "stories260K.gguf")
	want, err := slice.Build(src)
	if err != nil {
		t.Fatal(err)
	}
	l := open(t, Options{})
	ctx := t.Context()
	e, err := l.Import(ctx, src, "")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "stories260K" || e.Hash != want.Hash() || e.Path != filepath.Join(l.Dir(), "stories260K.gguf") {
		t.Fatalf("entry %s %s %s", e.Name, e.Path, e.Hash)
	}
	// By name, and again from the file: the same entry.
	for _, ref := range []string{"stories260K", src} {
		again, err := l.Import(ctx, ref, "")
		if err != nil || again.Hash != e.Hash {
			t.Fatalf("import %s: %v", ref, err)
		}
	}
	// A second library reads the cached manifest.
	l2, err := Open(l.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e2, err := l2.Get("stories260K")
	if err != nil || e2.Hash != e.Hash {
		t.Fatalf("reopened: %v", err)
	}
	// Another model under a taken name is refused; an unknown name, a
	// file that is not a model and a bad name are refused.
	if _, err := l.Import(ctx, testenv.Path(t, "models", "mini-llama-q4_0.gguf"), "stories260K"); err == nil || !strings.Contains(err.Error(), "another model") {
		t.Fatalf("name clash: %v", err)
	}
	if _, err := l.Import(ctx, "nosuch", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown name: %v", err)
	}
	junk := filepath.Join(t.TempDir(), "junk.gguf")
	if err := os.WriteFile(junk, []byte("GGUF not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Import(ctx, junk, ""); err == nil {
		t.Fatal("junk imported")
	}
	if _, err := l.Import(ctx, src, "../up"); err == nil {
		t.Fatal("a name with a path accepted")
	}
}

func TestScanDropped(t *testing.T) {
	l := open(t, Options{})
	b, err := os.ReadFile(testenv.Path(t, "models", "mini-llama-q4_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Dir(), "dropped.gguf"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Dir(), "broken.gguf"), []byte("nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	es, errs := l.Scan()
	if len(es) != 1 || es[0].Name != "dropped" || len(errs) != 1 {
		t.Fatalf("scan: %d entries, errors %v", len(es), errs)
	}
	if _, err := os.Stat(filepath.Join(l.Dir(), "dropped.manifest.json")); err != nil {
		t.Fatalf("manifest not cached: %v", err)
	}
	if e, ok := l.ByHash(es[0].Hash); !ok || e.Name != "dropped" {
		t.Fatal("not found by hash")
	}
}

func TestImportURL(t *testing.T) {
	body, err := os.ReadFile(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/owner/repo/resolve/main/stories260K.gguf", "/files/tiny.gguf":
			_, _ = w.Write(body)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	l := open(t, Options{Client: srv.Client(), HFBase: srv.URL})
	ctx := context.Background()
	e, err := l.Import(ctx, "hf:owner/repo/stories260K.gguf", "")
	if err != nil {
		t.Fatal(err)
	}
	first := hits.Load()
	if _, err := l.Import(ctx, "hf:owner/repo/stories260K.gguf", ""); err != nil || hits.Load() != first {
		t.Fatalf("second import: %v, %d requests after %d", err, hits.Load(), first)
	}
	u, err := l.Import(ctx, srv.URL+"/files/tiny.gguf", "")
	if err != nil || u.Name != "tiny" || u.Hash != e.Hash {
		t.Fatalf("https import: %v", err)
	}
	if _, err := l.Import(ctx, srv.URL+"/files/missing.gguf", ""); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(l.Dir(), "missing.gguf")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a failed download left a model behind")
	}
	if _, err := l.Import(ctx, "http://example.invalid/x.gguf", ""); err == nil {
		t.Fatal("http accepted")
	}
	for _, bad := range []string{"hf:owner/x.gguf", "hf:owner/repo/../x.gguf", "hf:owner/repo/file.bin"} {
		if _, err := l.Import(ctx, bad, ""); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestSource(t *testing.T) {
	l := open(t, Options{})
	e, err := l.Import(t.Context(), testenv.Path(t, "models", "stories260K.gguf"), "")
	if err != nil {
		t.Fatal(err)
	}
	src := l.Source(func(peer.ID, string, string) error { return nil }, nil)
	m, enc, r, err := src.Lookup(e.Hash)
	if err != nil || m.Digest != e.Manifest.Digest || slice.HashOf(enc) != e.Hash || r == nil {
		t.Fatalf("lookup: %v", err)
	}
	if _, _, _, err := src.Lookup("sha256:00"); err == nil {
		t.Fatal("unknown hash found")
	}
}

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/cmd/internal/cli"
	"svc/internal/testenv"
)

// TestModelByReference runs pull, list and generate on a hub reference,
// against a hub on 127.0.0.1 named by HF_ENDPOINT: the model is fetched
// once, then used from the models directory.
func TestModelByReference(t *testing.T) {
	model, err := os.ReadFile(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(model)
	var transfers int
	mux := http.NewServeMux()
	mux.HandleFunc("/karpathy/tinyllamas/resolve/main/stories260K.gguf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Linked-Etag", `"`+hex.EncodeToString(sum[:])+`"`)
		w.Header().Set("X-Linked-Size", strconv.Itoa(len(model)))
		http.Redirect(w, r, "/cdn/stories260K", http.StatusFound)
	})
	mux.HandleFunc("/cdn/stories260K", func(w http.ResponseWriter, r *http.Request) {
		transfers++
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(model))
	})
	hub := httptest.NewServer(mux)
	defer hub.Close()
	t.Setenv("HF_ENDPOINT", hub.URL)
	t.Setenv("HF_TOKEN", "")
	dir := t.TempDir()
	t.Setenv("SVC_MODELS", dir)

	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		root := newRootCmd()
		root.SetOut(&stdout)
		code := cli.Run(t.Context(), root, args, &stderr)
		return code, stdout.String(), stderr.String()
	}
	ref := "hf:karpathy/tinyllamas/stories260K.gguf"
	code, out, errOut := run("model", "pull", ref)
	if code != 0 || !strings.HasPrefix(out, dir) || !strings.HasSuffix(out, "stories260K.gguf\n") {
		t.Fatalf("pull: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	code, out, _ = run("generate", "--model", ref, "--prompt", "Once upon a time", "-n", "8", "--threads", "1")
	if code != 0 || !strings.HasPrefix(out, "Once upon a time, there was a little girl") {
		t.Errorf("generate: exit %d, stdout %q", code, out)
	}
	if transfers != 1 {
		t.Errorf("%d transfers, want one: generate must use the pulled file", transfers)
	}
	code, out, _ = run("model", "list")
	if code != 0 || !strings.Contains(out, ref) {
		t.Errorf("list: exit %d, stdout %q; want the reference listed", code, out)
	}
	missing := "hf:karpathy/tinyllamas/nothing.gguf"
	if code, _, errOut = run("model", "pull", missing); code != cli.ExitRefused || !strings.Contains(errOut, missing) || !strings.Contains(errOut, "404") {
		t.Errorf("pull of a missing file: exit %d, stderr %q; want 1 naming it and the 404", code, errOut)
	}
	if code, _, errOut = run("generate", "--model", "hf:karpathy", "--prompt", "x"); code != cli.ExitUsage || !strings.Contains(errOut, "hf:OWNER/REPO/FILE.gguf") {
		t.Errorf("generate with a malformed reference: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut = run("model", "pull", "hf:karpathy"); code != cli.ExitUsage || !strings.Contains(errOut, "hf:OWNER/REPO/FILE.gguf") {
		t.Errorf("pull of a malformed reference: exit %d, stderr %q", code, errOut)
	}
}

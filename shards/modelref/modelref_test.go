package modelref

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/testenv"
)

// fakeHub behaves like Hugging Face's resolve endpoint on 127.0.0.1: HEAD
// and GET of /OWNER/REPO/resolve/REV/FILE answer 302 to a CDN on another
// port, with the LFS digest and size in X-Linked-Etag and X-Linked-Size;
// the CDN serves the bytes with range support. Knobs make it misbehave.
type fakeHub struct {
	hub, cdn *httptest.Server

	mu       sync.Mutex
	files    map[string][]byte // "owner/repo/rev/file" → content
	digest   map[string]string // published sha256 override
	gated    map[string]string // "owner/repo" → the token it accepts
	cutOnce  map[string]int64  // CDN: first full GET sends this many bytes, then drops the connection
	holdOnce map[string]int64  // CDN: first full GET sends this many bytes, signals held, then waits for the client to leave
	truncate map[string]int64  // CDN: serves only this many bytes, cleanly
	cutEvery map[string]int64  // CDN: every response sends at most this many bytes, then drops the connection
	held     chan struct{}

	hubRequests int
	cdnRanges   []string // Range header of every CDN GET
	cdnAuth     []string // Authorization headers the CDN saw (must stay empty)
	hubAuth     []string
}

func newFakeHub(t *testing.T) *fakeHub {
	h := &fakeHub{files: map[string][]byte{}, digest: map[string]string{}, gated: map[string]string{},
		cutOnce: map[string]int64{}, cutEvery: map[string]int64{}, holdOnce: map[string]int64{}, truncate: map[string]int64{}, held: make(chan struct{}, 1)}
	h.cdn = httptest.NewTLSServer(http.HandlerFunc(h.serveCDN))
	h.hub = httptest.NewTLSServer(http.HandlerFunc(h.serveHub))
	t.Cleanup(h.cdn.Close)
	t.Cleanup(h.hub.Close)
	return h
}

func (h *fakeHub) add(key string, content []byte) { h.mu.Lock(); h.files[key] = content; h.mu.Unlock() }

func (h *fakeHub) serveHub(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hubRequests++
	if a := r.Header.Get("Authorization"); a != "" {
		h.hubAuth = append(h.hubAuth, a)
	}
	// /OWNER/REPO/resolve/REV/FILE…
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 5)
	if len(parts) != 5 || parts[2] != "resolve" {
		http.NotFound(w, r)
		return
	}
	repo := parts[0] + "/" + parts[1]
	if tok, ok := h.gated[repo]; ok && r.Header.Get("Authorization") != "Bearer "+tok {
		w.Header().Set("X-Error-Code", "GatedRepo")
		http.Error(w, "Access to model "+repo+" is restricted.", http.StatusUnauthorized)
		return
	}
	key := repo + "/" + parts[3] + "/" + parts[4]
	content, ok := h.files[key]
	if !ok {
		w.Header().Set("X-Error-Code", "EntryNotFound")
		http.Error(w, "Entry not found", http.StatusNotFound)
		return
	}
	sum := sha256.Sum256(content)
	digest := hex.EncodeToString(sum[:])
	if d, ok := h.digest[key]; ok {
		digest = d
	}
	w.Header().Set("X-Repo-Commit", "0123456789abcdef0123456789abcdef01234567")
	w.Header().Set("X-Linked-Etag", `"`+digest+`"`)
	w.Header().Set("X-Linked-Size", strconv.Itoa(len(content)))
	w.Header().Set("ETag", `W/"deadbeef"`)
	w.Header().Set("Location", h.cdn.URL+"/blob/"+key+"?expires=soon")
	w.WriteHeader(http.StatusFound)
}

func (h *fakeHub) serveCDN(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.Path, "/blob/")
	if strings.HasPrefix(key, "nohead/") && r.Method == http.MethodHead {
		http.Error(w, "GET only", http.StatusMethodNotAllowed) // as some presigned-URL stores do
		return
	}
	h.mu.Lock()
	if a := r.Header.Get("Authorization"); a != "" {
		h.cdnAuth = append(h.cdnAuth, a)
	}
	if r.Method == http.MethodGet {
		h.cdnRanges = append(h.cdnRanges, r.Header.Get("Range"))
	}
	content, ok := h.files[key]
	cut, cutting := h.cutOnce[key]
	hold, holding := h.holdOnce[key]
	full := r.Header.Get("Range") == "" && r.Method == http.MethodGet
	if full && cutting {
		delete(h.cutOnce, key)
	}
	if full && holding {
		delete(h.holdOnce, key)
	}
	if n, ok := h.truncate[key]; ok {
		content = content[:n]
	}
	every := h.cutEvery[key]
	h.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if full && (cutting || holding) {
		n := cut
		if holding {
			n = hold
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(content[:n])
		w.(http.Flusher).Flush()
		if holding {
			h.held <- struct{}{}
			<-r.Context().Done()
		}
		panic(http.ErrAbortHandler) // drop the connection mid-body
	}
	w.Header().Set("ETag", `"plain-etag"`)
	if every > 0 {
		http.ServeContent(&cutWriter{ResponseWriter: w, left: every}, r, "", time.Time{}, bytes.NewReader(content))
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(content))
}

// cutWriter drops the connection once it has passed on its share of bytes.
type cutWriter struct {
	http.ResponseWriter
	left int64
}

func (c *cutWriter) Write(b []byte) (int, error) {
	if int64(len(b)) > c.left {
		_, _ = c.ResponseWriter.Write(b[:c.left])
		c.ResponseWriter.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	c.left -= int64(len(b))
	return c.ResponseWriter.Write(b)
}

func (h *fakeHub) options(t *testing.T) Options {
	return Options{Dir: t.TempDir(), Endpoint: h.hub.URL, Token: "", Client: h.hub.Client(), Logger: slog.New(slog.DiscardHandler)}
}

func stories(t *testing.T) []byte {
	b, err := os.ReadFile(testenv.Path(t, "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// files lists what is under dir (regular files, and empty directories
// with a trailing slash), relative to it.
func files(t *testing.T, dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != dir {
			if ents, _ := os.ReadDir(p); len(ents) == 0 {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel+"/")
			}
		}
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func checkFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sha(got) != sha(want) {
		t.Fatalf("%s: sha256 %s, want %s", path, sha(got), sha(want))
	}
}

// TestGetResumes: a transfer cut midway resumes with a range request in
// the same call and ends with the published digest; the token reaches the
// hub and never the CDN; a second use makes no request at all.
func TestGetResumes(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	h.add("karpathy/tinyllamas/main/stories260K.gguf", model)
	h.cutOnce["karpathy/tinyllamas/main/stories260K.gguf"] = int64(len(model)) * 2 / 5
	var log bytes.Buffer
	o := h.options(t)
	o.Token = "hf_secret_token"
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	o.Progress = &log
	ref := "hf:karpathy/tinyllamas/stories260K.gguf"
	path, err := Get(t.Context(), ref, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, model)
	if want := fmt.Sprintf("bytes=%d-", len(model)*2/5); len(h.cdnRanges) != 2 || h.cdnRanges[0] != "" || h.cdnRanges[1] != want {
		t.Errorf("CDN requests with ranges %q, want a full one then %q", h.cdnRanges, want)
	}
	if len(h.cdnAuth) != 0 || len(h.hubAuth) == 0 || h.hubAuth[0] != "Bearer hf_secret_token" {
		t.Errorf("authorization seen by the CDN %q, by the hub %q: want the token at the hub only", h.cdnAuth, h.hubAuth)
	}
	if strings.Contains(log.String(), "hf_secret_token") {
		t.Error("the token appears in the log")
	}
	if got := files(t, o.Dir); len(got) != 2 {
		t.Errorf("cache holds %v, want the model and its record", got)
	}
	before := h.hubRequests
	again, err := Get(t.Context(), ref, o)
	if err != nil || again != path || h.hubRequests != before || len(h.cdnRanges) != 2 {
		t.Errorf("second use: %q, %v, %d more hub requests, %d CDN requests: want the cached file and no request",
			again, err, h.hubRequests-before, len(h.cdnRanges))
	}
	entries, err := List(o.Dir)
	if err != nil || len(entries) != 1 || entries[0].Ref != ref || entries[0].SHA256 != sha(model) || entries[0].Path != path {
		t.Errorf("List: %+v, %v", entries, err)
	}
}

// TestGetFlakyCDN: a CDN that drops every connection after 128 KiB still
// delivers the model, one range after another.
func TestGetFlakyCDN(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	h.add("o/r/main/m.gguf", model)
	h.cutEvery["o/r/main/m.gguf"] = 128 << 10
	o := h.options(t)
	path, err := Get(t.Context(), "hf:o/r/m.gguf", o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, model)
	if want := (len(model) + 128<<10 - 1) / (128 << 10); len(h.cdnRanges) != want {
		t.Errorf("%d transfers, want %d", len(h.cdnRanges), want)
	}
}

// TestGetStalledTransfer: a CDN that stops sending without closing the
// connection is left after StallTimeout, and the rest is asked for.
func TestGetStalledTransfer(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	h.add("o/r/main/m.gguf", model)
	half := int64(len(model)) / 2
	h.holdOnce["o/r/main/m.gguf"] = half
	o := h.options(t)
	o.StallTimeout = 300 * time.Millisecond
	path, err := Get(t.Context(), "hf:o/r/m.gguf", o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, model)
	// The second request resumes where the first left off: at half, or
	// earlier if the stall timer fired before every byte sent was read.
	var from int64
	if len(h.cdnRanges) != 2 || h.cdnRanges[0] != "" {
		t.Fatalf("CDN ranges %q, want a full request then a range", h.cdnRanges)
	}
	if _, err := fmt.Sscanf(h.cdnRanges[1], "bytes=%d-", &from); err != nil || from <= 0 || from > half {
		t.Errorf("second request %q, want a range from a byte in (0, %d]", h.cdnRanges[1], half)
	}
}

// TestGetResumesNextRun: a fetch cancelled midway (the process stopped)
// keeps what arrived; the next run asks only for the rest.
func TestGetResumesNextRun(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	key := "karpathy/tinyllamas/main/stories260K.gguf"
	h.add(key, model)
	half := int64(len(model)) / 2
	h.holdOnce[key] = half
	o := h.options(t)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() {
		// Stop the process once the first half is on disk.
		defer close(stopped)
		defer cancel()
		select {
		case <-h.held:
		case <-ctx.Done():
			return
		}
		for ctx.Err() == nil {
			if p, _ := filepath.Glob(filepath.Join(o.Dir, "hf/karpathy/tinyllamas/main/*.partial")); len(p) == 1 && fileSize(p[0]) == half {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	ref := "hf:karpathy/tinyllamas/stories260K.gguf"
	if _, err := Get(ctx, ref, o); err == nil || !strings.Contains(err.Error(), ref) {
		t.Fatalf("cancelled fetch: %v, want an error naming %s", err, ref)
	}
	cancel()
	<-stopped
	kept := files(t, o.Dir)
	if len(kept) != 1 || !strings.HasSuffix(kept[0], ".partial") {
		t.Fatalf("after the cancelled fetch the cache holds %v, want one .partial", kept)
	}
	if size := fileSize(filepath.Join(o.Dir, kept[0])); size != half {
		t.Fatalf("partial holds %d bytes, want %d", size, half)
	}
	path, err := Get(t.Context(), ref, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, model)
	if want := fmt.Sprintf("bytes=%d-", half); h.cdnRanges[len(h.cdnRanges)-1] != want {
		t.Errorf("CDN ranges %q, want the last to be %q", h.cdnRanges, want)
	}
}

// TestGetFailures: each way a fetch goes wrong gives its own error naming
// the reference and leaves the cache clean.
func TestGetFailures(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	h.add("o/r/main/wrong-digest.gguf", model)
	h.digest["o/r/main/wrong-digest.gguf"] = sha([]byte("something else"))
	h.add("o/r/main/truncated.gguf", model)
	h.truncate["o/r/main/truncated.gguf"] = int64(len(model)) - 1000
	notGGUF := bytes.Repeat([]byte("not a model "), 4096)
	h.add("o/r/main/notgguf.gguf", notGGUF)
	h.add("o/r/main/cut-gguf.gguf", model[:len(model)/2]) // consistent headers, half a GGUF
	h.add("o/gated/main/m.gguf", model)
	h.gated["o/gated"] = "hf_good"

	cases := []struct {
		ref, token, want string
	}{
		{"hf:o/r/wrong-digest.gguf", "", "digest mismatch"},
		{"hf:o/r/missing.gguf", "", "404"},
		{"hf:o/r/missing.gguf@v2", "", "at revision v2"},
		{"hf:o/r/truncated.gguf", "", "truncated"},
		{"hf:o/r/notgguf.gguf", "", "not a usable GGUF"},
		{"hf:o/r/cut-gguf.gguf", "", "not a usable GGUF"},
		{"hf:o/gated/m.gguf", "", "set HF_TOKEN"},
		{"hf:o/gated/m.gguf", "hf_bad", "access refused"},
	}
	for _, c := range cases {
		o := h.options(t)
		o.Token = c.token
		_, err := Get(t.Context(), c.ref, o)
		if err == nil || !strings.Contains(err.Error(), c.ref) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming the reference and saying %q", c.ref, err, c.want)
		}
		if err != nil && c.token != "" && strings.Contains(err.Error(), c.token) {
			t.Errorf("%s: the error shows the token: %v", c.ref, err)
		}
		if left := files(t, o.Dir); len(left) != 0 {
			t.Errorf("%s: cache holds %v after the failure, want nothing", c.ref, left)
		}
	}
	o := h.options(t)
	o.Token = "hf_good"
	if _, err := Get(t.Context(), "hf:o/gated/m.gguf", o); err != nil {
		t.Errorf("gated repository with the right token: %v", err)
	}
}

// TestGetNoNetwork: an unreachable hub is named in the error.
func TestGetNoNetwork(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	endpoint := srv.URL
	srv.Close() // nothing listens there any more
	o := Options{Dir: t.TempDir(), Endpoint: endpoint, Client: srv.Client()}
	ref := "hf:o/r/m.gguf"
	_, err := Get(t.Context(), ref, o)
	if err == nil || !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), "cannot reach 127.0.0.1") {
		t.Errorf("error %v, want one naming %s and the unreachable host", err, ref)
	}
	if left := files(t, o.Dir); len(left) != 0 {
		t.Errorf("cache holds %v, want nothing", left)
	}
}

// TestGetDiskFull fetches into a 256 KiB tmpfs: the write fails, the error
// says the disk is full, and no partial file is left. It needs the right
// to mount (root), and is skipped otherwise.
func TestGetDiskFull(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	h := newFakeHub(t)
	h.add("o/r/main/m.gguf", stories(t))
	o := h.options(t)
	o.Dir = dir
	_, err := Get(t.Context(), "hf:o/r/m.gguf", o)
	if err == nil || !strings.Contains(err.Error(), "hf:o/r/m.gguf") || !strings.Contains(err.Error(), "disk is full") {
		t.Errorf("error %v, want one naming the reference and saying the disk is full", err)
	}
	if left := files(t, dir); len(left) != 0 {
		t.Errorf("cache holds %v, want nothing", left)
	}
}

// TestGetURLAndSplit fetches a plain https reference (no published digest:
// size and GGUF checks) and every part of a split GGUF.
func TestGetURLAndSplit(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	other, err := os.ReadFile(testenv.Path(t, "models", "mini-llama-q8_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	h.add("web/stories260K.gguf", model)
	h.add("nohead/stories260K.gguf", model)
	h.add("o/r/main/big-00001-of-00002.gguf", model)
	h.add("o/r/main/big-00002-of-00002.gguf", other)
	o := h.options(t)

	url := h.cdn.URL + "/blob/web/stories260K.gguf"
	path, err := Get(t.Context(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, model)
	nohead, err := Get(t.Context(), h.cdn.URL+"/blob/nohead/stories260K.gguf", o)
	if err != nil {
		t.Fatalf("a server that refuses HEAD: %v", err)
	}
	checkFile(t, nohead, model)

	first, err := Get(t.Context(), "hf:o/r/big-00001-of-00002.gguf", o)
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, first, model)
	checkFile(t, strings.Replace(first, "00001-of", "00002-of", 1), other)
	entries, err := List(o.Dir)
	if err != nil || len(entries) != 4 {
		t.Fatalf("List: %+v, %v; want four models", entries, err)
	}
	// Refresh asks again, and finds the cached file current.
	o.Refresh = true
	cdnBefore := len(h.cdnRanges)
	if again, err := Get(t.Context(), url, o); err != nil || again != path || len(h.cdnRanges) != cdnBefore {
		t.Errorf("refresh of a current model: %q, %v, %d transfers; want no transfer", again, err, len(h.cdnRanges)-cdnBefore)
	}
	// A part changed on the hub is fetched again, the other is current.
	h.add("o/r/main/big-00001-of-00002.gguf", other)
	if _, err := Get(t.Context(), "hf:o/r/big-00001-of-00002.gguf", o); err != nil {
		t.Fatal(err)
	}
	checkFile(t, first, other)
}

// TestGetConcurrent: two fetches of one model at once transfer it once;
// the second waits for the first and uses its file.
func TestGetConcurrent(t *testing.T) {
	h := newFakeHub(t)
	model := stories(t)
	h.add("o/r/main/m.gguf", model)
	o := h.options(t)
	paths := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths[i], errs[i] = Get(t.Context(), "hf:o/r/m.gguf", o)
		}()
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		checkFile(t, paths[i], model)
	}
	if len(h.cdnRanges) != 1 {
		t.Errorf("%d transfers, want one", len(h.cdnRanges))
	}
}

func TestParse(t *testing.T) {
	good := map[string]Ref{
		"hf:karpathy/tinyllamas/stories260K.gguf":          {Owner: "karpathy", Repo: "tinyllamas", File: "stories260K.gguf", Revision: "main"},
		"hf:o/r/sub/dir/m-Q4_K_M.gguf@v1.2":                {Owner: "o", Repo: "r", File: "sub/dir/m-Q4_K_M.gguf", Revision: "v1.2"},
		"hf:ggml-org/gemma-3-1b-it-GGUF/gemma.gguf@0a1b2c": {Owner: "ggml-org", Repo: "gemma-3-1b-it-GGUF", File: "gemma.gguf", Revision: "0a1b2c"},
	}
	for in, want := range good {
		got, err := Parse(in)
		want.Raw = in
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	if r, err := Parse("https://example.com/models/m.gguf"); err != nil || r.URL.Host != "example.com" {
		t.Errorf("https reference: %+v, %v", r, err)
	}
	for _, in := range []string{"hf:o/r", "hf:o/r/m.bin", "hf:o/r/../m.gguf", "hf:o/r/m.gguf@", "hf:../r/m.gguf", "hf:o//m.gguf",
		"http://example.com/m.gguf", "https://example.com/", "https://u:p@example.com/m.gguf", "ftp://x/m.gguf", "m.gguf"} {
		if r, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, r)
		} else if in == "https://u:p@example.com/m.gguf" && strings.Contains(err.Error(), "u:p") {
			t.Errorf("Parse(%q): error %v shows the credentials", in, err)
		} else if !strings.Contains(err.Error(), in) && !strings.Contains(in, "@example") {
			t.Errorf("Parse(%q): error %v does not name the reference", in, err)
		}
	}
}

package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"svc/shards/modelref"
	"svc/shards/slice"
)

// ErrNotFound says a model name is not in the library.
var ErrNotFound = errors.New("no such model")

// Entry is one model of the library.
type Entry struct {
	Name     string
	Path     string
	Manifest *slice.Manifest
	// Encoded is the manifest as served; Hash is its hash (slice.HashOf).
	Encoded []byte
	Hash    string
	size    int64
	mtime   time.Time
}

// Library is the models directory and the manifests of its files.
type Library struct {
	dir    string
	client *http.Client
	hfBase string
	log    *slog.Logger

	mu      sync.Mutex
	entries map[string]*Entry // by name
	// building serialises manifest builds of one file.
	building map[string]*sync.Mutex
	files    map[string]openFile // opened for the slice server, by path
	stale    []*os.File
}

// Options configure a library.
type Options struct {
	// Client downloads hf: and https references (modelref's default when
	// nil).
	Client *http.Client
	// HFBase replaces the Hugging Face endpoint (modelref's default:
	// $HF_ENDPOINT, else huggingface.co).
	HFBase string
	Logger *slog.Logger
}

// Open uses dir (created if missing) as the models directory.
func Open(dir string, o Options) (*Library, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("models: directory: %w", err)
	}
	l := &Library{dir: dir, client: o.Client, hfBase: o.HFBase, log: o.Logger,
		entries: map[string]*Entry{}, building: map[string]*sync.Mutex{}, files: map[string]openFile{}}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	return l, nil
}

// Dir is the models directory.
func (l *Library) Dir() string { return l.dir }

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// CheckName refuses names that cannot be a model id or a file name.
func CheckName(name string) error {
	if !validName.MatchString(name) || strings.HasSuffix(name, ".partial") || strings.HasSuffix(name, ".manifest.json") {
		return fmt.Errorf("model name %q: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// Import makes src an entry of the library and returns it: a NAME already
// there, a FILE, hf:OWNER/REPO/FILE[@REVISION] or an https:// URL. name,
// when not empty, is the entry's name (default: the file's base name
// without .gguf).
func (l *Library) Import(ctx context.Context, src, name string) (*Entry, error) {
	if modelref.IsRef(src) {
		return l.fetch(ctx, src, name)
	}
	if !strings.ContainsRune(src, '/') && !strings.HasSuffix(src, ".gguf") {
		// A bare name: a model of the library.
		if name != "" && name != src {
			return nil, fmt.Errorf("models: %s is already a model of the library; it cannot be renamed", src)
		}
		if err := CheckName(src); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		p := filepath.Join(l.dir, src+".gguf")
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("models: %w: %s (not in %s; give a file, hf:OWNER/REPO/FILE or an https:// URL)", ErrNotFound, src, l.dir)
		}
		return l.entry(src, p)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("models: %s is not a regular file", src)
	}
	name = pick(name, baseName(abs))
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	dst := filepath.Join(l.dir, name+".gguf")
	if filepath.Dir(abs) != filepath.Clean(l.dir) || filepath.Base(abs) != name+".gguf" {
		if err := l.place(abs, dst, st); err != nil {
			return nil, err
		}
	}
	return l.entry(name, dst)
}

func pick(name, def string) string {
	if name != "" {
		return name
	}
	return def
}

func baseName(p string) string { return strings.TrimSuffix(filepath.Base(p), ".gguf") }

// place puts a copy of src at dst: a hard link where possible, else a
// copy through a partial file. An existing dst with other content is
// refused (the operator chose a name already taken).
func (l *Library) place(src, dst string, st os.FileInfo) error {
	if dt, err := os.Stat(dst); err == nil {
		if os.SameFile(st, dt) {
			return nil
		}
		if dt.Size() == st.Size() && sameBytes(src, dst) {
			return nil
		}
		return fmt.Errorf("models: %s already holds another model named %s (choose another name)", l.dir, baseName(dst))
	}
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	defer in.Close()
	return writeAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// sameBytes compares two files of equal size.
func sameBytes(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 1<<20), make([]byte, 1<<20)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || string(ba[:na]) != string(bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return ea == eb || (errors.Is(ea, io.ErrUnexpectedEOF) && errors.Is(eb, io.ErrUnexpectedEOF))
		}
	}
}

// writeAtomic writes path through path.partial, synced and renamed.
func writeAtomic(path string, fill func(io.Writer) error) error {
	tmp := path + ".partial"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("models: write %s: %w", path, err)
	}
	return nil
}

// fetch gets an hf: or https:// reference once, through package modelref
// (resumed, checked against the digest the hub publishes), into the
// library's .fetch directory, and links it into the library as name
// (default: the file's name without .gguf).
func (l *Library) fetch(ctx context.Context, ref, name string) (*Entry, error) {
	r, err := modelref.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	file := r.File
	if r.URL != nil {
		file = path.Base(r.URL.Path)
	}
	name = pick(name, baseName(file))
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	l.log.Info("fetching model", "name", name, "ref", ref)
	got, err := modelref.Get(ctx, ref, modelref.Options{Dir: filepath.Join(l.dir, ".fetch"), Endpoint: l.hfBase, Client: l.client, Logger: l.log})
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	st, err := os.Stat(got)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	dst := filepath.Join(l.dir, name+".gguf")
	if err := l.place(got, dst, st); err != nil {
		return nil, err
	}
	return l.entry(name, dst)
}

func (l *Library) lockFor(path string) *sync.Mutex {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.building[path]
	if !ok {
		m = &sync.Mutex{}
		l.building[path] = m
	}
	return m
}

// sidecar is NAME.manifest.json: a manifest and the file state it
// describes.
type sidecar struct {
	Size     int64           `json:"size"`
	MtimeNs  int64           `json:"mtime_ns"`
	Manifest json.RawMessage `json:"manifest"`
}

func sidecarPath(modelPath string) string {
	return strings.TrimSuffix(modelPath, ".gguf") + ".manifest.json"
}

// entry returns the library entry of the file at path, building its
// manifest unless a cached one still describes the file.
func (l *Library) entry(name, path string) (*Entry, error) {
	lock := l.lockFor(path)
	lock.Lock()
	defer lock.Unlock()
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	l.mu.Lock()
	e, ok := l.entries[name]
	l.mu.Unlock()
	if ok && e.Path == path && e.size == st.Size() && e.mtime.Equal(st.ModTime()) {
		return e, nil
	}
	e = &Entry{Name: name, Path: path, size: st.Size(), mtime: st.ModTime()}
	if b, err := os.ReadFile(sidecarPath(path)); err == nil {
		var sc sidecar
		if json.Unmarshal(b, &sc) == nil && sc.Size == st.Size() && sc.MtimeNs == st.ModTime().UnixNano() {
			if m, err := slice.Parse(sc.Manifest, ""); err == nil && (m.Kind == slice.KindAdapter) == isAdapterPath(path) {
				e.Manifest, e.Encoded = m, []byte(sc.Manifest)
			}
		}
	}
	if e.Manifest == nil {
		t0 := time.Now()
		build := slice.Build
		if isAdapterPath(path) {
			build = slice.BuildAdapter
		}
		m, err := build(path)
		if err != nil {
			return nil, fmt.Errorf("models: %s: %w", name, err)
		}
		enc, err := m.Marshal()
		if err != nil {
			return nil, err
		}
		e.Manifest, e.Encoded = m, enc
		l.log.Info("model manifest built", "name", name, "tensors", len(m.Tensors), "bytes", m.Size, "took", time.Since(t0).Round(time.Millisecond))
		sc, err := json.Marshal(sidecar{Size: st.Size(), MtimeNs: st.ModTime().UnixNano(), Manifest: enc})
		if err == nil {
			err = writeAtomic(sidecarPath(path), func(w io.Writer) error {
				_, err := w.Write(sc)
				return err
			})
		}
		if err != nil {
			// Only the cache is lost: the next start hashes again.
			l.log.Warn("model manifest not cached", "name", name, "err", err)
		}
	}
	e.Hash = slice.HashOf(e.Encoded)
	l.mu.Lock()
	l.entries[name] = e
	l.mu.Unlock()
	return e, nil
}

// Scan imports every *.gguf of the directory that is not yet an entry (or
// changed since) and returns the entries, by name. Files that are not
// servable models are reported in errs and skipped.
func (l *Library) Scan() (entries []*Entry, errs []error) {
	paths, err := filepath.Glob(filepath.Join(l.dir, "*.gguf"))
	if err != nil {
		return nil, []error{fmt.Errorf("models: scan %s: %w", l.dir, err)}
	}
	sort.Strings(paths)
	for _, p := range paths {
		name := baseName(p)
		if CheckName(name) != nil {
			errs = append(errs, fmt.Errorf("models: %s: %w", p, CheckName(name)))
			continue
		}
		e, err := l.entry(name, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		entries = append(entries, e)
	}
	// Adapters imported beside their models: known again after a restart,
	// so that the slice server finds them by hash; not listed as models.
	adapters, _ := filepath.Glob(filepath.Join(l.dir, adaptersDir, "*.gguf"))
	for _, p := range adapters {
		if _, err := l.entry(adaptersDir+"/"+baseName(p), p); err != nil {
			errs = append(errs, err)
		}
	}
	return entries, errs
}

// Get returns the entry named name (importing the file if it was dropped in
// since the last scan).
func (l *Library) Get(name string) (*Entry, error) {
	if err := CheckName(name); err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	p := filepath.Join(l.dir, name+".gguf")
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("models: %w: %s", ErrNotFound, name)
	}
	return l.entry(name, p)
}

// ByHash returns the entry whose manifest hashes to hash.
func (l *Library) ByHash(hash string) (*Entry, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.entries {
		if e.Hash == hash {
			return e, true
		}
	}
	return nil, false
}

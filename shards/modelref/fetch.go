package modelref

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/sys/unix"

	"svc/shards/gguf"
)

// DefaultEndpoint is the Hugging Face hub; HF_ENDPOINT overrides it.
const DefaultEndpoint = "https://huggingface.co"

const userAgent = "svc-modelref/1"

// Options tune Get. The zero value takes everything from the environment.
type Options struct {
	// Dir is the models directory (default: DefaultDir()).
	Dir string
	// Endpoint is the hub's address (default: $HF_ENDPOINT, else
	// DefaultEndpoint).
	Endpoint string
	// Token is sent as a bearer token to the hub's host only, never to the
	// CDN it redirects to nor to other hosts, and never written anywhere
	// (default: $HF_TOKEN).
	Token string
	// Client makes the requests (default: one with connect and header
	// timeouts; redirects are followed by Get itself).
	Client *http.Client
	// Progress, if set, receives a progress bar per file fetched.
	Progress io.Writer
	// Logger says what is fetched, resumed, checked (default: nothing).
	Logger *slog.Logger
	// Refresh asks the source whether a cached model is still current, and
	// fetches it again if not (svc model pull). Without it a cached model
	// is used without any request.
	Refresh bool
	// StallTimeout ends a transfer that delivers nothing for this long, to
	// be resumed (default 60 s).
	StallTimeout time.Duration
}

func (o *Options) defaults() error {
	if o.Dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return err
		}
		o.Dir = d
	}
	if o.Endpoint == "" {
		o.Endpoint = os.Getenv("HF_ENDPOINT")
	}
	if o.Endpoint == "" {
		o.Endpoint = DefaultEndpoint
	}
	if o.Token == "" {
		o.Token = os.Getenv("HF_TOKEN")
	}
	if o.Client == nil {
		o.Client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
		}}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = time.Minute
	}
	return nil
}

// Get returns the local path of the model ref names — for a split GGUF,
// the path of its first part — fetching it into the models directory
// first unless it is already there. A fetch is checked (size, the digest
// the hub publishes, the GGUF structure) before the file takes its name,
// so that a file under its final name is always a whole model. An
// interrupted transfer is resumed, in this call and, from what it kept, in
// the next; every other failure leaves nothing behind.
func Get(ctx context.Context, ref string, o Options) (string, error) {
	r, err := Parse(ref)
	if err != nil {
		return "", err
	}
	if err := o.defaults(); err != nil {
		return "", fmt.Errorf("model %s: %w", ref, err)
	}
	var first string
	for i, p := range r.parts() {
		path, err := fetchOne(ctx, p, &o)
		if err != nil {
			return "", fmt.Errorf("model %s: %w", p.Raw, err)
		}
		if i == 0 {
			first = path
		}
	}
	return first, nil
}

// source is what the hub (or server) says about a file before its transfer.
type source struct {
	url    string // where the bytes come from (the CDN for the hub)
	size   int64  // -1 when unknown
	sha256 string // hex, when published (LFS files)
	gitSHA string // hex git blob id, for files the hub keeps in git
	etag   string
}

// id names the partial file: a transfer resumes only bytes of the same
// version.
func (s source) id() string {
	h := sha256.Sum256([]byte(s.sha256 + s.gitSHA + s.etag + strconv.FormatInt(s.size, 10)))
	return hex.EncodeToString(h[:6])
}

// record is the file kept beside each fetched model, for List and Refresh.
type record struct {
	Ref     string    `json:"ref"`
	Size    int64     `json:"size"`
	SHA256  string    `json:"sha256"`
	ETag    string    `json:"etag,omitempty"`
	Fetched time.Time `json:"fetched"`
}

func fetchOne(ctx context.Context, r Ref, o *Options) (_ string, err error) {
	final := r.cachePath(o.Dir)
	if !o.Refresh && exists(final) {
		return final, nil
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", fmt.Errorf("models directory: %w", err)
	}
	defer func() {
		if err != nil {
			pruneEmpty(filepath.Dir(final), o.Dir)
		}
	}()
	unlock, err := lockDir(ctx, filepath.Dir(final), o.Logger)
	if err != nil {
		return "", err
	}
	defer unlock()
	if !o.Refresh && exists(final) {
		return final, nil // another process fetched it meanwhile
	}
	src, err := o.lookup(ctx, r)
	if err != nil {
		return "", err
	}
	if exists(final) && current(final, src) {
		o.Logger.Info("model is current", "ref", r.Raw, "path", final)
		return final, nil
	}
	partial := final + "." + src.id() + ".partial"
	removeStale(final, partial)
	o.Logger.Info("fetching model", "ref", r.Raw, "bytes", src.size, "into", final)
	if err := o.download(ctx, r, src, partial); err != nil {
		var kept *interruptedError
		if !errors.As(err, &kept) || fileSize(partial) == 0 {
			_ = os.Remove(partial)
		}
		return "", err
	}
	sum, err := verify(partial, src)
	if err != nil {
		_ = os.Remove(partial)
		return "", err
	}
	rec := record{Ref: r.Raw, Size: src.size, SHA256: sum, ETag: src.etag, Fetched: time.Now().UTC()}
	if err := install(partial, final, rec); err != nil {
		_ = os.Remove(partial)
		return "", err
	}
	o.Logger.Info("model fetched", "ref", r.Raw, "path", final, "sha256", sum)
	return final, nil
}

// lookup asks where the file's bytes are and what they must be, without
// following the hub's redirect to its CDN: the redirect carries the LFS
// digest and size (X-Linked-Etag, X-Linked-Size), as huggingface_hub
// reads them. Redirects within the hub (a renamed repository) are followed.
func (o *Options) lookup(ctx context.Context, r Ref) (source, error) {
	u := r.resolveURL(o.Endpoint)
	client := *o.Client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for range 5 {
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, u, nil)
		if err != nil {
			return source{}, err
		}
		o.authorize(req)
		req.Header.Set("Accept-Encoding", "identity")
		req.Header.Set("User-Agent", userAgent)
		resp, err := client.Do(req)
		if err != nil {
			return source{}, unreachable(req.URL, err)
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 300 && resp.StatusCode < 400:
			loc, err := resp.Location()
			if err != nil {
				return source{}, fmt.Errorf("%s answered %s without a location", req.URL.Host, resp.Status)
			}
			if resp.Header.Get("X-Linked-Etag") != "" {
				return newSource(loc.String(), resp.Header, r.URL == nil), nil
			}
			u = loc.String()
		case resp.StatusCode == http.StatusOK:
			return newSource(u, resp.Header, r.URL == nil), nil
		case r.URL != nil && (resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented):
			// A server that only answers GET: size and digest unknown, the
			// GGUF check still applies.
			return source{url: u, size: -1}, nil
		default:
			return source{}, statusError(r, req.URL, resp.StatusCode, o.Token != "")
		}
	}
	return source{}, errors.New("too many redirects")
}

func newSource(u string, h http.Header, hub bool) source {
	s := source{url: u, size: -1}
	etag := h.Get("X-Linked-Etag")
	if etag == "" {
		etag = h.Get("ETag")
	}
	s.etag = strings.Trim(strings.TrimPrefix(etag, "W/"), `"`)
	size := h.Get("X-Linked-Size")
	if size == "" {
		size = h.Get("Content-Length")
	}
	if n, err := strconv.ParseInt(size, 10, 64); err == nil && n >= 0 {
		s.size = n
	}
	switch {
	case isHex(s.etag, 64):
		s.sha256 = strings.ToLower(s.etag)
	case hub && isHex(s.etag, 40) && h.Get("X-Linked-Etag") == "":
		s.gitSHA = strings.ToLower(s.etag) // a file kept in git: its blob id
	}
	return s
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// authorize adds the token to requests for the hub's own host only.
func (o *Options) authorize(req *http.Request) {
	hub, err := url.Parse(o.Endpoint)
	if o.Token != "" && err == nil && strings.EqualFold(req.URL.Host, hub.Host) {
		req.Header.Set("Authorization", "Bearer "+o.Token)
	}
}

func unreachable(u *url.URL, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the URL
	}
	return fmt.Errorf("cannot reach %s: %w", u.Host, err)
}

func statusError(r Ref, u *url.URL, code int, haveToken bool) error {
	switch {
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && r.URL == nil && !haveToken:
		return fmt.Errorf("%s answered %d %s: the repository is gated or private; set HF_TOKEN to a token that may read it",
			u.Host, code, http.StatusText(code))
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("%s answered %d %s: access refused (with HF_TOKEN set: does the token have access, and were the repository's terms accepted?)",
			u.Host, code, http.StatusText(code))
	case code == http.StatusNotFound && r.URL == nil:
		return fmt.Errorf("%s answered 404 Not Found: no file %s in %s/%s at revision %s", u.Host, r.File, r.Owner, r.Repo, r.Revision)
	}
	return fmt.Errorf("%s answered %d %s", u.Host, code, http.StatusText(code))
}

// interruptedError is a transfer cut short: what arrived is kept for
// resuming.
type interruptedError struct{ err error }

func (e *interruptedError) Error() string { return e.err.Error() }
func (e *interruptedError) Unwrap() error { return e.err }

// download brings partial up to the source's size, resuming from what it
// holds and again after each interruption that made progress.
func (o *Options) download(ctx context.Context, r Ref, src source, partial string) error {
	var last error
	for stalls := 0; stalls < 3; {
		have := fileSize(partial)
		if src.size >= 0 && have == src.size {
			return nil
		}
		if src.size >= 0 && have > src.size {
			if err := os.Truncate(partial, 0); err != nil {
				return err
			}
			have = 0
		}
		if have > 0 {
			o.Logger.Info("resuming transfer", "ref", r.Raw, "from_byte", have)
		}
		got, err := o.transfer(ctx, r, src, partial, have)
		if err == nil {
			return nil
		}
		var kept *interruptedError
		if !errors.As(err, &kept) || ctx.Err() != nil {
			return err
		}
		last = err
		if got > 0 {
			stalls = 0
			continue
		}
		stalls++
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(stalls) * 500 * time.Millisecond):
		}
	}
	if fileSize(partial) > 0 {
		return fmt.Errorf("%w (what arrived is kept: the next attempt resumes it)", last)
	}
	return last
}

// transfer fetches the bytes from offset have onwards into partial and
// returns how many arrived.
func (o *Options) transfer(ctx context.Context, r Ref, src source, partial string, have int64) (int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src.url, nil)
	if err != nil {
		return 0, err
	}
	o.authorize(req)
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("User-Agent", userAgent)
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		// What an earlier transfer left is kept for the next attempt.
		return 0, &interruptedError{unreachable(req.URL, err)}
	}
	defer resp.Body.Close()
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	switch {
	case resp.StatusCode == http.StatusPartialContent && have > 0 && strings.HasPrefix(resp.Header.Get("Content-Range"), fmt.Sprintf("bytes %d-", have)):
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC // the server sent the whole file
		have = 0
	default:
		return 0, statusError(r, resp.Request.URL, resp.StatusCode, o.Token != "")
	}
	f, err := os.OpenFile(partial, flags, 0o644)
	if err != nil {
		return 0, fmt.Errorf("models directory: %w", err)
	}
	bar := o.bar(r, src.size, have)
	// A transfer that stalls is ended, to be resumed.
	stall := time.AfterFunc(o.StallTimeout, func() { cancel(errors.New("no data for " + o.StallTimeout.String())) })
	defer stall.Stop()
	var body io.Reader = &stallReader{r: resp.Body, timer: stall, d: o.StallTimeout}
	if bar != nil {
		body = io.TeeReader(body, bar)
	}
	n, err := copyFile(f, body)
	if bar != nil {
		_ = bar.Exit()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = &writeError{cerr}
	}
	var we *writeError
	switch {
	case errors.As(err, &we):
		return n, fmt.Errorf("writing %s: %w", partial, diskFull(we.err))
	case err != nil:
		if cause := context.Cause(ctx); cause != nil {
			err = cause // a stall, or the caller's cancellation
		}
		return n, &interruptedError{fmt.Errorf("transfer interrupted after %d of %s bytes: %w", have+n, sizeText(src.size), err)}
	}
	return n, nil
}

func sizeText(n int64) string {
	if n < 0 {
		return "?"
	}
	return strconv.FormatInt(n, 10)
}

// writeError marks a failure to write the cache, as opposed to a failure
// to read the network.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

func copyFile(f *os.File, body io.Reader) (int64, error) {
	buf := make([]byte, 256<<10)
	var n int64
	for {
		k, rerr := body.Read(buf)
		if k > 0 {
			if _, err := f.Write(buf[:k]); err != nil {
				return n, &writeError{err}
			}
			n += int64(k)
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

func diskFull(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("the disk is full: %w", err)
	}
	return err
}

type stallReader struct {
	r     io.Reader
	timer *time.Timer
	d     time.Duration
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.timer.Reset(s.d)
	}
	return n, err
}

func (o *Options) bar(r Ref, size, have int64) *progressbar.ProgressBar {
	if o.Progress == nil {
		return nil
	}
	name := filepath.Base(r.File)
	if r.URL != nil {
		name = filepath.Base(r.URL.Path)
	}
	bar := progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(o.Progress),
		progressbar.OptionSetDescription(name),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	_ = bar.Set64(have)
	return bar
}

// verify checks a finished transfer: its size, its digest when the source
// published one, and that it is a whole GGUF file. It returns the sha256.
func verify(path string, src source) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if src.size >= 0 && st.Size() != src.size {
		return "", fmt.Errorf("truncated: %d bytes arrived, the source announced %d", st.Size(), src.size)
	}
	sum := sha256.New()
	var blob hash.Hash
	w := io.Writer(sum)
	if src.gitSHA != "" {
		blob = sha1.New()
		fmt.Fprintf(blob, "blob %d\x00", st.Size())
		w = io.MultiWriter(sum, blob)
	}
	if _, err := io.Copy(w, f); err != nil {
		return "", err
	}
	got := hex.EncodeToString(sum.Sum(nil))
	if src.sha256 != "" && got != src.sha256 {
		return "", fmt.Errorf("digest mismatch: the file's sha256 is %s, the source published %s", got, src.sha256)
	}
	if blob != nil {
		if b := hex.EncodeToString(blob.Sum(nil)); b != src.gitSHA {
			return "", fmt.Errorf("digest mismatch: the file's git blob id is %s, the source published %s", b, src.gitSHA)
		}
	}
	g, err := gguf.Open(path)
	if err != nil {
		return "", fmt.Errorf("not a usable GGUF file: %w", err)
	}
	if err := g.Close(); err != nil {
		return "", err
	}
	return got, nil
}

// install gives the checked file its final name, its record first, so
// that a model under its name always has one.
func install(partial, final string, rec record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(final+".json", b); err != nil {
		return fmt.Errorf("models directory: %w", err)
	}
	err = syncFile(partial)
	if err == nil {
		err = os.Rename(partial, final)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("models directory: %w", diskFull(err)), os.Remove(final+".json"))
	}
	return syncFile(filepath.Dir(final))
}

func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		_ = os.Remove(tmp)
		return diskFull(err)
	}
	return os.Rename(tmp, path)
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// current reports whether the cached file is the version src describes.
func current(final string, src source) bool {
	b, err := os.ReadFile(final + ".json")
	if err != nil {
		return false
	}
	var rec record
	if json.Unmarshal(b, &rec) != nil || (src.size >= 0 && rec.Size != src.size) {
		return false
	}
	if src.sha256 != "" {
		return rec.SHA256 == src.sha256
	}
	return src.etag != "" && rec.ETag == src.etag
}

// removeStale deletes partial transfers of other versions of the file.
func removeStale(final, keep string) {
	old, _ := filepath.Glob(final + ".*.partial")
	for _, p := range old {
		if p != keep {
			_ = os.Remove(p)
		}
	}
}

// lockDir holds an exclusive lock on dir so that two processes never fetch
// into it at once; the kernel drops it if the process dies.
func lockDir(ctx context.Context, dir string, log *slog.Logger) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("models directory: %w", err)
	}
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for said := false; ; said = true {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN); _ = f.Close() }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("models directory: lock %s: %w", dir, err)
		}
		if !said {
			log.Info("waiting for another svc fetching into the same directory", "dir", dir)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// pruneEmpty removes dir and its parents up to root while they are empty,
// so that a failed fetch leaves no trace.
func pruneEmpty(dir, root string) {
	for dir != root && strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return // not empty, or gone
		}
		dir = filepath.Dir(dir)
	}
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

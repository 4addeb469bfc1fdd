package modelref

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Ref is a parsed model reference.
type Ref struct {
	// Raw is the reference as written; every error names it.
	Raw string
	// Hub references: hf:Owner/Repo/File[@Revision].
	Owner, Repo, File, Revision string
	// URL is the file's address for an https reference.
	URL *url.URL
}

// IsRef reports whether s names a model by reference rather than by path.
func IsRef(s string) bool {
	return strings.HasPrefix(s, "hf:") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
}

var (
	hubName   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	splitPart = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.gguf$`)
)

// Parse reads a reference: hf:OWNER/REPO/FILE.gguf[@REVISION] (FILE may lie
// in a folder of the repository; REVISION is a branch, tag or commit,
// default main) or https://HOST/…/FILE.gguf.
func Parse(s string) (Ref, error) {
	r := Ref{Raw: s}
	switch {
	case strings.HasPrefix(s, "hf:"):
		rest := strings.TrimPrefix(s, "hf:")
		r.Revision = "main"
		if i := strings.LastIndex(rest, "@"); i >= 0 {
			r.Revision, rest = rest[i+1:], rest[:i]
			if r.Revision == "" || strings.Contains(r.Revision, "..") {
				return r, fmt.Errorf("%s: the revision after @ must be a branch, tag or commit", s)
			}
		}
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) != 3 || !hubName.MatchString(parts[0]) || !hubName.MatchString(parts[1]) {
			return r, fmt.Errorf("%s: want hf:OWNER/REPO/FILE.gguf[@REVISION]", s)
		}
		r.Owner, r.Repo, r.File = parts[0], parts[1], parts[2]
		if err := checkFilePath(r.File); err != nil {
			return r, fmt.Errorf("%s: %w", s, err)
		}
	case strings.HasPrefix(s, "https://"):
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return r, fmt.Errorf("%s: not a URL", s)
		}
		if u.User != nil {
			r.Raw = u.Redacted()
			return r, fmt.Errorf("%s: credentials in the URL are not accepted (the hub's token comes from HF_TOKEN)", r.Raw)
		}
		if err := checkFilePath(strings.TrimPrefix(u.Path, "/")); err != nil {
			return r, fmt.Errorf("%s: %w", s, err)
		}
		r.URL = u
	case strings.HasPrefix(s, "http://"):
		return r, fmt.Errorf("%s: plain http is not accepted; use https", s)
	default:
		return r, fmt.Errorf("%s: not a model reference (want hf:OWNER/REPO/FILE.gguf[@REVISION] or https://…/FILE.gguf)", s)
	}
	return r, nil
}

// checkFilePath accepts a relative slash-separated path ending in .gguf,
// with no empty, "." or ".." element, so that it can name a cache file.
func checkFilePath(p string) error {
	if !strings.HasSuffix(p, ".gguf") {
		return fmt.Errorf("the file must be a .gguf")
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." || strings.ContainsAny(el, "\\\x00") {
			return fmt.Errorf("%q is not a plain file path", p)
		}
	}
	return nil
}

// IsSplit reports whether path names a part of a split GGUF
// (NAME-0000K-of-0000N.gguf with N > 1).
func IsSplit(path string) bool {
	m := splitPart.FindStringSubmatch(filepath.Base(path))
	return m != nil && m[3] != "00001"
}

// String is the reference as written.
func (r Ref) String() string { return r.Raw }

// parts returns the references of every part of a split GGUF
// (NAME-0000K-of-0000N.gguf), or r alone.
func (r Ref) parts() []Ref {
	name := r.File
	if r.URL != nil {
		name = r.URL.Path
	}
	m := splitPart.FindStringSubmatch(name)
	if m == nil {
		return []Ref{r}
	}
	n, _ := strconv.Atoi(m[3])
	if n < 2 {
		return []Ref{r}
	}
	out := make([]Ref, n)
	for i := range n {
		p := r
		part := fmt.Sprintf("%s-%05d-of-%s.gguf", m[1], i+1, m[3])
		if r.URL != nil {
			u := *r.URL
			u.Path, u.RawPath = part, ""
			p.URL = &u
			p.Raw = u.String()
		} else {
			p.File = part
			p.Raw = fmt.Sprintf("hf:%s/%s/%s@%s", r.Owner, r.Repo, part, r.Revision)
		}
		out[i] = p
	}
	return out
}

// resolveURL is where the file is fetched from.
func (r Ref) resolveURL(endpoint string) string {
	if r.URL != nil {
		return r.URL.String()
	}
	return strings.TrimSuffix(endpoint, "/") + "/" + r.Owner + "/" + r.Repo + "/resolve/" +
		url.PathEscape(r.Revision) + "/" + escapePath(r.File)
}

func escapePath(p string) string {
	els := strings.Split(p, "/")
	for i, el := range els {
		els[i] = url.PathEscape(el)
	}
	return strings.Join(els, "/")
}

// cachePath is where the file lives under dir: hf/OWNER/REPO/REVISION/FILE
// for the hub, web/HOST/HASH/NAME for a URL (HASH of the whole URL, so
// that two URLs never share a file).
func (r Ref) cachePath(dir string) string {
	if r.URL != nil {
		h := sha256.Sum256([]byte(r.URL.String()))
		return filepath.Join(dir, "web", url.PathEscape(r.URL.Host), hex.EncodeToString(h[:8]), path.Base(r.URL.Path))
	}
	return filepath.Join(dir, "hf", r.Owner, r.Repo, url.PathEscape(r.Revision), filepath.FromSlash(r.File))
}

package slice

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Fetch obtains one tensor's bytes and writes them, in order, to w. Write
// checks what arrives against the manifest; w refuses bytes beyond the
// tensor's size.
type Fetch func(ctx context.Context, t Tensor, w io.Writer) error

// DefaultParallel is how many tensors Write fetches at a time.
const DefaultParallel = 4

// Stats say what a Write did.
type Stats struct {
	Fetched, Reused int    // tensors
	Bytes           uint64 // fetched
}

// Write makes path a sparse copy of the model described by m that holds the
// tensors ts (Need's list): the same header, size and offsets as the whole
// file, holes elsewhere. It works in path+".partial" and renames it into
// place once every tensor is there and checked, so path is either absent or
// complete. A complete path that still checks is left as it is; a leftover
// partial file or a damaged path keeps the tensors that still check, and
// only the others are fetched, parallel at a time (DefaultParallel when <=
// 0). Concurrent Writes to one path are the caller's to prevent.
func Write(ctx context.Context, path string, m *Manifest, ts []Tensor, parallel int, fetch Fetch) (Stats, error) {
	var st Stats
	for _, t := range ts {
		if mt, ok := m.Tensor(t.Name); !ok || mt != t {
			return st, fmt.Errorf("slice: tensor %s is not the manifest's", t.Name)
		}
	}
	if err := Check(path, m, ts); err == nil {
		st.Reused = len(ts)
		return st, nil
	}
	work := path + ".partial"
	fresh := false
	if _, err := os.Stat(work); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(path, work); err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				return st, fmt.Errorf("slice: %w", err)
			}
			fresh = true
		}
	}
	f, err := os.OpenFile(work, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return st, fmt.Errorf("slice: %w", err)
	}
	defer f.Close()
	if err := f.Truncate(int64(m.Size)); err != nil {
		return st, fmt.Errorf("slice: size %s: %w", work, err)
	}
	if _, err := f.WriteAt(m.Header, 0); err != nil {
		return st, fmt.Errorf("slice: write header of %s: %w", work, err)
	}
	var todo []Tensor
	for _, t := range ts {
		if !fresh && checkTensor(f, m, t) == nil {
			st.Reused++
			continue
		}
		todo = append(todo, t)
	}
	if err := fetchAll(ctx, f, m, todo, parallel, fetch); err != nil {
		return st, err
	}
	st.Fetched, st.Bytes = len(todo), Bytes(todo)
	if err := f.Sync(); err != nil {
		return st, fmt.Errorf("slice: sync %s: %w", work, err)
	}
	if err := f.Close(); err != nil {
		return st, fmt.Errorf("slice: close %s: %w", work, err)
	}
	if err := os.Rename(work, path); err != nil {
		return st, fmt.Errorf("slice: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync() // make the rename durable where the file system allows
		_ = d.Close()
	}
	return st, nil
}

// fetchAll fetches the tensors into f, parallel at a time; the first
// failure cancels the others.
func fetchAll(ctx context.Context, f *os.File, m *Manifest, ts []Tensor, parallel int, fetch Fetch) error {
	if parallel <= 0 {
		parallel = DefaultParallel
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, t := range ts {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := fetchOne(ctx, f, m, t, fetch); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

func fetchOne(ctx context.Context, f *os.File, m *Manifest, t Tensor, fetch Fetch) error {
	w := &tensorWriter{f: f, off: int64(m.DataOffset() + t.Offset), left: t.Size, h: sha256.New()}
	if err := fetch(ctx, t, w); err != nil {
		return fmt.Errorf("slice: fetch tensor %s: %w", t.Name, err)
	}
	if w.err != nil {
		return fmt.Errorf("slice: tensor %s: %w", t.Name, w.err)
	}
	if w.left != 0 {
		return fmt.Errorf("slice: tensor %s: %d of %d bytes arrived", t.Name, t.Size-w.left, t.Size)
	}
	if got := hex.EncodeToString(w.h.Sum(nil)); got != t.SHA256 {
		return fmt.Errorf("slice: tensor %s: sha256 %s, the manifest says %s", t.Name, got, t.SHA256)
	}
	return nil
}

// tensorWriter writes one tensor's bytes at its place in the file, hashing
// them, and refuses more than the tensor's size.
type tensorWriter struct {
	f    *os.File
	off  int64
	left uint64
	h    hash.Hash
	err  error
}

func (w *tensorWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if uint64(len(p)) > w.left {
		w.err = fmt.Errorf("more bytes than its %d", w.left)
		return 0, w.err
	}
	n, err := w.f.WriteAt(p, w.off)
	w.h.Write(p[:n])
	w.off += int64(n)
	w.left -= uint64(n)
	if err != nil {
		w.err = err
	}
	return n, err
}

// Check verifies that path is a complete sparse copy holding ts: the
// manifest's size and header, and each tensor's sha256.
func Check(path string, m *Manifest, ts []Tensor) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("slice: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("slice: %w", err)
	}
	if uint64(st.Size()) != m.Size {
		return fmt.Errorf("slice: %s has %d bytes, the model %d", path, st.Size(), m.Size)
	}
	head := make([]byte, len(m.Header))
	if _, err := f.ReadAt(head, 0); err != nil {
		return fmt.Errorf("slice: read header of %s: %w", path, err)
	}
	if !bytes.Equal(head, m.Header) {
		return fmt.Errorf("slice: %s: header differs from the manifest's", path)
	}
	for _, t := range ts {
		if err := checkTensor(f, m, t); err != nil {
			return fmt.Errorf("slice: %s: %w", path, err)
		}
	}
	return nil
}

func checkTensor(f *os.File, m *Manifest, t Tensor) error {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, int64(m.DataOffset()+t.Offset), int64(t.Size))); err != nil {
		return fmt.Errorf("tensor %s: %w", t.Name, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != t.SHA256 {
		return fmt.Errorf("tensor %s: sha256 %s, the manifest says %s", t.Name, got, t.SHA256)
	}
	return nil
}

// ReadTensor copies one tensor of a whole model file (or of a sparse copy
// that holds it) to w: the server side of a Fetch.
func ReadTensor(r io.ReaderAt, m *Manifest, t Tensor, w io.Writer) (int64, error) {
	n, err := io.Copy(w, io.NewSectionReader(r, int64(m.DataOffset()+t.Offset), int64(t.Size)))
	if err != nil {
		return n, fmt.Errorf("slice: copy tensor %s: %w", t.Name, err)
	}
	return n, nil
}

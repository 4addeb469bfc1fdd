package apimember

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
)

// journalFile is the member's journal: JSON lines appended to a file that
// is rotated by size. When a line would take the file past max bytes, the
// file becomes NAME.1 (NAME.1 becomes NAME.2, and so on; the one past keep
// is removed) and a new NAME is started, so the journal's disk use is
// bounded by about (keep+1) × max while the newest lines, those an
// operator looks up by a request's reference, stay in place. Lines are
// never split: the server writes each in one Write.
//
// Written here rather than with a rotating-file library because the
// usual one (lumberjack) starts a goroutine it never stops.
type journalFile struct {
	path string
	max  int64
	keep int
	log  *slog.Logger

	mu   sync.Mutex
	f    *os.File
	size int64
}

// openJournal opens (or creates, mode 0600) the journal at path.
func openJournal(path string, max int64, keep int, log *slog.Logger) (*journalFile, error) {
	if max <= 0 || keep < 0 {
		return nil, fmt.Errorf("journal %s: bad rotation bounds (%d bytes, %d files)", path, max, keep)
	}
	j := &journalFile{path: path, max: max, keep: keep, log: log}
	if err := j.open(); err != nil {
		return nil, err
	}
	return j, nil
}

func (j *journalFile) open() error {
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("journal: %w", err)
	}
	j.f, j.size = f, st.Size()
	return nil
}

// Write appends p (one line), rotating first if p would take the file past
// its bound. A failed rotation is logged and the line appended to the
// current file: a journal line is worth more than the bound.
func (j *journalFile) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return 0, fmt.Errorf("journal %s: closed", j.path)
	}
	if j.size > 0 && j.size+int64(len(p)) > j.max {
		if err := j.rotate(); err != nil {
			j.log.Error("journal rotation failed; appending to the current file", "journal", j.path, "err", err)
			if j.f == nil {
				if err := j.open(); err != nil {
					return 0, err
				}
			}
		}
	}
	n, err := j.f.Write(p)
	j.size += int64(n)
	return n, err
}

// rotate shifts the older files up by one and starts a new file. Callers
// hold j.mu.
func (j *journalFile) rotate() error {
	if err := j.f.Close(); err != nil {
		return err
	}
	j.f = nil
	if j.keep == 0 {
		if err := os.Remove(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return j.open()
	}
	old := func(i int) string { return fmt.Sprintf("%s.%d", j.path, i) }
	if err := os.Remove(old(j.keep)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for i := j.keep - 1; i >= 1; i-- {
		if err := os.Rename(old(i), old(i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.Rename(j.path, old(1)); err != nil {
		return err
	}
	return j.open()
}

// Close closes the current file.
func (j *journalFile) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

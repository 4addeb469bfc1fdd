package models

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/libp2p/go-libp2p/core/peer"

	"svc/p2p"
	"svc/shards/slice"
)

// Source is the server side of p2p's slice protocol over the library:
// models are looked up by manifest hash, and authorize decides which
// tensors (an empty name: the manifest) each peer may have.
func (l *Library) Source(authorize func(p peer.ID, hash, tensor string) error, log *slog.Logger) p2p.SliceSource {
	return p2p.SliceSource{
		Lookup: func(hash string) (*slice.Manifest, []byte, io.ReaderAt, error) {
			e, ok := l.ByHash(hash)
			if !ok {
				return nil, nil, nil, fmt.Errorf("no model with manifest %s here", hash)
			}
			// The file may have been replaced since: serve it only while
			// it is still the one the manifest describes.
			cur, err := l.entry(e.Name, e.Path)
			if err != nil || cur.Hash != hash {
				return nil, nil, nil, fmt.Errorf("model %s changed since it was placed; serve it again", e.Name)
			}
			f, err := l.open(cur)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("model %s cannot be read", e.Name)
			}
			return cur.Manifest, cur.Encoded, f, nil
		},
		Authorize: authorize,
		Logger:    log,
	}
}

// open returns the entry's file, opened once and kept until Close.
func (l *Library) open(e *Entry) (*os.File, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f, ok := l.files[e.Path]; ok && f.entry == e {
		return f.f, nil
	}
	f, err := os.Open(e.Path)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	if old, ok := l.files[e.Path]; ok {
		// Replaced file: transfers in progress keep the old descriptor
		// until Close.
		l.stale = append(l.stale, old.f)
	}
	l.files[e.Path] = openFile{f: f, entry: e}
	return f, nil
}

// Close closes the files the slice server opened.
func (l *Library) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, f := range l.files {
		_ = f.f.Close()
	}
	for _, f := range l.stale {
		_ = f.Close()
	}
	l.files, l.stale = map[string]openFile{}, nil
	return nil
}

type openFile struct {
	f     *os.File
	entry *Entry
}

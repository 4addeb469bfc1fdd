package demo

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Name is the name the demo model is served under: it says it is a demo.
const Name = "stories260K-demo"

//go:embed stories260K-q8_0.gguf.gz
var compressed []byte

// GGUF returns the demo model's GGUF file, decompressed.
func GGUF() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("demo model: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("demo model: %w", err)
	}
	return b, nil
}

// FileName is the demo model's file name in a models directory.
const FileName = Name + ".gguf"

// Install writes the demo model into dir (created if missing) unless it is
// already there, and returns its path. Nodes read the header from the file
// while they run, so the model is a file like any other; it is written to a
// temporary name and renamed, so a crash never leaves a partial one.
func Install(dir string) (string, error) {
	b, err := GGUF()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName)
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, b) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("demo model: %w", err)
	}
	f, err := os.CreateTemp(dir, FileName+".*.partial")
	if err != nil {
		return "", fmt.Errorf("demo model: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o644) // a model file like any other, not a secret
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return "", errors.Join(fmt.Errorf("demo model: %w", err), os.Remove(f.Name()))
	}
	return path, nil
}

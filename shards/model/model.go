package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"svc/shards/gguf"
)

// Options tune how a model is opened.
type Options struct {
	// ContextLength caps session lengths below the trained context length
	// (0: use the model's).
	ContextLength int
	// Digest, when set, is the model's identity, taken as given instead of
	// computed from the file: for a sparse copy that holds only some
	// tensors (package slice), whose samples would not give the whole
	// model's digest. The caller has checked the file against it.
	Digest string
}

// Model is an opened GGUF model: the mapping, its configuration and
// identity. Opening touches no weights; shards page in only their own.
type Model struct {
	file   *gguf.File
	cfg    Config
	digest string
}

// Open maps a GGUF file and checks that it is a supported architecture with
// every tensor present in the right shape.
func Open(path string, opts Options) (*Model, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: open %s: %w", path, err)
	}
	m, err := New(f, opts)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, nil
}

// New wraps an already opened GGUF file; Close closes it.
func New(f *gguf.File, opts Options) (*Model, error) {
	cfg, err := ParseConfig(f)
	if err != nil {
		return nil, err
	}
	if err := checkTensors(f, &cfg); err != nil {
		return nil, err
	}
	if opts.ContextLength < 0 {
		return nil, fmt.Errorf("model: context length %d is negative", opts.ContextLength)
	}
	if opts.ContextLength > 0 && opts.ContextLength < cfg.Context {
		cfg.Context = opts.ContextLength
	}
	d := opts.Digest
	if d == "" {
		if d, err = fileDigest(f); err != nil {
			return nil, err
		}
	}
	return &Model{file: f, cfg: cfg, digest: d}, nil
}

// Config returns the model's architecture.
func (m *Model) Config() Config { return m.cfg }

// File returns the underlying GGUF file (metadata, tokenizer, tensors).
func (m *Model) File() *gguf.File { return m.file }

// Name is general.name, else the file's base name without .gguf.
func (m *Model) Name() string { return m.cfg.Name }

// Close unmaps the file. Shards of the model must be closed first.
func (m *Model) Close() error { return m.file.Close() }

// digestSample is how much of each end of a tensor goes into the digest.
const digestSample = 4096

// Digest identifies the model's content: hex sha256 of (sha256 of the GGUF
// header, i.e. the bytes before the tensor data) ‖ (sha256 of the first and
// last 4 KiB of every tensor, whole tensors when smaller). It reads with
// pread, not through the mapping, so it adds nothing to resident memory and
// never reads whole tensors. It is computed once, by Open.
func (m *Model) Digest() string { return m.digest }

func fileDigest(f *gguf.File) (string, error) {
	fd, err := os.Open(f.Path)
	if err != nil {
		return "", fmt.Errorf("model: digest: %w", err)
	}
	defer fd.Close()
	head := sha256.New()
	if _, err := io.Copy(head, io.NewSectionReader(fd, 0, int64(f.DataOffset()))); err != nil {
		return "", fmt.Errorf("model: digest %s: header: %w", f.Path, err)
	}
	sample := sha256.New()
	buf := make([]byte, 2*digestSample)
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		start := int64(f.DataOffset() + ti.Offset)
		size := int64(ti.Size)
		var parts [][2]int64
		if size <= 2*digestSample {
			parts = [][2]int64{{start, size}}
		} else {
			parts = [][2]int64{{start, digestSample}, {start + size - digestSample, digestSample}}
		}
		for _, p := range parts {
			b := buf[:p[1]]
			if _, err := fd.ReadAt(b, p[0]); err != nil {
				return "", fmt.Errorf("model: digest %s: tensor %s: %w", f.Path, ti.Name, err)
			}
			sample.Write(b)
		}
	}
	all := sha256.New()
	all.Write(head.Sum(nil))
	all.Write(sample.Sum(nil))
	return hex.EncodeToString(all.Sum(nil)), nil
}

package slice

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"svc/shards/gguf"
	"svc/shards/model"
)

// Version is the manifest format's version; Parse refuses others.
const Version = 1

// digestSample is how much of each end of a tensor goes into the model
// digest (shards/model's scheme: the first and last 4 KiB, whole tensors
// when smaller). TestDigestMatchesModel keeps the two in step.
const digestSample = 4096

// maxManifest bounds a manifest's encoding: the header of a model with a
// large vocabulary is a few MiB, the tensor table a few hundred KiB.
const maxManifest = 64 << 20

// ErrManifest is wrapped by every error about a manifest's content.
var ErrManifest = errors.New("bad model manifest")

// Tensor is one tensor of the model file.
type Tensor struct {
	Name string `json:"name"`
	// Offset is relative to the start of the data section, as in GGUF.
	Offset uint64 `json:"offset"`
	Size   uint64 `json:"size"`
	// SHA256 is the hex sha256 of the tensor's bytes.
	SHA256 string `json:"sha256"`
}

// Manifest describes a model file: enough to check every byte of any part of
// it and to rebuild its identity without the rest.
type Manifest struct {
	Version int `json:"version"`
	// Kind is empty for a model and KindAdapter for a LoRA adapter (see
	// BuildAdapter); empty is left out of the encoding, so that the hashes
	// of model manifests do not change.
	Kind string `json:"kind,omitempty"`
	// Digest is the model digest (shards/model's Model.Digest).
	Digest string `json:"digest"`
	// Size is the whole file's length in bytes.
	Size uint64 `json:"size"`
	// Header is the file's bytes before the tensor data: magic, metadata,
	// tensor table and alignment padding.
	Header []byte `json:"header"`
	// Samples is the sha256 of the tensor samples the digest is made of.
	Samples []byte   `json:"samples"`
	Tensors []Tensor `json:"tensors"`

	// Derived from Header by check; not encoded.
	cfg    model.Config
	byName map[string]int
}

// Build reads a whole model file and describes it. It reads every byte once
// (to hash each tensor) through a buffer, not a mapping, so it adds nothing
// lasting to the process's resident memory.
func Build(path string) (*Manifest, error) {
	gf, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	defer gf.Close()
	if _, err := model.ParseConfig(gf); err != nil {
		return nil, fmt.Errorf("slice: %s: %w", path, err)
	}
	return buildKind(path, gf, "")
}

// buildKind describes the file at path, whose header gf is, as a manifest of
// kind.
func buildKind(path string, gf *gguf.File, kind string) (*Manifest, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	m := &Manifest{Version: Version, Kind: kind, Size: uint64(st.Size()), Header: make([]byte, gf.DataOffset())}
	if _, err := io.ReadFull(io.NewSectionReader(fd, 0, int64(len(m.Header))), m.Header); err != nil {
		return nil, fmt.Errorf("slice: read header of %s: %w", path, err)
	}
	samples := sha256.New()
	buf := make([]byte, 1<<20)
	for i := range gf.Tensors {
		ti := &gf.Tensors[i]
		start := int64(gf.DataOffset() + ti.Offset)
		h := sha256.New()
		if _, err := io.CopyBuffer(h, io.NewSectionReader(fd, start, int64(ti.Size)), buf); err != nil {
			return nil, fmt.Errorf("slice: read tensor %s of %s: %w", ti.Name, path, err)
		}
		// The same samples as shards/model's digest: both ends, or the
		// whole tensor when it is small.
		parts := [][2]int64{{start, int64(ti.Size)}}
		if ti.Size > 2*digestSample {
			parts = [][2]int64{{start, digestSample}, {start + int64(ti.Size) - digestSample, digestSample}}
		}
		for _, p := range parts {
			b := buf[:p[1]]
			if _, err := fd.ReadAt(b, p[0]); err != nil {
				return nil, fmt.Errorf("slice: read tensor %s of %s: %w", ti.Name, path, err)
			}
			samples.Write(b)
		}
		m.Tensors = append(m.Tensors, Tensor{Name: ti.Name, Offset: ti.Offset, Size: ti.Size, SHA256: hex.EncodeToString(h.Sum(nil))})
	}
	m.Samples = samples.Sum(nil)
	m.Digest = DigestOf(m.Header, m.Samples)
	if kind == KindAdapter {
		whole := sha256.New()
		if _, err := io.CopyBuffer(whole, io.NewSectionReader(fd, 0, st.Size()), buf); err != nil {
			return nil, fmt.Errorf("slice: read %s: %w", path, err)
		}
		m.Samples, m.Digest = nil, hex.EncodeToString(whole.Sum(nil))
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("slice: %s: %w", path, err)
	}
	return m, nil
}

// DigestOf combines a header and a tensor-sample hash into a model digest
// (the same function as p2p.DigestOf).
func DigestOf(header, samples []byte) string {
	hh := sha256.Sum256(header)
	all := sha256.New()
	all.Write(hh[:])
	all.Write(samples)
	return hex.EncodeToString(all.Sum(nil))
}

// Marshal encodes the manifest canonically: the same manifest always gives
// the same bytes, which Hash hashes.
func (m *Manifest) Marshal() ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("slice: encode manifest: %w", err)
	}
	return b, nil
}

// Hash is "sha256:" + hex of the manifest's canonical encoding: what a
// signed roster carries to vouch for it.
func (m *Manifest) Hash() string {
	b, err := m.Marshal()
	if err != nil {
		// Encoding plain strings, integers and byte slices cannot fail.
		panic(err)
	}
	return HashOf(b)
}

// HashOf is the hash of an encoded manifest.
func HashOf(encoded []byte) string {
	h := sha256.Sum256(encoded)
	return "sha256:" + hex.EncodeToString(h[:])
}

// Parse decodes a manifest and checks that it is coherent: the header parses
// as a supported model, its tensor table matches the tensor list, and header
// and samples give the digest. When wantHash is not empty the encoding must
// hash to it (the hash a signed roster carries).
func Parse(b []byte, wantHash string) (*Manifest, error) {
	if len(b) > maxManifest {
		return nil, fmt.Errorf("slice: %w: %d bytes (at most %d)", ErrManifest, len(b), maxManifest)
	}
	if wantHash != "" {
		if got := HashOf(b); got != wantHash {
			return nil, fmt.Errorf("slice: %w: hashes to %s, not %s", ErrManifest, got, wantHash)
		}
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("slice: %w: %w", ErrManifest, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("slice: %w", err)
	}
	return &m, nil
}

var hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// check verifies the manifest's coherence and fills the derived fields.
func (m *Manifest) check() error {
	if m.Version != Version {
		return fmt.Errorf("%w: version %d (this build reads %d)", ErrManifest, m.Version, Version)
	}
	gf, err := gguf.ParseHeader(m.Header)
	if err != nil {
		return fmt.Errorf("%w: header: %w", ErrManifest, err)
	}
	var cfg model.Config
	switch m.Kind {
	case "":
		if cfg, err = model.ParseConfig(gf); err != nil {
			return fmt.Errorf("%w: header: %w", ErrManifest, err)
		}
	case KindAdapter:
		if err := checkAdapterHeader(gf); err != nil {
			return fmt.Errorf("%w: header: %w", ErrManifest, err)
		}
	default:
		return fmt.Errorf("%w: kind %q (this build reads models and %q)", ErrManifest, m.Kind, KindAdapter)
	}
	if a := gf.Alignment; (uint64(len(m.Header))+a-1)/a*a != uint64(len(m.Header)) || uint64(len(m.Header)) < uint64(len(gf.HeaderBytes())) {
		return fmt.Errorf("%w: header of %d bytes does not end where the tensor data begins", ErrManifest, len(m.Header))
	}
	if m.Kind == KindAdapter {
		// An adapter's digest is its whole file's sha256, which only the
		// whole file shows; the signed manifest hash vouches for it.
		if !hexSHA256.MatchString(m.Digest) || len(m.Samples) != 0 {
			return fmt.Errorf("%w: adapter digest %q is not 64 hex digits, or samples are given", ErrManifest, m.Digest)
		}
	} else {
		if len(m.Samples) != sha256.Size {
			return fmt.Errorf("%w: samples hash of %d bytes", ErrManifest, len(m.Samples))
		}
		if d := DigestOf(m.Header, m.Samples); d != m.Digest {
			return fmt.Errorf("%w: header and samples give digest %s, not %s", ErrManifest, d, m.Digest)
		}
	}
	if len(m.Tensors) != len(gf.Tensors) {
		return fmt.Errorf("%w: %d tensors listed, the header has %d", ErrManifest, len(m.Tensors), len(gf.Tensors))
	}
	m.byName = make(map[string]int, len(m.Tensors))
	for i, t := range m.Tensors {
		ti := &gf.Tensors[i]
		if t.Name != ti.Name || t.Offset != ti.Offset || t.Size != ti.Size {
			return fmt.Errorf("%w: tensor %d is %s at %d (%d bytes), the header says %s at %d (%d bytes)", ErrManifest, i, t.Name, t.Offset, t.Size, ti.Name, ti.Offset, ti.Size)
		}
		if !hexSHA256.MatchString(t.SHA256) {
			return fmt.Errorf("%w: tensor %s: sha256 %q is not 64 hex digits", ErrManifest, t.Name, t.SHA256)
		}
		if end := uint64(len(m.Header)) + t.Offset + t.Size; end > m.Size || end < t.Offset {
			return fmt.Errorf("%w: tensor %s ends at byte %d, past the file's %d", ErrManifest, t.Name, end, m.Size)
		}
		m.byName[t.Name] = i
	}
	m.cfg = cfg
	return nil
}

// Config is the model's architecture as its header gives it.
func (m *Manifest) Config() model.Config { return m.cfg }

// Blocks is the model's number of transformer blocks.
func (m *Manifest) Blocks() int { return m.cfg.Blocks }

// DataOffset is the file offset where the tensor data begins.
func (m *Manifest) DataOffset() uint64 { return uint64(len(m.Header)) }

// Tensor looks a tensor up by name.
func (m *Manifest) Tensor(name string) (Tensor, bool) {
	i, ok := m.byName[name]
	if !ok {
		return Tensor{}, false
	}
	return m.Tensors[i], true
}

// Need lists, in file order, the tensors a shard of blocks [first,last)
// reads: its blocks' tensors; the token embedding when first is 0; the
// output norm and head (the embedding when the head is tied) when last is
// the last block; and every tensor that belongs to no block and is neither
// of those (rope_freqs), which every shard reads.
func (m *Manifest) Need(first, last int) ([]Tensor, error) {
	if first < 0 || last > m.cfg.Blocks || first >= last {
		return nil, fmt.Errorf("slice: blocks [%d,%d) are not a non-empty part of the model's [0,%d)", first, last, m.cfg.Blocks)
	}
	ends := map[string]bool{"token_embd.weight": true, "output_norm.weight": true, "output.weight": true}
	want := map[string]bool{}
	if first == 0 {
		want["token_embd.weight"] = true
	}
	if last == m.cfg.Blocks {
		want["output_norm.weight"] = true
		if _, ok := m.byName["output.weight"]; ok && !m.cfg.TiedHead {
			want["output.weight"] = true
		} else {
			want["token_embd.weight"] = true
		}
	}
	var out []Tensor
	for _, t := range m.Tensors {
		b, isBlock := blockOf(t.Name)
		switch {
		case isBlock:
			if b >= first && b < last {
				out = append(out, t)
			}
		case ends[t.Name]:
			if want[t.Name] {
				out = append(out, t)
			}
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// blockOf parses the block number of a "blk.N.…" tensor name.
func blockOf(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, ".")
	if !ok {
		return 0, false
	}
	b, err := strconv.Atoi(num)
	if err != nil || b < 0 {
		return 0, false
	}
	return b, true
}

// Bytes is the total size of tensors.
func Bytes(ts []Tensor) uint64 {
	var n uint64
	for _, t := range ts {
		n += t.Size
	}
	return n
}

// RangeBytes is what a sparse slice of blocks [first,last) holds: the
// header and the tensors Need lists.
func (m *Manifest) RangeBytes(first, last int) (uint64, error) {
	ts, err := m.Need(first, last)
	if err != nil {
		return 0, err
	}
	return m.DataOffset() + Bytes(ts), nil
}

package p2p

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"

	"svc/p2p/wire"
	"svc/shards/lora"
	"svc/shards/model"
)

// LoRA adapters on a node: the node loads the pairs of its own blocks
// (and the token embedding's on the first range, the output head's on the
// last: model.Shard.AddAdapter), announces each adapter's name and file digest
// with its blocks, and opens a session with an adapter only when the
// requester names the same file. Routers build an adapter's chains from the
// hops that announce it.

// AdapterSpec is an adapter a node serves: requests name it as
// "<model>-<Name>".
type AdapterSpec struct {
	Name string
	Path string
	// Digest, when not empty, is the adapter's identity instead of the
	// file's sha256: a managed machine holds a sparse copy of the adapter
	// (its blocks' pairs only, package slice) whose whole file's sha256
	// the signed manifest carries.
	Digest string
}

// maxAdapters bounds the adapters of one announcement.
const maxAdapters = 64

// adapterName is what an adapter may be called: it becomes part of a model
// name in the API.
var adapterName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._]{0,63}$`)

// CheckAdapterName reports whether name may name an adapter (letters,
// digits, '.' and '_', up to 64; no '-', so "<model>-<adapter>" splits at
// its last dash).
func CheckAdapterName(name string) error {
	if !adapterName.MatchString(name) {
		return fmt.Errorf("adapter name %q: use 1 to 64 letters, digits, '.' or '_' (no '-'), starting with a letter or digit", name)
	}
	return nil
}

// FileDigest is the sha256 of a file, hex: an adapter's identity.
func FileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// loadAdapters checks each adapter against the shard's model and gives the
// shard its blocks' pairs; it returns what the node announces.
func loadAdapters(sh *model.Shard, specs []AdapterSpec) ([]*wire.Adapter, error) {
	var out []*wire.Adapter
	seen := map[string]bool{}
	for _, sp := range specs {
		if err := CheckAdapterName(sp.Name); err != nil {
			return nil, fmt.Errorf("p2p: %w", err)
		}
		if seen[sp.Name] {
			return nil, fmt.Errorf("p2p: adapter %q given twice", sp.Name)
		}
		seen[sp.Name] = true
		if len(seen) > maxAdapters {
			return nil, fmt.Errorf("p2p: more than %d adapters", maxAdapters)
		}
		digest := sp.Digest
		if digest == "" {
			var err error
			if digest, err = FileDigest(sp.Path); err != nil {
				return nil, fmt.Errorf("p2p: adapter %s: %w", sp.Name, err)
			}
		}
		a, err := lora.Open(sp.Path)
		if err != nil {
			return nil, fmt.Errorf("p2p: adapter %s: %w", sp.Name, err)
		}
		err = sh.AddAdapter(sp.Name, a, 1)
		a.Close() // the shard copied its blocks' pairs
		if err != nil {
			return nil, fmt.Errorf("p2p: adapter %s (%s): %w", sp.Name, sp.Path, err)
		}
		out = append(out, &wire.Adapter{Name: sp.Name, Digest: digest})
	}
	return out, nil
}

// checkAdapters validates the adapters of an announcement.
func checkAdapters(as []*wire.Adapter) error {
	if len(as) > maxAdapters {
		return fmt.Errorf("%w: %d adapters (at most %d)", ErrRecord, len(as), maxAdapters)
	}
	for _, a := range as {
		if err := CheckAdapterName(a.Name); err != nil {
			return fmt.Errorf("%w: %v", ErrRecord, err)
		}
		if b, err := hex.DecodeString(a.Digest); err != nil || len(b) != 32 {
			return fmt.Errorf("%w: adapter %s: digest %q is not 64 hex digits", ErrRecord, a.Name, a.Digest)
		}
	}
	return nil
}

// HoldsAdapter reports whether an announcement of a model lists the adapter
// (name and file digest).
func HoldsAdapter(s *wire.Served, name, digest string) bool {
	for _, a := range s.Adapters {
		if a.Name == name && a.Digest == digest {
			return true
		}
	}
	return false
}

// adapterFor checks a session's adapter against the node's: "" is the base
// model.
func (n *Node) adapterFor(o *wire.Open) error {
	if o.Adapter == "" {
		return nil
	}
	for _, a := range n.adapters {
		if a.Name == o.Adapter {
			if a.Digest != o.AdapterDigest {
				return refuse(wire.Code_UNKNOWN_MODEL, "this node's adapter %q has digest %s, not %q", a.Name, a.Digest, o.AdapterDigest)
			}
			return nil
		}
	}
	return refuse(wire.Code_UNKNOWN_MODEL, "this node holds no adapter %q", o.Adapter)
}

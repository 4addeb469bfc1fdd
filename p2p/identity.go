package p2p

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// LoadOrCreateKey reads the libp2p private key in path, or creates an
// Ed25519 key there (mode 0600) when the file does not exist, so that a
// node keeps its peer id across restarts. The new key is written to a
// temporary file and linked into place, so a crash never leaves a partial
// key and two processes starting at once end with the same one.
func LoadOrCreateKey(path string) (crypto.PrivKey, error) {
	k, err := readKey(path)
	if !errors.Is(err, os.ErrNotExist) {
		return k, err
	}
	k, _, err = crypto.GenerateEd25519Key(nil)
	if err != nil {
		return nil, fmt.Errorf("key file %s: generate: %w", path, err)
	}
	b, err := crypto.MarshalPrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("key file %s: encode: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return readKey(path) // another process created it first
	} else if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return k, nil
}

func readKey(path string) (crypto.PrivKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	k, err := crypto.UnmarshalPrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("key file %s: not a libp2p private key: %w", path, err)
	}
	return k, nil
}

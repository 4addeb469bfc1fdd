package coordinator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	bolt "go.etcd.io/bbolt"

	"svc/coordinator/audit"
	"svc/coordinator/ca"
	"svc/coordinator/store"
	"svc/p2p"
)

// caLifetime is how long the deployment CA is valid.
const caLifetime = 10 * 365 * 24 * time.Hour

// InitResult is what init made.
type InitResult struct {
	Pin    string
	Peer   string
	CACert string
}

// Init creates a deployment: the state database, the CA (its key stays in
// the database), the coordinator's libp2p key and certificate, and the
// world-readable CA certificate file. It refuses a state directory that is
// already initialised.
func Init(cfg Config, actor string, now time.Time) (*InitResult, error) {
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if _, err := os.Stat(cfg.DBPath()); err == nil {
		return nil, fmt.Errorf("%s is already initialised (its CA is in %s); to start over, move that directory away", cfg.StateDir, cfg.DBPath())
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("state: %w", err)
	}
	authority, err := ca.New(now, caLifetime)
	if err != nil {
		return nil, err
	}
	keyPEM, err := authority.KeyPEM()
	if err != nil {
		return nil, err
	}
	// A key file left by an earlier, interrupted init is reused.
	key, err := p2p.LoadOrCreateKey(cfg.KeyPath())
	if err != nil {
		return nil, err
	}
	cert, err := issueCoordinator(authority, key, cfg, now, cfg.SwarmEndpoint())
	if err != nil {
		return nil, err
	}
	st, err := store.Open(cfg.DBPath(), time.Second)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	err = st.Update(func(tx *bolt.Tx) error {
		if err := store.Put(tx, store.Meta, "ca/cert", string(authority.CertPEM())); err != nil {
			return err
		}
		if err := store.Put(tx, store.Meta, "ca/key", string(keyPEM)); err != nil {
			return err
		}
		if err := store.Put(tx, store.Meta, "coordinator/cert", cert.Raw); err != nil {
			return err
		}
		_, err := audit.Append(tx, audit.Record{Time: now, Actor: actor, Kind: "init", Target: cert.Peer.String(),
			Detail: "CA " + ca.Pin(authority.Cert) + ", endpoint " + cfg.SwarmEndpoint()})
		return err
	})
	if err != nil {
		_ = os.Remove(cfg.DBPath())
		return nil, fmt.Errorf("init: %w", err)
	}
	if err := WriteCACert(cfg.CACert, authority.CertPEM()); err != nil {
		return nil, err
	}
	return &InitResult{Pin: ca.Pin(authority.Cert), Peer: cert.Peer.String(), CACert: cfg.CACert}, nil
}

func issueCoordinator(authority *ca.CA, key lcrypto.PrivKey, cfg Config, now time.Time, endpoint string) (*ca.Member, error) {
	return authority.Issue(now, ca.IssueRequest{Key: key.GetPublic(), Label: "coordinator", Role: ca.RoleCoordinator,
		Lifetime: caLifetime, Endpoints: []string{endpoint}})
}

// WriteCACert writes the CA certificate world-readable (0644), atomically.
func WriteCACert(path string, pemBytes []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("CA certificate %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, pemBytes, 0o644); err != nil {
		return fmt.Errorf("CA certificate %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("CA certificate %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("CA certificate %s: %w", path, err)
	}
	return nil
}

func loadKey(path string) (lcrypto.PrivKey, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the coordinator's key: %w (run svc-coordinator init)", err)
	}
	return p2p.LoadOrCreateKey(path)
}

package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Buckets every coordinator state holds; others may be created by
// Bucket inside an update.
const (
	Meta       = "meta"       // CA certificate and key, counters, firewall
	Tokens     = "tokens"     // enrolment tokens by id
	Members    = "members"    // enrolled members by label
	Revoked    = "revoked"    // revoked certificate serials
	Licence    = "licence"    // the installed licence
	Placements = "placements" // model placements by name
	Audit      = "audit"      // the audit trail by sequence number
)

// ErrLocked is returned by Open when another process holds the state.
var ErrLocked = errors.New("the state database is in use by another process (is svc-coordinator run already running?)")

// Store is an open state database.
type Store struct {
	db   *bolt.DB
	path string
}

// Open opens (or creates) the database at path, waiting up to wait for the
// file lock.
func Open(path string, wait time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store: state directory: %w", err)
	}
	if wait <= 0 {
		wait = time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: wait})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("store: %s: %w", path, ErrLocked)
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	err = s.Update(func(tx *bolt.Tx) error {
		for _, b := range []string{Meta, Tokens, Members, Revoked, Licence, Placements, Audit} {
			if _, err := tx.CreateBucketIfNotExists([]byte(b)); err != nil {
				return fmt.Errorf("bucket %s: %w", b, err)
			}
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Update runs fn in one read-write transaction and commits it (fsync)
// before returning; an error from fn rolls everything back.
func (s *Store) Update(fn func(tx *bolt.Tx) error) error {
	return s.db.Update(fn)
}

// View runs fn in one read-only transaction.
func (s *Store) View(fn func(tx *bolt.Tx) error) error {
	return s.db.View(fn)
}

// Backup writes a consistent snapshot of the whole database to w.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("store: backup: %w", err)
	}
	return n, nil
}

// BackupFile writes a snapshot to path atomically (a temporary file in the
// same directory, synced, then renamed), mode 0600.
func (s *Store) BackupFile(path string) (int64, error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".backup-*")
	if err != nil {
		return 0, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	n, err := s.Backup(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return 0, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return n, nil
}

// Bucket returns the named bucket, creating it in a writable transaction.
func Bucket(tx *bolt.Tx, name string) (*bolt.Bucket, error) {
	if b := tx.Bucket([]byte(name)); b != nil {
		return b, nil
	}
	if !tx.Writable() {
		return nil, fmt.Errorf("store: no bucket %q", name)
	}
	b, err := tx.CreateBucket([]byte(name))
	if err != nil {
		return nil, fmt.Errorf("store: create bucket %q: %w", name, err)
	}
	return b, nil
}

// Put stores v as JSON under key.
func Put(tx *bolt.Tx, bucket, key string, v any) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: encode %s/%s: %w", bucket, key, err)
	}
	if err := b.Put([]byte(key), data); err != nil {
		return fmt.Errorf("store: put %s/%s: %w", bucket, key, err)
	}
	return nil
}

// Get reads key into v; false when it is absent.
func Get(tx *bolt.Tx, bucket, key string, v any) (bool, error) {
	b := tx.Bucket([]byte(bucket))
	if b == nil {
		return false, nil
	}
	data := b.Get([]byte(key))
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("store: decode %s/%s: %w", bucket, key, err)
	}
	return true, nil
}

// Delete removes key.
func Delete(tx *bolt.Tx, bucket, key string) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	if err := b.Delete([]byte(key)); err != nil {
		return fmt.Errorf("store: delete %s/%s: %w", bucket, key, err)
	}
	return nil
}

// Each decodes every value of bucket in key order and calls fn.
func Each[T any](tx *bolt.Tx, bucket string, fn func(key string, v T) error) error {
	b := tx.Bucket([]byte(bucket))
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, data []byte) error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("store: decode %s/%s: %w", bucket, k, err)
		}
		return fn(string(k), v)
	})
}

// Counter increments the named counter in Meta and returns its new value.
func Counter(tx *bolt.Tx, name string) (uint64, error) {
	var n uint64
	if _, err := Get(tx, Meta, "counter/"+name, &n); err != nil {
		return 0, err
	}
	n++
	return n, Put(tx, Meta, "counter/"+name, n)
}

package store

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

type item struct {
	Name string
	N    int
}

func TestPutGetBackup(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "state.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(func(tx *bolt.Tx) error {
		for i, n := range []string{"a", "b", "c"} {
			if err := Put(tx, Tokens, n, item{n, i}); err != nil {
				return err
			}
		}
		return Delete(tx, Tokens, "b")
	})
	if err != nil {
		t.Fatal(err)
	}
	// An update that fails leaves nothing behind.
	boom := errors.New("boom")
	if err := s.Update(func(tx *bolt.Tx) error {
		if err := Put(tx, Tokens, "d", item{"d", 9}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	var names []string
	if err := s.View(func(tx *bolt.Tx) error {
		return Each(tx, Tokens, func(k string, v item) error { names = append(names, v.Name); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || names[0] != "a" || names[1] != "c" {
		t.Fatalf("names %v", names)
	}
	// A second opener is refused while the first holds the lock.
	if _, err := Open(s.Path(), 50*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	bk := filepath.Join(dir, "backup.db")
	if _, err := s.BackupFile(bk); err != nil {
		t.Fatal(err)
	}
	b, err := Open(bk, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var got item
	if err := b.View(func(tx *bolt.Tx) error {
		ok, err := Get(tx, Tokens, "c", &got)
		if !ok {
			return errors.New("c missing from backup")
		}
		return err
	}); err != nil || got.N != 2 {
		t.Fatalf("backup: %v %+v", err, got)
	}
	var buf bytes.Buffer
	if n, err := s.Backup(&buf); err != nil || n != int64(buf.Len()) {
		t.Fatalf("backup stream: %d %v", n, err)
	}
}

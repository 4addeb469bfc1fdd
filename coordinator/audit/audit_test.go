package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"svc/coordinator/store"
)

func trail(t *testing.T, n int) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "state.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		kind := []string{"token.create", "enrol", "node.remove"}[i%3]
		err := s.Update(func(tx *bolt.Tx) error {
			_, err := Append(tx, Record{Time: base.Add(time.Duration(i) * time.Hour), Actor: []string{"root", "alice"}[i%2],
				Kind: kind, Target: "m1", Reference: "ref-" + string(rune('a'+i))})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func verify(s *store.Store) (uint64, error) {
	var n uint64
	err := s.View(func(tx *bolt.Tx) error {
		var err error
		n, err = Verify(tx)
		return err
	})
	return n, err
}

func brokenAt(t *testing.T, s *store.Store, seq uint64, words string) {
	t.Helper()
	_, err := verify(s)
	var be *BrokenError
	if !errors.As(err, &be) || be.Seq != seq || !strings.Contains(be.Error(), words) {
		t.Fatalf("verify: %v, want broken at %d (%q)", err, seq, words)
	}
}

func edit(t *testing.T, s *store.Store, seq uint64, f func(r *Record)) {
	t.Helper()
	if err := s.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(store.Audit))
		var r Record
		if err := json.Unmarshal(b.Get(seqKey(seq)), &r); err != nil {
			return err
		}
		f(&r)
		data, _ := json.Marshal(r)
		return b.Put(seqKey(seq), data)
	}); err != nil {
		t.Fatal(err)
	}
}

func TestVerify(t *testing.T) {
	s := trail(t, 6)
	if n, err := verify(s); err != nil || n != 6 {
		t.Fatalf("verify: %d %v", n, err)
	}
	t.Run("edited", func(t *testing.T) {
		s := trail(t, 6)
		edit(t, s, 3, func(r *Record) { r.Outcome = Refused })
		brokenAt(t, s, 3, "edited")
	})
	t.Run("edited and rehashed", func(t *testing.T) {
		s := trail(t, 6)
		edit(t, s, 4, func(r *Record) { r.Actor = "mallory"; r.Hash = r.hash() })
		brokenAt(t, s, 4, "record 4 was edited")
	})
	t.Run("removed", func(t *testing.T) {
		s := trail(t, 6)
		_ = s.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(store.Audit)).Delete(seqKey(2)) })
		brokenAt(t, s, 2, "record 2 was removed")
	})
	t.Run("tail removed", func(t *testing.T) {
		s := trail(t, 6)
		_ = s.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(store.Audit)).Delete(seqKey(6)) })
		brokenAt(t, s, 6, "removed")
	})
}

func TestSelectExport(t *testing.T) {
	s := trail(t, 9)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sel := func(f Filter) []Record {
		var out []Record
		if err := s.View(func(tx *bolt.Tx) error {
			var err error
			out, err = Select(tx, f)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := sel(Filter{Kind: "token"}); len(got) != 3 {
		t.Fatalf("kind token: %d records", len(got))
	}
	if got := sel(Filter{Actor: "alice", Since: base.Add(2 * time.Hour), Until: base.Add(6 * time.Hour)}); len(got) != 2 || got[0].Seq != 4 || got[1].Seq != 6 {
		t.Fatalf("actor+period: %+v", got)
	}
	if got := sel(Filter{Reference: "ref-e"}); len(got) != 1 || got[0].Seq != 5 {
		t.Fatalf("reference: %+v", got)
	}
	all := sel(Filter{})
	var jl, cs bytes.Buffer
	if err := Export(&jl, JSONL, all); err != nil {
		t.Fatal(err)
	}
	if err := Export(&cs, CSV, all); err != nil {
		t.Fatal(err)
	}
	if strings.Count(jl.String(), "\n") != 9 || strings.Count(cs.String(), "\n") != 10 {
		t.Fatalf("export lines: jsonl %d csv %d", strings.Count(jl.String(), "\n"), strings.Count(cs.String(), "\n"))
	}
	var first Record
	if err := json.Unmarshal([]byte(strings.SplitN(jl.String(), "\n", 2)[0]), &first); err != nil || first.hash() != first.Hash {
		t.Fatalf("exported record does not hash to itself: %v", err)
	}
	if err := Export(&jl, "xml", all); err == nil {
		t.Fatal("xml accepted")
	}
}

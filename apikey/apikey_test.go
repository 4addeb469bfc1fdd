package apikey

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestKeyFormat(t *testing.T) {
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	token, k := Generate(now)
	id, ok := ParseID(token)
	if !ok || id != k.ID || !strings.HasPrefix(token, "svc_") || len(token) != 4+8+1+32 {
		t.Fatalf("key %q id %q (%v), record id %q", token, id, ok, k.ID)
	}
	other := token[:len(token)-1] + "a"
	if token[len(token)-1] == 'a' {
		other = token[:len(token)-1] + "b"
	}
	if strings.Contains(k.Hash, token[13:]) || !k.Matches(token) || k.Matches(token+"x") || k.Matches(other) {
		t.Errorf("hash check: %+v", k)
	}
	for _, bad := range []string{"", "svc_", "sk-abc", "svc_ABCDEFGH_" + strings.Repeat("a", 32), "svc_abcdefgh-" + strings.Repeat("a", 32), token + "a"} {
		if _, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
	k.Models = []string{"a", "b"}
	if !k.Permits("a") || k.Permits("c") {
		t.Errorf("scope a,b")
	}
	k.Models = []string{"*"}
	if !k.Permits("c") {
		t.Errorf("scope *")
	}
	for in, want := range map[string]int{"5/min": 5, "60/m": 60, "7": 7} {
		if n, err := ParseRate(in); err != nil || n != want {
			t.Errorf("ParseRate(%q) = %d, %v", in, n, err)
		}
	}
	for _, bad := range []string{"0/min", "-1/min", "x/min", "5/h", "5.5/min", ""} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("ParseRate(%q) accepted", bad)
		}
	}
	for in, want := range map[string]time.Time{
		"2026-12-31":           time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
		"2026-12-31T18:00:00Z": time.Date(2026, 12, 31, 18, 0, 0, 0, time.UTC),
		"90m":                  now.Add(90 * time.Minute),
		"30d":                  now.Add(30 * 24 * time.Hour),
	} {
		if got, err := ParseExpiry(in, now); err != nil || !got.Equal(want) {
			t.Errorf("ParseExpiry(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "-5m", "0d", "2026-13-01"} {
		if _, err := ParseExpiry(bad, now); err == nil {
			t.Errorf("ParseExpiry(%q) accepted", bad)
		}
	}
	if m, err := ParseModels(" a, b ,a"); err != nil || len(m) != 2 {
		t.Errorf("ParseModels: %v %v", m, err)
	}
	for _, bad := range []string{"", " , ", "*,a"} {
		if _, err := ParseModels(bad); err == nil {
			t.Errorf("ParseModels(%q) accepted", bad)
		}
	}
}

// source is a key set held in memory, which can be made unreachable.
type source struct {
	mu   sync.Mutex
	set  Set
	down bool
}

func (s *source) Fetch(_ context.Context, have uint64) (Set, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return Set{}, false, errors.New("connection refused")
	}
	if s.set.Version <= have {
		return Set{}, false, nil
	}
	return s.set, true, nil
}

func (s *source) update(f func(*Set)) {
	s.mu.Lock()
	f(&s.set)
	s.set.Version++
	s.mu.Unlock()
}

func TestRing(t *testing.T) {
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	src := &source{}
	tokA, a := Generate(now)
	a.Name, a.Models, a.Rate, a.Expires = "a", []string{"*"}, 5, now.Add(time.Hour)
	tokB, b := Generate(now)
	b.Name, b.Models, b.Rate, b.Expires = "b", []string{"m"}, 5, now.Add(time.Minute)
	src.update(func(s *Set) { s.Keys = []Key{a} })
	cache := filepath.Join(t.TempDir(), "apikeys.json")
	ctx := t.Context()

	r, err := NewRing(RingConfig{Source: src, CacheFile: cache, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Check(tokA); !errors.Is(err, ErrUnavailable) {
		t.Errorf("before any fetch: %v, want unavailable", err)
	}
	if err := r.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if k, err := r.Check(tokA); err != nil || k.Name != "a" {
		t.Errorf("known key: %+v %v", k, err)
	}
	for _, bad := range []string{"", "Bearer", tokA + "x", tokB} {
		if _, err := r.Check(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Check(%q) = %v, want invalid", bad, err)
		}
	}
	src.update(func(s *Set) { s.Keys = append(s.Keys, b) })
	_ = r.Refresh(ctx)
	if _, err := r.Check(tokB); err != nil {
		t.Errorf("new key: %v", err)
	}
	now = now.Add(2 * time.Minute)
	var ee *ExpiredError
	if _, err := r.Check(tokB); !errors.As(err, &ee) || !ee.Key.Expires.Equal(b.Expires) {
		t.Errorf("expired key: %v", err)
	}
	src.update(func(s *Set) { s.Keys[0].Revoked = true })
	_ = r.Refresh(ctx)
	if _, err := r.Check(tokA); !errors.Is(err, ErrInvalid) {
		t.Errorf("revoked key: %v", err)
	}
	src.update(func(s *Set) { s.Keys[0].Revoked = false })
	_ = r.Refresh(ctx)

	// The source goes away: known keys are served through the grace, a
	// key never seen is undecidable once the set is stale.
	src.mu.Lock()
	src.down = true
	src.mu.Unlock()
	tokC, c := Generate(now)
	c.Models, c.Rate, c.Expires = []string{"*"}, 1, now.Add(time.Hour)
	if err := r.Refresh(ctx); err == nil {
		t.Error("refresh from a source that is down succeeded")
	}
	now = now.Add(10 * time.Second)
	if _, err := r.Check(tokA); err != nil {
		t.Errorf("known key during an outage: %v", err)
	}
	if _, err := r.Check(tokC); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unknown key during an outage: %v, want unavailable", err)
	}
	// A restarted API serves what it knew from the cache.
	r2, err := NewRing(RingConfig{Source: src, CacheFile: cache, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Check(tokA); err != nil || r2.Version() != r.Version() {
		t.Errorf("from the cache: %v (version %d, want %d)", err, r2.Version(), r.Version())
	}
	now = now.Add(DefaultOfflineGrace)
	if _, err := r2.Check(tokA); !errors.Is(err, ErrUnavailable) {
		t.Errorf("known key past the grace: %v, want unavailable", err)
	}
}

package apikey

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Source supplies the key set (in a deployment: the coordinator, over the
// swarm).
type Source interface {
	// Fetch returns the key set when its version is newer than have, and
	// changed = false (and no set) when it is not.
	Fetch(ctx context.Context, have uint64) (set Set, changed bool, err error)
}

// Why Check refuses a key.
var (
	// ErrInvalid: no key, a malformed or unknown key, or a revoked one.
	ErrInvalid = errors.New("invalid API key")
	// ErrUnavailable: the source cannot be reached and the ring cannot
	// decide without it (a key it has never seen, or an outage longer
	// than the offline grace).
	ErrUnavailable = errors.New("key source unreachable")
)

// ExpiredError refuses a key past its expiry.
type ExpiredError struct{ Key Key }

func (e *ExpiredError) Error() string {
	return "API key " + e.Key.ID + " expired at " + e.Key.Expires.UTC().Format("2006-01-02 15:04:05 UTC")
}

// Defaults of RingConfig.
const (
	DefaultInterval     = time.Second
	DefaultStaleAfter   = 5 * time.Second
	DefaultOfflineGrace = 15 * time.Minute
)

// RingConfig configures a Ring.
type RingConfig struct {
	Source Source
	// CacheFile keeps the last key set across restarts ("" = none).
	CacheFile string
	// Interval between fetches (default 1s).
	Interval time.Duration
	// StaleAfter is how long after the last successful fetch a key the
	// ring has never seen is answered ErrUnavailable rather than
	// ErrInvalid: it may have been created since (default 5s).
	StaleAfter time.Duration
	// OfflineGrace is how long after the last successful fetch the keys
	// the ring knows are still served (default 15 min).
	OfflineGrace time.Duration
	Now          func() time.Time
	Logger       *slog.Logger
}

// Ring is the API's copy of the key set.
type Ring struct {
	cfg RingConfig

	mu      sync.RWMutex
	set     Set
	byID    map[string]Key
	contact time.Time // last successful fetch (or the cache's)
	failing bool      // the last fetch failed (for logging once)
}

// cacheFile is the on-disk form of the ring.
type cacheFile struct {
	Fetched time.Time `json:"fetched"`
	Set     Set       `json:"set"`
}

// NewRing makes a ring, loading the cache file when there is one. A cache
// that cannot be read is an error: serving without it could refuse keys
// that are valid, or the file is not what it should be.
func NewRing(cfg RingConfig) (*Ring, error) {
	if cfg.Source == nil {
		return nil, errors.New("apikey: RingConfig.Source is required")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.StaleAfter <= 0 {
		cfg.StaleAfter = DefaultStaleAfter
	}
	if cfg.OfflineGrace <= 0 {
		cfg.OfflineGrace = DefaultOfflineGrace
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &Ring{cfg: cfg, byID: map[string]Key{}}
	if cfg.CacheFile != "" {
		b, err := os.ReadFile(cfg.CacheFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("apikey: key cache: %w", err)
		default:
			var c cacheFile
			if err := json.Unmarshal(b, &c); err != nil {
				return nil, fmt.Errorf("apikey: key cache %s: %w", cfg.CacheFile, err)
			}
			r.install(c.Set)
			r.contact = c.Fetched
		}
	}
	return r, nil
}

func (r *Ring) install(s Set) {
	byID := make(map[string]Key, len(s.Keys))
	for _, k := range s.Keys {
		byID[k.ID] = k
	}
	r.set, r.byID = s, byID
}

// Version is the version of the key set the ring holds.
func (r *Ring) Version() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.set.Version
}

// Keys returns the key set the ring holds.
func (r *Ring) Keys() Set {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.set
}

// Refresh fetches the key set once.
func (r *Ring) Refresh(ctx context.Context) error {
	set, changed, err := r.cfg.Source.Fetch(ctx, r.Version())
	now := r.cfg.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if !r.failing {
			r.cfg.Logger.Warn("cannot fetch the API key set; serving the keys already known", "err", err,
				"version", r.set.Version, "grace", r.cfg.OfflineGrace)
		}
		r.failing = true
		return fmt.Errorf("apikey: fetch: %w", err)
	}
	if r.failing {
		r.cfg.Logger.Info("API key set reachable again", "version", r.set.Version)
	}
	r.failing = false
	r.contact = now
	if !changed || set.Version <= r.set.Version {
		return nil
	}
	r.install(set)
	if r.cfg.CacheFile != "" {
		if err := writeCache(r.cfg.CacheFile, cacheFile{Fetched: now, Set: set}); err != nil {
			r.cfg.Logger.Warn("cannot write the API key cache", "file", r.cfg.CacheFile, "err", err)
		}
	}
	return nil
}

// Run refreshes the key set every Interval until ctx ends.
func (r *Ring) Run(ctx context.Context) {
	t := time.NewTicker(r.cfg.Interval)
	defer t.Stop()
	for {
		fctx, cancel := context.WithTimeout(ctx, max(r.cfg.Interval*3, 3*time.Second))
		_ = r.Refresh(fctx)
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Check decides a request's bearer key. It returns the key's record, or
// ErrInvalid, ErrUnavailable or an *ExpiredError.
func (r *Ring) Check(token string) (Key, error) {
	now := r.cfg.Now()
	id, ok := ParseID(token)
	if !ok {
		return Key{}, ErrInvalid
	}
	r.mu.RLock()
	k, known := r.byID[id]
	since := now.Sub(r.contact)
	never := r.contact.IsZero()
	r.mu.RUnlock()
	if !known || !k.Matches(token) {
		if never || since > r.cfg.StaleAfter {
			return Key{}, ErrUnavailable
		}
		return Key{}, ErrInvalid
	}
	if k.Revoked {
		return Key{}, ErrInvalid
	}
	if since > r.cfg.OfflineGrace {
		return Key{}, ErrUnavailable
	}
	if k.Expired(now) {
		return Key{}, &ExpiredError{Key: k}
	}
	return k, nil
}

func writeCache(path string, c cacheFile) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".apikeys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

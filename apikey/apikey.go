package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Prefix begins every key.
const Prefix = "svc_"

const (
	idLen     = 8
	secretLen = 32
	alphabet  = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// Key is a key's record: what the coordinator stores and the swarm carries.
// The key itself is not in it, only its hash.
type Key struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Hash    string    `json:"hash"`   // hex SHA-256 of the whole key
	Models  []string  `json:"models"` // model names, or ["*"] for every model
	Expires time.Time `json:"expires"`
	// Rate is the number of requests per minute the key may make.
	Rate    int       `json:"rate_per_min"`
	Revoked bool      `json:"revoked,omitempty"`
	Created time.Time `json:"created"`
}

// Set is the key set at one version.
type Set struct {
	Version uint64 `json:"version"`
	Keys    []Key  `json:"keys"`
}

// Generate makes a new key and its record (without name, scope, expiry or
// rate, which the caller fills in). The key is returned once; only the
// record is kept.
func Generate(now time.Time) (string, Key) {
	id, secret := randomString(idLen), randomString(secretLen)
	token := Prefix + id + "_" + secret
	return token, Key{ID: id, Hash: HashOf(token), Created: now.UTC()}
}

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// HashOf is the stored form of a key.
func HashOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ParseID returns the id of a well-formed key.
func ParseID(token string) (string, bool) {
	rest, ok := strings.CutPrefix(token, Prefix)
	if !ok || len(rest) != idLen+1+secretLen || rest[idLen] != '_' {
		return "", false
	}
	for i := 0; i < len(rest); i++ {
		if i != idLen && !strings.ContainsRune(alphabet, rune(rest[i])) {
			return "", false
		}
	}
	return rest[:idLen], true
}

// Matches reports whether token is this record's key.
func (k *Key) Matches(token string) bool {
	want, err := hex.DecodeString(k.Hash)
	if err != nil {
		return false
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(want, got[:]) == 1
}

// Permits reports whether the key's scope includes the model.
func (k *Key) Permits(model string) bool {
	return slices.Contains(k.Models, "*") || slices.Contains(k.Models, model)
}

// Expired reports whether the key has expired at now.
func (k *Key) Expired(now time.Time) bool { return !k.Expires.IsZero() && !now.Before(k.Expires) }

// Validate checks a record before it is stored or accepted.
func (k *Key) Validate() error {
	if len(k.ID) != idLen {
		return fmt.Errorf("key id %q: want %d characters", k.ID, idLen)
	}
	if b, err := hex.DecodeString(k.Hash); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("key %s: hash is not a hex SHA-256", k.ID)
	}
	if len(k.Models) == 0 {
		return fmt.Errorf("key %s: no models in scope", k.ID)
	}
	for _, m := range k.Models {
		if strings.TrimSpace(m) == "" {
			return fmt.Errorf("key %s: an empty model name in scope", k.ID)
		}
	}
	if k.Rate < 1 {
		return fmt.Errorf("key %s: rate %d per minute must be at least 1", k.ID, k.Rate)
	}
	if k.Expires.IsZero() {
		return fmt.Errorf("key %s: no expiry", k.ID)
	}
	return nil
}

// ParseRate reads a rate limit written "N/min" (or "N/m", or just N).
func ParseRate(s string) (int, error) {
	t := strings.TrimSpace(s)
	for _, suf := range []string{"/min", "/m"} {
		if v, ok := strings.CutSuffix(t, suf); ok {
			t = v
			break
		}
	}
	var n int
	if _, err := fmt.Sscanf(t, "%d", &n); err != nil || fmt.Sprint(n) != t || n < 1 {
		return 0, fmt.Errorf("rate %q: want N/min with N a positive integer", s)
	}
	return n, nil
}

// ParseExpiry reads an expiry: a date (2026-12-31, the end of that day in
// UTC), a time (RFC 3339), or a duration from now (90m, 36h, 30d).
func ParseExpiry(s string, now time.Time) (time.Time, error) {
	t := strings.TrimSpace(s)
	if d, err := time.Parse("2006-01-02", t); err == nil {
		return d.Add(24 * time.Hour).UTC(), nil
	}
	if d, err := time.Parse(time.RFC3339, t); err == nil {
		return d.UTC(), nil
	}
	if days, ok := strings.CutSuffix(t, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(days, "%d", &n); err == nil && fmt.Sprint(n) == days && n > 0 {
			return now.Add(time.Duration(n) * 24 * time.Hour).UTC(), nil
		}
	}
	if d, err := time.ParseDuration(t); err == nil && d > 0 {
		return now.Add(d).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("expiry %q: want a date (2026-12-31), a time (2026-12-31T18:00:00Z) or a duration (90m, 36h, 30d)", s)
}

// ParseModels reads a scope written "A,B" or "*".
func ParseModels(s string) ([]string, error) {
	var out []string
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m != "" && !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("models: name at least one model, or '*' for every model")
	}
	if slices.Contains(out, "*") && len(out) > 1 {
		return nil, errors.New("models: '*' already means every model; name no others with it")
	}
	return out, nil
}

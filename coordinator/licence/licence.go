package licence

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Licence is what a licence allows.
type Licence struct {
	Licensee string    `json:"licensee"`
	Issued   time.Time `json:"issued"`
	Expires  time.Time `json:"expires"`
	// Machines and Models bound enrolled machines and served models (0:
	// no bound).
	Machines int      `json:"machines"`
	Models   int      `json:"models"`
	Features []string `json:"features,omitempty"`
}

// File is a signed licence as stored.
type File struct {
	Licence   json.RawMessage `json:"licence"`
	Key       string          `json:"key"`
	Signature string          `json:"signature"`
}

// ErrLicence is wrapped by every reason a licence is refused.
var ErrLicence = errors.New("licence refused")

// ErrExpired is wrapped when a licence is past its expiry.
var ErrExpired = errors.New("licence expired")

//go:embed vendor.pub
var builtinPEM []byte

// Builtin returns the vendor keys compiled into the program.
func Builtin() []ed25519.PublicKey {
	k, err := ParsePublicKey(builtinPEM)
	if err != nil {
		// The embedded file is part of the source; a bad one is a build fault.
		panic(fmt.Sprintf("licence: built-in vendor key: %v", err))
	}
	return []ed25519.PublicKey{k}
}

// KeyID names a vendor key.
func KeyID(k ed25519.PublicKey) string {
	sum := sha256.Sum256(k)
	return hex.EncodeToString(sum[:8])
}

// GenerateKey makes a vendor key pair, PEM encoded (PKCS#8 private, PKIX
// public).
func GenerateKey() (privPEM, pubPEM []byte, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("licence: generate key: %w", err)
	}
	pd, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, fmt.Errorf("licence: encode key: %w", err)
	}
	ud, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, nil, fmt.Errorf("licence: encode public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pd}),
		pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ud}), nil
}

// ParsePrivateKey reads a PEM PKCS#8 Ed25519 key.
func ParsePrivateKey(p []byte) (ed25519.PrivateKey, error) {
	b, _ := pem.Decode(p)
	if b == nil || b.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("licence: not a PEM PRIVATE KEY")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("licence: private key: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("licence: private key is %T, not Ed25519", k)
	}
	return priv, nil
}

// ParsePublicKey reads a PEM PKIX Ed25519 public key.
func ParsePublicKey(p []byte) (ed25519.PublicKey, error) {
	b, _ := pem.Decode(p)
	if b == nil || b.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("licence: not a PEM PUBLIC KEY")
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("licence: public key: %w", err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("licence: public key is %T, not Ed25519", k)
	}
	return pub, nil
}

// ReadPublicKeyFile reads a vendor public key file.
func ReadPublicKeyFile(path string) (ed25519.PublicKey, error) {
	p, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("licence: vendor key: %w", err)
	}
	k, err := ParsePublicKey(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

func signed(l Licence) ([]byte, error) {
	if strings.TrimSpace(l.Licensee) == "" {
		return nil, fmt.Errorf("licence: licensee is empty")
	}
	if l.Machines < 0 || l.Models < 0 {
		return nil, fmt.Errorf("licence: machines and models must not be negative")
	}
	if !l.Expires.After(l.Issued) {
		return nil, fmt.Errorf("licence: expiry %s is not after issue %s", l.Expires.Format(time.RFC3339), l.Issued.Format(time.RFC3339))
	}
	l.Issued, l.Expires = l.Issued.UTC().Truncate(time.Second), l.Expires.UTC().Truncate(time.Second)
	return json.Marshal(l)
}

// Sign makes a licence file signed by key.
func Sign(l Licence, key ed25519.PrivateKey) ([]byte, error) {
	body, err := signed(l)
	if err != nil {
		return nil, err
	}
	f := File{Licence: body, Key: KeyID(key.Public().(ed25519.PublicKey)),
		Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(key, body))}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("licence: encode: %w", err)
	}
	return append(out, '\n'), nil
}

// Verify checks a licence file against trusted vendor keys at now and
// returns the licence with the id of the key that signed it. An expired
// licence is returned with an error wrapping ErrExpired.
func Verify(data []byte, trusted []ed25519.PublicKey, now time.Time) (*Licence, string, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, "", fmt.Errorf("%w: not a licence file: %v", ErrLicence, err)
	}
	if len(f.Licence) == 0 || f.Signature == "" {
		return nil, "", fmt.Errorf("%w: the file has no licence or no signature", ErrLicence)
	}
	var body bytes.Buffer
	if err := json.Compact(&body, f.Licence); err != nil {
		return nil, "", fmt.Errorf("%w: licence: %v", ErrLicence, err)
	}
	sig, err := base64.StdEncoding.DecodeString(f.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, "", fmt.Errorf("%w: the signature is not base64 of 64 bytes", ErrLicence)
	}
	i := slices.IndexFunc(trusted, func(k ed25519.PublicKey) bool { return KeyID(k) == f.Key })
	if i < 0 {
		return nil, "", fmt.Errorf("%w: signed by vendor key %s, which this coordinator does not trust (add it to vendor_keys in coordinator.toml)", ErrLicence, f.Key)
	}
	if !ed25519.Verify(trusted[i], body.Bytes(), sig) {
		return nil, "", fmt.Errorf("%w: the signature does not match its content (the file was altered)", ErrLicence)
	}
	var l Licence
	ld := json.NewDecoder(bytes.NewReader(body.Bytes()))
	ld.DisallowUnknownFields()
	if err := ld.Decode(&l); err != nil {
		return nil, "", fmt.Errorf("%w: licence fields: %v", ErrLicence, err)
	}
	if _, err := signed(l); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrLicence, err)
	}
	if !now.Before(l.Expires) {
		return &l, f.Key, fmt.Errorf("%w: %w: expired at %s", ErrLicence, ErrExpired, l.Expires.Format(time.RFC3339))
	}
	return &l, f.Key, nil
}

// Allows says whether the licence has feature f.
func (l *Licence) Allows(f string) bool { return slices.Contains(l.Features, f) }

// Summary is licence show's text.
func (l *Licence) Summary(now time.Time) string {
	bound := func(n int) string {
		if n == 0 {
			return "unlimited"
		}
		return fmt.Sprint(n)
	}
	state := "valid"
	if !now.Before(l.Expires) {
		state = "EXPIRED"
	}
	feat := strings.Join(l.Features, ", ")
	if feat == "" {
		feat = "none"
	}
	return fmt.Sprintf("licensee: %s\nstate:    %s\nissued:   %s\nexpires:  %s\nmachines: %s\nmodels:   %s\nfeatures: %s\n",
		l.Licensee, state, l.Issued.Format(time.RFC3339), l.Expires.Format(time.RFC3339), bound(l.Machines), bound(l.Models), feat)
}

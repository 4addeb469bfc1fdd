package ca

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"strings"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Roles a member certificate can carry (its subject's OrganizationalUnit).
const (
	RoleMachine     = "machine"
	RoleAPI         = "api"
	RoleCoordinator = "coordinator"
)

// peerURIScheme is the scheme of the URI SAN naming a member's peer id:
// svc-peer:12D3KooW…
const peerURIScheme = "svc-peer"

// organization names the deployment certificates' issuer and subjects.
const organization = "svc deployment"

// ErrCertificate is wrapped by every reason a certificate, pin or CRL is
// refused.
var ErrCertificate = errors.New("certificate refused")

// CA is the deployment certificate authority: an ECDSA P-256 key and its
// self-signed certificate.
type CA struct {
	Cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// New makes a CA valid from now for lifetime.
func New(now time.Time, lifetime time.Duration) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("ca: generate key: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "svc deployment CA", Organization: []string{organization}},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(lifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("ca: self-sign: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("ca: parse own certificate: %w", err)
	}
	return &CA{Cert: cert, key: key}, nil
}

// Load reads a CA from its PEM certificate and PEM (PKCS#8) key.
func Load(certPEM, keyPEM []byte) (*CA, error) {
	cert, err := ParseCertPEM(certPEM)
	if err != nil {
		return nil, err
	}
	b, _ := pem.Decode(keyPEM)
	if b == nil || b.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("ca: key is not a PEM PRIVATE KEY")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("ca: parse key: %w", err)
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("ca: key is %T, want ECDSA", k)
	}
	if !key.PublicKey.Equal(cert.PublicKey) {
		return nil, fmt.Errorf("ca: key does not match certificate")
	}
	return &CA{Cert: cert, key: key}, nil
}

// CertPEM is the CA certificate in PEM (the content of /etc/svc/ca.crt).
func (c *CA) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw})
}

// KeyPEM is the CA key in PEM (PKCS#8); it never leaves the state directory.
func (c *CA) KeyPEM() ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(c.key)
	if err != nil {
		return nil, fmt.Errorf("ca: encode key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// Signer is the CA key, for signing documents other than certificates (the
// roster).
func (c *CA) Signer() crypto.Signer { return c.key }

// ParseCertPEM reads one PEM certificate.
func ParseCertPEM(p []byte) (*x509.Certificate, error) {
	b, _ := pem.Decode(p)
	if b == nil || b.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%w: not a PEM CERTIFICATE", ErrCertificate)
	}
	cert, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCertificate, err)
	}
	return cert, nil
}

// Pin is the CA's pin as token create prints it: "sha256:" and the hex
// sha256 of the certificate's SubjectPublicKeyInfo (kubeadm's
// discovery-token-ca-cert-hash), so it survives re-issuing the CA
// certificate with the same key.
func Pin(cert *x509.Certificate) string {
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CheckPin refuses cert unless its pin is pin.
func CheckPin(cert *x509.Certificate, pin string) error {
	want, ok := strings.CutPrefix(strings.TrimSpace(pin), "sha256:")
	if !ok || len(want) != 64 {
		return fmt.Errorf("%w: pin %q is not sha256:<64 hex digits>", ErrCertificate, pin)
	}
	got := strings.TrimPrefix(Pin(cert), "sha256:")
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(want)), []byte(got)) != 1 {
		return fmt.Errorf("%w: the coordinator's CA has pin sha256:%s, not the pinned %s", ErrCertificate, got, pin)
	}
	return nil
}

// Member is what a member certificate says.
type Member struct {
	Peer      peer.ID
	Label     string
	Role      string
	Serial    *big.Int
	NotBefore time.Time
	NotAfter  time.Time
	// Endpoints are the host:port names a coordinator certificate carries.
	Endpoints []string
	Raw       []byte
}

// IssueRequest describes a member certificate.
type IssueRequest struct {
	// Key is the member's libp2p Ed25519 public key; it becomes the
	// certificate's public key, so the certificate names exactly one peer.
	Key      lcrypto.PubKey
	Label    string
	Role     string
	Lifetime time.Duration
	// Endpoints (host:port) go into the certificate as DNS or IP SANs;
	// the coordinator's certificate carries its address this way.
	Endpoints []string
}

// Issue signs a member certificate valid from now.
func (c *CA) Issue(now time.Time, r IssueRequest) (*Member, error) {
	if err := checkLabel(r.Label); err != nil {
		return nil, err
	}
	switch r.Role {
	case RoleMachine, RoleAPI, RoleCoordinator:
	default:
		return nil, fmt.Errorf("ca: role %q is not machine, api or coordinator", r.Role)
	}
	pub, err := edKey(r.Key)
	if err != nil {
		return nil, err
	}
	id, err := peer.IDFromPublicKey(r.Key)
	if err != nil {
		return nil, fmt.Errorf("ca: peer id: %w", err)
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	notAfter := now.Add(r.Lifetime)
	if notAfter.After(c.Cert.NotAfter) {
		notAfter = c.Cert.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject: pkix.Name{
			CommonName:         r.Label,
			OrganizationalUnit: []string{r.Role},
			Organization:       []string{organization},
		},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		URIs:                  []*url.URL{{Scheme: peerURIScheme, Opaque: id.String()}},
	}
	for _, ep := range r.Endpoints {
		host, _, err := net.SplitHostPort(ep)
		if err != nil {
			return nil, fmt.Errorf("ca: endpoint %q: %w", ep, err)
		}
		if ip := net.ParseIP(host); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, host)
		}
	}
	if len(r.Endpoints) > 0 {
		// The ports are not SANs; keep the whole endpoints in a second URI.
		for _, ep := range r.Endpoints {
			tmpl.URIs = append(tmpl.URIs, &url.URL{Scheme: "svc-endpoint", Opaque: ep})
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.Cert, pub, c.key)
	if err != nil {
		return nil, fmt.Errorf("ca: sign member certificate: %w", err)
	}
	return Verify(c.Cert, der, now)
}

func checkLabel(l string) error {
	if l == "" || len(l) > 63 {
		return fmt.Errorf("ca: label %q must be 1 to 63 characters", l)
	}
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("ca: label %q may hold only letters, digits, '-', '_' and '.'", l)
		}
	}
	return nil
}

func edKey(k lcrypto.PubKey) (ed25519.PublicKey, error) {
	if k == nil || k.Type() != lcrypto.Ed25519 {
		return nil, fmt.Errorf("ca: member key must be Ed25519")
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("ca: member key: %v", err)
	}
	return ed25519.PublicKey(raw), nil
}

func newSerial() (*big.Int, error) {
	s, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, fmt.Errorf("ca: serial: %w", err)
	}
	return s.Add(s, big.NewInt(1)), nil
}

// Verify checks a member certificate (DER) against the CA at now: signed by
// the CA, within its validity, an Ed25519 key whose peer id the URI SAN
// names, a label and a role.
func Verify(caCert *x509.Certificate, der []byte, now time.Time) (*Member, error) {
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCertificate, err)
	}
	if err := cert.CheckSignatureFrom(caCert); err != nil {
		return nil, fmt.Errorf("%w: not signed by this deployment's CA: %v", ErrCertificate, err)
	}
	if !bytes.Equal(cert.RawIssuer, caCert.RawSubject) {
		return nil, fmt.Errorf("%w: issuer is not this deployment's CA", ErrCertificate)
	}
	m, err := describe(cert)
	if err != nil {
		return nil, err
	}
	if now.Before(cert.NotBefore) {
		return m, fmt.Errorf("%w: %s is not valid before %s", ErrCertificate, m.Label, cert.NotBefore.UTC().Format(time.RFC3339))
	}
	if now.After(cert.NotAfter) {
		return m, fmt.Errorf("%w: %w: %s expired at %s", ErrCertificate, ErrExpired, m.Label, cert.NotAfter.UTC().Format(time.RFC3339))
	}
	return m, nil
}

// ErrExpired is wrapped when a certificate is past its NotAfter.
var ErrExpired = errors.New("certificate expired")

func describe(cert *x509.Certificate) (*Member, error) {
	pub, ok := cert.PublicKey.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%w: key is %T, not Ed25519", ErrCertificate, cert.PublicKey)
	}
	lk, err := lcrypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("%w: key: %v", ErrCertificate, err)
	}
	id, err := peer.IDFromPublicKey(lk)
	if err != nil {
		return nil, fmt.Errorf("%w: peer id: %v", ErrCertificate, err)
	}
	m := &Member{Peer: id, Label: cert.Subject.CommonName, Serial: cert.SerialNumber,
		NotBefore: cert.NotBefore, NotAfter: cert.NotAfter, Raw: cert.Raw}
	if len(cert.Subject.OrganizationalUnit) == 1 {
		m.Role = cert.Subject.OrganizationalUnit[0]
	}
	named := false
	for _, u := range cert.URIs {
		switch u.Scheme {
		case peerURIScheme:
			if u.Opaque != id.String() {
				return nil, fmt.Errorf("%w: names peer %s but its key is %s", ErrCertificate, u.Opaque, id)
			}
			named = true
		case "svc-endpoint":
			m.Endpoints = append(m.Endpoints, u.Opaque)
		}
	}
	if !named {
		return nil, fmt.Errorf("%w: no %s: URI naming its peer", ErrCertificate, peerURIScheme)
	}
	if err := checkLabel(m.Label); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCertificate, err)
	}
	switch m.Role {
	case RoleMachine, RoleAPI, RoleCoordinator:
	default:
		return nil, fmt.Errorf("%w: role %q", ErrCertificate, m.Role)
	}
	return m, nil
}

// Revoked is one entry of the revocation list.
type Revoked struct {
	Serial *big.Int
	At     time.Time
}

// CRL signs an X.509 revocation list numbered number, valid from now until
// next.
func (c *CA) CRL(now, next time.Time, number int64, revoked []Revoked) ([]byte, error) {
	entries := make([]x509.RevocationListEntry, len(revoked))
	for i, r := range revoked {
		entries[i] = x509.RevocationListEntry{SerialNumber: r.Serial, RevocationTime: r.At}
	}
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number:                    big.NewInt(number),
		ThisUpdate:                now,
		NextUpdate:                next,
		RevokedCertificateEntries: entries,
	}, c.Cert, c.key)
	if err != nil {
		return nil, fmt.Errorf("ca: sign CRL: %w", err)
	}
	return der, nil
}

// CRLSet is a verified revocation list.
type CRLSet struct {
	Number  *big.Int
	serials map[string]time.Time
}

// ParseCRL verifies a revocation list against the CA.
func ParseCRL(caCert *x509.Certificate, der []byte) (*CRLSet, error) {
	l, err := x509.ParseRevocationList(der)
	if err != nil {
		return nil, fmt.Errorf("%w: CRL: %v", ErrCertificate, err)
	}
	if err := l.CheckSignatureFrom(caCert); err != nil {
		return nil, fmt.Errorf("%w: CRL not signed by this deployment's CA: %v", ErrCertificate, err)
	}
	s := &CRLSet{Number: l.Number, serials: make(map[string]time.Time, len(l.RevokedCertificateEntries))}
	if s.Number == nil {
		s.Number = new(big.Int)
	}
	for _, e := range l.RevokedCertificateEntries {
		s.serials[e.SerialNumber.String()] = e.RevocationTime
	}
	return s, nil
}

// Revoked says whether serial is on the list.
func (s *CRLSet) Revoked(serial *big.Int) bool {
	if s == nil {
		return false
	}
	_, ok := s.serials[serial.String()]
	return ok
}

// Len is the number of revoked certificates.
func (s *CRLSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.serials)
}

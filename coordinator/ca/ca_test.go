package ca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	lcrypto "github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func newCA(t *testing.T) *CA {
	t.Helper()
	c, err := New(time.Now(), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func memberKey(t *testing.T) (lcrypto.PrivKey, peer.ID) {
	t.Helper()
	k, _, err := lcrypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, id
}

func TestIssueVerify(t *testing.T) {
	c := newCA(t)
	k, id := memberKey(t)
	now := time.Now()
	m, err := c.Issue(now, IssueRequest{Key: k.GetPublic(), Label: "m1", Role: RoleMachine, Lifetime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if m.Peer != id || m.Label != "m1" || m.Role != RoleMachine {
		t.Fatalf("member %+v, want peer %s label m1 role machine", m, id)
	}
	got, err := Verify(c.Cert, m.Raw, now.Add(30*time.Minute))
	if err != nil || got.Peer != id {
		t.Fatalf("verify: %v, %+v", err, got)
	}
	if _, err := Verify(c.Cert, m.Raw, now.Add(2*time.Hour)); !errors.Is(err, ErrExpired) {
		t.Fatalf("verify after expiry: %v, want ErrExpired", err)
	}
	// Another deployment's CA does not admit it.
	other := newCA(t)
	if _, err := Verify(other.Cert, m.Raw, now); err == nil || !strings.Contains(err.Error(), "not signed") {
		t.Fatalf("verify under another CA: %v", err)
	}
	// One flipped bit in the signed part is refused.
	tampered := append([]byte(nil), m.Raw...)
	i := strings.Index(string(tampered), "m1")
	tampered[i] = 'x'
	if _, err := Verify(c.Cert, tampered, now); err == nil {
		t.Fatal("tampered certificate verified")
	}
}

func TestCoordinatorEndpoints(t *testing.T) {
	c := newCA(t)
	k, _ := memberKey(t)
	m, err := c.Issue(time.Now(), IssueRequest{Key: k.GetPublic(), Label: "coordinator", Role: RoleCoordinator,
		Lifetime: time.Hour, Endpoints: []string{"127.0.0.1:7400", "coord.example:7401"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Endpoints, ",") != "127.0.0.1:7400,coord.example:7401" {
		t.Fatalf("endpoints %v", m.Endpoints)
	}
	cert, _ := x509.ParseCertificate(m.Raw)
	if len(cert.IPAddresses) != 1 || len(cert.DNSNames) != 1 {
		t.Fatalf("SANs %v %v", cert.IPAddresses, cert.DNSNames)
	}
}

// A certificate whose URI names another peer than its key is refused: it
// is what a forger who can sign (but with the wrong key) would produce.
func TestForgedCertificates(t *testing.T) {
	c := newCA(t)
	k, _ := memberKey(t)
	_, other := memberKey(t)
	tmpl, err := x509.ParseCertificate(mustIssue(t, c, k).Raw)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.URIs[0].Opaque = other.String()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.Cert, tmpl.PublicKey, c.key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(c.Cert, der, time.Now()); err == nil || !strings.Contains(err.Error(), "names peer") {
		t.Fatalf("mismatched URI: %v", err)
	}
	// Self-signed by a key posing as the CA (same subject, other key).
	fake, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	fakeCA := *c.Cert
	fakeCA.PublicKey = &fake.PublicKey
	der, err = x509.CreateCertificate(rand.Reader, tmpl, &fakeCA, tmpl.PublicKey, fake)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(c.Cert, der, time.Now()); err == nil {
		t.Fatal("certificate signed by an impostor verified")
	}
}

func mustIssue(t *testing.T, c *CA, k lcrypto.PrivKey) *Member {
	t.Helper()
	m, err := c.Issue(time.Now(), IssueRequest{Key: k.GetPublic(), Label: "m1", Role: RoleMachine, Lifetime: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestIssueRefusals(t *testing.T) {
	c := newCA(t)
	k, _ := memberKey(t)
	for _, r := range []IssueRequest{
		{Key: k.GetPublic(), Label: "", Role: RoleMachine, Lifetime: time.Hour},
		{Key: k.GetPublic(), Label: "a b", Role: RoleMachine, Lifetime: time.Hour},
		{Key: k.GetPublic(), Label: "m", Role: "admin", Lifetime: time.Hour},
		{Key: nil, Label: "m", Role: RoleMachine, Lifetime: time.Hour},
	} {
		if _, err := c.Issue(time.Now(), r); err == nil {
			t.Errorf("Issue(%+v) succeeded", r)
		}
	}
}

func TestPin(t *testing.T) {
	c := newCA(t)
	pin := Pin(c.Cert)
	if !strings.HasPrefix(pin, "sha256:") || len(pin) != 71 {
		t.Fatalf("pin %q", pin)
	}
	if err := CheckPin(c.Cert, pin); err != nil {
		t.Fatal(err)
	}
	if err := CheckPin(c.Cert, strings.ToUpper(pin[:7])+pin[7:]); err == nil {
		t.Fatal("pin without the sha256: prefix accepted")
	}
	if err := CheckPin(newCA(t).Cert, pin); err == nil || !strings.Contains(err.Error(), "not the pinned") {
		t.Fatalf("other CA under this pin: %v", err)
	}
	if err := CheckPin(c.Cert, "sha256:abc"); err == nil {
		t.Fatal("short pin accepted")
	}
	// Round trip through PEM keeps pin and key.
	kp, err := c.KeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	c2, err := Load(c.CertPEM(), kp)
	if err != nil || Pin(c2.Cert) != pin {
		t.Fatalf("load: %v", err)
	}
	if _, err := Load(newCA(t).CertPEM(), kp); err == nil {
		t.Fatal("key of another CA loaded")
	}
}

func TestCRL(t *testing.T) {
	c := newCA(t)
	k, _ := memberKey(t)
	m := mustIssue(t, c, k)
	now := time.Now()
	der, err := c.CRL(now, now.Add(time.Hour), 3, []Revoked{{Serial: m.Serial, At: now}})
	if err != nil {
		t.Fatal(err)
	}
	set, err := ParseCRL(c.Cert, der)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Revoked(m.Serial) || set.Revoked(big.NewInt(7)) || set.Number.Int64() != 3 || set.Len() != 1 {
		t.Fatalf("CRL set %+v", set)
	}
	if _, err := ParseCRL(newCA(t).Cert, der); err == nil {
		t.Fatal("CRL verified under another CA")
	}
	bad := append([]byte(nil), der...)
	bad[len(bad)/2] ^= 1
	if _, err := ParseCRL(c.Cert, bad); err == nil {
		t.Fatal("tampered CRL verified")
	}
}
